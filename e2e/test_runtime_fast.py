"""The site boots Pyodide from the precompiled standard library (web/runtime/).

* a bare boot of the vendored files imports pygames with every standard-library
  module coming from bytecode;
* the Yams page, once ready, has loaded no standard-library module from source
  (a module missing from the hot set -- e.g. a new import in PyScript or in the
  app -- fails here, with its name: add it to runtime.BROWSER_EXTRA);
* the dice still draw from fresh entropy (``secrets``).
"""

from __future__ import annotations

import json
import zipfile

import pytest

import siteharness

# Which modules came from the stdlib zip, and from what kind of file.  Frozen
# modules (os, io, site, ...) carry a __file__ in the zip but are never read.
LOADED_FROM_ZIP = r"""
import json, sys
zipname = next(p for p in sys.path if p.endswith(".zip"))
out = {}
for name, mod in list(sys.modules.items()):
    spec = getattr(mod, "__spec__", None)
    if getattr(spec, "origin", None) == "frozen":
        continue
    f = getattr(mod, "__file__", None) or ""
    if f.startswith(zipname + "/"):
        out[name] = f[len(zipname) + 1:]
json.dumps(out)
"""

HOOK = """<script type="module">
import { hooks } from "./vendor/pyscript/core.js";
hooks.main.onReady.add((wrap) => { window.__e2ePy = wrap.interpreter; });
</script>"""
PAGE = "__e2e_runtime_yams__.html"


def test_stdlib_in_dist_is_precompiled(dist_dir):
    with zipfile.ZipFile(dist_dir / "vendor/pyodide/python_stdlib.zip") as zf:
        names = zf.namelist()
    assert "json/__init__.pyc" in names and "json/__init__.py" not in names
    assert sum(n.endswith(".pyc") for n in names) > 100


def test_bare_boot_imports_pygames_from_bytecode(page, site_url, request_log):
    code = ("import pygames, pygames.bots, pygames.yams, secrets\n" + LOADED_FROM_ZIP)
    out = siteharness.boot_pyodide(page, site_url, with_package=True, code=code)
    loaded = json.loads(out["result"])
    assert len(loaded) > 100, loaded
    source = sorted(n for n, f in loaded.items() if not f.endswith(".pyc"))
    assert not source, f"standard-library modules compiled from source at boot: {source}"
    for mod in ("json", "dataclasses", "secrets", "asyncio", "_pyodide._base"):
        assert loaded[mod].endswith(".pyc"), mod


@pytest.fixture(scope="module")
def hooked_site(dist_dir):
    html = (dist_dir / "yams.html").read_text(encoding="utf-8")
    marker = '<script type="module" src="vendor/pyscript/core.js"></script>'
    assert marker in html
    html = html.replace(marker, HOOK + marker)
    server, url = siteharness.start_site({PAGE: html.encode()})
    yield url
    siteharness.stop_site(server)


def test_yams_page_loads_no_stdlib_module_from_source(page, hooked_site, request_log):
    page.goto(hooked_site + PAGE + "?fresh=1&seed=runtime")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=90_000)
    assert page.evaluate("typeof window.pygamesReadyAt") == "number"
    page.click("#start")
    page.click("#roll")
    loaded = json.loads(page.evaluate("(c) => window.__e2ePy.runPython(c)", LOADED_FROM_ZIP))
    source = sorted(f"{n} ({f})" for n, f in loaded.items() if not f.endswith(".pyc"))
    assert not source, ("the page compiled these standard-library modules from source; add "
                        f"them to web/runtime BROWSER_EXTRA: {source}")
    # PyScript's package came with its bytecode (vendor/pyodide/pyscript-pyc.zip).
    assert page.evaluate("""() => window.__e2ePy.runPython(
        "import os, pyscript.web; os.path.isfile(pyscript.web.__cached__)")""")
    # Fresh entropy for the dice: two draws of secrets differ, and urandom works.
    a, b = page.evaluate("""() => window.__e2ePy.runPython(
        "import secrets, os; [secrets.token_hex(16), os.urandom(16).hex()]").toJs()""")
    assert a != b and len(a) == len(b) == 32


