"""The protocol every game follows, and the pieces shared by all of them.

A game is a `Game` (its id, its options, a factory for the first state) and a `State`
(immutable: `apply` returns a new state).  Every state answers the same questions:
whose turn it is (`current_player`, which is `CHANCE` when dice are about to land),
which actions are legal, and, at the end, the final scores and the `Outcome`.  Dice are
chance actions like any other (`Throw`), so a game replays exactly from the list of its
actions and any roll can be forced in a test.  Randomness lives outside the rules, in
`DiceSampler`, which a driver (the web page, the CLI, a simulation) uses to pick chance
actions.

The rules speak no language: an outcome, an event or an error says what happened as
values (kinds, seats, numbers, message ids with parameters: `pygames.messages.Msg`); the
words are in the catalogues (`pygames.messages` and each game's ``messages.py``).

A `Match` is that driver's bookkeeping: players, options, the current state and the
history of actions, with a versioned JSON form (`to_record` / `Match.from_record`) and one
way to walk through it again (`Match.positions`).  It can take back the last decision
while no dice have landed since (`can_undo` / `undo`), unless the match is played *sans
annulation* (`undo=False`, kept in the record).

A match may be played *avec de vrais dés* (`dice="real"`): the people at the table throw
their own dice and type in what landed (`needs_faces`, `type_throw`); the computer's seats
throw the page's dice.  A typed throw is a transcription, not a draw: it can be taken back
(corrected) like a decision until the next one, even *sans annulation*, and the record lists
the typed throws (``"typed"``: their places in the history).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import itertools
import json
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterable, Iterator, Mapping, Sequence

from .messages import NO_WORDS, YES_WORDS, Msg, Name, text

RECORD_FORMAT = "pygames/1"
DICE_SOURCES = ("page", "real")  # a match's dice: the page's, or the people's own typed in
CHANCE = -1
TERMINAL = -2
MAX_NAME_LENGTH = 40


class GameError(ValueError):
    """The one error type for bad input.  It carries a message (`Msg`: a catalogue id and
    its parameters, see pygames.messages); ``str(err)`` is its text, which can be shown to
    a player as is.  A text that is no catalogue id stands for itself."""

    def __init__(self, message: Msg | str, /, **params: Any):
        self.message = message if isinstance(message, Msg) else Msg(message, **params)
        super().__init__(self.message.id)

    def __str__(self) -> str:
        return text(self.message)


class IllegalAction(GameError):
    """An action that the rules do not allow in this state (the state is unchanged)."""


class BadRecord(GameError):
    """A saved game that cannot be read or does not replay."""


class NewerRecord(BadRecord):
    """A record written by a newer version (``pygames/2`` and on): nothing is wrong with it,
    this version cannot read it; keep it as it is and ask for an update."""


# --- actions -------------------------------------------------------------------------


MAX_QUOTE = 40  # characters of a bad input quoted back in an error message
MAX_ACTION_TEXT = 200


def quote(value: Any) -> str:
    """A short, printable prefix of a bad input, for an error message."""
    value = value if isinstance(value, str) else repr(value)
    value = "".join(c if c.isprintable() else "?" for c in value[: MAX_QUOTE + 1])
    return value if len(value) <= MAX_QUOTE else value[: MAX_QUOTE - 1] + "…"


def unknown_action(words: Sequence[str]) -> IllegalAction:
    return IllegalAction("error.action_unknown", text=quote(" ".join(words)))


class Action:
    """Base of every action. Subclasses are frozen dataclasses with a text notation.

    Each subclass names the first words of its notation (`verbs`) and reads its own
    text back (`parse`), so `Game.parse_action` needs no list of its own.
    """

    verbs: ClassVar[tuple[str, ...]] = ()

    def notation(self) -> str:
        raise IllegalAction("error.action_no_notation", kind=type(self).__name__)

    @classmethod
    def parse(cls, words: Sequence[str], game: "Game") -> "Action":
        raise unknown_action(words)

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
            raise unknown_action(words)
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
            raise unknown_action(words)
        return cls(parse_faces(words[1:]))


def check_throw(action: Any, count: int) -> None:
    """The one check of a chance action: `count` faces, each an int from 1 to 6."""
    if not (
        isinstance(action, Throw)
        and isinstance(action.faces, tuple)
        and len(action.faces) == count
        and all(is_face(f) for f in action.faces)
    ):
        raise IllegalAction("error.throw_count", n=count)


def read_faces(written: Any, count: int) -> tuple[int, ...]:
    """The faces of `count` dice as a person types them: digits 1 to 6, with or without
    spaces or commas between them ("352", "3 5 2", "3,5,2"), or a sequence of ints."""
    if isinstance(written, str):
        if len(written) > MAX_ACTION_TEXT:
            raise IllegalAction("error.action_too_long", text=quote(written))
        words = [c for c in written if c not in " ,;\t\u00a0\u202f"]
        faces = parse_faces(words)
    elif isinstance(written, (list, tuple)) and all(is_face(f) for f in written):
        faces = tuple(written)
    else:
        raise IllegalAction("error.not_a_face", text=quote(written), what=Msg("word.a_die"))
    if len(faces) != count:
        raise IllegalAction("error.throw_count", n=count)
    return faces


def parse_faces(words: Sequence[str], what: Msg | None = None) -> tuple[int, ...]:
    """Read dice faces from words, with a readable error for anything else."""
    faces = []
    for word in words:
        if not (len(word) == 1 and word in "123456"):
            raise IllegalAction("error.not_a_face", text=quote(word), what=what or Msg("word.a_die"))
        faces.append(int(word))
    return tuple(faces)


# --- options and players -------------------------------------------------------------

YES, NO = YES_WORDS, NO_WORDS  # what an option's value may be written as (pygames.messages)


@dataclass(frozen=True)
class Option:
    """One setting of a game, as offered by its setup screen, the CLI and the tests; its
    words are the catalogue's ``option.<id>``."""

    id: str
    default: Any
    choices: tuple = ()  # empty for a yes/no option

    @property
    def label(self) -> Msg:
        return Msg(f"option.{self.id}")

    def _bad_choice(self, value: Any) -> GameError:
        return GameError("error.option_bad_choice", option=self.id, value=quote(value),
                         allowed=", ".join(map(str, self.choices)))

    def check(self, value: Any) -> Any:
        if self.choices:
            # bool is an int: True must not pass for the choice 1.
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise self._bad_choice(value)
            return value
        if not isinstance(value, bool):
            raise GameError("error.option_yes_no", option=self.id, value=quote(value))
        return value

    def parse(self, written: str | None) -> Any:
        """The value written as text (`None`: the option named alone, which means yes)."""
        if self.choices:
            raw = (written or "").strip().lower()
            for choice in self.choices:
                if str(choice).lower() == raw:
                    return choice
            raise self._bad_choice(written)
        raw = "yes" if written is None else written.strip().lower()
        if raw in YES:
            return True
        if raw in NO:
            return False
        raise GameError("error.option_yes_no_text", option=self.id, value=quote(written))


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
            raise GameError("error.option_unknown_for", game=game.title, key=quote(key),
                            known=", ".join(known) or Msg("word.none"))
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
            raise GameError("error.name_missing")
        if len(self.name) > MAX_NAME_LENGTH:
            raise GameError("error.name_long", max=MAX_NAME_LENGTH)
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in self.name):  # C0, DEL, C1
            raise GameError("error.name_control")
        if any(0xD800 <= ord(c) <= 0xDFFF for c in self.name):  # cannot be written as UTF-8
            raise GameError("error.name_invalid")
        if not any(is_visible(c) for c in self.name):
            raise GameError("error.name_invisible")
        if not isinstance(self.seat, str) or not self.seat.isidentifier() or len(self.seat) > 20:
            raise GameError("error.seat_unreadable", seat=quote(self.seat))

    @property
    def is_computer(self) -> bool:
        return self.seat != "human"

    def to_json(self) -> dict:
        return {"name": self.name, "seat": self.seat}


