"""The page's Python away from the page: the window its modules are given, and the worker's
end of the messages (issue 24, item 2: the main thread free while Python starts).

A game page's Python (web/app) reaches JavaScript through dom.py only, which takes
``document``, ``window`` and ``fetch`` from ``pyscript``.  Here those are the mirror of the page
(mirror.py) and a `Window` that holds what the page's modules ask of one:

* what only the page has (localStorage, the address, history, the page's own scripts under
  ``window.pygames``, the window's events) is held here as a copy the page sent, and each
  change is an operation in the same stream as the drawing (``["ls", 0, key, value]`` …,
  see `Window`), which the page applies in order, after the drawing made before it;
* what a worker has as well (Date, Blob, URL, Intl, performance …) is the worker's own:
  `Window` hands out the attributes of `fallback` (the worker's global scope) for the rest;
* timers run on Python's own loop (Pyodide's runs on the worker's setTimeout).

`Bridge` is the worker's end: `start` takes the page's first message (its tree, its storage,
its address, the names of its scripts), installs the stand-ins for ``pyscript`` in
``sys.modules``, runs ``shell.main``; `event` takes each event the page sends; whenever an
operation is recorded a flush is scheduled on the loop, and `post` gets the batch as one
JSON text.  Pure Python: js/py-worker.mjs hands it ``post`` and ``fetch``, and
tests/page_host.py runs the same window in CPython.
"""

from __future__ import annotations

import ast
import asyncio
import json
import sys
import types
import urllib.parse

from mirror import Document

#: The modules that dom.py takes the page's objects from.
STUBS = ("pyscript", "pyscript.ffi")


class StorageFull(Exception):
    """What localStorage raises when the origin's quota is used up (QuotaExceededError)."""


class Storage:
    """The page's localStorage as the page sent it; each change is also `record`ed.  Its
    quota is known only on the page: once the page has refused a write (`refused`), a write
    that would make the stored texts longer than they were then is refused here at once."""

    def __init__(self, items=None, record=None):
        self.items = {str(k): str(v) for k, v in dict(items or {}).items()}
        self._record = record or (lambda *op: None)
        self.limit = None  # characters, keys and values (as the page counted them when full)

    def size(self, items=None):
        return sum(len(k) + len(v) for k, v in (self.items if items is None else items).items())

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        key, value = str(key), str(value)
        if self.limit is not None and self.size({**self.items, key: value}) > self.limit:
            raise StorageFull(f"localStorage is full (the page refused a write of {self.limit} characters)")
        self.items[key] = value
        self._record("ls", 0, key, value)

    def refused(self, key, value, used):
        """The page refused the write of `key`: it still holds `value` (None: none), and
        `used` characters in all."""
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = str(value)
        self.limit = int(used) if isinstance(used, (int, float)) else self.size()

    def removeItem(self, key):
        if self.items.pop(key, None) is not None:
            self._record("ls", 0, str(key), None)

    def key(self, i):
        return list(self.items)[i]

    @property
    def length(self):
        return len(self.items)

    def heard(self, key, value):
        """Another tab's change, as the page's ``storage`` event told it."""
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = value


class Location:
    def __init__(self, href, record):
        self._record = record
        self._go(href)

    def _go(self, href):
        parts = urllib.parse.urlsplit(href)
        self.href = href
        self.search = f"?{parts.query}" if parts.query else ""
        self.hash = f"#{parts.fragment}" if parts.fragment else ""
        self.pathname = parts.path

    def reload(self):
        self._record("rl", 0)


class History:
    def __init__(self, location, record):
        self.state = None
        self._location = location
        self._record = record

    def replaceState(self, state, title, url=None):
        self.state = state
        if url is not None:
            self._location._go(urllib.parse.urljoin(self._location.href, str(url)))
        self._record("hr", 0, None if url is None else self._location.href)


