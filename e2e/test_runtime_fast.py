"""The site boots Pyodide from the precompiled standard library (web/runtime/).

* a bare boot of the vendored files imports pygames with every standard-library
  module coming from bytecode;
* the Yams page, once ready, has loaded no standard-library module from source
  (a module missing from the hot set -- e.g. a new import in PyScript or in the
  app -- fails here, with its name: add it to runtime.BROWSER_EXTRA);
* every game page downloads and writes its own game files only (pygames-<id>-<hash>.tar.gz)
  and, on a first visit, imports its own game only;
* the dice still draw from fresh entropy (``secrets``).
"""

from __future__ import annotations

import json
import lzma
import re
import tarfile
import zipfile

import pytest
from harness import site
from harness.pages import BOOT_TIMEOUT_MS, GAME_PAGES, GamePage, js_global, mark_unready, read_global, wait_ready

from pygames import GAME_MODULES

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

HOOK = f"""<script type="module">
import {{ hooks }} from "./{site.PYSCRIPT_DIR}/core.js";
hooks.main.onReady.add((wrap) => {{ window.__e2ePy = wrap.interpreter; }});
</script>"""
#: Where the hook goes: before the module that starts Python (js/worker-page.mjs).
CORE = '<script type="module" src="js/worker-page.mjs"'
#: These pages start Python on the page (``?page``, js/pyodide-fast.mjs and PyScript: what
#: these tests look at), whatever their address says.
ON_THE_PAGE = """<script>
if (!new URLSearchParams(location.search).has("page"))
  history.replaceState(null, "", location.pathname + (location.search ? location.search + "&page" : "?page"));
</script>
"""
PAGE = "__e2e_runtime_yams__.html"


def hooked_page(family: str) -> str:
    return PAGE if family == "yams" else f"__e2e_runtime_{family}__.html"


def test_stdlib_in_dist_is_precompiled(dist_dir):
    stdlib = site.runtime_names(dist_dir)["stdlib"]
    with zipfile.ZipFile(dist_dir / site.PYODIDE_DIR / stdlib) as zf:
        names = zf.namelist()
    assert "json/__init__.pyc" in names and "json/__init__.py" not in names
    assert sum(n.endswith(".pyc") for n in names) > 100


def test_bare_boot_imports_pygames_from_bytecode(page, site_url, request_log):
    code = ("import pygames, pygames.bots, pygames.yams, secrets\n" + LOADED_FROM_ZIP)
    out = site.boot_pyodide(page, site_url, with_package=True, code=code)
    loaded = json.loads(out["result"])
    assert len(loaded) > 100, loaded
    source = sorted(n for n, f in loaded.items() if not f.endswith(".pyc"))
    assert not source, f"standard-library modules compiled from source at boot: {source}"
    for mod in ("json", "dataclasses", "secrets", "asyncio", "_pyodide._base"):
        assert loaded[mod].endswith(".pyc"), mod


@pytest.fixture(scope="module")
def hooked_site(dist_dir):
    assert CORE in (dist_dir / "yams.html").read_text(encoding="utf-8")
    server, url = site.start_site({hooked_page(f): _hooked(dist_dir, f) for f in GAME_PAGES})
    yield url
    site.stop_site(server)


def test_yams_page_loads_no_stdlib_module_from_source(page, hooked_site, request_log):
    page.goto(hooked_site + PAGE + "?fresh=1&seed=runtime")
    wait_ready(page)
    assert page.evaluate(f"typeof {js_global('ready_at')}") == "number"
    page.click("#start")
    page.click("#roll")
    loaded = json.loads(page.evaluate("(c) => window.__e2ePy.runPython(c)", LOADED_FROM_ZIP))
    source = sorted(f"{n} ({f})" for n, f in loaded.items() if not f.endswith(".pyc"))
    assert not source, ("the page compiled these standard-library modules from source; add "
                        f"them to web/runtime BROWSER_EXTRA: {source}")
    # PyScript's package came with its bytecode (in the game's files).
    assert page.evaluate("""() => window.__e2ePy.runPython(
        "import os, pyscript.web; os.path.isfile(pyscript.web.__cached__)")""")
    # Fresh entropy for the dice: two draws of secrets differ, and urandom works.
    a, b = page.evaluate("""() => window.__e2ePy.runPython(
        "import secrets, os; [secrets.token_hex(16), os.urandom(16).hex()]").toJs()""")
    assert a != b and len(a) == len(b) == 32


