#!/usr/bin/env python3
"""Prototype and benchmark (issue 24, item 2's first question): Python in a dedicated worker,
its drawing reaching the page as data, with no SharedArrayBuffer -- not wired into the site.

    python e2e/bench/bench_worker.py [--rounds 3] [--clicks 20] [--cpu 1]

The same work in two places, on this build's vendored Pyodide, its standard library and its
complete game files (dist/, built first):

* ``page``: Pyodide started on the page's main thread, as the site does today;
* ``worker``: Pyodide started in a module worker; the page only posts the clicks
  (``postMessage``) and applies what comes back.

Either way Python imports pygames.yams, starts a two-player Yams and, at each click, plays one
move (a throw, a keep, a box) and answers with the table as data: a list of rows of cells
(text only, as the site's views draw it); the page draws them with createElement/textContent.
No DOM call crosses from Python to the page: there is no synchronous channel between a worker
and the page without SharedArrayBuffer (Atomics.wait on a shared buffer, which needs
cross-origin isolation: COOP/COEP headers, which GitHub Pages cannot send and which embeds in
other people's pages would impose on them), so the view has to be data that the page applies.

Figures, medians over ``--rounds`` new browser contexts (a first visit each: the HTTP cache is
empty), with ``--cpu`` CDP throttling of the page:

* ``ready``: ms from navigation until the first table is drawn;
* ``blocked``: the page's main thread busy in long tasks (> 50 ms) until then, and the
  Total Blocking Time of those tasks (the part of each beyond 50 ms: what Lighthouse adds up);
* ``click``: ms from a click to its table drawn, median and 90th percentile over ``--clicks``;
* ``message``: the size of one table as data (JSON bytes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from bench_boot import _load  # noqa: E402
from harness import site  # noqa: E402

#: The Python both modes run: a Yams table, one move per click, the table as rows of text.
PY_TABLE = r'''
import json, random
from pygames.core import Player
import pygames.yams as _yams

_game = _yams.Yams()
_state = _game.new_state([Player("Léa"), Player("Paul")], {})
_rng = random.Random(7)


def _table():
    rows = [["", "Léa", "Paul"]]
    potential = _state.potential() if not (_state.is_chance() or _state.is_terminal()) else {}
    for k, box in enumerate(_game.box_ids):
        cells = [box]
        for seat in range(2):
            value = _state.sheets[seat][k]
            mine = seat == _state.current_player() and value is None
            cells.append(str(value) if value is not None else str(potential.get(box, "")) if mine else "")
        rows.append(cells)
    rows.append(["dés", " ".join(map(str, _state.dice or ())), str(_state.current_player())])
    return json.dumps(rows)


def click():
    global _state
    if _state.is_terminal():
        return _table()
    _state = _state.apply(_rng.choice(_state.legal_actions()))
    return _table()
'''

#: Loads Python (the vendored files) and the game files, then defines PY_TABLE: in either mode.
RUNNER = """
export async function start(base, names, code) {
  const pyodideDir = base + names.pyodide + "/";
  const { loadPyodide } = await import(pyodideDir + "pyodide.mjs");
  const { readTarGz } = await import(base + "js/untar.mjs");
  const files = fetch(base + names.package).then(readTarGz);
  const py = await loadPyodide({ indexURL: pyodideDir, stdLibURL: pyodideDir + names.stdlib,
                                 lockFileContents: { info: names.lockInfo, packages: {} } });
  for (const { name, data } of await files) {
    const path = py.FS.cwd() + "/" + name;
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    py.FS.writeFile(path, data);
  }
  py.runPython(code);
  const click = py.globals.get("click");
  return () => click();
}
"""

WORKER = """
import { start } from "./__proto_runner__.mjs";
let click = null;
const queue = [];
onmessage = async ({ data }) => {
  if (data.start) {
    click = await start(data.base, data.names, data.code);
    postMessage({ table: click() });
    for (const _ of queue.splice(0)) postMessage({ table: click() });
  } else if (click) {
    postMessage({ table: click() });
  } else {
    queue.push(data);
  }
};
"""

PAGE = """<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>prototype</title></head>
<body><button id="go">Jouer</button><table id="t"></table>
<script type="module">
const mode = new URLSearchParams(location.search).get("mode");
const base = new URL("./", location.href).href;
const { names, code } = await (await fetch("__proto_args__.json")).json();
window.proto = { longTasks: [], clicks: [], ready: null, size: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.proto.longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
const table = document.getElementById("t");
function draw(json) {
  window.proto.size = json.length;
  const rows = JSON.parse(json);
  const body = document.createElement("tbody");
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const cell of row) {
      const td = document.createElement("td");
      td.textContent = cell;
      tr.append(td);
    }
    body.append(tr);
  }
  table.replaceChildren(body);
}
let pending = null;
function drawn(json) {
  draw(json);
  const now = performance.now();
  if (window.proto.ready === null) window.proto.ready = now;
  else if (pending !== null) { window.proto.clicks.push(now - pending); pending = null; }
}
let ask;
if (mode === "worker") {
  const worker = new Worker("__proto_worker__.mjs", { type: "module" });
  worker.onmessage = ({ data }) => drawn(data.table);
  worker.postMessage({ start: true, base, names, code });
  ask = () => worker.postMessage({ click: true });
} else {
  const { start } = await import("./__proto_runner__.mjs");
  const click = await start(base, names, code);
  drawn(click());
  ask = () => drawn(click());
}
document.getElementById("go").addEventListener("click", () => { pending = performance.now(); ask(); });
</script></body></html>
"""


def run(rounds: int, clicks: int, cpu: float) -> dict:
    from playwright.sync_api import sync_playwright

    dist = site.ensure_built()
    names = site.runtime_names(dist)
    lock = json.loads((dist / site.PYODIDE_DIR / "pyodide-lock.json").read_text())
    args = {"names": {"pyodide": site.PYODIDE_DIR, "stdlib": names["stdlib"],
                      "package": names["package"], "lockInfo": lock["info"]},
            "code": PY_TABLE}
    extra = {"__proto__.html": PAGE.encode(), "__proto_runner__.mjs": RUNNER.encode(),
             "__proto_worker__.mjs": WORKER.encode(),
             "__proto_args__.json": json.dumps(args).encode()}
    server, url = site.start_site(extra)
    out: dict = {"page": [], "worker": []}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**site.chromium_launch_kwargs())
            for _ in range(rounds):
                for mode in out:
                    context = browser.new_context()
                    page = context.new_page()
                    if cpu != 1:
                        page.context.new_cdp_session(page).send(
                            "Emulation.setCPUThrottlingRate", {"rate": cpu})
                    page.goto(f"{url}__proto__.html?mode={mode}")
                    page.wait_for_function("() => window.proto && window.proto.ready !== null",
                                           timeout=180_000)
                    for k in range(clicks):
                        page.click("#go")
                        page.wait_for_function(f"() => window.proto.clicks.length > {k}", timeout=60_000)
                    res = page.evaluate("window.proto")
                    ready = res["ready"]
                    before = [(s, d) for s, d in res["longTasks"] if s < ready]
                    out[mode].append({
                        "ready": ready,
                        "busy": sum(d for _, d in before),
                        "tbt": sum(max(0.0, d - 50) for _, d in before),
                        "longest": max((d for _, d in before), default=0.0),
                        "click": statistics.median(res["clicks"]),
                        "click_p90": sorted(res["clicks"])[int(0.9 * (len(res["clicks"]) - 1))],
                        "size": res["size"],
                    })
                    context.close()
                print("  round: " + ", ".join(
                    f"{m} ready {r[-1]['ready']:.0f} tbt {r[-1]['tbt']:.0f} click {r[-1]['click']:.1f}"
                    for m, r in out.items()), flush=True)
            browser.close()
    finally:
        site.stop_site(server)
    return out


def report(out: dict, cpu: float) -> None:
    print(f"Python on the page's main thread against in a worker (CPU x{cpu:g}; medians, ms):")
    for mode, runs in out.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"  {mode:<7} ready {med['ready']:6.0f}   main thread in long tasks until ready "
              f"{med['busy']:6.0f} (TBT {med['tbt']:5.0f}, longest {med['longest']:5.0f})   "
              f"click to drawn {med['click']:5.1f} (p90 {med['click_p90']:5.1f})   "
              f"table as data {med['size']:.0f} bytes")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--cpu", type=float, default=1.0, help="CDP CPU throttling of the page")
    parser.add_argument("--json", help="also write the runs to this file")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    print(f"bench_worker: load average {_load()}")
    out = run(args.rounds, args.clicks, args.cpu)
    report(out, args.cpu)
    print(f"(took {time.perf_counter() - t0:.0f} s; load average now {_load()})")
    if args.json:
        from pathlib import Path
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
