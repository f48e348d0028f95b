"""The rules of the Yams family: `yams` (full French sheet), `yams-boite` and `yahtzee`.

One state machine serves the three rulesets; what differs between them is data: the
table of boxes (`BOXES`, and each ruleset's list of box ids) and a `Rules` object
built from the game's options (bonus threshold, yam primes, joker, forced scoring).

A turn: `roll` (all five dice), then up to two `keep …` (keep those dice, reroll the
rest), each followed by a chance `dice …` action; then `score BOX`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalAction,
    Option,
    Player,
    State,
    Throw,
    quote,
    replace,
    unknown_action,
)
from ..dice import CupState, Roll, counts
from ..messages import AnyOf, Msg

__all__ = [
    "BOITE_BOXES", "BOXES", "Box", "Counts", "DICE", "FULL_IDS", "GAMES", "ROLLS", "Roll",
    "Rules", "SHORT_IDS", "Score", "Sheet", "UPPER_IDS", "YAM_PRIME", "Yahtzee", "Yams",
    "YamsBoite", "YamsGame", "YamsState",
]


DICE = 5
ROLLS = 3
YAM_PRIME = 100

# --- the boxes -----------------------------------------------------------------------

Counts = tuple  # counts(dice): index = face


def _has_run(c: Counts, length: int) -> bool:
    run = 0
    for face in range(1, 7):
        run = run + 1 if c[face] else 0
        if run >= length:
            return True
    return False


def _is_full(c: Counts) -> bool:
    return sorted(n for n in c if n) == [2, 3]


def _two_pairs(c: Counts, four_counts: bool) -> bool:
    return sum(1 for n in c if n >= 2) >= 2 or (four_counts and max(c) >= 4)


def _best_face(c: Counts, n: int) -> int:
    return max(f for f in range(1, 7) if c[f] >= n)


@dataclass(frozen=True)
class Box:
    """A box of a score sheet: when the dice fit it and what they score there.  Its words
    are the catalogue's ``yams.box.<name>`` and ``yams.hint.<hint>`` (pygames.yams.messages)."""

    id: str
    upper: bool
    fits: Callable[[Counts, "Rules"], bool]
    points: Callable[[Counts, int], int]  # (counts, sum of dice) -> score when it fits
    name: str = ""  # the label's id when it is not the box's own (Yahtzee's "yams" box)
    hint: str = ""  # the hint's id when it is not the box's own (the Boîte's brelan)

    @property
    def label(self) -> Msg:
        return Msg(f"yams.box.{self.name or self.id}")

    @property
    def help(self) -> Msg:
        return Msg(f"yams.hint.{self.hint or self.id}")

    def score(self, c: Counts, total: int, rules: "Rules", joker: bool = False) -> int:
        if joker and not self.upper:
            return self.points(c, total)
        return self.points(c, total) if self.fits(c, rules) else 0


def _upper(face: int, name: str) -> Box:
    return Box(name, True, lambda c, r: True, lambda c, t, f=face: c[f] * f)


def _always(c, r):
    return True


BOXES: dict[str, Box] = {
    b.id: b
    for b in (
        *(_upper(f, n) for f, n in zip(range(1, 7), "ones twos threes fours fives sixes".split())),
        Box("pair", False, lambda c, r: max(c) >= 2, lambda c, t: t),
        Box("two_pairs", False, lambda c, r: _two_pairs(c, r.four_kind_is_two_pairs),
            lambda c, t: t),
        Box("three_kind", False, lambda c, r: max(c) >= 3, lambda c, t: t),
        Box("four_kind", False, lambda c, r: max(c) >= 4, lambda c, t: t),
        Box("full", False, lambda c, r: _is_full(c), lambda c, t: 25),
        Box("small_straight", False, lambda c, r: _has_run(c, 4), lambda c, t: 30),
        Box("large_straight", False, lambda c, r: _has_run(c, 5), lambda c, t: 40),
        Box("yams", False, lambda c, r: max(c) == 5, lambda c, t: 50),
        Box("chance", False, _always, lambda c, t: t),
    )
}

# In the Boîte à jeux sheet, brelan and carré score the matching dice only.
BOITE_BOXES = {
    "three_kind": replace(BOXES["three_kind"], points=lambda c, t: 3 * _best_face(c, 3),
                          hint="three_kind_boite"),
    "four_kind": replace(BOXES["four_kind"], points=lambda c, t: 4 * _best_face(c, 4),
                         hint="four_kind_boite"),
}

UPPER_IDS = ("ones", "twos", "threes", "fours", "fives", "sixes")
SHORT_IDS = UPPER_IDS + (
    "three_kind", "four_kind", "full", "small_straight", "large_straight", "yams", "chance",
)
FULL_IDS = UPPER_IDS + (
    "pair", "two_pairs", "three_kind", "four_kind", "full", "small_straight",
    "large_straight", "yams", "chance",
)


