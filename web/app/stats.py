"""Statistics and history of the finished games, kept in the browser (one store per site).

Pure Python on plain JSON values (no browser import: unit-tested with CPython in
tests/test_stats.py; web/app/stats_view.py puts it on the page).  The store is one
localStorage value, `STATS_KEY`, shared by every game page:

    {"format": "pygames-stats/1",
     "rulesets": {<game id>: {"family", "played", "best", "total", "count",
                              "scores": [last scores, for the chart],
                              "players": {<name>: {"played", "wins", "best", "total"}},
                              "highlights": {<label>: n}}},
     "history": [{"id", "date", "family", "game", "players": [{"name", "score", "text", "says"?}],
                  "winners": [names], "draw"}],   # the last games, newest last
     "seen": [ids]}                               # games already counted

The store holds no words of any language, so that a page in another language shows it in
its own: a highlight's label is a catalogue id (``site.highlight.yams_made``; the French
labels older pages stored, `LEGACY_HIGHLIGHTS`, are read as their ids), and a score as
the end screen said it is a message as data, ``"says": {"id", "params"}`` (rendered when
shown), its ``"text"`` then empty.  A view whose ``score_text`` gives a plain text (and
the games older pages stored) keep that text in ``"text"``, shown as it is.

A finished game is counted once: its id is a hash of its record (`match_id`), and
`record_match` refuses an id it has seen, whatever tab or reload brings the game back.
Everything read from storage or from an imported file goes through `check`, which
accepts exactly this shape within its bounds, or raises `BadStats` with a catalogue message
(nothing else: a hostile value must not break the page); every list and map is bounded,
so the store cannot grow without end.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re

from guard import BadStored, read_json

from pygames.messages import Msg, text, word

STATS_KEY = "pygames:stats"
FORMAT = "pygames-stats/1"
MAX_TEXT = 300_000  # characters of a stored or imported store (a full one is ~60 kB)
MAX_DEPTH = 8  # nesting of a store (it needs 5)
MAX_HISTORY = 50  # games listed
MAX_SEEN = 500  # ids of counted games remembered
MAX_RULESETS = 40
MAX_NAMES = 60  # player names per ruleset; the least played goes first
MAX_SCORES = 200  # scores per ruleset kept for the chart
MAX_PLAYERS = 10  # players of one game
MAX_HIGHLIGHTS = 8
MAX_NAME = 40  # characters (core.MAX_NAME_LENGTH)
MAX_LABEL = 40
MAX_SCORE_TEXT = 80
MAX_INT = 10**9  # any count or score
MAX_PARAMS = 6  # parameters of a stored message ("says")
MSG_ID_RE = re.compile(r"[a-z0-9_]+(\.[a-z0-9_]+){1,5}")
PARAM_RE = re.compile(r"[a-z_][a-z0-9_]{0,19}")

#: The highlights' labels the French pages stored before the catalogues, and their ids.
LEGACY_HIGHLIGHTS = {
    "Yams réalisés": "site.highlight.yams_made",
    "Yahtzee réalisés": "site.highlight.yahtzee_made",
    "421 obtenus": "site.highlight.421_thrown",
    "Yams obtenus": "site.highlight.yams_thrown",
    "Poignes": "site.highlight.poignes",
}
ID_RE = re.compile(r"[0-9a-f]{8,64}")
DATE_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:\d\d)?")
GAME_RE = re.compile(r"[0-9a-z][0-9a-z_-]{0,39}")
#: The games played with real dice (typed in) are counted apart, under ``<game id>--real``
#: (a ruleset id an older page reads as one it does not know, and leaves alone).
REAL = "--real"


class BadStats(BadStored):
    """A statistics store (stored or imported) that cannot be used (a catalogue message,
    guard.BadStored)."""


class NewerStats(BadStats):
    """A store a newer version wrote (pygames-stats/2 and on): not corrupt, only unreadable
    here; the page keeps it as it is and writes nothing over it."""


def empty() -> dict:
    return {"format": FORMAT, "rulesets": {}, "history": [], "seen": []}


def is_empty(store: dict) -> bool:
    return not store["rulesets"] and not store["history"]


def match_id(record: dict) -> str:
    """The id of a finished game: a hash of its record (players, options, every action)."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# --- reading and checking ----------------------------------------------------------------


