"""The Yams family's own commands: `score RULESET BOX D1..D5`, `solve` (the exact solver,
numpy) and the solved value beside `simulate`'s mean. Imported only when they run."""

from __future__ import annotations

import os
import time
from typing import TextIO

from ..cli import UsageError, _mean_se, parse_options, read_tables, write_bytes
from ..core import parse_faces, quote
from ..dice import counts
from ..messages import Msg
from .rules import GAMES, YamsGame


def add_arguments(name: str, parser) -> None:
    assert name == "score"
    parser.add_argument("ruleset", metavar=str(Msg("cli.game_metavar")))
    parser.add_argument("box", metavar=str(Msg("yams.cli.box_metavar")))
    parser.add_argument("dice", nargs="*", metavar=str(Msg("cli.die_metavar")))
    parser.add_argument("--option", "-o", action="append", default=[],
                        metavar=str(Msg("cli.option_metavar")))


def run(name: str, args, out: TextIO) -> int:
    from .. import find_game

    game = find_game(args.ruleset)
    if not isinstance(game, YamsGame):
        raise UsageError("yams.error.score_ruleset", game=game.id)
    if len(args.dice) != 5:
        raise UsageError("yams.error.score_dice")
    dice = parse_faces(args.dice)
    rules = game.rules(parse_options(game, args.option))
    box = next((b for b in rules.boxes if b.id == args.box), None)
    if box is None:
        raise UsageError("yams.error.score_box", game=game.id, box=quote(args.box),
                         boxes=" ".join(b.id for b in rules.boxes))
    out.write(f"{box.score(counts(dice), sum(dice), rules)}\n")
    return 0


def solve(game, options, args, out: TextIO) -> int:
    """Solve a ruleset (or, with game None, every one) exactly; optionally write tables."""
    from .solver import all_configs, build_table

    configs = all_configs() if game is None else [(game, options)]
    for game, options in configs:
        start = time.perf_counter()
        data, info = build_table(game, options, evaluate_policy=args.write is not None)
        seconds = time.perf_counter() - start
        out.write(f"{info['name']}: {info['expected']:.4f} (solved in {info['seconds']:.1f} s)\n")
        if args.write is not None:
            path = os.path.join(args.write, info["name"] + ".bin")
            write_bytes(path, data)
            loss = info["expected"] - info["policy_expected"]
            out.write(f"    {path}: {len(data):,} bytes; policy from the table "
                      f"{info['policy_expected']:.6f} (loses {loss:.2e}); {seconds:.1f} s in all\n")
        out.flush()
    return 0


def simulate_report(game, options, players, results, args, out: TextIO) -> None:
    """For a solitaire expert: how far the mean lies from the solved value."""
    if len(players) != 1 or players[0].seat != "expert":
        return
    mean, stderr = _mean_se([r[0][0] for r in results])
    expected = read_tables(game, options, args.tables).expected
    out.write(f"    solved value {expected:.4f}: {(mean - expected) / stderr:+.2f} standard errors\n")


assert all(g.family == "yams" for g in GAMES)
