"""The runtime build step (web/tools/runtime/): the precompiled python_stdlib.zip.

Runs web/tools/runtime/precompile.mjs (Pyodide's CPython in Node; cached under
node_modules/.cache, so only the first run takes ~15 s) and checks the zip it
makes against the stock one of the npm package.
"""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import json
import lzma
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
import runtime  # web/tools/runtime/

ROOT = Path(__file__).resolve().parent.parent


STOCK = runtime.PYODIDE_SRC / runtime.STDLIB



@pytest.fixture(scope="module")
def site_build(tmp_path_factory):
    """The whole runtime step as web/tools/build.py runs it (every page's archive, the memory
    snapshot), made once for the tests that read its files: (folder, the game zip's names
    before the step, report).  The same inputs as dist/'s, so its node steps are usually
    cached.  Its files are only read."""
    import build  # web/tools/build.py

    assert shutil.which("node"), "node is needed by the build (it comes with npm)"
    assert STOCK.is_file(), "run npm ci first"
    work = tmp_path_factory.mktemp("site")
    package = build.zip_package(work)
    before = set(zipfile.ZipFile(package).namelist())
    report = runtime.build_runtime(work / "vendor", package_zip=package, quiet=True,
                                   pages=build.page_roots())
    return work, before, report


@pytest.fixture(scope="module")
def built(site_build):
    """The precompiled standard library of the site's step (site_build) and its report."""
    work, _, report = site_build
    assert report["mode"] == "precompiled"
    return work / "vendor" / report["manifest"]["stdlib"], report


def _dropped(name: str) -> bool:
    return (any(fnmatch.fnmatchcase(name, g) for g in runtime.DROP)
            and not any(fnmatch.fnmatchcase(name, g) for g in runtime.KEEP))


def test_every_stock_module_is_bytecode_source_or_deliberately_left_out(built):
    out, report = built
    stock = [n for n in zipfile.ZipFile(STOCK).namelist() if n.endswith(".py")]
    names = set(zipfile.ZipFile(out).namelist())
    kinds = {"pyc": 0, "py": 0, "dropped": 0}
    for name in stock:
        if name + "c" in names:
            assert name not in names, f"{name}: both .py and .pyc"
            kinds["pyc"] += 1
        elif name in names:
            kinds["py"] += 1
        else:
            assert _dropped(name), f"{name} vanished without being in runtime.DROP"
            kinds["dropped"] += 1
    assert kinds["pyc"] == report["pyc"] and kinds["py"] == report["source"]
    assert kinds["dropped"] == report["dropped"]
    # Nothing but .py/.pyc/data of the stock zip, nothing new.
    assert {n[:-1] if n.endswith(".pyc") else n for n in names} <= set(
        zipfile.ZipFile(STOCK).namelist())
    # The ones that matter for the site are there and precompiled.
    for mod in ("json/__init__.py", "dataclasses.py", "secrets.py", "asyncio/__init__.py",
                "_pyodide/_base.py", "pyodide/ffi/__init__.py", "html/__init__.py",
                "encodings/cp437.py", "encodings/utf_8.py"):
        assert mod + "c" in names, mod
    for kept in runtime.KEEP:
        assert kept in names or kept + "c" in names, kept
    assert report["bytes"] < STOCK.stat().st_size, "the precompiled zip should not be larger"


def test_hot_modules_are_the_boot_and_pygames_closure(built):
    _, report = built
    hot = set(report["hot"])
    # (Modules built into Pyodide's binary, e.g. binascii or zlib, are not in the zip.)
    in_zip = {n[:-3].replace("/", ".").removesuffix(".__init__")
              for n in zipfile.ZipFile(STOCK).namelist() if n.endswith(".py")}
    # Pyodide's own boot, pygames' imports, PyScript's extra (BROWSER_EXTRA).
    for mod in ("_pyodide._base", "asyncio", "json", "dataclasses", "secrets", "hashlib",
                "random", "html", "encodings.cp437",
                *(m for m in runtime.app_stdlib_imports() if m in in_zip)):
        assert mod in hot, mod
    assert "argparse" not in hot, "pygames.cli should not make argparse hot"
    assert not report["kept_hot"], f"hot modules matched by DROP: {report['kept_hot']}"


