"""The Dé Landais's computer players, every level in one place, and the advisor:
`ThresholdBot` (*facile* is `ThresholdBot(300)`: seals at 300 floating points or more, or
when sealing wins) and `ExpertBot` (*expert*: plays the solved two-player table of
`pygames.landais.tables`, against the strongest opponent with three or four players: the
highest sealed score among the others, the one closest to taking the manche from him).
Every decision is a comparison of two look-ups.
"""

from __future__ import annotations

from ..core import Advice, Choice, GameError
from .rules import GIFTS, ROLL, SEAL, LandaisState
from .tables import LandaisTables


class ThresholdBot:
    """Seals as soon as the floating points reach `threshold`, or when sealing wins;
    `simple` is ThresholdBot(300)."""

    def __init__(self, threshold: int = 300):
        if type(threshold) is not int or threshold <= 0:
            raise GameError("landais.error.threshold")
        self.threshold = threshold

    def __call__(self, state: LandaisState):
        if state.can_seal and (state.floating >= self.threshold or state.seal_wins):
            return SEAL
        return ROLL


SimpleBot = ThresholdBot


def _view(state: LandaisState) -> tuple[int, int, int]:
    """(a, b, f) of the player to move: against the strongest opponent."""
    p = state.player
    others = [s for q, s in enumerate(state.sealed) if q != p]
    return state.sealed[p], max(others), state.floating


def _check(tables: LandaisTables | None, state: LandaisState) -> LandaisTables:
    if tables is None:
        raise GameError("landais.error.expert_needs_tables")
    if tables.target != state.rules.target:
        raise GameError("landais.error.tables_target", tables=tables.target, game=state.rules.target)
    return tables


def advise(state: LandaisState, tables: LandaisTables | None) -> Advice:
    """The probability of winning if the player to move throws and if he seals (when it
    is allowed), best first; not `exact` with three or four players (the two-player table
    played against the strongest opponent).  A throw is first on a tie: the expert seals
    only when sealing is worth strictly more."""
    if not isinstance(state, LandaisState) or state.current_player() < 0:
        return Advice((), "win", False)
    tables = _check(tables, state)
    exact = len(state.sealed) == 2
    if state.pending in GIFTS:  # the throw is forced and is for the others
        return Advice((), "win", exact)
    a, b, f = _view(state)
    choices = [Choice(ROLL, tables.throw_value(a, b, f))]
    if state.can_seal:
        seal = Choice(SEAL, tables.seal_value(a, b, f))
        choices = [seal, *choices] if seal.value >= choices[0].value else [*choices, seal]
    return Advice(tuple(choices), "win", exact)


class ExpertBot:
    """*Expert*: maximises its probability of winning (exact for two players): throw again
    only when the table says that throwing is worth strictly more than sealing."""

    def __init__(self, tables: LandaisTables | None):
        self.tables = tables

    def __call__(self, state: LandaisState):
        if not state.can_seal:
            return ROLL
        tables = _check(self.tables, state)
        a, b, f = _view(state)
        if a + f == tables.target:
            return SEAL
        return ROLL if tables.throw_value(a, b, f) > tables.seal_value(a, b, f) else SEAL
