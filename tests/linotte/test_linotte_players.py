"""The Linotte middle-level players (`pygames.linotte.bots`): legal games under every option
set, and the middle level's choices in positions where the right move is plain (the expert
has its own tests, test_linotte_expert.py)."""

from __future__ import annotations

import pytest
from support import play_legally

from pygames import DiceSampler, Match, Player, find_game
from pygames.linotte import LinotteState, Pass, Place, cell_index
from pygames.linotte.bots import GreedyBot, MediumBot, SimpleBot, reach
from pygames.linotte.cli import parse_board

GAME = find_game("linotte")


@pytest.mark.parametrize("options", GAME.option_sets(),
                         ids=lambda o: "+".join(k for k, v in o.items() if v) or "default")
def test_bots_play_legal_games_under_every_option_set(options):
    match = Match(GAME, [Player("E", "expert"), Player("S", "simple")], options,
                  DiceSampler(f"bots/{sorted(options.items())}"))
    bots = [MediumBot(), GreedyBot("g") if options["defi"] else SimpleBot("s")]
    play_legally(match, bots)
    assert match.outcome() is not None


def test_reach_is_the_chance_of_a_kind_in_one_turn():
    r = reach()
    assert abs(r["yam"] - 0.04603) < 1e-4  # the classic 4.6 % for a yam in three rolls
    assert r["sec"] < r["yam"] * 3 and all(0 < v < 1 for v in r.values())
    assert r["appel"] > max(r[k] for k in ("full", "quinte", "carre", "small", "yam"))


def position(rows: str, dice, rolls: int, **options) -> LinotteState:
    return LinotteState(rules=GAME.rules(options), board=parse_board(rows.replace(" ", "")),
                        player=0, rolls=rolls, dice=tuple(dice))


def test_medium_completes_its_line():
    # Alice holds A5 and B5; a carré lets her take C5 (a run of 3) or B2
    state = position("..... ..... ..... ..... AA...", (2, 2, 2, 2, 5), 3)
    assert MediumBot()(state) == Place(cell_index("C5"))


def test_medium_blocks_a_yam_master_five():
    # Bob holds A3-D3: E3 (a quinte) would give him five in a row and the game
    state = position("..... ..... BBBB. ..... .....", (1, 2, 3, 4, 5), 1, yam_master=True)
    state = LinotteState(**{**state.__dict__, "sec": ("quinte",)})
    assert MediumBot()(state) == Place(cell_index("E3"))


def test_medium_ends_the_game_only_when_ahead():
    # Alice's twelfth pawn would end the game: on C5 she wins 2-0
    rows = "AA.AA BB.BB AA.AA BB.BB AA.A."
    assert MediumBot()(position(rows, (2, 2, 2, 2, 5), 3)) == Place(cell_index("C5"))
    # Bob leads 2-0; her last pawn on E4 (a brelan of 1) would end it lost 1-2: she passes
    behind = position("AA.AA BB.BB AA.AA BBBB. A.A.A", (1, 1, 1, 3, 6), 3)
    assert behind.pawns_left() == [1, 4] and behind.scores() == [0, 2]
    assert behind.placeable_cells() == [cell_index("E4")]
    assert MediumBot()(behind) == Pass()
