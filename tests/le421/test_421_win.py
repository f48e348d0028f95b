"""The 421 expert plays to win the game: the shipped solution against a brute force, the
expert's and the advisor's choices, the table's format (pure Python, as on the page).

The brute force shares nothing with `pygames.le421.bots`: it throws the dice that are not
kept in every order (`product`), tries every set of dice places to keep, and reads who
wins the round from the rules' ranks and values; the next rounds are worth what the
table says, so it checks that the table's values solve the round they describe."""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from functools import lru_cache
from itertools import combinations, product

import pytest
from support import shipped_tables

from pygames import GAMES, DiceSampler, GameError, Match, Player
from pygames.bots import bot_for
from pygames.core import play_out
from pygames.dice import Roll
from pygames.le421 import FAMILY, Rules, Stop, hand_rank, hand_value, sorted_hand
from pygames.le421.bots import ExpertBot, RoundBot, _leader, advise, expert_choice, two_players
from pygames.le421.tables import TABLE_MAGIC as MAGIC
from pygames.le421.tables import WinTables, encode_table, fingerprint, load_tables

GAME = GAMES["421"]
expert_bot = RoundBot()
FACES = range(1, 7)
RAMPO = 0.5  # each side wins a rampo half the time (test_421_expert.py counts it)


@pytest.fixture(scope="module")
def tables():
    return lambda **options: shipped_tables("421", options)


class BruteRound:
    """One two-player décharge round, the leader holding x tokens, by plain recursion;
    V (by the next leader's tokens) values the rounds after it."""

    def __init__(self, rules: Rules, V, x: int):
        self.rules, self.V, self.x, self.y = rules, V, x, rules.pot - x
        self.follower = lru_cache(maxsize=None)(self._follower)
        self.follower_keep = lru_cache(maxsize=None)(self._follower_keep)
        self.follower_start = lru_cache(maxsize=None)(self._follower_start)
        self.leader = lru_cache(maxsize=None)(self._leader)
        self.leader_keep = lru_cache(maxsize=None)(self._leader_keep)

    def end(self, mine, my_throws, theirs, their_throws) -> float:
        """The follower's chance of winning the game when the round ends on these hands."""
        rules, V, x, y = self.rules, self.V, self.x, self.y
        given = min(hand_value(mine, rules), y)  # if the follower's hand is best
        follower_best = 1.0 if given == y else 1.0 - V[x + given]
        taken = min(hand_value(theirs, rules), x)  # if the leader's is
        leader_best = 0.0 if taken == x else V[y + taken]
        a = (hand_rank(mine, rules), my_throws)
        b = (hand_rank(theirs, rules), their_throws)
        if a < b:
            return follower_best
        if a > b:
            return leader_best
        return RAMPO * follower_best + (1 - RAMPO) * leader_best

    @staticmethod
    def kept_choices(dice) -> set:
        return {tuple(sorted(dice[p] for p in places)) for size in range(3)
                for places in combinations(range(3), size)}

    @staticmethod
    def mean(f, kept):
        outcomes = [f(sorted_hand(kept + faces)) for faces in product(FACES, repeat=3 - len(kept))]
        return sum(outcomes) / len(outcomes)

    def _follower_keep(self, target, k, j, kept):
        return self.mean(lambda d: self.follower(target, k, d, j + 1), kept)

    def _follower(self, target, k, dice, j) -> float:
        stop = self.end(dice, j, target, k)
        if j == k:
            return stop
        return max(stop, *(self.follower_keep(target, k, j, kept) for kept in self.kept_choices(dice)))

    def _follower_start(self, target, k) -> float:
        return self.mean(lambda d: self.follower(target, k, d, 1), ())

    def follower_choices(self, target, k, dice, j) -> dict:
        """The follower's value of stopping and of each keep (by kept faces)."""
        out = {"stop": self.end(dice, j, target, k)}
        out.update({kept: self.follower_keep(target, k, j, kept) for kept in self.kept_choices(dice)})
        return out

    def _leader_keep(self, j, kept):
        return self.mean(lambda d: self.leader(d, j + 1), kept)

    def _leader(self, dice, j) -> float:
        return max(self.leader_choices(dice, j).values())

    def leader_choices(self, dice, j) -> dict:
        out = {"stop": 1.0 - self.follower_start(dice, j)}
        if j < 3:
            out.update({kept: self.leader_keep(j, kept) for kept in self.kept_choices(dice)})
        return out

    def value(self) -> float:
        """The leader's chance of winning the game before his first throw."""
        return self.mean(lambda d: self.leader(d, 1), ())


def by_choice(advice) -> dict:
    return {"stop" if isinstance(c.action, Stop) else c.action.keep: c.value for c in advice.choices}


