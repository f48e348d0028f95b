"""The Linotte expert's search (its player is `pygames.linotte.bots.ExpertBot`): exact
dice within the turn, a measured board value, and a look at the opponent's reply where it
pays.

1. **What a board is worth.**  `value(board, mover, rules)` is the chance that the player
   about to roll wins (a draw counting half), a logistic function of a few features of the
   board for each player: his points, his open windows (two pawns and a free cell; one pawn
   and two free cells) weighted by how easily the free cells are taken (`reach`, exact from
   the dice), the free cells that would complete a window (once, and again when they
   complete two), the pawns left; the points and windows again scaled by how much of the
   game is left; and his open five-lines (four pawns and a free cell, three and two), apart
   under the Yam Master rules (a five wins) and the others (a five ends the game: worth the
   lead, which scales the four-pawn ones).  The weights are not chosen:
   `e2e/bench/fit_linotte_eval.py` fits them (numpy, at build time) to self-play games —
   their results, then the exact value of each position's next turn under the weights
   themselves (value iteration) — and writes them, with the fit's held-out figures, into
   `pygames.linotte.weights`.  A placement that ends the game (twelfth pawn, five in a row)
   is worth its result exactly.
2. **The dice, exactly.**  Ending the turn with a hand is worth the best placement it
   allows or passing; the expectation over every keep and every reroll of the 252 hands
   gives the best keep and the choice of stopping, and an appel is weighed for each
   majeure (or the défi) with only the keeps the rules leave it (the sec reroll rule, no
   certain appel).  An appel's turn is worth passing, or its best cell: two values, so its
   best keeps are those that make the majeure most likely, a table computed once
   (`hit_chances`); with *défi* and the majeure's own cell the values are several and the
   full programme runs instead.
3. **The reply.**  Near the end of the game (a player with few pawns left) and while a
   five-line is one pawn from full (a five ends the game), passing and the best few
   placements are judged by the opponent's whole next turn instead — his dice played
   exactly for his own best placements, each judged by the value above — since the last
   pawns, whether to end the game or keep a pawn back, and a five decide it.

The expert keeps one board's work (a `Turn`) between its decisions of a turn.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from math import exp
from operator import itemgetter, mul

from ..dice import Roll, sub_multisets
from ..dice import rolls as dice_rolls
from .rules import (
    DEFI,
    DICE,
    EMPTY,
    FIVES,
    MAJEURES,
    PAWNS,
    SIZE,
    WINDOWS,
    LinotteState,
    Rules,
    combinations,
    majeures,
    window_points,
)
from .weights import FEATURES, WEIGHTS

BRELANS = tuple(str(f) for f in range(1, 7))
FIVES_OF_CELL = tuple(tuple(line for line in FIVES if c in line) for c in range(SIZE * SIZE))
SEARCH_PAWNS = 3  # the reply is searched once a player has this many pawns left or fewer
SEARCH_CELLS = 8  # and for this many placements at most (the time of a decision)


# --- the dice ------------------------------------------------------------------------


class DiceTables:
    """The 252 hands, the 210 keeps of 0 to 4 dice and where each keep's reroll leads."""

    def __init__(self):
        self.hands = list(combinations_with_replacement(range(1, 7), DICE))
        self.hand_index = {h: i for i, h in enumerate(self.hands)}
        self.keeps = [k for n in range(DICE) for k in combinations_with_replacement(range(1, 7), n)]
        self.keep_index = {k: i for i, k in enumerate(self.keeps)}
        self.reroll = []  # per keep: (the hands it reaches, their probabilities)
        for k in self.keeps:
            pairs = [(self.hand_index[tuple(sorted(k + f))], p)
                     for f, p in dice_rolls(DICE - len(k))]
            self.reroll.append((itemgetter(*[i for i, _ in pairs]), tuple(p for _, p in pairs)))
        self.hand_keeps = [tuple(self.keep_index[k] for k in sub_multisets(h, DICE - 1))
                           for h in self.hands]
        self._hand_keeps_get = [itemgetter(*ks) for ks in self.hand_keeps]
        self.kinds = [combinations(h) for h in self.hands]
        self.majeures = [majeures(h) for h in self.hands]
        self.first = tuple(p for _, p in dice_rolls(DICE))  # same order as the hands

    def expect(self, values):
        """For each keep: the expectation of `values` (per hand) after its reroll."""
        return [sum(map(mul, probs, get(values))) for get, probs in self.reroll]

    def expect_some(self, values, keeps):
        return {k: sum(map(mul, self.reroll[k][1], self.reroll[k][0](values))) for k in keeps}

    def better(self, stop, e):
        """Per hand: stopping there or its best keep, whichever is worth more."""
        out = []
        for s, get in zip(stop, self._hand_keeps_get):
            m = max(get(e))
            out.append(s if s >= m else m)
        return out


