"""The Jeu de la linotte's computer players, every level in one place: `SimpleBot`
(*facile*), `GreedyBot` (a benchmark opponent), `MediumBot` (*moyen*: the expert before
`pygames.linotte.search`) and `ExpertBot` (*expert*, its search in `pygames.linotte.search`).

The middle level plays in two layers.

1. **Where a pawn is worth putting.**  A player's points are the three-cell windows he
   fills alone (see `pygames.linotte`), so the board is judged window by window: a window
   I fill is a point; one holding m of my pawns and no opponent's is worth
   `WEIGHT[m] × reach(each empty cell)`, where `reach(cell)` is the chance of taking a
   cell of that kind in one turn when playing for it (computed exactly from the dice).
   The opponent's windows count against me the same way, a little more since he plays
   next.  The value of a placement is the change of that evaluation: it builds my lines
   and breaks the opponent's in one number.  A placement that ends the game (five in a
   row, the twelfth pawn) is judged by the result instead: won, drawn or lost; under the
   Yam Master rules a cell that blocks the opponent's five, or makes my own four of a
   five-line, weighs as much as the game it saves or threatens.  (The weights were tuned
   by seeded matches against the simple and greedy players; a cost per pawn placed made
   the expert far worse: pawns are a race, the game ends with the first twelfth pawn.)
2. **How to roll for it.**  With those values, the best a hand allows is known for each of
   the 252 hands; the exact expectation over every keep and every reroll (≤ 252 outcomes)
   then gives the best keep, the choice of stopping and placing, and whether to make an
   appel — one dynamic programme per announced majeure, with the sec reroll rule.
   That is about 10 k multiply-adds per programme, a few milliseconds in CPython.
   The programmes are cached for the turn.

The expert (`ExpertBot`) plays its dice exactly within the turn for a board value fitted
on self-play (`pygames.linotte.weights`), weighs every appel with the keeps the rules leave
it, and near the end judges its best placements by the opponent's whole reply (see
`pygames.linotte.search`).

`GreedyBot` takes the placement that gains the most points at once; `SimpleBot` takes
any cell the dice allow.  Both reroll towards their most frequent face and never call.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations_with_replacement

from ..core import Action
from ..dice import rolls as dice_rolls
from ..dice import sub_multisets
from . import search
from .rules import (
    DEFI,
    EMPTY,
    FIVES,
    MAJEURES,
    PAWNS,
    ROLLS,
    WINDOWS,
    WINDOWS_OF_CELL,
    Announce,
    LinotteState,
    Pass,
    Place,
    Roll,
    combinations,
    majeures,
    window_points,
)
from .search import Turn, appel_keeps, dice_tables, needs_search

# --- the simple players --------------------------------------------------------------


def _keep_most_frequent(state: LinotteState) -> Roll:
    """Keep the dice of the face shown most often (the higher face on a tie)."""
    dice = state.dice
    face = max(range(1, 7), key=lambda f: (dice.count(f), f))
    keep = (face,) * min(dice.count(face), 4)
    return Roll(keep)


class SimpleBot:
    """Places on a free cell the dice allow as soon as there is one; else rerolls all but
    its most frequent face; passes when the rolls are spent."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def __call__(self, state: LinotteState) -> Action:
        if state.rolls == 0:
            return Roll()
        cells = state.placeable_cells()
        if cells:
            return Place(self.choose(state, cells))
        if state.rolls < ROLLS:
            return _keep_most_frequent(state)
        return Pass()

    def choose(self, state: LinotteState, cells: list[int]) -> int:
        return self.rng.choice(cells)


class GreedyBot(SimpleBot):
    """Like the simple player, but takes the placement that scores the most points now."""

    def choose(self, state, cells):
        me = state.player
        gains = {c: window_points(state.board[:c] + (me,) + state.board[c + 1:])[me] for c in cells}
        best = max(gains.values())
        return self.rng.choice([c for c in cells if gains[c] == best])


# --- exact dice over keeps -------------------------------------------------------------


