"""Undo ("Annuler") in `Match`, over every registered game: a player's last decision can be
taken back while no dice have landed since it and the game is not over; taking it back
gives back exactly the state, the history and the record from before it, and the record
replays to the same position.  The match-level setting *sans annulation* (`undo=False`)
turns it off and is kept in the record; records without the field allow undo."""

from __future__ import annotations

import json
import random

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pygames import GAMES, BadRecord, DiceSampler, IllegalAction, Match, Player, Throw, load_match  # noqa: E402

GAME_IDS = sorted(GAMES)
FAST = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def new_match(game_id, seed="u", undo=True, players=None):
    game = GAMES[game_id]
    n = players or max(game.min_players, min(3, game.max_players))
    return Match(game, [Player(f"P{i + 1}") for i in range(n)], None, DiceSampler(seed), undo=undo)


def snapshot(match):
    return match.state, [a.notation() for a in match.history], json.dumps(match.to_record())


def roundtrip(record):
    return json.loads(json.dumps(record))


def advance(match, rng, plies):
    """Play at random (seeded dice) for `plies` actions or to the end."""
    for _ in range(plies):
        if match.state.is_terminal():
            break
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(rng.choice(match.state.legal_actions()))
    return match


def random_decisions(match, rng):
    """Play at random (seeded dice) towards the end, yielding after each decision the legal
    actions it was picked from; the caller may stop early by leaving its loop."""
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
            continue
        legal = match.state.legal_actions()
        match.apply(rng.choice(legal))
        yield legal


@pytest.mark.parametrize("game_id", GAME_IDS)
@FAST
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 400), choice=st.integers(0, 10**6))
def test_apply_then_undo_gives_back_state_history_and_record(game_id, seed, plies, choice):
    match = advance(new_match(game_id, f"s{seed}"), random.Random(seed), plies)
    while match.state.is_chance():
        match.throw()
    if match.state.is_terminal():
        return
    before = snapshot(match)
    actor = match.state.current_player()
    legal = match.state.legal_actions()
    action = legal[choice % len(legal)]
    match.apply(action)
    if match.state.is_terminal():
        assert not match.can_undo()  # the game is over: its result stands
        return
    assert match.can_undo() and match.undo_player() == actor
    taken = match.undo()
    assert taken == action
    assert snapshot(match) == before
    # The record after undo replays to the same position (and the same undo ability).
    again = load_match(roundtrip(match.to_record()), DiceSampler(f"s{seed}"))
    assert again.state == match.state and again.to_record() == match.to_record()
    assert again.can_undo() == match.can_undo()


@pytest.mark.parametrize("game_id", GAME_IDS)
@FAST
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 400))
def test_undo_never_after_a_throw(game_id, seed, plies):
    match = advance(new_match(game_id, f"t{seed}"), random.Random(seed), plies)
    rng = random.Random(seed + 1)
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
            assert isinstance(match.history[-1], Throw)
            assert not match.can_undo() and match.undo_player() is None
            with pytest.raises(IllegalAction):
                match.undo()
            return
        match.apply(rng.choice(match.state.legal_actions()))


@pytest.mark.parametrize("game_id", GAME_IDS)
@FAST
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 600))
def test_undo_only_takes_back_the_last_players_decision(game_id, seed, plies):
    """Once another player has acted, only that player's decision can be taken back;
    taking back every decision in a row never goes past a throw."""
    match = advance(new_match(game_id, f"o{seed}"), random.Random(seed), plies)
    rng = random.Random(seed + 2)
    actors = []  # the players of the decisions since the last throw
    while not match.state.is_terminal() and len(actors) < 3:
        if match.state.is_chance():
            match.throw()
            actors = []
            continue
        actors.append(match.state.current_player())
        match.apply(rng.choice(match.state.legal_actions()))
        if not match.state.is_terminal():
            assert match.undo_player() == actors[-1]
    if match.state.is_terminal():
        return
    while actors:
        assert match.can_undo() and match.undo_player() == actors.pop()
        match.undo()
    assert not match.can_undo()
    assert not match.history or isinstance(match.history[-1], Throw)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_whole_game_with_undo_at_every_decision_replays(game_id):
    """Take back every decision once and play another one: the dice that follow are the
    ones the seed gives for that throw (undo never gives a new throw), and the record
    replays to the same final state."""
    match = new_match(game_id, "whole")
    rng = random.Random(7)
    for legal in random_decisions(match, rng):
        if match.can_undo():
            match.undo()
            match.apply(rng.choice(legal))
    again = load_match(roundtrip(match.to_record()), DiceSampler("whole"))
    assert again.state == match.state
    throws = [a for a in match.history if isinstance(a, Throw)]
    plies = [i for i, a in enumerate(match.history) if isinstance(a, Throw)]
    sampler = DiceSampler("whole")
    assert [t.faces for t in throws] == [sampler.faces(len(t.faces), i) for t, i in zip(throws, plies)]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_sans_annulation_turns_undo_off_and_is_recorded(game_id):
    match = new_match(game_id, "serious", undo=False)
    for decisions, _ in enumerate(random_decisions(match, random.Random(3)), 1):
        assert not match.can_undo() and match.undo_player() is None
        with pytest.raises(IllegalAction):
            match.undo()
        if decisions == 40:
            break
    record = roundtrip(match.to_record())
    assert record["undo"] is False
    again = load_match(record)
    assert again.undo_allowed is False and again.to_record() == record


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_old_records_without_the_setting_allow_undo(game_id):
    match = new_match(game_id, "old")
    for _ in random_decisions(match, random.Random(5)):
        if match.can_undo():
            break
    record = roundtrip(match.to_record())
    assert "undo" not in record  # the default is not written: old records stay as they were
    again = load_match(record)
    assert again.undo_allowed is True
    assert again.can_undo() == match.can_undo()


@pytest.mark.parametrize("value", [None, 0, 1, "false", "non", [], {}])
def test_a_bad_undo_setting_is_a_bad_record(value):
    record = roundtrip(new_match("yams").to_record())
    record["undo"] = value
    with pytest.raises(BadRecord, match="annulation"):
        load_match(record)
    with pytest.raises(Exception):
        Match(GAMES["yams"], [Player("A")], undo=value)


def test_yams_a_filled_box_is_undone_until_the_next_player_rolls():
    """The brief's example: roll, dice, keep + dice, score BOX; the next player's roll is a
    decision (no dice yet), so the box can be taken back until that player's dice land."""
    match = Match(GAMES["yams"], [Player("Léa"), Player("Paul")], sampler=DiceSampler("ex"))
    match.apply("roll")
    assert match.state.is_chance() and match.can_undo()  # nothing has landed yet
    match.apply("dice 1 2 3 4 5")
    assert not match.can_undo()
    before = snapshot(match)
    match.apply("score chance")
    assert match.undo_player() == 0
    match.undo()
    assert snapshot(match) == before and match.state.current_player() == 0
    match.apply("score chance")
    match.apply("roll")  # Paul rolls: still a decision of his, his dice not landed
    assert match.undo_player() == 1
    match.throw()
    assert not match.can_undo()  # Léa's box stands now


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_cli_replays_a_game_played_sans_annulation(game_id, tmp_path):
    import io

    from pygames.cli import main

    match = new_match(game_id, "cli", undo=False)
    advance(match, random.Random(9), 10_000)
    path = tmp_path / "partie.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    out = io.StringIO()
    assert main(["replay", str(path)], out=out) == 0
    result = json.loads(out.getvalue())
    assert result["game"] == game_id and result["finished"] is True
