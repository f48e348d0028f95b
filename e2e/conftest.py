"""Fixtures for the end-to-end tests: build dist/ once, serve it on 127.0.0.1,
drive headless Chromium through pytest-playwright (sync API).

* every test collected under e2e/ gets the ``e2e`` marker
  (``pytest -m "not e2e"`` runs the unit tests only);
* Chromium: /usr/bin/chromium when present (Debian), else Playwright's own
  browser (``python -m playwright install chromium``), always headless with
  ``--no-sandbox --disable-gpu --disable-background-networking
  --disable-component-update --no-first-run``;
* ``site_url``: ``http://127.0.0.1:<port>/pygames/`` (see siteharness.py for
  the environment variables);
* ``request_log``: records every request of the test's browser context; it
  fails the test at teardown if one left 127.0.0.1/localhost, and
  ``request_log.assert_all_local()`` checks it at any point;
* ``screenshot(page, name)``: PNG under e2e/artifacts/;
* every test with a browser context plays as a player who turned off the question before
  a 0 (``NO_ZERO_QUESTION``), unless it stores its own ``pygames:prefs`` first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import siteharness

E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_DIR in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Extend pytest-playwright's launch arguments (it still honours --headed)."""
    ours = siteharness.chromium_launch_kwargs()
    args = list(browser_type_launch_args.get("args") or []) + ours.pop("args")
    return {**ours, **browser_type_launch_args, "args": args}


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    return siteharness.ensure_built()


@pytest.fixture(scope="session")
def site_server(dist_dir):
    server, url = siteharness.start_site()
    yield server, url
    siteharness.stop_site(server)


@pytest.fixture(scope="session")
def site_url(site_server) -> str:
    """Base URL of the served site, ending with '/'."""
    return site_server[1]


@pytest.fixture
def request_log(context):
    log = siteharness.RequestLog().attach(context)
    yield log
    log.assert_all_local()


@pytest.fixture
def screenshot():
    return siteharness.screenshot


#: A new player is asked before a 0 is written while another box would score
#: (web/app/table_tools.py). The tests play as a player who turned that off, unless they
#: store their own preferences first (e2e/test_page_undo.py tests the question itself).
NO_ZERO_QUESTION = """try {
    if (localStorage.getItem('pygames:prefs') === null)
        localStorage.setItem('pygames:prefs', '{"confirm_zero":false}');
} catch (e) {}"""


@pytest.fixture(autouse=True)
def _no_zero_question(request):
    if "context" in request.fixturenames:
        request.getfixturevalue("context").add_init_script(NO_ZERO_QUESTION)