@lru_cache(maxsize=None)
def _tables():
    """Hands (252), keeps of 0-4 dice (210) and, for each keep, the hands its reroll
    reaches with their probabilities; for each hand its keeps and the cells it allows."""
    hands = [tuple(h) for h in combinations_with_replacement(range(1, 7), 5)]
    hand_index = {h: i for i, h in enumerate(hands)}
    keeps = [k for n in range(5) for k in combinations_with_replacement(range(1, 7), n)]
    keep_index = {k: i for i, k in enumerate(keeps)}
    outcomes = []
    for k in keeps:
        idx, probs = [], []
        for faces, p in dice_rolls(5 - len(k)):
            idx.append(hand_index[tuple(sorted(k + faces))])
            probs.append(p)
        outcomes.append((tuple(idx), tuple(probs)))
    hand_keeps = [tuple(keep_index[k] for k in sub_multisets(h, 4)) for h in hands]
    kinds = [combinations(h) for h in hands]
    first = [p for _, p in dice_rolls(5)]  # probability of each hand on a first roll
    return hands, hand_index, keeps, keep_index, outcomes, hand_keeps, kinds, first


def _expect(values, outcomes):
    """For each keep: the expected value of `values` (per hand) after the reroll."""
    return [sum(p * values[i] for i, p in zip(idx, probs)) for idx, probs in outcomes]


def programme(stop: list[float]):
    """The exact dynamic programme of a turn for `stop[hand]`, the value of ending there.

    Returns (e1, e2): e1[keep] is the expected value of keeping `keep` with one roll left
    after it, e2[keep] with two (the second roll then chosen at its best)."""
    _, _, _, _, outcomes, hand_keeps, _, _ = _tables()
    e1 = _expect(stop, outcomes)
    w1 = [max(s, max(e1[k] for k in ks)) for s, ks in zip(stop, hand_keeps)]
    return e1, _expect(w1, outcomes)


@lru_cache(maxsize=None)
def reach() -> dict[str, float]:
    """The chance of taking a cell of each kind in one turn, playing only for it."""
    hands, _, _, _, _, hand_keeps, kinds, first = _tables()
    out = {}
    for kind in [str(f) for f in range(1, 7)] + list(MAJEURES):
        stop = [1.0 if kind in ks else 0.0 for ks in kinds]
        e1, e2 = programme(stop)
        out[kind] = sum(p * max(stop[h], max(e2[k] for k in hand_keeps[h]))
                        for h, p in enumerate(first))
    out["sec"] = sum(p for h, p in zip(hands, first) if majeures(h))
    # An appel: after the first roll, the best majeure to call and the best keeps for it.
    appel = [0.0] * len(hands)
    for target in MAJEURES:
        stop = [1.0 if target in ks else 0.0 for ks in kinds]
        _, e2 = programme(stop)
        appel = [max(a, max(e2[k] for k in hand_keeps[h])) for h, a in enumerate(appel)]
    out["appel"] = sum(p * a for p, a in zip(first, appel))
    out[DEFI] = out["appel"]
    return out


# --- the middle level ------------------------------------------------------------------

WEIGHT = (0.03, 0.15, 0.5)  # a window with 0, 1, 2 pawns of one player and no other's
THREAT = 1.15  # the opponent moves next: his windows weigh a little more
PAWN_COST = 0.0  # a pawn kept for later (tried 0.15: far worse; -0.1: no better)
RESULT = 50.0  # a placement that ends the game: won +RESULT, lost -RESULT
HORIZON = 0  # turns left under which open windows fade (0: they never do; 6 was no better)


