"""The protocol every game follows, and the pieces shared by all of them.

A game is a `Game` (its id, its options, a factory for the first state) and a `State`
(immutable: `apply` returns a new state).  Every state answers the same questions:
whose turn it is (`current_player`, which is `CHANCE` when dice are about to land),
which actions are legal, and, at the end, the final scores.  Dice are chance actions
like any other (`Throw`), so a game replays exactly from the list of its actions and
any roll can be forced in a test.  Randomness lives outside the rules, in
`DiceSampler`, which a driver (the web page, the CLI, a simulation) uses to pick
chance actions.

A `Match` is that driver's bookkeeping: players, options, the current state and the
history of actions, with a versioned JSON form (`to_record` / `Match.from_record`).  It
can take back the last decision while no dice have landed since (`can_undo` / `undo`),
unless the match is played *sans annulation* (`undo=False`, kept in the record).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping, Sequence

RECORD_FORMAT = "pygames/1"
CHANCE = -1
TERMINAL = -2
MAX_NAME_LENGTH = 40


class GameError(ValueError):
    """The one error type for bad input: its message can be shown to a player as is."""


class IllegalAction(GameError):
    """An action that the rules do not allow in this state (the state is unchanged)."""


class BadRecord(GameError):
    """A saved game that cannot be read or does not replay."""


# --- actions -------------------------------------------------------------------------


MAX_QUOTE = 40  # characters of a bad input quoted back in an error message
MAX_ACTION_TEXT = 200


def quote(text: Any) -> str:
    """A short, printable prefix of a bad input, for an error message."""
    text = text if isinstance(text, str) else repr(text)
    text = "".join(c if c.isprintable() else "?" for c in text[: MAX_QUOTE + 1])
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1] + "…"


class Action:
    """Base of every action. Subclasses are frozen dataclasses with a text notation.

    Each subclass names the first words of its notation (`verbs`) and reads its own
    text back (`parse`), so `Game.parse_action` needs no list of its own.
    """

    verbs: ClassVar[tuple[str, ...]] = ()

    def notation(self) -> str:
        raise IllegalAction(f"Coup sans notation : {type(self).__name__}.")

    @classmethod
    def parse(cls, words: Sequence[str], game: "Game") -> "Action":
        raise IllegalAction(f"Coup inconnu : « {quote(' '.join(words))} ».")

    def __str__(self) -> str:
        return self.notation()


class Word(Action):
    """An action written as one word (`stop`, `pass`, `seal`): a subclass, a frozen
    dataclass with no field, names it as its only verb."""

    def notation(self) -> str:
        return self.verbs[0]

    @classmethod
    def parse(cls, words, game):
        if len(words) != 1:
            raise IllegalAction(f"Coup inconnu : « {quote(' '.join(words))} ».")
        return cls()


def is_face(value: Any) -> bool:
    return type(value) is int and 1 <= value <= 6


@dataclass(frozen=True)
class Throw(Action):
    """Chance action: the faces shown by the dice just thrown, in throwing order."""

    faces: tuple[int, ...]
    verbs: ClassVar[tuple[str, ...]] = ("dice",)

    def notation(self) -> str:
        return "dice " + " ".join(map(str, self.faces))

    @classmethod
    def parse(cls, words, game):
        if not 1 <= len(words) - 1 <= game.max_dice:
            raise IllegalAction(f"Coup inconnu : « {quote(' '.join(words))} ».")
        return cls(parse_faces(words[1:]))


def check_throw(action: Any, count: int) -> None:
    """The one check of a chance action: `count` faces, each an int from 1 to 6."""
    if not (
        isinstance(action, Throw)
        and isinstance(action.faces, tuple)
        and len(action.faces) == count
        and all(is_face(f) for f in action.faces)
    ):
        raise IllegalAction(f"Il faut le résultat de {count} dé{'s' if count > 1 else ''}.")


def parse_faces(words: Sequence[str], what: str = "un dé") -> tuple[int, ...]:
    """Read dice faces from words, with a readable error for anything else."""
    faces = []
    for word in words:
        if not (len(word) == 1 and word in "123456"):
            raise IllegalAction(f"« {quote(word)} » n'est pas {what} (une face de 1 à 6).")
        faces.append(int(word))
    return tuple(faces)


# --- options and players -------------------------------------------------------------

YES = ("1", "true", "yes", "oui", "on")
NO = ("0", "false", "no", "non", "off")


@dataclass(frozen=True)
class Option:
    """One setting of a game, as offered by its setup screen, the CLI and the tests."""

    id: str
    label: str  # French, for the setup screen
    default: Any
    choices: tuple = ()  # empty for a yes/no option
    help: str = ""

    def check(self, value: Any) -> Any:
        if self.choices:
            # bool is an int: True must not pass for the choice 1.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                allowed = ", ".join(map(str, self.choices))
                raise GameError(f"Option {self.id} : valeur « {quote(value)} » invalide ({allowed}).")
            return value
        if not isinstance(value, bool):
            raise GameError(f"Option {self.id} : oui ou non attendu, pas « {quote(value)} ».")
        return value

    def parse(self, text: str | None) -> Any:
        """The value written as text (`None`: the option named alone, which means yes)."""
        if self.choices:
            raw = (text or "").strip().lower()
            for choice in self.choices:
                if str(choice).lower() == raw:
                    return choice
            allowed = ", ".join(map(str, self.choices))
            raise GameError(f"Option {self.id} : valeur « {quote(text)} » invalide ({allowed}).")
        raw = "yes" if text is None else text.strip().lower()
        if raw in YES:
            return True
        if raw in NO:
            return False
        raise GameError(f"Option {self.id} : « oui » ou « non » attendu, pas « {quote(text)} ».")


def parse_option_items(game: "Game", items: Iterable[str]) -> dict[str, Any]:
    """Options written as `ID` (yes) or `ID=VALUE`, by the CLI (-o) and embed URLs alike."""
    known = {o.id: o for o in game.options}
    values: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not key:
            continue
        opt = known.get(key)
        if opt is None:
            names = ", ".join(known) or "aucune"
            raise GameError(f"Option inconnue pour {game.title} : « {quote(key)} » (options : {names}).")
        values[key] = opt.parse(raw if sep else None)
    return values


MAX_PLAYERS_TEXT = 1000
# Format (bidi marks, zero-width spaces), separators, marks alone and unassigned code
# points draw nothing: a name made only of them would show as blank.
INVISIBLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp", "Mn", "Me")


def is_visible(char: str) -> bool:
    return unicodedata.category(char) not in INVISIBLE and char not in "\u115f\u1160\u3164\uffa0"


@dataclass(frozen=True)
class Player:
    name: str
    seat: str = "human"  # "human", or the level of a computer player (see Game.seats)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise GameError("Chaque joueur a besoin d'un nom.")
        if len(self.name) > MAX_NAME_LENGTH:
            raise GameError(f"Nom trop long (au plus {MAX_NAME_LENGTH} caractères).")
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in self.name):  # C0, DEL, C1
            raise GameError("Le nom contient un caractère de contrôle.")
        if any(0xD800 <= ord(c) <= 0xDFFF for c in self.name):  # cannot be written as UTF-8
            raise GameError("Le nom contient un caractère invalide.")
        if not any(is_visible(c) for c in self.name):
            raise GameError("Le nom doit contenir au moins un caractère visible.")
        if not isinstance(self.seat, str) or not self.seat.isidentifier() or len(self.seat) > 20:
            raise GameError(f"Place illisible : « {quote(self.seat)} ».")

    @property
    def is_computer(self) -> bool:
        return self.seat != "human"

    def to_json(self) -> dict:
        return {"name": self.name, "seat": self.seat}


def parse_players(text: str) -> list[Player]:
    """'Alice,Bob:simple' -> two players, Bob played by the computer (CLI and embeds).

    Names are kept as written (trimmed); seats are read in lower case."""
    if not isinstance(text, str) or len(text) > MAX_PLAYERS_TEXT:
        raise GameError("Liste de joueurs trop longue.")
    players = []
    for n, item in enumerate(text.split(","), 1):
        name, _, seat = item.partition(":")
        name, seat = name.strip(), seat.strip().lower() or "human"
        if not name:
            raise GameError(f"Joueur {n} sans nom (exemple : Alice,Ordi:simple).")
        try:
            players.append(Player(name, seat))
        except GameError as err:
            raise GameError(f"Joueur {n} : {err}") from None
    return players


# --- outcome -------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: places, winners, losers, a draw, and why (French)."""

    ranking: tuple[tuple[int, ...], ...]  # players grouped by place, best first
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    draw: bool
    reason: str

    def to_json(self, names: Sequence[str]) -> dict:
        return {
            "ranking": [[names[p] for p in place] for place in self.ranking],
            "winners": [names[p] for p in self.winners],
            "losers": [names[p] for p in self.losers],
            "draw": self.draw,
            "reason": self.reason,
        }


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if abs(n) > 1 else ''}"


