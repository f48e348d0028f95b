"""Scripted Linotte turns with forced dice, as the rules read: rolls, placing, passing,
the sec and the appel (RULINGS.md, `linotte`).

`turn(match, "dice 4 4 4 2 1", "place d1")` plays moves; the first `roll` is implied.
Cells: columns A–E from the left, rows 1–5 from the top.
"""

from __future__ import annotations

import copy
import re

import pytest

from pygames import CHANCE, IllegalAction, Match, Player, find_game
from pygames.linotte import EMPTY, cell_index, cell_name
from pygames.linotte.messages import events
from pygames.messages import text


def said(state) -> tuple[str, ...]:
    """The clauses of what the last move did, in French."""
    return tuple(text(m) for m in events(state))





def new_match(**options) -> Match:
    return Match(find_game("linotte"), [Player("Alice"), Player("Bob")], options)


def turn(match: Match, *moves: str) -> Match:
    for move in moves:
        if move.startswith("dice") and match.state.rolls == 0 and not match.state.is_chance():
            match.apply("roll")
        match.apply(move)
    return match


def cells(*names: str) -> list[int]:
    return sorted(cell_index(n) for n in names)


def rejected(match: Match, move: str, message: str) -> None:
    state, history = copy.deepcopy(match.state), list(match.history)
    with pytest.raises(IllegalAction, match=re.escape(message)):
        match.apply(move)
    assert match.state == state and match.history == history


def test_cell_names_are_columns_then_rows_from_the_top():
    assert cell_name(0) == "A1" and cell_name(4) == "E1" and cell_name(12) == "C3"
    assert cell_name(24) == "E5" and cell_index("c3") == cell_index("C3") == 12
    assert cell_index("f1") is None and cell_index("a6") is None
    game = find_game("linotte")
    assert game.parse_action("place C3") == game.parse_action("place c3")
    assert game.parse_action("place c3").notation() == "place c3"


def test_a_brelan_places_a_pawn_on_a_matching_cell():
    match = turn(new_match(), "dice 4 4 2 4 1")
    state = match.state
    assert state.combinations() == ("4",)
    assert state.placeable_cells() == cells("D1", "E5")
    rejected(match, "place a1", "Les dés (brelan de 4) ne permettent pas la case A1 (brelan de 1).")
    turn(match, "place d1")
    state = match.state
    assert state.board[cell_index("D1")] == 0 and state.player == 1 and state.rolls == 0
    assert state.pawns_left() == [11, 12]
    assert said(state) == ("pion en D1 (brelan de 4)",)
    # the cell is taken now
    turn(match, "dice 4 4 4 6 5")
    assert match.state.placeable_cells() == cells("E5")
    rejected(match, "place d1", "La case D1 est déjà prise.")


def test_three_rolls_at_most_then_place_or_pass():
    match = turn(new_match(), "dice 6 5 3 2 2", "keep 2 2", "dice 1 2 4")
    assert match.state.dice == (1, 2, 4, 2, 2)  # kept dice stay in their places
    assert match.state.combinations() == ("2",)
    turn(match, "keep 2 2 2", "dice 2 1")
    assert match.state.rolls == 3 and match.state.dice == (2, 2, 1, 2, 2)
    rejected(match, "keep 2 2 2 2", "Plus de lancer ce tour : posez un pion ou passez.")
    assert {a.notation() for a in match.state.legal_actions()} == {
        "place a2", "place b5", "place b2", "place c5", "pass"}


def test_nothing_shown_means_passing_and_passing_is_always_allowed():
    match = new_match()
    rejected(match, "pass", "Lancez d'abord les dés (« roll »).")
    turn(match, "dice 1 2 4 5 6")
    assert match.state.placeable_cells() == []
    turn(match, "pass")
    assert match.state.player == 1 and said(match.state) == ("passe",)
    turn(match, "dice 3 3 3 1 1", "pass")  # never forced to place
    assert match.state.player == 0 and set(match.state.board) == {EMPTY}


def test_a_player_may_stop_rolling_early_and_place():
    match = turn(new_match(), "dice 5 5 5 2 3", "place e2")
    assert match.state.board[cell_index("E2")] == 0


