"""The window and the messages of the page's Python in a worker (web/worker/worker_host.py):
what only the page has is held as a copy and each change is an operation in the drawing's
stream; a game page runs through the bridge from the page's first message to its events,
its batches travelling as JSON, as js/py-worker.mjs and js/worker-page.mjs pass them."""

from __future__ import annotations

import asyncio
import json
import sys
import types

import build
import pytest
from page_host import APP_MODULES, page_tree, run, worker_scope
from worker_host import Bridge, Window, run_script


def window(**kw):
    ops = []
    win = Window("http://127.0.0.1/pygames/yams.html?seed=1#x", {"pygames:a": "1"},
                 record=lambda *op: ops.append(list(op)), **kw)
    return win, ops


def test_storage_is_a_copy_and_each_write_an_operation():
    win, ops = window()
    store = win.localStorage
    assert store.getItem("pygames:a") == "1" and store.getItem("nope") is None and store.length == 1
    store.setItem("pygames:b", 2)
    store.removeItem("pygames:a")
    store.removeItem("pygames:a")  # gone already: nothing to say
    assert ops == [["ls", 0, "pygames:b", "2"], ["ls", 0, "pygames:a", None]]
    assert [store.key(i) for i in range(store.length)] == ["pygames:b"]
    seen = []
    win.addEventListener("storage", lambda e: seen.append((e.key, e.newValue, store.getItem(e.key))))
    win.dispatch({"window": "storage", "key": "pygames:c", "newValue": "3"})  # another tab's
    assert seen == [("pygames:c", "3", "3")]
    assert ops[-1] == ["wo", 0, "storage"] and len(ops) == 3  # heard, not written back
    # The page's own scripts' writes (the theme, a test's filler): the copy only.
    win.dispatch({"window": "pygames-storage-set", "key": "filler:0", "newValue": "x" * 10})
    assert store.getItem("filler:0") == "x" * 10 and len(seen) == 1
    win.dispatch({"window": "pygames-storage-set", "key": "filler:0", "newValue": None})
    assert store.getItem("filler:0") is None
    win.dispatch({"window": "pygames-storage-set", "key": None, "clear": True})
    assert store.length == 0 and len(ops) == 3 and len(seen) == 1


def test_the_address_history_and_reload_are_operations():
    win, ops = window()
    assert (win.location.search, win.location.hash, win.location.pathname) == ("?seed=1", "#x", "/pygames/yams.html")
    win.history.replaceState(None, "", "yams.html?game=yahtzee")
    assert win.location.href == "http://127.0.0.1/pygames/yams.html?game=yahtzee"
    assert win.location.search == "?game=yahtzee" and win.location.hash == ""
    win.location.reload()
    win.scrollTo(0, 0)
    assert ops == [["hr", 0, "http://127.0.0.1/pygames/yams.html?game=yahtzee"], ["rl", 0], ["sc", 0, [0, 0]]]


def test_the_page_scripts_are_the_ones_the_page_named():
    async def calls():
        win, ops = window(pygames=["early", "joy"])
        assert getattr(win.pygames, "setup", None) is None  # the page has none
        win.pygames.early.play()
        win.pygames.joy.celebrate("Yams !", True, "win")
        win.pygames.readyAt = 12.5
        win.pygames.box = object()  # not a value the page can take: said as null
        assert ops == [["pc", 0, "early.play", [], 1], ["pc", 0, "joy.celebrate", ["Yams !", True, "win"], 2],
                       ["pg", 0, "readyAt", 12.5], ["pg", 0, "box", None]]
        assert win.pygames.readyAt == 12.5

    run(calls())


def test_a_page_script_answers_what_python_awaits():
    """duo's calls: a value the page sent at first answers at once; a node goes as its id;
    the page's answer (its promise's value, or its refusal) settles the awaited call; a
    window event's detail is read as a JS object's fields."""
    from mirror import Document  # noqa: PLC0415

    async def calls():
        win, ops = window(pygames=["duo"], values={"duo.supported": True})
        assert win.pygames.duo.supported() is True and ops == []
        canvas = Document.from_tree([["canvas", {"id": "qr"}, []]]).getElementById("qr")
        offer = win.pygames.duo.offer()
        drawn = win.pygames.duo.draw(canvas, "https://x")
        assert ops == [["pc", 0, "duo.offer", [], 1], ["pc", 0, "duo.draw", [{"$node": canvas.nid}, "https://x"], 2]]
        win.dispatch({"window": "answer", "token": 2, "ok": False, "error": "no canvas"})
        win.dispatch({"window": "answer", "token": 1, "ok": True, "value": "v=0 sdp"})
        win.dispatch({"window": "answer", "token": 1, "ok": True, "value": "again"})  # once only
        assert await offer == "v=0 sdp"
        with pytest.raises(RuntimeError, match="no canvas"):
            await drawn
        win.pygames.duo.send("hello")  # answered or not, nothing waits on it
        seen = []
        win.addEventListener("pygames-duo", lambda e: seen.append((e.detail.kind, e.detail.data)))
        win.dispatch({"window": "pygames-duo", "detail": {"kind": "message", "data": "{}"}})
        assert seen == [("message", "{}")]

    run(calls())


