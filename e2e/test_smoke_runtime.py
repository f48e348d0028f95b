"""Smoke tests of the vendored browser runtime: dist/ serves Pyodide and
PyScript with the right MIME types, and both boot in headless Chromium with no
request leaving 127.0.0.1, importing `pygames` from the game's files (pygames-<hash>.tar.gz)."""

from __future__ import annotations

import json
import re
import tarfile
import urllib.request

import build
from harness import site
from harness.pages import BOOT_TIMEOUT_MS

#: The runtime's versions as package.json pins them: exactly (no range), and what the build
#: vendors and the page runs.
PINNED = json.loads((build.ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]

# Every file a boot of the vendored Pyodide requests (checked below, so that a
# new Pyodide release asking for more files is noticed), plus the build's standard library.
PYODIDE_BOOT_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"}


def _head(url: str) -> tuple[int, str]:
    req = urllib.request.Request(url, method="GET")
    with urllib.request.urlopen(req, timeout=10) as resp:
        resp.read()
        return resp.status, resp.headers.get("Content-Type", "").split(";")[0].strip()


def test_runtime_files_are_served_with_the_right_mime_types(site_url):
    names = site.runtime_names()
    pyodide, pyscript = build.PYODIDE_DIR, build.PYSCRIPT_DIR
    expected = {
        f"{pyodide}/pyodide.mjs": "text/javascript",
        f"{pyodide}/pyodide.asm.mjs": "text/javascript",
        f"{pyodide}/pyodide.asm.wasm": "application/wasm",
        f"{pyodide}/{names['stdlib']}": "application/zip",
        f"{pyodide}/pyodide-lock.json": "application/json",
        f"{pyscript}/core.js": "text/javascript",
        f"{pyscript}/core.css": "text/css",
        names["package"]: "application/gzip",
        "build-info.json": "application/json",
        "js/pyodide-fast.mjs": "text/javascript",
        "js/snapshot-worker.mjs": "text/javascript",
    }
    got = {path: _head(site_url + path) for path in expected}
    assert got == {path: (200, mime) for path, mime in expected.items()}


def test_dist_holds_every_module_and_the_pinned_runtime(dist_dir):
    modules = [p.relative_to(build.ROOT).as_posix() for p in build.package_modules()]
    assert "pygames/__init__.py" in modules
    package = site.runtime_names(dist_dir)["package"]
    assert re.fullmatch(r"pygames-[0-9a-f]{16}\.tar\.gz", package)
    with tarfile.open(dist_dir / package) as tar:
        names = tar.getnames()
    # The package and, at the top, the page's own modules (web/app/*.py, and web/worker/*.py
    # for its Python in a worker); not in dist/app/.
    app_py = sorted(p.name for folder in ("app", "worker") for p in (build.WEB / folder).glob("*.py"))
    assert sorted(n for n in names if n.endswith(".py")) == sorted(modules + app_py)
    assert not (dist_dir / "app").exists()
    # Besides the sources: the start-up modules' bytecode (web/runtime/), that of the
    # page's modules, and that of PyScript's own package.
    pyc = {f"{m.rpartition('/')[0]}/__pycache__/{m.rpartition('/')[2][:-3]}.cpython-314.pyc"
           for m in modules}
    app = {f"__pycache__/{n[:-3]}.cpython-314.pyc" for n in app_py}
    pyscript = {n for n in names if re.fullmatch(r"pyscript/__pycache__/\w+\.cpython-314\.pyc", n)}
    assert len(pyscript) >= 10
    assert set(names) - set(modules) - set(app_py) <= pyc | app | pyscript
    assert {f"__pycache__/{m}.cpython-314.pyc" for m in ("shell", "yams_view", "dom", "embed")} <= set(names)
    info = json.loads((dist_dir / "build-info.json").read_text())
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", PINNED[p]) for p in ("pyodide", "@pyscript/core"))
    assert info["pyodide"]["version"] == PINNED["pyodide"] == build.locked_version("pyodide")
    assert info["pyscript"]["version"] == PINNED["@pyscript/core"] == build.locked_version("@pyscript/core")
    for name in build.PYSCRIPT_ENTRIES:
        assert (dist_dir / build.PYSCRIPT_DIR / name).is_file()
    assert not list(dist_dir.rglob("*.map")), "source maps are not shipped"
    assert not (dist_dir / "build.py").exists() and not (dist_dir / "serve.py").exists()


IMPORT_ALL = """
import importlib, pkgutil, sys
import pygames
names = ["pygames"] + [m.name for m in pkgutil.walk_packages(pygames.__path__, "pygames.")
                       if not m.name.endswith(("__main__", "cli"))]  # (the CLI's argparse is not in the site's stdlib)
for name in names:
    importlib.import_module(name)
(sys.version.split()[0], sorted(names))
"""


def test_bare_pyodide_boots_from_vendored_files_and_imports_pygames(page, site_url, request_log,
                                                                     screenshot):
    out = site.boot_pyodide(page, site_url, with_package=True, code=IMPORT_ALL)
    version, names = out["result"]
    assert version.startswith("3.14.")
    assert out["version"] == PINNED["pyodide"]
    expected = sorted(
        p.relative_to(build.ROOT).with_suffix("").as_posix().replace("/", ".").removesuffix(".__init__")
        for p in build.package_modules() if p.name != "__main__.py" and not p.stem.endswith("cli")
    )
    assert names == expected
    request_log.assert_all_local()
    requested = {u.rsplit("/", 1)[1] for u in request_log.matching(f"/{build.PYODIDE_DIR}/")}
    assert requested == PYODIDE_BOOT_FILES | {site.runtime_names()["stdlib"]}
    screenshot(page, "smoke_bare_pyodide")


def test_pyscript_page_boots_with_vendored_interpreter_and_package_zip(page, site_url,
                                                                      request_log, screenshot):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url + site.PYSCRIPT_PAGE)
    page.wait_for_function("() => document.body.dataset.status", timeout=BOOT_TIMEOUT_MS)
    status = page.evaluate("document.body.dataset.status")
    assert status.startswith("ok 3.14."), status
    assert status.endswith("/home/pyodide/pygames")
    assert not errors
    request_log.assert_all_local()
    assert request_log.matching(f"/{build.PYODIDE_DIR}/" + r"pyodide\.asm\.wasm$")
    assert request_log.matching("/" + site.runtime_names()["package"] + "$")
    screenshot(page, "smoke_pyscript")