def _pyodide_magic() -> str:
    code = (
        "const {loadPyodide} = await import(process.argv[1]);"
        "const py = await loadPyodide({indexURL: process.argv[2]});"
        "console.log(py.runPython('import importlib.util; importlib.util.MAGIC_NUMBER.hex()'));"
    )
    src = runtime.PYODIDE_SRC
    proc = subprocess.run(["node", "--input-type=module", "-e", code,
                           (src / "pyodide.mjs").as_uri(), str(src) + "/"],
                          capture_output=True, text=True, timeout=300, check=True)
    return proc.stdout.strip().splitlines()[-1]


def test_bytecode_matches_pyodides_python_and_is_unchecked_hash(built):
    out, report = built
    magic = _pyodide_magic()
    assert report["magic"] == magic
    assert report["version"].startswith("3.14")
    with zipfile.ZipFile(out) as zf:
        pycs = [n for n in zf.namelist() if n.endswith(".pyc")]
        assert len(pycs) == report["pyc"] > 100
        for name in pycs:
            head = zf.read(name)[:16]
            assert head[:4].hex() == magic, name
            # PEP 552 flags: bit 0 = hash-based, bit 1 = check_source -> 0b01.
            assert int.from_bytes(head[4:8], "little") == 0b01, name


def test_docstrings_stripped_but_code_intact(built):
    """The pycs carry no docstring (what -OO does) and keep their asserts."""
    out, _ = built
    # (Python 3.11 here cannot unmarshal 3.14 code objects: look at the bytes.)
    with zipfile.ZipFile(out) as zf:
        data = zf.read("json/__init__.pyc")
    assert b"JSON (JavaScript Object Notation)" not in data
    assert b"JSON (JavaScript Object Notation)" in zipfile.ZipFile(STOCK).read("json/__init__.py")
    assert b"dumps" in data and b"JSONDecodeError" in data


def test_build_is_reproducible(built, tmp_path, monkeypatch):
    """A second run from scratch (empty cache) writes the same bytes."""
    import build

    out, _ = built
    monkeypatch.setattr(runtime, "CACHE", tmp_path / "cache")
    completed = []
    for n, cached in enumerate((False, True)):
        (tmp_path / str(n)).mkdir()
        package = build.zip_package(tmp_path / str(n))
        again = runtime.precompile(tmp_path / f"{n}.zip", package_zip=package)
        assert again["cached"] is cached
        runtime._store_entries(tmp_path / f"{n}.zip")  # (as build_runtime serves it)
        assert (tmp_path / f"{n}.zip").read_bytes() == out.read_bytes()
        completed.append(package.read_bytes())
    assert completed[0] == completed[1]


def test_without_node_the_stock_zip_stays(tmp_path, monkeypatch, capsys):
    dst = tmp_path / "vendor"
    monkeypatch.setattr(runtime.shutil, "which", lambda name: None)
    report = runtime.build_runtime(dst, quiet=True)
    assert report["mode"] == "stock"
    assert "stdlib precompile skipped" in capsys.readouterr().err
    manifest = report["manifest"]
    assert manifest["stdlib_mode"] == "stock" and manifest["snapshot"] is None
    # still named after its content
    digest = hashlib.sha256(STOCK.read_bytes()).hexdigest()
    assert manifest["stdlib"] == f"python_stdlib-{digest[:16]}.zip"
    assert (dst / manifest["stdlib"]).read_bytes() == STOCK.read_bytes()
    # (and downloaded as xz, as a precompiled one is)
    assert report["files"] == [dst / manifest["stdlib"], dst / manifest["stdlib_xz"]]
    assert lzma.decompress((dst / manifest["stdlib_xz"]).read_bytes()) == STOCK.read_bytes()


def test_app_imports_are_found():
    assert {"asyncio", "json"} <= set(runtime.app_stdlib_imports())  # shell.py
    mods = runtime.package_imports()
    assert "pygames" in mods and "pygames.yams" in mods
    assert "pygames.cli" not in mods and "pygames.__main__" not in mods
    # app modules with no browser import go into the snapshot; the others cannot
    pure = runtime.pure_app_modules()
    assert {"embed", "guard", "stats"} <= set(pure) and not {"shell", "dom"} & set(pure)
    json.dumps(runtime.precompile_args())


