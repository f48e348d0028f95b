#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` (gitignored).

Usage::

    python web/tools/build.py [--out dist] [--base /]

What ends up in the output directory:

* every file of ``web/`` except the build tooling (``build.py``, ``serve.py``,
  ``runtime/``, ``__pycache__``/``*.pyc``) and ``web/app/`` (see below) -- the
  pages, js, css, ...; the game pages get, in place of their
  ``<!-- runtime:early-snapshot -->`` line, the inline script that starts
  reading the memory snapshot (EARLY_SNAPSHOT);
* ``pygames-<hash>.tar.gz``: every ``.py`` module of the ``pygames/`` package,
  found by walking the tree (no hand-kept list), stored as ``pygames/...``, and
  the page's modules (``web/app/*.py``) at its top, so that writing it into
  Pyodide's working directory makes ``import pygames`` and ``import shell``
  work (js/pyodide-fast.mjs does, before PyScript gets the interpreter: no
  ``files`` in pyscript.json); built as ``pygames.zip``, to which web/tools/runtime/
  adds the bytecode of the start-up modules and of PyScript's own package, then
  turns it into a reproducible .tar.gz named after its content (used by the tests'
  harness pages; no game page loads it, the service worker leaves it out);
* ``pygames-<id>-<hash>.tar.gz`` for each game page: the part of those files that page
  may import (:func:`page_roots`: the shell, its view, its game module and what they
  import; not the other games, not the CLI); ``<html data-family>`` tells
  js/pyodide-fast.mjs which one to write (``pages`` of its RUNTIME);
* ``vendor/pyodide-<version>/``: the files of the ``pyodide`` npm package that
  a boot really requests (checked in headless Chromium, see below) but its
  standard library, replaced by the precompiled one of ``web/tools/runtime/``
  (``python_stdlib-<hash>.zip``; the stock zip, renamed, if Node is missing) and
  the memory snapshot made with it (``snapshot-<hash>.bin.gz``); their names
  are written into ``js/pyodide-fast.mjs`` (the ``interpreter`` of
  pyscript.json) and ``build-info.json``;
* ``vendor/pyscript-<version>/``: ``core.js``, ``core.css`` of ``@pyscript/core`` and
  every chunk reachable from them (relative ``"./x.js"`` references are
  followed automatically, source maps are left out);
* ``build-info.json``: versions, the ``--base`` path, the runtime's file names
  (``runtime``), a sha256 of every file and ``build``, a short id of the whole
  build (hash of those), and
  ``.nojekyll``;
* ``sw.js``: the service worker that precaches every file above for offline
  play, written last by ``web/tools/build_sw.mjs`` (workbox-build, from npm).

The vendor directories are named after the versions pinned in package-lock.json
(the sources write ``vendor/pyodide/`` and ``vendor/pyscript/``; the build
replaces them), so that every large file's URL changes with its content.

Nothing at run time is fetched from another host: the page points PyScript at
``js/pyodide-fast.mjs`` (which loads the vendored Pyodide) through its config
``interpreter`` key.

How relative URLs in a PyScript config resolve (checked with @pyscript/core
0.7.31 in headless Chromium, page in ``sub/``, config file in ``conf/deep/``,
and read in its source: core.js ``relative_url`` and polyscript loader.js):

* ``interpreter`` -- resolved against the *page* URL (``location.href``; not
  ``document.baseURI``, so ``<base href>`` does not change it), NOT against
  the config file.  Pyodide then gets ``indexURL`` = the directory of that
  ``pyodide.mjs`` and fetches the other runtime files next to it.  Any value
  is turned into a URL this way (even a bare version string), so always
  give the path, e.g. ``"./vendor/pyodide/pyodide.mjs"`` for a page at the
  root of dist/.
* ``files`` (also ``fetch`` and ``js_modules``) -- resolved against the
  *config file's* URL when the config is a file (``config="x.toml"`` or
  ``<py-config src=...>``); for an inline config (JSON/TOML text in the
  attribute or a ``<py-config>`` body) the base is the page.  Keeping the
  config file next to the page makes both rules agree.
