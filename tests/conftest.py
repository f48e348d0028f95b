"""Pieces shared by the whole core test suite (each game's own are in its folder's conftest)."""

from __future__ import annotations

import os

import pytest

# The tests read the French words (the reference): a terminal in another language would
# make the command line speak it (pygames/messages.py from_environment).
os.environ["PYGAMES_LANG"] = "fr"

from pygames import DiceSampler, Match, Player, find_game
from pygames.bots import RandomBot
from pygames.core import play_out


def simulate(game_id: str, names=("Alice", "Bob"), options=None, seed="golden", bot=None):
    """A finished match between computer-chosen random moves, with seeded dice."""
    match = Match(find_game(game_id), [Player(n) for n in names], options, DiceSampler(seed))
    return play_out(match, bot or RandomBot(seed))


@pytest.fixture
def simulated():
    return simulate


@pytest.fixture
def english():
    """The words in English for the test, French again after it (pygames.messages.use)."""
    from pygames import messages

    messages.use("en")
    try:
        yield
    finally:
        messages.use("fr")
