"""The catalogues' machinery: the filters (`{name|de}` elides before a vowel, `{n|n}` writes
thousands apart with a narrow no-break space in French, a comma in English), the plural
rules of each language, lists and yes/no in the language spoken, the fallback to French."""

from __future__ import annotations

import pytest

from pygames import messages
from pygames.locale import from_environment
from pygames.messages import Catalogue, Msg, Name, de, render, text, thousands


@pytest.fixture(autouse=True)
def french_again():
    """Each test leaves the language spoken as it found it (French, tests/conftest.py)."""
    yield
    messages.use("fr")


@pytest.fixture
def with_test_entries():
    messages.use("fr-test", {"language": "fr-test", "plural": "(n > 1)",
                             "messages": {"test.filters": "{points|n} points {player|de}"}})


@pytest.mark.parametrize("value, shown", [
    ("3000", "3\u202f000"), ("-1500", "−1\u202f500"), ("999", "999"), ("1000000", "1\u202f000\u202f000"),
    ("abc", "abc"), ("", ""),
])
def test_thousands(value, shown):
    assert thousands(value) == shown


@pytest.mark.parametrize("word, said", [("Ordinateur", "d'Ordinateur"), ("Hugo", "d'Hugo"),
                                        ("Paul", "de Paul"), ("« Ève »", "d'« Ève »")])
def test_de(word, said):
    assert de(word) == said


def test_filters_keep_a_name_a_piece_of_its_own(with_test_entries):
    pieces = render(Msg("test.filters", points=3000, player=Name("Ordinateur")))
    assert pieces == [("3\u202f000 points d'", False), ("Ordinateur", True)]
    assert text(Msg("test.filters", points=50, player=Name("Paul"))) == "50 points de Paul"


@pytest.mark.parametrize("language, n, said", [
    ("fr", 0, "0 point"), ("fr", 1, "1 point"), ("fr", 2, "2 points"), ("fr", 1.5, "1.5 points"),
    ("en", 0, "0 points"), ("en", 1, "1 point"), ("en", 2, "2 points"), ("en", -1, "-1 point"),
])
def test_each_language_has_its_plural_rule(language, n, said):
    messages.use(language)
    assert text("count.points", n=n) == said


def test_numbers_lists_and_yes_no_in_the_language_spoken():
    players = [Name("Léa"), Name("Paul"), Name("Zoé")]
    messages.use("fr")
    assert thousands("3000") == "3\u202f000" and text("word.list", items=players) == "Léa, Paul et Zoé"
    assert text("word.list", items=True) == "oui"
    messages.use("en")
    assert thousands("3000") == "3,000" and text("word.list", items=players) == "Léa, Paul and Zoé"
    assert text("word.list", items=False) == "no"


def test_an_id_a_language_lacks_falls_back_to_french_and_an_unknown_id_shows_as_itself():
    messages.use("xx-test", {"language": "xx-test", "plural": "(n != 1)", "messages": {}})
    assert text("seat.human") == "Humain"
    assert text("no.such.id", n=3) == "no.such.id"


def test_an_unknown_plural_rule_is_refused():
    with pytest.raises(ValueError, match="plural rule"):
        Catalogue("xx", {}, "(n % 10 == 1)")


@pytest.mark.parametrize("environ, language", [
    ({}, "fr"), ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:en", "LANG": "de_DE.UTF-8"}, "en"), ({"PYGAMES_LANG": "fr", "LANG": "en_US"}, "fr"),
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "en_US"}, "fr"),
])
def test_a_terminal_speaks_the_language_its_environment_asks_for(environ, language):
    assert from_environment(messages.LANGUAGES, "fr", environ) == language
