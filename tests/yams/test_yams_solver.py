"""The solver against brute force, and the shipped tables against the solver.

The brute force plays every line of small games (two or three boxes, fewer dice or
rolls) on the real engine: `YamsState.scorable` and `apply(Score)` decide what may be
filled and what it is worth, the sheet keeps its real values (no capped subtotal, no
prime flag), and the final total is added up here from RULINGS.md.  The solver must
agree to the last bits of a double.
"""

from __future__ import annotations

import itertools
import os
from functools import lru_cache

import pytest

from pygames import find_game
from pygames.core import replace
from pygames.dice import rolls as dice_rolls
from pygames.dice import sub_multisets
from pygames.yams import BOITE_BOXES, BOXES, YAM_PRIME, Rules, Score, YamsState
from pygames.yams.solver import quantise, solve
from pygames.yams.tables import TurnModel, decode_table, table_name

pytestmark = pytest.mark.slow  # numpy solves of whole rulesets: about 2.5 minutes

np = pytest.importorskip("numpy")

TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "web", "tables", "yams")


def final_total(rules: Rules, sheet, primes: int) -> int:
    upper = sum(v for b, v in zip(rules.boxes, sheet) if b.upper)
    lower = sum(v for b, v in zip(rules.boxes, sheet) if not b.upper)
    bonus = rules.bonus if upper >= rules.bonus_threshold else 0
    return upper + bonus + lower + YAM_PRIME * primes


def brute_force(rules: Rules, dice: int, n_rolls: int, ordered: bool = False) -> float:
    """The best expected final score, over every line of play.

    With `ordered`, the dice are thrown in order (6**n outcomes) and the player keeps
    any subset of their places: nothing is merged, not even equal hands."""
    start = YamsState(rules=rules, sheets=((None,) * len(rules.boxes),), primes=(0,))

    @lru_cache(maxsize=None)
    def game(sheet, primes):
        if all(v is not None for v in sheet):
            return final_total(rules, sheet, primes)
        base = replace(start, sheets=(sheet,), primes=(primes,), rolls=3)

        @lru_cache(maxsize=None)
        def score(hand):
            shown = replace(base, dice=hand)
            return max(game(*_after(shown.apply(Score(b)))) for b in shown.scorable())

        @lru_cache(maxsize=None)
        def shown(hand, r):  # hand on the table after roll r
            best = score(hand)
            if r < n_rolls:
                if ordered:
                    keeps = (tuple(d for d, k in zip(hand, keep) if k)
                             for keep in itertools.product((0, 1), repeat=dice) if not all(keep))
                else:
                    keeps = sub_multisets(hand, dice - 1)
                best = max(best, *(expect(k, r) for k in keeps))
            return best

        @lru_cache(maxsize=None)
        def expect(keep, r):
            n = dice - len(keep)
            if ordered:
                outcomes = itertools.product(range(1, 7), repeat=n)
                return sum(shown(keep + faces, r + 1) for faces in outcomes) / 6**n
            return sum(p * shown(tuple(sorted(keep + faces)), r + 1) for faces, p in dice_rolls(n))

        return expect((), 0)

    return game(start.sheets[0], 0)


def _after(state: YamsState):
    return state.sheets[0], state.primes[0]


def sheet(*ids, boite=False, **rules) -> Rules:
    boxes = tuple((BOITE_BOXES.get(i, BOXES[i]) if boite else BOXES[i]) for i in ids)
    return Rules(boxes=boxes, **rules)


SMALL = {
    # upper bonus within reach, forced joker, every further yam a prime
    "forced-joker": (sheet("threes", "full", "yams", bonus_threshold=9, primes=99,
                           joker="forced"), 5, 2),
    # free joker and a single prime: the third turn may not earn one again
    "free-joker-single-prime": (sheet("sixes", "small_straight", "yams", bonus_threshold=18,
                                      primes=1, joker="free"), 5, 2),
    # a 0 only when nothing scores
    "forced-scoring": (sheet("ones", "three_kind", "large_straight", boite=True,
                             bonus_threshold=3, forced_scoring=True), 5, 2),
    "two-pairs": (sheet("two_pairs", "fours", bonus_threshold=8, four_kind_is_two_pairs=True),
                  5, 2),
    "three-rolls": (sheet("fives", "chance", bonus_threshold=10), 4, 3),
}


@pytest.mark.parametrize("case", sorted(SMALL))
def test_solver_matches_brute_force(case):
    rules, dice, n_rolls = SMALL[case]
    assert solve(rules, dice, n_rolls).expected == pytest.approx(
        brute_force(rules, dice, n_rolls), abs=1e-9
    )


def test_solver_matches_brute_force_with_ordered_dice():
    # three dice, three rolls: every throw in order and every subset of places
    rules = sheet("twos", "full", "yams", bonus_threshold=4, primes=99, joker="forced")
    assert solve(rules, 3, 3).expected == pytest.approx(brute_force(rules, 3, 3, True), abs=1e-9)


def test_plain_yahtzee_reaches_the_published_optimum():
    # 245.870775 is the classic optimum without the yahtzee bonus and joker
    game = find_game("yahtzee")
    solution = solve(game.rules(game.resolve_options({"plain": True})))
    assert round(solution.expected, 4) == 245.8708


def test_layout_keeps_only_reachable_subtotals():
    game = find_game("yahtzee")
    model = TurnModel(game.rules(game.resolve_options({})))
    # only the sixes open: at most 30 to come, so every subtotal under 33 is one state (32)
    assert model.ups[model.upper_bits & ~0b100000] == tuple(range(32, 64))
    # only the sixes filled: multiples of 6
    assert model.ups[0b100000] == (0, 6, 12, 18, 24, 30)
    with pytest.raises(ValueError):
        model.index(0b100000, 7)


def test_table_names():
    defaults = {"forced_scoring": True, "bonus_above_63": False}
    assert table_name("yams-boite", {"forced_scoring": True}, defaults) == "yams-boite"
    assert table_name("yams-boite", {"forced_scoring": False, "bonus_above_63": True}, defaults) \
        == "yams-boite+no_forced_scoring+bonus_above_63"


def test_shipped_yahtzee_table_matches_the_solver():
    """Recompute one table (a few seconds) and compare every stored value."""
    with open(os.path.join(TABLES, "yahtzee.bin"), "rb") as f:
        header, codes = decode_table(f.read())
    game = find_game("yahtzee")
    solution = solve(game.rules(game.resolve_options(header["options"])))
    fresh, scale = quantise(solution)
    assert scale == header["scale"]
    assert solution.model.fingerprint() == header["fingerprint"]
    assert header["expected"] == pytest.approx(solution.expected, abs=1e-9)
    stored = np.frombuffer(codes.tobytes(), dtype=np.uint16).astype(np.int64)
    # rounding may differ by one step on a value that sits on a half step
    assert np.abs(stored - fresh.astype(np.int64)).max() <= 1
    # the Hasbro forced joker (see RULINGS.md); Verhoeff's freer joker gives 254.5896
    assert round(header["expected"], 4) == 254.5877