def _wasm_start(total: int, offset: int) -> bytes:
    """The snapshot image's bytes as the vendored wasm module starts its memory (its active
    data segments, the module's address a at *offset* + a), read here apart from the page's
    own reader (js/snapshot-inflate.mjs `initialMemory`)."""
    data = (runtime.PYODIDE_SRC / "pyodide.asm.wasm").read_bytes()
    image = bytearray(total + 2 * 4096)
    at = 8
    while at < len(data):
        section = data[at]
        size, at = runtime._uleb(data, at + 1)
        end = at + size
        if section == 11:
            count, at = runtime._uleb(data, at)
            for _ in range(count):
                flags, at = runtime._uleb(data, at)
                assert flags == 0 and data[at] == 0x41  # active, at an i32.const address
                address, at = runtime._uleb(data, at + 1)  # (positive and below 2**31 here)
                assert data[at] == 0x0B
                length, at = runtime._uleb(data, at + 1)
                image[offset + address:offset + address + length] = data[at:at + length]
                at += length
        at = end
    return bytes(image)


def _read_snapshot(path: Path) -> tuple[int, dict[int, bytes], int]:
    """(total length, {page index: page}, how many pages came from the wasm) of a
    snapshot-*.bin.xz (web/tools/runtime/snapshot.mjs): its stored pages, and those it names
    as the wasm module starts them."""
    import struct

    raw = lzma.decompress(path.read_bytes(), format=lzma.FORMAT_XZ)
    assert raw[:8] == b"PGSNAP2\0"
    total, page, count, based, offset = struct.unpack_from("<5I", raw, 8)
    index = struct.unpack_from(f"<{count + based}I", raw, 28)
    pages, base = index[:count], set(index[count:])
    assert base <= set(pages) and len(base) == based
    data = 28 + 4 * (count + based)
    assert len(raw) == data + (count - based) * page
    start = _wasm_start(total, offset)
    out, k = {}, 0
    for i in pages:
        if i in base:
            out[i] = start[i * page:(i + 1) * page]
        else:
            out[i] = raw[data + k * page:data + (k + 1) * page]
            k += 1
    return total, out, based


