"""The mirror of the page (web/worker/mirror.py): the DOM the page's Python will draw on from a
worker (issue 24), checked on its own, then under the page's real modules.

* Every change is made at once and recorded: replaying the recorded operations on a copy of
  the page gives the same page (a property test over random changes).
* It reads like the DOM the modules use: selectors in the whole document, reflected
  attributes, live form state, events that bubble; what it cannot know (layout) is refused
  by name, and so is a change the DOM refuses, with nothing changed.
* The whole page's Python runs on it unchanged: each game's built page starts, plays a match
  to its end by clicks alone against the computer, and resumes from what it saved
  (tests/page_host.py).
"""

from __future__ import annotations

import gc
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mirror import Document, Element, MirrorError, NotInMirror, Text
from mirror_changes import CHANGE_KINDS, make_change
from page_host import Host, run

from pygames import FAMILIES

OPS = {"el", "tx", "at", "pr", "in", "rm", "da", "st", "do", "on", "fr"}

PAGE = [["html", {"lang": "fr"}, [
    ["head", {}, [["title", {}, ["Jeu"]]]],
    ["body", {}, [
        ["main", {"id": "main"}, [
            ["form", {"id": "f"}, [
                ["fieldset", {"id": "fs"}, [
                    ["legend", {}, [["button", {"id": "in-legend"}, ["?"]]]],
                    ["input", {"type": "radio", "name": "r", "value": "a", "checked": ""}, []],
                    ["input", {"type": "radio", "name": "r", "value": "b"}, []],
                    ["button", {"id": "go", "class": "primary big"}, ["Go"]],
                ]],
                ["select", {"id": "s"}, [["option", {"value": "x"}, ["X"]],
                                         ["option", {"value": "y", "selected": ""}, ["Y"]]]],
            ]],
            ["ul", {"id": "list", "data-kind": "dice"}, [["li", {"data-die": "1"}, ["1"]], "texte"]],
        ]],
    ]],
]]]


def page():
    return Document.from_tree(PAGE)


def shape(node):
    """A node and its subtree as plain data (ids included): what the page would show."""
    if isinstance(node, Text):
        return (node.nid, node.data)
    attrs = dict(sorted(node.attrs.items())) if isinstance(node, Element) else {}
    live = dict(sorted(node.live.items())) if isinstance(node, Element) else {}
    style = dict(sorted(node.__dict__["_style"]._props.items())) if "_style" in node.__dict__ else {}
    return (node.nid, getattr(node, "localName", "#document"), attrs, live, style,
            [shape(c) for c in node.childNodes])


def replay(doc: Document, ops: list) -> None:
    """The operations' meaning, applied to a copy of the page (as the page's applier will:
    it holds every node it made until told to forget it)."""
    held = {n.nid: n for n in doc.nodes()}

    def node(nid):
        return held[nid]

    for op in json.loads(json.dumps(ops)):  # they travel as JSON
        kind, nid = op[0], op[1]
        if kind == "el":
            held[nid] = Element(doc, nid, op[2], op[3])
        elif kind == "tx":
            held[nid] = Text(doc, nid, op[2])
        elif kind == "at":
            attrs = node(nid).attrs
            attrs.pop(op[2], None) if op[3] is None else attrs.__setitem__(op[2], op[3])
        elif kind == "pr":
            node(nid).live[op[2]] = op[3]
        elif kind == "in":
            child, parent = node(op[2]), node(nid)
            if child.parentNode is not None:
                child.parentNode.childNodes.remove(child)
            kids = parent.childNodes
            kids.insert(len(kids) if op[3] is None else kids.index(node(op[3])), child)
            child._set("parentNode", parent)
        elif kind == "rm":
            child = node(nid)
            child.parentNode.childNodes.remove(child)
            child._set("parentNode", None)
        elif kind == "da":
            node(nid)._set("_data", op[2])
        elif kind == "st":
            props = node(nid).style._props
            props.pop(op[2], None) if op[3] is None else props.__setitem__(op[2], op[3])
        elif kind == "fr":  # never a node of the tree
            assert not any(node(i).isConnected for i in op[2])
            for i in op[2]:
                del held[i]
        else:
            assert kind in ("do", "on"), kind


# --- changes, recorded ------------------------------------------------------------------------


def test_new_nodes_are_numbered_after_the_page_and_recorded_in_order():
    doc = page()
    last = max(n.nid for n in doc.nodes())
    item = doc.createElement("li")
    item.textContent = "<b>Léa</b>"  # a name is text, never markup
    doc.getElementById("list").appendChild(item)
    assert doc.take() == [["el", last + 1, "li", None], ["tx", last + 2, "<b>Léa</b>"],
                          ["in", last + 1, last + 2, None], ["in", doc.getElementById("list").nid, last + 1, None]]
    assert doc.take() == []
    assert item.textContent == "<b>Léa</b>" and item.firstChild.nodeType == 3


