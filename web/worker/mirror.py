"""The page's DOM held in Python, for the page's Python when it runs away from the page.

Issue 24 wants the main thread free while Python starts: Python in a dedicated worker,
which has no DOM and, without SharedArrayBuffer, cannot wait for the page's answer.  So the
worker keeps its own copy of the page (this module), and the page's modules build and
change elements on it exactly as they do on the page (dom.py, their one door to JavaScript,
will hand them this ``document`` there):

* every change is made here at once, so what Python reads back (a text, an attribute, a
  child, a selector's match) is answered here, with no round trip;
* every change is also recorded as an *operation*, a small JSON list, and the page applies
  the operations in order; `Document.take` hands them over;
* nodes are numbered: the page's own nodes when the mirror starts, in the order of the
  tree the page sends (`Document.from_tree`: the page numbers them in the same walk), then
  each new node in the order it is made here.  A number names the same node on both sides;
* what only the page knows comes with the page's events (`Document.dispatch`): what a
  person typed or ticked, where the focus went.  Layout (sizes, positions) is not here:
  reading it raises `NotInMirror`, which names what the page must answer instead.

Where this stands: the worker is not built yet.  tests/page_host.py runs every game page's
Python on this mirror in CPython (tests/test_page_mirror.py): the page starts, a match is
played to its end by clicks and resumed from storage.  The page's modules read no layout
any more (a die's tumble alternates two classes, web/app/tray.py; whether the focus is still
drawn asks checkVisibility, which the mirror answers from ``hidden``, web/app/flow.py; a
dialog's backdrop and Yams' sticky panel are measured by the page, js/dialogs.js and
js/layout.js).  The page's side, js/page-mirror.mjs, applies the operations and sends the
events (e2e/test_mirror_applier.py).  Still to come: the worker's start, the window's parts
(storage, timers, address), and which keys a keydown takes, since the page must call
preventDefault before the worker hears of it.

Operations (``id`` a node's number):
``["el", id, tag, ns]`` a new element (``ns``: "svg" or None) · ``["tx", id, text]`` a new
text node · ``["at", id, name, value]`` set an attribute (``value`` None removes it) ·
``["pr", id, name, value]`` set a live property (value, checked) · ``["in", parent, id,
before]`` insert (``before`` None: at the end; a node already in the tree moves) ·
``["rm", id]`` take a node out of the tree · ``["da", id, text]`` a text node's text ·
``["st", id, name, value]`` a style property (``value`` None removes it) · ``["do", id,
method, args]`` call one of `CALLS` (focus, showModal …) · ``["on", id, type]`` send this
node's events of that type (the page listens once per node and type) · ``["fr", 0, [id,
…]]`` forget these nodes: out of the tree and of Python's hands, they are gone for good
(Python's garbage collector decides when; the page then holds no node Python dropped).
"""

from __future__ import annotations

import re
import weakref

SVG = "svg"
#: Methods the page runs on an element when Python calls them here (after the changes
#: made before them).
#: The operations that change the node they name (Document._touch); "rm" changes its parent.
_TOUCHING = frozenset({"da", "in", "at", "st", "pr", "do"})
CALLS = frozenset({"focus", "blur", "showModal", "close", "scrollIntoView", "select", "click"})
#: Elements that take :disabled.
FORM_CONTROLS = frozenset({"BUTTON", "INPUT", "SELECT", "TEXTAREA", "OPTGROUP", "OPTION", "FIELDSET"})
#: Properties that reflect a boolean attribute.
FLAGS = {"hidden": "hidden", "disabled": "disabled", "open": "open", "required": "required",
         "multiple": "multiple", "readOnly": "readonly", "selected": "selected"}
#: Properties that reflect a text attribute.
TEXTS = {"id": "id", "className": "class", "title": "title", "type": "type", "name": "name",
         "href": "href", "htmlFor": "for", "lang": "lang", "dir": "dir", "role": "role",
         "download": "download", "placeholder": "placeholder", "src": "src", "alt": "alt"}


