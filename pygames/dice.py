"""Counting and enumerating dice (multisets, sub-multisets, reroll probabilities), and the
dice cup shared by the games that keep dice between throws (`Roll`, `Cup`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod
from typing import ClassVar, Sequence

from .core import Action, IllegalAction, is_face, parse_faces, quote

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


# --- the dice cup: dice that stay in their places between throws --------------------

_KEEP = re.compile(r"^keep((?: [1-6])+)(?: @([1-9](?:,[1-9])*))?$")


@dataclass(frozen=True)
class Roll(Action):
    """Keep `keep` (sorted faces) and roll the other dice; `roll` keeps nothing.

    `positions` (0-based, compare=False) says which dice on the table are kept when equal
    faces make it ambiguous, so that the dice stay where the player saw them.
    """

    keep: tuple[int, ...] = ()
    positions: tuple[int, ...] | None = field(default=None, compare=False)
    verbs: ClassVar[tuple[str, ...]] = ("roll", "keep")

    def __post_init__(self):
        if not isinstance(self.keep, tuple) or not all(is_face(f) for f in self.keep):
            raise IllegalAction("error.kept_unreadable")
        if self.positions is not None and (
            not isinstance(self.positions, tuple)
            or not all(type(p) is int and p >= 0 for p in self.positions)
            or len(self.positions) != len(self.keep)  # one place per kept die
        ):
            raise IllegalAction("error.kept_places_unreadable")

    def notation(self) -> str:
        if not self.keep:
            return "roll"
        text = "keep " + " ".join(map(str, self.keep))
        if self.positions is not None:
            text += " @" + ",".join(str(p + 1) for p in self.positions)
        return text

    @classmethod
    def parse(cls, words, game):
        text = " ".join(words)
        if text == "roll":
            return cls()
        m = _KEEP.match(text)
        if not m:
            raise IllegalAction("error.keep_syntax", text=quote(text))
        keep = tuple(sorted(parse_faces(m.group(1).split())))
        places = tuple(int(p) - 1 for p in m.group(2).split(",")) if m.group(2) else None
        if places is not None and len(places) != len(keep):
            raise IllegalAction("error.keep_places_count", text=quote(text))
        return cls(keep, places)


@dataclass(frozen=True)
class Cup:
    """The dice on the table, in their places, and the places of those in the air.

    Yams, 421 and Linotte throw the same way: `roll(action)` keeps some dice where they
    lie and throws the others; `land(faces)` puts the thrown faces in those places.
    """

    size: int
    dice: tuple[int, ...] = ()  # empty before the first throw of a turn
    rolling: tuple[int, ...] = ()  # places of the dice in the air (a chance node)

    def places_of(self, keep: Sequence[int]) -> tuple[int, ...]:
        """The places a keep of these faces holds: the leftmost of equal faces."""
        free = list(range(len(self.dice)))
        places = []
        for face in keep:
            place = next((p for p in free if self.dice[p] == face), None)
            if place is None:
                raise IllegalAction("error.keep_not_on_table")
            free.remove(place)
            places.append(place)
        return tuple(sorted(places))

    def kept_places(self, action: Roll) -> tuple[int, ...]:
        """The places `action` keeps: its own positions when given (checked), else the
        leftmost dice showing its faces."""
        if not self.dice:
            if action.keep:
                raise IllegalAction("error.throw_first")
            return ()
        if action.positions is None:
            return self.places_of(action.keep)
        places = tuple(sorted(action.positions))
        if (
            len(set(places)) != len(places)
            or not all(0 <= p < self.size for p in places)
            or sorted(self.dice[p] for p in places) != list(action.keep)
        ):
            raise IllegalAction("error.keep_mismatch")
        return places

    def roll(self, action: Roll) -> "Cup":
        kept = self.kept_places(action)
        if len(kept) >= self.size:
            raise IllegalAction("error.reroll_one")
        return Cup(self.size, self.dice, tuple(p for p in range(self.size) if p not in kept))

    def land(self, faces: Sequence[int]) -> "Cup":
        dice = list(self.dice) if self.dice else [0] * self.size
        for place, face in zip(self.rolling, faces):
            dice[place] = face
        return Cup(self.size, tuple(dice), ())

    def keeps(self, max_keep: int | None = None) -> list[Roll]:
        """Every distinct keep of the dice on the table (as sorted faces)."""
        limit = self.size - 1 if max_keep is None else max_keep
        return [Roll(k) for k in sub_multisets(tuple(sorted(self.dice)), limit)]


class CupState:
    """What a state that throws and keeps dice in a `Cup` shares (Yams, 421, Linotte): its
    `cup` (`CUP_SIZE` dice, those whose places are in the field `CUP_AIR` in the air), and
    a keep by places (``keep 6 6 @1,3``) checked against the dice on the table."""

    CUP_SIZE: ClassVar[int]
    CUP_AIR: ClassVar[str] = "rerolling"

    @property
    def cup(self) -> Cup:
        return Cup(self.CUP_SIZE, self.dice, getattr(self, self.CUP_AIR))

    def dice_to_throw(self) -> int:
        """The dice in the air."""
        return len(getattr(self, self.CUP_AIR))

    def check_legal(self, action: Action) -> None:
        super().check_legal(action)
        if isinstance(action, Roll) and action.positions is not None:
            self.cup.kept_places(action)  # raises if they don't match
