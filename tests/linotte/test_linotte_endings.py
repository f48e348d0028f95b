"""How a Linotte game ends — five in a row, or a twelfth pawn — and every option:
a fulfilled appel on its own cell, the Yam Master five that wins outright, the défi."""

from __future__ import annotations

import pytest
from support import reason_text

from pygames import IllegalAction, find_game
from pygames.linotte import EMPTY, LinotteState, cell_index
from pygames.linotte.cli import parse_board
from pygames.linotte.messages import events
from pygames.messages import text


def said(state) -> tuple[str, ...]:
    """The clauses of what the last move did, in French."""
    return tuple(text(m) for m in events(state))



GAME = find_game("linotte")
NAMES = ["Alice", "Bob"]


def position(rows: str, player: int = 0, **options) -> LinotteState:
    """A hand-made position (25 characters, A/B/.) with `player` to move."""
    return LinotteState(rules=GAME.rules(options), board=parse_board(rows.replace(" ", "")),
                        player=player)


def play(state: LinotteState, *moves: str) -> LinotteState:
    for move in moves:
        if move.startswith("dice") and state.rolls == 0 and not state.is_chance():
            state = state.apply(GAME.parse_action("roll"))
        state = state.apply(GAME.parse_action(move))
    return state


# Alice holds A1-D1 (E1 is a 6); Bob has two runs of 4 elsewhere: 4 points to Alice's 2.
FIVE_SOON = "AAAA. ..... BBBB. ..... BBBB."


def test_five_in_a_row_ends_the_game_and_points_decide():
    state = play(position(FIVE_SOON), "dice 6 6 6 1 2", "place e1")
    assert state.is_terminal() and state.five == 0
    assert state.scores() == [3, 4]
    assert said(state)[-1] == "cinq pions alignés\u00a0: fin de la partie"
    outcome = state.outcome()
    assert outcome.winners == (1,) and outcome.losers == (0,) and not outcome.draw
    assert reason_text(GAME, outcome, NAMES) == "Bob gagne avec 4 points."
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="La partie est terminée."):
        state.apply(GAME.parse_action("roll"))


def test_yam_master_five_in_a_row_wins_outright():
    state = play(position(FIVE_SOON, yam_master=True), "dice 6 6 6 1 2", "place e1")
    assert state.is_terminal() and state.scores() == [3, 4]
    assert state.ranking() == [[0], [1]]
    outcome = state.outcome()
    assert outcome.ranking == ((0,), (1,)) and outcome.winners == (0,) and not outcome.draw
    assert "cinq pions" in reason_text(GAME, outcome, NAMES) and "Yam Master" in reason_text(GAME, outcome, NAMES)


# Alice has 11 pawns and no run of 3; Bob has 8, no run of 3 either.
ELEVEN = "AA.AA BB.BB AA.AA BB.BB AA.A."


@pytest.mark.parametrize("yam_master", [False, True])
def test_the_twelfth_pawn_ends_the_game_on_points(yam_master):
    state = position(ELEVEN, yam_master=yam_master)
    assert state.pawns_left() == [1, 4] and state.scores() == [0, 0]
    state = play(state, "dice 2 2 5 2 2", "place c5")  # a carré: A5-D5, a run of 4
    assert state.is_terminal() and state.five == EMPTY and state.pawns_left()[0] == 0
    assert said(state) == ("pion en C5 (carré)", "ligne de 4 (A5–D5)\u00a0: 2 points",
                            "+2 points, total 2 points", "douzième pion posé\u00a0: fin de la partie")
    outcome = state.outcome()
    assert outcome.winners == (0,) and reason_text(GAME, outcome, NAMES) == "Alice gagne avec 2 points."


def test_the_twelfth_pawn_with_equal_points_is_a_draw():
    state = play(position(ELEVEN), "dice 4 4 4 1 2", "place e5")
    assert state.is_terminal() and state.scores() == [0, 0]
    outcome = state.outcome()
    assert outcome.draw and outcome.winners == (0, 1) and state.ranking() == [[0, 1]]
    assert reason_text(GAME, outcome, NAMES) == "Égalité entre Alice et Bob (0 point)."


def test_the_game_goes_on_before_the_twelfth_pawn():
    state = play(position("AA.AA BB.BB AA.AA BB.BB A.A.."), "dice 4 4 4 1 2", "place e5")
    assert not state.is_terminal() and state.current_player() == 1


# --- options ---------------------------------------------------------------------------


def test_option_appel_own_cell_lets_a_fulfilled_appel_take_its_majeure():
    moves = ("dice 6 5 1 2 2", "announce quinte", "keep 2 5 6", "dice 3 4")
    plain = play(position("." * 25), *moves)
    own = play(position("." * 25, appel_own_cell=True), *moves)
    appel, quinte = [cell_index("C1"), cell_index("D3")], [cell_index("E3"), cell_index("C4")]
    assert plain.placeable_cells() == appel
    assert own.placeable_cells() == sorted(appel + quinte)
    # a failed appel still places nothing
    failed = play(position("." * 25, appel_own_cell=True), "dice 6 5 1 2 2",
                  "announce quinte", "keep 2 5 6", "dice 3 3")
    assert failed.placeable_cells() == []


def test_option_defi_names_nothing_and_any_majeure_fulfils_it():
    state = play(position("." * 25, defi=True), "dice 6 5 1 2 2")
    announces = [a.notation() for a in state.legal_actions() if a.notation().startswith("announce")]
    assert announces == ["announce defi"]
    with pytest.raises(IllegalAction, match="Avec le défi, annoncer «\u00a0announce defi\u00a0»."):
        state.apply(GAME.parse_action("announce quinte"))
    state = play(state, "announce defi", "keep 1 2 2", "dice 1 1")  # 1-2-2-1-1: a small and a full
    assert state.target == "defi" and state.appel_fulfilled()
    assert state.placeable_cells() == [cell_index("C1"), cell_index("D3")]
    state = play(state, "place c1")
    assert said(state)[0] == "pion en C1 (défi réussi)"


def test_options_defi_and_own_cell_take_any_majeure_shown():
    state = play(position("." * 25, defi=True, appel_own_cell=True), "dice 6 5 1 2 2",
                 "announce defi", "keep 1 2 2", "dice 1 1")
    expected = {"C1", "D3", "D2", "B3", "A3", "D4"}  # appel, full, small
    assert state.placeable_cells() == sorted(cell_index(c) for c in expected)


def test_a_failed_defi_places_nothing():
    state = play(position("." * 25, defi=True), "dice 6 5 1 2 4", "announce defi",
                 "keep 6", "dice 6 6 2 3", "keep 6 6 6", "dice 2 1")
    assert not state.appel_fulfilled() and state.combinations() == ("6",)
    assert [a.notation() for a in state.legal_actions()] == ["pass"]
    assert said(play(state, "pass")) == ("appel manqué (défi)\u00a0: aucun pion posé",)


def test_every_option_set_is_offered():
    assert len(GAME.option_sets()) == 8
    assert {o.id for o in GAME.options} == {"appel_own_cell", "yam_master", "defi"}
