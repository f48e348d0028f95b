"""The site under test: build dist/, serve it on 127.0.0.1, launch Chromium, record
requests, take screenshots, boot a bare Pyodide (e2e/conftest.py, the tests, e2e/bench/).

Everything here talks only to 127.0.0.1: the built site (dist/) is served by
web/tools/serve.py on a free port, under the sub-path ``/pygames/`` by default, as a
GitHub Pages project site would be.  web/tools/ must be importable (``build``, ``serve``):
pytest's ``pythonpath`` (pyproject.toml) puts it there, and e2e/bench/_paths.py for the
benchmark scripts.

Environment variables:

* ``PYGAMES_DIST_BUILT=1``  -- dist/ is already built (``make test`` builds it
  first); otherwise it is built once per session.
* ``PYGAMES_DIST``          -- the build directory to test (default: dist/).
* ``PYGAMES_SITE_PREFIX``   -- URL sub-path to serve the site under
  (default ``/pygames/``; use ``/`` for the root).
* ``PYGAMES_CHROMIUM``      -- Chromium executable; default /usr/bin/chromium
  when it exists, else Playwright's own browser (``playwright install
  chromium``); the value ``playwright`` forces Playwright's own browser.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import build  # web/tools/build.py
import serve  # web/tools/serve.py

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
#: The built site; PYGAMES_DIST may name another build (e.g. one of several working copies).
DIST = Path(os.environ.get("PYGAMES_DIST") or ROOT / "dist").resolve()
ARTIFACTS = ROOT / "e2e" / "artifacts"

SYSTEM_CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    # Shared memory in /tmp rather than /dev/shm, which a container may cap at 64 MB: a page
    # running Pyodide (and its expert's worker) then crashes ("Target crashed").
    "--disable-dev-shm-usage",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
# Schemes that never reach the network.
LOCAL_SCHEMES = {"data", "blob", "about", "chrome", "chrome-extension", "devtools"}

#: Throw-away pages served from memory at the root of the site (same origin,
#: same relative URLs as a real page of web/); never part of dist/.
BLANK_PAGE = "__e2e_blank__.html"
PYSCRIPT_PAGE = "__e2e_pyscript__.html"


def runtime_names(dist: Path = DIST) -> dict:
    """The content-named runtime files of a build (build-info.json's ``runtime``):
    ``stdlib``, ``package`` (pygames-<hash>.tar.gz), ``snapshot`` (or None), ..."""
    return json.loads((dist / "build-info.json").read_text(encoding="utf-8"))["runtime"]


def test_pages() -> dict[str, bytes]:
    """The throw-away pages (they name this build's files)."""
    package = runtime_names()["package"]
    return {
        BLANK_PAGE: b"<!doctype html><html><head><meta charset='utf-8'>"
                    b"<title>blank</title></head><body></body></html>",
        # The minimal PyScript page: vendored interpreter, the game's files unpacked by
        # PyScript's `files`, then `import pygames`.
        PYSCRIPT_PAGE: f"""<!doctype html><html><head><meta charset="utf-8"><title>pyscript smoke</title>
<link rel="stylesheet" href="./{PYSCRIPT_DIR}/core.css">
<script type="module" src="./{PYSCRIPT_DIR}/core.js"></script></head><body>
<script type="py" config='{{"interpreter": "./js/pyodide-fast.mjs", "files": {{"./{package}": "./*"}}}}'>
import sys
from pyscript import document
import pygames
document.body.dataset.status = "ok " + sys.version.split()[0] + " " + ",".join(pygames.__path__)
</script></body></html>""".encode(),
    }



PYODIDE_DIR = build.PYODIDE_DIR
PYSCRIPT_DIR = build.PYSCRIPT_DIR
PYODIDE_MJS = f"{build.PYODIDE_DIR}/pyodide.mjs"
PYSCRIPT_CORE = f"{build.PYSCRIPT_DIR}/core.js"


# -- browser ------------------------------------------------------------------
def chromium_launch_kwargs(headless: bool = True) -> dict:
    """kwargs for ``playwright.chromium.launch()``."""
    kwargs: dict = {"headless": headless, "args": list(CHROMIUM_ARGS)}
    exe = os.environ.get("PYGAMES_CHROMIUM")
    if exe == "playwright":  # force Playwright's own browser (CI)
        return kwargs
    if exe:
        kwargs["executable_path"] = exe
    elif SYSTEM_CHROMIUM.exists():
        kwargs["executable_path"] = str(SYSTEM_CHROMIUM)
    return kwargs


# -- site -----------------------------------------------------------------------
def ensure_built(force: bool = False) -> Path:
    """Build dist/ unless PYGAMES_DIST_BUILT=1 says it is up to date.  Under pytest-xdist
    the workers build once per run: the first takes a lock and builds, the others wait
    and find the run's stamp."""
    if not force and os.environ.get("PYGAMES_DIST_BUILT") == "1" and (DIST / PYODIDE_MJS).is_file():
        return DIST
    import fcntl

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    stamp = ARTIFACTS / "dist-built-for-run"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "dist-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if run and not force and stamp.is_file() and stamp.read_text() == run:
            return DIST
        build.build(DIST, quiet=True)
        if run:
            stamp.write_text(run)
    return DIST


def site_prefix() -> str:
    return serve.normalise_prefix(os.environ.get("PYGAMES_SITE_PREFIX", "/pygames/"))


def start_site(extra_files: dict[str, bytes] | None = None, prefix: str | None = None):
    """Serve dist/ (with the test pages) on a free port: ``(server, site_url)``."""
    pages = test_pages()
    pages.update(extra_files or {})
    return serve.start_server(DIST, prefix=prefix or site_prefix(), extra_files=pages)


def at_origin(page, site_url: str) -> None:
    """Open the site's blank page: its origin's storage can then be set before a game page
    is opened (no need to start Python for that)."""
    page.goto(site_url + BLANK_PAGE)


def empty_site(context, site_url: str) -> None:
    """Close every page of a browser context and empty the site's localStorage and
    IndexedDB there (its caches and service worker stay: a returning visitor with no game).
    The clearing goes through a blank page kept open in the context, with its DevTools
    session.  As another tab would, it keeps the context from being left with no page, so
    the browser keeps the site's processes (its service worker's among them) for the next
    test: a page is then ready in ~0.7 s rather than ~1.0 s."""
    keeper = getattr(context, "_e2e_keeper", None)
    if keeper is None or keeper[0].is_closed():
        page = context.new_page()
        keeper = context._e2e_keeper = (page, context.new_cdp_session(page))
    for page in list(context.pages):
        if page is not keeper[0]:
            page.close()
    parts = urllib.parse.urlsplit(site_url)
    keeper[1].send("Storage.clearDataForOrigin", {"origin": f"{parts.scheme}://{parts.netloc}",
                                                  "storageTypes": "local_storage,indexeddb"})


def stop_site(server) -> None:
    server.shutdown()
    server.server_close()


# -- request recording ------------------------------------------------------------
def is_local_url(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in {"http", "https", "ws", "wss"} and parts.hostname in LOCAL_HOSTS


def record_console(page) -> None:
    """Keep a page's last console errors and warnings, and its uncaught errors, in
    ``page._e2e_console`` (once per page)."""
    if hasattr(page, "_e2e_console"):
        return
    page._e2e_console = said = collections.deque(maxlen=12)
    page.on("console", lambda m: said.append(f"{m.type}: {m.text[:300]}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: said.append(f"uncaught: {str(e)[:300]}"))


@dataclass
class RequestLog:
    """Every request made by a page/context, in order (url, method, resource type)."""

    requests: list[tuple[str, str, str]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)
    #: URLs requested by a service worker (its precache), not by a page.
    worker_urls: list[str] = field(default_factory=list)

    def attach(self, target) -> "RequestLog":
        """Record requests of a Playwright Page or BrowserContext (a context
        also sees popups, workers and service workers); and what its pages say in their
        console (errors and warnings: wait_ready's message when a page never gets ready)."""
        target.on("request", self._record)
        target.on("requestfailed", self._failed)
        if hasattr(target, "pages"):
            for page in target.pages:
                record_console(page)
            target.on("page", record_console)
        else:
            record_console(target)
        return self

    def detach(self, target) -> None:
        """Stop recording (a context shared by several tests keeps no old listener)."""
        target.remove_listener("request", self._record)
        target.remove_listener("requestfailed", self._failed)
        if hasattr(target, "pages"):  # (the pages keep their console record: it is theirs)
            target.remove_listener("page", record_console)

    def _failed(self, request) -> None:
        self.failures.append((request.url, request.failure or ""))

    def _record(self, request) -> None:
        self.requests.append((request.url, request.method, request.resource_type))
        if getattr(request, "service_worker", None) is not None:
            self.worker_urls.append(request.url)

    def page_matching(self, pattern: str) -> list[str]:
        """Like `matching`, without the service worker's own requests (its precache
        runs whenever the worker installs, which races with the page)."""
        rx = re.compile(pattern)
        worker = list(self.worker_urls)
        out = []
        for u in self.urls:
            if rx.search(u):
                if u in worker:
                    worker.remove(u)
                else:
                    out.append(u)
        return out

    @property
    def urls(self) -> list[str]:
        return [u for u, _, _ in self.requests]

    def external(self) -> list[str]:
        return [u for u in self.urls if not is_local_url(u)]

    def assert_all_local(self) -> None:
        ext = self.external()
        assert not ext, f"{len(ext)} request(s) left 127.0.0.1/localhost:\n  " + "\n  ".join(ext)

    def matching(self, pattern: str) -> list[str]:
        rx = re.compile(pattern)
        return [u for u in self.urls if rx.search(u)]

    def clear(self) -> None:
        self.requests.clear()
        self.failures.clear()
        self.worker_urls.clear()


@contextlib.contextmanager
def local_context(browser, init_script: str | None = None, **kwargs):
    """A new browser context (a first visit) whose every request must stay on this machine:
    checked when it closes, even after a failure."""
    context = browser.new_context(**kwargs)
    if init_script:
        context.add_init_script(init_script)
    log = RequestLog().attach(context)
    try:
        yield context
    finally:
        context.close()
        log.assert_all_local()


# -- screenshots ----------------------------------------------------------------
def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a PNG under e2e/artifacts/ (gitignored, uploaded by CI)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "screenshot"
    path = ARTIFACTS / (safe if safe.endswith(".png") else safe + ".png")
    page.screenshot(path=str(path), full_page=full_page)
    return path


# -- bare Pyodide boot -------------------------------------------------------------
#: JS run in the page: import the vendored pyodide.mjs, boot, run ``1+1``.
#: Optionally write the game's files (as the site does) and run some Python.  ``stdLibURL``: the build's
#: content-named standard library (null: Pyodide's default python_stdlib.zip).  Times in ms from the
#: start of the evaluation (performance.now()).
BOOT_JS = """
async ([mjsUrl, zipUrl, code, stdLibURL]) => {
  const t0 = performance.now();
  const { loadPyodide } = await import(mjsUrl);
  const tImport = performance.now();
  const py = await loadPyodide(stdLibURL ? { stdLibURL } : {});
  const tLoaded = performance.now();
  const two = py.runPython("1+1");
  const tReady = performance.now();
  let result = null, tZip = tReady, tCode = tReady;
  if (zipUrl) {
    // As the site does (js/pyodide-fast.mjs): read in JS, written into the cwd, on sys.path.
    const { readTarGz } = await import(new URL("js/untar.mjs", zipUrl).href);
    for (const { name, data } of await readTarGz(await fetch(zipUrl))) {
      const path = py.FS.cwd() + "/" + name;
      py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      py.FS.writeFile(path, data);
    }
    tZip = performance.now();
  }
  if (code) {
    const r = py.runPython(code);
    result = (r && typeof r.toJs === "function") ? r.toJs() : r;
    tCode = performance.now();
  }
  return {
    two, result, version: py.version,
    // performance.now() is measured from the navigation start of the page:
    // time from navigation until Python answered 1+1.
    nav_ready_ms: tReady,
    import_ms: tImport - t0, load_ms: tLoaded - t0, ready_ms: tReady - t0,
    zip_ms: tZip - tReady, code_ms: tCode - tZip,
  };
}
"""


def boot_pyodide(page, site_url: str, *, with_package: bool = False, code: str | None = None,
                 goto_blank: bool = True, timeout_ms: int = 120_000) -> dict:
    """Boot Pyodide from the vendored files in *page* (on a blank page of the
    served site) and run ``1+1``; returns timings in ms (``ready_ms``: from the
    start of the import until Python answered) plus the wall time
    ``wall_ms`` including the navigation."""
    t0 = time.perf_counter()
    if goto_blank:
        page.goto(site_url + BLANK_PAGE)
    page.set_default_timeout(timeout_ms)
    names = runtime_names()
    zip_url = site_url + names["package"] if with_package else None
    stdlib = f"{site_url}{PYODIDE_DIR}/{names['stdlib']}"
    out = page.evaluate(BOOT_JS, [site_url + PYODIDE_MJS, zip_url, code, stdlib])
    out["wall_ms"] = (time.perf_counter() - t0) * 1000
    if out.get("two") != 2:
        raise AssertionError(f"Pyodide did not compute 1+1: {out!r}")
    return out
