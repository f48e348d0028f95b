"""The Jeu de la linotte's own command: `linotte-score BOARD` prints both players'
alignment points for a board written as 25 characters, row by row from the top:
`A` and `B` for the two players' pawns, `.` for an empty cell."""

from __future__ import annotations

from typing import TextIO

from ..cli import UsageError
from ..core import quote
from ..messages import text
from .rules import EMPTY, SIZE, window_points

MARKS = {"A": 0, "B": 1, ".": EMPTY}


def parse_board(written: str) -> tuple[int, ...]:
    """`AAA..` … (25 characters) -> the board of `LinotteState` (0, 1 or -1 per cell)."""
    if not isinstance(written, str) or len(written) != SIZE * SIZE:
        length = len(written) if isinstance(written, str) else 0
        raise UsageError("linotte.error.board_length", cells=SIZE * SIZE, length=length,
                         text=quote(written))
    bad = next((ch for ch in written if ch not in MARKS), None)
    if bad is not None:
        raise UsageError("linotte.error.board_char", char=quote(bad), text=quote(written))
    return tuple(MARKS[ch] for ch in written)


def add_arguments(name: str, parser) -> None:
    assert name == "linotte-score"
    parser.add_argument("board", metavar=text("linotte.cli.board_metavar"), help=text("linotte.cli.board_help"))


def run(name: str, args, out: TextIO) -> int:
    points = window_points(parse_board(args.board))
    out.write(f"{points[0]} {points[1]}\n")
    return 0
