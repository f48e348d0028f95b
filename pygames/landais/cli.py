"""The Dé Landais's own commands: `landais-throw D1 D2 D3` (what a throw is), `solve
de-landais` (the two-player table, numpy) and, after `simulate`, what the table
predicts for an expert against the simple player.  Imported only when they run."""

from __future__ import annotations

from typing import TextIO

from ..cli import UsageError, read_tables, report_expert_rate, write_solved
from ..core import parse_faces
from ..messages import Msg
from .rules import DICE, GAMES, TARGETS, classify


def add_arguments(name: str, parser) -> None:
    assert name == "landais-throw"
    parser.add_argument("dice", nargs="*", metavar=str(Msg("cli.die_metavar")))


def run(name: str, args, out: TextIO) -> int:
    if len(args.dice) != DICE:
        raise UsageError(Msg("landais.error.throw_dice", n=DICE))
    out.write(classify(parse_faces(args.dice)).notation() + "\n")
    return 0


def solve(game, options, args, out: TextIO) -> int:
    """Solve the two-player game for a target; print P(the starting player wins) from
    0 - 0 first (6 decimals), then how it was found; `--write DIR` writes the table."""
    from .solver import DEFAULT_FLOOR, build_table

    floor = DEFAULT_FLOOR if getattr(args, "floor", None) is None else args.floor
    if getattr(args, "target", None) is not None:
        targets = [args.target]
    elif game is None:
        targets = list(TARGETS)
    else:
        targets = [options.get("target", 3000)]
    for target in targets:
        if target <= 0 or target % 50 or floor > 0 or floor % 50:
            raise UsageError("landais.error.target_floor")
        data, info = build_table(target, floor)
        write_solved(
            args, info["name"], data, out, f"{info['start']:.6f}",
            f"    {info['name']}: target {target}, floor {floor}; P(first player wins) from 0-0 "
            f"{info['start']:.9f}, second player {1 - info['start']:.9f}; "
            f"{info['sweeps']} sweeps (tol {info['tol']:g}) in {info['seconds']:.1f} s; "
            f"{info['model'].size():,} states, {len(data):,} bytes")
    return 0


def simulate_report(game, options, players, results, args, out: TextIO) -> None:
    """Expert against simple (two players): the rate the table predicts, exactly."""
    def predicted() -> float:
        return predicted_rate(options["target"], 300, read_tables(GAMES[0], options, args.tables))

    report_expert_rate(players, results, out, "predicted by the table", predicted)


def predicted_rate(target: int, threshold: int, tables) -> float:
    """The expert's exact win rate against ThresholdBot(threshold), two players, the
    start decided by the opening throw (a fair coin), playing from the given table."""
    import numpy as np

    from .solver import Model, evaluate_pair, pair_rate, table_mask, threshold_mask, unflatten

    m = Model(tables.target, tables.floor)
    W = unflatten(np, m, np.asarray(tables.codes, dtype=float) * tables.inverse_scale)
    Wa, Wb = evaluate_pair(m, table_mask(m, W), threshold_mask(m, threshold))
    return pair_rate(m, Wa, Wb)

