"""The Dé Landais expert's solved tables: their names, their format and what reads them.

A table (built by `pygames.landais.solver`, numpy, build time) holds ``W(a, b, f)``: the
probability that the player to move wins when he is about to throw with sealed score
``a``, his opponent at ``b`` and ``f`` floating points, both playing optimally (two
players).  Sealing is worth 1 when ``a + f`` is the target, else ``1 - W(b, a + f, 0)``
(the opponent's series starts).  Scores below the table's floor are read at the floor
(keeping ``a + f``, so that what sealing or a bust would do stays the same).

Pure Python: the browser reads the same file.  Any defect of a table's bytes raises the one
error type (`GameError`).
"""

from __future__ import annotations

import hashlib
import json
from array import array
from itertools import product

from ..core import GameError
from ..tables import Steps, at_once, finish, read_steps, unreadable, unsigned_array
from .rules import UNIT, classify

TABLE_MAGIC = b"PYGLAND\x00"
TABLE_FORMAT = 1
DEFAULT_FLOOR = -2000
SCALE = 2**32 - 1  # values are stored as round(p × SCALE) in 32 bits
MAX_STATES = 1 << 22
SOLVE_COMMAND = "python -m pygames solve de-landais --write web/tables/de-landais"


def table_name(target: int) -> str:
    """The expert's table for a target: the table depends on nothing else."""
    return "de-landais" if target == 3000 else f"de-landais+target_{target}"


def tables_name(game, options) -> str:
    """The family's `tables_name`: the file under web/tables/ (without .bin)."""
    return f"de-landais/{table_name(game.rules(options).target)}"


def fingerprint(target: int, floor: int) -> str:
    """What the table's values depend on: the rules' reading of all 216 throws, the
    target and the floor.  A change in `classify` makes old tables refuse to load."""
    readings = [classify(f).notation() for f in product(range(1, 7), repeat=3)]
    facts = json.dumps({"readings": readings, "target": target, "floor": floor,
                        "unit": UNIT, "model": "W[a,b,f] v1"})
    return hashlib.sha256(facts.encode()).hexdigest()[:16]


def _raw(planes: bytes, n: int) -> bytes:
    """The u32 codes (little endian) from a payload's four byte planes."""
    raw = bytearray(4 * n)
    for i in range(4):
        raw[i::4] = planes[i * n : (i + 1) * n]
    return bytes(raw)


def decode_table(data: bytes) -> tuple[dict, array]:
    """(header, u32 codes) from a table's bytes, checked (see pygames.tables)."""
    return finish(decode_steps(data))


def decode_steps(data: bytes) -> Steps:
    """`decode_table` in steps (see `pygames.tables.read_steps`)."""
    header, _, raw = yield from read_steps(data, TABLE_MAGIC, TABLE_FORMAT, 4, MAX_STATES,
                                           lambda planes, n: at_once(_raw(planes, n)))
    return header, unsigned_array(raw, 4)


class LandaisTables:
    """The solved values for one target (see the module docstring)."""

    def __init__(self, header: dict, codes: array):
        self.header = header
        self.codes = codes
        self.name = header["name"]
        self.target = header["target"]
        self.floor = header["floor"]
        self.T, self.L = self.target // UNIT, self.floor // UNIT
        self.N = N = self.T - self.L
        self.inverse_scale = 1.0 / header["scale"]
        self.start = header["start"]
        if N * ((N + 1) * (N + 2) // 2 - 1) != len(codes):  # the rows' sum, before any row
            raise unreadable("fields")
        # offsets[ia]: where row ia starts (rows hold N × (N - ia + 1) values)
        self.offsets = [0] * (N + 1)
        for ia in range(N):
            self.offsets[ia + 1] = self.offsets[ia] + N * (N - ia + 1)

    def throw_value(self, a: int, b: int, f: int) -> float:
        """P(the mover wins) if he throws now (points; clamped at the floor)."""
        ia, ib, fu = a // UNIT - self.L, b // UNIT - self.L, f // UNIT
        if ia < 0:  # below the floor: read at the floor with the same a + f
            fu, ia = max(0, fu + ia), 0
        ib = max(ib, 0)
        if not (ia < self.N and ib < self.N and 0 <= fu <= self.N - ia):
            raise GameError("landais.error.off_tables")
        return self.codes[self.offsets[ia] + ib * (self.N - ia + 1) + fu] * self.inverse_scale

    def seal_value(self, a: int, b: int, f: int) -> float:
        """P(the mover wins) if he seals now."""
        if a + f == self.target:
            return 1.0
        return 1.0 - self.throw_value(b, max(a + f, self.floor), 0)


def load_tables(data: bytes) -> LandaisTables:
    """Read a table from its bytes; refuses a corrupt one or one built for other rules."""
    return finish(load_steps(data))


def load_steps(data: bytes) -> Steps:
    """`load_tables` in steps (a generator that yields between slices of its work and
    returns the tables), for the page."""
    header, codes = yield from decode_steps(data)
    try:
        if header.get("game") != "de-landais":
            raise ValueError("game")
        target, floor, scale = header["target"], header["floor"], header["scale"]
        if not (type(target) is int and type(floor) is int and target > 0 >= floor
                and target % UNIT == 0 and floor % UNIT == 0 and type(scale) is int and scale > 0):
            raise ValueError("numbers")
        expected = fingerprint(target, floor)
        stale = header["fingerprint"] != expected
        str(header["name"])
        float(header["start"])
    except (ValueError, KeyError, TypeError):
        raise unreadable("fields") from None
    if stale:
        raise GameError("tables.stale", name=str(header["name"]), command=SOLVE_COMMAND)
    return LandaisTables(header, codes)
