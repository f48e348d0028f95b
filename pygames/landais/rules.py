"""The rules of le Dé Landais: three dice, points that float until they are sealed, and a
target that must be hit exactly (3000 by default).

A *series* is a player's run of throws.  Each throw (`roll`, then the chance action
`dice A B C`) is read by `classify`, in this order of precedence:

* **poigne** — three identical dice: 1-1-1 is worth 1000, otherwise 100 × the face; the
  points float and the player must throw again;
* **tir** — three different faces, none of them 1 or 5: {2,3,4} Troll (floating points
  back to 0, the series goes on), {2,4,6} Véreux (the series ends, floating points lost,
  100 off the thrower's sealed score), {2,3,6} Licorne and {3,4,6} Chimère (the next
  throw, forced, is a *gift throw*: its points go to, or come off, every other player);
* **points** — 100 per 1, 50 per 5, added to the floating points;
* **vide** — nothing: the series ends and the floating points are lost.

After any throw, sealed + floating above the target ends the series at once (floating
points lost).  `seal` banks the floating points and passes the dice; sealing exactly
the target wins the manche.  A gift that lands a player exactly on the target wins the
manche for him; a gift that would take him past it is not applied to him.

What RULINGS.md leaves open, decided here:

* `seal` ("passer la main") is legal whenever nothing is pending and the series has had
  a throw: after a Troll, or after a gift throw while the thrower's floating points are
  0, it passes the dice with nothing sealed.  The first throw of a series is compulsory.
* A gift throw never touches the thrower's own series: whatever lands (points, a
  poigne, a Troll, a Véreux, a vide) he resumes with the floating points he had, free to
  throw or seal, unless it is another Licorne or Chimère (then the new tir applies to the
  next throw, again forced).  A poigne in a gift throw is given (or taken) whole and does
  not force a further throw: the worked example's Vaya "décide de rejouer" after one.
* When a Licorne gift lands several players on the target at once, the first of them in
  playing order after the thrower wins the manche.
* The opening throw: each contender throws one die (`dice 5`), in seat order; the
  highest starts; the players tied at the top throw again.  Play then goes round in seat
  order.  Each new manche starts from 0 for everyone, with the player after the previous
  manche's first player throwing first (no new opening throw).
* A partie is won by the first player to win `manches` manches.  Every manche each
  player stakes `stake` tokens and the winner of the manche takes them all (`tokens`
  holds each player's gain or loss).  Players are ranked by manches won, then by the
  sealed points of the last manche.
* A starting position (`check_start`) gives every player's sealed points (multiples of
  50, below the target, at least -100000) and optionally who throws first; it applies
  to the first manche only.

What a throw did is kept in the state as a typed record (`last`: `LastThrow`); its words
are pygames.landais.messages'.  The computer players are in pygames.landais.bots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from ..core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameError,
    IllegalAction,
    Option,
    Outcome,
    Player,
    State,
    Throw,
    Word,
    group_places,
    quote,
    replace,
)
from ..dice import Roll
from ..messages import Msg

__all__ = [
    "DICE", "DeLandais", "GAMES", "GIFTS", "Journal", "LandaisState", "LastThrow", "MIN_START", "Opening",
    "ROLL", "Reading", "Roll", "Rules", "SEAL", "Seal", "SeriesPlayed", "TARGETS", "TIRS", "UNIT",
    "classify", "journal",
]


DICE = 3
UNIT = 50  # every score of the game is a multiple of 50
MIN_START = -100_000

# --- what a throw is -----------------------------------------------------------------

TIRS = {
    frozenset((2, 3, 4)): "troll",
    frozenset((2, 4, 6)): "vereux",
    frozenset((2, 3, 6)): "licorne",
    frozenset((3, 4, 6)): "chimere",
}
GIFTS = ("licorne", "chimere")  # the tirs whose next throw goes to the other players


@dataclass(frozen=True)
class Reading:
    """What a throw is: `kind` (poigne, troll, vereux, licorne, chimere, points, vide)
    and the points it shows (poigne and points only)."""

    kind: str
    points: int = 0

    @property
    def scores(self) -> bool:
        return self.kind in ("poigne", "points")

    def notation(self) -> str:
        """As `landais-throw` prints it: `poigne 300`, `points 150`, `tir licorne`, `vide`."""
        if self.kind in TIRS.values():
            return f"tir {self.kind}"
        return self.kind if self.kind == "vide" else f"{self.kind} {self.points}"


def classify(faces: Sequence[int]) -> Reading:
    """The reading of three dice, in the rules' order of precedence."""
    if len(faces) != DICE or not all(type(f) is int and 1 <= f <= 6 for f in faces):
        raise IllegalAction("landais.error.three_dice")
    if faces[0] == faces[1] == faces[2]:
        return Reading("poigne", 1000 if faces[0] == 1 else 100 * faces[0])
    tir = TIRS.get(frozenset(faces)) if len(set(faces)) == 3 else None
    if tir:
        return Reading(tir)
    points = 100 * faces.count(1) + 50 * faces.count(5)
    return Reading("points", points) if points else Reading("vide")


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Seal(Word):
    """Pass the dice, sealing the floating points ("passer la main")."""

    verbs: ClassVar[tuple[str, ...]] = ("seal",)


