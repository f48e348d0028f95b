"""Scripted Linotte turns with forced dice, as the rules read: rolls, placing, passing,
the sec and the appel (RULINGS.md, `linotte`).

`turn(match, "dice 4 4 4 2 1", "place d1")` plays moves; the first `roll` is implied.
Cells: columns A–E from the left, rows 1–5 from the top.
"""

from __future__ import annotations

import copy
import re

import pytest
from support import turn

from pygames import CHANCE, IllegalAction, Match, Player, find_game
from pygames.linotte import EMPTY, cell_index, cell_name, majeures
from pygames.linotte.messages import events
from pygames.messages import text


def said(state) -> tuple[str, ...]:
    """The clauses of what the last move did, in French."""
    return tuple(text(m) for m in events(state))





def new_match(**options) -> Match:
    return Match(find_game("linotte"), [Player("Alice"), Player("Bob")], options)


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
    rejected(match, "keep 2 2 2 2", "Plus de lancer ce tour\u00a0: posez un pion ou passez.")
    assert {a.notation() for a in match.state.legal_actions()} == {
        "place a2", "place b5", "place b2", "place c5", "pass"}


def test_nothing_shown_means_passing_and_passing_is_always_allowed():
    match = new_match()
    rejected(match, "pass", "Lancez d'abord les dés («\u00a0roll\u00a0»).")
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
    assert "sec\u00a0: full" in said(match.state)[0]
    # Bob rerolls into the same full: no sec any more
    turn(match, "dice 3 3 3 2 6", "keep 3 3 3 2", "dice 2")
    assert match.state.sec == () and not match.state.sec_available()
    assert "full" in match.state.combinations()
    assert match.state.placeable_cells() == cells("B1", "A5", "D2", "B3")
    rejected(match, "place b4", "Les dés (brelan de 3, full) ne permettent pas la case B4 (sec).")


def test_an_appel_made_places_on_an_appel_cell_only():
    match = turn(new_match(), "dice 6 5 1 2 2", "announce quinte")
    assert match.state.target == "quinte" and said(match.state) == ("appel annoncé\u00a0: quinte",)
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
    assert said(match.state) == ("appel manqué (carré)\u00a0: aucun pion posé",)
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


CERTAIN = "doit rester une vraie chance\u00a0: les dés gardés le font déjà, relancez-en un de plus."


def keeps_after(match: Match) -> set[str]:
    return {a.notation() for a in match.state.legal_actions() if a.notation().startswith("keep")}


def test_after_a_yam_sec_an_appel_of_carre_may_not_keep_four_of_the_five():
    match = turn(new_match(), "dice 6 6 6 6 6", "announce carre")
    rejected(match, "keep 6 6 6 6", "L'appel (carré) " + CERTAIN)
    assert "keep 6 6 6 6" not in keeps_after(match) and "keep 6 6 6" in keeps_after(match)
    turn(match, "keep 6 6 6", "dice 6 2")
    assert match.state.appel_fulfilled()


def test_a_carre_sec_called_again_must_reroll_one_of_its_four():
    match = turn(new_match(), "dice 4 4 1 4 4", "announce carre")
    rejected(match, "keep 4 4 4 4", "L'appel (carré) " + CERTAIN)
    assert keeps_after(match) >= {"keep 4 4 4", "keep 1 4 4 4"}


@pytest.mark.parametrize("target", ["full", "yam"])
def test_after_a_yam_sec_a_full_or_a_yam_may_keep_four_of_the_five(target):
    # only a 6 on the rerolled die makes the full (a yam) or the yam: a real chance
    match = turn(new_match(), "dice 6 6 6 6 6", f"announce {target}", "keep 6 6 6 6", "dice 5")
    assert not match.state.appel_fulfilled() and match.state.placeable_cells() == []


def test_a_small_can_never_be_made_certain_by_the_kept_dice():
    # 1-1-1-1 kept: a 5 or a 6 makes the sum 9 or 10
    match = turn(new_match(), "dice 1 1 1 1 1", "announce small", "keep 1 1 1 1", "dice 5")
    assert majeures(match.state.dice) == ("carre",) and not match.state.appel_fulfilled()


def test_a_quinte_sec_called_again_keeps_any_four():
    match = turn(new_match(), "dice 2 3 4 5 6", "announce quinte")
    assert "keep 2 3 4 5" in keeps_after(match) and "keep 3 4 5 6" in keeps_after(match)
    turn(match, "keep 3 4 5 6", "dice 3")
    assert not match.state.appel_fulfilled()


def test_a_defi_may_not_keep_four_equal_dice_whatever_the_sec():
    for first in ("6 6 6 6 6", "2 2 5 2 2", "1 1 1 1 1"):
        match = turn(new_match(defi=True), f"dice {first}", "announce defi")
        face = max(set(first.split()), key=first.split().count)
        rejected(match, f"keep {face} {face} {face} {face}", "L'appel (défi) " + CERTAIN)
        assert f"keep {face} {face} {face}" in keeps_after(match)
    # 1-1-1-2 kept is no certainty: a 4 shows no majeure (1-1-1-2-4: no full, sum 9)
    match = turn(new_match(defi=True), "dice 1 1 1 2 1", "announce defi", "keep 1 1 1 2", "dice 4")
    assert not match.state.appel_fulfilled()


def test_the_certainty_rule_binds_only_the_reroll_right_after_the_appel():
    # the appel shown on the second roll: going on with the four 5s kept risks nothing
    match = turn(new_match(), "dice 5 5 1 2 3", "announce carre", "keep 5 5", "dice 5 5 2")
    assert match.state.appel_fulfilled() and "keep 5 5 5 5" in keeps_after(match)


@pytest.mark.parametrize("options", [{}, {"defi": True}], ids=["majeures", "defi"])
def test_no_legal_keep_after_an_appel_is_certain_for_any_first_roll_and_majeure(options):
    from itertools import product

    from pygames.dice import Roll, hands, rolls
    from pygames.linotte import shows

    for hand in hands(5):
        match = turn(new_match(**options), "dice " + " ".join(map(str, hand)))
        for target in match.state.appel_targets():
            state = match.state.apply(match.game.parse_action(f"announce {target}"))
            legal = {a.keep for a in state.legal_actions() if isinstance(a, Roll)}
            for keep in legal:  # some reroll fails the appel
                assert not all(shows(keep + f, target) for f, _ in rolls(5 - len(keep)))
            for mask in product((0, 1), repeat=5):  # every subset of the five dice
                keep = tuple(sorted(d for d, m in zip(hand, mask) if m))
                if len(keep) < 5 and keep not in legal:
                    message = text(state.why_illegal(Roll(keep)))
                    assert "vraie chance" in message or "Après un sec" in message


def test_the_kept_dice_make_an_appel_certain_only_as_four_equal_dice_for_carre_or_defi():
    from itertools import combinations_with_replacement

    from pygames.linotte import MAJEURES, made_by_kept

    for n in range(5):
        for keep in combinations_with_replacement(range(1, 7), n):
            four = n == 4 and len(set(keep)) == 1
            for target in MAJEURES + ("defi",):
                assert made_by_kept(keep, target) == (four and target in ("carre", "defi"))
