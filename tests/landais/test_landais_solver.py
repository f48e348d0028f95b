"""The expert's table: the numpy solver against a brute-force value iteration written
straight from the rules on a small target, the shipped tables' integrity (header,
fingerprint, hash, values that satisfy one more step of the recursion), the expert and
the advisor, and `solve de-landais`."""

from __future__ import annotations

import io
import time
from collections import Counter
from itertools import product

import pytest
from support import shipped_tables

from pygames import GameError, Match, Player, find_game
from pygames.cli import main
from pygames.landais import ROLL, SEAL, TARGETS, classify
from pygames.landais.bots import ExpertBot, advise
from pygames.landais.tables import fingerprint, load_tables

np = pytest.importorskip("numpy")
from pygames.landais.solver import Model, solve  # noqa: E402


def tables_for_target(target):
    return shipped_tables("de-landais", {"target": target})

GAME = find_game("de-landais")
READINGS = Counter((r.kind, r.points) for r in map(classify, product(range(1, 7), repeat=3)))


def brute_force(target: int, floor: int, tol: float = 1e-13) -> dict:
    """W[(a, b, f)] in points, by plain value iteration over dicts (no grouping by
    levels, no closed forms): the rules as the seed states them."""
    scores = range(floor, target, 50)
    W = {(a, b, f): 0.5 for a in scores for b in scores for f in range(0, target - a + 1, 50)}
    G = {(k, a, b, f): 0.5 for k in ("licorne", "chimere") for (a, b, f) in W}

    def free(a, b, f):
        seal = 1.0 if a + f == target else 1.0 - W[(b, a + f, 0)]
        return max(W[(a, b, f)], seal)

    while True:
        change = 0.0
        for (a, b, f) in W:
            end = 1.0 - W[(b, a, 0)]
            total = 0.0
            for (kind, v), n in READINGS.items():
                if kind in ("poigne", "points"):
                    g = f + v
                    x = end if a + g > target else (W[(a, b, g)] if kind == "poigne" else free(a, b, g))
                elif kind == "troll":
                    x = free(a, b, 0)
                elif kind == "vereux":
                    x = 1.0 - W[(b, max(a - 100, floor), 0)]
                elif kind in ("licorne", "chimere"):
                    x = G[(kind, a, b, f)]
                else:
                    x = end
                total += n * x
            new = total / 216
            change = max(change, abs(new - W[(a, b, f)]))
            W[(a, b, f)] = new
            for k in ("licorne", "chimere"):
                total = 0.0
                for (kind, v), n in READINGS.items():
                    if kind in ("poigne", "points"):
                        b2 = b + v if k == "licorne" else max(b - v, floor)
                        x = 0.0 if b2 == target else free(a, b, f) if b2 > target else free(a, b2, f)
                    elif kind == "vereux":
                        x = free(a, max(b - 100, floor), f)
                    elif kind in ("licorne", "chimere"):
                        x = G[(kind, a, b, f)]
                    else:
                        x = free(a, b, f)
                    total += n * x
                new = total / 216
                change = max(change, abs(new - G[(k, a, b, f)]))
                G[(k, a, b, f)] = new
        if change < tol:
            return W


