"""The site's pages, written by Jinja2 (autoescaped) from web/templates/ and the registry.

* ``<id>.html`` and ``embed-<id>.html`` for every game of the registry that has its page
  parts (web/games/<id>/table.html, rules.html, page.json), and ``index.html``, one card
  per game.  Every value is escaped by the templates; the games' parts are the site's own
  markup, included as they are.
* The setup form in plain HTML (web/templates/parts/setup.html), usable before Python
  starts, and the setup's rules as JSON data in the page (:func:`setup_rules`): what
  js/setup-early.js and web/app/guard.py's ``check_setup`` both read, so that the two never
  disagree on a stored setup.
* Each page's Content-Security-Policy, which lists the hash of each of its inline scripts
  (``policy()`` in the templates; :func:`check_policy` checks the result).

* Every page once per language (:data:`SITE_LANGUAGES`, pygames.messages.LANGUAGES): the
  reference (French) at the root, the others in their own directory (``en/yams.html``,
  ``en/embed-yams.html``, ``en/index.html``), each page written while pygames.messages
  speaks its language (:func:`speaking`: ``t()``, ``markup()``, the registry's words and
  the ``|n`` filter follow it), carrying that language's catalogue (``#catalogue``, read
  by js/words.js and web/app/shell.py ``speak``), ``<html lang>``, its versions in the
  other languages (``<link rel="alternate" hreflang>``) and the header's switch to them.
  Every URL of a page in a directory starts with ``root`` ("../"), but its own
  ``pyscript.json`` and ``manifest.webmanifest``, which the build writes in that directory
  (:func:`pyscript_config`, :func:`manifest`).
* The same pages in the pseudo-language (``qps/``, web/tools/catalogues.py ``pseudo``: every
  message wrapped in ⟦ ⟧), for the tests: linked from nowhere, never precached
  (web/tools/build_sw.mjs leaves ``qps/`` out).

The registry is read through web/tools/facts.py only.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
import re
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import facts

WEB = Path(__file__).resolve().parent.parent
TEMPLATES = WEB / "templates"
GAMES = WEB / "games"

#: The preferences of this device a page may offer in its setup (web/games/<id>/page.json's
#: "preferences"; the markup is in web/templates/parts/setup.html).
SETUP_PREFERENCES = frozenset({"confirm_zero"})

#: What a stored setup (``pygames:<id>:setup``) may hold, checked in the same way by
#: js/setup-early.js and web/app/guard.py: characters of the stored text, nesting depth,
#: players, and characters (code points) of a seat; the name's limit is the rules' own.
STORED_SETUP = {"text": 100_000, "depth": 32, "players": 20, "seat": 20}

#: The Content-Security-Policy of every page; %(hashes)s: the sha256 of each inline script.
#: Nothing runs but the site's files, and no text is evaluated as code: no 'unsafe-eval'.
#: 'wasm-unsafe-eval' lets Pyodide compile WebAssembly: vendor/pyodide-*/pyodide.mjs
#: instantiates pyodide.asm.wasm (WebAssembly.instantiateStreaming) and pyodide.asm.mjs makes
#: small modules as it starts (`new WebAssembly.Module`, its feature checks).  PyScript would
#: compile its worker hooks from text with Function() as the interpreter is ready (@pyscript/
#: core's src/hooks.js createFunction): js/pyodide-fast.mjs empties them first (the site runs
#: no PyScript worker; js/runtime-internals.mjs, 6).  Pyodide's own eval() calls (EM_ASM/EM_JS
#: of a loaded shared library, emscripten_run_script) are never reached: the site loads no
#: package.  e2e/test_page_safety.py holds the pages to no violation, and checks that
#: PyScript's worker hooks, left alone, are refused.
CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'%(hashes)s; style-src 'self'; "
       "img-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
       "font-src 'self'; form-action 'none'; object-src 'none'; base-uri 'none'")
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
JS_TYPES = ("", "module", "text/javascript", "application/javascript")
POLICY_META = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


class PageError(SystemExit):
    """The pages cannot be written as the sources say (the build stops with this message)."""

    def __init__(self, message: str):
        super().__init__(f"build.py: {message}")


def script_hash(body: str) -> str:
    digest = hashlib.sha256(body.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def policy(*scripts: str) -> str:
    """The page's policy, allowing exactly these inline scripts (empty ones are none)."""
    hashes = "".join(" " + h for h in dict.fromkeys(script_hash(str(s)) for s in scripts if s))
    return CSP % {"hashes": hashes}


