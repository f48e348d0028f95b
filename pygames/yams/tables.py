"""The Yams expert's solved tables: their names, their format and what reads them.

A table holds, for every turn-start state of one ruleset and option set, the expected
points still to come under optimal play (see `pygames.yams.solver`, which builds them with
numpy at build time).  Everything here is pure Python and runs in the browser:

* `TurnModel`: one ruleset as the solver and the expert both see it (hands, keeps, box
  scores, the layout of the states); its `fingerprint` is a digest of everything the
  values depend on, so a table built for other rules does not load;
* `table_name(game id, options, defaults)`: the file of a ruleset and options;
* `decode_table(bytes)` -> (header, codes), checked (magic, format, hash, sizes), bounded;
* `load_tables(bytes)` -> `YamsTables`, what the expert, the advisor and the analysis read
  (`load_steps`: the same in slices, for the page).

Any defect of a table's bytes raises the one error type (`GameError`).
"""

from __future__ import annotations

import hashlib
import json
import sys
from array import array
from itertools import accumulate, combinations_with_replacement
from math import factorial, prod
from typing import Any, Mapping

from ..core import GameError
from ..dice import counts
from ..tables import Steps, finish, read_steps, unreadable, unsigned_array
from .rules import DICE, GAMES, ROLLS, UPPER_IDS, YAM_PRIME, Rules

TABLE_MAGIC = b"PYGYAMS\x00"
TABLE_FORMAT = 1
MAX_STATES = 1 << 24  # states of one table (the largest ruleset has about 2.6 million)
SOLVE_COMMAND = "python -m pygames solve --all --write web/tables/yams"


