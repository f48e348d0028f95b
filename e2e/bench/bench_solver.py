#!/usr/bin/env python3
"""Figures of the Yams solver and its expert (a plain script, not a test).

    python e2e/bench/bench_solver.py                 # everything (about 15 minutes on 2 cores)
    python e2e/bench/bench_solver.py --skip-solve --games 2000

1. solve time of every ruleset and option set (needs numpy), the optimal expected score,
   and the exact expected score of the policy played from the shipped quantised table;
2. table sizes: states, raw 16-bit values, the shipped file (zlib inside) and gzip of it;
3. decision time of the expert and of the advisor (p50 / p95 / max, in this CPython);
4. simulated expert games per ruleset: mean ± standard error against the solved value.
"""

from __future__ import annotations

import argparse
import gzip
import math
import multiprocessing
import os
import random
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)

ROOT = str(_paths.ROOT)

from pygames import DiceSampler, Match, Player, find_game  # noqa: E402
from pygames.cli import _simulate_chunk, read_tables  # noqa: E402
from pygames.yams.advisor import advise  # noqa: E402
from pygames.yams.bots import ExpertBot as ExpertYamsBot  # noqa: E402
from pygames.yams.bots import turn_of  # noqa: E402
from pygames.yams.solver import all_configs, evaluate, solve  # noqa: E402
from pygames.yams.tables import load_tables, table_name  # noqa: E402

TABLES = os.path.join(ROOT, "web", "tables", "yams")


def name_of(game, options):
    return table_name(game.id, options, {o.id: o.default for o in game.options})


def bench_solve(configs, check_policy):
    print("\n== solve (numpy) ==")
    print(f"{'table':45} {'seconds':>8} {'optimum':>10} {'policy (table)':>15} {'loss':>9}")
    for game, options in configs:
        name = name_of(game, options)
        solution = solve(game.rules(game.resolve_options(options)))
        with open(os.path.join(TABLES, name + ".bin"), "rb") as f:
            tables = load_tables(f.read())
        if check_policy:  # evaluate the shipped table's policy again, exactly
            import numpy as np

            codes = np.frombuffer(tables.codes.tobytes(), dtype=np.uint16)
            policy = evaluate(solution.model, codes / tables.header["scale"])
        else:
            policy = tables.header["policy_expected"]
        print(f"{name:45} {solution.seconds:8.1f} {solution.expected:10.4f} {policy:15.6f} "
              f"{solution.expected - policy:9.1e}")


def bench_sizes(configs):
    print("\n== tables ==")
    print(f"{'table':45} {'states':>9} {'raw u16':>10} {'file':>10} {'gzip(file)':>11} {'load s':>7}")
    for game, options in configs:
        name = name_of(game, options)
        with open(os.path.join(TABLES, name + ".bin"), "rb") as f:
            data = f.read()
        start = time.perf_counter()
        tables = load_tables(data)
        seconds = time.perf_counter() - start
        states = tables.header["states"]
        print(f"{name:45} {states:9,} {2 * states:10,} {len(data):10,} "
              f"{len(gzip.compress(data, 9)):11,} {seconds:7.2f}")


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def bench_decisions(game_ids, games):
    print("\n== decision time (ms), every call cold (the turn worked out from the tables "
          "anew; in play only a turn's first decision is) ==")
    print(f"{'ruleset':12} {'what':8} {'n':>6} {'p50':>7} {'p95':>7} {'max':>7}")
    for game_id in game_ids:
        game = find_game(game_id)
        tables = read_tables(game, {}, TABLES)
        bot = ExpertYamsBot(tables)
        bot_times, advice_times = [], []
        for i in range(games):
            tables._turns.clear()
            match = Match(game, [Player("A", "expert"), Player("B", "expert")], None,
                          DiceSampler(f"time/{i}"))
            while not match.state.is_terminal():
                if match.state.is_chance():
                    match.throw()
                    continue
                state = match.state
                tables._turns.clear()  # every call cold: the worst case
                start = time.perf_counter()
                advise(state, tables)
                advice_times.append(time.perf_counter() - start)
                tables._turns.clear()
                start = time.perf_counter()
                action = bot(state)
                bot_times.append(time.perf_counter() - start)
                match.apply(action)
        for what, times in (("expert", bot_times), ("advise", advice_times)):
            ms = [t * 1000 for t in times]
            print(f"{game_id:12} {what:8} {len(ms):6} {percentile(ms, .5):7.2f} "
                  f"{percentile(ms, .95):7.2f} {max(ms):7.2f}")
        turns = []
        for _ in range(200):
            tables._turns.clear()
            mask = random.randrange(1 << tables.model.B - 1)  # early turns: the most work
            ups = tables.model.ups[mask & tables.model.upper_bits]
            start = time.perf_counter()
            turn_of(tables, mask, random.choice(ups), 0)
            turns.append((time.perf_counter() - start) * 1000)
        print(f"{game_id:12} {'turn':8} {len(turns):6} {percentile(turns, .5):7.2f} "
              f"{percentile(turns, .95):7.2f} {max(turns):7.2f}   (cold turn, random sheet)")


def bench_simulation(configs, games, jobs):
    print(f"\n== {games} simulated expert games per ruleset ({jobs} processes) ==")
    print(f"{'table':45} {'mean':>9} {'stderr':>7} {'solved':>9} {'z':>6} {'seconds':>8}")
    for game, options in configs:
        options = game.resolve_options(options)
        size = -(-games // jobs)
        work = [(game.id, options, "A:expert", "bench", lo, min(size, games - lo), TABLES)
                for lo in range(0, games, size)]
        start = time.perf_counter()
        with multiprocessing.Pool(jobs) as pool:
            scores = [r[0][0] for chunk in pool.map(_simulate_chunk, work) for r in chunk]
        seconds = time.perf_counter() - start
        n = len(scores)
        mean = sum(scores) / n
        stderr = math.sqrt(sum((s - mean) ** 2 for s in scores) / (n - 1) / n)
        solved = read_tables(game, options, TABLES).expected
        print(f"{name_of(game, options):45} {mean:9.3f} {stderr:7.3f} {solved:9.4f} "
              f"{(mean - solved) / stderr:+6.2f} {seconds:8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="simulated games per ruleset")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timing-games", type=int, default=30)
    parser.add_argument("--skip-solve", action="store_true")
    parser.add_argument("--check-policy", action="store_true",
                        help="re-evaluate each shipped table's policy exactly (slower)")
    parser.add_argument("--all-options", action="store_true",
                        help="simulate every option set, not only the defaults")
    args = parser.parse_args()
    configs = all_configs()
    defaults = [(g, o) for g, o in configs if o == g.resolve_options({})]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    if not args.skip_solve:
        bench_solve(configs, args.check_policy)
    bench_sizes(configs)
    bench_decisions([g.id for g, _ in defaults], args.timing_games)
    if args.games:
        bench_simulation(configs if args.all_options else defaults, args.games, args.jobs)


if __name__ == "__main__":
    main()
