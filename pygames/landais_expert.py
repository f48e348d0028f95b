"""The expert Dé Landais player and the advisor, played from the solved table (pure
Python: the browser reads the same file).

The table (see `pygames.landais_solver`) holds ``W(a, b, f)``: the probability that the
player to move wins when he is about to throw with sealed score ``a``, his opponent at
``b`` and ``f`` floating points, both playing optimally (two players).  Sealing is worth
1 when ``a + f`` is the target, else ``1 - W(b, a + f, 0)`` (the opponent's series
starts).  Every decision is a comparison of two look-ups.

Scores below the table's floor are read at the floor (keeping ``a + f``, so that what
sealing or a bust would do stays the same).  With three or four players the expert plays
the two-player table against the strongest opponent: the highest sealed score among the
others (the one closest to taking the manche from him).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import zlib
from array import array

from .core import GameError
from .landais import ROLL, SEAL, UNIT, LandaisState, table_name
from .landais_solver import TABLE_FORMAT, TABLE_MAGIC, fingerprint  # stdlib only at import

TABLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "web", "tables", "de-landais")


def decode_table(data: bytes) -> tuple[dict, array]:
    """(header, u32 codes) from a table's bytes; checks the magic, format and hash."""
    data = bytes(data)
    if data[: len(TABLE_MAGIC)] != TABLE_MAGIC:
        raise ValueError("not a Dé Landais table")
    (length,) = struct.unpack_from("<I", data, len(TABLE_MAGIC))
    start = len(TABLE_MAGIC) + 4
    try:
        header = json.loads(data[start : start + length])
    except ValueError:
        raise ValueError("table header is unreadable") from None
    if not isinstance(header, dict) or header.get("format") != TABLE_FORMAT:
        raise ValueError("unknown table format")
    try:
        planes = zlib.decompress(data[start + length :])
    except zlib.error as err:
        raise ValueError(f"table payload is corrupt ({err})") from None
    n = header["states"]
    if len(planes) != 4 * n:
        raise ValueError("table payload has the wrong length")
    raw = bytearray(4 * n)
    for i in range(4):
        raw[i::4] = planes[i * n : (i + 1) * n]
    if hashlib.sha256(raw).hexdigest() != header["sha256"]:
        raise ValueError("table is corrupt (hash mismatch)")
    codes = array("I")
    if codes.itemsize != 4:
        codes = array("L")
    codes.frombytes(bytes(raw))
    if sys.byteorder != "little":
        codes.byteswap()
    return header, codes


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
        # offsets[ia]: where row ia starts (rows hold N × (N - ia + 1) values)
        self.offsets = [0] * (N + 1)
        for ia in range(N):
            self.offsets[ia + 1] = self.offsets[ia] + N * (N - ia + 1)
        if self.offsets[N] != len(codes):
            raise GameError("Tables du Dé Landais incohérentes (taille).")

    def throw_value(self, a: int, b: int, f: int) -> float:
        """P(the mover wins) if he throws now (points; clamped at the floor)."""
        ia, ib, fu = a // UNIT - self.L, b // UNIT - self.L, f // UNIT
        if ia < 0:  # below the floor: read at the floor with the same a + f
            fu, ia = max(0, fu + ia), 0
        ib = max(ib, 0)
        if not (ia < self.N and ib < self.N and 0 <= fu <= self.N - ia):
            raise GameError("Position hors des tables du Dé Landais.")
        return self.codes[self.offsets[ia] + ib * (self.N - ia + 1) + fu] * self.inverse_scale

    def seal_value(self, a: int, b: int, f: int) -> float:
        """P(the mover wins) if he seals now."""
        if a + f == self.target:
            return 1.0
        return 1.0 - self.throw_value(b, max(a + f, self.floor), 0)


def load_tables(data: bytes) -> LandaisTables:
    """Read a table from its bytes; refuses a corrupt one or one built for other rules."""
    try:
        header, codes = decode_table(data)
        if header.get("game") != "de-landais":
            raise ValueError("not a Dé Landais table")
        expected = fingerprint(header["target"], header["floor"])
    except (ValueError, KeyError, TypeError) as err:
        raise GameError(f"Tables de l'expert illisibles : {err}") from None
    if header["fingerprint"] != expected:
        raise GameError(f"Les tables « {header['name']} » ne correspondent plus aux règles : "
                        "il faut les reconstruire (python -m pygames solve de-landais --write "
                        "web/tables/de-landais).")
    return LandaisTables(header, codes)


_LOADED: dict[int, LandaisTables] = {}


def tables_for_target(target: int, directory: str = TABLES_DIR) -> LandaisTables:
    """The shipped table of a target, read once (CLI and tests; the page passes its own)."""
    if target not in _LOADED:
        path = os.path.join(directory, table_name(target) + ".bin")
        try:
            with open(path, "rb") as f:
                _LOADED[target] = load_tables(f.read())
        except OSError:
            raise GameError(f"Tables de l'expert introuvables : {path} "
                            "(python -m pygames solve de-landais --write web/tables/de-landais).") from None
    return _LOADED[target]


def _view(state: LandaisState) -> tuple[int, int, int]:
    """(a, b, f) of the player to move: against the strongest opponent."""
    p = state.player
    others = [s for q, s in enumerate(state.sealed) if q != p]
    return state.sealed[p], max(others), state.floating


def advise(state: LandaisState, tables: LandaisTables | None = None) -> dict:
    """The probability of winning if the player to move seals now and if he throws
    (None when that is not allowed), with `exact` False for three or four players
    (two-player table against the strongest opponent)."""
    if not isinstance(state, LandaisState) or state.current_player() < 0:
        return {"seal": None, "roll": None, "best": None, "exact": False}
    tables = tables or tables_for_target(state.rules.target)
    if tables.target != state.rules.target:
        raise GameError(f"Ces tables sont pour {tables.target} points, pas {state.rules.target}.")
    a, b, f = _view(state)
    roll = tables.throw_value(a, b, f) if state.pending not in ("licorne", "chimere") else None
    seal = tables.seal_value(a, b, f) if state.can_seal else None
    if seal is None:
        best = "roll"
    else:
        best = "roll" if roll > seal else "seal"
    return {"seal": seal, "roll": roll, "best": best, "exact": len(state.sealed) == 2}


class ExpertLandaisBot:
    """Maximises its probability of winning (exact for two players): throw again only
    when the table says that throwing is worth strictly more than sealing."""

    def __init__(self, tables: LandaisTables | None = None):
        self.tables = tables

    def __call__(self, state: LandaisState):
        if not state.can_seal:
            return ROLL
        tables = self.tables
        if tables is None or tables.target != state.rules.target:
            tables = self.tables = tables_for_target(state.rules.target)
        a, b, f = _view(state)
        if a + f == tables.target:
            return SEAL
        return ROLL if tables.throw_value(a, b, f) > tables.seal_value(a, b, f) else SEAL