def decharge(tokens, script=(), names=("Léa", "Paul")) -> Match:
    """A décharge begun on paper, the first player leading, played as the script says."""
    m = Match(GAME, [Player(n) for n in names], {}, start={"pot": 0, "tokens": list(tokens)})
    for text in script:
        m.apply(text)
    return m


# --- the shipped tables ------------------------------------------------------------------


def test_every_option_set_has_its_table_and_it_solves_its_rounds(tables):
    """The values are a fixed point of the page's own round solution, at every position."""
    names = set()
    for options in GAME.option_sets():
        t = tables(**options)
        assert t.rules == GAME.rules(options) and t.name == FAMILY.game_tables(GAME, options)
        names.add(t.name)
        for x in range(1, t.pot):
            assert 0.0 < t.value(x) < 1.0
            assert _leader(t.rules, *t.payoffs(x))[2] == pytest.approx(t.value(x), abs=1e-12)
        # Holding fewer tokens is better when leading: V falls as x grows.
        assert all(t.value(x) > t.value(x + 1) for x in range(1, t.pot - 1))
    assert len(names) == len(GAME.option_sets()) == 12


@pytest.mark.parametrize("options, x", [({}, 3), ({}, 14), ({"pot": 11, "nenette_four": True, "value_421": 8}, 6)])
def test_a_position_s_value_is_the_brute_force_one(tables, options, x):
    t = tables(**options)
    brute = BruteRound(t.rules, t.values, x)
    assert brute.value() == pytest.approx(t.value(x), abs=1e-9)


def test_the_leader_s_choices_are_the_brute_force_ones(tables):
    t = tables()
    state = decharge([3, 18], ["roll", "dice 2 1 1"]).state
    brute = BruteRound(t.rules, t.values, 3).leader_choices((2, 1, 1), 1)
    got = by_choice(advise(state, t))
    assert got.keys() == brute.keys()
    for choice, value in brute.items():
        assert got[choice] == pytest.approx(value, abs=1e-9), choice


@pytest.mark.parametrize("tokens, script", [
    ([17, 4], ["roll", "dice 6 6 2", "keep 6 6", "dice 3", "keep 6 6", "dice 1", "roll", "dice 3 2 1"]),
    ([8, 13], ["roll", "dice 5 3 1", "keep 1 5", "dice 4", "stop", "roll", "dice 6 5 2"]),
    ([11, 10], ["roll", "dice 4 4 2", "keep 4 4", "dice 4", "keep 4 4", "dice 3",
                "roll", "dice 6 1 1", "keep 1 1", "dice 2"]),
])
def test_the_follower_s_choices_are_the_brute_force_ones(tables, tokens, script):
    t = tables()
    state = decharge(tokens, script).state
    assert state.current_player() == 1 and 0 < state.throws < state.limit
    lead = state.hands[0]
    brute = BruteRound(t.rules, t.values, tokens[0]).follower_choices(
        lead.dice, lead.throws, sorted_hand(state.dice), state.throws)
    got = by_choice(advise(state, t))
    assert got.keys() == brute.keys()
    for choice, value in brute.items():
        assert got[choice] == pytest.approx(value, abs=1e-9), choice


# --- the expert and the advisor ------------------------------------------------------------


def test_the_expert_plays_to_win_the_game_not_the_round(tables):
    """Léa leads with 3 tokens against Paul's 18 and throws 2-1-1, the fiche of 2.

    Stopping sheds 2 tokens whenever her hand is best: the most the round can give her,
    short of a hand worth 3, so today's round expert (expected tokens shed) stops.  But 2
    tokens leave her one to lose, with Paul leading the next round; a hand worth 3 or more
    sheds all 3 and wins the game on the spot.  Keeping 1-1, 5 throws in 6 give one (111
    or a fiche of 3 to 6): the expert keeps them, worth 8 points of probability more."""
    t = tables()
    state = decharge([3, 18], ["roll", "dice 2 1 1"]).state
    assert expert_choice(state)[0] == Stop()
    assert ExpertBot(t)(state) == Roll((1, 1))
    advice = advise(state, t)
    assert advice.exact and advice.measure == "win"
    assert advice.best.action == Roll((1, 1))
    assert advice.best.value - by_choice(advice)["stop"] > 0.08
    worth_three = sum(hand_value(sorted_hand((1, 1, d)), t.rules) >= 3 for d in FACES)
    assert worth_three == 5