def test_build_runtime_names_files_by_content_and_snapshots_the_package(site_build):
    """The whole step as web/tools/build.py runs it: precompiled zip, game zip completed with its
    bytecode and PyScript's, memory snapshot made with both; all three named after their
    content."""
    import build  # web/tools/build.py

    tmp_path, before, report = site_build
    out, package = tmp_path / "vendor", tmp_path / build.PACKAGE_ZIP
    assert {"shell.py", "yams_view.py", "dom.py", "embed.py", "pygames/core.py"} <= before
    assert report["mode"] == "precompiled"
    manifest = report["manifest"]
    stdlib, pkg = out / manifest["stdlib"], tmp_path / manifest["package"]
    import tarfile
    digest = hashlib.sha256(stdlib.read_bytes()).hexdigest()
    assert manifest["stdlib_sha256"] == digest and manifest["stdlib_mode"] == "precompiled"
    assert manifest["stdlib"] == f"python_stdlib-{digest[:16]}.zip"
    pkg_digest = hashlib.sha256(pkg.read_bytes()).hexdigest()
    assert manifest["package"] == f"pygames-{pkg_digest[:16]}.tar.gz" == pkg.name
    assert not package.exists()  # served as the .tar.gz only
    snap = out / manifest["snapshot"]
    assert re.fullmatch(r"snapshot-[0-9a-f]{16}\.bin\.xz", snap.name)
    parts = {tmp_path / name for name in manifest["pages"].values()}
    assert set(manifest["pages"]) == set(build.page_roots()) and len(parts) == 4
    for page_id, name in {**manifest["pages"], "shared": manifest["shared"]}.items():
        digest = hashlib.sha256((tmp_path / name).read_bytes()).hexdigest()
        assert name == f"pygames-{page_id}-{digest[:16]}.tar.gz"
    # The standard library as the pages download it: xz of the zip, whose entries are stored
    # (xz compresses across them).
    packed = out / manifest["stdlib_xz"]
    assert packed.name == stdlib.name + ".xz"
    assert lzma.decompress(packed.read_bytes()) == stdlib.read_bytes()
    assert {i.compress_type for i in zipfile.ZipFile(stdlib).infolist()} == {zipfile.ZIP_STORED}
    assert packed.stat().st_size < 0.8 * len(gzip.compress(stdlib.read_bytes()))
    assert set(report["files"]) == {stdlib, packed, pkg, snap, *parts, tmp_path / manifest["shared"]}
    total, pages, based = _read_snapshot(snap)
    assert total > 16 * 2**20  # the wasm memory
    assert 0 < len(pages) * 4096 < total  # its zero pages are left out
    assert all(any(p) for p in pages.values())
    assert based > 500  # pages of static data the page copies from the wasm (819 in 314.0.7)
    # Pyodide restores it: its memory is no larger than the wasm's initial memory.
    limit = runtime.wasm_initial_memory(runtime.PYODIDE_SRC / "pyodide.asm.wasm")
    snap_report = report["snapshot"]
    assert snap_report["heap"] <= limit and snap_report["in_use"] <= snap_report["heap"]
    assert snap_report["heap"] + 128 == total  # (Pyodide's header: 128 bytes in 314)
    assert manifest["snapshot_modules"] > 150
    with tarfile.open(pkg) as tar:
        members = tar.getmembers()
        after = {m.name: tar.extractfile(m).read() for m in members}
    # reproducible: fixed dates, modes, owners; no gzip timestamp
    assert {(m.mtime, m.mode, m.uid, m.gid, m.isfile()) for m in members} == {
        (1577836800, 0o644, 0, 0, True)}
    assert pkg.read_bytes()[4:8] == b"\0\0\0\0"
    added = set(after) - before
    assert "pygames/__pycache__/core.cpython-314.pyc" in added
    assert "__pycache__/shell.cpython-314.pyc" in added
    assert "pygames/__pycache__/cli.cpython-314.pyc" not in added  # not imported by the page
    # PyScript's own package, compiled from the sources embedded in its core chunk.
    assert "pyscript/__pycache__/__init__.cpython-314.pyc" in added
    assert "pyscript/__pycache__/web.cpython-314.pyc" in added
    assert all(after[n][:4].hex() == report["magic"] for n in added)
    assert before <= set(after)  # the sources stay (tracebacks)
    assert report["pyscript_pyc"] >= 10


def _members(path: Path) -> dict[str, bytes]:
    import tarfile

    with tarfile.open(path) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers()}


