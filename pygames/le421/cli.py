"""Le 421's own commands: `rank421 D1 D2 D3` prints the hand's rank (1 = strongest), its
name and its value in tokens, under the options given with -o; `solve 421` (the
two-player décharge solved for the probability of winning, numpy, and the expert's exact
rates over whole games) and, after `simulate`, the expert's exact rate against the simple
player beside the measured one.  Imported only when they run."""

from __future__ import annotations

from typing import TextIO

from ..cli import UsageError, parse_options, read_tables, report_expert_rate, write_solved
from ..core import parse_faces
from ..messages import Msg, text
from .messages import hand_name
from .rules import DICE, GAMES, hand_info


def add_arguments(name: str, parser) -> None:
    assert name == "rank421"
    parser.add_argument("dice", nargs="*", metavar=text("cli.die_metavar"))
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


def _describe(rules) -> str:
    nenette = "nenette 4" if rules.nenette_four else "nenette 1"
    return f"pot {rules.pot}, 421 = {rules.value_421}, {nenette}"


def solve(game, options, args, out: TextIO) -> int:
    """Solve the two-player décharge of an option set and evaluate the expert exactly:
    the first line is its probability of winning a game against the round expert (the
    approximation it keeps with three players or more, 6 decimals), then how V was found
    and the other exact rates.  With no game (--all: every option set) only the tables
    are solved, in a few seconds.  `--write DIR` writes them."""
    import numpy as np

    from .solver import TOL, build_table, evaluation
    from .tables import load_tables

    sets = GAMES[0].option_sets() if game is None else [options]
    for opts in sets:
        rules = GAMES[0].rules(opts)
        data, info = build_table(rules)
        V = info["values"]
        if game is not None:
            ev = evaluation(np, rules, load_tables(data))
            out.write(f"{ev['round']:.6f}\n")
        out.write(f"    {info['name']} ({_describe(rules)}): V[1..{rules.pot - 1}] in {info['sweeps']} sweeps "
                  f"(tol {TOL:g}, residual {info['residual']:.1e}) in {info['seconds']:.2f} s, "
                  f"{len(data):,} bytes; the leader wins with 1 token {V[0]:.6f}, "
                  f"{rules.pot // 2} tokens {V[rules.pot // 2 - 1]:.6f}, {rules.pot - 1} tokens {V[-1]:.6f}\n")
        if game is not None:
            out.write(f"    exact, a whole game from the charge: the expert wins {ev['round']:.6f} against "
                      f"the round-expectation expert ({ev['round_reversed']:.6f} with the roles swapped), "
                      f"{ev['simple']:.6f} against simple, {ev['itself']:.6f} against itself; "
                      f"the round expert wins {ev['round_vs_simple']:.6f} against simple\n")
            out.write(f"    decisions that differ from the round expert: {ev['differ']:,} of "
                      f"{ev['situations']:,} ({100 * ev['differ'] / ev['situations']:.1f} %); the expert's "
                      f"self-play gives V back within {ev['self_play_error']:.1e}; evaluated in "
                      f"{ev['seconds']:.0f} s\n")
        write_solved(args, info["name"], data, out)
    return 0


def simulate_report(game, options, players, results, args, out: TextIO) -> None:
    """Expert against simple (two players): the exact rate beside the measured one."""
    report_expert_rate(players, results, out, "exact", lambda: exact_rate(game, options, args))


def exact_rate(game, options, args) -> float:
    """The expert's exact win rate against the simple player, two players (numpy)."""
    import numpy as np

    from .bots import ExpertBot, SimpleBot
    from .solver import Model, policy, win_rate

    m = Model(np, game.rules(options))
    tables = read_tables(game, options, getattr(args, "tables", None))
    return win_rate(np, m, policy(np, m, ExpertBot(tables))[:2], policy(np, m, SimpleBot())[:2])
