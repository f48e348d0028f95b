"""Scripted games with forced dice, written like the rules read (RULINGS.md).

`turn(match, "dice 3 3 3 2 2", "score full")` plays one turn: the first roll is implied,
then rerolls (`keep …` followed by the `dice …` that land) and the box.
"""

from __future__ import annotations

import copy
import re

import pytest
from support import turn

from pygames import CHANCE, TERMINAL, GameError, IllegalAction, Match, Player, Throw, find_game


def new_match(game_id: str, *names: str, **options) -> Match:
    return Match(find_game(game_id), [Player(n) for n in names or ("Alice",)], options)


def sheet(match: Match, player: int = 0):
    return match.state.sheet(player)


def rejected(match: Match, move, message: str) -> str:
    """`move` is refused with `message` and nothing changes."""
    state, history = copy.deepcopy(match.state), list(match.history)
    with pytest.raises(IllegalAction, match=re.escape(message)) as err:
        match.apply(move)
    assert match.state == state
    assert match.history == history
    return str(err.value)


# --- a turn ----------------------------------------------------------------------------


def test_three_rolls_and_a_kept_die_may_be_rerolled():
    match = new_match("yams")
    turn(match, "dice 3 1 3 5 2", "keep 3 3", "dice 3 6 6")
    assert match.state.dice == (3, 3, 3, 6, 6)
    turn(match, "keep 6 6", "dice 6 6 6")  # the three threes go back in the cup
    assert match.state.dice == (6, 6, 6, 6, 6)
    assert match.state.rolls == 3
    rejected(match, "keep 6 6 6 6", "Plus de lancer ce tour\u00a0: choisissez une case.")
    turn(match, "score yams")
    assert sheet(match).boxes["yams"] == 50
    assert match.state.rolls == 0 and match.state.dice == ()


def test_kept_dice_stay_in_their_places():
    match = new_match("yams")
    turn(match, "dice 3 3 1 5 3")
    rejected(match, "keep 3 3 5 @1,2,3", "Les dés gardés ne correspondent pas aux dés sur la table.")
    turn(match, "keep 3 3 5 @1,2,4", "dice 6 6")
    assert match.state.dice == (3, 3, 6, 5, 6)
    assert [a.notation() for a in match.history] == [
        "roll", "dice 3 3 1 5 3", "keep 3 3 5 @1,2,4", "dice 6 6",
    ]


def test_a_player_may_stop_after_one_roll():
    match = turn(new_match("yams"), "dice 6 5 4 3 2", "score large_straight")
    assert sheet(match).boxes["large_straight"] == 40
    assert sheet(match).total == 40


# --- yams: primes and the free joker -----------------------------------------------------


def test_yams_each_further_yam_earns_a_prime_of_100():
    match = new_match("yams")
    turn(match, "dice 4 4 4 4 4", "score yams")
    assert sheet(match).primes == 0
    turn(match, "dice 6 6 6 1 2", "keep 6 6 6", "dice 6 6", "score sixes")
    assert sheet(match).primes == 100
    turn(match, "dice 2 2 2 2 2", "score chance")
    assert sheet(match).primes == 200
    turn(match, "dice 1 1 1 1 2", "score ones")  # a carré is no yam
    s = sheet(match)
    assert (s.boxes["yams"], s.boxes["sixes"], s.boxes["chance"], s.boxes["ones"]) == (50, 30, 10, 4)
    assert s.primes == 200
    assert s.total == 50 + 30 + 10 + 4 + 200


def test_yams_single_prime_option():
    match = new_match("yams", single_prime=True)
    turn(match, "dice 4 4 4 4 4", "score yams")
    turn(match, "dice 6 6 6 6 6", "score sixes")
    turn(match, "dice 2 2 2 2 2", "score chance")
    assert sheet(match).primes == 100
    assert sheet(match).total == 50 + 30 + 10 + 100


