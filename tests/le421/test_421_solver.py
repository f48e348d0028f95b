"""The 421 solver (numpy) and the exact evaluation of two computer players over a whole
game: `solve 421 --all` writes the shipped tables, the evaluation gives the expert's own
values back in self-play and agrees with a seeded simulation, the charge's law is the
brute-force one, and `solve 421` prints the expert's exact rates."""

from __future__ import annotations

import io
import re
from itertools import product

import pytest
from support import shipped_tables

from pygames import GAMES
from pygames.cli import main
from pygames.le421 import hand_rank, hand_value, sorted_hand
from pygames.le421.bots import ExpertBot
from pygames.le421.tables import load_tables, table_name

np = pytest.importorskip("numpy")
from pygames.le421.solver import Model, charge_law, policy, round_law  # noqa: E402

GAME = GAMES["421"]


def run(argv) -> str:
    out = io.StringIO()
    assert main(argv, out) == 0
    return out.getvalue()


def test_solve_all_writes_the_shipped_tables(tmp_path):
    text = run(["solve", "421", "--all", "--write", str(tmp_path)])
    assert text.count("wrote ") == 12  # this family's only
    for options in GAME.option_sets():
        shipped = shipped_tables("421", options)
        made = load_tables((tmp_path / f"{table_name(options)}.bin").read_bytes())
        assert made.rules == shipped.rules and made.header["sweeps"] > 10
        assert made.header["residual"] < 1e-14
        for x in range(1, shipped.pot):
            assert made.value(x) == pytest.approx(shipped.value(x), abs=1e-13)


@pytest.fixture(scope="module")
def solved_pot_11():
    """`solve 421 -o pot=11`: its lines, and the figures they give."""
    text = run(["solve", "421", "-o", "pot=11"])
    numbers = {
        "first": float(text.splitlines()[0]),
        **{k: float(v) for k, v in re.search(
            r"the expert wins (?P<round>[\d.]+) against the round-expectation expert "
            r"\((?P<swapped>[\d.]+) with the roles swapped\), (?P<simple>[\d.]+) against simple, "
            r"(?P<itself>[\d.]+) against itself; the round expert wins (?P<round_simple>[\d.]+)",
            text).groupdict().items()},
    }
    differ = re.search(r"differ from the round expert: ([\d,]+) of ([\d,]+)", text)
    numbers["differ"], numbers["situations"] = (int(g.replace(",", "")) for g in differ.groups())
    numbers["self_play"] = float(re.search(r"self-play gives V back within ([\d.e+-]+)", text).group(1))
    return numbers


def test_solve_prints_the_expert_s_exact_rate_against_the_round_expert_first(solved_pot_11):
    n = solved_pot_11
    assert n["first"] == n["round"] == n["swapped"]  # the same game from either seat
    assert 0.5 < n["round"] < 0.6
    assert n["itself"] == 0.5 and n["self_play"] < 1e-12
    # Playing to win beats every other player; shedding tokens does worse against simple.
    assert n["simple"] > n["round_simple"] > 0.5
    assert n["situations"] == 10 * (2 * 56 + 56 * (56 + 2 * 56))  # leader, follower k = 2, 3
    assert 0 < n["differ"] < n["situations"] / 4


def test_the_charge_s_law_is_the_brute_force_one():
    """Both players throw one hand a round; the worse takes the better's value from the
    pot (what is left of it); equal hands throw again (a rampo) for the same value."""
    rules = GAME.rules({"pot": 11})
    hands = [sorted_hand(d) for d in product(range(1, 7), repeat=3)]
    amount: dict = {}
    for a in hands:
        for b in hands:
            ra, rb = hand_rank(a, rules), hand_rank(b, rules)
            v = hand_value(a if ra <= rb else b, rules)
            amount[v] = amount.get(v, 0) + 1 / len(hands) ** 2

    def ends(pot, mine, p, out):
        for v, q in amount.items():
            take = min(v, pot)
            for me in (True, False):
                a = mine + take if me else mine
                if take == pot:
                    out[(a, me)] = out.get((a, me), 0.0) + p * q / 2
                else:
                    ends(pot - take, a, p * q / 2, out)
        return out

    brute = ends(11, 0, 1.0, {})
    law = charge_law(np, Model(np, rules))
    assert law.keys() == brute.keys()
    for key, p in brute.items():
        assert law[key] == pytest.approx(p, abs=1e-12), key
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-12)
    assert law[(0, False)] > 0 and law[(11, True)] == pytest.approx(law[(0, False)])  # won in the charge


def test_a_round_ends_with_one_side_giving():
    rules = GAME.rules({"pot": 11})
    m = Model(np, rules)
    lead, follow, _ = policy(np, m, ExpertBot(shipped_tables("421", {"pot": 11})))
    for x in range(1, 11):
        leader_gives, follower_gives = round_law(np, m, lead, follow, x)
        assert leader_gives.sum() + follower_gives.sum() == pytest.approx(1.0, abs=1e-12)
        assert leader_gives[x + 1 :].sum() == 0 and follower_gives[11 - x + 1 :].sum() == 0


def test_a_seeded_simulation_agrees_with_the_exact_rate():
    text = run(["simulate", "421", "-o", "pot=11", "--players", "A:expert,B:simple",
                "--games", "800", "--seed", "exact-rate"])
    found = re.search(r"expert exact ([\d.]+): measured ([\d.]+) ± ([\d.]+), ([+-][\d.]+) standard errors", text)
    exact, measured, se, z = map(float, found.groups())
    assert 0.5 < exact < 0.6 and 0.005 < se < 0.02
    assert abs(measured - exact) < 3 * se and abs(z) < 3
