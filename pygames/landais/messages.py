"""Le Dé Landais's words: its catalogue (titles, options, throws, tirs, errors) and its text
renderings (a throw and what it did, what is pending, the outcome's reason, the table for a
terminal)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, Series, text
from .rules import GIFTS, LandaisState, LastThrow, Opening, SeriesPlayed


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
