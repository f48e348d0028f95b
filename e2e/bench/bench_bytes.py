#!/usr/bin/env python3
"""Benchmark: the bytes of a first visit, part by part (issue 24, "Fewer bytes").

    python e2e/bench/bench_bytes.py [--browser] [--snapshot-parts] [--pages yams,421] [--json out.json]

From the built dist/ (``python3 web/tools/build.py`` first), gzip-compressed as a compressing
host sends them (GitHub Pages, ``web/serve.py --gzip``; level 6; a .gz or .xz as it is):

* every file the service worker precaches, in parts: the wasm, Pyodide's scripts, the
  standard library's zip, the memory snapshot, each page's archive, the JS (the site's,
  PyScript's, workbox-window's), the pages, the rest; a first visit downloads all of them
  (the page's own until it is interactive, the worker the rest in the background), so their
  sum is the first visit "in all" but for what the page loads and the worker does not keep
  (``build-info.json?live``);
* the memory snapshot in parts: the wasm's static data (below Python's heap) and Python's
  heap; the pages stored and those the page copies from pyodide.asm.wasm (each compressed as
  the build compresses the snapshot, xz, and with gzip -9 for comparison);
  the wasm memory against what Pyodide can restore, and how much of it is in use;
* the standard library's zip in parts: each top-level module or package, bytecode (.pyc:
  imported at start) and source (.py: imported later, if ever), as the zip stores them.

``--snapshot-parts``: what each group of modules imported into the snapshot costs, by making
snapshots of the same build with fewer (a bare boot; + the standard library the pages
import; + the pygames package; all, as the build does): about 20 s each.

``--browser``: each game page's first visit in headless Chromium (e2e/bench/bench_startup.py's
``first_visit_bytes``: the bodies the server sent, until the page is ready and in the 8 s
after), the measure that counts.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import re
import struct
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
import build  # noqa: E402
import runtime  # noqa: E402
from harness import site  # noqa: E402

MB = 1e6


def gz_size(path: Path) -> int:
    """What a compressing host sends for *path*: a .gz or .xz as it is, anything else gzip -6."""
    data = path.read_bytes()
    return len(data) if path.name.endswith((".gz", ".xz")) else len(gzip.compress(data, 6))


def precached(dist: Path) -> list[str]:
    return re.findall(r'url:"([^"]+)"', (dist / "sw.js").read_text(encoding="utf-8"))


def pyodide_dir(dist: Path) -> str:
    """Where the build put Pyodide (vendor/pyodide-<version>: any build, not only this one's)."""
    info = json.loads((dist / "build-info.json").read_text(encoding="utf-8"))
    return info["pyodide"]["path"].rsplit("/", 1)[0]


def part_of(name: str, names: dict, pyodide: str) -> str:
    """Which part of the site a precached file is."""
    base = name.rsplit("/", 1)[-1]
    if name.startswith(pyodide + "/"):
        if base == names.get("snapshot"):
            return "snapshot"
        if base in (names.get("stdlib"), names.get("stdlib_xz")):
            return "stdlib zip" + (" (xz)" if base.endswith(".xz") else "")
        return {"pyodide.asm.wasm": "wasm", "pyodide.asm.mjs": "pyodide.asm.mjs",
                "pyodide-lock.json": "pyodide-lock.json"}.get(base, "pyodide (other)")
    if name == names.get("shared"):
        return "archive shared (every page)"
    for page, archive in names.get("pages", {}).items():
        if name == archive:
            return f"archive {page}"
    if name.startswith("vendor/pyscript-"):
        return "js: pyscript"
    if name.endswith((".js", ".mjs")):
        return "js: site" if not name.startswith("vendor/") else f"js: {name.split('/')[1].rsplit('-', 1)[0]}"
    if name.endswith(".html"):
        return "pages (html)"
    if name.endswith(".css"):
        return "css"
    return "other (icons, manifests, build-info)"


def parts(dist: Path) -> dict[str, dict]:
    names = site.runtime_names(dist)
    out: dict[str, dict] = {}
    for name in precached(dist):
        part = out.setdefault(part_of(name, names, pyodide_dir(dist)), {"files": 0, "raw": 0, "gzip": 0})
        path = dist / name
        part["files"] += 1
        part["raw"] += path.stat().st_size
        part["gzip"] += gz_size(path)
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["gzip"]))