class MediumBot:
    def __init__(self, weights=WEIGHT, threat=THREAT, pawn_cost=PAWN_COST, horizon=HORIZON):
        self.weights, self.threat, self.pawn_cost = weights, threat, pawn_cost
        self.horizon = horizon
        self._cache: dict = {}

    # what a placement is worth

    def cell_values(self, state: LinotteState) -> list[float | None]:
        """The value for the player to move of a pawn on each cell (None: taken)."""
        board, me = state.board, state.player
        opp = 1 - me
        cells = state.rules.cells
        r = reach()
        acc = [r[k] for k in cells]
        weights, threat = self.weights, self.threat
        placed = state.pawns_placed()
        if self.horizon:
            # The game ends when either player runs out of pawns: windows far from full
            # are worth less when few turns are left to fill them.
            left = min(PAWNS - placed[0], PAWNS - placed[1])
            fade = min(1.0, left / self.horizon)
            weights = (weights[0] * fade * fade, weights[1] * fade, weights[2])
        five_wins = state.rules.five_wins
        points = window_points(board)
        values: list[float | None] = []
        for c in range(len(board)):
            if board[c] != EMPTY:
                values.append(None)
                continue
            delta = -self.pawn_cost
            gained = 0
            for w in WINDOWS_OF_CELL[c]:
                m = o = 0
                pa = 1.0
                for x in WINDOWS[w]:
                    if x == c:
                        continue
                    v = board[x]
                    if v == me:
                        m += 1
                    elif v == opp:
                        o += 1
                    else:
                        pa *= acc[x]
                if o == 0:
                    if m == 2:
                        gained += 1
                        delta += 1.0 - weights[2] * acc[c]
                    else:
                        delta += (weights[m + 1] - weights[m] * acc[c]) * pa
                if m == 0:
                    delta += threat * weights[o] * pa * acc[c]
            if five_wins:
                delta += self._five_threats(board, c, me, acc)
            five = gained and five_wins and self._makes_five(board, c, me)
            ends = placed[me] + 1 == PAWNS or self._makes_five(board, c, me)
            if ends:
                if five:
                    delta = RESULT
                else:
                    diff = points[me] + gained - points[opp]
                    delta = RESULT * ((diff > 0) - (diff < 0)) + diff
            values.append(delta)
        return values

    @staticmethod
    def _five_threats(board, c, me, acc) -> float:
        """Yam Master: four of a five-line with its last cell free threaten the game."""
        value = 0.0
        for line in FIVES:
            if c not in line:
                continue
            owners = [board[x] for x in line if x != c]
            free = [x for x in line if x != c and board[x] == EMPTY]
            if owners.count(1 - me) == 4:
                value += RESULT * acc[c]  # blocks the opponent's five
            elif owners.count(me) == 3 and len(free) == 1:
                value += 0.5 * RESULT * acc[free[0]]  # makes my own four
        return value

    @staticmethod
    def _makes_five(board, c, me) -> bool:
        return any(all(board[x] == me or x == c for x in line) for line in FIVES if c in line)

    # the turn's programmes

    def _plan(self, state: LinotteState):
        """Per board: cell values, value per kind, and the programmes (lazily per target)."""
        key = (state.board, state.player, state.rules)
        plan = self._cache.get(key)
        if plan is None:
            values = self.cell_values(state)
            best_kind: dict[str, tuple[float, int]] = {}
            for c, v in enumerate(values):
                if v is not None:
                    kind = state.rules.cells[c]
                    if kind not in best_kind or v > best_kind[kind][0]:
                        best_kind[kind] = (v, c)
            plan = {"values": values, "kind": best_kind}
            self._cache = {key: plan}  # one board at a time
        return plan

    def _stop(self, plan, state: LinotteState, target: str) -> list[float]:
        """stop[hand]: the value of ending the turn with that hand (0: nothing placed)."""
        if ("stop", target) in plan:
            return plan[("stop", target)]
        _, _, _, _, _, _, kinds, _ = _tables()
        best = {k: v for k, (v, _) in plan["kind"].items()}
        if not target:
            stop = [max([0.0] + [best[k] for k in ks if k in best]) for ks in kinds]
        else:
            appel = best.get("appel")
            stop = []
            for ks in kinds:
                shown = [k for k in ks if k in MAJEURES]
                ok = bool(shown) if target == DEFI else target in shown
                value = 0.0
                if ok:
                    options = [appel] if appel is not None else []
                    if state.rules.appel_own_cell:
                        own = shown if target == DEFI else [target]
                        options += [best[k] for k in own if k in best]
                    value = max([0.0] + [v for v in options if v is not None])
                stop.append(value)
        plan[("stop", target)] = stop
        return stop

    def _programme(self, plan, state, target):
        if ("dp", target) not in plan:
            plan[("dp", target)] = programme(self._stop(plan, state, target))
        return plan[("dp", target)]

    def _first_stop(self, plan, state) -> float:
        """Stopping on the first roll: the hand's cells, or a sec cell."""
        value = self._stop(plan, state, "")[self._hand(state)]
        if state.sec and "sec" in plan["kind"]:
            value = max(value, plan["kind"]["sec"][0])
        return value

    @staticmethod
    def _hand(state) -> int:
        return _tables()[1][tuple(sorted(state.dice))]

    def _best_keep(self, state, expect) -> tuple[float, Roll | None]:
        keep_index = _tables()[3]
        best, choice = float("-inf"), None
        for action in state.legal_actions():
            if isinstance(action, Roll):
                value = expect[keep_index[action.keep]]
                if value > best + 1e-12:
                    best, choice = value, action
        return best, choice

    def _place_best(self, state, plan) -> Action:
        values = plan["values"]
        cells = state.placeable_cells()
        if cells:
            cell = max(cells, key=lambda c: values[c])
            if values[cell] > 0:
                return Place(cell)
        return Pass()

    def __call__(self, state: LinotteState) -> Action:
        if state.rolls == 0:
            return Roll()
        plan = self._plan(state)
        target = state.target
        if state.rolls == 1:
            if target:  # announced: the best keep for the appel (the sec rule filters keeps)
                _, e2 = self._programme(plan, state, target)
                return self._best_keep(state, e2)[1]
            stop_value = self._first_stop(plan, state)
            _, e2 = self._programme(plan, state, "")
            best_value, best = self._best_keep(state, e2)
            if stop_value >= best_value:
                best_value, best = stop_value, None
            for appel in state.appel_targets():
                _, ea = self._programme(plan, state, appel)
                value, keep = self._best_keep(state.apply(Announce(appel)), ea)
                if keep is not None and value > best_value + 1e-9:
                    best_value, best = value, Announce(appel)
            return best if best is not None else self._place_best(state, plan)
        stop = self._stop(plan, state, target)
        if state.rolls < ROLLS:
            e1, _ = self._programme(plan, state, target)
            value, keep = self._best_keep(state, e1)
            if keep is not None and value > stop[self._hand(state)] + 1e-12:
                return keep
        return self._place_best(state, plan)


