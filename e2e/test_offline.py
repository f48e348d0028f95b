"""Offline and installable: the service worker (dist/sw.js, written by web/build_sw.mjs with
workbox-build), its registration and update banner (web/js/register-sw.js) and the web app
manifest, in real Chromium.

Each test serves its own copy of dist/ (made once per session: a rebuild of dist/ meanwhile
cannot break a service worker install) from its own server.  "Offline" = that server stopped
and the browser context set offline: whatever the page gets then can only come from the
service worker's cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import build
import pytest
import serve
from harness import site
from harness.builds import make_build_b, precache_entries, wait_sw
from harness.pages import (
    BOOT_TIMEOUT_MS,
    DESKTOP,
    GAME_PAGES,
    MOBILE,
    mark_unready,
    read_global,
    reload,
    restored_from,
    wait_ready,
)
from harness.yams import play_one_turn

BANNER_TEXT = "Nouvelle version disponible — recharger"

CACHED_URLS_JS = """
async () => {
  const urls = [];
  for (const name of (await caches.keys()).filter((n) => n.includes("precache")))
    for (const req of await (await caches.open(name)).keys()) urls.push(req.url);
  return urls.sort();
}
"""


# --- helpers --------------------------------------------------------------------------------


def site_files(directory: Path) -> set[str]:
    return {p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()}


def settled(page) -> None:
    """Wait until register-sw.js is done on *page* (<html data-sw>, and data-build from
    build-info.json): leaving sooner would abort its background fetches."""
    page.wait_for_function("() => document.documentElement.dataset.sw && document.documentElement.dataset.build",
                           timeout=BOOT_TIMEOUT_MS)


def poll(page, js: str, timeout_s: float = 30):
    """Evaluate *js* (may return a promise: page.wait_for_function would take the promise
    itself as true) until it is truthy; survives the page reloading meanwhile."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = page.evaluate(js)
        except Exception:  # execution context destroyed by a navigation: try again
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout_s} s: {js}"
        page.wait_for_timeout(100)


@pytest.fixture(scope="session")
def site_copy(dist_dir, tmp_path_factory) -> Path:
    copy = tmp_path_factory.mktemp("offline") / "site"
    shutil.copytree(dist_dir, copy)
    return copy


def start(directory: Path, prefix: str = "/pygames/"):
    return serve.start_server(directory, prefix=prefix)


@pytest.fixture
def own_site(site_copy):
    """The copy of dist/ on its own server (the test may stop it): yields (server, url)."""
    server, url = start(site_copy)
    yield server, url
    try:
        site.stop_site(server)
    except OSError:
        pass


# --- the built service worker -------------------------------------------------------------