* ``{"./pygames.tar.gz": "./*"}`` in ``files`` is supported: a target ending
  in ``/*`` makes PyScript unpack the archive (``.zip``, ``.whl``, ``.tar.gz``)
  into that directory -- Pyodide's cwd ``/home/pyodide``, which is on
  ``sys.path``.  (This site does not use it any more: unpacking in Python took
  40-70 ms of each start; js/pyodide-fast.mjs writes the files from JS.)

Files a boot requests (Pyodide 314.0.7, measured in Chromium, both for a bare
``loadPyodide()`` and through PyScript): ``pyodide.mjs``,
``pyodide-lock.json``, ``python_stdlib.zip`` (its ``stdLibURL``),
``pyodide.asm.wasm``, ``pyodide.asm.mjs`` (older releases called it
``pyodide.asm.js``).  Nothing else.  js/pyodide-fast.mjs gives it this build's
standard library and an empty lock file (the site loads no package).
PyScript's core.js imports its plugin chunks (py-editor, py-game,
py-terminal, donkey, error, deprecations-manager) on every page, even when
unused, unless the config's ``plugins`` lists them as ``"!name"``, as
web/static/pyscript.json does for all but ``error``; the codemirror/xterm chunks load
only when a plugin needs them.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import runtime  # noqa: E402  (web/tools/runtime/: the faster-booting standard library)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WEB = ROOT / "web"
#: Copied into the output directory as they are (but for the build's values, see copy_static).
STATIC = WEB / "static"
#: The expert's solved tables (versioned data, read by pygames/ too): their .bin files are served.
TABLES = WEB / "tables"
PACKAGE = ROOT / "pygames"
NODE_MODULES = ROOT / "node_modules"
PYODIDE_SRC = NODE_MODULES / "pyodide"
PYSCRIPT_SRC = NODE_MODULES / "@pyscript" / "core" / "dist"
WORKBOX_SRC = NODE_MODULES / "workbox-build"
SW_SCRIPT = HERE / "build_sw.mjs"

#: The game's files as the build first writes them (a zip: web/tools/runtime/ completes it, then
#: serves it as ``pygames-<hash>.tar.gz``, see runtime.build_runtime).
PACKAGE_ZIP = "pygames.zip"


def locked_version(package: str) -> str:
    """The exact version of an npm package pinned in package-lock.json."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    return lock["packages"][f"node_modules/{package}"]["version"]


#: Where the runtimes go, relative to the output directory: named after their pinned
#: versions, so that their URLs change with their content (the service worker then never
#: downloads again what the page already has).  The sources write ``vendor/pyodide/`` and
#: ``vendor/pyscript/``; the build puts these versioned paths in their place (VENDOR_REFS).
PYODIDE_DIR = f"vendor/pyodide-{locked_version('pyodide')}"
PYSCRIPT_DIR = f"vendor/pyscript-{locked_version('@pyscript/core')}"
VENDOR_REFS = {"vendor/pyodide/": PYODIDE_DIR + "/", "vendor/pyscript/": PYSCRIPT_DIR + "/"}
#: Files of web/static/ where VENDOR_REFS are replaced.
VENDOR_REF_SUFFIXES = {".html", ".js", ".mjs", ".json"}
#: The placeholder of web/static/js/pyodide-fast.mjs that the build fills with the runtime's names.
RUNTIME_PLACEHOLDER = "/* filled in by web/tools/build.py */ null"