def test_the_page_forgets_the_nodes_python_let_go_of_and_only_those():
    doc = page()
    listing = doc.getElementById("list")
    kept, dropped = doc.createElement("li"), doc.createElement("li")
    dropped.appendChild(doc.createTextNode("x"))
    listing.append(kept, dropped)
    ids = (kept.nid, dropped.nid, dropped.firstChild.nid)
    kept.remove()
    dropped.remove()
    del dropped
    gc.collect()  # a subtree is a cycle (parent and children): the collector frees it
    assert doc.take()[-1] == ["fr", 0, sorted(ids[1:])]
    listing.appendChild(kept)  # still Python's: back in the page as it was
    assert doc.node(ids[0]) is kept and doc.take() == [["in", listing.nid, ids[0], None]]


def test_a_node_moved_leaves_its_old_place_in_one_operation():
    doc = page()
    main, li = doc.getElementById("main"), doc.querySelector("#list li")
    main.insertBefore(li, main.firstChild)
    assert doc.take() == [["in", main.nid, li.nid, doc.getElementById("f").nid]]
    assert [c.localName for c in main.children] == ["li", "form", "ul"]
    assert doc.getElementById("list").textContent == "texte"


def test_reflected_properties_write_attributes_and_say_nothing_when_unchanged():
    doc = page()
    go = doc.getElementById("go")
    go.hidden = True
    go.hidden = True
    go.disabled = False  # was not
    go.className = "primary"
    go.dataset.seatName = "Léa"
    go.classList.add("primary")  # already there
    assert go.classList.toggle("rolling") is True
    go.ariaPressed = "true"
    go.style.setProperty("--play-h", "12px")
    go.style.marginLeft = "3.5%"  # (by its camelCase name, as the Dé Landais' bars are placed)
    go.style.marginLeft = ""
    assert doc.take() == [["at", go.nid, "hidden", ""], ["at", go.nid, "class", "primary"],
                          ["at", go.nid, "data-seat-name", "Léa"], ["at", go.nid, "class", "primary rolling"],
                          ["at", go.nid, "aria-pressed", "true"], ["st", go.nid, "--play-h", "12px"],
                          ["st", go.nid, "margin-left", "3.5%"], ["st", go.nid, "margin-left", None]]
    assert go.style.marginLeft == "" and go.style.getPropertyValue("--play-h") == "12px"
    assert (go.hidden, go.dataset.seatName, go.dataset.missing, go.getAttribute("aria-pressed")) == \
        (True, "Léa", None, "true")


def test_form_state_is_live():
    doc = page()
    first, second = doc.querySelectorAll("input[name=r]")
    assert (first.checked, second.checked, first.value) == (True, False, "a")
    second.checked = True  # a radio group has one checked
    assert (first.checked, second.checked) == (False, True)
    select = doc.getElementById("s")
    assert select.value == "y" and select.options.length == 2
    select.value = "x"
    assert select.value == "x" and doc.take()[-1] == ["pr", select.nid, "value", "x"]


# --- reading like the DOM -------------------------------------------------------------------


def test_selectors_match_in_the_whole_document_like_the_dom():
    doc = page()
    form = doc.getElementById("f")
    assert [b.id for b in form.querySelectorAll("main button")] == ["in-legend", "go"]  # "main" is outside form
    assert [e.localName for e in doc.querySelectorAll("#f > fieldset > input, select")] == ["input", "input", "select"]
    assert doc.querySelector('ul[data-kind="dice"] li[data-die="1"]').textContent == "1"
    assert doc.querySelector("[data-kind^=di]") is doc.getElementById("list")
    assert doc.querySelector("button.primary.big").id == "go"
    assert doc.getElementById("go").closest("form") is form
    assert doc.getElementById("go").closest("ul") is None
    assert doc.querySelector("input:checked").value == "a"
    assert [b.id for b in doc.querySelectorAll("button:not(.big)")] == ["in-legend"]
    assert [i.value for i in doc.querySelectorAll("input:not([checked])")] == ["b"]


def test_disabled_follows_a_disabled_fieldset_except_its_legend():
    doc = page()
    doc.getElementById("fs").disabled = True
    assert doc.getElementById("go").matches(":disabled")
    assert not doc.getElementById("in-legend").matches(":disabled")
    assert not doc.getElementById("list").matches(":disabled")  # not a form control


