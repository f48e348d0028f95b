"""Replay links (web/app/replay.py): a record goes into a link and comes back unchanged,
for every registered game, finished or not; whatever text or bytes a link holds, reading it
gives a record or the module's own error (ReplayError, French), never anything else —
including a decompression bomb, bad JSON, a game of another family, an illegal move,
a record of enormous size and hostile names."""

from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path

import pytest
import replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replay import ReplayError

from pygames import FAMILIES, GAMES, DiceSampler, Match, Player
from pygames.bots import RandomBot

ROOT = Path(__file__).resolve().parent.parent


GAME_IDS = sorted(GAMES)
NAMES = ["Alice", "Bob", "Chloé", "Djamel", "Éloïse", "Farid"]
PAGE = "http://127.0.0.1:8000/pygames/yams.html"


def seeded_match(game_id, n, seed, stop=None, names=None) -> Match:
    """A seeded random game of `game_id`, stopped after `stop` actions (None: to its end)."""
    game = GAMES[game_id]
    names = names or NAMES
    players = [Player(names[i % len(names)], "human") for i in range(n)]
    match = Match(game, players, None, DiceSampler(f"replay/{seed}"))
    bot = RandomBot(seed)
    while not match.state.is_terminal() and (stop is None or len(match.history) < stop):
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(bot(match.state))
    match.advance_chance()  # as the page does before it saves
    return match


