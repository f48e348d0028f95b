"""The rules of le Jeu de la linotte: five dice, three rolls, and pawns to line up on a
5×5 board.

Each cell of the board names a combination (`BOARD`, the table of RULINGS.md, kept as data
so that it can be corrected).  A turn is the Yams dice cup — `roll`, then up to two
`keep …`, each followed by the chance `dice …` — ended by `place c3` (a pawn on a free
cell the dice allow) or `pass`.  Right after the first roll the player may make an
*appel*: `announce full` names a majeure he must then show with his remaining rolls.

Cells are named by column A–E (left to right) and row 1–5 (top to bottom): `c3` is the
centre.  Points are alignments on the 20 lines (rows, columns, diagonals of 3 cells or
more): a maximal run of 3 pawns scores 1, of 4 scores 2, of 5 scores 3 — which is the
number of three-cell windows the run covers, the identity the scoring code uses.

Readings where the seed is silent (see RULINGS.md):
- After a sec, an appel must reroll at least one die of *each* majeure the first roll
  showed (with 1-1-1-1-3, a 1: keeping the four 1s would make the appel certain).
- No keep may leave the named majeure already made by the kept dice alone: the reroll that
  follows the appel must be able to fail, whatever the sec was (`made_by_kept`, checked by
  trying every face of the rerolled dice).  One die at least is rerolled, so, majeure by
  majeure:
  full, quinte, yam: never certain — each needs the rerolled die to be one face or two
  (keep 6-6-6-6 of a yam: only a 6 makes the full, the yam);
  carré: certain exactly when four equal dice are kept (after a yam sec, keep three);
  small: never certain — k kept dice sum to k at least, and the 5 − k rerolled may show
  6 each: k + 6 (5 − k) > 8 for every k ≤ 4;
  *défi* (any majeure): certain exactly when four equal dice are kept (a carré whatever
  the fifth; 1-1-1-2 kept fails on a 4, 1-1-1 on 2-4).
  Four equal dice on the table are a carré sec, so without a sec the rule never binds;
  it governs the reroll right after the appel — later the dice have shown it or not, and
  keeping a made appel to go on rolling risks nothing the player could not have had.
- An appel must be followed by at least one more roll, and then only the appel cells (and,
  with the option, the named majeure's own cell) may take the pawn; a failed appel
  places nothing.
- Option *défi*: the appel names no combination (`announce defi`) and any majeure
  fulfils it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Mapping, NamedTuple, Sequence

from ..core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalAction,
    Option,
    Outcome,
    Player,
    PlayerEvent,
    State,
    Throw,
    Word,
    quote,
    replace,
    score_outcome,
)
from ..dice import Cup, CupState, Roll, counts
from ..dice import rolls as dice_rolls
from ..messages import Msg, Series

__all__ = [
    "Announce", "AppelAnnounced", "AppelMissed", "BOARD", "CELLS", "DEFI", "DICE", "EMPTY",
    "FIVES", "FiveInARow", "GAMES", "LINES", "LineMade", "Linotte", "LinotteState", "MAJEURES",
    "MAJEURE_WORDS", "PAWNS", "Pass", "Passed", "PawnPlaced", "Place", "PointsGained", "ROLLS",
    "Roll", "Rules", "Run", "SIZE", "TwelfthPawn", "WINDOWS", "WINDOWS_OF_CELL", "cell_index",
    "cell_name", "combinations", "describe_dice", "kind_label", "made_by_kept", "majeures", "runs",
    "shows", "unaccented", "window_points",
]


DICE = 5
ROLLS = 3
SIZE = 5
PAWNS = 12
EMPTY = -1

# --- the board, as data ----------------------------------------------------------------

# Row by row from the top (RULINGS.md, from the published board of the game's successor).
BOARD: tuple[tuple[str, ...], ...] = (
    ("1", "3", "appel", "4", "6"),
    ("2", "carre", "sec", "full", "5"),
    ("small", "full", "yam", "appel", "quinte"),
    ("6", "sec", "quinte", "small", "1"),
    ("3", "2", "carre", "5", "4"),
)
CELLS: tuple[str, ...] = tuple(k for row in BOARD for k in row)  # kind of each cell, 0..24

MAJEURES = ("full", "quinte", "carre", "small", "yam")
DEFI = "defi"
# What a player may type for a majeure, accents taken off first (`unaccented`).
MAJEURE_WORDS = {"full": "full", "quinte": "quinte", "carre": "carre", "small": "small",
                 "yam": "yam", "yams": "yam", DEFI: DEFI}


def unaccented(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def kind_label(kind: str) -> Msg:
    """The words of a cell kind ("brelan de 3", "carré", …): pygames.linotte.messages."""
    return Msg(f"linotte.kind.{kind}")


def cell_name(index: int) -> str:
    """`C3` for the centre: column letter, then row number counted from the top."""
    return "ABCDE"[index % SIZE] + str(index // SIZE + 1)


def cell_index(name: str) -> int | None:
    if (isinstance(name, str) and len(name) == 2 and name[0].lower() in "abcde"
            and name[1] in "12345"):
        return "abcde".index(name[0].lower()) + SIZE * (int(name[1]) - 1)
    return None


def _lines() -> tuple[tuple[int, ...], ...]:
    """Rows, columns and every diagonal of 3 cells or more: 5 + 5 + 5 + 5 = 20 lines."""
    lines = [tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)]
    lines += [tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)]
    for d in range(-(SIZE - 3), SIZE - 2):  # down-right diagonals: c - r = d
        lines.append(tuple(r * SIZE + r + d for r in range(SIZE) if 0 <= r + d < SIZE))
    for s in range(2, 2 * SIZE - 3):  # down-left diagonals: r + c = s
        lines.append(tuple(r * SIZE + s - r for r in range(SIZE) if 0 <= s - r < SIZE))
    return tuple(lines)


LINES = _lines()
# Every three consecutive cells of a line: a run of n ≥ 3 pawns covers n - 2 of them,
# exactly its points, so a player's points are the windows he fills alone.
WINDOWS: tuple[tuple[int, int, int], ...] = tuple(
    line[i : i + 3] for line in LINES for i in range(len(line) - 2)
)
FIVES = tuple(line for line in LINES if len(line) == SIZE)
WINDOWS_OF_CELL: tuple[tuple[int, ...], ...] = tuple(
    tuple(w for w, cells in enumerate(WINDOWS) if c in cells) for c in range(SIZE * SIZE)
)

# --- combinations ------------------------------------------------------------------------


def majeures(dice: Sequence[int]) -> tuple[str, ...]:
    """The majeures five dice show, in MAJEURES order (1-1-1-1-1 shows all but quinte)."""
    c = counts(dice)
    shape = sorted(n for n in c if n)
    shown = []
    if shape in ([2, 3], [5]):
        shown.append("full")
    if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]):
        shown.append("quinte")
    if max(c) >= 4:
        shown.append("carre")
    if sum(dice) <= 8:
        shown.append("small")
    if max(c) == 5:
        shown.append("yam")
    return tuple(shown)


def shows(dice: Sequence[int], target: str) -> bool:
    """Five dice fulfil an appel of `target` (a majeure, or any majeure for the défi)."""
    shown = majeures(dice)
    return bool(shown) if target == DEFI else target in shown


@lru_cache(maxsize=None)
def made_by_kept(keep: tuple[int, ...], target: str) -> bool:
    """The kept dice alone make the appel: every face of every rerolled die shows it."""
    return all(shows(keep + faces, target) for faces, _ in dice_rolls(DICE - len(keep)))


def combinations(dice: Sequence[int]) -> tuple[str, ...]:
    """Every cell kind the dice show by themselves: brelans ("1".."6") then majeures."""
    if len(dice) != DICE:
        return ()
    c = counts(dice)
    return tuple(str(f) for f in range(1, 7) if c[f] >= 3) + majeures(dice)


def describe_dice(dice: Sequence[int]) -> Msg:
    kinds = combinations(dice)
    if not kinds:
        return Msg("linotte.no_combination")
    return Msg("linotte.kinds", kinds=Series(kind_label(k) for k in kinds))


# --- rules and actions -------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """A game's board and options."""

    cells: tuple[str, ...] = CELLS
    appel_own_cell: bool = False  # a fulfilled appel may also take its majeure's cell
    five_wins: bool = False  # règles Yam Master: five in a row wins outright
    defi: bool = False  # the appel names nothing; any majeure fulfils it


