"""The setup form the build writes into every game page (web/tools/pages.py), usable
before Python starts (js/setup-early.js, e2e/test_page_early.py): it follows the registry,
its data is JSON (not a script the page's policy would have to allow), and a hostile text
in the registry would stay text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import build
import facts
import pages
import pytest

from pygames import FAMILIES

ROOT = Path(__file__).resolve().parent.parent


PAGED = [f for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]


def _pages():
    return build.family_pages()


@pytest.mark.parametrize("family", PAGED, ids=lambda f: f.id)
def test_the_setup_follows_the_registry(family):
    written = _pages()
    for name in (f"{family.id}.html", f"embed-{family.id}.html"):
        html = written[name]
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
        rows = re.search(r'<ol id="player-rows" class="players">(.*?)</ol>', html, re.S).group(1)
        names = re.findall(r'aria-label="Nom du joueur \d+" value="([^"]*)"', rows)
        defaults = next(r for f in facts.families() if f.id == family.id for r in f.rulesets)
        assert names == [n for n, _ in defaults.default_players]
        assert "Joueur 1" in names  # a person's default name, from the catalogue
        assert pages.inline_script_hashes(html) == pages.inline_script_hashes(
            html.replace(re.search(r'<script type="application/json".*?</script>', html, re.S).group(0), ""))


def test_the_views_default_players_come_from_the_registry():
    for family in PAGED:
        for game in family.games:
            assert game.min_players <= len(game.default_players) <= game.max_players
            assert all(seat in game.seats for _, seat in game.default_players)


def test_hostile_text_in_the_setup_stays_text(monkeypatch):
    """A page written for a made-up game of the registry (through web/tools/facts.py, as the
    build reads every game) whose texts are markup: they stay text in the setup."""
    game = facts.RulesetFacts(
        id="x", title="<b>Jeu</b>", summary="</script><script>alert(1)</script>",
        min_players=1, max_players=2,
        seats=(("human", "Humain"), ("simple", '"><img src=x onerror=alert(1)>')),
        options=(facts.OptionFacts("o", "<u>option</u>", "a", ("a", "<s>b</s>")),),
        default_players=(("<i>Léa</i>", "human"),))
    family = facts.FamilyFacts(id="yams", title="<em>Titre</em>", description="<q>d</q>",
                               players_text="1 à 2 joueurs", view="yams_view",
                               rules_module="pygames.yams", rulesets=(game,))
    html = pages.render_pages(build.VENDOR, None, [family])["yams.html"]
    form = html[html.index('<section id="setup"'):html.index("</section>", html.index('<section id="setup"'))]
    for tag in ("<b>", "<img", "<i>", "<u>", "<s>", "<em>"):
        assert tag not in form and tag not in html.split("<main", 1)[0], tag
    assert "</script><script>" not in html
    assert "&lt;i&gt;Léa&lt;/i&gt;" in form and "&lt;s&gt;b&lt;/s&gt;" in form
    data = json.loads(re.search(r'id="setup-data">(.*?)</script>', html, re.S).group(1))
    assert data["rulesets"]["x"]["players"] == [{"name": "<i>Léa</i>", "seat": "human"}]


def test_a_page_offers_the_device_preferences_its_page_json_names(tmp_path, monkeypatch):
    """Only the Yams page asks before a 0, so only its setup has the checkbox that turns the
    question back on; an unknown preference stops the build."""
    html = _pages()
    for family in PAGED:
        has = 'id="ask-zero"' in html[f"{family.id}.html"]
        assert has == (family.id == "yams"), family.id
    family = next(f for f in facts.families() if f.id == "421")
    assert pages.page_facts(family)["preferences"] == []
    (tmp_path / "421").mkdir()
    (tmp_path / "421" / "page.json").write_text('{"preferences": ["dark_magic"]}')
    monkeypatch.setattr(pages, "GAMES", tmp_path)
    with pytest.raises(SystemExit, match="unknown setup preference"):
        pages.page_facts(family)
