"""The expert player and the advisor, from the shipped tables (web/tables/).

Every table is checked for integrity (hash, fingerprint of today's rules, size on the
wire, the exact loss of its quantised policy as recorded when it was built) and for
consistency: one turn of induction worked out by the expert from a state's successors
must give back the state's stored value.  The expert and the advisor only ever pick
legal actions, and see the same legal boxes as the rules engine.
"""

from __future__ import annotations

import io
import os
import random

import pytest
from support import shipped_tables

from pygames import DiceSampler, GameError, Match, Player, find_game
from pygames.bots import RandomBot, bot_for
from pygames.cli import main
from pygames.core import play_out, replace
from pygames.yams.advisor import advise, analyse
from pygames.yams.bots import ExpertBot as ExpertYamsBot
from pygames.yams.bots import _situation, turn_of
from pygames.yams.tables import load_tables, rules_name, table_name

TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "web", "tables", "yams")
CONFIGS = [(game.id, options) for game in find_game("yams")._family.games
           for options in game.option_sets()]
IDS = [table_name(g, o, {x.id: x.default for x in find_game(g).options}) for g, o in CONFIGS]


def tables(game_id, options):
    return shipped_tables(game_id, options)


@pytest.mark.parametrize("game_id, options", CONFIGS, ids=IDS)
def test_table_integrity(game_id, options):
    name = table_name(game_id, options, {o.id: o.default for o in find_game(game_id).options})
    path = os.path.join(TABLES, name + ".bin")
    size = os.path.getsize(path)
    assert size <= 3_000_000  # the file is already compressed: this is the size on the wire
    t = tables(game_id, options)
    assert t.name == name and t.game_id == game_id
    # the policy played from the quantised values, evaluated exactly when the table was built
    assert 0 <= t.expected - t.header["policy_expected"] < 0.001
    # one turn of induction from the stored successors gives back the stored value
    rng = random.Random(name)
    m = t.model
    full = (1 << m.B) - 1
    for _ in range(60):
        mask = rng.randrange(full)
        ups = m.ups[mask & m.upper_bits]
        up, p = rng.choice(ups), rng.randrange(m.primes_slots[mask])
        assert turn_of(t, mask, up, p).start == pytest.approx(t.value(mask, up, p),
                                                              abs=1.0 / t.header["scale"] + 1e-9)
    assert turn_of(t, 0, 0, 0).start == pytest.approx(t.expected, abs=1.0 / t.header["scale"])


def test_corrupt_or_foreign_tables_are_refused():
    with open(os.path.join(TABLES, "yahtzee.bin"), "rb") as f:
        data = bytearray(f.read())
    data[-10] ^= 0xFF
    with pytest.raises(GameError):
        load_tables(bytes(data))
    with pytest.raises(GameError):
        load_tables(b"not a table")
    yahtzee = tables("yahtzee", {})
    match = Match(find_game("yams"), [Player("Alice")])
    match.apply("roll")
    match.throw()
    with pytest.raises(GameError):
        advise(match.state, yahtzee)


@pytest.mark.parametrize("game_id, options", CONFIGS, ids=IDS)
def test_expert_and_advisor_only_choose_legal_actions(game_id, options):
    t = tables(game_id, options)
    expert = ExpertYamsBot(t)
    simple = bot_for(find_game(game_id), "simple")

    def choose(state):
        legal = state.legal_actions()
        advice = advise(state, t)
        assert advice.measure == "score" and advice.exact
        assert sorted(map(str, (c.action for c in advice.choices))) == sorted(map(str, legal))
        values = [c.value for c in advice.choices]
        assert values == sorted(values, reverse=True)
        action = (expert if state.player == 0 else simple)(state)
        if state.player == 0:
            assert action == advice.best.action
        return action

    match = Match(find_game(game_id), [Player("Expert", "expert"), Player("Simple", "simple")],
                  options, DiceSampler(f"legal/{game_id}"))
    play_out(match, choose)
    assert match.state.is_terminal()


@pytest.mark.parametrize("game_id, options", CONFIGS, ids=IDS)
def test_expert_sees_the_same_legal_boxes_as_the_rules(game_id, options):
    """Random sheets (yam box with 50 or 0, primes earned) and hands, yams above all."""
    t = tables(game_id, options)
    m = t.model
    rng = random.Random(game_id + str(options))
    game = find_game(game_id)
    state = game.new_state([Player("Alice")], options)
    yams = [(f,) * 5 for f in range(1, 7)]
    for _ in range(150):
        sheet = []
        for i, box in enumerate(m.boxes):
            filled = rng.random() < 0.6
            if not filled:
                sheet.append(None)
            elif i == m.yam:
                sheet.append(rng.choice((0, 50)))
            else:
                sheet.append(rng.choice(sorted(set(m.points[i]))))
        if all(v is not None for v in sheet):
            sheet[rng.randrange(len(sheet))] = None
        primes = rng.choice((0, 0, 1, 2)) if sheet[m.yam] == 50 and m.prime_mode else 0
        dice = rng.choice(yams) if rng.random() < 0.5 else tuple(rng.randint(1, 6) for _ in range(5))
        s = replace(state, sheets=(tuple(sheet),), primes=(primes,), rolls=3, dice=dice)
        (mask, up, p), _ = _situation(s, t)
        turn = turn_of(t, mask, up, p)
        h = m.hand_index[tuple(sorted(dice))]
        assert [m.boxes[b].id for b, _ in turn.choices(h)] == s.scorable()


def test_analysis_of_an_expert_game_finds_nothing_to_regret():
    t = tables("yams", {})
    match = play_out(Match(find_game("yams"), [Player("A", "expert")], None, DiceSampler("an")),
                     ExpertYamsBot(t))
    reviews = analyse(match, t)
    assert [r.turn for r in reviews] == list(range(1, 16))
    assert all(abs(d.loss) < 1e-9 for r in reviews for d in r.decisions)
    last = reviews[-1].decisions[-1]
    assert last.best_value == pytest.approx(match.state.scores()[0])  # the final box is certain


def test_analysis_of_random_play_counts_the_losses():
    t = tables("yahtzee", {})
    game = find_game("yahtzee")
    match = play_out(Match(game, [Player("A"), Player("B")], None, DiceSampler("rnd")),
                     RandomBot("rnd"))
    reviews = analyse(match, t)
    assert len(reviews) == 26 and {r.player for r in reviews} == {0, 1}
    losses = [d.loss for r in reviews for d in r.decisions]
    assert min(losses) > -1e-9 and sum(losses) > 50
    json = reviews[0].to_json()
    assert json["turn"] == 1 and json["decisions"][0]["played"]


def test_rules_name_and_default_source():
    for game_id, options in CONFIGS:
        game = find_game(game_id)
        name = rules_name(game.rules(game.resolve_options(options)))
        assert name == table_name(game_id, options, {o.id: o.default for o in game.options})
    match = Match(find_game("yahtzee"), [Player("A", "expert")], None, DiceSampler("x"))
    play_out(match, bot_for(match.game, "expert", tables("yahtzee", {})))
    with pytest.raises(GameError):
        bot_for(match.game, "expert")  # the pure package reads no file: tables are given


def test_cli_simulate_prints_mean_and_standard_error():
    out = io.StringIO()
    assert main(["simulate", "yahtzee", "--games", "4", "--tables", TABLES], out) == 0
    text = out.getvalue()
    assert "4 games, mean" in text and "solved value 254.5877" in text
