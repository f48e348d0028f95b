"""Random changes made to the page's mirror (web/worker/mirror.py), for the tests that check
that its operations say all of them: replayed in Python (tests/test_page_mirror.py) and
applied by the page's applier in Chromium (e2e/test_mirror_applier.py)."""

from __future__ import annotations

from mirror import MirrorError, Text

CHANGE_KINDS = ("new", "text", "move", "remove", "attr", "unattr", "class", "value", "data", "style", "clear")
#: The style properties the changes set (the Chromium test reads these back).
STYLE_PROPS = ("--x",)


def make_change(doc, kind: str, a: int, b: int, word: str) -> None:
    """One change to `doc`'s body, chosen by `kind` and two numbers; a change the DOM would
    refuse (a node into itself) is skipped, as the mirror refuses it unchanged."""
    elements = [doc.body, *doc.body.querySelectorAll("*")]
    nodes = [n for n in doc.nodes() if n is not doc and n.isConnected and doc.body.contains(n)
             and n is not doc.body]
    target = elements[a % len(elements)]
    try:
        if kind == "new":
            target.appendChild(doc.createElement(("div", "span", "li")[b % 3]))
        elif kind == "text":
            target.textContent = word
        elif kind == "move" and nodes:
            node = nodes[b % len(nodes)]
            kids = target.childNodes
            target.insertBefore(node, kids[b % len(kids)] if kids and b % 2 else None)
        elif kind == "remove" and nodes:
            nodes[b % len(nodes)].remove()
        elif kind == "attr":
            target.setAttribute(("title", "data-x", "aria-label")[b % 3], word)
        elif kind == "unattr":
            target.removeAttribute(("title", "data-x", "id")[b % 3])
        elif kind == "class":
            target.classList.toggle(("on", "off")[b % 2])
        elif kind == "value" and target.tagName in ("INPUT", "TEXTAREA"):
            target.value = word
        elif kind == "data":
            texts = [n for n in nodes if isinstance(n, Text)]
            if texts:
                texts[b % len(texts)].data = word
        elif kind == "style":
            if b % 2:
                target.style.setProperty(STYLE_PROPS[0], f"{b}px")  # a value any browser keeps
            else:
                target.style.removeProperty(STYLE_PROPS[0])
        elif kind == "clear":
            target.replaceChildren()
    except MirrorError:
        pass  # refused, and nothing changed (tests/test_page_mirror.py)