def join_names(names: Sequence[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " et " + names[-1]


def score_outcome(state: "State", names: Sequence[str], unit: str = "point") -> Outcome:
    """The outcome of a game won on points: the highest score wins, equal tops draw."""
    scores = state.scores()
    ranking = tuple(tuple(place) for place in state.ranking())
    top = ranking[0]
    if len(names) == 1:
        return Outcome(ranking, top, (), False, f"Partie terminée : {plural(scores[0], unit)}.")
    losers = ranking[-1] if len(ranking) > 1 else ()
    if len(top) > 1:
        reason = f"Égalité entre {join_names([names[p] for p in top])} ({plural(scores[top[0]], unit)})."
        return Outcome(ranking, top, losers, True, reason)
    reason = f"{names[top[0]]} gagne avec {plural(scores[top[0]], unit)}."
    return Outcome(ranking, top, losers, False, reason)


# --- games and states ----------------------------------------------------------------


class State:
    """What every game state answers. States are immutable."""

    def current_player(self) -> int:
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def apply(self, action: Action) -> "State":
        """The state after `action`; raises IllegalAction (via check_legal) if it is not legal."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def dice_to_throw(self) -> int:
        """At a chance node: how many fair six-sided dice land now."""
        raise NotImplementedError

    def scores(self) -> list[int]:
        """Each player's score so far (final scores once terminal)."""
        raise NotImplementedError

    def ranking(self) -> list[list[int]]:
        """Players grouped by place, best first (ties share a place)."""
        scores = self.scores()
        places: list[list[int]] = []
        for p in sorted(range(len(scores)), key=lambda p: -scores[p]):
            if places and scores[places[-1][0]] == scores[p]:
                places[-1].append(p)
            else:
                places.append([p])
        return places

    def outcome(self, names: Sequence[str]) -> Outcome | None:
        """How the game ended (None while it goes on). Default: won on points."""
        if not self.is_terminal():
            return None
        return score_outcome(self, names)

    def check_legal(self, action: Action) -> None:
        """Raise IllegalAction with a readable reason unless `action` is legal here."""
        if self.is_terminal():
            raise IllegalAction("La partie est terminée.")
        if self.is_chance():
            check_throw(action, self.dice_to_throw())
            return
        if not isinstance(action, Action) or isinstance(action, Throw):
            raise IllegalAction(self._reason(action))
        try:
            legal = action in self.legal_actions()
        except TypeError:  # an action built with unhashable fields
            legal = False
        if not legal:
            raise IllegalAction(self._reason(action))

    def _reason(self, action: Any) -> str:
        """why_illegal, even for an action built in Python with fields of the wrong types
        (a game's why_illegal may look them up): it never raises anything but the reason."""
        try:
            return self.why_illegal(action)
        except Exception:
            return f"Coup illisible : « {quote(repr(action))} »."

    def why_illegal(self, action: Action) -> str:
        if isinstance(action, Throw):
            return "Ce n'est pas le moment de lancer les dés."
        try:
            text = action.notation() if isinstance(action, Action) else action
        except GameError:
            text = type(action).__name__
        return f"Coup impossible maintenant : « {quote(text)} »."


class Game:
    """A game of the registry: its id, its options, its first state, and what the
    menus, the CLI and the pages need to know of it.

    The facts a whole family of rulesets shares (its page, seats, bots, text rendering,
    commands) are class attributes of the family's base class; see `pygames.registry`.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    family: ClassVar[str]
    summary: ClassVar[str] = ""  # one line (French) for the setup screen
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    max_dice: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = ()
    actions: ClassVar[tuple[type[Action], ...]] = ()  # the action types, parsed by verb
    # seat -> French label; "human" first. Computer seats are played by `bot(seat)`.
    seats: ClassVar[Mapping[str, str]] = {"human": "Humain"}
    # A fresh setup's players, (name, seat) each: read by the page's setup, which the build
    # writes as plain HTML (web/build.py) and the view's `default_players` returns.
    default_players: ClassVar[tuple[tuple[str, str], ...]] = (("Joueur 1", "human"),)

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        given = dict(given or {})
        known = {o.id: o for o in self.options}
        unknown = sorted(set(map(str, given)) - set(known))
        if unknown:
            shown = ", ".join(quote(u) for u in unknown[:3]) + (" …" if len(unknown) > 3 else "")
            raise GameError(f"Option inconnue pour {self.id} : {shown}.")
        return {o.id: o.check(given.get(o.id, o.default)) for o in self.options}

    def option_sets(self) -> list[dict[str, Any]]:
        """Every combination of this game's option values."""
        choices = [o.choices or (False, True) for o in self.options]
        return [
            {o.id: v for o, v in zip(self.options, values)}
            for values in itertools.product(*choices)
        ]

    def check_players(self, players: Sequence[Player]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            if self.min_players == self.max_players:
                raise GameError(f"{self.title} se joue à {self.min_players} joueurs.")
            raise GameError(
                f"{self.title} se joue de {self.min_players} à {self.max_players} joueurs."
            )
        for p in players:
            if p.seat not in self.seats:
                raise GameError(
                    f"Place inconnue pour {p.name} : « {quote(p.seat)} » "
                    f"({self.title} : {', '.join(self.seats)})."
                )

    def check_start(self, start: Any, players: Sequence[Player], options: Mapping[str, Any]) -> Any:
        """A starting position given by the players (e.g. a game begun on paper),
        checked and normalised to plain JSON; games that take none refuse it."""
        raise GameError(f"{self.title} ne peut pas commencer d'une position donnée.")

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> State:
        raise NotImplementedError

    def parse_action(self, text: str) -> Action:
        """Read an action from its notation; each action type parses its own words."""
        if not isinstance(text, str):
            raise IllegalAction("Coup illisible.")
        if len(text) > MAX_ACTION_TEXT:
            raise IllegalAction(f"Coup trop long : « {quote(text)} ».")
        words = text.split()
        if words:
            for kind in (*self.actions, Throw):
                if words[0] in kind.verbs:
                    return kind.parse(words, self)
        raise IllegalAction(f"Coup inconnu : « {quote(' '.join(words))} ».")

    # --- what drivers ask of a game (bots, text, tables) ---

    def bot(self, seat: str, tables: Any = None):
        """The computer player of a seat: a function `state -> action`."""
        raise GameError(f"Pas de joueur ordinateur « {quote(seat)} » pour {self.title}.")

    def tables_name(self, options: Mapping[str, Any]) -> str | None:
        """The file (under web/tables/) that the expert and the advisor read, if any."""
        return None

    def load_tables(self, data: bytes) -> Any:
        raise GameError(f"{self.title} n'a pas de tables.")

    def render_text(self, state: State, names: Sequence[str]) -> str:
        """The state for a terminal: scores at least; games draw their own table."""
        return "  ".join(f"{n} {s}" for n, s in zip(names, state.scores()))


# --- families: what a page, the menu and the CLI know of a group of rulesets ---------


@dataclass(frozen=True)
class Family:
    """One game as players name it (Yams, Le 421, …): its rulesets and everything
    around the rules that the site, the CLI and the tests read from the registry.

    Each game module ends with its `FAMILY`; `pygames.FAMILIES` lists them in menu order.
    """

    id: str  # the page (<id>.html, embed-<id>.html, data-pygames="<id>") and save keys
    title: str  # French, as on the home page
    description: str  # one line (French) for the home page
    games: tuple[Game, ...]  # its rulesets; the first is the default
    view: str  # the page's view module in web/app/
    commands: Mapping[str, str] = dataclasses.field(default_factory=dict)  # CLI name -> help
    cli_module: str = ""  # defines add_arguments(name, parser) and run(name, args, out)
    solver: str = ""  # module whose solve(game, options, args, out) serves `solve GAME`
    advisor: bool = False  # the page offers "Conseil"

    @property
    def min_players(self) -> int:
        return min(g.min_players for g in self.games)

    @property
    def max_players(self) -> int:
        return max(g.max_players for g in self.games)

    @property
    def seats(self) -> Mapping[str, str]:
        return {k: v for g in self.games for k, v in g.seats.items()}

    def players_text(self) -> str:
        lo, hi = self.min_players, self.max_players
        if lo == hi:
            return f"{lo} joueurs"
        return f"{lo} à {hi} joueurs" if lo > 1 else f"{lo} à {hi} joueurs (seul contre la feuille)"


# --- dice ----------------------------------------------------------------------------


class DiceSampler:
    """Picks chance actions: fresh entropy by default, or reproducible from a seed.

    With a seed, the faces of the n-th throw of a game depend only on (seed, n), so a
    seeded game reloaded half-way goes on with the same dice it would have had.
    """

    def __init__(self, seed: str | None = None):
        self.seed = seed

    def faces(self, count: int, ply: int) -> tuple[int, ...]:
        if self.seed is None:
            return tuple(secrets.randbelow(6) + 1 for _ in range(count))
        out: list[int] = []
        block = 0
        while len(out) < count:
            digest = hashlib.sha256(f"{self.seed}/{ply}/{block}".encode("utf-8", "surrogatepass")).digest()
            # Rejection sampling keeps the six faces exactly equally likely.
            out.extend(b % 6 + 1 for b in digest if b < 252)
            block += 1
        return tuple(out[:count])

    def throw(self, state: State, ply: int) -> Throw:
        return Throw(self.faces(state.dice_to_throw(), ply))


# --- matches and records -------------------------------------------------------------


class Match:
    """A game being played: players, options, the current state and its history."""

    def __init__(
        self,
        game: Game,
        players: Sequence[Player],
        options: Mapping[str, Any] | None = None,
        sampler: DiceSampler | None = None,
        start: Any = None,
        undo: bool = True,
    ):
        game.check_players(players)
        if not isinstance(undo, bool):
            raise GameError("Réglage d'annulation illisible : oui ou non attendu.")
        self.game = game
        self.players = tuple(players)
        self.options = game.resolve_options(options)
        self.start = None if start is None else game.check_start(start, self.players, self.options)
        self.state = game.new_state(self.players, self.options, self.start)
        self.history: list[Action] = []
        self.sampler = sampler or DiceSampler()
        # A match-level setting of every game, not a rule: False is "sans annulation".
        self.undo_allowed = undo
        # The states before each decision taken since the last throw (see `undo`).
        self._undoable: list[State] = []

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def outcome(self) -> Outcome | None:
        return self.state.outcome(self.names)

    def apply(self, action: Action | str) -> State:
        if isinstance(action, str):
            action = self.game.parse_action(action)
        before = self.state
        self.state = before.apply(action)  # State.apply checks legality
        self.history.append(action)
        if before.is_chance():
            self._undoable.clear()  # dice that have landed are never taken back
        else:
            self._undoable.append(before)
        return self.state

    # --- undo ("Annuler"): a decision can be taken back until dice land -----------------

    def can_undo(self) -> bool:
        """True if the last action is a player's decision that can be taken back: undo is
        allowed in this match, the game is not over, and no dice have landed since that
        decision (undo never gives a new throw).  Taking it back puts its player back to
        decide, exactly as before it."""
        return self.undo_allowed and bool(self._undoable) and not self.state.is_terminal()

    def undo_player(self) -> int | None:
        """The player whose decision `undo` would take back (None if there is none)."""
        return self._undoable[-1].current_player() if self.can_undo() else None

    def undo(self) -> Action:
        """Take back the last decision (see `can_undo`): the state, the history and the
        record are exactly what they were before it.  Returns the action taken back."""
        if not self.can_undo():
            raise IllegalAction("Il n'y a pas de décision à reprendre.")
        self.state = self._undoable.pop()
        return self.history.pop()

    def throw(self) -> State:
        """Let the dice fall (at a chance node)."""
        if not self.state.is_chance():
            raise IllegalAction("Ce n'est pas le moment de lancer les dés.")
        return self.apply(self.sampler.throw(self.state, len(self.history)))

    def advance_chance(self) -> State:
        while self.state.is_chance():
            self.throw()
        return self.state

    def to_record(self) -> dict:
        record = {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
            "actions": [a.notation() for a in self.history],
        }
        if self.start is not None:
            record["start"] = self.start  # optional: records without it start afresh
        if not self.undo_allowed:
            record["undo"] = False  # optional: records without it allow undo
        return record

    @classmethod
    def from_record(
        cls,
        record: Any,
        registry: Mapping[str, Game],
        sampler: DiceSampler | None = None,
    ) -> "Match":
        """Replay a record (a dict, or its JSON text); any defect raises BadRecord."""
        if isinstance(record, (str, bytes, bytearray)):
            try:
                record = json.loads(record)
            except (ValueError, RecursionError):
                raise BadRecord("Partie enregistrée illisible : JSON invalide ou tronqué.") from None
        if not isinstance(record, dict):
            raise BadRecord("Partie enregistrée illisible : un objet JSON est attendu.")
        if record.get("format") != RECORD_FORMAT:
            raise BadRecord(f"Format de partie inconnu : {record.get('format')!r}.")
        game_id = record.get("game")
        game = registry.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise BadRecord(f"Jeu inconnu : {record.get('game')!r}.")
        players_json, options, actions = (
            record.get("players"),
            record.get("options", {}),
            record.get("actions"),
        )
        if not isinstance(players_json, list) or not all(
            isinstance(p, dict) for p in players_json
        ):
            raise BadRecord("Liste des joueurs illisible.")
        if not isinstance(options, dict):
            raise BadRecord("Options illisibles.")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadRecord("Liste des coups illisible.")
        undo = record.get("undo", True)
        if not isinstance(undo, bool):
            raise BadRecord("Réglage d'annulation illisible.")
        try:
            players = [Player(p.get("name"), p.get("seat", "human")) for p in players_json]
            match = cls(game, players, options, sampler, record.get("start"), undo)
        except GameError as err:
            raise BadRecord(f"Partie enregistrée invalide : {err}") from None
        for i, text in enumerate(actions):
            try:
                match.apply(text)
            except GameError as err:
                raise BadRecord(f"Coup n° {i + 1} (« {quote(text)} ») invalide : {err}") from None
        return match


def play_out(match: Match, choose) -> Match:
    """Play `match` to its end: `choose(state)` picks every player's action."""
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(choose(match.state))
    return match


def distinct(items: Iterable) -> list:
    """Items in first-seen order without repeats."""
    return list(dict.fromkeys(items))


def replace(obj, **changes):
    return dataclasses.replace(obj, **changes)
