"""The table: what a game's view sees of the page, in place of the shell.

As boardgame.io's board receives its props, a view (view.py) receives one `Table` and never
the shell.  It reads the match and whose turn it is; it plays a person's move through one
entry (`play`), whatever the move comes from: a click, a key, the advisor — or real dice
typed in (`throw_faces`), and later another device or a tutorial; it says when its own
page-only state changed (the
kept dice, saved with the game: `changed`); it announces, hints, and starts a task that
stops by itself when the match changes (`task`: the 421's Charge auto).  Everything else —
setup, saves, the computer's loop, undo, replays, statistics — is the shell's.
"""

from __future__ import annotations

from dom import el, spawn

from pygames.messages import text


class Task:
    """A view's background task (see `Table.task`)."""

    def __init__(self):
        self.done = False

    @property
    def running(self) -> bool:
        return not self.done


class Table:
    def __init__(self, shell):
        self._shell = shell

    # --- what a view reads ----------------------------------------------------------------

    @property
    def family(self):
        return self._shell.family

    @property
    def match(self):
        """The match on the table (None before the first game); a replay's position too."""
        return self._shell.match

    @property
    def state(self):
        return self._shell.match.state

    @property
    def players(self):
        return self._shell.match.players

    @property
    def names(self) -> list[str]:
        return self._shell.match.names

    def is_person(self, player) -> bool:
        """True if `player` (an index) is played by a person on this page."""
        return player not in self._shell.bots

    def persons(self) -> list[int]:
        return [p for p in range(len(self.players)) if self.is_person(p)]

    def seat_badge(self, player, parenthesised: bool = False):
        """The badge beside a computer player's name: "expert" or "ordi", or, when the
        expert's tables could not be had (offline, never cached), what it really plays:
        "expert, joue en facile".  The shell rewrites it (``data-seat``) if that happens
        during the game."""
        seat = player.seat
        text = bot_badge_text(seat, seat in self._shell.downgraded)
        return el("span", f" ({text})" if parenthesised else text, "bot", data_seat=seat,
                  data_paren="1" if parenthesised else None)

    @property
    def to_move(self):
        """The player whose turn it is, or None (dice in the air, the game over)."""
        state = self.state
        return None if state.is_terminal() or state.is_chance() else state.current_player()

    @property
    def my_turn(self) -> bool:
        """A person may play now on this page (not the computer's turn, not a replay)."""
        return self._shell.human_turn()

    @property
    def replaying(self) -> bool:
        return self._shell.replay is not None

    def setup_names(self) -> list[str]:
        """The names typed in the setup's player rows (a view's own setup fields follow them)."""
        return self._shell.setup_names()

    # --- what a view does -----------------------------------------------------------------

    def play(self, move) -> None:
        """A person's move: an action or its notation; illegal ones are explained in the hint."""
        if isinstance(move, str):
            self._shell.play_text(move)
        elif self.my_turn:
            self._shell.play(move)

    def throw_faces(self, notation: str, written: str):
        """Real dice: the person to move threw at the table (`notation`: the throw, e.g.
        ``roll`` or ``keep 6 6 @1,3``) and typed in the faces that landed (`written`).
        Played as one move; a wrong entry changes nothing and its reason is returned (also
        said in the hint), else None."""
        return self._shell.throw_faces(notation, written)

    def changed(self) -> None:
        """The view's page-only state (`View.ui_state`, e.g. the kept dice) changed: save it."""
        self._shell.save()

    def announce(self, text) -> None:
        """Say it to screen readers: a text, a message or pieces (names placed as data)."""
        self._shell.announce(text)

    def hint(self, text) -> None:
        """The line under the table."""
        self._shell.hint(text)

    def task(self, body) -> Task:
        """Run ``body(live)`` (a coroutine function) in the background; ``live()`` is true
        while the match it started on is still the page's (a new game, a resumed one, an
        undo or another tab's move ends it).  The returned `Task` says whether it runs."""
        handle = Task()
        generation = self._shell.generation

        def live() -> bool:
            return generation == self._shell.generation

        async def run():
            try:
                await body(live)
            finally:
                handle.done = True

        spawn(run())
        return handle


def bot_badge_text(seat: str, downgraded: bool = False) -> str:
    if seat == "expert":
        return text("site.badge.downgraded" if downgraded else "site.badge.expert")
    return text("site.badge.computer")
