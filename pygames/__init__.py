"""pygames: the rules of French family dice games, in pure Python.

The registry feeds the menus, the CLI, the pages and the tests: `FAMILIES` (one per game
as players name it, each with its rulesets) and `GAMES` (every ruleset by id).  Each game
is a package (``pygames/<game>/``: rules, bots, tables, solver, commands, words) whose
``__init__`` assembles its `FAMILY`; adding a game is adding its family id and package
name to `GAME_MODULES`.  See `pygames.core` for the protocol every game follows.

The registry is lazy: `import pygames` imports `pygames.core` only, and a game module is
imported when its family (or one of its rulesets) is first looked up.  A game page thus
imports its own game, not the four (web/app/shell.py reads `FAMILIES[its id]`); listing
`FAMILIES` or `GAMES` (the CLI, the tests) imports every game, in menu order.  A game whose
module is not there at all (a game page's files hold its own game only) is unknown to a
lookup: `FAMILIES[id]` and `GAMES[id]` raise KeyError, as for an id never declared.
"""

from __future__ import annotations

from importlib import import_module
from typing import Iterator, Mapping

from .core import (
    CHANCE,
    RECORD_FORMAT,
    TERMINAL,
    Action,
    Advice,
    BadRecord,
    Choice,
    DailySampler,
    DiceSampler,
    Family,
    Game,
    GameError,
    IllegalAction,
    Match,
    NewerRecord,
    Option,
    Outcome,
    Player,
    Position,
    State,
    Throw,
    bot_for,
    family_of,
    parse_daily,
    quote,
)

__version__ = "0.1.0"

#: Every game, in menu order: its family id (``FAMILY.id``, the page's id) -> the package
#: (``pygames.<package>``) that assembles that ``FAMILY``.  Declared here, not read from the
#: packages, so that finding a family imports its package only (tests/test_registry.py checks
#: each id against the package's FAMILY).
GAME_MODULES: dict[str, str] = {
    "yams": "yams",
    "421": "le421",
    "linotte": "linotte",
    "de-landais": "landais",
}

_families: dict[str, Family] = {}  # imported so far
_games: dict[str, Game] = {}


def _load(family_id: str) -> Family | None:
    """The family (its module imported), or None if its module is not there."""
    family = _families.get(family_id)
    if family is None:
        module = GAME_MODULES[family_id]
        try:
            family = import_module(f".{module}", __name__).FAMILY
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{module}":  # this game is not installed here
                return None
            raise
        assert family.id == family_id, (f"pygames.{module}.FAMILY.id is {family.id!r}, "
                                        f"GAME_MODULES says {family_id!r}")
        for game in family.games:
            assert game.family == family.id and game.id not in _games, game.id
        _games.update((game.id, game) for game in family.games)
        _families[family_id] = family
    return family


def _available() -> list[Family]:
    """Every family whose module is there, in menu order (imports them all)."""
    return [f for f in map(_load, GAME_MODULES) if f is not None]


class _Families(Mapping[str, Family]):
    """Family id -> Family, in menu order; a game module is imported on first lookup."""

    def __getitem__(self, family_id: str) -> Family:
        family = _load(family_id) if isinstance(family_id, str) and family_id in GAME_MODULES else None
        if family is None:
            raise KeyError(family_id)
        return family

    def __iter__(self) -> Iterator[str]:
        return iter([f.id for f in _available()])

    def __len__(self) -> int:
        return len(_available())

    def __repr__(self) -> str:
        return f"FAMILIES({list(self)})"


class _Games(Mapping[str, Game]):
    """Ruleset id -> Game, in menu order: a lookup searches the families imported so far,
    then imports the others one by one until it finds the id; listing imports them all."""

    def __getitem__(self, game_id: str) -> Game:
        if not isinstance(game_id, str):
            raise KeyError(game_id)
        for family_id in GAME_MODULES:
            if game_id in _games:
                break
            _load(family_id)
        return _games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter([g.id for f in _available() for g in f.games])

    def __len__(self) -> int:
        return sum(len(f.games) for f in _available())

    def __repr__(self) -> str:
        return f"GAMES({list(self)})"


FAMILIES: Mapping[str, Family] = _Families()
GAMES: Mapping[str, Game] = _Games()


def find_game(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except (KeyError, TypeError):
        raise GameError("error.game_unknown", game=quote(game_id), known=", ".join(GAMES)) from None


def load_match(record, sampler: DiceSampler | None = None) -> Match:
    """Replay a saved game: its JSON text, or the dict it decodes to."""
    return Match.from_record(record, GAMES, sampler)


__all__ = [
    "CHANCE", "FAMILIES", "RECORD_FORMAT", "TERMINAL", "Action", "Advice", "BadRecord", "NewerRecord",
    "Choice", "DailySampler", "DiceSampler", "Family", "GAMES", "Game", "GameError", "IllegalAction", "Match",
    "Option", "Outcome", "Player", "Position", "State", "Throw", "bot_for", "family_of",
    "find_game", "load_match", "parse_daily",
]