def test_each_page_archive_holds_its_own_game_only(site_build):
    """A game page's archive: the shell, its view, its game and what they import (a bot or
    the advisor imported inside a function too), as bytecode without the sources where
    there is bytecode; PyScript's bytecode; not another game, not the CLI, not another
    view.  Every file of it is the complete archive's (same bytes)."""
    import build

    from pygames import FAMILIES, GAME_MODULES

    tmp_path, _, report = site_build
    manifest = report["manifest"]
    full = _members(tmp_path / manifest["package"])
    views = {f.view for f in FAMILIES.values()}
    shared = _members(tmp_path / manifest["shared"])
    # What every page has, once: the shell and the core, PyScript's bytecode; no game's own.
    assert {"shell.pyc", "pygames/core.pyc", "pyscript/__pycache__/web.cpython-314.pyc"} <= set(shared)
    assert not [n for n in shared if n.count("/") >= 2 and n.startswith("pygames/")
                and n.split("/")[1] != "__pycache__"], shared.keys()
    for page_id, name in manifest["pages"].items():
        own_part = _members(tmp_path / name)
        assert not set(own_part) & set(shared), page_id
        part = {**shared, **own_part}  # what the page writes
        own, view = GAME_MODULES[page_id], FAMILIES[page_id].view
        for mod in ("shell", view, "embed", "guard", "dom", "pygames/__init__",
                    "pygames/core", "pygames/dice", "pygames/messages", f"pygames/{own}/__init__",
                    f"pygames/{own}/rules", f"pygames/{own}/bots", f"pygames/{own}/messages"):
            assert f"{mod}.pyc" in part and f"{mod}.py" not in part, (page_id, mod)
            assert part[f"{mod}.pyc"] == full[f"{'/'.join(mod.split('/')[:-1] + ['__pycache__', ''])}"
                                              f"{mod.split('/')[-1]}.cpython-314.pyc"]
        assert "pyscript/__pycache__/web.cpython-314.pyc" in part
        modules = {n.rsplit("/", 1)[-1].split(".")[0] for n in part if not n.startswith("pyscript/")}
        packages = {n.split("/")[1] for n in part if n.startswith("pygames/") and n.count("/") >= 2
                    and n.split("/")[1] != "__pycache__"}
        assert packages == {own}, (page_id, packages)  # its own game's package, no other
        assert not modules & (views - {view}), page_id
        assert not {m for m in modules if m in ("cli", "solver") or m == "__main__"}, page_id
        for n, data in part.items():
            source = n if n.startswith("pyscript/") or not n.endswith(".pyc") else None
            assert source is None or full[source] == data, n
        # every module of the page's closure (lazy imports too) is there
        for mod in runtime.page_modules(build.page_roots()[page_id]):
            path = mod.replace(".", "/") if mod.startswith("pygames.") else mod
            path = "pygames/__init__" if mod == "pygames" else path
            if (ROOT / path).is_dir():
                path += "/__init__"
            assert f"{path}.py" in part or f"{path}.pyc" in part, (page_id, mod)
    yams = _members(tmp_path / manifest["pages"]["yams"])
    assert len(yams) < len(shared)  # (a page's own part is the smaller)
    assert "pygames/yams/tables.pyc" in yams and "pygames/yams/advisor.pyc" in yams
    linotte = _members(tmp_path / manifest["pages"]["linotte"])
    assert {"pygames/linotte/search.pyc", "pygames/linotte/weights.pyc"} <= set(linotte)
    # the numpy solver stays out of every page: the table's format is in tables.py
    assert not [n for p in manifest["pages"].values() for n in _members(tmp_path / p)
                if "solver" in n], "a page archive holds a solver"


def test_page_modules_follow_every_import():
    found = runtime.page_modules(["pygames.le421"])
    assert found == ["pygames", "pygames.core", "pygames.dice", "pygames.le421",
                     "pygames.le421.bots", "pygames.le421.messages", "pygames.le421.rules",
                     "pygames.le421.tables", "pygames.messages", "pygames.tables"]
    # lazy imports inside functions count; the CLI, named by a string, does not
    yams = runtime.page_modules(["pygames.yams"])
    assert {"pygames.yams.bots", "pygames.yams.advisor", "pygames.yams.tables"} <= set(yams)
    assert not [m for m in yams if m.endswith(".cli") or m.endswith(".solver")]
    assert runtime.page_modules(["no_such_module"]) == []


def test_snapshot_name_changes_with_a_page_archive(site_build, tmp_path):
    """The snapshot's name covers every page's archive too: the site's step again with one
    page's roots without its view, so that page's archive alone changes (the same game files,
    the same modules imported)."""
    import build

    _, _, site = site_build
    roots = build.page_roots()
    roots["yams"].remove("yams_view")
    package = build.zip_package(tmp_path)
    report = runtime.build_runtime(tmp_path / "vendor", package_zip=package, quiet=True,
                                   pages=roots)
    ours, theirs = report["manifest"], site["manifest"]
    assert ours["pages"]["yams"] != theirs["pages"]["yams"]
    assert ours["package"] == theirs["package"] and ours["stdlib"] == theirs["stdlib"]
    assert report["snapshot"]["modules"] == site["snapshot"]["modules"]
    assert None not in (ours["snapshot"], theirs["snapshot"])
    assert ours["snapshot"] != theirs["snapshot"]


def test_snapshot_name_changes_with_the_package(site_build, tmp_path):
    """The snapshot holds the package's modules: another package, another snapshot (the site's
    step again with one more file in the game zip)."""
    import build

    _, _, site = site_build
    package = build.zip_package(tmp_path)
    with zipfile.ZipFile(package, "a") as zf:
        zf.writestr("extra.py", "X = 1\n")
    report = runtime.build_runtime(tmp_path / "vendor", package_zip=package, quiet=True,
                                   pages=build.page_roots())
    ours, theirs = report["manifest"], site["manifest"]
    assert ours["package"] != theirs["package"] and ours["pages"] == theirs["pages"]
    assert None not in (ours["snapshot"], theirs["snapshot"])
    assert ours["snapshot"] != theirs["snapshot"]


