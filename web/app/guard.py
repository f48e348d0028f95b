"""What the page reads from the browser, checked before anything else touches it.

Pure Python (no browser import), so it is unit-tested with plain CPython
(tests/test_page_guard.py).  Everything the shell reads from localStorage goes through
`read_json` (size and nesting depth on the raw text, before `json.loads`: a deeply nested
value overflows the JavaScript stack inside Pyodide, which no `except` catches) and then
through a check of its types, field by field (`check_saved_match`, `check_setup`).  A
value that fails is moved aside under `aside_key` (kept for a bug report, bounded in
size) and the page starts afresh with a French notice.

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
    """A stored value the page cannot use; the message is French."""


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
        raise BadStored("valeur illisible")
    if len(text) > max_size:
        raise BadStored("valeur trop grande")
    if nesting_depth(text, max_depth) > max_depth:
        raise BadStored("valeur trop imbriquée")
    try:
        return json.loads(text, parse_constant=_refuse, parse_float=_finite)
    except (ValueError, RecursionError, OverflowError):
        raise BadStored("JSON invalide") from None


def _refuse(word):
    raise ValueError(word)  # NaN, Infinity: not JSON


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def check_saved_match(value) -> dict:
    """A saved game's blob: an object with a `record` object (load_match checks the rest)."""
    if not isinstance(value, dict):
        raise BadStored("un objet est attendu")
    if not isinstance(value.get("record"), dict):
        raise BadStored("partie absente")
    if "embed" in value and not isinstance(value["embed"], str):
        raise BadStored("signature d'intégration illisible")
    return value


def check_setup(value, games) -> dict:
    """Setup preferences: {"game": id, "options": {id: value}, "players": [{"name", "seat"}]}.

    `games` maps the family's ruleset ids to their Game.  Any field of the wrong type makes
    the whole value bad (BadStored); the result holds only checked fields."""
    if not isinstance(value, dict):
        raise BadStored("un objet est attendu")
    clean: dict = {}
    game = value.get("game")
    if game is not None:
        if not isinstance(game, str):
            raise BadStored("règle illisible")
        if game in games:
            clean["game"] = game
    if "options" in value:
        options = value["options"]
        if not isinstance(options, dict):
            raise BadStored("options illisibles")
        known = {o.id: o for g in games.values() for o in g.options}
        kept = {}
        for key, val in options.items():
            opt = known.get(key)
            if opt is None:
                continue
            if opt.choices:
                if any(type(val) is type(c) and val == c for c in opt.choices):
                    kept[key] = val
            elif isinstance(val, bool):
                kept[key] = val
        clean["options"] = kept
    if "players" in value:
        players = value["players"]
        if not isinstance(players, list) or len(players) > 20:
            raise BadStored("joueurs illisibles")
        kept_players = []
        for p in players:
            if not isinstance(p, dict):
                raise BadStored("joueur illisible")
            name, seat = p.get("name", ""), p.get("seat", "human")
            if not isinstance(name, str) or not isinstance(seat, str):
                raise BadStored("joueur illisible")
            kept_players.append({"name": name[:40], "seat": seat[:20]})
        clean["players"] = kept_players
    return clean


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
