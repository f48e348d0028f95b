"""What several core test modules share that is not a fixture: the shipped tables, the
size of the heavy modules' loops, the French of an outcome, playing a match out."""

from __future__ import annotations

import ast
import os
from functools import lru_cache
from pathlib import Path

from pygames import find_game
from pygames.cli import read_tables
from pygames.core import play_out


def _test_size() -> float:
    text = os.environ.get("PYGAMES_TEST_SIZE", "1")
    try:
        size = float(text)
    except ValueError:
        size = -1.0
    if not 0 < size <= 100:
        raise ValueError(f"PYGAMES_TEST_SIZE must be a number in (0, 100], not {text!r}")
    return size


#: How much of their inner loop the heavy (``slow``) modules run: 1 is the whole of it, what
#: ``make test`` runs; ``PYGAMES_TEST_SIZE=0.1`` plays a tenth of the games, for a quick look.
TEST_SIZE = _test_size()


def sized(count: int) -> int:
    """`count` scaled by `TEST_SIZE`, never under 1."""
    return max(1, round(count * TEST_SIZE))


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


def play_legally(match, bots, max_steps: int | None = None):
    """Play `match` to its end, `bots[player](state)` choosing each move: every move chosen
    is asserted legal, and, given `max_steps`, the game asserted to end in fewer moves."""
    steps = 0

    def choose(state):
        nonlocal steps
        action = bots[state.current_player()](state)
        assert action in state.legal_actions()
        steps += 1
        assert max_steps is None or steps < max_steps
        return action

    return play_out(match, choose)


def turn(match, *moves: str):
    """Play `moves` on `match`, written as the rules read: a `dice …` that opens a turn
    implies its first `roll`."""
    for move in moves:
        if move.startswith("dice") and match.state.rolls == 0 and not match.state.is_chance():
            match.apply("roll")
        match.apply(move)
    return match


def python_strings(path: Path):
    """The string constants of a module, f-string parts included, but not its docstrings
    (they are for the maintainers): (line, text) — what the checks of the words left in
    the code read (tests/test_typography.py, test_site_words.py, test_view_words.py)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value
