"""The words of the pages' shared modules (web/app: the shell, the statistics, the replays, the
table's tools…) come from the catalogue's ``site`` domain, never from the code: no French
literal is left in them, no word is looked up at import time (the page's catalogue is
installed after the memory snapshot, shell.speak), every ``site.*`` id they name exists, and
the messages read well in English.  The four game views have their own domain (views)."""

from __future__ import annotations

import ast
import importlib
import re
import sys
import types
from pathlib import Path

import pytest
from support import python_strings

from pygames import messages
from pygames.messages import Msg, Name, Series, render, text

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "web" / "app"
MODULES = ("shell stats stats_view replay replay_view guard table table_tools tray flow tabs prefs "
           "ask dom embed view words").split()

#: Literals that must stay as they are, by module: data, not words shown.
ALLOWED = {
    # the French labels older pages stored in the statistics, read as their ids
    "stats": {"Yams réalisés", "Yahtzee réalisés", "421 obtenus", "Yams obtenus", "Poignes"},
}
#: A replay link's compression dictionary (replay.ZDICT) is data: the commonest record text.
ALLOWED_PREFIX = {"replay": ('{"format":"pygames/1"', '"announce yam"', '"actions":[', '"score ')}

FRENCH_LETTERS = re.compile(r"[àâäçéèêëîïôöùûüÿœæÀÂÇÉÈÊËÎÏÔÙÛÜŒ«»]")
FRENCH_WORDS = re.compile(
    r"\b(de|le|la|les|des|du|une?|et|est|pas|au|aux|en|par|ne|plus|ordinateur|pour|ce|cette|sur|avec|dans|jeu|partie|parties|joueurs?|"
    r"annuler|confirmer|vitesse|lente|normale|rapide|effacer|remplacer|joue|coup|ordi|nombre|"
    r"moyenne|meilleur|victoires|taux|gagnants?|commencer|reprendre|abandonner|continuer|"
    r"chargement|conseiller|analyse|fichier|lien|illisibles?|statistiques|lecture|son|dé)\b",
    re.IGNORECASE)


literals = python_strings


def french(value: str) -> bool:
    if re.fullmatch(r"[a-z0-9_.:#\-]*", value):  # an id, a key, a class
        return False
    return bool(FRENCH_LETTERS.search(value) or FRENCH_WORDS.search(value))


@pytest.mark.parametrize("module", MODULES)
def test_no_french_literal_is_left_in_the_shared_modules(module):
    allowed = ALLOWED.get(module, set())
    prefixes = ALLOWED_PREFIX.get(module, ())
    left = [f"{module}.py:{line}: {value!r}" for line, value in literals(APP / f"{module}.py")
            if french(value) and value not in allowed and not value.startswith(prefixes)]
    assert not left, "words to move into pygames/locale/fr/LC_MESSAGES/site.po:\n" + "\n".join(left)


def test_the_check_finds_french_words():
    assert french("Partie reprise.") and french("Lente") and french("Dé ")
    assert french("Vitesse") and french(" de l'ordinateur")
    assert not french("site.stats.button") and not french("pygames:stats") and not french("stats-body")
    assert not french("application/json") and not french("Enter")


LOOKUPS = {"text", "render", "word", "template", "words"}


def _import_time_calls(tree):
    """Calls of the catalogue outside any function body: module level, class bodies,
    default arguments and decorators."""
    out = []

    def visit(node, in_function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for default in args.defaults + [d for d in args.kw_defaults if d is not None]:
                visit(default, False)
            for decorator in getattr(node, "decorator_list", []):
                visit(decorator, False)
            for child in (node.body if isinstance(node.body, list) else [node.body]):
                visit(child, True)
            return
        if (not in_function and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in LOOKUPS):
            out.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child, in_function)

    visit(tree, False)
    return out


@pytest.mark.parametrize("module", MODULES)
def test_no_word_is_looked_up_at_import_time(module):
    tree = ast.parse((APP / f"{module}.py").read_text(encoding="utf-8"))
    assert _import_time_calls(tree) == []


def test_the_import_time_check_finds_a_constant():
    tree = ast.parse('A = text("site.x")\nclass B:\n    c = render("x")\ndef f(d=word("y")):\n'
                     '    return text("z")\n')
    assert _import_time_calls(tree) == [1, 3, 4]


def french_ids():
    return set(messages.load("fr").messages)


@pytest.mark.parametrize("module", MODULES)
def test_every_site_id_named_in_the_code_exists(module):
    known = french_ids()
    named = {value for _, value in literals(APP / f"{module}.py")
             if re.fullmatch(r"site(\.[a-z0-9_]+)+", value)}
    assert named - known == set()