def parse_players(written: str) -> list[Player]:
    """'Alice,Bob:simple' -> two players, Bob played by the computer (CLI and embeds).

    Names are kept as written (trimmed); seats are read in lower case."""
    if not isinstance(written, str) or len(written) > MAX_PLAYERS_TEXT:
        raise GameError("error.players_text_long")
    players = []
    for n, item in enumerate(written.split(","), 1):
        name, _, seat = item.partition(":")
        name, seat = name.strip(), seat.strip().lower() or "human"
        if not name:
            raise GameError("error.player_no_name", n=n)
        try:
            players.append(Player(name, seat))
        except GameError as err:
            raise GameError("error.player_n", n=n, error=err.message) from None
    return players


# --- outcome -------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as facts: the kind of ending (`ending`, named by the
    game: "points", "tokens", "five", "target", "manches"), places, winners, losers, a
    draw, every player's score, and the numbers that explain it (`facts`, e.g. the target
    reached).  Its words are the game's catalogue's (``messages.reason(outcome, names)``)."""

    ending: str
    ranking: tuple[tuple[int, ...], ...]  # players grouped by place, best first
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    draw: bool
    scores: tuple[int, ...] = ()
    facts: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self, names: Sequence[str]) -> dict:
        return {
            "ending": self.ending,
            "ranking": [[names[p] for p in place] for place in self.ranking],
            "winners": [names[p] for p in self.winners],
            "losers": [names[p] for p in self.losers],
            "draw": self.draw,
        }


def players_text(lo: int, hi: int) -> Msg:
    """How many play: "2 joueurs", "2 à 6 joueurs", "1 à 6 joueurs (seul contre la feuille)"."""
    if lo == hi:
        return Msg("players.exactly", n=lo)
    return Msg("players.range" if lo > 1 else "players.range_solo", lo=lo, hi=hi)


def group_places(players: Iterable[int], key: Callable[[int], Any]) -> list[list[int]]:
    """`players` grouped by place, the smallest `key` first; equal keys share a place."""
    places: list[list[int]] = []
    for p in sorted(players, key=key):
        if places and key(places[-1][0]) == key(p):
            places[-1].append(p)
        else:
            places.append([p])
    return places


def score_outcome(state: "State", ending: str = "points") -> Outcome:
    """The outcome of a game won on points: the highest score wins, equal tops draw."""
    scores = tuple(state.scores())
    ranking = tuple(tuple(place) for place in state.ranking())
    top = ranking[0]
    if len(scores) == 1:
        return Outcome(ending, ranking, top, (), False, scores)
    losers = ranking[-1] if len(ranking) > 1 else ()
    return Outcome(ending, ranking, top, losers, len(top) > 1, scores)


# --- events: what an action did ------------------------------------------------------


@dataclass(frozen=True)
class PlayerEvent:
    """A typed event (a game's ``state.events``) that concerns one player: `player`, his
    seat.  Each game's events add what else they say (pygames.le421.rules.Thrown, …); one
    with nothing more is a plain subclass, and its words are the game's catalogue's."""

    player: int


# --- games and states ----------------------------------------------------------------


class State:
    """What every game state answers. States are immutable."""

    def current_player(self) -> int:
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        """None once the game is over; at a chance node, every way the dice can land;
        else what the player to move may do (`player_actions`)."""
        who = self.current_player()
        if who == TERMINAL:
            return []
        if who == CHANCE:
            return [Throw(faces) for faces in itertools.product(range(1, 7), repeat=self.dice_to_throw())]
        return self.player_actions()

    def player_actions(self) -> list[Action]:
        """The legal actions of the player to move (the game goes on, no dice are landing)."""
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

    def thrower(self) -> int:
        """At a chance node: the player whose dice land now (who throws them at a table
        played with real dice, and types in what landed)."""
        raise NotImplementedError

    def thrown_at_table(self) -> bool:
        """At a chance node: with real dice, the thrower throws these at the table and types
        them in (False: the page draws them even then, e.g. the Dé Landais' opening throw,
        which only says who starts, as the setup may)."""
        return True

    def throw_key(self) -> tuple | None:
        """At a chance node: the place of this throw in the game, the same whatever the
        players decided before it (e.g. Yams: the player, his turn, the throw in the turn),
        so that the day's dice (`DailySampler`) are the same for everyone at the same place.
        None (the default): the throw is known by its rank among the game's throws."""
        return None

    def scores(self) -> list[int]:
        """Each player's score so far (final scores once terminal)."""
        raise NotImplementedError

    def ranking(self) -> list[list[int]]:
        """Players grouped by place, best first (ties share a place)."""
        scores = self.scores()
        return group_places(range(len(scores)), lambda p: -scores[p])

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it goes on). Default: won on points."""
        if not self.is_terminal():
            return None
        return score_outcome(self)

    def check_legal(self, action: Action) -> None:
        """Raise IllegalAction with a readable reason unless `action` is legal here."""
        if self.is_terminal():
            raise IllegalAction("error.game_over")
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

    def _reason(self, action: Any) -> Msg:
        """why_illegal, even for an action built in Python with fields of the wrong types
        (a game's why_illegal may look them up): it never raises anything but the reason."""
        try:
            return self.why_illegal(action)
        except Exception:
            return Msg("error.action_unreadable_value", text=quote(repr(action)))

    def why_illegal(self, action: Action) -> Msg:
        if isinstance(action, Throw):
            return Msg("error.not_throw_time")
        try:
            written = action.notation() if isinstance(action, Action) else action
        except GameError:
            written = type(action).__name__
        return Msg("error.action_impossible", text=quote(written))


class Game:
    """A game of the registry (one ruleset): its id, its options, its first state, and
    what the menus, the CLI and the pages need to know of it.  Its words are the
    catalogue's: ``game.<id>.title`` and ``game.<id>.summary``; the seats' are
    ``seat.<seat>``.  What a whole family of rulesets shares (its page, bots, tables,
    commands) is its `Family`'s."""

    id: ClassVar[str]
    family: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    max_dice: ClassVar[int] = 5
    options: ClassVar[tuple[Option, ...]] = ()
    actions: ClassVar[tuple[type[Action], ...]] = ()  # the action types, parsed by verb
    # "human" first, then the computer levels, weakest first (played by the family's bots).
    seats: ClassVar[tuple[str, ...]] = ("human",)
    # A fresh setup's players, (name, seat) each; a name None is the seat's default name
    # (`default_name`).  The setup the build writes as plain HTML (web/tools/build.py) shows them.
    default_players: ClassVar[tuple[tuple[str | None, str], ...]] = ((None, "human"),)

    @property
    def title(self) -> Msg:
        return Msg(f"game.{self.id}.title")

    @property
    def summary(self) -> Msg:
        return Msg(f"game.{self.id}.summary")

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        given = dict(given or {})
        known = {o.id: o for o in self.options}
        unknown = sorted(set(map(str, given)) - set(known))
        if unknown:
            shown = ", ".join(quote(u) for u in unknown[:3]) + (" …" if len(unknown) > 3 else "")
            raise GameError("error.option_unknown", game=self.id, keys=shown)
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
                raise GameError("error.players_exactly", game=self.title, n=self.min_players)
            raise GameError("error.players_range", game=self.title, lo=self.min_players,
                            hi=self.max_players)
        for p in players:
            if p.seat not in self.seats:
                raise GameError("error.seat_unknown", name=Name(p.name), seat=quote(p.seat),
                                game=self.title, seats=", ".join(self.seats))

    def check_start(self, start: Any, players: Sequence[Player], options: Mapping[str, Any]) -> Any:
        """A starting position given by the players (e.g. a game begun on paper),
        checked and normalised to plain JSON; games that take none refuse it."""
        raise GameError("error.no_start", game=self.title)

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> State:
        raise NotImplementedError

    def parse_action(self, written: str) -> Action:
        """Read an action from its notation; each action type parses its own words."""
        if not isinstance(written, str):
            raise IllegalAction("error.action_unreadable")
        if len(written) > MAX_ACTION_TEXT:
            raise IllegalAction("error.action_too_long", text=quote(written))
        words = written.split()
        if words:
            for kind in (*self.actions, Throw):
                if words[0] in kind.verbs:
                    return kind.parse(words, self)
        raise unknown_action(words)


# --- the advisor's answer: the same shape in every game ----------------------------------


@dataclass(frozen=True)
class Choice:
    """One choice of the player to move and what it is worth: the quantity the family's
    expert plays for (an expected final score, a probability of winning)."""

    action: Action
    value: float


@dataclass(frozen=True)
class Advice:
    """Every choice of the player to move, best first (the expert plays the first);
    `measure` says what the values are ("score": expected final score, "win": probability
    of winning), `exact` whether they are exact or an approximation (e.g. a two-player
    solution played against the strongest of three opponents)."""

    choices: tuple[Choice, ...]
    measure: str
    exact: bool = True

    @property
    def best(self) -> Choice | None:
        return self.choices[0] if self.choices else None


# --- families: what a page, the menu and the CLI know of a group of rulesets ---------

#: A computer level: built from the solved tables when the family has some (else None).
BotFactory = Callable[[Any], Callable[[State], Action]]


@dataclass(frozen=True)
class Family:
    """One game as players name it (Yams, Le 421, …): its rulesets and everything around
    the rules that the site, the CLI and the tests read from the registry.  Each game's
    package assembles its own (``pygames/<game>/__init__.py``); `pygames.FAMILIES` lists
    them in menu order.  Its words: ``family.<id>.title`` and ``family.<id>.description``.

    * `bots`: seat -> factory(tables) -> bot (a function ``state -> action``);
    * `tables_name(game, options)` -> the expert's solved table (a file under web/tables/,
      without ``.bin``) or None, and `load_tables(bytes)` -> what the bots and the advisor
      read (the pure package does no file I/O: the CLI and the page hand over the bytes);
      `load_steps(bytes)`, when the module has it, the same in steps (a generator that
      yields between slices of its work and returns the tables: `pygames.tables.read_steps`);
    * `advise(state, tables)` -> `Advice`, when the page offers "Conseil";
    * `cli`: the module of its own commands (`commands`), imported only when one runs;
    * `text`: its catalogue module (``messages``): describes events and outcomes and
      draws the state for a terminal.
    """

    id: str  # the page (<id>.html, embed-<id>.html, data-pygames="<id>") and save keys
    games: tuple[Game, ...]  # its rulesets; the first is the default
    view: str  # the page's view module in web/app/
    bots: Mapping[str, BotFactory] = dataclasses.field(default_factory=dict)
    text: Any = None
    commands: tuple[str, ...] = ()
    cli: str = ""  # defines add_arguments(name, parser) and run(name, args, out), solve(...)
    solver: bool = False  # its cli module's solve(game, options, args, out) serves `solve`
    tables_name: Callable[[Game, Mapping[str, Any]], str | None] | None = None
    load_tables: Callable[[bytes], Any] | None = None
    load_steps: Callable[[bytes], Any] | None = None
    advise: Callable[[State, Any], Advice] | None = None

    def __post_init__(self) -> None:
        for game in self.games:
            assert game.family == self.id, game.id
            object.__setattr__(game, "_family", self)
        missing = {s for g in self.games for s in g.seats if s != "human"} - set(self.bots)
        assert not missing, f"{self.id}: no bot for {sorted(missing)}"

    @classmethod
    def of_package(cls, package: str, games: tuple[Game, ...], *, tables: Any = None,
                   **fields: Any) -> "Family":
        """The family a game's package assembles (``Family.of_package(__name__, GAMES, …)``):
        its id is its games' family, its commands are in ``<package>.cli``, and with its
        `tables` module (`tables_name`, `load_tables`) `solve` builds its expert's tables."""
        if tables is not None:
            fields.update(solver=True, tables_name=tables.tables_name, load_tables=tables.load_tables,
                          load_steps=getattr(tables, "load_steps", None))
        return cls(id=games[0].family, games=games, cli=f"{package}.cli", **fields)

    @property
    def title(self) -> Msg:
        return Msg(f"family.{self.id}.title")

    @property
    def description(self) -> Msg:
        return Msg(f"family.{self.id}.description")

    @property
    def advisor(self) -> bool:
        """The page offers "Conseil"."""
        return self.advise is not None

    @property
    def min_players(self) -> int:
        return min(g.min_players for g in self.games)

    @property
    def max_players(self) -> int:
        return max(g.max_players for g in self.games)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s for g in self.games for s in g.seats))

    def players_text(self) -> Msg:
        return players_text(self.min_players, self.max_players)

    def game_tables(self, game: Game, options: Mapping[str, Any]) -> str | None:
        return self.tables_name(game, game.resolve_options(options)) if self.tables_name else None


