#!/usr/bin/env python3
"""Benchmark: Python start-up of the site against a stock Pyodide boot.

    python e2e/bench/bench_startup.py [--rounds 5] [--json out.json] [--early-rounds 1]

One headless Chromium, the built site served by web/serve.py on 127.0.0.1
under /pygames/, scenarios interleaved round after round so that the load of
this shared machine hits them alike.  Every figure is a time to interactive in
ms from the navigation start of the page:

* ``stock_warm`` / ``stock_cold``: the untouched npm ``pyodide`` files (served
  from node_modules/ under ``__stock__/pyodide/``, never part of dist/), bare
  ``loadPyodide()`` + ``1+1`` on a blank page; warm = the shared context's HTTP
  cache, cold = a new context.  The baseline of every ratio.
* ``<page>_cold``: a game page (yams.html, 421.html, … every page of the registry)
  in a new context (first visit, empty cache) until the shell's ready signal
  (the time the page records, ``GLOBALS["ready_at"]`` in e2e/harness/pages.py).
* ``<page>_warm``: the same page in the shared, warmed context.
* ``<page>_offline``: in a context whose service worker (sw.js, if the build has
  one) has precached the site, with the network cut (``context.set_offline``).
* ``yams_stock``: for the before/after breakdown, yams.html with PyScript's
  ``interpreter`` pointed at the stock npm files (no precompiled zip, no
  snapshot; pages served from memory under ``__stock_yams__.html``; ``?page``:
  PyScript on the page), warm.
* ``embed_two``: a host page with two ``<div data-pygames="yams">`` and the
  ``embed.js`` loader, warm context, until both frames are ready (if the build
  has embed.js).

Then, for each game page, the bytes a first visit transfers until the page is
interactive (raw, and gzip-compressed as a compressing host sends them), and what
the service worker adds in the background afterwards; and the stages of one warm
boot of each kind (where the time goes).  ``--pages yams,421`` limits the pages.

Last, e2e/bench/bench_early.py (``--early-rounds``, 1 by default): for every game page at 1x
and 4x CPU (CDP throttling, 360x740), a first visit, a later one (the setup) and one with
a saved game: when real content is painted (the setup or the saved game drawn before
Python) and when the page is ready.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
import zipfile
from pathlib import Path

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
import build  # noqa: E402
from bench_boot import _load  # noqa: E402
from harness import site  # noqa: E402
from harness.pages import READY_JS, js_global  # noqa: E402

ROOT = site.ROOT
STOCK_DIR = "__stock__/pyodide"
STOCK_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
               "pyodide-lock.json")
EMBED_HOST = "__bench_embed_host__.html"
#: More of the game pages' query (``--query page``: the page's Python on the page, PyScript; issue 24).
QUERY = ""


def page_path(family: str, lang: str = "fr") -> str:
    """A game page in a language (French at the root, the others in their folder)."""
    folder = "" if lang == "fr" else f"{lang}/"
    return f"{folder}{family}.html?fresh=1&seed=bench{'&' + QUERY if QUERY else ''}"


def yams_path() -> str:
    return page_path("yams")


def english_built(dist: Path, family: str) -> bool:
    return (dist / "en" / f"{family}.html").is_file()


def game_pages(dist: Path) -> list[str]:
    """The game pages of this build, in menu order (from the registry)."""
    from pygames import FAMILIES

    return [f for f in FAMILIES if (dist / f"{f}.html").is_file()]


def stock_files() -> dict[str, bytes]:
    src = ROOT / "node_modules" / "pyodide"
    return {f"{STOCK_DIR}/{name}": (src / name).read_bytes() for name in STOCK_FILES}


STOCK_PAGE = "__stock_yams__.html"
STOCK_CONFIG = "__stock_pyscript__.json"


def stock_yams_files(dist: Path) -> dict[str, bytes]:
    config = json.loads((dist / "pyscript.json").read_text())
    config["interpreter"] = f"./{STOCK_DIR}/pyodide.mjs"
    # (The site's interpreter writes the game's files itself; PyScript's `files` do it here.)
    config["files"] = {f"./{site.runtime_names(dist)['package']}": "./*"}
    html = (dist / "yams.html").read_text(encoding="utf-8")
    assert 'config="pyscript.json"' in html
    html = html.replace('config="pyscript.json"', f'config="{STOCK_CONFIG}"')
    html = html.replace('<script type="module" src="js/register-sw.js"></script>', "")
    fast = '<script type="module" async src="js/pyodide-fast.mjs"></script>'
    assert fast in html
    html = html.replace(fast, "")
    # Stock PyScript compiles its worker hooks from text (Function()), which the site's policy
    # refuses (js/pyodide-fast.mjs empties them first): this page, the benchmark's own, has none.
    html, policies = re.subn(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">', "", html)
    assert policies == 1
    return {STOCK_PAGE: html.encode(), STOCK_CONFIG: json.dumps(config).encode()}


def embed_host_page() -> bytes:
    return (b"<!doctype html><html><head><meta charset='utf-8'><title>host</title></head><body>"
            b"<h1>Deux parties</h1>"
            b"<div data-pygames='yams' data-seed='a' data-id='one'></div>"
            b"<div data-pygames='yams' data-seed='b' data-id='two'></div>"
            b"<script src='embed.js' defer></script></body></html>")


# -- scenarios ---------------------------------------------------------------------------
STAGES_JS = """() => {
  const out = {};
  for (const e of performance.getEntriesByType('resource')) {
    const name = e.name.split('/').pop().split('?')[0];
    if (/\\.(wasm|zip|mjs|json)$/.test(name)) out['fetched ' + name] = e.responseEnd;
  }
  return out;
}"""


def stock_boot(page, site_url: str) -> dict:
    page.goto(site_url + site.BLANK_PAGE)
    page.set_default_timeout(120_000)
    out = page.evaluate(site.BOOT_JS, [site_url + STOCK_DIR + "/pyodide.mjs", None, None])
    assert out["two"] == 2, out
    return {"ms": out["nav_ready_ms"], "loadPyodide": out["load_ms"] - out["import_ms"]}


#: Stage clocks of a page (ms from navigation start), recorded by an init script.
STAGE_INIT = """
window.__benchStages = {};
addEventListener('py:progress', (e) => { window.__benchStages[e.detail] = performance.now(); });
document.addEventListener('py:ready', () => { window.__benchStages['py:ready'] = performance.now(); }, true);
"""
#: (label, key in __benchStages) in boot order; "interpreter" = Pyodide up.
STAGES = (("runtime fetched", None), ("interpreter up", "Loaded interpreter"),
          ("files unpacked", "Loaded files"), ("py:ready", "py:ready"))


def yams_page(page, site_url: str, path: str | None = None) -> dict:
    path = path or yams_path()
    page.set_default_timeout(120_000)
    page.goto(site_url + path)
    page.wait_for_function(READY_JS, timeout=120_000)
    ms = page.evaluate(f"{js_global('ready_at')} ?? performance.now()")
    st = page.evaluate("window.__benchStages || {}")
    boot = page.evaluate(f"{js_global('boot')} || {{stages: {{}}}}")
    out = {"ms": ms, "snapshot": 1 if boot.get("mode") == "snapshot" or boot.get("snapshotFrom") else 0,
           "fcp": page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0]"
                                " || {}).startTime || 0")}
    if "fetched" in boot["stages"]:
        out["runtime fetched"] = boot["stages"]["fetched"]
    if "snapshot awaited" in boot["stages"]:
        out["pyodide awaits snapshot"] = boot["stages"]["snapshot awaited"]
    if "snapshot decompressed" in boot["stages"]:
        out["snapshot loaded"] = boot["stages"]["snapshot decompressed"]
    if "checkMs" in boot:  # the SHA-256 of the kept inflated copy (13 MB), overlapping its spreading
        out["snapshot SHA-256 (ms)"] = boot["checkMs"]
    for label, key in STAGES[1:]:
        if key in st:
            out[label] = st[key]
    return out


def in_new_context(browser, fn, site_url):
    with site.local_context(browser, STAGE_INIT) as context:
        return fn(context.new_page(), site_url)


def embed_two(page, site_url: str) -> dict:
    page.set_default_timeout(120_000)
    page.goto(site_url + EMBED_HOST)
    t_origin = page.evaluate("performance.timeOrigin")
    deadline = time.monotonic() + 120
    readies = []
    while time.monotonic() < deadline:
        # (Playwright reports an empty url for these sandboxed frames: ask each one.)
        frames = [f for f in page.frames if f != page.main_frame]
        if len(frames) == 2:
            try:
                readies = [f.evaluate(f"location.href.includes('embed-yams') && ({READY_JS})()"
                                      f" ? performance.timeOrigin + {js_global('ready_at')} : null")
                           for f in frames]
            except Exception:  # a frame navigating
                readies = []
            if readies and all(r is not None for r in readies):
                break
        time.sleep(0.05)
    else:
        raise AssertionError("the two embedded games did not become ready in 120 s")
    return {"ms": max(readies) - t_origin, "first": min(readies) - t_origin}


class OfflineRunner:
    """A context whose service worker has precached the site; each run opens
    the page with the network cut."""

    def __init__(self, browser, site_url: str):
        self.context = browser.new_context()
        self.context.add_init_script(STAGE_INIT)
        self.log = site.RequestLog().attach(self.context)
        self.path = yams_path()
        page = self.context.new_page()
        page.goto(site_url + yams_path())
        page.wait_for_function(READY_JS, timeout=120_000)
        # register-sw.js registers once the game is ready; wait for the precache.
        ok = page.evaluate("""() => Promise.race([
            navigator.serviceWorker.ready.then(async (reg) => {
                while (reg.active.state !== 'activated') await new Promise(r => setTimeout(r, 100));
                return true;
            }),
            new Promise(r => setTimeout(() => r(false), 120000)),
        ])""")
        page.close()
        if not ok:
            raise TimeoutError("the service worker did not activate within 120 s")

    def page(self, path: str):
        """The runner for another page of the site (same precached context)."""
        def run_one(_page, site_url):
            self.path = path
            return self(_page, site_url)
        return run_one

    def __call__(self, _page, site_url: str) -> dict:
        self.context.set_offline(True)
        page = self.context.new_page()
        try:
            return yams_page(page, site_url, self.path)
        finally:
            page.close()
            self.context.set_offline(False)

    def close(self):
        self.context.close()
        self.log.assert_all_local()


# -- bytes ------------------------------------------------------------------------------
def first_visit_bytes(pw, server, site_url: str, dist: Path, path: str | None = None) -> dict:
    """Bytes a first visit takes from the server -- bodies actually sent, so neither a
    cache hit nor a 304 counts -- until ready and in the 8 s after (the service worker's
    precache).  In a browser profile of its own on disk, as a visitor's browser has: an
    in-memory (incognito) HTTP cache does not keep a 9.6 MB file such as the wasm."""
    path = path or yams_path()
    import tempfile
    profile = tempfile.TemporaryDirectory(prefix="pygames-bench-profile-")
    context = pw.chromium.launch_persistent_context(
        profile.name, **site.chromium_launch_kwargs())
    page = context.new_page()
    start = len(server.sent)
    t0 = time.monotonic()
    page.goto(site_url + path)
    page.wait_for_function(READY_JS, timeout=120_000)
    t_ready = time.monotonic()
    page.wait_for_timeout(8000)
    context.close()
    profile.cleanup()
    out = {"ready": {"requests": 0, "raw": 0, "gzip": 0, "files": {}},
           "after": {"requests": 0, "raw": 0, "gzip": 0, "files": {}, "not_modified": 0}}
    for path, status, size, t in server.sent[start:]:
        bucket = out["ready"] if t <= t_ready else out["after"]
        if status == 304:
            bucket["not_modified"] = bucket.get("not_modified", 0) + 1
        if not size:
            continue
        rel = path.lstrip("/")
        f = dist / (rel or "index.html")
        body = f.read_bytes() if f.is_file() else b"\0" * size
        bucket["requests"] += 1
        bucket["raw"] += size
        gz = len(gzip.compress(body, 6))
        bucket["gzip"] += gz
        bucket["files"][rel] = bucket["files"].get(rel, 0) + gz
    out["ready_s"] = t_ready - t0
    return out


# -- main -------------------------------------------------------------------------------
def run(rounds: int, only: list[str] | None = None) -> dict:
    from playwright.sync_api import sync_playwright

    dist = site.ensure_built()
    pages = [f for f in game_pages(dist) if not only or f in only]
    extra = {**stock_files(), EMBED_HOST: embed_host_page(), **stock_yams_files(dist)}
    has_sw = (dist / "sw.js").is_file() and (dist / "js" / "register-sw.js").is_file()
    has_embed = (dist / "embed.js").is_file() and (dist / "embed-yams.html").is_file()
    with zipfile.ZipFile(dist / build.PYODIDE_DIR / site.runtime_names()["stdlib"]) as zf:
        pyc = sum(n.endswith(".pyc") for n in zf.namelist())
    mode = f"precompiled ({pyc} .pyc)" if pyc else "stock (no .pyc: the precompile step was skipped)"
    server, site_url = site.start_site(extra)
    res: dict = {"rounds": rounds, "runs": {}, "pending": {}, "runtime": mode, "pages": pages}
    if not has_sw:
        res["pending"]["yams_offline"] = "no sw.js / js/register-sw.js in the build yet"
    if not has_embed:
        res["pending"]["embed_two"] = "no embed.js / embed-yams.html in the build yet"
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            warm = browser.new_context()
            warm.add_init_script(STAGE_INIT)
            warm_log = site.RequestLog().attach(warm)
            offline = None
            if has_sw:
                print("  setting up the offline context (service worker precache)...", flush=True)
                try:
                    offline = OfflineRunner(browser, site_url)
                except TimeoutError as exc:
                    res["pending"]["yams_offline"] = str(exc)

            def in_warm(fn):
                def run_one(_page, url):
                    page = warm.new_page()
                    try:
                        return fn(page, url)
                    finally:
                        page.close()
                return run_one

            scenarios = {
                "stock_warm": in_warm(stock_boot),
                "stock_cold": lambda p, u: in_new_context(browser, stock_boot, u),
            }
            if "yams" in pages:
                scenarios["yams_stock"] = in_warm(
                    lambda p, u: yams_page(p, u, STOCK_PAGE + "?fresh=1&seed=b&page"))
            for family in pages:
                path = page_path(family)
                scenarios[f"{family}_warm"] = in_warm(lambda p, u, path=path: yams_page(p, u, path))
                scenarios[f"{family}_cold"] = lambda p, u, path=path: in_new_context(
                    browser, lambda pg, url: yams_page(pg, url, path), u)
                if offline:
                    scenarios[f"{family}_offline"] = offline.page(path)
                if english_built(dist, family):  # the same page in English, the same run
                    en = page_path(family, "en")
                    scenarios[f"{family}_en_warm"] = in_warm(lambda p, u, path=en: yams_page(p, u, path))
                    scenarios[f"{family}_en_cold"] = lambda p, u, path=en: in_new_context(
                        browser, lambda pg, url: yams_page(pg, url, path), u)
            if has_embed and "yams" in pages:
                scenarios["embed_two"] = in_warm(embed_two)
            print("  warming the shared context...", flush=True)
            for name in scenarios:
                if name == "stock_warm" or name.endswith(("_warm", "_stock")) or name == "embed_two":
                    scenarios[name](None, site_url)  # warm the shared cache
            for r in range(rounds):
                for name, fn in scenarios.items():
                    res["runs"].setdefault(name, []).append(fn(None, site_url))
                print(f"  round {r + 1}: " + ", ".join(
                    f"{n} {res['runs'][n][-1]['ms']:.0f}" for n in scenarios), flush=True)
            res["bytes"] = {f: first_visit_bytes(pw, server, site_url, dist, page_path(f))
                            for f in pages}
            if offline:
                offline.close()
            warm.close()
            warm_log.assert_all_local()
            browser.close()
    finally:
        site.stop_site(server)
    return res


def report(res: dict) -> None:
    med = {n: statistics.median(r["ms"] for r in runs) for n, runs in res["runs"].items()}
    print(f"\nruntime: python_stdlib.zip {res['runtime']}")
    print(f"medians over {res['rounds']} interleaved rounds (ms from navigation start to "
          "interactive):")
    for name, runs in res["runs"].items():
        extra = {}
        for k in runs[0]:
            if k != "ms" and all(k in r for r in runs):
                extra[k] = statistics.median(r[k] for r in runs)
        if "snapshot" in extra:
            extra.pop("snapshot")
            restored = sum(r["snapshot"] for r in runs)
            extra = {f"restored from snapshot {restored}/{len(runs)}; stages at": None, **extra}
        details = ", ".join(k if v is None else f"{k} {v:.0f}" for k, v in extra.items())
        all_runs = " ".join(f"{r['ms']:.0f}" for r in runs)
        print(f"  {name:<13} {med[name]:7.0f}   runs: {all_runs}"
              + (f"   ({details})" if details else ""))
    for name, why in res["pending"].items():
        print(f"  {name:<13} pending: {why}")
    sw, sc = med["stock_warm"], med["stock_cold"]
    print("ratios (target in brackets):")
    names = ["yams_stock"] + [f"{f}_{kind}" for f in res["pages"] for kind in ("warm", "offline", "cold")]
    for name in names + ["embed_two"]:
        if name not in med:
            continue
        line = f"  {name:<18} / stock_warm = {med[name] / sw:.2f}"
        if name.endswith("_cold"):
            line += f"   / stock_cold = {med[name] / sc:.2f}   [<= 0.6 x stock_cold]"
        elif name.endswith(("_warm", "_offline")):
            line += "   [<= 0.35 x stock_warm]"
        print(line)
    pairs = [(f, kind) for f in res["pages"] for kind in ("warm", "cold") if f"{f}_en_{kind}" in med]
    if pairs:
        print("English against French, the same page (noise: compare fr against fr's own runs):")
    for family, kind in pairs:
        fr, en = med[f"{family}_{kind}"], med[f"{family}_en_{kind}"]
        runs = [r["ms"] for r in res["runs"][f"{family}_{kind}"]]
        spread = (max(runs) - min(runs)) / fr if fr else 0
        print(f"  {family + '_' + kind:<18} en {en:6.0f} ms / fr {fr:6.0f} ms = {en / fr:.2f}"
              f"   (fr's own spread {spread:.2f})")
    for family, b in res["bytes"].items():
        print(f"-- {family}.html")
        report_bytes(b)


def report_bytes(b: dict) -> None:
    r, a = b["ready"], b["after"]
    print(f"first visit until interactive: {r['requests']} bodies, {r['raw'] / 1e6:.2f} MB "
          f"raw, {r['gzip'] / 1e6:.2f} MB gzip [target <= 6 MB]")
    top = sorted(r["files"].items(), key=lambda kv: -kv[1])[:6]
    print("  largest (gzip): " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in top))
    print(f"then in the background (8 s after ready: service worker precache...): "
          f"{a['requests']} bodies, {a['raw'] / 1e6:.2f} MB raw, {a['gzip'] / 1e6:.2f} MB gzip "
          f"({a.get('not_modified', 0)} answered 304; files the page loaded come from the "
          f"HTTP cache)")
    top = sorted(a["files"].items(), key=lambda kv: -kv[1])[:4]
    print("  largest (gzip): " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in top))
    print(f"first visit in all: {(r['gzip'] + a['gzip']) / 1e6:.2f} MB gzip")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", help="also write the raw results to this file")
    parser.add_argument("--pages", help="comma-separated game pages (default: every one)")
    parser.add_argument("--query", default="", help="more of the pages' query, e.g. page")
    parser.add_argument("--early-rounds", type=int, default=1,
                        help="rounds of e2e/bench/bench_early.py after this one (0: none): when real "
                             "content shows and the page is ready, at 1x and 4x CPU")
    args = parser.parse_args(argv)
    global QUERY
    QUERY = args.query
    t0 = time.perf_counter()
    print(f"bench_startup: {args.rounds} rounds; load average {_load()} (shared machine: "
          "compare the ratios)")
    res = run(args.rounds, args.pages.split(",") if args.pages else None)
    report(res)
    print(f"(bench took {time.perf_counter() - t0:.0f} s; load average now {_load()})")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    if args.early_rounds > 0:
        # The page as a phone shows it (issue #12): real content and time to interactive at
        # 1x and 4x CPU, for every game page (the same browser settings, a new browser).
        import bench_early

        print("\n== bench_early: real content and ready, ms, at 1x and 4x CPU", flush=True)
        bench_early.main(["--rounds", str(args.early_rounds), "--cpu", "1,4", "--query", args.query]
                         + (["--pages", args.pages] if args.pages else []))
    return 0


if __name__ == "__main__":
    sys.exit(main())