class File:
    """A file a person picked (``<input type=file>``), as the page sent it with the event: its
    name, size, type and text (None when it was too big to send: reading it then fails)."""

    def __init__(self, sent):
        self.name = str(sent.get("name", ""))
        self.size = int(sent.get("size", 0))
        self.type = str(sent.get("type", ""))
        self._text = sent.get("text")

    async def text(self):
        if self._text is None:
            raise MirrorError(f"{self.name}: too big to be sent to the worker")
        return self._text


class NotInMirror(AttributeError):
    """What Python asked of an element is not held here (layout, an unknown property)."""


class MirrorError(ValueError):
    """A change the DOM itself refuses (a node inserted into itself, a bad selector)."""


# --- nodes ----------------------------------------------------------------------------------


class NodeList(list):
    """A list of nodes read as the DOM's are: ``length``, ``item(i)``, and Python's indexing."""

    @property
    def length(self):
        return len(self)

    def item(self, i):
        return self[i] if 0 <= i < len(self) else None



class Node:
    nodeType = 0
    _batch = 0  # the last batch of operations that changed it (Document._touch)
    _shown = 0  # a dialog's: the batch of operations that last opened it (showModal)

    def __init__(self, doc, nid):
        object.__setattr__(self, "ownerDocument", doc)
        object.__setattr__(self, "nid", nid)
        object.__setattr__(self, "parentNode", None)
        doc._nodes[nid] = self
        if nid:  # once Python holds it no more (out of the tree, out of every variable)
            weakref.finalize(self, doc._free, nid)

    def __setattr__(self, name, value):
        raise NotInMirror(f"{type(self).__name__}.{name} cannot be set in the mirror")

    def _set(self, name, value):
        object.__setattr__(self, name, value)

    # the tree, read
    @property
    def parentElement(self):
        parent = self.parentNode
        return parent if isinstance(parent, Element) else None

    def _siblings(self):
        return self.parentNode.childNodes if self.parentNode is not None else [self]

    @property
    def nextSibling(self):
        sibs = self._siblings()
        i = _index(sibs, self)
        return sibs[i + 1] if i + 1 < len(sibs) else None

    @property
    def previousSibling(self):
        sibs = self._siblings()
        i = _index(sibs, self)
        return sibs[i - 1] if i > 0 else None

    @property
    def isConnected(self):
        node = self
        while node.parentNode is not None:
            node = node.parentNode
        return node is self.ownerDocument

    def remove(self):
        if self.parentNode is not None:
            self.parentNode.removeChild(self)


def _kebab(name):
    """``seatName`` -> ``seat-name`` (dataset keys, style properties)."""
    return re.sub(r"[A-Z]", lambda m: "-" + m.group().lower(), name)


def _index(nodes, node):
    for i, n in enumerate(nodes):
        if n is node:
            return i
    raise MirrorError("not a child of this node")


class Text(Node):
    nodeType = 3
    nodeName = "#text"

    def __init__(self, doc, nid, data):
        super().__init__(doc, nid)
        self._set("_data", str(data))

    @property
    def data(self):
        return self._data

    nodeValue = textContent = data

    def __setattr__(self, name, value):
        if name in ("data", "nodeValue", "textContent"):
            self._set("_data", "" if value is None else str(value))
            self.ownerDocument._op("da", self.nid, self._data)
        else:
            super().__setattr__(name, value)

    def __repr__(self):
        return f"<Text {self.nid} {self._data!r}>"