ROLL = Roll()
SEAL = Seal()

# --- rules and state -----------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    target: int = 3000
    manches: int = 1  # manches to win the partie
    stake: int = 1  # tokens each player stakes on a manche


@dataclass(frozen=True)
class LastThrow:
    """The last throw and everything it did, for the page and the text rendering.

    `effects`: (player, change of sealed points) for every other player a gift throw (or
    a Véreux in one) touched; `capped`: the players a Licorne gift would have taken past
    the target; `gift`: the tir this throw was played under ("" for an ordinary throw)."""

    thrower: int
    faces: tuple[int, ...]
    kind: str
    points: int = 0
    gift: str = ""
    effects: tuple[tuple[int, int], ...] = ()
    capped: tuple[int, ...] = ()
    bust: bool = False  # sealed + floating went past the target
    ended: bool = False  # the series ended on this throw
    lost: int = 0  # floating points lost

    def to_json(self) -> dict:
        return {"thrower": self.thrower, "faces": list(self.faces), "kind": self.kind,
                "points": self.points, "gift": self.gift,
                "effects": [list(e) for e in self.effects], "capped": list(self.capped),
                "bust": self.bust, "ended": self.ended, "lost": self.lost}


@dataclass(frozen=True)
class LandaisState(State):
    rules: Rules = field(repr=False)
    sealed: tuple[int, ...]
    floating: int = 0
    player: int = 0
    pending: str = "start"  # "start", "poigne", "licorne", "chimere", or "" (free to seal)
    rolling: bool = False  # three dice in the air
    contenders: tuple[int, ...] = ()  # opening throw: players still throwing for the start
    opening: tuple[int, ...] = ()  # their dice so far, in seat order
    first: int = 0  # who threw first in this manche
    manche: int = 1
    manches_won: tuple[int, ...] = ()
    tokens: tuple[int, ...] = ()
    manche_winners: tuple[int, ...] = ()
    last: LastThrow | None = None

    # protocol

    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        if self.contenders or self.rolling:
            return CHANCE
        return self.player

    def thrower(self) -> int:
        return self.contenders[len(self.opening)] if self.contenders else self.player

    def thrown_at_table(self) -> bool:
        return not self.contenders  # the opening throw only says who starts: the page's dice

    def dice_to_throw(self) -> int:
        return 1 if self.contenders else DICE

    def player_actions(self) -> list[Action]:
        return [ROLL] if self.pending else [ROLL, SEAL]

    def why_illegal(self, action: Action) -> Msg:
        if isinstance(action, Seal) and self.pending:
            return Msg(f"landais.error.seal_{self.pending}")
        if isinstance(action, Roll) and action.keep:
            return Msg("landais.error.no_keep")
        return super().why_illegal(action)

    def apply(self, action: Action) -> "LandaisState":
        self.check_legal(action)
        if isinstance(action, Throw):
            if self.contenders:
                return self._opening(action.faces[0])
            return self._land(action.faces)
        if isinstance(action, Roll):
            return replace(self, rolling=True)
        return self._seal()

    def scores(self) -> list[int]:
        return list(self.sealed)

    def ranking(self) -> list[list[int]]:
        return group_places(range(len(self.sealed)), lambda p: (-self.manches_won[p], -self.sealed[p]))

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        ranking = tuple(tuple(place) for place in self.ranking())
        w = self.winner
        losers = ranking[-1] if len(ranking) > 1 else ()
        ending = "target" if self.rules.manches == 1 else "manches"
        return Outcome(ending, ranking, (w,), losers, False, tuple(self.scores()),
                       {"target": self.rules.target, "manches_won": self.manches_won[w],
                        "manches": self.manche, "tokens": self.tokens[w]})

    # Dé Landais specifics

    @property
    def winner(self) -> int | None:
        """The winner of the partie, once it is over."""
        for p, won in enumerate(self.manches_won):
            if won >= self.rules.manches:
                return p
        return None

    @property
    def can_roll(self) -> bool:
        return self.current_player() >= 0

    @property
    def can_seal(self) -> bool:
        return self.current_player() >= 0 and not self.pending

    @property
    def seal_wins(self) -> bool:
        return self.can_seal and self.sealed[self.player] + self.floating == self.rules.target

    @property
    def starting(self) -> bool:
        """The opening throw is under way (each contender throws one die)."""
        return bool(self.contenders)

    def _opening(self, face: int) -> "LandaisState":
        opening = self.opening + (face,)
        if len(opening) < len(self.contenders):
            return replace(self, opening=opening)
        top = max(opening)
        tied = tuple(p for p, f in zip(self.contenders, opening) if f == top)
        if len(tied) > 1:
            return replace(self, contenders=tied, opening=())
        return replace(self, contenders=(), opening=(), player=tied[0], first=tied[0])

    def _land(self, faces: tuple[int, ...]) -> "LandaisState":
        reading = classify(faces)
        p, target = self.player, self.rules.target
        if self.pending in GIFTS:
            return self._gift(faces, reading)
        kind, f = reading.kind, self.floating
        last = LastThrow(p, faces, kind, reading.points)
        if reading.scores:
            f += reading.points
            if self.sealed[p] + f > target:
                return self._end_series(replace(last, bust=True, ended=True, lost=f))
            return replace(self, rolling=False, floating=f, last=last,
                           pending="poigne" if kind == "poigne" else "")
        if kind == "troll":
            return replace(self, rolling=False, floating=0, pending="", last=replace(last, lost=f))
        if kind == "vereux":
            sealed = _add(self.sealed, p, -100)
            return replace(self, sealed=sealed)._end_series(replace(last, ended=True, lost=f))
        if kind in GIFTS:
            return replace(self, rolling=False, pending=kind, last=last)
        return self._end_series(replace(last, ended=True, lost=f))

    def _gift(self, faces, reading: Reading) -> "LandaisState":
        """A throw made under a Licorne or a Chimère: it is for the other players."""
        p, n, target = self.player, len(self.sealed), self.rules.target
        others = [(p + k) % n for k in range(1, n)]
        last = LastThrow(p, faces, reading.kind, reading.points, gift=self.pending)
        if reading.kind in GIFTS:
            return replace(self, rolling=False, pending=reading.kind, last=last)
        delta = 0
        if reading.scores:
            delta = reading.points if self.pending == "licorne" else -reading.points
        elif reading.kind == "vereux":
            delta = -100
        sealed, effects, capped = list(self.sealed), [], []
        if delta:
            for q in others:
                if sealed[q] + delta > target:
                    capped.append(q)
                    continue
                sealed[q] += delta
                effects.append((q, delta))
        last = replace(last, effects=tuple(effects), capped=tuple(capped))
        state = replace(self, sealed=tuple(sealed), rolling=False, pending="", last=last)
        landed = [q for q in others if delta > 0 and sealed[q] == target]
        return state._win_manche(landed[0]) if landed else state

    def _seal(self) -> "LandaisState":
        p = self.player
        state = replace(self, sealed=_add(self.sealed, p, self.floating), floating=0)
        if state.sealed[p] == self.rules.target:
            return state._win_manche(p)
        return state._next_series()

    def _end_series(self, last: LastThrow) -> "LandaisState":
        return replace(self, floating=0, last=last)._next_series()

    def _next_series(self) -> "LandaisState":
        n = len(self.sealed)
        return replace(self, rolling=False, floating=0, pending="start", player=(self.player + 1) % n)

    def _win_manche(self, w: int) -> "LandaisState":
        n, stake = len(self.sealed), self.rules.stake
        won = _add(self.manches_won, w, 1)
        tokens = tuple(t + (stake * (n - 1) if q == w else -stake) for q, t in enumerate(self.tokens))
        state = replace(self, manches_won=won, tokens=tokens, rolling=False, floating=0,
                        pending="", manche_winners=self.manche_winners + (w,))
        if won[w] >= self.rules.manches:
            return state  # terminal: the sealed points of the last manche stay on show
        first = (self.first + 1) % n
        return replace(state, sealed=(0,) * n, player=first, first=first, pending="start",
                       manche=self.manche + 1)


