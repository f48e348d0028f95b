"""The Yams family's own commands: `score RULESET BOX D1..D5`, `solve` (the exact solver,
numpy) and the solved value beside `simulate`'s mean. Imported only when they run."""

from __future__ import annotations

import os
import time
from typing import TextIO

from . import find_game
from .cli import UsageError, parse_options
from .core import parse_faces, quote
from .dice import counts
from .yams import FAMILY, YamsGame


def add_arguments(name: str, parser) -> None:
    assert name == "score"
    parser.add_argument("ruleset")
    parser.add_argument("box")
    parser.add_argument("dice", nargs="*")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")


def run(name: str, args, out: TextIO) -> int:
    game = find_game(args.ruleset)
    if not isinstance(game, YamsGame):
        raise UsageError(f"« score » ne vaut que pour les feuilles de Yams, pas {game.id}.")
    if len(args.dice) != 5:
        raise UsageError("Il faut exactement 5 dés.")
    dice = parse_faces(args.dice)
    rules = game.rules(parse_options(game, args.option))
    box = next((b for b in rules.boxes if b.id == args.box), None)
    if box is None:
        ids = " ".join(b.id for b in rules.boxes)
        raise UsageError(f"Case inconnue dans {game.id} : « {quote(args.box)} » (cases : {ids}).")
    out.write(f"{box.score(counts(dice), sum(dice), rules)}\n")
    return 0


def solve(game, options, args, out: TextIO) -> int:
    """Solve a ruleset (or, with game None, every one) exactly; optionally write tables."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise UsageError("Le solveur a besoin de numpy : pip install -e '.[solve]'.") from None
    from .solver import all_configs, build_table

    configs = all_configs() if game is None else [(game, options)]
    for game, options in configs:
        start = time.perf_counter()
        data, info = build_table(game, options, evaluate_policy=args.write is not None)
        seconds = time.perf_counter() - start
        out.write(f"{info['name']}: {info['expected']:.4f} (solved in {info['seconds']:.1f} s)\n")
        if args.write is not None:
            os.makedirs(args.write, exist_ok=True)
            path = os.path.join(args.write, info["name"] + ".bin")
            with open(path, "wb") as f:
                f.write(data)
            loss = info["expected"] - info["policy_expected"]
            out.write(f"    {path}: {len(data):,} bytes; policy from the table "
                      f"{info['policy_expected']:.6f} (loses {loss:.2e}); {seconds:.1f} s in all\n")
        out.flush()
    return 0


def simulate_report(game, options, players, results, args, out: TextIO) -> None:
    """For a solitaire expert: how far the mean lies from the solved value."""
    if len(players) != 1 or players[0].seat != "expert":
        return
    from .cli import _mean_se, _tables
    from .expert import DirectoryTables

    mean, stderr = _mean_se([r[0][0] for r in results])
    tables = _tables(game, options, args.tables) or DirectoryTables().tables_for(game.rules(options))
    expected = tables.expected
    out.write(f"    solved value {expected:.4f}: {(mean - expected) / stderr:+.2f} standard errors\n")


assert FAMILY.cli_module == __name__
