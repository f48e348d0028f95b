"""The words: the catalogues every sentence of the core, the games and the command line
comes from, and the machinery that turns a game's facts into text.

The rules state facts (`Outcome`, typed events, errors carrying a `Msg`: a message id and
its parameters); each game's ``messages.py`` renders its facts as messages; the words
themselves are in the catalogues, never in the code:

* `Msg(id, **params)`: a message as data.  Parameters are plain values, other `Msg`
  (rendered in place), `Name` (a player's name, placed as data, never searched for in the
  text afterwards) or lists of names ("Léa, Paul et Zoé").
* `render(msg)` -> pieces ``[(text, is_name), …]``: the page puts each name in its own
  ``<bdi>``, a terminal isolates it (`isolated`), so a right-to-left name cannot turn the
  sentence around.  `text(msg)` is the plain string.
* A catalogue entry is a template with ``{param}`` fields, or its plural forms, chosen by
  the parameter ``n`` under the language's plural rule (French: 0 and 1 singular; English:
  1 only).  A field may name a filter after a bar: ``{name|de}`` gives "de Paul",
  "d'Ordinateur"; ``{points|n}`` gives "3\u202f000" in French, "3,000" in English.

The catalogues: ``pygames/locale/<lang>/LC_MESSAGES/<domain>.po`` are the source (French
is the reference, the others translate it), compiled by web/tools/catalogues.py (Babel, a
build tool only) to ``pygames/locale/<lang>.json``, which `use` reads: the command line,
the tests and the pages (in Pyodide, after the memory snapshot is restored, so that the
snapshot holds no language).  An id missing from a catalogue falls back to the French
one; an id nobody wrote shows as itself, never a crash.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Mapping, Sequence

Pieces = list  # [(text, is_name), ...]


class Msg:
    """A message: its catalogue id and parameters (what errors and facts carry)."""

    __slots__ = ("id", "params")

    def __init__(self, id: str, /, **params: Any):
        self.id = id
        self.params = params

    def __eq__(self, other):
        return isinstance(other, Msg) and (self.id, self.params) == (other.id, other.params)

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Msg({self.id!r}{args})"

    def __str__(self):
        return text(self)


class Name(str):
    """A player's name inside a message: rendered as its own piece."""

    __slots__ = ()


class AnyOf(tuple):
    """Alternatives inside a message: "A ou B", "A, B ou C"."""

    __slots__ = ()


class Series(tuple):
    """Items listed with commas only: "A, B, C"."""

    __slots__ = ()


#: The languages the site and the command line speak, by code, each named in itself.
LANGUAGES = {"fr": "Français", "en": "English"}
#: The reference language: every id is written in it first; the others fall back to it.
REFERENCE = "fr"

#: The plural rules the catalogues may name (their header's ``plural=``), as functions of n
#: giving the index of the form.  A new language whose rule is not here adds it here and in
#: web/static/js/words.js.
PLURAL_RULES = {
    "(n > 1)": lambda n: int(abs(n) > 1),   # French: 0 and 1 take the singular
    "(n != 1)": lambda n: int(abs(n) != 1),  # English
}


class Catalogue:
    """One language's messages (id -> template, or a list of plural forms), with its
    plural rule, over the reference catalogue for the ids it lacks."""

    def __init__(self, language: str, messages: Mapping[str, Any], plural: str = "(n > 1)",
                 fallback: "Catalogue | None" = None):
        if plural not in PLURAL_RULES:
            raise ValueError(f"unknown plural rule {plural!r} (known: {', '.join(PLURAL_RULES)})")
        self.language = language
        self.messages = dict(messages)
        self.plural = plural
        self.fallback = fallback
        self._index = PLURAL_RULES[plural]

    @classmethod
    def from_json(cls, data: Mapping[str, Any], fallback: "Catalogue | None" = None) -> "Catalogue":
        return cls(data["language"], data["messages"], data.get("plural", "(n > 1)"), fallback)

    def get(self, msg_id: str) -> Any:
        entry = self.messages.get(msg_id)
        if entry is None and self.fallback is not None:
            return self.fallback.get(msg_id)
        return entry

    def template(self, msg_id: str, params: Mapping[str, Any]) -> str:
        entry = self.get(msg_id)
        if entry is None:
            return msg_id  # an id nobody wrote shows as itself, never a crash
        if isinstance(entry, (list, tuple)):
            n = params.get("n", 0)
            index = self._index(n) if isinstance(n, (int, float)) else 0
            return entry[min(index, len(entry) - 1)]
        return entry


