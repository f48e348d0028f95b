"""The four game views (web/app/{yams,le421,linotte,landais}_view.py) write no word a player
reads: every label, hint, announcement and title comes from the catalogues (the ``views``
domain, pygames/locale/<lang>/LC_MESSAGES/views.po, and the games' own domains), so that
the page speaks the language of its catalogue.

A string literal left in a view is code (a CSS class, an element id, a data attribute, a
notation, a message id) or a mark that no language translates (●, →, "+d"); anything that
reads as French fails here.  The English catalogue is then checked on a few of the views'
messages.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from support import python_strings

from pygames import messages
from pygames.messages import Msg, Name, render, text

ROOT = Path(__file__).resolve().parent.parent
VIEWS = [ROOT / "web" / "app" / f"{name}_view.py" for name in ("yams", "le421", "linotte", "landais")]

#: A message id, as the views look their words up.
MESSAGE_ID = re.compile(r"^(view|count|word|format|option|yams|421|linotte|landais|site)\.[\w.-]*$")
#: What only French writes: accented letters, its spaces before the marks, its quotes, an ellipsis.
FRENCH_MARKS = re.compile("[àâäçéèêëîïôöùûüœÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŒ\u00a0\u202f«»…]")
#: Words of the game views' French that are never a class, an id or a notation.
FRENCH_WORDS = {
    "le", "la", "les", "de", "des", "du", "un", "une", "et", "ou", "en", "au", "aux", "pour", "sur",
    "par", "avec", "sans", "est", "il", "vous", "ne", "pas", "plus", "encore", "chacun", "tout",
    "lancer", "lancez", "relancer", "relancez", "garder", "gardez", "touchez", "choisissez", "posez",
    "passez", "scellez", "sceller", "annoncez", "annonce", "tour", "case", "cases", "feuille", "jetons",
    "jeton", "pion", "pions", "manche", "manches", "conseil", "partie", "vide", "libre", "reste",
    "sorti", "gagne", "scelle", "joueur", "joueurs", "prime", "dernier", "coup", "coups", "choix",
    "meilleur", "meilleure", "pire", "mieux", "perte", "obtenus", "suite", "pareils", "ronds",
    "carrés", "papier", "commence", "ordinateur", "espace", "entrée", "relance", "poigne", "poignes",
    "appel", "charge", "auto", "rampo", "sec", "yam", "quinte", "full", "carré", "small", "lance",
    "sous-total", "points", "point", "atteint", "exactement", "avance", "retard", "posable",
}
#: Literals that read as words but are code: classes, ids, the combinations' notation, keys.
CODE = {
    "appel", "sec", "yam", "quinte", "full", "carre", "small", "poigne", "ghost small appel",
    "chip sec", "chip appel-status", "auto-charge", "rampo-tag", "rampo-throws", "paper",
    "paper-toggle", "paper-fields", "paper-field", "paper-pot", "paper-tokens", "paper-leader",
    "paper-first", "paper-name", "paper-score-", "paper-scores", "paper-start", "choice-button ghost small",
    "charge", "decharge", "rampo", "announce ", "place ", "pass", "manches", "manche-info", "points",
}





def reads_as_french(literal: str) -> bool:
    if MESSAGE_ID.match(literal) or literal in CODE:
        return False
    letters = re.search(r"[^\W\d_]", literal)
    if FRENCH_MARKS.search(literal) and letters or re.search("[\u00a0\u202f][:;!?]", literal):
        return True
    words = re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", literal.lower())  # "appel-row" is one word
    if any(w in FRENCH_WORDS for w in words):
        return True
    # A sentence: a capitalised word followed by others ("Tour 3", "Relancer tout").
    return bool(re.search(r"\b[A-Z][a-z]+ [\w(]", literal))


def french_literals(path: Path) -> list[str]:
    return [f"{path.name}:{lineno}: {value!r}" for lineno, value in python_strings(path)
            if reads_as_french(value)]


def test_the_rule_finds_what_it_should():
    for said in ("Lancer les dés", "Relancer", " (tout)", "Tour précédent", "Conseil\u00a0: ", "vide",
                 " meilleure", "Charge auto", "sorti — gagné", "Yam\u202f!", "Passer la main", " lance",
                 "Dernier coup", "Case", "Joué", "Perte", "Sous-total", "à jouer", "libre", "\u00a0: "):
        assert reads_as_french(said), said
    for code in ("choice-button ghost small", "advice-best", "view.yams.sheet.box", "count.points",
                 "roll", "sheet-legend", " current", "pawn p", "ArrowDown", "data-action", "+d", "●",
                 "http://www.w3.org/2000/svg", "[data-cell]", "chip combo", "Home", "S", "\u00a0", "…",
                 "appel-buttons"):
        assert not reads_as_french(code), code


@pytest.mark.parametrize("path", VIEWS, ids=lambda p: p.name)
def test_a_view_writes_no_french_words_of_its_own(path):
    assert french_literals(path) == []


def test_every_message_a_view_names_is_in_the_french_catalogue():
    """A typo in an id would show the id itself on the page: every literal id of the views
    (and every f-string id's prefix) names an entry."""
    known = messages.load("fr").messages
    missing = []
    for path in VIEWS:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and MESSAGE_ID.match(node.value):
                value = node.value
                if value.endswith("."):  # the head of an id completed at run time
                    if not any(key.startswith(value) for key in known):
                        missing.append(f"{path.name}: {value}")
                elif value not in known:
                    missing.append(f"{path.name}: {value}")
    assert missing == []


def test_the_french_views_read_as_before():
    messages.use("fr")
    assert text("view.common.reroll_some", n=2) == "Relancer (2 dés)"
    assert text("view.common.reroll_some", n=1) == "Relancer (1 dé)"
    assert text("view.421.last.left", players=[Name("Léa"), Name("Paul")], n=2) == "Léa et Paul sortent — gagné."
    assert text("view.yams.confirm.question", box="Brelan", other="Full", points=Msg("count.points", n=25)) == (
        "Inscrire 0 dans la case «\u00a0Brelan\u00a0»\u202f? Avec ces dés, «\u00a0Full\u00a0» rapporterait 25 points.")
    assert text("view.landais.hint.wins", target="3\u202f000") == (
        "Sceller vous donne exactement 3\u202f000\u00a0: la victoire (S)\u202f!")


def test_the_views_speak_english(english):
    assert text("view.common.roll_dice") == "Roll the dice"
    assert text("view.common.reroll_some", n=1) == "Roll again (1 die)"
    assert text("view.common.reroll_some", n=3) == "Roll again (3 dice)"
    assert text("view.yams.sheet.lower") == "Lower section"
    assert text("view.yams.advice.more", n=1) == "… and 1 other, weaker choice."
    assert text("view.421.last.left", players=[Name("Léa"), Name("Paul")], n=2) == "Léa and Paul go out — won."
    assert text("view.landais.manches_won", n=0) == "0 manches won"
    assert text("view.landais.hint.seal", points="1,250") == "Roll again (Space) or seal 1,250 points (S)."
    # A player's name stays a piece of its own, wherever English puts it.
    assert render("view.linotte.placed", player=Name("<b>Zoé</b>"), mark="●", events="passe") == [
        ("<b>Zoé</b>", True), (" (●): passe.", False)]
    assert render("view.421.hint.computer", player=Name("Léa")) == [("Léa", True), (" (computer) is rolling…", False)]
    # No French typography in English: no space before the marks, no guillemets.
    english_texts = [t for key, entry in messages.catalogue().messages.items() if key.startswith("view.")
                     for t in (entry if isinstance(entry, list) else [entry])]
    assert english_texts and not [t for t in english_texts if re.search("[\u00a0\u202f«»]", t)]