def load(text) -> dict:
    """The store held in `text` (None: nothing stored yet, an empty store), or BadStats."""
    if text is None:
        return empty()
    try:
        value = read_json(text, MAX_TEXT, MAX_DEPTH)
    except BadStats:
        raise
    except BadStored as err:
        raise BadStats(err.message) from None
    return check(value)


def dumps(store: dict, indent=None) -> str:
    return json.dumps(store, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))


def check(value) -> dict:
    """`value` if it is a well-formed store within its bounds (a clean copy), or BadStats."""
    if not isinstance(value, dict):
        raise BadStats("site.bad.object_expected")
    written = value.get("format")
    if written != FORMAT:
        number = written[len("pygames-stats/"):] if isinstance(written, str) and written.startswith(
            "pygames-stats/") else ""
        if number.isascii() and number.isdigit() and int(number[:6]) > 1:
            raise NewerStats("site.stats.bad.newer")
        raise BadStats("site.stats.bad.not_stats")
    rulesets = _mapping(value.get("rulesets"), MAX_RULESETS, "rulesets")
    clean = empty()
    for game, data in rulesets.items():
        if not GAME_RE.fullmatch(game):
            raise BadStats("site.stats.bad.unknown_ruleset")
        clean["rulesets"][game] = _ruleset(data)
    history = _list(value.get("history"), MAX_HISTORY, "history")
    clean["history"] = [_entry(e) for e in history]
    seen = _list(value.get("seen"), MAX_SEEN, "seen")
    for i in seen:
        if not isinstance(i, str) or not ID_RE.fullmatch(i):
            raise BadStats("site.stats.bad.game_id")
    clean["seen"] = list(seen)
    return clean


def _unreadable(what: str, many: bool = False) -> BadStats:
    """"règles illisibles": `what` names a field (``site.stats.what.<what>``)."""
    return BadStats("site.stats.bad.unreadable_plural" if many else "site.stats.bad.unreadable",
                    what=Msg(f"site.stats.what.{what}"))


def _bounded(value, kind: type, limit: int, what: str, many: bool = False):
    """`value` if it is a `kind` of at most `limit` entries; else BadStats (`what` unreadable)."""
    if not isinstance(value, kind):
        raise _unreadable(what, many)
    if len(value) > limit:
        raise BadStats("site.stats.bad.too_many", what=Msg(f"site.stats.what.{what}"))
    return value


def _mapping(value, limit, what) -> dict:
    return _bounded(value, dict, limit, what, many=True)


def _list(value, limit, what) -> list:
    return _bounded(value, list, limit, what)


def _int(value, what, low=0) -> int:
    if type(value) is not int or not low <= value <= MAX_INT:
        raise _unreadable(what)
    return value


def _score(value, what="score"):
    return _int(value, what, -MAX_INT)


def _text(value, limit, what) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise _unreadable(what)
    return value


def _name(value) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise BadStats("site.stats.bad.name")
    return value


def highlight_key(label: str) -> str:
    """The key a highlight is counted under: a catalogue id (an old French label: its id)."""
    return LEGACY_HIGHLIGHTS.get(label, label)


def highlight_label(label: str) -> str:
    """A highlight's label as shown: its id's text in the page's language (a label nobody
    wrote shows as itself)."""
    return text(Msg(highlight_key(label)))