def pack(raw: bytes) -> str:
    """Raw bytes made into link data of the current format (for hostile payloads)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, replay.ZDICT)
    return replay.VERSION + "." + base64.urlsafe_b64encode(packer.compress(raw) + packer.flush()).decode().rstrip("=")


def pack_json(value) -> str:
    return pack(json.dumps(value).encode())


def family_of(game_id):
    return GAMES[game_id].family


# --- round trips -------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_id=st.sampled_from(GAME_IDS), seed=st.integers(0, 10**6), data=st.data())
def test_a_seeded_random_game_round_trips(game_id, seed, data):
    game = GAMES[game_id]
    n = data.draw(st.integers(game.min_players, min(game.max_players, 4)), label="players")
    finished = data.draw(st.booleans(), label="finished")
    stop = None if finished else data.draw(st.integers(0, 300), label="stop")
    match = seeded_match(game_id, n, seed, stop)
    record = match.to_record()
    data_text = replay.encode(record)
    assert replay.decode(data_text) == record
    url = replay.link(PAGE + "#old", record)
    assert url.startswith(PAGE + "#replay=1.") and "#old" not in url
    assert replay.from_fragment("#" + url.split("#", 1)[1]) == data_text
    back = replay.load(data_text, family_of(game_id))
    assert back.match.to_record() == record
    # The last position is the game as it stands.
    played, state = back.positions[-1]
    assert played == len(match.history)
    assert state == match.state
    assert back.finished == match.state.is_terminal()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_positions_step_through_every_player_action(game_id):
    game = GAMES[game_id]
    match = seeded_match(game_id, min(game.max_players, 3), f"steps-{game_id}")
    back = replay.load(replay.encode(match.to_record()), game.family)
    assert back.finished and back.last == len(back.moves) >= 1
    players_actions = 0
    state = game.new_state(match.players, match.options, match.start)
    for action in match.history:
        players_actions += not state.is_chance()
        state = state.apply(action)
    assert back.last == players_actions
    for k in range(back.last + 1):
        at = back.match_at(k)
        played, state = back.positions[k]
        assert not state.is_chance()
        assert at.state is state and [a.notation() for a in at.history] == [
            a.notation() for a in match.history[:played]]
        assert at.players == match.players and at.options == match.options
        if k:
            actor, action, before = back.move(k)
            assert before is back.positions[k - 1][1]
            assert actor == before.current_player() and not before.is_chance()
            assert match.history[back.positions[k - 1][0]] == action
    assert back.match_at(back.last).state == match.state
    assert back.match.history == match.history  # match_at copies: the full match is intact


def test_a_four_player_game_of_yams_makes_a_short_link():
    """The link of a whole 4-player game of Yams (the longest common game) stays short."""
    sizes = []
    for seed in range(5):
        match = seeded_match("yams", 4, f"yams4-{seed}")
        sizes.append(len(replay.link(PAGE, match.to_record())))
    assert max(sizes) < 1600, sizes


@settings(max_examples=40, deadline=None)
@given(names=st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=2), seed=st.integers(0, 999))
def test_hostile_names_round_trip_or_are_refused(names, seed):
    try:
        players = [Player(n) for n in names]
    except Exception:
        players = None
    if players is None:  # names the rules refuse: a link holding them is refused too
        record = seeded_match("421", 2, seed, stop=10).to_record()
        record["players"] = [{"name": n, "seat": "human"} for n in names]
        with pytest.raises(ReplayError):
            replay.load(replay.encode(record), "421")
        return
    match = seeded_match("421", 2, seed, stop=30, names=[p.name for p in players])
    back = replay.load(replay.encode(match.to_record()), "421")
    assert [p.name for p in back.match.players] == names


# --- anything else gives ReplayError ----------------------------------------------------


def check_only_our_error(fn, value):
    try:
        result = fn(value)
    except ReplayError as err:
        assert str(err).strip() and len(str(err)) < 400
        return None
    return result


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=300),
                 st.text(alphabet="1.AZaz09-_=+/ %#", max_size=200).map(lambda s: "1." + s)))
def test_any_text_or_bytes_decodes_to_a_record_or_our_error(value):
    result = check_only_our_error(replay.decode, value)
    assert result is None or isinstance(result, dict)
    result = check_only_our_error(lambda v: replay.load(v, "yams"), value)
    assert result is None or isinstance(result, replay.Replay)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=500))
def test_any_compressed_bytes_give_a_record_or_our_error(raw):
    check_only_our_error(replay.decode, pack(raw))
    data = replay.VERSION + "." + base64.urlsafe_b64encode(raw).decode().rstrip("=")
    check_only_our_error(replay.decode, data)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=JSON, field=st.sampled_from(["game", "players", "options", "actions", "start", "format"]))
def test_any_json_or_damaged_field_gives_a_replay_or_our_error(value, field):
    check_only_our_error(lambda v: replay.load(v, "yams"), pack_json(value))
    record = seeded_match("yams", 2, "field", stop=20).to_record()
    record[field] = value
    check_only_our_error(lambda v: replay.load(v, "yams"), pack_json(record))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.integers(0, 2000), char=st.sampled_from("A_-z09"),
       where=st.integers(0, 2000))
def test_a_truncated_or_edited_link_gives_a_replay_or_our_error(seed, cut, char, where):
    good = replay.encode(seeded_match("421", 3, seed).to_record())
    check_only_our_error(lambda v: replay.load(v, "421"), good[: cut % (len(good) + 1)])
    at = where % len(good)
    edited = good[:at] + char + good[at + 1:]
    check_only_our_error(lambda v: replay.load(v, "421"), edited)


def message(fn, value) -> str:
    with pytest.raises(ReplayError) as info:
        fn(value)
    return str(info.value)


def test_a_decompression_bomb_is_refused_without_inflating_it():
    # ~13 kB of link data inflating to 10 MB: refused when it passes MAX_RECORD.
    bomb = pack(b'{"actions":["' + b"roll" * 2_500_000 + b'"]}')
    assert len(bomb) < replay.MAX_PAYLOAD
    assert "trop de données" in message(replay.decode, bomb)


def test_enormous_links_and_records_are_refused():
    assert "trop long" in message(replay.decode, "1." + "A" * (replay.MAX_PAYLOAD + 10))
    record = seeded_match("yams", 1, "big", stop=4).to_record()
    record["actions"] = ["roll"] * (replay.MAX_ACTIONS + 1)
    assert "trop de coups" in message(replay.decode, pack_json(record))
    assert "illisible" in message(replay.decode, pack(b"[" * 100 + b"]" * 100))


def test_damaged_links_say_so_in_french():
    good = replay.encode(seeded_match("yams", 2, "dmg").to_record())
    assert "abîmé" in message(replay.decode, good[:-7])  # cut: the stream does not end
    assert "abîmé" in message(replay.decode, good[:40] + "!" + good[41:])  # not base64url
    assert "incomplet" in message(replay.decode, good.split(".", 1)[1])
    assert "autre version" in message(replay.decode, "9." + good.split(".", 1)[1])
    assert "illisible" in message(replay.decode, pack(b"{not json"))
    assert "illisible" in message(replay.decode, pack("é".encode("latin-1")))
    assert "pas une partie" in message(replay.decode, pack_json([1, 2]))


def test_a_game_of_another_family_names_its_page():
    record = seeded_match("421", 2, "other", stop=12).to_record()
    text = message(lambda v: replay.load(v, "yams"), replay.encode(record))
    assert str(FAMILIES["421"].title) in text and "page" in text


def test_an_illegal_move_is_refused_with_its_number():
    record = seeded_match("yams", 2, "illegal", stop=12).to_record()
    record["actions"][0] = "dice 6 6 6 6 6"  # a throw nobody asked for
    text = message(lambda v: replay.load(v, "yams"), replay.encode(record))
    assert "ne peut pas être rejoué" in text and "n° 1 " in text


def test_from_fragment_only_reads_replay_fragments():
    assert replay.from_fragment("") is None
    assert replay.from_fragment("#regles") is None
    assert replay.from_fragment(None) is None
    assert replay.from_fragment("#replay=1.abc") == "1.abc"
    assert replay.from_fragment("replay=") == ""


def test_a_record_stopped_before_its_dice_fell_shows_what_it_can():
    match = seeded_match("yams", 2, "mid", stop=7)
    assert match.state.rolls < 3
    record = match.to_record()
    record["actions"].append("roll")
    back = replay.load(replay.encode(record), "yams")
    assert back.positions[-1][1] == match.state  # the last action's dice never fell
    landais = Match(GAMES["de-landais"], [Player("A"), Player("B")]).to_record()
    assert landais["actions"] == []  # the opening dice have not fallen: nothing to show
    assert "aucun coup" in message(lambda v: replay.load(v, "de-landais"), replay.encode(landais))


def test_random_records_replay_with_their_own_dice():
    """A replay never draws dice: every throw comes from the record."""
    rng = random.Random(4)
    for game_id in GAME_IDS:
        match = seeded_match(game_id, GAMES[game_id].min_players, rng.randrange(10**6))
        back = replay.load(replay.encode(match.to_record()), family_of(game_id))
        assert back.match.state == match.state
