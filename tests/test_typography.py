"""French typography in every text a player reads (the rule: web/tools/typography.py): a
no-break space before « : », a narrow one before « ; ! ? », no-break spaces inside
« guillemets », so that no line of the page, the rules or the terminal starts with a colon or
a lone mark.

Checked where the words are written: every entry of the catalogues (the rules' and the
command line's words), the string literals of the page's Python (web/app) and early
scripts (web/static/js), and the text and readable attributes of every template and
rules panel (web/templates, web/games).  e2e/test_contrast.py reads the same rule off the
pages as drawn.
"""

from __future__ import annotations

import html.parser
import re
from pathlib import Path

import pytest
from support import python_strings
from typography import faults  # web/tools/typography.py

from pygames import messages

ROOT = Path(__file__).resolve().parent.parent

NBSP, NNBSP = "\u00a0", "\u202f"


def test_the_rule_finds_what_it_should():
    assert faults("Tour 3 : Léa") and faults("Bravo !") and faults("« oui »")
    assert faults("Bravo!") and faults("But: 3 000") and faults("Jouer ?")
    assert not faults(f"Tour 3{NBSP}: Léa") and not faults(f"Bravo{NNBSP}!")
    assert not faults(f"«{NBSP}oui{NBSP}»") and not faults(f"Jouer{NNBSP}?")
    assert not faults("12:30") and not faults("?pace=300") and not faults("a:hover")
    assert not faults("https://example.org/x?y=1")
    assert not faults("import random as _r; _r.seed(1)", french=False)
    assert faults("Copié!", french=False) and faults("Copié !", french=False)


# --- the catalogues --------------------------------------------------------------------------

def catalogue_texts():
    for key, entry in sorted(messages.load("fr").messages.items()):
        for text in (entry if isinstance(entry, list) else (entry,)):
            if isinstance(text, str):
                yield key, text


def test_every_catalogue_entry_keeps_its_marks_with_the_word_before():
    found = {key: faults(text) for key, text in catalogue_texts() if faults(text)}
    assert found == {}


# --- the page's Python and early scripts ------------------------------------------------------




JS_STRING = re.compile(r"""(?<![\w$])(["'`])((?:\\.|(?!\1)[^\\\n])*)\1""")


def js_strings(path: Path):
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "*", "/*")):
            continue
        for m in JS_STRING.finditer(line):
            body = m.group(2)
            if m.group(1) == "`":  # a template literal's ${…} is code
                body = re.sub(r"\$\{[^}]*\}", "{}", body)
            yield lineno, body.encode().decode("unicode_escape", "ignore") if "\\u" in body else body


def source_faults(strings):
    return [f"{lineno}: {hit!r}" for lineno, text in strings for hit in faults(text, french=False)]


PAGE_SOURCES = sorted((ROOT / "web" / "app").glob("*.py")) + sorted(
    p for p in (ROOT / "web" / "static" / "js").glob("*.*js") if p.suffix in (".js", ".mjs"))
PAGE_SOURCES.append(ROOT / "web" / "static" / "embed.js")


@pytest.mark.parametrize("path", PAGE_SOURCES, ids=lambda p: p.name)
def test_the_pages_own_words_keep_their_marks_with_the_word_before(path):
    strings = python_strings(path) if path.suffix == ".py" else js_strings(path)
    assert source_faults(strings) == []


# --- the templates and rules panels -----------------------------------------------------------

READ_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "content", "aria-description"}
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[tuple[int, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.found.append((self.getpos()[0], value))

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.found.append((self.getpos()[0], data))


#: early-snapshot.html is a script's body (a macro the head template puts in <script>).
HTML_SOURCES = sorted(p for p in (ROOT / "web" / "templates").rglob("*.html")
                      if p.name != "early-snapshot.html") + sorted((ROOT / "web" / "games").rglob("*.html"))


@pytest.mark.parametrize("path", HTML_SOURCES, ids=lambda p: str(p.relative_to(ROOT / "web")))
def test_the_templates_and_rules_keep_their_marks_with_the_word_before(path):
    parser = _Text()
    parser.feed(JINJA.sub(" ", path.read_text(encoding="utf-8")))
    found = [f"{lineno}: {hit!r}" for lineno, text in parser.found
             for hit in faults(re.sub(r"[ \t\r\n]+", " ", text))]
    assert found == []