def _says(value) -> dict:
    """A stored message: {"id": a catalogue id, "params": {name: an int or a short text}}."""
    if not isinstance(value, dict) or set(value) != {"id", "params"}:
        raise BadStats("site.stats.bad.says")
    ident, params = value["id"], value["params"]
    if not isinstance(ident, str) or len(ident) > MAX_LABEL or not MSG_ID_RE.fullmatch(ident):
        raise BadStats("site.stats.bad.says")
    if not isinstance(params, dict) or len(params) > MAX_PARAMS:
        raise BadStats("site.stats.bad.says")
    for key, v in params.items():
        if not PARAM_RE.fullmatch(key) or not (
                (type(v) is int and abs(v) <= MAX_INT) or (isinstance(v, str) and len(v) <= MAX_LABEL)):
            raise BadStats("site.stats.bad.says")
    return {"id": ident, "params": dict(params)}


def says_of(msg) -> dict | None:
    """A message (a `Msg` whose parameters are ints or short texts) as stored data, or None
    if it cannot be stored so (a name, a nested message: its text is stored instead)."""
    if not isinstance(msg, Msg) or any(type(v) not in (int, str) for v in msg.params.values()):
        return None
    try:
        return _says({"id": msg.id, "params": dict(msg.params)})
    except BadStats:
        return None


def said(player: dict):
    """What to show for a player's score in the history: its message, or its stored text."""
    says = player.get("says")
    return Msg(says["id"], **says["params"]) if says else player["text"]


def _ruleset(data) -> dict:
    if not isinstance(data, dict):
        raise BadStats("site.stats.bad.ruleset")
    best = data.get("best")
    clean = {
        "family": _text(data.get("family"), MAX_LABEL, "game"),
        "played": _int(data.get("played"), "played"),
        "best": None if best is None else _score(best, "best"),
        "total": _score(data.get("total"), "total"),
        "count": _int(data.get("count"), "count"),
        "scores": [_score(s) for s in _list(data.get("scores"), MAX_SCORES, "scores")],
        "players": {},
        "highlights": {},
    }
    for name, p in _mapping(data.get("players"), MAX_NAMES, "players").items():
        if not isinstance(p, dict):
            raise BadStats("site.bad.player")
        pbest = p.get("best")
        clean["players"][_name(name)] = {
            "played": _int(p.get("played"), "player_played"),
            "wins": _int(p.get("wins"), "wins"),
            "best": None if pbest is None else _score(pbest, "best"),
            "total": _score(p.get("total"), "player_total"),
        }
    for label, n in _mapping(data.get("highlights"), MAX_HIGHLIGHTS, "highlights").items():
        key = highlight_key(_text(label, MAX_LABEL, "highlight"))
        # (an old page's French label and its id may both be there: one count)
        clean["highlights"][key] = _clamp(clean["highlights"].get(key, 0) + _int(n, "highlight"), 0)
    return clean


def _entry(e) -> dict:
    if not isinstance(e, dict):
        raise BadStats("site.stats.bad.entry")
    ident, date = e.get("id"), e.get("date")
    if not isinstance(ident, str) or not ID_RE.fullmatch(ident):
        raise BadStats("site.stats.bad.game_id")
    if not isinstance(date, str) or len(date) > 40 or not DATE_RE.fullmatch(date):
        raise BadStats("site.stats.bad.date")
    game = e.get("game")
    if not isinstance(game, str) or not GAME_RE.fullmatch(game):
        raise BadStats("site.stats.bad.unknown_ruleset")
    players = _list(e.get("players"), MAX_PLAYERS, "game_players")
    clean_players = []
    for p in players:
        if not isinstance(p, dict):
            raise BadStats("site.bad.player")
        player = {"name": _name(p.get("name")), "score": _score(p.get("score")),
                  "text": _text(p.get("text"), MAX_SCORE_TEXT, "score")}
        if "says" in p:
            player["says"] = _says(p["says"])
        clean_players.append(player)
    winners = [_name(w) for w in _list(e.get("winners"), MAX_PLAYERS, "winners")]
    draw = e.get("draw")
    if not isinstance(draw, bool):
        raise BadStats("site.stats.bad.draw")
    return {"id": ident, "date": date, "family": _text(e.get("family"), MAX_LABEL, "game"),
            "game": game, "players": clean_players, "winners": winners, "draw": draw}


