"""The statistics store of the game pages (web/app/stats.py): a finished game is counted
once, the figures shown add up, every bound holds, and whatever is read back (a stored
value, an imported file) is either a clean store or a French BadStats, never a crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import stats
from stats import BadStats

from pygames import FAMILIES

ROOT = Path(__file__).resolve().parent.parent


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
DATE = "2026-11-30T20:41:15.123Z"


def game(ident, scores, winners=None, game="yams", family="yams", names=None, draw=False, **kw):
    names = names or [f"J{i + 1}" for i in range(len(scores))]
    top = max(scores)
    winners = winners if winners is not None else [n for n, s in zip(names, scores) if s == top]
    return dict(ident=ident, date=DATE, family=family, game=game,
                players=[{"name": n, "score": s, "text": f"{s} points"} for n, s in zip(names, scores)],
                winners=winners, draw=draw, **kw)


def recorded(*games):
    store = stats.empty()
    for g in games:
        store, _ = stats.record_match(store, **g)
    return store


# --- recording -------------------------------------------------------------------------


def test_a_game_is_counted_once_whatever_brings_it_back():
    store, added = stats.record_match(stats.empty(), **game("a" * 32, [250, 180], names=["Léa", "Paul"]))
    assert added
    again, added = stats.record_match(store, **game("a" * 32, [250, 180], names=["Léa", "Paul"]))
    assert not added and again is store
    s = stats.summary(again, "yams")
    assert s["played"] == 1 and s["best"] == 250 and s["average"] == 215
    assert [(p["name"], p["wins"], p["played"], p["best"]) for p in s["players"]] == [
        ("Léa", 1, 1, 250), ("Paul", 0, 1, 180)]


def test_the_figures_add_up_over_games_and_rulesets():
    store = recorded(
        game("01" * 8, [300, 200], names=["Léa", "Paul"], highlights={"Yams": 2}),
        game("02" * 8, [150, 220], names=["Léa", "Paul"], highlights={"Yams": 1}),
        game("03" * 8, [90], names=["Léa"], game="yahtzee"),
        game("04" * 8, [-3, 0], names=["Léa", "Ordi"], game="421", family="421"),
    )
    s = stats.summary(store, "yams")
    assert s["played"] == 2 and s["best"] == 300 and s["average"] == (300 + 200 + 150 + 220) / 4
    assert s["highlights"] == {"Yams": 3}
    lea = next(p for p in s["players"] if p["name"] == "Léa")
    assert (lea["played"], lea["wins"], lea["best"], lea["average"]) == (2, 1, 300, 225)
    assert lea["rate"] == 0.5
    paul = next(p for p in s["players"] if p["name"] == "Paul")
    assert (paul["average"], paul["rate"]) == (210, 0.5)  # each name's own mean, not the seats'
    assert s["record"] == {"score": 300, "names": ["Léa"]}
    assert stats.summary(store, "yahtzee")["played"] == 1
    assert stats.summary(store, "421")["best"] == 0
    assert stats.summary(store, "421")["record"] == {"score": 0, "names": ["Ordi"]}
    assert stats.summary(store, "linotte") is None
    assert [e["id"] for e in stats.recent(store, "yams")] == ["03" * 8, "02" * 8, "01" * 8]
    assert [e["game"] for e in stats.recent(store, "421")] == ["421"]


def test_a_draw_is_a_win_for_each_tied_player():
    store = recorded(game("05" * 8, [10, 10], draw=True))
    assert [p["wins"] for p in stats.summary(store, "yams")["players"]] == [1, 1]
    assert stats.summary(store, "yams")["record"] == {"score": 10, "names": ["J1", "J2"]}
    assert stats.recent(store, "yams")[0]["draw"] is True


def test_every_list_stays_bounded():
    store = stats.empty()
    for i in range(stats.MAX_SEEN + 20):
        names = [f"N{i}", "Toujours"]
        store, added = stats.record_match(store, **game(f"{i:032x}", [i % 400, 7], names=names))
        assert added
    data = store["rulesets"]["yams"]
    assert len(store["history"]) == stats.MAX_HISTORY
    assert store["history"][-1]["id"] == f"{stats.MAX_SEEN + 19:032x}"
    assert len(store["seen"]) == stats.MAX_SEEN
    assert len(data["scores"]) == stats.MAX_SCORES
    assert len(data["players"]) == stats.MAX_NAMES and "Toujours" in data["players"]
    assert data["played"] == stats.MAX_SEEN + 20
    assert stats.check(json.loads(stats.dumps(store))) == store


def test_long_and_hostile_values_are_cut_to_what_check_accepts():
    hostile = "\u202e<img src=x onerror=alert(1)>" + "x" * 100
    store = recorded(game("06" * 8, [10**12, -10**12], names=[hostile, "b"],
                          highlights={"y" * 100: 10**15}))
    assert stats.check(json.loads(stats.dumps(store))) == store
    entry = store["history"][0]
    assert entry["players"][0]["name"] == hostile[:40] and entry["players"][0]["score"] == stats.MAX_INT


def test_a_real_finished_match(simulated):
    for family in FAMILIES.values():
        g = family.games[0]
        n = max(g.min_players, 2)
        match = simulated(g.id, names=[f"P{i}" for i in range(n)], seed="stats")
        args = stats.from_match(match, DATE, highlights={"x": 1})
        assert args["ident"] == stats.match_id(match.to_record())
        assert args["winners"] == [match.names[p] for p in match.outcome().winners]
        store, added = stats.record_match(stats.empty(), **args)
        assert added and stats.summary(store, g.id)["played"] == 1
        assert stats.check(json.loads(stats.dumps(store))) == store


def test_games_with_real_dice_are_counted_apart():
    """A game played with real dice (typed in) counts under its ruleset's ``--real`` key, a
    ruleset id an older page would leave alone; the page's dice games are not mixed in."""
    from pygames import GAMES, Match, Player
    from pygames.bots import RandomBot

    match = Match(GAMES["yams"], [Player("Léa")], dice="real")
    bot = RandomBot("real")
    while not match.state.is_terminal():
        if match.needs_faces():
            match.type_throw("6" * match.state.dice_to_throw())
        else:
            match.apply(bot(match.state))
    args = stats.from_match(match, DATE)
    assert args["game"] == "yams" + stats.REAL == "yams--real"
    store, added = stats.record_match(recorded(game("07" * 8, [100])), **args)
    assert added and stats.summary(store, "yams--real")["played"] == 1
    assert stats.summary(store, "yams")["played"] == 1
    assert stats.check(json.loads(stats.dumps(store))) == store


