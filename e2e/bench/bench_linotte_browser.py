"""Benchmark: the Linotte expert's decision time in Pyodide, in headless Chromium (not a
pytest module).

    python e2e/bench/bench_linotte_browser.py [--games 2] [--opponent medium]

Boots Pyodide from the built site with the game package, as a page does
(`harness.site.boot_pyodide`), warms the expert's tables as the page does while idle, then
plays seeded games of the expert against the opponent under every option set, the expert
starting in half of them, timing each of its decisions with `time.perf_counter` inside
Pyodide (1× CPU: no throttling).  Prints the median, p95 and max of every decision, of the
turn's first roll (the appel plans), and of the decisions that search the reply (the end
of the game, a Yam Master five one pawn away).  Target (the issue): p95 ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import json
import sys

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from harness import site  # noqa: E402

CODE = """
import json, time
from pygames import DiceSampler, Match, Player, find_game
from pygames.core import play_out
from pygames.linotte.bots import ExpertBot, GreedyBot, MediumBot, SimpleBot
from pygames.linotte.search import needs_search, warm

warm()
game = find_game("linotte")
others = {"medium": lambda: MediumBot(), "simple": lambda: SimpleBot("b"),
          "greedy": lambda: GreedyBot("b"), "expert": lambda: ExpertBot()}
times = []
for o, options in enumerate(game.option_sets()):
    for g in range(GAMES):
        bots = [ExpertBot(), others[OPPONENT]()]
        seat = g % 2
        bots = bots if seat == 0 else bots[::-1]
        match = Match(game, [Player("A"), Player("B")], options, DiceSampler(f"browser/{o}/{g}"))

        def choose(state, bots=bots, seat=seat):
            who = state.current_player()
            t0 = time.perf_counter()
            action = bots[who](state)
            dt = time.perf_counter() - t0
            if who == seat and state.rolls:
                kind = ("reply searched" if needs_search(state.board, state.rules) else
                        "first roll (appel plans)" if state.rolls == 1 and not state.target
                        else "other")
                times.append((1000 * dt, kind))
            return action

        play_out(match, choose)
json.dumps(times)
"""


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summary(ms) -> str:
    if not ms:
        return "no decision"
    return (f"{len(ms)} decisions, median {pct(ms, 0.5):.1f} ms, p95 {pct(ms, 0.95):.1f} ms, "
            f"max {max(ms):.1f} ms")


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per option set")
    parser.add_argument("--opponent", default="medium",
                        choices=["medium", "simple", "greedy", "expert"])
    args = parser.parse_args(argv)
    site.ensure_built()
    server, site_url = site.start_site()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            page = browser.new_page()
            code = CODE.replace("GAMES", str(args.games)).replace("OPPONENT", repr(args.opponent))
            out = site.boot_pyodide(page, site_url, with_package=True, code=code,
                                           timeout_ms=1_800_000)
            browser.close()
    finally:
        site.stop_site(server)
    times = json.loads(out["result"])
    print(f"Linotte expert in Pyodide {out['version']} (Chromium, 1x CPU), against "
          f"{args.opponent}, {args.games} games under each of the 8 option sets "
          "(the turn's first roll, nothing to decide, not counted):")
    print(f"  every decision: {summary([t for t, _ in times])}  [p95 <= 300]")
    for kind in ("first roll (appel plans)", "reply searched", "other"):
        print(f"  {kind}: {summary([t for t, k in times if k == kind])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