class PageObject:
    """One of the page's scripts' objects (``window.pygames.early`` …): calling a method of
    it is an operation, ``["pc", 0, "early.play", [args], token]``, which the page runs in
    order.  A node among the arguments goes as ``{"$node": id}``.  The call hands back a
    future (`Asked`) that the page's answer settles: the method's value, or its promise's
    once settled (duo's offer(), draw() …).  A method whose value the page sent with its first message (``values``:
    ``duo.supported``) answers at once, with no operation."""

    def __init__(self, path, record, asked=None, values=None):
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_asked", asked)
        object.__setattr__(self, "_values", values if values is not None else {})

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return PageObject(f"{self._path}.{name}", self._record, self._asked, self._values)

    def __call__(self, *args):
        if self._path in self._values:
            return self._values[self._path]
        args = [{"$node": a.nid} if hasattr(a, "nid") else _plain(a) for a in args]
        if self._asked is None:
            self._record("pc", 0, self._path, args)
            return None
        return self._asked.ask_call(self._path, args)


class Pygames:
    """``window.pygames``: the page's scripts that the page said it has (their names), and
    the values Python sets on it (``readyAt`` …), which the page sets too (``["pg", 0, name,
    value]``)."""

    def __init__(self, names, record, asked=None, values=None):
        object.__setattr__(self, "_names", set(names or ()))
        object.__setattr__(self, "_record", record)
        object.__setattr__(self, "_asked", asked)
        object.__setattr__(self, "_values", dict(values or {}))

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._names:
            raise AttributeError(name)
        return PageObject(name, self._record, self._asked, self._values)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        self._record("pg", 0, name, value if isinstance(value, (str, int, float, bool)) else None)


class Asked:
    """What the page's browser does for a person's gesture and answers later: the clipboard,
    the share sheet.  Each ask is an operation, ``["ak", 0, what, args, token]``, run by the
    page as it applies the batch (within the click's transient activation: the batch of a
    click's handler reaches the page in a few ms); its answer comes back as a window event
    ``{"window": "answer", "token", "ok", "error"}`` and settles the promise handed out."""

    def __init__(self, record):
        self._record = record
        self._waiting = {}
        self._next = 0

    def _future(self):
        self._next += 1
        future = asyncio.get_event_loop().create_future()
        # (a refusal nobody awaits is not an error of the worker's: marked as seen)
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._waiting[self._next] = future
        return future, self._next

    def ask(self, what, *args):
        future, token = self._future()
        self._record("ak", 0, what, list(args), token)
        return future

    def ask_call(self, path, args):
        """A page script's method (`PageObject`): answered only if it returns a promise."""
        future, token = self._future()
        self._record("pc", 0, path, args, token)
        return future

    def answer(self, token, ok, error=None, value=None):
        future = self._waiting.pop(token, None)
        if future is None or future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(RuntimeError(str(error or "refused")))


def _plain(value):
    """A value for an operation (JSON): Pyodide's JS objects (to_js's) back to Python's."""
    to_py = getattr(value, "to_py", None)
    return to_py() if callable(to_py) else value


class Navigator:
    """``window.navigator``: the page's clipboard and share sheet (when the page has them),
    through `Asked`."""

    def __init__(self, asked, features):
        self.onLine = True
        if "clipboard" in features:
            self.clipboard = types.SimpleNamespace(writeText=lambda text: asked.ask("clipboard", str(text)))
        else:
            self.clipboard = None
        if "share" in features:
            self.share = lambda data=None: asked.ask("share", _plain(data))


class Selection:
    """``window.getSelection()``: selecting a node's text is the page's (an operation)."""

    def __init__(self, record):
        self._record = record

    def selectAllChildren(self, node):
        self._record("sl", 0, node.nid)


