"""Playing at a distance, by links: a game's record goes back and forth, turn by turn.

Pure Python (no browser import), unit-tested with plain CPython (tests/test_remote_link.py);
the page part is remote_view.py.

A link is ``<page>.html#play=1.<data>``, the data of a replay link (replay.py: the same
format, the same bounds on reading), but it opens the game to carry it on.  The record
holds a ``remote`` field (pygames.core.check_remote): the game's random id, so that the
links of one game are recognised; for each player, the device their seat is played on
(None: not yet known, or handed to whoever opens the next link); the device that sent it.

* A device has an id of its own (`Ledger`, ``pygames:remote`` in localStorage), with the
  number of moves of each game by links it has seen, so that an older link is known as
  older even when the game is no longer the page's saved one.
* Whose turn: the seat of the person to play belongs to this device, or the page waits
  (`waiting`) and offers to send the link; "Jouer quand même ici" takes the seat.
* The dice are thrown by the page of the player whose turn it is (the page's own sampler):
  the game is *amical*, its peers trusted with their dice; the record keeps every throw.
* A peer is trusted with nothing else: the link's text goes through `replay.decode` (its
  size, alphabet, inflated size, JSON nesting), the record through the rules (every move
  replayed, an illegal one refused), names are only ever shown as text.
"""

from __future__ import annotations

import json
import secrets

from guard import BadStored, read_json
from replay import ReplayError, decode, encode, error

from pygames import FAMILIES, GAMES, BadRecord, GameError, Match
from pygames.core import remote_id

KEY = "play="
LEDGER_KEY = "pygames:remote"
MAX_SEEN = 60  # games remembered by the ledger (the oldest are forgotten)
MAX_NEWS = 40  # moves listed when a link arrives


def new_id() -> str:
    """A random id (a game's, a device's): 16 characters of base64url."""
    return secrets.token_urlsafe(12)


# --- links -----------------------------------------------------------------------------


def link(page_url: str, record: dict) -> str:
    """The link that carries a game by links on a page (any fragment of `page_url` dropped)."""
    return page_url.split("#", 1)[0] + "#" + KEY + encode(record)


def from_fragment(fragment) -> str | None:
    """The data of a play link in a URL fragment (``#play=…``), or None."""
    if not isinstance(fragment, str):
        return None
    fragment = fragment[1:] if fragment.startswith("#") else fragment
    return fragment[len(KEY):] if fragment.startswith(KEY) else None


def read(data, family_id: str, sampler=None) -> Match:
    """The game a play link carries, for the page of `family_id`, every move replayed by the
    rules; ReplayError (its text for the visitor) for anything else."""
    record = decode(data)
    game = GAMES.get(record.get("game")) if isinstance(record.get("game"), str) else None
    if game is not None and game.family != family_id:
        raise error("site.replay.other_family", title=str(FAMILIES[game.family].title))
    if not isinstance(record.get("remote"), dict):
        raise error("site.remote.not_remote")
    try:
        match = Match.from_record(record, GAMES, sampler)
    except GameError as err:  # BadRecord: an unknown game, bad players, an illegal move…
        raise error("site.replay.not_replayable", why=_short(str(err))) from None
    except RecursionError:
        raise error("site.replay.unreadable") from None
    if match.daily is not None:
        raise error("site.remote.daily")
    if sum(1 for p in match.players if not p.is_computer) < 2:
        raise error("site.remote.one_person")
    return match


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- two versions of one game ---------------------------------------------------------------


def compare(mine: list, theirs: list) -> str:
    """How a link's moves (`theirs`) stand to this device's (`mine`), both notations:
    "same", "newer" (the link carries this device's game further), "older" (the device's
    game carries the link's further) or "diverged" (both played from one position)."""
    if theirs == mine:
        return "same"
    if len(theirs) > len(mine) and theirs[: len(mine)] == mine:
        return "newer"
    if len(theirs) < len(mine) and mine[: len(theirs)] == theirs:
        return "older"
    return "diverged"


def same_game(record, match: Match) -> bool:
    """The saved record is the game of the link (the same id)."""
    remote = record.get("remote") if isinstance(record, dict) else None
    return isinstance(remote, dict) and match.remote is not None and remote.get("id") == match.remote["id"]


# --- whose turn, on which device ----------------------------------------------------------


