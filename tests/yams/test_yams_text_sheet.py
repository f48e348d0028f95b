"""The terminal's score sheet (python -m pygames play / replay): its prime's line says the
threshold as the option has it (issue 20, item 12): "Prime (≥63)" by default, "Prime (>63)"
when the prime needs strictly more than 63 (the Boîte à jeux's option)."""

from __future__ import annotations

import pytest

from pygames import FAMILIES, DiceSampler, Match, Player
from pygames.yams import messages


def prime_line(game_id: str, options: dict | None) -> str:
    game = next(g for g in FAMILIES["yams"].games if g.id == game_id)
    match = Match(game, [Player("Léa"), Player("Paul")], options, DiceSampler("sheet"))
    lines = [line for line in messages.render_text(match.state, ["Léa", "Paul"]).splitlines()
             if line.startswith("Prime (")]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("game_id", "options", "label"), [
    ("yams", None, "Prime (≥63)"),
    ("yams-boite", None, "Prime (≥63)"),
    ("yams-boite", {"bonus_above_63": False}, "Prime (≥63)"),
    ("yams-boite", {"bonus_above_63": True}, "Prime (>63)"),
])
def test_the_prime_line_says_the_threshold_as_the_option_has_it(game_id, options, label):
    line = prime_line(game_id, options)
    assert line.split("  ")[0] == label, line
    assert "64" not in line
