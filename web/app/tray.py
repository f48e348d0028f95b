"""The dice tray: the dice of every game, drawn, kept and thrown the same way.

Yams, 421 and Linotte keep dice between throws: the tray owns the die buttons in ``#dice``
(``data-die``, ``data-face``, ``aria-pressed``) and their drawing, the dice a person keeps
(a click, or the digit keys), the roll's notation (``roll``, or ``keep 3 5 @1,4``: the
places too, so the dice stay where the player saw them), saving and restoring the kept dice
with the game, and showing the dice a computer keeps before it throws the others.  The Dé
Landais throws all its dice every time: its tray only draws them (``keeping=False``).

Kept dice are the page's own state until the next throw; they belong to one hand (the
view's `hand(state)`, e.g. the 421's round and turn) and go as soon as it is over.
"""

from __future__ import annotations

import asyncio

from dom import by_id, el, on
from view import View

from pygames.dice import Roll
from pygames.messages import Name, render, text


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
        when ready), a full throw drops what was held and throws, anything else plays."""
        if isinstance(action, Roll) and action.keep:
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
                die.classList.remove("rolling")
                die.offsetWidth  # restart the animation
                die.classList.add("rolling")
        self._thrown = ()


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
        if self.can_roll():
            self.table.play(by_id("roll").dataset.action)
        return True