_loaded: dict[str, Catalogue] = {}
_active: Catalogue | None = None


def load(language: str, data: Mapping[str, Any] | None = None) -> Catalogue:
    """A language's catalogue: *data* (its compiled JSON) or ``locale/<language>.json``."""
    if data is None and language in _loaded:
        return _loaded[language]
    if data is None:
        data = _locale().read(language)
    fallback = None if language == REFERENCE else _reference()
    cat = Catalogue.from_json(data, fallback)
    _loaded[language] = cat
    return cat


def _locale():
    """pygames.locale: the compiled catalogues' files and the terminal's language, for the
    command line and the tests.  Named by a string, so that a page's archive leaves it out
    (web/tools/runtime follows imports): a page gives its catalogue as data (`use`)."""
    from importlib import import_module

    return import_module(__package__ + ".locale")


def _reference() -> Catalogue | None:
    """The French catalogue under another language, if it is at hand (a page gives its own
    language's catalogue only, complete: tests/test_catalogues.py)."""
    if REFERENCE in _loaded:
        return _loaded[REFERENCE]
    try:
        return load(REFERENCE)
    except (ValueError, OSError, ImportError):
        return None


def use(language: str, data: Mapping[str, Any] | None = None) -> Catalogue:
    """Speak *language* from now on (its catalogue loaded once)."""
    global _active
    _active = load(language, data)
    return _active


def catalogue() -> Catalogue:
    """The language spoken: the one `use` chose, else the environment's (`from_environment`)."""
    if _active is None:
        use(_locale().from_environment(LANGUAGES, REFERENCE))
    return _active


def language() -> str:
    return catalogue().language


_FIELD = re.compile(r"\{(\w+)(?:\|(\w+))?\}")


def _vowel(word: str) -> bool:
    first = word.lstrip("«\u00a0 ")[:1].lower()
    return bool(first) and first in "aeiouyàâäéèêëîïôöùûüœh"


def de(word: str) -> str:
    """"de Paul", "d'Ordinateur": the preposition, elided before a vowel or a mute h."""
    return ("d'" if _vowel(word) else "de ") + word


def thousands(text: str) -> str:
    """"3000" as "3\u202f000" in French (a narrow no-break space between the thousands),
    "3,000" in English (the catalogue's ``format.thousands``); other text as it is."""
    sign, digits = ("−", text[1:]) if text[:1] in "-−" else ("", text)
    if not digits.isdigit() or len(digits) < 4:
        return text
    groups = []
    while digits:
        digits, groups = digits[:-3], [digits[-3:], *groups]
    return sign + word("format.thousands").join(groups)


FILTERS = {"de": de, "n": thousands}


def decimal(value: float, places: int = 1, sign: bool = False) -> str:
    """254.6 as "254,6" in French, "254.6" in English (the catalogue's ``format.decimal``);
    *sign*: "+0,25", "−0,50" (a true minus sign, as every negative)."""
    written = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    return written.replace(".", word("format.decimal")).replace("-", "\u2212")


def percent(fraction: float, places: int = 1) -> str:
    """0.123 as "12,3\u00a0%" in French, "12.3%" in English (``format.percent``)."""
    return template("format.percent", {}).replace("{n}", decimal(100 * fraction, places))


def word(msg_id: str) -> str:
    """A catalogue entry as it is written (spaces kept): a separator, a unit."""
    return catalogue().template(msg_id, {})


def _join(parts: list[Pieces], last: str | None = None) -> Pieces:
    """'A', 'A et B', 'A, B et C' (pieces of each kept; "and" in English)."""
    last = word("format.and") if last is None else last
    out: Pieces = []
    for i, part in enumerate(parts):
        if i:
            out.append((last if i == len(parts) - 1 else ", ", False))
        out.extend(part)
    return out


