"""Le 421 expert's solved table: its name, its format and what reads it.

A table (built by `pygames.le421.solver`, numpy, build time) holds ``V[x]``: the
probability that the leader of a two-player décharge round who holds ``x`` tokens (the
other player holds the rest) wins the game, both playing to win.  That is pot − 1
numbers (20 for a pot of 21), little-endian doubles in the container of
`pygames.tables`; everything a decision needs is derived from them in
`pygames.le421.bots` when a position is first met, and kept here (`WinTables`).

Pure Python: the browser reads the same file.  Any defect of a table's bytes raises the
one error type (`GameError`).
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from typing import Any, Mapping

from ..core import GameError
from ..tables import read_table, unreadable, write_table
from .rules import GAMES, Rules, hand_value, ranked_hands

TABLE_MAGIC = b"PYG421W\x00"
TABLE_FORMAT = 1
MODEL = "V[x]: P(the leader of a two-player decharge round holding x tokens wins), v1"
MAX_STATES = 64  # values in one table (a pot of 41 has 40)
SOLVE_COMMAND = "python -m pygames solve 421 --all --write web/tables/421"
GAME = GAMES[0]


def options_of(rules: Rules) -> dict:
    return {"value_421": rules.value_421, "nenette_four": rules.nenette_four, "pot": rules.pot}


def table_name(options: Mapping[str, Any]) -> str:
    """``421`` for the default options, else ``421+<option>[_<value>]…`` in option order
    (``421+value_421_8+nenette_four+pot_11``)."""
    given = GAME.resolve_options(options)
    return "+".join(["421"] + [o.id if given[o.id] is True else f"{o.id}_{given[o.id]}"
                               for o in GAME.options if given[o.id] != o.default])


def tables_name(game, options: Mapping[str, Any]) -> str:
    """The family's `tables_name`: the file under web/tables/ (without .bin)."""
    return "421/" + table_name(options)


def fingerprint(rules: Rules) -> str:
    """What the values depend on: the hands' order and values, the pot and the model.
    A change in the rules' reading of a hand makes old tables refuse to load."""
    hands = [["".join(map(str, h)), hand_value(h, rules)] for h in ranked_hands(rules)]
    text = json.dumps({"hands": hands, "pot": rules.pot, "model": MODEL}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def encode_table(rules: Rules, values, info: Mapping[str, Any] | None = None) -> bytes:
    """The table's bytes (build time): a header (game, name, options, fingerprint, and
    `info`: how the solver found the values), then ``V[1] … V[pot − 1]``."""
    values = [float(v) for v in values]
    if len(values) != rules.pot - 1:
        raise ValueError(f"{len(values)} values for a pot of {rules.pot}")
    raw = struct.pack(f"<{len(values)}d", *values)
    options = options_of(rules)
    header = {
        **dict(info or {}),
        "format": TABLE_FORMAT,
        "game": "421",
        "name": tables_name(GAME, options),
        "options": options,
        "fingerprint": fingerprint(rules),
        "states": len(values),
        "sha256": hashlib.sha256(raw).hexdigest(),
    }
    return write_table(TABLE_MAGIC, header, raw)


class WinTables:
    """The solution for one option set, and what each position's decisions derive from
    it (filled by `pygames.le421.bots` when first asked, then kept: a game visits few of
    the positions)."""

    def __init__(self, header: dict, rules: Rules, values):
        self.header = header
        self.rules = rules
        self.name = header["name"]
        self.pot = rules.pot
        self.values = (None, *values, None)  # V by the leader's tokens, 1 .. pot - 1
        self.leaders: dict = {}  # x -> the leader's stops and keeps
        self.followers: dict = {}  # (x, r, k) -> the follower's start and keeps
        self._payoffs: dict = {}

    def value(self, x: int) -> float:
        """P(the leader wins the game) at the start of a round where he holds x tokens."""
        return self.values[x]

    def payoffs(self, x: int) -> tuple[list, list]:
        """The follower's chance of winning the game, by hand index, when the leader holds
        x tokens and the round ends with the follower's hand best (`fw`, by his hand) or
        the leader's (`fl`, by the leader's hand)."""
        if x not in self._payoffs:
            V, y = self.values, self.pot - x
            fw, fl = [], []
            for hand in ranked_hands(self.rules):
                v = hand_value(hand, self.rules)
                given, taken = min(v, y), min(v, x)
                fw.append(1.0 if given == y else 1.0 - V[x + given])
                fl.append(0.0 if taken == x else V[y + taken])
            self._payoffs[x] = (fw, fl)
        return self._payoffs[x]


def load_tables(data: bytes) -> WinTables:
    """Read a table from its bytes; refuses a corrupt one or one built for other rules."""
    header, raw = read_table(data, TABLE_MAGIC, TABLE_FORMAT, 8, MAX_STATES)
    try:
        if header.get("game") != "421" or not isinstance(header.get("options"), dict):
            raise ValueError("game")
        rules = GAME.rules(header["options"])
        if header["states"] != rules.pot - 1:
            raise ValueError("states")
        name = str(header["name"])
        stale = header.get("fingerprint") != fingerprint(rules)
    except (ValueError, KeyError, TypeError):  # GameError is a ValueError: a bad option
        raise unreadable("fields") from None
    values = struct.unpack(f"<{header['states']}d", raw)
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in values):
        raise unreadable("values")
    if stale or name != tables_name(GAME, header["options"]):
        raise GameError("tables.stale", name=name, command=SOLVE_COMMAND)
    return WinTables(header, rules, values)
