"""The exact solver of the Yams family: the strategy that maximises a player's expected
final score, for any sheet of boxes, number of dice and rolls.

A player's future depends only on a small *turn-start state*:

* ``mask``: which boxes are filled (bit i = box i of the ruleset);
* ``up``: the upper subtotal, capped at the bonus threshold (beyond it nothing changes);
* ``p``: 1 when a yam prime can still be earned (the yam box holds 50 and the player is
  below the ruleset's prime limit), else 0.

Backward induction over those states, last turn first, gives ``V(state)``: the expected
points still to come (boxes, upper bonus, primes) under optimal play.  Inside a turn the
values follow from ``V`` of the next turn's states alone: the best box for each final
hand, then, for each earlier roll, the expectation of every keep and the best keep of
every hand.  `TurnModel` holds what that needs (hands, keeps, scores, the state layout)
in pure Python (`pygames.yams.tables`), so that the expert (`pygames.yams.bots`) can redo a
turn's induction in the browser from the tables; this module, build time only, runs the
whole induction with numpy and writes the tables.

The scores and the legality of each box come from the rules code (`Box.score`) and
mirror `YamsState.scorable`: jokers (free or forced), forced scoring, one prime or many.
Two reductions keep the tables small: only upper subtotals that can occur for a mask are
stored, and every subtotal from which the bonus is out of reach shares one entry.

Ties are broken the same way here and in `pygames.yams.bots` (the first box in sheet order;
scoring now before keeping; bigger keeps before smaller ones), so that `evaluate` gives
the exact value of the policy the expert plays from quantised tables.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Mapping

from ..tables import write_table
from .rules import DICE, GAMES, ROLLS, YAM_PRIME, Rules
from .tables import TABLE_FORMAT, TABLE_MAGIC, TurnModel, table_name

# --- the induction (numpy) -----------------------------------------------------------


class _Arrays:
    """`TurnModel` as numpy arrays, for the vectorised induction."""

    def __init__(self, np, model: TurnModel):
        self.np = np
        self.m = model
        T = model.threshold
        n_masks = 1 << model.B
        keys = sorted(model.ups)
        key_id = {k: i for i, k in enumerate(keys)}
        self.uid = np.array([key_id[m & model.upper_bits] for m in range(n_masks)], dtype=np.int64)
        self.slot = np.array([model.slot[k] for k in keys], dtype=np.int64)
        width = max(len(v) for v in model.ups.values())
        self.ups = np.array([model.ups[k] + (0,) * (width - len(model.ups[k])) for k in keys])
        self.count = np.array(
            [len(model.ups[m & model.upper_bits]) * model.primes_slots[m] for m in range(n_masks)]
        )
        self.offset = np.array(model.offset, dtype=np.int64)
        self.pslots = np.array(model.primes_slots, dtype=np.int64)
        self.points = np.array(model.points, dtype=np.float64)  # (B, H)
        self.joker_points = np.array(model.joker_points, dtype=np.float64)
        self.prob = np.array(model.prob)
        # a hand that puts 50 in the yam box opens the primes
        self.yam50 = (np.array(model.points[model.yam]) == 50)[:, None] if model.yam is not None else None
        self.yam_hands = np.array(model.yam_hands, dtype=np.int64)
        self.add_index = [np.array(a, dtype=np.int64).reshape(-1) for a in model.add_index]
        self.sub_index = [None] + [
            np.array([s + (s[0],) * (j - len(s)) for s in model.sub_index[j]], dtype=np.int64)
            for j in range(1, model.dice + 1)
        ]
        # upper boxes: the distinct points, and which of them each hand scores
        self.upper_values, self.upper_rows = {}, {}
        for b in range(model.B):
            if model.upper[b]:
                values = sorted(set(model.points[b]))
                self.upper_values[b] = values
                self.upper_rows[b] = np.array([values.index(v) for v in model.points[b]])
        self.bits = np.array([1 << b for b in range(model.B)], dtype=np.int64)
        self.T = T

    def index(self, mask, up, p, ok):
        """Flat indices of states; where `ok` is false (a box already filled) any index."""
        np = self.np
        slot = np.where(ok, self.slot[self.uid[mask], up], 0)
        if slot.min() < 0:
            raise AssertionError("the induction reached a state outside the layout")
        return np.where(ok, self.offset[mask] + slot * self.pslots[mask] + p, 0)

    def layer(self, filled: int):
        """Every stored state with `filled` boxes filled: (mask, up, p, flat index)."""
        np = self.np
        masks = np.array([m for m in range(1 << self.m.B) if bin(m).count("1") == filled],
                         dtype=np.int64)
        n = self.count[masks]
        mask = np.repeat(masks, n)
        local = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n)
        flat = self.offset[mask] + local
        ps = self.pslots[mask]
        up = self.ups[self.uid[mask], local // ps]
        return mask, up, local % ps, flat


def _improve(np, best, cands):
    """best = cands where cands is strictly better (by the first array) — in place."""
    if len(best) == 1:
        np.maximum(best[0], cands[0], out=best[0])
        return
    better = cands[0] > best[0]
    for b, c in zip(best, cands):
        np.copyto(b, np.broadcast_to(c, b.shape), where=better)


def _score_values(a: _Arrays, Vs, mask, up, p):
    """(H, N) arrays: for each final hand, the value of the best legal box."""
    np, m = a.np, a.m
    H, N, T = m.H, mask.size, a.T
    neg = -np.inf
    S = [np.full((H, N), neg) for _ in Vs]
    S_pos = [np.full((H, N), neg) for _ in Vs] if m.forced_scoring else None
    for b in range(m.B):
        open_ = (mask & (1 << b)) == 0
        if not open_.any():
            continue
        m2 = mask | (1 << b)
        pts = a.points[b][:, None]
        if m.upper[b]:
            values = a.upper_values[b]
            base = [np.empty((len(values), N)) for _ in Vs]
            for i, v in enumerate(values):
                reached = up + v
                add = v + m.bonus * ((up < T) & (reached >= T))
                idx = a.index(m2, np.minimum(reached, T), p, open_)
                for row, V in zip(base, Vs):
                    row[i] = np.where(open_, V[idx] + add, neg)
            cands = [row[a.upper_rows[b]] for row in base]
        elif b == m.yam:
            idx0 = a.index(m2, up, 0, open_)
            if m.prime_mode:  # a yam in the yam box opens the primes
                idx1 = a.index(m2, up, 1, open_)
                cands = [np.where(a.yam50, np.where(open_, V[idx1], neg),
                                  np.where(open_, V[idx0], neg)) + pts for V in Vs]
            else:
                cands = [np.where(open_, V[idx0], neg)[None, :] + pts for V in Vs]
        else:
            idx = a.index(m2, up, p, open_)
            cands = [np.where(open_, V[idx], neg)[None, :] + pts for V in Vs]
        _improve(np, S, cands)
        if S_pos is not None:
            _improve(np, S_pos, [np.where(pts > 0, c, neg) for c in cands])
    if S_pos is not None:
        scoring = S_pos[0] > neg
        S = [np.where(scoring, sp, s) for sp, s in zip(S_pos, S)]
    if m.yam is not None and (m.joker or m.prime_mode):
        _yam_hands(a, Vs, S, mask, up, p)
    return S


def _yam_hands(a: _Arrays, Vs, S, mask, up, p):
    """Redo the yam hands of states whose yam box is filled: joker, primes, forced joker."""
    np, m = a.np, a.m
    T, neg = a.T, -np.inf
    filled = (mask >> m.yam & 1) == 1
    if not filled.any():
        return
    Y = a.yam_hands
    faces = [m.hands[h][0] for h in m.yam_hands]
    prime = np.where(p == 1, float(YAM_PRIME), 0.0)
    p2 = np.zeros_like(p) if m.single_prime else p
    cands: dict[int, list] = {}
    for b in range(m.B):
        open_ = (mask & (1 << b)) == 0
        if b == m.yam or not open_.any():
            continue
        m2 = mask | (1 << b)
        pts = (a.joker_points if m.joker else a.points)[b][Y][:, None]  # (6, 1)
        if m.upper[b]:
            reached = up[None, :] + pts
            add = pts + m.bonus * ((up[None, :] < T) & (reached >= T)) + prime
            idx = a.index(m2[None, :], np.minimum(reached, T).astype(np.int64), p2[None, :],
                          open_[None, :])
            cands[b] = [np.where(open_, V[idx] + add, neg) for V in Vs]
        else:
            idx = a.index(m2, up, p2, open_)
            cands[b] = [np.where(open_, V[idx] + prime, neg)[None, :] + pts for V in Vs]

    def best(boxes, keep=lambda b: True):
        out = [np.full((len(Y), mask.size), neg) for _ in Vs]
        for b in boxes:
            if b in cands:
                _improve(np, out, [np.where(keep(b), c, neg) for c in cands[b]])
        return out

    every = best(sorted(cands))
    if m.joker == "forced":
        # the matching upper box if open, else any open lower box, else any open box
        lower = best([b for b in sorted(cands) if not m.upper[b]])
        result = [np.where(lower[0] > neg, lo, ev) for lo, ev in zip(lower, every)]
        for i, f in enumerate(faces):
            u = m.face_box[f - 1]
            if u is not None and u in cands:
                opened = cands[u][0][i] > neg
                for r, c in zip(result, cands[u]):
                    r[i] = np.where(opened, c[i], r[i])
    elif m.forced_scoring:
        pts_table = a.joker_points if m.joker else a.points
        scoring = best(sorted(cands), keep=lambda b: (pts_table[b][Y] > 0)[:, None])
        result = [np.where(scoring[0] > neg, s, e) for s, e in zip(scoring, every)]
    else:
        result = every
    for s, r in zip(S, result):
        s[Y] = np.where(filled[None, :], r, s[Y])


def _expectations(a: _Arrays, values):
    """E[j]: for every keep of j dice, the expected `values` of the hand after rolling."""
    m = a.m
    N = values[0].shape[1]
    E = [None] * (m.dice + 1)
    E[m.dice] = values
    for j in range(m.dice - 1, -1, -1):
        n = len(m.keeps[j])
        E[j] = [e[a.add_index[j]].reshape(n, 6, N).sum(axis=1) / 6 for e in E[j + 1]]
    return E


def _best_keeps(a: _Arrays, E, score_now):
    """For every hand: the best of scoring now and every keep it allows (values)."""
    np, m = a.np, a.m
    M = E[0]
    for j in range(1, m.dice + 1):
        here = [s.copy() for s in (score_now if j == m.dice else E[j])]
        for t in range(j):
            _improve(np, here, [x[a.sub_index[j][:, t]] for x in M])
        M = here
    return M


def _turn_start(a: _Arrays, Vs, mask, up, p):
    S = _score_values(a, Vs, mask, up, p)
    values = S
    for _ in range(a.m.rolls - 1):
        values = _best_keeps(a, _expectations(a, values), S)
    return [a.prob @ v for v in values]


def _induction(model: TurnModel, q_values=None, chunk: int = 512, progress=None):
    import numpy as np

    a = _Arrays(np, model)
    V = np.full(model.size, np.nan)
    Vs = [V] if q_values is None else [np.asarray(q_values, dtype=np.float64), V]
    for filled in range(model.B, -1, -1):
        mask, up, p, flat = a.layer(filled)
        if filled == model.B:
            V[flat] = 0.0
            continue
        for lo in range(0, mask.size, chunk):
            sl = slice(lo, lo + chunk)
            out = _turn_start(a, Vs, mask[sl], up[sl], p[sl])
            V[flat[sl]] = out[-1]
        if progress:
            progress(filled, mask.size)
    if np.isnan(V).any():
        raise AssertionError("some stored states were not solved")
    return V


@dataclass
class Solution:
    model: TurnModel
    values: Any  # numpy array: V of every stored state (see TurnModel.index)
    seconds: float

    @property
    def expected(self) -> float:
        """The optimal expected final score of a game (from the empty sheet)."""
        return float(self.values[self.model.index(0, 0, 0)])


def solve(rules: Rules, dice: int = DICE, rolls: int = ROLLS, progress=None) -> Solution:
    """Solve a ruleset exactly (needs numpy)."""
    start = time.perf_counter()
    model = TurnModel(rules, dice, rolls)
    values = _induction(model, progress=progress)
    return Solution(model, values, time.perf_counter() - start)


def evaluate(model: TurnModel, q_values) -> float:
    """The exact expected final score of the policy that decides from `q_values` (for
    instance the quantised tables) the way the expert (pygames.yams.bots) does (needs numpy)."""
    W = _induction(model, q_values=q_values)
    return float(W[model.index(0, 0, 0)])


def quantise(solution: Solution, scale: int | None = None):
    """Values as uint16 fixed point; returns (codes, scale)."""
    import numpy as np

    top = float(solution.values.max())
    if scale is None:
        scale = 1
        while top * scale * 2 < 65000:
            scale *= 2
    codes = np.rint(solution.values * scale)
    if codes.max() > 65535 or codes.min() < 0:
        raise ValueError("values out of range for 16-bit tables")
    return codes.astype("<u2"), scale


def encode_table(header: dict, codes) -> bytes:
    """A table's bytes (see pygames.yams.tables.decode_table for the payload's layout)."""
    import numpy as np

    raw = np.asarray(codes, dtype="<u2")
    delta = np.diff(raw, prepend=np.uint16(0)).astype("<u2")
    planes = delta.view(np.uint8).reshape(-1, 2).T.copy().tobytes()
    header = dict(header, format=TABLE_FORMAT, states=int(raw.size),
                  encoding="u16-delta-planes-zlib",
                  sha256=hashlib.sha256(raw.tobytes()).hexdigest())
    return write_table(TABLE_MAGIC, header, planes)


def build_table(game, options: Mapping[str, Any] | None = None, evaluate_policy: bool = True,
                progress=None) -> tuple[bytes, dict]:
    """Solve `game` with `options` and encode its table (needs numpy).

    The header says which rules it is for (with the model's fingerprint), the optimal
    expected score, and, with `evaluate_policy`, the exact expected score of the policy
    played from the quantised values (what the browser's expert scores)."""
    options = game.resolve_options(options)
    solution = solve(game.rules(options), progress=progress)
    codes, scale = quantise(solution)
    model = solution.model
    header = {
        "game": game.id,
        "options": options,
        "name": table_name(game.id, options, {o.id: o.default for o in game.options}),
        "dice": model.dice,
        "rolls": model.rolls,
        "scale": scale,
        "expected": solution.expected,
        "fingerprint": model.fingerprint(),
    }
    if evaluate_policy:
        header["policy_expected"] = evaluate(model, codes / scale)
    data = encode_table(header, codes)
    info = dict(header, seconds=solution.seconds, bytes=len(data))
    return data, info


def all_configs() -> list[tuple[Any, dict]]:
    """(game, options) for every Yams-family game and combination of its options."""
    return [(game, options) for game in GAMES for options in game.option_sets()]
