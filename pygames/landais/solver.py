"""The Dé Landais for two players, solved: the probability of winning under optimal play,
by value iteration as in Neller and Presser's "Optimal play of Pig" (numpy, build time).

Scores are counted in units of 50 points.  A state is seen by the player to move:
``a`` his sealed score, ``b`` his opponent's, ``f`` his floating points, all in units.
``W[a, b, f]`` is his probability of winning when he is about to throw with ``f``
floating (the start of a series is ``f = 0``; after a poigne the throw is forced, and
elsewhere he has chosen to throw).  Everything else follows from ``W``:

* sealing ``f`` is worth 1 if ``a + f`` is the target, else ``1 - W[b, a + f, 0]``
  (the opponent's series starts); a *free* state is worth the better of the two;
* a gift throw (under a Licorne or a Chimère) moves ``b`` only: its value is a small
  linear system of its own (a gift throw can chain into another), solved in closed form.

Scores can fall without bound (Véreux, Chimère), so the table stops at a *floor*: a
score below it counts as the floor.  The game has cycles (a Troll, scores going down),
so the values are found by iteration: each sweep does the levels of ``f`` from the top
down (a throw only raises ``f``, so one sweep carries a whole series), and sweeps go on
until no value moves by more than ``tol``.  The same sweep, given a fixed decision
(throw or seal) per state for each player, evaluates any pair of policies exactly:
that is how the expert's rate against the simple player is predicted.

`pygames.landais.tables` reads the tables in pure Python (the browser has no numpy).
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from itertools import product

from ..tables import write_table
from .rules import UNIT, classify
from .tables import DEFAULT_FLOOR, SCALE, TABLE_FORMAT, TABLE_MAGIC, fingerprint, table_name


def throw_law() -> dict:
    """The probabilities of the kinds of throw, in units of 50 points (exact fractions of 216)."""
    law: dict = {"points": defaultdict(int), "poigne": defaultdict(int), "gift": defaultdict(int)}
    other: dict = defaultdict(int)
    for faces in product(range(1, 7), repeat=3):
        r = classify(faces)
        if r.scores:
            law[r.kind][r.points // UNIT] += 1
            law["gift"][r.points // UNIT] += 1
        else:
            other[r.kind] += 1
    out = {k: {v: n / 216 for v, n in sorted(d.items())} for k, d in law.items()}
    out.update({k: n / 216 for k, n in other.items()})
    return out


class Model:
    """The grid: ``ia = a - floor`` from 0 to N-1 (a from the floor to target - 1),
    same for ``ib``, and ``f`` from 0 to N - ia (a + f at most the target)."""

    def __init__(self, target: int = 3000, floor: int = DEFAULT_FLOOR):
        if target % UNIT or floor % UNIT or target <= 0 or floor > 0:
            raise ValueError("target and floor must be multiples of 50, target > 0 >= floor")
        self.target, self.floor = target, floor
        self.T, self.L = target // UNIT, floor // UNIT
        self.N = self.T - self.L
        self.law = throw_law()

    def size(self) -> int:
        N = self.N
        return N * sum(N - ia + 1 for ia in range(N))


def gift_matrix(np, m: Model):
    """G[b', b]: the weight of the opponent's score b' in the value of a gift throw
    (Licorne and Chimère alike, their chaining solved in closed form), times the
    chance of a Licorne or a Chimère: a throw's gift part is ``Fr[f, a, :] @ G``."""
    N, law = m.N, m.law
    q_tir = law["licorne"]
    assert abs(q_tir - law["chimere"]) < 1e-15
    ML, MC = np.zeros((N, N)), np.zeros((N, N))
    for b in range(N):
        for M in (ML, MC):
            M[b, b] += law["troll"] + law["vide"]
            M[max(b - 2, 0), b] += law["vereux"]
        for g, q in law["gift"].items():
            if b + g < N:
                ML[b + g, b] += q
            elif b + g > N:  # past the target: not given
                ML[b, b] += q
            # b + g == N: the opponent wins, worth 0 to the mover
            MC[max(b - g, 0), b] += q
    return q_tir * (ML + MC) / (1.0 - 2.0 * q_tir)


MAX_GAIN = 20  # the largest points of one throw (1-1-1), in units


class Arrays:
    """The mover's values in sweep layout: ``W[f, ia, ib]`` and the free values ``Fr``,
    padded beyond the target with the value of a bust so that a throw's outcomes are
    plain slices."""

    def __init__(self, np, m: Model):
        N = m.N
        self.W = np.full((N + 1 + MAX_GAIN, N, N), 0.5)
        self.Fr = np.full((N + 1 + MAX_GAIN, N, N), 0.5)
        f = np.arange(N + 1 + MAX_GAIN)[:, None]
        self.bust = f + np.arange(N)[None, :] > N  # [f, ia]: a + f past the target

    def start(self):
        return self.W[0]  # [ia, ib]: series start


def sweep(np, m: Model, A: Arrays, So, G, throw_mask=None) -> float:
    """One Gauss-Seidel sweep of the mover's values (A.W, A.Fr) in place, given the
    opponent's series-start values So[b, a].  throw_mask[f, ia, ib]: the mover's fixed
    policy (True: throw); None: the better of throwing and sealing.  Returns the
    largest change."""
    N, law = m.N, m.law
    W, Fr = A.W, A.Fr
    end = 1.0 - So.T  # [ia, ib]: the mover's series ends, the opponent starts
    seal_rows = np.vstack([end, np.ones((1, N))])  # row ia + f; row N: sealing wins
    vereux = end[np.maximum(np.arange(N) - 2, 0)]
    fixed = (law["troll"], law["vereux"], law["vide"])
    bust_f, bust_ia = np.nonzero(A.bust)
    W[bust_f, bust_ia] = end[bust_ia]
    Fr[bust_f, bust_ia] = end[bust_ia]
    points = list(law["points"].items())
    poignes = list(law["poigne"].items())
    change = 0.0
    for f in range(N, -1, -1):
        k = min(N, N - f + 1)  # rows ia with a + f <= target
        acc = (fixed[1] * vereux[:k] + fixed[2] * end[:k]) + fixed[0] * Fr[0, :k]
        for v, q in points:
            acc += q * Fr[f + v, :k]
        for v, q in poignes:
            acc += q * W[f + v, :k]
        acc += Fr[f, :k] @ G  # the gift throws, from last sweep's free values at this level
        change = max(change, float(np.abs(acc - W[f, :k]).max()))
        W[f, :k] = acc
        seal = seal_rows[f : f + k]
        if throw_mask is None:
            np.maximum(acc, seal, out=Fr[f, :k])
        else:
            Fr[f, :k] = np.where(throw_mask[f, :k], acc, seal)
    return change


def solve(target: int = 3000, floor: int = DEFAULT_FLOOR, tol: float = 1e-10,
          max_sweeps: int = 20000, progress=None):
    """Optimal play for both players: (model, W[ia, ib, f], sweeps, seconds)."""
    import numpy as np

    m = Model(target, floor)
    A, G = Arrays(np, m), gift_matrix(np, m)
    start = time.perf_counter()
    for n in range(1, max_sweeps + 1):
        change = sweep(np, m, A, A.start().copy(), G)
        if progress:
            progress(n, change)
        if change < tol:
            break
    return m, table_layout(np, m, A.W), n, time.perf_counter() - start


def table_layout(np, m: Model, Wf):
    """W[ia, ib, f] (NaN where a + f passes the target) from the sweep layout."""
    N = m.N
    W = np.transpose(Wf[: N + 1], (1, 2, 0)).copy()
    past = np.arange(N)[:, None] + np.arange(N + 1)[None, :] > N  # [ia, f]
    W[np.broadcast_to(past[:, None, :], W.shape)] = np.nan
    return W


def sweep_mask(np, m: Model, mask):
    """A policy from [ia, ib, f] to the sweep layout [f, ia, ib] (padded: no choice there)."""
    N = m.N
    out = np.zeros((N + 1 + MAX_GAIN, N, N), dtype=bool)
    out[: N + 1] = np.transpose(mask, (2, 0, 1))
    return out


def evaluate_pair(m: Model, mask_a, mask_b, tol: float = 1e-9, max_sweeps: int = 20000):
    """Exact values of two fixed policies (masks [ia, ib, f], True: throw) against each
    other: (Wa, Wb) in table layout, Wa[a, b, f] being A's probability of winning when
    A is to move against B's score b, and Wb the same for B."""
    import numpy as np

    A, B, G = Arrays(np, m), Arrays(np, m), gift_matrix(np, m)
    ma, mb = sweep_mask(np, m, mask_a), sweep_mask(np, m, mask_b)
    for n in range(max_sweeps):
        ca = sweep(np, m, A, B.start().copy(), G, ma)
        cb = sweep(np, m, B, A.start().copy(), G, mb)
        if max(ca, cb) < tol:
            break
    return table_layout(np, m, A.W), table_layout(np, m, B.W)


def threshold_mask(m: Model, threshold: int):
    """The decisions of ThresholdBot(threshold) [ia, ib, f]: seal at `threshold` or
    when it wins."""
    import numpy as np

    N = m.N
    ia = np.arange(N)[:, None, None]
    f = np.arange(N + 1)[None, None, :]
    mask = (f < threshold // UNIT) & (ia + f != N)
    return np.broadcast_to(mask, (N, N, N + 1))


def seal_values(np, m: Model, W):
    """[ia, ib, f]: the value of sealing, read from W as stored."""
    N = m.N
    S = W[:, :, 0]
    seal_rows = np.vstack([1.0 - S.T, np.ones((1, N))])  # [ia + f, ib]
    rows = np.minimum(np.arange(N)[:, None] + np.arange(N + 1)[None, :], N)  # [ia, f]
    return np.transpose(seal_rows[rows], (0, 2, 1))


def table_mask(m: Model, W):
    """The decisions of a player who reads W: throw when throwing is worth strictly
    more than sealing (the rule of `landais_expert`)."""
    import numpy as np

    return np.nan_to_num(W, nan=-1.0) > seal_values(np, m, W)


def start_value(m: Model, W) -> float:
    """P(the starting player wins) from 0 - 0."""
    return float(W[-m.L, -m.L, 0])


def pair_rate(m: Model, Wa, Wb) -> float:
    """A's probability of winning from 0 - 0, the start decided by a fair coin (the
    opening throw)."""
    i = -m.L
    return 0.5 * (float(Wa[i, i, 0]) + 1.0 - float(Wb[i, i, 0]))


# --- the table -----------------------------------------------------------------------


def flatten(np, m: Model, W):
    """The stored values in layout order: ia, then ib, then f from 0 to N - ia."""
    N = m.N
    return np.concatenate([W[ia, :, : N - ia + 1].reshape(-1) for ia in range(N)])


def unflatten(np, m: Model, flat):
    N = m.N
    W = np.full((N, N, N + 1), np.nan)
    pos = 0
    for ia in range(N):
        width = N - ia + 1
        W[ia, :, :width] = np.asarray(flat[pos : pos + N * width], dtype=float).reshape(N, width)
        pos += N * width
    return W


def quantise(np, m: Model, W):
    return np.rint(np.clip(flatten(np, m, W), 0.0, 1.0) * SCALE).astype("<u4")


def encode_table(np, header: dict, codes) -> bytes:
    """Magic, u32 header length, JSON header, zlib of the u32 codes split into 4 byte
    planes (the high bytes are nearly constant and pack to almost nothing)."""
    raw = np.asarray(codes, dtype="<u4")
    planes = raw.view(np.uint8).reshape(-1, 4).T.copy().tobytes()
    header = dict(header, format=TABLE_FORMAT, states=int(raw.size), scale=SCALE,
                  encoding="u32-planes-zlib", sha256=hashlib.sha256(raw.tobytes()).hexdigest())
    return write_table(TABLE_MAGIC, header, planes)


def build_table(target: int = 3000, floor: int = DEFAULT_FLOOR, tol: float = 1e-10, progress=None):
    """Solve and encode: (bytes, info)."""
    import numpy as np

    m, W, sweeps, seconds = solve(target, floor, tol, progress=progress)
    codes = quantise(np, m, W)
    header = {
        "game": "de-landais",
        "name": table_name(target),
        "target": target,
        "floor": floor,
        "unit": UNIT,
        "fingerprint": fingerprint(target, floor),
        "start": start_value(m, W),
        "sweeps": sweeps,
        "tol": tol,
    }
    data = encode_table(np, header, codes)
    return data, dict(header, seconds=seconds, bytes=len(data), model=m, W=W)
