"""Le 421 for two players, solved for the probability of winning the game, and the exact
evaluation of any two computer players against each other (numpy, build time; the page
reads the table in pure Python, `pygames.le421.tables`, and plays it with
`pygames.le421.bots`).

``V[x]`` is the probability that the leader of a décharge round holding ``x`` tokens (the
other player holds ``pot - x``) wins the game, both playing to win.  One round, given
``V``, is solved backwards as `pygames.le421.bots` explains (the follower against each of
the leader's 56 × 3 possible stops, then the leader); the round's outcomes lead to rounds
whose leader holds more or fewer tokens, so the game has cycles and ``V`` is found by
value iteration: sweeps of that round solution for every ``x`` at once, from ``V = 1/2``,
until no value moves by more than ``TOL`` (about 50 sweeps for a pot of 21, 140 for 41).
In pure Python a sweep costs a round solution per ``x`` (6 to 15 ms each): 5 to 15 s in
all for a pot of 21 (47 sweeps), far more for 41, hence the table.

The evaluation (`win_rate`) plays no dice.  It asks each bot, through its own code, for
its decision in every décharge situation (the leader's tokens, his hand and throws; for
the follower also the leader's hand and throws), computes from those decisions the exact
law of each round's outcome, solves the linear system of the décharge's positions (A's
tokens, who leads), and weighs them by the exact law of the charge's end (both players
throw one hand per round, no decision: the player who starts does not matter).
"""

from __future__ import annotations

import time

from ..core import Player, replace
from .bots import ExpertBot, RoundBot, SimpleBot, _tables
from .rules import GAMES, Hand, Le421State, Rules, Stop, ranked_hands
from .tables import encode_table, load_tables, options_of

TOL = 1e-15
MAX_SWEEPS = 100_000
GAME = GAMES[0]


# --- the round and the game, as arrays --------------------------------------------------


class Model:
    """One option set's hands as arrays: values, the law of a first throw, each keep's
    law (``L[c, h]``) and each hand's keeps (``idx[h]``, padded with its first keep)."""

    def __init__(self, np, rules: Rules):
        t = _tables(rules)
        self.rules, self.pot = rules, rules.pot
        self.n = n = len(t.values)
        self.values = np.array(t.values)
        self.first = np.array(t.first)
        self.L = np.zeros((len(t.lands), n))
        for c, land in enumerate(t.lands):
            for h, p in land:
                self.L[c, h] = p
        width = max(len(k) for k in t.hand_keeps)
        self.idx = np.array([list(k) + [k[0]] * (width - len(k)) for k in t.hand_keeps])
        self.keep_id = {k: i for i, k in enumerate(t.keeps)}
        self.hand_keeps = t.hand_keeps
        h = np.arange(n)
        self.stronger = h[None, :] < h[:, None]  # [r, h]: hand h beats hand r
        self.same = h[None, :] == h[:, None]


def payoffs(np, m: Model, V):
    """The follower's chance of winning, per leader's tokens x = 1 .. pot - 1 (rows) and
    hand index: fw when his hand is best, fl when the leader's hand is."""
    P = m.pot
    x = np.arange(1, P)[:, None]
    y = P - x
    Vp = np.concatenate([[0.0], V, [0.0]])  # Vp[t]: V at t tokens (the ends never read)
    given = np.minimum(m.values[None, :], y)
    taken = np.minimum(m.values[None, :], x)
    fw = np.where(given == y, 1.0, 1.0 - Vp[np.minimum(x + given, P)])
    fl = np.where(taken == x, 0.0, Vp[np.minimum(y + taken, P)])
    return fw, fl


def bellman(np, m: Model, V):
    """One sweep: V[x] from one round solved backwards, for every x at once."""
    fw, fl = payoffs(np, m, V)
    tie = 0.5 * (fw + fl)
    # The follower's stop against every target r (axis 1), by his hand h (axis 2).
    last = np.where(m.stronger[None], fw[:, None, :], np.where(m.same[None], tie[:, :, None], fl[:, :, None]))
    early = np.where((m.stronger | m.same)[None], fw[:, None, :], fl[:, :, None])

    def throw(after, stop):
        """The best of stopping and each keep, the next throw worth `after`."""
        cont = after @ m.L.T
        return np.maximum(stop, cont[..., m.idx].max(-1))

    f2 = throw(last, early)  # the follower at his first of two throws, or second of three
    f3 = throw(f2, early)  # at his first of three
    stop = 1.0 - np.stack([last @ m.first, f2 @ m.first, f3 @ m.first], 1)  # [x, k - 1, r]
    g = throw(throw(stop[:, 2], stop[:, 1]), stop[:, 0])
    return g @ m.first


