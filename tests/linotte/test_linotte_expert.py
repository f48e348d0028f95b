"""The Linotte expert (`pygames.linotte.bots.ExpertBot`, its search in
`pygames.linotte.search`): its dice programme and the opponent's reply it searches against
brute-force expectimax, the plain choices (a five in a row, a block, the last pawn, an
appel), legal games under every option set, and a small seeded match against the simple
player."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from pygames import DiceSampler, Match, Player, find_game
from pygames.core import play_out
from pygames.dice import rolls
from pygames.linotte import (
    Announce,
    LinotteState,
    Pass,
    Place,
    Roll,
    cell_index,
    combinations,
    majeures,
)
from pygames.linotte.bots import ExpertBot, SimpleBot
from pygames.linotte.cli import parse_board
from pygames.linotte.rules import majeures as shown_majeures
from pygames.linotte.search import (
    Turn,
    dice_tables,
    features,
    needs_search,
    opponent_turn,
    placement_value,
    reach,
    value,
)
from pygames.linotte.weights import FEATURES

GAME = find_game("linotte")


def position(rows: str, dice, rolls_made: int, player: int = 0, **options) -> LinotteState:
    return LinotteState(rules=GAME.rules(options), board=parse_board(rows.replace(" ", "")),
                        player=player, rolls=rolls_made, dice=tuple(dice))


def play(bots, options, seed) -> Match:
    def choose(state):
        action = bots[state.current_player()](state)
        assert action in state.legal_actions(), (action, state)
        return action

    return play_out(Match(GAME, [Player("A"), Player("B")], options, DiceSampler(seed)), choose)


def test_reach_is_the_chance_of_a_kind_in_one_turn():
    r = reach()
    assert abs(r["yam"] - 0.04603) < 1e-4  # the classic 4.6 % for a yam in three rolls
    assert r["sec"] == pytest.approx(sum(p for h, p in rolls(5) if majeures(h)), abs=1e-12)
    assert reach(defi=True)["appel"] > r["appel"] > max(r[k] for k in ("full", "quinte", "carre"))


def test_the_free_programme_is_the_exact_expectimax_over_keeps_and_rerolls():
    rng = random.Random(7)
    worth = {k: rng.random() for k in [str(f) for f in range(1, 7)] + ["full", "quinte",
                                                                       "carre", "small", "yam"]}

    def stop(hand):
        return max([0.1] + [worth[k] for k in combinations(hand)])

    @lru_cache(maxsize=None)
    def best(hand, left):  # brute force: every keep of the hand, every reroll
        if left == 0:
            return stop(hand)
        return max(stop(hand), max(keep_value(k, left) for k in keeps_of(hand)))

    def keeps_of(hand):
        return {tuple(sorted(hand[i] for i in range(5) if m >> i & 1)) for m in range(31)}

    @lru_cache(maxsize=None)
    def keep_value(keep, left):
        return sum(p * best(tuple(sorted(keep + f)), left - 1) for f, p in rolls(5 - len(keep)))

    turn = Turn(parse_board("." * 25), 0, GAME.rules({}), searched=False)
    turn.passing, turn.kind = 0.1, dict(worth)
    t = dice_tables()
    for hand in [(1, 1, 2, 5, 6), (3, 3, 3, 4, 6), (2, 3, 4, 5, 5)]:
        ids = t.hand_keeps[t.hand_index[hand]]
        for left in (1, 2):
            values = turn.keep_values("", ids, left)
            for k in ids:
                assert values[k] == pytest.approx(keep_value(t.keeps[k], left), abs=1e-12)


def brute_force_turn(board, mover: int, rules) -> float:
    """The mover's whole turn by expectimax over the rules' own legal actions (every roll,
    keep, appel, placement, pass), each ending judged as the search judges it."""
    pass_value = 1.0 - value(board, 1 - mover, rules)

    @lru_cache(maxsize=None)
    def decide(dice, rolls_made, target, sec):
        state = LinotteState(rules=rules, board=board, player=mover, rolls=rolls_made,
                             dice=dice, sec=sec, target=target)
        best = 0.0
        for action in state.legal_actions():
            if isinstance(action, Pass):
                v = pass_value
            elif isinstance(action, Place):
                v = placement_value(board, mover, action.cell, rules)
            elif isinstance(action, Announce):
                v = decide(dice, rolls_made, action.target, sec)
            else:
                v = reroll(tuple(sorted(action.keep)), rolls_made + 1, target)
            best = max(best, v)
        return best

    @lru_cache(maxsize=None)
    def reroll(keep, rolls_made, target):
        return sum(p * decide(tuple(sorted(keep + f)), rolls_made, target, ())
                   for f, p in rolls(5 - len(keep)))

    return sum(p * decide(tuple(sorted(h)), 1, "", shown_majeures(sorted(h)))
               for h, p in rolls(5))


@pytest.mark.parametrize("options", GAME.option_sets(),
                         ids=lambda o: "+".join(k for k, v in o.items() if v) or "default")
@pytest.mark.parametrize("rows", ["AB.A..B.....A.B...B.A....",  # the middle of a game
                                  "AABAB BBA.A AA.BB ABAB. B.AA."])  # Alice's last pawn
def test_the_reply_is_the_exact_expectimax_of_the_opponents_turn(options, rows):
    board = parse_board(rows.replace(" ", ""))
    rules = GAME.rules(options)
    exact = brute_force_turn(board, 0, rules)
    if rules.defi and rules.appel_own_cell:  # several values after an appel: a bound
        assert opponent_turn(board, 0, rules) >= exact - 1e-12
    else:
        assert opponent_turn(board, 0, rules) == pytest.approx(exact, abs=1e-12)


def test_expert_completes_five_in_a_row_that_ends_the_game_won():
    # Alice holds A3-D3 and leads 2-0: E3 (a quinte) ends the game on five in a row, 3-0
    state = position("..... ..... AAAA. ..... BB.BB", (1, 2, 3, 4, 5), 3)
    assert state.placeable_cells() == [cell_index("E3"), cell_index("C4")]
    assert ExpertBot()(state) == Place(cell_index("E3"))


def test_expert_blocks_an_opponents_five_in_a_row():
    # Bob holds A3-D3: E3 would end the game on his five in a row, 3-0
    state = position("A.... .A... BBBB. ..... ....A", (2, 3, 4, 5, 6), 3)
    assert state.placeable_cells() == [cell_index("E3"), cell_index("C4")]
    assert ExpertBot()(state) == Place(cell_index("E3"))


@pytest.mark.parametrize("yam_master", [False, True])
def test_a_five_one_pawn_away_is_searched_and_valued_under_every_rule_set(yam_master):
    # Bob holds A3-D3 with E3 free: his five ends the game (and wins it under Yam Master)
    board = parse_board("A.....A...BBBB..........A")
    rules = GAME.rules({"yam_master": yam_master})
    assert needs_search(board, rules)
    assert not needs_search(parse_board("A.....A...BBB...........A"), rules)
    named = dict(zip(FEATURES, features(board, 0, rules)))
    yes, no = ("f4_opp", "f4_plain_opp") if yam_master else ("f4_plain_opp", "f4_opp")
    assert named[yes] == pytest.approx(reach()["quinte"]) and named[no] == 0.0
    assert named["f4_plain_opp_lead"] == (0.0 if yam_master else -2 * named["f4_plain_opp"])


def test_expert_takes_a_winning_five_under_yam_master():
    # Alice holds A3-D3; a quinte allows E3 (five in a row: she wins) and other cells
    state = position("..... ..... AAAA. ..... BB.BB", (1, 2, 3, 4, 5), 3, yam_master=True)
    assert cell_index("E3") in state.placeable_cells() and len(state.placeable_cells()) > 1
    assert ExpertBot()(state) == Place(cell_index("E3"))


def test_expert_blocks_an_opponents_four_under_yam_master():
    # Bob holds A3-D3: E3 (a quinte) would give him five in a row and the game
    state = position("..... ..... BBBB. ..... .....", (2, 3, 4, 5, 6), 3, yam_master=True)
    assert len(state.placeable_cells()) > 1
    assert ExpertBot()(state) == Place(cell_index("E3"))


def test_expert_ends_the_game_only_when_ahead():
    rows = "AA.AA BB.BB AA.AA BB.BB AA.A."
    assert ExpertBot()(position(rows, (2, 2, 2, 2, 5), 3)) == Place(cell_index("C5"))  # wins 2-0
    # Bob leads 2-0; her last pawn on E4 (a brelan of 1) would end it lost 1-2: she passes
    behind = position("AA.AA BB.BB AA.AA BBBB. A.A.A", (1, 1, 1, 3, 6), 3)
    assert behind.pawns_left() == [1, 4] and behind.placeable_cells() == [cell_index("E4")]
    assert ExpertBot()(behind) == Pass()


def test_expert_calls_an_appel_for_the_appel_cell_that_wins():
    # Alice holds row 1 but C1, an appel cell: five in a row, 3-0, ends the game won;
    # 1-2-4-5-6 shows nothing and only an appel reaches C1
    rows = "AA.AA ..B.. .B... B.... ....."
    assert isinstance(ExpertBot()(position(rows, (1, 2, 4, 5, 6), 1)), Announce)
    assert ExpertBot()(position(rows, (1, 2, 4, 5, 6), 1, defi=True)) == Announce("defi")


def test_expert_keeps_for_its_cell_rather_than_stopping_on_nothing():
    state = position("..... ..... ..... ..... .....", (6, 6, 1, 2, 4), 2)
    action = ExpertBot()(state)
    assert isinstance(action, Roll) and action.keep == (6, 6)


@pytest.mark.parametrize("options", GAME.option_sets(),
                         ids=lambda o: "+".join(k for k, v in o.items() if v) or "default")
def test_expert_plays_legal_games_under_every_option_set(options):
    seed = f"expert/{sorted(options.items())}"
    match = play([ExpertBot(), ExpertBot()], options, seed)
    assert match.outcome() is not None


def test_expert_beats_the_simple_player_in_a_small_seeded_match():
    results = []
    for i in range(12):
        first = i % 2 == 0
        bots = [ExpertBot(), SimpleBot(f"s{i}")] if first else [SimpleBot(f"s{i}"), ExpertBot()]
        outcome = play(bots, {}, f"match/{i}").outcome()
        seat = 0 if first else 1
        results.append(0.5 if outcome.draw else float(seat in outcome.winners))
    assert sum(results) >= 10, results
