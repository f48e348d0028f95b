"""Avec de vrais dés (issue 22): a match whose people throw their own dice and type in what
landed (`Match(dice="real")`, `needs_faces`, `type_throw`), checked the same way for every
registered game: only the people's throws are asked (the computer's seats throw the page's
dice), the thrower is whoever's turn it is, a typed throw can be corrected until the next
decision (even *sans annulation*), bad faces change nothing, and records mark the typed
throws and replay them."""

from __future__ import annotations

import copy
import json
import random

import pytest

from pygames import GAMES, BadRecord, DiceSampler, GameError, IllegalAction, Match, Player, load_match
from pygames.bots import RandomBot
from pygames.core import Throw, read_faces

MAX_STEPS = 20_000


def seats_of(game) -> list[str]:
    """A person, then the weakest computer (when the game has one), then a person."""
    computer = next((s for s in game.seats if s != "human"), "human")
    n = max(game.min_players, min(3, game.max_players))
    return (["human", computer, "human"] * 2)[:n]


def real_match(game, seats=None, undo=True) -> Match:
    seats = seats or seats_of(game)
    players = [Player(f"P{i}", seat) for i, seat in enumerate(seats)]
    return Match(game, players, None, DiceSampler(f"real/{game.id}"), undo=undo, dice="real")


def play_real(match: Match, rng: random.Random, on_faces=None) -> Match:
    """Play to the end, a random person's choice at each decision and random typed faces
    whenever a person's dice land (`on_faces(match)` first, if given)."""
    bot = RandomBot(f"real/{match.game.id}")
    decided_by = None
    for _ in range(MAX_STEPS):
        state = match.state
        if state.is_terminal():
            return match
        if state.is_chance():
            thrower = state.thrower()
            assert 0 <= thrower < len(match.players)
            if decided_by is not None:
                assert thrower == decided_by, "the dice belong to whoever just decided to throw"
            assert match.needs_faces() == (match.players[thrower].seat == "human" and state.thrown_at_table())
            if match.needs_faces():
                if on_faces:
                    on_faces(match)
                match.type_throw(" ".join(str(rng.randint(1, 6)) for _ in range(state.dice_to_throw())))
            else:
                match.throw()
            decided_by = None
        else:
            decided_by = state.current_player()
            match.apply(bot(state))
            if not match.state.is_chance():
                decided_by = None
            match.advance_chance()
            if match.state.is_chance():
                assert match.needs_faces()
    pytest.fail(f"{match.game.id}: no end after {MAX_STEPS} steps")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_real_dice_game_reaches_its_end_and_replays_from_its_record(game_id):
    game = GAMES[game_id]
    match = play_real(real_match(game), random.Random(game_id))
    record = json.loads(json.dumps(match.to_record()))
    assert record["dice"] == "real"
    throws = [i for i, a in enumerate(match.history) if isinstance(a, Throw)]
    person_throws = [i for i in throws if i in match.typed]
    assert person_throws and record["typed"] == sorted(match.typed)
    assert set(record["typed"]) <= set(throws)
    if "human" != seats_of(game)[1]:  # the computer's throws are the page's, not typed
        assert set(throws) - match.typed
    again = load_match(record)
    assert again.state == match.state and again.typed == match.typed and again.to_record() == record


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bad_faces_change_nothing(game_id):
    game = GAMES[game_id]
    match = real_match(game)
    while not match.needs_faces():
        match.apply(RandomBot("bad").__call__(match.state)) if not match.state.is_chance() else match.throw()
    n = match.state.dice_to_throw()
    frozen, history = copy.deepcopy(match.state), list(match.history)
    for bad in ["7" * n, "0" * n, "1" * (n + 1), "1" * (n - 1), "a" * n, "", "1.5", "١" * n, "1" * 500,
                None, [7] * n, [1] * (n + 1), (True,) * n]:
        with pytest.raises(IllegalAction) as err:
            match.type_throw(bad)
        assert str(err.value) and "{" not in str(err.value)
    with pytest.raises(IllegalAction):
        match.throw()  # the page never throws a person's real dice
    assert match.state == frozen and match.history == history and not match.typed
    faces = "6" * n
    match.type_throw(faces)
    assert match.history[-1] == Throw((6,) * n) and match.last_typed()


