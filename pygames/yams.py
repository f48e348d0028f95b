"""The Yams family: `yams` (full French sheet), `yams-boite` and `yahtzee`.

One state machine serves the three rulesets; what differs between them is data: the
table of boxes (`BOXES`, and each ruleset's list of box ids) and a `Rules` object
built from the game's options (bonus threshold, yam primes, joker, forced scoring).

A turn: `roll` (all five dice), then up to two `keep …` (keep those dice, reroll the
rest), each followed by a chance `dice …` action; then `score BOX`.
"""

from __future__ import annotations

from itertools import product
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

from .core import (
    CHANCE,
    TERMINAL,
    Action,
    Family,
    Game,
    IllegalAction,
    Option,
    Player,
    State,
    Throw,
    quote,
    replace,
)
from .dice import Cup, Roll, counts

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
    """A box of a score sheet: when the dice fit it and what they score there."""

    id: str
    label: str  # French
    upper: bool
    fits: Callable[[Counts, "Rules"], bool]
    points: Callable[[Counts, int], int]  # (counts, sum of dice) -> score when it fits
    hint: str = ""  # French, one line for the rules panel and tooltips

    def score(self, c: Counts, total: int, rules: "Rules", joker: bool = False) -> int:
        if joker and not self.upper:
            return self.points(c, total)
        return self.points(c, total) if self.fits(c, rules) else 0


def _upper(face: int, name: str) -> Box:
    return Box(
        name,
        f"Les {face}",
        True,
        lambda c, r: True,
        lambda c, t, f=face: c[f] * f,
        f"somme des dés qui montrent {face}",
    )


def _always(c, r):
    return True


BOXES: dict[str, Box] = {
    b.id: b
    for b in (
        *(_upper(f, n) for f, n in zip(range(1, 7), "ones twos threes fours fives sixes".split())),
        Box("pair", "Une paire", False, lambda c, r: max(c) >= 2, lambda c, t: t,
            "deux dés identiques : somme des 5 dés"),
        Box("two_pairs", "Deux paires", False, lambda c, r: _two_pairs(c, r.four_kind_is_two_pairs),
            lambda c, t: t, "deux paires de faces différentes : somme des 5 dés"),
        Box("three_kind", "Brelan", False, lambda c, r: max(c) >= 3, lambda c, t: t,
            "trois dés identiques : somme des 5 dés"),
        Box("four_kind", "Carré", False, lambda c, r: max(c) >= 4, lambda c, t: t,
            "quatre dés identiques : somme des 5 dés"),
        Box("full", "Full", False, lambda c, r: _is_full(c), lambda c, t: 25,
            "un brelan et une paire : 25 points"),
        Box("small_straight", "Petite suite", False, lambda c, r: _has_run(c, 4), lambda c, t: 30,
            "quatre faces qui se suivent : 30 points"),
        Box("large_straight", "Grande suite", False, lambda c, r: _has_run(c, 5), lambda c, t: 40,
            "cinq faces qui se suivent : 40 points"),
        Box("yams", "Yam", False, lambda c, r: max(c) == 5, lambda c, t: 50,
            "cinq dés identiques : 50 points"),
        Box("chance", "Chance", False, _always, lambda c, t: t, "n'importe quoi : somme des 5 dés"),
    )
}