# -- memory snapshot (web/runtime/snapshot.mjs + web/js/pyodide-fast.mjs) ---------------------
def _runtime_manifest(dist_dir):
    return json.loads((dist_dir / "vendor/pyodide/runtime.json").read_text())


def test_runtime_manifest_names_the_snapshot_of_this_zip(dist_dir):
    import hashlib
    manifest = _runtime_manifest(dist_dir)
    zip_bytes = (dist_dir / "vendor/pyodide/python_stdlib.zip").read_bytes()
    assert manifest["stdlib_sha256"] == hashlib.sha256(zip_bytes).hexdigest()
    assert manifest["snapshot"], "the build made no snapshot"
    snap = dist_dir / "vendor/pyodide" / manifest["snapshot"]
    assert snap.read_bytes()[:2] == b"\x1f\x8b" and 2e6 < snap.stat().st_size < 8e6
    assert json.loads((dist_dir / "pyscript.json").read_text())["interpreter"] == \
        "./js/pyodide-fast.mjs"


def _ready(page, url):
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=90_000)
    return page.evaluate("window.pygamesBoot")


CACHE_SNAPSHOT = """async (name) => {
  const url = new URL("vendor/pyodide/" + name, location.href).href;
  const cache = await caches.open("e2e-runtime");
  await cache.add(url);
  return url;
}"""

DRAWS = """() => window.__e2ePy.runPython(
  "import random, secrets; [random.random(), secrets.token_hex(8)]").toJs()"""


def test_first_visit_plain_then_snapshot_restore(context, hooked_site, dist_dir, request_log):
    """A first visit never downloads the snapshot; once it is in Cache Storage (the
    service worker puts it there), the next visit restores it: the game works, and the
    dice/random state are fresh at each restore."""
    manifest = _runtime_manifest(dist_dir)
    page = context.new_page()
    boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=snap")
    assert boot["mode"] == "plain", boot
    assert not request_log.matching(r"snapshot-.*\.gz"), "a first visit fetched the snapshot"
    page.evaluate(CACHE_SNAPSHOT, manifest["snapshot"])
    page.close()

    draws = []
    for _ in range(2):
        page = context.new_page()
        boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=snap")
        assert boot["mode"] == "snapshot", boot
        assert page.evaluate("typeof window.pygamesReadyAt") == "number"
        page.click("#start")
        page.click("#roll")
        page.wait_for_function("document.querySelectorAll('#dice > *').length === 5")
        draws.append(page.evaluate(DRAWS))
        loaded = json.loads(page.evaluate("(c) => window.__e2ePy.runPython(c)", LOADED_FROM_ZIP))
        assert not [n for n, f in loaded.items() if not f.endswith(".pyc")]
        page.close()
    (r1, s1), (r2, s2) = draws
    assert r1 != r2, "random was not reseeded after the snapshot restore"
    assert s1 != s2


def test_snapshot_of_another_zip_is_not_restored(context, dist_dir):
    """runtime.json naming another zip (a stale cache after a deploy): ordinary boot."""
    manifest = dict(_runtime_manifest(dist_dir), stdlib_sha256="0" * 64)
    html = (dist_dir / "yams.html").read_text(encoding="utf-8")
    server, url = siteharness.start_site({
        "vendor/pyodide/runtime.json": json.dumps(manifest).encode(),
        PAGE: html.replace('<script type="module" src="vendor/pyscript/core.js">',
                           HOOK + '<script type="module" src="vendor/pyscript/core.js">').encode(),
    })
    try:
        page = context.new_page()
        _ready(page, url + PAGE + "?fresh=1")
        page.evaluate(CACHE_SNAPSHOT, manifest["snapshot"])
        page.close()
        page = context.new_page()
        boot = _ready(page, url + PAGE + "?fresh=1")
        assert boot["mode"] == "plain" and "differs" in boot.get("skipped", ""), boot
    finally:
        siteharness.stop_site(server)


def test_pygames_zip_carries_bytecode_for_startup_modules(dist_dir):
    with zipfile.ZipFile(dist_dir / "pygames.zip") as zf:
        names = set(zf.namelist())
    for mod in ("__init__", "core", "yams"):
        assert f"pygames/{mod}.py" in names
        assert f"pygames/__pycache__/{mod}.cpython-314.pyc" in names, mod
