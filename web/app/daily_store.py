"""The day's challenge ("Défi du jour") as this device keeps it: pure Python on plain JSON
values (no browser import: unit-tested in tests/test_daily_store.py; web/app/daily.py puts
it on the page, js/home.js reads the same value for the home page's card).

One localStorage value, `DAILY_KEY`, shared by every game page:

    {"format": "pygames-daily/1",
     "days": {<family id>: {<YYYY-MM-DD>: {"status": "playing" | "done" | "abandoned",
                                           "game": <ruleset id>,
                                           "result": "solo" | "won" | "lost" | "draw" | "",
                                           "score": int | null,
                                           "picture": <plain characters>,
                                           "replay": <replay link data> | ""}}}}

One try per day and game: an entry is written when the day's game starts ("playing"); a
game finished is "done"; a game left ("Quitter", or another game begun over it) is
"abandoned" and counts as played.  The store holds no words: the share text is written
when shown, in the page's language.  Everything read goes through `check`, which accepts
exactly this shape within its bounds or raises `BadStored` (never anything else).
"""

from __future__ import annotations

import datetime
import json
import re

from guard import BadStored, read_json

from pygames.messages import Msg, text

DAILY_KEY = "pygames:daily"
FORMAT = "pygames-daily/1"
MAX_TEXT = 400_000  # characters of the stored value
MAX_DEPTH = 6
MAX_FAMILIES = 10
MAX_DAYS = 400  # days kept per game (the oldest go first)
MAX_REPLAYS = 14  # the newest days keep their replay link's data
MAX_REPLAY = 60_000  # characters (replay.MAX_PAYLOAD)
MAX_PICTURE = 200
MAX_INT = 10**9
STATUSES = ("playing", "done", "abandoned")
RESULTS = ("solo", "won", "lost", "draw", "")
FAMILY_RE = re.compile(r"[0-9a-z][0-9a-z_-]{0,39}")
DATE_RE = re.compile(r"\d{4}-\d\d-\d\d")
REPLAY_RE = re.compile(r"[0-9]\.[A-Za-z0-9_-]*")
# The picture's characters: squares, dots, digits, letters, spaces and newlines (no emoji).
PICTURE_RE = re.compile(r"[■□▪·.:|/+\-0-9A-Za-z \n]*")
FULL, EMPTY, DOT = "■", "□", "·"


def empty() -> dict:
    return {"format": FORMAT, "days": {}}


def bad(what: str) -> BadStored:
    return BadStored("site.daily.bad_store", what=what)


def load(raw) -> dict:
    """The store from its stored text (None: an empty store); BadStored if it is damaged."""
    if raw is None:
        return empty()
    return check(read_json(raw, MAX_TEXT, MAX_DEPTH))


def dumps(store: dict) -> str:
    return json.dumps(store, ensure_ascii=False, separators=(",", ":"))


def check(value) -> dict:
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise bad("format")
    days = value.get("days")
    if not isinstance(days, dict) or len(days) > MAX_FAMILIES:
        raise bad("days")
    out = {}
    for family, dates in days.items():
        if not isinstance(family, str) or not FAMILY_RE.fullmatch(family):
            raise bad("game")
        if not isinstance(dates, dict) or len(dates) > MAX_DAYS:
            raise bad("days")
        out[family] = {}
        for date, entry in dates.items():
            if not isinstance(date, str) or not DATE_RE.fullmatch(date) or not is_date(date):
                raise bad("date")
            out[family][date] = check_entry(entry)
    return {"format": FORMAT, "days": out}


def is_date(written: str) -> bool:
    try:
        datetime.date.fromisoformat(written)
    except ValueError:
        return False
    return True


def check_entry(entry) -> dict:
    if not isinstance(entry, dict):
        raise bad("entry")
    status, game, result = entry.get("status"), entry.get("game"), entry.get("result", "")
    score, picture, replay = entry.get("score"), entry.get("picture", ""), entry.get("replay", "")
    if status not in STATUSES:
        raise bad("status")
    if not isinstance(game, str) or not FAMILY_RE.fullmatch(game):
        raise bad("game")
    if result not in RESULTS:
        raise bad("result")
    if score is not None and (type(score) is not int or abs(score) > MAX_INT):
        raise bad("score")
    if not isinstance(picture, str) or len(picture) > MAX_PICTURE or not PICTURE_RE.fullmatch(picture):
        raise bad("picture")
    if not isinstance(replay, str) or len(replay) > MAX_REPLAY or (replay and not REPLAY_RE.fullmatch(replay)):
        raise bad("replay")
    return {"status": status, "game": game, "result": result, "score": score, "picture": picture,
            "replay": replay}


def entry(store: dict, family: str, date: str) -> dict | None:
    return store["days"].get(family, {}).get(date)


def _put(store: dict, family: str, date: str, value: dict) -> dict:
    """A new store with `value` for (family, date), within the bounds."""
    days = {f: dict(d) for f, d in store["days"].items()}
    dates = days.setdefault(family, {})
    dates[date] = check_entry(value)
    newest = sorted(dates)[-MAX_DAYS:]
    kept_replays = set(newest[-MAX_REPLAYS:])
    days[family] = {d: (dates[d] if d in kept_replays else {**dates[d], "replay": ""}) for d in newest}
    while len(days) > MAX_FAMILIES:  # (a page of a game no longer on the site)
        days.pop(next(f for f in days if f != family))
    return {"format": FORMAT, "days": days}


