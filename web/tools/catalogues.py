#!/usr/bin/env python3
"""The catalogues: every word a player, a blogger or a terminal reads, by language.

Usage::

    python web/tools/catalogues.py            # update the translations' ids, then compile
    python web/tools/catalogues.py check      # what is missing or wrong (exit 1 if anything)

Sources: ``pygames/locale/<lang>/LC_MESSAGES/<domain>.po`` (gettext PO files, read and
written with Babel, a build tool only: neither the site nor the command line ships it).

* French (``fr``) is the reference: its PO files hold every message id and its French
  words.  A message id is a dotted name (``yams.box.full``, ``site.setup.start``); plural
  entries have ``msgid_plural`` (the same id) and one ``msgstr[i]`` per form of the
  language's ``Plural-Forms``.
* Every other language translates the French files domain by domain.  `update` gives
  each translation the reference's ids (new ones empty, gone ones dropped) and, as an
  extracted comment (``#. fr: …``), the French words it translates.
* `compile` writes ``pygames/locale/<lang>.json`` (kept in the repository, so that the
  command line needs no build): ``{"language", "plural", "messages": {id: text or [forms]}}``,
  every domain in one file.  Python reads it (pygames/messages.py ``use``), and the build
  gives the same catalogue to the pages and their early scripts (web/tools/pages.py).
  An untranslated entry is left out: the reader falls back to French.
* `pseudo` makes the pseudo-language catalogue (``qps``): every message of the French one
  wrapped in ⟦ ⟧, its placeholders and markup kept; e2e/test_pseudo_language.py walks the
  pages built in it and fails on any visible text that is not wrapped, i.e. written
  outside the catalogues.
* `problems` lists what must be fixed before a release: a message without its translation,
  a translation whose ``{placeholders}`` (or markup) differ from the French, a plural
  entry whose number of forms is not the language's (tests/test_catalogues.py).

Adding a language: copy the reference's PO files with ``python web/tools/catalogues.py
init <code>`` (a Babel locale code), translate them, add the code to
pygames/messages.py ``LANGUAGES`` (and its plural rule to ``PLURAL_RULES`` and
web/static/js/words.js if it is a new one), then run this tool.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "pygames" / "locale"
REFERENCE = "fr"
PSEUDO = "qps"

#: The fields of a template, and the markup of a rules panel's entries (kept alike).
FIELD = re.compile(r"\{[\w|]+\}")
MARKUP = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?>")


def _babel():
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    return Catalog, read_po, write_po


def languages() -> list[str]:
    """Every language with PO files, the reference first."""
    found = sorted(p.name for p in LOCALE.iterdir() if (p / "LC_MESSAGES").is_dir())
    return [REFERENCE] + [code for code in found if code != REFERENCE]


def po_path(language: str, domain: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{domain}.po"


def domains() -> list[str]:
    return sorted(p.stem for p in (LOCALE / REFERENCE / "LC_MESSAGES").glob("*.po"))


def read(language: str, domain: str):
    _, read_po, _ = _babel()
    path = po_path(language, domain)
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def write(catalog, language: str, domain: str) -> None:
    _, _, write_po = _babel()
    path = po_path(language, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    import io

    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False,
             include_previous=False, ignore_obsolete=True)
    text = buffer.getvalue()
    # Babel stamps the creation date: keep the file as it was when nothing else changed.
    if path.is_file():
        old = path.read_bytes()
        if _without_dates(old) == _without_dates(text):
            return
    path.write_bytes(text)


def _without_dates(data: bytes) -> bytes:
    return re.sub(rb'"(POT-Creation-Date|PO-Revision-Date): [^"]*"', b"", data)


def _id(message) -> str:
    return message.id[0] if isinstance(message.id, (list, tuple)) else message.id


def _forms(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]


def french_of(message) -> str:
    forms = _forms(message)
    return " | ".join(forms)


def update(language: str) -> None:
    """Give *language* the reference's ids, in the reference's order, with the French words
    as a comment; translations of ids still there are kept, the others dropped."""
    Catalog, _, _ = _babel()
    for domain in domains():
        ref = read(REFERENCE, domain)
        path = po_path(language, domain)
        old = read(language, domain) if path.is_file() else None
        out = Catalog(locale=language, domain=domain, project="pygames", version="0.1.0",
                      charset="utf-8", fuzzy=False,
                      header_comment=f"# pygames: the {domain} catalogue, in {language} "
                                     f"(translated from the French, web/tools/catalogues.py).\n")
        nplurals = out.num_plurals
        for message in ref:
            if not message.id:
                continue
            key = _id(message)
            previous = old.get(message.id) if old is not None else None
            plural = isinstance(message.id, (list, tuple))
            if previous is not None and isinstance(previous.id, (list, tuple)) == plural:
                string = previous.string
            else:
                string = tuple("" for _ in range(nplurals)) if plural else ""
            out.add((key, key) if plural else key, string=string,
                    auto_comments=[f"fr: {french_of(message)}"],
                    user_comments=list(previous.user_comments) if previous is not None else [],
                    flags=[f for f in (previous.flags if previous is not None else ()) if f == "fuzzy"])
        write(out, language, domain)


def messages(language: str) -> dict:
    """A language's compiled messages: id -> text, or the list of plural forms; entries not
    translated (empty, or marked fuzzy) left out."""
    out = {}
    for domain in domains():
        path = po_path(language, domain)
        if not path.is_file():
            continue
        for message in read(language, domain):
            if not message.id or message.fuzzy:
                continue
            forms = _forms(message)
            if not all(forms):
                continue
            key = _id(message)
            if key in out:
                raise SystemExit(f"catalogues.py: message id {key!r} is in two domains ({language})")
            out[key] = forms if isinstance(message.id, (list, tuple)) else forms[0]
    return out


def plural_rule(language: str) -> str:
    Catalog, _, _ = _babel()
    return Catalog(locale=language).plural_expr


def compiled(language: str) -> dict:
    return {"language": language, "plural": plural_rule(language), "messages": messages(language)}


def _pseudo_text(text: str) -> str:
    """⟦text⟧; an entry with markup has each run of text between its tags wrapped, so that
    a part the page lays out on its own (a <small> shown as a block) reads wrapped too."""
    if MARKUP.search(text):
        return "".join(part if MARKUP.fullmatch(part) or not part.strip() else f"⟦{part}⟧"
                       for part in re.split(f"({MARKUP.pattern})", text))
    return f"⟦{text}⟧" if text.strip() else text


def pseudo() -> dict:
    """The pseudo-language: the French catalogue, every message wrapped in ⟦ ⟧ (separators
    and units too, so that a sentence assembled from pieces shows each piece)."""
    ref = compiled(REFERENCE)
    wrapped = {key: [_pseudo_text(f) for f in value] if isinstance(value, list) else _pseudo_text(value)
               for key, value in ref["messages"].items()}
    # The number's separators stay as they are: a wrapped separator would cut the number.
    for key in ("format.thousands", "format.decimal"):
        if key in ref["messages"]:
            wrapped[key] = ref["messages"][key]
    return {"language": PSEUDO, "plural": ref["plural"], "messages": wrapped}


def json_text(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0) + "\n"


def compile_all(check_only: bool = False) -> list[str]:
    """Write (or, *check_only*, compare) ``pygames/locale/<lang>.json`` for every language;
    the names of the files that were (or would be) changed."""
    changed = []
    for language in languages():
        path = LOCALE / f"{language}.json"
        text = json_text(compiled(language))
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            changed.append(str(path.relative_to(ROOT)))
            if not check_only:
                path.write_text(text, encoding="utf-8")
    return changed


#: Filters that are one language's grammar (French ``{best|de}``: "de Paul", "d'Ordinateur"):
#: a translation writes the field without them (English "from {best}"), so a field is
#: compared without them.
GRAMMAR_FILTERS = re.compile(r"\|de\}")


def _placeholders(text: str) -> list[str]:
    fields = [GRAMMAR_FILTERS.sub("}", f) for f in FIELD.findall(text)]
    return sorted(fields) + sorted(MARKUP.findall(text))


def problems(language: str) -> list[str]:
    """What keeps *language* from being complete: untranslated or fuzzy entries, fields or
    markup unlike the French, plural forms in the wrong number, ids the French lacks."""
    Catalog, _, _ = _babel()
    nplurals = Catalog(locale=language).num_plurals
    out = []
    for domain in domains():
        ref = {(_id(m)): m for m in read(REFERENCE, domain) if m.id}
        path = po_path(language, domain)
        if not path.is_file():
            out.append(f"{language}/{domain}.po: missing")
            continue
        ours = {(_id(m)): m for m in read(language, domain) if m.id}
        for key in ours.keys() - ref.keys():
            out.append(f"{language}/{domain}: {key}: not in the French catalogue")
        for key, fr in ref.items():
            m = ours.get(key)
            forms = _forms(m) if m is not None else []
            if m is None or not all(forms) or m.fuzzy:
                out.append(f"{language}/{domain}: {key}: not translated")
                continue
            plural = isinstance(fr.id, (list, tuple))
            if plural and len(forms) != nplurals:
                out.append(f"{language}/{domain}: {key}: {len(forms)} plural forms, not {nplurals}")
            expected = _placeholders(_forms(fr)[-1])
            for form in forms:
                # A singular may say "one" instead of {n}: its fields are a subset.
                found = _placeholders(form)
                if found != expected and not (plural and form is not forms[-1]
                                              and set(found) <= set(expected)):
                    out.append(f"{language}/{domain}: {key}: fields or markup {found} "
                               f"differ from the French {expected}")
    return out


def init(language: str) -> None:
    update(language)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "all"
    if command == "check":
        found = [p for lang in languages()[1:] for p in problems(lang)]
        stale = compile_all(check_only=True)
        for line in found:
            print(line)
        for name in stale:
            print(f"{name}: not compiled from the PO files (python web/tools/catalogues.py)")
        return 1 if found or stale else 0
    if command == "init":
        init(argv[1])
        return 0
    if command != "all":
        print(__doc__)
        return 2
    for language in languages()[1:]:
        update(language)
    for name in compile_all():
        print(f"wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