class Parent(Node):
    """A node with children: an element or the document."""

    def __init__(self, doc, nid):
        super().__init__(doc, nid)
        self._set("childNodes", NodeList())

    @property
    def children(self):
        return NodeList(n for n in self.childNodes if isinstance(n, Element))

    @property
    def firstChild(self):
        return self.childNodes[0] if self.childNodes else None

    @property
    def lastChild(self):
        return self.childNodes[-1] if self.childNodes else None

    @property
    def firstElementChild(self):
        kids = self.children
        return kids[0] if kids else None

    @property
    def childElementCount(self):
        return len(self.children)

    def contains(self, other):
        while other is not None:
            if other is self:
                return True
            other = other.parentNode
        return False

    def insertBefore(self, node, before):
        if not isinstance(node, Node) or isinstance(node, Document):
            raise MirrorError(f"cannot insert {node!r}")
        if before is not None and before.parentNode is not self:
            raise MirrorError("the reference node is not a child of this node")
        if isinstance(node, Parent) and node.contains(self):
            raise MirrorError("a node cannot be inserted into itself or its descendants")
        if node is before:
            return node
        if node.parentNode is not None:
            self.ownerDocument._touch(node.parentNode)
            old = node.parentNode.childNodes
            del old[_index(old, node)]
        kids = self.childNodes
        kids.insert(len(kids) if before is None else _index(kids, before), node)
        node._set("parentNode", self)
        self.ownerDocument._op("in", self.nid, node.nid, None if before is None else before.nid)
        return node

    def appendChild(self, node):
        return self.insertBefore(node, None)

    def removeChild(self, node):
        if node is None or node.parentNode is not self:
            raise MirrorError("not a child of this node")
        del self.childNodes[_index(self.childNodes, node)]
        node._set("parentNode", None)
        self.ownerDocument._touch(self)
        self.ownerDocument._op("rm", node.nid)
        return node

    def _nodes_of(self, items):
        return [self.ownerDocument.createTextNode(i) if isinstance(i, str) else i for i in items]

    def append(self, *items):
        for node in self._nodes_of(items):
            self.appendChild(node)

    def prepend(self, *items):
        first = self.firstChild
        for node in self._nodes_of(items):
            self.insertBefore(node, first)

    def replaceChildren(self, *items):
        while self.childNodes:
            self.removeChild(self.childNodes[-1])
        self.append(*items)

    # queries
    def _descendants(self):
        stack = list(reversed(self.childNodes))
        while stack:
            node = stack.pop()
            if isinstance(node, Element):
                yield node
                stack.extend(reversed(node.childNodes))

    def querySelectorAll(self, selector):
        groups = _selector(selector)
        return NodeList(e for e in self._descendants() if _matches(e, groups))

    def querySelector(self, selector):
        groups = _selector(selector)
        return next((e for e in self._descendants() if _matches(e, groups)), None)

    def getElementsByTagName(self, tag):
        return self.querySelectorAll(tag)

    # events
    def addEventListener(self, type_, handler, options=None):
        listeners = self.ownerDocument._listeners.setdefault((self.nid, type_), [])
        if not listeners:
            self.ownerDocument._op("on", self.nid, type_)
        if handler not in listeners:
            listeners.append(handler)

    def removeEventListener(self, type_, handler, options=None):
        listeners = self.ownerDocument._listeners.get((self.nid, type_), [])
        if handler in listeners:
            listeners.remove(handler)


class ClassList:
    def __init__(self, element):
        self._el = element

    def _names(self):
        return (self._el.getAttribute("class") or "").split()

    def _write(self, names):
        self._el.setAttribute("class", " ".join(names))

    def contains(self, name):
        return name in self._names()

    __contains__ = contains

    def add(self, *names):
        have = self._names()
        new = have + [n for n in dict.fromkeys(names) if n not in have]
        if new != have:
            self._write(new)

    def remove(self, *names):
        have = self._names()
        if any(n in have for n in names):
            self._write([n for n in have if n not in names])

    def toggle(self, name, force=None):
        on = (name not in self._names()) if force is None else bool(force)
        (self.add if on else self.remove)(name)
        return on

    def __iter__(self):
        return iter(self._names())

    @property
    def length(self):
        return len(self._names())


class Dataset:
    def __init__(self, element):
        object.__setattr__(self, "_el", element)

    @staticmethod
    def _attr(name):
        return "data-" + _kebab(name)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._el.getAttribute(self._attr(name))

    def __setattr__(self, name, value):
        self._el.setAttribute(self._attr(name), str(value))

    def __delattr__(self, name):
        self._el.removeAttribute(self._attr(name))