def family_of(game: Game) -> Family:
    """The family a game belongs to (set when its package assembles it)."""
    return game._family  # type: ignore[attr-defined]


def seat_label(seat: str) -> Msg:
    return Msg(f"seat.{seat}")


def default_name(n: int, seat: str) -> Msg:
    """A player's name when none is given: "Joueur n" for a person, "Ordinateur" else."""
    return Msg("player.default", n=n) if seat == "human" else Msg("player.computer")


def bot_for(game: Game, seat: str, tables: Any = None) -> Callable[[State], Action]:
    """The computer player of a seat, as the game's family declares it; an expert that
    plays from solved tables takes them (`Family.load_tables`) as `tables`."""
    factory = family_of(game).bots.get(seat) if seat in game.seats else None
    if factory is None:
        raise GameError("error.no_computer", seat=quote(seat), game=game.title)
    return factory(tables)


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

    def throw(self, state: State, ply: int, thrown: int = 0) -> Throw:
        """The dice landing at `state`, the match's `ply`-th action and its `thrown`-th throw."""
        return Throw(self.faces(state.dice_to_throw(), ply))


DAILY_FIRST_YEAR, DAILY_LAST_YEAR = 2000, 2999


def parse_daily(written: Any) -> str:
    """A day's date, written ``YYYY-MM-DD`` (a real date, 2000 to 2999); anything else is a
    GameError that quotes it."""
    if isinstance(written, str) and len(written) == 10 and written.isascii() and written[4] == written[7] == "-":
        year, month, day = written[:4], written[5:7], written[8:]
        if year.isdigit() and month.isdigit() and day.isdigit():
            try:
                date = datetime.date(int(year), int(month), int(day))
            except ValueError:
                date = None
            if date is not None and DAILY_FIRST_YEAR <= date.year <= DAILY_LAST_YEAR:
                return date.isoformat()
    raise GameError("error.daily_date", text=quote(written if isinstance(written, str) else repr(written)))


