"""Playing at a distance, by links (web/app/remote.py, pygames.core check_remote): the record's
``remote`` field comes back unchanged and old records stay valid; a link carries the game
and nothing a peer writes gets past the bounds (not a game by links, another page, an
illegal move, a forged remote field, the day's challenge, one person); two versions of one
game are told apart (newer, older, same, diverged); whose turn is played on which device;
the device's ledger is bounded and survives damage."""

from __future__ import annotations

import random

import pytest
import remote
from guard import BadStored
from replay import ReplayError, encode

from pygames import FAMILIES, GAMES, BadRecord, DiceSampler, Match, Player
from pygames.bots import RandomBot

PAGE = "http://127.0.0.1:8000/pygames/yams.html"
A, B, C = "deviceAAAAAAAAAA", "deviceBBBBBBBBBB", "deviceCCCCCCCCCC"


def two_persons(family: str, seed: str = "s", moves: int = 0) -> Match:
    game = FAMILIES[family].games[0]
    match = Match(game, [Player("Léa"), Player("Paul")], None, DiceSampler(seed))
    bot = RandomBot(seed)
    match.advance_chance()
    for _ in range(moves):
        if match.state.is_terminal():
            break
        match.apply(bot(match.state))
        match.advance_chance()
    return match


def data_of(match: Match) -> str:
    return remote.link(PAGE, match.to_record()).split("#" + remote.KEY, 1)[1]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_game_goes_back_and_forth(family):
    match = two_persons(family, moves=3)
    p = remote.person_to_play(match)
    assert p is not None and not remote.waiting(match, A)
    assert remote.can_go_remote(match, None)
    assert remote.hand_over(match, A) == p
    assert match.remote["seats"][p] is None and match.remote["by"] == A
    assert all(match.remote["seats"][q] == A for q in range(2) if q != p)
    assert remote.waiting(match, A)  # the page of A waits
    url = remote.link(PAGE, match.to_record())
    assert url.startswith(PAGE + "#play=1.")
    other = remote.read(remote.from_fragment(url.split("#", 1)[1]), family)
    assert other.to_record() == match.to_record()
    remote.claim(other, p, B)  # B opened it: the seat is B's
    assert not remote.waiting(other, B) and remote.waiting(other, A)
    assert remote.compare(match.to_record()["actions"], other.to_record()["actions"]) == "same"


def test_old_records_stay_valid_and_the_field_is_kept():
    match = two_persons("yams", moves=2)
    record = match.to_record()
    assert "remote" not in record
    assert Match.from_record(record, GAMES).remote is None
    remote.hand_over(match, A)
    again = Match.from_record(match.to_record(), GAMES)
    assert again.remote == match.remote
    assert again.to_record() == match.to_record()


@pytest.mark.parametrize("bad", [
    None, "x", [], {}, {"id": "short"}, {"id": "a" * 33, "seats": [None, None]},
    {"id": "g" * 16, "seats": [None]}, {"id": "g" * 16, "seats": [None, "<b>x</b>"]},
    {"id": "g" * 16, "seats": [None, None], "by": 3}, {"id": "g" * 16, "seats": "AB"},
    {"id": "g/" * 8, "seats": [None, None]},
])
def test_a_forged_remote_field_is_refused(bad):
    record = two_persons("yams", moves=1).to_record()
    record["remote"] = bad
    with pytest.raises(BadRecord):
        Match.from_record(record, GAMES)
    with pytest.raises(ReplayError):
        remote.read(encode(record), "yams")


