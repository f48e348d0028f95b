"""The keyboard flow of every game page and its moments of joy (issue #12), owned by the
shell (shell.py calls these hooks; the views are unchanged but for their optional `joy`):

* **Keys**: a view's shortcuts (its `on_key`) apply only when they cannot mean something
  to the focused element: a form field keeps every key, and any control (a button, a link,
  a die, a board cell, a summary, a widget with a tab stop) keeps Space and Enter, which
  act on it (a focused die is kept, a focused link is followed).  Letter and digit
  shortcuts (1-5, S, P) still apply on a button: a button does nothing with them.
* **Focus after an action**: when the turn passes to another person, or the focused
  control has gone (a filled box, a disabled Passer), focus goes to the view's `focus()`
  (Lancer, in practice), never to <body>.
* **The computer's turn**: ``#table[data-computer-turn]`` (style.css hides the controls a
  person cannot use then) and its status, "Ordi joue…", in their place.
* **A moment of joy**: the view's optional ``joy(before, action, after)`` returns a short
  French exclamation ("Yams !") for a person's action, or None; the shell puts it at the
  head of that action's announcement and js/joy.js shows a short burst (none under
  prefers-reduced-motion).  A person winning gets one on the end screen.  The sound
  switch of the header (``#sound``, off by default) is remembered in prefs.py's
  ``sound``; the chime is synthesised by js/joy.js with the Web Audio API.
* **``?fresh=1``** is dropped from the address bar once the page has used it
  (history.replaceState), so that a reload resumes the game begun since.
"""

import prefs
from dom import by_id, document, el, found, on, set_text, storage, window

from pygames.messages import Name, render, text

SPACE_ENTER = (" ", "Enter", "Spacebar")
#: What takes every key (typing), and what takes Space and Enter (activation).
FIELDS = ("input, select, textarea, [contenteditable]:not([contenteditable=false]), "
          "[role=textbox], [role=combobox], [role=spinbutton], [role=slider]")
CONTROLS = ("a[href], button, summary, audio[controls], video[controls], [role=button], "
            "[role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], "
            "[role=menuitem], [role=option], [role=gridcell], [role=treeitem], "
            "[tabindex]:not([tabindex^='-'])")


class Flow:
    def __init__(self, shell):
        self.shell = shell
        self.status = None  # the computer's status in the controls row

    def bind(self):
        sound = by_id("sound")
        if sound:
            on(sound, "click", self._on_sound)
            self._show_sound()
        controls = by_id("table").querySelector(".controls")
        if found(controls):
            self.status = el("span", None, "computer-status", aria_hidden="true")
            controls.appendChild(self.status)

    # --- keys ---------------------------------------------------------------------------

    @staticmethod
    def key_is_global(event):
        """False when the focused element takes this key itself (see the docstring)."""
        target = event.target
        if not hasattr(target, "closest"):
            return True
        if found(target.closest(FIELDS)):
            return False
        return event.key not in SPACE_ENTER or not found(target.closest(CONTROLS))

    # --- after an action ----------------------------------------------------------------

    def cheer(self, before, action, text, by_bot):
        """The announcement of a person's action, headed by its moment of joy (if any)."""
        if by_bot:
            return text
        words = self.shell.view.joy(before, action, self.shell.match.state)
        if not words:
            return text
        self._celebrate(words, "joy")
        return text if words in text else f"{words} {text}"  # the game may say it already

    def won(self):
        """The end screen: a burst if a person won."""
        match = self.shell.match
        outcome = match.outcome()
        if not outcome.draw and any(not match.players[p].is_computer for p in outcome.winners):
            self._celebrate(text("site.joy.win"), "win")

    def after_play(self, actor, by_bot):
        """Focus once an action is played and the game goes on."""
        shell = self.shell
        nxt = shell.match.state.current_player()
        if nxt in shell.bots:
            return  # the computer plays; focus comes back with the person's turn
        if by_bot or nxt != actor or self._focus_lost():
            shell.focus_view()
            if self._focus_lost():
                main = by_id("main")  # the view found nothing to focus: at least the game
                if found(main):
                    main.focus()

    @staticmethod
    def _focus_lost():
        active = document.activeElement
        if not found(active) or active.tagName in ("BODY", "HTML"):
            return True
        if not active.isConnected or active.matches(":disabled"):
            return True
        visible = getattr(active, "checkVisibility", None)  # not in Safari before 17.4
        return not visible() if visible else active.getClientRects().length == 0

    def mark_turn(self):
        """``data-computer-turn`` on the table, and the computer's status, while it plays."""
        shell = self.shell
        table, match = by_id("table"), shell.match
        state = match.state if match else None
        computer = (state is not None and not state.is_terminal()
                    and getattr(shell, "replay", None) is None
                    and state.current_player() in shell.bots)
        if computer:
            table.setAttribute("data-computer-turn", "")
        else:
            table.removeAttribute("data-computer-turn")
        if self.status is not None:
            while self.status.firstChild:
                self.status.removeChild(self.status.firstChild)
            if computer:
                name = match.players[state.current_player()].name
                # One inline line in the flex box: a flex item of its own would lose the space.
                line = el("span")
                set_text(line, render("site.flow.computer_plays", player=Name(name)))
                self.status.appendChild(line)

    # --- ?fresh=1 -------------------------------------------------------------------------

    @staticmethod
    def drop_fresh():
        """Take ``fresh`` out of the address bar, keeping the other parameters and the hash."""
        url = window.URL.new(window.location.href)
        if url.searchParams.has("fresh"):
            url.searchParams.delete("fresh")
            window.history.replaceState(window.history.state, "", url.href)

    # --- joy and sound ----------------------------------------------------------------------

    @staticmethod
    def _sound_on():
        return prefs.parse(storage.get(prefs.KEY))["sound"]

    def _show_sound(self):
        by_id("sound").setAttribute("aria-pressed", "true" if self._sound_on() else "false")

    def _on_sound(self, event):
        on_now = not self._sound_on()
        # Read again just before writing: another setting may have changed meanwhile.
        storage.set(prefs.KEY, prefs.dump(prefs.with_pref(prefs.parse(storage.get(prefs.KEY)),
                                                          "sound", on_now)))
        self._show_sound()
        joy = getattr(window.pygames, "joy", None)
        if on_now and joy:
            joy.chime("on")  # a first note, within the click (browsers allow sound then)
        self.shell.announce(text("site.sound.on" if on_now else "site.sound.off"))

    def _celebrate(self, words, kind):
        joy = getattr(window.pygames, "joy", None)
        if joy:
            joy.celebrate(words, self._sound_on(), kind)