# --- recording -------------------------------------------------------------------------


def record_match(store: dict, *, ident: str, date: str, family: str, game: str,
                 players: list, winners: list, draw: bool, highlights: dict | None = None):
    """(new store, True) with a finished game counted, or (store, False) if it already was.

    `players`: [{"name", "score", "text"}] in seat order (text: the score as the end screen
    says it, best a `Msg`, stored as data); `winners`: the winners' names; `highlights`:
    {label: count} for this game, a label being a catalogue id (e.g.
    {"site.highlight.yams_made": 2}; an old French label is taken as its id).  The input
    store is not changed.  Values are cut to the bounds that `check` enforces, so the
    result always passes it."""
    if ident in store["seen"]:
        return store, False
    new = copy.deepcopy(store)
    clean_players = []
    for p in players[:MAX_PLAYERS]:
        shown = p.get("text", "")
        says = says_of(shown)
        player = {"name": str(p["name"])[:MAX_NAME] or "?", "score": _clamp(p["score"]),
                  "text": "" if says else str(shown)[:MAX_SCORE_TEXT]}
        if says:
            player["says"] = says
        clean_players.append(player)
    winner_names = [str(w)[:MAX_NAME] or "?" for w in winners[:MAX_PLAYERS]]
    rulesets = new["rulesets"]
    if game not in rulesets:
        if len(rulesets) >= MAX_RULESETS:
            return store, False  # an unknown page's ruleset cannot push real ones out
        rulesets[game] = {"family": family[:MAX_LABEL], "played": 0, "best": None, "total": 0,
                          "count": 0, "scores": [], "players": {}, "highlights": {}}
    data = rulesets[game]
    data["played"] = _clamp(data["played"] + 1, 0)
    for p in clean_players:
        score = p["score"]
        data["best"] = score if data["best"] is None else max(data["best"], score)
        data["total"] = _clamp(data["total"] + score)
        data["count"] = _clamp(data["count"] + 1, 0)
        data["scores"] = (data["scores"] + [score])[-MAX_SCORES:]
    names = data["players"]
    for p in clean_players:
        name = p["name"]
        if name not in names:
            if len(names) >= MAX_NAMES:  # forget the least played (the oldest of them)
                del names[min(names, key=lambda n: names[n]["played"])]
            names[name] = {"played": 0, "wins": 0, "best": None, "total": 0}
        mine = names[name]
        mine["played"] = _clamp(mine["played"] + 1, 0)
        mine["wins"] = _clamp(mine["wins"] + (name in winner_names), 0)
        mine["best"] = p["score"] if mine["best"] is None else max(mine["best"], p["score"])
        mine["total"] = _clamp(mine["total"] + p["score"])
    marks = data["highlights"]
    for label, n in (highlights or {}).items():
        label = highlight_key(str(label))[:MAX_LABEL]
        if label in marks or len(marks) < MAX_HIGHLIGHTS:
            marks[label] = _clamp(marks.get(label, 0) + int(n), 0)
    new["history"] = (new["history"] + [{
        "id": ident, "date": date, "family": family[:MAX_LABEL], "game": game,
        "players": clean_players, "winners": winner_names, "draw": bool(draw),
    }])[-MAX_HISTORY:]
    new["seen"] = (new["seen"] + [ident])[-MAX_SEEN:]
    return new, True


def landed_throws(match, throw):
    """For a view's highlights: the state after each `throw` action (e.g. Roll) of a game,
    once its dice have landed, replaying the game's actions from its start."""
    state, rolled = match.game.new_state(match.players, match.options, match.start), False
    for action in match.history:
        rolled = rolled or isinstance(action, throw)
        state = state.apply(action)
        if rolled and not state.is_chance():
            rolled = False
            yield state


