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
    # Fresh entropy for the dice: two draws of secrets differ, and urandom works.
    a, b = page.evaluate("""() => window.__e2ePy.runPython(
        "import secrets, os; [secrets.token_hex(16), os.urandom(16).hex()]").toJs()""")
    assert a != b and len(a) == len(b) == 32
