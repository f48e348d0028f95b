"""The site's own question before an action that loses something (abandon a game, clear the
statistics...), in place of the browser's ``confirm()``: a modal ``<dialog id="ask">`` drawn
like the site's other dialogs, in the page's theme, read by screen readers through its title
and text, answered by its two buttons, Escape or a click outside it (both cancel).

The focus starts on the answer that keeps things as they are, and goes back where it was
when the question closes.  One question at a time: a new one replaces an open one, which
counts as cancelled.
"""

from dom import by_id, document, el, enabled, on

_pending = {}  # "accept", "cancel": the callbacks of the open question; "back": the focus


def _dialog():
    dialog = by_id("ask")
    if dialog:
        return dialog
    dialog = el("dialog", None, "confirm-dialog ask-dialog", id="ask",
                aria_labelledby="ask-title", aria_describedby="ask-text")
    dialog.appendChild(el("h2", "", id="ask-title"))
    dialog.appendChild(el("p", "", id="ask-text"))
    buttons = el("div", None, "row-buttons")
    accept = el("button", "", "primary", type="button", id="ask-accept")
    cancel = el("button", "", "ghost", type="button", id="ask-cancel")
    buttons.appendChild(accept)
    buttons.appendChild(cancel)
    dialog.appendChild(buttons)
    on(accept, "click", lambda e: _close(True))
    on(cancel, "click", lambda e: _close(False))
    on(dialog, "cancel", _on_cancel)
    on(dialog, "close", _on_closed)
    document.body.appendChild(dialog)
    return dialog


def ask(title, text, accept, on_accept, *, cancel=None, on_cancel=None):
    """Ask `title` (a question, the dialog's name) with `text` under it; `accept` names the
    button that calls `on_accept()`, `cancel` the one that calls `on_cancel()` (if any; its
    name by default: "Annuler", "Cancel")."""
    from pygames.messages import text as words

    if cancel is None:
        cancel = words("site.ask.cancel")
    dialog = _dialog()
    if dialog.open:
        _close(False)
    by_id("ask-title").textContent = str(title)
    by_id("ask-text").textContent = str(text)
    by_id("ask-accept").textContent = str(accept)
    by_id("ask-cancel").textContent = str(cancel)
    _pending.update(accept=on_accept, cancel=on_cancel, back=document.activeElement)
    dialog.showModal()
    by_id("ask-cancel").focus()


def is_open():
    dialog = by_id("ask")
    return bool(dialog and dialog.open)


def _close(accepted):
    dialog = by_id("ask")
    accept, cancel, back = (_pending.pop(k, None) for k in ("accept", "cancel", "back"))
    if dialog:  # (closed already: nothing happens; in a worker, the mirror may not know yet)
        dialog.close()
    if enabled(back) and back is not document.body:
        back.focus()
    then = accept if accepted else cancel
    if then:
        then()


def _on_cancel(event):
    event.preventDefault()
    _close(False)


def _on_closed(event):
    """Closed with no answer: a click on the backdrop (js/dialogs.js closes every modal dialog
    so, measuring it on the page) cancels.  Closed by an answer, no question is left; open
    again, it holds a new one."""
    if _pending and not by_id("ask").open:
        _close(False)
