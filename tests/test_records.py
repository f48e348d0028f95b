"""Saved games: the record round-trips through JSON and replays to the same state, and a
corrupt record is refused with a BadRecord that says what is wrong."""

from __future__ import annotations

import json

import pytest

from pygames import (
    GAMES,
    RECORD_FORMAT,
    BadRecord,
    DiceSampler,
    GameError,
    Match,
    NewerRecord,
    Player,
    find_game,
    load_match,
)
from pygames.core import play_out

HOSTILE_NAMES = [
    "<img src=x onerror=alert(1)>",
    "Robert'); DROP TABLE joueurs;--",
    "{{7*7}} ${x} %s",
    "Zoé 🎲 Ñandú",
    "é" * 40,
]


def roundtrip(record) -> dict:
    return json.loads(json.dumps(record))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_finished_game_replays_to_an_identical_state(game_id, simulated):
    game = GAMES[game_id]  # as many hostile names as the game seats, up to three
    names = HOSTILE_NAMES[: max(game.min_players, min(3, game.max_players))]
    match = simulated(game_id, names=names, seed=f"rt-{game_id}")
    assert match.state.is_terminal()
    record = match.to_record()
    assert record["format"] == RECORD_FORMAT and record["game"] == game_id
    again = load_match(roundtrip(record))
    assert again.state == match.state
    assert again.players == match.players
    assert again.options == match.options
    assert [a.notation() for a in again.history] == record["actions"]
    assert again.to_record() == record
    assert again.state.scores() == match.state.scores()


def test_options_are_saved_and_restored(simulated):
    match = simulated("yams-boite", names=["A"], options={"forced_scoring": False,
                                                          "bonus_above_63": True})
    again = load_match(roundtrip(match.to_record()))
    assert again.options == {"forced_scoring": False, "bonus_above_63": True}
    assert again.state == match.state


def by_the_dice(state):
    """A deterministic player: its choice depends on the state only."""
    legal = state.legal_actions()
    return legal[(sum(state.dice) * 7 + state.rolls) % len(legal)]


