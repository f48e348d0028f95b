"""Every combination of the Linotte board and its near misses (RULINGS.md, `linotte`)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pygames.linotte import BOARD, CELLS, LINES, MAJEURES, combinations, majeures


@pytest.mark.parametrize("dice, shown", [
    # brelans: ≥ 3 dice of a face, in any order
    ((4, 4, 4, 2, 1), {"4"}),
    ((2, 1, 2, 3, 2), {"2"}),
    ((4, 4, 2, 2, 1), set()),  # two pairs: nothing
    ((6, 6, 5, 5, 4), set()),
    # full: 3 + 2
    ((3, 3, 3, 2, 2), {"3", "full"}),
    ((5, 1, 5, 1, 5), {"5", "full"}),
    ((3, 3, 3, 2, 4), {"3"}),  # a brelan without the pair
    ((6, 6, 6, 6, 2), {"6", "carre"}),  # 4 + 1 is no full
    # quinte: 1-2-3-4-5 or 2-3-4-5-6
    ((1, 2, 3, 4, 5), {"quinte"}),
    ((6, 4, 2, 5, 3), {"quinte"}),
    ((1, 2, 3, 4, 6), set()),  # a gap
    ((2, 3, 4, 5, 5), set()),  # four in a row only
    # carré: ≥ 4 identical
    ((4, 4, 4, 4, 1), {"4", "carre"}),
    ((2, 3, 2, 2, 2), {"2", "carre"}),
    ((5, 5, 5, 2, 2), {"5", "full"}),  # three only
    # small: sum ≤ 8
    ((3, 2, 1, 1, 1), {"1", "small"}),  # the seed's example: 8
    ((2, 2, 1, 1, 2), {"2", "full", "small"}),  # 8
    ((3, 2, 2, 1, 1), set()),  # 9: just not small
    ((1, 1, 1, 1, 4), {"1", "carre", "small"}),  # 8
    ((1, 1, 1, 1, 5), {"1", "carre"}),  # 9
    # yam: 5 identical (also a carré, a full and a brelan)
    ((4, 4, 4, 4, 4), {"4", "yam", "carre", "full"}),
    ((1, 1, 1, 1, 1), {"1", "yam", "small", "carre", "full"}),  # the seed's overlaps
    ((6, 6, 6, 6, 5), {"6", "carre"}),  # one die short of a yam
])
def test_combinations_and_near_misses(dice, shown):
    assert set(combinations(dice)) == shown


def test_the_seed_overlap_five_ones():
    assert majeures((1, 1, 1, 1, 1)) == ("full", "carre", "small", "yam")


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
def test_combinations_follow_the_rulings(dice):
    count = {f: dice.count(f) for f in range(1, 7)}
    shape = sorted(n for n in count.values() if n)
    expected = {str(f) for f, n in count.items() if n >= 3}
    if shape in ([2, 3], [5]):
        expected.add("full")
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        expected.add("quinte")
    if max(count.values()) >= 4:
        expected.add("carre")
    if sum(dice) <= 8:
        expected.add("small")
    if max(count.values()) == 5:
        expected.add("yam")
    assert set(combinations(dice)) == expected
    assert set(combinations(list(reversed(dice)))) == expected
    assert set(majeures(dice)) == expected & set(MAJEURES)


def test_the_board_is_the_rulings_table():
    assert BOARD[0] == ("1", "3", "appel", "4", "6")
    assert BOARD[2][2] == "yam"
    kinds = {k: CELLS.count(k) for k in set(CELLS)}
    assert kinds == {**{str(f): 2 for f in range(1, 7)}, "full": 2, "quinte": 2, "carre": 2,
                     "small": 2, "yam": 1, "sec": 2, "appel": 2}


def test_twenty_lines_rows_columns_and_diagonals_of_three_or_more():
    assert len(LINES) == 20
    assert sorted(len(line) for line in LINES) == [3] * 4 + [4] * 4 + [5] * 12
    assert len(set(LINES)) == 20
    for line in LINES:  # cells of a line are neighbours, one step in one direction
        steps = {b - a for a, b in itertools.pairwise(line)}
        assert len(steps) == 1 and steps.pop() in (1, 5, 6, 4)