def test_the_ids_built_from_keys_exist():
    import prefs
    import stats

    known = french_ids()
    assert {f"site.pace.{speed}" for speed in prefs.PACE_MS} <= known
    assert set(prefs.PACE_LABELS.values()) <= known
    assert set(stats.LEGACY_HIGHLIGHTS.values()) <= known
    assert {f"site.stats.col.{c}" for c in ("player", "played", "wins", "rate", "best", "average")} <= known
    assert {f"site.replay.{s}{x}" for s in ("play", "pause") for x in ("", "_label")} <= known
    assert {f"site.stats.unit.{u}" for u in ("points", "jetons")} <= known
    tree = ast.parse((APP / "stats.py").read_text(encoding="utf-8"))
    whats = {call.args[-1].value for call in ast.walk(tree)
             if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
             and call.func.id in ("_mapping", "_list", "_int", "_score", "_text", "_unreadable")
             and call.args and isinstance(call.args[-1], ast.Constant) and isinstance(call.args[-1].value, str)}
    assert len(whats) > 10
    for what in whats:
        assert f"site.stats.what.{what}" in known, what


# --- in English ---------------------------------------------------------------------------


def test_site_messages_in_english(english):
    assert text("site.stats.button") == "Statistics"
    assert text("site.undo.button") == "Undo"
    assert text("site.ask.cancel") == "Cancel"
    assert text("site.setup.start") == "Start the game"
    assert text("site.pace.rapide") == "Fast"
    assert text("site.game.new", title="Yams") == "New game: Yams."
    assert text("site.replay.step", k=2, last=30) == "Move 2 of 30."
    assert text("site.free.title", n=1) == "Clear the other item this site saved?"
    assert text("site.free.title", n=3) == "Clear the 3 other items this site saved?"


def test_names_stay_pieces_in_english(english):
    pieces = render("site.stats.winners", players=Series([Name("Léa"), Name("Paul")]), n=2)
    assert pieces == [("Winners: ", False), ("Léa", True), (", ", False), ("Paul", True)]
    assert render("site.stats.winners", players=Series([Name("Zoé")]), n=1)[0] == ("Winner: ", False)
    about = render("site.replay.about", n=1, players=Series([Name("Léa")]), state=Msg("site.replay.finished"))
    assert "".join(t for t, _ in about) == "1 player: Léa · finished game"


def test_the_same_in_french():
    pieces = render("site.stats.winners", players=Series([Name("Léa"), Name("Paul")]), n=2)
    assert pieces == [("Gagnants\u00a0: ", False), ("Léa", True), (", ", False), ("Paul", True)]
    assert text("site.stats.winners", players=Series([Name("Léa")]), n=1) == "Gagnant\u00a0: Léa"
    about = render("site.replay.about", n=2, players=Series([Name("A"), Name("B")]),
                   state=Msg("site.replay.ongoing"))
    assert "".join(t for t, _ in about) == "2 joueurs\u00a0: A, B · partie en cours au moment du partage"


def test_numbers_follow_the_language():
    import stats
    import words

    assert words.number(2150) == "2\u202f150" and words.number(-150) == "−150"
    assert words.decimal(254.6) == "254,6" and words.percent(0.125) == "12,5\u00a0%"
    assert stats.shown_number(12.5) == "12,5" and stats.french_number(-3.333) == "-3,3"
    messages.use("en")
    try:
        assert words.number(2150) == "2,150" and words.signed(1000) == "+1,000"
        assert words.decimal(254.6) == "254.6" and words.percent(0.125) == "12.5%"
        assert stats.shown_number(12.5) == "12.5" and stats.shown_number(None) == "—"
        assert stats.french_number(12.5) == "12,5"  # the French one stays French
        assert words.plural(2, "point") == "2 points"  # deprecated, kept for the views
    finally:
        messages.use("fr")


def test_stored_value_errors_speak_the_page_language(english):
    import stats

    with pytest.raises(stats.BadStats) as err:
        stats.load('{"format": "pygames-stats/1", "rulesets": [], "history": [], "seen": []}')
    assert str(err.value) == "unreadable rulesets"
    with pytest.raises(stats.BadStats) as err:
        stats.load("[1]")
    assert str(err.value) == "an object was expected"


def test_stored_value_errors_in_french():
    import stats

    with pytest.raises(stats.BadStats) as err:
        stats.load('{"format": "pygames-stats/1", "rulesets": [], "history": [], "seen": []}')
    assert str(err.value) == "règles illisibles"
    store = {"format": "pygames-stats/1", "rulesets": {}, "history": list(range(stats.MAX_HISTORY + 1)),
             "seen": []}
    with pytest.raises(stats.BadStats) as err:
        stats.check(store)
    assert str(err.value) == "historique\u00a0: trop d'entrées"


def test_replay_errors_in_english(english):
    import replay

    with pytest.raises(replay.ReplayError) as err:
        replay.decode("9.AAAA")
    assert str(err.value) == "This replay link comes from another version of the site: it cannot be read here."


def test_embed_errors_in_english(english):
    from embed import EmbedError, parse_embed

    with pytest.raises(EmbedError) as err:
        parse_embed("?game=nope", "yams")
    assert str(err.value).startswith("Unknown ruleset: “nope” (choose from: ")


# --- the statistics hold no words -----------------------------------------------------------

DATE = "2026-11-30T20:41:15.123Z"