def test_what_the_mirror_cannot_know_is_refused_by_name():
    doc = page()
    go = doc.getElementById("go")
    for name in ("offsetHeight", "getBoundingClientRect", "innerHTML", "outerHTML"):
        with pytest.raises(NotInMirror, match=name):
            getattr(go, name)
    with pytest.raises(NotInMirror):
        go.innerHTML = "<img src=x onerror=alert(1)>"  # no way to write markup
    with pytest.raises(MirrorError):
        doc.querySelector("li:nth-child(2)")


def test_a_change_the_dom_refuses_changes_nothing():
    doc = page()
    before = shape(doc)
    main = doc.getElementById("main")
    with pytest.raises(MirrorError):
        doc.getElementById("f").appendChild(main)  # into its own descendant
    with pytest.raises(MirrorError):
        main.removeChild(doc.getElementById("go"))  # not its child
    with pytest.raises(MirrorError):
        main.setAttribute("on click", "x")
    with pytest.raises(MirrorError):
        doc.createElement("<script>")
    assert shape(doc) == before and doc.take() == []


# --- the page's events ------------------------------------------------------------------------


def test_events_bubble_with_what_the_page_sent():
    doc = page()
    seen = []
    select = doc.getElementById("s")
    doc.getElementById("f").addEventListener("change", lambda e: seen.append((e.target.id, e.target.value)))
    doc.addEventListener("keydown", lambda e: (seen.append(e.key), e.preventDefault()))
    assert doc.take() == [["on", doc.getElementById("f").nid, "change"], ["on", 0, "keydown"]]
    doc.dispatch({"node": select.nid, "type": "change", "value": "x"})
    event = doc.dispatch({"node": select.nid, "type": "keydown", "key": "s", "ctrlKey": True})
    assert seen == [("s", "x"), "s"] and event.defaultPrevented and event.ctrlKey
    assert doc.take() == []  # what the page sent is not sent back
    assert doc.dispatch({"node": 10_000, "type": "click"}) is None  # a node gone meanwhile
    doc.dispatch({"node": select.nid, "type": "focusin"})
    assert doc.activeElement is select
    go = doc.getElementById("go")
    doc.dispatch({"node": select.nid, "type": "keydown", "key": "x", "active": go.nid})
    assert doc.activeElement is go  # the page moved the focus without an event Python heard
    doc.dispatch({"node": 0, "type": "visibilitychange", "visibilityState": "hidden"})
    assert doc.visibilityState == "hidden"


def test_a_dialog_closed_on_the_page_is_closed_in_the_mirror():
    doc = Document.from_tree([["html", {}, [["body", {}, [["dialog", {"id": "d"}, ["?"]]]]]]])
    dialog = doc.getElementById("d")
    dialog.showModal()
    assert dialog.open
    doc.dispatch({"node": dialog.nid, "type": "close"})
    assert not dialog.open
    # Python listens to no close of its own there: the page says so all the same, and no
    # handler of Python's hears of it as a close.
    heard = []
    dialog.addEventListener("close", lambda e: heard.append(e.type))
    dialog.showModal()
    doc.dispatch({"node": dialog.nid, "type": "pygames-closed"})
    assert not dialog.open and heard == []


def test_a_late_close_of_a_dialog_open_again_keeps_it_open():
    """The page fires a dialog's `close` at the next animation frame: Python, told of a key
    pressed first, may have opened it again by then (the page says it is open): the late
    close must not close the mirror's (site's question: ask.py would cancel the new one)."""
    doc = Document.from_tree([["html", {}, [["body", {}, [["dialog", {"id": "d"}, ["?"]]]]]]])
    dialog = doc.getElementById("d")
    heard = []
    dialog.addEventListener("close", lambda e: heard.append(dialog.open))
    dialog.showModal()
    dialog.close()  # Python's answer; the page's close event comes later
    dialog.showModal()  # ... after a key that opened the question again
    doc.dispatch({"node": dialog.nid, "type": "close", "open": True})
    assert dialog.open and heard == [True]
    doc.dispatch({"node": dialog.nid, "type": "close", "open": False})  # closed on the page
    assert not dialog.open


