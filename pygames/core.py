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
history of actions, with a versioned JSON form (`to_record` / `Match.from_record`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping, Sequence

RECORD_FORMAT = "pygames/1"
CHANCE = -1
TERMINAL = -2
SEATS = ("human", "simple", "expert")  # computer levels: see bots.bot_for
MAX_NAME_LENGTH = 40


class GameError(ValueError):
    """The one error type for bad input: its message can be shown to a player as is."""


class IllegalAction(GameError):
    """An action that the rules do not allow in this state (the state is unchanged)."""


class BadRecord(GameError):
    """A saved game that cannot be read or does not replay."""


# --- actions -------------------------------------------------------------------------


class Action:
    """Base of every action. Subclasses are frozen dataclasses with a text notation."""

    def notation(self) -> str:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()


@dataclass(frozen=True)
class Throw(Action):
    """Chance action: the faces shown by the dice just thrown, in throwing order."""

    faces: tuple[int, ...]

    def notation(self) -> str:
        return "dice " + " ".join(map(str, self.faces))


def parse_faces(words: Sequence[str], what: str = "un dé") -> tuple[int, ...]:
    """Read dice faces from words, with a readable error for anything else."""
    faces = []
    for word in words:
        if not (word.isdigit() and len(word) == 1 and "1" <= word <= "6"):
            raise IllegalAction(f"« {word} » n'est pas {what} (une face de 1 à 6).")
        faces.append(int(word))
    return tuple(faces)


# --- options and players -------------------------------------------------------------


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
            if value not in self.choices:
                allowed = ", ".join(map(str, self.choices))
                raise GameError(f"Option {self.id} : valeur {value!r} invalide ({allowed}).")
            return value
        if not isinstance(value, bool):
            raise GameError(f"Option {self.id} : oui ou non attendu, pas {value!r}.")
        return value


@dataclass(frozen=True)
class Player:
    name: str
    seat: str = "human"  # "human", or the level of a computer player

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise GameError("Chaque joueur a besoin d'un nom.")
        if len(self.name) > MAX_NAME_LENGTH:
            raise GameError(f"Nom trop long (au plus {MAX_NAME_LENGTH} caractères).")
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in self.name):  # C0, DEL, C1
            raise GameError("Le nom contient un caractère de contrôle.")
        if self.seat not in SEATS:
            raise GameError(f"Place inconnue : {self.seat!r} ({', '.join(SEATS)}).")

    @property
    def is_computer(self) -> bool:
        return self.seat != "human"

    def to_json(self) -> dict:
        return {"name": self.name, "seat": self.seat}


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

    def check_legal(self, action: Action) -> None:
        """Raise IllegalAction with a readable reason unless `action` is legal here."""
        if self.is_terminal():
            raise IllegalAction("La partie est terminée.")
        if action not in self.legal_actions():
            raise IllegalAction(self.why_illegal(action))

    def why_illegal(self, action: Action) -> str:
        return f"Coup impossible maintenant : « {action} »."


class Game:
    """A game of the registry: its id, its options and its first state."""

    id: ClassVar[str]
    title: ClassVar[str]
    family: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    options: ClassVar[tuple[Option, ...]] = ()

    def resolve_options(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        given = dict(given or {})
        known = {o.id: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise GameError(f"Option inconnue pour {self.id} : {', '.join(unknown)}.")
        return {o.id: o.check(given.get(o.id, o.default)) for o in self.options}

    def check_players(self, players: Sequence[Player]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise GameError(
                f"{self.title} se joue de {self.min_players} à {self.max_players} joueurs."
            )

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any]) -> State:
        raise NotImplementedError

    def parse_action(self, text: str) -> Action:
        raise NotImplementedError


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
            digest = hashlib.sha256(f"{self.seed}/{ply}/{block}".encode()).digest()
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
    ):
        game.check_players(players)
        self.game = game
        self.players = tuple(players)
        self.options = game.resolve_options(options)
        self.state = game.new_state(self.players, self.options)
        self.history: list[Action] = []
        self.sampler = sampler or DiceSampler()

    def apply(self, action: Action | str) -> State:
        if isinstance(action, str):
            action = self.game.parse_action(action)
        self.state = self.state.apply(action)  # State.apply checks legality
        self.history.append(action)
        return self.state

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
        return {
            "format": RECORD_FORMAT,
            "game": self.game.id,
            "options": dict(self.options),
            "players": [p.to_json() for p in self.players],
            "actions": [a.notation() for a in self.history],
        }

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
        try:
            players = [Player(p.get("name"), p.get("seat", "human")) for p in players_json]
            match = cls(game, players, options, sampler)
        except GameError as err:
            raise BadRecord(f"Partie enregistrée invalide : {err}") from None
        for i, text in enumerate(actions):
            try:
                match.apply(text)
            except GameError as err:
                raise BadRecord(f"Coup n° {i + 1} (« {text} ») invalide : {err}") from None
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