@lru_cache(maxsize=None)
def dice_tables() -> DiceTables:
    return DiceTables()


@lru_cache(maxsize=None)
def hit_chances(target: str) -> tuple[list[float], list[float]]:
    """For each keep, the best chance of showing `target` (a kind, or "defi": any majeure)
    by the end of the turn with one roll left after it, and with two."""
    t = dice_tables()
    hit = [1.0 if (bool(m) if target == DEFI else target in ks) else 0.0
           for ks, m in zip(t.kinds, t.majeures)]
    p1 = t.expect(hit)
    return p1, t.expect(t.better(hit, p1))


@lru_cache(maxsize=None)
def appel_keeps(defi: bool) -> dict[str, list[tuple[int, ...]]]:
    """For each appel and first hand: the keeps the rules leave (sec rule, no certainty)."""
    t = dice_tables()
    rules = Rules(defi=defi)
    out = {}
    for target in ((DEFI,) if defi else MAJEURES):
        per_hand = []
        for h, sec in zip(t.hands, t.majeures):
            state = LinotteState(rules=rules, rolls=1, dice=h, sec=sec, target=target)
            per_hand.append(tuple(t.keep_index[a.keep] for a in state.legal_actions()
                                  if isinstance(a, Roll)))
        out[target] = per_hand
    return out


@lru_cache(maxsize=None)
def appel_chances(defi: bool) -> dict[str, list[float]]:
    """For each appel and first hand: the chance of fulfilling it, keeping at best."""
    out = {}
    for target, per_hand in appel_keeps(defi).items():
        p2 = hit_chances(target)[1]
        out[target] = [max(p2[k] for k in ks) for ks in per_hand]
    return out


@lru_cache(maxsize=None)
def reach(defi: bool = False) -> dict[str, float]:
    """The chance of taking a cell of each kind in one turn, playing only for it."""
    t = dice_tables()
    out = {}
    for kind in BRELANS + MAJEURES:
        p2 = hit_chances(kind)[1]
        out[kind] = sum(p * max([1.0 if kind in ks else 0.0] + [p2[k] for k in keeps])
                        for p, ks, keeps in zip(t.first, t.kinds, t.hand_keeps))
    out["sec"] = sum(p for p, m in zip(t.first, t.majeures) if m)
    chances = appel_chances(defi)
    out["appel"] = sum(p * max(c[h] for c in chances.values()) for h, p in enumerate(t.first))
    return out


@lru_cache(maxsize=None)
def reach_cells(rules: Rules) -> tuple[float, ...]:
    r = reach(rules.defi)
    return tuple(r[k] for k in rules.cells)


def warm() -> None:
    """Build the tables the first decision needs (a page calls it while idle)."""
    for defi in (False, True):
        reach(defi)


# --- what a board is worth -----------------------------------------------------------


def _window_shapes():
    """For each owner pattern of a window's three cells: None (dead, or nobody), or the
    player alone in it and which of its places are free."""
    shapes = {}
    for x in (EMPTY, 0, 1):
        for y in (EMPTY, 0, 1):
            for z in (EMPTY, 0, 1):
                owners = {x, y, z} - {EMPTY}
                free = tuple(i for i, v in enumerate((x, y, z)) if v == EMPTY)
                shapes[x, y, z] = (owners.pop(), free) if len(owners) == 1 else None
    return shapes


_SHAPES = _window_shapes()


