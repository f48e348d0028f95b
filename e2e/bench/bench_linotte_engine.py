"""Benchmark of the Linotte computer players (not a pytest module).

    python e2e/bench/bench_linotte_engine.py [--games 1000] [--seed bench]
        [--player expert] [--opponents simple,greedy,medium] [-o yam_master=oui]

Plays seeded games of the player (the expert unless told: `medium`, today's middle level,
is the expert of before `pygames.linotte.search`) against each opponent, the player
starting in half of them, and prints its win rate with its standard error (a draw counts
half a win in the "score" column, nothing in the win rate; the figures so far go to stderr
every 100 games), then its decision times (p50, p95, max; the player's own decisions only).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)

from pygames import DiceSampler, Match, Player, find_game  # noqa: E402
from pygames.core import play_out  # noqa: E402
from pygames.linotte.bots import ExpertBot, GreedyBot, MediumBot, SimpleBot  # noqa: E402
from pygames.linotte.search import needs_search, warm  # noqa: E402

BOTS = {"simple": SimpleBot, "greedy": GreedyBot, "medium": lambda seed=None: MediumBot(),
        "expert": lambda seed=None: ExpertBot(),
        "expert-1ply": lambda seed=None: ExpertBot(search=False)}


def play(game, options, bots, seed, times=None, timed=0):
    """One game; bots[i] plays seat i, the decisions of seat `timed` are timed into `times`.
    Returns the outcome's winners and draw flag."""
    def choose(state):
        who = state.current_player()
        start = time.perf_counter()
        action = bots[who](state)
        if times is not None and who == timed:
            times.append((time.perf_counter() - start, kind_of(state)))
        return action

    outcome = play_out(Match(game, [Player("A"), Player("B")], options, DiceSampler(seed)),
                       choose).outcome()
    return outcome.winners, outcome.draw


def kind_of(state) -> str:
    """The kind of decision, for the times: the roll that starts a turn, one that searches
    the reply, the first roll's (the appel plans), any other."""
    return ("roll" if state.rolls == 0 else
            "reply searched" if needs_search(state.board, state.rules) else
            "first roll (appel plans)" if state.rolls == 1 and not state.target else
            "other")


def mean_se(values):
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def bench(player: str, opponent: str, games: int, seed: str, options: dict, times: list) -> str:
    game = find_game("linotte")
    wins, scores = [], []
    for i in range(games):
        me, other = BOTS[player](f"{seed}/{i}/me"), BOTS[opponent](f"{seed}/{i}")
        first = i % 2 == 0  # the player starts every other game
        bots = [me, other] if first else [other, me]
        seat = 0 if first else 1
        winners, draw = play(game, options, bots, f"{seed}/{opponent}/{i}", times, seat)
        won = not draw and seat in winners
        wins.append(1.0 if won else 0.0)
        scores.append(0.5 if draw else float(won))
        if i % 100 == 99 and i + 1 < games:  # so far, in case the run is cut short
            print(f"  {result(player, opponent, wins, scores)}", file=sys.stderr, flush=True)
    return result(player, opponent, wins, scores)


def result(player: str, opponent: str, wins: list[float], scores: list[float]) -> str:
    w, w_se = mean_se(wins)
    s, s_se = mean_se(scores)
    return (f"{player} vs {opponent}: {len(wins)} games, wins {w:.3f} ± {w_se:.3f}, "
            f"score (draw = ½) {s:.3f} ± {s_se:.3f}")


def summary(times: list[float]) -> str:
    if not times:
        return "no decision"
    times = sorted(times)

    def pct(q):
        return 1000 * times[min(len(times) - 1, int(q * len(times)))]
    return (f"{len(times)} decisions, p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, "
            f"max {1000 * times[-1]:.1f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--player", default="expert", choices=sorted(BOTS))
    parser.add_argument("--opponents", default="simple,greedy,medium")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="NOM=VALEUR")
    args = parser.parse_args(argv)
    from pygames.cli import parse_options

    options = parse_options(find_game("linotte"), args.option)
    warm()  # the dice tables, built once (a page builds them while idle)
    times: list[tuple[float, str]] = []
    start = time.perf_counter()
    for opponent in args.opponents.split(","):
        print(bench(args.player, opponent, args.games, args.seed, options, times), flush=True)
    print(f"{args.player} decision time (CPython {sys.version.split()[0]}): "
          f"{summary([t for t, _ in times])}; {time.perf_counter() - start:.0f} s in all")
    print(f"  every decision but the turn's first roll: "
          f"{summary([t for t, k in times if k != 'roll'])}")
    for kind in ("first roll (appel plans)", "reply searched"):
        print(f"  {kind}: {summary([t for t, k in times if k == kind])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
