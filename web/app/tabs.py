"""Which tab plays the computer's moves when a game is open in several tabs.

Every tab follows the saved game (the shell's storage event), but only one of them, the
*driving* tab, plays the computer's turns: two tabs rolling for the computer at once would
each save their own dice, and a person's click in the other tab would then land on a
position that is gone.  The driving tab is the one the person used last: it takes the
drive when it opens a game, when a person plays in it and when its tab is brought to the
front, and says so to the others on a BroadcastChannel (no storage needed, so a full
storage changes nothing).  A tab that is told another one drives stops its computer players; if nothing
arrives from the driver for a while at a computer's turn (its tab was closed), it takes
the drive back by itself.
"""

import asyncio

from dom import on
from pyscript import document, window

#: Seconds a following tab waits at a computer's turn before it takes the drive itself.
TAKE_OVER_AFTER = 4.0


class Drive:
    def __init__(self, name, on_drive):
        self.mine = True
        self._on_drive = on_drive  # called when this tab takes the drive back by itself
        self._watch = 0  # bumped by each event that restarts the watch
        try:
            self.channel = window.BroadcastChannel.new(name)
        except Exception:  # a browser without BroadcastChannel: every tab drives, as before
            self.channel = None
            return
        on(self.channel, "message", self._on_message)

    def bind(self):
        # A tab brought to the front (not a window's focus: a window beside another one gets
        # it for any click, and a person's move there takes the drive anyway).
        on(document, "visibilitychange", lambda e: self._came_forward())

    def take(self):
        """This tab drives from now on; the others stop their computer players."""
        self.mine = True
        self._watch += 1
        if self.channel is not None:
            try:
                self.channel.postMessage("drive")
            except Exception:
                pass

    def _on_message(self, event):
        if event.data == "drive":
            self.mine = False
            self.watch()

    def _came_forward(self):
        if document.visibilityState == "visible" and not self.mine:
            self.take()
            self._on_drive()

    def watch(self, pace=0.0):
        """A following tab at a computer's turn: take the drive if the driver goes quiet
        (each call, such as another tab's save, starts the wait again)."""
        if self.mine:
            return
        self._watch += 1
        asyncio.ensure_future(self._wait(self._watch, TAKE_OVER_AFTER + 4 * pace))

    async def _wait(self, watch, seconds):
        await asyncio.sleep(seconds)
        if watch == self._watch and not self.mine:
            self.take()
            self._on_drive()