def test_yams_no_prime_when_the_yam_box_holds_zero_but_the_joker_still_plays():
    match = new_match("yams")
    turn(match, "dice 1 2 3 4 6", "score yams")
    turn(match, "dice 5 5 5 5 5", "score full")
    s = sheet(match)
    assert (s.boxes["yams"], s.boxes["full"], s.primes, s.total) == (0, 25, 0, 25)


def test_yams_joker_fills_any_open_box_at_full_value():
    match = new_match("yams")
    turn(match, "dice 4 4 4 4 4", "score yams")
    turn(match, "dice 2 2 2 2 2")
    assert match.state.potential() == {
        "ones": 0, "twos": 10, "threes": 0, "fours": 0, "fives": 0, "sixes": 0,
        "pair": 10, "two_pairs": 10, "three_kind": 10, "four_kind": 10, "full": 25,
        "small_straight": 30, "large_straight": 40, "chance": 10,
    }
    assert set(match.state.scorable()) == set(match.state.potential())  # free choice
    turn(match, "score large_straight")
    assert sheet(match).boxes["large_straight"] == 40
    assert sheet(match).primes == 100


def test_yams_joker_in_a_non_matching_upper_box_scores_zero_plus_the_prime():
    """Seed: « on indique 0 dans la case et 100 dans la prime yam »."""
    match = new_match("yams")
    turn(match, "dice 4 4 4 4 4", "score yams")
    turn(match, "dice 2 2 2 2 2", "score sixes")
    s = sheet(match)
    assert (s.boxes["sixes"], s.primes, s.total) == (0, 100, 150)


def test_yams_a_yam_with_the_yam_box_open_is_no_joker():
    match = turn(new_match("yams"), "dice 5 5 5 5 5")
    points = match.state.potential()
    assert (points["full"], points["small_straight"], points["large_straight"]) == (0, 0, 0)
    assert (points["yams"], points["four_kind"], points["fives"]) == (50, 25, 25)


def test_yams_two_pairs_option_in_play():
    plain = turn(new_match("yams"), "dice 4 4 4 4 2", "score two_pairs")
    assert sheet(plain).boxes["two_pairs"] == 0
    option = turn(new_match("yams", four_kind_is_two_pairs=True), "dice 4 4 4 4 2", "score two_pairs")
    assert sheet(option).boxes["two_pairs"] == 18


# --- the upper bonus at the edge -------------------------------------------------------


def scored(match: Match, **dice: str) -> Match:
    """One turn a box, in the order given: `box="d d d d d"` throws those dice and scores
    them in `box`."""
    for box, thrown in dice.items():
        turn(match, f"dice {thrown}", f"score {box}")
    return match


def upper_part(match: Match, ones: str) -> Match:
    """Three of each face (63), except the ones as given."""
    return scored(match, ones=ones, twos="2 2 2 5 6", threes="3 3 3 5 6", fours="4 4 4 5 6",
                  fives="5 5 5 1 6", sixes="6 6 6 1 2")


@pytest.mark.parametrize(
    "game_id, options, ones, upper, bonus",
    [
        ("yams", {}, "1 1 5 5 6", 62, 0),
        ("yams", {}, "1 1 1 5 6", 63, 35),
        ("yams", {}, "1 1 1 1 6", 64, 35),
        ("yahtzee", {}, "1 1 5 5 6", 62, 0),
        ("yahtzee", {}, "1 1 1 5 6", 63, 35),
        ("yams-boite", {}, "1 1 5 5 6", 62, 0),
        ("yams-boite", {}, "1 1 1 5 6", 63, 35),
        ("yams-boite", {"bonus_above_63": True}, "1 1 1 5 6", 63, 0),
        ("yams-boite", {"bonus_above_63": True}, "1 1 1 1 6", 64, 35),
    ],
)
def test_upper_bonus_edge(game_id, options, ones, upper, bonus):
    s = sheet(upper_part(new_match(game_id, **options), ones))
    assert (s.upper, s.bonus, s.total) == (upper, bonus, upper + bonus)