# -- memory snapshot (web/runtime/snapshot.mjs + web/js/pyodide-fast.mjs) ---------------------
def test_build_names_the_snapshot_of_these_files(dist_dir):
    """pyodide-fast.mjs names this build's content-named files."""
    names = site.runtime_names(dist_dir)
    pyodide = dist_dir / site.PYODIDE_DIR
    assert names["snapshot"], "the build made no snapshot"
    snap = pyodide / names["snapshot"]
    assert snap.read_bytes()[:6] == b"\xfd7zXZ\0" and 1.5e6 < snap.stat().st_size < 8e6  # xz
    fast = (dist_dir / "js/pyodide-fast.mjs").read_text(encoding="utf-8")
    runtime = json.loads(fast.split("const RUNTIME = ", 1)[1].split(";\n", 1)[0])
    keys = ("stdlib", "stdlib_xz", "package", "pages", "shared", "snapshot")
    assert {k: runtime[k] for k in keys} == {k: names[k] for k in keys}
    # The standard library as the page downloads it: the xz of the zip, byte for byte.
    assert names["stdlib_xz"] == names["stdlib"] + ".xz"
    packed = (pyodide / names["stdlib_xz"]).read_bytes()
    assert lzma.decompress(packed) == (pyodide / names["stdlib"]).read_bytes()
    assert set(names["pages"]) == set(GAME_PAGES)
    assert all((dist_dir / name).is_file() for name in [*names["pages"].values(), names["shared"]])
    # an empty lock file with the real one's info: no package index to fetch
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    assert runtime["lock"] == {"info": lock["info"], "packages": {}}
    assert (pyodide / names["stdlib"]).is_file() and (dist_dir / names["package"]).is_file()
    config = json.loads((dist_dir / "pyscript.json").read_text())
    assert config["interpreter"] == "./js/pyodide-fast.mjs" and "files" not in config


def _ready(page, url):
    page.goto(url)
    wait_ready(page)
    return read_global(page, "boot")


# What the service worker's precache holds for a restore: the snapshot and the wasm (the page
# copies the snapshot's pages still as the wasm starts them from it).
CACHE_SNAPSHOT = f"""async (name) => {{
  const url = new URL("{site.PYODIDE_DIR}/" + name, location.href).href;
  const cache = await caches.open("e2e-runtime");
  await cache.add(url);
  await cache.add(new URL("{site.PYODIDE_DIR}/pyodide.asm.wasm", location.href).href);
  return url;
}}"""
# The inflated form kept by js/snapshot-inflate.mjs, damaged in place: replaced by garbage, or
# a byte of every kilobyte of its pages flipped (every page the start uses is hit: 200 bytes
# spread over it could all miss them, as they did with Pyodide 314.0.8's), its length kept.  Returns the URLs
# of the entries before.
DAMAGE_INFLATED = """async ([url, how]) => {
  const cache = await caches.open("pygames-snapshot-inflated");
  const keys = await cache.keys();
  let bytes = new Uint8Array(1000);
  if (how !== "garbage") {
    bytes = new Uint8Array(await (await cache.match(url)).arrayBuffer());
    const pages = 20 + 4 * new DataView(bytes.buffer).getUint32(16, true);  // (its index intact)
    for (let k = pages + 1023; k < bytes.length; k += 1024) bytes[k] ^= 0xff;
  }
  await cache.put(url, new Response(bytes));
  return keys.map((r) => r.url);
}"""
KEPT = """(url) => caches.open("pygames-snapshot-inflated").then((c) => c.match(url))
  .then((r) => r ? r.arrayBuffer().then((b) => (crypto.subtle.realDigest ?? crypto.subtle.digest)
    .call(crypto.subtle, "SHA-256", b))
    .then((d) => Array.from(new Uint8Array(d), (x) => x.toString(16).padStart(2, "0")).join(""))
  : null)"""
# The SHA-256 of the standard library's zip kept by js/pyodide-fast.mjs (or null).
KEPT_STDLIB = KEPT.replace("pygames-snapshot-inflated", "pygames-stdlib-inflated")


