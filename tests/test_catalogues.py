"""The catalogues (web/tools/catalogues.py): the English one is complete (every id of every
French domain translated, with the French fields and markup), the compiled JSON files are
those of the PO files, the pseudo-language wraps every message, and every compiled plural
rule is one pygames/messages.py knows; and the checker itself finds what it must find."""

from __future__ import annotations

import json
import re
import shutil

import catalogues
import pytest

from pygames import messages

FRENCH = json.loads((catalogues.LOCALE / "fr.json").read_text(encoding="utf-8"))
ENGLISH = json.loads((catalogues.LOCALE / "en.json").read_text(encoding="utf-8"))


def fields(text: str) -> list[str]:
    """A template's fields, without the French-only `de` filter ("{best|de}" is "{best}")."""
    return sorted(re.sub(r"\|de\}", "}", f) for f in re.findall(r"\{[\w|]+\}", text))


def test_english_is_complete_and_its_fields_are_the_french_ones():
    assert catalogues.problems("en") == []


def test_english_covers_every_french_domain():
    assert "en" in catalogues.languages()
    for domain in catalogues.domains():
        assert catalogues.po_path("en", domain).is_file(), domain


def test_every_french_message_has_its_english_one_with_the_same_fields():
    """From the compiled files the pages and the command line read (not the PO files)."""
    french, english = FRENCH["messages"], ENGLISH["messages"]
    assert french.keys() - english.keys() == set()
    assert english.keys() - french.keys() == set()
    for key, fr in french.items():
        en = english[key]
        assert isinstance(en, list) == isinstance(fr, list), key
        if isinstance(fr, list):
            assert len(en) == 2, key  # English: one, other
            assert fields(en[-1]) == fields(fr[-1]), key
            assert set(fields(en[0])) <= set(fields(fr[-1])), key
        else:
            assert fields(en) == fields(fr), key
            assert sorted(catalogues.MARKUP.findall(en)) == sorted(catalogues.MARKUP.findall(fr)), key


def test_english_uses_no_french_typography():
    """No guillemets, no no-break space before a colon or a mark, no French thousands."""
    for key, value in ENGLISH["messages"].items():
        for text in value if isinstance(value, list) else [value]:
            if key == "format.thousands":
                continue
            assert "«" not in text and "»" not in text, key
            assert not re.search("[\u00a0\u202f][:;!?%]", text), key


def test_the_compiled_files_are_those_of_the_po_files():
    assert catalogues.compile_all(check_only=True) == []


def test_the_pseudo_language_wraps_every_message_and_keeps_its_fields():
    pseudo = catalogues.pseudo()
    french = catalogues.compiled("fr")["messages"]
    assert pseudo["messages"].keys() == french.keys()
    assert pseudo["plural"] in messages.PLURAL_RULES
    for key, value in pseudo["messages"].items():
        original = french[key]
        if key in ("format.thousands", "format.decimal"):
            assert value == original
            continue
        for wrapped, text in zip(value if isinstance(value, list) else [value],
                                 original if isinstance(original, list) else [original]):
            if text.strip() and not catalogues.MARKUP.search(text):
                assert wrapped == f"⟦{text}⟧", key
            elif text.strip():  # each run of text between the tags wrapped, the tags kept
                assert catalogues.MARKUP.sub("", wrapped) == "".join(
                    f"⟦{run}⟧" if run.strip() else run for run in catalogues.MARKUP.split(text)), key
                assert catalogues.MARKUP.findall(wrapped) == catalogues.MARKUP.findall(text), key
            assert fields(wrapped) == fields(text), key


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_compiled_plural_rule_is_known(language):
    data = json.loads((catalogues.LOCALE / f"{language}.json").read_text(encoding="utf-8"))
    assert data["language"] == language
    assert data["plural"] in messages.PLURAL_RULES
    messages.Catalogue.from_json(data)  # refuses an unknown rule


def test_the_plural_rules_count_as_each_language_does():
    french, english = messages.PLURAL_RULES["(n > 1)"], messages.PLURAL_RULES["(n != 1)"]
    assert [french(n) for n in (0, 1, 2)] == [0, 0, 1]
    assert [english(n) for n in (0, 1, 2)] == [1, 0, 1]


# --- the checker finds what it must find (a copy of the catalogues, spoiled) ------------


@pytest.fixture
def spoiled(tmp_path, monkeypatch):
    """A copy of the PO files the checker reads instead of the real ones."""
    shutil.copytree(catalogues.LOCALE / "fr", tmp_path / "fr")
    shutil.copytree(catalogues.LOCALE / "en", tmp_path / "en")
    monkeypatch.setattr(catalogues, "LOCALE", tmp_path)

    def edit(language, domain, key, string):
        cat = catalogues.read(language, domain)
        message = next(m for m in cat if m.id and catalogues._id(m) == key)
        message.string = string
        catalogues.write(cat, language, domain)

    return edit


def test_the_checker_finds_an_untranslated_entry(spoiled):
    spoiled("en", "yams", "yams.box.full", "")
    assert catalogues.problems("en") == ["en/yams: yams.box.full: not translated"]


def test_the_checker_finds_a_missing_plural_form(spoiled):
    spoiled("en", "core", "count.tokens", ("{n} token", ""))
    assert catalogues.problems("en") == ["en/core: count.tokens: not translated"]


def test_the_checker_finds_a_field_unlike_the_french(spoiled):
    spoiled("en", "le421", "421.lost", "{name} has all the tokens and loses the game.")
    found = catalogues.problems("en")
    assert len(found) == 1 and found[0].startswith("en/le421: 421.lost: fields or markup")


def test_the_checker_finds_a_thousands_filter_dropped(spoiled):
    spoiled("en", "landais", "landais.journal.points", "{points} points")
    assert len(catalogues.problems("en")) == 1


def test_the_checker_lets_english_drop_the_french_de_filter_only(spoiled):
    """"{best|de}" is French grammar ("de Paul", "d'Ordinateur"): English writes "from {best}"."""
    assert "{best|de}" in catalogues.french_of(
        next(m for m in catalogues.read("fr", "le421") if m.id == "421.round.decharge"))
    spoiled("en", "le421", "421.round.decharge",
            "{worst} ({worst_hand}) receives {tokens} from {best} ({best_hand}){rampos}{short}.")
    assert catalogues.problems("en") == []


def test_the_checker_finds_a_new_french_id(spoiled):
    cat = catalogues.read("fr", "core")
    cat.add("test.new", string="Nouveau")
    catalogues.write(cat, "fr", "core")
    assert catalogues.problems("en") == ["en/core: test.new: not translated"]