class DailySampler(DiceSampler):
    """The day's dice ("Défi du jour"): the same for everyone who plays `family` on `date`.

    A throw's faces depend only on the day, the family and the throw's place in the game
    (`State.throw_key`, else its rank among the game's throws), never on how many decisions
    came before it.  In a cup (Yams, 421, Linotte) each place has its own die: a die rerolled
    at the same place of the game shows the same face whichever others were kept."""

    def __init__(self, date: str, family: str):
        self.date = parse_daily(date)
        self.family = family
        super().__init__(f"pygames-daily/{family}/{self.date}")

    def key(self, state: State, thrown: int) -> str:
        key = state.throw_key()
        return repr(("throw", thrown) if key is None else tuple(key))

    def throw(self, state: State, ply: int, thrown: int = 0) -> Throw:
        count = state.dice_to_throw()
        cup = getattr(state, "cup", None)
        places = tuple(cup.rolling) if cup is not None else tuple(range(count))
        size = max(count, cup.size if cup is not None else count, *(p + 1 for p in places))
        faces = self.faces(size, self.key(state, thrown))  # type: ignore[arg-type]
        return Throw(tuple(faces[p] for p in places))


# --- matches and records -------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """One step of a match's history: the state before an action, the action, the state
    after it, and its index in the history (`ply`)."""

    ply: int
    before: State
    action: Action
    after: State


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
        dice: str = "page",
        daily: str | None = None,
    ):
        game.check_players(players)
        if not isinstance(undo, bool):
            raise GameError("error.undo_setting")
        if dice not in DICE_SOURCES:
            raise GameError("error.dice_setting", value=quote(dice))
        # The day's challenge ("Défi du jour"): its date, and the day's dice.
        self.daily = None if daily is None else parse_daily(daily)
        if self.daily is not None and dice == "real":
            raise GameError("error.daily_real_dice")
        if self.daily is not None:
            sampler = DailySampler(self.daily, game.family)
        self.game = game
        self.players = tuple(players)
        self.options = game.resolve_options(options)
        self.start = None if start is None else game.check_start(start, self.players, self.options)
        self.state = game.new_state(self.players, self.options, self.start)
        self.history: list[Action] = []
        self.thrown = 0  # throws in the history (only a typed throw corrected is taken back)
        self.sampler = sampler or DiceSampler()
        # A match-level setting of every game, not a rule: False is "sans annulation".
        self.undo_allowed = undo
        # Whose dice land: the page's ("page") or the people's own, typed in ("real").
        self.dice = dice
        self.typed: set[int] = set()  # the places in the history of the typed throws
        # The states before each decision taken since the last throw (see `undo`).
        self._undoable: list[State] = []
        # Fields of the record this version does not know (a newer version wrote them):
        # written back as they were, the record's own and each player's.
        self.unknown: dict[str, Any] = {}
        self.unknown_players: list[dict[str, Any]] = [{} for _ in self.players]
        # A game played at a distance, by links (`check_remote`): its id, the device each
        # person's seat is played on, the device that last saved it; None: played here only.
        self.remote: dict[str, Any] | None = None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def first_state(self) -> State:
        """The state the match started from (its history replays from it)."""
        return self.game.new_state(self.players, self.options, self.start)

    def positions(self, upto: int | None = None) -> Iterator[Position]:
        """Every step of the history (or of its first `upto` actions), replayed from the
        first state: the one way the pages and the tools walk through a match."""
        state = self.first_state()
        for ply, action in enumerate(self.history[:upto] if upto is not None else self.history):
            after = state.apply(action)
            yield Position(ply, state, action, after)
            state = after

    def outcome(self) -> Outcome | None:
        return self.state.outcome()

    def apply(self, action: Action | str, typed: bool = False) -> State:
        """Play `action` (or its notation); `typed`: a throw that a person typed in (a
        match played with real dice, at a chance node)."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        before = self.state
        if typed and not (self.dice == "real" and before.is_chance()):
            raise IllegalAction("error.not_throw_time" if self.dice == "real" else "error.dice_not_real")
        self.state = before.apply(action)  # State.apply checks legality
        self.history.append(action)
        if before.is_chance():
            self.thrown += 1
        if typed:
            self.typed.add(len(self.history) - 1)
            self._undoable.append(before)  # a transcription: it can be corrected
        elif before.is_chance():
            self._undoable.clear()  # dice that have landed are never taken back
        else:
            self._undoable.append(before)
        return self.state

    # --- real dice ("avec de vrais dés") ------------------------------------------------

    def needs_faces(self) -> bool:
        """Dice are about to land that a person at the table throws: the page waits for
        their faces (`type_throw`) instead of throwing."""
        state = self.state
        return (self.dice == "real" and state.is_chance() and state.thrown_at_table()
                and not self.players[state.thrower()].is_computer)

    def type_throw(self, written: Any) -> State:
        """The faces a person typed in for the dice now landing (see `read_faces`)."""
        if not self.needs_faces():
            raise IllegalAction("error.not_throw_time" if self.dice == "real" else "error.dice_not_real")
        return self.apply(Throw(read_faces(written, self.state.dice_to_throw())), typed=True)

    def last_typed(self) -> bool:
        """The last action is a throw typed in (a correction would take it back)."""
        return len(self.history) - 1 in self.typed

    # --- undo ("Annuler"): a decision can be taken back until dice land -----------------

    def can_undo(self) -> bool:
        """True if the last action is a player's decision that can be taken back: undo is
        allowed in this match, the game is not over, and no dice have landed since that
        decision (undo never gives a new throw).  Taking it back puts its player back to
        decide, exactly as before it.  A typed throw (real dice) can always be taken back
        until the next decision: it is corrected, not thrown again (with the decision to
        throw that came before it: the thrower is back to throwing, see `undo`)."""
        return (bool(self._undoable) and not self.state.is_terminal()
                and (self.undo_allowed or self.last_typed()))

    def undo_player(self) -> int | None:
        """The player whose decision `undo` would take back, or who typed the throw it
        would take back (None if there is none)."""
        if not self.can_undo():
            return None
        before = self._undoable[-1]
        return before.thrower() if before.is_chance() else before.current_player()

    def undo(self) -> Action:
        """Take back the last decision (see `can_undo`): the state, the history and the
        record are exactly what they were before it.  Returns the action taken back."""
        if not self.can_undo():
            raise IllegalAction("error.no_undo")
        typed = self.last_typed()
        self.state = self._undoable.pop()
        self.typed.discard(len(self.history) - 1)
        action = self.history.pop()
        if typed:
            self.thrown -= 1  # the day's dice (DailySampler) count the throws that landed
        decided = self._undoable[-1] if typed and self._undoable else None
        if decided is not None and not decided.is_chance() and decided.current_player() == self.state.thrower():
            # the throw was typed after its thrower's decision to throw (Lancer, keeping
            # some dice): a correction goes back to that decision, the dice kept as they were
            self.state = self._undoable.pop()
            self.history.pop()
        return action

    def throw(self) -> State:
        """Let the dice fall (at a chance node): the page's dice, unless a person at the
        table throws them (`needs_faces`)."""
        if not self.state.is_chance():
            raise IllegalAction("error.not_throw_time")
        if self.needs_faces():
            raise IllegalAction("error.faces_wanted")
        return self.apply(self.sampler.throw(self.state, len(self.history), self.thrown))

    def advance_chance(self) -> State:
        """Let the page's dice fall until a player decides, or a person's dice are wanted."""
        while self.state.is_chance() and not self.needs_faces():
            self.throw()
        return self.state

    def to_record(self) -> dict:
        record = {
            **self.unknown,
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "options": dict(self.options),
            "players": [{**extra, **p.to_json()} for p, extra in zip(self.players, self.unknown_players)],
            "actions": [a.notation() for a in self.history],
        }
        if self.start is not None:
            record["start"] = self.start  # optional: records without it start afresh
        if not self.undo_allowed:
            record["undo"] = False  # optional: records without it allow undo
        if self.dice != "page":
            record["dice"] = self.dice  # optional: records without it throw the page's dice
        if self.typed:
            record["typed"] = sorted(self.typed)  # optional: the throws typed in
        if self.daily is not None:
            record["daily"] = self.daily  # optional: the day's challenge of that date
        if self.remote is not None:
            record["remote"] = {**self.remote, "seats": list(self.remote["seats"])}  # optional: by links
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
                raise BadRecord("record.unreadable_json") from None
        if not isinstance(record, dict):
            raise BadRecord("record.not_object")
        written = record.get("format")
        if written != RECORD_FORMAT:
            if record_version(written) > record_version(RECORD_FORMAT):
                raise NewerRecord("record.format_newer", format=quote(written))
            raise BadRecord("record.format_unknown", format=quote(repr(written)))
        game_id = record.get("game")
        game = registry.get(game_id) if isinstance(game_id, str) else None
        if game is None:
            raise BadRecord("record.game_unknown", game=quote(repr(record.get("game"))))
        players_json, options, actions = (
            record.get("players"),
            record.get("options", {}),
            record.get("actions"),
        )
        if not isinstance(players_json, list) or not all(
            isinstance(p, dict) for p in players_json
        ):
            raise BadRecord("record.players_unreadable")
        if not isinstance(options, dict):
            raise BadRecord("record.options_unreadable")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise BadRecord("record.actions_unreadable")
        undo = record.get("undo", True)
        if not isinstance(undo, bool):
            raise BadRecord("record.undo_unreadable")
        dice = record.get("dice", "page")
        if dice not in DICE_SOURCES:
            raise BadRecord("record.dice_unreadable", value=quote(repr(dice)))
        typed = record.get("typed", [])
        if not (isinstance(typed, list) and all(type(i) is int and 0 <= i < len(actions) for i in typed)
                and len(set(typed)) == len(typed) and (dice == "real" or not typed)):
            raise BadRecord("record.typed_unreadable")
        daily = record.get("daily")
        if daily is not None:
            try:
                daily = parse_daily(daily)
            except GameError as err:
                raise BadRecord("record.daily_unreadable", error=err.message) from None
        try:
            players = [Player(p.get("name"), p.get("seat", "human")) for p in players_json]
            match = cls(game, players, options, sampler, record.get("start"), undo, dice, daily=daily)
        except GameError as err:
            raise BadRecord("record.invalid", error=err.message) from None
        typed = set(typed)
        for i, written in enumerate(actions):
            try:
                match.apply(written, typed=i in typed)
            except GameError as err:
                raise BadRecord("record.bad_action", n=i + 1, text=quote(written),
                                error=err.message) from None
        if "remote" in record:
            match.remote = check_remote(record["remote"], len(match.players))
        match.unknown = {k: v for k, v in record.items() if k not in RECORD_FIELDS}
        match.unknown_players = [{k: v for k, v in p.items() if k not in PLAYER_FIELDS} for p in players_json]
        return match