#: xz-decompress's XzReadableStream, from node_modules (the page imports the build's copy).
XZ_IMPORT = f"""import {{ createRequire }} from "node:module";
const {{ XzReadableStream }} = createRequire({json.dumps(str(ROOT / "package.json"))})("xz-decompress");"""


def _node_module(module: str, body: str, paths: list[Path]) -> list[dict]:
    """Run *body* (JS: `result` of one file, given as `FILE`) with the exports of
    web/static/js/*module* in scope, in Node as the page would, on each of *paths* in turn (one
    Node for them all); for each, its JSON or {"error": message}."""
    script = f"""
import * as m from {json.dumps((ROOT / "web/static/js" / module).as_uri())};
import {{ readFileSync }} from "node:fs";
{XZ_IMPORT}
import {{ createHash }} from "node:crypto";
const sha256 = (data) => createHash("sha256").update(data).digest("hex");
const results = [];
for (const path of process.argv.slice(1)) {{
  const FILE = new Response(readFileSync(path));
  try {{
    {body}
    results.push(result);
  }} catch (err) {{
    results.push({{error: String(err)}});
  }}
}}
console.log(JSON.stringify(results));
"""
    proc = subprocess.run(["node", "--input-type=module", "-e", script, *map(str, paths)],
                          capture_output=True, text=True, timeout=120, check=True)
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(results) == len(paths)
    return results


def _node_read(*paths: Path) -> list[dict]:
    return _node_module("snapshot-inflate.mjs", f"""
    const wasm = readFileSync({json.dumps(str(runtime.PYODIDE_SRC / "pyodide.asm.wasm"))});
    const bytes = m.expand(m.withBase(await m.inflate(FILE, XzReadableStream), wasm));
    const result = {{length: bytes.length, sha256: sha256(bytes)}};""", list(paths))


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (comes with npm)")
def test_page_reader_rebuilds_the_memory_image(site_build, tmp_path):
    """web/static/js/snapshot-inflate.mjs (what the page runs) gives back the whole memory image,
    zero pages included, and refuses damaged files."""
    import struct

    work, _, report = site_build
    snap = work / "vendor" / report["manifest"]["snapshot"]
    total, pages, _ = _read_snapshot(snap)
    image = bytearray(total + 4096)
    for i, page in pages.items():
        image[i * 4096:(i + 1) * 4096] = page
    image = bytes(image[:total])
    raw = lzma.decompress(snap.read_bytes(), format=lzma.FORMAT_XZ)
    bad = []
    for n, damaged in enumerate((b"NOTSNAP!" + raw[8:],                       # another file
                                 raw[:-100],                                  # truncated
                                 raw[:16] + struct.pack("<I", 10**6) + raw[20:],  # page count too large
                                 raw[:20] + struct.pack("<I", 10**6) + raw[24:])):  # more from the wasm than in all
        bad.append(tmp_path / f"bad{n}.bin.xz")
        # (the fastest preset: only the bytes matter; the page's decoder reads any)
        bad[-1].write_bytes(lzma.compress(damaged, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=0))
    packed = snap.read_bytes()
    bad.append(tmp_path / "cut.bin.xz")
    bad[-1].write_bytes(packed[:-20])  # a cut download
    middle = len(packed) // 2  # a byte changed on the way (the xz check's CRC32)
    bad.append(tmp_path / "flipped.bin.xz")
    bad[-1].write_bytes(packed[:middle] + bytes([packed[middle] ^ 1]) + packed[middle + 1:])
    bad.append(tmp_path / "old.bin.gz")
    bad[-1].write_bytes(gzip.compress(raw, compresslevel=1))  # not xz (an older build's .gz)
    good, *refused = _node_read(snap, *bad)
    assert good == {"length": total, "sha256": hashlib.sha256(image).hexdigest()}
    for path, result in zip(bad, refused):
        assert "error" in result, path.name


