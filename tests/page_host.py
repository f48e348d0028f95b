"""A game page run in CPython: the page's Python (web/app) on the mirror of the page that the
build writes (web/worker/mirror.py), with a window that holds what the page's modules ask of
one.  It is what a worker will give the page's Python (issue 24), without the worker: the
test of the mirror against the real modules, and of what they ask of the page.

`Host(family).start()` parses the built page into the mirror's tree, puts stand-ins for
``pyscript`` and ``pyodide`` in ``sys.modules`` (so dom.py hands the mirror out), imports the
shell afresh and runs ``shell.main``; `click`, `submit`, `key` send the page's events as the
page would; `close` puts ``sys.modules`` back.
"""

from __future__ import annotations

import asyncio
import sys
import time
import types
import urllib.parse
from html.parser import HTMLParser

import build  # web/tools/build.py
from mirror import Document

#: The page's own modules (web/app): imported afresh for each host.
APP_MODULES = {p.stem for p in (build.WEB / "app").glob("*.py")}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
RAW = {"script", "style", "template", "textarea", "title"}


class _Tree(HTMLParser):
    """An HTML page as the mirror's tree (what the page will send the worker)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = ["#root", {}, []]
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = [tag, {k: "" if v is None else v for k, v in attrs}, []]
        self.stack[-1][2].append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1][2].append([tag, {k: "" if v is None else v for k, v in attrs}, []])

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if data.strip() or self.stack[-1][0] in RAW:
            self.stack[-1][2].append(data)


def page_tree(html: str) -> list:
    parser = _Tree()
    parser.feed(html)
    parser.close()
    return parser.root[2]


class Storage:
    def __init__(self, items=None):
        self.items = dict(items or {})

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self.items[str(key)] = str(value)

    def removeItem(self, key):
        self.items.pop(key, None)

    def key(self, i):
        return list(self.items)[i]

    @property
    def length(self):
        return len(self.items)


class Params:
    def __init__(self, search):
        self.values = dict(urllib.parse.parse_qsl(search.lstrip("?"), keep_blank_values=True))

    def has(self, key):
        return key in self.values

    def get(self, key):
        return self.values.get(key)


class URL:
    def __init__(self, href):
        self._parts = urllib.parse.urlsplit(href)
        self.searchParams = URLParams(self)

    @property
    def href(self):
        return self._parts.geturl()


class URLParams:
    def __init__(self, url):
        self._url = url

    def _pairs(self):
        return urllib.parse.parse_qsl(self._url._parts.query, keep_blank_values=True)

    def has(self, key):
        return any(k == key for k, _ in self._pairs())

    def delete(self, key):
        query = urllib.parse.urlencode([(k, v) for k, v in self._pairs() if k != key])
        self._url._parts = self._url._parts._replace(query=query)


class Window:
    """What the page's modules ask of ``window``, and no more: a stand-in for the worker's
    (what it holds, the page's own objects, what it forwards: the next step of issue 24)."""

    def __init__(self, url, storage=None):
        parts = urllib.parse.urlsplit(url)
        self.location = types.SimpleNamespace(href=url, search=f"?{parts.query}" if parts.query else "",
                                              hash=f"#{parts.fragment}" if parts.fragment else "",
                                              pathname=parts.path, reload=lambda: None)
        self.history = types.SimpleNamespace(state=None, replaceState=self._replace)
        self.localStorage = Storage(storage)
        self.pygames = types.SimpleNamespace()
        self.Object = types.SimpleNamespace(new=types.SimpleNamespace)
        self.URLSearchParams = types.SimpleNamespace(new=Params)
        self.URL = types.SimpleNamespace(new=URL)
        self.performance = types.SimpleNamespace(now=lambda: time.perf_counter() * 1000)
        self.Date = types.SimpleNamespace(now=lambda: time.time() * 1000)
        self.Math = types.SimpleNamespace(random=lambda: 0.5)
        self.console = types.SimpleNamespace(error=self.errors_append, log=lambda *a: None)
        self.navigator = types.SimpleNamespace(clipboard=None)
        self.innerWidth = 1280
        self.errors = []
        self.listeners = {}
        self.timers = []

    def errors_append(self, text):
        self.errors.append(text)

    def _replace(self, state, title, url=None):
        self.history.state = state
        if url is not None:
            parts = urllib.parse.urlsplit(urllib.parse.urljoin(self.location.href, url))
            self.location.href = parts.geturl()
            self.location.search = f"?{parts.query}" if parts.query else ""
            self.location.hash = f"#{parts.fragment}" if parts.fragment else ""

    def addEventListener(self, type_, handler, options=None):
        self.listeners.setdefault(type_, []).append(handler)

    def setTimeout(self, handler, ms=0):
        self.timers.append(asyncio.get_running_loop().call_later(ms / 1000, handler))
        return len(self.timers)

    def clearTimeout(self, n):
        if 0 < n <= len(self.timers):
            self.timers[n - 1].cancel()

    def scrollTo(self, *args):
        pass


class Response:
    ok = False


async def _fetch(url):
    return Response()  # no tables here: the expert plays simpler, the advisor says why


class Host:
    def __init__(self, family: str, *, url: str | None = None, storage=None, page: str | None = None,
                 tree: list | None = None):
        """The built page `page` (default: the family's), or the `tree` a browser sent of it
        (js/page-mirror.mjs ``tree``)."""
        self.family = family
        if tree is None:
            tree = page_tree(build.family_pages()[page or f"{family}.html"])
        self.document = Document.from_tree(tree)
        self.window = Window(url or f"http://127.0.0.1/{family}.html", storage)
        self.shell = None
        self._saved = {}

    def _install(self):
        from pygames import messages

        # The page speaks its own catalogue (shell.speak): the tests' words come back after.
        self._words = (dict(messages._loaded), messages._active)
        stubs = {
            "pyscript": types.SimpleNamespace(document=self.document, window=self.window, fetch=_fetch),
            "pyscript.ffi": types.SimpleNamespace(create_proxy=lambda f: f, to_js=lambda v, **k: v),
            "pyodide": types.SimpleNamespace(),
            "pyodide.ffi": types.SimpleNamespace(create_once_callable=lambda f: f, to_js=lambda v, **k: v),
        }
        for name in set(stubs) | APP_MODULES:
            self._saved[name] = sys.modules.pop(name, None)
        for name, stub in stubs.items():
            sys.modules[name] = types.ModuleType(name)
            sys.modules[name].__dict__.update(vars(stub))

    def close(self):
        if hasattr(self, "_words"):
            from pygames import messages

            loaded, messages._active = self._words
            messages._loaded.clear()
            messages._loaded.update(loaded)
        for name, module in self._saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
        for name in APP_MODULES - set(self._saved):
            sys.modules.pop(name, None)

    async def start(self):
        self._install()
        import shell

        self.shell = shell.main(self.family)
        await self.settle()
        return self

    async def settle(self, rounds=20):
        """Let the page's tasks run (a few turns of the loop)."""
        for _ in range(rounds):
            await asyncio.sleep(0)

    def by_id(self, id_):
        node = self.document.getElementById(id_)
        assert node is not None, f"no #{id_} on the page"
        return node

    async def send(self, node, type_, **fields):
        event = self.document.dispatch({"node": node.nid, "type": type_, **fields})
        await self.settle()
        return event

    async def click(self, node):
        return await self.send(node, "click")

    async def key(self, key, node=None, **mods):
        return await self.send(node or self.document.activeElement or self.document.body, "keydown", key=key, **mods)

    async def step(self, n: int) -> bool:
        """The `n`-th click of a match played by clicks: an enabled control of the table
        (``data-action``, one in seven along), a confirmation accepted, or a moment for the
        computer (``?pace=0`` makes it quick); False once the match is over."""
        if self.shell.match.state.is_terminal():
            return False
        if self.by_id("confirm").open:
            await self.click(self.by_id("confirm-accept"))
            return True
        controls = [b for b in self.document.querySelectorAll("#table [data-action]")
                    if not b.disabled and b.checkVisibility()]
        if controls:
            await self.click(controls[(n * 7) % len(controls)])
        else:
            await asyncio.sleep(0.005)  # the computer's move
        return True

    def text(self, id_):
        return " ".join(self.by_id(id_).textContent.split())