# --- yams-boite: forced scoring, no prime, no joker --------------------------------------


def test_boite_a_zero_only_when_no_open_box_scores():
    match = new_match("yams-boite")
    turn(match, "dice 1 2 3 5 6")
    assert set(match.state.scorable()) == {"ones", "twos", "threes", "fives", "sixes", "chance"}
    message = "Un 0 n'est permis que si aucune case libre ne marque de points."
    rejected(match, "score full", message)
    rejected(match, "score fours", message)
    turn(match, "score chance")
    scored(match, ones="1 1 1 2 3", twos="2 2 1 3 5", threes="3 3 3 1 2", fives="5 5 1 2 3",
           sixes="6 6 1 2 3", three_kind="2 2 2 5 6", four_kind="4 4 4 4 1",
           small_straight="1 2 3 4 6", large_straight="2 3 4 5 6", yams="6 6 6 6 6")
    # Only les 4 and Full are open: with nothing for either, a 0 goes in either.
    turn(match, "dice 1 2 3 5 6")
    assert set(match.state.scorable()) == {"fours", "full"}
    turn(match, "score full")
    turn(match, "dice 1 1 2 2 3", "score fours")
    assert match.state.is_terminal()
    s = sheet(match)
    assert s.boxes == {
        "ones": 3, "twos": 4, "threes": 9, "fours": 0, "fives": 10, "sixes": 12,
        "three_kind": 6, "four_kind": 16, "full": 0, "small_straight": 30,
        "large_straight": 40, "yams": 50, "chance": 17,
    }
    assert (s.upper, s.bonus, s.primes, s.total) == (38, 0, 0, 38 + 159)


def test_boite_forced_scoring_off_allows_any_zero():
    match = turn(new_match("yams-boite", forced_scoring=False), "dice 1 2 3 5 6", "score full")
    assert sheet(match).boxes["full"] == 0


def test_boite_forced_scoring_applies_to_a_second_yam_too():
    match = new_match("yams-boite")
    turn(match, "dice 4 4 4 4 4", "score yams")
    turn(match, "dice 4 4 4 4 4")
    rejected(match, "score full", "Un 0 n'est permis que si aucune case libre ne marque de points.")
    assert set(match.state.scorable()) == {"fours", "three_kind", "four_kind", "chance"}


def test_boite_has_no_prime_and_no_joker():
    match = new_match("yams-boite", forced_scoring=False)
    turn(match, "dice 4 4 4 4 4", "score yams")
    turn(match, "dice 4 4 4 4 4")
    points = match.state.potential()
    assert (points["full"], points["small_straight"], points["large_straight"]) == (0, 0, 0)
    assert (points["three_kind"], points["four_kind"], points["fours"]) == (12, 16, 20)
    turn(match, "score full")
    s = sheet(match)
    assert (s.boxes["full"], s.primes, s.total) == (0, 0, 50)


# --- yahtzee: the forced joker -------------------------------------------------------------


def test_yahtzee_forced_joker_order():
    match = new_match("yahtzee")
    turn(match, "dice 3 3 3 3 3", "score yams")
    # 1. the matching upper box while it is open
    turn(match, "dice 3 3 3 3 3")
    assert match.state.scorable() == ["threes"]
    rejected(match, "score full", "Yam joker\u00a0: il faut remplir «\u00a0Les 3\u00a0».")
    rejected(match, "score chance", "Yam joker\u00a0: il faut remplir «\u00a0Les 3\u00a0».")
    turn(match, "score threes")
    # 2. else any open lower box, at full value
    turn(match, "dice 3 3 3 3 3")
    lower = {"three_kind", "four_kind", "full", "small_straight", "large_straight", "chance"}
    assert set(match.state.scorable()) == lower
    assert rejected(match, "score ones", "Yam joker\u00a0: il faut remplir").count("«") == len(lower)
    turn(match, "score large_straight")
    yam = "3 3 3 3 3"
    scored(match, three_kind=yam, four_kind=yam, full=yam, small_straight=yam, chance=yam)
    # 3. else a 0 in any open upper box
    turn(match, "dice 3 3 3 3 3")
    assert set(match.state.scorable()) == {"ones", "twos", "fours", "fives", "sixes"}
    assert set(match.state.potential().values()) == {0}
    turn(match, "score ones")
    s = sheet(match)
    assert {b: v for b, v in s.boxes.items() if v is not None} == {
        "yams": 50, "threes": 15, "large_straight": 40, "three_kind": 15, "four_kind": 15,
        "full": 25, "small_straight": 30, "chance": 15, "ones": 0,
    }
    assert s.primes == 8 * 100
    assert s.total == 205 + 800


