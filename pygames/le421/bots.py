"""Le 421's computer players, every level in one place.

Every level: `naive_bot` (*débutant*) rolls once and stops; `simple_bot` (*facile*) keeps the dice of a
421 or a fiche and stops on a good hand or on a hand that beats the round so far;
`expert_bot` (*expert*) plays the décharge by expectation of tokens shed (given away, minus received)
in the round:

* Two players, exactly.  The follower knows the hand it must beat (the leader's, and
  in how many throws); for every hand it may hold and throws used it compares stopping
  with each keep, by the expectation over the dice of the best it can do afterwards
  (`follower_values`, dynamic programming over the 56 hands and the throws left).  A
  tie goes to a rampo, which each side wins with probability 1/2 (both throw one hand
  from the same distribution, ties replayed), so a tie is worth exactly
  ½·(what the follower gives as best) − ½·(what it receives as worst).  The leader
  compares stopping (then the follower plays exactly as above) with each keep, over
  the throws he has left (`leader_values`).  All of it is cached per ruleset and per
  token caps (a value is capped by what the best hand's holder has), so a decision is
  a few table look-ups once the first one at a given pair of caps has run.
* More players, an approximation of the same idea.  A follower plays the same dynamic
  programme against the round so far: beating the strongest hand so far counts as
  being best (it sheds its own value), falling below the weakest hand so far counts as
  being worst (it receives the strongest hand's value from its holder), anything in
  between counts 0, and a tie at either end counts half.  Players still to throw are
  ignored.  The leader plays as in a two-player décharge against one follower holding
  as many tokens as the richest other player.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import itemgetter, mul
from typing import Sequence

from ..core import Action
from ..dice import Roll, rolls, sub_multisets
from .rules import DICE, THROWS, Le421State, Rules, Stop, _rank_index, hand_value, ranked_hands, sorted_hand


class NaiveBot:
    """*Débutant*: never keeps a die: one throw, then stop."""

    def __call__(self, state: Le421State) -> Action:
        return Roll() if state.throws == 0 else Stop()


def _strongest_so_far(state: Le421State, exclude: int) -> tuple | None:
    """Key (rank index, throws) of the strongest hand already made this round."""
    index = _rank_index(state.rules)
    keys = [(index[h.dice], h.throws) for p, h in enumerate(state.hands) if h is not None and p != exclude]
    return min(keys) if keys else None


def _weakest_so_far(state: Le421State, exclude: int) -> tuple | None:
    index = _rank_index(state.rules)
    keys = [(index[h.dice], h.throws) for p, h in enumerate(state.hands) if h is not None and p != exclude]
    return max(keys) if keys else None


class SimpleBot:
    """*Facile*: keeps what leads to a 421 or a fiche; stops on a hand worth 4 or more, or
    (after the leader) on a hand that beats every hand so far."""

    def __call__(self, state: Le421State) -> Action:
        return simple_choice(state)


def simple_choice(state: Le421State) -> Action:
    if state.throws == 0:
        return Roll()
    hand = sorted_hand(state.dice)
    rules = state.rules
    me = state.current_player()
    best = _strongest_so_far(state, me)
    index = _rank_index(rules)
    if hand_value(hand, rules) >= 4:
        return Stop()
    if best is not None and (index[hand], state.throws) < best:
        return Stop()
    ones = hand.count(1)
    if ones >= 2:
        keep = (1, 1)
    else:
        keep = tuple(sorted({d for d in hand if d in (1, 2, 4)}))
    return Roll(keep)


# The expert: exact expectations over the 56 hands (see the module docstring).


@dataclass(frozen=True)
class _Tables:
    """Per ruleset: hands by strength, their values, how each keep lands."""

    values: tuple[int, ...]  # by rank index
    first: tuple[float, ...]  # probability of each hand in one throw of three dice
    keeps: tuple[tuple[int, ...], ...]  # every keep (0 to 2 dice, ascending faces)
    lands: tuple[tuple[tuple[int, float], ...], ...]  # per keep: (hand index, probability)
    hand_keeps: tuple[tuple[int, ...], ...]  # per hand index: its keeps (indices)


@lru_cache(maxsize=None)
def _tables(rules: Rules) -> _Tables:
    hands = ranked_hands(rules)
    index = _rank_index(rules)
    keeps = tuple(k for size in range(DICE) for k in combinations_with_replacement(range(1, 7), size))
    keep_id = {k: i for i, k in enumerate(keeps)}
    lands = []
    for keep in keeps:
        dist: dict[int, float] = {}
        for faces, p in rolls(DICE - len(keep)):
            h = index[sorted_hand(keep + faces)]
            dist[h] = dist.get(h, 0.0) + p
        lands.append(tuple(sorted(dist.items())))
    first = [0.0] * len(hands)
    for h, p in lands[0]:
        first[h] = p
    hand_keeps = tuple(
        tuple(keep_id[k] for k in sub_multisets(tuple(sorted(h)), DICE - 1)) for h in hands
    )
    return _Tables(tuple(hand_value(h, rules) for h in hands), tuple(first), keeps,
                   tuple(lands), hand_keeps)


def _continuations(t: _Tables, after: Sequence[float]) -> list[float]:
    """For each keep: the expected value of `after` once the other dice land."""
    return [sum(p * after[h] for h, p in land) for land in t.lands]


@lru_cache(maxsize=200_000)
def follower_values(rules: Rules, best: tuple, worst: tuple, limit: int, cap_own: int, cap_best: int):
    """A follower's expected tokens shed, by throws used (1..limit) and hand index.

    `best` / `worst` are the (rank index, throws) keys of the strongest / weakest hands
    so far (the leader's, twice, in a two-player round); `cap_own` is what the follower
    holds, `cap_best` what the holder of `best` holds.  Returns (values, conts): values[j]
    per hand, conts[j] the expectation of each keep at throw j (None at the limit)."""
    t = _tables(rules)

    def stop_value(h: int, j: int) -> float:
        return _follower_stop(t, best, worst, h, j, cap_own, cap_best)

    n = len(t.values)
    values: list = [None] * (limit + 1)
    conts: list = [None] * (limit + 1)
    values[limit] = tuple(stop_value(h, limit) for h in range(n))
    for j in range(limit - 1, 0, -1):
        cont = _continuations(t, values[j + 1])
        conts[j] = tuple(cont)
        values[j] = tuple(
            max(stop_value(h, j), max(cont[k] for k in t.hand_keeps[h])) for h in range(n)
        )
    return tuple(values), tuple(conts)


def follower_expectation(rules: Rules, best: tuple, worst: tuple, limit: int, cap_own: int, cap_best: int) -> float:
    """Expected tokens shed by a follower who has not thrown yet."""
    values, _ = follower_values(rules, best, worst, limit, cap_own, cap_best)
    return sum(p * v for p, v in zip(_tables(rules).first, values[1]))


@lru_cache(maxsize=4096)
def leader_values(rules: Rules, cap_own: int, cap_other: int):
    """A two-player décharge leader's expected tokens shed, by throws used and hand.

    Stopping on hand r after k throws gives the follower the target (r, k); the leader
    sheds what the follower receives (zero-sum), so stop[k][r] is minus the follower's
    exact expectation.  Computing that for all 56 × 3 targets is the costly part, done
    once per ruleset and caps: the follower's last throw pays a threshold function of
    its rank (win above r, tie at r, loss below), so the expectation of each keep over
    it is read from prefix sums; only the follower's first throw of three needs a full
    pass over the hands.  Returns (stop, values, conts) indexed like follower_values."""
    t = _tables(rules)
    n = len(t.values)
    win = [min(v, cap_other) for v in t.values]  # what the follower sheds as best
    loss = [min(v, cap_own) for v in t.values]  # what it receives from a best hand r
    tie = [0.5 * win[r] - 0.5 * loss[r] for r in range(n)]
    lands = t.lands
    # Per keep, over the follower's hand index: P(h < r)·win summed, P(h = r), P(h > r).
    below_win, at, above = [], [], []
    for land in lands:
        dense = [0.0] * n
        for h, p in land:
            dense[h] = p
        acc_win, acc_p, bw, ab = 0.0, 0.0, [], []
        for r in range(n):
            bw.append(acc_win)
            acc_win += dense[r] * win[r]
            acc_p += dense[r]
            ab.append(1.0 - acc_p)
        below_win.append(bw)
        at.append(dense)
        above.append(ab)
    keep_range = range(len(lands))
    hand_keeps = t.hand_keeps
    first = t.first
    # itemgetters: a keep's outcomes, a hand's keeps (the inner loops of the 56 passes)
    land_get = [(itemgetter(*(h for h, _ in land)), tuple(p for _, p in land)) for land in lands]
    keeps_get = [itemgetter(*keeps) for keeps in hand_keeps]
    hands = range(n)
    stop = [None, [], [], []]
    for r in range(n):
        tie_r, loss_r = tie[r], loss[r]
        # The follower's expected shed on a throw that is his last (throws == k).
        last = [below_win[k][r] + at[k][r] * tie_r - above[k][r] * loss_r for k in keep_range]
        stop[1].append(-last[0])  # k = 1: one throw, nothing to decide
        # k = 2, the follower at throw 1 (equal hand in fewer throws wins: h <= r).
        v2 = [max(win[h] if h <= r else -loss_r, max(keeps_get[h](last))) for h in hands]
        stop[2].append(-sum(map(mul, first, v2)))
        # k = 3: throw 2 is as above (v2); throw 1 looks over v2 in full.
        cont = [sum(map(mul, probs, get(v2))) for get, probs in land_get]
        v1 = [max(win[h] if h <= r else -loss_r, max(keeps_get[h](cont))) for h in hands]
        stop[3].append(-sum(map(mul, first, v1)))
    stop = [None] + [tuple(s) for s in stop[1:]]
    values: list = [None] * (THROWS + 1)
    conts: list = [None] * (THROWS + 1)
    values[THROWS] = stop[THROWS]
    for j in range(THROWS - 1, 0, -1):
        cont = _continuations(t, values[j + 1])
        conts[j] = tuple(cont)
        values[j] = tuple(max(stop[j][h], max(cont[k] for k in hand_keeps[h])) for h in range(n))
    return tuple(stop), tuple(values), tuple(conts)


def _choose(t: _Tables, h: int, stop_value: float, cont: Sequence[float]) -> Action:
    """Stop unless a keep does strictly better (the first best keep otherwise)."""
    best_action: Action = Stop()
    best_value = stop_value
    for k in t.hand_keeps[h]:
        if cont[k] > best_value + 1e-12:
            best_action, best_value = Roll(t.keeps[k]), cont[k]
    return best_action


def expert_choice(state: Le421State) -> tuple[Action, dict]:
    """The expert's action and the expectation of each choice (for tests and advice)."""
    if state.throws == 0:
        return Roll(), {}
    rules = state.rules
    t = _tables(rules)
    me = state.current_player()
    h = _rank_index(rules)[sorted_hand(state.dice)]
    top = max(t.values)
    cap_own = min(state.tokens[me], top)
    if state.turn == 0:  # the leader
        others = [state.tokens[p] for p in state.round_order if p != me]
        stop, _values, conts = leader_values(rules, cap_own, min(max(others), top))
        stop_value, cont = stop[state.throws][h], conts[state.throws]
    else:
        best = _strongest_so_far(state, me)
        worst = _weakest_so_far(state, me)
        holder = next(p for p, hand in enumerate(state.hands)
                      if hand is not None and p != me
                      and (_rank_index(rules)[hand.dice], hand.throws) == best)
        cap_best = min(state.tokens[holder], top)
        _values, conts = follower_values(rules, best, worst, state.limit, cap_own, cap_best)
        stop_value = _follower_stop(t, best, worst, h, state.throws, cap_own, cap_best)
        cont = conts[state.throws]
    choices = {"stop": stop_value}
    for k in t.hand_keeps[h]:
        choices[Roll(t.keeps[k]).notation()] = cont[k]
    return _choose(t, h, stop_value, cont), choices


def _follower_stop(t: _Tables, best: tuple, worst: tuple, h: int, j: int, cap_own: int, cap_best: int) -> float:
    """A follower's tokens shed if he stops on hand `h` after `j` throws: his own value
    as best, minus the best hand's value as worst, half of each on a rampo's tie."""
    loss = min(t.values[best[0]], cap_best)
    win = min(t.values[h], cap_own)
    key = (h, j)
    if key < best:
        return win
    if key > worst:
        return -loss
    return (0.5 * win if key == best else 0.0) - (0.5 * loss if key == worst else 0.0)


class ExpertBot:
    """*Expert*: the décharge played by `expert_choice` (the charge and the rampos have
    nothing to decide)."""

    def __call__(self, state: Le421State) -> Action:
        if state.throws == 0 or not state.decharge or state.rampo:
            return Roll()
        return expert_choice(state)[0]