def test_the_expert_plays_the_advisor_s_first_choice_best_first(tables):
    """Over seeded games between the expert and the simple player, every decision of the
    expert is the first choice of the advisor, and the choices are ranked by value."""
    t = tables()
    expert = ExpertBot(t)
    seen = 0
    for seed in range(20):
        match = Match(GAME, [Player("A", "expert"), Player("B", "simple")], {}, DiceSampler(f"advice/{seed}"))
        simple = bot_for(GAME, "simple")
        while not match.state.is_terminal():
            state = match.state
            if state.is_chance():
                match.throw()
                continue
            advice = advise(state, t)
            if state.decharge and not state.rampo and state.throws:
                values = [c.value for c in advice.choices]
                assert values[0] >= max(values) - 1e-12
                assert values[1:] == sorted(values[1:], reverse=True)
                assert {c.action for c in advice.choices} == set(state.legal_actions())
                seen += 1
            action = expert(state) if state.current_player() == 0 else simple(state)
            if state.current_player() == 0 and advice.choices:
                assert action == advice.best.action
            match.apply(action)
    assert seen > 200


def test_before_the_first_throw_the_advisor_gives_the_chance_of_winning(tables):
    t = tables()
    leader = decharge([5, 16]).state
    advice = advise(leader, t)
    assert [c.action for c in advice.choices] == [Roll()]
    assert advice.best.value == t.value(5)
    follower = decharge([5, 16], ["roll", "dice 6 6 6", "stop"]).state
    value = advise(follower, t).best.value
    assert 0 < value < 1
    # what the leader's stop is worth is one minus that
    stopped = decharge([5, 16], ["roll", "dice 6 6 6"]).state
    assert by_choice(advise(stopped, t))["stop"] == pytest.approx(1 - value, abs=1e-12)


def test_no_choice_in_the_charge_nor_in_a_rampo(tables):
    t = tables()
    charge = Match(GAME, [Player("A"), Player("B")], {}).state
    assert advise(charge, t).choices == () and ExpertBot(t)(charge) == Roll()
    m = decharge([10, 11], ["roll", "dice 6 5 4", "stop", "roll", "dice 6 5 4"])
    assert m.state.rampo == "best"
    assert advise(m.state, t).choices == () and ExpertBot(t)(m.state) == Roll()


def test_three_players_keep_the_round_approximation(tables):
    t = tables()
    state = decharge([7, 7, 7], ["roll", "dice 5 5 2"], names=("A", "B", "C")).state
    assert not two_players(state)
    advice = advise(state, t)
    assert not advice.exact and advice.measure == "tokens"
    action, values = expert_choice(state)
    assert advice.best.action == action == ExpertBot(t)(state) == expert_bot(state)
    got = {c.action.notation(): c.value for c in advice.choices}
    assert got == pytest.approx(values)
    assert advise(state, None).choices == advice.choices  # no table needed
    assert FAMILY.bots["expert"](t)(state) == action


def test_two_players_left_of_three_play_the_exact_solution(tables):
    """Once a player has left, the two others hold every token: their décharge is the
    two-player one, and the one who leaves first is not the loser."""
    t = tables()
    m = Match(GAME, [Player(n) for n in "ABC"], {},
              start={"pot": 0, "tokens": [0, 3, 18], "leader": 1})
    m.apply("roll")
    m.apply("dice 2 1 1")
    state = m.state
    assert two_players(state) and state.round_order == (1, 2)
    advice = advise(state, t)
    assert advice.exact and advice.best.action == Roll((1, 1)) == ExpertBot(t)(state)
    assert by_choice(advice) == pytest.approx(by_choice(advise(decharge([3, 18], ["roll", "dice 2 1 1"]).state, t)))


def test_the_expert_seat_is_this_expert_and_plays_a_game_to_the_end(tables):
    t = tables(pot=11)
    bot = bot_for(GAME, "expert", t)
    assert isinstance(bot, ExpertBot)
    match = Match(GAME, [Player("A", "expert"), Player("B", "expert")], {"pot": 11}, DiceSampler("win"))
    assert play_out(match, bot).state.is_terminal()


def test_the_expert_refuses_missing_tables_and_tables_of_other_options(tables):
    state = decharge([10, 11], ["roll", "dice 5 5 2"]).state
    with pytest.raises(GameError, match="besoin de ses tables"):
        ExpertBot(None)(state)
    with pytest.raises(GameError, match="besoin de ses tables"):
        advise(state, None)
    with pytest.raises(GameError, match="pas de cette partie"):
        ExpertBot(tables(pot=11))(state)
    with pytest.raises(GameError, match="pas de cette partie"):
        advise(state, tables(nenette_four=True))


# --- the table's format ------------------------------------------------------------------


def _rebuilt(header_changes=None, raw=None, compress=zlib.compress):
    """A table of the default rules with its header or its values changed."""
    rules = Rules()
    good = encode_table(rules, [0.5] * 20, {"sweeps": 1})
    (length,) = struct.unpack_from("<I", good, len(MAGIC))
    header = json.loads(good[len(MAGIC) + 4 : len(MAGIC) + 4 + length])
    raw = struct.pack("<20d", *[0.5] * 20) if raw is None else raw
    header["sha256"] = hashlib.sha256(raw).hexdigest()
    header.update(header_changes or {})
    text = json.dumps(header).encode()
    return MAGIC + struct.pack("<I", len(text)) + text + compress(raw)


