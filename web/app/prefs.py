"""The player's preferences for every game page, kept in localStorage under one key
(`KEY`, "pygames:prefs"): the sound switch, and whatever other setting a page adds.

Pure Python (no browser import; unit-tested in tests/test_prefs.py): the shell reads the
stored text with `parse` and writes a change with `dump(with_pref(parse(text), key,
value))`, reading the stored text again just before, so that two settings changed by two
parts of the page (or two tabs) never erase each other.

A known preference (`ALLOWED`) keeps its default when the stored value is not one of its
allowed values (of the same type: ``1`` is not ``True``).  A key this page does not know
(written by a newer page) is kept as it is if it is a short plain scalar, so that pages of
different ages do not erase each other's settings.  A setting is added by one line in
`ALLOWED` (its allowed values, the first one being the default).
"""

from __future__ import annotations

import json

from guard import MAX_DEPTH, nesting_depth

KEY = "pygames:prefs"
MAX_TEXT = 4_000  # characters of the stored value (a few settings take ~100)
MAX_KEYS = 32
MAX_NAME = 40  # characters of a key, and of a kept string value

#: Each known preference: its allowed values, the default first.
ALLOWED: dict[str, tuple] = {
    "sound": (False, True),  # the "moment of joy" chime: off unless the player turns it on
    "pace": ("normal", "lent", "rapide", "instant"),  # the computer's speed (see PACE_MS)
    "confirm_zero": (True, False),  # ask before a 0 is written while a box would score
}

#: The computer's pause between its moves for each speed, in milliseconds (`?pace=MS` in
#: the URL overrides it).  The page offers them in this order.
PACE_MS: dict[str, int] = {"lent": 1200, "normal": 650, "rapide": 250, "instant": 0}
#: Each speed's name, as a catalogue id (site domain: "Lente", "Slow"…), looked up when shown.
PACE_LABELS: dict[str, str] = {speed: f"site.pace.{speed}" for speed in PACE_MS}


def pace_seconds(prefs: dict) -> float:
    """The computer's pause in seconds for the stored speed (a bad value: normal)."""
    speed = prefs.get("pace") if isinstance(prefs, dict) else None
    return PACE_MS.get(speed if isinstance(speed, str) else "normal", PACE_MS["normal"]) / 1000


def defaults() -> dict:
    return {key: values[0] for key, values in ALLOWED.items()}


def _allowed(key: str, value) -> bool:
    return any(type(value) is type(ok) and value == ok for ok in ALLOWED[key])


def _plain(key, value) -> bool:
    """An unknown setting worth keeping: a short key holding a short scalar."""
    if not isinstance(key, str) or not key or len(key) > MAX_NAME:
        return False
    if isinstance(value, str):
        return len(value) <= MAX_NAME
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    return isinstance(value, (bool, int)) and (type(value) is bool or abs(value) < 2 ** 53)


def parse(text) -> dict:
    """The preferences from the stored text (None, bad JSON, anything): never raises."""
    prefs = defaults()
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        return prefs
    if nesting_depth(text) > MAX_DEPTH:  # deep nesting would overflow the stack (guard.py)
        return prefs
    try:
        data = json.loads(text)
    except ValueError:
        return prefs
    if not isinstance(data, dict):
        return prefs
    for key, value in list(data.items())[:MAX_KEYS]:
        if key in ALLOWED:
            if _allowed(key, value):
                prefs[key] = value
        elif _plain(key, value):
            prefs[key] = value
    return prefs


def with_pref(prefs: dict, key: str, value) -> dict:
    """A copy of `prefs` with one setting changed; ValueError for a value not allowed."""
    if key in ALLOWED:
        if not _allowed(key, value):
            raise ValueError(f"{key}: {value!r} is not one of {ALLOWED[key]!r}")
    elif not _plain(key, value):
        raise ValueError(f"{key!r}: {value!r} is not a plain setting")
    return {**prefs, key: value}


def dump(prefs: dict) -> str:
    """The text to store (keys sorted: the same preferences always give the same text)."""
    return json.dumps(prefs, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
