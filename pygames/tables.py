"""The container every solved table of an expert is written in, and its checked reading.

A table is: a magic (8 bytes, one per family), the length of its header (u32, little
endian), a JSON header (an object: ``format``, ``states``, ``sha256`` of the raw values,
and what the family needs), then the values, compressed with zlib.  `read_table` checks
all of it before anything reads a value: any defect — a truncated file, a header that is
no object, a count of states that is no whole number, a payload that inflates beyond what
the header announces or is followed by other bytes, a hash mismatch — raises the one error type (`GameError`, message
``tables.unreadable``), and inflating never takes more memory than the header's states
need (a small file cannot inflate to a gigabyte).  `read_steps` does the same in slices.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import zlib
from array import array
from typing import Any, Callable, Generator

from .core import GameError
from .messages import Msg

MAX_HEADER = 1 << 16  # bytes of a JSON header


def unreadable(why: str) -> GameError:
    """The one error of a bad table; `why` names the defect (``tables.why.<why>``)."""
    return GameError("tables.unreadable", why=Msg(f"tables.why.{why}"))


def read_table(data: bytes, magic: bytes, version: int, bytes_per_state: int,
               max_states: int, raw_of: Callable[[bytes, int], bytes] | None = None
               ) -> tuple[dict, bytes]:
    """(header, payload) of a table's bytes, both checked; `raw_of(payload, states)` gives
    the bytes the header's sha256 is taken of (default: the payload itself)."""
    steps = read_steps(data, magic, version, bytes_per_state, max_states,
                       (lambda payload, states: at_once(raw_of(payload, states))) if raw_of else None)
    header, payload, _ = finish(steps)
    return header, payload


def read_steps(data: bytes, magic: bytes, version: int, bytes_per_state: int, max_states: int,
               raw_steps: Callable[[bytes, int], Steps] | None = None) -> Steps:
    """`read_table` in steps: a generator that yields between slices of its work (each a
    few milliseconds in CPython) and returns (header, payload, raw), `raw` being the bytes
    the hash was taken of (`raw_steps(payload, states)`, itself in steps; default: the
    payload).  The page runs a large table's reading a slice per task (web/app/shell.py),
    so that a tap is answered while it loads; `finish` runs it at once."""
    try:
        data = bytes(data)
    except (TypeError, ValueError):
        raise unreadable("bytes") from None
    start = len(magic) + 4
    if len(data) < start or data[: len(magic)] != magic:
        raise unreadable("magic")
    (length,) = struct.unpack_from("<I", data, len(magic))
    if length > MAX_HEADER or start + length > len(data):
        raise unreadable("truncated")
    try:
        header = json.loads(data[start : start + length])
    except (ValueError, RecursionError):
        raise unreadable("header") from None
    if not isinstance(header, dict):
        raise unreadable("header")
    if header.get("format") != version:
        raise unreadable("format")
    states, digest = header.get("states"), header.get("sha256")
    if type(states) is not int or not 0 < states <= max_states:
        raise unreadable("states")
    if not isinstance(digest, str):
        raise unreadable("digest")
    size = states * bytes_per_state
    payload = yield from _inflate(data[start + length :], size)
    raw = (yield from raw_steps(payload, states)) if raw_steps else payload
    hasher, view = hashlib.sha256(), memoryview(raw)
    for at in range(0, len(raw), HASH_PIECE):
        hasher.update(view[at : at + HASH_PIECE])
        yield
    if hasher.hexdigest() != digest:
        raise unreadable("hash")
    return header, payload, raw


#: A reading in steps (`read_steps`): yields None between slices, returns its result.
Steps = Generator[None, None, Any]


def finish(steps: Steps) -> Any:
    """What `steps` returns, run to its end at once."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def at_once(value: Any) -> Steps:
    """Steps that return `value` without yielding."""
    yield from ()
    return value


INFLATE_PIECE = 1 << 18  # bytes inflated at a time (a step of `read_steps`)
HASH_PIECE = 1 << 19  # bytes hashed at a time


def _inflate(compressed: bytes, size: int) -> Steps:
    """The `size` bytes `compressed` inflates to, never holding more than ``size + 1`` of
    them (a piece at a time, so that a bomb costs no more than the header's states); in
    steps, one per piece."""
    inflater = zlib.decompressobj()
    payload, tail = bytearray(), compressed
    try:
        while len(payload) <= size and not inflater.eof:
            piece = inflater.decompress(tail, min(size + 1 - len(payload), INFLATE_PIECE))
            if not piece and len(inflater.unconsumed_tail) == len(tail):
                break  # no more input
            payload += piece
            tail = inflater.unconsumed_tail
            yield
    except zlib.error:
        raise unreadable("corrupt") from None
    if len(payload) != size or not inflater.eof or inflater.unconsumed_tail or inflater.unused_data:
        raise unreadable("length")
    return bytes(payload)


def unsigned_array(raw: bytes, size: int) -> array:
    """The unsigned integers of `size` bytes (2 or 4) stored little endian in `raw`, as an
    array in the machine's own order."""
    values = array(next(code for code in "HIL" if array(code).itemsize == size))
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    return values


def write_table(magic: bytes, header: dict, payload: bytes) -> bytes:
    """A table's bytes (build time): magic, header length, JSON header, zlib(payload)."""
    text = json.dumps(header, sort_keys=True).encode()
    return magic + struct.pack("<I", len(text)) + text + zlib.compress(payload, 9)