def test_a_table_round_trips():
    rules = Rules(8, True, 11)
    values = [i / 11 for i in range(1, 11)]
    t = load_tables(encode_table(rules, values, {"sweeps": 3}))
    assert isinstance(t, WinTables) and t.rules == rules and t.header["sweeps"] == 3
    assert [t.value(x) for x in range(1, 11)] == values
    assert t.header["fingerprint"] == fingerprint(rules) != fingerprint(Rules())


GOOD = encode_table(Rules(), [0.5] * 20)


def _head(data: bytes) -> bytes:
    """The magic, the header's length and the header: all but the payload."""
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    return data[: len(MAGIC) + 4 + length]


BAD_TABLES = {
    "empty": b"",
    "not a table": b"PK\x03\x04 hello",
    "magic only": MAGIC,
    "truncated header": GOOD[:20],
    "truncated payload": GOOD[:-5],
    "header too long": MAGIC + struct.pack("<I", 1 << 30) + b"{}",
    "header not json": MAGIC + struct.pack("<I", 3) + b"{[x" + zlib.compress(b""),
    "header not an object": MAGIC + struct.pack("<I", 6) + b"[1, 2]" + zlib.compress(b""),
    "bad utf-8 header": MAGIC + struct.pack("<I", 2) + b"\xff\xfe" + zlib.compress(b""),
    "deep json": MAGIC + struct.pack("<I", 2000) + b"[" * 1000 + b"]" * 1000,
    "other format": _rebuilt({"format": 2}),
    "other game": _rebuilt({"game": "yams"}),
    "unknown option": _rebuilt({"options": {"pot": 21, "jokers": True}}),
    "bad option value": _rebuilt({"options": {"pot": 22}}),
    "options not an object": _rebuilt({"options": [21]}),
    "states not a number": _rebuilt({"states": "20"}),
    "states for another pot": _rebuilt({"states": 10}),
    "states bool": _rebuilt({"states": True}),
    "payload not zlib": _head(GOOD) + b"garbage!" * 8,
    "payload too short": _rebuilt(raw=b"\0" * 80),
    "payload too long": _rebuilt(raw=b"\0" * 168),
    "hash mismatch": _rebuilt({"sha256": "0" * 64}),
    "values above 1": _rebuilt(raw=struct.pack("<20d", *[1.5] * 20)),
    "values not numbers": _rebuilt(raw=struct.pack("<20d", *[float("nan")] * 20)),
    "stale fingerprint": _rebuilt({"fingerprint": "0" * 16}),
    "renamed": _rebuilt({"name": "421/421+pot_11"}),
}


@pytest.mark.parametrize("name", BAD_TABLES)
def test_a_malformed_table_is_one_game_error(name):
    with pytest.raises(GameError) as err:
        load_tables(BAD_TABLES[name])
    assert type(err.value) is GameError
    assert err.value.message.id in ("tables.unreadable", "tables.stale")
    assert str(err.value).startswith(("Tables de l'expert illisibles\u00a0: ", "Les tables «\u00a0"))


@pytest.mark.parametrize("data", [None, 42, "PYG421W", [1, 2], object()])
def test_what_is_not_bytes_is_refused_the_same_way(data):
    with pytest.raises(GameError):
        load_tables(data)


def test_a_payload_that_inflates_far_beyond_its_header_is_refused_without_inflating():
    bomb = _rebuilt(raw=b"\0" * 160, compress=lambda raw: zlib.compress(b"\0" * (64 << 20), 9))
    assert len(bomb) < 100_000
    with pytest.raises(GameError, match="mauvaise longueur"):
        load_tables(bomb)


def test_the_bad_table_of_a_truncated_but_valid_zlib_stream_is_refused():
    payload = GOOD[len(_head(GOOD)) :]
    cut = _head(GOOD) + payload[:-4]  # a stream that stops before its end (no adler32)
    with pytest.raises(GameError):
        load_tables(cut)


def test_the_rules_say_what_the_expert_plays_for_and_which_approximation_it_uses():
    import re as regex

    from pages import environment  # web/tools/pages.py: the panel as the French page writes it

    from pygames import messages

    messages.use("fr")
    panel = environment().get_template("games/421/rules.html").render()
    text = " ".join(regex.sub(r"<[^>]+>", "", panel).split()).replace("\u00a0", " ").replace("\u202f", " ")
    assert "joue pour gagner la partie, pas seulement le tour" in text
    assert "À deux joueurs (ou quand il n'en reste que deux)" in text and "calculé exactement" in text
    assert "À trois joueurs ou plus" in text and "approximation" in text
    assert "dans le tour (en moyenne, ceux qu'il donne moins ceux qu'il reçoit)" in text