class Style:
    def __init__(self, element):
        object.__setattr__(self, "_el", element)
        object.__setattr__(self, "_props", {})

    def setProperty(self, name, value, priority=None):
        self._props[name] = str(value)
        self._el.ownerDocument._op("st", self._el.nid, name, str(value))

    def removeProperty(self, name):
        old = self._props.pop(name, "")
        self._el.ownerDocument._op("st", self._el.nid, name, None)
        return old

    def getPropertyValue(self, name):
        return self._props.get(name, "")

    # ``style.backgroundColor = "red"``: a property by its camelCase name ("" removes it)
    _css = staticmethod(_kebab)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.getPropertyValue(self._css(name))

    def __setattr__(self, name, value):
        if value is None or value == "":
            self.removeProperty(self._css(name))
        else:
            self.setProperty(self._css(name), value)


class Element(Parent):
    nodeType = 1

    def __init__(self, doc, nid, tag, ns=None):
        super().__init__(doc, nid)
        self._set("namespace", ns)
        self._set("localName", tag if ns else tag.lower())
        self._set("attrs", {})
        self._set("live", {})  # value and checked once set or typed (the page's "dirty" state)

    def __repr__(self):
        return f"<{self.localName} {self.nid}{' #' + self.attrs['id'] if 'id' in self.attrs else ''}>"

    @property
    def tagName(self):
        return self.localName if self.namespace else self.localName.upper()

    nodeName = tagName

    # attributes
    def getAttribute(self, name):
        return self.attrs.get(name.lower() if not self.namespace else name)

    def hasAttribute(self, name):
        return self.getAttribute(name) is not None

    def setAttribute(self, name, value):
        name = name if self.namespace else name.lower()
        if not re.fullmatch(r"[A-Za-z_:][-A-Za-z0-9_:.]*", name):
            raise MirrorError(f"not an attribute name: {name!r}")
        value = str(value)
        if self.attrs.get(name) != value:
            self.attrs[name] = value
            self.ownerDocument._op("at", self.nid, name, value)

    def removeAttribute(self, name):
        name = name if self.namespace else name.lower()
        if name in self.attrs:
            del self.attrs[name]
            self.ownerDocument._op("at", self.nid, name, None)

    def toggleAttribute(self, name, force=None):
        on = (not self.hasAttribute(name)) if force is None else bool(force)
        if on:
            if not self.hasAttribute(name):
                self.setAttribute(name, "")
        else:
            self.removeAttribute(name)
        return on

    @property
    def classList(self):
        return ClassList(self)

    @property
    def dataset(self):
        return Dataset(self)

    @property
    def style(self):
        style = self.__dict__.get("_style")
        if style is None:
            style = Style(self)
            self._set("_style", style)
        return style

    @property
    def tabIndex(self):
        value = self.getAttribute("tabindex")
        if value is not None and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
        focusable = self.tagName in ("A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY")
        return 0 if focusable else -1

    # text
    @property
    def textContent(self):
        return "".join(n._data if isinstance(n, Text) else n.textContent for n in self.childNodes)

    def _set_text(self, value):
        text = "" if value is None else str(value)
        while self.childNodes:
            self.removeChild(self.childNodes[-1])
        if text:
            self.appendChild(self.ownerDocument.createTextNode(text))

    # live form state
    @property
    def value(self):
        if "value" in self.live:
            return self.live["value"]
        if self.tagName == "SELECT":
            options = self.querySelectorAll("option")
            chosen = next((o for o in options if o.hasAttribute("selected")), options[0] if options else None)
            return chosen.value if chosen is not None else ""
        if self.tagName == "TEXTAREA":
            return self.textContent
        if self.tagName == "OPTION":
            value = self.getAttribute("value")
            return value if value is not None else self.textContent.strip()
        value = self.getAttribute("value")
        if value is None and self.getAttribute("type") in ("checkbox", "radio"):
            return "on"
        return value if value is not None else ""

    @property
    def options(self):
        if self.tagName not in ("SELECT", "DATALIST"):
            raise NotInMirror(f"{self.tagName}.options: not a <select>")
        return self.querySelectorAll("option")

    @property
    def checked(self):
        return self.live.get("checked", self.hasAttribute("checked"))

    @property
    def files(self):
        """The files picked in an ``<input type=file>`` (sent with its change event)."""
        return NodeList(File(f) for f in self.live.get("files", ()))  # (a FileList reads the same)

    def _set_live(self, name, value, send=True):
        if name == "checked" and value and self.getAttribute("type") == "radio":
            # one radio of a name checked in its form (or the document)
            group = self.getAttribute("name")
            scope = self.closest("form") or self.ownerDocument
            for other in scope.querySelectorAll("input[type=radio]"):
                if other is not self and other.getAttribute("name") == group and group is not None:
                    other.live["checked"] = False
        self.live[name] = value
        if send:
            self.ownerDocument._op("pr", self.nid, name, value)

    # reflected properties
    def __getattr__(self, name):
        if name in FLAGS:
            return self.hasAttribute(FLAGS[name])
        if name in TEXTS:
            return self.getAttribute(TEXTS[name]) or ""
        if name.startswith("aria") and name[4:5].isupper():
            return self.getAttribute("aria-" + name[4:].lower())
        if name in ("offsetWidth", "offsetHeight", "clientWidth", "clientHeight", "scrollTop",
                    "getBoundingClientRect", "getClientRects", "offsetTop", "offsetLeft"):
            raise NotInMirror(f"{name} is layout: the page measures it, not the mirror")
        if name in CALLS:
            return lambda *args: self.ownerDocument._call(self, name, list(args))
        raise NotInMirror(f"{self.tagName}.{name} is not held in the mirror")

    def __setattr__(self, name, value):
        if name in FLAGS:
            self.toggleAttribute(FLAGS[name], bool(value))
        elif name in TEXTS:
            self.setAttribute(TEXTS[name], "" if value is None else value)
        elif name == "textContent":
            self._set_text(value)
        elif name in ("value", "checked"):
            self._set_live(name, str(value) if name == "value" else bool(value))
        elif name.startswith("aria") and name[4:5].isupper():
            attr = "aria-" + name[4:].lower()
            self.removeAttribute(attr) if value is None else self.setAttribute(attr, value)
        elif name == "tabIndex":
            self.setAttribute("tabindex", int(value))
        else:
            super().__setattr__(name, value)

    def checkVisibility(self, options=None):
        """Drawn, as far as the mirror knows: in the page and under no ``hidden`` element.
        (The page's style sheets may hide more: the page's answer is the page's.)"""
        return self.isConnected and self.closest("[hidden]") is None

    # queries
    def matches(self, selector):
        return _matches(self, _selector(selector))

    def closest(self, selector):
        groups = _selector(selector)
        node = self
        while isinstance(node, Element):
            if _matches(node, groups):
                return node
            node = node.parentNode
        return None


