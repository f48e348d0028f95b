"""The Yams family's words: its catalogue (titles, options, boxes, errors, what a move
did) and its text renderings (the sheet for a terminal, the narration of a move, the
outcome's reason)."""

from __future__ import annotations

from typing import Sequence

from ..core import Outcome
from ..messages import Msg, Name, points_reason
from .rules import ROLLS, Roll, Score, YamsState


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
        # Yahtzee's own word for its bonus row ("Yahtzee bonuses"; French says "Primes Yam").
        yahtzee = state.rules.boxes[state.rules.yam_index].name == "yahtzee"
        primes = text("yams.text.primes_yahtzee" if yahtzee else "yams.text.primes")
        lines.append(f"{primes:16}" + "".join(f"{s.primes:>11}" for s in sheets))
    lines.append(f"{text('yams.text.total'):16}" + "".join(f"{s.total:>11}" for s in sheets))
    if state.dice and not state.rerolling and not state.is_terminal():
        lines.append(text("yams.text.dice", dice=dice_list(state.dice, " "), roll=state.rolls,
                          rolls=ROLLS))
    return "\n".join(lines)