@dataclass(frozen=True)
class Rules:
    """Everything a Yams state needs to know about its ruleset and options."""

    boxes: tuple[Box, ...]
    bonus_threshold: int = 63
    bonus: int = 35
    primes: int = 0  # how many yam primes a player may earn (0: none; more than turns: no limit)
    joker: str = ""  # "", "free" (any box) or "forced" (international order)
    forced_scoring: bool = False  # a 0 only when nothing scores
    four_kind_is_two_pairs: bool = False
    index: Mapping[str, int] = field(default=None, compare=False)  # type: ignore[assignment]

    def __post_init__(self):
        object.__setattr__(self, "index", {b.id: i for i, b in enumerate(self.boxes)})

    @property
    def yam_index(self) -> int:
        return self.index["yams"]

    def upper_bonus(self, upper_total: int) -> int:
        return self.bonus if upper_total >= self.bonus_threshold else 0


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Score(Action):
    box: str
    verbs: ClassVar[tuple[str, ...]] = ("score",)

    def notation(self) -> str:
        return f"score {self.box}"

    @classmethod
    def parse(cls, words, game):
        if len(words) != 2:
            raise unknown_action(words)
        if words[1] not in game.box_ids:
            raise IllegalAction("yams.error.box_unknown_in", game=game.title,
                                box=quote(" ".join(words[1:])))
        return cls(words[1])


# --- the state -----------------------------------------------------------------------


@dataclass(frozen=True)
class Sheet:
    """One player's sheet, with its totals."""

    boxes: dict[str, int | None]
    upper: int
    bonus: int
    missing_for_bonus: int  # points still needed in the upper part for the bonus
    par: int  # upper part against "three of each face" (positive: ahead)
    lower: int
    primes: int  # yam primes, in points
    total: int


@dataclass(frozen=True)
class YamsState(CupState, State):
    CUP_SIZE: ClassVar[int] = DICE
    rules: Rules = field(repr=False)
    sheets: tuple[tuple[int | None, ...], ...]
    primes: tuple[int, ...]  # number of yam primes earned by each player
    player: int = 0
    rolls: int = 0  # throws made this turn
    dice: tuple[int, ...] = ()  # the dice on the table, in their places
    rerolling: tuple[int, ...] = ()  # places of the dice in the air (chance node)

    # protocol

    def current_player(self) -> int:
        if self.rerolling:
            return CHANCE
        if all(v is not None for v in self.sheets[-1]):
            return TERMINAL
        return self.player

    def thrower(self) -> int:
        return self.player

    def player_actions(self) -> list[Action]:
        actions: list[Action] = []
        if self.rolls == 0:
            return [Roll()]
        if self.rolls < ROLLS:
            actions += self.cup.keeps()
        actions += [Score(b) for b in self.scorable()]
        return actions

    def why_illegal(self, action: Action) -> Msg:
        if isinstance(action, Roll):
            if self.rolls >= ROLLS:
                return Msg("yams.error.no_roll_left")
            if self.rolls == 0 and action.keep:
                return Msg("yams.error.roll_five_first")
            if len(action.keep) >= DICE:
                return Msg("error.reroll_one")
            return Msg("error.keep_not_on_table")
        if isinstance(action, Score):
            if action.box not in self.rules.index:
                return Msg("yams.error.box_unknown", box=quote(action.box))
            if self.rolls == 0:
                return Msg("error.throw_first")
            box = self.rules.boxes[self.rules.index[action.box]]
            if self.sheets[self.player][self.rules.index[action.box]] is not None:
                return Msg("yams.error.box_filled", box=box.label)
            legal = self.scorable()
            if self.joker_active() and self.rules.joker == "forced":
                return Msg("yams.error.forced_joker", boxes=AnyOf(
                    Msg("word.quoted", text=self.rules.boxes[self.rules.index[b]].label) for b in legal))
            if self.rules.forced_scoring:
                return Msg("yams.error.forced_scoring")
        return super().why_illegal(action)

    def apply(self, action: Action) -> "YamsState":
        self.check_legal(action)
        if isinstance(action, Throw):
            return replace(self, dice=self.cup.land(action.faces).dice, rerolling=())
        if isinstance(action, Roll):
            return replace(self, rolls=self.rolls + 1, rerolling=self.cup.roll(action).rolling)
        assert isinstance(action, Score)
        return self._score(action.box)

    def throw_key(self) -> tuple:
        """The player, his turn (the boxes he has filled) and the throw in that turn."""
        return ("yams", self.player, sum(v is not None for v in self.sheets[self.player]), self.rolls)

    def scores(self) -> list[int]:
        return [self.sheet(p).total for p in range(len(self.sheets))]

    # Yams specifics

    def places_of(self, keep) -> tuple[int, ...]:
        """The dice on the table that keeping these faces holds: the leftmost of equal faces."""
        return self.cup.places_of(keep)

    def joker_active(self) -> bool:
        if not self.rules.joker or not self.dice or self.rerolling:
            return False
        return len(set(self.dice)) == 1 and self.sheets[self.player][self.rules.yam_index] is not None

    def potential(self) -> dict[str, int]:
        """What each open box of the current player would score with the dice shown."""
        if not self.dice or self.rerolling:
            return {}
        c, total, joker = counts(self.dice), sum(self.dice), self.joker_active()
        sheet = self.sheets[self.player]
        return {
            b.id: b.score(c, total, self.rules, joker)
            for i, b in enumerate(self.rules.boxes)
            if sheet[i] is None
        }

    def scorable(self) -> list[str]:
        """The boxes the current player may fill now."""
        if self.rolls == 0 or self.rerolling or self.is_terminal():
            return []
        points = self.potential()
        if self.joker_active() and self.rules.joker == "forced":
            face_box = UPPER_IDS[self.dice[0] - 1]
            if face_box in points:
                return [face_box]
            lower = [b for b in points if not self.rules.boxes[self.rules.index[b]].upper]
            return lower or list(points)
        if self.rules.forced_scoring:
            return [b for b, v in points.items() if v > 0] or list(points)
        return list(points)

    def _score(self, box: str) -> "YamsState":
        value = self.potential()[box]
        i, p = self.rules.index[box], self.player
        sheets = list(self.sheets)
        sheets[p] = sheets[p][:i] + (value,) + sheets[p][i + 1 :]
        primes = list(self.primes)
        if (
            self.rules.primes
            and len(set(self.dice)) == 1
            and self.sheets[p][self.rules.yam_index] == 50
            and primes[p] < self.rules.primes
        ):
            primes[p] += 1
        return replace(
            self,
            sheets=tuple(sheets),
            primes=tuple(primes),
            player=(p + 1) % len(self.sheets),
            rolls=0,
            dice=(),
            rerolling=(),
        )

    def sheet(self, player: int) -> Sheet:
        values = self.sheets[player]
        boxes = {b.id: values[i] for i, b in enumerate(self.rules.boxes)}
        upper = sum(boxes[b] or 0 for b in UPPER_IDS)
        lower = sum(v or 0 for b, v in boxes.items() if b not in UPPER_IDS)
        bonus = self.rules.upper_bonus(upper)
        par = sum(boxes[b] - 3 * f for f, b in enumerate(UPPER_IDS, 1) if boxes[b] is not None)
        prime = YAM_PRIME * self.primes[player]
        return Sheet(
            boxes=boxes,
            upper=upper,
            bonus=bonus,
            missing_for_bonus=max(0, self.rules.bonus_threshold - upper),
            par=par,
            lower=lower,
            primes=prime,
            total=upper + bonus + lower + prime,
        )

    @property
    def turn(self) -> int:
        """The current turn, counted from 1 (the number of boxes the player has filled + 1)."""
        return sum(v is not None for v in self.sheets[self.player]) + 1

    @property
    def turns(self) -> int:
        return len(self.rules.boxes)


