"""The table's tools that every game page shares (issue #12), owned by the shell:

* **Annuler**: a person takes back their last decision while the next player has not
  acted (`Match.can_undo` / `Match.undo`: never past dice that have landed, never once
  the game is over).  The button (and the keys U and Ctrl+Z) is enabled only when the
  decision to take back is a person's.  Against the computer, the computer waits before
  its first move after a person's decision while Annuler is offered, at least
  `UNDO_WAIT_S` at every speed (the button counts the seconds down), as long as a person
  would take to act; ``?pace=MS`` in the URL (demos, tests) sets the pause exactly, with no
  such wait.  Taking back bumps the shell's generation, so a computer's move chosen
  meanwhile is never played.  A match played *sans annulation*
  (a checkbox of the setup, kept in the record) has no button.
* **The computer's speed** (lente, normale, rapide, instantanée), remembered in the
  page's preferences (prefs.py, ``pygames:prefs``); ``?pace=MS`` in the URL still sets it
  for the visit until the player picks a speed.
* **Confirm a 0**: before a person's action, the view's optional hook
  ``confirm_text(state, action)`` may return a French question (or ``(question, button
  label)``); the shell then asks in a modal dialog, with "Ne plus demander" (remembered).
  A page that offers it in its setup (page.json's "preferences", web/tools/pages.py) has a
  checkbox "Demander avant d'inscrire un 0" that shows and changes that preference.
"""

import asyncio
import math
import re

import prefs
from dom import by_id, document, el, enabled, on, query_params, show, storage, window

from pygames.messages import Name, render, template, text

EDITABLE = ("INPUT", "SELECT", "TEXTAREA")

#: Seconds the computer waits, at every speed, before its move after a person's decision
#: that may still be taken back (Annuler is offered meanwhile, with the seconds left).
UNDO_WAIT_S = 3.0


def undone_detail(said):
    """What was announced for a decision now taken back, without its change of turn ("À Paul
    de jouer.": no longer true), or "" (unknown, e.g. after a reload).  A change of turn is a
    sentence that begins as the catalogue's ``site.undo.turn`` ("À {player}" in French: any
    sentence beginning with "À "; "{player}'s turn" in English: "Léa's turn.", "Léa's turn
    to throw.")."""
    if not said:
        return ""
    head, _, tail = template("site.undo.turn", {}).partition("{player}")
    turn = re.compile(re.escape(head) + r".+?" + re.escape(tail))
    sentences = re.split(r"(?<=[.!?])\s+", str(said).strip())
    return " ".join(s for s in sentences if s and not turn.match(s)).strip()


