"""What several core test modules share that is not a fixture: the shipped tables."""

from __future__ import annotations

from functools import lru_cache

from pygames import find_game
from pygames.cli import read_tables


@lru_cache(maxsize=None)
def _shipped(game_id: str, options: tuple):
    return read_tables(find_game(game_id), dict(options))


def shipped_tables(game_id: str, options: dict | None = None):
    """The expert's tables the site ships (web/tables/), read once per session."""
    game = find_game(game_id)
    return _shipped(game_id, tuple(sorted(game.resolve_options(options).items())))


def reason_text(match_or_game, outcome=None, names=None) -> str:
    """The French reason of an outcome, as the end screen and the CLI say it."""
    from pygames import family_of
    from pygames.messages import text

    if outcome is None:
        match = match_or_game
        game, outcome, names = match.game, match.outcome(), match.names
    else:
        game = match_or_game
    return text(family_of(game).text.reason(outcome, names))


def render_text(game, state, names) -> str:
    """The state drawn for a terminal, in the family's words."""
    from pygames import family_of

    return family_of(game).text.render_text(state, names)