def test_sw_precaches_every_built_file_with_no_other_host(dist_dir):
    sw_js = (dist_dir / "sw.js").read_text()
    entries = precache_entries(sw_js)
    # The list is the directory: every file but sw.js itself, the empty .nojekyll, the
    # expert's tables, which are cached when a game first needs one, and the complete game
    # files' archive, which no page loads (each game page has its own, all precached).
    tables = {f for f in site_files(dist_dir) if f.startswith("tables/")}
    assert tables and all(f.endswith(".bin") for f in tables)
    names = site.runtime_names(dist_dir)
    # (And the pages of the pseudo-language, qps/, built for the tests only.)
    pseudo = {f for f in site_files(dist_dir) if f.startswith("qps/")}
    assert pseudo and "en/yams.html" in entries
    # (Nor what no page loads: PyScript's chunks of its editor, terminal, zip and TOML
    # readers, Pyodide's lock file, the standard library's zip, which the pages download as
    # .xz; every page starts offline without them, below.)
    unloaded = set(json.loads((dist_dir / "build-info.json").read_text())["unloaded"])
    assert {f"{build.PYODIDE_DIR}/pyodide-lock.json",
            f"{build.PYODIDE_DIR}/{names['stdlib']}"} < unloaded <= site_files(dist_dir)
    assert any("/xterm" in f for f in unloaded) and any("/codemirror_view" in f for f in unloaded)
    assert not any(re.search(r"/(core|py-editor|py-game|py-terminal|donkey|error)[.-]", f) for f in unloaded)
    assert set(entries) == (site_files(dist_dir) - {"sw.js", ".nojekyll", names["package"]}
                            - tables - pseudo - unloaded)
    assert "pygames-tables" in sw_js and "networkTimeoutSeconds:5" in sw_js
    pyodide = site.PYODIDE_DIR
    pages = {*names["pages"].values(), names["shared"]}
    assert len(pages) == len(build.page_roots()) + 1 >= 5
    for big in (f"{pyodide}/pyodide.asm.wasm", f"{pyodide}/{names['stdlib_xz']}",
                f"{pyodide}/{names['snapshot']}", *pages,
                "index.html", "yams.html", "manifest.webmanifest", "build-info.json"):
        assert big in entries
    # Files named after their content or their pinned version are precached without a
    # revision, so that Workbox fetches them without cache busting (from the HTTP cache when
    # the page already loaded them); the others carry the md5 of their content.
    unrevisioned = set(re.findall(r'url:"([^"]+)",revision:null', sw_js))
    assert unrevisioned == {e for e in entries if e.startswith("vendor/") or re.search(
        r"-[0-9a-f]{16}\.(zip|zip\.xz|tar\.gz|bin\.xz)$", e)}, unrevisioned ^ set(entries)
    assert {f"{pyodide}/pyodide.asm.wasm", *pages} <= unrevisioned
    assert not {"yams.html", "pyscript.json", "js/pyodide-fast.mjs"} & unrevisioned
    # The workbox runtime is inlined: nothing is imported, no other host is named (the one URL
    # left is a documentation link inside a console warning).
    assert "importScripts" not in sw_js
    urls = set(re.findall(r"https?://[^\s\"'`]+", sw_js))
    assert urls <= {"https://bit.ly/wb-precache"}, urls
    # No skipWaiting at install: only when the page asks for it.
    assert sw_js.count("skipWaiting()") == 1
    assert re.search(r'"SKIP_WAITING"===\w+\.data\.type&&self\.skipWaiting\(\)', sw_js)