class Window:
    """What the page's modules ask of ``window``: see the module's docstring.  `record(*op)`
    takes each operation; `fallback` answers the rest (the worker's global scope, or the
    tests' stand-ins); `features` names what the page's browser has (``clipboard``,
    ``share``)."""

    def __init__(self, url, storage=None, *, record=None, fallback=None, pygames=(), width=1280,
                 features=(), values=None):
        self._record = record or (lambda *op: None)
        self._fallback = fallback
        self._asked = Asked(self._record)
        self.location = Location(url, self._record)
        self.history = History(self.location, self._record)
        self.localStorage = Storage(storage, self._record)
        self.pygames = Pygames(pygames, self._record, self._asked, values)
        self.console = types.SimpleNamespace(error=self._error, log=lambda *a: None)
        self.navigator = Navigator(self._asked, set(features))
        self.innerWidth = width
        self.errors = []
        self.listeners = {}
        self.timers = []

    def getSelection(self):
        return Selection(self._record)

    def __getattr__(self, name):
        if name.startswith("_") or self.__dict__.get("_fallback") is None:
            raise AttributeError(name)
        return getattr(self._fallback, name)

    def _error(self, text):
        self.errors.append(str(text))
        self._record("ce", 0, str(text))

    def addEventListener(self, type_, handler, options=None):
        if type_ not in self.listeners:
            self._record("wo", 0, type_)
        self.listeners.setdefault(type_, []).append(handler)

    def removeEventListener(self, type_, handler, options=None):
        if handler in self.listeners.get(type_, []):
            self.listeners[type_].remove(handler)

    def dispatch(self, message):
        """A window event the page sent (``{"window": type, …}``): a ``storage`` event updates
        the copy first; a ``hashchange`` the address.  ``pygames-storage-set``: the page's own
        scripts wrote its localStorage (``clear``: emptied it); the copy follows, and no
        listener hears of it (a tab hears no storage event of its own writes)."""
        type_ = message["window"]
        if type_ == "answer":
            self._asked.answer(message.get("token"), bool(message.get("ok")), message.get("error"),
                               message.get("value"))
            return
        if type_ == "pygames-storage-set":  # written on the page by its own scripts
            if message.get("clear"):
                self.localStorage.items.clear()
            elif isinstance(message.get("key"), str):
                self.localStorage.heard(message["key"], message.get("newValue"))
            return
        if type_ == "pygames-storage-refused" and isinstance(message.get("key"), str):
            self.localStorage.refused(message["key"], message.get("value"), message.get("used"))
        if type_ == "storage" and isinstance(message.get("key"), str):
            self.localStorage.heard(message["key"], message.get("newValue"))
        if type_ == "hashchange" and isinstance(message.get("href"), str):
            self.location._go(message["href"])
        detail = message.get("detail")
        if isinstance(detail, dict):  # read as a JS object's fields (duo's detail.kind)
            detail = types.SimpleNamespace(**{str(k): v for k, v in detail.items()})
        event = types.SimpleNamespace(type=type_, key=message.get("key"), newValue=message.get("newValue"),
                                      detail=detail, preventDefault=lambda: None)
        for handler in list(self.listeners.get(type_, ())):
            handler(event)

    def setTimeout(self, handler, ms=0):
        self.timers.append(asyncio.get_running_loop().call_later((ms or 0) / 1000, handler))
        return len(self.timers)

    def clearTimeout(self, n):
        if isinstance(n, int) and 0 < n <= len(self.timers):
            self.timers[n - 1].cancel()

    def scrollTo(self, *args):
        self._record("sc", 0, list(args))


def install(document, window, fetch, to_js=None, forget=()):
    """Make ``pyscript`` hand out `document`, `window` and `fetch` (dom.py takes them from
    there), and forget the modules named in `forget` (the page's own, imported before by
    another host), so that they take them afresh.  Returns what to put back (`uninstall`)."""
    saved = {}
    for name in set(STUBS) | set(forget):
        saved[name] = sys.modules.pop(name, None)
    ffi = types.ModuleType("pyscript.ffi")
    ffi.create_proxy = lambda f: f  # the handlers stay in Python: nothing to keep alive
    ffi.to_js = to_js or (lambda value, **kw: value)
    main = types.ModuleType("pyscript")
    main.document, main.window, main.fetch, main.ffi = document, window, fetch, ffi
    sys.modules["pyscript"], sys.modules["pyscript.ffi"] = main, ffi
    return saved


def uninstall(saved, forget=()):
    """Put back what `install` took (and forget the modules imported meanwhile)."""
    for name, module in saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module
    for name in set(forget) - set(saved):
        sys.modules.pop(name, None)