def test_yahtzee_joker_with_zero_in_the_yahtzee_box_has_no_prime():
    match = new_match("yahtzee")
    turn(match, "dice 1 2 3 4 6", "score yams")
    turn(match, "dice 5 5 5 5 5")
    assert match.state.scorable() == ["fives"]
    turn(match, "score fives")
    turn(match, "dice 5 5 5 5 5", "score full")
    s = sheet(match)
    assert (s.boxes["fives"], s.boxes["full"], s.primes) == (25, 25, 0)


def test_yahtzee_plain_has_no_prime_and_no_joker():
    match = new_match("yahtzee", plain=True)
    turn(match, "dice 3 3 3 3 3", "score yams")
    turn(match, "dice 3 3 3 3 3")
    assert len(match.state.scorable()) == 12  # any open box, no forced order
    assert match.state.potential()["full"] == 0
    turn(match, "score full")
    s = sheet(match)
    assert (s.boxes["full"], s.primes, s.total) == (0, 0, 50)


# --- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_id, options, turns",
    [("yams", {}, 15), ("yams-boite", {"forced_scoring": False}, 13), ("yahtzee", {}, 13)],
)
def test_turn_count_and_order(game_id, options, turns):
    match = new_match(game_id, "Alice", "Bob", **options)
    boxes = [b.id for b in match.state.rules.boxes]
    assert len(boxes) == turns
    for box in boxes:
        for player in (0, 1):
            assert match.state.current_player() == player
            turn(match, "dice 1 2 3 4 6")
            assert match.state.current_player() == player
            turn(match, f"score {box}")
    assert match.state.is_terminal()
    assert match.state.current_player() == TERMINAL
    assert match.state.legal_actions() == []
    rejected(match, "roll", "La partie est terminée.")
    assert sum(a.notation().startswith("score") for a in match.history) == 2 * turns
    s = [sheet(match, p) for p in (0, 1)]
    assert s[0] == s[1]
    # 1 2 3 4 6 everywhere: les 1…6 give 16, petite suite 30, chance 16, the rest 0.
    assert s[0].total == sum(s[0].boxes.values()) == 16 + 30 + 16
    assert match.state.scores() == [s[0].total, s[1].total]
    assert match.state.ranking() == [[0, 1]]


# --- illegal actions -------------------------------------------------------------------------

THREE_ROLLS = ["roll", "dice 1 2 3 4 5", "roll", "dice 1 2 3 4 5", "roll", "dice 1 2 3 4 5"]
FULL_FILLED = ["roll", "dice 3 3 3 2 2", "score full", "roll", "dice 3 3 3 2 2"]
SHOWN = ["roll", "dice 1 2 3 4 5"]