class Document(Parent):
    nodeType = 9
    nodeName = "#document"
    visibilityState = "visible"  # the page's, as its last ``visibilitychange`` said

    def __init__(self):
        self._set("_nodes", weakref.WeakValueDictionary())  # number -> node, while it lives
        self._set("_freed", [])
        self._set("_next", 1)
        self._set("_ops", [])
        self._set("_listeners", {})
        self._set("activeElement", None)
        self._set("_watch", None)  # called at each operation recorded (worker_host: a flush)
        self._set("_batches", 0)  # the batches of operations taken so far (each one sent)
        self._set("_focused", 0)  # the batch in which Python last moved the focus
        super().__init__(self, 0)

    # numbering and operations
    def _new_id(self):
        nid = self._next
        self._set("_next", nid + 1)
        return nid

    def _op(self, *op):
        self._ops.append(list(op))
        if op[0] in _TOUCHING:
            self._touch(self._nodes.get(op[1]))
        if self._watch is not None:
            self._watch()

    def _touch(self, node):
        """`node` changes in the batch being recorded (see `sync`'s ``seen``)."""
        if node is not None:
            node._set("_batch", self._batches + 1)

    def watch(self, callback):
        """Have `callback()` called whenever an operation is recorded (once per batch is the
        caller's business: worker_host schedules one flush)."""
        self._set("_watch", callback)

    def _call(self, element, method, args):
        if method in ("focus", "blur"):
            self._set("_focused", self._batches + 1)  # (see dispatch: where the focus is)
        if method == "focus":
            self._set("activeElement", element)
        elif method == "blur" and self.activeElement is element:
            self._set("activeElement", self.body)
        elif method in ("showModal", "close"):
            # The page's method opens (modal) or closes the dialog, its ``open`` with it: an
            # attribute written first would open it as a non-modal one.
            if method == "showModal":
                element.attrs["open"] = ""
                element._set("_shown", self._batches + 1)  # (see dispatch: a late close)
            else:
                element.attrs.pop("open", None)
        self._op("do", element.nid, method, args)

    def take(self):
        """The operations recorded since the last call, in order (JSON-ready lists), and last
        the numbers of the nodes Python let go of meanwhile, for the page to let go too."""
        ops = self._ops[:]
        self._ops.clear()
        freed = self._freed
        if freed:  # a new list first: the collector may free more while this one is read
            self._set("_freed", [])
            ops.append(["fr", 0, sorted(freed)])
        if ops:  # (each batch taken is sent, and applied by the page in order)
            self._set("_batches", self._batches + 1)
        return ops

    def _free(self, nid):
        self._freed.append(nid)

    def nodes(self):
        """The nodes alive now (the document first)."""
        return list(self._nodes.values())

    def node(self, nid):
        return self._nodes.get(nid)

    # making nodes
    def createElement(self, tag):
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", str(tag)):
            raise MirrorError(f"not a tag name: {tag!r}")
        node = Element(self, self._new_id(), str(tag))
        self._op("el", node.nid, node.localName, None)
        return node

    def createElementNS(self, ns, tag):
        node = Element(self, self._new_id(), str(tag), SVG)
        self._op("el", node.nid, node.localName, SVG)
        return node

    def createTextNode(self, data):
        node = Text(self, self._new_id(), data)
        self._op("tx", node.nid, node._data)
        return node

    # the page's tree
    @property
    def documentElement(self):
        return self.firstElementChild

    def _child(self, tag):
        root = self.documentElement
        return next((c for c in root.children if c.localName == tag), None) if root else None

    @property
    def body(self):
        return self._child("body")

    @property
    def head(self):
        return self._child("head")

    def getElementById(self, id_):
        return next((e for e in self._descendants() if e.attrs.get("id") == id_), None)

    @classmethod
    def from_tree(cls, tree):
        """The mirror of a page, given as the page walks it (a tree the page will send):
        an element is ``[tag, {attribute: value}, [children], live]`` (``live`` optional:
        the value and checked the page holds), a text node a string; the document's
        children in a list.  Numbered 1, 2, … in that walk, as the page numbers them."""
        doc = cls()

        def build(item, parent):
            if isinstance(item, str):
                node = Text(doc, doc._new_id(), item)
            else:
                tag, attrs = item[0], item[1]
                ns = SVG if tag == "svg" or (isinstance(parent, Element) and parent.namespace) else None
                node = Element(doc, doc._new_id(), tag, ns)
                node.attrs.update({str(k): str(v) for k, v in attrs.items()})
                if len(item) > 3 and item[3]:
                    node.live.update(item[3])
            parent.childNodes.append(node)
            node._set("parentNode", parent)
            for kid in ([] if isinstance(item, str) else item[2]):
                build(kid, node)

        for item in tree:
            build(item, doc)
        doc._set("activeElement", doc.body)
        return doc

    # the page's own scripts' changes
    def sync(self, item, seen=None):
        """A part of the page as the page's own scripts left it (js/setup-early.js keeps the
        setup form working on the page, js/worker-page.mjs sends it again after it changed
        it): ``[id, tag, {attribute: value}, [children], live]`` for an element, ``[id,
        text]`` for a text node, each with the page's number for it (a node the page made
        has a negative one).  The mirror takes it as it is: the nodes it knows keep their
        identity (Python's references stay good), the others are made, the ones left out
        leave the tree; nothing is recorded (the page has it already).  `seen`: how many
        batches of operations the page had applied when it walked the part; a node Python
        changed in a later one (still on its way) is kept as Python left it, whole.
        Returns the part's root."""
        if not isinstance(item, list) or not item or not isinstance(self._nodes.get(item[0]), Element):
            raise MirrorError(f"not a part of the page the mirror knows: {str(item)[:80]}")

        def stale(node):
            return seen is not None and node is not None and node._batch > seen

        def build(item, ns=None):
            if stale(self._nodes.get(item[0])):
                return self._nodes[item[0]]
            if len(item) == 2:
                nid, data = item
                node = self._nodes.get(nid)
                if not isinstance(node, Text):
                    node = Text(self, nid, data)
                node._set("_data", str(data))
                return node
            nid, tag, attrs, kids, live = item
            node = self._nodes.get(nid)
            if not isinstance(node, Element):
                node = Element(self, nid, str(tag), SVG if tag == "svg" or ns else None)
            node.attrs.clear()
            node.attrs.update({str(k): str(v) for k, v in attrs.items()})
            node.live.clear()
            node.live.update(live or {})
            children = [build(kid, node.namespace) for kid in kids]
            kept = {id(c) for c in children}
            for old in node.childNodes:
                if id(old) not in kept and old.parentNode is node:
                    old._set("parentNode", None)
            for child in children:
                if child.parentNode is not None and child.parentNode is not node:
                    siblings = child.parentNode.childNodes
                    del siblings[_index(siblings, child)]
                child._set("parentNode", node)
            node.childNodes[:] = children
            return node

        return build(item)

    # the page's events
    def dispatch(self, message):
        """An event the page sent: ``{"node": id, "type": …}`` with what came with it (``key``,
        ``value``, ``checked``, the modifier keys, ``clientX``/``clientY``, ``detail``,
        ``active``: the focused node, and ``seen``: the batches of operations the page had
        applied).  The
        node's live state follows it first, then its listeners and its ancestors' run, as
        the event bubbles.  Returns the event (``defaultPrevented``)."""
        target = self._nodes.get(message.get("node"))
        if target is None:
            return None  # a node gone meanwhile: nothing listens any more
        if isinstance(target, Element):
            for name in ("value", "checked"):
                if name in message:
                    target._set_live(name, message[name], send=False)
        # What the page says of its focus and its dialogs as the event came: older than what
        # Python did since in a batch the page had not applied then ("seen"), which stands.
        seen = message.get("seen")
        focus_stands = seen is not None and self._focused > seen
        active = self._nodes.get(message.get("active"))
        if isinstance(active, Element) and not focus_stands:  # the page's focus at the event
            self._set("activeElement", active)
        if message["type"] in ("close", "pygames-closed") and isinstance(target, Element) \
                and target.localName == "dialog" and not message.get("open") \
                and not (seen is not None and target._shown > seen):
            # Closed on the page (Escape, js/dialogs.js's backdrop).  Not a late `close` (the
            # page fires it at the next frame) of a dialog open again since: by then on the
            # page ("open" true), or by Python in a batch the page had not applied when the
            # close came ("seen": the batches it had; the page opens it once it applies it).
            target.attrs.pop("open", None)
        if isinstance(target, Element) and isinstance(message.get("files"), list):
            target.live["files"] = [f for f in message["files"] if isinstance(f, dict)]
        if "visibilityState" in message:
            self._set("visibilityState", str(message["visibilityState"]))
        if message["type"] in ("focus", "focusin") and isinstance(target, Element) and not focus_stands:
            self._set("activeElement", target)
        event = Event(message, target)
        node = target
        while node is not None and not event.stopped:
            event.currentTarget = node
            for handler in list(self._listeners.get((node.nid, event.type), ())):
                handler(event)
            node = node.parentNode if event.bubbles else None
        return event


