"""The protocol every registered game follows, checked the same way for each of them.

Nothing here names a game: a game added to the registry is tested by this module with
no edit.  Under every option set: seeded random play reaches the end, a legal action
exists until then, `apply` never mutates its input, every listed action is accepted,
notation and records round-trip, seeded dice replay, illegal actions and garbage are
refused with the project's own error and change nothing, and the outcome agrees with
the scores.  Each computer seat a game offers plays a whole game legally.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from support import play_legally, reason_text, shipped_tables, sized

from pygames import FAMILIES, GAMES, DiceSampler, GameError, IllegalAction, Match, Player, load_match
from pygames.bots import RandomBot, bot_for
from pygames.core import Throw

pytestmark = pytest.mark.slow  # about 5 minutes: PYGAMES_TEST_SIZE scales its games

GAMES_PER_CONFIG = sized(12)
HEAVY_EVERY = 4  # one game in four gets the expensive checks
MAX_STEPS = 50_000
NAMES = ["Alice", "Bob", "Chloé", "Djamel", "Éloïse", "Farid"]

CONFIGS = [(g.id, options) for g in GAMES.values() for options in g.option_sets()]


def config_id(config) -> str:
    game_id, options = config
    game = GAMES[game_id]
    changed = [f"{k}={v}" for k, v in options.items()
               if v != next(o.default for o in game.options if o.id == k)]
    return "+".join([game_id, *changed])


def player_counts(game) -> list[int]:
    return sorted({game.min_players, min(game.max_players, game.min_players + 1), game.max_players})


def new_match(game, n, options, seed, seats=None) -> Match:
    seats = seats or ["human"] * n
    return Match(game, [Player(NAMES[i], seats[i]) for i in range(n)], options, DiceSampler(seed))


def check_outcome(match: Match) -> None:
    state = match.state
    outcome = match.outcome()
    assert outcome is not None and reason_text(match).strip()
    n = len(match.players)
    ranking = [list(place) for place in outcome.ranking]
    assert sorted(p for place in ranking for p in place) == list(range(n))
    assert ranking == [list(place) for place in state.ranking()]
    assert list(outcome.winners) == ranking[0]
    if n > 1:
        # A draw is a shared first place (a shared first place need not be a draw: in 421
        # the players who leave together have won, and one player has lost).
        assert not outcome.draw or len(ranking[0]) > 1
        if len(ranking) > 1:
            assert list(outcome.losers) == ranking[-1]
    # Places follow the scores unless the game ranks by something else it declares.
    scores = state.scores()
    assert len(scores) == n and all(type(s) is int for s in scores)
    json.dumps(outcome.to_json(match.names))


def play_checked(match: Match, rng: random.Random, heavy: bool) -> Match:
    game = match.game
    for step in range(MAX_STEPS):
        state = match.state
        if state.is_terminal():
            break
        if state.is_chance():
            n = state.dice_to_throw()
            assert 1 <= n <= game.max_dice
            throw = match.sampler.throw(state, len(match.history))
            if heavy and step % 7 == 0:
                for bad in (Throw((2.0,) * n), Throw((True,) * n), Throw((7,) * n), Throw((1,) * (n + 1))):
                    with pytest.raises(IllegalAction):
                        state.apply(bad)
            match.apply(throw)
            continue
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        action = rng.choice(legal)
        if heavy and step % 5 == 0:
            for other in legal:
                assert game.parse_action(other.notation()) == other, other.notation()
            for other in legal[:30]:
                state.apply(other)  # every listed action is accepted
            frozen = copy.deepcopy(state)
            after = state.apply(action)
            assert state == frozen and after is not state
            with pytest.raises(IllegalAction):
                state.apply(Throw((1,)))
        match.apply(action)
    else:
        pytest.fail(f"{game.id}: no end after {MAX_STEPS} steps")
    assert match.state.legal_actions() == []
    with pytest.raises(IllegalAction):
        match.state.apply(Throw((1,)))
    check_outcome(match)
    return match


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_seeded_random_play_reaches_a_consistent_end(config):
    game_id, options = config
    game = GAMES[game_id]
    counts = player_counts(game)
    for i in range(GAMES_PER_CONFIG):
        seed = f"protocol/{config_id(config)}/{i}"
        match = new_match(game, counts[i % len(counts)], options, seed)
        heavy = i % HEAVY_EVERY == 0
        play_checked(match, random.Random(seed), heavy)
        if heavy:
            record = json.loads(json.dumps(match.to_record()))
            again = load_match(record)
            assert again.state == match.state and again.to_record() == record
            assert again.outcome() == match.outcome()


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_seeded_dice_replay_the_same_game(game_id):
    game = GAMES[game_id]
    n = player_counts(game)[-1]
    histories = []
    for _ in range(2):
        match = new_match(game, n, None, "same-seed")
        bot = RandomBot("same-bot")
        while not match.state.is_terminal():
            match.throw() if match.state.is_chance() else match.apply(bot(match.state))
        histories.append([a.notation() for a in match.history])
    assert histories[0] == histories[1]
    assert any(a.startswith("dice") for a in histories[0])  # the game throws dice at all


GARBAGE = ["", " ", "?", "dice", "dice 0", "dice 7", "dice 1 2 3 4 5 6 7 8 9 10",
           "roll 1", "keep", "keep 9", "score", "place", "place z9", "\x00", "é" * 300,
           "dice 1.0", "dice ١", "dice 𝟙", "DICE 1", "dice -1", "nonsense words here"]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_garbage_and_illegal_actions_change_nothing(game_id):
    game = GAMES[game_id]
    match = new_match(game, max(game.min_players, min(2, game.max_players)), None, "garbage")
    rng = random.Random("garbage")
    seen = 0
    while not match.state.is_terminal() and seen < 40:
        state = match.state
        frozen = copy.deepcopy(state)
        for text in GARBAGE + [None, 42, b"roll"]:
            try:
                action = game.parse_action(text)
            except GameError:
                continue
            try:
                state.apply(action)
            except GameError:
                pass
        assert state == frozen
        if state.is_chance():
            for bad in (Throw((1,) * (state.dice_to_throw() + 1)), "dice 1", None):
                with pytest.raises(IllegalAction):
                    state.apply(bad)
            match.throw()
        else:
            legal = state.legal_actions()
            for bad in (Throw((1,) * game.max_dice), "not an action", 42):
                with pytest.raises(IllegalAction):
                    state.apply(bad)
            assert state == frozen
            match.apply(rng.choice(legal))
            seen += 1


SEATS = [(g.id, seat) for g in GAMES.values() for seat in g.seats if seat != "human"]


@pytest.mark.parametrize("game_id, seat", SEATS, ids=[f"{g}-{s}" for g, s in SEATS])
def test_every_computer_seat_plays_a_legal_game(game_id, seat):
    game = GAMES[game_id]
    n = max(game.min_players, min(2, game.max_players))
    match = new_match(game, n, None, f"seat/{seat}", [seat] * n)
    tables = shipped_tables(game_id) if seat == "expert" else None
    bots = {i: bot_for(game, seat, tables) for i in range(n)}
    play_legally(match, bots, MAX_STEPS)
    check_outcome(match)


def test_every_family_is_complete():
    for family in FAMILIES.values():
        assert family.games and str(family.title) and str(family.description) and family.view
        for msg in (family.title, family.description):
            assert str(msg) != msg.id, f"{msg.id} is in no catalogue"
        assert list(family.seats)[0] == "human"
        for game in family.games:
            assert game.family == family.id and str(game.title) != game.title.id
            with pytest.raises(GameError):
                game.check_players([Player("A", "no_such_seat")] * max(1, game.min_players))