NODE_RESTORE = """
import { expand, inflate, withBase } from %(inflate)s;
import { readFileSync } from "node:fs";
%(xz)s
const [dir, stdlib, snapshot] = process.argv.slice(1);
const { loadPyodide } = await import(%(pyodide)s);
const wasm = readFileSync(dir + "pyodide.asm.wasm");
const bytes = expand(withBase(await inflate(new Response(readFileSync(snapshot)), XzReadableStream), wasm));
const py = await loadPyodide({ indexURL: dir, stdLibURL: stdlib, _loadSnapshot: bytes });
console.log(py.runPython(`
import json, sys
from pygames.yams import Yams
json.dumps({"modules": sorted(sys.modules), "game": Yams().id,
            "cwd": __import__("os").getcwd()})`));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (comes with npm)")
def test_snapshot_restores_with_the_game_already_imported(site_build):
    """The snapshot restores (in Node, as the page does) with the pygames modules and the
    pure app modules imported, and nothing that holds a browser object."""
    work, _, report = site_build
    out = work / "vendor"
    names = report["manifest"]
    script = NODE_RESTORE % {
        "inflate": json.dumps((ROOT / "web/static/js/snapshot-inflate.mjs").as_uri()),
        "xz": XZ_IMPORT,
        "pyodide": json.dumps((runtime.PYODIDE_SRC / "pyodide.mjs").as_uri())}
    proc = subprocess.run(
        ["node", "--input-type=module", "-e", script, str(runtime.PYODIDE_SRC) + "/",
         str(out / names["stdlib"]), str(out / names["snapshot"])],
        capture_output=True, text=True, timeout=300, check=True)
    state = json.loads(proc.stdout.strip().splitlines()[-1])
    assert state["game"] == "yams" and state["cwd"] == "/home/pyodide"
    modules = set(state["modules"])
    assert {"pygames", "pygames.yams", "pygames.yams.bots", "pygames.yams.advisor", "embed"} <= modules
    assert not {"shell", "yams_view", "dom", "pyscript", "js", "pygames.cli"} & modules


def _wasm(*sections: tuple[int, bytes]) -> bytes:
    """A WebAssembly module of these (section id, content) only."""
    def leb(n: int) -> bytes:
        out = bytearray()
        while True:
            byte, n = n & 0x7F, n >> 7
            out.append(byte | (0x80 if n else 0))
            if not n:
                return bytes(out)
    return b"\0asm\1\0\0\0" + b"".join(bytes([i]) + leb(len(c)) + c for i, c in sections)


def test_the_initial_memory_is_read_from_the_wasm(tmp_path):
    """What Pyodide can restore: the initial size of the memory its wasm declares (section
    5) or imports (section 2, after other imports); the pinned one's is 30 MiB."""
    declared = tmp_path / "declared.wasm"
    declared.write_bytes(_wasm((1, b"\x00"), (5, b"\x01\x01\xe0\x03\x80\x80\x04")))  # 480 pages, max 65536
    assert runtime.wasm_initial_memory(declared) == 480 * 65536
    imported = tmp_path / "imported.wasm"
    imports = (b"\x03" + b"\x03env\x01f\x00\x00"            # a function
               + b"\x03env\x01t\x01\x70\x00\x02"          # a table
               + b"\x03env\x06memory\x02\x00\x90\x03")   # the memory: 400 pages, no maximum
    imported.write_bytes(_wasm((2, imports)))
    assert runtime.wasm_initial_memory(imported) == 400 * 65536
    none = tmp_path / "none.wasm"
    none.write_bytes(_wasm((1, b"\x00")))
    with pytest.raises(ValueError, match="no memory"):
        runtime.wasm_initial_memory(none)
    assert runtime.wasm_initial_memory(runtime.PYODIDE_SRC / "pyodide.asm.wasm") == 30 * 2**20