def test_half_played_game_goes_on_with_the_same_dice():
    """A seeded game reloaded half-way has the dice it would have had."""
    game = find_game("yams")
    players = [Player("Alice"), Player("Bob")]
    whole = play_out(Match(game, players, sampler=DiceSampler("s")), by_the_dice)
    half = Match(game, players, sampler=DiceSampler("s"))
    for action in whole.history[: len(whole.history) // 2]:
        half.apply(action)
    reloaded = load_match(roundtrip(half.to_record()), DiceSampler("s"))
    assert reloaded.state == half.state
    play_out(reloaded, by_the_dice)
    assert reloaded.state == whole.state
    assert [a.notation() for a in reloaded.history] == [a.notation() for a in whole.history]
    other = play_out(load_match(roundtrip(half.to_record()), DiceSampler("t")), by_the_dice)
    assert other.history != whole.history


def test_kept_places_survive_the_record():
    match = Match(find_game("yams"), [Player("Alice")])
    for move in ("roll", "dice 3 3 1 5 3", "keep 3 3 5 @1,2,4", "dice 6 6"):
        match.apply(move)
    record = roundtrip(match.to_record())
    assert record["actions"][2] == "keep 3 3 5 @1,2,4"
    assert load_match(record).state.dice == (3, 3, 6, 5, 6)


def record(**changes) -> dict:
    base = {
        "format": RECORD_FORMAT,
        "game": "yams",
        "options": {},
        "players": [{"name": "Alice", "seat": "human"}, {"name": "Bob", "seat": "simple"}],
        "actions": ["roll", "dice 3 3 3 2 2", "score full"],
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


def test_the_base_record_is_good():
    match = load_match(record())
    assert match.state.sheet(0).boxes["full"] == 25
    assert match.players[1].is_computer


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_names_are_just_names(name):
    match = load_match(record(players=[{"name": name}]))
    assert match.players[0].name == name
    assert roundtrip(match.to_record())["players"][0]["name"] == name


@pytest.mark.parametrize(
    "name",
    ["", "   ", "a\nb", "a\tb", "nul\x00", "\x1b[31mrouge", "del\x7f", "csi\x9b31m", "x" * 41, 42,
     None, ["Alice"]],
)
def test_bad_names_are_refused(name):
    with pytest.raises(GameError):
        Player(name)
    with pytest.raises(BadRecord, match="Partie enregistrée invalide\u00a0: "):
        load_match(record(players=[{"name": name}]))


CORRUPT = [
    # (record, words the message must contain)
    ([], "un objet JSON est attendu"),
    (42, "un objet JSON est attendu"),
    ('"yams"', "un objet JSON est attendu"),
    ("[1, 2]", "un objet JSON est attendu"),
    (None, "un objet JSON est attendu"),
    (record(format=...), "Format de partie inconnu"),
    (record(format="pygames/0"), "Format de partie inconnu\u00a0: 'pygames/0'"),
    (record(format="pygames/2"), "version plus récente de pygames (pygames/2)"),
    (record(format="pygames/²"), "Format de partie inconnu"),
    (record(format="pygames/-1"), "Format de partie inconnu"),
    (record(game="chess"), "Jeu inconnu\u00a0: 'chess'"),
    (record(game=...), "Jeu inconnu"),
    (record(game=["yams"]), "Jeu inconnu"),
    (record(game={"id": "yams"}), "Jeu inconnu"),
    (record(players=...), "Liste des joueurs illisible"),
    (record(players="Alice"), "Liste des joueurs illisible"),
    (record(players=["Alice"]), "Liste des joueurs illisible"),
    (record(players=[]), "se joue de 1 à 6 joueurs"),
    (record(players=[{"name": f"J{i}"} for i in range(7)]), "se joue de 1 à 6 joueurs"),
    (record(players=[{"name": "Alice", "seat": "god"}]), "Place inconnue"),
    (record(players=[{"seat": "human"}]), "Chaque joueur a besoin d'un nom"),
    (record(options=[]), "Options illisibles"),
    (record(options={"turbo": True}), "Option inconnue pour yams\u00a0: turbo"),
    (record(options={"single_prime": "yes"}), "Option single_prime\u00a0: oui ou non attendu"),
    (record(actions=...), "Liste des coups illisible"),
    (record(actions="roll"), "Liste des coups illisible"),
    (record(actions=["roll", 3]), "Liste des coups illisible"),
    (record(actions=["roll", "dice 3 3 3 2 2", "score full", "score chance"]),
     "Coup n° 4 («\u00a0score chance\u00a0») invalide\u00a0: Lancez d'abord les dés."),
    (record(actions=["roll", "dice 3 3 3 9 2"]), "Coup n° 2 («\u00a0dice 3 3 3 9 2\u00a0») invalide"),
    (record(actions=["roll", "jump"]), "Coup n° 2 («\u00a0jump\u00a0») invalide"),
    (record(actions=["score full"]), "Coup n° 1"),
    (record(game="yahtzee", actions=["roll", "dice 1 1 2 2 3", "score pair"]),
     "Case inconnue"),
]


@pytest.mark.parametrize("bad, words", CORRUPT)
def test_corrupt_records_raise_bad_record(bad, words):
    with pytest.raises(BadRecord) as err:
        load_match(bad)
    assert words in str(err.value)
    assert isinstance(err.value, GameError)


@pytest.mark.parametrize("written", ["pygames/2", "pygames/10", "pygames/999999999999"])
def test_a_newer_format_is_its_own_error(written):
    """A record of a newer version is not corrupt: the pages keep it in place and ask for an
    update (NewerRecord), where they set a corrupt one aside."""
    with pytest.raises(NewerRecord):
        load_match(record(format=written))
    with pytest.raises(BadRecord) as err:
        load_match(record(format="pygames/0"))
    assert not isinstance(err.value, NewerRecord)


def test_fields_this_version_does_not_know_are_written_back():
    """A newer version's fields (the record's and a player's) come back as they were, beside
    what this version writes; the fields it knows are its own."""
    future = record(players=[{"name": "Alice", "seat": "human", "colour": "#c00"},
                             {"name": "Bob", "seat": "simple", "avatar": {"dé": 6}}],
                    undo=False, note="partie du dimanche", clock={"seconds": [12, 40]},
                    options={"four_kind_is_two_pairs": False, "single_prime": False})
    match = load_match(roundtrip(future))
    again = roundtrip(match.to_record())
    assert again == future
    match.apply("roll")  # played on: the record moves on, the unknown fields stay
    moved = roundtrip(match.to_record())
    assert moved["note"] == "partie du dimanche" and moved["clock"] == {"seconds": [12, 40]}
    assert moved["players"][1]["avatar"] == {"dé": 6} and moved["undo"] is False
    assert len(moved["actions"]) == 4
    assert load_match(moved).to_record() == moved


def test_unknown_fields_never_override_the_known_ones():
    match = load_match(record(players=[{"name": "Alice", "seat": "human", "x": 1}]))
    written = match.to_record()
    assert list(written["players"][0]) == ["x", "name", "seat"] and written["format"] == RECORD_FORMAT
    assert Match(find_game("yams"), [Player("A")]).to_record().keys() == {
        "format", "game", "options", "players", "actions"}


def test_actions_after_the_end_are_refused(simulated):
    good = simulated("yahtzee", names=["A"]).to_record()
    bad = roundtrip(good)
    bad["actions"].append("roll")
    with pytest.raises(BadRecord, match="La partie est terminée"):
        load_match(bad)


@pytest.mark.parametrize("cut", [1, 10, 0.5])
def test_truncated_json_text_is_a_bad_record(simulated, cut):
    text = json.dumps(simulated("yams", names=["A"]).to_record())
    assert load_match(text).state.is_terminal()  # the whole text loads
    end = int(len(text) * cut) if isinstance(cut, float) else len(text) - cut
    with pytest.raises(BadRecord, match="illisible"):
        load_match(text[:end])


@pytest.mark.parametrize("text", ["", "not json", "[" * 100_000, b"\xff\xfe"])
def test_unreadable_json_text_is_a_bad_record(text):
    with pytest.raises(BadRecord, match="illisible"):
        load_match(text)


def test_match_from_record_uses_the_registry_it_is_given():
    with pytest.raises(BadRecord, match="Jeu inconnu"):
        Match.from_record(record(), {})
