#!/usr/bin/env python3
"""Benchmark: how every game page answers, in headless Chromium.

    python e2e/bench/bench_pages.py [--clicks 40] [--pages 421,linotte]

For each game page of the registry (the build's pages):

* **click → redraw**: a person's click on a control that plays an action (any enabled
  ``[data-action]`` of the table: Lancer, a box, a cell, Sceller…), timed from the click
  until the page has applied the action, let the dice fall, saved and redrawn (``sync``:
  the page's click handler runs to its end inside ``click()``), and until the next painted
  frame (``frame``).  Against the computer (pace 0), seeded.
* **the computer's decision**: the time each computer move takes to choose (the shell
  records it in the array ``GLOBALS["bot_times"]`` of e2e/harness/pages.py when it exists), over whole games of
  its strongest seat against itself, started from the embed page's URL (``players=``), so
  nothing but the computer plays.  The expert's tables, when it has some, are fetched
  before the first decision and that fetch is not counted.

Targets from the issues: click → redraw p95 ≤ 50 ms; a decision p95 ≤ 100 ms (421, Dé
Landais) and ≤ 300 ms (Linotte).  The machine is shared: run it twice.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from harness import site  # noqa: E402
from harness.pages import READY_JS, js_global  # noqa: E402

from pygames import FAMILIES  # noqa: E402

ENABLED = "#table [data-action]:not([disabled]):not([hidden])"
CLICK_JS = """async (index) => {
  const controls = [...document.querySelectorAll(%r)];
  const target = controls[index %% controls.length];
  const t0 = performance.now();
  target.click();
  const t1 = performance.now();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return [t1 - t0, performance.now() - t0, target.dataset.action];
}""" % ENABLED
TARGETS = {"421": 100, "de-landais": 100, "linotte": 300, "yams": 100}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def measure_clicks(browser, site_url, family, count, rng):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{site_url}{family}.html?fresh=1&seed=bench-{family}&pace=0&nosw")
    page.wait_for_function(READY_JS, timeout=120_000)
    page.click("#start")
    sync, frame, kinds = [], [], {}
    deadline = time.monotonic() + 300
    while len(sync) < count and time.monotonic() < deadline:
        if page.is_visible("#end"):
            page.click("#again")
            continue
        if not page.evaluate(f"!!document.querySelector({ENABLED!r})"):
            page.wait_for_timeout(20)  # the computer is playing
            continue
        s, f, action = page.evaluate(CLICK_JS, rng.randrange(1000))
        sync.append(s)
        frame.append(f)
        kind = action.split()[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    context.close()
    return {"sync": sync, "frame": frame, "kinds": kinds}


def measure_decisions(browser, site_url, family, games):
    fam = FAMILIES[family]
    game = fam.games[0]
    seat = "expert" if "expert" in game.seats else list(game.seats)[-1]
    n = max(game.min_players, min(2, game.max_players))
    players = ",".join(f"Ordi{i}:{seat}" for i in range(1, n + 1))
    context = browser.new_context()
    context.add_init_script("window.pygames = {botTimes: []};")  # the shell keeps them then
    times = []
    for g in range(games):
        page = context.new_page()
        page.goto(f"{site_url}embed-{family}.html?players={players}&pace=0&seed=dec{g}"
                  f"&id=bench{g}&nosw")
        page.wait_for_function(READY_JS, timeout=120_000)
        page.wait_for_function("() => !document.getElementById('end').hidden", timeout=600_000)
        times += page.evaluate(js_global("bot_times"))
        page.close()
    context.close()
    return {"seat": seat, "players": n, "ms": times}


def main(argv=None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--games", type=int, default=2, help="computer-only games per page")
    parser.add_argument("--pages", help="comma-separated family ids (default: every page)")
    args = parser.parse_args(argv)
    dist = site.ensure_built()
    pages = [f for f in FAMILIES if (dist / f"{f}.html").is_file()
             and (not args.pages or f in args.pages.split(","))]
    server, site_url = site.start_site()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            for family in pages:
                clicks = measure_clicks(browser, site_url, family, args.clicks, random.Random(family))
                dec = measure_decisions(browser, site_url, family, args.games)
                s, f, ms = clicks["sync"], clicks["frame"], dec["ms"]
                print(f"{family}.html")
                print(f"  click -> redraw ({len(s)} clicks: "
                      + ", ".join(f"{k} {v}" for k, v in sorted(clicks["kinds"].items())) + "): "
                      f"median {statistics.median(s):.1f} ms, p95 {pct(s, .95):.1f} ms "
                      f"[<= 50]; to the next frame median {statistics.median(f):.1f} ms, "
                      f"p95 {pct(f, .95):.1f} ms")
                if ms:
                    print(f"  computer's decision ({dec['seat']}, {len(ms)} moves, "
                          f"{dec['players']} computer players): median {statistics.median(ms):.1f} ms, "
                          f"p95 {pct(ms, .95):.1f} ms, max {max(ms):.1f} ms "
                          f"[p95 <= {TARGETS.get(family, 100)}]", flush=True)
            browser.close()
    finally:
        site.stop_site(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
