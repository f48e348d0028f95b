"""The Yams family's computer players, every level in one place: `SimpleBot` (*facile*: a
quick heuristic) and `ExpertBot` (*expert*: the exact optimum, played from the solved
tables of `pygames.yams.tables`).

The expert's tables hold, for every turn-start state, the expected points still to come
under optimal play.  Everything inside a turn is worked out here on the fly, in pure
Python, from the values of the next turn's states: the best box for each of the 252 final
hands, the expectation of each of the 462 keeps, the best keep of each hand (`Turn`).  That
is a few milliseconds per turn, so the tables stay small and the browser needs nothing but
the standard library.  In a game of several players it plays its own sheet for the best
expected score, as in solitaire.
"""

from __future__ import annotations

from functools import lru_cache

from ..core import Action, GameError, State
from ..dice import rolls, sub_multisets
from .rules import UPPER_IDS, YAM_PRIME, Roll, Score, YamsState, replace
from .tables import YamsTables

NEG = float("-inf")

# Rough average of each box under good play: scoring below it "costs" the difference.
PAR = {
    "ones": 2.1, "twos": 5.3, "threes": 8.6, "fours": 12.2, "fives": 15.7, "sixes": 19.2,
    "pair": 17.0, "two_pairs": 16.0, "three_kind": 16.0, "four_kind": 11.0, "full": 21.0,
    "small_straight": 25.0, "large_straight": 28.0, "yams": 14.0, "chance": 22.0,
}


class SimpleBot:
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


# --- one turn ------------------------------------------------------------------------


class Turn:
    """Every decision of one turn from a turn-start state, worked out from the tables.

    `score[h]`: the value of the best legal box for final hand h; `levels[r]` for the
    roll r = 1 .. rolls-1: (E, M) where E[j][k] is the expectation of keeping keep k of
    j dice, M[j][k] the best of keep k and its sub-keeps (M[dice][h] includes scoring
    now).  Values are the points still to come, this turn included.
    """

    def __init__(self, tables: YamsTables, mask: int, up: int, p: int):
        m = tables.model
        self.tables, self.model = tables, m
        self.mask, self.up, self.p = mask, up, p
        self.yam_filled = m.yam is not None and bool(mask >> m.yam & 1)
        self.score = self._score_values()
        self.levels: dict[int, tuple[list, list]] = {}
        current = self.score
        for r in range(m.rolls - 1, 0, -1):
            E = self._expectations(current)
            M = self._best_keeps(E)
            self.levels[r] = (E, M)
            current = M[m.dice]
        self.start = sum(p_ * v for p_, v in zip(m.prob, current))

    # final hands

    def _score_values(self) -> list[float]:
        m, t = self.model, self.tables
        T, mask, up, p = m.threshold, self.mask, self.up, self.p
        cands = []
        for b in range(m.B):
            if mask >> b & 1:
                continue
            m2 = mask | 1 << b
            pts = m.points[b]
            if m.upper[b]:
                by_points = {}
                for v in set(pts):
                    add = v + (m.bonus if up < T <= up + v else 0)
                    by_points[v] = t.value(m2, min(T, up + v), p) + add
                cands.append([by_points[v] for v in pts])
            elif b == m.yam:
                v0 = t.value(m2, up, 0)
                v1 = t.value(m2, up, 1) if m.prime_mode else v0
                cands.append([(v1 if pt == 50 else v0) + pt for pt in pts])
            else:
                base = t.value(m2, up, p)
                cands.append([base + pt for pt in pts])
        if m.forced_scoring:
            open_boxes = [b for b in range(m.B) if not mask >> b & 1]
            scoring = [[c if m.points[b][h] > 0 else NEG for h, c in enumerate(cand)]
                       for b, cand in zip(open_boxes, cands)]
            best_all = list(map(max, *cands)) if len(cands) > 1 else list(cands[0])
            best_pos = list(map(max, *scoring)) if len(scoring) > 1 else list(scoring[0])
            score = [bp if bp > NEG else ba for bp, ba in zip(best_pos, best_all)]
        else:
            score = list(map(max, *cands)) if len(cands) > 1 else list(cands[0])
        if self.yam_filled and (m.joker or m.prime_mode):
            for h in m.yam_hands:
                score[h] = max(v for _, v in self.choices(h))
        return score

    def choices(self, h: int) -> list[tuple[int, float]]:
        """(box, value) of every box the player may fill with final hand h, in sheet
        order; the same legality as `YamsState.scorable`."""
        m, t = self.model, self.tables
        T, mask, up, p = m.threshold, self.mask, self.up, self.p
        yam_hand = m.is_yam[h]
        joker = bool(m.joker) and self.yam_filled and yam_hand
        points = m.joker_points if joker else m.points
        special = self.yam_filled and yam_hand
        prime = YAM_PRIME if special and p == 1 else 0
        p_after = 0 if special and m.single_prime else p
        open_boxes = [b for b in range(m.B) if not mask >> b & 1]
        if joker and m.joker == "forced":
            face_box = m.face_box[m.hands[h][0] - 1]
            if face_box in open_boxes:
                legal = [face_box]
            else:
                legal = [b for b in open_boxes if not m.upper[b]] or open_boxes
        elif m.forced_scoring:
            legal = [b for b in open_boxes if points[b][h] > 0] or open_boxes
        else:
            legal = open_boxes
        out = []
        for b in legal:
            pt = points[b][h]
            m2 = mask | 1 << b
            if m.upper[b]:
                add = pt + (m.bonus if up < T <= up + pt else 0) + prime
                value = t.value(m2, min(T, up + pt), p_after) + add
            elif b == m.yam:
                value = t.value(m2, up, 1 if m.prime_mode and pt == 50 else 0) + pt
            elif special:
                value = t.value(m2, up, p_after) + prime + pt
            else:
                value = t.value(m2, up, p) + pt
            out.append((b, value))
        return out

    def best_box(self, h: int) -> tuple[int, float]:
        best = None
        for b, v in self.choices(h):
            if best is None or v > best[1]:
                best = (b, v)
        return best

    # keeps

    def _expectations(self, values: list[float]) -> list[list[float]]:
        m = self.model
        E: list = [None] * (m.dice + 1)
        E[m.dice] = values
        for j in range(m.dice - 1, -1, -1):
            nxt = E[j + 1]
            E[j] = [sum([nxt[i] for i in add]) / 6 for add in m.add_index[j]]
        return E

    def _best_keeps(self, E: list[list[float]]) -> list[list[float]]:
        """Values only: which keep reaches the maximum is `best_keep`'s business."""
        m = self.model
        M = [E[0]]
        for j in range(1, m.dice + 1):
            below = M[j - 1]
            base = self.score if j == m.dice else E[j]
            M.append([max(v, max([below[s] for s in subs]))
                      for v, subs in zip(base, m.sub_index[j])])
        return M

    def best_keep(self, r: int, h: int) -> tuple[int, ...] | None:
        """The expert's keep after roll r with hand h, or None to score now."""
        m = self.model
        E, M = self.levels[r]
        j, k = m.dice, h
        while True:
            v = self.score[k] if j == m.dice else E[j][k]
            winner = None
            for s in m.sub_index[j][k] if j else ():
                if M[j - 1][s] > v:
                    v, winner = M[j - 1][s], s
            if winner is None:
                return None if j == m.dice else m.keeps[j][k]
            j, k = j - 1, winner


