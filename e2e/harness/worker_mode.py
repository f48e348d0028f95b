"""Where the game pages' Python runs in the browser tests.

Since stop 43 a game page's Python runs in a dedicated worker (js/worker-page.mjs; issue 24),
and ``?page`` runs it on the page (PyScript, as before).  So every action a test makes on a
page (a click, a key, a typed value …) waits until the page's events are answered
(``pygames.worker.settled()``): on the page, Python's handlers have run when the click
returns; from a worker, one message later.

``PYGAMES_E2E_PAGE=1`` runs the whole suite with Python on the page instead: an init script
adds ``?page`` to every game page's address (and embed page's) before the page's scripts
read it.  The tests themselves are unchanged; the few that are about one mode open their
page with its query themselves.
"""

from __future__ import annotations

import os

#: The whole suite on the page (``?page``), not in the worker.
PAGE = bool(os.environ.get("PYGAMES_E2E_PAGE"))
#: Python in a worker, the pages' default.
ON = not PAGE

#: Added to every context's init script when PAGE: ``?page`` on the four game pages and their
#: embed pages (French or English).
ADD_PAGE = """
if (/\\/(embed-)?(yams|421|linotte|de-landais)\\.html$/.test(location.pathname)
    && !new URLSearchParams(location.search).has("page")) {
  history.replaceState(history.state, "",
    location.pathname + (location.search ? location.search + "&page" : "?page") + location.hash);
}"""

SETTLED = "() => !window.pygames?.worker || window.pygames.worker.settled()"
ACTIONS = ("click", "dblclick", "tap", "press", "fill", "type", "check", "uncheck", "set_checked",
           "select_option", "dispatch_event", "press_sequentially")


def settle(page) -> None:
    """Until the page's events are answered (a page navigating away: nothing to wait for)."""
    try:
        page.wait_for_function(SETTLED, timeout=15_000)
    except Exception as err:
        text = str(err)
        if "destroyed" in text or "navigat" in text or "closed" in text:
            return
        raise


def _after(method, page_of):
    def run(self, *args, **kwargs):
        result = method(self, *args, **kwargs)
        page = page_of(self)
        if page is not None:
            settle(page)
        return result
    run.__wrapped__ = method
    return run


def patch_playwright() -> None:
    """Make Page's, Locator's, Keyboard's and Mouse's actions settle after themselves."""
    from playwright.sync_api import Keyboard, Locator, Mouse, Page

    if getattr(Page, "_pygames_worker_mode", False):
        return
    Page._pygames_worker_mode = True
    for cls, page_of in ((Page, lambda p: p), (Locator, lambda loc: loc.page)):
        for name in ACTIONS:
            if hasattr(cls, name):
                setattr(cls, name, _after(getattr(cls, name), page_of))
    for prop, cls in (("keyboard", Keyboard), ("mouse", Mouse)):
        getter = getattr(Page, prop).fget

        def owned(self, getter=getter):
            device = getter(self)
            device._pygames_page = self
            return device
        setattr(Page, prop, property(owned))
        for name in ("press", "type", "insert_text", "down", "up", "click", "dblclick"):
            if hasattr(cls, name):
                setattr(cls, name, _after(getattr(cls, name), lambda d: getattr(d, "_pygames_page", None)))