def _stdlib_kept(page, url: str, digest: str) -> None:
    """Wait until the page's worker has kept the zip of `url` (after it handed it over)."""
    for _ in range(100):
        if page.evaluate(KEPT_STDLIB, url) == digest:
            return
        page.wait_for_timeout(100)
    assert page.evaluate(KEPT_STDLIB, url) == digest


# For the page, every SHA-256 is the snapshot's: its check passes a damaged copy (a page
# restored from it then fails, and reloads to an ordinary boot).  (The test's own: realDigest.)
LYING_DIGEST = """(() => {
  const hex = %s;
  const bytes = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
  crypto.subtle.realDigest = crypto.subtle.digest;
  crypto.subtle.digest = async () => bytes.slice().buffer;
})();"""
# Every call of the page to Cache Storage, counted in window.__cacheCalls.
COUNT_CACHE_CALLS = """(() => {
  window.__cacheCalls = [];
  for (const name of ["open", "match", "has", "keys", "delete"]) {
    const real = CacheStorage.prototype[name];
    CacheStorage.prototype[name] = function (...args) {
      window.__cacheCalls.push(name);
      return real.apply(this, args);
    };
  }
})();"""
NOTICE = "Le jeu a démarré sans sa copie rapide, qui était abîmée."

DRAWS = """() => window.__e2ePy.runPython(
  "import random, secrets; [random.random(), secrets.token_hex(8)]").toJs()"""
# Were the game's modules imported before the page's script ran (in the snapshot)?
PACKAGE_FROM_SNAPSHOT = """() => window.__e2ePy.runPython(
  "import sys; sorted(m for m in sys.modules if m.startswith('pygames'))").toJs()"""


def test_first_visit_plain_then_snapshot_restore(context, hooked_site, dist_dir, request_log):
    """A first visit never downloads the snapshot; once it is in Cache Storage (the
    service worker puts it there), the next visit restores it -- inflating it, then
    keeping the inflated form for the visits after: the game works, and the dice/random
    state are fresh at each restore."""
    names = site.runtime_names(dist_dir)
    page = context.new_page()
    boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=snap")
    assert boot["mode"] == "plain", boot
    assert boot["steady"] is True and boot["retries"] == [], boot  # (e2e/test_steady_downloads.py)
    assert not request_log.matching(r"/snapshot-[0-9a-f]+\.bin"), "a first visit fetched the snapshot"
    # The standard library came as xz, inflated for Pyodide (js/runtime-internals.mjs, 8).
    assert request_log.matching(re.escape(names["stdlib_xz"]) + "$")
    assert not request_log.matching(re.escape(names["stdlib"]) + "$")
    assert boot["stdlibFrom"] == "xz", boot
    stdlib_url = hooked_site + f"{site.PYODIDE_DIR}/{names['stdlib']}"
    _stdlib_kept(page, stdlib_url, names["stdlib_sha256"])  # (for the visits after)
    page.evaluate(CACHE_SNAPSHOT, names["snapshot"])
    page.close()

    draws = []
    for expected in ("xz", "inflated"):
        page = context.new_page()
        boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=snap")
        assert boot["mode"] == "snapshot", boot
        assert boot["snapshotFrom"] == expected, boot
        assert boot["stdlibFrom"] == "kept", boot  # (not inflated at every visit)
        assert page.evaluate(f"typeof {js_global('ready_at')}") == "number"
        page.click("#start")
        page.click("#roll")
        page.wait_for_function("() => document.querySelectorAll('#dice > *').length === 5")
        draws.append(page.evaluate(DRAWS))
        loaded = json.loads(page.evaluate("(c) => window.__e2ePy.runPython(c)", LOADED_FROM_ZIP))
        assert not [n for n, f in loaded.items() if not f.endswith(".pyc")]
        assert {"pygames", "pygames.yams", "pygames.yams.advisor"} <= set(
            page.evaluate(PACKAGE_FROM_SNAPSHOT))
        page.close()
    assert not request_log.matching(re.escape(names["stdlib"]) + "$")
    (r1, s1), (r2, s2) = draws
    assert r1 != r2, "random was not reseeded after the snapshot restore"
    assert s1 != s2


