"""Computer players. A bot is a function of a state: `choose(state) -> action`.

`bot_for(game, seat)` gives the bot of a seat, as each game declares it (`Game.bot`);
`RandomBot` plays uniformly random legal actions, for any game.
"""

from __future__ import annotations

import random

from .core import Action, Game, GameError, State


class RandomBot:
    """Uniformly random legal actions (for tests and simulations)."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


def bot_for(game: Game, seat: str, tables=None):
    """The bot of a seat, as the game declares it (`Game.bot`). Games whose expert plays
    from solved tables take them as `tables` (by default read from web/tables/)."""
    if seat not in game.seats or seat == "human":
        raise GameError(f"Pas de joueur ordinateur « {seat} » pour {game.title}.")
    return game.bot(seat, tables)
