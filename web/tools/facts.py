"""What the build reads from the game registry (``pygames.FAMILIES``), as plain data.

Every text and fact of a game that the pages show or the setup rules hold is read here and
nowhere else in web/tools/: titles, summaries, option labels and choices, seat labels, the
numbers of players, the default players, the view and rules modules.  The registry names
its texts by message (pygames.messages): they are rendered here, so the templates and the
build see plain values.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


@dataclass(frozen=True)
class OptionFacts:
    id: str
    label: str
    default: object
    choices: tuple


@dataclass(frozen=True)
class RulesetFacts:
    id: str
    title: str
    summary: str
    min_players: int
    max_players: int
    seats: tuple[tuple[str, str], ...]  # (seat id, its French label), in the registry's order
    options: tuple[OptionFacts, ...]
    default_players: tuple[tuple[str, str], ...]  # (name, seat)


@dataclass(frozen=True)
class FamilyFacts:
    id: str
    title: str
    description: str
    players_text: str  # "2 à 6 joueurs", for the home page's card
    view: str  # the page's view module (web/app/<view>.py)
    rules_module: str  # its rules module, e.g. "pygames.yams"
    rulesets: tuple[RulesetFacts, ...]


def _registry():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import pygames

    return pygames


def thousands(text: str) -> str:
    """A number as the pages write it ("3 000"; pygames.messages.thousands)."""
    _registry()
    from pygames.messages import thousands

    return thousands(text)


def words(msg) -> str:
    """A text of the registry (a message, or a plain string) as the page shows it."""
    from pygames.messages import text

    return text(msg) if msg else ""


def ruleset_facts(game) -> RulesetFacts:
    from pygames.core import default_name, seat_label

    return RulesetFacts(
        id=game.id, title=words(game.title), summary=words(game.summary),
        min_players=game.min_players, max_players=game.max_players,
        seats=tuple((seat, words(seat_label(seat))) for seat in game.seats),
        options=tuple(OptionFacts(o.id, words(o.label), o.default, tuple(o.choices)) for o in game.options),
        default_players=tuple((name or words(default_name(n, seat)), seat)
                              for n, (name, seat) in enumerate(game.default_players, 1)),
    )


def family_facts(family, rules_module: str = "") -> FamilyFacts:
    return FamilyFacts(
        id=family.id, title=words(family.title), description=words(family.description),
        players_text=words(family.players_text()), view=family.view, rules_module=rules_module,
        rulesets=tuple(ruleset_facts(g) for g in family.games),
    )


def families() -> list[FamilyFacts]:
    """Every family of the registry, in its order."""
    pygames = _registry()
    return [family_facts(f, f"pygames.{pygames.GAME_MODULES[f.id]}") for f in pygames.FAMILIES.values()]


def max_name_length() -> int:
    """The longest player's name the rules accept (the setup's name fields keep to it)."""
    return _registry().core.MAX_NAME_LENGTH
