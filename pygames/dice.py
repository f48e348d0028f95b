"""Counting and enumerating dice: multisets, sub-multisets and reroll probabilities."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

FACES = (1, 2, 3, 4, 5, 6)


def counts(dice) -> tuple[int, ...]:
    """How many dice show each face, indexed by face (index 0 unused)."""
    c = [0] * 7
    for d in dice:
        c[d] += 1
    return tuple(c)


@lru_cache(maxsize=None)
def rolls(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every sorted outcome of n fair dice, with its probability."""
    out = []
    for faces in combinations_with_replacement(FACES, n):
        c = counts(faces)
        ways = factorial(n) // prod(factorial(k) for k in c)
        out.append((faces, ways / 6**n))
    return tuple(out)


@lru_cache(maxsize=None)
def hands(n: int = 5) -> tuple[tuple[int, ...], ...]:
    """Every sorted hand of n dice (252 for five)."""
    return tuple(faces for faces, _ in rolls(n))


@lru_cache(maxsize=4096)
def sub_multisets(hand: tuple[int, ...], max_size: int | None = None) -> tuple[tuple[int, ...], ...]:
    """The distinct sorted sub-multisets of a sorted hand, smallest first."""
    hand = tuple(sorted(hand))
    limit = len(hand) if max_size is None else max_size
    seen = dict.fromkeys(
        combo for size in range(limit + 1) for combo in combinations(hand, size)
    )
    return tuple(seen)
