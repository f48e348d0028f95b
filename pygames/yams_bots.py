"""The Yams family's simple computer player (the expert is in pygames.expert)."""

from __future__ import annotations

from functools import lru_cache

from .core import Action, State
from .dice import rolls, sub_multisets
from .yams import UPPER_IDS, Roll, Score, YamsState, replace

# Rough average of each box under good play: scoring below it "costs" the difference.
PAR = {
    "ones": 2.1, "twos": 5.3, "threes": 8.6, "fours": 12.2, "fives": 15.7, "sixes": 19.2,
    "pair": 17.0, "two_pairs": 16.0, "three_kind": 16.0, "four_kind": 11.0, "full": 21.0,
    "small_straight": 25.0, "large_straight": 28.0, "yams": 14.0, "chance": 22.0,
}


class SimpleYamsBot:
    """Keeps the dice that give the best expected box after one more roll, then scores
    the box that loses least against its par value (with a nudge towards the bonus)."""

    def __call__(self, state: State) -> Action:
        assert isinstance(state, YamsState)
        if state.rolls == 0:
            return Roll()
        hand = tuple(sorted(state.dice))
        value = _hand_values(state)
        best_now = value(hand)
        if state.rolls >= 3:
            return Score(_best_box(state, hand))
        best_keep, best_expect = None, best_now[0]
        for keep in sub_multisets(hand, 4):
            expect = sum(
                p * value(tuple(sorted(keep + faces)))[0] for faces, p in rolls(5 - len(keep))
            )
            if expect > best_expect + 1e-9:
                best_keep, best_expect = keep, expect
        if best_keep is None:
            return Score(best_now[1])
        return Roll(best_keep)


def _utility(state: YamsState, box: str, points: int) -> float:
    u = points - PAR.get(box, 10.0)
    if box in UPPER_IDS:
        face = UPPER_IDS.index(box) + 1
        sheet = state.sheet(state.player)
        if sheet.bonus == 0:
            # Getting three or more of a face keeps the upper bonus within reach.
            u += 0.6 * (points - 3 * face) + (6 if points >= 3 * face else 0)
    return u


def _hand_values(state: YamsState):
    """value(hand) -> (utility, box) of the best box for that hand, memoised per call."""
    base = replace(state, rolls=3)

    @lru_cache(maxsize=None)
    def value(hand):
        s = replace(base, dice=hand)
        points = s.potential()
        return max((_utility(s, b, points[b]), b) for b in s.scorable())

    return value


def _best_box(state: YamsState, hand) -> str:
    return _hand_values(state)(hand)[1]