def test_ids_differ_with_the_record():
    a = {"format": "pygames/1", "game": "yams", "players": [], "actions": ["roll"]}
    b = dict(a, actions=["roll", "keep 1"])
    assert stats.match_id(a) != stats.match_id(b) and stats.match_id(a) == stats.match_id(dict(a))


def test_histogram_covers_every_score_once():
    assert stats.histogram([]) == []
    assert stats.histogram([5]) == [(5, 5, 1)]
    scores = [0, 1, 2, 50, 99, 100, 100, 375]
    bins = stats.histogram(scores)
    assert len(bins) <= 8 and sum(c for _, _, c in bins) == len(scores)
    assert bins[0][0] == 0 and bins[-1][1] >= 375
    assert all(b[0] == a[1] + 1 for a, b in zip(bins, bins[1:]))
    assert stats.histogram([-21, 0]) == ([(-21, -19, 1)] + [(lo, lo + 2, 0) for lo in range(-18, -3, 3)]
                                         + [(-3, -1, 0), (0, 2, 1)])


def test_french_numbers():
    assert stats.french_number(12) == "12"
    assert stats.french_number(12.0) == "12"
    assert stats.french_number(215.25) == "215,2" or stats.french_number(215.25) == "215,3"
    assert stats.french_number(-3.333) == "-3,3"
    assert stats.french_number(None) == "—"


# --- clearing, export, import -------------------------------------------------------------


def test_clearing_keeps_the_games_counted():
    store = recorded(game("07" * 8, [1, 2]))
    empty = stats.cleared(store)
    assert stats.is_empty(empty) and empty["seen"] == ["07" * 8]
    assert not stats.record_match(empty, **game("07" * 8, [1, 2]))[1]


def test_export_then_import_restores_everything():
    store = recorded(game("08" * 8, [120, 80], highlights={"Yams": 1}),
                     game("09" * 8, [-5, 0], game="421", family="421"))
    text = stats.dumps(store, indent=1)
    back = stats.imported(stats.cleared(store), json.loads(text))
    assert back == store
    assert stats.load(stats.dumps(back)) == store


def test_import_keeps_what_this_device_counted():
    here = recorded(game("0a" * 8, [1, 2]))
    there = recorded(game("0b" * 8, [3, 4]))
    new = stats.imported(here, there)
    assert new["seen"] == ["0a" * 8, "0b" * 8]
    assert new["rulesets"] == there["rulesets"]


