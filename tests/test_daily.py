"""The day's challenge ("Défi du jour") in the rules: the day's dice are the same for
everyone at the same place of the game, whatever was decided before; the next day deals
others; the record keeps the date (and replays on the day's dice); bad dates are refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pygames import FAMILIES, BadRecord, DailySampler, GameError, Match, Player, load_match, parse_daily
from pygames.bots import RandomBot
from pygames.core import RECORD_FIELDS, play_out

DAY = "2025-06-14"


def daily_players(game):
    """The daily's seats: one person at Yams, else a person against the expert."""
    if game.min_players == 1:
        return [Player("Léa")]
    return [Player("Léa"), Player("Ordinateur", "expert" if "expert" in game.seats else game.seats[-1])]


def first_games():
    return [family.games[0] for family in FAMILIES.values()]


def throws_by_key(match):
    """Each throw's place in the game -> {place of a die in the air: its face}."""
    seen = {}
    thrown = 0
    for pos in match.positions():
        if pos.before.is_chance():
            key = pos.before.throw_key()
            key = ("throw", thrown) if key is None else key
            cup = getattr(pos.before, "cup", None)
            places = cup.rolling if cup is not None else range(len(pos.action.faces))
            seen[key] = dict(zip(places, pos.action.faces))
            thrown += 1
    return seen


def play(game, day, seed, limit=400):
    match = Match(game, daily_players(game), daily=day)
    bot = RandomBot(seed)
    while not match.state.is_terminal() and len(match.history) < limit:
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(bot(match.state))
    return match


@pytest.mark.parametrize("game", first_games(), ids=lambda g: g.family)
@settings(max_examples=8, deadline=None)
@given(a=st.integers(0, 10**6), b=st.integers(0, 10**6))
def test_same_place_same_dice_whatever_was_decided(game, a, b):
    """Two players who decide differently (a different number of decisions too) get the
    same die at the same place of the same throw of the game."""
    one, two = throws_by_key(play(game, DAY, f"a{a}")), throws_by_key(play(game, DAY, f"b{b}"))
    common = set(one) & set(two)
    assert common  # (at least the first throw)
    for key in common:
        for place in set(one[key]) & set(two[key]):
            assert one[key][place] == two[key][place], key


@pytest.mark.parametrize("game", first_games(), ids=lambda g: g.family)
def test_the_next_day_deals_other_dice(game):
    today = [throws_by_key(play(game, DAY, "same"))]
    tomorrow = [throws_by_key(play(game, "2025-06-15", "same"))]
    assert today != tomorrow


def test_yams_turn_five_first_throw_is_everyones():
    """Yams: one player keeps dice, the other rerolls them all: the next turns start alike."""
    game = FAMILIES["yams"].games[0]
    quick, slow = Match(game, [Player("A")], daily=DAY), Match(game, [Player("B")], daily=DAY)
    for turn in range(5):
        for match, extra in ((quick, 0), (slow, 2)):
            match.apply("roll")
            match.advance_chance()
            for _ in range(extra):  # two more throws, rerolling everything
                match.apply("roll")
                match.advance_chance()
            box = next(a for a in match.state.player_actions() if a.notation().startswith("score"))
            match.apply(box)
    quick.apply("roll")
    slow.apply("roll")
    quick.advance_chance()
    slow.advance_chance()
    assert quick.state.dice == slow.state.dice
    assert len(quick.history) != len(slow.history)


def test_same_day_same_dice_for_two_matches():
    game = FAMILIES["421"].games[0]
    one = play(game, DAY, "x", limit=60)
    two = Match(game, daily_players(game), daily=DAY)
    for action in one.history:  # same decisions: the same dice, throw by throw
        if two.state.is_chance():
            two.throw()
        else:
            two.apply(action)
    assert two.history == one.history


@pytest.mark.parametrize("game", first_games(), ids=lambda g: g.family)
def test_record_round_trip_keeps_the_day_and_its_dice(game):
    match = play(game, DAY, "r", limit=30)
    record = json.loads(json.dumps(match.to_record()))
    assert record["daily"] == DAY and "daily" in RECORD_FIELDS
    again = load_match(record)
    assert again.daily == DAY and isinstance(again.sampler, DailySampler)
    assert again.to_record() == record
    # the resumed game goes on with the day's dice
    while not match.state.is_chance() and not match.state.is_terminal():
        action = match.state.player_actions()[0]
        match.apply(action)
        again.apply(action)
    if match.state.is_chance():
        assert match.throw() == again.throw()


def test_record_without_daily_is_valid_and_writes_none():
    game = FAMILIES["yams"].games[0]
    record = play_out(Match(game, [Player("A")]), RandomBot("n")).to_record()
    assert "daily" not in record
    assert load_match(record).daily is None


@pytest.mark.parametrize("bad", ["2025-13-01", "2025-02-30", "25-06-14", "2025/06/14", "", "1999-12-31",
                                 "3000-01-01", "２０２５-06-14", "2025-06-14 ", None, 20250614, ["2025-06-14"],
                                 "<script>", "x" * 5000])
def test_bad_dates_are_refused(bad):
    with pytest.raises(GameError) as err:
        parse_daily(bad)
    assert err.value.message.id == "error.daily_date"
    assert len(str(err.value)) < 200
    with pytest.raises(GameError):
        DailySampler(bad, "yams")
    game = FAMILIES["yams"].games[0]
    if bad is not None:  # (None: no daily)
        with pytest.raises(GameError):
            Match(game, [Player("A")], daily=bad)
        record = Match(game, [Player("A")]).to_record()
        record["daily"] = bad
        with pytest.raises(BadRecord) as err:
            load_match(record)
        assert err.value.message.id == "record.daily_unreadable"


def test_good_dates():
    assert parse_daily("2024-02-29") == "2024-02-29"
    assert parse_daily("2000-01-01") == "2000-01-01"


def test_daily_dice_are_fair():
    sampler = DailySampler(DAY, "yams")
    counts = [0] * 7
    for n in range(3000):
        for face in sampler.faces(5, f"k{n}"):
            counts[face] += 1
    assert all(2200 < c < 2800 for c in counts[1:])
