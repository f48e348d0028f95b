"""Scoring tables: what five dice are worth in each box, near misses and unsorted dice.

Each row comes from RULINGS.md (and the seed's own example); then every one of the 252
hands, in two orders, is checked against the reference rules in conftest.
"""

from __future__ import annotations

import itertools

import pytest

from pygames import Match, Player, find_game


def shown(game_id: str, dice, **options):
    """A fresh one-player match with `dice` on the table after the first roll."""
    match = Match(find_game(game_id), [Player("Alice")], options)
    match.apply("roll")
    match.apply("dice " + " ".join(map(str, dice)))
    return match.state


def points(game_id: str, dice, box: str, **options) -> int:
    return shown(game_id, dice, **options).potential()[box]


# (game, dice, box, points): unsorted dice and near misses on purpose.
SCORING_TABLE = [
    # the seed's example: (3,3,3,2,2)
    ("yams", (3, 3, 3, 2, 2), "twos", 4),
    ("yams", (3, 3, 3, 2, 2), "threes", 9),
    ("yams", (3, 3, 3, 2, 2), "three_kind", 13),
    ("yams", (3, 3, 3, 2, 2), "full", 25),
    ("yams", (3, 3, 3, 2, 2), "pair", 13),
    ("yams", (3, 3, 3, 2, 2), "two_pairs", 13),  # a full fits two pairs
    ("yams", (3, 3, 3, 2, 2), "chance", 13),
    ("yams", (3, 3, 3, 2, 2), "four_kind", 0),
    ("yams", (3, 3, 3, 2, 2), "ones", 0),
    ("yams", (3, 3, 3, 2, 2), "yams", 0),
    # upper part: sum of the dice showing the face
    ("yams", (6, 1, 6, 1, 6), "sixes", 18),
    ("yams", (6, 1, 6, 1, 6), "ones", 2),
    ("yams", (2, 2, 2, 5, 1), "twos", 6),
    ("yams", (5, 4, 3, 2, 1), "fours", 4),
    # une paire
    ("yams", (6, 1, 2, 6, 3), "pair", 18),
    ("yams", (1, 2, 3, 4, 6), "pair", 0),
    ("yams", (6, 5, 4, 3, 2), "pair", 0),
    # deux paires
    ("yams", (1, 2, 1, 3, 2), "two_pairs", 9),
    ("yams", (4, 1, 6, 1, 4), "two_pairs", 16),
    ("yams", (4, 4, 4, 4, 2), "two_pairs", 0),  # a carré is not two pairs
    ("yams", (4, 4, 4, 1, 2), "two_pairs", 0),
    ("yams", (5, 1, 5, 2, 3), "two_pairs", 0),
    ("yams", (6, 6, 6, 6, 6), "two_pairs", 0),
    # brelan: sum of the five dice
    ("yams", (2, 5, 2, 6, 2), "three_kind", 17),
    ("yams", (2, 2, 5, 5, 6), "three_kind", 0),
    ("yams", (4, 4, 1, 4, 4), "three_kind", 17),
    ("yams", (5, 5, 5, 5, 5), "three_kind", 25),
    # carré
    ("yams", (6, 1, 6, 6, 6), "four_kind", 25),
    ("yams", (6, 6, 6, 1, 1), "four_kind", 0),
    ("yams", (2, 2, 2, 2, 2), "four_kind", 10),
    # full: exactly three and two
    ("yams", (2, 3, 2, 3, 3), "full", 25),
    ("yams", (3, 3, 3, 3, 2), "full", 0),
    ("yams", (3, 3, 2, 2, 1), "full", 0),
    ("yams", (3, 3, 3, 2, 1), "full", 0),
    ("yams", (5, 5, 5, 5, 5), "full", 0),  # a yam is a full only as a joker
    # petite suite: four in a row, five in a row fits too
    ("yams", (1, 2, 3, 4, 6), "small_straight", 30),
    ("yams", (4, 3, 1, 2, 1), "small_straight", 30),
    ("yams", (6, 3, 5, 4, 6), "small_straight", 30),
    ("yams", (1, 2, 3, 4, 5), "small_straight", 30),
    ("yams", (6, 5, 4, 3, 2), "small_straight", 30),
    ("yams", (1, 2, 3, 5, 6), "small_straight", 0),
    ("yams", (1, 2, 4, 5, 6), "small_straight", 0),
    ("yams", (1, 1, 2, 2, 3), "small_straight", 0),
    # grande suite
    ("yams", (5, 4, 3, 2, 1), "large_straight", 40),
    ("yams", (2, 6, 4, 3, 5), "large_straight", 40),
    ("yams", (1, 2, 3, 4, 6), "large_straight", 0),
    ("yams", (1, 3, 4, 5, 6), "large_straight", 0),
    ("yams", (2, 3, 4, 5, 5), "large_straight", 0),
    # yam
    ("yams", (4, 4, 4, 4, 4), "yams", 50),
    ("yams", (4, 4, 4, 4, 3), "yams", 0),
    # chance
    ("yams", (6, 5, 1, 2, 2), "chance", 16),
    ("yams", (1, 1, 1, 1, 2), "chance", 6),
    # yams-boite
    ("yams-boite", (3, 3, 3, 2, 2), "threes", 9),
    ("yams-boite", (3, 3, 3, 2, 2), "twos", 4),
    ("yams-boite", (3, 3, 3, 2, 2), "three_kind", 9),  # 3 × the face, not the sum
    ("yams-boite", (3, 3, 3, 2, 2), "full", 25),
    ("yams-boite", (5, 2, 5, 6, 5), "three_kind", 15),
    ("yams-boite", (6, 6, 1, 6, 6), "four_kind", 24),  # 4 × the face
    ("yams-boite", (6, 6, 1, 6, 6), "three_kind", 18),
    ("yams-boite", (5, 5, 5, 5, 5), "three_kind", 15),
    ("yams-boite", (5, 5, 5, 5, 5), "four_kind", 20),
    ("yams-boite", (5, 5, 5, 5, 5), "yams", 50),
    ("yams-boite", (5, 5, 5, 5, 5), "full", 0),
    ("yams-boite", (6, 6, 6, 1, 1), "four_kind", 0),
    ("yams-boite", (2, 2, 1, 1, 3), "three_kind", 0),
    ("yams-boite", (3, 4, 5, 6, 1), "small_straight", 30),
    ("yams-boite", (3, 4, 5, 1, 1), "small_straight", 0),
    ("yams-boite", (6, 5, 4, 3, 2), "large_straight", 40),
    ("yams-boite", (6, 5, 4, 3, 3), "large_straight", 0),
    ("yams-boite", (6, 5, 4, 3, 3), "chance", 21),
    # yahtzee
    ("yahtzee", (3, 3, 3, 2, 2), "three_kind", 13),
    ("yahtzee", (3, 3, 3, 2, 2), "full", 25),
    ("yahtzee", (2, 5, 2, 2, 2), "four_kind", 13),
    ("yahtzee", (2, 5, 2, 2, 1), "four_kind", 0),
    ("yahtzee", (4, 1, 2, 3, 4), "small_straight", 30),
    ("yahtzee", (4, 1, 2, 3, 4), "large_straight", 0),
    ("yahtzee", (1, 1, 1, 1, 1), "yams", 50),
    ("yahtzee", (1, 1, 1, 1, 1), "ones", 5),
    ("yahtzee", (6, 6, 6, 6, 5), "yams", 0),
]