class Event:
    BUBBLES = {"click", "input", "change", "keydown", "keyup", "submit", "focusin", "focusout",
               "pointerdown", "pointerup"}

    def __init__(self, message, target):
        self.type = message["type"]
        self.target = target
        self.currentTarget = target
        self.bubbles = self.type in self.BUBBLES
        self.defaultPrevented = False
        self.stopped = False
        self.key = message.get("key", "")
        self.detail = message.get("detail", 0)
        for name in ("altKey", "ctrlKey", "metaKey", "shiftKey"):
            setattr(self, name, bool(message.get(name, False)))
        self.clientX = message.get("clientX", 0)
        self.clientY = message.get("clientY", 0)

    def preventDefault(self):
        self.defaultPrevented = True

    def stopPropagation(self):
        self.stopped = True


# --- selectors ------------------------------------------------------------------------------

_COMPOUND = re.compile(
    r"""(?P<tag>\*|[A-Za-z][A-Za-z0-9-]*)
      | \#(?P<id>[-\w]+)
      | \.(?P<cls>[-\w]+)
      | \[\s*(?P<attr>[-\w:]+)\s*(?:(?P<op>[~^$*|]?=)\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[-\w]+)))?\s*\]
      | :(?P<pseudo>disabled|enabled|checked)
      | :not\((?P<not>[^()\s,>]+)\)
    """, re.X)
