"""The Yams advisor and the analysis of a finished game, from the expert's tables.

* `advise(state, tables)`: every choice of the player to move with the expected final score
  it leads to (optimal play afterwards), best first; the first is what the expert plays;
* `analyse(match, tables)`: per turn of each player, what was played, what was best and the
  expected points lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Action, Advice, Choice, Match
from ..dice import sub_multisets
from .bots import _decide, _resolve, _situation, turn_of
from .rules import Roll, Score, YamsState


def advise(state: YamsState, tables) -> Advice:
    """Every choice of the player to move with its expected final score (optimal play
    afterwards), best first; the first one is what the expert (`ExpertBot`) plays."""
    tables = _resolve(tables, state)
    if state.is_terminal() or state.is_chance():
        return Advice((), "score")
    (mask, up, p), total = _situation(state, tables)
    turn = turn_of(tables, mask, up, p)
    m = turn.model
    if state.rolls == 0:
        return Advice((Choice(Roll(), total + turn.start),), "score")
    h = m.hand_index[tuple(sorted(state.dice))]
    choices = [Choice(Score(m.boxes[b].id), total + v) for b, v in turn.choices(h)]
    played = _decide(turn, state.rolls, h)
    if state.rolls < m.rolls:
        E, _ = turn.levels[state.rolls]
        choices += [Choice(Roll(k), total + E[len(k)][m.keep_index[len(k)][k]])
                    for k in sub_multisets(m.hands[h], m.dice - 1)]
    choices.sort(key=lambda c: (-c.value, c.action != played))
    return Advice(tuple(choices), "score")


# --- after the game ------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One choice of a player, against the best one (expected final scores)."""

    roll: int  # 1..3: after which roll (3: scoring after the last one)
    dice: tuple[int, ...]
    played: Action
    played_value: float
    best: Action
    best_value: float

    @property
    def loss(self) -> float:
        return self.best_value - self.played_value

    def to_json(self) -> dict:
        return {
            "roll": self.roll, "dice": list(self.dice),
            "played": self.played.notation(), "played_value": round(self.played_value, 4),
            "best": self.best.notation(), "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
        }


@dataclass
class TurnReview:
    player: int
    turn: int  # counted from 1
    decisions: list[Decision] = field(default_factory=list)

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def to_json(self) -> dict:
        return {"player": self.player, "turn": self.turn, "loss": round(self.loss, 4),
                "decisions": [d.to_json() for d in self.decisions]}


def analyse(match: Match, tables) -> list[TurnReview]:
    """Replay a game and review every decision of every player, turn by turn."""
    reviews: list[TurnReview] = []
    current: dict[int, TurnReview] = {}
    for step in match.positions():
        state, action = step.before, step.action
        if isinstance(state, YamsState) and not state.is_chance() and state.rolls > 0:
            advice = advise(state, tables).choices
            review = current.get(state.player)
            if review is None or review.turn != state.turn:
                review = current[state.player] = TurnReview(state.player, state.turn)
                reviews.append(review)
            played_value = next(c.value for c in advice if c.action == action)
            review.decisions.append(Decision(
                state.rolls, tuple(state.dice), action, played_value, advice[0].action,
                advice[0].value))
    return reviews