# --- the expert ----------------------------------------------------------------------


class ExpertBot:
    """The expert: `bot(state)` returns its action (`search=False`: never the reply)."""

    def __init__(self, search: bool = True):
        self.search = search
        self._turn: tuple | None = None

    def turn(self, state: LinotteState) -> Turn:
        key = (state.board, state.player, state.rules)
        if self._turn is None or self._turn[0] != key:
            searched = self.search and needs_search(state.board, state.rules)
            self._turn = (key, Turn(state.board, state.player, state.rules, searched))
        return self._turn[1]

    def __call__(self, state: LinotteState) -> Action:
        if state.rolls == 0:
            return Roll()
        turn = self.turn(state)
        t = dice_tables()
        stop_value, stop_action = self._ending(state, turn)
        if state.rolls >= ROLLS:
            return stop_action
        keeps = {t.keep_index[a.keep]: a for a in state.legal_actions() if isinstance(a, Roll)}
        rolls_left = ROLLS - state.rolls
        if state.target and state.rolls == 1:  # just announced: the appel's best keep
            values = turn.keep_values(state.target, keeps, rolls_left)
            return keeps[max(values, key=values.get)]
        best_value, best = stop_value, stop_action
        if keeps:
            values = turn.keep_values(state.target, keeps, rolls_left)
            k = max(values, key=values.get)
            if values[k] > best_value + 1e-12:
                best_value, best = values[k], keeps[k]
        if state.rolls == 1 and not state.target:
            hand = t.hand_index[tuple(sorted(state.dice))]
            for target in state.appel_targets():
                if not turn.multi_valued(target) and turn.appel_best(target) <= turn.passing:
                    continue  # no appel cell worth more than passing
                allowed = appel_keeps(state.rules.defi)[target][hand]
                values = turn.keep_values(target, allowed, rolls_left)
                if values and max(values.values()) > best_value + 1e-9:
                    best_value, best = max(values.values()), Announce(target)
        return best

    @staticmethod
    def _ending(state: LinotteState, turn: Turn) -> tuple[float, Action]:
        """The best way to end the turn now: a placement, or passing."""
        best_value, best = turn.passing, Pass()
        for c in state.placeable_cells():
            if turn.cell[c] > best_value:
                best_value, best = turn.cell[c], Place(c)
        return best_value, best


def warm(seats) -> None:
    """Build the dice tables the first decision of these seats needs (a page calls it while
    idle)."""
    if "expert" in seats:
        search.warm()
    if "medium" in seats:
        reach()
