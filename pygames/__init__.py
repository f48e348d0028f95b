"""pygames: the rules of French family dice games, in pure Python.

`GAMES` is the registry that feeds the menus, the CLI and the tests; `find_game(id)`
returns one game.  See `pygames.core` for the protocol every game follows.
"""

from __future__ import annotations

from .core import (
    CHANCE,
    RECORD_FORMAT,
    TERMINAL,
    Action,
    BadRecord,
    DiceSampler,
    Game,
    GameError,
    IllegalAction,
    Match,
    Option,
    Player,
    State,
    Throw,
)
from .yams import Yahtzee, Yams, YamsBoite

__version__ = "0.1.0"

GAMES: dict[str, Game] = {g.id: g for g in (Yams(), YamsBoite(), Yahtzee())}


def find_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise GameError(f"Jeu inconnu : « {game_id} » (jeux : {known}).") from None


def load_match(record, sampler: DiceSampler | None = None) -> Match:
    """Replay a saved game: its JSON text, or the dict it decodes to."""
    return Match.from_record(record, GAMES, sampler)


__all__ = [
    "CHANCE", "RECORD_FORMAT", "TERMINAL", "Action", "BadRecord", "DiceSampler", "GAMES",
    "Game", "GameError", "IllegalAction", "Match", "Option", "Player", "State", "Throw",
    "find_game", "load_match",
]
