"""The page's applier of the mirror's operations (js/page-mirror.mjs), in Chromium, against
the mirror itself (web/worker/mirror.py): what Python draws on the mirror is what the page
shows once the operations are applied, and the page's events reach Python's handlers.

* Random changes (tests/mirror_changes.py) made on the mirror of a page, then applied by the
  page: the same nodes, attributes, texts and live values, node for node.
* Each game's built page, its nodes sent to Python (`tree`), its real modules run on the
  mirror in CPython (tests/page_host.py): the page starts, a first throw is clicked *on the
  page* and reaches Python as an event, then the match is played to its end; after each
  step, the page applies the operations and is the mirror's twin.
"""

from __future__ import annotations

import json
import random

import pytest
from harness import site
from harness.mirror import HostLoop, apply, blank, run_events
from mirror import Document, Element, Text
from mirror_changes import CHANGE_KINDS, STYLE_PROPS, make_change
from page_host import Host

from pygames import FAMILIES

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

FIXTURE = """<main id="main"><form id="f"><fieldset><legend>Qui</legend>
<input type="text" id="name" value="Léa"><input type="checkbox" id="c" checked>
<button type="button" id="go" class="primary">Go</button></fieldset></form>
<ul id="list" data-kind="dice"><li data-die="1">1</li><li>2</li></ul><p>texte <b>gras</b></p></main>"""



def mirror_shape(node) -> list:
    """The mirror's node as `__mirrorShape` gives the page's."""
    if isinstance(node, Text):
        return [node.nid, node.data]
    style = dict(node.__dict__["_style"]._props) if "_style" in node.__dict__ else {}
    # (The properties the page is asked for: the views' own, such as the Dé Landais' bars'
    # left and width, come back from the browser in its own spelling, 12.5% for 12.500%.)
    return [node.nid, node.localName, dict(node.attrs), {k: v for k, v in style.items() if v and k in STYLE_PROPS},
            [mirror_shape(c) for c in node.childNodes]]


def live_values(doc: Document) -> dict:
    """The live values the mirror set (value, checked), by node: the page must hold them."""
    return {n.nid: dict(n.live) for n in doc.nodes()
            if isinstance(n, Element) and n.live and n.isConnected}


PAGE_LIVE_JS = """(wanted) => Object.fromEntries(Object.entries(wanted).map(([id, props]) =>
  [id, Object.fromEntries(Object.keys(props).map((p) => [p, window.__applier.node(+id)[p]]))]))"""


def same_page(page, doc: Document) -> None:
    shown = json.loads(page.evaluate("(p) => JSON.stringify(window.__mirrorShape(p))", list(STYLE_PROPS)))
    assert shown == mirror_shape(doc.documentElement)
    wanted = {str(k): v for k, v in live_values(doc).items()}
    assert page.evaluate(PAGE_LIVE_JS, wanted) == wanted


def test_random_changes_on_the_mirror_are_what_the_page_shows(page, site_url, request_log):
    tree = blank(page, site_url, f"<!doctype html><html><head><title>t</title></head><body>{FIXTURE}</body></html>")
    doc = Document.from_tree(tree)
    assert doc.getElementById("name").value == "Léa" and doc.getElementById("c").checked
    same_page(page, doc)
    rng = random.Random(24)
    for _ in range(30):
        for _ in range(rng.randrange(1, 15)):
            make_change(doc, rng.choice(CHANGE_KINDS), rng.randrange(1000), rng.randrange(1000),
                        "".join(rng.choice("aé <>&\"'1") for _ in range(rng.randrange(6))))
        apply(page, doc.take())
        same_page(page, doc)


def test_the_applier_refuses_what_the_mirror_never_sends(page, site_url, request_log):
    blank(page, site_url, f"<!doctype html><html><head></head><body>{FIXTURE}</body></html>")
    for op in (["do", 1, "remove", []], ["pr", 1, "innerHTML", "<b>x</b>"], ["html", 1, "<b>x</b>"],
               ["at", 10_000, "title", "x"]):
        error = page.evaluate("(op) => { try { window.__applier.apply([op]); return null; }"
                              " catch (e) { return e.message; } }", op)
        assert error and error.startswith("page-mirror:"), (op, error)
    assert "<b>x</b>" not in page.evaluate("() => document.body.innerHTML")


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_game_drawn_by_python_on_the_mirror_is_drawn_on_the_page(page, site_url, family, request_log):
    tree = blank(page, site_url, site.DIST.joinpath(f"{family}.html").read_text(encoding="utf-8"))
    host = Host(family, url=f"{site_url}{family}.html?pace=0&seed=7", tree=tree)
    loop = HostLoop()
    try:
        loop.run(host.start())
        apply(page, host.document.take())
        same_page(page, host.document)
        # Commencer and the first move, clicked on the page: the events go to Python.
        for selector in ("#setup-form button[type=submit]", "#table [data-action]:not([disabled])"):
            page.evaluate("() => { window.__mirrorSent.length = 0; }")
            page.locator(selector).first.click()
            sent = page.evaluate("() => window.__mirrorSent")
            assert sent and all(json.dumps(m) for m in sent)
            loop.run(run_events(host, sent))
            apply(page, host.document.take())
            same_page(page, host.document)
        assert len(host.shell.match.history) >= 1
        # The rest of the match, clicked in Python; the page follows each step.
        clicks = 0
        while loop.run(host.step(clicks)):
            ops = host.document.take()
            if ops:
                apply(page, ops)
            clicks += 1
            assert clicks < 1000
        assert host.window.errors == []
        assert not host.by_id("end").hidden
        same_page(page, host.document)
        assert page.locator("#ranking li").count() == len(host.shell.match.players)
    finally:
        loop.close()
        host.close()
