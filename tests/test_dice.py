"""The dice are fair: faces equally likely with and without a seed, seeds reproducible."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from pygames import DiceSampler, Match, Player, Throw, find_game

# Upper tail of the chi-square distribution (5 and 35 degrees of freedom).
CHI2_5_P001 = 20.515
CHI2_5_P0001 = 25.745
CHI2_35_P001 = 66.619


def chi_square(observed: Counter, cells) -> float:
    n = sum(observed[c] for c in cells)
    expected = n / len(cells)
    return sum((observed[c] - expected) ** 2 / expected for c in cells)


FACES = range(1, 7)


def seeded_throws(seed: str, n: int = 12_000, dice: int = 5):
    sampler = DiceSampler(seed)
    return [sampler.faces(dice, ply) for ply in range(n)]


def test_seeded_faces_are_fair():
    throws = seeded_throws("fair")
    faces = Counter(f for t in throws for f in t)
    assert set(faces) == set(FACES)
    assert chi_square(faces, FACES) < CHI2_5_P001
    for place in range(5):  # every die of the five, not just all of them together
        assert chi_square(Counter(t[place] for t in throws), FACES) < CHI2_5_P001


def test_seeded_successive_faces_are_independent():
    throws = seeded_throws("independent", n=6_000)
    flat = [f for t in throws for f in t]
    pairs = Counter(pairwise(flat))
    assert chi_square(pairs, [(a, b) for a in FACES for b in FACES]) < CHI2_35_P001


@pytest.mark.parametrize("seed", ["0", "1", "partie du dimanche"])
def test_seeded_sums_look_like_five_fair_dice(seed):
    sums = [sum(t) for t in seeded_throws(seed, n=4_000)]
    mean = sum(sums) / len(sums)
    variance = sum((s - mean) ** 2 for s in sums) / (len(sums) - 1)
    assert abs(mean - 17.5) < 0.2  # 5 × 3.5, sd of the mean ≈ 0.06
    assert abs(variance - 5 * 35 / 12) < 1.0


def test_unseeded_faces_are_fair():
    sampler = DiceSampler()
    faces = Counter(f for ply in range(12_000) for f in sampler.faces(5, ply))
    assert set(faces) == set(FACES)
    assert chi_square(faces, FACES) < CHI2_5_P0001  # a false alarm once in 10 000 runs


def test_same_seed_same_dice_and_other_seeds_other_dice():
    assert seeded_throws("a", 200) == seeded_throws("a", 200)
    assert seeded_throws("a", 200) != seeded_throws("b", 200)
    assert seeded_throws("a", 200) != seeded_throws("a ", 200)
    sampler = DiceSampler("a")
    assert len({sampler.faces(5, ply) for ply in range(200)}) > 150  # plies differ too


def test_unseeded_samplers_differ():
    one, two = DiceSampler(), DiceSampler()
    assert [one.faces(5, p) for p in range(50)] != [two.faces(5, p) for p in range(50)]
    assert [one.faces(5, 0) for _ in range(50)] != [one.faces(5, 0)] * 50


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 40, 100])
def test_as_many_faces_as_asked(count):
    for sampler in (DiceSampler("n"), DiceSampler()):
        for ply in range(20):
            faces = sampler.faces(count, ply)
            assert len(faces) == count and set(faces) <= set(FACES)


def test_seeded_faces_do_not_depend_on_how_many_were_asked_before():
    sampler = DiceSampler("order")
    later = sampler.faces(5, 9)
    for ply in range(9):
        sampler.faces(3, ply)
    assert sampler.faces(5, 9) == later
    assert DiceSampler("order").faces(3, 9) == later[:3]


def test_throw_lands_the_dice_in_the_air():
    match = Match(find_game("yams"), [Player("Alice")], sampler=DiceSampler("t"))
    match.apply("roll")
    throw = match.sampler.throw(match.state, len(match.history))
    assert isinstance(throw, Throw) and len(throw.faces) == 5
    match.throw()
    assert match.state.dice == throw.faces
    match.apply("keep " + str(match.state.dice[0]))
    assert len(match.sampler.throw(match.state, len(match.history)).faces) == 4


def test_two_matches_with_the_same_seed_see_the_same_dice():
    seen = []
    for _ in range(2):
        match = Match(find_game("yahtzee"), [Player("A"), Player("B")], sampler=DiceSampler("x"))
        dice = []
        for _ in range(10):
            match.apply("roll")
            match.throw()
            dice.append(match.state.dice)
            match.apply(f"score {match.state.scorable()[0]}")
        seen.append(dice)
    assert seen[0] == seen[1]