def inline_script_hashes(page: str) -> list[str]:
    """'sha256-…' of every inline JavaScript script of a page (not src=, not type="py")."""
    hashes = []
    for m in INLINE_SCRIPT.finditer(page):
        attrs = m.group("attrs")
        kind = re.search(r'\btype="([^"]*)"', attrs)
        if re.search(r"\bsrc=", attrs) or (kind and kind.group(1).lower() not in JS_TYPES):
            continue
        hashes.append(script_hash(m.group("body")))
    return hashes


def check_policy(name: str, page: str) -> None:
    """The page has one policy, before any script, and it allows exactly its inline scripts."""
    metas = POLICY_META.findall(page)
    if len(metas) != 1 or page.index('http-equiv="Content-Security-Policy"') > page.find("<script"):
        raise PageError(f"{name} must hold one Content-Security-Policy, before any script")
    allowed = set(re.findall(r"'sha256-[^']+'", html.unescape(metas[0])))
    if allowed != set(inline_script_hashes(page)):
        raise PageError(f"{name}: its policy does not list exactly its inline scripts")


def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(loader=FileSystemLoader([TEMPLATES, WEB]), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    # The setup's JSON as it was written by hand before: French text kept as it is
    # (tojson still escapes <, >, & and ' so that nothing in it can close the element).
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    env.globals["policy"] = policy
    env.filters["n"] = lambda value: facts.thousands(str(value))  # 3000 shown as "3 000"
    env.globals["t"] = words
    env.globals["markup"] = markup
    return env


def words(msg_id: str, **params) -> str:
    """A catalogue entry in the page's language, as text (the template escapes it)."""
    from pygames.messages import text

    return text(msg_id, **params)


#: The markup a rules panel's entry may hold (anything else stops the build).
ALLOWED_MARKUP = re.compile(r"</?(?:strong|em|b|i|kbd|abbr|small|code|br|span|q|sup|sub)"
                            r"(?: (?:class|title)=\"[^\"<>]*\")*\s*/?>")


def markup(msg_id: str, **params):
    """A catalogue entry that holds inline markup (a rules panel's <strong>, <kbd>…): its
    tags must be of ALLOWED_MARKUP, its parameters are escaped."""
    from markupsafe import Markup, escape

    from pygames.messages import template

    source = template(msg_id, params)
    rest = ALLOWED_MARKUP.sub("", source)
    if "<" in rest or ">" in rest:
        raise PageError(f"message {msg_id!r} holds markup that a page may not: {source!r}")
    return Markup(source.format(**{k: escape(v) for k, v in params.items()}) if params else source)


def paged(families: list[facts.FamilyFacts]) -> list[facts.FamilyFacts]:
    """The families whose page parts are written (a game may be registered first)."""
    return [f for f in families if (GAMES / f.id / "table.html").is_file()]


def _message_or_text(value: str) -> str:
    """A page.json text: a catalogue id (``panel.yams.description``) in the page's language,
    or text as it is written."""
    from pygames.messages import catalogue, text

    if re.fullmatch(r"[\w-]+(?:\.[\w-]+)+", value) and catalogue().get(value) is not None:
        return text(value)
    return value


def page_facts(family: facts.FamilyFacts) -> dict:
    """A game page's own facts: web/games/<id>/page.json over the registry's defaults (its
    texts as catalogue ids, or as text)."""
    path = GAMES / family.id / "page.json"
    extra = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    unknown = [p for p in extra.get("preferences", []) if p not in SETUP_PREFERENCES]
    if unknown:
        raise PageError(f"unknown setup preference(s) in {family.id}/page.json: {unknown}")
    # page.json names its title and description by their catalogue ids (domain `panels`).
    return {
        "description": _message_or_text(extra.get("description", family.description)),
        "rules_title": (_message_or_text(extra["rules_title"]) if "rules_title" in extra
                        else words("page.rules.title", game=family.title)),
        "preferences": list(extra.get("preferences", [])),
    }


def first_players(game: facts.RulesetFacts) -> list[tuple[str, str]]:
    """The player rows the setup starts with (what the shell would build): the ruleset's
    default players, within its numbers, each with a seat it offers."""
    seats = [s for s, _ in game.seats]
    players = [(name, seat if seat in seats else "human")
               for name, seat in game.default_players][:game.max_players]
    while len(players) < game.min_players:
        players.append((words("player.default", n=len(players) + 1), "simple" if "simple" in seats else "human"))
    return players


def setup_rules(family: facts.FamilyFacts) -> dict:
    """The setup's rules as data, written into the page (``#setup-data``): each ruleset's
    numbers of players, seats, options with their choices and default players, and what a
    stored setup may hold.  js/setup-early.js builds the form and checks the stored setup
    from it; the shell's guard.check_setup reads the same JSON from the page."""
    return {
        "family": family.id,
        "stored": {**STORED_SETUP, "name": facts.max_name_length()},
        "rulesets": {
            g.id: {
                "min": g.min_players, "max": g.max_players,
                "seats": [[seat, label] for seat, label in g.seats],
                "options": [{"id": o.id, "default": o.default, "choices": list(o.choices)}
                            for o in g.options],
                "players": [{"name": n, "seat": s} for n, s in g.default_players],
            } for g in family.rulesets
        },
    }


def family_context(family: facts.FamilyFacts, vendor: dict, snapshot: str | None,
                   language: "Language | None" = None, name: str = "",
                   site_url: str | None = None) -> dict:
    language = language or SITE_LANGUAGES[0]
    first = family.rulesets[0]
    root = language.root
    return {"family": family, "page": page_facts(family), "first": first,
            "players": first_players(first), "rules": setup_rules(family),
            "vendor": {k: root + v for k, v in vendor.items()},
            "snapshot": root + snapshot if snapshot else snapshot,
            **language_context(language, name, site_url)}


@dataclass(frozen=True)
class Language:
    """A language of the pages: its code (pygames.messages), the directory of its pages in
    the output ("" for the reference's, at the root), its ``<html lang>``, and whether the
    site links to it (the pseudo-language's pages are for the tests only)."""

    code: str
    directory: str
    html_lang: str
    linked: bool = True

    @property
    def root(self) -> str:
        """From one of its pages to the site's root."""
        return "../" * self.directory.count("/")


def _site_languages() -> tuple[Language, ...]:
    facts._registry()  # the package on the path
    from pygames.messages import LANGUAGES, REFERENCE

    codes = [REFERENCE] + [code for code in LANGUAGES if code != REFERENCE]
    return tuple(Language(code, "" if code == REFERENCE else f"{code}/", code) for code in codes)


#: The languages of the site, the reference (at the root) first.
SITE_LANGUAGES = _site_languages()
#: The pseudo-language (web/tools/catalogues.py): its pages in qps/, for the tests.
#: "en-XA" is the tag usual for pseudo-localisation (a valid BCP 47 tag, private region).
PSEUDO = Language("qps", "qps/", "en-XA", linked=False)
LANGUAGE_NAMES_FALLBACK = {"qps": "Pseudo"}


def language_names() -> dict[str, str]:
    from pygames.messages import LANGUAGES

    return {**LANGUAGE_NAMES_FALLBACK, **LANGUAGES}


def _page_path(language: Language, name: str) -> str:
    """Page *name* in *language*, from the site's root (a home page by its directory)."""
    return language.directory + ("" if name == "index.html" else name)


def _href(from_language: Language, to_language: Language, name: str) -> str:
    """The URL of page *name* in *to_language*, from the same page in *from_language*
    (a home page by its directory: "./", "../", "en/")."""
    path = _page_path(to_language, name)
    return from_language.root + path if (from_language.root + path) else "./"


def _absolute(site_url: str, to_language: Language, name: str) -> str:
    """The full URL of page *name* in *to_language* on the site at *site_url*."""
    return urljoin(site_url.rstrip("/") + "/", _page_path(to_language, name))


def language_context(language: Language, name: str, site_url: str | None = None) -> dict:
    """What a page says of its language: ``html_lang``, ``root``, its catalogue, its
    versions (``alternates``: (hreflang, href, relative href), x-default the reference's;
    href a full URL when the site's *site_url* is known, as search engines want them) and the
    header's ``switch`` to the other languages (none on the pseudo-language's pages)."""
    linked = [lang for lang in SITE_LANGUAGES if lang.linked]
    alternates = []
    switch = []
    if language.linked and name:
        def version(code: str, lang: Language) -> tuple[str, str, str]:
            relative = _href(language, lang, name)
            return code, (_absolute(site_url, lang, name) if site_url else relative), relative
        alternates = [version(lang.code, lang) for lang in linked]
        alternates.append(version("x-default", SITE_LANGUAGES[0]))
        names = language_names()
        switch = [{"code": lang.code, "name": names[lang.code], "href": _href(language, lang, name),
                   "title": _in(lang.code, "page.language.title")}
                  for lang in linked if lang.code != language.code]
    return {"lang": language.code, "html_lang": language.html_lang, "root": language.root,
            "catalogue": page_words(page_catalogue(language.code), name), "alternates": alternates,
            "switch": switch}


def _in(code: str, msg_id: str, **params) -> str:
    """An entry in another language than the page's (the switch's title, said in the
    language it leads to)."""
    from pygames import messages

    with speaking(code):
        return messages.text(msg_id, **params)


@functools.lru_cache(maxsize=None)
def page_catalogue(language: str) -> dict:
    """The catalogue a page carries (``#catalogue``): the compiled one of its language,
    complete (a page has no other: an entry the translation lacks is the reference's), or
    the pseudo-language's (web/tools/catalogues.py ``pseudo``)."""
    from pygames.locale import read
    from pygames.messages import REFERENCE

    if language == PSEUDO.code:
        import catalogues

        return catalogues.pseudo()
    data = read(language)
    if language == REFERENCE:
        return data
    return {**data, "messages": {**read(REFERENCE)["messages"], **data["messages"]}}


#: Each game's key in the catalogues' ids ("yams.box.full", "view.421.…", "rules.landais.…").
GAME_KEYS = {"yams": "yams", "421": "421", "linotte": "linotte", "de-landais": "landais"}


def page_words(catalogue: dict, name: str) -> dict:
    """What a game page's catalogue keeps: all but the command line's words, the home
    page's, and the other games' rules, views and panels, which that page never says (their
    names stay: a replay link of another game says which game it is); the home page keeps
    everything.  (Each page carries its words:
    the others would cost every page about 15 KB of gzip.)"""
    family = name.removeprefix("embed-").removesuffix(".html") if name else ""
    if family not in GAME_KEYS:
        return catalogue
    others = [fid for fid in GAME_KEYS if fid != family]
    drop = tuple(["cli.", "home."]
                 + [f"{GAME_KEYS[f]}." for f in others]
                 + [f"{kind}.{GAME_KEYS[f]}." for f in others for kind in ("view", "rules", "table", "page")])
    return {**catalogue, "messages": {k: v for k, v in catalogue["messages"].items() if not k.startswith(drop)}}


@contextmanager
def speaking(code: str):
    """pygames.messages speaks *code* (its page catalogue) inside, and what it spoke before
    after."""
    from pygames import messages

    before = messages._active
    messages.use(code, page_catalogue(code))
    try:
        yield
    finally:
        messages._active = before


def render_pages(vendor: dict, snapshot: str | None = None,
                 families: list[facts.FamilyFacts] | None = None,
                 languages: tuple[Language, ...] | None = None,
                 site_url: str | None = None) -> dict[str, str]:
    """Every page, by its path in the output: ``<id>.html`` and ``embed-<id>.html`` for each
    paged family, and ``index.html``, in each language's directory (the reference's at the
    root, ``en/…``, ``qps/…``).  *vendor*: the output's paths of the runtimes (``pyodide``,
    ``pyscript``); *snapshot*: the memory snapshot's path (the game pages' inline script
    starts reading it), or None; *families*: the registry's (read again in each language)
    unless given; *languages*: :data:`SITE_LANGUAGES` and :data:`PSEUDO` unless given;
    *site_url*: the site's full URL where it is deployed (the versions' links are then full
    URLs), or None."""
    env = environment()
    pages = {}
    for language in (languages or (*SITE_LANGUAGES, PSEUDO)):
        with speaking(language.code):
            paged_families = paged(facts.families() if families is None else families)
            at = language.directory
            for family in paged_families:
                for template, name in (("game.html", f"{family.id}.html"),
                                       ("embed.html", f"embed-{family.id}.html")):
                    context = family_context(family, vendor, snapshot, language, name, site_url)
                    pages[at + name] = env.get_template(template).render(context)
            home = "root" if language is SITE_LANGUAGES[0] else ""
            pages[at + "index.html"] = env.get_template("index.html").render(
                families=paged_families, home=home,
                **language_context(language, "index.html", site_url))
    for name, text in pages.items():
        check_policy(name, text)
    return pages


def manifests(languages: tuple[Language, ...] | None = None) -> dict[str, str]:
    """The installable app's manifest of each language (``manifest.webmanifest`` in its
    directory, where its pages link it), from web/templates/manifest.webmanifest."""
    env = environment()
    out = {}
    for language in (languages or (*SITE_LANGUAGES, PSEUDO)):
        with speaking(language.code):
            out[language.directory + "manifest.webmanifest"] = env.get_template(
                "manifest.webmanifest").render(**language_context(language, ""))
    return out


def pyscript_config(config: dict, language: Language) -> dict:
    """PyScript's config for the pages of *language*: its ``interpreter`` resolves against
    the page's URL (web/tools/build.py), so a page in a directory has its own."""
    interpreter = config["interpreter"]
    if language.root and interpreter.startswith("./"):
        interpreter = language.root + interpreter[2:]
    return {**config, "interpreter": interpreter}
