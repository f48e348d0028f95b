"""The Yams family's words: its catalogue (titles, options, boxes, errors, what a move
did) and its text renderings (the sheet for a terminal, the narration of a move, the
outcome's reason)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, points_reason, register
from .rules import ROLLS, Roll, Score, YamsState

register({
    "family.yams.title": "Yams",
    "family.yams.description": "Cinq dés, trois lancers, une feuille à remplir\u00a0: la feuille "
                               "complète, la Boîte à jeux ou le Yahtzee.",
    "game.yams.title": "Yams (feuille complète)",
    "game.yams.summary": "15 cases, primes de Yam à 100 points, joker libre.",
    "game.yams-boite.title": "Yams (Boîte à jeux)",
    "game.yams-boite.summary": "13 cases, brelan et carré comptent les dés identiques, 0 "
                               "seulement si rien ne marque.",
    "game.yahtzee.title": "Yahtzee (règles internationales)",
    "game.yahtzee.summary": "13 cases, primes de Yahtzee à 100 points, joker imposé.",
    "option.four_kind_is_two_pairs": "Le carré compte pour deux paires",
    "option.single_prime": "Une seule prime de Yam",
    "option.forced_scoring": "Un 0 seulement si aucune case ne marque",
    "option.bonus_above_63": "Prime de 35 seulement au-dessus de 63 (63 ne suffit pas)",
    "option.plain": "Sans prime ni joker",
    "cli.command.score": "ce que vaut une case pour cinq dés",
    "yams.cli.box_metavar": "CASE",
    # the boxes
    "yams.box.ones": "Les 1", "yams.box.twos": "Les 2", "yams.box.threes": "Les 3",
    "yams.box.fours": "Les 4", "yams.box.fives": "Les 5", "yams.box.sixes": "Les 6",
    "yams.box.pair": "Une paire",
    "yams.box.two_pairs": "Deux paires",
    "yams.box.three_kind": "Brelan",
    "yams.box.four_kind": "Carré",
    "yams.box.full": "Full",
    "yams.box.small_straight": "Petite suite",
    "yams.box.large_straight": "Grande suite",
    "yams.box.yams": "Yam",
    "yams.box.yahtzee": "Yahtzee",
    "yams.box.chance": "Chance",
    **{f"yams.hint.{box}": f"somme des dés qui montrent {face}" for face, box in enumerate(
        ("ones", "twos", "threes", "fours", "fives", "sixes"), 1)},
    "yams.hint.pair": "deux dés identiques\u00a0: somme des 5 dés",
    "yams.hint.two_pairs": "deux paires de faces différentes\u00a0: somme des 5 dés",
    "yams.hint.three_kind": "trois dés identiques\u00a0: somme des 5 dés",
    "yams.hint.four_kind": "quatre dés identiques\u00a0: somme des 5 dés",
    "yams.hint.three_kind_boite": "trois dés identiques\u00a0: 3 × la face",
    "yams.hint.four_kind_boite": "quatre dés identiques\u00a0: 4 × la face",
    "yams.hint.full": "un brelan et une paire\u00a0: 25 points",
    "yams.hint.small_straight": "quatre faces qui se suivent\u00a0: 30 points",
    "yams.hint.large_straight": "cinq faces qui se suivent\u00a0: 40 points",
    "yams.hint.yams": "cinq dés identiques\u00a0: 50 points",
    "yams.hint.chance": "n'importe quoi\u00a0: somme des 5 dés",
    # errors
    "yams.error.box_unknown_in": "Case inconnue dans {game}\u00a0: «\u00a0{box}\u00a0».",
    "yams.error.box_unknown": "Case inconnue\u00a0: «\u00a0{box}\u00a0».",
    "yams.error.no_roll_left": "Plus de lancer ce tour\u00a0: choisissez une case.",
    "yams.error.roll_five_first": "Lancez d'abord les cinq dés.",
    "yams.error.box_filled": "La case «\u00a0{box}\u00a0» est déjà remplie.",
    "yams.error.forced_joker": "Yam joker\u00a0: il faut remplir {boxes}.",
    "yams.error.forced_scoring": "Un 0 n'est permis que si aucune case libre ne marque de points.",
    "yams.error.expert_only_yams": "L'expert ne joue qu'au Yams.",
    "yams.error.expert_needs_tables": "L'expert a besoin de ses tables.",
    "yams.error.score_ruleset": "«\u00a0score\u00a0» ne vaut que pour les feuilles de Yams, pas {game}.",
    "yams.error.score_dice": "Il faut exactement 5 dés.",
    "yams.error.score_box": "Case inconnue dans {game}\u00a0: «\u00a0{box}\u00a0» (cases\u00a0: {boxes}).",
    # what a move did
    "yams.scored": "{player} inscrit {points} en {box}. Total {total}.",
    "yams.keeps": "{player} garde {dice}.",
    "yams.rolled": "{player}, lancer {roll} sur 3\u00a0: {dice}.",
    "yams.next_player": "À {player} de jouer.",
    "yams.next_turn": "Tour {turn} sur {turns}.",
    # the terminal's sheet
    "yams.text.bonus": "Prime (≥{threshold})",
    "yams.text.bonus_above": "Prime (>{limit})",  # the prime for strictly more than 63
    "yams.text.primes": "Primes Yam",
    "yams.text.total": "TOTAL",
    "yams.text.dice": "Dés\u00a0: {dice}  (lancer {roll}/{rolls})",
})


def dice_list(dice: Sequence[int], sep: str = ", ") -> str:
    return sep.join(map(str, dice))


def describe(before: YamsState, action, after: YamsState, names: Sequence[str],
             persons: Sequence[int] = ()) -> list[Msg]:
    """What a player's move did, as messages (a score, or the dice kept and thrown).
    `persons`: the players a person plays (the change of turn is said for them)."""
    p = before.current_player()
    who = Name(names[p])
    if isinstance(action, Score):
        sheet = after.sheet(p)
        box = after.rules.boxes[after.rules.index[action.box]]
        out = [Msg("yams.scored", player=who, points=sheet.boxes[action.box], box=box.label,
                   total=sheet.total)]
        if not after.is_terminal() and after.current_player() in persons:
            nxt = after.current_player()
            out.append(Msg("yams.next_player", player=Name(names[nxt])) if nxt != p
                       else Msg("yams.next_turn", turn=after.turn, turns=after.turns))
        return out
    assert isinstance(action, Roll)
    out = [Msg("yams.keeps", player=who, dice=dice_list(action.keep, " "))] if action.keep else []
    out.append(Msg("yams.rolled", player=who, roll=after.rolls, dice=dice_list(after.dice)))
    return out


def reason(outcome: Outcome, names: Sequence[str]) -> Msg:
    return points_reason(outcome, names)


def render_text(state: YamsState, names: Sequence[str]) -> str:
    """The score sheet for a terminal: what each open box would score in brackets."""
    from ..messages import text

    lines = []
    short = [n[:10] for n in names]
    lines.append(f"{'':16}" + "".join(f"{n:>11}" for n in short))
    potential = state.potential()
    sheets = [state.sheet(p) for p in range(len(short))]
    threshold = state.rules.bonus_threshold
    # 63 is the rule's figure: "strictly more than 63" (a threshold of 64) says ">63".
    bonus = (text("yams.text.bonus", threshold=threshold) if threshold <= 63
             else text("yams.text.bonus_above", limit=threshold - 1))
    for box in state.rules.boxes:
        row = f"{text(box.label)[:15]:16}"
        for p, sheet in enumerate(sheets):
            value = sheet.boxes[box.id]
            if value is None and p == state.player and box.id in potential:
                row += f"{'(' + str(potential[box.id]) + ')':>11}"
            else:
                row += f"{'' if value is None else value:>11}"
        lines.append(f"{row}   {box.id}")
        if box.id == "sixes":
            lines.append(f"{bonus:16}" + "".join(f"{s.bonus:>11}" for s in sheets))
    if state.rules.primes:
        lines.append(f"{text('yams.text.primes'):16}" + "".join(f"{s.primes:>11}" for s in sheets))
    lines.append(f"{text('yams.text.total'):16}" + "".join(f"{s.total:>11}" for s in sheets))
    if state.dice and not state.rerolling and not state.is_terminal():
        lines.append(text("yams.text.dice", dice=dice_list(state.dice, " "), roll=state.rolls,
                          rolls=ROLLS))
    return "\n".join(lines)