def test_a_snapshot_pyodide_cannot_restore_stops_the_build(site_build, tmp_path, monkeypatch):
    """pyodide issue #6254: a snapshot whose memory grew past the wasm's initial memory fails to
    restore, and every visit would boot the slow way without a word.  The guard, then the
    build: it stops with a message that says why and what to do."""
    runtime.check_snapshot_fits(30 * 2**20, 30 * 2**20)  # as today's: exactly the initial memory
    with pytest.raises(SystemExit, match=r"31,522,816 bytes .* more than the 31,457,280 bytes "
                                         r"\(30 MiB\) Pyodide can restore"):
        runtime.check_snapshot_fits(30 * 2**20 + 65536, 30 * 2**20)

    import build

    real = runtime.snapshot

    def grown(*args, **kwargs):
        report = real(*args, **kwargs)
        return {**report, "heap": report["heap"] + 65536}  # one more page of memory

    monkeypatch.setattr(runtime, "snapshot", grown)
    package = build.zip_package(tmp_path)
    with pytest.raises(runtime.SnapshotTooLarge, match="Import fewer modules"):
        # (site_build's inputs: its snapshot is cached)
        runtime.build_runtime(tmp_path / "vendor", package_zip=package, quiet=True,
                              pages=build.page_roots())


def _node_untar(*paths: Path) -> list[dict]:
    return _node_module("untar.mjs", """
    const files = await m.readTarGz(FILE);
    const result = Object.fromEntries(files.map((f) => [f.name, sha256(f.data)]));""", list(paths))


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (comes with npm)")
def test_page_reads_the_game_files_as_python_does(site_build, tmp_path):
    """web/static/js/untar.mjs (how the page gets the game's files) reads pygames-<hash>.tar.gz
    exactly as Python's tarfile does, and refuses damaged or unsafe archives."""
    import gzip
    import io
    import tarfile

    work, _, report = site_build
    pkg = work / report["manifest"]["package"]
    with tarfile.open(pkg) as tar:
        expected = {m.name: hashlib.sha256(tar.extractfile(m).read()).hexdigest()
                    for m in tar.getmembers()}
    assert "shell.py" in expected and "pygames/core.py" in expected

    raw = gzip.decompress(pkg.read_bytes())
    damaged_header = bytearray(raw)
    damaged_header[10] ^= 0xFF  # a name byte: the checksum no longer matches
    # a path leaving the working directory
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        entry = tarfile.TarInfo("../evil.py")
        entry.size = 1
        tar.addfile(entry, io.BytesIO(b"x"))
    bad = []
    for name, damaged in (("header", bytes(damaged_header)), ("cut", raw[:700]),
                          ("evil", buf.getvalue())):
        bad.append(tmp_path / f"{name}.tar.gz")
        bad[-1].write_bytes(gzip.compress(damaged, compresslevel=1))
    good, header, cut, evil = _node_untar(pkg, *bad)
    assert good == expected
    assert "error" in header and "error" in cut
    assert "unsafe" in evil["error"]


def test_the_cache_keeps_the_builds_last_used(tmp_path, monkeypatch):
    """The cache keeps 3 snapshots: the 3 last used, a hit counting as a use (the site's
    build, reused by the tests between others, stays cached)."""
    import os

    monkeypatch.setattr(runtime, "CACHE", tmp_path / "cache")
    made = []

    def node(args):  # snapshot.mjs, as far as the cache sees it: it writes its file
        Path(args[4]).write_bytes(b"snapshot")
        made.append(args[args.index("--import") + 1])
        return {"heap": 1}

    monkeypatch.setattr(runtime, "_run_node", node)
    stdlib, out = tmp_path / "stdlib.zip", tmp_path / "out"
    stdlib.write_bytes(b"stdlib")
    out.mkdir()

    def snap(module: str) -> bool:
        cached = runtime.snapshot(stdlib, None, [module], out)["cached"]
        for entry in runtime.CACHE.glob("snapshot-*.xz"):  # older by 10 s: no two uses alike
            then = entry.stat().st_mtime - 10
            os.utime(entry, (then, then))
        return cached

    assert [snap(m) for m in ("a", "b", "c")] == [False] * 3
    assert snap("a") is True  # a hit: "a" is now the last used
    assert snap("d") is False  # a fourth: the least recently used ("b") goes
    assert [snap(m) for m in ("a", "c", "d")] == [True] * 3
    assert snap("b") is False
    assert made == ["a", "b", "c", "d", "b"]