# --- the journal: what happened, series by series ---------------------------------------


@dataclass(frozen=True)
class Opening:
    """Who throws first: the opening throw's rounds ((contenders, their dice), one round
    per tie at the top), or none when the starting position said who starts; `first`."""

    rounds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    first: int


@dataclass(frozen=True)
class SeriesPlayed:
    """A player's series: each throw (`LastThrow`, what it did) and how it ended.

    `end`: "seal" (`sealed` points banked, `total` his score then), "pass" (sealed nothing),
    "vide", "vereux", "bust" (the floating points `lost`), "gift" (a gift throw took
    another player exactly to the target), or "" (still under way); `winner`: who won the
    manche on the series' last move (None if nobody)."""

    player: int
    manche: int
    throws: tuple[LastThrow, ...]
    end: str = ""
    sealed: int = 0
    total: int = 0
    lost: int = 0
    winner: int | None = None


class Journal:
    """The match's `Opening` and `SeriesPlayed` in order, built move by move (`add`: each
    step's before, action and after, as `Match.positions()` gives them)."""

    def __init__(self):
        self.done: list = []  # the opening and the series that are over
        self._started = False
        self._rounds: list = []
        self._faces: list[int] = []
        self._series: tuple[int, int] | None = None  # (player, manche) of the series under way
        self._throws: list[LastThrow] = []

    @property
    def entries(self) -> list:
        """Everything so far: the series under way last (``end`` "")."""
        if self._series is not None and self._throws:
            return [*self.done, SeriesPlayed(*self._series, tuple(self._throws))]
        return list(self.done)

    def add(self, before: "LandaisState", action: Action, after: "LandaisState") -> None:
        if not self._started:
            self._started = True
            if not before.contenders:  # the starting position said who starts
                self.done.append(Opening((), before.player))
        if before.contenders:  # the opening throw: one die each
            self._faces.append(action.faces[0])
            if len(self._faces) == len(before.contenders):
                self._rounds.append((before.contenders, tuple(self._faces)))
                self._faces = []
            if not after.contenders:
                self.done.append(Opening(tuple(self._rounds), after.player))
                self._rounds = []
            return
        if isinstance(action, Roll):
            return
        if self._series is None:
            self._series, self._throws = (before.player, before.manche), []
        (p, manche), throws = self._series, tuple(self._throws)
        won = after.manche_winners[-1] if len(after.manche_winners) > len(before.manche_winners) else None
        if isinstance(action, Seal):
            self.done.append(SeriesPlayed(p, manche, throws, "seal" if before.floating else "pass",
                                          before.floating, before.sealed[p] + before.floating,
                                          winner=won))
        else:
            last = after.last
            self._throws.append(last)
            throws += (last,)
            if last.ended:  # a vide, a Véreux, the target passed (never a manche won)
                self.done.append(SeriesPlayed(p, manche, throws, "bust" if last.bust else last.kind,
                                              total=after.sealed[p], lost=last.lost))
            elif won is not None:  # a gift took another player exactly to the target
                self.done.append(SeriesPlayed(p, manche, throws, "gift", total=before.sealed[p],
                                              winner=won))
            else:
                return
        self._series = None