# --- the state, seen by the tables ---------------------------------------------------


def _situation(state: YamsState, tables: YamsTables):
    """(turn-start state (mask, up, p), points so far) of the player to move."""
    m = tables.model
    sheet, player = state.sheets[state.player], state.player
    mask = sum(1 << i for i, v in enumerate(sheet) if v is not None)
    upper = sum(v for i, v in enumerate(sheet) if v is not None and m.upper[i])
    lower = sum(v for i, v in enumerate(sheet) if v is not None and not m.upper[i])
    primes = state.primes[player]
    p = int(m.prime_mode and sheet[m.yam] == 50 and primes < state.rules.primes)
    total = upper + (m.bonus if upper >= m.threshold else 0) + lower + YAM_PRIME * primes
    return (mask, min(upper, m.threshold), p), total


def _resolve(tables, state) -> YamsTables:
    if not isinstance(state, YamsState):
        raise GameError("yams.error.expert_only_yams")
    return tables.tables_for(state.rules)


def _decide(turn: Turn, rolls: int, h: int) -> Action:
    m = turn.model
    if rolls < m.rolls:
        keep = turn.best_keep(rolls, h)
        if keep is not None:
            return Roll(keep)
    return Score(m.boxes[turn.best_box(h)[0]].id)


class ExpertBot:
    """Plays every decision for the best expected final score of its own sheet.

    `tables`: a `YamsTables` (from `load_tables`), or anything with a ``tables_for(rules)``
    method giving one (the command line reads a directory of them).
    """

    def __init__(self, tables):
        if tables is None:
            raise GameError("yams.error.expert_needs_tables")
        self.tables = tables

    def __call__(self, state: YamsState) -> Action:
        tables = _resolve(self.tables, state)
        if state.rolls == 0:
            return Roll()
        (mask, up, p), _ = _situation(state, tables)
        turn = turn_of(tables, mask, up, p)
        return _decide(turn, state.rolls, turn.model.hand_index[tuple(sorted(state.dice))])


def turn_of(tables: YamsTables, mask: int, up: int, p: int) -> "Turn":
    """The worked-out turn of a state (the last few are kept with the tables)."""
    cache = tables._turns
    key = (mask, up, p)
    turn = cache.get(key)
    if turn is None:
        turn = cache[key] = Turn(tables, mask, up, p)
        if len(cache) > 64:
            cache.pop(next(iter(cache)))
    return turn
