"""The dice tray: the dice of every game, drawn, kept and thrown the same way.

Yams, 421 and Linotte keep dice between throws: the tray owns the die buttons in ``#dice``
(``data-die``, ``data-face``, ``aria-pressed``) and their drawing, the dice a person keeps
(a click, or the digit keys), the roll's notation (``roll``, or ``keep 3 5 @1,4``: the
places too, so the dice stay where the player saw them), saving and restoring the kept dice
with the game, and showing the dice a computer keeps before it throws the others.  The Dé
Landais throws all its dice every time: its tray only draws them (``keeping=False``).

Kept dice are the page's own state until the next throw; they belong to one hand (the
view's `hand(state)`, e.g. the 421's round and turn) and go as soon as it is over.

With real dice (a match played *avec de vrais dés*, `Match.dice == "real"`), the tray asks
for the faces instead of throwing: `FaceEntry`, open at once whenever the person to move may
throw (only the dice not kept are asked), a 1–6 pad per die for the thumb and a field for
the keyboard (digits, then Entrée); the faces go through the table's entry
(`Table.throw_faces`) with the throw they complete.
"""

from __future__ import annotations

import asyncio

from dom import by_id, clear, el, on, set_text, show
from view import View

from pygames.dice import Roll
from pygames.messages import Name, render, text

FACES = "123456"


class DiceTray:
    def __init__(self, table, count: int, redraw=None, keeping: bool = True, keepable=None,
                 hand=None, box_id: str = "dice"):
        self.table = table
        self.redraw = redraw or (lambda: None)  # the view's render
        self.count = count
        self.keeping = keeping
        # may the dice on the table be kept now (besides a person's turn)?
        self._keepable = keepable or (lambda state: bool(state.dice))
        # the hand the kept dice belong to: they are dropped when it changes
        self._hand = hand or (lambda state: None)
        self.box_id = box_id
        self.nodes = []
        self._held: set[int] = set()
        self._held_for = None
        self._thrown: tuple[int, ...] = ()  # places that tumble at the next drawing
        self.entry = FaceEntry(table, self)  # real dice: the faces typed in

    # --- building -------------------------------------------------------------------------

    def bind(self) -> None:
        box = by_id(self.box_id)
        for i in range(self.count):
            if self.keeping:
                die = el("button", None, "die", type="button", data_die=i, data_face=0)
                die.appendChild(el("span", str(i + 1), "num", aria_hidden="true"))
            else:
                die = el("span", None, "die", data_die=i, data_face=0)
            box.appendChild(die)
            self.nodes.append(die)
        if self.keeping:
            on(box, "click", self._on_click)
        self.entry.bind(box)

    # --- the kept dice --------------------------------------------------------------------

    def keepable(self, state) -> bool:
        return (self.keeping and not state.is_terminal() and not state.is_chance()
                and self._keepable(state))

    @property
    def held(self) -> set[int]:
        """The places kept now (none once their hand is over)."""
        match = self.table.match
        state = match.state if match else None
        if state is None or self._held_for != self._hand(state) or not self.keepable(state):
            self._held = set()
        return self._held

    def keep(self, places) -> None:
        """Keep exactly these places (the advisor's keep, a computer's)."""
        self._held = set(places)
        self._held_for = self._hand(self.table.state)

    def drop(self) -> None:
        self._held = set()

    def take_advice(self, action) -> None:
        """The advisor's choice, clicked: a keep shows its dice held (the player throws
        when ready), a full throw drops what was held and throws, anything else plays.
        With real dice, a throw only sets the dice kept: the player throws and types."""
        if isinstance(action, Roll) and self.entry.wanted():
            self.keep(self.table.state.cup.places_of(action.keep) if action.keep else ())
            self.table.changed()
            self.redraw()
            self.entry.focus()
        elif isinstance(action, Roll) and action.keep:
            self.keep(self.table.state.cup.places_of(action.keep))
            self.table.changed()
            self.redraw()
            by_id("roll").focus()
        elif isinstance(action, Roll):
            self.drop()
            self.table.play(Roll())
        else:
            self.table.play(action)

    def toggle(self, place: int) -> None:
        """A person keeps, or lets go of, the die at `place`."""
        state = self.table.state
        if not self.table.my_turn or not self.keepable(state) or not 0 <= place < len(state.dice):
            return
        held = self.held
        held ^= {place}
        self._held_for = self._hand(state)
        self.table.changed()
        self.redraw()
        face = state.dice[place]
        self.table.announce(text("site.die.kept" if place in held else "site.die.released", n=place + 1, face=face))

    def _on_click(self, event) -> None:
        die = event.target.closest("[data-die]")
        if die:
            self.toggle(int(die.dataset.die))

    def on_key(self, event) -> bool:
        """The digit keys 1 … n keep or let go of a die; True if the key was one."""
        key = event.key
        if self.keeping and len(key) == 1 and "1" <= key <= str(self.count):
            event.preventDefault()
            self.toggle(int(key) - 1)
            return True
        return False

    def notation(self) -> str:
        """What the roll button plays: ``roll``, or the kept dice with their places."""
        state = self.table.state
        held = self.held
        if not held or not state.dice:
            return "roll"
        places = tuple(sorted(held))
        return Roll(tuple(sorted(state.dice[p] for p in places)), places).notation()

    # --- saved with the game --------------------------------------------------------------

    def ui_state(self) -> dict:
        return {"held": sorted(self.held)} if self.keeping else {}

    def restore(self, blob: dict) -> None:
        held = blob.get("held", []) if isinstance(blob, dict) else []
        state = self.table.state
        if isinstance(held, list) and self.keepable(state):
            self.keep(p for p in held if type(p) is int and 0 <= p < self.count)

    # --- a move ---------------------------------------------------------------------------

    def thrown(self, before, action) -> None:
        """A move was played on `before`: the dice it threw tumble at the next drawing (the
        kept ones stay kept for the next throw of the hand)."""
        self._thrown = ()
        if isinstance(action, Roll):
            cup = getattr(before, "cup", None)
            self._thrown = cup.roll(action).rolling if cup is not None else tuple(range(self.count))

    def throw_all(self) -> None:
        self._thrown = tuple(range(self.count))

    async def preview(self, state, action, pause: float):
        """Show the dice a computer keeps for `pause` seconds; the action with their places."""
        if not (isinstance(action, Roll) and action.keep and state.dice):
            return action
        places = state.cup.places_of(action.keep)
        self.keep(places)
        self.redraw()
        self.table.announce(render("site.die.computer_keeps", player=Name(self.table.names[state.current_player()]),
                                   dice=" ".join(map(str, action.keep))))
        await asyncio.sleep(pause)
        return Roll(action.keep, places)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, faces=None, owner=None, enabled: bool | None = None) -> None:
        """Draw the dice on the table (or `faces`: the last hand thrown, dimmed, with its
        `owner`'s name in the labels); enabled when a person may keep them."""
        state = self.table.state
        shown = faces if faces is not None else state.dice
        held = self.held if faces is None else set()
        if enabled is None:
            enabled = self.table.my_turn and self.keepable(state)
        for place, die in enumerate(self.nodes):
            face = shown[place] if shown and place < len(shown) else 0
            die.dataset.face = str(face)
            if self.keeping:
                kept = place in held and bool(state.dice)
                die.setAttribute("aria-pressed", "true" if kept else "false")
                if not face:
                    label = text("site.die.unthrown", n=place + 1)
                elif owner is not None:
                    label = text("site.die.owned", n=place + 1, face=face, player=Name(owner))
                else:
                    label = text("site.die.face_kept" if kept else "site.die.face", n=place + 1, face=face)
                die.setAttribute("aria-label", label)
                die.disabled = not enabled
            if place in self._thrown and face:  # an empty slot never tumbles
                # The other of the two classes: a new animation's name starts it over (no
                # reading of the die's size to force a layout, which a worker could not do).
                now, was = ("rolling-again", "rolling") if die.classList.contains("rolling") \
                    else ("rolling", "rolling-again")
                die.classList.remove(was)
                die.classList.add(now)
        self._thrown = ()
        self.entry.draw()

    def throwing(self) -> tuple[int, ...]:
        """The places of the dice the next throw throws (those not kept)."""
        state = self.table.state
        if not self.keeping or not getattr(state, "dice", ()):
            return tuple(range(self.count))
        held = self.held
        return tuple(p for p in range(len(state.dice)) if p not in held)