def _kept_snapshot(context, site_url, dist_dir) -> str:
    """A returning visitor's context: the snapshot's .xz cached, and its inflated form kept."""
    page = context.new_page()
    _ready(page, site_url + PAGE + "?fresh=1")
    url = page.evaluate(CACHE_SNAPSHOT, site.runtime_names(dist_dir)["snapshot"])
    for expected in ("xz", "inflated"):
        boot = _ready(page, site_url + PAGE + "?fresh=1")
        assert boot["mode"] == "snapshot" and boot["snapshotFrom"] == expected, boot
    page.close()
    return url


@pytest.mark.parametrize("how", ["garbage", "flipped", "flipped-unchecked"])
def test_a_damaged_kept_snapshot_is_dropped_and_said(browser, hooked_site, dist_dir, how):
    """The kept inflated form damaged in place (same length for "flipped": the page used to
    restore it and never start, every visit): the page starts anyway, the ordinary way, says
    so, and the damaged copy is gone; the next visit is fast again (from the .xz, checked),
    without the notice, and keeps a good copy.  "flipped-unchecked": the page's check is
    fooled, the restored page fails as it starts, and reloads once to an ordinary boot."""
    digest = site.runtime_names(dist_dir)["snapshot_inflated_sha256"]
    lie = LYING_DIGEST % json.dumps(digest) if how == "flipped-unchecked" else None
    with site.local_context(browser, init_script=lie) as context:
        url = _kept_snapshot(context, hooked_site, dist_dir)
        page = context.new_page()
        page.goto(hooked_site + site.BLANK_PAGE)  # any page of the origin
        assert page.evaluate(DAMAGE_INFLATED, [url, how.split("-")[0]]) == [url]
        assert page.evaluate(KEPT, url) not in (None, digest)
        boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=damaged")
        assert boot["mode"] == "plain" and boot.get("notice") == NOTICE, boot
        notice = page.locator("#boot-notice")
        assert notice.is_visible() and notice.text_content() == NOTICE
        assert page.evaluate(KEPT, url) is None, "the damaged copy was kept"
        if how == "flipped-unchecked":
            # (The damage shows as the page starts, or already as memory is restored.)
            assert boot["skipped"].startswith("restore failed") or "the restore before failed" in boot[
                "skipped"], boot
        else:
            assert "Damaged" in boot["skipped"] or how == "garbage", boot
        page.click("#start")
        page.click("#roll")
        page.wait_for_function("() => document.querySelectorAll('#dice > *').length === 5")
        # Fast again, and no notice; the good copy is kept again.
        mark_unready(page)
        boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=damaged")
        assert boot["mode"] == "snapshot" and boot["snapshotFrom"] == "xz", boot
        assert "notice" not in boot and page.locator("#boot-notice").is_hidden()
        for _ in range(100):  # (the worker keeps it once it handed the image over)
            if page.evaluate(KEPT, url) == digest:
                break
            page.wait_for_timeout(100)
        assert page.evaluate(KEPT, url) == digest


def test_a_damaged_kept_standard_library_is_dropped_and_inflated_again(browser, hooked_site, dist_dir):
    """The standard library's zip kept by an earlier visit, rewritten (any page of the origin
    can): Python never gets it; the page inflates the .xz again, starts and plays, and keeps
    a good copy."""
    names = site.runtime_names(dist_dir)
    url, digest = hooked_site + f"{site.PYODIDE_DIR}/{names['stdlib']}", names["stdlib_sha256"]
    with site.local_context(browser) as context:
        page = context.new_page()
        _ready(page, hooked_site + PAGE + "?fresh=1")
        _stdlib_kept(page, url, digest)
        page.evaluate("""async (url) => {
          const cache = await caches.open("pygames-stdlib-inflated");
          const zip = new Uint8Array(await (await cache.match(url)).arrayBuffer());
          zip[zip.length >> 1] ^= 0xff;  // one byte, inside some module
          await cache.put(url, new Response(zip));
        }""", url)
        assert page.evaluate(KEPT_STDLIB, url) not in (None, digest)
        mark_unready(page)
        boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=stdlib")
        assert boot["stdlibFrom"] == "xz" and "Damaged" in boot["stdlibSkipped"], boot
        page.click("#start")
        page.click("#roll")
        page.wait_for_function("() => document.querySelectorAll('#dice > *').length === 5")
        _stdlib_kept(page, url, digest)


