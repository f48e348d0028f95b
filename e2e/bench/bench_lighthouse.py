#!/usr/bin/env python3
"""Lighthouse on every game page, mobile and desktop: category scores and key metrics.

    python e2e/bench/bench_lighthouse.py [--pages yams,421] [--presets mobile,desktop]
                                   [--ways first,saved] [--runs 1] [--json [out.json]]

Lighthouse comes from npm (package.json pins it exactly; ``npm ci`` installs it under
node_modules/) and runs with Node against the built site (dist/, or PYGAMES_DIST),
served by web/serve.py on 127.0.0.1 under /pygames/ with gzip as GitHub Pages compresses
(``--gzip``: text types and WebAssembly).  Chromium: CHROME_PATH if set, else the tests'
browser (/usr/bin/chromium, or Playwright's), headless (``--headless=new --no-sandbox
--disable-gpu``, background networking and component updates off).

Each run is a first visit of ``<page>.html`` (Lighthouse clears the storage and cache
first): the ``mobile`` preset is Lighthouse's default (a mid-range phone: 4× CPU and a
slow 4G link, simulated), ``desktop`` is ``--preset=desktop``.  Printed per page and
preset: the accessibility, best-practices, performance and SEO scores, FCP, LCP, TBT,
TTI, Speed Index and CLS, the element Lighthouse counts as the largest paint (and when it
was painted in the unthrottled run that Lighthouse simulates from: ``oLCP``), and the
audits that cost points outside performance.

``--query page`` adds ``?page`` to each page's address: Python on the page (PyScript), the
way before stop 43, against the default: Python in a dedicated worker (js/worker-page.mjs).

``--ways`` picks how the page is entered: ``first`` (the default) as above; ``saved``, a
player coming back to a saved game with nothing of the site cached: a game is started in a
Chromium profile of its own (Playwright, the same browser), then its HTTP cache, Cache
Storage and service worker are cleared, its localStorage kept, and Lighthouse runs in that
profile with ``--disable-storage-reset`` (the page draws the saved game before Python,
js/view-early.js).  About Lighthouse's LCP: with simulated throttling it replays, on the
slow link, every request that *ended* before the largest paint of the unthrottled run, so
a page whose runtime downloads finish before its early paint gets the runtime's download
time as its LCP, whatever element is the largest.

Nothing leaves the machine: Lighthouse's error reporting is off, no audit needs another
host (the page requests only its own files), and the script fails if the report lists a
request to a host other than 127.0.0.1.  With ``--runs N`` each figure is the median of N
runs.  A slow script: about a minute per run on a loaded 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
import build  # noqa: E402
from harness import site  # noqa: E402

from pygames import FAMILIES  # noqa: E402

ROOT = site.ROOT
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("accessibility", "best-practices", "performance", "seo")
#: Lighthouse audit id -> short name; values in ms (CLS: unitless).
METRICS = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "interactive": "TTI",
    "speed-index": "SI",
    "cumulative-layout-shift": "CLS",
}
CHROME_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--disable-extensions", "--disable-sync"]
PRESETS = ("mobile", "desktop")


def chrome_path() -> str:
    """CHROME_PATH, else the browser the e2e tests use."""
    if os.environ.get("CHROME_PATH"):
        return os.environ["CHROME_PATH"]
    exe = site.chromium_launch_kwargs().get("executable_path")
    if exe:
        return exe
    from playwright.sync_api import sync_playwright  # Playwright's own Chromium (CI)

    with sync_playwright() as p:
        return p.chromium.executable_path


def lighthouse(url: str, preset: str, chrome: str, timeout_s: float = 300,
               profile: str | None = None) -> dict:
    """One Lighthouse run: its JSON report (lhr)."""
    node = shutil.which("node")
    if not node:
        sys.exit("bench_lighthouse.py: node is not on PATH")
    if not LIGHTHOUSE.is_file():
        sys.exit("bench_lighthouse.py: node_modules/lighthouse is missing: run `npm ci`")
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [node, str(LIGHTHOUSE), url, "--output=json", f"--output-path={out}", "--quiet",
               "--no-enable-error-reporting", f"--chrome-flags={' '.join(CHROME_FLAGS)}",
               f"--only-categories={','.join(CATEGORIES)}", "--max-wait-for-load=90000"]
        if profile:  # a saved game's way in: this profile's localStorage, kept
            cmd[cmd.index(f"--chrome-flags={' '.join(CHROME_FLAGS)}")] = (
                f"--chrome-flags={' '.join(CHROME_FLAGS)} --user-data-dir={profile}")
            cmd.append("--disable-storage-reset")
        if preset == "desktop":
            cmd.append("--preset=desktop")
        env = {**os.environ, "CHROME_PATH": chrome, "TMPDIR": tmp}
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout_s)
        if proc.returncode != 0 or not out.is_file():
            raise RuntimeError(f"lighthouse failed ({proc.returncode}) on {url} [{preset}]:\n"
                               f"{proc.stderr[-2000:]}")
        return json.loads(out.read_text(encoding="utf-8"))


def saved_profile(site_url: str, page: str, chrome: str, directory: str, query: str = "") -> None:
    """A Chromium profile in `directory` holding a saved game of `page` in its localStorage
    (a game started, the table drawn and kept), and nothing else of the site: no HTTP cache,
    no Cache Storage, no service worker."""
    from harness.pages import READY_JS, js_global
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            directory, executable_path=chrome, headless=True, args=site.CHROMIUM_ARGS,
            viewport={"width": 412, "height": 823}, service_workers="block")
        try:
            tab = context.pages[0] if context.pages else context.new_page()
            tab.set_default_timeout(300_000)
            tab.goto(f"{site_url}{page}.html?seed=lighthouse&pace=0{query.replace('?', '&')}")
            tab.wait_for_function(READY_JS, timeout=300_000)
            tab.click("#start")
            tab.wait_for_selector("#table:not([hidden])")
            tab.wait_for_function(  # a person's turn: no computer plays after the reload
                "() => !document.getElementById('table').hasAttribute('data-computer-turn')"
                " && !document.getElementById('roll').disabled")
            tab.wait_for_function(  # the game saved and its drawing kept (js/view-early.js)
                f"([m, v]) => localStorage.getItem(m) && localStorage.getItem(v)"
                f" && !{js_global('early', '.busy()')}",
                arg=[f"pygames:{page}:match", f"pygames:{page}:view"])
            cdp = context.new_cdp_session(tab)
            cdp.send("Network.clearBrowserCache")
            cdp.send("Storage.clearDataForOrigin", {
                "origin": site_url.split("/", 3)[0] + "//" + site_url.split("/", 3)[2],
                "storageTypes": "cache_storage,service_workers"})
            tab.goto("about:blank")
        finally:
            context.close()


def summarise(lhr: dict) -> dict:
    """Scores (0-100), metrics (ms), the hosts requested, the audits that cost points."""
    scores = {c: (None if lhr["categories"][c]["score"] is None
                  else round(lhr["categories"][c]["score"] * 100)) for c in CATEGORIES}
    audits = lhr["audits"]
    metrics = {short: audits[a].get("numericValue") for a, short in METRICS.items() if a in audits}
    requests = (audits.get("network-requests", {}).get("details") or {}).get("items", [])
    hosts = sorted({urlsplit(r["url"]).hostname or "" for r in requests
                    if urlsplit(r["url"]).scheme in ("http", "https")})
    lost = {}
    for c in ("accessibility", "best-practices", "seo"):
        for ref in lhr["categories"][c]["auditRefs"]:
            a = audits.get(ref["id"], {})
            if ref.get("weight", 0) > 0 and a.get("score") is not None and a["score"] < 1:
                items = (a.get("details") or {}).get("items") or []
                why = "; ".join(sorted({str(i.get("value") or i.get("description") or i.get("source")
                                            or i.get("url") or "")[:160] for i in items[:5]} - {""}))
                lost.setdefault(c, []).append(f"{ref['id']}: {a.get('title', '')}"
                                              + (f" ({why})" if why else ""))
    lcp = None
    for part in (audits.get("largest-contentful-paint-element", {}).get("details") or {}).get("items", []):
        for item in part.get("items", []):
            node = item.get("node") if isinstance(item, dict) else None
            if node and lcp is None:
                lcp = f"{node.get('selector', '?')} \"{(node.get('nodeLabel') or '')[:40]}\""
    observed = ((audits.get("metrics", {}).get("details") or {}).get("items") or [{}])[0]
    metrics["oLCP"] = observed.get("observedLargestContentfulPaint")
    return {"scores": scores, "metrics": metrics, "hosts": hosts, "lost": lost, "lcp_element": lcp,
            "warnings": lhr.get("runWarnings", []),
            "error": (lhr.get("runtimeError") or {}).get("message")}


def median_summary(runs: list[dict]) -> dict:
    if len(runs) == 1:
        return runs[0]
    out = dict(runs[-1])

    def med(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    out["scores"] = {c: med([r["scores"][c] for r in runs]) for c in CATEGORIES}
    out["metrics"] = {m: med([r["metrics"].get(m) for r in runs]) for m in (*METRICS.values(), "oLCP")}
    out["lcp_elements"] = sorted({r["lcp_element"] or "-" for r in runs})
    out["lcp_runs"] = [r["metrics"].get("LCP") for r in runs]
    out["hosts"] = sorted({h for r in runs for h in r["hosts"]})
    return out


def fmt_ms(value) -> str:
    return "-" if value is None else f"{value / 1000:.1f}s"


def table(results: list[dict]) -> str:
    head = (f"{'page':<12}{'way':<6}{'preset':<9}{'a11y':>5}{'bp':>5}{'perf':>5}{'seo':>5}"
            f"{'FCP':>8}{'LCP':>8}{'TBT':>8}{'TTI':>8}{'SI':>8}{'CLS':>7}{'oLCP':>7}  LCP element")
    lines = [head, "-" * len(head)]
    for r in results:
        s, m = r["scores"], r["metrics"]
        score = lambda c: "-" if s[c] is None else f"{s[c]:.0f}"  # noqa: E731
        cls = "-" if m.get("CLS") is None else f"{m['CLS']:.3f}"
        lines.append(f"{r['page']:<12}{r.get('way', 'first'):<6}{r['preset']:<9}{score('accessibility'):>5}"
                     f"{score('best-practices'):>5}{score('performance'):>5}{score('seo'):>5}"
                     f"{fmt_ms(m.get('FCP')):>8}{fmt_ms(m.get('LCP')):>8}"
                     f"{(lambda v: '-' if v is None else f'{v:.0f}ms')(m.get('TBT')):>8}"
                     f"{fmt_ms(m.get('TTI')):>8}{fmt_ms(m.get('SI')):>8}{cls:>7}{fmt_ms(m.get('oLCP')):>7}  "
                     + " | ".join(r.get("lcp_elements") or [r.get("lcp_element") or "-"]))
    notes = []
    for r in results:
        for category, items in r["lost"].items():
            notes.append(f"{r['page']} [{r['preset']}] {category}: " + "; ".join(items))
        for w in r["warnings"]:
            notes.append(f"{r['page']} [{r['preset']}] warning: {w}")
        if r["error"]:
            notes.append(f"{r['page']} [{r['preset']}] error: {r['error']}")
    return "\n".join(lines + ([""] + notes if notes else []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", help="comma-separated family ids (default: every game page)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="mobile,desktop")
    parser.add_argument("--ways", default="first", help="first,saved (see above)")
    parser.add_argument("--runs", type=int, default=1, help="runs per page and preset (median)")
    parser.add_argument("--query", default="", help="added to each page's address, e.g. page "
                        "(Python on the page, PyScript)")
    parser.add_argument("--json", nargs="?", const="-", metavar="PATH",
                        help="write the results as JSON (to PATH, or to stdout instead of the table)")
    args = parser.parse_args(argv)

    pages = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
    if args.pages:
        wanted = [p.strip() for p in args.pages.split(",") if p.strip()]
        unknown = sorted(set(wanted) - set(pages))
        if unknown:
            parser.error(f"unknown page(s): {', '.join(unknown)} (pages: {', '.join(pages)})")
        pages = wanted
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    if set(presets) - set(PRESETS):
        parser.error(f"--presets: {', '.join(PRESETS)}")

    ways = [w.strip() for w in args.ways.split(",") if w.strip()]
    if set(ways) - {"first", "saved"}:
        parser.error("--ways: first,saved")

    query = f"?{args.query.lstrip('?')}" if args.query else ""
    site.ensure_built()
    chrome = chrome_path()
    server, site_url = site.serve.start_server(
        site.DIST, prefix=site.site_prefix(), gzip=True)
    results = []
    try:
        for page in pages:
            for way in ways:
                for preset in presets:
                    runs = []
                    for _ in range(args.runs):
                        t0 = time.monotonic()
                        for attempt in (1, 2):  # a protocol timeout on a loaded machine: once more
                            with tempfile.TemporaryDirectory(prefix="lighthouse-profile-") as profile:
                                try:
                                    if way == "saved":
                                        saved_profile(site_url, page, chrome, profile, query)
                                    runs.append(summarise(lighthouse(
                                        f"{site_url}{page}.html{query}", preset, chrome,
                                        profile=profile if way == "saved" else None)))
                                    break
                                except RuntimeError as err:
                                    if attempt == 2:
                                        raise
                                    print(f"  {page} {way} [{preset}] again: {str(err)[-200:]}",
                                          file=sys.stderr, flush=True)
                        print(f"  {page} {way} [{preset}] {time.monotonic() - t0:.0f} s"
                              f" LCP {fmt_ms(runs[-1]['metrics'].get('LCP'))}"
                              f" ({runs[-1]['lcp_element']})", file=sys.stderr, flush=True)
                    results.append({"page": page, "way": way, "preset": preset, "runs": args.runs,
                                    **median_summary(runs)})
    finally:
        site.stop_site(server)

    foreign = sorted({h for r in results for h in r["hosts"]} - site.LOCAL_HOSTS)
    if args.json:
        text = json.dumps({"lighthouse": json.loads(
            (ROOT / "node_modules" / "lighthouse" / "package.json").read_text())["version"],
            "chrome": chrome, "results": results}, indent=2, ensure_ascii=False)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")
    if args.json != "-":
        print(table(results))
    if foreign:
        print(f"bench_lighthouse.py: requests left 127.0.0.1: {', '.join(foreign)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