@dataclass(frozen=True)
class Place(Action):
    """Put a pawn on a cell (0..24, row by row from the top left)."""

    cell: int
    verbs: ClassVar[tuple[str, ...]] = ("place",)

    def __post_init__(self):
        if type(self.cell) is not int or not 0 <= self.cell < SIZE * SIZE:
            raise IllegalAction("linotte.error.cell_unreadable")

    def notation(self) -> str:
        return "place " + cell_name(self.cell).lower()

    @classmethod
    def parse(cls, words, game):
        index = cell_index(words[1]) if len(words) == 2 else None
        if index is None:
            raise IllegalAction("linotte.error.place_syntax", text=quote(" ".join(words)))
        return cls(index)


@dataclass(frozen=True)
class Announce(Action):
    """The appel: right after the first roll, name the majeure to show by the end."""

    target: str
    verbs: ClassVar[tuple[str, ...]] = ("announce",)

    def __post_init__(self):
        if self.target not in MAJEURES + (DEFI,):
            raise IllegalAction("linotte.error.appel_unreadable")

    def notation(self) -> str:
        return f"announce {self.target}"

    @classmethod
    def parse(cls, words, game):
        target = MAJEURE_WORDS.get(unaccented(words[1].lower())) if len(words) == 2 else None
        if target is None:
            raise IllegalAction("linotte.error.announce_syntax", text=quote(" ".join(words)))
        return cls(target)


