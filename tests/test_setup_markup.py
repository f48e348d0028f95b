"""The setup form the build writes into every game page (web/tools/build.py setup_fields), usable
before Python starts (js/setup-early.js, e2e/test_page_early.py): it follows the registry,
its data is JSON (not a script the page's policy would have to allow), and a hostile text
in the registry would stay text."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from pygames import FAMILIES

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "web" / "tools"))

import build  # noqa: E402

PAGED = [f for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]


def _pages():
    return build.family_pages()


@pytest.mark.parametrize("family", PAGED, ids=lambda f: f.id)
def test_the_setup_follows_the_registry(family):
    pages = _pages()
    for name in (f"{family.id}.html", f"embed-{family.id}.html"):
        html = pages[name]
        data = json.loads(re.search(r'<script type="application/json" id="setup-data">(.*?)</script>',
                                    html, re.S).group(1))
        assert data["family"] == family.id
        assert set(data["rulesets"]) == {g.id for g in family.games}
        radios = re.findall(r'<input type="radio" name="ruleset" value="([^"]+)"( checked)?>', html)
        assert [r for r, _ in radios] == [g.id for g in family.games]
        assert [r for r, c in radios if c] == [family.games[0].id]
        for game in family.games:
            spec = data["rulesets"][game.id]
            assert (spec["min"], spec["max"]) == (game.min_players, game.max_players)
            assert [s for s, _ in spec["seats"]] == list(game.seats)
            assert [(o["id"], o["default"], o["choices"]) for o in spec["options"]] == [
                (o.id, o.default, list(o.choices)) for o in game.options]
            template = re.search(rf'<template id="options-{re.escape(game.id)}">(.*?)</template>', html, re.S)
            assert re.findall(r'data-option="([^"]+)"', template.group(1)) == [o.id for o in game.options]
        first = family.games[0]
        rows = re.search(r'<ol id="player-rows" class="players">(.*?)</ol>', html, re.S).group(1)
        names = re.findall(r'aria-label="Nom du joueur \d+" value="([^"]*)"', rows)
        assert names == [n for n, _ in first.default_players]
        assert build.inline_script_hashes(html) == build.inline_script_hashes(
            html.replace(re.search(r'<script type="application/json".*?</script>', html, re.S).group(0), ""))


def test_the_views_default_players_come_from_the_registry():
    for family in PAGED:
        for game in family.games:
            assert game.min_players <= len(game.default_players) <= game.max_players
            assert all(seat in game.seats for _, seat in game.default_players)


def test_hostile_text_in_the_setup_stays_text():
    class Game:
        id, title, summary = "x", "<b>Jeu</b>", "</script><script>alert(1)</script>"
        min_players, max_players = 1, 2
        seats = {"human": "Humain", "simple": '"><img src=x onerror=alert(1)>'}
        options = ()
        default_players = (("<i>Léa</i>", "human"),)

    class Family:
        id, games = "x", (Game(),)

    fields = build.setup_fields(Family())
    text = "".join(fields.values())
    assert "<b>" not in text and "<img" not in text and "<i>" not in text
    assert "</script><script>" not in fields["setup_data"].split('id="setup-data">', 1)[1].rsplit("</script>", 1)[0]
    assert "&lt;i&gt;Léa&lt;/i&gt;" in fields["setup_players"]


def test_a_page_offers_the_device_preferences_its_page_json_names():
    """Only the Yams page asks before a 0, so only its setup has the checkbox that turns the
    question back on; an unknown preference stops the build."""
    pages = _pages()
    for family in PAGED:
        has = 'id="ask-zero"' in pages[f"{family.id}.html"]
        assert has == (family.id == "yams"), family.id
    assert build.setup_preferences({}) == ""
    with pytest.raises(SystemExit, match="unknown setup preference"):
        build.setup_preferences({"preferences": ["dark_magic"]})
