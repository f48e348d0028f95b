#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` (gitignored).

Usage::

    python web/tools/build.py [--out dist] [--base /] [--url https://owner.github.io/pygames/]

What ends up in the output directory:

* every file of ``web/static/`` as it is, but for the values the build writes into its
  scripts (``/* build: NAME */``, see BUILD_VALUE: the runtime's names, the vendored
  paths, embed.js's map), and the expert's tables (``web/tables/**/*.bin``);
* the pages, written by Jinja2 from ``web/templates/``, ``web/games/<id>/`` and the
  registry (web/tools/pages.py): ``<id>.html``, ``embed-<id>.html``, ``index.html``, each
  with its Content-Security-Policy, in French at the root and in each other language of
  the site in its directory (``en/``; and ``qps/``, the pseudo-language of the tests, which
  the service worker leaves out), each directory with its ``manifest.webmanifest`` and, for
  the pages below the root, its ``pyscript.json`` (``interpreter``: ``../js/pyodide-fast.mjs``);
* ``pygames-<hash>.tar.gz``: every ``.py`` module of the ``pygames/`` package,
  found by walking the tree (no hand-kept list), stored as ``pygames/...``, and
  the page's modules (``web/app/*.py``) at its top, so that writing it into
  Pyodide's working directory makes ``import pygames`` and ``import shell``
  work (js/pyodide-fast.mjs does, before PyScript gets the interpreter: no
  ``files`` in pyscript.json); built as ``pygames.zip``, to which web/tools/runtime/
  adds the bytecode of the start-up modules and of PyScript's own package, then
  turns it into a reproducible .tar.gz named after its content (used by the tests'
  harness pages; no game page loads it, the service worker leaves it out);
* ``pygames-<id>-<hash>.tar.gz`` for each game page: the part of those files that page
  may import (:func:`page_roots`: the shell, its view, its game module and what they
  import; not the other games, not the CLI) but what every page has, which is in
  ``pygames-shared-<hash>.tar.gz``; ``<html data-family>`` tells js/pyodide-fast.mjs
  which one to write with the shared one (``pages`` and ``shared`` of its RUNTIME);
* ``vendor/pyodide-<version>/``: the files of the ``pyodide`` npm package that
  a boot really requests (checked in headless Chromium, see below) but its
  standard library, replaced by the precompiled one of ``web/tools/runtime/``
  (``python_stdlib-<hash>.zip``, its entries stored, and ``.zip.xz``, what the pages
  download; the stock zip, renamed, if Node is missing) and
  the memory snapshot made with it (``snapshot-<hash>.bin.xz``); their names
  are written into ``js/pyodide-fast.mjs`` (the ``interpreter`` of
  pyscript.json) and ``build-info.json``;
* ``vendor/pyscript-<version>/``: ``core.js``, ``core.css`` of ``@pyscript/core`` and
  every chunk reachable from them (relative ``"./x.js"`` references are
  followed automatically, source maps are left out);
* ``vendor/workbox-window-<version>/``: workbox-window's module, which registers the
  service worker and offers the new versions (js/register-sw.js);
* ``vendor/lean-qr-<version>/`` and ``vendor/qr-<version>/``: the QR codes of two devices
  at one table, drawn and (without BarcodeDetector) decoded (js/duo-link.js);
* ``vendor/xz-decompress-<version>/``: the xz decoder of the memory snapshot (a 20 kB
  WebAssembly build of xz-embedded; js/snapshot-inflate.mjs imports it in a worker);
* ``build-info.json``: versions, the ``--base`` path, the runtime's file names
  (``runtime``), a sha256 of every file and ``build``, a short id of the whole
  build (hash of those), and
  ``.nojekyll``;
* ``sw.js``: the service worker that precaches every file above for offline
  play, written last by ``web/tools/build_sw.mjs`` (workbox-build, from npm).

The vendor directories are named after the versions pinned in package-lock.json
(the templates' ``vendor`` and the scripts' build values name them), so that every
large file's URL changes with its content.

Nothing at run time is fetched from another host: the page points PyScript at
``js/pyodide-fast.mjs`` (which loads the vendored Pyodide) through its config
``interpreter`` key.

How relative URLs in a PyScript config resolve (checked with @pyscript/core
0.7.31 in headless Chromium, page in ``sub/``, config file in ``conf/deep/``,
and read in its source: core.js ``relative_url`` and polyscript loader.js):

* ``interpreter`` -- resolved against the *page* URL (``location.href``; not
  ``document.baseURI``, so ``<base href>`` does not change it), NOT against
  the config file.  Pyodide then gets ``indexURL`` = the directory of that
  ``pyodide.mjs`` and fetches the other runtime files next to it.  Any value
  is turned into a URL this way (even a bare version string), so always
  give the path, e.g. ``"./vendor/pyodide/pyodide.mjs"`` for a page at the
  root of dist/.
* ``files`` (also ``fetch`` and ``js_modules``) -- resolved against the
  *config file's* URL when the config is a file (``config="x.toml"`` or
  ``<py-config src=...>``); for an inline config (JSON/TOML text in the
  attribute or a ``<py-config>`` body) the base is the page.  Keeping the
  config file next to the page makes both rules agree.
* ``{"./pygames.tar.gz": "./*"}`` in ``files`` is supported: a target ending
  in ``/*`` makes PyScript unpack the archive (``.zip``, ``.whl``, ``.tar.gz``)
  into that directory -- Pyodide's cwd ``/home/pyodide``, which is on
  ``sys.path``.  (This site does not use it any more: unpacking in Python took
  40-70 ms of each start; js/pyodide-fast.mjs writes the files from JS.)

Files a boot requests (Pyodide 314.0.7 and 314.0.8, measured in Chromium, both for a bare
``loadPyodide()`` and through PyScript): ``pyodide.mjs``,
``pyodide-lock.json``, ``python_stdlib.zip`` (its ``stdLibURL``),
``pyodide.asm.wasm``, ``pyodide.asm.mjs`` (older releases called it
``pyodide.asm.js``).  Nothing else.  js/pyodide-fast.mjs gives it this build's
standard library and an empty lock file (the site loads no package).
PyScript's core.js imports its plugin chunks (py-editor, py-game,
py-terminal, donkey, error, deprecations-manager) on every page, even when
unused, unless the config's ``plugins`` lists them as ``"!name"``, as
web/static/pyscript.json does for all of them (``error`` too: its banner would print a
traceback on the page, where js/boot.js shows the site's notice); the codemirror/xterm chunks load
only when a plugin needs them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import facts  # noqa: E402  (web/tools/facts.py: what the build reads from the registry)
import pages  # noqa: E402  (web/tools/pages.py: the pages, from web/templates/)
import runtime  # noqa: E402  (web/tools/runtime/: the faster-booting standard library)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WEB = ROOT / "web"
#: Copied into the output directory as they are (but for the build's values, see copy_static).
STATIC = WEB / "static"
#: The expert's solved tables (versioned data, read by pygames/ too): their .bin files are served.
TABLES = WEB / "tables"
PACKAGE = ROOT / "pygames"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_SRC = NODE_MODULES / "pyodide"
PYSCRIPT_SRC = NODE_MODULES / "@pyscript" / "core" / "dist"
WORKBOX_SRC = NODE_MODULES / "workbox-build"
SW_SCRIPT = HERE / "build_sw.mjs"

#: The game's files as the build first writes them (a zip: web/tools/runtime/ completes it, then
#: serves it as ``pygames-<hash>.tar.gz``, see runtime.build_runtime).
PACKAGE_ZIP = "pygames.zip"


def locked_version(package: str) -> str:
    """The exact version of an npm package pinned in package-lock.json."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"][f"node_modules/{package}"]["version"]


#: Where the runtimes go, relative to the output directory: named after their pinned
#: versions, so that their URLs change with their content (the service worker then never
#: downloads again what the page already has).  The pages name them through their templates'
#: ``vendor``, the scripts through their build values (BUILD_VALUE).
PYODIDE_DIR = f"vendor/pyodide-{locked_version('pyodide')}"
PYSCRIPT_DIR = f"vendor/pyscript-{locked_version('@pyscript/core')}"
WORKBOX_WINDOW_DIR = f"vendor/workbox-window-{locked_version('workbox-window')}"
VENDOR = {"pyodide": PYODIDE_DIR, "pyscript": PYSCRIPT_DIR}
#: The QR codes of two devices at one table (js/duo-link.js): lean-qr draws them (one ES module,
#: imported when a code is shown), paulmillr's qr decodes them where the browser has no
#: BarcodeDetector (two ES modules, imported only then).
LEAN_QR_DIR = f"vendor/lean-qr-{locked_version('lean-qr')}"
LEAN_QR_SRC = NODE_MODULES / "lean-qr" / "index.mjs"
QR_DIR = f"vendor/qr-{locked_version('qr')}"
QR_SRC = [NODE_MODULES / "qr" / "index.js", NODE_MODULES / "qr" / "decode.js"]
#: The memory snapshot is served xz-compressed (2.6 MB where gzip -9 gives 3.7 MB: issue 24,
#: "Fewer bytes"); xz-decompress decodes it in the snapshot's worker (js/snapshot-inflate.mjs).
#: Its package has one browser bundle, a UMD script: the build serves it as an ES module.
XZ_DIR = f"vendor/xz-decompress-{locked_version('xz-decompress')}"
XZ_SRC = NODE_MODULES / "xz-decompress" / "dist" / "package" / "xz-decompress.min.js"
XZ_MODULE = "xz-decompress.mjs"

#: workbox-window's one-file ES module (js/register-sw.js imports it once the page has started).
WORKBOX_WINDOW_SRC = NODE_MODULES / "workbox-window" / "build" / "workbox-window.prod.mjs"

#: A value the build writes into a script of web/static/: ``/* build: NAME */ DEFAULT``, the
#: default a JSON literal (null, {} or a string) that the build replaces with NAME's value
#: as JSON (see script_values).  The one way the build changes a file it copies.
BUILD_VALUE = re.compile(r'/\* build: ([a-z_]+) \*/ (?:null|\{\}|"[^"\n]*")')
SCRIPT_SUFFIXES = {".js", ".mjs"}

#: Files of the pyodide npm package that a boot requests.  ``pyodide.asm.js``
#: is the pre-0.28 name of ``pyodide.asm.mjs``; whichever exists is copied.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
# (python_stdlib.zip: written by web/tools/runtime/, named after its content.)
PYODIDE_REQUIRED = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

#: Entry points of @pyscript/core's dist; the chunks they reference follow.
PYSCRIPT_ENTRIES = ("core.js", "core.css")
_RELATIVE_REF = re.compile(r"""["'`]\./([A-Za-z0-9_.\-]+\.(?:m?js|css|wasm|json))["'`]""")

# Fixed timestamp for zip entries so that the archive is reproducible.
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def ensure_node_modules() -> None:
    """Run ``npm ci`` in the repository root if the vendored runtime is missing."""
    if ((PYODIDE_SRC / "pyodide.mjs").is_file() and (PYSCRIPT_SRC / "core.js").is_file()
            and (WORKBOX_SRC / "package.json").is_file() and WORKBOX_WINDOW_SRC.is_file()
            and LEAN_QR_SRC.is_file() and all(src.is_file() for src in QR_SRC)):
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: node_modules/ is missing and npm is not installed")
    print("build.py: node_modules/ missing, running npm ci", flush=True)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    # copy2 keeps mtimes: stable Last-Modified headers for the local server.
    shutil.copy2(src, dst)


def copy_static(out: Path) -> list[Path]:
    """Every file of web/static/ (dot files aside), at the same place under *out*, and the
    expert's tables (web/tables/**/*.bin) under tables/."""
    copied = []
    sources = [(p, p.relative_to(STATIC)) for p in sorted(STATIC.rglob("*"))]
    sources += [(p, p.relative_to(WEB)) for p in sorted(TABLES.rglob("*.bin"))]
    for src, rel in sources:
        if src.is_file() and not any(part.startswith(".") for part in rel.parts):
            _copy(src, out / rel)
            copied.append(out / rel)
    return copied


def family_pages(snapshot: str | None = None, site_url: str | None = None) -> dict[str, str]:
    """Every page of the site (web/tools/pages.py), with this build's runtime paths."""
    return pages.render_pages(VENDOR, snapshot, site_url=site_url)


def embed_pages() -> dict:
    """embed.js's map: each game page's embed form and its frame's title, in each language of
    the site (``data-lang``; ``reference``: the language of a div without it, whose pages are
    at the root), and the words it says of a game it does not know."""
    from pygames.messages import text

    out = {"languages": {}, "unknown": {}, "reference": pages.SITE_LANGUAGES[0].code}
    for language in pages.SITE_LANGUAGES:
        with pages.speaking(language.code):
            out["languages"][language.code] = {
                f.id: {"file": f"{language.directory}embed-{f.id}.html",
                       "title": text("page.embed.frame_title", game=f.title)}
                for f in pages.paged(facts.families())}
            out["unknown"][language.code] = text("page.embed.unknown", kind="{kind}")
    return out


def write_pages(out: Path, manifest: dict, site_url: str | None = None) -> list[Path]:
    """The pages of every language, each language's manifest, and PyScript's config of each
    language's directory (its ``interpreter`` resolves against the page).  *site_url*: where
    the site is deployed (``--url``), for the full URLs search engines want, or None."""
    snapshot = f"{PYODIDE_DIR}/{manifest['snapshot']}" if manifest.get("snapshot") else None
    written = []
    texts = {**family_pages(snapshot, site_url), **pages.manifests()}
    config = json.loads((STATIC / "pyscript.json").read_text(encoding="utf-8"))
    for language in (*pages.SITE_LANGUAGES, pages.PSEUDO):
        if language.directory:
            texts[language.directory + "pyscript.json"] = json.dumps(
                pages.pyscript_config(config, language), indent=2) + "\n"
    for name, text in texts.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
        written.append(out / name)
    return written


def package_modules() -> list[Path]:
    """Every ``.py`` file of ``pygames/`` (sorted, caches skipped)."""
    if not PACKAGE.is_dir():
        return []
    return sorted(
        p for p in PACKAGE.rglob("*.py")
        if "__pycache__" not in p.relative_to(ROOT).parts
    )


def zip_package(out: Path) -> Path:
    """``out/pygames.zip``: the package, stored as ``pygames/...``, and the page's modules
    (web/app/*.py) at the top; web/tools/runtime/ then adds bytecode and renames it."""
    dst = out / PACKAGE_ZIP
    modules = package_modules()
    if not modules:
        print(f"build.py: warning: no module found under {PACKAGE}, {PACKAGE_ZIP} is empty",
              file=sys.stderr)
    entries = [(p.relative_to(ROOT).as_posix(), p) for p in modules]
    entries += [(p.name, p) for p in runtime.app_modules()]
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, path in entries:
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return dst


def page_roots() -> dict[str, list[str]]:
    """Each game page's first modules, from which web/tools/runtime/ finds the game files the page
    may import (runtime.page_entries): the shell, the game's view and its rules module."""
    return {f.id: ["shell", f.view, f.rules_module, "worker_host"] for f in pages.paged(facts.families())}


def copy_pyodide(out: Path) -> list[Path]:
    missing = [n for n in PYODIDE_REQUIRED if not (PYODIDE_SRC / n).is_file()]
    if missing:
        sys.exit(f"build.py: missing from {PYODIDE_SRC}: {', '.join(missing)} (run npm ci)")
    copied = []
    for name in PYODIDE_FILES:
        src = PYODIDE_SRC / name
        if src.is_file():
            dst = out / PYODIDE_DIR / name
            _copy(src, dst)
            copied.append(dst)
    return copied


def pyscript_closure() -> list[str]:
    """Names of the files of @pyscript/core's dist reachable from the entries."""
    seen: set[str] = set()
    todo = list(PYSCRIPT_ENTRIES)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = PYSCRIPT_SRC / name
        if not path.is_file():
            # e.g. "./mip.py"-style virtual names are filtered by the regex;
            # a missing .js chunk is a real problem.
            sys.exit(f"build.py: {path} is referenced but missing")
        seen.add(name)
        if path.suffix in {".js", ".mjs", ".css"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            todo.extend(m for m in _RELATIVE_REF.findall(text)
                        if (PYSCRIPT_SRC / m).is_file() or m.endswith((".js", ".css")))
    return sorted(seen)


def copy_workbox_window(out: Path) -> list[Path]:
    """workbox-window's one-file module (its source map is left out, as PyScript's are)."""
    dst = out / WORKBOX_WINDOW_DIR / WORKBOX_WINDOW_SRC.name
    _copy(WORKBOX_WINDOW_SRC, dst)
    return [dst]


def pyscript_lazy(names: list[str]) -> list[str]:
    """The files of PyScript's dist (of *names*) that no page of this site loads, left out of
    the service worker's precache (they stay in dist/): PyScript imports its core's chunks and
    the chunk of every plugin, those turned off in pyscript.json (``"!name"``) too, on every
    page; the others (CodeMirror and xterm.js for its editor and terminal, its zip and TOML
    readers, MicroPython's bits: about 0.33 MB gzip) only when a plugin or a feature this site
    does not use runs.  (e2e/test_offline.py starts every page offline: a file a page loads
    and the precache lacks fails there.)"""
    config = json.loads((STATIC / "pyscript.json").read_text(encoding="utf-8"))
    plugins = {p.lstrip("!") for p in config.get("plugins", [])}
    start = {"core", *plugins}
    return [n for n in names
            if n not in PYSCRIPT_ENTRIES and not any(n.startswith(f"{s}-") for s in start)]


def copy_qr(out: Path) -> list[Path]:
    """lean-qr's module, and qr's two (decode.js imports ./index.js), as they are."""
    copied = []
    for src, dst in [(LEAN_QR_SRC, out / LEAN_QR_DIR / LEAN_QR_SRC.name),
                     *[(src, out / QR_DIR / src.name) for src in QR_SRC]]:
        _copy(src, dst)
        copied.append(dst)
    return copied


def copy_xz(out: Path) -> list[Path]:
    """xz-decompress's browser bundle, unchanged, inside an ES module: its UMD wrapper, run
    with ``this`` an object of the module's own, puts its exports there (no global is
    touched), and the module exports ``XzReadableStream`` from it."""
    body = XZ_SRC.read_text(encoding="utf-8")
    dst = out / XZ_DIR / XZ_MODULE
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(
        f"// xz-decompress {locked_version('xz-decompress')} ({XZ_SRC.name}, as published), "
        "served as an ES module by web/tools/build.py (copy_xz).\n"
        "const root = {};\n(function () {\n" + body + "\n}).call(root);\n"
        'export const { XzReadableStream } = root["xz-decompress"];\n', encoding="utf-8")
    return [dst]


def copy_pyscript(out: Path) -> list[Path]:
    copied = []
    for name in pyscript_closure():
        dst = out / PYSCRIPT_DIR / name
        _copy(PYSCRIPT_SRC / name, dst)
        copied.append(dst)
    return copied


def _npm_version(package_dir: Path) -> str:
    try:
        return json.loads((package_dir / "package.json").read_text())["version"]
    except (OSError, KeyError, ValueError):
        return "unknown"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_build_info(out: Path, base: str, files: list[Path], manifest: dict) -> Path:
    info = {
        "base": base,
        "package": manifest["package"],
        "runtime": manifest,
        "pyodide": {"version": _npm_version(PYODIDE_SRC), "path": PYODIDE_DIR + "/pyodide.mjs"},
        "pyscript": {"version": _npm_version(PYSCRIPT_SRC.parent), "path": PYSCRIPT_DIR + "/core.js"},
        "modules": [p.relative_to(ROOT).as_posix() for p in package_modules()],
        "files": {p.relative_to(out).as_posix(): _sha256(p) for p in sorted(files)},
        # Served but never loaded by a page: web/tools/build_sw.mjs leaves them out of the
        # precache (a first visit does not download them).  Pyodide's lock file: the page
        # gives Pyodide an empty one (script_values).
        # The standard library's zip: the pages download its .xz (manifest "stdlib_xz").
        "unloaded": [f"{PYSCRIPT_DIR}/{n}" for n in pyscript_lazy(pyscript_closure())]
                    + [f"{PYODIDE_DIR}/pyodide-lock.json"]
                    + ([f"{PYODIDE_DIR}/{manifest['stdlib']}"] if manifest.get("stdlib_xz") else []),
    }
    listing = "".join(f"{name} {digest}\n" for name, digest in info["files"].items())
    info["build"] = hashlib.sha256(listing.encode()).hexdigest()[:12]
    dst = out / "build-info.json"
    dst.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return dst


def script_values(manifest: dict) -> dict:
    """The build's values of the scripts (BUILD_VALUE): the runtime's content-named files for
    js/pyodide-fast.mjs (stdlib, package, pages, snapshot, the sha256 of the snapshot's
    inflated form, which the page checks before Python gets it, and an empty Pyodide lock
    file: the site loads no package, which spares the page fetching and indexing its 357
    entries), the vendored Pyodide's paths and PyScript's module, and embed.js's map of the
    games."""
    runtime_names = {k: manifest.get(k) for k in (
        "stdlib", "stdlib_xz", "stdlib_sha256", "package", "pages", "shared", "snapshot",
        "snapshot_inflated_sha256")}
    lock = json.loads((PYODIDE_SRC / "pyodide-lock.json").read_text(encoding="utf-8"))
    runtime_names["lock"] = {"info": lock["info"], "packages": {}}
    return {
        "runtime": runtime_names,
        "pyodide_module": f"../{PYODIDE_DIR}/pyodide.mjs",
        "pyodide_dir": f"../{PYODIDE_DIR}/",
        "pyscript_module": f"../{PYSCRIPT_DIR}/core.js",
        "embed_pages": embed_pages(),
        "workbox_window": f"../{WORKBOX_WINDOW_DIR}/{WORKBOX_WINDOW_SRC.name}",
        "lean_qr": f"../{LEAN_QR_DIR}/{LEAN_QR_SRC.name}",
        "qr_decode": f"../{QR_DIR}/decode.js",
        "xz_module": f"../{XZ_DIR}/{XZ_MODULE}",
    }


def fill_scripts(out: Path, files: list[Path], values: dict) -> None:
    """Write the build's values into the copied scripts (BUILD_VALUE); a name without a
    value, or a value no script asks for, stops the build."""
    used = set()

    def value(m):
        if m.group(1) not in values:
            raise SystemExit(f"build.py: no build value {m.group(1)!r} (in {path.name})")
        used.add(m.group(1))
        return json.dumps(values[m.group(1)], ensure_ascii=False, sort_keys=True)

    for path in files:
        if path.suffix in SCRIPT_SUFFIXES:
            text = path.read_text(encoding="utf-8")
            filled = BUILD_VALUE.sub(value, text)
            if filled != text:
                path.write_text(filled, encoding="utf-8")
    if set(values) - used:
        raise SystemExit(f"build.py: no script asks for {sorted(set(values) - used)}")
    config = json.loads((out / "pyscript.json").read_text(encoding="utf-8"))
    if config.get("files"):
        sys.exit("build.py: pyscript.json must not list `files`: js/pyodide-fast.mjs writes "
                 "the game's files itself")


def write_service_worker(out: Path) -> tuple[Path, dict]:
    """Write ``out/sw.js`` (precaching every file now in *out*) with
    ``web/tools/build_sw.mjs``; call it last, once every other file is written.
    Returns its path and ``{"count": files, "size": bytes, "seconds": ...}``."""
    node = shutil.which("node")
    if node is None:
        sys.exit("build.py: node is needed to write sw.js (it comes with npm)")
    done = subprocess.run([node, str(SW_SCRIPT), str(out)], cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True)
    return out / "sw.js", json.loads(done.stdout.strip().splitlines()[-1])


def _check_out_dir(out: Path) -> None:
    forbidden = {ROOT, WEB, PACKAGE, NODE_MODULES, Path.home().resolve(), Path("/")}
    if out in forbidden or (out / ".git").exists() or out in ROOT.parents:
        sys.exit(f"build.py: refusing to wipe {out}")


def normalise_base(base: str) -> str:
    if not base.startswith("/"):
        base = "/" + base
    if not base.endswith("/"):
        base += "/"
    return base


def build(out: Path | str = ROOT / "dist", base: str = "/", quiet: bool = False,
          url: str | None = None) -> dict:
    """Build the site into *out*; returns a summary dict.  *url*: the site's full URL where
    it is deployed (its pages then name their other languages' versions by full URL)."""
    start = time.perf_counter()
    if url is not None and not re.fullmatch(r"https?://[^/\s?#]+(/[^\s?#]*)?", url):
        raise SystemExit(f"build.py: --url must be a full http(s) URL, not {url!r}")
    out = Path(out).resolve()
    _check_out_dir(out)
    base = normalise_base(base)
    ensure_node_modules()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    files = copy_static(out)
    package = zip_package(out)
    files += copy_pyodide(out)
    built = runtime.build_runtime(out / PYODIDE_DIR, package_zip=package, quiet=quiet,
                                  pages=page_roots())
    files += built["files"]  # web/tools/runtime/: stdlib, pygames-<hash>.tar.gz, snapshot
    # Once the runtime's content-named files are known: the pages and the scripts name them.
    files += write_pages(out, built["manifest"], url)
    fill_scripts(out, files, script_values(built["manifest"]))
    files += copy_pyscript(out)
    files += copy_workbox_window(out)
    files += copy_qr(out)
    files += copy_xz(out)
    nojekyll = out / ".nojekyll"
    nojekyll.touch()
    files.append(nojekyll)
    files.append(write_build_info(out, base, files, built["manifest"]))
    sw, precache = write_service_worker(out)
    files.append(sw)

    total = sum(p.stat().st_size for p in files)
    summary = {
        "out": str(out),
        "base": base,
        "files": len(files),
        "bytes": total,
        "modules": len(package_modules()),
        "seconds": time.perf_counter() - start,
        "precache": precache,
    }
    if not quiet:
        groups: dict[str, list[Path]] = {}
        for p in files:
            rel = p.relative_to(out).as_posix()
            key = next((d for d in (PYODIDE_DIR, PYSCRIPT_DIR) if rel.startswith(d + "/")), "site")
            groups.setdefault(key, []).append(p)
        for key, paths in groups.items():
            size = sum(p.stat().st_size for p in paths)
            print(f"  {key:<16} {len(paths):4d} files {size:12,d} bytes")
        print(f"built {out} (base {base}): {summary['files']} files, {total:,d} bytes total, "
              f"{summary['modules']} pygames modules, "
              f"{summary['seconds']:.2f} s")
        print(f"  sw.js precaches {precache['count']} files, {precache['size']:,d} bytes "
              f"(written in {precache['seconds']:.2f} s)")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "dist"),
                        help="output directory (default: dist/ at the repository root)")
    parser.add_argument("--base", default="/",
                        help="URL path the site is served under, e.g. /pygames/ for a GitHub "
                             "Pages project site (recorded in build-info.json; every URL in the "
                             "site is relative, so the same build works under any base)")
    parser.add_argument("--url", default=None,
                        help="the site's full URL where it is deployed, e.g. "
                             "https://owner.github.io/pygames/: the pages then name their "
                             "versions in the other languages by full URL (hreflang), as "
                             "search engines want (without it, relative)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    build(args.out, args.base, quiet=args.quiet, url=args.url)
    return 0


if __name__ == "__main__":
    sys.exit(main())
