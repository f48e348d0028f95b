"""Alignment points on hand-made boards: rows, columns and every diagonal of 3 cells or
more; each maximal run of one player's pawns scores 3 → 1, 4 → 2, 5 → 3."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pygames.linotte import EMPTY, LINES, cell_index, runs, window_points
from pygames.linotte.cli import parse_board


def board(*rows: str) -> tuple[int, ...]:
    return parse_board("".join(rows))


def run_names(b) -> list[tuple[int, str]]:
    from pygames.linotte import cell_name

    return sorted((p, "-".join(cell_name(c) for c in cells)) for p, cells in runs(b))


@pytest.mark.parametrize("rows, points", [
    (("AAA..", ".....", ".....", ".....", "....."), [1, 0]),  # a row of 3
    (("AAAA.", ".....", ".....", ".....", "....."), [2, 0]),  # a run of 4, counted once
    (("AAAAA", ".....", ".....", ".....", "....."), [3, 0]),  # five
    (("AA.AA", ".....", ".....", ".....", "....."), [0, 0]),  # two runs of 2
    (("AAA.A", ".....", ".....", ".....", "....."), [1, 0]),
    (("AABAA", ".....", ".....", ".....", "....."), [0, 0]),  # broken by the opponent
    (("B....", "B....", "B....", "B....", "....."), [0, 2]),  # a column of 4
    (("..A..", "...A.", "....A", ".....", "....."), [1, 0]),  # down-right diagonal of 3
    (("..A..", ".A...", "A....", ".....", "....."), [1, 0]),  # down-left diagonal of 3
    ((".A...", "..A..", "...A.", "....A", "....."), [2, 0]),  # diagonal of 4
    ((".....", "...B.", "..B..", ".B...", "B...."), [0, 2]),  # anti-diagonal of 4 (of 5)
    (("AAA..", "....A", "....A", "....A", "....."), [2, 0]),  # two runs on two lines
    (("AAABB", ".....", ".....", ".....", "....."), [1, 0]),  # both players on one line
    (("AAA.B", "....B", "....B", ".....", "....."), [1, 1]),
])
def test_hand_made_boards(rows, points):
    assert window_points(board(*rows)) == points


def test_runs_give_the_cells_to_draw_through():
    b = board("AAAA.", "....B", "....B", "....B", ".....")
    assert run_names(b) == [(0, "A1-B1-C1-D1"), (1, "E2-E3-E4")]
    b = board("..A..", "...A.", "....A", ".....", ".....")
    assert run_names(b) == [(0, "C1-D2-E3")]


def test_a_row_of_five_and_a_diagonal_of_five_share_a_cell():
    b = board("AAAAA", ".A...", "..A..", "...A.", "....A")
    assert window_points(b) == [3 + 3, 0]
    assert len(run_names(b)) == 2


def _points_by_runs(b) -> list[int]:
    """The rule as written: on each line, each maximal run of n ≥ 3 scores n - 2."""
    points = [0, 0]
    for line in LINES:
        run, owner = 0, EMPTY
        for c in list(line) + [None]:
            v = b[c] if c is not None else EMPTY
            if v == owner and v != EMPTY:
                run += 1
                continue
            if owner != EMPTY and run >= 3:
                points[owner] += run - 2
            owner, run = v, 1
    return points


@given(st.lists(st.sampled_from([0, 1, EMPTY]), min_size=25, max_size=25))
def test_windows_count_the_runs(cells):
    b = tuple(cells)
    assert window_points(b) == _points_by_runs(b)
    assert sum(len(c) - 2 for p, c in runs(b) if p == 0) == window_points(b)[0]


def test_every_cell_lies_on_lines():
    assert all(any(c in line for line in LINES) for c in range(25))
    assert sum(cell_index("c3") in line for line in LINES) == 4


def test_runs_are_facts_with_their_points_and_words():
    """Issue 20, item 15: the end screen lists the runs that scored, by their end cells."""
    from pygames.linotte.messages import run_text
    from pygames.messages import text

    b = board(".AAAA", "B....", "B....", "B....", ".....")
    found = runs(b)
    assert [(r.player, r.cells, r.points) for r in found] == [
        (0, (1, 2, 3, 4), 2), (1, (5, 10, 15), 1)]
    assert [text(run_text(r)) for r in found] == ["B1–E1\u00a0: 2 points", "A2–A4\u00a0: 1 point"]


@given(st.lists(st.sampled_from([0, 1, EMPTY]), min_size=25, max_size=25))
def test_each_players_runs_add_up_to_his_points(cells):
    from pygames.core import Player, replace
    from pygames.linotte import GAMES

    game = GAMES[0]
    state = replace(game.new_state([Player("A", "human"), Player("B", "human")], {}),
                    board=tuple(cells))
    for p in (0, 1):
        mine = state.scoring_runs(p)
        assert all(r.player == p for r in mine)
        assert sum(r.points for r in mine) == state.scores()[p]
