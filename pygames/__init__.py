"""pygames: the rules of French family dice games, in pure Python.

The registry feeds the menus, the CLI, the pages and the tests: `FAMILIES` (one per game
as players name it, each with its rulesets) and `GAMES` (every ruleset by id).  A game
module ends with its `FAMILY`; adding a game is adding its module name to
`GAME_MODULES`.  See `pygames.core` for the protocol every game follows.
"""

from __future__ import annotations

from importlib import import_module

from .core import (
    CHANCE,
    RECORD_FORMAT,
    TERMINAL,
    Action,
    BadRecord,
    DiceSampler,
    Family,
    Game,
    GameError,
    IllegalAction,
    Match,
    Option,
    Outcome,
    Player,
    State,
    Throw,
)

__version__ = "0.1.0"

GAME_MODULES = ("yams", "le421", "linotte", "landais")  # menu order

FAMILIES: dict[str, Family] = {}
GAMES: dict[str, Game] = {}
for _name in GAME_MODULES:
    _family = import_module(f".{_name}", __name__).FAMILY
    FAMILIES[_family.id] = _family
    for _game in _family.games:
        assert _game.family == _family.id and _game.id not in GAMES, _game.id
        GAMES[_game.id] = _game


def find_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        from .core import quote

        known = ", ".join(GAMES)
        raise GameError(f"Jeu inconnu : « {quote(game_id)} » (jeux : {known}).") from None


def family_of(game: Game) -> Family:
    return FAMILIES[game.family]


def load_match(record, sampler: DiceSampler | None = None) -> Match:
    """Replay a saved game: its JSON text, or the dict it decodes to."""
    return Match.from_record(record, GAMES, sampler)


__all__ = [
    "CHANCE", "FAMILIES", "RECORD_FORMAT", "TERMINAL", "Action", "BadRecord", "DiceSampler",
    "Family", "GAMES", "Game", "GameError", "IllegalAction", "Match", "Option", "Outcome",
    "Player", "State", "Throw", "family_of", "find_game", "load_match",
]
