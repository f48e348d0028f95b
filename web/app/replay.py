"""Replays to share: a game's record carried in a link, and read back with bounds.

Pure Python (no browser import), unit-tested with plain CPython (tests/test_replay_link.py);
the page part is replay_view.py.

A link is ``<page>.html#replay=1.<data>``: ``1`` is the format of ``<data>``, the record
(`Match.to_record`) as compact UTF-8 JSON, compressed with raw deflate and a preset
dictionary (`ZDICT`), in unpadded base64url.  The fragment is never sent to a server.
A 4-player game of Yams makes a link of about 1.3 kB.

Reading a link (`decode`, `load`) trusts nothing: the text's length, its alphabet, the size
of what it inflates to (`MAX_RECORD`: a link of a few kilobytes may not become megabytes),
the JSON's nesting, the record's fields and every move (replayed by the rules) are checked,
and any defect raises `ReplayError` with a French message for the visitor.

`Replay` turns a record into the positions a visitor steps through: position 0 is the
start (once any opening dice have landed), position k the game after the k-th player's
action and the dice it made fall, as the page showed it when it was played.
"""

from __future__ import annotations

import base64
import binascii
import copy
import json
import re
import zlib

from guard import BadStored, read_json

from pygames import FAMILIES, GAMES, GameError, Match
from pygames.messages import text

VERSION = "1"
KEY = "replay="
MAX_PAYLOAD = 60_000  # characters of <data> (a long game of Linotte needs ~5 000)
MAX_RECORD = 200_000  # bytes the data may inflate to (a long game's JSON is ~30 kB)
MAX_ACTIONS = 20_000  # moves, dice included (a long game has ~2 500)
MAX_DEPTH = 8  # nesting of the JSON (a record needs 3)
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")

# Words the records of every game share: a preset dictionary for deflate, so that even a
# short game compresses well.  Links of format "1" depend on these exact bytes: never change
# them (a new dictionary needs a new VERSION, and decode keeping the old one).
ZDICT = (
    '{"format":"pygames/1","game":"yams","options":{},"players":[{"name":"Joueur 1",'
    '"seat":"human"},{"name":"Joueur 2","seat":"simple"},{"name":"Ordinateur","seat":"expert"}],'
    '"actions":["announce carre","announce full","announce quinte","announce small",'
    '"announce yam","place c3","pass","seal","stop","score pair","score two_pairs",'
    '"score three_kind","score four_kind","score full","score small_straight",'
    '"score large_straight","score chance","score yams","score ones","score twos",'
    '"score threes","score fours","score fives","score sixes","keep 1 1","keep 6 6",'
    '"dice 1 2 3 4 5","dice 6 5 4","dice 2 3","dice 5","roll","roll"]'
).encode()


class ReplayError(ValueError):
    """A replay link that cannot be shown; the message is for the visitor, in the page's
    language (`error`: raised with a catalogue id)."""


def error(msg_id: str, **params) -> ReplayError:
    return ReplayError(text(msg_id, **params))


# --- the link's data ---------------------------------------------------------------------