def snapshot_parts(dist: Path) -> dict:
    """The snapshot's pages, by region and by how they travel (runtime/snapshot.mjs's format)."""
    names = site.runtime_names(dist)
    pyodide = dist / pyodide_dir(dist)
    packed = (pyodide / names["snapshot"]).read_bytes()
    raw = gzip.decompress(packed) if packed[:2] == b"\x1f\x8b" else lzma.decompress(packed)
    if raw[:8] == b"PGSNAP1\0":  # (a build before the pages copied from the wasm)
        (total, page, count), based, head = struct.unpack_from("<3I", raw, 8), 0, 20
    else:
        assert raw[:8] == b"PGSNAP2\0", raw[:8]
        total, page, count, based, _offset = struct.unpack_from("<5I", raw, 8)
        head = 28
    index = struct.unpack_from(f"<{count + based}I", raw, head)
    pages, base = index[:count], set(index[count:])
    data = head + 4 * (count + based)
    stored = [i for i in pages if i not in base]
    body = {i: raw[data + k * page:data + (k + 1) * page] for k, i in enumerate(stored)}
    # The wasm's static data ends where its data segments end: the pages above are the heap.
    static_end = max(base) + 1 if base else next(
        (i for k, i in enumerate(pages) if k and i > pages[k - 1] + 16), 0)  # (the first gap)
    regions = {"static data, stored (changed since start)": [i for i in stored if i < static_end],
               "Python's heap and stack, stored": [i for i in stored if i >= static_end]}
    out = {"sent": len(packed), "gzip -9": len(gzip.compress(raw, 9)), "memory": total - 128,
           "limit": runtime.wasm_initial_memory(pyodide / "pyodide.asm.wasm"),
           "pages": count, "from the wasm (not stored)": len(base), "regions": {}}
    for label, ids in regions.items():
        blob = b"".join(body[i] for i in ids)
        out["regions"][label] = {"pages": len(ids), "raw": len(blob), "xz": len(runtime.xz(blob)),
                                 "gzip": len(gzip.compress(blob, 9))}
    return out


def stdlib_parts(dist: Path, top: int = 14) -> dict:
    names = site.runtime_names(dist)
    groups: dict[str, dict] = {}
    with zipfile.ZipFile(dist / pyodide_dir(dist) / names["stdlib"]) as zf:
        for info in zf.infolist():
            if info.is_dir():
                continue
            name = info.filename.split("/")[0].removesuffix(".py").split(".")[0]
            if name == "__pycache__":
                name = info.filename.split("/")[1].split(".")[0]
            kind = "pyc" if info.filename.endswith(".pyc") else "py"
            g = groups.setdefault(name, {"pyc": 0, "py": 0, "files": 0})
            g[kind] += info.compress_size + 30 + len(info.filename)
            g["files"] += 1
    ranked = sorted(groups.items(), key=lambda kv: -(kv[1]["pyc"] + kv[1]["py"]))
    return {"total": (dist / pyodide_dir(dist) / names["stdlib"]).stat().st_size,
            "pyc": sum(g["pyc"] for g in groups.values()),
            "py": sum(g["py"] for g in groups.values()),
            "largest": dict(ranked[:top])}


def snapshot_costs(dist: Path) -> dict:
    """Snapshots of this build's files with fewer modules imported: what each group costs."""
    names = site.runtime_names(dist)
    pyodide = dist / pyodide_dir(dist)
    stdlib = pyodide / names["stdlib"]
    reports = sorted(runtime.CACHE.glob("stdlib-*.json"), key=lambda p: p.stat().st_mtime)
    hot = next(json.loads(r.read_text())["hot"] for r in reversed(reports)
               if r.with_suffix(".zip").is_file()
               and r.with_suffix(".zip").read_bytes() == stdlib.read_bytes())
    ours = [*runtime.package_imports(),
            *(r for roots in build.page_roots().values() for r in roots
              if r.split(".")[0] == runtime.PACKAGE.name), *runtime.pure_app_modules()]
    steps = {"bare boot": [], "+ the standard library the pages import": hot,
             "+ the pygames package": hot + runtime.package_imports(),
             "+ every game and the pure page modules (the build's)": hot + list(dict.fromkeys(ours))}
    out = {}
    with tempfile.TemporaryDirectory(prefix="pygames-bench-bytes-") as tmp:
        package = Path(tmp) / "pygames.zip"
        with tarfile.open(dist / names["package"]) as tar, zipfile.ZipFile(package, "w") as zf:
            for m in tar.getmembers():
                zf.writestr(m.name, tar.extractfile(m).read())
        for label, modules in steps.items():
            report = runtime.snapshot(stdlib, package, modules, Path(tmp))
            out[label] = {k: report[k] for k in ("bytes", "stored", "in_use", "heap", "modules")}
    return out


