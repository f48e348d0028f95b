"""web/static/js/runtime-internals.mjs holds every use of Pyodide's and PyScript's private or
undocumented behaviour: each name it relies on must still be in the vendored files (an
upgrade that drops one fails here, before any browser test), and nothing else in the site
may use them directly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INTERNALS = ROOT / "web" / "static" / "js" / "runtime-internals.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "dist"

def _list(name: str) -> list[str]:
    text = INTERNALS.read_text(encoding="utf-8")
    body = re.search(rf"export const {name} = \[(.*?)\];", text, re.S).group(1)
    return re.findall(r'"([^"]+)"', body)


def _pyscript_core() -> str:
    return "".join(p.read_text(encoding="utf-8", errors="replace") for p in PYSCRIPT.glob("core-*.js"))


@pytest.mark.parametrize("message", _list("PYSCRIPT_PROGRESS"))
def test_pyscript_still_sends_the_progress_messages_the_page_reads(message):
    core = _pyscript_core()
    assert '"py:progress"' in core  # PROGRESS_EVENT
    assert f'"{message}"' in core or f"`{message}`" in core or f"'{message}'" in core, message


@pytest.mark.parametrize("name, where", [
    ("_loadSnapshot", "pyodide.mjs"),
    ("_makeSnapshot", "pyodide.asm.mjs"),
    ("makeMemorySnapshot", "pyodide.asm.mjs"),
    ("wasm instantiation failed", "pyodide.mjs"),
    ("mkdirTree", "pyodide.asm.mjs"),
])
def test_pyodide_still_has_the_private_names_we_use(name, where):
    assert name in INTERNALS.read_text(encoding="utf-8")
    assert name in (PYODIDE / where).read_text(encoding="utf-8", errors="replace"), name


def test_pyscript_still_exports_the_worker_hooks_the_page_empties():
    """js/runtime-internals.mjs, 6: core.js exports `hooks`, whose worker hooks PyScript
    compiles with Function() and fills with one of its own (onBeforeRunAsync); the
    interpreter wrapper empties them before it returns the interpreter."""
    assert "dropWorkerHooks" in INTERNALS.read_text(encoding="utf-8")
    assert re.search(r"\bas hooks\b", (PYSCRIPT / "core.js").read_text(encoding="utf-8"))
    source = (PYSCRIPT.parent / "src" / "hooks.js").read_text(encoding="utf-8")
    worker = source[source.index("worker: {"):]
    assert "onBeforeRunAsync: new SetFunction([" in worker and "Function(`return(w,x)=>" in source
    fast = (ROOT / "web" / "static" / "js" / "pyodide-fast.mjs").read_text(encoding="utf-8")
    load = fast[fast.index("export async function loadPyodide"):]
    assert load.index("dropWorkerHooks(") < load.index("return ")


def test_only_the_internals_module_uses_them():
    private = re.compile(r"_loadSnapshot|_makeSnapshot|makeMemorySnapshot|wasm instantiation failed\"|\"py:progress\"")
    users = []
    for path in [*(ROOT / "web" / "static" / "js").glob("*.*js"), *(ROOT / "web" / "tools" / "runtime").glob("*.mjs")]:
        if path != INTERNALS and private.search(path.read_text(encoding="utf-8")):
            users.append(path.name)
    assert users == []


def test_the_own_progress_messages_are_sent_by_the_interpreter_wrapper():
    fast = (ROOT / "web" / "static" / "js" / "pyodide-fast.mjs").read_text(encoding="utf-8")
    for message in _list("OWN_PROGRESS"):
        assert f'"{message}"' in fast, message
