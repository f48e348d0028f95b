"""Dé Landais engine figures (not a pytest module): table build time and size, the floor's
effect, expert decision time on CPython, the expert's exact and measured win rates
against the simple player and against the best fixed sealing threshold.

    nice python3 e2e/bench/bench_landais_engine.py [--games 10000]
"""

from __future__ import annotations

import argparse
import io
import math
import random
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)

from pygames import DiceSampler, Match, Player, find_game  # noqa: E402
from pygames.cli import main, read_tables  # noqa: E402
from pygames.core import play_out  # noqa: E402
from pygames.landais.bots import ExpertBot as ExpertLandaisBot  # noqa: E402
from pygames.landais.bots import ThresholdBot
from pygames.landais.cli import predicted_rate  # noqa: E402
from pygames.landais.solver import (  # noqa: E402
    build_table,
    evaluate_pair,
    pair_rate,
    solve,
    table_mask,
    threshold_mask,
)
from pygames.landais.tables import load_tables  # noqa: E402

GAME = find_game("de-landais")


def say(text: str) -> None:
    print(text, flush=True)


def build_figures() -> None:
    data, info = build_table(3000)
    say(f"table de-landais (target 3000, floor -2000): P(first wins) {info['start']:.9f}, "
        f"{info['sweeps']} sweeps, solved in {info['seconds']:.1f} s, {len(data):,} bytes")
    for floor in (-1000, -2500):
        m, W, sweeps, seconds = solve(3000, floor)
        v = float(W[-m.L, -m.L, 0])
        say(f"    floor {floor}: P(first wins) {v:.9f} (moves {v - info['start']:+.2e}; "
            f"6 decimals {v:.6f}), {seconds:.1f} s")


def decision_times(tables) -> None:
    bot = ExpertLandaisBot(tables)
    rng = random.Random(1)
    states = []
    for i in range(200):
        m = Match(GAME, [Player("A"), Player("B")], start={
            "scores": [rng.randrange(-20, 59) * 50, rng.randrange(-20, 59) * 50], "first": 0})
        m.apply("roll")
        m.apply("dice 1 2 2")
        states.append(m.state)
    times = []
    for s in states * 5:
        t = time.perf_counter()
        bot(s)
        times.append(time.perf_counter() - t)
    times.sort()
    say(f"expert decision on CPython: p50 {times[len(times) // 2] * 1e6:.1f} µs, "
        f"p95 {times[int(len(times) * 0.95)] * 1e6:.1f} µs")
    t = time.perf_counter()
    with open("web/tables/de-landais/de-landais.bin", "rb") as f:
        load_tables(f.read())
    say(f"table load (decode + hash + fingerprint) on CPython: {time.perf_counter() - t:.3f} s")


def best_threshold() -> int:
    """The threshold whose ThresholdBot does best against the expert (exact, searched
    with a -1000 floor and tol 1e-7; the winner is then evaluated in full)."""
    m, W, _, _ = solve(3000, -1000, tol=1e-9)
    expert = table_mask(m, W)
    rates = {}
    for t in range(150, 801, 50):
        Wa, Wb = evaluate_pair(m, threshold_mask(m, t), expert, tol=1e-7)
        rates[t] = pair_rate(m, Wa, Wb)
    best = max(rates, key=rates.get)
    say("threshold bot against expert (exact, floor -1000): "
        + ", ".join(f"{t}: {r:.4f}" for t, r in rates.items()))
    say(f"best fixed threshold: {best} (wins {rates[best]:.4f} against the expert)")
    return best


def simulate(threshold: int, games: int, tables) -> tuple[float, float, float]:
    """Expert against ThresholdBot(threshold), seats alternating, the opening throw
    deciding who starts: (expert win rate, its standard error, share of games it started)."""
    expert, other = ExpertLandaisBot(tables), ThresholdBot(threshold)
    wins = started = 0
    for i in range(games):
        seats = ["expert", "simple"] if i % 2 == 0 else ["simple", "expert"]
        bots = [expert if s == "expert" else other for s in seats]
        m = Match(GAME, [Player(f"P{k}") for k in range(2)], sampler=DiceSampler(f"bench/{threshold}/{i}"))
        m.advance_chance()
        e = seats.index("expert")
        started += m.state.player == e
        play_out(m, lambda st: bots[st.current_player()](st))
        wins += m.state.winner == e
    rate = wins / games
    return rate, math.sqrt(rate * (1 - rate) / games), started / games


def main_(argv=None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=10000)
    args = p.parse_args(argv)
    build_figures()
    tables = read_tables(GAME, {"target": 3000})
    decision_times(tables)

    out = io.StringIO()
    t = time.perf_counter()
    main(["simulate", "de-landais", "--players", "A:expert,B:simple", "--games", str(args.games)], out)
    say(f"python -m pygames simulate de-landais --players A:expert,B:simple --games {args.games} "
        f"({time.perf_counter() - t:.0f} s):")
    say(out.getvalue().rstrip())

    for threshold in (300, best_threshold()):
        predicted = predicted_rate(3000, threshold, tables)
        rate, se, started = simulate(threshold, args.games, tables)
        say(f"expert vs threshold {threshold}: measured {rate:.4f} ± {se:.4f} over {args.games} games "
            f"(expert started {started:.3f}); predicted exactly {predicted:.4f}: "
            f"{(rate - predicted) / se:+.2f} standard errors")


if __name__ == "__main__":
    main_()
