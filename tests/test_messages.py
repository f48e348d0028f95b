"""The catalogue's filters: `{name|de}` elides before a vowel, `{n|n}` writes thousands
apart with a narrow no-break space, as the pages do."""

from __future__ import annotations

import pytest

from pygames.messages import Msg, Name, de, register, render, text, thousands

register({"test.filters": "{points|n} points {player|de}"})


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


def test_filters_keep_a_name_a_piece_of_its_own():
    pieces = render(Msg("test.filters", points=3000, player=Name("Ordinateur")))
    assert pieces == [("3\u202f000 points d'", False), ("Ordinateur", True)]
    assert text(Msg("test.filters", points=50, player=Name("Paul"))) == "50 points de Paul"
