"""Le 421's own command: `rank421 D1 D2 D3` prints the hand's rank (1 = strongest), its
name and its value in tokens, under the options given with -o. Imported only when it runs."""

from __future__ import annotations

from typing import TextIO

from . import find_game
from .cli import UsageError, parse_options
from .core import parse_faces
from .le421 import DICE, FAMILY, hand_info


def add_arguments(name: str, parser) -> None:
    assert name == "rank421"
    parser.add_argument("dice", nargs="*")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")


def run(name: str, args, out: TextIO) -> int:
    game = find_game("421")
    if len(args.dice) != DICE:
        raise UsageError(f"Il faut exactement {DICE} dés (par exemple : rank421 4 2 1).")
    dice = parse_faces(args.dice)
    info = hand_info(dice, game.rules(parse_options(game, args.option)))
    out.write(f"{info.rank} {info.name} {info.value}\n")
    return 0


assert FAMILY.cli_module == __name__
