"""Fixtures for the end-to-end tests: build dist/ once, serve it on 127.0.0.1,
drive headless Chromium through pytest-playwright (sync API).

* every test collected under e2e/ gets the ``e2e`` marker
  (``pytest -m "not e2e"`` runs the unit tests only);
* Chromium: /usr/bin/chromium when present (Debian), else Playwright's own
  browser (``python -m playwright install chromium``), always headless with
  ``--no-sandbox --disable-gpu --disable-background-networking
  --disable-component-update --no-first-run --disable-dev-shm-usage``;
* ``site_url``: ``http://127.0.0.1:<port>/pygames/`` (see harness/site.py for
  the environment variables);
* ``request_log``: records every request of the test's browser context; it
  fails the test at teardown if one left 127.0.0.1/localhost, and
  ``request_log.assert_all_local()`` checks it at any point;
* ``screenshot(page, name)``: PNG under e2e/artifacts/;
* every test with a browser context plays as a player who turned off the question before
  a 0 (``NO_ZERO_QUESTION``), unless it stores its own ``pygames:prefs`` first;
* ``wait_for_function`` is always given a function (``"() => ..."``): Playwright evaluates
  it once, which the pages' policy lets through, while a bare expression is evaluated
  again at each poll, and a page whose policy has no 'unsafe-eval' refuses that (EvalError).
  ``page.evaluate`` and init scripts are not held by the policy.

What the tests do on a page is in the harness package (e2e/harness/: the page object, the
dice, each game's own parts); no test module imports another.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import site, worker_mode
from harness.pages import BOOT_TIMEOUT_MS, NO_ZERO_QUESTION, PHONE_360, read_global, restored_from, wait_ready

E2E_DIR = Path(__file__).resolve().parent


def pytest_configure(config):
    if worker_mode.ON:
        worker_mode.patch_playwright()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_DIR in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Extend pytest-playwright's launch arguments (it still honours --headed)."""
    ours = site.chromium_launch_kwargs()
    args = list(browser_type_launch_args.get("args") or []) + ours.pop("args")
    return {**ours, **browser_type_launch_args, "args": args}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A French browser (the tests read the French pages): the home page at the root sends a
    first visitor to the version in the first of navigator.languages the site speaks
    (js/words.js), and Chromium's own is English.  e2e/test_languages.py asks for others."""
    return {"locale": "fr-FR", **browser_context_args}


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    return site.ensure_built()


@pytest.fixture(scope="session")
def site_server(dist_dir):
    server, url = site.start_site()
    yield server, url
    site.stop_site(server)


@pytest.fixture(scope="session")
def site_url(site_server) -> str:
    """Base URL of the served site, ending with '/'."""
    return site_server[1]


@pytest.fixture(scope="module")
def devices(browser, browser_context_args, site_url):
    """Two devices (phones 360 px wide): a browser context each, with storage of its own, for
    a whole module (e2e/test_play_by_link.py, e2e/test_two_devices.py)."""
    made = []
    for _ in range(2):
        context = browser.new_context(**{**browser_context_args, "viewport": PHONE_360})
        context.add_init_script(NO_ZERO_QUESTION)
        made.append(context)
    yield made
    for context in made:
        context.close()


@pytest.fixture
def request_log(context):
    log = site.RequestLog().attach(context)
    yield log
    log.detach(context)
    log.assert_all_local()


# --- one warm browser context for the modules marked ``warm`` --------------------------------
#
# A new browser context is a first visit: Python starts the slow way (3-6 s here).  The
# modules marked ``pytestmark = pytest.mark.warm`` test what a player does on a page, not
# the first visit (e2e/test_runtime_fast.py, test_offline.py and test_page_early.py do):
# they share one context where the service worker already holds the site and the memory
# snapshot, as a returning visitor has it (the page is ready in under a second).  Between
# two tests every page is closed and the site's localStorage and IndexedDB are emptied, so
# each test starts with no saved game, setup, preference or statistics; the caches stay.
# The emptying goes through a blank page kept open in the context, as another tab (why:
# site.empty_site).

WARM_SNAPSHOT_KEPT = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg || !reg.active || reg.active.state !== 'activated') return false;
    return (await caches.keys()).includes('pygames-snapshot-inflated');
}"""


@pytest.fixture(scope="session")
def _warm_context(browser, browser_context_args, site_url):
    context = browser.new_context(**browser_context_args)
    context.add_init_script(NO_ZERO_QUESTION)
    page = context.new_page()
    page.set_default_timeout(BOOT_TIMEOUT_MS)
    # First visit (plain start; the service worker precaches the site and the snapshot),
    # then visits until the snapshot's inflated form is kept (js/snapshot-inflate.mjs).
    for attempt in range(6):
        page.goto(f"{site_url}yams.html?fresh=1")
        wait_ready(page)
        restored = restored_from(read_global(page, "boot"))
        if attempt and restored and \
                page.evaluate(WARM_SNAPSHOT_KEPT):
            break
        # The worker is active once its install (the whole precache) is done.
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    else:
        raise AssertionError(f"the warm context never restored the snapshot: "
                             f"{read_global(page, 'boot')}")
    page.close()
    yield context
    context.close()


@pytest.fixture
def _warm(_warm_context, site_url):
    """The shared warm context, emptied of pages and of the site's stored values."""
    site.empty_site(_warm_context, site_url)
    yield _warm_context
    site.empty_site(_warm_context, site_url)


@pytest.fixture
def context(request):
    """pytest-playwright's new context per test, or the shared warm one for the modules
    marked ``warm`` (above)."""
    if request.node.get_closest_marker("warm"):
        return request.getfixturevalue("_warm")
    return request.getfixturevalue("new_context")()


@pytest.fixture
def screenshot():
    return site.screenshot




@pytest.fixture(autouse=True)
def _no_zero_question(request):
    if "context" in request.fixturenames and not request.node.get_closest_marker("warm"):
        request.getfixturevalue("context").add_init_script(NO_ZERO_QUESTION)
