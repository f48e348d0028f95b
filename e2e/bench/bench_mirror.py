#!/usr/bin/env python3
"""What the page's main thread would carry with Python in a worker drawing on the mirror
(issue 24, item 2): the bytes of what the page and the worker send each other, and the time
the page takes to apply the worker's operations (js/page-mirror.mjs).

    python e2e/bench/bench_mirror.py [--cpu 1,4] [--families yams,421]

For each game: the built page (its scripts not run) sends its tree; the page's real modules
run on the mirror in CPython (tests/page_host.py) and start, Commencer is clicked, then a
whole match is played by clicks against the computer (``?pace=0``), the page applying the
operations after each step.  Printed: the tree's bytes (JSON) and the nodes alive at the end
(Python's collector lets go of the others); the start's operations (count, bytes, ms to
apply: the page reads each batch as one JSON text, as a worker's message, reading included);
per step, the median and largest bytes and ms to apply.  ``--cpu 4`` slows Chromium's CPU
four times (CDP), as Lighthouse's mobile preset counts it.  What Python itself takes per
move is not here: it runs in CPython, not in Pyodide (e2e/bench/bench_worker.py measured a
worker's Pyodide).
"""

from __future__ import annotations

import argparse
import json
import statistics

import _paths  # noqa: F401  (sys.path: the repository, web/tools/, e2e/, tests/, web/app/, web/worker/)
from harness import site
from harness.mirror import HostLoop, apply, blank, run_events
from page_host import Host
from playwright.sync_api import sync_playwright

from pygames import FAMILIES


def measure(page, site_url: str, family: str) -> dict:
    tree = blank(page, site_url, site.DIST.joinpath(f"{family}.html").read_text(encoding="utf-8"))
    host = Host(family, url=f"{site_url}{family}.html?pace=0&seed=7", tree=tree)
    loop = HostLoop()
    steps = []
    try:
        loop.run(host.start())
        ops = host.document.take()
        start = (len(ops), len(json.dumps(ops)), apply(page, ops))
        page.evaluate("() => { window.__mirrorSent.length = 0; }")
        page.locator("#setup-form button[type=submit]").click()
        events = page.evaluate("() => window.__mirrorSent")
        loop.run(run_events(host, events))
        ops = host.document.take()
        setup = (len(ops), len(json.dumps(ops)), apply(page, ops))
        clicks = 0
        while loop.run(host.step(clicks)):
            ops = host.document.take()
            if ops:
                steps.append((len(ops), len(json.dumps(ops)), apply(page, ops)))
            clicks += 1
        assert host.window.errors == [], host.window.errors
    finally:
        loop.close()
        host.close()
    return {"tree": (len(json.dumps(tree)), len(host.document.nodes())), "start": start, "setup": setup,
            "steps": steps, "event": len(json.dumps(events[0])) if events else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", default="1,4", help="CPU slowdowns to measure (default 1,4)")
    parser.add_argument("--families", default=",".join(sorted(FAMILIES)))
    args = parser.parse_args()
    site.ensure_built()
    server, site_url = site.start_site()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**site.chromium_launch_kwargs())
            for cpu in [float(c) for c in args.cpu.split(",")]:
                print(f"== CPU x{cpu:g}")
                print(f"{'game':<11} {'tree KB':>7} {'nodes':>5} | {'start: ops':>10} {'KB':>5} {'ms':>6} | "
                      f"{'Commencer: ops':>14} {'KB':>5} {'ms':>6} | {'steps':>5} {'KB med/max':>11} "
                      f"{'ms med/max':>11}")
                for family in args.families.split(","):
                    context = browser.new_context()
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
                    r = measure(page, site_url, family)
                    context.close()
                    kb = [s[1] / 1024 for s in r["steps"]]
                    ms = [s[2] for s in r["steps"]]
                    print(f"{family:<11} {r['tree'][0] / 1024:7.1f} {r['tree'][1]:5d} | {r['start'][0]:10d} "
                          f"{r['start'][1] / 1024:5.1f} {r['start'][2]:6.1f} | {r['setup'][0]:14d} "
                          f"{r['setup'][1] / 1024:5.1f} {r['setup'][2]:6.1f} | {len(r['steps']):5d} "
                          f"{statistics.median(kb):5.1f}/{max(kb):5.1f} {statistics.median(ms):5.1f}/{max(ms):5.1f}")
            browser.close()
    finally:
        site.stop_site(server)


if __name__ == "__main__":
    main()
