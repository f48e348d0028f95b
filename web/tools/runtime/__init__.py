"""Runtime build step: a faster-booting standard library for Pyodide.

Called by web/tools/build.py after the npm files are copied into ``dist/``::

    from runtime import build_runtime
    report = build_runtime(out / PYODIDE_DIR, package_zip=out / "pygames.zip")
    report["manifest"]  # {"stdlib": "python_stdlib-<hash>.zip", "package": ..., "snapshot": ...}

Why (measured, see e2e/bench/bench_startup.py): the npm ``pyodide`` package ships the
standard library as ``.py`` source only, and most of a boot went to compiling
the ~150 modules Pyodide, PyScript and pygames import.  ``precompile.mjs`` runs
Pyodide's own CPython (3.14, in Node) to

* compile the *hot* modules -- those in ``sys.modules`` after Pyodide's boot
  and after importing the pygames modules and the standard-library modules
  that web/app/*.py import, and :data:`BROWSER_EXTRA` -- to ``.pyc``, docstrings
  stripped (bytecode deflates about half as well as source, the docstrings are
  a sixth of it);
* keep every other module as ``.py`` source (so they still import, just not
  precompiled), except the ones in :data:`DROP`, which cannot work in a browser
  page or are development tools, to pay for the larger ``.pyc``.

It also adds to the game's files (``pygames.zip``, which holds the package and
web/app/*.py: the page's ``<script type="py">`` only does ``import shell; shell.main(ID)``)
the bytecode of its start-up modules, and that of PyScript's own Python package
(which PyScript writes to ``./pyscript/`` and imports at every start), compiled
from the sources embedded in its chunks.

Then ``snapshot.mjs`` boots Pyodide in Node on that standard library, unpacks
the game's files where the page writes them, imports the hot modules and the pygames
modules and saves a memory snapshot: only its non-zero pages, and of those only the ones that
are not as the wasm module starts them (the page copies those from pyodide.asm.wasm),
compressed with xz (2.6 MB; gzip -9 gave 3.7 MB).  The build stops when the snapshot's memory is larger than the wasm's
initial memory, which is all Pyodide can restore (:func:`check_snapshot_fits`).
web/static/js/pyodide-fast.mjs (PyScript's ``interpreter``) restores it on visits
where the browser already holds it (the service worker precaches it after a
first visit).

The game's files are served as one ``pygames-<page>-<hash>.tar.gz`` per game page
(one gzip stream: the page reads it in JS, web/static/js/untar.mjs): only what that page
imports (:func:`page_entries`: the shell, the page's view and game module, what they
import, even inside a function, and PyScript's bytecode -- not the other games, not the
CLI); what every page has (the shell, the shared core, PyScript's bytecode) is in
``pygames-shared-<hash>.tar.gz``, which every page loads beside its own.  A first visit
downloads those two only; the service worker precaches every page's.
``pygames-<hash>.tar.gz`` holds every module (for the tests' harness pages and a page
that names no game; not precached).  The memory snapshot is one for every
page: made from all the modules, with every game imported.  All these files are named
after their content (:func:`content_name`): the snapshot's name covers the standard
library and every archive, so a snapshot is never paired with another build's files,
and the service worker never downloads again a file the page already has.  The results are cached under
``node_modules/.cache/pygames-runtime/``
keyed by their inputs, so a rebuild costs nothing; without Node the stock zip
stays (renamed the same way), there is no snapshot, and the build says so.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import lzma
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
PACKAGE = ROOT / "pygames"
APP = ROOT / "web" / "app"
#: The page's Python when it runs in a worker (the mirror of the page, the worker's window):
#: written beside web/app's modules (js/py-worker.mjs imports worker_host).
WORKER = ROOT / "web" / "worker"
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
PYSCRIPT_DIST = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
#: Bytecode of PyScript's own Python package, written next to the zip, then
#: merged into pygames.zip (written into the working directory by the page).
PYSCRIPT_PYC = "pyscript-pyc.zip"
CACHE = ROOT / "node_modules" / ".cache" / "pygames-runtime"
SCRIPT = HERE / "precompile.mjs"
SNAPSHOT_SCRIPT = HERE / "snapshot.mjs"
STDLIB = "python_stdlib.zip"

#: Modules a page imports that neither a Node boot nor pygames does: PyScript's
#: own Python package imports ``html``; unpacking ``files`` zips decodes names
#: with cp437.  e2e/test_runtime_fast.py checks that the Yams page loads no
#: standard-library module from source, so a missing name shows up there.
BROWSER_EXTRA = ("html", "html.entities", "encodings.cp437")

#: Left out of the zip (fnmatch patterns on its names).  Each either needs
#: what a browser page does not have (processes, sockets, a terminal, a mail
#: or web server, the expat parser, Windows), is a development tool or a
#: command-line tool, or is a module only those import (email:
#: importlib.metadata, urllib.request, http.client).
#: None is imported by Pyodide, PyScript or pygames; the build keeps any that
#: becomes hot and says so.  The code-page tables go too, except the Western
#: ones: they were 270 KB of the 320 KB of ``encodings``.  Together about
#: 0.55 MB of the stock 2.5 MB zip, which pays for the hot modules' bytecode.
DROP = (
    "multiprocessing/*", "concurrent/futures/process.py", "_pyrepl/*", "asyncio/__main__.py",
    "unittest/*", "xmlrpc/*", "wsgiref/*", "http/*", "socketserver.py", "email/*",
    "importlib/metadata/*", "urllib/request.py", "urllib/robotparser.py",
    "xml/*", "plistlib.py", "optparse.py", "_pyio.py",
    "pdb.py", "bdb.py", "doctest.py", "pydoc.py", "pydoc_data/*", "trace.py",
    "profile.py", "cProfile.py", "pstats.py", "pickletools.py", "tabnanny.py",
    "modulefinder.py", "pyclbr.py", "zipapp.py", "compileall.py",
    "imaplib.py", "smtplib.py", "ftplib.py", "poplib.py", "mailbox.py",
    "webbrowser.py", "pty.py", "tty.py", "antigravity.py", "this.py",
    "__hello__.py", "__phello__/*", "idlelib/*", "tkinter/*", "turtle.py",
    "turtledemo/*", "ensurepip/*", "venv/*", "lib2to3/*", "curses/*",
    "encodings/cp[0-9]*.py", "encodings/mac_*.py", "encodings/iso8859_*.py",
    "encodings/koi8_*.py", "encodings/kz1048.py", "encodings/ptcp154.py",
    "encodings/hp_roman8.py", "encodings/palmos.py", "encodings/tis_620.py",
    # Windows only; the pure-Python fallback of a module Pyodide builds in C (_datetime);
    # command-line parsing (only the `python -m x` entry points of modules import it);
    # logging to files, sockets and config files; .ini files.  About 0.1 MB, so that a first
    # visit stays under 6 MB.  (Not difflib: traceback imports it for a SyntaxError.)
    "asyncio/windows_*.py", "asyncio/proactor_events.py", "_pydatetime.py",
    "argparse.py", "logging/handlers.py", "logging/config.py", "configparser.py",
)
#: Exceptions to the code-page patterns above.
KEEP = ("encodings/cp437.py", "encodings/cp1252.py", "encodings/iso8859_1.py",
        "encodings/iso8859_15.py")

_STDLIB_NAMES = frozenset(getattr(sys, "stdlib_module_names", ()))


def _app_imports() -> set[str]:
    names: set[str] = set()
    for path in app_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def app_stdlib_imports() -> list[str]:
    """Standard-library modules imported by web/app/*.py."""
    return sorted(m for m in _app_imports() - {"__future__"}
                  if m.split(".")[0] in _STDLIB_NAMES)


def app_modules() -> list[Path]:
    """web/app/*.py: PyScript's ``files`` copy them into the working directory and the
    page imports them; their bytecode goes into pygames.zip's top ``__pycache__``."""
    return sorted([*APP.glob("*.py"), *WORKER.glob("*.py")])


def package_imports() -> list[str]:
    """The pygames modules web/app/*.py import (``pygames``, ``pygames.yams``...):
    with what they import in turn, these are precompiled in pygames.zip."""
    mods = sorted(m for m in _app_imports() if m.split(".")[0] == PACKAGE.name)
    return mods or [PACKAGE.name]


def _module_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names - {"__future__"}


def pure_app_modules() -> list[str]:
    """The modules of web/app/ that import only the standard library, pygames and each
    other -- no ``pyscript``, ``js`` or ``pyodide``, which hold browser objects: they can be
    imported before the page exists, into the memory snapshot (e.g. ``embed``)."""
    mods = {p.stem: _module_imports(p) for p in app_modules()}
    allowed = _STDLIB_NAMES | {PACKAGE.name}
    pure: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, imports in mods.items():
            if name not in pure and imports <= allowed | pure:
                pure.add(name)
                changed = True
    return sorted(pure)


def _module_path(name: str) -> Path | None:
    """The source of one of this site's modules: ``pygames[.x]`` or a web/app module."""
    parts = name.split(".")
    if parts[0] == PACKAGE.name:
        path = PACKAGE.joinpath(*parts[1:]) if parts[1:] else PACKAGE
        for candidate in (path / "__init__.py", path.with_suffix(".py")):
            if candidate.is_file():
                return candidate
        return None
    for folder in (APP, WORKER):
        path = folder / f"{name}.py"
        if len(parts) == 1 and path.is_file():
            return path
    return None


def _imported_by(name: str, path: Path) -> set[str]:
    """The site's modules that module *name* (at *path*) imports anywhere in its code
    (a function's lazy import too), with their parent packages."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)  # `from pkg import module`
    out = set()
    for mod in found:
        parts = mod.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return {m for m in out if _module_path(m) is not None}


def page_modules(roots: list[str]) -> list[str]:
    """The site's modules a page may import: *roots* (e.g. ``shell``, its view, the game's
    module) and everything they import, transitively, found in the sources (an import
    inside a function counts: a bot or the advisor imported at the first use).  Modules
    named by a string (the CLI's ``cli_module``, ``Family.view``) are not followed: the
    view is a root, and the page never imports the CLI."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        path = _module_path(name)
        if name in seen or path is None:
            continue
        seen.add(name)
        todo.extend(_imported_by(name, path))
    return sorted(seen)


def _source_of(entry: str) -> str:
    """The source an archive entry goes with: itself, or for ``d/__pycache__/m.<tag>.pyc``
    ``d/m.py``."""
    head, _, tail = entry.rpartition("/")
    if tail.endswith(".pyc") and (head == "__pycache__" or head.endswith("/__pycache__")):
        head = head[:-len("__pycache__")]
        return f"{head}{tail.split('.')[0]}.py"
    return entry


def page_entries(names: list[str], roots: list[str]) -> dict[str, str]:
    """The entries of the complete game files' archive (*names*, in order) that a page
    whose modules start from *roots* needs, each with its name in the page's archive:

    * the bytecode of those modules that have some, as ``d/m.pyc`` where ``d/m.py`` would be
      (Python imports it without the source: a page never compiles them, and the sources,
      a third of the bytes, stay out; a traceback then names the file and line, without
      the line's text);
    * the source of the others (imported later, if at all: a bot, the advisor);
    * PyScript's bytecode, as it is (PyScript writes its sources itself at every start).
    """
    wanted = set()
    for mod in page_modules(roots):
        path = _module_path(mod)
        wanted.add((path.relative_to(ROOT) if path.is_relative_to(PACKAGE)
                    else path.relative_to(path.parent)).as_posix())
    compiled = {_source_of(n) for n in names if n.endswith(".pyc")}
    out = {}
    for name in names:
        if name.split("/")[0] == "pyscript":
            out[name] = name
        elif _source_of(name) in wanted:
            source = _source_of(name)
            if name.endswith(".pyc"):
                out[name] = source + "c"
            elif source not in compiled:
                out[name] = name
    return out


def precompile_args(package_zip: tuple[Path, Path] | None = None) -> list[str]:
    args = ["--strip-docstrings", "--path", str(ROOT)]
    if package_zip:
        args += ["--package-zip", str(package_zip[0]), str(package_zip[1])]
        for path in app_modules():
            args += ["--app-source", str(path)]
    for mod in [*package_imports(), *app_stdlib_imports(), *BROWSER_EXTRA]:
        args += ["--import", mod]
    for glob in DROP:
        args += ["--drop", glob]
    for glob in KEEP:
        args += ["--keep", glob]
    return args


def _cache_key(args: list[str], extra: bytes = b"") -> str:
    h = hashlib.sha256()
    h.update(json.dumps(args).encode())
    h.update(extra)
    for path in [PYODIDE_SRC / STDLIB, PYODIDE_SRC / "package.json", SCRIPT,
                 PYSCRIPT_DIST.parent / "package.json",
                 Path(__file__), *sorted(PACKAGE.rglob("*.py")), *app_modules()]:
        if "__pycache__" in path.parts:
            continue
        h.update(path.as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


def _run_node(args: list[str]) -> dict:
    """Run a build script of this folder in Node; its report (the last line it prints,
    JSON).  Raises RuntimeError with the end of its stderr when it fails."""
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    if proc.returncode != 0:
        name = Path(args[1]).name
        raise RuntimeError(f"{name} failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cache_report(path: Path, report: dict, builds: str, *companions: str) -> None:
    """Keep a fresh build's *report* beside it (at *path*), then keep the cache small: the
    3 newest *builds* (a glob; newest by their last use: a hit touches the build), each with
    its report and its *companions* (the same name with another prefix than the build's)."""
    path.write_text(json.dumps(report, indent=1))
    report["cached"] = False
    prefix = builds.split("*")[0]
    entries = sorted(CACHE.glob(builds), key=lambda p: p.stat().st_mtime)
    for old in entries[:-3]:
        old.unlink(missing_ok=True)
        old.with_suffix(".json").unlink(missing_ok=True)
        for other in companions:
            (CACHE / old.name.replace(prefix, other)).unlink(missing_ok=True)


def precompile(dst: Path, *, package_zip: Path | None = None, quiet: bool = False) -> dict:
    """Write the precompiled zip to *dst*; returns precompile.mjs's report
    (plus ``cached``/``seconds``).  With *package_zip* (dist/pygames.zip), add
    the bytecode of its start-up modules to it, in place.  Raises RuntimeError
    without Node."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    key = _cache_key(precompile_args(), package_zip.read_bytes() if package_zip else b"")
    cached_zip, cached_report = CACHE / f"stdlib-{key}.zip", CACHE / f"stdlib-{key}.json"
    cached_pkg = CACHE / f"package-{key}.zip"
    cached_pyscript = CACHE / f"pyscript-{key}.zip"
    args = precompile_args((package_zip, cached_pkg.with_suffix(".tmp")) if package_zip else None)
    args += ["--pyscript-bytecode", str(PYSCRIPT_DIST), str(cached_pyscript.with_suffix(".tmp"))]
    start = time.perf_counter()
    if cached_zip.is_file() and cached_report.is_file() and cached_pyscript.is_file() and (
            cached_pkg.is_file() or not package_zip):
        report = json.loads(cached_report.read_text())
        report["cached"] = True
        cached_zip.touch()  # used now: among the newest kept (_cache_report)
    else:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached_zip.with_suffix(".tmp")
        report = _run_node([node, str(SCRIPT), str(PYODIDE_SRC), str(tmp), *args])
        tmp.replace(cached_zip)
        if package_zip:
            cached_pkg.with_suffix(".tmp").replace(cached_pkg)
        cached_pyscript.with_suffix(".tmp").replace(cached_pyscript)
        _cache_report(cached_report, report, "stdlib-*.zip", "package-", "pyscript-")
    if package_zip:
        shutil.copyfile(cached_pkg, package_zip)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cached_zip, dst)
    shutil.copyfile(cached_pyscript, dst.parent / PYSCRIPT_PYC)
    report["seconds"] = time.perf_counter() - start
    return report


def content_name(stem: str, digest: str, suffix: str) -> str:
    """``stem-<16 hex digits of digest><suffix>``: the names of files whose content may change
    from one build to the next (the service worker then never re-downloads a file it has)."""
    return f"{stem}-{digest[:16]}{suffix}"


def snapshot(stdlib_zip: Path, package_zip: Path | None, modules: list[str], out_dir: Path,
             archives: list[Path] = ()) -> dict:
    """Make the memory snapshot for *stdlib_zip* and *package_zip* (every game file: the
    pages write *archives*, parts of it, into their working directory) into *out_dir*, with
    *modules* imported (cached like the zip); returns snapshot.mjs's report plus ``name``
    and ``seconds``.  Its name covers the standard library and every archive."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    start = time.perf_counter()
    h = hashlib.sha256(stdlib_zip.read_bytes())
    h.update(package_zip.read_bytes() if package_zip else b"")
    for path in archives:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in (SNAPSHOT_SCRIPT, PYODIDE_SRC / "pyodide.asm.wasm", PYODIDE_SRC / "package.json"):
        h.update(path.read_bytes())
    h.update(json.dumps(modules).encode())
    key = h.hexdigest()
    cached, cached_report = CACHE / f"snapshot-{key[:20]}.xz", CACHE / f"snapshot-{key[:20]}.json"
    if cached.is_file() and cached_report.is_file():
        report = json.loads(cached_report.read_text())
        report["cached"] = True
        cached.touch()  # used now: among the newest kept (_cache_report)
    else:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        args = [node, str(SNAPSHOT_SCRIPT), str(PYODIDE_SRC), str(stdlib_zip), str(tmp)]
        if package_zip:
            args += ["--package-zip", str(package_zip)]
        for mod in modules:
            args += ["--import", mod]
        report = _run_node(args)
        packed = xz(tmp.read_bytes())
        tmp.unlink()
        cached.write_bytes(packed)
        report["bytes"] = len(packed)
        _cache_report(cached_report, report, "snapshot-*.xz")
    # The name covers every archive (and the rest of the key): a build never reuses another's.
    report["name"] = content_name("snapshot", key, SNAPSHOT_SUFFIX)
    shutil.copyfile(cached, out_dir / report["name"])
    report["seconds"] = time.perf_counter() - start
    return report


#: The memory snapshot as served: xz (LZMA2), which the page decodes in a worker
#: (js/snapshot-inflate.mjs, with xz-decompress).  For its 10 MB of Python's heap, xz
#: gives 2.6 MB where gzip -9 gave 3.7 MB (issue 24, "Fewer bytes"; the host does not
#: compress it again).  A 16 MiB dictionary holds the whole of it; the decoder allocates it.
SNAPSHOT_SUFFIX = ".bin.xz"
XZ_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME,
               "dict_size": 16 << 20, "lc": 1, "lp": 2, "pb": 2}]


def xz(data: bytes) -> bytes:
    """*data* as the page reads it: one xz stream with a CRC32 check (xz-embedded's), the
    same bytes for the same data."""
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32,
                         filters=XZ_FILTERS)


def _uleb(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def wasm_initial_memory(path: Path) -> int:
    """The initial size, in bytes, of the memory a WebAssembly module declares or imports
    (its limits' minimum, in 64 KiB pages; the binary format's sections 2 and 5).  Pyodide
    restores a memory snapshot into that memory without growing it (pyodide issue #6254):
    it is the most a snapshot may hold (js/runtime-internals.mjs, 7)."""
    data = path.read_bytes()
    if data[:4] != b"\0asm":
        raise ValueError(f"{path.name} is not a WebAssembly module")
    at = 8
    while at < len(data):
        section = data[at]
        size, at = _uleb(data, at + 1)
        end = at + size
        if section == 2:  # imports: module name, field name, kind, then the kind's type
            count, at = _uleb(data, at)
            for _ in range(count):
                for _name in range(2):
                    length, at = _uleb(data, at)
                    at += length
                kind = data[at]
                at += 1
                if kind == 0:  # function: a type index
                    _, at = _uleb(data, at)
                elif kind == 1:  # table: a reference type, limits
                    flags, at = _uleb(data, at + 1)
                    _, at = _uleb(data, at)
                    if flags & 1:
                        _, at = _uleb(data, at)
                elif kind == 2:  # memory: limits
                    return _memory_min(data, at)
                elif kind == 3:  # global: a value type, mutability
                    at += 2
                elif kind == 4:  # tag
                    at += 1
                    _, at = _uleb(data, at)
                else:
                    raise ValueError(f"{path.name}: unknown import kind {kind}")
        elif section == 5:
            count, at = _uleb(data, at)
            if count:
                return _memory_min(data, at)
        at = end
    raise ValueError(f"{path.name} has no memory")


def _memory_min(data: bytes, at: int) -> int:
    """The minimum of the memory limits at *at* (flags, then the minimum in pages), in bytes."""
    _flags, at = _uleb(data, at)
    pages, _ = _uleb(data, at)
    return pages * 65536


class SnapshotTooLarge(SystemExit):
    """The memory snapshot holds more memory than Pyodide can restore: the build stops."""


def check_snapshot_fits(heap: int, limit: int) -> None:
    """Stop the build (SnapshotTooLarge, a SystemExit with the message) when a snapshot's wasm
    memory (*heap* bytes) is larger than *limit*, the initial memory of the wasm module that
    will restore it (:func:`wasm_initial_memory`): Pyodide would fail to restore it, and
    every visit would boot the slow way without a word (pyodide issue #6254)."""
    if heap > limit:
        raise SnapshotTooLarge(
            f"build.py: the memory snapshot holds {heap:,d} bytes of Python's memory, more "
            f"than the {limit:,d} bytes ({limit / 2**20:g} MiB) Pyodide can restore (the "
            f"initial memory of pyodide.asm.wasm; pyodide issue #6254): the snapshot would "
            f"never be used.  Import fewer modules into it (web/tools/runtime/__init__.py, "
            f"build_runtime's `modules`) or check what made Python's memory grow.")


def _merge_zip(src: Path, dst: Path) -> int:
    """Append the entries of zip *src* to zip *dst*; returns how many."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "a", zipfile.ZIP_DEFLATED) as zout:
        names = set(zout.namelist())
        added = 0
        for info in zin.infolist():
            if info.filename not in names:
                zout.writestr(info, zin.read(info))
                added += 1
    return added


def _store_entries(path: Path) -> None:
    """Rewrite zip *path* with its entries stored, not deflated (same order, names, dates):
    the page gets it as one xz stream (:data:`STDLIB_XZ`), which compresses across files
    (1.24 MB where the zip of deflated entries is 1.78 MB), and zipimport reads a stored
    entry without inflating it."""
    tmp = path.with_name(path.name + ".stored")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            info.compress_type = zipfile.ZIP_STORED
            zout.writestr(info, data)
    tmp.replace(path)


#: The suffix of the standard library as the pages download it: xz of the zip (its entries
#: stored).  The page inflates it in a worker and gives Pyodide the zip's bytes
#: (js/pyodide-fast.mjs); the zip itself is served too, for tools and tests, never loaded
#: by a page (the service worker does not precache it).
STDLIB_XZ = ".xz"


def _write_xz(src: Path) -> Path:
    """``<src>.xz`` (:func:`xz` of *src*), from the cache when the same bytes were packed."""
    dst = src.with_name(src.name + STDLIB_XZ)
    cached = CACHE / f"{src.stem.split('-')[0]}-{_sha256_file(src)[:20]}.xz"
    if cached.is_file():
        cached.touch()  # used now: among the newest kept (_prune)
    else:
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(".tmp")
        tmp.write_bytes(xz(src.read_bytes()))
        tmp.replace(cached)
        _prune(f"{src.stem.split('-')[0]}-*.xz")
    shutil.copyfile(cached, dst)
    return dst


def _sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _prune(pattern: str, keep: int = 3) -> None:
    """Keep the *keep* cache entries matching *pattern* last used."""
    for old in sorted(CACHE.glob(pattern), key=lambda p: p.stat().st_mtime)[:-keep]:
        old.unlink(missing_ok=True)


def build_runtime(pyodide_out: Path, *, package_zip: Path | None = None, quiet: bool = False,
                  make_snapshot: bool = True, pages: dict[str, list[str]] | None = None) -> dict:
    """Write into *pyodide_out* (dist/vendor/pyodide-<version>) the precompiled standard
    library and the memory snapshot made with it, and complete *package_zip*
    (dist/pygames.zip: its bytecode, and PyScript's package bytecode), served as
    ``pygames-<hash>.tar.gz`` (the zip is removed), and for each page of *pages* (its id ->
    the modules it starts from, see :func:`page_entries`) the part of it that page needs,
    ``pygames-<id>-<hash>.tar.gz``; all renamed after their content.  Returns a report whose
    ``manifest`` names them::

        {"stdlib": "python_stdlib-<hash>.zip", "stdlib_xz": "python_stdlib-<hash>.zip.xz"
         (what the pages download), "package": "pygames-<hash>.tar.gz" or None,
         "pages": {"yams": "pygames-yams-<hash>.tar.gz", ...},
         "shared": "pygames-shared-<hash>.tar.gz" (what every page's files have) or None,
         "snapshot": "snapshot-<hash>.bin.xz" or None, "stdlib_mode": "precompiled"/"stock", ...}

    (web/tools/build.py writes it into js/pyodide-fast.mjs and build-info.json), and whose
    ``files`` are the paths written.  Falls back to the stock zip and no snapshot (and says
    so) when Node is missing or a step fails, so that a build always yields a working site."""
    pyodide_out = Path(pyodide_out)
    pyodide_out.mkdir(parents=True, exist_ok=True)
    work = pyodide_out / (STDLIB + ".tmp")
    manifest: dict = {"stdlib_mode": "stock", "snapshot": None, "package": None, "pages": {},
                      "shared": None}
    report: dict = {"mode": "stock"}
    try:
        report = precompile(work, package_zip=package_zip, quiet=quiet)
        report["mode"] = manifest["stdlib_mode"] = "precompiled"
    except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as exc:
        print(f"build.py: WARNING: stdlib precompile skipped, the site boots the slower stock "
              f"python_stdlib.zip ({exc})", file=sys.stderr)
        report["error"] = str(exc)
        shutil.copyfile(PYODIDE_SRC / STDLIB, work)
    if report.get("kept_hot"):
        print(f"build.py: note: kept hot modules matched by DROP: {report['kept_hot']}",
              file=sys.stderr)
    pyscript_pyc = work.parent / PYSCRIPT_PYC
    merged = 0
    if package_zip and pyscript_pyc.is_file():
        merged = _merge_zip(pyscript_pyc, package_zip)
    pyscript_pyc.unlink(missing_ok=True)
    if not quiet and report["mode"] == "precompiled":
        print(f"  runtime: python_stdlib.zip precompiled by Python {report['version']} "
              f"({report['pyc']} .pyc, {report['source']} .py, {report['dropped']} left out), "
              f"{report['bytes']:,d} bytes, {'cached' if report['cached'] else 'built'} "
              f"in {report['seconds']:.1f} s"
              + (f"; {report['package_pyc']} .pyc added to {package_zip.name}"
                 if package_zip else "")
              + f", and {merged} .pyc of PyScript's package")
    if report["mode"] == "precompiled":
        _store_entries(work)
    digest = hashlib.sha256(work.read_bytes()).hexdigest()
    stdlib = pyodide_out / content_name("python_stdlib", digest, ".zip")
    work.replace(stdlib)
    packed = _write_xz(stdlib)
    manifest.update(stdlib=stdlib.name, stdlib_sha256=digest, stdlib_xz=packed.name)
    files = [stdlib, packed]
    archives = []
    if package_zip and pages:
        with zipfile.ZipFile(package_zip) as zf:
            names = zf.namelist()
        entries = {page_id: page_entries(names, roots) for page_id, roots in sorted(pages.items())}
        # What every page has (the shell, the shared core, PyScript's bytecode: 230 of the
        # 290 kB of each page's files, gzip) in one archive that every page loads, each page's
        # own files in another: the service worker's precache fetches the shared part once.
        shared = set.intersection(*(set(e) for e in entries.values())) if len(entries) > 1 else set()
        parts = [(SHARED_ARCHIVE, {n: entries[min(entries)][n] for n in shared})] if shared else []
        parts += [(page_id, {k: v for k, v in e.items() if k not in shared})
                  for page_id, e in entries.items()]
        for part_id, only in parts:
            stem = f"{PACKAGE_STEM}-{part_id}"
            part = package_zip.with_name(stem + TAR_SUFFIX)
            zip_to_tar_gz(package_zip, part, only)
            named = part.with_name(content_name(stem, _sha256(part), TAR_SUFFIX))
            part.replace(named)
            if part_id == SHARED_ARCHIVE:
                manifest["shared"] = named.name
            else:
                manifest["pages"][part_id] = named.name
            archives.append(named)
        files += archives
    if make_snapshot and report["mode"] == "precompiled":
        # Every page's game module too (one snapshot for every page), and the page modules
        # that can be imported before the page exists.
        ours = [*package_imports(), *(r for roots in (pages or {}).values() for r in roots
                                      if r.split(".")[0] == PACKAGE.name), *pure_app_modules()]
        modules = report["hot"] + (list(dict.fromkeys(ours)) if package_zip else [])
        try:
            snap = snapshot(stdlib, package_zip, modules, pyodide_out, archives)
        except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as exc:
            print(f"build.py: WARNING: no memory snapshot, warm visits boot from the precompiled "
                  f"standard library ({exc})", file=sys.stderr)
        else:
            # A snapshot Pyodide cannot restore would make every visit boot the slow way,
            # silently: the build stops instead.
            limit = wasm_initial_memory(PYODIDE_SRC / "pyodide.asm.wasm")
            check_snapshot_fits(snap["heap"], limit)
            manifest["snapshot"] = snap["name"]
            # The digest of its inflated form, which the page checks before Python gets the
            # bytes, from the .xz (with the wasm's pages) or from the copy kept inflated
            # (js/snapshot-inflate.mjs).
            manifest["snapshot_inflated_sha256"] = snap["inflated_sha256"]
            manifest["snapshot_modules"] = snap["modules"]
            report["snapshot"] = snap
            files.append(pyodide_out / snap["name"])
            if not quiet:
                print(f"  runtime: memory snapshot {snap['name']}, {snap['bytes']:,d} bytes "
                      f"({snap['heap']:,d} bytes of wasm memory, the most Pyodide restores "
                      f"{limit:,d}, {snap['in_use']:,d} in use; {snap['stored']:,d} not zero, "
                      f"{snap['base_pages']} pages of them copied from the wasm; "
                      f"{snap['modules']} modules), "
                      f"{'cached' if snap['cached'] else 'built'} in {snap['seconds']:.1f} s")
    if package_zip:
        package = package_zip.with_name(PACKAGE_STEM + TAR_SUFFIX)
        zip_to_tar_gz(package_zip, package)
        package_zip.unlink()
        digest = hashlib.sha256(package.read_bytes()).hexdigest()
        named = package.with_name(content_name(PACKAGE_STEM, digest, TAR_SUFFIX))
        package.replace(named)
        manifest.update(package=named.name, package_sha256=digest)
        files.append(named)
    report["manifest"] = manifest
    report["files"] = files
    return report


#: The game's files as the site serves them: ``pygames-<hash>.tar.gz`` (one gzip stream, which
#: the page inflates natively and writes into Python's file system itself, see
#: web/static/js/pyodide-fast.mjs; smaller than the zip, too).
PACKAGE_STEM = "pygames"
#: The part of every page's game files that they all share: ``pygames-shared-<hash>.tar.gz``.
SHARED_ARCHIVE = "shared"
TAR_SUFFIX = ".tar.gz"
_TAR_MTIME = 1577836800  # 2020-01-01: reproducible archives


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def zip_to_tar_gz(src: Path, dst: Path, only: dict[str, str] | None = None) -> None:
    """The entries of zip *src* (only those that *only* maps to a name in *dst*, if given)
    as a reproducible .tar.gz *dst* (same order, fixed dates, modes and owners; no gzip
    timestamp)."""
    import io
    import tarfile

    with zipfile.ZipFile(src) as zin, dst.open("wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for info in zin.infolist():
            if info.is_dir() or (only is not None and info.filename not in only):
                continue
            data = zin.read(info)
            entry = tarfile.TarInfo(info.filename if only is None else only[info.filename])
            entry.size, entry.mtime, entry.mode = len(data), _TAR_MTIME, 0o644
            tar.addfile(entry, io.BytesIO(data))