@dataclass(frozen=True)
class Pass(Word):
    """End the turn without placing a pawn."""

    verbs: ClassVar[tuple[str, ...]] = ("pass",)


@lru_cache(maxsize=512)
def _keeps(hand: tuple[int, ...]) -> tuple[Roll, ...]:
    """Every distinct keep of a sorted hand (as the dice cup lists them), built once."""
    return tuple(Cup(DICE, hand).keeps())


# --- the state ---------------------------------------------------------------------------


def window_points(board: Sequence[int], players: int = 2) -> list[int]:
    """Each player's alignment points: the three-cell windows he fills alone."""
    points = [0] * players
    for a, b, c in WINDOWS:
        p = board[a]
        if p != EMPTY and board[b] == p and board[c] == p:
            points[p] += 1
    return points


class Run(NamedTuple):
    """A maximal run of 3 pawns or more on a line: its player, its cells in line order, and
    the points it scores (3 pawns 1, 4 pawns 2, 5 pawns 3)."""

    player: int
    cells: tuple[int, ...]

    @property
    def points(self) -> int:
        return len(self.cells) - 2


def runs(board: Sequence[int]) -> list[Run]:
    """Every maximal run of 3 pawns or more on a line: (player, its cells in line order)."""
    found = []
    for line in LINES:
        i = 0
        while i < len(line):
            p = board[line[i]]
            j = i
            while j < len(line) and board[line[j]] == p:
                j += 1
            if p != EMPTY and j - i >= 3:
                found.append(Run(p, line[i:j]))
            i = j
    return found


# --- what a move did: typed events (their words: pygames.linotte.messages) -----------


@dataclass(frozen=True)
class _AppelEvent(PlayerEvent):
    target: str  # a majeure, or "defi"


class AppelAnnounced(_AppelEvent):
    """The player names his appel."""


class AppelMissed(_AppelEvent):
    """The turn ended with the appel not made: no pawn placed."""


class Passed(PlayerEvent):
    """The player passed: no pawn placed."""


@dataclass(frozen=True)
class PawnPlaced(PlayerEvent):
    """A pawn on `cell`, and what allowed it (`why`: the cell's kind, the sec, the appel)."""

    cell: int
    why: Msg


@dataclass(frozen=True)
class LineMade(PlayerEvent):
    """A run of 3 pawns or more through the new pawn: its cells in line order."""

    cells: tuple[int, ...]

    @property
    def points(self) -> int:
        return len(self.cells) - 2


@dataclass(frozen=True)
class PointsGained(PlayerEvent):
    gained: int
    total: int


class FiveInARow(PlayerEvent):
    """Five of the player's pawns in a row: he has won."""


class TwelfthPawn(PlayerEvent):
    """The player placed his twelfth and last pawn."""