_CACHE: dict[str, list] = {}


def _selector(text):
    """A selector list as groups of (combinator, [tests]) steps, read right to left."""
    if text in _CACHE:
        return _CACHE[text]
    groups = []
    for part in str(text).split(","):
        tokens = re.findall(r">|[^\s>]+", part.strip())
        if not tokens:
            raise MirrorError(f"bad selector: {text!r}")
        steps, combinator = [], " "
        for token in tokens:
            if token == ">":
                combinator = ">"
                continue
            steps.append((combinator, _compound(token, text)))
            combinator = " "
        groups.append(steps)
    _CACHE[text] = groups
    return groups


def _compound(token, text):
    """One compound selector (``input.a[b]:not(.c)``) as its tests."""
    tests, pos = [], 0
    while pos < len(token):
        m = _COMPOUND.match(token, pos)
        if not m or m.end() == pos:
            raise MirrorError(f"selector not supported by the mirror: {text!r}")
        test = {k: v for k, v in m.groupdict().items() if v is not None}
        if "not" in test:
            test["not"] = _compound(test["not"], text)
        tests.append(test)
        pos = m.end()
    return tests


def _test(element, test):
    if "not" in test:
        return not all(_test(element, t) for t in test["not"])
    if "tag" in test:
        return test["tag"] == "*" or element.localName.lower() == test["tag"].lower()
    if "id" in test:
        return element.attrs.get("id") == test["id"]
    if "cls" in test:
        return test["cls"] in (element.attrs.get("class") or "").split()
    if "attr" in test:
        have = element.getAttribute(test["attr"])
        if "op" not in test:
            return have is not None
        want = test.get("dq", test.get("sq", test.get("bare")))
        if have is None:
            return False
        return {"=": have == want, "~=": want in have.split(), "^=": bool(want) and have.startswith(want),
                "$=": bool(want) and have.endswith(want), "*=": bool(want) and want in have,
                "|=": have == want or have.startswith(want + "-")}[test["op"]]
    pseudo = test["pseudo"]
    if pseudo == "checked":
        return element.tagName == "INPUT" and element.checked or (
            element.tagName == "OPTION" and element.hasAttribute("selected"))
    disabled = _disabled(element)
    return disabled if pseudo == "disabled" else (element.tagName in FORM_CONTROLS and not disabled)


def _disabled(element):
    if element.tagName not in FORM_CONTROLS:
        return False
    if element.hasAttribute("disabled"):
        return True
    node, child = element.parentNode, element
    while isinstance(node, Element):
        if node.tagName == "FIELDSET" and node.hasAttribute("disabled"):
            legend = node.firstElementChild
            if not (legend is not None and legend.tagName == "LEGEND" and legend.contains(child)):
                return True
        node, child = node.parentNode, node
    return False


def _matches(element, groups):
    """As the DOM does, the whole selector is matched in the whole document, whichever
    element's querySelector asked."""
    return any(_match_steps(element, steps, len(steps) - 1) for steps in groups)


def _match_steps(element, steps, i):
    combinator, tests = steps[i]
    if not all(_test(element, t) for t in tests):
        return False
    if i == 0:
        return True
    node = element.parentNode
    while isinstance(node, Element):
        if _match_steps(node, steps, i - 1):
            return True
        if steps[i][0] == ">":
            return False
        node = node.parentNode
    return False
