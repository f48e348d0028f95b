"""Le 421's computer players, every level in one place, and the advisor.

`NaiveBot` (*débutant*) rolls once and stops; `SimpleBot` (*facile*) keeps the dice of
a 421 or a fiche and stops on a good hand or on a hand that beats the round so far;
`ExpertBot` (*expert*) plays to win the game: in a two-player décharge (or when two are
left) it maximises its probability of winning, exactly, from the solved table of
`pygames.le421.tables` (see the comment above `TIE`); with three players or more it
plays the round approximation, `RoundBot`: the expected tokens shed (given away, minus
received) in the round:

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

`advise` gives the player to move every choice with its probability of winning (two
players) or its expected tokens shed (three or more, flagged as not exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from operator import itemgetter, mul
from typing import Sequence

from ..core import Action, Advice, Choice, GameError
from ..dice import Roll, rolls, sub_multisets
from .rules import DICE, THROWS, Le421State, Rules, Stop, _rank_index, hand_value, ranked_hands, sorted_hand
from .tables import WinTables


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


def _prefix_sums(t: _Tables, pay: Sequence[float]):
    """Per keep, over the follower's hand index r: the sum of p·pay over the hands h < r
    it lands on (stronger than r), the probability p of landing on r, and P(h > r)."""
    n = len(t.values)
    below, at, above = [], [], []
    for land in t.lands:
        dense = [0.0] * n
        for h, p in land:
            dense[h] = p
        acc, acc_p, b, a = 0.0, 0.0, [], []
        for r in range(n):
            b.append(acc)
            acc += dense[r] * pay[r]
            acc_p += dense[r]
            a.append(1.0 - acc_p)
        below.append(b)
        at.append(dense)
        above.append(a)
    return below, at, above


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
    below_win, at, above = _prefix_sums(t, win)
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


class RoundBot:
    """The round approximation (`expert_choice`: the expected tokens shed in the round);
    the *expert* plays it with three players or more, and was the expert before it played
    to win the game (the charge and the rampos have nothing to decide)."""

    def __call__(self, state: Le421State) -> Action:
        if state.throws == 0 or not state.decharge or state.rampo:
            return Roll()
        return expert_choice(state)[0]


# The expert that plays to win the game, from the solved table (pygames.le421.tables).
#
# The table holds V[x], the leader's chance of winning the game at the start of a
# two-player décharge round where he holds x tokens.  A round then ends in one of three
# ways.  The best hand gives m = min(its value, the tokens its holder has) to the worst:
# if that was all his tokens its holder has won, otherwise the receiver leads the next
# round with his tokens plus m, worth V of that to him (`WinTables.payoffs`).  The same
# hand in the same number of throws is a rampo, won by either side with probability 1/2,
# so it is worth half of each outcome.  The follower knows the leader's hand r and
# throws k: he maximises his chance over the throws he has left (`_follower`).  The
# leader compares stopping on r after k throws, worth one minus the follower's best,
# with each keep (`_leader`: the 56 × 3 stops are the costly part, 6 to 15 ms in
# CPython, computed once per leader's tokens).

TIE = 1e-12  # a keep must beat stopping (or an earlier keep) by more than this


def _stop_before_last(fw, fl, r: int, h: int) -> float:
    """The follower's chance if he stops on hand h before his last throw: an equal hand
    in fewer throws is stronger, so h beats r as soon as it is not weaker."""
    return fw[h] if h <= r else fl[r]


def _follower(rules: Rules, fw, fl, r: int, k: int):
    """(start, conts) of a follower against hand r in k throws: his chance before his
    first throw, and conts[j][c] that of keep c at throw j."""
    t = _tables(rules)
    n = len(t.values)
    tie = 0.5 * (fw[r] + fl[r])
    values = [fw[h] if h < r else tie if h == r else fl[r] for h in range(n)]  # his last throw
    conts: list = [None] * k
    for j in range(k - 1, 0, -1):
        cont = _continuations(t, values)
        conts[j] = cont
        values = [max(_stop_before_last(fw, fl, r, h), max(cont[c] for c in t.hand_keeps[h]))
                  for h in range(n)]
    start = sum(p * v for p, v in zip(t.first, values))
    return start, tuple(conts)


@lru_cache(maxsize=None)
def _getters(rules: Rules):
    """Per hand, its keeps' values out of a list over keeps; per keep, the values of the
    hands it can land on and their probabilities (the inner loops of `_leader`)."""
    t = _tables(rules)
    keeps = tuple(itemgetter(*k) for k in t.hand_keeps)
    lands = tuple((itemgetter(*(h for h, _ in land)), tuple(p for _, p in land)) for land in t.lands)
    return keeps, lands


def _leader(rules: Rules, fw, fl):
    """(stop, conts, start) of a leader: stop[k][r] his chance if he stops on hand r after
    k throws, conts[j][c] that of keep c at throw j, start his chance before his first
    throw (V[x] again, as V solves the round).  As `leader_values`, for chances of
    winning the game: the follower's last throw pays a threshold function of his hand, so
    each keep's expectation over it comes from prefix sums."""
    t = _tables(rules)
    n = len(t.values)
    keeps_of, lands_of = _getters(rules)
    tie = [0.5 * (fw[r] + fl[r]) for r in range(n)]
    below, at, above = _prefix_sums(t, fw)
    keeps = range(len(t.lands))
    first = t.first
    stop: list = [None, [], [], []]
    for r in range(n):
        fl_r, tie_r = fl[r], tie[r]
        last = [below[c][r] + at[c][r] * tie_r + above[c][r] * fl_r for c in keeps]
        stop[1].append(1.0 - last[0])  # one throw: the empty keep is a full throw
        # Before his last throw an equal hand already beats r: fw up to r, fl_r below.
        best = [max(get(last)) for get in keeps_of]
        v2 = [max(a, b) for a, b in zip(fw[: r + 1], best)] + [max(fl_r, b) for b in best[r + 1 :]]
        stop[2].append(1.0 - sum(map(mul, first, v2)))
        cont = [sum(map(mul, probs, get(v2))) for get, probs in lands_of]
        best = [max(get(cont)) for get in keeps_of]
        v1 = [max(a, b) for a, b in zip(fw[: r + 1], best)] + [max(fl_r, b) for b in best[r + 1 :]]
        stop[3].append(1.0 - sum(map(mul, first, v1)))
    values = stop[THROWS]
    conts: list = [None] * THROWS
    for j in range(THROWS - 1, 0, -1):
        cont = _continuations(t, values)
        conts[j] = cont
        values = [max(stop[j][h], max(get(cont))) for h, get in enumerate(keeps_of)]
    start = sum(map(mul, first, values))
    return (None, *map(tuple, stop[1:])), tuple(conts), start