def test_faces_are_read_as_people_type_them():
    assert read_faces("352", 3) == read_faces("3 5 2", 3) == read_faces("3,5,2", 3) == (3, 5, 2)
    assert read_faces(" 6\u00a05 ", 2) == (6, 5) and read_faces([1, 2], 2) == (1, 2)
    with pytest.raises(IllegalAction, match="3 dés"):
        read_faces("12", 3)
    with pytest.raises(IllegalAction, match="«\u00a07\u00a0»"):
        read_faces("127", 3)


@pytest.mark.parametrize("undo", [True, False], ids=["annulation", "sans-annulation"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_typed_throw_is_corrected_until_the_next_decision(game_id, undo):
    game = GAMES[game_id]
    match = real_match(game, ["human"] * max(game.min_players, min(2, game.max_players)), undo=undo)
    bot = RandomBot("correct")
    while not match.needs_faces():
        match.apply(bot(match.state)) if not match.state.is_chance() else match.throw()
    waiting, history = match.state, list(match.history)
    n = waiting.dice_to_throw()
    match.type_throw("1" * n)
    assert match.can_undo() and match.undo_player() == waiting.thrower()
    assert match.undo() == Throw((1,) * n)
    # back to the thrower's decision to throw (Lancer), the dice kept as they were
    assert match.history == history[:-1] and match.state.current_player() == waiting.thrower()
    match.apply(history[-1])
    assert not match.typed
    match.type_throw("2" * n)
    assert match.to_record()["typed"] == [len(history)]
    match.advance_chance()
    # a decision follows: the throw stays, unless that decision is taken back first
    while not match.state.is_terminal() and match.state.is_chance():
        match.type_throw("3" * match.state.dice_to_throw())
    if match.state.is_terminal():
        return
    match.apply(bot(match.state))
    assert match.can_undo() == undo
    if undo:
        match.undo()
        assert match.last_typed() and match.can_undo()


def test_page_dice_take_no_typed_throw_and_records_say_so():
    game = GAMES["yams"]
    match = Match(game, [Player("Léa")], None, DiceSampler("page"))
    match.apply("roll")
    assert match.state.is_chance() and not match.needs_faces()
    with pytest.raises(IllegalAction):
        match.type_throw("12345")
    match.advance_chance()
    record = match.to_record()
    assert "dice" not in record and "typed" not in record
    with pytest.raises(GameError):
        Match(game, [Player("Léa")], dice="dés")


@pytest.mark.parametrize("change, why", [
    ({"dice": "dés"}, "Réglage des dés illisible"),
    ({"dice": 1}, "Réglage des dés illisible"),
    ({"typed": [0]}, "Coup n° 1"),  # the first action is a decision, not a throw
    ({"typed": "1"}, "lancers tapés"),
    ({"typed": [1, 1]}, "lancers tapés"),
    ({"typed": [99]}, "lancers tapés"),
    ({"typed": [True]}, "lancers tapés"),
    ({"dice": "page"}, "lancers tapés"),  # typed throws in a game on the page's dice
])
def test_malformed_real_dice_records_are_refused(change, why):
    match = Match(GAMES["yams"], [Player("Léa")], dice="real")
    match.apply("roll")
    match.type_throw("12345")
    record = {**match.to_record(), **change}
    with pytest.raises(BadRecord, match=why):
        load_match(record)


def test_the_daily_challenge_is_never_played_with_real_dice():
    with pytest.raises(GameError, match="défi du jour"):
        Match(GAMES["yams"], [Player("Léa")], daily="2026-12-03", dice="real")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_throws_counted_follow_a_correction(game_id):
    """`Match.thrown` (the rank of the next throw, which the day's dice read) stays the
    number of throws in the history when a typed throw is corrected."""
    game = GAMES[game_id]
    match = real_match(game, ["human"] * max(game.min_players, min(2, game.max_players)))
    rng = random.Random(game_id)

    def correct(m):
        ones = Throw((1,) * m.state.dice_to_throw())
        if rng.random() > 0.3 or m.state.apply(ones).is_terminal():  # a game over is not taken back
            return
        decided = m.history[-1] if m.history else None  # the decision to throw, taken back with it
        m.type_throw("1" * m.state.dice_to_throw())
        m.undo()
        if not m.state.is_chance():
            m.apply(decided)
        assert m.needs_faces() and m.thrown == sum(isinstance(a, Throw) for a in m.history)

    play_real(match, rng, on_faces=correct)
    assert match.thrown == sum(isinstance(a, Throw) for a in match.history)
