"""Small DOM helpers for the PyScript pages: elements are built node by node and text is
always set with textContent, so a player's name can never become markup."""

from pyscript import document, window
from pyscript.ffi import create_proxy

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


def clear(node):
    while node.firstChild:
        node.removeChild(node.firstChild)


def on(target, event, handler):
    proxy = create_proxy(handler)
    _handlers.append(proxy)
    target.addEventListener(event, proxy)
    return proxy


def show(node, visible=True):
    node.hidden = not visible


def query_params():
    params = window.URLSearchParams.new(window.location.search)
    return {k: params.get(k) for k in ("seed", "pace", "game", "fresh") if params.has(k)}


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


def set_named_text(node, text, names):
    """Set `node`'s text with every player's name in its own <bdi> (see guard.split_names)."""
    from guard import split_names

    clear(node)
    for chunk, is_name in split_names(str(text), names):
        node.appendChild(el("bdi", chunk, "name") if is_name else document.createTextNode(chunk))


storage = Storage()
