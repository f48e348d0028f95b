"""Small DOM helpers for the PyScript pages: elements are built node by node and text is
always set with textContent, so a player's name can never become markup.

This module is the page's one door to JavaScript: the other modules of web/app take
``document``, ``window``, ``fetch`` and ``to_js`` from here, never from ``pyscript``,
``pyodide`` or ``js`` (tests/test_structure.py checks it).  So what the page's Python
talks to can change in one place: the page itself today, a page drawn from a worker's
messages tomorrow (issue 24, "Python in a worker" in js/runtime-internals.mjs)."""

import asyncio

from pyodide.ffi import create_once_callable
from pyscript import document, fetch, window
from pyscript.ffi import create_proxy, to_js

__all__ = [  # the page's JavaScript objects, then the helpers
    "document", "fetch", "to_js", "window", "Storage", "by_id", "clear", "copy_text", "el",
    "enabled", "found", "guarded", "later", "on", "pieces_of", "query_params", "row", "said",
    "set_text", "show", "spawn", "storage", "trouble",
]

_handlers = []  # keep event proxies alive for the life of the page


def by_id(id_):
    return document.getElementById(id_)


def el(tag, text=None, cls=None, **attrs):
    node = document.createElement(tag)
    if text is not None:
        node.textContent = str(text)
    if cls:
        node.className = cls
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        node.setAttribute(name.rstrip("_").replace("_", "-"), "" if value is True else str(value))
    return node


def row(cells, cls=None, tag="td", **attrs):
    """A table row of `cells` (texts, each in a `tag` cell with `attrs`, or nodes)."""
    tr = el("tr", None, cls)
    for cell in cells:
        tr.appendChild(el(tag, cell, **attrs) if isinstance(cell, str) else cell)
    return tr


def clear(node):
    while node.firstChild:
        node.removeChild(node.firstChild)


def trouble(err):
    """The page's one handler of a Python error nobody caught (an event, a timer, a task):
    the traceback goes to the console and to ``window.pygames.errors`` (for the tests), the
    player sees the site's notice (``pygames.trouble``, js/boot.js), and the game, whose
    every move is saved as it is played, stays as it was."""
    import traceback  # only on this path

    text = "".join(traceback.format_exception(err))
    try:
        window.console.error("pygames: " + text)
        report = getattr(window.pygames, "trouble", None)
        if report:
            report(text)
    except Exception:  # the notice must not become the next error
        pass


def guarded(handler):
    """`handler` with every error it raises handed to `trouble` instead of the page."""
    def run(*args):
        try:
            return handler(*args)
        except Exception as err:
            trouble(err)
    return run


def on(target, event, handler):
    proxy = create_proxy(guarded(handler))
    _handlers.append(proxy)
    target.addEventListener(event, proxy)
    return proxy


def spawn(coroutine):
    """Run `coroutine` as a task of the page; an error it ends with goes to `trouble`."""
    task = asyncio.ensure_future(coroutine)
    task.add_done_callback(_reported)
    return task


def copy_text(value, then):
    """Put `value` on the clipboard (call it from the click itself: browsers ask for a
    person's gesture), then `then(ok)`: True once it is there, False when the browser has
    no clipboard or refused."""
    try:
        promise = window.navigator.clipboard.writeText(value)
    except Exception:
        then(False)
        return

    async def written():
        try:
            await promise
        except Exception:
            then(False)
        else:
            then(True)

    spawn(written())


def _reported(task):
    if not task.cancelled() and task.exception() is not None:
        trouble(task.exception())


def later(ms, handler):
    """Run `handler()` once after `ms` milliseconds (its proxy freed once it has run)."""
    return window.setTimeout(create_once_callable(guarded(handler)), ms)


def found(node):
    """An element, not JS null (which Pyodide does not turn into None)."""
    return getattr(node, "tagName", None) is not None


def enabled(node):
    """An element of the page that can take the focus or a click: any element (a <body> or
    a <td> has no ``disabled``), connected and not :disabled."""
    return found(node) and bool(node.isConnected) and not node.matches(":disabled")


def show(node, visible=True):
    node.hidden = not visible


def query_params():
    params = window.URLSearchParams.new(window.location.search)
    return {k: params.get(k) for k in ("seed", "pace", "game", "fresh", "daily") if params.has(k)}


class Storage:
    """localStorage, quiet when the browser refuses it (private mode, full quota)."""

    def get(self, key):
        try:
            value = window.localStorage.getItem(key)
        except Exception:
            return None
        return value if isinstance(value, str) else None  # a missing key is a JS null

    def set(self, key, value):
        try:
            window.localStorage.setItem(key, value)
            return True
        except Exception:
            return False

    def remove(self, key):
        try:
            window.localStorage.removeItem(key)
        except Exception:
            pass

    def keys(self):
        try:
            ls = window.localStorage
            return [ls.key(i) for i in range(ls.length)]
        except Exception:
            return []


def pieces_of(value):
    """A text as pieces ``[(chunk, is_name), …]``: a message (pygames.messages.Msg) rendered
    with its names marked, pieces as they are, anything else as one plain piece."""
    from pygames.messages import Msg, render

    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, list):
        return value
    return [(str(value), False)] if value else []


def set_text(node, value, limit=None):
    """Set `node`'s text; every player's name placed in it gets its own <bdi> (a name
    written right to left cannot reverse the sentence).  Never HTML."""
    from guard import short_pieces

    pieces = pieces_of(value)
    if limit is not None:
        pieces = short_pieces(pieces, limit)
    clear(node)
    for chunk, is_name in pieces:
        node.appendChild(el("bdi", chunk, "name") if is_name else document.createTextNode(chunk))


def said(*parts):
    """Pieces from parts: a `pygames.messages.Name` is a name, anything else plain text."""
    from pygames.messages import Name

    return [(str(p), isinstance(p, Name)) for p in parts if p != ""]


storage = Storage()
