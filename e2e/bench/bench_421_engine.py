"""Le 421 engine figures: how often the expert loses against the simple and the naive
players (seeded two-player games, the starting player rotating, with standard errors),
and the expert's decision time (p50 / p95 / max) on this interpreter.

    nice python3 e2e/bench/bench_421_engine.py --games 10000

The same loss rates come from `python -m pygames simulate 421 --players
"A:expert,B:simple" --games 10000` (this script calls the same code).
"""

from __future__ import annotations

import argparse
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)

from pygames import GAMES, DiceSampler, Match, Player  # noqa: E402
from pygames.cli import _mean_se, _simulate_chunk  # noqa: E402
from pygames.le421 import expert_bot, follower_values, leader_values, simple_bot  # noqa: E402


def loss_rate(opponent: str, games: int, seed: str) -> tuple[float, float, float]:
    job = ("421", GAMES["421"].resolve_options(), f"A:expert,B:{opponent}", seed, 0, games, None)
    start = time.perf_counter()
    results = _simulate_chunk(job)
    lost = [r[2][0] for r in results]
    mean, se = _mean_se(lost)
    return mean, se, time.perf_counter() - start


def decision_times(games: int, seed: str) -> list[float]:
    """Time every expert decision in games against the simple player, caches cold at start."""
    leader_values.cache_clear()
    follower_values.cache_clear()
    game = GAMES["421"]
    times = []
    for i in range(games):
        match = Match(game, [Player("A", "expert"), Player("B", "simple")], {}, DiceSampler(f"{seed}/{i}"))
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.throw()
                continue
            if state.current_player() == 0:
                t = time.perf_counter()
                action = expert_bot(state)
                times.append(time.perf_counter() - t)
            else:
                action = simple_bot(state)
            match.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--timing-games", type=int, default=200)
    parser.add_argument("--seed", default="simulate")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; {args.games} two-player games per pairing")
    rates = {}
    for opponent in ("simple", "naive"):
        mean, se, seconds = loss_rate(opponent, args.games, args.seed)
        rates[opponent] = (mean, se)
        print(f"expert vs {opponent}: the expert loses {mean:.4f} ± {se:.4f} (standard error); "
              f"{(0.5 - mean) / se:.1f} standard errors below one half; {seconds:.0f} s")
    times = sorted(decision_times(args.timing_games, "timing"))
    if times:
        p50, p95 = times[len(times) // 2], times[int(len(times) * 0.95)]
        print(f"expert decisions: {len(times)}, p50 {p50 * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, "
              f"max {times[-1] * 1000:.1f} ms (caches cold at the start)")


if __name__ == "__main__":
    main()