def leader(tables: WinTables, x: int):
    """`_leader` of a leader holding x tokens, computed once per table."""
    if x not in tables.leaders:
        tables.leaders[x] = _leader(tables.rules, *tables.payoffs(x))
    return tables.leaders[x]


def follower(tables: WinTables, x: int, r: int, k: int):
    """`_follower` against hand r in k throws, the leader holding x tokens, computed once."""
    key = (x, r, k)
    if key not in tables.followers:
        tables.followers[key] = _follower(tables.rules, *tables.payoffs(x), r, k)
    return tables.followers[key]


def two_players(state: Le421State) -> bool:
    """A décharge round between two players: where the solution is exact (with two
    players left of more, the others hold no token: theirs is the same décharge)."""
    return state.decharge and len(state.round_order) == 2


def _best(values) -> int:
    """The index of the choice to play among stop (first) and the keeps: stop unless a
    keep does better by more than TIE, the first best keep otherwise."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best] + TIE:
            best = i
    return best


def _check(state: Le421State, tables: WinTables | None) -> WinTables:
    if tables is None:
        raise GameError("421.error.expert_needs_tables")
    if tables.rules != state.rules:
        raise GameError("tables.wrong_rules", name=tables.name)
    return tables


def _decision(state: Le421State, tables: WinTables):
    """In a two-player décharge: the mover's chance of winning if he has not thrown yet,
    else (his hand's index, the value of stopping, the value of each keep)."""
    index = _rank_index(state.rules)
    x = state.tokens[state.leader]
    if state.turn == 0:  # the leader
        if state.throws == 0:
            return tables.value(x)
        stop, conts, _ = leader(tables, x)
        h = index[sorted_hand(state.dice)]
        return h, stop[state.throws][h], conts[state.throws]
    lead = state.hands[state.leader]
    r, k = index[lead.dice], lead.throws
    start, conts = follower(tables, x, r, k)
    if state.throws == 0:
        return start
    h = index[sorted_hand(state.dice)]
    fw, fl = tables.payoffs(x)
    return h, _stop_before_last(fw, fl, r, h), conts[state.throws]


def _deciding(state) -> bool:
    """A décharge hand the mover may stop or keep (the charge and rampos throw once)."""
    return (isinstance(state, Le421State) and state.current_player() >= 0 and state.decharge
            and not state.rampo)


def _ranked(choices: list) -> tuple[Choice, ...]:
    """The choice `_best` picks first (stop on a tie), the others by value."""
    best = _best([c.value for c in choices])
    rest = sorted(choices[:best] + choices[best + 1 :], key=lambda c: -c.value)
    return (choices[best], *rest)


def advise(state: Le421State, tables: WinTables | None) -> Advice:
    """The choices of the player to move, best first, with what each is worth.

    In a two-player décharge: stop and every keep, each with his probability of winning
    the game (``measure="win"``, exact: what the expert plays by); before his first throw,
    the throw alone with his chance.  With three players or more: the same choices valued
    by the round approximation (``"tokens"``: expected tokens shed in the round), not
    exact, and no table needed.  The charge and the rampos have no decision: no choice."""
    if not _deciding(state):
        return Advice((), "win", True)
    t = _tables(state.rules)
    if not two_players(state):
        if state.throws == 0:
            return Advice((), "tokens", False)
        action, values = expert_choice(state)
        actions = {a.notation(): a for a in (Stop(), *(Roll(k) for k in t.keeps))}
        choices = [Choice(actions[n], v) for n, v in values.items()]
        best = next(c for c in choices if c.action == action)
        rest = sorted((c for c in choices if c is not best), key=lambda c: -c.value)
        return Advice((best, *rest), "tokens", False)
    found = _decision(state, _check(state, tables))
    if not isinstance(found, tuple):
        return Advice((Choice(Roll(), found),), "win")
    h, stop_value, cont = found
    choices = [Choice(Stop(), stop_value)] + [Choice(Roll(t.keeps[c]), cont[c]) for c in t.hand_keeps[h]]
    return Advice(_ranked(choices), "win")


class ExpertBot:
    """*Expert*: plays to win the game.  In a two-player décharge it plays the first of
    `advise`'s choices (the same comparison, without building them all); with three
    players or more the round approximation (`RoundBot`); it throws where there is
    nothing to decide.  `tables`: the option set's `WinTables`."""

    def __init__(self, tables: WinTables | None = None):
        self.tables = tables

    def __call__(self, state: Le421State) -> Action:
        if state.throws == 0 or not state.decharge or state.rampo:
            return Roll()
        if not two_players(state):
            return expert_choice(state)[0]
        h, stop_value, cont = _decision(state, _check(state, self.tables))
        t = _tables(state.rules)
        keeps = t.hand_keeps[h]
        best = _best([stop_value, *(cont[c] for c in keeps)])
        return Stop() if best == 0 else Roll(t.keeps[keeps[best - 1]])