def _value(value: Any) -> Pieces:
    if isinstance(value, Name):
        return [(str(value), True)]
    if isinstance(value, Msg):
        return render(value)
    if isinstance(value, AnyOf):
        return _join([_value(v) for v in value], word("format.or"))
    if isinstance(value, Series):
        return _join([_value(v) for v in value], ", ")
    if isinstance(value, (list, tuple)):
        return _join([_value(v) for v in value])
    if isinstance(value, bool):
        return [(word("word.yes" if value else "word.no"), False)]
    return [(str(value), False)]


def template(msg_id: str, params: Mapping[str, Any]) -> str:
    return catalogue().template(msg_id, params)


def render(msg: Msg | str, /, **params: Any) -> Pieces:
    """A message (or an id and its parameters) as pieces, names marked."""
    if not isinstance(msg, Msg):
        msg = Msg(msg, **params)
    source = template(msg.id, msg.params)
    out: Pieces = []
    at = 0
    for m in _FIELD.finditer(source):
        if m.start() > at:
            out.append((source[at:m.start()], False))
        key, flt = m.group(1), m.group(2)
        if key not in msg.params:
            out.append((m.group(0), False))
        else:
            value = msg.params[key]
            pieces = _value(value)
            if flt:
                joined = "".join(t for t, _ in pieces)
                word = FILTERS[flt](joined)
                if word.endswith(joined):  # a word before the value ("d'", "de ")
                    if word != joined:
                        out.append((word[: len(word) - len(joined)], False))
                else:  # the value itself written otherwise (a number's thousands)
                    pieces = [(word, False)]
            out.extend(pieces)
        at = m.end()
    if at < len(source):
        out.append((source[at:], False))
    return _merged(out)


def _merged(pieces: Pieces) -> Pieces:
    out: Pieces = []
    for chunk, is_name in pieces:
        if not chunk:
            continue
        if out and not is_name and not out[-1][1]:
            out[-1] = (out[-1][0] + chunk, False)
        else:
            out.append((chunk, is_name))
    return out


def plain(pieces: Iterable[tuple[str, bool]]) -> str:
    return "".join(chunk for chunk, _ in pieces)


def text(msg: Msg | str, /, **params: Any) -> str:
    """A message as plain text."""
    return plain(render(msg, **params))


FSI, PDI = "\u2068", "\u2069"


#: The categories of the characters that steer a terminal's text rather than draw: controls,
#: formats (bidi overrides and isolates, zero-width marks) and line separators.
STEERING = ("Cc", "Cf", "Zl", "Zp")
#: What a name keeps of them: the joiners, which Persian spellings and emoji sequences need
#: and which move nothing.
JOINERS = "\u200c\u200d"


def terminal_name(name: str) -> str:
    """A name as a terminal shows it: its `STEERING` characters (a right-to-left override,
    an isolate that would close ours…) but the joiners as U+FFFD."""
    return "".join("\ufffd" if unicodedata.category(c) in STEERING and c not in JOINERS else c
                   for c in name)


def isolated(pieces: Iterable[tuple[str, bool]]) -> str:
    """Plain text with every name isolated (first strong isolate … pop) and shown as
    `terminal_name`, for a terminal: a name cannot turn the line around."""
    return "".join(f"{FSI}{terminal_name(chunk)}{PDI}" if is_name else chunk
                   for chunk, is_name in pieces)


def sentences(msgs: Sequence[Msg | None]) -> Pieces:
    """Several messages one after the other, a space between them."""
    out: Pieces = []
    for msg in msgs:
        if msg is None:
            continue
        if out:
            out.append((" ", False))
        out.extend(render(msg))
    return _merged(out)


def points_reason(outcome, names: Sequence[str], unit: str = "count.points") -> Msg:
    """The reason of a game won on points (an `Outcome`), every game's default."""
    top = outcome.winners
    points = Msg(unit, n=outcome.scores[top[0]])
    if len(names) == 1:
        return Msg("outcome.solo", points=points)
    if outcome.draw:
        return Msg("outcome.draw", players=[Name(names[p]) for p in top], points=points)
    return Msg("outcome.won", player=Name(names[top[0]]), points=points)


# --- the core's and the command line's words ------------------------------------------

#: How a yes or a no may be written in the CLI's -o and in embed URLs, in every language.
YES_WORDS = ("1", "true", "yes", "oui", "on")
NO_WORDS = ("0", "false", "no", "non", "off")

