"""Statistics and history of the finished games, kept in the browser (one store per site).

Pure Python on plain JSON values (no browser import: unit-tested with CPython in
tests/test_stats.py; web/app/stats_view.py puts it on the page).  The store is one
localStorage value, `STATS_KEY`, shared by every game page:

    {"format": "pygames-stats/1",
     "rulesets": {<game id>: {"family", "played", "best", "total", "count",
                              "scores": [last scores, for the chart],
                              "players": {<name>: {"played", "wins", "best", "total"}},
                              "highlights": {<label>: n}}},
     "history": [{"id", "date", "family", "game", "players": [{"name", "score", "text"}],
                  "winners": [names], "draw"}],   # the last games, newest last
     "seen": [ids]}                               # games already counted

A finished game is counted once: its id is a hash of its record (`match_id`), and
`record_match` refuses an id it has seen, whatever tab or reload brings the game back.
Everything read from storage or from an imported file goes through `check`, which
accepts exactly this shape within its bounds, or raises `BadStats` with a French message
(nothing else: a hostile value must not break the page); every list and map is bounded,
so the store cannot grow without end.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re

from guard import BadStored, read_json

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
ID_RE = re.compile(r"[0-9a-f]{8,64}")
DATE_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:\d\d)?")
GAME_RE = re.compile(r"[0-9a-z][0-9a-z_-]{0,39}")


class BadStats(BadStored):
    """A statistics store (stored or imported) that cannot be used; the message is French."""


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
        raise BadStats(str(err)) from None
    return check(value)


def dumps(store: dict, indent=None) -> str:
    return json.dumps(store, ensure_ascii=False, indent=indent, separators=None if indent else (",", ":"))


def check(value) -> dict:
    """`value` if it is a well-formed store within its bounds (a clean copy), or BadStats."""
    if not isinstance(value, dict):
        raise BadStats("un objet est attendu")
    written = value.get("format")
    if written != FORMAT:
        number = written[len("pygames-stats/"):] if isinstance(written, str) and written.startswith(
            "pygames-stats/") else ""
        if number.isascii() and number.isdigit() and int(number[:6]) > 1:
            raise NewerStats("statistiques d'une version plus récente du site")
        raise BadStats("ce ne sont pas des statistiques de pygames")
    rulesets = _mapping(value.get("rulesets"), MAX_RULESETS, "règles")
    clean = empty()
    for game, data in rulesets.items():
        if not GAME_RE.fullmatch(game):
            raise BadStats("règle inconnue")
        clean["rulesets"][game] = _ruleset(data)
    history = _list(value.get("history"), MAX_HISTORY, "historique")
    clean["history"] = [_entry(e) for e in history]
    seen = _list(value.get("seen"), MAX_SEEN, "parties comptées")
    for i in seen:
        if not isinstance(i, str) or not ID_RE.fullmatch(i):
            raise BadStats("identifiant de partie illisible")
    clean["seen"] = list(seen)
    return clean


def _bounded(value, kind: type, limit: int, unreadable: str):
    """`value` if it is a `kind` of at most `limit` entries; else BadStats(`unreadable`)."""
    if not isinstance(value, kind):
        raise BadStats(unreadable)
    if len(value) > limit:
        raise BadStats(f"{unreadable.rsplit(' ', 1)[0]}\u00a0: trop d'entrées")
    return value


def _mapping(value, limit, what) -> dict:
    return _bounded(value, dict, limit, f"{what} illisibles")


def _list(value, limit, what) -> list:
    return _bounded(value, list, limit, f"{what} illisible")


def _int(value, what, low=0) -> int:
    if type(value) is not int or not low <= value <= MAX_INT:
        raise BadStats(f"{what} illisible")
    return value


def _score(value, what="score"):
    return _int(value, what, -MAX_INT)


def _text(value, limit, what) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise BadStats(f"{what} illisible")
    return value


def _name(value) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_NAME:
        raise BadStats("nom de joueur illisible")
    return value


def _ruleset(data) -> dict:
    if not isinstance(data, dict):
        raise BadStats("statistiques d'une règle illisibles")
    best = data.get("best")
    clean = {
        "family": _text(data.get("family"), MAX_LABEL, "jeu"),
        "played": _int(data.get("played"), "nombre de parties"),
        "best": None if best is None else _score(best, "meilleur score"),
        "total": _score(data.get("total"), "total des scores"),
        "count": _int(data.get("count"), "nombre de scores"),
        "scores": [_score(s) for s in _list(data.get("scores"), MAX_SCORES, "scores")],
        "players": {},
        "highlights": {},
    }
    for name, p in _mapping(data.get("players"), MAX_NAMES, "joueurs").items():
        if not isinstance(p, dict):
            raise BadStats("joueur illisible")
        pbest = p.get("best")
        clean["players"][_name(name)] = {
            "played": _int(p.get("played"), "parties d'un joueur"),
            "wins": _int(p.get("wins"), "victoires"),
            "best": None if pbest is None else _score(pbest, "meilleur score"),
            "total": _score(p.get("total"), "total d'un joueur"),
        }
    for label, n in _mapping(data.get("highlights"), MAX_HIGHLIGHTS, "faits de jeu").items():
        clean["highlights"][_text(label, MAX_LABEL, "fait de jeu")] = _int(n, "fait de jeu")
    return clean


def _entry(e) -> dict:
    if not isinstance(e, dict):
        raise BadStats("partie de l'historique illisible")
    ident, date = e.get("id"), e.get("date")
    if not isinstance(ident, str) or not ID_RE.fullmatch(ident):
        raise BadStats("identifiant de partie illisible")
    if not isinstance(date, str) or len(date) > 40 or not DATE_RE.fullmatch(date):
        raise BadStats("date illisible")
    game = e.get("game")
    if not isinstance(game, str) or not GAME_RE.fullmatch(game):
        raise BadStats("règle inconnue")
    players = _list(e.get("players"), MAX_PLAYERS, "joueurs d'une partie")
    clean_players = []
    for p in players:
        if not isinstance(p, dict):
            raise BadStats("joueur illisible")
        clean_players.append({"name": _name(p.get("name")), "score": _score(p.get("score")),
                              "text": _text(p.get("text"), MAX_SCORE_TEXT, "score")})
    winners = [_name(w) for w in _list(e.get("winners"), MAX_PLAYERS, "gagnants")]
    draw = e.get("draw")
    if not isinstance(draw, bool):
        raise BadStats("égalité illisible")
    return {"id": ident, "date": date, "family": _text(e.get("family"), MAX_LABEL, "jeu"),
            "game": game, "players": clean_players, "winners": winners, "draw": draw}


# --- recording -------------------------------------------------------------------------


def record_match(store: dict, *, ident: str, date: str, family: str, game: str,
                 players: list, winners: list, draw: bool, highlights: dict | None = None):
    """(new store, True) with a finished game counted, or (store, False) if it already was.

    `players`: [{"name", "score", "text"}] in seat order (text: the score as the end screen
    says it); `winners`: the winners' names; `highlights`: {label: count} for this game
    (e.g. {"Yams": 2}).  The input store is not changed.  Values are cut to the bounds
    that `check` enforces, so the result always passes it."""
    if ident in store["seen"]:
        return store, False
    new = copy.deepcopy(store)
    clean_players = [
        {"name": str(p["name"])[:MAX_NAME] or "?", "score": _clamp(p["score"]),
         "text": str(p.get("text", ""))[:MAX_SCORE_TEXT]}
        for p in players[:MAX_PLAYERS]
    ]
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
        label = str(label)[:MAX_LABEL]
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


def french_number(x, decimals: int = 1) -> str:
    """A number as written in French: 12, 12,5, -3,3."""
    if x is None:
        return "—"
    x = round(x, decimals)
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.{decimals}f}".replace(".", ",")


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
        "game": match.game.id,
        "players": [{"name": n, "score": s, "text": texts[i] if texts else str(s)}
                    for i, (n, s) in enumerate(zip(names, scores))],
        "winners": [names[p] for p in outcome.winners],
        "draw": bool(outcome.draw),
        "highlights": highlights or {},
    }