def test_nosw_reads_no_cache(browser, hooked_site, dist_dir):
    """With ?nosw the page boots the ordinary way and never calls Cache Storage, though
    the snapshot is kept (and a worker serves the site: it is removed)."""
    with site.local_context(browser, init_script=COUNT_CACHE_CALLS) as context:
        _kept_snapshot(context, hooked_site, dist_dir)
        page = context.new_page()
        boot = _ready(page, hooked_site + PAGE + "?fresh=1")
        assert boot["mode"] == "snapshot" and page.evaluate("window.__cacheCalls.length") > 0
        page.goto(hooked_site + PAGE + "?fresh=1&nosw")
        # (Served by the worker: unregistered, and the page reloads once from the server.)
        page.wait_for_function("() => !navigator.serviceWorker.controller && !!document.body?.dataset.ready",
                               timeout=BOOT_TIMEOUT_MS)
        boot = read_global(page, "boot")
        assert boot["mode"] == "plain" and "snapshotFrom" not in boot, boot
        assert page.evaluate("window.__cacheCalls") == []


def _hooked(dist_dir, family: str = "yams") -> bytes:
    """<family>.html with Python on the page and a hook that exposes the interpreter, without
    its Content-Security-Policy (these tests look at the runtime; e2e/test_page_safety.py at
    the policy; e2e/test_python_in_worker.py at the worker's start)."""
    html = (dist_dir / f"{family}.html").read_text(encoding="utf-8").replace(CORE, HOOK + CORE)
    html = html.replace("<head>\n", "<head>\n" + ON_THE_PAGE, 1)
    meta = re.compile(r'<meta http-equiv="Content-Security-Policy" content="[^"]*">\s*')
    assert meta.search(html), "the page has no Content-Security-Policy"
    return meta.sub("", html).encode()


def test_game_files_come_with_the_interpreter(page, hooked_site, dist_dir, request_log):
    """pyscript.json lists no `files`: js/pyodide-fast.mjs writes the page's game files into
    the working directory (from pygames-yams-<hash>.tar.gz) before PyScript gets the
    interpreter: the bytecode where there is some (no source), else the source."""
    names = site.runtime_names(dist_dir)
    boot = _ready(page, hooked_site + PAGE + "?fresh=1&seed=files")
    assert "files written" in boot["stages"], boot
    assert boot["archive"] == names["pages"]["yams"]
    # Once by the page; the service worker's precache may fetch it too (its own request).
    assert len(request_log.page_matching("/" + re.escape(names["pages"]["yams"]) + "$")) == 1
    found = page.evaluate("""() => window.__e2ePy.runPython(`
import os, shell, yams_view, pygames
[os.path.isfile("shell.py"), os.path.isfile("shell.pyc"), os.path.isfile("pygames/yams/__init__.pyc"),
 os.path.isfile("yams_view.pyc"), os.path.isfile("pygames/yams/tables.pyc"),
 os.path.exists("pygames/yams/solver.py") or os.path.exists("pygames/yams/solver.pyc"),
 shell.__file__, pygames.__file__]`).toJs()""")
    assert found == [False, True, True, True, True, False, "/home/pyodide/shell.pyc",
                     "/home/pyodide/pygames/__init__.pyc"]


# The game modules a page has imported, and the site's modules found in its working directory.
OWN_GAME = """() => window.__e2ePy.runPython(`
import os, sys, pygames
[sorted(m for m in pygames.GAME_MODULES.values() if "pygames." + m in sys.modules),
 sorted(n.split(".")[0] for n in os.listdir(".") + os.listdir("pygames") if n.endswith((".py", ".pyc")))]
`).toJs()"""


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_page_loads_its_own_game_only(page, hooked_site, dist_dir, request_log, family):
    """A first visit of a game page downloads its own game files, once, and no other game's
    (nor the complete archive); it imports its own game module only, and the game plays."""
    names = site.runtime_names(dist_dir)
    boot = _ready(page, hooked_site + hooked_page(family) + "?fresh=1&seed=own&pace=0")
    assert boot["mode"] == "plain" and boot["archive"] == names["pages"][family], boot
    assert boot["shared"] == names["shared"], boot
    fetched = request_log.page_matching(r"/pygames-[^/]*\.tar\.gz$")
    assert sorted(u.rsplit("/", 1)[-1] for u in fetched) == sorted([names["shared"], names["pages"][family]])
    games, files = page.evaluate(OWN_GAME)
    assert games == [GAME_MODULES[family]]
    others = set(GAME_MODULES.values()) - {GAME_MODULES[family]}
    assert not others & set(files) and not [f for f in files if f.endswith("_cli") or f == "cli"]
    page.click("#start")
    page.wait_for_function("() => !document.getElementById('table').hidden")