def test_the_rest_is_the_worker_s_own():
    scope = types.SimpleNamespace(Date="the worker's Date")
    win, _ = window(fallback=scope)
    assert win.Date == "the worker's Date"
    with pytest.raises(AttributeError):
        win.Blob  # noqa: B018  (neither the window's nor the scope's)
    bare, _ = window()
    with pytest.raises(AttributeError):
        bare.Date  # noqa: B018


@pytest.fixture
def pyodide_stub(monkeypatch):
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_once_callable = lambda f: f
    monkeypatch.setitem(sys.modules, "pyodide", types.ModuleType("pyodide"))
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)


def test_a_page_runs_through_the_bridge(pyodide_stub):
    """The page's first message starts the shell on the mirror; a click on Commencer, sent as
    the page sends it, comes back as batches of operations, the game saved among them."""
    from pygames import messages

    words = (dict(messages._loaded), messages._active)
    batches = []

    fetched = []

    async def fetch(url):
        fetched.append(url)
        return types.SimpleNamespace(ok=False)

    async def bridged():
        tree = page_tree(build.family_pages()["yams.html"])
        bridge = Bridge(lambda text: batches.append(json.loads(text)), fetch,
                        fallback=worker_scope(),
                        forget=APP_MODULES)
        try:
            shell = bridge.start(json.dumps({
                "tree": tree, "href": "http://127.0.0.1/pygames/yams.html?seed=b&pace=0",
                "storage": {}, "family": "yams", "pygames": ["early"]}))
            assert shell is not None and batches
            first = [op for batch in batches for op in batch]
            calls = [op[2] for op in first if op[0] == "pc"]
            assert "early.release" in calls and "early.play" in calls
            assert any(op[:3] == ["pg", 0, "readyAt"] for op in first)
            start = bridge.document.getElementById("start")
            batches.clear()
            bridge.event(json.dumps({"node": start.nid, "type": "click"}))
            form = bridge.document.getElementById("setup-form")
            bridge.event(json.dumps({"node": form.nid, "type": "submit"}))
            for _ in range(20):
                await asyncio.sleep(0)
            ops = [op for batch in batches for op in batch]
            saved = [op for op in ops if op[0] == "ls" and op[2] == "pygames:yams:match"]
            assert saved and json.loads(saved[-1][3])["record"]["game"] == "yams"
            assert not bridge.document.getElementById("table").hidden
            assert bridge.window.errors == []
            # The expert's tables, fetched once a game is set up, from the page's folder.
            assert fetched == ["http://127.0.0.1/pygames/tables/yams/yams.bin"]
        finally:
            bridge.close()

    try:
        run(bridged())
    finally:
        messages._loaded.clear()
        messages._loaded.update(words[0])
        messages._active = words[1]
    assert "shell" not in sys.modules and "pyscript" not in sys.modules


def test_the_clipboard_and_the_share_sheet_are_asked_of_the_page_and_answered():
    async def asked():
        win, ops = window(features=["clipboard"])
        assert getattr(win.navigator, "share", None) is None  # this browser has none
        copied = win.navigator.clipboard.writeText("https://x/#r=1")
        refused = win.navigator.clipboard.writeText("again")
        assert ops == [["ak", 0, "clipboard", ["https://x/#r=1"], 1], ["ak", 0, "clipboard", ["again"], 2]]
        win.dispatch({"window": "answer", "token": 2, "ok": False, "error": "NotAllowedError"})
        win.dispatch({"window": "answer", "token": 1, "ok": True})
        win.dispatch({"window": "answer", "token": 1, "ok": False})  # once only
        win.dispatch({"window": "answer", "token": 99, "ok": True})  # none such: nothing
        await copied
        with pytest.raises(RuntimeError, match="NotAllowedError"):
            await refused
        sharing, ops2 = window(features=["clipboard", "share"])
        sharing.navigator.share({"text": "Défi"})
        sharing.getSelection().selectAllChildren(types.SimpleNamespace(nid=7))
        assert ops2 == [["ak", 0, "share", [{"text": "Défi"}], 1], ["sl", 0, 7]]

    run(asked())


def test_a_write_the_page_refused_is_taken_back_and_the_next_ones_refused_here():
    win, ops = window()
    store = win.localStorage
    heard = []
    win.addEventListener("pygames-storage-refused", lambda e: heard.append(e.key))
    store.setItem("pygames:yams:match", "x" * 50)  # the copy took it; the page will not
    win.dispatch({"window": "pygames-storage-refused", "key": "pygames:yams:match", "value": None,
                  "used": store.size() - 50 - len("pygames:yams:match")})
    assert heard == ["pygames:yams:match"] and store.getItem("pygames:yams:match") is None
    with pytest.raises(Exception, match="full"):
        store.setItem("pygames:yams:match", "x" * 10)  # still no room
    store.removeItem("pygames:a")  # room made
    store.setItem("pygames:b", "y")  # and used, within it
    assert ops[-1] == ["ls", 0, "pygames:b", "y"]


def test_the_page_s_script_runs_as_the_page_has_it():
    """The page's own Python script, not a copy of it: its last expression is what it gives
    (the shell); a script that raises (a damaged page: ``import shell_gone``) raises here,
    and the worker says the page could not start."""
    assert run_script("x = 2\nx * 3") == 6
    assert run_script("y = 1") is None
    assert run_script("__name__") == "__main__"
    with pytest.raises(ModuleNotFoundError):
        run_script("import shell_gone; shell_gone.main('yams')")