def test_sw_is_deterministic_and_follows_the_content(dist_dir, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(dist_dir, copy)
    build.write_service_worker(copy)
    assert (copy / "sw.js").read_bytes() == (dist_dir / "sw.js").read_bytes()
    # One changed file: only its revision changes.
    with (copy / "css/style.css").open("a") as f:
        f.write("/* changed */\n")
    build.write_service_worker(copy)
    before = precache_entries((dist_dir / "sw.js").read_text())
    after = precache_entries((copy / "sw.js").read_text())
    assert {u for u in before if before[u] != after[u]} == {"css/style.css"}


# --- offline --------------------------------------------------------------------------------


def test_first_visit_then_offline_reload_and_play_a_turn(new_context, own_site, site_copy, screenshot):
    server, url = own_site
    expected = len(precache_entries((site_copy / "sw.js").read_text()))
    context = new_context(viewport=MOBILE)
    log = site.RequestLog().attach(context)
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    page.goto(url + "yams.html?seed=11&pace=0&fresh=1")
    wait_ready(page)
    info = wait_sw(page, expected)
    # Sub-path: the worker and its scope are the site's, under /pygames/.
    assert info["scope"] == url and info["script"] == url + "sw.js"
    first_visit = len(server.served)

    # Second visit, still online: everything comes from the cache, nothing from the server
    # (the browser checks sw.js for an update, and the page, once started, compares its
    # build with the deployed one: build-info.json?live).
    server.served.clear()
    reload(page)
    # ...and Python restored from the memory snapshot the worker precached (the .xz, the
    # pages still as the wasm starts them copied from the wasm): a snapshot that cannot be
    # restored (pyodide issue #6254) would leave every visit on the slow path, unnoticed.
    boot = read_global(page, "boot")
    assert restored_from(boot) == "xz", boot
    # (Its downloads as fetched: the browser keeps the compiled WebAssembly of a fetched
    # Response only; a first visit's go through js/steady-fetch.mjs.)
    assert boot["steady"] is False and boot["retries"] == [], boot
    # The page shows its build once it started (js/register-sw.js): until then its fetch of
    # build-info.json is in flight, and the next navigation would abort it.
    page.wait_for_function("() => !!document.documentElement.dataset.build")
    poll(page, "performance.getEntriesByType('resource').some((e) => e.name.endsWith('?live'))")
    assert set(server.served) <= {"/sw.js", "/build-info.json"}, server.served
    assert server.served.count("/build-info.json") <= 1, server.served

    # Offline: server stopped and the context offline.
    site.stop_site(server)
    context.set_offline(True)
    log.clear()
    page.goto(url + "yams.html?seed=12&pace=0")
    wait_ready(page)
    assert page.evaluate("!!navigator.serviceWorker.controller")
    # Pyodide fetched its own runtime files: they came from the precache.
    loaded = {u.rsplit("/", 1)[-1] for u in log.urls}
    names = site.runtime_names(site_copy)
    assert {"pyodide.asm.wasm", names["pages"]["yams"], names["shared"]} <= loaded, loaded
    # ...and Python was restored from the memory snapshot (inflated at the visit before).
    boot = read_global(page, "boot")
    assert restored_from(boot) == "inflated", boot
    # (But the page's look at the deployed build, build-info.json?live, which cannot reach
    # the server: emulated offline, navigator.onLine still says true on a new page.)
    assert not [f for f in log.failures if not f[0].endswith("?live")], log.failures
    play_one_turn(page)
    reload(page)  # the saved game comes back, offline too
    assert page.locator("#table").is_visible()
    screenshot(page, "offline-after-turn-375")
    # Home page too, and a second tab offline.
    page.goto(url)
    assert page.locator('.game-card[data-family="yams"] a.play-link').is_visible()
    log.assert_all_local()
    print(f"\nfirst visit: {first_visit} requests to the server; second visit: 0 (+ sw.js check)")
    context.close()


def test_every_page_and_embed_page_starts_offline_with_its_own_files(new_context, own_site, site_copy):
    """One visit of one game page, then offline: every game page of the registry and every
    embed page starts, in French and in English, each with its own game files (pygames-<id>-<hash>.tar.gz, precached
    though never loaded online) and the one memory snapshot; on each game page Commencer
    starts a game; the home page lists every game."""
    server, url = own_site
    expected = len(precache_entries((site_copy / "sw.js").read_text()))
    names = site.runtime_names(site_copy)
    assert set(names["pages"]) == set(GAME_PAGES)
    context = new_context()
    log = site.RequestLog().attach(context)
    page = context.new_page()
    page.goto(url + "yams.html?fresh=1&pace=0")
    wait_ready(page)
    wait_sw(page, expected)
    reload(page)  # now the worker's
    site.stop_site(server)
    context.set_offline(True)
    for family, archive in names["pages"].items():
        for path in (f"{family}.html", f"embed-{family}.html", f"en/{family}.html", f"en/embed-{family}.html"):
            log.clear()
            page.goto(f"{url}{path}?fresh=1&pace=0&seed=off")
            wait_ready(page)
            boot = read_global(page, "boot")
            assert boot["archive"] == archive and restored_from(boot), (path, boot)
            assert sorted(u.rsplit("/", 1)[-1] for u in log.matching(r"/pygames-[^/]*\.tar\.gz$")) == sorted([
                names["shared"], archive]), path
            assert page.evaluate("!!navigator.serviceWorker.controller"), path
            settled(page)  # what register-sw.js fetches in the background: fetched offline too
            # (But for its look at the deployed build, which only the server can answer, and
            # the expert's tables, cached once a game used them: test_advisor_tables_... below.)
            # (Nor a request the browser itself cancelled, ERR_ABORTED: the page's icon, late
            # and low in priority, may still be on its way when the next page is opened; a
            # file missing offline fails with ERR_INTERNET_DISCONNECTED or ERR_FAILED.)
            failed = [f for f in log.failures
                      if not f[0].endswith("/build-info.json?live") and "/tables/" not in f[0]
                      and f[1] != "net::ERR_ABORTED"]
            assert not failed, (path, log.failures)
            if "embed-" not in path:
                page.click("#start")
                page.wait_for_function("() => !document.getElementById('table').hidden")
    page.goto(url)
    assert page.locator(".game-card").count() == len(GAME_PAGES)
    log.assert_all_local()
    context.close()


def test_advisor_tables_used_online_work_offline(new_context, own_site, site_copy):
    """A table fetched once (advisor or expert seat) is kept for offline play; the others are
    never downloaded."""
    server, url = own_site
    expected = len(precache_entries((site_copy / "sw.js").read_text()))
    context = new_context(viewport=MOBILE)
    log = site.RequestLog().attach(context)
    page = context.new_page()
    page.goto(url + "yams.html?seed=21&pace=0&fresh=1&game=yahtzee")
    wait_ready(page)
    wait_sw(page, expected)
    reload(page)  # now the worker controls the page
    page.click("#start")
    page.click("#roll")
    page.click("#advise")
    page.wait_for_selector("#advice .advice-list li")
    # (the page's request and the worker's own both show in the log)
    assert {u.rsplit("/", 1)[1] for u in log.matching(r"/tables/")} == {"yahtzee.bin"}
    site.stop_site(server)
    context.set_offline(True)
    page.goto(url + "yams.html?seed=21&pace=0")  # the saved game resumes
    wait_ready(page)
    page.click("#advise")
    page.wait_for_selector("#advice .advice-list li")
    assert "Score final espéré" in page.text_content("#advice .advice-best")
    context.close()


@pytest.mark.parametrize("prefix", ["/", "/a/deeper/sub/"])
def test_other_sub_paths_install_and_work_offline(new_context, site_copy, prefix):
    server, url = start(site_copy, prefix)
    expected = len(precache_entries((site_copy / "sw.js").read_text()))
    context = new_context()
    try:
        page = context.new_page()
        page.goto(url)
        info = wait_sw(page, expected)
        assert info["scope"] == url
        cached = page.evaluate(CACHED_URLS_JS)
        assert cached and all(u.startswith(url) for u in cached)
        site.stop_site(server)
        context.set_offline(True)
        page.reload()
        assert page.locator('.game-card[data-family="yams"] a.play-link').is_visible()
        page.click('.game-card[data-family="yams"] a.play-link')
        wait_ready(page)
        assert page.locator("#setup").is_visible() or page.locator("#table").is_visible()
    finally:
        context.close()
        try:
            site.stop_site(server)
        except OSError:
            pass


def test_nosw_does_not_register_and_removes_a_worker(new_context, own_site):
    site_url = own_site[1]
    context = new_context()
    page = context.new_page()
    page.goto(site_url + "?nosw")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    page.goto(site_url)
    wait_sw(page, 1)
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 1
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    page.goto(site_url + "index.html?nosw")
    # Unregistered, and the page reloaded itself once to leave the worker's control.
    poll(page, "navigator.serviceWorker.getRegistrations().then(r => r.length === 0)")
    poll(page, "!navigator.serviceWorker.controller && document.readyState === 'complete'")
    assert page.locator('.game-card[data-family="yams"] a.play-link').is_visible()
    context.close()


# --- a new build deployed over an old one -----------------------------------------------------


@pytest.mark.parametrize("sw_on_disk", ["newer", "older"])
def test_new_build_over_old_one_is_offered_then_runs(new_context, site_copy, tmp_path, screenshot,
                                                     sw_on_disk):
    """B deployed over A: offered by a banner while A keeps running, then B runs.  "older":
    B's sw.js is older on disk than A's (a deployment that keeps files' dates), and the
    host answers the browser's check of sw.js (If-Modified-Since: A's date) by modification
    time, 304, as GitHub Pages and web/tools/serve.py do: the browser keeps A's sw.js from
    its HTTP cache, and only the page's comparison of the builds (js/register-sw.js) finds B."""
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(site_copy, a)
    build_a = json.loads((a / "build-info.json").read_text())["build"]
    build_b = make_build_b(a, b)
    assert build_a != build_b
    if sw_on_disk == "older":
        old = (a / "sw.js").stat().st_mtime - 86400
        for name in ("sw.js", "build-info.json"):
            os.utime(b / name, (old, old))
    served = tmp_path / "served"
    served.symlink_to(a, target_is_directory=True)
    server, url = start(served)
    try:
        context = new_context(viewport=MOBILE)
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        page.goto(url + "yams.html?seed=5&pace=0&fresh=1")
        wait_ready(page)
        wait_sw(page, len(precache_entries((a / "sw.js").read_text())))
        page.wait_for_function("d => document.documentElement.dataset.build === d", arg=build_a)

        # Deploy B over A (atomic switch of the served directory).
        tmp_link = tmp_path / "served.new"
        tmp_link.symlink_to(b, target_is_directory=True)
        tmp_link.replace(served)
        server.served.clear()
        server.sent.clear()
        page.goto(url + "yams.html?seed=5&pace=0")
        wait_ready(page)
        # The old version still runs, while the new one downloads what changed, then waits.
        page.wait_for_function("d => document.documentElement.dataset.build === d", arg=build_a)
        banner = page.get_by_role("status").filter(has_text="Nouvelle version disponible")
        banner.wait_for(timeout=BOOT_TIMEOUT_MS)
        assert re.sub(r"\s+", " ", banner.text_content()).strip() == BANNER_TEXT
        fetched = {p.split("?")[0] for p in server.served}
        assert {"/sw.js", "/css/style.css", "/build-info.json"} <= fetched
        if sw_on_disk == "older":  # the browser's own check of sw.js was answered 304
            assert ("/sw.js", 304) in {(p, status) for p, status, *_ in server.sent}, server.sent
        assert f"/{site.PYODIDE_DIR}/pyodide.asm.wasm" not in fetched, \
            "unchanged files are not downloaded again"
        play_one_turn(page)  # the old page keeps working with the banner up
        screenshot(page, "update-banner-375")
        page.set_viewport_size(DESKTOP)
        page.evaluate("scrollTo(0, 0)")
        screenshot(page, "update-banner-1280", full_page=False)

        # Accept: the page reloads into B.
        mark_unready(page)
        banner.get_by_role("button", name="recharger").click()
        page.wait_for_function("d => document.documentElement.dataset.build === d", arg=build_b,
                               timeout=BOOT_TIMEOUT_MS)
        wait_ready(page)
        assert page.locator("#update-banner").count() == 0
        css = page.evaluate("fetch('css/style.css').then(r => r.text())")
        assert css.rstrip().endswith("/* build B */")
        # Old entries are gone: the cache holds exactly B's manifest.
        entries_b = precache_entries((b / "sw.js").read_text())
        cached = page.evaluate(CACHED_URLS_JS)
        assert len(cached) == len(entries_b)
        assert any(f"__WB_REVISION__={entries_b['css/style.css']}" in u for u in cached)
        assert page.locator("#table").is_visible(), "the game in progress is resumed"
        context.close()
    finally:
        site.stop_site(server)


# --- installable ------------------------------------------------------------------------------


def test_manifest_and_installability(browser_type, own_site, site_copy, tmp_path):
    dist_dir, site_url = site_copy, own_site[1]
    manifest = json.loads((dist_dir / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["display"] == "standalone"
    assert (manifest["theme_color"], manifest["background_color"]) == ("#185a3c", "#f6f3ec")
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        data = (dist_dir / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            w, h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and f"{w}x{h}" == icon["sizes"]
    for page_name in ("index.html", "yams.html"):
        html = (dist_dir / page_name).read_text()
        assert '<link rel="manifest" href="manifest.webmanifest">' in html
        assert '<meta name="theme-color" content="#185a3c">' in html
        assert '<script type="module" src="js/register-sw.js"></script>' in html

    # Chromium never offers to install from an incognito-like context: a real profile.
    # (A French browser: the root's home page would send another to its language's, js/words.js.)
    context = browser_type.launch_persistent_context(
        str(tmp_path / "profile"), locale="fr-FR", **site.chromium_launch_kwargs())
    page = context.new_page()
    page.goto(site_url)
    wait_sw(page, 1)
    page.reload()
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors
    got = cdp.send("Page.getAppManifest")
    assert not got.get("errors"), got.get("errors")
    assert got["url"] == site_url + "manifest.webmanifest"
    context.close()