@pytest.mark.parametrize(
    "before, move, message",
    [
        ([], "score full", "Lancez d'abord les dés."),
        ([], "keep 3", "Lancez d'abord les cinq dés."),
        ([], "dice 1 2 3 4 5", "Ce n'est pas le moment de lancer les dés."),
        ([], Throw((1, 2, 3, 4, 5)), "Ce n'est pas le moment de lancer les dés."),
        (["roll"], "roll", "Il faut le résultat de 5 dés."),
        (["roll"], "score chance", "Il faut le résultat de 5 dés."),
        (["roll"], "dice 1 2", "Il faut le résultat de 5 dés."),
        (["roll"], "dice 7 1 1 1 1", "«\u00a07\u00a0» n'est pas un dé (une face de 1 à 6)."),
        (["roll"], "dice 0 1 1 1 1", "«\u00a00\u00a0» n'est pas un dé"),
        (["roll"], "dice 1 1 1 1 x", "«\u00a0x\u00a0» n'est pas un dé"),
        (["roll"], "dice 1 1 1 1 1 1", "Coup inconnu\u00a0: «\u00a0dice 1 1 1 1 1 1\u00a0»."),
        (["roll"], Throw((1, 1, 1, 1, 9)), "Il faut le résultat de 5 dés."),
        (SHOWN, "keep 6", "On ne peut garder que des dés qui sont sur la table."),
        (SHOWN, "keep 1 1", "On ne peut garder que des dés qui sont sur la table."),
        (SHOWN, "keep 1 2 3 4 5", "Il faut relancer au moins un dé."),
        (SHOWN, "keep 1 2 @3,4", "Les dés gardés ne correspondent pas aux dés sur la table."),
        (SHOWN, "keep 1 2 @1", "autant de places que de dés gardés."),
        (SHOWN, "keep 1 2 @1,1", "Les dés gardés ne correspondent pas aux dés sur la table."),
        (THREE_ROLLS, "roll", "Plus de lancer ce tour\u00a0: choisissez une case."),
        (THREE_ROLLS, "keep 1", "Plus de lancer ce tour\u00a0: choisissez une case."),
        (FULL_FILLED, "score full", "La case «\u00a0Full\u00a0» est déjà remplie."),
        (SHOWN, "score nothing", "Case inconnue dans Yams (feuille complète)\u00a0: «\u00a0nothing\u00a0»."),
        (SHOWN, "score", "Coup inconnu\u00a0: «\u00a0score\u00a0»."),
        ([], "jump", "Coup inconnu\u00a0: «\u00a0jump\u00a0»."),
        ([], "", "Coup inconnu"),
        ([], "keep x", "écrire par exemple «\u00a0keep 3 3 5\u00a0»."),
        ([], 42, "Coup impossible maintenant\u00a0: «\u00a042\u00a0»."),
    ],
)
def test_illegal_actions_are_refused_in_french_and_change_nothing(before, move, message):
    match = new_match("yams")
    for m in before:
        match.apply(m)
    text = rejected(match, move, message)
    assert isinstance(IllegalAction(text), GameError)
    assert "Traceback" not in text and "Roll(" not in text and "Score(" not in text
    # and the game goes on
    while match.state.is_chance():
        match.apply(Throw((6,) * match.state.dice_to_throw()))
    match.apply(match.state.legal_actions()[0])


def test_state_apply_refuses_too_and_never_mutates():
    match = turn(new_match("yahtzee"), "dice 3 3 3 3 3", "score yams", "dice 3 3 3 3 3")
    state = match.state
    frozen = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        state.apply(find_game("yahtzee").parse_action("score chance"))
    after = state.apply(find_game("yahtzee").parse_action("score threes"))
    assert state == frozen and after != state
    assert after.sheet(0).boxes["threes"] == 15


def test_unknown_box_for_the_ruleset():
    match = turn(new_match("yahtzee"), "dice 1 1 2 2 3")
    rejected(match, "score pair", "Case inconnue dans Yahtzee (règles internationales)\u00a0: «\u00a0pair\u00a0».")
    rejected(match, "score two_pairs", "Case inconnue")


def test_chance_node_is_a_chance_node():
    match = new_match("yams", "Alice", "Bob")
    assert match.state.current_player() == 0
    match.apply("roll")
    assert match.state.current_player() == CHANCE and match.state.dice_to_throw() == 5
    turn(match, "dice 1 2 3 4 5", "keep 1 2")
    assert match.state.dice_to_throw() == 3
