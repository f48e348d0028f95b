"""Le 421 engine figures: the expert's exact probability of winning a two-player game
against today's round expert (`RoundBot`, the approximation it keeps for three players
or more), the simple and the naive players (numpy: pygames.le421.solver's evaluation,
the charge included, no dice thrown); how often it loses against the simple and the naive
players in seeded games (the starting player rotating, with standard errors) beside the
exact rate; and its decision time (p50 / p95 / max) and the advisor's on this
interpreter, against the round expert on the same states.

    nice python3 e2e/bench/bench_421_engine.py --games 10000

The exact rates against the round expert and the simple player also come from
`python -m pygames solve 421` (0.508270 and 0.566246 with the default options), the
simulated ones from `python -m pygames simulate 421 --players "A:expert,B:simple"
--games 10000` (this script calls the same code).

Figures (CPython 3.11.7, a shared 2-core machine, `--games 2000 --timing-games 100`):
exact, the expert wins 0.508270 of its games against the round expert, 0.566246 against
simple, 0.795242 against naive; simulated, it loses 0.4310 ± 0.0111 against simple (exact
0.4338, -0.25 standard errors) and 0.2045 ± 0.0090 against naive (exact 0.2048); 801
decisions, p50 0.02 ms, p95 0.48 ms, max 13.0 ms (the first at a leader's tokens: its 56 × 3
stops); the advisor p50 0.05 ms, p95 0.47 ms, max 13.1 ms; the round expert p50 0.06 ms,
p95 0.70 ms, max 16.8 ms.
"""

from __future__ import annotations

import argparse
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)

from pygames import GAMES, DiceSampler, Match, Player  # noqa: E402
from pygames.cli import _mean_se, _simulate_chunk, read_tables  # noqa: E402
from pygames.le421.bots import (  # noqa: E402
    ExpertBot,
    NaiveBot,
    RoundBot,
    SimpleBot,
    advise,
    follower_values,
    leader_values,
)

GAME = GAMES["421"]


def fresh_tables():
    """The shipped table of the default options, a fresh object: its caches are cold."""
    return read_tables(GAME, {})


def loss_rate(opponent: str, games: int, seed: str) -> tuple[float, float, float]:
    job = ("421", GAME.resolve_options(), f"A:expert,B:{opponent}", seed, 0, games, None)
    start = time.perf_counter()
    results = _simulate_chunk(job)
    lost = [r[2][0] for r in results]
    mean, se = _mean_se(lost)
    return mean, se, time.perf_counter() - start


def exact_win_rates() -> dict:
    """The expert's exact probability of winning against each opponent (None without numpy)."""
    try:
        import numpy as np
    except ImportError:
        return {}
    from pygames.le421.solver import Model, policy, win_rate

    m = Model(np, GAME.rules({}))
    expert = policy(np, m, ExpertBot(fresh_tables()))[:2]
    return {name: win_rate(np, m, expert, policy(np, m, bot)[:2])
            for name, bot in (("round", RoundBot()), ("simple", SimpleBot()), ("naive", NaiveBot()))}


def decision_times(games: int, seed: str) -> tuple[list[float], list[float], list[float]]:
    """Time every expert decision (a décharge hand to stop or keep) in games against the
    simple player, caches cold at the start; the advisor (every choice with its value)
    and the round expert deciding the same states (their caches cold too)."""
    leader_values.cache_clear()
    follower_values.cache_clear()
    expert, round_bot, simple = ExpertBot(fresh_tables()), RoundBot(), SimpleBot()
    advisor_tables = fresh_tables()
    times, advice_times, round_times = [], [], []
    for i in range(games):
        match = Match(GAME, [Player("A", "expert"), Player("B", "simple")], {}, DiceSampler(f"{seed}/{i}"))
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.throw()
                continue
            if state.current_player() == 0 and state.decharge and not state.rampo and state.throws:
                t = time.perf_counter()
                action = expert(state)
                times.append(time.perf_counter() - t)
                t = time.perf_counter()
                advise(state, advisor_tables)
                advice_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                round_bot(state)
                round_times.append(time.perf_counter() - t)
            else:
                action = expert(state) if state.current_player() == 0 else simple(state)
            match.apply(action)
    return times, advice_times, round_times


def pcts(times: list[float]) -> tuple[float, float, float]:
    times = sorted(times)
    return times[len(times) // 2] * 1000, times[int(len(times) * 0.95)] * 1000, times[-1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--timing-games", type=int, default=200)
    parser.add_argument("--seed", default="simulate")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; {args.games} two-player games per pairing")
    exact = exact_win_rates()
    for name, rate in exact.items():
        print(f"exact: the expert wins {rate:.6f} of its games against {name}")
    for opponent in ("simple", "naive"):
        if not args.games:
            break
        mean, se, seconds = loss_rate(opponent, args.games, args.seed)
        line = (f"expert vs {opponent}: the expert loses {mean:.4f} ± {se:.4f} (standard error); "
                f"{(0.5 - mean) / se:.1f} standard errors below one half")
        if opponent in exact:
            loss = 1.0 - exact[opponent]
            line += f"; exact {loss:.4f} ({(mean - loss) / se:+.2f} standard errors)"
        print(f"{line}; {seconds:.0f} s")
    times, advice_times, round_times = decision_times(args.timing_games, "timing")
    if times:
        p50, p95, top = pcts(times)
        a50, a95, atop = pcts(advice_times)
        r50, r95, rtop = pcts(round_times)
        print(f"expert decisions (stop or keep): {len(times)}, p50 {p50:.2f} ms, p95 {p95:.2f} ms, "
              f"max {top:.1f} ms (caches cold at the start); the advisor on the same states: p50 "
              f"{a50:.2f} ms, p95 {a95:.2f} ms, max {atop:.1f} ms; the round expert: p50 {r50:.2f} ms, "
              f"p95 {r95:.2f} ms, max {rtop:.1f} ms")


if __name__ == "__main__":
    main()