def focus_faces() -> bool:
    """Put the keyboard in the faces' field if the entry is open (real dice); True if so."""
    entry = by_id("faces-entry")
    if entry and not entry.hidden:
        by_id("faces-input").focus()
        return True
    return False


class FaceEntry:
    """Real dice: the faces that landed, typed in.  Open whenever the person to move may
    throw (a throw is legal) in a match played with real dice; a pad of six faces per die
    thrown (a tap puts that face in the field) and a field for the keyboard (digits 1 to 6,
    one per die, then Entrée, or "Valider").  A wrong entry is explained and changes nothing."""

    def __init__(self, table, tray):
        self.table = table
        self.tray = tray
        self.form = self.prompt = self.pads = self.field = self.error = None
        self.places: tuple[int, ...] = ()
        self._for = None  # (ply, places) the field was last filled for

    def bind(self, box) -> None:
        form = el("form", None, "faces-entry", id="faces-entry", novalidate=True, hidden=True)
        self.prompt = el("p", "", "faces-prompt", id="faces-prompt")
        form.appendChild(self.prompt)
        self.pads = el("div", None, "faces-pads", id="faces-pads")
        form.appendChild(self.pads)
        line = el("p", None, "faces-line")
        label = el("label", text("site.real.field"), "faces-label", for_="faces-input")
        self.field = el("input", None, "faces-input", id="faces-input", type="text", inputmode="numeric",
                        autocomplete="off", spellcheck="false", enterkeyhint="done",
                        aria_describedby="faces-prompt faces-error")
        line.appendChild(label)
        line.appendChild(self.field)
        line.appendChild(el("button", text("site.real.ok"), "primary", type="submit", id="faces-ok"))
        form.appendChild(line)
        self.error = el("p", "", "faces-error notice", id="faces-error", role="alert", hidden=True)
        form.appendChild(self.error)
        controls = box.parentNode.querySelector(".controls")
        anchor = controls if controls else box
        anchor.parentNode.insertBefore(form, anchor.nextSibling)
        self.form = form
        on(form, "submit", self._on_submit)
        on(self.field, "input", lambda e: self._show_pads())
        on(self.pads, "click", self._on_pad)

    # --- when it is open --------------------------------------------------------------

    def wanted(self) -> bool:
        """The person to move may throw now, with real dice: the entry is open."""
        table = self.table
        match = table.match
        if match is None or match.dice != "real" or table.replaying or not table.my_turn:
            return False
        return any(isinstance(a, Roll) for a in match.state.legal_actions())

    def draw(self) -> None:
        if self.form is None:
            return
        open_ = self.wanted()
        roll = by_id("roll")
        if roll:
            show(roll, not open_ and not (self.table.match and self.table.match.dice == "real"
                                          and not self.table.replaying))
        show(self.form, open_)
        if not open_:
            self._for = None
            return
        places = self.tray.throwing()
        key = (len(self.table.match.history), places)
        if key != self._for:  # another throw, or other dice kept: a fresh entry
            self._for = key
            self.places = places
            self.field.value = ""
            self.field.setAttribute("maxlength", str(len(places) * 2 + 4))
            self._set_error(None)
            self._build_pads()
        state = self.table.state
        name = Name(self.table.names[state.current_player()])
        dice = ", ".join(str(p + 1) for p in places)
        set_text(self.prompt, render("site.real.prompt", player=name, n=len(places), dice=dice))
        self._show_pads()

    def focus(self) -> bool:
        """Put the keyboard in the field when the entry is open; True if it was."""
        if self.form is not None and not self.form.hidden:
            self.field.focus()
            return True
        return False

    # --- the pads -----------------------------------------------------------------------

    def _build_pads(self) -> None:
        clear(self.pads)
        for i, place in enumerate(self.places):
            group = el("div", None, "faces-pad", role="group", data_slot=i,
                       aria_label=text("site.real.pad", n=place + 1))
            group.appendChild(el("span", str(place + 1), "faces-pad-num", aria_hidden="true"))
            for face in FACES:
                group.appendChild(el("button", face, "face", type="button", tabindex="-1", data_slot=i,
                                     data_face=face, aria_pressed="false",
                                     aria_label=text("site.real.pad_face", n=place + 1, face=face)))
            self.pads.appendChild(group)

    def _digits(self) -> list[str]:
        return [c for c in str(self.field.value) if c not in " ,;\u00a0"]

    def _show_pads(self) -> None:
        digits = self._digits()
        for button in self.pads.querySelectorAll("button[data-face]"):
            slot = int(button.dataset.slot)
            chosen = slot < len(digits) and digits[slot] == button.dataset.face
            button.setAttribute("aria-pressed", "true" if chosen else "false")

    def _on_pad(self, event) -> None:
        button = event.target.closest("button[data-face]")
        if not button:
            return
        slot = int(button.dataset.slot)
        digits = self._digits()
        while len(digits) < slot:
            digits.append("?")
        if slot < len(digits):
            digits[slot] = button.dataset.face
        else:
            digits.append(button.dataset.face)
        self.field.value = "".join(digits)
        self._set_error(None)
        self._show_pads()

    # --- the faces go in -------------------------------------------------------------------

    def _set_error(self, message) -> None:
        if self.error is None:
            return
        self.error.textContent = message or ""
        show(self.error, bool(message))
        if message:
            self.field.setAttribute("aria-invalid", "true")
        else:
            self.field.removeAttribute("aria-invalid")

    def _on_submit(self, event) -> None:
        event.preventDefault()
        if not self.wanted():
            return
        problem = self.table.throw_faces(self.tray.notation(), str(self.field.value))
        if problem:
            self._set_error(problem)
            self.field.focus()


class TrayView(View):
    """A view whose dice are a `DiceTray` (``self.tray``): the kept dice are its page-only
    state, saved with the game; Space or Enter throws them (`roll_key`)."""

    tray: DiceTray

    def restore_ui(self, blob: dict) -> None:
        self.tray.restore(blob)

    def ui_state(self) -> dict:
        return self.tray.ui_state()

    def can_roll(self) -> bool:
        """May the person throw now (the roll button is enabled)?"""
        return False

    def roll_key(self, event) -> bool:
        """Space or Enter throws, when `can_roll` (never on a focused control: the shell
        leaves those keys to it, flow.py); True when the key was one of them."""
        if event.key not in (" ", "Enter", "Spacebar"):
            return False
        event.preventDefault()
        if self.tray.entry.focus():  # real dice: the faces are typed there
            return True
        if self.can_roll():
            self.table.play(by_id("roll").dataset.action)
        return True