def solve_values(np, rules: Rules, tol: float = TOL):
    """V by value iteration: (V, sweeps, last change, seconds)."""
    m = Model(np, rules)
    V = np.full(rules.pot - 1, 0.5)
    start = time.perf_counter()
    for sweep in range(1, MAX_SWEEPS + 1):
        new = bellman(np, m, V)
        change = float(np.abs(new - V).max())
        V = new
        if change <= tol:
            break
    else:
        raise RuntimeError(f"no convergence after {MAX_SWEEPS} sweeps")
    return V, sweep, change, time.perf_counter() - start


def build_table(rules: Rules) -> tuple[bytes, dict]:
    import numpy as np

    V, sweeps, change, seconds = solve_values(np, rules)
    residual = float(np.abs(bellman(np, Model(np, rules), V) - V).max())
    info = {"sweeps": sweeps, "tol": TOL, "residual": residual}
    data = encode_table(rules, V.tolist(), info)
    return data, {**info, "seconds": seconds, "values": V, "name": load_tables(data).name}


# --- any two bots, evaluated exactly ------------------------------------------------------


def decharge_state(rules: Rules, x: int) -> Le421State:
    """A two-player décharge round about to start, player 0 leading with x tokens."""
    return GAME.new_state([Player("A"), Player("B")], options_of(rules),
                          {"pot": 0, "tokens": [x, rules.pot - x], "leader": 0})


def policy(np, m: Model, bot) -> tuple:
    """A bot's decision in every two-player décharge situation, asked of the bot itself:
    lead[x, j, h] (the leader at throw j with hand h) and follow[x, k, j, r, h] (the
    follower at throw j < k against the leader's hand r in k throws); -1 is stop, else
    the keep's index.  Also the number of situations asked."""
    P, n = m.pot, m.n
    hands = ranked_hands(m.rules)
    lead = np.full((P, 3, n), -1, dtype=np.int16)
    follow = np.full((P, 4, 3, n, n), -1, dtype=np.int16)
    asked = 0

    def ask(state, h):
        action = bot(state)
        if isinstance(action, Stop):
            return -1
        c = m.keep_id[action.keep]
        assert c in m.hand_keeps[h], (state, action)
        return c

    for x in range(1, P):
        base = decharge_state(m.rules, x)
        for j in (1, 2):
            for h in range(n):
                lead[x, j, h] = ask(replace(base, throws=j, dice=hands[h]), h)
                asked += 1
        for k in (2, 3):
            for r in range(n):
                facing = replace(base, hands=(Hand(hands[r], k), None), turn=1, limit=k)
                for j in range(1, k):
                    for h in range(n):
                        follow[x, k, j, r, h] = ask(replace(facing, throws=j, dice=hands[h]), h)
                        asked += 1
    return lead, follow, asked


def _moves(np, m: Model, d, act):
    """Where the mass d (over hands, any leading axes) goes under decisions act: (what
    stops here, the law of the next throw)."""
    stops = act < 0
    rolled = m.L[np.where(stops, 0, act)] * (d * ~stops)[..., None]
    return d * stops, rolled.sum(-2)


def round_law(np, m: Model, lead, follow, x: int):
    """The exact law of a round's outcome, the leader holding x tokens: (leader gives t,
    follower gives t) as two arrays indexed by t."""
    n, y = m.n, m.pot - x
    stopped = np.zeros((4, n))  # the leader's hand r after k throws
    d = m.first.copy()
    for j in (1, 2):
        stopped[j], d = _moves(np, m, d, lead[x, j])
    stopped[3] = d
    top = int(m.values.max())
    leader_gives, follower_gives = np.zeros(top + 1), np.zeros(top + 1)
    given = np.minimum(m.values, y).astype(int)  # by the follower's hand
    taken = np.minimum(m.values, x).astype(int)  # by the leader's hand
    for k in (1, 2, 3):
        D = np.tile(m.first, (n, 1))  # [r, h]: the follower's hand against each target
        for j in range(1, k + 1):
            if j < k:
                ends, D = _moves(np, m, D, follow[x, k, j])
            else:
                ends = D
            w = ends * stopped[k][:, None]  # weighted by the leader's stop
            if j < k:
                best, tie = m.stronger | m.same, np.zeros_like(m.same)
            else:
                best, tie = m.stronger, m.same
            np.add.at(follower_gives, np.broadcast_to(given[None, :], (n, n)), w * best + 0.5 * w * tie)
            lost = w * ~(best | tie) + 0.5 * w * tie
            np.add.at(leader_gives, taken, lost.sum(1))
    return leader_gives, follower_gives


