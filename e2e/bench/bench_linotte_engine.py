"""Benchmark of the Linotte computer players (not a pytest module).

    python e2e/bench/bench_linotte_engine.py [--games 1000] [--seed bench] [--opponents simple,greedy]

Plays seeded games of the expert against each opponent, the expert starting in half of
them, and prints its win rate with its standard error (a draw counts half a win in the
"score" column, nothing in the win rate), then the expert's decision times (p50, p95, max).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from pygames.linotte_bots import ExpertBot, GreedyBot, SimpleBot  # noqa: E402

from pygames import DiceSampler, Match, Player, find_game  # noqa: E402

OPPONENTS = {"simple": SimpleBot, "greedy": GreedyBot, "expert": ExpertBot}


def play(game, options, bots, seed, times=None):
    """One game; bots[i] plays seat i. Returns the outcome's winners and draw flag."""
    match = Match(game, [Player("A"), Player("B")], options, DiceSampler(seed))
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance():
            match.throw()
            continue
        bot = bots[state.current_player()]
        start = time.perf_counter()
        action = bot(state)
        if times is not None and isinstance(bot, ExpertBot):
            times.append(time.perf_counter() - start)
        match.apply(action)
    outcome = match.outcome()
    return outcome.winners, outcome.draw


def mean_se(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def bench(opponent: str, games: int, seed: str, options: dict, times: list) -> str:
    game = find_game("linotte")
    wins, scores = [], []
    for i in range(games):
        expert, other = ExpertBot(), OPPONENTS[opponent](f"{seed}/{i}")
        first = i % 2 == 0  # the expert starts every other game
        bots = [expert, other] if first else [other, expert]
        winners, draw = play(game, options, bots, f"{seed}/{opponent}/{i}", times)
        seat = 0 if first else 1
        won = not draw and seat in winners
        wins.append(1.0 if won else 0.0)
        scores.append(0.5 if draw else float(won))
    w, w_se = mean_se(wins)
    s, s_se = mean_se(scores)
    return (f"expert vs {opponent}: {games} games, wins {w:.3f} ± {w_se:.3f}, "
            f"score (draw = ½) {s:.3f} ± {s_se:.3f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--opponents", default="simple,greedy")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    args = parser.parse_args(argv)
    from pygames.cli import parse_options

    options = parse_options(find_game("linotte"), args.option)
    times: list[float] = []
    start = time.perf_counter()
    for opponent in args.opponents.split(","):
        print(bench(opponent, args.games, args.seed, options, times), flush=True)
    times.sort()
    def pct(q):
        return 1000 * times[min(len(times) - 1, int(q * len(times)))]
    print(f"expert decision time (CPython {sys.version.split()[0]}): {len(times)} decisions, "
          f"p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, max {1000 * times[-1]:.1f} ms; "
          f"{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