def journal(positions) -> list:
    """The match's `Opening` and `SeriesPlayed` in order, from its positions
    (`Match.positions()`)."""
    found = Journal()
    for step in positions:
        found.add(step.before, step.action, step.after)
    return found.entries


def _add(values: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return values[:i] + (values[i] + delta,) + values[i + 1 :]


# --- the game ------------------------------------------------------------------------

TARGETS = (3000, 2000, 1000)


class DeLandais(Game):
    id = "de-landais"
    family = "de-landais"
    min_players = 2
    max_players = 4
    default_players = ((None, "human"), (None, "simple"))
    max_dice = 4  # the opening throw is one die per throw; a series throws three
    options = (
        Option("target", 3000, TARGETS),
        Option("manches", 1, (1, 2, 3)),
        Option("stake", 1, (1, 5)),
    )
    actions = (Roll, Seal)
    seats = ("human", "simple", "expert")

    def rules(self, options: Mapping[str, Any] | None = None) -> Rules:
        o = self.resolve_options(options)
        return Rules(target=o["target"], manches=o["manches"], stake=o["stake"])

    def check_start(self, start: Any, players: Sequence[Player], options: Mapping[str, Any]) -> Any:
        """{"scores": [sealed points of each player], "first": seat (optional)}."""
        n = len(players)
        target = self.rules(options).target
        if not isinstance(start, dict):
            raise GameError("landais.start.not_object")
        unknown = sorted(set(map(str, start)) - {"scores", "first"})
        if unknown:
            raise GameError("start.unknown_key", key=quote(unknown[0]))
        scores = start.get("scores")
        if not isinstance(scores, list) or len(scores) != n:
            raise GameError("landais.start.scores_count", n=n)
        for s in scores:
            if type(s) is not int:
                raise GameError("landais.start.not_points", value=quote(s))
            if s % UNIT:
                raise GameError("landais.start.unit", points=s, unit=UNIT)
            if not MIN_START <= s < target:
                raise GameError("landais.start.range", points=s, lo=MIN_START, hi=target - UNIT)
        normal: dict[str, Any] = {"scores": list(scores)}
        if "first" in start:
            first = start["first"]
            if type(first) is not int or not 0 <= first < n:
                raise GameError("landais.start.first", first=quote(first), last=n - 1)
            normal["first"] = first
        return normal

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> LandaisState:
        self.check_players(players)
        rules = self.rules(options)
        n = len(players)
        sealed, contenders, first = (0,) * n, tuple(range(n)), 0
        if start is not None:
            start = self.check_start(start, players, options)
            sealed = tuple(start["scores"])
            if "first" in start:
                contenders, first = (), start["first"]
        return LandaisState(rules=rules, sealed=sealed, player=first, first=first,
                            contenders=contenders, manches_won=(0,) * n, tokens=(0,) * n)


GAMES = (DeLandais(),)
