#!/usr/bin/env python3
"""Benchmark of the Yams page in headless Chromium: figures for the foundation issue.

    python e2e/bench/bench_yams.py [--rounds 5] [--rolls 50]

1. Time to interactive of yams.html (navigation start until the page's ready signal,
   warm HTTP cache) against a bare Pyodide boot of the same vendored files, interleaved
   in one browser run (see bench_boot.py): the ratio is the figure to watch.
2. Roll latency: a click on "Lancer" until the dice and the sheet are updated (the
   Python handler runs inside the click), and until the next painted frame; median and
   p95 over N rolls of a real game.
3. The advisor: a click on "Conseil" until its list is shown (the expert's decision for
   the situation, computed in the browser from the solved tables), p50 and p95 over a game.
4. Bytes transferred on a first visit (empty cache): as served here (no compression),
   and as a host that gzips responses (GitHub Pages does) would send them.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
from urllib.parse import urlparse

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from bench_boot import _load, measure_bare_boot, print_report, run_bench  # noqa: E402
from harness import site  # noqa: E402
from harness.pages import READY_JS, js_global  # noqa: E402


def measure_yams_tti(page, site_url: str) -> dict:
    page.goto(site_url + "yams.html?fresh=1&seed=bench")
    page.wait_for_function(READY_JS, timeout=60000)
    ms = page.evaluate(f"{js_global('ready_at')} ?? performance.now()")
    return {"ms": ms}


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


ROLL_JS = """async () => {
  const roll = document.getElementById('roll');
  const t0 = performance.now();
  roll.click();
  const t1 = performance.now();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return [t1 - t0, performance.now() - t0];
}"""

SCORE_JS = """() => {
  const box = [...document.querySelectorAll('#sheet-body button.box')].find(b => !b.disabled);
  box.click();
}"""


def measure_rolls(browser, site_url: str, count: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "yams.html?fresh=1&seed=rolls&pace=0")
    page.wait_for_function(READY_JS, timeout=60000)
    page.click("#start")
    sync, frame = [], []
    while len(sync) < count:
        if page.is_visible("#end"):
            page.click("#again")
            continue
        if page.is_disabled("#roll"):
            page.evaluate(SCORE_JS)
            continue
        s, f = page.evaluate(ROLL_JS)
        sync.append(s)
        frame.append(f)
    context.close()
    return {"sync": sync, "frame": frame}


ADVISE_JS = """async () => {
  const panel = document.getElementById('advice');
  const t0 = performance.now();
  const shown = new Promise(resolve => {
    const done = () => panel.querySelector('.advice-list') && resolve(performance.now() - t0);
    new MutationObserver(done).observe(panel, {childList: true, subtree: true});
  });
  document.getElementById('advise').click();
  return await shown;
}"""


def measure_advisor(browser, site_url: str, count: int) -> list[float]:
    """Play a yams game by the advisor's first choice, timing every advice after the first
    (which also fetches the table)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site_url + "yams.html?fresh=1&seed=advisor&pace=0&nosw")
    page.wait_for_function(READY_JS, timeout=60000)
    page.click("#start")
    times = []
    while len(times) < count + 1:
        if page.is_visible("#end"):
            page.click("#again")
            continue
        if page.evaluate("document.querySelectorAll('#roll-count i.used').length") == 0:
            page.click("#roll")
        times.append(page.evaluate(ADVISE_JS))
        page.click("#advice li:first-child button")
        if page.is_visible("#advice"):  # a keep: the dice are held, now roll
            page.click("#roll")
    context.close()
    return times[1:]


def first_visit_bytes(browser, site_url: str) -> dict:
    dist = site.ensure_built()
    context = browser.new_context()
    page = context.new_page()
    paths = []
    page.on("requestfinished", lambda r: paths.append(urlparse(r.url).path))
    page.goto(site_url + "yams.html?fresh=1")
    page.wait_for_function(READY_JS, timeout=60000)
    context.close()
    prefix = urlparse(site_url).path
    raw = zipped = 0
    for path in paths:
        rel = path[len(prefix):] if path.startswith(prefix) else path.lstrip("/")
        file = dist / (rel or "index.html")
        if file.is_file():
            body = file.read_bytes()
            raw += len(body)
            zipped += len(gzip.compress(body, 6))
    return {"requests": len(paths), "raw": raw, "gzip": zipped}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rolls", type=int, default=50)
    parser.add_argument("--advice", type=int, default=40)
    args = parser.parse_args(argv)
    print(f"bench_yams: load average {_load()} on 2 cores (figures are noisy on a shared machine)")
    results = run_bench({"bare_boot": measure_bare_boot, "yams_tti": measure_yams_tti}, args.rounds)
    print_report(results)

    from playwright.sync_api import sync_playwright

    server, site_url = site.start_site()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            rolls = measure_rolls(browser, site_url, args.rolls)
            advice = measure_advisor(browser, site_url, args.advice)
            visit = first_visit_bytes(browser, site_url)
            browser.close()
    finally:
        site.stop_site(server)
    for key, label in (("sync", "click → dice and sheet updated"), ("frame", "click → next painted frame")):
        v = rolls[key]
        print(f"roll latency, {label}: median {statistics.median(v):.1f} ms, "
              f"p95 {percentile(v, 0.95):.1f} ms, max {max(v):.1f} ms over {len(v)} rolls")
    print(f"advisor, click → best choices shown: median {statistics.median(advice):.1f} ms, "
          f"p95 {percentile(advice, 0.95):.1f} ms, max {max(advice):.1f} ms over {len(advice)} decisions")
    print(f"first visit: {visit['requests']} requests, {visit['raw'] / 1e6:.2f} MB as served here, "
          f"{visit['gzip'] / 1e6:.2f} MB gzip-compressed (as a compressing host sends it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
