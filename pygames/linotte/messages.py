"""Le Jeu de la linotte's words: its catalogue (titles, options, cell kinds, errors, what a
move did) and its text renderings (the events of a move, the outcome's reason, the board
for a terminal)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, points_reason, register, text
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

register({
    "family.linotte.title": "Jeu de la linotte",
    "family.linotte.description": "Cinq dés et deux fois douze pions\u00a0: posez-les sur les "
                                  "combinaisons du plateau et alignez-les.",
    "game.linotte.title": "Jeu de la linotte",
    "game.linotte.summary": "Cinq dés, trois lancers\u00a0: posez vos 12 pions sur les combinaisons "
                            "et alignez-les.",
    "option.appel_own_cell": "Un appel réussi peut aussi prendre la case de sa combinaison",
    "option.yam_master": "Règles Yam Master\u00a0: cinq pions alignés gagnent la partie",
    "option.defi": "Défi\u00a0: l'appel ne nomme rien, toute combinaison majeure le réussit",
    "cli.command.linotte-score": "les points d'alignement de chaque joueur pour un plateau",
    # cell kinds
    **{f"linotte.kind.{f}": f"brelan de {f}" for f in range(1, 7)},
    "linotte.kind.full": "full",
    "linotte.kind.quinte": "quinte",
    "linotte.kind.carre": "carré",
    "linotte.kind.small": "small",
    "linotte.kind.yam": "yam",
    "linotte.kind.sec": "sec",
    "linotte.kind.appel": "appel",
    "linotte.kind.defi": "défi",
    "linotte.kinds": "{kinds}",
    "linotte.no_combination": "aucune combinaison",
    "linotte.why.defi": "défi réussi",
    "linotte.why.appel": "appel {target} réussi",
    "linotte.why.sec": "sec\u00a0: {majeures}",
    # errors
    "linotte.error.cell_unreadable": "Case illisible (de A1 à E5).",
    "linotte.error.place_syntax": "«\u00a0{text}\u00a0»\u00a0: écrire par exemple «\u00a0place c3\u00a0» "
                                  "(colonnes A à E, lignes 1 à 5 depuis le haut).",
    "linotte.error.appel_unreadable": "Appel illisible (full, quinte, carre, small, yam ou defi).",
    "linotte.error.announce_syntax": "«\u00a0{text}\u00a0»\u00a0: écrire par exemple «\u00a0announce full\u00a0» "
                                     "(full, quinte, carre, small, yam\u202f; defi avec l'option défi).",
    "linotte.error.roll_first": "Lancez d'abord les dés («\u00a0roll\u00a0»).",
    "linotte.error.no_roll_left": "Plus de lancer ce tour\u00a0: posez un pion ou passez.",
    "linotte.error.sec_reroll": "Après un sec, l'appel doit relancer au moins un dé de la "
                                "combinaison.",
    "linotte.error.appel_certain": "L'appel ({target}) doit rester une vraie chance\u00a0: les dés "
                                   "gardés le font déjà, relancez-en un de plus.",
    "linotte.error.appel_made": "L'appel est déjà annoncé.",
    "linotte.error.appel_when": "L'appel s'annonce juste après le premier lancer.",
    "linotte.error.appel_defi": "Avec le défi, annoncer «\u00a0announce defi\u00a0».",
    "linotte.error.appel_which": "Appel possible\u00a0: full, quinte, carre, small ou yam.",
    "linotte.error.cell_taken": "La case {cell} est déjà prise.",
    "linotte.error.appel_reroll": "Après l'appel, il faut relancer les dés.",
    "linotte.error.appel_cell": "L'appel ({target}) ne permet pas la case {cell} ({kind}).",
    "linotte.error.dice_cell": "Les dés ({dice}) ne permettent pas la case {cell} ({kind}).",
    "linotte.error.board_length": "Plateau\u00a0: {cells} caractères attendus (A, B ou .), pas "
                                  "{length}\u00a0: «\u00a0{text}\u00a0».",
    "linotte.error.board_char": ("Plateau\u00a0: «\u00a0{char}\u00a0» n'est ni A, ni B, ni «\u00a0.\u00a0» "
                                 "(dans «\u00a0{text}\u00a0»)."),
    "linotte.cli.board_metavar": "PLATEAU",
    "linotte.cli.board_help": "25 caractères, ligne par ligne\u00a0: A, B ou .",
    # what a move did (one clause each, joined by commas)
    "linotte.ev.appel": "appel annoncé\u00a0: {target}",
    "linotte.ev.appel_missed": "appel manqué ({target})\u00a0: aucun pion posé",
    "linotte.ev.pass": "passe",
    "linotte.ev.pawn": "pion en {cell} ({why})",
    "linotte.ev.line": "ligne de {length} ({first}–{last})\u00a0: {points}",
    "linotte.ev.points": "+{gained}, total {total}",
    "linotte.ev.five": "cinq pions alignés\u00a0: fin de la partie",
    "linotte.ev.twelfth": "douzième pion posé\u00a0: fin de la partie",
    # a run that scores, as the end screen lists it
    "linotte.run": "{first}–{last}\u00a0: {points}",
    "linotte.outcome.five": "{player} aligne cinq pions et gagne (règles Yam Master).",
    "count.pawns": ("{n} pion", "{n} pions"),
    # the terminal's board
    "linotte.text.player": "{mark} = {name}\u00a0: {points}, {pawns} à poser",
    "linotte.text.last": "Dernier coup\u00a0: {events}",
    "linotte.text.dice": "Dés\u00a0: {dice}  (lancer {roll}/{rolls}) — {kinds}",
    "linotte.text.sec": " — sec\u202f!",
    "linotte.text.appel": " — appel\u00a0: {target}",
})


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
    lines = [("    " + "".join(f"    {c:<8}" for c in "ABCDE")).rstrip()]
    for r in range(SIZE):
        row = f"{r + 1}   "
        for c in range(SIZE):
            i = r * SIZE + c
            owner = state.board[i]
            kind = state.rules.cells[i]
            label = kind if kind.isdigit() else text(kind_label(kind))
            if owner != EMPTY:
                label = f"[{marks[owner]}] {label}"
            elif i in placeable:
                label = f" *  {label}"
            else:
                label = f"    {label}"
            row += f"{label:<12}"
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