# --- the games -----------------------------------------------------------------------

class YamsGame(Game):
    family = "yams"
    min_players = 1
    max_players = 6
    box_ids: tuple[str, ...] = FULL_IDS
    actions = (Roll, Score)
    seats = ("human", "simple", "expert")

    def rules(self, options: Mapping[str, Any]) -> Rules:
        raise NotImplementedError

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> YamsState:
        self.check_players(players)
        rules = self.rules(self.resolve_options(options))
        n = len(players)
        return YamsState(rules=rules, sheets=((None,) * len(rules.boxes),) * n, primes=(0,) * n)

    def boxes(self) -> tuple[Box, ...]:
        return self.rules(self.resolve_options()).boxes


class Yams(YamsGame):
    id = "yams"
    options = (
        Option("four_kind_is_two_pairs", False),
        Option("single_prime", False),
    )

    def rules(self, options):
        return Rules(
            boxes=tuple(BOXES[b] for b in FULL_IDS),
            primes=1 if options["single_prime"] else 99,
            joker="free",
            four_kind_is_two_pairs=options["four_kind_is_two_pairs"],
        )


class YamsBoite(YamsGame):
    id = "yams-boite"
    box_ids = SHORT_IDS
    options = (
        Option("forced_scoring", True),
        Option("bonus_above_63", False),
    )

    def rules(self, options):
        return Rules(
            boxes=tuple(BOITE_BOXES.get(b, BOXES[b]) for b in SHORT_IDS),
            bonus_threshold=64 if options["bonus_above_63"] else 63,
            forced_scoring=options["forced_scoring"],
        )


class Yahtzee(YamsGame):
    id = "yahtzee"
    box_ids = SHORT_IDS
    options = (Option("plain", False),)

    def rules(self, options):
        plain = options["plain"]
        yahtzee = replace(BOXES["yams"], name="yahtzee")
        return Rules(
            boxes=tuple(yahtzee if b == "yams" else BOXES[b] for b in SHORT_IDS),
            primes=0 if plain else 99,
            joker="" if plain else "forced",
        )


GAMES = (Yams(), YamsBoite(), Yahtzee())
