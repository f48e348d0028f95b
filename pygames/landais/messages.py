"""Le Dé Landais's words: its catalogue (titles, options, throws, tirs, errors) and its text
renderings (a throw and what it did, what is pending, the outcome's reason, the table for a
terminal)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, Series, register, text
from .rules import GIFTS, LandaisState, LastThrow, Opening, SeriesPlayed

register({
    "family.de-landais.title": "Le Dé Landais",
    "family.de-landais.description": "Trois dés, des points flottants à sceller à temps, des tirs "
                                     "qui font gagner ou perdre les autres\u00a0: exactement 3 000 "
                                     "points pour gagner.",
    "game.de-landais.title": "Le Dé Landais",
    "game.de-landais.summary": "Trois dés, des points flottants à sceller, exactement 3 000 "
                               "points pour gagner.",
    "option.target": "Points à atteindre exactement",
    "option.manches": "Manches à gagner pour remporter la partie",
    "option.stake": "Jetons misés par joueur et par manche",
    "cli.command.landais-throw": "ce que vaut un jet de trois dés (poigne, tir, points, vide)",
    # the tirs
    "landais.tir.troll": "Tir du Troll",
    "landais.tir.vereux": "Tir de Véreux",
    "landais.tir.licorne": "Tir de la Licorne",
    "landais.tir.chimere": "Tir de la Chimère",
    # errors
    "landais.error.three_dice": "Il faut trois dés (faces de 1 à 6).",
    "landais.error.seal_start": "Il faut d'abord lancer les dés.",
    "landais.error.seal_poigne": "Après une poigne, il faut relancer.",
    "landais.error.seal_licorne": "Après le Tir de la Licorne, il faut relancer.",
    "landais.error.seal_chimere": "Après le Tir de la Chimère, il faut relancer.",
    "landais.error.no_keep": "Au Dé Landais on relance toujours les trois dés («\u00a0roll\u00a0»).",
    "landais.error.threshold": "Seuil invalide.",
    "landais.error.off_tables": "Position hors des tables du Dé Landais.",
    "landais.error.expert_needs_tables": "L'expert a besoin de ses tables.",
    "landais.error.tables_target": "Ces tables sont pour {tables} points, pas {game}.",
    "landais.error.throw_dice": "Il faut exactement {n} dés (par exemple\u00a0: landais-throw 2 3 6).",
    "landais.error.target_floor": "Le but et le plancher doivent être des multiples de 50 "
                                  "(but > 0 ≥ plancher).",
    "landais.start.not_object": "Position de départ illisible\u00a0: un objet JSON est attendu.",
    "landais.start.scores_count": "Position de départ\u00a0: il faut les points scellés des {n} joueurs.",
    "landais.start.not_points": "Position de départ\u00a0: «\u00a0{value}\u00a0» n'est pas un nombre de points.",
    "landais.start.unit": "Position de départ\u00a0: {points} n'est pas un multiple de {unit}.",
    "landais.start.range": "Position de départ\u00a0: {points} points, il faut de {lo} à {hi}.",
    "landais.start.first": "Position de départ\u00a0: premier joueur «\u00a0{first}\u00a0» invalide (0 à {last}).",
    # a throw
    "landais.throw.tir_in_gift": "{tir} pendant le tir\u00a0: personne ne gagne ni ne perd, le "
                                 "prochain jet compte à sa place",
    "landais.throw.vereux_in_gift": "Tir de Véreux pendant le tir\u00a0: les autres perdent 100 points",
    "landais.throw.given": "{poigne}{points} points offerts aux autres",
    "landais.throw.taken": "{poigne}{points} points retirés aux autres",
    "landais.throw.poigne_word": "Poigne\u202f! ",
    "landais.throw.troll_in_gift": "Tir du Troll\u00a0: personne ne gagne ni ne perd",
    "landais.throw.void_in_gift": "Jet vide\u00a0: personne ne gagne ni ne perd",
    "landais.throw.poigne_bust": "Poigne\u202f! {points} points, mais le but est dépassé\u00a0: série perdue",
    "landais.throw.poigne": "Poigne\u202f! {points} points, relance obligatoire",
    "landais.throw.points_bust": "{points} points, mais le but est dépassé\u00a0: série perdue",
    "landais.throw.points": "{points} points",
    "landais.throw.troll": "Tir du Troll\u00a0: les points flottants retombent à 0, la série continue",
    "landais.throw.vereux": "Tir de Véreux\u00a0: la série s'arrête, 100 points de pénalité",
    "landais.throw.licorne": "Tir de la Licorne\u00a0: le prochain jet est offert aux autres",
    "landais.throw.chimere": "Tir de la Chimère\u00a0: le prochain jet est retiré aux autres",
    "landais.throw.vide": "Jet vide\u00a0: la série s'arrête, les points flottants sont perdus",
    # what is pending
    "landais.pending.start": "début de série\u00a0: il faut lancer",
    "landais.pending.poigne": "poigne\u00a0: relance obligatoire",
    "landais.pending.licorne": "Tir de la Licorne\u00a0: le prochain jet est offert aux autres",
    "landais.pending.chimere": "Tir de la Chimère\u00a0: le prochain jet est retiré aux autres",
    # outcomes
    "landais.outcome.target": "{player} atteint exactement {target|n} points et gagne\u00a0: {tokens} {won}.",
    "landais.outcome.manches": "{player} gagne la partie ({manches} sur {played})\u00a0: {tokens} {won}.",
    "landais.won": ("gagné", "gagnés"),
    "count.manches": ("{n} manche", "{n} manches"),
    # the journal of the series (the page's "Journal des séries")
    "landais.journal.opening": "Lancer d'ouverture\u00a0: {rounds}. {player} commence.",
    "landais.journal.opening_tie": "{before}\u00a0; égalité, on relance\u00a0: {after}",
    "landais.journal.opening_die": "{player} {face}",
    "landais.journal.first": "{player} commence (partie reprise sur papier).",
    "landais.journal.series": "{player}\u00a0: {throws}. {end}",
    "landais.journal.throw": "{dice} ({what})",
    "landais.journal.poigne": "poigne {points|n}",
    "landais.journal.points": "{points|n} points",
    "landais.journal.bust": "{what}, but dépassé",
    "landais.journal.troll": "Troll",
    "landais.journal.vereux": "Véreux",
    "landais.journal.licorne": "Licorne",
    "landais.journal.chimere": "Chimère",
    "landais.journal.vide": "vide",
    "landais.journal.given": "{what}\u00a0: +{points|n} aux autres",
    "landais.journal.taken": "{what}\u00a0: −{points|n} aux autres",
    "landais.journal.nothing": "{what}\u00a0: rien aux autres",
    "landais.journal.end.seal": "Scelle {sealed|n}\u00a0: {total}.",
    "landais.journal.end.pass": "Passe la main sans rien sceller ({total}).",
    "landais.journal.total": ("{points|n} point", "{points|n} points"),
    "landais.journal.end.vide": "Jet vide\u00a0: série perdue{lost}.",
    "landais.journal.end.vereux": "Véreux\u00a0: série perdue{lost}, 100 de pénalité\u00a0: {total}.",
    "landais.journal.end.bust": "But dépassé\u00a0: série perdue{lost}.",
    "landais.journal.lost": " ({points|n} points flottants)",
    "landais.journal.end.open": "Série en cours.",
    "landais.journal.won": "{player} atteint le but et gagne la manche {manche}.",
    "landais.journal.then": "{first} {second}",
    # the terminal's table
    "landais.text.title": "Manche {manche} — but\u00a0: exactement {target|n} points",
    "landais.text.manches": " ({n} manches à gagner)",
    "landais.text.floating": "  + {points} flottants",
    "landais.text.won": "  [{manches}]",
    "landais.text.opening": "Lancer d'ouverture\u00a0: {thrown} ({players})",
    "landais.text.each_throws": "chacun lance un dé",
    "landais.text.last": "Dernier jet ({player})\u00a0: {dice} — {what}",
    "landais.text.pending": "En attente\u00a0: {what}",
})


def throw_text(last: LastThrow) -> Msg:
    """The throw and what it did, as the page announces it."""
    kind = last.kind
    if last.gift:
        if kind in GIFTS:
            return Msg("landais.throw.tir_in_gift", tir=Msg(f"landais.tir.{kind}"))
        if kind == "vereux":
            return Msg("landais.throw.vereux_in_gift")
        if kind in ("poigne", "points"):
            poigne = Msg("landais.throw.poigne_word") if kind == "poigne" else ""
            which = "given" if last.gift == "licorne" else "taken"
            return Msg(f"landais.throw.{which}", poigne=poigne, points=last.points)
        return Msg("landais.throw.troll_in_gift" if kind == "troll" else "landais.throw.void_in_gift")
    if kind in ("poigne", "points"):
        return Msg(f"landais.throw.{kind}" + ("_bust" if last.bust else ""), points=last.points)
    return Msg(f"landais.throw.{kind}")


def pending_text(state: LandaisState) -> Msg | str:
    """What the player to move must do next, if anything ("" for nothing)."""
    if state.current_player() == -2 or not state.pending:
        return ""
    return Msg(f"landais.pending.{state.pending}")


def reason(outcome: Outcome, names: Sequence[str]) -> Msg:
    facts = outcome.facts
    won = Msg("landais.won", n=facts["tokens"])
    player = Name(names[outcome.winners[0]])
    tokens = Msg("count.tokens", n=facts["tokens"])
    if outcome.ending == "target":
        return Msg("landais.outcome.target", player=player, target=facts["target"], tokens=tokens,
                   won=won)
    return Msg("landais.outcome.manches", player=player, tokens=tokens, won=won,
               manches=Msg("count.manches", n=facts["manches_won"]), played=facts["manches"])


def render_text(state: LandaisState, names: Sequence[str]) -> str:
    """Scores, floating points, what is pending and the last throw, for a terminal."""
    rules = state.rules
    title = text("landais.text.title", manche=state.manche, target=rules.target)
    if rules.manches > 1:
        title += text("landais.text.manches", n=rules.manches)
    lines = [title]
    for p, name in enumerate(names):
        mark = ">" if p == state.player and not state.is_terminal() and not state.contenders else " "
        row = f"{mark} {name[:20]:20} {state.sealed[p]:>7}"
        if p == state.player and state.floating and not state.is_terminal():
            row += text("landais.text.floating", points=state.floating)
        if rules.manches > 1:
            row += text("landais.text.won", manches=Msg("count.manches", n=state.manches_won[p]))
        lines.append(row)
    if state.contenders:
        thrown = ", ".join(f"{names[p]} {f}" for p, f in zip(state.contenders, state.opening))
        lines.append(text("landais.text.opening", thrown=thrown or Msg("landais.text.each_throws"),
                          players=[Name(names[p]) for p in state.contenders]))
    if state.last is not None:
        last = state.last
        line = text("landais.text.last", player=names[last.thrower],
                    dice=" ".join(map(str, last.faces)), what=throw_text(last))
        if last.effects:
            line += " (" + ", ".join(f"{names[q]} {d:+d}" for q, d in last.effects) + ")"
        lines.append(line)
    if state.pending and not state.is_terminal() and not state.contenders and state.pending != "start":
        lines.append(text("landais.text.pending", what=pending_text(state)))
    return "\n".join(lines)


def journal_throw(last: LastThrow) -> Msg:
    """A throw in the journal: its dice and, in a word or two, what it was."""
    kind = last.kind
    if kind in ("poigne", "points"):
        what = Msg(f"landais.journal.{kind}", points=last.points)
    else:
        what = Msg(f"landais.journal.{kind}")
    if last.gift and kind not in GIFTS:  # a throw for the others
        if last.effects or last.capped:
            points = abs(last.effects[0][1]) if last.effects else last.points
            which = "given" if last.gift == "licorne" and kind != "vereux" else "taken"
            what = Msg(f"landais.journal.{which}", what=what, points=points)
        else:
            what = Msg("landais.journal.nothing", what=what)
    elif last.bust:
        what = Msg("landais.journal.bust", what=what)
    return Msg("landais.journal.throw", dice="\u00a0".join(map(str, last.faces)), what=what)


def journal_entry(entry: Opening | SeriesPlayed, names: Sequence[str]) -> Msg:
    """One line of the journal (pygames.landais.rules.journal): the opening throw, or a
    series with its throws and how it ended."""
    if isinstance(entry, Opening):
        if not entry.rounds:
            return Msg("landais.journal.first", player=Name(names[entry.first]))
        rounds = None
        for contenders, faces in entry.rounds:
            dice = Series(Msg("landais.journal.opening_die", player=Name(names[p]), face=f)
                          for p, f in zip(contenders, faces))
            rounds = dice if rounds is None else Msg("landais.journal.opening_tie", before=rounds,
                                                     after=dice)
        return Msg("landais.journal.opening", rounds=rounds, player=Name(names[entry.first]))
    end = None
    if entry.end != "gift":  # a gift that took another player to the target: his win says it
        end = Msg(f"landais.journal.end.{entry.end or 'open'}", sealed=entry.sealed,
                  total=Msg("landais.journal.total", n=entry.total, points=entry.total),
                  lost=Msg("landais.journal.lost", points=entry.lost) if entry.lost else "")
    if entry.winner is not None:
        won = Msg("landais.journal.won", player=Name(names[entry.winner]), manche=entry.manche)
        end = won if end is None else Msg("landais.journal.then", first=end, second=won)
    return Msg("landais.journal.series", player=Name(names[entry.player]),
               throws=Series(journal_throw(t) for t in entry.throws), end=end)