def names_snapshot(res: dict) -> str:
    return "xz" if res.get("snapshot_name", "").endswith(".xz") else "gzip"


def report(res: dict) -> None:
    total = sum(p["gzip"] for p in res["parts"].values())
    print(f"precached by the service worker (a first visit downloads all of it): "
          f"{total / MB:.2f} MB as sent (gzip; xz for the snapshot and the standard library) "
          "[target, background included: <= 9 MB]")
    for name, p in res["parts"].items():
        print(f"  {name:<38} {p['gzip'] / MB:6.2f} MB sent  {p['raw'] / MB:6.2f} MB raw  "
              f"{p['files']:3d} files")
    s = res["snapshot"]
    print(f"memory snapshot: {s['sent'] / MB:.2f} MB as sent ({names_snapshot(res)}; gzip -9 would be "
          f"{s['gzip -9'] / MB:.2f} MB); {s['memory']:,d} bytes of wasm memory "
          f"(Pyodide restores at most {s['limit']:,d}); {s['pages']} non-zero pages, "
          f"{s['from the wasm (not stored)']} of them copied from the wasm")
    for label, r in s["regions"].items():
        print(f"  {label:<44} {r['pages']:5d} pages {r['raw'] / MB:6.2f} MB raw "
              f"{r['xz'] / MB:5.2f} MB xz {r['gzip'] / MB:5.2f} MB gzip")
    z = res["stdlib"]
    print(f"standard library zip: {z['total'] / MB:.2f} MB (bytecode {z['pyc'] / MB:.2f} MB, "
          f"source {z['py'] / MB:.2f} MB, as stored); largest:")
    for name, g in z["largest"].items():
        print(f"  {name:<20} pyc {g['pyc'] / 1e3:6.0f} kB  py {g['py'] / 1e3:6.0f} kB  ({g['files']} files)")
    if "snapshot_costs" in res:
        print("snapshot with fewer modules imported (as sent; memory in use):")
        for label, r in res["snapshot_costs"].items():
            print(f"  {label:<54} {r['bytes'] / MB:5.2f} MB  {r['in_use'] / MB:5.2f} MB  "
                  f"({r['modules']} modules)")
    for page, b in res.get("browser", {}).items():
        import bench_startup
        print(f"-- {page}.html, a first visit in Chromium")
        bench_startup.report_bytes(b)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--browser", action="store_true",
                        help="also measure each game page's first visit in Chromium")
    parser.add_argument("--snapshot-parts", action="store_true",
                        help="also make snapshots with fewer modules (about 20 s each)")
    parser.add_argument("--pages", help="comma-separated game pages for --browser (default: all)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--query", default="", help="more of the pages' query for --browser, e.g. page")
    args = parser.parse_args(argv)
    dist = site.ensure_built()
    res = {"parts": parts(dist), "snapshot": snapshot_parts(dist), "stdlib": stdlib_parts(dist),
           "snapshot_name": site.runtime_names(dist)["snapshot"]}
    if args.snapshot_parts:
        res["snapshot_costs"] = snapshot_costs(dist)
    if args.browser:
        import bench_startup
        from playwright.sync_api import sync_playwright
        bench_startup.QUERY = args.query
        pages = args.pages.split(",") if args.pages else bench_startup.game_pages(dist)
        server, site_url = site.start_site({})
        try:
            with sync_playwright() as pw:
                res["browser"] = {p: bench_startup.first_visit_bytes(
                    pw, server, site_url, dist, bench_startup.page_path(p)) for p in pages}
        finally:
            site.stop_site(server)
    report(res)
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