def test_what_a_link_must_be():
    match = two_persons("yams", moves=2)
    with pytest.raises(ReplayError):  # a replay's record: no game by links
        remote.read(encode(match.to_record()), "yams")
    remote.hand_over(match, A)
    with pytest.raises(ReplayError):  # another page
        remote.read(data_of(match), "linotte")
    record = match.to_record()
    record["actions"] = record["actions"] + ["score nothing"]
    with pytest.raises(ReplayError):  # an illegal move
        remote.read(encode(record), "yams")
    solo = Match(GAMES["yams"], [Player("Léa"), Player("Ordi", "simple")], None, DiceSampler("s"))
    solo.remote = {"id": "g" * 16, "seats": [A, None]}
    with pytest.raises(ReplayError):  # one person only
        remote.read(encode(solo.to_record()), "yams")
    for data in ("", "1.", "2.abc", "1.$$$", "1." + "A" * 70_000, None, b"\xff"):
        with pytest.raises(ReplayError):
            remote.read(data, "yams")


def test_a_hostile_name_stays_a_name():
    game = GAMES["yams"]
    name = '<img src=x onerror="alert(1)">'
    match = Match(game, [Player(name), Player("Paul")], None, DiceSampler("s"))
    match.advance_chance()
    remote.hand_over(match, A)
    assert remote.read(data_of(match), "yams").players[0].name == name


def test_two_versions_of_one_game():
    assert remote.compare(["a", "b"], ["a", "b", "c"]) == "newer"
    assert remote.compare(["a", "b", "c"], ["a", "b"]) == "older"
    assert remote.compare(["a", "b"], ["a", "b"]) == "same"
    assert remote.compare(["a", "b"], ["a", "c"]) == "diverged"
    assert remote.compare(["a", "b"], ["a", "c", "d"]) == "diverged"
    assert remote.compare([], ["a"]) == "newer"


def test_three_devices_and_the_computer():
    """Léa (device A, where the game was set up), Paul (B), Marc (C) and a computer: each
    person's turn is played on their device, the computer on the device that has the game."""
    game = FAMILIES["421"].games[0]
    match = Match(game, [Player("Léa"), Player("Paul"), Player("Ordi", "simple"), Player("Marc")], None,
                  DiceSampler("t"))
    match.advance_chance()
    rng = random.Random(1)
    device = {0: A, 1: B, 3: C}
    here = A  # the device that has the game now
    played = set()
    for _ in range(600):
        if match.state.is_terminal():
            break
        p = match.state.current_player()
        if not match.players[p].is_computer and device[p] != here:
            if not remote.waiting(match, here):
                remote.hand_over(match, here)  # "Envoyer à …": the person is elsewhere
            assert remote.waiting(match, here)
            match = remote.read(data_of(match), "421", DiceSampler("t"))  # the link, opened there
            here = device[p]
            remote.received(match, here)
        if not match.players[p].is_computer:
            assert not remote.waiting(match, here), (p, here, match.remote)
            assert match.remote is None or all(remote.waiting(match, d) for d in {A, B, C} - {here})
            played.add(p)
        action = rng.choice(match.state.legal_actions())
        if not match.players[p].is_computer:
            remote.claim(match, p, here)
        match.apply(action)
        match.advance_chance()
    assert played == {0, 1, 3}
    assert match.remote["seats"] == [A, B, None, C]


def test_the_ledger():
    ledger = remote.Ledger.parse(None)
    assert remote.Ledger.parse(ledger.dumps()).device == ledger.device
    for i in range(remote.MAX_SEEN + 10):
        ledger.saw("yams", f"game{i:012d}", i)
    ledger.saw("yams", "game000000000069", 3)  # never less than seen
    assert len(ledger.seen) == remote.MAX_SEEN
    assert ledger.most("yams", "game000000000069") == 69 and ledger.most("yams", "game000000000000") == 0
    again = remote.Ledger.parse(ledger.dumps())
    assert again.seen == ledger.seen
    for raw in ("[]", "{", '{"device": "x"}', '{"device": "' + "d" * 16 + '", "seen": []}', "[" * 50):
        with pytest.raises(BadStored):
            remote.Ledger.parse(raw)
    odd = remote.Ledger.parse('{"device": "' + "d" * 16 + '", "seen": {"a": -1, "b": 2, "c": "x"}}')
    assert odd.seen == {"b": 2}
