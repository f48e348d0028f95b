"""Le 421's words: its catalogue (titles, options, errors, hands, rounds) and its text
renderings (a hand's name, a round in one sentence, what an action did, the outcome's
reason, the table for a terminal)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, Series, decimal, percent, sentences, text
from .rules import (
    DechargeStarts,
    Le421State,
    Left,
    Lost,
    NextRound,
    RampoStarts,
    RoundResult,
    Settled,
    Standing,
    Stop,
    Stopped,
    Thrown,
    hand_info,
    hand_kind,
    sorted_hand,
)


def hand_name(hand: Sequence[int]) -> Msg:
    """The hand's name: "421", "fiche de 4", "baraque de 6", "suite 654", …"""
    hand = sorted_hand(hand)
    kind = hand_kind(hand)
    if kind == "baraque":
        return Msg("421.hand.baraque_aces") if hand[0] == 1 else Msg("421.hand.baraque", face=hand[0])
    if kind == "fiche":
        return Msg("421.hand.fiche", face=hand[0])
    if kind == "suite":
        return Msg("421.hand.suite", dice="".join(map(str, hand)))
    return Msg(f"421.hand.{kind}")


def hand_label(hand: Sequence[int]) -> Msg | str:
    """The name said at the table: the dice for an ordinary hand ("653")."""
    hand = sorted_hand(hand)
    return "".join(map(str, hand)) if hand_kind(hand) == "autre" else hand_name(hand)


def rampo_throws(throws: Sequence[tuple[int, Sequence[int]]], names: Sequence[str]) -> Series:
    """Rampo throws in the order thrown: "Paul : 421, Léa : 652"."""
    return Series(Msg("421.rampo_throw", player=Name(names[p]), hand=hand_label(h)) for p, h in throws)


def rampo_line(throws: Sequence[tuple[int, Sequence[int]]], names: Sequence[str]) -> Msg:
    """A rampo's throws so far: "Lancers du rampo — Paul : 421, Léa : 652."."""
    return Msg("421.standing.rampo_throws", throws=rampo_throws(throws, names))


def round_sentence(result: RoundResult, names: Sequence[str]) -> Msg:
    """A round in one sentence: who takes how many tokens, from the pot or from whom, the
    rampo throws that settled it, and a pot or a giver that had fewer tokens than due."""
    rampos = Msg("421.rampos", n=result.rampos,
                 throws=rampo_throws(result.rampo_throws, names)) if result.rampos else ""
    tokens = Msg("count.tokens", n=result.amount)
    best = Name(names[result.best])
    short = Msg(f"421.short.{result.phase}", best=best, tokens=tokens,
                value=result.value) if result.short else ""
    return Msg(
        f"421.round.{result.phase}",
        worst=Name(names[result.worst]), worst_hand=hand_label(result.worst_hand.dice),
        best=best, best_hand=hand_label(result.best_hand.dice),
        tokens=tokens, rampos=rampos, short=short)


def _tokens(amounts: Sequence[int]) -> Msg:
    """The tokens a giver would give, or "jusqu'à" the most when tied givers hold different
    numbers."""
    tokens = Msg("count.tokens", n=max(amounts))
    return tokens if len(set(amounts)) == 1 else Msg("421.standing.up_to", tokens=tokens)


def _gives_all(standing: Standing, names: Sequence[str]) -> Msg | str:
    """", ses derniers : Paul aurait gagné" when the one giver would give his last tokens."""
    if len(standing.givers) != 1 or not standing.gives_all(standing.givers[0]):
        return ""
    return Msg("421.standing.all", n=standing.amounts[0], player=Name(names[standing.givers[0]]))


def standing_line(standing: Standing, names: Sequence[str]) -> Msg:
    """His hand so far and the hand to beat: "Léa : 552 en 1 coup ; à battre : 631 de Paul
    en 2 coups."."""
    player = Name(names[standing.player])
    hand = standing.hand
    mine = (Msg("421.standing.not_thrown", player=player) if hand is None else
            Msg("421.standing.hand", player=player, hand=hand_label(hand.dice),
                throws=Msg("count.throws", n=hand.throws)))
    beat = standing.to_beat_hand
    if beat is None:
        return Msg("421.standing.nothing_to_beat", mine=mine)
    return Msg("421.standing.to_beat", mine=mine, hand=hand_label(beat.dice),
               players=[Name(names[p]) for p in standing.to_beat],
               throws=Msg("count.throws", n=beat.throws))


def to_beat(standing: Standing, names: Sequence[str]) -> Msg | None:
    """"À battre : 631 de Paul en 2 coups." (None while nothing is to beat)."""
    beat = standing.to_beat_hand
    if beat is None:
        return None
    return Msg("421.standing.to_beat_alone", hand=hand_label(beat.dice),
               players=[Name(names[p]) for p in standing.to_beat],
               throws=Msg("count.throws", n=beat.throws))