def encode(record: dict) -> str:
    """The link data of a record (``1.<base64url>``)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, ZDICT)
    data = packer.compress(text) + packer.flush()
    return VERSION + "." + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def link(page_url: str, record: dict) -> str:
    """The replay link of a record on a page (any fragment of `page_url` is dropped)."""
    return page_url.split("#", 1)[0] + "#" + KEY + encode(record)


def from_fragment(fragment) -> str | None:
    """The replay data in a URL fragment (``#replay=…``, with or without ``#``), or None
    when the fragment asks for no replay."""
    if not isinstance(fragment, str):
        return None
    fragment = fragment[1:] if fragment.startswith("#") else fragment
    if not fragment.startswith(KEY):
        return None
    return fragment[len(KEY):]


def decode(data) -> dict:
    """The record a link carries (its fields checked, its moves not yet replayed)."""
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("ascii")
        except UnicodeDecodeError:
            raise error("site.replay.bad_chars") from None
    if not isinstance(data, str):
        raise error("site.replay.unreadable")
    if len(data) > MAX_PAYLOAD + 2:
        raise error("site.replay.too_long")
    data = data.strip()
    version, dot, body = data.partition(".")
    if not dot or not version:
        raise error("site.replay.incomplete")
    if version != VERSION:
        raise error("site.replay.other_version")
    if not body or not _ALPHABET.fullmatch(body) or len(body) % 4 == 1:
        raise error("site.replay.damaged")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise error("site.replay.damaged") from None
    try:
        unpacker = zlib.decompressobj(-15, ZDICT)
        raw = unpacker.decompress(packed, MAX_RECORD + 1)
        if len(raw) > MAX_RECORD or unpacker.unconsumed_tail:
            raise error("site.replay.too_much_data")
        if not unpacker.eof or unpacker.unused_data:
            raise error("site.replay.damaged")
    except zlib.error:
        raise error("site.replay.no_inflate") from None
    try:
        text = raw.decode("utf-8")
        record = read_json(text, MAX_RECORD, MAX_DEPTH)
    except (UnicodeDecodeError, BadStored):
        raise error("site.replay.bad_game") from None
    return check_record(record)


def check_record(record) -> dict:
    """The record's shape, before the rules replay it (which checks the rest)."""
    if not isinstance(record, dict):
        raise error("site.replay.not_a_game")
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise error("site.replay.no_moves_list")
    if len(actions) > MAX_ACTIONS:
        raise error("site.replay.too_many_moves")
    return record


# --- a replay ----------------------------------------------------------------------------


def load(data, family_id: str) -> "Replay":
    """The replay a link's data holds, for the page of `family_id`."""
    record = decode(data)
    game = GAMES.get(record.get("game")) if isinstance(record.get("game"), str) else None
    if game is not None and game.family != family_id:
        title = FAMILIES[game.family].title
        raise error("site.replay.other_family", title=str(title))
    try:
        match = Match.from_record(record, GAMES)
    except GameError as err:  # BadRecord: an unknown game, bad players, an illegal move…
        raise error("site.replay.not_replayable", why=short(str(err))) from None
    except RecursionError:
        raise error("site.replay.unreadable") from None
    return Replay(match)


def short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Replay:
    """A finished (or unfinished) match, stepped through by the players' actions."""

    def __init__(self, match: Match):
        self.match = match
        #: positions[k] = (how many actions of the history are played, the state then)
        self.positions = []
        #: moves[k - 1] = (actor, action, state before) of the step that leads to position k
        self.moves = []
        move = None  # the player's action of the step under way (the dice that follow it land)
        for step in match.positions():
            if step.before.is_chance():
                if not step.after.is_chance() and not self.positions:
                    self.positions.append((step.ply + 1, step.after))  # the opening dice
                elif not step.after.is_chance() and move is not None:
                    self.positions.append((step.ply + 1, step.after))
                    self.moves.append(move)
                    move = None
                continue
            if not self.positions:
                self.positions.append((step.ply, step.before))
            move = (step.before.current_player(), step.action, step.before)
            if not step.after.is_chance():
                self.positions.append((step.ply + 1, step.after))
                self.moves.append(move)
                move = None
        if not self.positions:  # nothing but the first state (the record holds no action)
            self.positions.append((0, match.first_state()))
        if self.positions[0][1].is_chance():
            raise error("site.replay.empty")

    @property
    def last(self) -> int:
        """The number of steps: positions run from 0 to `last`."""
        return len(self.positions) - 1

    @property
    def finished(self) -> bool:
        return self.positions[-1][1].is_terminal()

    def match_at(self, k: int) -> Match:
        """A match as it stood at position k (the same players, options and start)."""
        played, state = self.positions[k]
        match = copy.copy(self.match)
        match.history = list(self.match.history[:played])
        match.state = state
        return match

    def move(self, k: int):
        """(actor, action, state before) of the step that leads to position k (k ≥ 1)."""
        return self.moves[k - 1]