@pytest.mark.parametrize("text", [
    "{oops", "", "null", "[]", '"x"', "5", '{"format": "pygames-stats/2"}',
    '{"format": "pygames-stats/1"}',
    '{"format": "pygames-stats/1", "rulesets": {}, "history": [], "seen": [1]}',
    '{"format": "pygames-stats/1", "rulesets": {"yams": {}}, "history": [], "seen": []}',
    '{"format": "pygames-stats/1", "rulesets": {}, "history": [{"id": "zz"}], "seen": []}',
    '{"format": "pygames-stats/1", "rulesets": {}, "history": [], "seen": ["' + "a" * 65 + '"]}',
    '{"format": "pygames-stats/1", "rulesets": {}, "history": [], "seen": []' + "}" * 3,
    '{"format": "pygames-stats/1", "rulesets": ' + "[" * 50 + "]" * 50 + "}",
    '{"format": "pygames-stats/1", "rulesets": {}, "history": [], "seen": ['
    + ",".join(['"' + "a" * 32 + '"'] * 501) + "]}",
    "1" * 5000, "x" * (stats.MAX_TEXT + 1), "NaN",
])
def test_bad_stores_are_refused_in_french(text):
    with pytest.raises(BadStats) as err:
        stats.load(text)
    assert str(err.value) and "Error" not in str(err.value)


@pytest.mark.parametrize("written", ["pygames-stats/2", "pygames-stats/17"])
def test_a_newer_store_is_its_own_error(written):
    """A newer version's store is kept in place by the page (NewerStats), where a corrupt
    one is set aside."""
    with pytest.raises(stats.NewerStats):
        stats.load(json.dumps({"format": written, "rulesets": {"yams": "?"}}))
    for other in ("pygames-stats/0", "pygames-stats/x", "pygames-stats/٣", "pygames/2"):
        with pytest.raises(BadStats) as err:
            stats.load(json.dumps({"format": other}))
        assert not isinstance(err.value, stats.NewerStats), other


def test_a_true_is_not_a_count():
    store = recorded(game("0c" * 8, [3, 4]))
    bad = json.loads(stats.dumps(store))
    bad["rulesets"]["yams"]["played"] = True
    with pytest.raises(BadStats):
        stats.check(bad)
    bad["rulesets"]["yams"]["played"] = 1.0
    with pytest.raises(BadStats):
        stats.check(bad)


def test_nothing_stored_is_an_empty_store():
    assert stats.load(None) == stats.empty()


# --- property-based: any JSON value, any mutation of a good store ------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)


@FAST
@given(JSON)
def test_any_json_value_is_a_store_or_bad_stats(value):
    try:
        clean = stats.check(value)
    except BadStats as err:
        assert str(err)
        return
    assert stats.check(json.loads(stats.dumps(clean))) == clean


@FAST
@given(st.text(max_size=200))
def test_any_text_is_a_store_or_bad_stats(text):
    try:
        stats.load(text)
    except BadStats:
        pass


GOOD = recorded(game("0d" * 8, [250, 12], highlights={"Yams": 1}, names=["Léa", "Paul"]),
                game("0e" * 8, [-4, 0], game="421", family="421"))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(GOOD) if p]


@FAST
@given(st.sampled_from(PATHS), JSON)
def test_a_good_store_with_one_value_replaced_is_a_store_or_bad_stats(path, replacement):
    bad = json.loads(stats.dumps(GOOD))
    node = bad
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = replacement
    try:
        clean = stats.check(bad)
    except BadStats:
        return
    assert stats.check(json.loads(stats.dumps(clean))) == clean


@FAST
@given(st.lists(st.tuples(st.integers(0, 40), st.lists(st.integers(-10**10, 10**10), min_size=1, max_size=6),
                          st.text(min_size=1, max_size=50), st.sampled_from(["yams", "421", "linotte"])),
                max_size=12))
def test_recorded_stores_round_trip_through_export(games):
    store = stats.empty()
    for i, (ident, scores, name, rules) in enumerate(games):
        names = [f"{name}{j}" for j in range(len(scores))]
        store, _ = stats.record_match(store, **game(f"{ident:032x}", scores, names=names, game=rules,
                                                    family=rules, highlights={name: len(scores)}))
    text = stats.dumps(store, indent=1)
    assert stats.imported(stats.empty(), json.loads(text)) == store
    assert stats.load(text) == store


def test_landed_throws_gives_each_throw_once_its_dice_have_landed():
    """The views' highlights (Linotte, Dé Landais) count what each throw showed."""
    from pygames import FAMILIES, DiceSampler, Match, Player
    from pygames.bots import bot_for
    from pygames.dice import Roll

    game = FAMILIES["linotte"].games[0]
    match = Match(game, [Player("A", "simple"), Player("B", "simple")], sampler=DiceSampler("landed"))
    bot = bot_for(game, "simple", None)
    for _ in range(60):
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(bot(match.state))
    states = list(stats.landed_throws(match, Roll))
    assert len(states) == sum(isinstance(a, Roll) for a in match.history)
    assert states and all(not s.is_chance() and len(s.dice) == 5 for s in states)