#: The fields of a record (and of a record's player) this version reads and writes.
RECORD_FIELDS = frozenset({"format", "game", "options", "players", "actions", "start", "undo", "dice", "typed",
                           "daily", "remote"})
PLAYER_FIELDS = frozenset({"name", "seat"})

#: The ids of a game played by links and of a device: 8 to 32 characters of base64url.
REMOTE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def remote_id(value: Any) -> bool:
    return isinstance(value, str) and 8 <= len(value) <= 32 and set(value) <= REMOTE_ID_CHARS


def check_remote(value: Any, players: int) -> dict[str, Any]:
    """The ``remote`` field of a game played at a distance, by links (web/app/remote.py):
    ``{"id": <the game's id>, "seats": [<the device of each player, or null>], "by": <the
    device that saved it>}``; anything else is a BadRecord (a link comes from a peer)."""
    if not isinstance(value, dict) or not remote_id(value.get("id")):
        raise BadRecord("record.remote_unreadable")
    seats = value.get("seats")
    if not (isinstance(seats, list) and len(seats) == players and all(s is None or remote_id(s) for s in seats)):
        raise BadRecord("record.remote_unreadable")
    by = value.get("by")
    if by is not None and not remote_id(by):
        raise BadRecord("record.remote_unreadable")
    return {"id": value["id"], "seats": list(seats), **({"by": by} if by is not None else {})}


def record_version(written: Any) -> int:
    """N of a format ``pygames/N`` (0 for anything else): which version wrote a record."""
    number = written[8:] if isinstance(written, str) and written.startswith("pygames/") else ""
    if number.isascii() and number.isdigit():
        return int(number[:6])
    return 0


def play_out(match: Match, choose) -> Match:
    """Play `match` to its end: `choose(state)` picks every player's action."""
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(choose(match.state))
    return match


def replace(obj, **changes):
    return dataclasses.replace(obj, **changes)
