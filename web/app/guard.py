"""What the page reads from the browser, checked before anything else touches it.

Pure Python (no browser import), so it is unit-tested with plain CPython
(tests/test_page_guard.py).  Everything the shell reads from localStorage goes through
`read_json` (size and nesting depth on the raw text, before `json.loads`: a deeply nested
value overflows the JavaScript stack inside Pyodide, which no `except` catches) and then
through a check of its types, field by field (`check_saved_match`, `check_setup`).  A
value that fails is moved aside under `aside_key` (kept for a bug report, bounded in
size) and the page starts afresh with a notice.

Texts come as pieces ``[(chunk, is_name), …]`` (pygames.messages.render): the names are
placed as data by whoever writes the sentence, never searched for in it, and the page shows
each in its own `<bdi>`, so a name written right to left (or holding U+202E) cannot turn the
rest of the sentence around; `short_pieces` bounds such a text.
"""

from __future__ import annotations

import json

MAX_STORED = 2_000_000  # characters of one stored value (a long game is ~20 kB)
MAX_DEPTH = 32  # nesting of a stored value (a saved game needs 4)
MAX_ASIDE = 100_000  # characters of a bad value kept aside for a bug report
CORRUPT_PREFIX = "pygames:corrupt:"
MAX_NOTICE = 300  # characters of a notice shown on the page


class BadStored(ValueError):
    """A stored value the page cannot use.  It carries a catalogue id (and its parameters):
    ``str(err)`` is its text in the page's language; a text that is no catalogue id stands
    for itself."""

    def __init__(self, message, /, **params):
        from pygames.messages import Msg

        self.message = message if isinstance(message, Msg) else Msg(str(message), **params)
        super().__init__(self.message.id)

    def __str__(self) -> str:
        from pygames.messages import text

        return text(self.message)


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of [ and { in JSON text (strings skipped), stopping past `limit`."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def read_json(text, max_size: int = MAX_STORED, max_depth: int = MAX_DEPTH):
    """The JSON value of a stored text, or BadStored (too big, too deep, not JSON)."""
    if not isinstance(text, str):
        raise BadStored("site.bad.value_unreadable")
    if len(text) > max_size:
        raise BadStored("site.bad.value_too_big")
    if nesting_depth(text, max_depth) > max_depth:
        raise BadStored("site.bad.value_too_deep")
    try:
        return json.loads(text, parse_constant=_refuse, parse_float=_finite, parse_int=_finite_int)
    except (ValueError, RecursionError, OverflowError):
        raise BadStored("site.bad.json") from None


def _refuse(word):
    raise ValueError(word)  # NaN, Infinity: not JSON


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def _finite_int(text):
    """An integer, refused when it is beyond a double's range (JavaScript reads it as
    Infinity), so that the page's scripts and Python read the same values."""
    value = int(text)
    float(value)  # OverflowError past 1.8e308
    return value


def check_saved_match(value) -> dict:
    """A saved game's blob: an object with a `record` object (load_match checks the rest)."""
    if not isinstance(value, dict):
        raise BadStored("site.bad.object_expected")
    if not isinstance(value.get("record"), dict):
        raise BadStored("site.bad.no_game")
    if "embed" in value and not isinstance(value["embed"], str):
        raise BadStored("site.bad.embed_signature")
    return value


def check_setup(raw, rules) -> dict:
    """The stored setup preferences, {"game": id, "options": {id: value}, "players": [{"name",
    "seat"}]}, from their stored text (None: nothing stored).

    `rules` are the setup's rules that the build writes into the page as JSON (#setup-data,
    web/tools/pages.py setup_rules): js/setup-early.js checks the same text against the same
    rules in the same steps (tests/test_setup_rules.py holds them to agree).  Any field of
    the wrong type makes the whole value bad (BadStored); a game the page does not have, or
    an option value it does not offer, is only left out."""
    if raw is None:
        return {}
    limits = rules["stored"]
    if not isinstance(raw, str) or _utf16_length(raw) > limits["text"]:
        raise BadStored("site.bad.prefs_too_big")
    value = read_json(raw, max_depth=limits["depth"])
    if not isinstance(value, dict):
        raise BadStored("site.bad.object_expected")
    clean: dict = {}
    game = value.get("game")
    if game is not None:
        if not isinstance(game, str):
            raise BadStored("site.bad.ruleset")
        if game in rules["rulesets"]:
            clean["game"] = game
    if "options" in value:
        options = value["options"]
        if not isinstance(options, dict):
            raise BadStored("site.bad.options")
        offered = rules["rulesets"][clean["game"]]["options"] if "game" in clean else []
        kept = {}
        for opt in offered:
            if opt["id"] not in options:
                continue
            val = options[opt["id"]]
            if opt["choices"]:
                choice = next((c for c in opt["choices"] if _kind(c) == _kind(val) and c == val), None)
            else:
                choice = val if isinstance(val, bool) else None
            if choice is not None:
                kept[opt["id"]] = choice
        clean["options"] = kept
    if "players" in value:
        players = value["players"]
        if not isinstance(players, list) or len(players) > limits["players"]:
            raise BadStored("site.bad.players")
        kept_players = []
        for p in players:
            if not isinstance(p, dict):
                raise BadStored("site.bad.player")
            name, seat = p.get("name", ""), p.get("seat", "human")
            if not isinstance(name, str) or not isinstance(seat, str):
                raise BadStored("site.bad.player")
            kept_players.append({"name": name[:limits["name"]], "seat": seat[:limits["seat"]]})
        clean["players"] = kept_players
    return clean


def _kind(value) -> str:
    """A JSON value's type as JavaScript's typeof sees it (a bool is not a number)."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "string" if isinstance(value, str) else "other"


def _utf16_length(text: str) -> int:
    """The length of a text as the browser counts it (UTF-16 code units)."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def aside_key(key: str, stamp: int) -> str:
    """Where a bad value of `key` is kept: pygames:corrupt:<key>:<timestamp>."""
    return f"{CORRUPT_PREFIX}{key}:{stamp}"


def aside_value(text) -> str:
    """A bad value as kept aside: at most MAX_ASIDE characters of it."""
    text = text if isinstance(text, str) else repr(text)
    return text if len(text) <= MAX_ASIDE else text[:MAX_ASIDE] + "…"


def short(text: str, limit: int = MAX_NOTICE) -> str:
    """A notice cut to `limit` characters."""
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_pieces(pieces, limit: int = MAX_NOTICE) -> list:
    """Text pieces ``[(chunk, is_name), …]`` cut to `limit` characters in all."""
    out, left = [], limit
    for chunk, is_name in pieces:
        if left <= 0:
            break
        if len(chunk) > left:
            chunk = chunk[: max(left - 1, 0)] + "…"
        out.append((chunk, is_name))
        left -= len(chunk)
    return out