def standing_outcome(standing: Standing, names: Sequence[str]) -> Msg | None:
    """What would happen to him, the round ending on the hands so far: he would give or
    receive so many tokens (and from or to whom), a rampo, or nothing (and who would give
    to whom).  None before his first throw or with no other hand to compare."""
    place = standing.place
    if place in ("", "first"):
        return None
    player = Name(names[standing.player])
    givers, takers = standing.givers, standing.takers
    others = [Name(names[p]) for p in (standing.player, *standing.tied)]
    if standing.tied:
        return Msg(f"421.standing.rampo_{place}", players=others)
    if place == "best":
        if len(takers) > 1:
            return Msg("421.standing.gives_rampo", player=player, tokens=_tokens(standing.amounts),
                       players=[Name(names[p]) for p in takers], all=_gives_all(standing, names))
        return Msg("421.standing.gives", player=player, tokens=_tokens(standing.amounts),
                   taker=Name(names[takers[0]]), all=_gives_all(standing, names))
    if place == "worst":
        if len(givers) > 1:
            return Msg("421.standing.receives_rampo", player=player, tokens=_tokens(standing.amounts),
                       players=[Name(names[p]) for p in givers])
        return Msg("421.standing.receives", player=player, tokens=_tokens(standing.amounts),
                   giver=Name(names[givers[0]]), all=_gives_all(standing, names))
    if len(givers) > 1:
        move = Msg("421.standing.move_rampo_best", players=[Name(names[p]) for p in givers])
    elif len(takers) > 1:
        move = Msg("421.standing.move_rampo_worst", players=[Name(names[p]) for p in takers])
    else:
        move = Msg("421.standing.move", giver=Name(names[givers[0]]), tokens=_tokens(standing.amounts),
                   taker=Name(names[takers[0]]), all=_gives_all(standing, names))
    return Msg("421.standing.between", player=player, move=move)


def event(fact, names: Sequence[str]) -> Msg:
    """One typed event of the rules (pygames.le421.rules) as a sentence."""
    if isinstance(fact, Thrown):
        return Msg("421.thrown", player=Name(names[fact.player]), dice=" ".join(map(str, fact.hand)),
                   hand=hand_label(fact.hand))
    if isinstance(fact, Stopped):
        return Msg("421.stopped", player=Name(names[fact.player]), hand=hand_label(fact.hand),
                   throws=Msg("count.throws", n=fact.throws))
    if isinstance(fact, Settled):
        return round_sentence(fact.result, names)
    if isinstance(fact, Left):
        return Msg("421.left", players=[Name(names[p]) for p in fact.players], n=len(fact.players))
    if isinstance(fact, DechargeStarts):
        return Msg("421.decharge_starts", player=Name(names[fact.leader]))
    if isinstance(fact, RampoStarts):
        return Msg(f"421.rampo_{fact.place}", players=[Name(names[p]) for p in fact.players])
    if isinstance(fact, Lost):
        return Msg("421.lost", player=Name(names[fact.player]))
    assert isinstance(fact, NextRound), fact
    return Msg("421.next_round", player=Name(names[fact.leader]))


def events(state: Le421State, names: Sequence[str]) -> list[Msg]:
    """What the last action did, sentence by sentence (for a screen reader)."""
    return [event(fact, names) for fact in state.events]


def reason(outcome: Outcome, names: Sequence[str]) -> Msg:
    return Msg("421.lost", player=Name(names[outcome.facts["loser"]]))


def render_text(state: Le421State, names: Sequence[str]) -> str:
    """The table for a terminal: pot, tokens, this round's hands, the dice."""
    phase = text(f"421.phase.{state.phase}")
    if state.rampo:
        phase = text(f"421.text.rampo_{state.rampo}", phase=phase)
    lines = [text("421.text.title", phase=phase, round=state.round, pot=state.pot)]
    out = {p for group in state.left for p in group}
    current = state.current_player()
    for p, name in enumerate(names):
        mark = "▶" if p == current else " "
        hand = state.hands[p] if state.hands else None
        row = f"{mark} {name[:16]:16} {text('count.tokens', n=state.tokens[p]):>10}"
        if p in out:
            row += text("421.text.left")
        elif hand is not None:
            info = hand_info(hand.dice, state.rules)
            row += text("421.text.hand", hand=hand_label(info.dice), value=info.value,
                        throws=Msg("count.throws", n=hand.throws))
            if state.rampo_hands[p]:
                row += text("421.text.rampo_hands",
                            hands=" ".join("".join(map(str, h)) for h in state.rampo_hands[p]))
        lines.append(row)
    if state.dice and not state.is_terminal():
        kept = "".join("*" if i in state.kept else " " for i in range(len(state.dice)))
        shown = "  ".join(f"{d}{k}" for d, k in zip(state.dice, kept))
        label = text(hand_label(state.dice)) if not state.rolling else "…"
        lines.append(text("421.text.dice", dice=shown, hand=label, throws=state.throws,
                          limit=state.limit))
    if state.last is not None:
        lines.append(text("421.text.last", round=round_sentence(state.last, names)))
    return "\n".join(lines)


def advice_choice(state: Le421State, action) -> Msg:
    """One of the advisor's choices in words: stop on this hand, keep these dice."""
    if isinstance(action, Stop):
        return Msg("421.advice.stop", hand=hand_label(state.dice))
    if not state.dice:
        return Msg("421.advice.throw")
    if not action.keep:
        return Msg("421.advice.reroll_all")
    return Msg("421.advice.keep", dice=" ".join(map(str, action.keep)), n=len(state.dice) - len(action.keep))


def advice_value(measure: str, value: float) -> Msg:
    """What a choice is worth: a chance of winning the game, or tokens shed in the round."""
    if measure == "win":
        return Msg("421.advice.win", percent=percent(value))
    return Msg("421.advice.tokens", value=decimal(value, 2, sign=True))


def describe_events(state: Le421State, names: Sequence[str]):
    """The last action's effect as pieces (names marked), for the page's announcements."""
    return sentences(events(state, names))
