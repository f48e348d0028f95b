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
import concurrent.futures
import sys
import time
import types
import urllib.parse
from html.parser import HTMLParser

import build  # web/tools/build.py
from mirror import Document
from worker_host import Window, install, uninstall

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


def worker_scope():
    """Stand-ins for what the worker's global scope answers the page's modules (URL,
    URLSearchParams, Date …: worker_host.Window hands out the scope's)."""
    return types.SimpleNamespace(
        Object=types.SimpleNamespace(new=types.SimpleNamespace),
        URLSearchParams=types.SimpleNamespace(new=Params), URL=types.SimpleNamespace(new=URL),
        performance=types.SimpleNamespace(now=lambda: time.perf_counter() * 1000),
        Date=types.SimpleNamespace(now=lambda: time.time() * 1000),
        Math=types.SimpleNamespace(random=lambda: 0.5))


def window(url, storage=None):
    """The worker's window (worker_host.Window) on `worker_scope`."""
    return Window(url, storage, fallback=worker_scope())


def run(coroutine):
    """`coroutine` run to its end on a loop of its own, in a thread of its own: the browser
    tests run in the same process (pytest-xdist gives a worker both kinds), and Playwright's
    loop holds this thread's."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


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
        self.window = window(url or f"http://127.0.0.1/{family}.html", storage)
        self.shell = None
        self._saved = {}
        self._pyodide = {}

    def _install(self):
        from pygames import messages

        # The page speaks its own catalogue (shell.speak): the tests' words come back after.
        self._words = (dict(messages._loaded), messages._active)
        # Pyodide's own module (dom.py's create_once_callable), which CPython has not.
        for name in ("pyodide", "pyodide.ffi"):
            self._pyodide[name] = sys.modules.pop(name, None)
            sys.modules[name] = types.ModuleType(name)
        sys.modules["pyodide.ffi"].create_once_callable = lambda f: f
        self._saved = install(self.document, self.window, _fetch, forget=APP_MODULES)

    def close(self):
        if hasattr(self, "_words"):
            from pygames import messages

            loaded, messages._active = self._words
            messages._loaded.clear()
            messages._loaded.update(loaded)
        uninstall(self._saved, forget=APP_MODULES)
        for name, module in self._pyodide.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module

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
