"""Seeded random play over every ruleset and every combination of options.

Thousands of games by three kinds of players (uniformly random, a yam hunter that meets
primes and jokers often, and the simple bot).  Every step: a legal action exists until the
end, the dice and the turn order follow the rules, and each box scores what the reference
rules in conftest say.  At the end: the right number of turns, totals equal to boxes +
bonus + primes.  On a sample of games: `apply` never mutates its input, every listed
action is accepted, a box the rules forbid is refused, and the record round-trips through
JSON to an identical state.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from support import sized

from pygames import CHANCE, DiceSampler, IllegalAction, Match, Player, find_game, load_match
from pygames.bots import RandomBot
from pygames.yams import Roll, Score
from pygames.yams.bots import SimpleBot as SimpleYamsBot

pytestmark = pytest.mark.slow  # about 5 minutes: PYGAMES_TEST_SIZE scales its games

GAMES_PER_CONFIG = sized(200)  # × 10 rulesets-with-options: 2 000 games at size 1
HEAVY_EVERY = 20  # one game in twenty gets the expensive checks


class LoadedDice(DiceSampler):
    """Dice that favour one face (44 %), so that yams, primes and jokers come up often.

    Any faces are legal chance outcomes; the rules must hold for these dice too."""

    def faces(self, count, ply):
        rng = random.Random(f"{self.seed}/{ply}")
        favourite = 1 + sum(map(ord, self.seed)) % 6
        return tuple(rng.choice((favourite,) * 3 + FACES) for _ in range(count))


FACES = (1, 2, 3, 4, 5, 6)


class YamHunter:
    """Keeps the most frequent face, takes the Yam box when it can, else any legal box."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def __call__(self, state):
        if state.rolls == 0:
            return Roll()
        legal = state.legal_actions()
        face, n = Counter(state.dice).most_common(1)[0]
        if state.rolls < 3 and n < 5:
            return Roll((face,) * n)
        boxes = [a for a in legal if isinstance(a, Score)]
        if n == 5 and Score("yams") in boxes:
            return Score("yams")
        # Keep the Yam box open for a yam, so that primes and jokers come up often.
        return self.rng.choice([a for a in boxes if a.box != "yams"] or boxes)


def play_and_check(game_id, options, ref, names, sampler, bot, heavy, stats):
    game = find_game(game_id)
    match = Match(game, [Player(n) for n in names], options, sampler)
    n = len(names)
    sheets = [dict.fromkeys(ref.boxes) for _ in names]
    primes = [0] * n
    turns = [0] * n
    expected_player, rolls, step = 0, 0, 0
    while not match.state.is_terminal():
        state = match.state
        who = state.current_player()
        if who == CHANCE:
            assert 1 <= state.dice_to_throw() <= 5
            action = match.sampler.throw(state, len(match.history))
        else:
            assert who == expected_player
            legal = state.legal_actions()
            assert legal, "no legal action before the end"
            action = bot(state)
            assert action in legal
            if isinstance(action, Roll):
                rolls += 1
                assert rolls <= 3
                assert rolls == 1 or len(action.keep) < 5
            else:
                assert rolls >= 1
                dice, sheet = state.dice, sheets[who]
                allowed = ref.allowed(dice, sheet)
                assert set(state.scorable()) == allowed, (dice, sheet)
                stats["zero"] += ref.value(action.box, dice, sheet) == 0
                if len(set(dice)) == 1:
                    stats["yam"] += 1
                    stats["joker"] += ref.is_joker(dice, sheet)
                if ref.earns_prime(dice, sheet, primes[who]):
                    primes[who] += 1
                    stats["prime"] += 1
                sheet[action.box] = ref.value(action.box, dice, sheet)
                turns[who] += 1
                expected_player, rolls = (who + 1) % n, 0
                forbidden = sorted(set(sheet) - allowed - {action.box})
                if heavy and forbidden:
                    with pytest.raises(IllegalAction):
                        state.apply(Score(forbidden[step % len(forbidden)]))
                    stats["refused"] += 1
            if heavy and step % 10 == 0:
                for other in legal[:40]:
                    state.apply(other)  # each listed action is accepted
        frozen = copy.deepcopy(state) if heavy else None
        match.apply(action)
        if heavy:
            assert state == frozen and match.state is not state
        if isinstance(action, Score):
            assert match.state.sheet(who).boxes == sheets[who]
        step += 1
        if heavy and step == 60:
            again = load_match(json.loads(json.dumps(match.to_record())))
            assert again.state == match.state
    state = match.state
    assert state.legal_actions() == []
    assert turns == [ref.turns] * n
    assert sum(isinstance(a, Score) for a in match.history) == ref.turns * n
    for p in range(n):
        assert None not in sheets[p].values()
        sheet = state.sheet(p)
        assert sheet.boxes == sheets[p]
        assert sheet.primes == 100 * primes[p]
        assert state.scores()[p] == sheet.total == ref.total(sheets[p], primes[p])
    assert sorted(p for place in state.ranking() for p in place) == list(range(n))
    if heavy:
        record = json.loads(json.dumps(match.to_record()))
        again = load_match(record)
        assert again.state == state and again.to_record() == record
    stats["games"] += 1
    return match


def test_random_play(config, reference):
    game_id, options = config
    ref = reference(game_id, options)
    assert ref.turns == {"yams": 15}.get(game_id, 13)
    stats = Counter()
    for i in range(GAMES_PER_CONFIG):
        seed = f"{game_id}/{sorted(options.items())}/{i}"
        bot = RandomBot(seed) if i % 2 else YamHunter(seed)
        dice = LoadedDice(seed) if i % 4 == 2 else DiceSampler(seed)
        names = ["Alice", "Bob", "Chloé", "Djamel"][: (1, 2, 1, 4)[i % 4]]
        play_and_check(game_id, options, ref, names, dice, bot, i % HEAVY_EVERY == 0, stats)
    assert stats["games"] == GAMES_PER_CONFIG
    # The random games did meet what the rules care about (as often as the games played).
    share = GAMES_PER_CONFIG / 200
    assert stats["yam"] > 100 * share and stats["zero"] > 1000 * share and stats["refused"] > 100 * share
    if ref.joker:
        assert stats["joker"] > 50 * share
    if ref.prime_cap:
        assert stats["prime"] > 20 * share


@pytest.mark.parametrize("game_id", ["yams", "yams-boite", "yahtzee"])
def test_simple_bot_plays_every_ruleset(game_id, reference):
    stats = Counter()
    match = play_and_check(
        game_id, {}, reference(game_id), ["Robot"], DiceSampler(f"simple/{game_id}"),
        SimpleYamsBot(), True, stats,
    )
    assert match.state.scores()[0] > 100  # it plays far better than chance