#: Files of the pyodide npm package that a boot requests.  ``pyodide.asm.js``
#: is the pre-0.28 name of ``pyodide.asm.mjs``; whichever exists is copied.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "pyodide-lock.json",
)
# (python_stdlib.zip: written by web/tools/runtime/, named after its content.)
PYODIDE_REQUIRED = ("pyodide.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

#: Entry points of @pyscript/core's dist; the chunks they reference follow.
PYSCRIPT_ENTRIES = ("core.js", "core.css")
_RELATIVE_REF = re.compile(r"""["'`]\./([A-Za-z0-9_.\-]+\.(?:m?js|css|wasm|json))["'`]""")

# Fixed timestamp for zip entries so that the archive is reproducible.
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def ensure_node_modules() -> None:
    """Run ``npm ci`` in the repository root if the vendored runtime is missing."""
    if ((PYODIDE_SRC / "pyodide.mjs").is_file() and (PYSCRIPT_SRC / "core.js").is_file()
            and (WORKBOX_SRC / "package.json").is_file()):
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("build.py: node_modules/ is missing and npm is not installed")
    print("build.py: node_modules/ missing, running npm ci", flush=True)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    # copy2 keeps mtimes: stable Last-Modified headers for the local server.
    shutil.copy2(src, dst)


def copy_static(out: Path) -> list[Path]:
    """Every file of web/static/ (dot files aside), at the same place under *out*, and the
    expert's tables (web/tables/**/*.bin) under tables/."""
    copied = []
    sources = [(p, p.relative_to(STATIC)) for p in sorted(STATIC.rglob("*"))]
    sources += [(p, p.relative_to(WEB)) for p in sorted(TABLES.rglob("*.bin"))]
    for src, rel in sources:
        if not src.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        dst = out / rel
        if src.suffix in VENDOR_REF_SUFFIXES:
            text = src.read_text(encoding="utf-8")
            for ref, versioned in VENDOR_REFS.items():
                text = text.replace(ref, versioned)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(text, encoding="utf-8")
        else:
            _copy(src, dst)
        copied.append(dst)
    return copied


_INCLUDE = re.compile(r"<!-- include ([\w.-]+\.html)#([\w-]+) -->")
_FIELD = re.compile(r"\{\{(\w+)\}\}")


def page_part(text: str, part: str, name: str = "page") -> str:
    """The lines of a page between <!-- PART:begin --> and <!-- PART:end -->."""
    begin, end = f"<!-- {part}:begin -->", f"<!-- {part}:end -->"
    if text.count(begin) != 1 or text.count(end) != 1:
        raise SystemExit(f"build.py: {name} must mark its part '{part}' exactly once")
    return text[text.index(begin) + len(begin):text.index(end)].strip("\n")


def render_page(page: Path) -> str:
    """A page with its `<!-- include OTHER.html#PART -->` lines replaced by that part of the
    other page (a file next to it)."""
    text = page.read_text(encoding="utf-8")
    return _INCLUDE.sub(
        lambda m: page_part((page.parent / m.group(1)).read_text(encoding="utf-8"), m.group(2),
                            m.group(1)), text)


def fill(template: str, values: dict, name: str) -> str:
    """`{{field}}` replaced by its value (already escaped or trusted markup)."""
    def value(m):
        if m.group(1) not in values:
            raise SystemExit(f"build.py: {name}: no value for {{{{{m.group(1)}}}}}")
        return values[m.group(1)]
    return _FIELD.sub(value, template)


def _registry():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from pygames import FAMILIES

    return FAMILIES


# --- the setup screen, written as plain HTML (usable before Python starts) ------------

def _attr(name: str, value) -> str:
    from html import escape

    return f' {name}="{escape(str(value), quote=True)}"'


def _option_markup(opt, value) -> str:
    """One option of a ruleset, as the shell reads it (``[data-option]`` in #option-choices)."""
    from html import escape

    if opt.choices:
        items = "".join(
            f"<option{_attr('value', c)}{' selected' if c == value else ''}>{escape(str(c))}</option>"
            for c in opt.choices)
        return (f"<label><span>{escape(opt.label)}</span><select{_attr('name', 'opt-' + opt.id)}"
                f"{_attr('data-option', opt.id)}>{items}</select></label>")
    return (f"<label><input type=\"checkbox\"{_attr('data-option', opt.id)}"
            f"{' checked' if value is True else ''}><span>{escape(opt.label)}</span></label>")


def options_markup(game) -> str:
    if not game.options:
        return '<p class="empty">Aucune option pour cette règle.</p>'
    return "".join(_option_markup(o, o.default) for o in game.options)


def seats_markup(game, seat: str) -> str:
    from html import escape

    seat = seat if seat in game.seats else "human"
    return "".join(f"<option{_attr('value', v)}{' selected' if v == seat else ''}>{escape(t)}</option>"
                   for v, t in game.seats.items())


def player_row_markup(game, n: int, name: str, seat: str, removable: bool) -> str:
    return (f'<li><input type="text" maxlength="40" autocomplete="off"{_attr("aria-label", f"Nom du joueur {n}")}'
            f'{_attr("value", name)}><select{_attr("aria-label", f"Joueur {n} : humain ou ordinateur")}>'
            f'{seats_markup(game, seat)}</select><button type="button" class="ghost small remove"'
            f'{"" if removable else " disabled"}>Retirer</button></li>')


def setup_fields(family) -> dict[str, str]:
    """The setup form of a family's page as the build writes it: the rulesets, the first
    one's options and default players (what the shell would build), plus what
    js/setup-early.js needs to change them before Python is there: a <template> of each
    ruleset's options, one of a player row, and the registry's facts as JSON data (not a
    script: no hash in the page's policy)."""
    from html import escape

    games = list(family.games)
    first = games[0]
    radios = []
    for game in games:
        summary = f"<small>{escape(game.summary)}</small>" if game.summary else ""
        radios.append(
            f'<label class="choice"><input type="radio" name="ruleset"{_attr("value", game.id)}'
            f'{" checked" if game is first else ""}><span><strong>{escape(game.title)}</strong>'
            f"{summary}</span></label>")
    players = list(first.default_players)[: first.max_players]
    while len(players) < first.min_players:
        players.append((f"Joueur {len(players) + 1}", "simple" if "simple" in first.seats else "human"))
    rows = [player_row_markup(first, i + 1, name, seat, len(players) > first.min_players)
            for i, (name, seat) in enumerate(players)]
    data = {
        "family": family.id,
        "rulesets": {
            g.id: {
                "min": g.min_players, "max": g.max_players,
                "seats": [[v, t] for v, t in g.seats.items()],
                "options": [{"id": o.id, "default": o.default, "choices": list(o.choices)}
                            for o in g.options],
                "players": [{"name": n, "seat": s} for n, s in g.default_players],
            } for g in games
        },
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")  # no tag
    templates = [f'<template{_attr("id", "options-" + g.id)}>{options_markup(g)}</template>'
                 for g in games]
    templates.append('<template id="player-row"><li><input type="text" maxlength="40" '
                     'autocomplete="off"><select></select><button type="button" '
                     'class="ghost small remove">Retirer</button></li></template>')
    templates.append(f'<script type="application/json" id="setup-data">{text}</script>')
    return {
        "setup_rulesets": "".join(radios),
        "setup_rulesets_hidden": "" if len(games) > 1 else " hidden",
        "setup_options": options_markup(first),
        "setup_players": "".join(rows),
        "setup_add_disabled": "" if len(players) < first.max_players else " disabled",
        "setup_data": "\n    ".join(templates),
    }


#: A preference of this device a page may offer in its setup (web/games/<id>/page.json's
#: "preferences"), read and written by web/app/table_tools.py in pygames:prefs.
SETUP_PREFERENCES = {
    "confirm_zero": (
        '<p class="options match-setting"><label><input type="checkbox" id="ask-zero" checked>'
        "<span>Demander avant d'inscrire un&nbsp;0 <small>(quand une autre case rapporterait des "
        "points ; réglage de cet appareil)</small></span></label></p>"),
}


def setup_preferences(page: dict) -> str:
    wanted = page.get("preferences", [])
    unknown = [p for p in wanted if p not in SETUP_PREFERENCES]
    if unknown:
        sys.exit(f"build.py: unknown setup preference(s) in page.json: {unknown}")
    return "".join(SETUP_PREFERENCES[p] for p in wanted)


def family_pages() -> dict[str, str]:
    """Every generated page: ``<id>.html`` and ``embed-<id>.html`` for each game of the
    registry (web/templates/ + the game's web/games/<id>/table.html and rules.html), and
    the home page with one card per game."""
    from html import escape

    templates = WEB / "templates"
    game_t = (templates / "game.html").read_text(encoding="utf-8")
    embed_t = (templates / "embed.html").read_text(encoding="utf-8")
    pages: dict[str, str] = {}
    cards = []
    for family in _registry().values():
        folder = WEB / "games" / family.id
        if not (folder / "table.html").is_file():
            # A game whose rules are registered before its page is written (tests/
            # test_embed_page.py fails for it until then).
            print(f"build.py: warning: no web/games/{family.id}/table.html: no page for "
                  f"{family.id} yet", file=sys.stderr)
            continue
        extra = {}
        if (folder / "page.json").is_file():
            extra = json.loads((folder / "page.json").read_text(encoding="utf-8"))
        values = {
            "id": escape(family.id),
            "title": escape(family.title),
            "description": escape(extra.get("description", family.description)),
            "rules_title": escape(extra.get("rules_title", f"Règles : {family.title}")),
            "table": (folder / "table.html").read_text(encoding="utf-8").rstrip("\n"),
            "rules": (folder / "rules.html").read_text(encoding="utf-8").rstrip("\n"),
            **setup_fields(family),
            "setup_preferences": setup_preferences(extra),
        }
        full = fill(game_t, values, f"{family.id}.html")
        pages[f"{family.id}.html"] = full
        embed = _INCLUDE.sub(lambda m: page_part(full, m.group(2), f"{family.id}.html"),
                             fill(embed_t, values, f"embed-{family.id}.html"))
        pages[f"embed-{family.id}.html"] = embed
        cards.append(
            f'      <li class="game-card" data-family="{values["id"]}">\n'
            f'        <h2>{values["title"]}</h2>\n'
            f'        <p>{escape(family.description)}</p>\n'
            f'        <p class="players">{escape(family.players_text())}</p>\n'
            f'        <p class="card-links"><a class="play-link" href="{values["id"]}.html">Jouer</a>\n'
            f'          <a class="resume-link" href="{values["id"]}.html" hidden>Reprendre la partie</a></p>\n'
            f'      </li>')
    index = (templates / "index.html").read_text(encoding="utf-8")
    pages["index.html"] = fill(index, {"cards": "\n".join(cards)}, "index.html")
    return pages


#: The placeholder of web/static/embed.js that the build fills with the registry's embed pages.
EMBED_PAGES_PLACEHOLDER = "/* pages: filled in by web/tools/build.py */ {}"


def embed_pages() -> dict:
    return {f.id: {"file": f"embed-{f.id}.html", "title": f"{f.title}, jeu de dés (pygames)"}
            for f in _registry().values() if (WEB / "games" / f.id / "table.html").is_file()}


def write_pages(out: Path) -> list[Path]:
    written = []
    for name, text in family_pages().items():
        for ref, versioned in VENDOR_REFS.items():
            text = text.replace(ref, versioned)
        dst = out / name
        dst.write_text(text, encoding="utf-8")
        written.append(dst)
    loader = out / "embed.js"
    text = loader.read_text(encoding="utf-8")
    if text.count(EMBED_PAGES_PLACEHOLDER) != 1:
        sys.exit(f"build.py: embed.js must hold `{EMBED_PAGES_PLACEHOLDER}` exactly once")
    loader.write_text(text.replace(EMBED_PAGES_PLACEHOLDER, json.dumps(embed_pages(), ensure_ascii=False)),
                      encoding="utf-8")
    return written


def package_modules() -> list[Path]:
    """Every ``.py`` file of ``pygames/`` (sorted, caches skipped)."""
    if not PACKAGE.is_dir():
        return []
    return sorted(
        p for p in PACKAGE.rglob("*.py")
        if "__pycache__" not in p.relative_to(ROOT).parts
    )


def zip_package(out: Path) -> Path:
    """``out/pygames.zip``: the package, stored as ``pygames/...``, and the page's modules
    (web/app/*.py) at the top; web/tools/runtime/ then adds bytecode and renames it."""
    dst = out / PACKAGE_ZIP
    modules = package_modules()
    if not modules:
        print(f"build.py: warning: no module found under {PACKAGE}, {PACKAGE_ZIP} is empty",
              file=sys.stderr)
    entries = [(p.relative_to(ROOT).as_posix(), p) for p in modules]
    entries += [(p.name, p) for p in runtime.app_modules()]
    with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, path in entries:
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, path.read_bytes())
    return dst


def page_roots() -> dict[str, list[str]]:
    """Each game page's first modules, from which web/tools/runtime/ finds the game files the page
    may import (runtime.page_entries): the shell, the game's view and its rules module."""
    from pygames import GAME_MODULES

    return {f.id: ["shell", f.view, f"{PACKAGE.name}.{GAME_MODULES[f.id]}"]
            for f in _registry().values() if (WEB / "games" / f.id / "table.html").is_file()}


def copy_pyodide(out: Path) -> list[Path]:
    missing = [n for n in PYODIDE_REQUIRED if not (PYODIDE_SRC / n).is_file()]
    if missing:
        sys.exit(f"build.py: missing from {PYODIDE_SRC}: {', '.join(missing)} (run npm ci)")
    copied = []
    for name in PYODIDE_FILES:
        src = PYODIDE_SRC / name
        if src.is_file():
            dst = out / PYODIDE_DIR / name
            _copy(src, dst)
            copied.append(dst)
    return copied


def pyscript_closure() -> list[str]:
    """Names of the files of @pyscript/core's dist reachable from the entries."""
    seen: set[str] = set()
    todo = list(PYSCRIPT_ENTRIES)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = PYSCRIPT_SRC / name
        if not path.is_file():
            # e.g. "./mip.py"-style virtual names are filtered by the regex;
            # a missing .js chunk is a real problem.
            sys.exit(f"build.py: {path} is referenced but missing")
        seen.add(name)
        if path.suffix in {".js", ".mjs", ".css"}:
            text = path.read_text(encoding="utf-8", errors="replace")
            todo.extend(m for m in _RELATIVE_REF.findall(text)
                        if (PYSCRIPT_SRC / m).is_file() or m.endswith((".js", ".css")))
    return sorted(seen)


def copy_pyscript(out: Path) -> list[Path]:
    copied = []
    for name in pyscript_closure():
        dst = out / PYSCRIPT_DIR / name
        _copy(PYSCRIPT_SRC / name, dst)
        copied.append(dst)
    return copied


def _npm_version(package_dir: Path) -> str:
    try:
        return json.loads((package_dir / "package.json").read_text())["version"]
    except (OSError, KeyError, ValueError):
        return "unknown"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_build_info(out: Path, base: str, files: list[Path], manifest: dict) -> Path:
    info = {
        "base": base,
        "package": manifest["package"],
        "runtime": manifest,
        "pyodide": {"version": _npm_version(PYODIDE_SRC), "path": PYODIDE_DIR + "/pyodide.mjs"},
        "pyscript": {"version": _npm_version(PYSCRIPT_SRC.parent), "path": PYSCRIPT_DIR + "/core.js"},
        "modules": [p.relative_to(ROOT).as_posix() for p in package_modules()],
        "files": {p.relative_to(out).as_posix(): _sha256(p) for p in sorted(files)},
    }
    listing = "".join(f"{name} {digest}\n" for name, digest in info["files"].items())
    info["build"] = hashlib.sha256(listing.encode()).hexdigest()[:12]
    dst = out / "build-info.json"
    dst.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return dst


#: In a page's <head>, replaced by the build with EARLY_SNAPSHOT (or nothing without a
#: snapshot): the line that starts Python's start-up before any script is loaded.
EARLY_MARKER = "<!-- runtime:early-snapshot -->"
#: An inline script: reading the memory snapshot's inflated form (kept in Cache Storage by
#: an earlier visit, js/snapshot-inflate.mjs) begins while the page parses, some 100 ms
#: before js/pyodide-fast.mjs, which takes it over, is loaded.  Reads only; never a request.
EARLY_SNAPSHOT = """<script>
  // Python's memory snapshot, if an earlier visit kept it: read from now on (js/pyodide-fast.mjs).
  if (self.caches) {
    const url = new URL(%(path)s, location.href).href;
    const response = caches.open("pygames-snapshot-inflated").then((c) => c.match(url));
    const buffer = response.then((r) => (r ? r.arrayBuffer() : null));
    buffer.catch(() => {});
    window.pygamesEarlySnapshot = { url, response, buffer };
  }
  </script>"""


def early_snapshot_script(manifest: dict) -> str:
    if not manifest.get("snapshot"):
        return ""
    return EARLY_SNAPSHOT % {"path": json.dumps(f"{PYODIDE_DIR}/{manifest['snapshot']}")}


def link_runtime(out: Path, manifest: dict) -> list[Path]:
    """Point the site at this build's content-named runtime files: the RUNTIME constant of
    js/pyodide-fast.mjs (stdlib, package, pages, snapshot), and the game pages' inline script that
    starts reading the snapshot.  Returns the files rewritten."""
    fast = out / "js" / "pyodide-fast.mjs"
    text = fast.read_text(encoding="utf-8")
    if text.count(RUNTIME_PLACEHOLDER) != 1:
        sys.exit(f"build.py: {fast.name} must hold `{RUNTIME_PLACEHOLDER}` exactly once")
    names = {k: manifest[k] for k in ("stdlib", "package", "pages", "snapshot")}
    # The site loads no Pyodide package: an empty lock file (with the real one's "info",
    # which Pyodide checks) spares the page fetching and indexing its 357 entries.
    lock = json.loads((out / PYODIDE_DIR / "pyodide-lock.json").read_text(encoding="utf-8"))
    names["lock"] = {"info": lock["info"], "packages": {}}
    fast.write_text(text.replace(RUNTIME_PLACEHOLDER, json.dumps(names, sort_keys=True)),
                    encoding="utf-8")
    # The game pages start reading the snapshot's inflated form at once (see EARLY_SNAPSHOT).
    early = early_snapshot_script(manifest)
    for page in sorted(out.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        if EARLY_MARKER in text:
            page.write_text(text.replace(EARLY_MARKER, early), encoding="utf-8")
    config = json.loads((out / "pyscript.json").read_text(encoding="utf-8"))
    if config.get("files"):
        sys.exit("build.py: pyscript.json must not list `files`: js/pyodide-fast.mjs writes "
                 "the game's files itself")
    return []  # both were copied by copy_static: already in the list


def write_service_worker(out: Path) -> tuple[Path, dict]:
    """Write ``out/sw.js`` (precaching every file now in *out*) with
    ``web/tools/build_sw.mjs``; call it last, once every other file is written.
    Returns its path and ``{"count": files, "size": bytes, "seconds": ...}``."""
    node = shutil.which("node")
    if node is None:
        sys.exit("build.py: node is needed to write sw.js (it comes with npm)")
    done = subprocess.run([node, str(SW_SCRIPT), str(out)], cwd=ROOT, check=True,
                          stdout=subprocess.PIPE, text=True)
    return out / "sw.js", json.loads(done.stdout.strip().splitlines()[-1])


def _check_out_dir(out: Path) -> None:
    forbidden = {ROOT, WEB, PACKAGE, NODE_MODULES, Path.home().resolve(), Path("/")}
    if out in forbidden or (out / ".git").exists() or out in ROOT.parents:
        sys.exit(f"build.py: refusing to wipe {out}")


def normalise_base(base: str) -> str:
    if not base.startswith("/"):
        base = "/" + base
    if not base.endswith("/"):
        base += "/"
    return base


#: The Content-Security-Policy of every page; %(hashes)s: the sha256 of each inline script.
#: PyScript needs 'unsafe-eval' (it calls Function()); nothing else runs but the site's files.
CSP = ("default-src 'none'; script-src 'self' 'unsafe-eval'%(hashes)s; style-src 'self'; "
       "img-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
       "font-src 'self'; form-action 'none'; object-src 'none'; base-uri 'none'")
CHARSET = '<meta charset="utf-8">'
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)
JS_TYPES = ("", "module", "text/javascript", "application/javascript")


def inline_script_hashes(html: str) -> list[str]:
    """'sha256-…' of every inline JavaScript script of a page (not src=, not type="py")."""
    hashes = []
    for m in INLINE_SCRIPT.finditer(html):
        attrs = m.group("attrs")
        kind = re.search(r'\btype="([^"]*)"', attrs)
        if re.search(r"\bsrc=", attrs) or (kind and kind.group(1).lower() not in JS_TYPES):
            continue
        digest = hashlib.sha256(m.group("body").encode("utf-8")).digest()
        hashes.append("'sha256-" + base64.b64encode(digest).decode("ascii") + "'")
    return hashes


def content_security_policy(html: str) -> str:
    hashes = "".join(" " + h for h in dict.fromkeys(inline_script_hashes(html)))
    return CSP % {"hashes": hashes}


def add_csp(out: Path) -> list[Path]:
    """A CSP meta tag right after each page's charset (before any script), once the
    inline scripts are final (after link_runtime)."""
    for page in sorted(out.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        if CHARSET not in text:
            sys.exit(f"build.py: {page.name} must start its <head> with {CHARSET}")
        meta = f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(text)}">'
        page.write_text(text.replace(CHARSET, CHARSET + "\n  " + meta, 1), encoding="utf-8")
    return []  # written by write_pages: already in the list


def build(out: Path | str = ROOT / "dist", base: str = "/", quiet: bool = False) -> dict:
    """Build the site into *out*; returns a summary dict."""
    start = time.perf_counter()
    out = Path(out).resolve()
    _check_out_dir(out)
    base = normalise_base(base)
    ensure_node_modules()
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    files = copy_static(out)
    files += write_pages(out)
    package = zip_package(out)
    files += copy_pyodide(out)
    built = runtime.build_runtime(out / PYODIDE_DIR, package_zip=package, quiet=quiet,
                                  pages=page_roots())
    files += built["files"]  # web/tools/runtime/: stdlib, pygames-<hash>.tar.gz, snapshot
    files += link_runtime(out, built["manifest"])
    files += add_csp(out)
    files += copy_pyscript(out)
    nojekyll = out / ".nojekyll"
    nojekyll.touch()
    files.append(nojekyll)
    files.append(write_build_info(out, base, files, built["manifest"]))
    sw, precache = write_service_worker(out)
    files.append(sw)

    total = sum(p.stat().st_size for p in files)
    summary = {
        "out": str(out),
        "base": base,
        "files": len(files),
        "bytes": total,
        "modules": len(package_modules()),
        "seconds": time.perf_counter() - start,
        "precache": precache,
    }
    if not quiet:
        groups: dict[str, list[Path]] = {}
        for p in files:
            rel = p.relative_to(out).as_posix()
            key = next((d for d in (PYODIDE_DIR, PYSCRIPT_DIR) if rel.startswith(d + "/")), "site")
            groups.setdefault(key, []).append(p)
        for key, paths in groups.items():
            size = sum(p.stat().st_size for p in paths)
            print(f"  {key:<16} {len(paths):4d} files {size:12,d} bytes")
        print(f"built {out} (base {base}): {summary['files']} files, {total:,d} bytes total, "
              f"{summary['modules']} pygames modules, "
              f"{summary['seconds']:.2f} s")
        print(f"  sw.js precaches {precache['count']} files, {precache['size']:,d} bytes "
              f"(written in {precache['seconds']:.2f} s)")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "dist"),
                        help="output directory (default: dist/ at the repository root)")
    parser.add_argument("--base", default="/",
                        help="URL path the site is served under, e.g. /pygames/ for a GitHub "
                             "Pages project site (recorded in build-info.json; every URL in the "
                             "site is relative, so the same build works under any base)")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    build(args.out, args.base, quiet=args.quiet)
    return 0


if __name__ == "__main__":
    sys.exit(main())
