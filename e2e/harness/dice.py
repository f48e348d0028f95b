"""The dice tray of a game page, as a player sees and uses it: one die per ``[data-die]``
element of ``#dice`` (its face in ``data-face``, 0 while it is not on the table; kept when
``aria-pressed="true"``), and the roll button ``#roll``, whose ``data-action`` is the
notation of the throw it plays (``roll``, or ``keep 3 3 @0,2``...).

Yams and the Jeu de la linotte have five dice, le 421 three; the Dé Landais draws its three
dice the same way (spans, never kept).
"""

from __future__ import annotations

#: JS expression: every die of the tray, in place order.
DICE_JS = """[...document.querySelectorAll('#dice [data-die]')].map((d) => ({
    face: Number(d.dataset.face), held: d.getAttribute('aria-pressed') === 'true',
    disabled: d.disabled === true}))"""
#: JS expression: how many throws of the turn are used (the marks beside Lancer).
THROWS_USED_JS = "document.querySelectorAll('#roll-count i.used').length"


class DiceTray:
    """Reads and plays the dice of a page (or frame) by mouse or by keyboard (keys 1-5)."""

    def __init__(self, page):
        self.page = page

    def read(self) -> list[dict]:
        """Each die: {"face": 1-6 (0: not thrown), "held": bool, "disabled": bool}."""
        return self.page.evaluate(f"() => {DICE_JS}")

    def faces(self) -> tuple[int, ...]:
        return tuple(d["face"] for d in self.read())

    def held(self) -> set[int]:
        return {i for i, d in enumerate(self.read()) if d["held"]}

    def toggle(self, place: int, by: str = "mouse") -> None:
        """Keep a die, or let it go."""
        if by == "mouse":
            self.page.click(f'#dice [data-die="{place}"]')
        else:
            self.page.keyboard.press(str(place + 1))

    def set_held(self, wanted, by: str = "mouse") -> None:
        """Make the kept dice exactly `wanted` (places), and check that they are."""
        wanted = set(wanted)
        for place in sorted(wanted ^ self.held()):
            self.toggle(place, by)
        assert self.held() == wanted, (self.held(), wanted)

    def roll_action(self) -> str | None:
        """The notation the roll button plays."""
        return self.page.get_attribute("#roll", "data-action")

    def roll(self, by: str = "mouse", key: str = "Space") -> None:
        if by == "mouse":
            self.page.click("#roll")
        else:
            self.page.keyboard.press(key)

    def throws_used(self) -> int:
        return self.page.evaluate(f"() => {THROWS_USED_JS}")

    def wait_throws(self, n: int) -> None:
        """Until the turn's throw marks say `n` throws are used."""
        self.page.wait_for_function(f"n => {THROWS_USED_JS} === n", arg=n)

    def wait_all_thrown(self) -> None:
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('#dice [data-die]')].every(d => d.dataset.face !== '0')")

    def wait_all_empty(self) -> None:
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('#dice [data-die]')].every(d => d.dataset.face === '0')")