def test_solver_matches_brute_force_on_a_small_target():
    target, floor = 300, -200
    exact = brute_force(target, floor, tol=1e-12)
    m, W, sweeps, _ = solve(target, floor, tol=1e-12)
    worst = max(abs(W[(a - floor) // 50, (b - floor) // 50, f // 50] - v) for (a, b, f), v in exact.items())
    assert worst < 1e-9
    assert 0.5 < W[-m.L, -m.L, 0] < 1.0


@pytest.fixture(scope="module", params=TARGETS)
def tables(request):
    return tables_for_target(request.param)


def test_shipped_tables_are_whole_and_fit_todays_rules(tables):
    h = tables.header
    assert h["game"] == "de-landais" and h["fingerprint"] == fingerprint(h["target"], h["floor"])
    assert h["floor"] <= -2000 and h["states"] == Model(h["target"], h["floor"]).size()
    assert abs(tables.throw_value(0, 0, 0) - h["start"]) < 1e-9
    assert 0.5 < h["start"] < 0.6  # the first player has the edge
    assert tables.seal_value(tables.target - 100, 0, 100) == 1.0
    with open(f"web/tables/de-landais/{tables.name}.bin", "rb") as f:
        data = f.read()
    assert len(data) <= 3_000_000
    broken = bytearray(data)
    broken[-10] ^= 0xFF
    with pytest.raises(GameError):
        load_tables(bytes(broken))
    stale = data.replace(h["fingerprint"].encode(), b"0" * 16)
    with pytest.raises(GameError, match="reconstruire"):
        load_tables(stale)


def one_step(t, a, b, f):
    """The recursion once more, in pure Python, from the table's own values."""
    T, floor = t.target, t.floor

    def free(a, b, f):
        return max(t.throw_value(a, b, f), t.seal_value(a, b, f))

    end = 1.0 - t.throw_value(b, a, 0)
    x_l = x_c = 0.0
    total = 0.0
    for (kind, v), n in READINGS.items():
        p = n / 216
        if kind in ("poigne", "points"):
            g = f + v
            total += p * (end if a + g > T else t.throw_value(a, b, g) if kind == "poigne" else free(a, b, g))
            bl = b + v
            x_l += p * (0.0 if bl == T else free(a, b, f) if bl > T else free(a, bl, f))
            x_c += p * free(a, max(b - v, floor), f)
        elif kind == "troll":
            total += p * free(a, b, 0)
            x_l += p * free(a, b, f)
            x_c += p * free(a, b, f)
        elif kind == "vereux":
            total += p * (1.0 - t.throw_value(b, max(a - 100, floor), 0))
            x_l += p * free(a, max(b - 100, floor), f)
            x_c += p * free(a, max(b - 100, floor), f)
        elif kind == "vide":
            total += p * end
            x_l += p * free(a, b, f)
            x_c += p * free(a, b, f)
    q = 6 / 216
    return total + q * (x_l + x_c) / (1 - 2 * q)


@pytest.mark.parametrize("a, b, f", [(0, 0, 0), (1450, 2150, 250), (2900, 2650, 0),
                                     (2950, 2950, 50), (-150, 2300, 400), (2000, -500, 600)])
def test_stored_values_satisfy_the_recursion(a, b, f):
    t = tables_for_target(3000)
    assert abs(one_step(t, a, b, f) - t.throw_value(a, b, f)) < 1e-8


def test_expert_and_advisor_agree_and_are_fast():
    t = tables_for_target(3000)
    bot = ExpertBot(t)
    m = Match(GAME, [Player("A", "expert"), Player("B")], start={"scores": [2700, 2900], "first": 0})
    advice = advise(m.state, t)
    assert bot(m.state) == ROLL and [c.action for c in advice.choices] == [ROLL]
    m.apply("roll")
    m.apply("dice 1 2 2")
    advice = advise(m.state, t)
    values = {c.action: c.value for c in advice.choices}
    assert advice.exact and advice.measure == "win" and set(values) == {ROLL, SEAL}
    assert all(0 <= v <= 1 for v in values.values())
    assert bot(m.state) == advice.best.action
    assert advice.choices[0].value >= advice.choices[1].value
    m.apply("roll")
    m.apply("dice 1 1 2")
    advice = advise(m.state, t)
    assert m.state.seal_wins and bot(m.state) == SEAL
    assert advice.best == type(advice.best)(SEAL, 1.0)
    # far below the floor and with four players: still an answer
    m = Match(GAME, [Player(n) for n in "ABCD"], start={"scores": [-5000, 0, 2900, 100], "first": 0})
    m.apply("roll")
    m.apply("dice 1 1 5")
    assert bot(m.state) in (ROLL, SEAL) and not advise(m.state, t).exact
    start = time.perf_counter()
    for _ in range(200):
        bot(m.state)
    assert (time.perf_counter() - start) / 200 < 0.005


def test_solve_prints_the_start_value_first():
    out = io.StringIO()
    assert main(["solve", "de-landais", "--target", "300", "--floor", "-300"], out) == 0
    first = out.getvalue().splitlines()[0]
    assert len(first) == 8 and first.startswith("0.") and 0.5 < float(first) < 1