class Response:
    """A fetch's response as PyScript's fetch gives it (pyscript/fetch.py): the body as
    Python's bytes, text or data; the rest (ok, status …) the response's own."""

    def __init__(self, response):
        self._response = response

    def __getattr__(self, name):
        return getattr(self._response, name)

    async def arrayBuffer(self):
        buffer = await self._response.arrayBuffer()
        to_py = getattr(buffer, "to_py", None)
        return to_py() if callable(to_py) else buffer

    async def text(self):
        return str(await self._response.text())

    async def json(self):
        return json.loads(await self.text())


def _pyodide_to_js():
    """Pyodide's to_js as PyScript's (a dict becomes an Object), or None out of Pyodide."""
    try:
        import js  # noqa: PLC0415
        from pyodide.ffi import to_js  # noqa: PLC0415
    except ImportError:
        return None
    return lambda value, **kw: to_js(value, dict_converter=js.Object.fromEntries, **kw)


def run_script(source):
    """Run the page's Python script (its text) as ``__main__`` would; the value of its last
    statement when that is an expression (None otherwise)."""
    tree = ast.parse(source, "<page script>")
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    scope = {"__name__": "__main__"}
    exec(compile(tree, "<page script>", "exec"), scope)  # noqa: S102  (the page's own script)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<page script>", "eval"), scope)  # noqa: S307


class Bridge:
    """The worker's end of the page's messages (see the module's docstring)."""

    def __init__(self, post, fetch, fallback=None, to_js=None, forget=()):
        self._forget = forget  # the page's modules an earlier host imported (tests)
        self._saved = None
        self._post = post
        self._fetch = fetch
        self._fallback = fallback
        self._to_js = to_js or _pyodide_to_js()
        self._pending = False
        self.document = None
        self.window = None
        self.shell = None

    def _record(self, *op):
        self.document._op(*op)

    def _changed(self):
        if not self._pending:
            self._pending = True
            asyncio.get_event_loop().call_soon(self.flush)

    def flush(self):
        self._pending = False
        ops = self.document.take()
        if ops:
            self._post(json.dumps(ops, separators=(",", ":")))

    def start(self, message):
        """The page's first message (JSON): ``{"tree", "href", "storage", "family",
        "pygames": [names], "width", "visibility", "features": ["clipboard", "share"],
        "values": {"duo.supported": bool}, "script": the page's Python script}``.  The script
        runs here as PyScript would run it on the page (``import shell; shell.main("yams")``);
        what its last expression gives (the shell) is returned."""
        data = json.loads(message)
        self.document = Document.from_tree(data["tree"])
        self.document._set("visibilityState", data.get("visibility", "visible"))
        self.window = Window(data["href"], data.get("storage") or {}, record=self._record,
                             fallback=self._fallback, pygames=data.get("pygames") or (),
                             width=data.get("width", 1280), features=data.get("features") or (),
                             values=data.get("values") or {})
        self.document.watch(self._changed)
        self._saved = install(self.document, self.window, self._page_fetch, self._to_js, self._forget)
        try:
            self.shell = run_script(data.get("script") or f"import shell; shell.main({data['family']!r})")
        finally:
            self.flush()
        return self.shell

    async def _page_fetch(self, url, *args):
        """fetch as PyScript's (its body as Python's types), with an address relative to the
        page's (the worker's own is js/'s)."""
        return Response(await self._fetch(urllib.parse.urljoin(self.window.location.href, str(url)), *args))

    def close(self):
        """Put back the modules `start` replaced (a worker never needs to: the tests do)."""
        if self._saved is not None:
            uninstall(self._saved, self._forget)
            self._saved = None

    def event(self, message):
        """An event of the page (JSON): a node's (mirror.Document.dispatch), the window's
        (``{"window": type, …}``), or a part of the page its scripts changed (``{"sync":
        part, "change": bool, "seen": batches applied}``)."""
        data = json.loads(message)
        try:
            if "sync" in data:  # a part the page's own scripts changed (mirror.Document.sync)
                root = self.document.sync(data["sync"], data.get("seen"))
                if data.get("change"):  # not with an event: as if the part had changed
                    self.document.dispatch({"node": root.nid, "type": "change"})
            elif "window" in data:
                self.window.dispatch(data)
            else:
                self.document.dispatch(data)
        finally:
            self.flush()
