#!/usr/bin/env python3
"""What a DOM call costs from a PyScript worker without SharedArrayBuffer (issue 24, item 2):
PyScript's own way to give a worker's Python the page's ``document`` where the page is not
cross-origin isolated, its ``service-worker`` attribute -- not wired into the site.

    python e2e/bench/bench_worker_sync.py [--counts 1,5,20]

Without cross-origin isolation (GitHub Pages cannot send COOP/COEP), PyScript's workers reach
the page through a service worker: each synchronous call from the worker is a synchronous
XMLHttpRequest that the service worker answers once the page has done the work (coincident's
"sabayon" service worker, node_modules/coincident/dist/sw.js).  The page here is PyScript
0.7's and Pyodide's npm packages as installed (node_modules), served from a temporary folder
by web/tools/serve.py, visited twice (the first visit installs the service worker; the
second, controlled, runs).  The same Python runs once on the page's main thread, for
comparison.  Printed, for each count N: the ms for N reads of a property
(``out.childElementCount``) and for N elements made, filled and added (createElement,
textContent, appendChild: what a view's drawing does).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
import serve  # noqa: E402
from harness import site  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

NODE = _paths.ROOT / "node_modules"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>worker sync</title>
<script type="module" src="./pyscript/core.js"></script></head>
<body><div id="out"></div><p id="result">waiting</p>
<script type="py"{worker} config='{{"interpreter": "{interpreter}"}}'>
from pyscript import document
import time
out = document.getElementById("out")
said = []
for n in ({counts}):
    t0 = time.perf_counter()
    for i in range(n):
        out.childElementCount
    said.append(f"read {{n}} {{(time.perf_counter() - t0) * 1000:.0f}}")
for n in ({counts}):
    t0 = time.perf_counter()
    for i in range(n):
        e = document.createElement("span")
        e.textContent = str(i)
        out.appendChild(e)
    said.append(f"make {{n}} {{(time.perf_counter() - t0) * 1000:.0f}}")
document.getElementById("result").textContent = "done;" + ";".join(said)
</script></body></html>
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", default="1,5,20", help="numbers of calls (comma-separated)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a run may take")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",") if c.strip()]
    for need in ("pyodide/pyodide.mjs", "@pyscript/core/dist/core.js", "coincident/dist/sw.js"):
        if not (NODE / need).is_file():
            sys.exit(f"bench_worker_sync.py: node_modules/{need} is missing: run `npm ci`")
    with tempfile.TemporaryDirectory(prefix="worker-sync-") as tmp:
        root = Path(tmp)
        shutil.copytree(NODE / "pyodide", root / "pyodide")
        shutil.copytree(NODE / "@pyscript/core/dist", root / "pyscript")
        shutil.copy(NODE / "coincident/dist/sw.js", root / "sw.js")
        server, url = serve.start_server(root, prefix="/")
        try:
            # A worker resolves the interpreter's URL against its blob: URL: a full URL.
            interpreter = f"{url}pyodide/pyodide.mjs"
            for name, worker in (("main", ""), ("worker", ' worker service-worker="./sw.js"')):
                (root / f"{name}.html").write_text(PAGE.format(
                    worker=worker, interpreter=interpreter,
                    counts=", ".join(map(str, counts)) + ","), encoding="utf-8")
            with sync_playwright() as p:
                browser = p.chromium.launch(**site.chromium_launch_kwargs())
                print(f"{'where':8} {'calls':>6} {'read ms':>9} {'make ms':>9}  (per call: read, make)")
                for name in ("main", "worker"):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(f"{url}{name}.html")
                    if name == "worker":  # the service worker installed: the controlled visit
                        page.wait_for_function("() => !!navigator.serviceWorker.controller",
                                               timeout=60_000)
                        page.goto(f"{url}{name}.html")
                    t0 = time.monotonic()
                    page.wait_for_function(
                        "() => document.getElementById('result').textContent.startsWith('done')",
                        timeout=args.timeout * 1000)
                    said = page.text_content("#result").split(";")[1:]
                    ms = {tuple(s.split()[:2]): float(s.split()[2]) for s in said}
                    for n in counts:
                        read, make = ms[("read", str(n))], ms[("make", str(n))]
                        print(f"{name:8} {n:>6} {read:>9.0f} {make:>9.0f}  "
                              f"({read / n:.1f}, {make / n:.1f})")
                    print(f"  ({name}: {time.monotonic() - t0:.1f} s from the visit to done)")
                    context.close()
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
