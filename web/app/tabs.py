"""Which tab plays the computer's moves when a game is open in several tabs.

Every tab follows the saved game (the shell's storage event), but only one of them, the
*driving* tab, plays the computer's turns: two tabs rolling for the computer at once would
each save their own dice, and a person's click in the other tab would then land on a
position that is gone.  The driving tab is the one the person used last: it takes the
drive when it opens a game, when a person plays in it and when its tab is brought to the
front.  The drive is a stored value (``<the game's key>:driver``, this tab's id), read
before each of the computer's moves: every tab sees a change at once, however busy it is.
A tab that does not drive, at a computer's turn, takes the drive back by itself if
nothing arrives from the driver for a while (its tab was closed).  "Nothing arrives" means
no save and no beat: while its computer is thinking, waiting or fetching its tables, the
driving tab beats (``<the game's key>:driver:beat``, a counter) every `BEAT_EVERY`
seconds, so that a driver slow to make its first move (a tab just opened on a loaded
machine, the expert's tables still on their way) is not taken for a closed one.  Where
nothing can be stored, each tab drives its own game, as it saves it: nowhere.
"""

import asyncio

from dom import document, on, spawn, storage, window

#: Seconds a following tab waits at a computer's turn before it takes the drive itself.
TAKE_OVER_AFTER = 4.0
#: Seconds between the driving tab's beats while its computer prepares a move.
BEAT_EVERY = 1.0


class Drive:
    def __init__(self, key, on_drive):
        self.key = key + ":driver"
        self.id = f"{int(window.Date.now()):x}-{int(window.Math.random() * 2**32):x}"
        self._on_drive = on_drive  # called when this tab takes the drive back by itself
        self._watch = 0  # bumped by each event that restarts the watch
        self._waiting = None  # the pace of the watch under way, if one is
        self._beats = 0
        self._unstored = False  # the drive could not be stored: this tab drives

    def bind(self):
        # A tab brought to the front (not a window's focus: a window beside another one gets
        # it for any click, and a person's move there takes the drive anyway).
        on(document, "visibilitychange", lambda e: self._came_forward())
        on(window, "storage", self._heard)

    def _heard(self, event):
        """The driving tab beat: a watch under way starts again."""
        if event.key == self.key + ":beat" and self._waiting is not None:
            self.watch(self._waiting)

    @property
    def mine(self) -> bool:
        if self._unstored:
            return True
        holder = storage.get(self.key)
        return holder is None or holder == self.id

    def take(self):
        """This tab drives from now on; the others' computer players stop at their next move."""
        self._watch += 1
        self._unstored = not storage.set(self.key, self.id)

    def _came_forward(self):
        if document.visibilityState == "visible" and not self.mine:
            self.take()
            self._on_drive()

    def watch(self, pace=0.0):
        """A following tab at a computer's turn: take the drive if the driver goes quiet
        (each call, such as after another tab's save or beat, starts the wait again)."""
        if self.mine:
            self._waiting = None
            return
        self._watch += 1
        self._waiting = pace
        spawn(self._wait(self._watch, TAKE_OVER_AFTER + 4 * pace))

    async def _wait(self, watch, seconds):
        await asyncio.sleep(seconds)
        if watch == self._watch:
            self._waiting = None
            if not self.mine:
                self.take()
                self._on_drive()

    async def beat(self, going):
        """The driving tab's beats, every `BEAT_EVERY` seconds while `going()` and it
        drives (its computer loop runs this beside itself)."""
        while going() and self.mine and not self._unstored:
            self._beats += 1
            storage.set(self.key + ":beat", str(self._beats))
            await asyncio.sleep(BEAT_EVERY)
