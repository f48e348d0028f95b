"""Le Jeu de la linotte's words: its catalogue (titles, options, cell kinds, errors, what a
move did) and its text renderings (the events of a move, the outcome's reason, the board
for a terminal)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, points_reason, text
from .rules import (
    EMPTY,
    ROLLS,
    SIZE,
    AppelAnnounced,
    AppelMissed,
    FiveInARow,
    LineMade,
    LinotteState,
    Passed,
    PawnPlaced,
    PointsGained,
    Run,
    TwelfthPawn,
    cell_name,
    describe_dice,
    kind_label,
)


def event(fact) -> Msg:
    """One typed event of a move (pygames.linotte.rules) as a clause."""
    if isinstance(fact, AppelAnnounced):
        return Msg("linotte.ev.appel", target=kind_label(fact.target))
    if isinstance(fact, AppelMissed):
        return Msg("linotte.ev.appel_missed", target=kind_label(fact.target))
    if isinstance(fact, Passed):
        return Msg("linotte.ev.pass")
    if isinstance(fact, PawnPlaced):
        return Msg("linotte.ev.pawn", cell=cell_name(fact.cell), why=fact.why)
    if isinstance(fact, LineMade):
        return Msg("linotte.ev.line", length=len(fact.cells), first=cell_name(fact.cells[0]),
                   last=cell_name(fact.cells[-1]), points=Msg("count.points", n=fact.points))
    if isinstance(fact, PointsGained):
        return Msg("linotte.ev.points", gained=Msg("count.points", n=fact.gained),
                   total=Msg("count.points", n=fact.total))
    if isinstance(fact, FiveInARow):
        return Msg("linotte.ev.five")
    assert isinstance(fact, TwelfthPawn), fact
    return Msg("linotte.ev.twelfth")


def run_text(run: Run) -> Msg:
    """A run that scores, by its end cells as the board names them: "B1–E1 : 2 points"."""
    return Msg("linotte.run", first=cell_name(run.cells[0]), last=cell_name(run.cells[-1]),
               points=Msg("count.points", n=run.points))


def events(state: LinotteState) -> list[Msg]:
    return [event(fact) for fact in state.events]


def reason(outcome: Outcome, names: Sequence[str]) -> Msg:
    if outcome.ending == "five":
        return Msg("linotte.outcome.five", player=Name(names[outcome.winners[0]]))
    return points_reason(outcome, names)


def render_text(state: LinotteState, names: Sequence[str]) -> str:
    """The board for a terminal: each cell's name and kind, its pawn (A, B), placeable cells
    marked with *; then pawns, points, dice and the appel."""
    marks = "AB"
    placeable = set(state.placeable_cells()) if not state.is_terminal() else set()
    labels = [kind if kind.isdigit() else text(kind_label(kind)) for kind in state.rules.cells]
    # A column is 12 characters wide, or as wide as its language's longest cell needs
    # ("four of a kind"), with 4 for the pawn or the mark before it.
    width = max(12, 5 + max(map(len, labels)))
    lines = [("    " + "".join(f"    {c:<{width - 4}}" for c in "ABCDE")).rstrip()]
    for r in range(SIZE):
        row = f"{r + 1}   "
        for c in range(SIZE):
            i = r * SIZE + c
            owner = state.board[i]
            label = labels[i]
            if owner != EMPTY:
                label = f"[{marks[owner]}] {label}"
            elif i in placeable:
                label = f" *  {label}"
            else:
                label = f"    {label}"
            row += f"{label:<{width}}"
        lines.append(row.rstrip())
    scores, left = state.scores(), state.pawns_left()
    for p in range(2):
        lines.append(text("linotte.text.player", mark=marks[p], name=names[p],
                          points=Msg("count.points", n=scores[p]),
                          pawns=Msg("count.pawns", n=left[p])))
    if state.events:
        lines.append(text("linotte.text.last", events=", ".join(map(text, events(state)))))
    if not state.is_terminal() and state.dice and not state.rerolling:
        line = text("linotte.text.dice", dice=" ".join(map(str, state.dice)), roll=state.rolls,
                    rolls=ROLLS, kinds=describe_dice(state.dice))
        if state.sec_available():
            line += text("linotte.text.sec")
        if state.target:
            line += text("linotte.text.appel", target=kind_label(state.target))
        lines.append(line)
    return "\n".join(lines)
