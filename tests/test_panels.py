"""The games' panels (web/games/<id>/rules.html, table.html, page.json) speak from the
catalogue domain ``panels``: their templates hold structure only, every id they name is in
the French catalogue and nothing else is, and the English panels read as English.

The French words themselves are held to French typography by tests/test_typography.py (every
entry of the compiled catalogue), and the French pages to their old text by the browser tests.
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

import facts
import pages
import pytest

from pygames import messages

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "web" / "games"
PANELS_PO = ROOT / "pygames" / "locale" / "fr" / "LC_MESSAGES" / "panels.po"
PARTS = sorted(p for p in GAMES.glob("*/*.html") if p.name in ("rules.html", "table.html"))

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
USED_ID = re.compile(r"""\b(?:t|markup)\(\s*["']([^"']+)["']""")
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder"}
#: Two letters or more make a word; single letters are the Linotte board's column names.
WORD = re.compile(r"[^\W\d_]{2,}")
#: Words that only French has (the French game terms the English keeps are not here: fiche,
#: nénette, charge, décharge, rampo, poigne, tir, sec, appel, brelan, carré, quinte…).
FRENCH = frozenset("""les des dés une est sont avec pour dans sur aux ou et vaut valent jetons
joueur joueurs partie lancer lancers lancez relancer manche manches pions case cases prime
règles touches clavier entrée espace garder passer sceller scellés flottants plateau tour
feuille chaque quand jusqu ni pas plus moins""".split())


class _Text(html.parser.HTMLParser):
    """The text nodes and readable attributes of a piece of HTML (scripts and styles left out)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        self.found.extend(value for name, value in attrs if name in READ_ATTRIBUTES and value)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.found.append(data)


def texts(markup: str) -> list[str]:
    parser = _Text()
    parser.feed(markup)
    parser.close()
    return parser.found


def panel_ids() -> set[str]:
    """The ids of the French panels catalogue (read as text: the tests need no Babel)."""
    return set(re.findall(r'^msgid "([^"]+)"', PANELS_PO.read_text(encoding="utf-8"), re.M))


def page_json_ids() -> set[str]:
    ids = set()
    for path in GAMES.glob("*/page.json"):
        facts_of_page = json.loads(path.read_text(encoding="utf-8"))
        ids |= {facts_of_page[key] for key in ("rules_title", "description") if key in facts_of_page}
    return ids


def template_ids() -> set[str]:
    return {i for path in PARTS for i in USED_ID.findall(path.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("path", PARTS, ids=lambda p: str(p.relative_to(GAMES)))
def test_the_panels_hold_no_words_outside_the_catalogue(path):
    left = [text for text in texts(JINJA.sub(" ", path.read_text(encoding="utf-8"))) if WORD.search(text)]
    assert left == []


@pytest.mark.parametrize("path", PARTS, ids=lambda p: str(p.relative_to(GAMES)))
def test_every_id_a_panel_names_is_in_the_french_catalogue(path):
    used = set(USED_ID.findall(path.read_text(encoding="utf-8")))
    assert used
    assert used - set(messages.load("fr").messages) == set()


def test_page_json_names_catalogue_ids():
    ids = page_json_ids()
    assert len(ids) == 2 * len(list(GAMES.glob("*/page.json")))
    assert ids - set(messages.load("fr").messages) == set()


def test_the_panels_catalogue_holds_what_the_panels_use_and_nothing_more():
    assert panel_ids() == template_ids() | page_json_ids()


def rendered(language: str, path: Path) -> str:
    """A panel rendered in *language*, the French restored after."""
    try:
        messages.use(language)
        return pages.environment().get_template(str(path.relative_to(ROOT / "web"))).render()
    finally:
        messages.use("fr")


@pytest.mark.parametrize("path", PARTS, ids=lambda p: str(p.relative_to(GAMES)))
def test_the_english_panels_read_as_english(path):
    found = texts(rendered("en", path))
    words = {w.lower() for text in found for w in WORD.findall(text)}
    assert words & FRENCH == set()
    # Every id found its English words (an id nobody translated would show as itself).
    assert [text for text in found if re.search(r"\b(?:rules|table|page)\.[\w.-]+\.", text)] == []
    assert not any("\u202f;" in text or "\u00a0:" in text for text in found)  # no French spacing


def test_the_french_panels_read_as_french():
    """The same check the other way: the list above does find the French words."""
    for path in PARTS:
        words = {w.lower() for text in texts(rendered("fr", path)) for w in WORD.findall(text)}
        assert words & FRENCH, path


def test_page_facts_speak_the_page_language():
    family = next(f for f in facts.families() if f.id == "yams")
    assert pages.page_facts(family)["rules_title"] == "Règles du Yams"
    try:
        messages.use("en")
        english = pages.page_facts(family)
    finally:
        messages.use("fr")
    assert english["rules_title"] == "Yams rules" and "browser" in english["description"]
