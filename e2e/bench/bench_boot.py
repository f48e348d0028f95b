#!/usr/bin/env python3
"""Benchmark: boot of the vendored Pyodide in headless Chromium, warm HTTP cache.

    python e2e/bench/bench_boot.py [--rounds 5] [--json out.json]

One browser, one context (so one HTTP cache), the built site served by
web/serve.py on 127.0.0.1 under /pygames/ with GitHub Pages' cache headers.
Every scenario is first run once to warm the cache (that first, cold run is
reported too), then the scenarios are interleaved for N rounds (A B A B ...),
each run in a fresh page of the same context, and medians are printed.

Scenario ``bare_boot``: from a blank page of the site, ``import()`` the
vendored pyodide.mjs, ``loadPyodide()``, run ``1+1``.  Its figure is the time
from the page's navigation start until Python answered (``nav_ready_ms``).
Scenario ``bare_boot_cold``: the same in a new context each time (empty
cache), for the cold/warm ratio.

Reuse it from another bench script (e2e/bench/ is on sys.path when run as a script)::

    from bench_boot import measure_bare_boot, run_bench, print_report
    def measure_yams(page, site_url) -> dict: ...   # must return {"ms": ...}
    results = run_bench({"bare_boot": measure_bare_boot, "yams_tti": measure_yams})
    print_report(results, baseline="bare_boot")
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from harness import site  # noqa: E402

#: A scenario: runs in a fresh page of the shared context; returns a dict with
#: at least "ms" (the headline figure, milliseconds); other numeric keys are
#: reported as details.
Scenario = Callable[[object, str], dict]


def measure_bare_boot(page, site_url: str) -> dict:
    """Bare ``loadPyodide()`` from the vendored files; "ms" = navigation start
    until ``1+1`` ran."""
    out = site.boot_pyodide(page, site_url)
    return {
        "ms": out["nav_ready_ms"],
        "import_ms": out["import_ms"],
        "loadPyodide_ms": out["load_ms"] - out["import_ms"],
        "wall_ms": out["wall_ms"],
    }


def measure_bare_boot_cold(page, site_url: str) -> dict:
    """Same as :func:`measure_bare_boot` in a brand-new browser context, i.e.
    with an empty HTTP cache (interleaved with the warm runs, so that load
    on the machine affects both alike)."""
    with site.local_context(page.context.browser) as context:
        return measure_bare_boot(context.new_page(), site_url)


def run_bench(scenarios: dict[str, Scenario], rounds: int = 5, *, build: bool = True,
              log: Callable[[str], None] = print) -> dict:
    """Run *scenarios* interleaved for *rounds* rounds in one browser context
    (warm HTTP cache after one warm-up run each).  Returns
    ``{"rounds": n, "cold": {name: result}, "runs": {name: [result, ...]},
    "hits": {name: [server requests per run]}}``."""
    from playwright.sync_api import sync_playwright

    if build:
        site.ensure_built()
    server, site_url = site.start_site()
    results: dict = {"rounds": rounds, "site_url": site_url, "cold": {}, "runs": {}, "hits": {}}
    log_req = site.RequestLog()

    def one(context, name, fn):
        page = context.new_page()
        before = len(server.served)
        try:
            res = fn(page, site_url)
        finally:
            page.close()
        res["server_hits"] = len(server.served) - before
        return res

    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            context = browser.new_context()
            log_req.attach(context)
            for name, fn in scenarios.items():  # cold run = cache warm-up
                results["cold"][name] = one(context, name, fn)
                log(f"  warm-up {name}: {results['cold'][name]['ms']:.0f} ms (cold cache, "
                    f"{results['cold'][name]['server_hits']} requests to the server)")
            for r in range(rounds):
                for name, fn in scenarios.items():
                    res = one(context, name, fn)
                    results["runs"].setdefault(name, []).append(res)
                log("  round %d: " % (r + 1) + ", ".join(
                    f"{n} {results['runs'][n][-1]['ms']:.0f} ms" for n in scenarios))
            context.close()
            browser.close()
    finally:
        site.stop_site(server)
    log_req.assert_all_local()
    return results


def medians(results: dict) -> dict[str, dict[str, float]]:
    out = {}
    for name, runs in results["runs"].items():
        keys = [k for k, v in runs[0].items() if isinstance(v, (int, float))]
        out[name] = {k: statistics.median(r[k] for r in runs) for k in keys}
    return out


def print_report(results: dict, baseline: str = "bare_boot") -> None:
    med = medians(results)
    n = results["rounds"]
    print(f"\nmedians over {n} interleaved rounds, warm HTTP cache ({results['site_url']}):")
    for name, m in med.items():
        details = ", ".join(f"{k} {v:.0f}" for k, v in m.items() if k not in {"ms"})
        runs = " ".join(f"{r['ms']:.0f}" for r in results["runs"][name])
        print(f"  {name:<15} {m['ms']:7.0f} ms   (runs: {runs}; {details})")
    print("ratios:")
    if baseline in med:
        base = med[baseline]["ms"]
        for name, m in med.items():
            if name != baseline:
                print(f"  {name:<15} / {baseline} = {m['ms'] / base:.2f}x "
                      f"({m['ms'] - base:+.0f} ms)")
        b = med[baseline]
        if "loadPyodide_ms" in b:
            print(f"  {baseline}: loadPyodide() is {b['loadPyodide_ms'] / b['ms']:.0%} of the "
                  f"time to 1+1; import of pyodide.mjs {b['import_ms']:.0f} ms")


def _load() -> str:
    try:
        return "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the raw results to this file")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    print(f"bench_boot: {args.rounds} rounds; load average {_load()} on {os.cpu_count()} cores "
          "(other work on the machine makes these figures noisy)")
    results = run_bench({"bare_boot": measure_bare_boot, "bare_boot_cold": measure_bare_boot_cold},
                        rounds=args.rounds)
    print_report(results)
    print(f"(bench took {time.perf_counter() - t0:.1f} s; load average now {_load()})")
    if args.json:
        Path(args.json).write_text(json.dumps({**results, "medians": medians(results)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