def test_a_sec_allows_a_sec_cell_or_the_majeure_on_the_first_roll_only():
    match = turn(new_match(), "dice 3 2 3 2 3")
    state = match.state
    assert state.sec == ("full",) and state.sec_available()
    assert state.placeable_cells() == cells("B1", "A5", "D2", "B3", "C2", "B4")
    turn(match, "place c2")
    assert "sec : full" in said(match.state)[0]
    # Bob rerolls into the same full: no sec any more
    turn(match, "dice 3 3 3 2 6", "keep 3 3 3 2", "dice 2")
    assert match.state.sec == () and not match.state.sec_available()
    assert "full" in match.state.combinations()
    assert match.state.placeable_cells() == cells("B1", "A5", "D2", "B3")
    rejected(match, "place b4", "Les dés (brelan de 3, full) ne permettent pas la case B4 (sec).")


def test_an_appel_made_places_on_an_appel_cell_only():
    match = turn(new_match(), "dice 6 5 1 2 2", "announce quinte")
    assert match.state.target == "quinte" and said(match.state) == ("appel annoncé : quinte",)
    rejected(match, "announce full", "L'appel est déjà annoncé.")
    rejected(match, "place c1", "Après l'appel, il faut relancer les dés.")
    turn(match, "keep 2 5 6", "dice 3 4")
    state = match.state
    assert state.dice == (6, 5, 3, 2, 4) and state.appel_fulfilled()
    assert state.placeable_cells() == cells("C1", "D3")  # not the quinte cells
    rejected(match, "place e3", "L'appel (quinte) ne permet pas la case E3 (quinte).")
    turn(match, "place d3")
    assert match.state.board[cell_index("D3")] == 0
    assert said(match.state)[0] == "pion en D3 (appel quinte réussi)"


def test_a_failed_appel_places_nothing():
    match = turn(new_match(), "dice 6 6 1 2 3", "announce carre", "keep 6 6", "dice 6 4 4",
                 "keep 6 6 6", "dice 4 5")
    state = match.state
    assert state.combinations() == ("6",)  # a brelan, but the appel failed
    assert state.placeable_cells() == [] and [a.notation() for a in state.legal_actions()] == ["pass"]
    rejected(match, "place e1", "L'appel (carré) ne permet pas la case E1 (brelan de 6).")
    turn(match, "pass")
    assert said(match.state) == ("appel manqué (carré) : aucun pion posé",)
    assert match.state.player == 1


def test_an_appel_is_announced_right_after_the_first_roll_only():
    match = turn(new_match(), "dice 6 6 1 2 3", "keep 6 6", "dice 1 2 3")
    rejected(match, "announce full", "L'appel s'annonce juste après le premier lancer.")


def test_an_appel_may_stop_as_soon_as_it_is_made():
    match = turn(new_match(), "dice 1 1 2 5 6", "announce small", "keep 1 1 2", "dice 1 1")
    assert match.state.rolls == 2 and match.state.placeable_cells() == cells("C1", "D3")


def test_an_appel_after_a_sec_must_reroll_a_die_of_the_carre():
    match = turn(new_match(), "dice 4 4 1 4 4")
    assert match.state.sec == ("carre",)
    turn(match, "announce yam")
    assert match.state.target == "yam" and not match.state.sec_available()
    rejected(match, "keep 4 4 4 4",
             "Après un sec, l'appel doit relancer au moins un dé de la combinaison.")
    kept = {a.notation() for a in match.state.legal_actions() if a.notation().startswith("keep")}
    assert "keep 4 4 4" in kept and "keep 1 4 4 4" in kept and "keep 4 4 4 4" not in kept
    turn(match, "keep 4 4 4", "dice 4 4")
    assert match.state.dice == (4, 4, 4, 4, 4) and match.state.placeable_cells() == cells("C1", "D3")


def test_an_appel_after_a_sec_may_name_the_same_majeure_if_a_die_is_rerolled():
    # a full is made of all five dice: rerolling any one of them breaks it
    match = turn(new_match(), "dice 3 3 3 2 2", "announce full", "keep 2 3 3 3", "dice 2")
    assert match.state.appel_fulfilled() and match.state.placeable_cells() == cells("C1", "D3")
    # without the sec rule, keeping the four equal dice of a carré is allowed
    match = turn(new_match(), "dice 4 4 1 4 2", "announce yam", "keep 4 4 4", "dice 4 4")
    assert match.state.appel_fulfilled()


def test_legal_actions_all_round_trip_and_are_accepted():
    game = find_game("linotte")
    match = turn(new_match(), "dice 1 1 1 1 2")
    for action in match.state.legal_actions():
        assert game.parse_action(action.notation()) == action
        match.state.apply(action)
    assert turn(new_match(), "roll").state.current_player() == CHANCE