def test_old_french_highlights_and_score_texts_still_load_and_read_in_english():
    """A store an older (French) page wrote: its highlight labels are French words and its
    scores French texts.  It loads; the labels become their ids (one count with the new
    ones), shown in the page's language; the old score texts are shown as they were."""
    import stats

    old = {"format": "pygames-stats/1", "seen": ["a" * 32],
           "rulesets": {"yams": {"family": "yams", "played": 1, "best": 200, "total": 350, "count": 2,
                                 "scores": [200, 150], "highlights": {"Yams réalisés": 2},
                                 "players": {"Léa": {"played": 1, "wins": 1, "best": 200, "total": 200},
                                             "Ordinateur": {"played": 1, "wins": 0, "best": 150, "total": 150}}}},
           "history": [{"id": "a" * 32, "date": DATE, "family": "yams", "game": "yams", "draw": False,
                        "players": [{"name": "Léa", "score": 200, "text": "200 points"},
                                    {"name": "Ordinateur", "score": 150, "text": "150 points"}],
                        "winners": ["Léa"]}]}
    store = stats.load(stats.dumps(old))
    assert store["rulesets"]["yams"]["highlights"] == {"site.highlight.yams_made": 2}
    assert [stats.said(p) for p in store["history"][0]["players"]] == ["200 points", "150 points"]
    # a new game adds to the same count, under the id
    store, added = stats.record_match(
        store, ident="b" * 32, date=DATE, family="yams", game="yams", draw=False, winners=["Léa"],
        players=[{"name": "Léa", "score": 250, "text": Msg("count.points", n=250)}],
        highlights={"Yams réalisés": 1})
    assert added and store["rulesets"]["yams"]["highlights"] == {"site.highlight.yams_made": 3}
    entry = store["history"][-1]["players"][0]
    assert entry["text"] == "" and entry["says"] == {"id": "count.points", "params": {"n": 250}}
    again = stats.load(stats.dumps(store))  # what is stored reads back the same
    assert again == store
    assert "réalisés" not in stats.dumps(again) and "250 points" not in stats.dumps(again)
    assert stats.highlight_label("site.highlight.yams_made") == "Yams réalisés"
    assert stats.highlight_label("Yams obtenus") == "Yams obtenus"
    assert stats.highlight_label("Un fait inconnu") == "Un fait inconnu"
    assert text(stats.said(entry)) == "250 points"
    messages.use("en")
    try:
        assert stats.highlight_label("site.highlight.yams_made") == "Yams scored"
        assert stats.highlight_label("Yams réalisés") == "Yams scored"  # an old label, in English
    finally:
        messages.use("fr")


def test_a_stored_message_is_checked():
    import stats

    good = {"id": "count.points", "params": {"n": 3}}
    assert stats._says(good) == good
    for bad in ({"id": "count.points"}, {"id": "<b>", "params": {}}, {"id": "a.b", "params": {"n": [1]}},
                {"id": "a.b", "params": {"n": True}}, {"id": "a.b", "params": {f"p{i}": 1 for i in range(9)}},
                {"id": "a.b", "params": {"n": "x" * 100}}, "count.points"):
        with pytest.raises(stats.BadStats):
            stats._says(bad)
    # a message with a name (or a nested one) is not stored as data: its text is
    assert stats.says_of(Msg("end.wins", player=Name("Léa"))) is None
    store, _ = stats.record_match(stats.empty(), ident="c" * 32, date=DATE, family="yams", game="yams",
                                  draw=False, winners=[], players=[{"name": "Léa", "score": 1,
                                                                    "text": Msg("x.y", who=Name("Léa"))}])
    assert store["history"][0]["players"][0]["text"] == "x.y"


# --- the table's tools (a browser module: its pure helper, with the browser stubbed) --------


@pytest.fixture
def table_tools(monkeypatch):
    stub = types.ModuleType("stub")
    for name in ("pyscript", "pyscript.ffi", "pyodide", "pyodide.ffi"):
        module = types.ModuleType(name)
        module.document = module.window = module.fetch = None
        module.create_proxy = module.to_js = module.create_once_callable = lambda *a, **k: None
        monkeypatch.setitem(sys.modules, name, module)
    for name in ("dom", "table_tools"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    del stub
    module = importlib.import_module("table_tools")
    yield module
    for name in ("dom", "table_tools"):
        sys.modules.pop(name, None)


def test_an_undo_repeats_the_move_without_its_change_of_turn(table_tools):
    said = "Léa inscrit 12 en Brelan. À Paul de jouer."
    assert table_tools.undone_detail(said) == "Léa inscrit 12 en Brelan."
    messages.use("en")
    try:
        # the games' own English turn sentences (yams.next_player, 421.next_thrower)
        for turn in (messages.text("yams.next_player", player="Paul"),
                     messages.text("421.next_thrower", player="Paul")):
            assert table_tools.undone_detail(f"Léa scores 12 in Three of a Kind. {turn}") == \
                "Léa scores 12 in Three of a Kind.", turn
    finally:
        messages.use("fr")
