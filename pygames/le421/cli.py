"""Le 421's own command: `rank421 D1 D2 D3` prints the hand's rank (1 = strongest), its
name and its value in tokens, under the options given with -o. Imported only when it runs."""

from __future__ import annotations

from typing import TextIO

from ..cli import UsageError, parse_options
from ..core import parse_faces
from ..messages import Msg, text
from .messages import hand_name
from .rules import DICE, GAMES, hand_info


def add_arguments(name: str, parser) -> None:
    assert name == "rank421"
    parser.add_argument("dice", nargs="*")
    parser.add_argument("--option", "-o", action="append", default=[],
                        metavar=text("cli.option_metavar"))


def run(name: str, args, out: TextIO) -> int:
    game = GAMES[0]
    if len(args.dice) != DICE:
        raise UsageError(Msg("421.error.rank_dice", n=DICE))
    dice = parse_faces(args.dice)
    info = hand_info(dice, game.rules(parse_options(game, args.option)))
    out.write(f"{info.rank} {text(hand_name(info.dice))} {info.value}\n")
    return 0