def charge_law(np, m: Model) -> dict:
    """The law of the charge's end: (A's tokens, whether A takes last) -> probability.
    Each round the worse of two hands takes the better hand's value (what is left of it);
    a tie is thrown again (a rampo) for the same value, so each player takes with
    probability 1/2 and the value's law is that of the better of two hands."""
    P, n = m.pot, m.n
    at_least = np.concatenate([np.cumsum(m.first[::-1])[::-1], [0.0]])  # P(index >= h)
    best = at_least[:n] ** 2 - at_least[1:] ** 2  # P(the better hand is h)
    law: dict = {}
    for h in range(n):
        v = int(m.values[h])
        law[v] = law.get(v, 0.0) + float(best[h])
    ends: dict = {}
    states = {(P, 0): 1.0}  # (pot, A's tokens)
    while states:
        nxt: dict = {}
        for (pot, a), p in states.items():
            for v, q in law.items():
                take = min(v, pot)
                for a_takes in (True, False):
                    a2 = a + take if a_takes else a
                    key = (pot - take, a2)
                    w = p * q * 0.5
                    if pot == take:
                        ends[(a2, a_takes)] = ends.get((a2, a_takes), 0.0) + w
                    else:
                        nxt[key] = nxt.get(key, 0.0) + w
        states = nxt
    return ends


def decharge_wins(np, m: Model, pa, pb):
    """P(A wins) from every décharge position: W[a, 0] when A leads with a tokens,
    W[a, 1] when B leads (A holding a), A playing policy pa and B pb."""
    P = m.pot
    N = 2 * (P - 1)

    def at(a, leader):
        return 2 * (a - 1) + leader

    M, b = np.zeros((N, N)), np.zeros(N)

    def a_gives(s, a, law):
        """From state s, A (holding a) gives t tokens with probability law[t]: B leads
        next, or A gave his last token and has won."""
        for t, p in enumerate(law):
            if p and t == a:
                b[s] += p
            elif p:
                M[s, at(a - t, 1)] += p

    def b_gives(s, a, law):
        """From state s, B (holding P - a) gives t tokens: A leads next, unless B gave
        his last token (B has won: A's chance is 0)."""
        for t, p in enumerate(law):
            if p and t < P - a:
                M[s, at(a + t, 0)] += p

    for a in range(1, P):
        # A leads with x = a: A's leader decisions, B's as follower.
        gives_l, gives_f = round_law(np, m, pa[0], pb[1], a)
        a_gives(at(a, 0), a, gives_l)
        b_gives(at(a, 0), a, gives_f)
        # B leads with x = P - a.
        gives_l, gives_f = round_law(np, m, pb[0], pa[1], P - a)
        b_gives(at(a, 1), a, gives_l)
        a_gives(at(a, 1), a, gives_f)
    W = np.linalg.solve(np.eye(N) - M, b)
    return W.reshape(P - 1, 2)


def win_rate(np, m: Model, pa, pb) -> float:
    """P(A wins the game) from its start, A playing pa and B pb (policies as `policy`)."""
    W = decharge_wins(np, m, pa, pb)
    total = 0.0
    for (a, a_takes), p in charge_law(np, m).items():
        if a == 0:
            total += p  # A took nothing: he has won at the end of the charge
        elif a < m.pot:
            total += p * W[a - 1, 0 if a_takes else 1]
    return total


def evaluation(np, rules: Rules, tables) -> dict:
    """The expert's exact win rates against today's round expert, the simple player and
    itself, and how many decisions it takes differently from the round expert."""
    m = Model(np, rules)
    start = time.perf_counter()
    new = policy(np, m, ExpertBot(tables))
    old = policy(np, m, RoundBot())
    simple = policy(np, m, SimpleBot())
    differ = int((new[0][1:, 1:] != old[0][1:, 1:]).sum())
    for k in (2, 3):
        differ += int((new[1][1:, k, 1:k] != old[1][1:, k, 1:k]).sum())
    rates = {
        "round": win_rate(np, m, new[:2], old[:2]),
        "round_reversed": 1.0 - win_rate(np, m, old[:2], new[:2]),
        "simple": win_rate(np, m, new[:2], simple[:2]),
        "itself": win_rate(np, m, new[:2], new[:2]),
        "round_vs_simple": win_rate(np, m, old[:2], simple[:2]),
    }
    W = decharge_wins(np, m, new[:2], new[:2])
    rates["self_play_error"] = float(np.abs(W[:, 0] - np.asarray(tables.values[1:-1])).max())
    return {**rates, "differ": differ, "situations": new[2], "seconds": time.perf_counter() - start}