def test_a_close_from_before_python_opened_the_dialog_again_keeps_it_open():
    """Closed on the page (its backdrop), the dialog's close comes after a key pressed first,
    on which Python opened it again: the page had not applied that yet ("seen"), so its
    dialog was still closed, but will be open; the mirror's stays open (ask.py would cancel
    the new question: test_page_keyboard's intermittent failure, CI of stop 43)."""
    doc = Document.from_tree([["html", {}, [["body", {}, [["dialog", {"id": "d"}, ["?"]]]]]]])
    dialog = doc.getElementById("d")
    dialog.showModal()
    assert doc.take()
    seen = 1  # the page applied that batch; its backdrop closes the dialog then
    dialog.showModal()  # Python, on the key pressed after, in the next batch
    assert doc.take()
    doc.dispatch({"node": dialog.nid, "type": "close", "open": False, "seen": seen})
    assert dialog.open
    doc.dispatch({"node": dialog.nid, "type": "close", "open": False, "seen": seen + 1})
    assert not dialog.open  # closed on the page once it had that batch


def test_the_pages_focus_from_before_python_moved_it_gives_way():
    """An event says where the page's focus was as it came; Python moved the focus since, in a
    batch the page had not applied then: Python's stands (the page applies it next)."""
    doc = Document.from_tree([["html", {}, [["body", {}, [
        ["button", {"id": "a"}, ["a"]], ["button", {"id": "b"}, ["b"]]]]]]])
    a, b = doc.getElementById("a"), doc.getElementById("b")
    doc.take()
    b.focus()  # batch 1, on its way
    doc.take()
    doc.dispatch({"node": a.nid, "type": "click", "active": a.nid, "seen": 0})
    assert doc.activeElement is b
    doc.dispatch({"node": a.nid, "type": "focusin", "seen": 0})
    assert doc.activeElement is b
    doc.dispatch({"node": a.nid, "type": "click", "active": a.nid, "seen": 1})  # a Tab since
    assert doc.activeElement is a


# --- the page's own scripts' changes -----------------------------------------------------------


def test_a_part_the_page_changed_is_taken_as_the_page_has_it():
    doc = page()
    form, go, select = doc.getElementById("f"), doc.getElementById("go"), doc.getElementById("s")
    fieldset = doc.getElementById("fs")
    legend = fieldset.firstElementChild
    doc.take()
    # The page's script moved the button out of the fieldset, dropped the legend, added a row
    # (its own numbers, negative), changed a text and a value.
    part = [form.nid, "form", {"id": "f", "data-owner": "page"}, [
        [fieldset.nid, "fieldset", {"id": "fs"}, [
            [-1, "li", {"class": "row"}, [[-2, "Léa"], [-3, "input", {"type": "text"}, [], {"value": "Léa"}]], None],
        ], None],
        [go.nid, "button", {"id": "go"}, [[go.firstChild.nid, "Partir"]], None],
        [select.nid, "select", {"id": "s"}, [[c.nid, "option", dict(c.attrs), [[c.firstChild.nid, c.textContent]], None]
                                              for c in select.children], {"value": "x"}],
    ], None]
    assert doc.sync(part) is form
    gc.collect()
    # Nothing to send back (the page has it), but the nodes it dropped that Python does not
    # hold: the page may let go of them (the radios, the legend's button).
    freed = doc.take()
    assert [op[0] for op in freed] == ["fr"] and legend.nid not in freed[0][2]
    assert form.getAttribute("data-owner") == "page"
    assert go.parentNode is form and go.textContent == "Partir" and go.className == ""
    assert legend.parentNode is None and not legend.isConnected
    row = doc.node(-1)
    assert row.parentNode is fieldset and row.querySelector("input").value == "Léa"
    assert select.value == "x"
    assert doc.querySelector("#f li.row") is row
    # Python's changes go on from there, on the page's own nodes too.
    row.setAttribute("data-x", "1")
    assert doc.take() == [["at", -1, "data-x", "1"]]
    with pytest.raises(MirrorError):
        doc.sync([12345, "form", {}, [], None])  # not a part the mirror knows


def test_a_part_walked_before_python_s_last_changes_keeps_them():
    """The page walks a part while Python's batch is on its way (the paper scores' labels,
    relabelled as a name is typed): the nodes changed in that batch stay as Python left
    them; the rest is taken from the page."""
    doc = page()
    form, go = doc.getElementById("f"), doc.getElementById("go")
    fieldset = doc.getElementById("fs")
    form.setAttribute("data-owner", "python")
    assert doc.take()
    seen = 1  # the page has applied that batch, the first
    go.textContent = "Jouer"  # a second batch, not applied on the page yet
    label = doc.createElement("label")
    label.textContent = "Paul"
    fieldset.appendChild(label)
    assert doc.take()
    old_text = [go.firstChild.nid, "Partir"]  # (the page's node, which Python replaced)
    part = [form.nid, "form", {"id": "f", "data-owner": "page"}, [
        [fieldset.nid, "fieldset", {"id": "fs"}, [], None],
        [go.nid, "button", {"id": "go"}, [old_text], None],
    ], None]
    doc.sync(part, seen)
    assert form.getAttribute("data-owner") == "page"  # not changed by Python since
    assert go.textContent == "Jouer" and label.parentNode is fieldset and fieldset.lastChild is label
    assert go.parentNode is form and fieldset.parentNode is form
    doc.sync(part, seen + 1)  # walked after that batch: the page's (its script changed them)
    assert go.textContent == "Partir" and label.parentNode is None