#: The options a game's rows are read under.
TABLE_OPTIONS = {"yams-boite": {"forced_scoring": False}}


@pytest.mark.parametrize("game_id, dice, box, expected", SCORING_TABLE)
def test_scoring_table(game_id, dice, box, expected):
    assert points(game_id, dice, box, **TABLE_OPTIONS.get(game_id, {})) == expected


def test_seed_example_is_what_the_sheet_records():
    """(3,3,3,2,2): 4 in les 2, 9 in les 3, 13 in Brelan, 25 in Full, once written down."""
    for box, expected in [("twos", 4), ("threes", 9), ("three_kind", 13), ("full", 25)]:
        match = Match(find_game("yams"), [Player("Alice")])
        for move in ("roll", "dice 3 2 3 2 3", f"score {box}"):
            match.apply(move)
        assert match.state.sheet(0).boxes[box] == expected


@pytest.mark.parametrize(
    "dice, expected", [((4, 4, 4, 4, 2), 18), ((4, 4, 2, 2, 1), 13), ((4, 4, 4, 1, 2), 0)]
)
def test_carre_counts_as_two_pairs_option(dice, expected):
    assert points("yams", dice, "two_pairs", four_kind_is_two_pairs=True) == expected


def test_boite_and_yahtzee_have_thirteen_boxes_without_pairs():
    for game_id in ("yams-boite", "yahtzee"):
        state = shown(game_id, (1, 1, 2, 2, 3))
        assert "pair" not in state.potential() and "two_pairs" not in state.potential()
        assert len(state.potential()) == 13
    assert len(shown("yams", (1, 1, 2, 2, 3)).potential()) == 15


HANDS = list(itertools.combinations_with_replacement(range(1, 7), 5))


def test_every_hand_against_the_rulings(config, reference):
    """All 252 hands, sorted and shuffled, in every box of every ruleset (open sheet)."""
    game_id, options = config
    ref = reference(game_id, options)
    for hand in HANDS:
        for dice in (hand, hand[2:] + hand[:2][::-1]):
            potential = shown(game_id, dice, **options).potential()
            assert list(potential) == list(ref.boxes)
            expected = {box: ref.points(box, dice) for box in ref.boxes}
            assert potential == expected, dice
