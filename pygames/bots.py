"""Computer players. A bot is a function of a state: `choose(state) -> action`.

Each game's package holds every computer level of its own (``pygames/<game>/bots.py``)
and its family declares them (`Family.bots`); `bot_for(game, seat, tables)` gives the bot
of a seat.  `RandomBot` plays uniformly random legal actions, for any game.
"""

from __future__ import annotations

import random

from .core import Action, State, bot_for

__all__ = ["RandomBot", "bot_for"]


class RandomBot:
    """Uniformly random legal actions (for tests and simulations)."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())