def _multisets(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(combinations_with_replacement(range(1, 7), size))


def _probability(faces: tuple[int, ...]) -> float:
    c = counts(faces)
    return factorial(len(faces)) // prod(factorial(k) for k in c) / 6 ** len(faces)


class TurnModel:
    """One ruleset seen by the solver: hands, keeps, box scores and the state layout.

    Everything here is plain Python and built in well under a second, in CPython and
    in Pyodide alike; the solver and the expert share it, so they cannot disagree.
    """

    def __init__(self, rules: Rules, dice: int = DICE, rolls: int = ROLLS):
        finish(self._build(rules, dice, rolls))

    @classmethod
    def in_steps(cls, rules: Rules, dice: int = DICE, rolls: int = ROLLS) -> Steps:
        """The model built in steps (yields between its parts; returns it), for the page."""
        model = cls.__new__(cls)
        yield from model._build(rules, dice, rolls)
        return model

    def _build(self, rules: Rules, dice: int, rolls: int) -> Steps:
        if rules.primes not in (0, 1) and rules.primes < len(rules.boxes):
            raise ValueError("the solver knows no prime limit but 0, 1 or unlimited")
        self.rules = rules
        self.dice = dice
        self.rolls = rolls
        self.boxes = rules.boxes
        self.B = len(rules.boxes)
        self.threshold = rules.bonus_threshold
        self.bonus = rules.bonus
        self.joker = rules.joker
        self.forced_scoring = rules.forced_scoring
        self.yam = rules.index.get("yams")
        self.prime_mode = bool(rules.primes) and self.yam is not None
        self.single_prime = rules.primes == 1

        # keeps[j]: the sorted multisets of j dice; keeps[dice] are the hands
        self.keeps = tuple(_multisets(j) for j in range(dice + 1))
        self.keep_index = tuple({k: i for i, k in enumerate(ks)} for ks in self.keeps)
        self.hands = self.keeps[dice]
        self.H = len(self.hands)
        self.hand_index = self.keep_index[dice]
        self.prob = tuple(_probability(h) for h in self.hands)
        # keep k of size j + one more die showing f, for f = 1..6
        self.add_index = tuple(
            tuple(tuple(self.keep_index[j + 1][tuple(sorted(k + (f,)))] for f in range(1, 7))
                  for k in self.keeps[j])
            for j in range(dice)
        )
        yield
        # keep k of size j less one die, for each distinct face of k in increasing order
        self.sub_index = (((),),) + tuple(
            tuple(tuple(self.keep_index[j - 1][_without(k, f)] for f in sorted(set(k)))
                  for k in self.keeps[j])
            for j in range(1, dice + 1)
        )
        self.is_yam = tuple(len(set(h)) == 1 for h in self.hands)
        self.yam_hands = tuple(i for i, y in enumerate(self.is_yam) if y)

        yield
        hand_counts = [counts(h) for h in self.hands]
        self.points = tuple(
            tuple(b.score(c, sum(h), rules) for c, h in zip(hand_counts, self.hands))
            for b in self.boxes
        )
        yield
        # what a yam scores as a joker (other hands are never jokers)
        self.joker_points = tuple(
            tuple(b.score(c, sum(h), rules, joker=True) if yam else plain
                  for c, h, yam, plain in zip(hand_counts, self.hands, self.is_yam, points))
            for b, points in zip(self.boxes, self.points)
        )
        self.upper = tuple(b.upper for b in self.boxes)
        # the upper box a yam of face f must go to under the forced joker, if on the sheet
        self.face_box = tuple(rules.index.get(UPPER_IDS[f - 1]) for f in range(1, 7))
        yield
        yield from self._layout()

    # --- the state layout ------------------------------------------------------------

    def _layout(self) -> Steps:
        T = self.threshold
        upper_boxes = [i for i in range(self.B) if self.upper[i]]
        self.upper_bits = sum(1 << i for i in upper_boxes)
        gains = {i: sorted(set(self.points[i])) for i in upper_boxes}
        # every sub-mask of the upper boxes: the subtotals it can show, and its slots
        self.ups: dict[int, tuple[int, ...]] = {}  # upper key -> stored subtotals
        self.slot: dict[int, tuple[int, ...]] = {}  # upper key -> slot of each subtotal 0..T
        key = self.upper_bits
        while True:
            reach = {0}
            for i in upper_boxes:
                if key >> i & 1:
                    reach = {min(T, u + g) for u in reach for g in gains[i]}
            reach_max = sum(max(gains[i]) for i in upper_boxes if not key >> i & 1)
            hopeless = T - reach_max  # below this subtotal the bonus is out of reach
            rep = hopeless - 1
            stored = {rep if u < hopeless else u for u in reach}
            if rep >= 0:
                stored.add(rep)
            ups = tuple(sorted(stored))
            where = {u: s for s, u in enumerate(ups)}
            self.ups[key] = ups
            self.slot[key] = tuple(where.get(rep if u < hopeless else u, -1) for u in range(T + 1))
            if key == 0:
                break
            key = (key - 1) & self.upper_bits
        yield
        n_masks = 1 << self.B
        self.primes_slots = tuple(
            2 if self.prime_mode and mask >> self.yam & 1 else 1 for mask in range(n_masks)
        )
        offsets, total = [], 0
        for mask in range(n_masks):
            offsets.append(total)
            total += len(self.ups[mask & self.upper_bits]) * self.primes_slots[mask]
            if mask & 0x1FFF == 0x1FFF:
                yield
        self.offset = tuple(offsets)
        self.size = total

    def index(self, mask: int, up: int, p: int = 0) -> int:
        """Where the value of state (mask, capped upper subtotal, prime flag) is stored."""
        slot = self.slot[mask & self.upper_bits][up]
        if slot < 0:
            raise ValueError(f"unreachable state: mask {mask:#x}, upper subtotal {up}")
        return self.offset[mask] + slot * self.primes_slots[mask] + p

    def fingerprint(self) -> str:
        """A digest of everything the values depend on: a table built for other rules
        (or by a solver that read them differently) will not load."""
        facts = [
            [b.id for b in self.boxes], self.dice, self.rolls, self.threshold, self.bonus,
            self.joker, self.forced_scoring, self.rules.primes, YAM_PRIME,
            self.points, self.joker_points, self.size,
        ]
        return hashlib.sha256(json.dumps(facts, separators=(",", ":")).encode()).hexdigest()


def _without(keep: tuple[int, ...], face: int) -> tuple[int, ...]:
    i = keep.index(face)
    return keep[:i] + keep[i + 1 :]


# --- the tables ----------------------------------------------------------------------


def table_name(game_id: str, options: Mapping[str, Any], defaults: Mapping[str, Any]) -> str:
    """File name (without .bin) of the table of a ruleset and options:
    ``yams``, ``yams+single_prime``, ``yams-boite+no_forced_scoring``..."""
    parts = [game_id]
    for key, default in defaults.items():
        value = options.get(key, default)
        if value != default:
            parts.append(key if value is True else f"no_{key}" if value is False else f"{key}_{value}")
    return "+".join(parts)


def _raw_codes(planes: bytes, n: int) -> bytes:
    """The u16 codes (little endian) from the delta-coded byte planes of a payload."""
    return finish(_codes_steps(planes, n))


STEP_STATES = 1 << 14  # states decoded at a time (a step of `load_steps`)


def _codes_steps(planes: bytes, n: int) -> Steps:
    """`_raw_codes` in steps of `STEP_STATES` states (the running sum carried over)."""
    low16 = (0xFFFF).__and__
    codes, carry = bytearray(), 0
    for at in range(0, n, STEP_STATES):
        end = min(n, at + STEP_STATES)
        interleaved = bytearray(2 * (end - at))
        interleaved[0::2] = planes[at:end]
        interleaved[1::2] = planes[n + at : n + end]
        deltas = unsigned_array(bytes(interleaved), 2)
        deltas[0] = low16(deltas[0] + carry)
        piece = array("H", map(low16, accumulate(deltas)))
        carry = piece[-1]
        if sys.byteorder != "little":
            piece.byteswap()
        codes += piece.tobytes()
        yield
    return bytes(codes)


def decode_table(data: bytes) -> tuple[dict, array]:
    """(header, uint16 codes) from the bytes of a table, checked (see pygames.tables).

    The payload is the codes of every stored state in layout order, delta-coded (mod 2**16)
    and split into low bytes then high bytes, which zlib packs much better."""
    return finish(decode_steps(data))


def decode_steps(data: bytes) -> Steps:
    """`decode_table` in steps (see `pygames.tables.read_steps`)."""
    header, _, raw = yield from read_steps(data, TABLE_MAGIC, TABLE_FORMAT, 2, MAX_STATES, _codes_steps)
    return header, unsigned_array(raw, 2)


class YamsTables:
    """The solved values of one ruleset and option set (see `load_tables`)."""

    def __init__(self, header: dict, codes, model: TurnModel, game_id: str, options: dict):
        self.header = header
        self.codes = codes
        self.model = model
        self.rules = model.rules
        self.game_id = game_id
        self.options = options
        self.name = header["name"]
        self.inverse_scale = 1.0 / header["scale"]
        self.expected = header["expected"]  # optimal expected final score (unquantised)
        self._turns: dict = {}

    def value(self, mask: int, up: int, p: int = 0) -> float:
        """Expected points still to come from a turn-start state (as stored)."""
        return self.codes[self.model.index(mask, up, p)] * self.inverse_scale

    def tables_for(self, rules: Rules) -> "YamsTables":
        if rules != self.rules:
            raise GameError("tables.wrong_rules", name=self.name)
        return self


def _games() -> dict:
    return {g.id: g for g in GAMES}


def load_tables(data: bytes) -> YamsTables:
    """Read a table from its bytes; checks it whole and that it fits today's rules."""
    return finish(load_steps(data))


def load_steps(data: bytes) -> Steps:
    """`load_tables` in steps (a generator that yields between slices of its work and
    returns the tables): the page reads a table of 1.4 million states without holding its
    main thread for seconds."""
    header, codes = yield from decode_steps(data)
    yield
    try:
        game = _games()[header["game"]]
        options = game.resolve_options(header["options"])
        dice, rolls = header["dice"], header["rolls"]
        if not (type(dice) is int and 1 <= dice <= DICE and type(rolls) is int and 1 <= rolls <= ROLLS):
            raise ValueError("dice")  # the layout of 50 dice would take hours
        model = yield from TurnModel.in_steps(game.rules(options), dice, rolls)
        yield
        stale = model.fingerprint() != header["fingerprint"] or model.size != len(codes)
        scale, expected = header["scale"], header["expected"]
        if not (type(scale) is int and scale > 0 and isinstance(expected, (int, float))):
            raise ValueError("scale")
        name = str(header["name"])
    except (KeyError, TypeError, ValueError, AttributeError, GameError):
        raise unreadable("fields") from None
    if stale:
        raise GameError("tables.stale", name=name, command=SOLVE_COMMAND)
    return YamsTables(header, codes, model, game.id, options)


def rules_name(rules: Rules) -> str:
    """The table name of a ruleset (which game and options give these rules)."""
    for game in GAMES:
        for options in game.option_sets():
            if game.rules(options) == rules:
                return table_name(game.id, options, {o.id: o.default for o in game.options})
    raise GameError("tables.none_for_rules")


def tables_name(game, options: Mapping[str, Any]) -> str:
    """The family's `tables_name`: the file under web/tables/ (without .bin)."""
    return "yams/" + table_name(game.id, options, {o.id: o.default for o in game.options})
