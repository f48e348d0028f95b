"""What a throw of three dice is, over all 216 ordered throws and all 56 sorted ones,
against a reading written straight from the seed; and `landais-throw`."""

from __future__ import annotations

import io
from collections import Counter
from itertools import combinations_with_replacement, permutations, product

import pytest

from pygames.cli import main
from pygames.core import IllegalAction
from pygames.landais import classify


def seed_reading(dice) -> str:
    """The seed's words: three identical faces are a poigne; the four tirs are exactly
    these sets; then 100 per 1 and 50 per 5; nothing is a vide."""
    a, b, c = sorted(dice)
    if a == b == c:
        return f"poigne {1000 if a == 1 else 100 * a}"
    tirs = {(2, 3, 4): "troll", (2, 4, 6): "vereux", (2, 3, 6): "licorne", (3, 4, 6): "chimere"}
    if (a, b, c) in tirs:
        return "tir " + tirs[(a, b, c)]
    points = sum(100 for d in dice if d == 1) + sum(50 for d in dice if d == 5)
    return f"points {points}" if points else "vide"


@pytest.mark.parametrize("dice", list(product(range(1, 7), repeat=3)))
def test_every_ordered_throw(dice):
    assert classify(dice).notation() == seed_reading(dice)


def test_sorted_throws_and_their_counts():
    sorted_throws = list(combinations_with_replacement(range(1, 7), 3))
    assert len(sorted_throws) == 56
    for hand in sorted_throws:
        readings = {classify(p).notation() for p in set(permutations(hand))}
        assert readings == {seed_reading(hand)}  # the order of the dice never matters
    kinds = Counter(classify(d).kind for d in product(range(1, 7), repeat=3))
    assert kinds == {"poigne": 6, "troll": 6, "vereux": 6, "licorne": 6, "chimere": 6,
                     "vide": 36, "points": 150}


@pytest.mark.parametrize("dice, reading", [
    ((1, 1, 1), "poigne 1000"), ((5, 5, 5), "poigne 500"), ((2, 2, 2), "poigne 200"),
    ((1, 1, 5), "points 250"), ((1, 5, 5), "points 200"), ((5, 3, 1), "points 150"),
    ((2, 6, 5), "points 50"), ((1, 3, 3), "points 100"),
    ((3, 2, 4), "tir troll"), ((4, 2, 6), "tir vereux"), ((6, 2, 3), "tir licorne"),
    ((6, 4, 3), "tir chimere"), ((2, 2, 4), "vide"), ((2, 3, 3), "vide"), ((4, 6, 6), "vide"),
    ((2, 4, 5), "points 50"),  # a 5 spoils the tir
])
def test_near_misses(dice, reading):
    assert classify(dice).notation() == reading


@pytest.mark.parametrize("bad", [(1, 2), (1, 2, 3, 4), (0, 1, 2), (1, 2, 7), (1.0, 2, 3), (True, 2, 3)])
def test_bad_dice_are_refused(bad):
    with pytest.raises(IllegalAction):
        classify(bad)


def run(*argv):
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


@pytest.mark.parametrize("dice, printed", [
    (("3", "3", "3"), "poigne 300"), (("5", "3", "1"), "points 150"),
    (("6", "2", "3"), "tir licorne"), (("2", "2", "4"), "vide"), (("1", "1", "1"), "poigne 1000"),
])
def test_cli_prints_the_kind_and_points(dice, printed):
    assert run("landais-throw", *dice) == (0, printed + "\n")


@pytest.mark.parametrize("dice, message", [
    (("3", "3"), "Il faut exactement 3 dés"),
    (("3", "3", "3", "3"), "Il faut exactement 3 dés"),
    (("3", "3", "7"), "«\u00a07\u00a0» n'est pas un dé"),
    (("x", "3", "3"), "«\u00a0x\u00a0» n'est pas un dé"),
])
def test_cli_refuses_bad_dice(dice, message, capsys):
    code, out = run("landais-throw", *dice)
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1