def test_damaged_snapshot_falls_back_to_an_ordinary_boot(context, dist_dir):
    """A cached snapshot that is not one (a damaged cache entry): ordinary boot, game works."""
    names = site.runtime_names(dist_dir)
    server, url = site.start_site({
        f"{site.PYODIDE_DIR}/{names['snapshot']}": b"\x1f\x8b" + bytes(5000),
        PAGE: _hooked(dist_dir),
    })
    try:
        page = context.new_page()
        _ready(page, url + PAGE + "?fresh=1")
        page.evaluate(CACHE_SNAPSHOT, names["snapshot"])
        page.close()
        page = context.new_page()
        boot = _ready(page, url + PAGE + "?fresh=1")
        assert boot["mode"] == "plain" and "restore failed" in boot.get("skipped", ""), boot
        page.click("#start")
        page.click("#roll")
        page.wait_for_function("() => document.querySelectorAll('#dice > *').length === 5")
    finally:
        site.stop_site(server)


def test_game_files_carry_bytecode_for_startup_modules(dist_dir):
    with tarfile.open(dist_dir / site.runtime_names(dist_dir)["package"]) as tar:
        names = set(tar.getnames())
    for mod in ("__init__", "core", "yams/__init__", "yams/rules"):
        head, _, tail = f"pygames/{mod}".rpartition("/")
        assert f"pygames/{mod}.py" in names
        assert f"{head}/__pycache__/{tail}.cpython-314.pyc" in names, mod


# One failure of the page's Python, injected where a move is saved (the next save is the real one).
SAVE_FAILS_ONCE = """() => window.__e2ePy.runPython(`
import shell
_save = shell.Shell.save
def _fails_once(self, *args, **kwargs):
    shell.Shell.save = _save
    raise RuntimeError("injected failure")
shell.Shell.save = _fails_once
`)"""
# One raised in a timer that no handler of the site guards (js/boot.js's listener takes it).
TIMER_FAILS = """() => window.__e2ePy.runPython(`
from pyodide.ffi import create_once_callable
from pyscript import window
window.setTimeout(create_once_callable(lambda: 1 / 0), 0)
`)"""


def test_an_error_nobody_caught_is_the_sites_notice_and_the_game_goes_on(page, hooked_site):
    """No uncaught Python error reaches the page as a traceback (PyScript's error banner is
    off): an event handler's (web/app/dom.py) and any other (js/boot.js) show the site's
    notice and are recorded in ``pygames.errors``; the game stays and is saved by the next
    move, and a reload resumes it."""
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    game = GamePage(page, hooked_site, "yams")
    page.goto(hooked_site + PAGE + "?fresh=1&seed=trouble&pace=0")
    wait_ready(page)
    game.start_game([("Léa", "human")])
    notice = page.locator("#page-trouble")
    assert notice.is_hidden()
    page.click("#roll")
    game.wait_actions_at_least(2)
    page.evaluate(SAVE_FAILS_ONCE)
    page.click("#roll")  # played, then its save fails
    notice.wait_for(state="visible")
    assert "RuntimeError: injected failure" in read_global(page, "errors")[0]
    page.click("#page-trouble-ok")
    assert notice.is_hidden()
    page.evaluate(TIMER_FAILS)
    page.wait_for_function("() => window.pygames.errors.length === 2")
    assert "ZeroDivisionError" in read_global(page, "errors")[1]
    assert notice.is_visible()
    assert page.locator(".py-error").count() == 0 and errors == []
    # The game went on: the second throw is there, and the next decision saves it all.
    before = game.actions()
    page.locator('#table [data-action^="score "]:not([disabled])').first.click()
    game.wait_actions_above(before)
    record = game.record()
    assert record["actions"].count("roll") == 2 and record["actions"][-1].startswith("score")
    game.reload()
    assert game.record() == record and notice.is_hidden()
