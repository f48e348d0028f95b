"""The container every solved table of an expert is written in, and its checked reading.

A table is: a magic (8 bytes, one per family), the length of its header (u32, little
endian), a JSON header (an object: ``format``, ``states``, ``sha256`` of the raw values,
and what the family needs), then the values, compressed with zlib.  `read_table` checks
all of it before anything reads a value: any defect — a truncated file, a header that is
no object, a count of states that is no whole number, a payload that inflates beyond what
the header announces or is followed by other bytes, a hash mismatch — raises the one error type (`GameError`, message
``tables.unreadable``), and inflating never takes more memory than the header's states
need (a small file cannot inflate to a gigabyte).
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import zlib
from array import array
from typing import Callable

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
    payload = _inflate(data[start + length :], size)
    raw = raw_of(payload, states) if raw_of else payload
    if hashlib.sha256(raw).hexdigest() != digest:
        raise unreadable("hash")
    return header, payload


INFLATE_PIECE = 1 << 20  # bytes inflated at a time


def _inflate(compressed: bytes, size: int) -> bytes:
    """The `size` bytes `compressed` inflates to, never holding more than ``size + 1`` of
    them (a piece at a time, so that a bomb costs no more than the header's states)."""
    inflater = zlib.decompressobj()
    payload, tail = bytearray(), compressed
    try:
        while len(payload) <= size and not inflater.eof:
            piece = inflater.decompress(tail, min(size + 1 - len(payload), INFLATE_PIECE))
            if not piece and len(inflater.unconsumed_tail) == len(tail):
                break  # no more input
            payload += piece
            tail = inflater.unconsumed_tail
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