def features(board, mover: int, rules: Rules) -> list[float]:
    """The evaluation's inputs (`FEATURES` names them), for the player about to roll."""
    r = reach_cells(rules)
    pts = [0, 0]
    w2 = [0.0, 0.0]
    w1 = [0.0, 0.0]
    completes: list[dict[int, int]] = [{}, {}]
    shapes = _SHAPES
    for window in WINDOWS:
        a, b, c = window
        shape = shapes[board[a], board[b], board[c]]
        if shape is None:
            continue
        owner, free = shape
        if not free:
            pts[owner] += 1
        elif len(free) == 1:
            e = window[free[0]]
            w2[owner] += r[e]
            done = completes[owner]
            done[e] = done.get(e, 0) + 1
        else:
            w1[owner] += r[window[free[0]]] * r[window[free[1]]]
    t1 = [sum(r[e] for e in completes[p]) for p in (0, 1)]
    t2 = [sum(r[e] * (n - 1) for e, n in completes[p].items()) for p in (0, 1)]
    f4 = [0.0, 0.0]
    f3 = [0.0, 0.0]
    for line in FIVES:
        free = [x for x in line if board[x] == EMPTY]
        if len(free) in (1, 2):
            owners = {board[x] for x in line} - {EMPTY}
            if len(owners) == 1:
                p = owners.pop()
                if len(free) == 1:
                    f4[p] += r[free[0]]
                else:
                    f3[p] += r[free[0]] * r[free[1]]
    # A five ends the game under every rule set: it wins outright under Yam Master's, it
    # is worth the lead otherwise.
    five = [f4, f3] if rules.five_wins else [[0.0, 0.0], [0.0, 0.0]]
    plain = [[0.0, 0.0], [0.0, 0.0]] if rules.five_wins else [f4, f3]
    left = [(PAWNS - board.count(p)) / PAWNS for p in (0, 1)]
    s = min(left)
    m, o = mover, 1 - mover
    hot = sum(r[e] for e in completes[m] if e in completes[o])  # a cell both want
    room = sum(r[c] for c in range(len(board)) if board[c] == EMPTY) / len(board)
    return [
        1.0, float(rules.five_wins),
        pts[m], pts[o], w2[m], w2[o], w1[m], w1[o], t1[m], t1[o], t2[m], t2[o],
        left[m], left[o], five[0][m], five[0][o], five[1][m], five[1][o],
        s * pts[m], s * pts[o], s * w2[m], s * w2[o], s * w1[m], s * w1[o],
        s * t1[m], s * t1[o], s * t2[m], s * t2[o],
        hot, room, room * (left[m] - left[o]), (1 - s) ** 2 * (pts[m] - pts[o]),
        plain[0][m], plain[0][o], plain[1][m], plain[1][o],
        plain[0][m] * (pts[m] - pts[o]), plain[0][o] * (pts[m] - pts[o]),
    ]


assert len(FEATURES) == len(WEIGHTS) == 38


def value(board, mover: int, rules: Rules) -> float:
    """The chance that `mover`, about to roll, wins the game (a draw counting half)."""
    z = sum(map(mul, WEIGHTS, features(board, mover, rules)))
    if z < -30:
        return 0.0
    return 1.0 / (1.0 + exp(-z))


def placement_value(board, me: int, cell: int, rules: Rules) -> float:
    """What a pawn of `me` on `cell` is worth to `me`: the result if it ends the game,
    else one minus the opponent's value of the board he then rolls on."""
    after = board[:cell] + (me,) + board[cell + 1:]
    five = any(all(after[x] == me for x in line) for line in FIVES_OF_CELL[cell])
    if five and rules.five_wins:
        return 1.0
    if five or after.count(me) == PAWNS:
        points = window_points(after)
        return 1.0 if points[me] > points[1 - me] else 0.5 if points[me] == points[1 - me] else 0.0
    return 1.0 - value(after, 1 - me, rules)


# --- one turn: the values of its endings and the dice played for them -------------------


