"""The 421 expert against brute force: in a two-player décharge its choices are exact.

The brute force here shares nothing with the expert's tables: it throws the dice that
are not kept in every order (`product`), tries every set of dice places to keep, and
plays the rampo out by enumeration of both players' throws."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

import pytest

from pygames import GAMES, Match, Player
from pygames.dice import Roll
from pygames.le421 import Rules, Stop, hand_rank, hand_value, sorted_hand
from pygames.le421.bots import RoundBot, expert_choice, leader_values

expert_bot = RoundBot()  # the round approximation (the expert with three players or more)

GAME = GAMES["421"]
FACES = range(1, 7)


@lru_cache(maxsize=None)
def rampo_win_chance(rules: Rules) -> float:
    """P(the follower wins a rampo): both throw once, equal hands throw again."""
    win = tie = 0
    for a in product(FACES, repeat=3):
        for b in product(FACES, repeat=3):
            ra, rb = hand_rank(a, rules), hand_rank(b, rules)
            win += ra < rb
            tie += ra == rb
    return win / (216 * 216 - tie)


def shed(rules, mine, my_throws, theirs, their_throws, my_tokens, their_tokens) -> float:
    """Tokens the follower sheds (gives minus receives) with `mine` against `theirs`."""
    a = (hand_rank(mine, rules), my_throws)
    b = (hand_rank(theirs, rules), their_throws)
    give = min(hand_value(mine, rules), my_tokens)
    get = min(hand_value(theirs, rules), their_tokens)
    if a < b:
        return give
    if a > b:
        return -get
    p = rampo_win_chance(rules)
    return p * give - (1 - p) * get


def keeps_by_place(dice):
    return [places for size in range(3) for places in combinations(range(3), size)]


def after_keep(dice, places):
    """Average over every way the other dice can land: (list of resulting dice)."""
    kept = [dice[p] for p in places]
    return [tuple(kept) + faces for faces in product(FACES, repeat=3 - len(places))]


@lru_cache(maxsize=None)
def follower(rules, target, target_throws, limit, mine, theirs, dice, j) -> float:
    """Best expected shed for a follower holding `dice` after j throws."""
    stop = shed(rules, dice, j, target, target_throws, mine, theirs)
    if j == limit:
        return stop
    best = stop
    for places in keeps_by_place(dice):
        outcomes = after_keep(dice, places)
        value = sum(follower(rules, target, target_throws, limit, mine, theirs,
                             sorted_hand(d), j + 1) for d in outcomes) / len(outcomes)
        best = max(best, value)
    return best


@lru_cache(maxsize=None)
def follower_start(rules, target, k, mine, theirs) -> float:
    return sum(follower(rules, target, k, k, mine, theirs, sorted_hand(d), 1)
               for d in product(FACES, repeat=3)) / 216


def leader(rules, dice, j, mine, theirs) -> float:
    stop = -follower_start(rules, sorted_hand(dice), j, theirs, mine)
    if j == 3:
        return stop
    best = stop
    for places in keeps_by_place(dice):
        outcomes = after_keep(dice, places)
        value = sum(leader(rules, d, j + 1, mine, theirs) for d in outcomes) / len(outcomes)
        best = max(best, value)
    return best


def decharge(tokens, script, **options) -> Match:
    m = Match(GAME, [Player("Léa"), Player("Paul")], options, start={"pot": 0, "tokens": tokens})
    for text in script:
        m.apply(text)
    return m


def value_of(choices, action) -> float:
    return choices["stop" if isinstance(action, Stop) else action.notation()]


def test_a_rampo_is_won_half_the_time():
    assert rampo_win_chance(Rules()) == pytest.approx(0.5, abs=1e-15)
    assert rampo_win_chance(Rules(8, True)) == pytest.approx(0.5, abs=1e-15)


FOLLOWER_CASES = [
    # tokens (Léa, Paul), the leader's throws then the follower's so far, options
    ([10, 11], ["roll", "dice 6 5 3", "keep 5 6", "dice 2", "stop", "roll", "dice 6 4 2"], {}),
    ([10, 11], ["roll", "dice 6 3 1", "keep 1", "dice 1 5", "stop", "roll", "dice 2 2 1"], {}),
    ([3, 8], ["roll", "dice 4 4 4", "keep 4 4", "dice 2", "stop", "roll", "dice 6 6 1"], {"pot": 11}),
    ([10, 11], ["roll", "dice 3 2 1", "keep 2 3", "dice 5", "keep 5", "dice 2 4",
                "roll", "dice 1 1 3", "keep 1 1", "dice 6"], {}),
    ([10, 11], ["roll", "dice 6 5 4", "keep 4 5", "dice 3", "stop", "roll", "dice 2 1 2"], {"nenette_four": True}),
    ([2, 19], ["roll", "dice 6 6 5", "keep 5", "dice 2 2", "stop", "roll", "dice 5 5 2"], {"value_421": 8}),
    ([10, 11], ["roll", "dice 6 6 1", "keep 1 6", "dice 1", "stop", "roll", "dice 6 5 1"], {}),
]


@pytest.mark.parametrize("tokens, script, options", FOLLOWER_CASES)
def test_the_follower_choice_is_exact(tokens, script, options):
    m = decharge(tokens, script, **options)
    state = m.state
    assert state.current_player() == 1 and 0 < state.throws < state.limit
    rules = state.rules
    lead = state.hands[0]
    top = 10
    mine, theirs = min(state.tokens[1], top), min(state.tokens[0], top)
    action, choices = expert_choice(state)
    best = follower(rules, lead.dice, lead.throws, state.limit, mine, theirs,
                    sorted_hand(state.dice), state.throws)
    assert value_of(choices, action) == pytest.approx(best, abs=1e-9)
    # every choice it weighs has its exact value
    exact_stop = shed(rules, sorted_hand(state.dice), state.throws, lead.dice, lead.throws, mine, theirs)
    assert choices["stop"] == pytest.approx(exact_stop, abs=1e-9)
    for notation, value in choices.items():
        if notation == "stop":
            continue
        keep = GAME.parse_action(notation)
        places = state.cup.places_of(keep.keep)
        outcomes = after_keep(state.dice, places)
        brute = sum(follower(rules, lead.dice, lead.throws, state.limit, mine, theirs,
                             sorted_hand(d), state.throws + 1) for d in outcomes) / len(outcomes)
        assert value == pytest.approx(brute, abs=1e-9), notation
    assert expert_bot(state) == action


LEADER_CASES = [
    ([10, 11], ["roll", "dice 6 5 3", "keep 5 6", "dice 1"], {}),
    ([10, 11], ["roll", "dice 4 1 5", "keep 1 4", "dice 3"], {}),
    ([4, 17], ["roll", "dice 2 2 6", "keep 6", "dice 1 1"], {}),
]


@pytest.mark.parametrize("tokens, script, options", LEADER_CASES)
def test_the_leader_choice_at_his_second_throw_is_exact(tokens, script, options):
    m = decharge(tokens, script, **options)
    state = m.state
    assert state.current_player() == 0 and state.throws == 2
    rules = state.rules
    mine, theirs = min(state.tokens[0], 10), min(state.tokens[1], 10)
    action, choices = expert_choice(state)
    assert value_of(choices, action) == pytest.approx(leader(rules, state.dice, 2, mine, theirs), abs=1e-9)
    assert choices["stop"] == pytest.approx(-follower_start(rules, sorted_hand(state.dice), 2, theirs, mine), abs=1e-9)


def test_the_leader_tables_match_brute_force_for_sample_targets():
    rules = Rules()
    stop, _values, _conts = leader_values(rules, 7, 10)
    from pygames.le421 import ranked_hands

    hands = ranked_hands(rules)
    for h in (0, 5, 15, 30, 55):
        for k in (1, 2, 3):
            brute = -follower_start(rules, hands[h], k, 10, 7)
            assert stop[k][h] == pytest.approx(brute, abs=1e-9), (hands[h], k)


def test_the_leader_first_throw_uses_the_same_values():
    m = decharge([10, 11], ["roll", "dice 5 5 2"])
    action, choices = expert_choice(m.state)
    assert value_of(choices, action) == max(choices.values())


def test_the_expert_throws_in_the_charge_and_in_a_rampo():
    m = Match(GAME, [Player("A", "expert"), Player("B", "expert")], {})
    assert expert_bot(m.state) == Roll()


def test_experts_play_a_three_player_game_to_the_end():
    from pygames import DiceSampler
    from pygames.core import play_out

    players = [Player(n, "expert") for n in ("A", "B", "C")]
    m = play_out(Match(GAME, players, {"pot": 11}, DiceSampler("three")), expert_bot)
    assert m.state.is_terminal() and sorted(m.state.tokens) == [0, 0, 11]