def started(store: dict, family: str, date: str, game: str) -> dict:
    return _put(store, family, date, {"status": "playing", "game": game, "result": "", "score": None})


def finished(store: dict, family: str, date: str, game: str, *, result: str, score: int | None,
             picture: str = "", replay: str = "") -> dict:
    if len(replay) > MAX_REPLAY:
        replay = ""
    return _put(store, family, date, {"status": "done", "game": game, "result": result, "score": score,
                                      "picture": picture[:MAX_PICTURE], "replay": replay})


def abandoned(store: dict, family: str, date: str) -> dict:
    old = entry(store, family, date) or {"game": family}
    return _put(store, family, date, {"status": "abandoned", "game": old["game"], "result": "", "score": None})


def played(store: dict, family: str, date: str) -> bool:
    """Whether the day's try is used (finished or given up)."""
    found = entry(store, family, date)
    return found is not None and found["status"] != "playing"


def streak(store: dict, family: str | None, today: str) -> int:
    """Consecutive days played up to today (or up to yesterday while today is still open),
    of one game (or of any game: `family` None)."""
    families = [family] if family else list(store["days"])
    days = {d for f in families for d, e in store["days"].get(f, {}).items() if e["status"] != "playing"}
    day = datetime.date.fromisoformat(today)
    if day.isoformat() not in days:
        day -= datetime.timedelta(days=1)
    n = 0
    while day.isoformat() in days:
        n += 1
        day -= datetime.timedelta(days=1)
    return n


def best(store: dict, family: str, lower_better: bool = False) -> tuple[str, dict] | None:
    """The best day (date, entry) of a game: the best score of a solitaire, else a win with
    the best score; None before any finished day."""
    done = [(d, e) for d, e in store["days"].get(family, {}).items() if e["status"] == "done"
            and e["score"] is not None]
    if not done:
        return None
    rank = {"won": 3, "solo": 3, "draw": 2, "lost": 1, "": 0}
    sign = -1 if lower_better else 1
    return max(done, key=lambda de: (rank[de[1]["result"]], sign * de[1]["score"], de[0]))


def history(store: dict, family: str) -> list[tuple[str, dict]]:
    """The days of a game, newest first."""
    return sorted(store["days"].get(family, {}).items(), reverse=True)


# --- the picture and the share text ----------------------------------------------------------


def outcome_result(match) -> str:
    """ "solo" (one player), or how the first player (the person) did against the computer."""
    outcome = match.outcome()
    if outcome is None:
        return ""
    if len(match.players) == 1:
        return "solo"
    if outcome.draw:
        return "draw"
    return "won" if 0 in outcome.winners else "lost"


def picture(match) -> str:
    """A compact picture of the game in plain characters (no emoji), as daily puzzles share."""
    state, family = match.state, match.game.family
    try:
        if family == "yams":  # the sheet: a box scored ■, a 0 □ (upper part, then the rest)
            sheet = state.sheets[0]
            marks = "".join(EMPTY if not v else FULL for v in sheet)
            return marks[:6] + " " + marks[6:]
        if family == "linotte":  # the board: the person's pawns ■, the computer's □
            board = state.board
            return "\n".join("".join(FULL if c == 0 else EMPTY if c == 1 else DOT for c in board[r * 5:r * 5 + 5])
                             for r in range(5))
        if family == "421":  # each round: the person gave tokens ■, took some □, neither ·
            marks, last = [], None
            for step in match.positions():
                result = step.after.last
                if result is not None and result is not last:
                    marks.append(FULL if result.best == 0 else EMPTY if result.worst == 0 else DOT)
                last = result
            return "".join(marks)[-60:]
        if family == "de-landais":  # each player's score on a track of ten cells
            target = max(1, state.rules.target)
            return "\n".join(FULL * min(10, s * 10 // target) + EMPTY * (10 - min(10, s * 10 // target))
                             for s in state.sealed)
    except Exception:  # a picture is a bonus: never a failure
        return ""
    return ""


def result_text(family_title, result: str, score_text: str) -> str:
    if result == "solo":
        return score_text
    if result in ("won", "lost", "draw"):
        return text(f"site.daily.result.{result}", score=score_text)
    return text("site.daily.result.abandoned")


def share_text(game_title, date: str, result: str, score_text: str, picture_text: str, link: str) -> str:
    """The text to share: the game, the date, the result, the picture and the replay link."""
    lines = [text("site.daily.share.title", game=game_title, date=date),
             result_text(game_title, result, score_text)]
    if picture_text:
        lines.append(picture_text)
    if link:
        lines.append(link)
    return "\n".join(lines)


def today(year: int, month: int, day: int) -> str:
    return datetime.date(year, month, day).isoformat()


def label(date: str) -> Msg:
    return Msg("site.daily.of_day", date=date)