# In the Boîte à jeux sheet, brelan and carré score the matching dice only.
BOITE_BOXES = {
    "three_kind": replace(BOXES["three_kind"], points=lambda c, t: 3 * _best_face(c, 3),
                          hint="trois dés identiques : 3 × la face"),
    "four_kind": replace(BOXES["four_kind"], points=lambda c, t: 4 * _best_face(c, 4),
                         hint="quatre dés identiques : 4 × la face"),
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
            raise IllegalAction(f"Coup inconnu : « {quote(' '.join(words))} ».")
        if words[1] not in game.box_ids:
            raise IllegalAction(f"Case inconnue dans {game.title} : « {quote(' '.join(words[1:]))} ».")
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
class YamsState(State):
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

    def dice_to_throw(self) -> int:
        return len(self.rerolling)

    def legal_actions(self) -> list[Action]:
        who = self.current_player()
        if who == TERMINAL:
            return []
        if who == CHANCE:
            return [Throw(f) for f in product(range(1, 7), repeat=len(self.rerolling))]
        actions: list[Action] = []
        if self.rolls == 0:
            return [Roll()]
        if self.rolls < ROLLS:
            actions += self.cup.keeps()
        actions += [Score(b) for b in self.scorable()]
        return actions

    @property
    def cup(self) -> Cup:
        return Cup(DICE, self.dice, self.rerolling)

    def check_legal(self, action: Action) -> None:
        super().check_legal(action)
        if isinstance(action, Roll) and action.positions is not None:
            self.cup.kept_places(action)  # raises if they don't match

    def why_illegal(self, action: Action) -> str:
        if isinstance(action, Roll):
            if self.rolls >= ROLLS:
                return "Plus de lancer ce tour : choisissez une case."
            if self.rolls == 0 and action.keep:
                return "Lancez d'abord les cinq dés."
            if len(action.keep) >= DICE:
                return "Il faut relancer au moins un dé."
            return "On ne peut garder que des dés qui sont sur la table."
        if isinstance(action, Score):
            if action.box not in self.rules.index:
                return f"Case inconnue : « {quote(action.box)} »."
            if self.rolls == 0:
                return "Lancez d'abord les dés."
            box = self.rules.boxes[self.rules.index[action.box]]
            if self.sheets[self.player][self.rules.index[action.box]] is not None:
                return f"La case « {box.label} » est déjà remplie."
            legal = self.scorable()
            if self.joker_active() and self.rules.joker == "forced":
                names = " ou ".join(f"« {self.rules.boxes[self.rules.index[b]].label} »" for b in legal)
                return f"Yam joker : il faut remplir {names}."
            if self.rules.forced_scoring:
                return "Un 0 n'est permis que si aucune case libre ne marque de points."
        return super().why_illegal(action)

    def apply(self, action: Action) -> "YamsState":
        self.check_legal(action)
        if isinstance(action, Throw):
            return replace(self, dice=self.cup.land(action.faces).dice, rerolling=())
        if isinstance(action, Roll):
            return replace(self, rolls=self.rolls + 1, rerolling=self.cup.roll(action).rolling)
        assert isinstance(action, Score)
        return self._score(action.box)

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
    seats = {"human": "Humain", "simple": "Ordinateur (facile)", "expert": "Ordinateur (expert)"}

    def rules(self, options: Mapping[str, Any]) -> Rules:
        raise NotImplementedError

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> YamsState:
        self.check_players(players)
        rules = self.rules(self.resolve_options(options))
        n = len(players)
        return YamsState(rules=rules, sheets=((None,) * len(rules.boxes),) * n, primes=(0,) * n)

    def boxes(self) -> tuple[Box, ...]:
        return self.rules(self.resolve_options()).boxes

    # what drivers ask of the family (see core.Game)

    def bot(self, seat, tables=None):
        if seat == "simple":
            from .yams_bots import SimpleYamsBot

            return SimpleYamsBot()
        if seat == "expert":
            from .expert import ExpertYamsBot

            return ExpertYamsBot(tables)
        return super().bot(seat, tables)

    def tables_name(self, options):
        from .solver import table_name

        return "yams/" + table_name(self.id, self.resolve_options(options), self.resolve_options())

    def load_tables(self, data):
        from .expert import load_tables

        return load_tables(data)

    def render_text(self, state, names):
        return render_sheet(state, names)


class Yams(YamsGame):
    id = "yams"
    title = "Yams (feuille complète)"
    summary = "15 cases, primes de Yam à 100 points, joker libre."
    options = (
        Option("four_kind_is_two_pairs", "Le carré compte pour deux paires", False),
        Option("single_prime", "Une seule prime de Yam", False),
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
    title = "Yams (Boîte à jeux)"
    box_ids = SHORT_IDS
    summary = "13 cases, brelan et carré comptent les dés identiques, 0 seulement si rien ne marque."
    options = (
        Option("forced_scoring", "Un 0 seulement si aucune case ne marque", True),
        Option("bonus_above_63", "Prime de 35 seulement au-dessus de 63 (63 ne suffit pas)", False),
    )

    def rules(self, options):
        return Rules(
            boxes=tuple(BOITE_BOXES.get(b, BOXES[b]) for b in SHORT_IDS),
            bonus_threshold=64 if options["bonus_above_63"] else 63,
            forced_scoring=options["forced_scoring"],
        )


class Yahtzee(YamsGame):
    id = "yahtzee"
    title = "Yahtzee (règles internationales)"
    box_ids = SHORT_IDS
    summary = "13 cases, primes de Yahtzee à 100 points, joker imposé."
    options = (Option("plain", "Sans prime ni joker", False),)

    def rules(self, options):
        plain = options["plain"]
        yahtzee = replace(BOXES["yams"], label="Yahtzee")
        return Rules(
            boxes=tuple(yahtzee if b == "yams" else BOXES[b] for b in SHORT_IDS),
            primes=0 if plain else 99,
            joker="" if plain else "forced",
        )


def render_sheet(state: YamsState, names: Sequence[str]) -> str:
    """The score sheet for a terminal: what each open box would score in brackets."""
    lines = []
    short = [n[:10] for n in names]
    lines.append(f"{'':16}" + "".join(f"{n:>11}" for n in short))
    potential = state.potential()
    sheets = [state.sheet(p) for p in range(len(short))]
    for box in state.rules.boxes:
        row = f"{box.label[:15]:16}"
        for p, sheet in enumerate(sheets):
            value = sheet.boxes[box.id]
            if value is None and p == state.player and box.id in potential:
                row += f"{'(' + str(potential[box.id]) + ')':>11}"
            else:
                row += f"{'' if value is None else value:>11}"
        lines.append(f"{row}   {box.id}")
        if box.id == "sixes":
            lines.append(f"{'Prime (≥63)':16}" + "".join(f"{s.bonus:>11}" for s in sheets))
    if state.rules.primes:
        lines.append(f"{'Primes Yam':16}" + "".join(f"{s.primes:>11}" for s in sheets))
    lines.append(f"{'TOTAL':16}" + "".join(f"{s.total:>11}" for s in sheets))
    if state.dice and not state.rerolling and not state.is_terminal():
        lines.append(f"Dés : {' '.join(map(str, state.dice))}  (lancer {state.rolls}/{ROLLS})")
    return "\n".join(lines)


FAMILY = Family(
    id="yams",
    title="Yams",
    description="Cinq dés, trois lancers, une feuille à remplir : la feuille complète, "
    "la Boîte à jeux ou le Yahtzee.",
    games=(Yams(), YamsBoite(), Yahtzee()),
    view="yams_view",
    commands={"score": "ce que vaut une case pour cinq dés"},
    cli_module="pygames.yams_cli",
    solver="pygames.yams_cli",
    advisor=True,
)