@dataclass(frozen=True)
class LinotteState(CupState, State):
    CUP_SIZE: ClassVar[int] = DICE
    rules: Rules = field(repr=False)
    board: tuple[int, ...] = (EMPTY,) * (SIZE * SIZE)  # the player owning each cell, or -1
    player: int = 0
    rolls: int = 0  # throws made this turn
    dice: tuple[int, ...] = ()  # the dice on the table, in their places
    rerolling: tuple[int, ...] = ()  # places of the dice in the air (a chance node)
    sec: tuple[str, ...] = ()  # the majeures of a first roll, while that sec matters
    target: str = ""  # the appel's named majeure ("defi" with that option), "" if none
    five: int = EMPTY  # the player who completed five in a row (the game is over)
    events: tuple = ()  # what the last move did: typed events (PawnPlaced, LineMade, …)

    # protocol

    def current_player(self) -> int:
        if self.five != EMPTY or PAWNS in self.pawns_placed():
            return TERMINAL
        if self.rerolling:
            return CHANCE
        return self.player

    def thrower(self) -> int:
        return self.player

    def legal_actions(self) -> list[Action]:
        # Every apply checks membership here, so a state keeps its list (not a field:
        # equality, records and copies ignore it).
        cached = self.__dict__.get("_legal")
        if cached is None:
            cached = super().legal_actions()
            object.__setattr__(self, "_legal", cached)
        return list(cached)

    def player_actions(self) -> list[Action]:
        if self.rolls == 0:
            return [Roll()]
        actions: list[Action] = []
        if self.rolls < ROLLS:
            actions += [k for k in _keeps(tuple(sorted(self.dice)))
                        if self._keeps_sec_rule(k) and not self._makes_appel_certain(k)]
        if self.rolls == 1 and not self.target:
            actions += [Announce(t) for t in self.appel_targets()]
        actions += [Place(c) for c in self.placeable_cells()]
        actions.append(Pass())
        return actions

    def why_illegal(self, action: Action) -> Msg:
        if self.is_chance() or isinstance(action, Throw):
            return super().why_illegal(action)
        if self.rolls == 0 and isinstance(action, (Roll, Place, Announce, Pass)):
            return Msg("linotte.error.roll_first")
        if isinstance(action, Roll):
            if self.rolls >= ROLLS:
                return Msg("linotte.error.no_roll_left")
            if len(action.keep) >= DICE:
                return Msg("error.reroll_one")
            if any(action.keep.count(f) > self.dice.count(f) for f in set(action.keep)):
                return Msg("error.keep_not_on_table")
            if self._makes_appel_certain(action):
                return Msg("linotte.error.appel_certain", target=kind_label(self.target))
            if not self._keeps_sec_rule(action):
                return Msg("linotte.error.sec_reroll")
            return Msg("error.keep_not_on_table")
        if isinstance(action, Announce):
            if self.target:
                return Msg("linotte.error.appel_made")
            if self.rolls != 1:
                return Msg("linotte.error.appel_when")
            if self.rules.defi:
                return Msg("linotte.error.appel_defi")
            return Msg("linotte.error.appel_which")
        if isinstance(action, Place):
            name = cell_name(action.cell)
            if self.board[action.cell] != EMPTY:
                return Msg("linotte.error.cell_taken", cell=name)
            kind = kind_label(self.rules.cells[action.cell])
            if self.target:
                if self.rolls == 1:
                    return Msg("linotte.error.appel_reroll")
                return Msg("linotte.error.appel_cell", target=kind_label(self.target), cell=name,
                           kind=kind)
            return Msg("linotte.error.dice_cell", dice=describe_dice(self.dice), cell=name, kind=kind)
        return super().why_illegal(action)

    def apply(self, action: Action) -> "LinotteState":
        self.check_legal(action)
        if isinstance(action, Throw):
            dice = self.cup.land(action.faces).dice
            sec = majeures(dice) if self.rolls == 1 else ()
            return replace(self, dice=dice, rerolling=(), sec=sec)
        if isinstance(action, Roll):
            # A sec stands only while the first roll does; an appel keeps it to check its reroll.
            return replace(self, rolls=self.rolls + 1, rerolling=self.cup.roll(action).rolling,
                           sec=(), events=())
        if isinstance(action, Announce):
            return replace(self, target=action.target,
                           events=(AppelAnnounced(self.player, action.target),))
        if isinstance(action, Place):
            return self._place(action.cell)
        assert isinstance(action, Pass)
        if self.target and not self.appel_fulfilled():
            events = (AppelMissed(self.player, self.target),)
        else:
            events = (Passed(self.player),)
        return self._next_turn(self.board, events)

    def scores(self) -> list[int]:
        return window_points(self.board, 2)

    def ranking(self) -> list[list[int]]:
        if self.rules.five_wins and self.five != EMPTY:
            return [[self.five], [1 - self.five]]
        return super().ranking()

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        if self.rules.five_wins and self.five != EMPTY:
            winner = self.five
            return Outcome("five", ((winner,), (1 - winner,)), (winner,), (1 - winner,), False,
                           tuple(self.scores()))
        return score_outcome(self)

    # Linotte specifics (what the page draws)

    def pawns_placed(self) -> list[int]:
        return [self.board.count(0), self.board.count(1)]

    def pawns_left(self) -> list[int]:
        return [PAWNS - n for n in self.pawns_placed()]

    def scoring_runs(self, player: int | None = None) -> list[Run]:
        """Every run that scores (`player`'s only, if given): (player, cells in line order),
        to draw a line through; its `points`."""
        return [r for r in runs(self.board) if player is None or r.player == player]

    def combinations(self) -> tuple[str, ...]:
        """The cell kinds the dice on the table show (no sec/appel)."""
        if not self.dice or self.rerolling:
            return ()
        return combinations(self.dice)

    def sec_available(self) -> bool:
        """A sec stands: the first roll showed a majeure and no appel was made."""
        return self.rolls == 1 and bool(self.sec) and not self.target and not self.rerolling

    def appel_targets(self) -> tuple[str, ...]:
        return (DEFI,) if self.rules.defi else MAJEURES

    def appel_fulfilled(self) -> bool:
        if not self.target or self.rolls < 2 or self.rerolling or not self.dice:
            return False
        return shows(self.dice, self.target)

    def placeable_kinds(self) -> tuple[str, ...]:
        """The cell kinds a pawn may go to now."""
        if self.rolls == 0 or self.rerolling or self.is_terminal():
            return ()
        if self.target:
            if not self.appel_fulfilled():
                return ()
            kinds = ("appel",)
            if self.rules.appel_own_cell:
                shown = majeures(self.dice)
                kinds += shown if self.target == DEFI else (self.target,)
            return kinds
        kinds = combinations(self.dice)
        if self.sec_available():
            kinds += ("sec",)
        return kinds

    def placeable_cells(self) -> list[int]:
        """The free cells the current dice allow (indices 0..24, see `cell_name`)."""
        kinds = self.placeable_kinds()
        return [c for c, kind in enumerate(self.rules.cells)
                if kind in kinds and self.board[c] == EMPTY]

    def why_cell(self, cell: int) -> Msg:
        """Which combination lets the pawn go on `cell` now."""
        kind = self.rules.cells[cell]
        if self.target:
            if self.target == DEFI:
                return Msg("linotte.why.defi")
            return Msg("linotte.why.appel", target=kind_label(self.target))
        if kind == "sec":
            return Msg("linotte.why.sec", majeures=Series(kind_label(m) for m in self.sec))
        return kind_label(kind)

    def _keeps_sec_rule(self, action: Roll) -> bool:
        """After a sec, the appel's reroll must break each majeure the first roll showed:
        all five dice form a full, quinte, small or yam; a carré is its four equal dice."""
        if not (self.target and self.sec and self.rolls == 1):
            return True
        if "carre" in self.sec and "yam" not in self.sec:
            face = max(range(1, 7), key=lambda f: self.dice.count(f))
            return action.keep.count(face) < 4
        return True

    def _makes_appel_certain(self, action: Roll) -> bool:
        """The reroll right after an appel keeps dice that make it whatever falls."""
        return bool(self.target and self.rolls == 1
                    and made_by_kept(tuple(sorted(action.keep)), self.target))

    def _place(self, cell: int) -> "LinotteState":
        me = self.player
        before = window_points(self.board, 2)[me]
        board = self.board[:cell] + (me,) + self.board[cell + 1:]
        after = window_points(board, 2)[me]
        events: list = [PawnPlaced(me, cell, self.why_cell(cell))]
        for p, cells in runs(board):
            if p == me and cell in cells:
                events.append(LineMade(me, cells))
        if after != before:
            events.append(PointsGained(me, after - before, after))
        five = EMPTY
        if any(all(board[c] == me for c in line) for line in FIVES if cell in line):
            five = me
            events.append(FiveInARow(me))
        elif board.count(me) == PAWNS:
            events.append(TwelfthPawn(me))
        return self._next_turn(board, tuple(events), five)

    def _next_turn(self, board, events, five: int = EMPTY) -> "LinotteState":
        return replace(self, board=board, player=1 - self.player, rolls=0, dice=(), rerolling=(),
                       sec=(), target="", five=five, events=events)


# --- the game ----------------------------------------------------------------------------


class Linotte(Game):
    id = "linotte"
    family = "linotte"
    min_players = 2
    max_players = 2
    default_players = ((None, "human"), (None, "simple"))
    max_dice = DICE
    options = (
        Option("appel_own_cell", False),
        Option("yam_master", False),
        Option("defi", False),
    )
    actions = (Roll, Announce, Place, Pass)
    seats = ("human", "simple", "medium", "expert")

    def rules(self, options: Mapping[str, Any]) -> Rules:
        options = self.resolve_options(options)
        return Rules(appel_own_cell=options["appel_own_cell"], five_wins=options["yam_master"],
                     defi=options["defi"])

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any],
                  start: Any = None) -> LinotteState:
        self.check_players(players)
        return LinotteState(rules=self.rules(options))


GAMES = (Linotte(),)