def _clamp(n, low=-MAX_INT) -> int:
    return max(low, min(MAX_INT, int(n)))


def cleared(store: dict) -> dict:
    """An empty store that still knows which games were counted (a finished game shown
    again after a reload is not counted again)."""
    new = empty()
    new["seen"] = list(store["seen"])
    return new


def imported(store: dict, value) -> dict:
    """The store after importing `value` (an exported file, already parsed): its statistics
    replace the current ones (checked first: BadStats and nothing changes); the games
    counted by either stay counted."""
    new = check(value)
    seen = list(dict.fromkeys(store["seen"] + new["seen"]))
    new["seen"] = seen[-MAX_SEEN:]
    return new


# --- what the page shows ------------------------------------------------------------------


def summary(store: dict, game: str) -> dict | None:
    """The figures of one ruleset for display, or None if no game of it was counted."""
    data = store["rulesets"].get(game)
    if not data or not data["played"]:
        return None
    players = [
        {"name": name, "played": p["played"], "wins": p["wins"], "best": p["best"],
         "average": p["total"] / p["played"] if p["played"] else None,
         "rate": p["wins"] / p["played"] if p["played"] else None}
        for name, p in data["players"].items()
    ]
    players.sort(key=lambda p: (-p["wins"], -p["played"], p["name"]))
    bests = [p["best"] for p in players if p["best"] is not None]
    record = None
    if bests:  # a player's figure (scores are "higher is better": the 421's are minus tokens)
        top = max(bests)
        record = {"score": top, "names": [p["name"] for p in players if p["best"] == top]}
    return {
        "game": game,
        "played": data["played"],
        "best": data["best"],
        "average": data["total"] / data["count"] if data["count"] else None,
        "record": record,
        "players": players,
        "highlights": dict(data["highlights"]),
        "chart": histogram(data["scores"]),
        "charted": len(data["scores"]),
    }


def histogram(scores: list, bins: int = 8) -> list[tuple[int, int, int]]:
    """The scores in at most `bins` equal ranges of whole numbers: [(low, high, count)],
    low and high included, every range holding at least one possible score."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    width = max(1, -(-(high - low + 1) // bins))  # ceiling division
    out = []
    start = low
    while start <= high:
        end = start + width - 1
        out.append((start, end, sum(1 for s in scores if start <= s <= end)))
        start = end + 1
    return out


def recent(store: dict, family: str, limit: int = MAX_HISTORY) -> list[dict]:
    """The last games of a family, newest first."""
    return [e for e in reversed(store["history"]) if e["family"] == family][:limit]


def shown_number(x, decimals: int = 1, mark: str | None = None) -> str:
    """A figure as the page's language writes it: 12, 12,5, -3,3 in French (12.5 in English:
    the catalogue's ``format.decimal``, or `mark`); "—" for none."""
    if x is None:
        return "—"
    x = round(x, decimals)
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.{decimals}f}".replace(".", word("format.decimal") if mark is None else mark)


def french_number(x, decimals: int = 1) -> str:
    """A number as written in French: 12, 12,5, -3,3 (`shown_number` in French)."""
    return shown_number(x, decimals, ",")


def from_match(match, date: str, texts=None, highlights=None) -> dict:
    """The arguments of `record_match` for a finished `pygames.Match`: its id, players with
    their scores (`texts`: each score as the end screen says it), winners and draw."""
    outcome = match.outcome()
    scores = match.state.scores()
    names = match.names
    return {
        "ident": match_id(match.to_record()),
        "date": date,
        "family": match.game.family,
        "game": match.game.id + (REAL if match.dice == "real" else ""),
        "players": [{"name": n, "score": s, "text": texts[i] if texts else str(s)}
                    for i, (n, s) in enumerate(zip(names, scores))],
        "winners": [names[p] for p in outcome.winners],
        "draw": bool(outcome.draw),
        "highlights": highlights or {},
    }
