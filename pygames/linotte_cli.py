"""The Jeu de la linotte's own command: `linotte-score BOARD` prints both players'
alignment points for a board written as 25 characters, row by row from the top:
`A` and `B` for the two players' pawns, `.` for an empty cell."""

from __future__ import annotations

from typing import TextIO

from .cli import UsageError
from .core import quote
from .linotte import EMPTY, FAMILY, SIZE, window_points

MARKS = {"A": 0, "B": 1, ".": EMPTY}


def parse_board(text: str) -> tuple[int, ...]:
    """`AAA..` … (25 characters) -> the board of `LinotteState` (0, 1 or -1 per cell)."""
    if not isinstance(text, str) or len(text) != SIZE * SIZE:
        length = len(text) if isinstance(text, str) else 0
        raise UsageError(f"Plateau : {SIZE * SIZE} caractères attendus (A, B ou .), "
                         f"pas {length} : « {quote(text)} ».")
    bad = next((ch for ch in text if ch not in MARKS), None)
    if bad is not None:
        raise UsageError(f"Plateau : « {quote(bad)} » n'est ni A, ni B, ni « . » "
                         f"(dans « {quote(text)} »).")
    return tuple(MARKS[ch] for ch in text)


def add_arguments(name: str, parser) -> None:
    assert name == "linotte-score"
    parser.add_argument("board", help="25 caractères, ligne par ligne : A, B ou .")


def run(name: str, args, out: TextIO) -> int:
    points = window_points(parse_board(args.board))
    out.write(f"{points[0]} {points[1]}\n")
    return 0


assert FAMILY.cli_module == __name__