# --- every change recorded (property) ------------------------------------------------------

CHANGES = st.lists(st.tuples(st.sampled_from(CHANGE_KINDS), st.integers(0, 1000), st.integers(0, 1000),
                             st.text(max_size=8)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(CHANGES)
def test_replaying_the_operations_gives_the_same_page(changes):
    doc, copy = page(), page()
    for change in changes:
        make_change(doc, *change)
    ops = doc.take()
    assert {op[0] for op in ops} <= OPS
    replay(copy, ops)
    assert shape(copy) == shape(doc)


# --- the page's real modules on the mirror ------------------------------------------------------

FAMILY_IDS = sorted(FAMILIES)


async def play_out(host: Host, limit: int = 1000) -> int:
    """Play the match to its end by clicks (`Host.step`); the number of clicks."""
    for clicks in range(limit):
        if not await host.step(clicks):
            return clicks
        assert host.window.errors == []
    raise AssertionError(f"no end after {limit} clicks: {host.shell.match.state!r}")


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_a_game_page_starts_plays_to_its_end_and_resumes_on_the_mirror(family):
    async def scenario():
        url = f"http://127.0.0.1/{family}.html?pace=0&seed=7"
        host = await Host(family, url=url).start()
        try:
            assert host.document.body.dataset.ready == "1" and not host.by_id("setup").hidden
            started = host.document.take()
            assert {op[0] for op in started} <= OPS and json.dumps(started)
            await host.send(host.by_id("setup-form"), "submit")
            assert not host.by_id("table").hidden
            await host.click(host.document.querySelector("#table [data-action]:enabled"))
            moves = len(host.shell.match.history)
            assert moves >= 1
            saved = dict(host.window.localStorage.items)
        finally:
            host.close()
        # A reload: the same storage, a new page.  The game is there, drawn, as it was, and
        # goes on to its end (e2e/test_mirror_applier.py draws that end on the page too).
        host = await Host(family, url=url, storage=saved).start()
        try:
            assert len(host.shell.match.history) == moves and not host.by_id("table").hidden
            clicks = await play_out(host)
            assert clicks > 0 and not host.by_id("end").hidden
            ranking = host.by_id("ranking").querySelectorAll("li")
            assert ranking.length == len(host.shell.match.players)
            assert host.window.errors == []
            assert {op[0] for op in host.document.take()} <= OPS
        finally:
            host.close()

    run(scenario())


def test_a_hostile_name_stays_text_on_the_mirror():
    async def scenario():
        host = await Host("yams", url="http://127.0.0.1/yams.html?pace=0").start()
        try:
            name = host.document.querySelector("#setup-form input[type=text]")
            hostile = '<img src=x onerror="alert(1)">'
            name.value = hostile
            await host.send(host.by_id("setup-form"), "submit")
            drawn = host.document.take()
            assert any(op[0] == "tx" and hostile in op[2] for op in drawn)
            assert not any(op[0] == "el" and op[2] == "img" for op in drawn)
            assert hostile in host.by_id("table").textContent
        finally:
            host.close()

    run(scenario())


def test_a_file_picked_comes_with_its_event_and_is_read_as_on_the_page():
    doc = Document.from_tree([["html", {}, [["body", {}, [["input", {"type": "file", "id": "f"}, []]]]]]])
    field = doc.getElementById("f")
    assert field.files.length == 0 and field.files.item(0) is None
    read = []

    async def on_change(event):
        files = event.target.files
        read.append((files.length, files.item(0).name, files.item(0).size, await files.item(0).text()))
        with pytest.raises(MirrorError, match="too big"):
            await files.item(1).text()

    pending = []
    doc.getElementById("f").addEventListener("change", lambda e: pending.append(on_change(e)))
    doc.dispatch({"node": field.nid, "type": "change", "files": [
        {"name": "stats.json", "size": 2, "type": "application/json", "text": "{}"},
        {"name": "huge.json", "size": 10**9, "type": "", "text": None}]})
    run(pending.pop())
    assert read == [(2, "stats.json", 2, "{}")]
