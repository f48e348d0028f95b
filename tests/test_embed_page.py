"""The embed form of the game pages without a browser: its URL parameters (web/app/embed.py)
and its markup kept in step with the full page (the browser side is e2e/test_embed.py)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from embed import EmbedError, parse_embed

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"



def test_no_parameters_leave_everything_to_the_reader():
    config = parse_embed("")
    assert (config.instance, config.game, config.options, config.players) == (None, None, None, None)
    assert config.store_key("pygames:yams:match") == "pygames:yams:match:embed"


def test_players_start_the_game_with_the_default_options():
    config = parse_embed("?game=yahtzee&players=Alice,+Ordi+:+SIMPLE&id=post-7_b")
    assert config.game.id == "yahtzee"
    assert [(p.name, p.seat) for p in config.players] == [("Alice", "human"), ("Ordi", "simple")]
    assert config.options == {"plain": False}
    assert config.store_key("pygames:yams:match") == "pygames:yams:match:post-7_b"


def test_real_dice_are_the_embedders_choice():
    """``dice=real``: played with real dice, fixed (the signature says so, only then: the
    games saved before under the same URL still fit it); anything else is refused."""
    plain, real = parse_embed("players=Alice"), parse_embed("players=Alice&dice=real")
    assert plain.dice is None and real.dice == "real"
    assert "dice" not in plain.signature and '"dice": "real"' in real.signature
    with pytest.raises(EmbedError, match="«\u00a0vrais\u00a0»"):
        parse_embed("dice=vrais")


def test_the_expert_can_take_a_seat():
    config = parse_embed("game=yahtzee&players=Alice,Ordi:expert")
    assert [p.seat for p in config.players] == ["human", "expert"]


def test_players_without_game_play_the_full_sheet():
    assert parse_embed("players=Alice").game.id == "yams"


def test_options_list_ids_and_values():
    config = parse_embed("game=yams-boite&options=bonus_above_63,forced_scoring%3Dnon")
    assert config.options == {"forced_scoring": False, "bonus_above_63": True}
    assert parse_embed("game=yams&options=single_prime=oui").options == {
        "four_kind_is_two_pairs": False, "single_prime": True}
    assert parse_embed("game=yams&options=").options == {
        "four_kind_is_two_pairs": False, "single_prime": False}


def test_names_are_kept_as_text():
    config = parse_embed("game=yams&players=" + "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E")
    assert config.players[0].name == "<img src=x onerror=alert(1)>"


def test_signature_changes_with_what_the_embedder_fixed():
    a = parse_embed("game=yams&players=Alice&id=x").signature
    assert a == parse_embed("id=x&players=Alice&game=yams&seed=3").signature
    assert a != parse_embed("game=yams&players=Alice,Bob&id=x").signature
    assert a != parse_embed("game=yams&players=Alice&options=single_prime&id=x").signature
    assert json.loads(a)["players"] == [{"name": "Alice", "seat": "human"}]


@pytest.mark.parametrize("query, message", [
    ("game=belote", "Règle inconnue\u00a0: «\u00a0belote\u00a0» (au choix\u00a0: yams, yams-boite, yahtzee)."),
    ("id=a/b", "Le paramètre «\u00a0id\u00a0»"),
    ("id=" + "x" * 65, "Le paramètre «\u00a0id\u00a0»"),
    ("game=yams&options=plain", "Option inconnue pour Yams (feuille complète)\u00a0: «\u00a0plain\u00a0»"),
    ("game=yahtzee&options=plain=maybe", "Option plain\u00a0: «\u00a0oui\u00a0» ou «\u00a0non\u00a0» attendu"),
    ("game=yams&players=Alice,,Bob", "Joueur 2 sans nom"),
    ("game=yams&players=Alice:robot",
     "Place inconnue pour Alice\u00a0: «\u00a0robot\u00a0» (Yams (feuille complète)\u00a0: human, simple, expert)."),
    ("game=yams&players=" + "%01", "Joueur 1\u00a0: Le nom contient un caractère de contrôle."),
    ("game=yams&players=" + ",".join("ABCDEFG"), "se joue de 1 à 6 joueurs"),
    ("game=yams&players=" + "A" * 41, "Nom trop long"),
    ("players=" + "A," * 600, "est trop long"),
])
def test_bad_parameters_say_what_is_wrong_in_french(query, message):
    with pytest.raises(EmbedError) as err:
        parse_embed(query)
    assert message in str(err.value)


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.body = set(), {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "body":
            self.body = attrs


def _page(name):
    """The page as built from its template (see web/tools/pages.py)."""
    from build import family_pages

    return family_pages()[name]


FAMILY_IDS = sorted(__import__("pygames").FAMILIES)


def _parse(name):
    parser = _Ids()
    parser.feed(_page(name))
    return parser


def _rules(name):
    return re.search(r'<dialog id="rules".*?</dialog>', _page(name), re.S).group(0)


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_embed_page_has_every_element_the_app_uses(family):
    """The shell and the game's view run on both pages: the embed page must have every id
    of the full page except the site chrome (and the embed dialog of the full page)."""
    from pygames import FAMILIES

    full, embed = _parse(f"{family}.html"), _parse(f"embed-{family}.html")
    chrome = {"main", "embed", "embed-title", "embed-loader", "embed-iframe", "open-embed",
              # the site header's tools (the frame shares the end screen's replay link) and the
              # site's statistics, which a frame in another site does not keep
              "share-open", "sound", "theme-choice", "open-stats", "stats", "stats-title",
              "stats-body", "stats-notice", "stats-export", "stats-import", "stats-clear",
              # the header's Menu that folds those tools on a narrow screen (js/menu.js)
              "menu-toggle", "site-tools"}
    assert full.ids - chrome - embed.ids == set()
    assert "data-embed" in embed.body and embed.body["data-family"] == family
    used = set()
    for module in ("shell", FAMILIES[family].view):
        app = (WEB / "app" / f"{module}.py").read_text(encoding="utf-8")
        used |= set(re.findall(r'by_id\("([a-z-]+)"\)', app))
    if not FAMILIES[family].advisor:
        used -= {"advise", "advice"}  # the shell looks for the Conseil row only if it is there
    used_full = set(used)
    used -= {"share-open"}  # the header's Partager: the shell shows it only where it is
    assert used <= embed.ids, used - embed.ids
    assert used_full <= full.ids, used_full - full.ids


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_embed_page_rules_are_those_of_the_full_page(family):
    assert _rules(f"embed-{family}.html") == _rules(f"{family}.html")


@pytest.mark.parametrize("family", FAMILY_IDS)
def test_embed_page_is_next_to_the_pyscript_config(family):
    """PyScript resolves `interpreter` against the page: the page sits beside pyscript.json.
    The game's files (embed.py, shell.py and the views among them) come with the interpreter."""
    text = _page(f"embed-{family}.html")
    assert f'<script type="py" config="pyscript.json">import shell; shell.main("{family}")</script>' in text
    config = json.loads((WEB / "static" / "pyscript.json").read_text())
    # no `files`: js/pyodide-fast.mjs (the interpreter) writes the game's files itself
    assert config["interpreter"] == "./js/pyodide-fast.mjs" and "files" not in config
    # PyScript's plugins that these pages do not use are not loaded (nor their chunks)
    assert {"!py-editor", "!py-terminal", "!py-game"} <= set(config["plugins"])
    # the storage fallback must run before Python starts (js/worker-page.mjs, which loads
    # PyScript for `?page`), as a classic script
    assert text.index('<script src="js/embed-storage.js"></script>') < text.index('src="js/worker-page.mjs"')
    assert '/core.js"></script>' not in text  # PyScript: loaded on `?page` only