class TableTools:
    def __init__(self, shell):
        self.shell = shell
        self.texts = {}  # ply -> the sentence announced for the decision played at that ply
        self.uis = {}  # ply -> the view's page-only state just before that decision
        self.pending = None  # (action, ply, generation) waiting for the confirmation
        self.confirmed = None  # the action the player has just confirmed
        self.focus_back = None
        self.exact_pace = "pace" in query_params()  # ?pace=MS: no wait for Annuler
        if not self.exact_pace:
            shell.set_pace(prefs.pace_seconds(self.prefs()))

    # --- preferences ------------------------------------------------------------------

    @staticmethod
    def prefs():
        return prefs.parse(storage.get(prefs.KEY))

    def set_pref(self, key, value):
        try:  # read again just before writing: another setting may have changed meanwhile
            storage.set(prefs.KEY, prefs.dump(prefs.with_pref(self.prefs(), key, value)))
        except ValueError:
            pass

    # --- building ---------------------------------------------------------------------

    def bind(self):
        table = by_id("table")
        play = table.querySelector(".play") or table
        advise = by_id("advise")
        box = el("span", None, "table-tools", id="table-tools")
        if advise and self.shell.family.advisor:
            advise.parentNode.appendChild(box)  # one row: Conseil, Annuler, speed
        else:
            row = el("p", None, "advice-row tools-row")
            row.appendChild(box)
            hint = by_id("hint")
            if hint and hint.parentNode == play:
                play.insertBefore(row, hint.nextSibling)
            else:
                play.appendChild(row)
        undo = el("button", text("site.undo.button"), "ghost small undo", type="button", id="undo",
                  aria_keyshortcuts="U Control+Z", title=text("site.undo.title"))
        undo.appendChild(el("span", "", "undo-wait", id="undo-wait", aria_hidden="true"))
        undo.disabled = True
        on(undo, "click", lambda e: self.undo())
        box.appendChild(undo)
        label = el("label", None, "speed")
        label.appendChild(el("span", text("site.speed.label")))
        label.appendChild(el("span", text("site.speed.label_more"), "sr-only"))
        select = el("select", None, id="speed")
        chosen = self.prefs()["pace"]
        for value in prefs.PACE_MS:  # slowest first
            option = el("option", text(prefs.PACE_LABELS[value]), value=value)
            option.selected = value == chosen
            select.appendChild(option)
        on(select, "change", self._on_speed)
        label.appendChild(select)
        box.appendChild(label)
        show(box, False)
        self._build_dialog()
        # The setup's "Demander avant d'inscrire un 0" (web/tools/build.py): js/setup-early.js shows
        # the stored preference whenever the setup is (re)set, so a box that differs now was
        # changed before Python was ready: that choice is kept.
        ask = by_id("ask-zero")
        if ask:
            if bool(ask.checked) != self.prefs()["confirm_zero"]:
                self.set_pref("confirm_zero", bool(ask.checked))
            on(ask, "change", lambda e: self.set_pref("confirm_zero", bool(e.target.checked)))

    def _build_dialog(self):
        dialog = el("dialog", None, "confirm-dialog", id="confirm",
                    aria_labelledby="confirm-title", aria_describedby="confirm-text")
        dialog.appendChild(el("h2", text("site.confirm.title"), id="confirm-title"))
        dialog.appendChild(el("p", "", id="confirm-text"))
        again = el("label", None, "confirm-off")
        again.appendChild(el("input", None, type="checkbox", id="confirm-off"))
        again.appendChild(el("span", text("site.confirm.off")))
        dialog.appendChild(again)
        buttons = el("p", None, "row-buttons")
        accept = el("button", text("site.confirm.zero"), "primary", type="button", id="confirm-accept")
        cancel = el("button", text("site.confirm.cancel"), "ghost", type="button", id="confirm-cancel")
        buttons.appendChild(accept)
        buttons.appendChild(cancel)
        dialog.appendChild(buttons)
        document.body.appendChild(dialog)
        on(accept, "click", lambda e: self._close_confirm(True))
        on(cancel, "click", lambda e: self._close_confirm(False))
        on(dialog, "cancel", self._on_dialog_cancel)  # Escape
        on(dialog, "close", self._on_dialog_closed)  # the backdrop (js/dialogs.js)

    # --- state of the tools -----------------------------------------------------------

    def can_undo(self):
        """A person may take back the last decision now."""
        shell, match = self.shell, self.shell.match
        return (match is not None and getattr(shell, "replay", None) is None and match.can_undo()
                and match.undo_player() not in shell.bots
                and not shell.remote.locks_undo()  # another device's move, or one sent (remote_view.py)
                and not by_id("table").hidden and not by_id("table").classList.contains("finished")
                and not document.querySelector("dialog[open]"))  # a JS null is not None

    def refresh(self):
        match = self.shell.match
        box, undo, speed = by_id("table-tools"), by_id("undo"), by_id("speed")
        if not box:
            return
        live = (match is not None and not match.state.is_terminal()
                and getattr(self.shell, "replay", None) is None)
        typed = live and match.last_typed()  # real dice: the throw typed in may be corrected
        show(undo, live and (match.undo_allowed or typed))
        undo.disabled = not self.can_undo()
        words = text("site.real.correct" if typed else "site.undo.button")
        label = undo.firstChild  # its text, before the seconds left (#undo-wait)
        if label and label.nodeType == 3 and label.nodeValue != words:
            label.nodeValue = words
        show(speed.parentNode, live and bool(self.shell.bots))
        show(box, not (undo.hidden and speed.parentNode.hidden))

    def adopt(self, match):
        """A new match (or one resumed, or caught up from another tab)."""
        self.texts, self.uis = {}, {}
        self.pending = self.confirmed = None

    # --- hooks around a player's action (shell.play) ------------------------------------

    def hold(self, action):
        """Before a person's action: True if it waits for a confirmation (the dialog is
        open); else remember the page's state to give it back if the action is taken back."""
        shell, match = self.shell, self.shell.match
        ply = len(match.history)
        if self.confirmed is action:
            self.confirmed = None
        else:
            question = self._question(match.state, action)
            if question:
                self._open_confirm(action, ply, question)
                return True
        self.uis[ply] = shell.view.ui_state()
        return False

    def played(self, ply, text):
        """After an action is applied and announced (`ply`: its index in the history)."""
        self.texts[ply] = text
        for old in [k for k in self.texts if k < ply - 40]:
            self.texts.pop(old, None)
            self.uis.pop(old, None)
        self.refresh()

    def _question(self, state, action):
        if not self.prefs()["confirm_zero"]:
            return None
        try:
            return self.shell.view.confirm(state, action)
        except Exception:
            return None  # a question must never stop a move

    # --- the computer's wait while Annuler is offered --------------------------------------

    def _undoable_by_person(self):
        match = self.shell.match
        return (match is not None and self.shell.replay is None
                and match.can_undo() and match.undo_player() not in self.shell.bots)

    async def computer_pause(self, pace, still):
        """The computer's pause before its move: `pace` seconds, or, while the person's
        decision just before it may still be taken back, at least UNDO_WAIT_S, with the
        seconds left shown on Annuler.  Returns early when `still()` turns false (Annuler
        pressed, another match) or the decision can no longer be taken back."""
        if self.exact_pace or not self._undoable_by_person():
            await asyncio.sleep(pace)
            return
        def clock():
            return window.performance.now() / 1000

        end = clock() + max(pace, UNDO_WAIT_S)
        try:
            while still() and self._undoable_by_person():
                left = end - clock()
                if left <= 0:
                    break
                self._show_wait(math.ceil(left - 0.05))
                await asyncio.sleep(min(0.25, left))
        finally:
            self._show_wait(None)

    @staticmethod
    def _show_wait(seconds):
        wait, undo = by_id("undo-wait"), by_id("undo")
        if not wait:
            return
        shown = " " + text("site.undo.wait", n=seconds) if seconds else ""
        if wait.textContent != shown:
            wait.textContent = shown
        if seconds:
            undo.dataset.wait = str(seconds)
        elif undo.hasAttribute("data-wait"):
            undo.removeAttribute("data-wait")

    # --- Annuler ------------------------------------------------------------------------

    def undo(self, peer=False):
        """Annuler; `peer`: asked by the other device of a game on two (duo.py checked it)."""
        shell = self.shell
        if not peer and shell.duo.forward_undo():
            return  # the guest of two devices asks the host
        if not (peer or self.can_undo()) or shell.stale():
            return
        match = shell.match
        played = len(match.history)
        player = match.undo_player()
        typed = match.last_typed()
        match.undo()
        ply = len(match.history)  # the first action taken back (a typed throw takes its throw too)
        shell.interrupt()  # a computer's move chosen for the position taken back never plays
        self._show_wait(None)  # its pause ends with it
        shell.close_advice()
        shell.view.adopt(match)  # per-match drawings (journals, last move) follow the history
        ui = self.uis.pop(ply, None)
        for later_ply in range(ply + 1, played):
            self.uis.pop(later_ply, None)
        if ui:
            shell.view.restore_ui(ui)
        shell.save()
        shell.duo.changed()  # the host: the game as it is now, to the other device
        shell.show_table()
        name = Name(match.players[player].name)
        detail = undone_detail(self.texts.pop(ply, None))
        if typed:
            shell.announce(render("site.real.corrected", player=name))
        else:
            shell.announce(render("site.undo.done_detail", player=name, detail=detail) if detail
                           else render("site.undo.done", player=name))
        self.refresh()
        shell.focus_view()
        shell.schedule_bots()

    # --- keys ---------------------------------------------------------------------------

    def on_key(self, event):
        """U or Ctrl+Z (Cmd+Z): Annuler. True if the key was used."""
        key = event.key
        plain = not (event.ctrlKey or event.metaKey or event.altKey)
        if not ((key in ("u", "U") and plain) or (
                key in ("z", "Z") and (event.ctrlKey or event.metaKey)
                and not event.altKey and not event.shiftKey)):
            return False
        target = event.target
        if getattr(target, "tagName", "") in EDITABLE or getattr(target, "isContentEditable", False):
            return False  # the field's own undo
        if by_id("table").hidden or document.querySelector("dialog[open]"):
            return False
        event.preventDefault()
        if self.can_undo():
            self.undo()
        elif self.shell.match and self.shell.match.undo_allowed and not self.shell.match.state.is_terminal():
            self.shell.announce(text("site.undo.nothing"))
        return True

    # --- the computer's speed -------------------------------------------------------------

    def _on_speed(self, event):
        value = event.target.value
        if value in prefs.PACE_MS:
            self.exact_pace = False
            self.set_pref("pace", value)
            self.shell.set_pace(prefs.PACE_MS[value] / 1000)

    # --- the confirmation dialog ------------------------------------------------------------

    def _open_confirm(self, action, ply, question):
        if isinstance(question, (tuple, list)):
            question, accept = question[0], question[1]
        else:
            accept = text("site.confirm.title")
        self.pending = (action, ply, self.shell.generation)
        by_id("confirm-text").textContent = str(question)
        by_id("confirm-accept").textContent = str(accept)
        by_id("confirm-title").textContent = text("site.confirm.question", action=str(accept))
        by_id("confirm-off").checked = False
        self.focus_back = document.activeElement
        by_id("confirm").showModal()
        by_id("confirm-cancel").focus()
        self.refresh()

    def _close_confirm(self, accepted):
        dialog = by_id("confirm")
        pending, self.pending = self.pending, None
        if by_id("confirm-off").checked:
            self.set_pref("confirm_zero", False)
        if dialog.open:
            dialog.close()
        back = self.focus_back
        self.focus_back = None
        shell = self.shell
        if not accepted or pending is None:
            shell.announce(text("site.confirm.cancelled"))
            if enabled(back) and back is not document.body:  # a click may leave it on <body>
                back.focus()
            self.refresh()
            return
        action, ply, generation = pending
        match = shell.match
        if match is None or generation != shell.generation or ply != len(match.history):
            self.refresh()
            return  # the game moved on meanwhile (another tab)
        self.confirmed = action
        shell.play(action)
        if self.confirmed is action:  # not played after all (e.g. another tab)
            self.confirmed = None

    def _on_dialog_cancel(self, event):
        event.preventDefault()
        self._close_confirm(False)

    def _on_dialog_closed(self, event):
        """Closed with no answer: a click on the backdrop (js/dialogs.js closes every modal
        dialog so, measuring it on the page) cancels."""
        if self.pending is not None and not by_id("confirm").open:
            self._close_confirm(False)