def person_to_play(match: Match) -> int | None:
    """The person whose decision the game waits for (None: dice in the air, the computer's
    turn, the game over)."""
    state = match.state
    if state.is_terminal() or state.is_chance():
        return None
    p = state.current_player()
    return None if match.players[p].is_computer else p


def persons(match: Match) -> list[int]:
    return [i for i, p in enumerate(match.players) if not p.is_computer]


def can_go_remote(match: Match, device: str) -> bool:
    """A game this page may hand to another device: two persons or more, a person to play
    here (`device`), not the day's challenge (one try, on this device)."""
    return (match.daily is None and len(persons(match)) >= 2 and person_to_play(match) is not None
            and not waiting(match, device))


def waiting(match: Match, device: str | None) -> bool:
    """A game by links whose person to play is on another device (or on none known yet):
    this device does not play that turn unless asked to ("Jouer quand même ici")."""
    if match.remote is None:
        return False
    p = person_to_play(match)
    return p is not None and match.remote["seats"][p] != device


def hand_over(match: Match, device: str) -> int:
    """The person to play is elsewhere: the game becomes one by links (the other persons'
    seats on this device, if it was played here only) and that seat is handed to whoever
    opens the link.  Returns that person."""
    p = person_to_play(match)
    if p is None:
        raise ValueError("no person to play")
    if match.remote is None:
        match.remote = {"id": new_id(), "seats": [None if match.players[q].is_computer else device
                                                  for q in range(len(match.players))]}
    seats = list(match.remote["seats"])
    seats[p] = None
    match.remote = {**match.remote, "seats": seats, "by": device}
    return p


def claim(match: Match, player: int, device: str) -> None:
    """`player`'s seat is played on this device from now on."""
    if match.remote is None or match.players[player].is_computer:
        return
    seats = list(match.remote["seats"])
    if seats[player] != device:
        seats[player] = device
        match.remote = {**match.remote, "seats": seats}


def received(match: Match, device: str) -> None:
    """A link opened on this device: it was sent to the person to play (whoever had their
    seat before, a link sent on is sent to them), whose seat is this device's now."""
    p = person_to_play(match)
    if p is not None:
        claim(match, p, device)


def sent_by(match: Match, device: str) -> None:
    if match.remote is not None:
        match.remote = {**match.remote, "by": device}


# --- the device's ledger ----------------------------------------------------------------------


class Ledger:
    """This device's id and, for each game by links it has seen, the most moves it has
    seen of it (``pygames:remote``: ``{"device": id, "seen": {"<family>:<game id>": n}}``)."""

    def __init__(self, device: str | None = None, seen: dict | None = None):
        self.device = device or new_id()
        self.seen = dict(seen or {})

    @classmethod
    def parse(cls, raw) -> "Ledger":
        """From its stored text (None: a new device); BadStored if it is damaged."""
        if raw is None:
            return cls()
        value = read_json(raw, 20_000, 4)
        if not isinstance(value, dict) or not remote_id(value.get("device")):
            raise BadStored("site.remote.ledger_bad")
        seen = value.get("seen", {})
        if not isinstance(seen, dict) or len(seen) > MAX_SEEN * 2:
            raise BadStored("site.remote.ledger_bad")
        clean = {}
        for key, n in seen.items():
            if isinstance(key, str) and len(key) <= 80 and type(n) is int and 0 <= n <= 1_000_000:
                clean[key] = n
        return cls(value["device"], clean)

    def dumps(self) -> str:
        return json.dumps({"device": self.device, "seen": self.seen}, separators=(",", ":"))

    @staticmethod
    def key(family: str, game_id: str) -> str:
        return f"{family}:{game_id}"

    def most(self, family: str, game_id: str) -> int:
        return self.seen.get(self.key(family, game_id), 0)

    def saw(self, family: str, game_id: str, n: int) -> None:
        key = self.key(family, game_id)
        n = max(n, self.seen.pop(key, 0))
        self.seen[key] = n  # (last in order: the newest)
        while len(self.seen) > MAX_SEEN:
            del self.seen[next(iter(self.seen))]


__all__ = ["KEY", "LEDGER_KEY", "BadRecord", "Ledger", "ReplayError", "can_go_remote", "claim", "compare",
           "from_fragment", "hand_over", "link", "person_to_play", "read", "received", "same_game", "sent_by",
           "waiting"]
