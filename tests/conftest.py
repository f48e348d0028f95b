"""Pieces shared by the whole core test suite (each game's own are in its folder's conftest)."""

from __future__ import annotations

import pytest

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