class Turn:
    """The mover's values at one board: of each placement and of passing, and the dice
    programmes that follow from them (built when first needed)."""

    def __init__(self, board, me: int, rules: Rules, searched: bool):
        self.board, self.me, self.rules = board, me, rules
        free = [c for c in range(len(board)) if board[c] == EMPTY]
        self.searched = searched
        self.cell = {c: placement_value(board, me, c, rules) for c in free}
        if searched:
            # The best few by the value alone, judged again by the reply (the others
            # keep their value: the reply moves a value by a few hundredths, no more).
            for c in sorted(self.cell, key=self.cell.get, reverse=True)[:SEARCH_CELLS]:
                self.cell[c] = self.reply_value(c)
            self.passing = 1.0 - opponent_turn(board, 1 - me, rules)
        else:
            self.passing = 1.0 - value(board, 1 - me, rules)
        self.kind: dict[str, float] = {}
        for c, v in self.cell.items():
            k = rules.cells[c]
            if v > self.kind.get(k, -1.0):
                self.kind[k] = v
        self._free: tuple | None = None
        self._appel: dict[str, tuple] = {}

    def reply_value(self, cell) -> float:
        """A pawn on `cell` judged by the opponent's whole next turn (or the game's end)."""
        me = self.me
        after = self.board[:cell] + (me,) + self.board[cell + 1:]
        if after.count(me) == PAWNS or any(all(after[x] == me for x in line)
                                           for line in FIVES_OF_CELL[cell]):
            return placement_value(self.board, me, cell, self.rules)  # the game's result
        return 1.0 - opponent_turn(after, 1 - me, self.rules)

    def stop_free(self) -> list[float]:
        t = dice_tables()
        kind, passing = self.kind, self.passing
        return [max([passing] + [kind[k] for k in ks if k in kind]) for ks in t.kinds]

    def free(self):
        """(e1, w1): each keep's value with one roll left after it; each hand's value with
        one roll left (stop or keep)."""
        if self._free is None:
            t = dice_tables()
            stop = self.stop_free()
            e1 = t.expect(stop)
            self._free = (e1, t.better(stop, e1))
        return self._free

    def appel_best(self, target: str) -> float:
        """A fulfilled appel's best cell (two-valued turns only: see `appel_programme`)."""
        best = self.kind.get("appel", -1.0)
        if self.rules.appel_own_cell and target != DEFI:
            best = max(best, self.kind.get(target, -1.0))
        return best

    def appel_programme(self, target: str):
        """(e1, w1) of the full programme, for *défi* with own cells (several values)."""
        if target not in self._appel:
            t = dice_tables()
            appel = self.kind.get("appel", -1.0)
            stop = []
            for shown in t.majeures:
                v = self.passing
                if shown:
                    v = max([v, appel] + [self.kind[k] for k in shown if k in self.kind])
                stop.append(v)
            e1 = t.expect(stop)
            self._appel[target] = (e1, t.better(stop, e1))
        return self._appel[target]

    def multi_valued(self, target: str) -> bool:
        return target == DEFI and self.rules.appel_own_cell

    def keep_values(self, target: str, keeps, rolls_left: int) -> dict[int, float]:
        """Each keep's value, `rolls_left` rolls of the turn still to come after it."""
        t = dice_tables()
        if not target:
            e1, w1 = self.free()
            return {k: e1[k] for k in keeps} if rolls_left == 1 else t.expect_some(w1, keeps)
        if self.multi_valued(target):
            e1, w1 = self.appel_programme(target)
            return {k: e1[k] for k in keeps} if rolls_left == 1 else t.expect_some(w1, keeps)
        gain = max(0.0, self.appel_best(target) - self.passing)
        p = hit_chances(target)[rolls_left - 1]
        return {k: self.passing + gain * p[k] for k in keeps}


def opponent_turn(board, mover: int, rules: Rules) -> float:
    """The value of `mover`'s whole turn at `board`, his dice played exactly for his own
    placements (each judged by `placement_value`), appels included."""
    turn = Turn(board, mover, rules, searched=False)
    t = dice_tables()
    _, w1 = turn.free()
    e2 = t.expect(w1)
    stop = turn.stop_free()
    sec = turn.kind.get("sec")
    appels = []
    for target, chances in appel_chances(rules.defi).items():
        best = turn.appel_best(target)
        if turn.multi_valued(target):  # an upper bound: the best own cell counts as shown
            best = max([best] + [turn.kind.get(k, -1.0) for k in MAJEURES])
        if best > turn.passing:
            appels.append((best - turn.passing, chances))
    total = 0.0
    for h, (p, v) in enumerate(zip(t.first, t.better(stop, e2))):
        if sec is not None and t.majeures[h] and sec > v:
            v = sec
        for gain, chances in appels:
            a = turn.passing + gain * chances[h]
            if a > v:
                v = a
        total += p * v
    return total


def needs_search(board, rules: Rules) -> bool:
    """The reply is worth searching: few pawns left, or a five one pawn away (it ends the
    game under every rule set)."""
    if min(PAWNS - board.count(0), PAWNS - board.count(1)) <= SEARCH_PAWNS:
        return True
    for line in FIVES:
        owners = [board[x] for x in line]
        if owners.count(EMPTY) == 1 and (owners.count(0) == 4 or owners.count(1) == 4):
            return True
    return False
