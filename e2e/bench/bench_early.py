#!/usr/bin/env python3
"""Benchmark: how soon a game page shows real content, at 1× and 4× CPU (issue #12).

    python e2e/bench/bench_early.py [--rounds 3] [--cpu 1,4] [--pages yams,421] [--query page] [--json out.json]

One headless Chromium at 360×740, the built site served on 127.0.0.1 (PYGAMES_DIST picks
the build), the CPU slowed with CDP ``Emulation.setCPUThrottlingRate`` (4: Chrome's usual
stand-in for a mid-range phone). For every game page and CPU rate, each round, in a new
context (service worker allowed, as a visitor has it):

* ``first``: the first visit (empty cache) of ``<page>.html?seed=bench&pace=0``;
* ``later``: the same page again (no saved game: the setup);
* ``saved``: a game is started, then the page opened again (the saved game);
* ``tap``: the saved game opened again, and Lancer tapped as soon as the drawing is on screen
  (Python still waking: js/view-early.js keeps the tap and the shell plays it once ready).

Figures, in ms from the navigation start: ``content``, when real content is painted
(the setup or the saved game drawn before Python: the Element Timing of
js/setup-early.js's / js/view-early.js's marked text; a page without them has its first
real content when Python is ready) and ``ready``, the time to interactive
(the ready time the page records, ``GLOBALS["ready_at"]`` in e2e/harness/pages.py: the shell
has started). Medians; the ratios 4×/1× and
content/ready; for ``tap``, ``tap>effect`` (from the tap to its effect: the throw in the
saved game) and ``ready>effect`` (from Python's ready time to it); the machine's load average
before and after (2 cores shared by others: read the figures with it).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from harness import site  # noqa: E402
from harness.pages import READY_JS, js_global  # noqa: E402

#: The painted time of the early content (Element Timing), else null; and the rest.
MEASURE = """() => new Promise((resolve) => {
  const seen = [];
  const po = new PerformanceObserver((list) => seen.push(...list.getEntries()));
  try { po.observe({ type: 'element', buffered: true }); } catch (err) {}
  setTimeout(() => {
    po.disconnect();
    const mine = seen.filter((e) => e.identifier.startsWith('pygames-'));
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    resolve({
      early: document.body.dataset.early || null,
      painted: mine.length ? Math.min(...mine.map((e) => e.renderTime || e.loadTime)) : null,
      shown: EARLY_AT ?? null,
      fcp: fcp ? fcp.startTime : null,
      ready: READY_AT ?? null,
    });
  }, 100);
})""".replace("EARLY_AT", js_global("early_at")).replace("READY_AT", js_global("ready_at"))


def game_pages(dist: Path) -> list[str]:
    from pygames import FAMILIES

    return [f for f in FAMILIES if (dist / f"{f}.html").is_file()]


def visit(page, url: str) -> dict:
    page.goto(url)
    page.wait_for_function(READY_JS, timeout=300_000)
    out = page.evaluate(MEASURE)
    # Real content: the early setup or drawing when painted; without them, Python's page.
    out["content"] = out["painted"] if out["painted"] is not None else out["ready"]
    return out


#: In the saved game's page, from its first line (an init script: no wait for the page's main
#: thread, which Python's start keeps busy): when the tap comes (its event's time), whether
#: Python was ready then, and when the saved game holds one more action (polled each frame).
WATCH_TAP = """(() => {
  const key = KEY;
  const actions = () => {
    try { return JSON.parse(localStorage.getItem(key)).record.actions.length; } catch { return -1; }
  };
  const n = actions();
  const tap = (window.__tap = { tapAt: null, effectAt: null, readyAtTap: null });
  addEventListener("click", (e) => {
    if (tap.tapAt === null) { tap.tapAt = e.timeStamp; tap.readyAtTap = !!document.body.dataset.ready; }
  }, true);
  const poll = () => {
    if (tap.tapAt !== null && actions() > n) tap.effectAt = performance.now(); else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})()"""


def tap_early(page, url: str, family: str) -> dict:
    """The saved game again; Lancer tapped as soon as the drawing is on screen (Python waking:
    js/view-early.js keeps the tap, or the shell takes it once ready); until it is played."""
    page.add_init_script(WATCH_TAP.replace("KEY", json.dumps(f"pygames:{family}:match")))
    page.goto(url)
    page.wait_for_selector("body[data-early=view]", timeout=300_000)
    if not page.evaluate(f"() => typeof {js_global('early', '?.play')} === 'function'"):
        # A build that keeps no tap (before issue #24): the drawing is inert, the tap is lost.
        return {"early": "view", "content": None, "ready": None, "tap_effect": None,
                "ready_effect": None, "readyAtTap": None}
    # (The renderer takes the tap when its main thread is free: while Python's start holds it,
    # the tap waits, as a person's does; `tapped` says when it was taken, before or after ready.)
    page.click("#roll", force=True, timeout=300_000)
    page.wait_for_function("() => window.__tap.effectAt !== null", timeout=300_000)
    out = page.evaluate(f"() => ({{...window.__tap, ready: {js_global('ready_at')},"
                        f" drawn: {js_global('early_at')}}})")
    out["tap_effect"] = out["effectAt"] - out["tapAt"]
    out["ready_effect"] = out["effectAt"] - out["ready"]
    out["early"] = "view"
    out["content"] = out["ready_effect"]  # (unused: the summary prints the two figures above)
    return out


def run_page(browser, site_url: str, family: str, rate: int, query: str = "") -> dict:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    log = site.RequestLog().attach(context)
    try:
        page = context.new_page()
        page.set_default_timeout(300_000)
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        url = f"{site_url}{family}.html?seed=bench&pace=0{'&' + query if query else ''}"
        out = {"first": visit(page, url)}
        # The service worker's precache done (a later visit is served by it, as for a visitor).
        page.evaluate("() => navigator.serviceWorker ? Promise.race([navigator.serviceWorker.ready,"
                      " new Promise((r) => setTimeout(r, 60000))]).then(() => 1) : 1")
        out["later"] = visit(page, url)
        page.click("#start")
        page.wait_for_selector("#table:not([hidden])")
        page.wait_for_selector("#roll:not([disabled])")  # a person's turn (the computer at once)
        page.wait_for_function(  # the drawing stored (a build without it: the game saved)
            f"([m, v]) => localStorage.getItem(m) && (!{js_global('early')}"
            f" || (localStorage.getItem(v) && !{js_global('early', '.busy()')}))",
            arg=[f"pygames:{family}:match", f"pygames:{family}:view"])
        out["saved"] = visit(page, url)
        out["tap"] = tap_early(page, url, family)
        return out
    finally:
        context.close()
        log.assert_all_local()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", default="1,4", help="CPU slow-down rates (CDP), comma-separated")
    parser.add_argument("--pages", default="", help="game pages (default: every one)")
    parser.add_argument("--json", help="write the raw figures here")
    parser.add_argument("--query", default="", help="more of the pages' query, e.g. page (PyScript on the page)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    dist = site.ensure_built()
    pages = [p for p in args.pages.split(",") if p] or game_pages(dist)
    rates = [int(r) for r in args.cpu.split(",")]
    load_before = os.getloadavg()
    server, site_url = site.start_site()
    raw: dict = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            for r in range(args.rounds):
                for family in pages:
                    for rate in rates:
                        got = run_page(browser, site_url, family, rate, args.query)
                        for scenario, fig in got.items():
                            raw.setdefault(f"{family} {rate}x {scenario}", []).append(fig)
                        print(f"round {r + 1} {family} {rate}x: " + ", ".join(
                            f"{s} {f['content']:.0f}/{f['ready']:.0f} ({f['early']})" for s, f in got.items()
                            if s != "tap") + (
                                f", tap>effect {got['tap']['tap_effect']:.0f}"
                                f" ready>effect {got['tap']['ready_effect']:.0f}"
                                f" (drawn {got['tap']['drawn']:.0f}, tapped {got['tap']['tapAt']:.0f},"
                                f" {'after' if got['tap']['readyAtTap'] else 'before'} ready"
                                f" {got['tap']['ready']:.0f})"
                                if got["tap"]["tap_effect"] is not None else ", tap lost"),
                            file=sys.stderr, flush=True)
            browser.close()
    finally:
        site.stop_site(server)
    load_after = os.getloadavg()

    def med(key, field):
        values = [f[field] for f in raw.get(key, []) if f[field] is not None]
        return statistics.median(values) if values else float("nan")

    print(f"build {dist}; {args.rounds} round(s); load average before "
          f"{' '.join(f'{x:.2f}' for x in load_before)}, after {' '.join(f'{x:.2f}' for x in load_after)}"
          f" ({os.cpu_count()} cores)")
    print(f"{'page':<11}{'visit':<7}" + "".join(f"{f'content {r}x':>12}{f'ready {r}x':>11}" for r in rates)
          + (f"{'content 4x/1x':>15}{'ready 4x/1x':>13}" if {1, 4} <= set(rates) else "")
          + "".join(f"{f'content/ready {r}x':>19}" for r in rates))
    for family in pages:
        for scenario in ("first", "later", "saved"):
            row = f"{family:<11}{scenario:<7}"
            for r in rates:
                key = f"{family} {r}x {scenario}"
                row += f"{med(key, 'content'):>12.0f}{med(key, 'ready'):>11.0f}"
            if {1, 4} <= set(rates):
                for field, width in (("content", 15), ("ready", 13)):
                    ratio = med(f"{family} 4x {scenario}", field) / med(f"{family} 1x {scenario}", field)
                    row += f"{ratio:>{width}.2f}"
            for r in rates:
                key = f"{family} {r}x {scenario}"
                row += f"{med(key, 'content') / med(key, 'ready'):>19.2f}"
            print(row)
    print(f"\n{'page':<11}" + "".join(f"{f'tap>effect {r}x':>16}{f'ready>effect {r}x':>18}" for r in rates)
          + "   (a tap on the saved game's drawing before Python is ready; medians, ms)")
    for family in pages:
        row = f"{family:<11}"
        for r in rates:
            key = f"{family} {r}x tap"
            row += f"{med(key, 'tap_effect'):>16.0f}{med(key, 'ready_effect'):>18.0f}"
        print(row)
    if args.json:
        Path(args.json).write_text(json.dumps({"load_before": load_before, "load_after": load_after,
                                               "raw": raw}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
