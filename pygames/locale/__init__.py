"""The compiled catalogues, ``<lang>.json`` beside this module (written from the PO files of
``<lang>/LC_MESSAGES/`` by web/tools/catalogues.py), and the terminal's language: the one
place the package reads its words from a file and the environment.  pygames/messages.py
reads a catalogue through `read` when the command line or the tests first speak its
language; a page gives its catalogue as data instead (it is in the page,
web/tools/pages.py), and never reads a file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Mapping

HERE = Path(__file__).resolve().parent


def read(language: str) -> dict:
    """A language's compiled catalogue; ValueError if there is none."""
    path = HERE / f"{language}.json"
    if not path.is_file():
        raise ValueError(f"no catalogue for the language {language!r} ({path})")
    return json.loads(path.read_text(encoding="utf-8"))


def from_environment(languages: Mapping[str, str], reference: str,
                     environ: Mapping[str, str] | None = None) -> str:
    """The language a terminal asks for: ``PYGAMES_LANG``, else the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set, if it names a language the catalogues
    speak ("en_GB.UTF-8" is English); *reference* otherwise."""
    env = os.environ if environ is None else environ
    for var in ("PYGAMES_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].split("-")[0].lower()
            if code in languages:
                return code
        if var != "LANGUAGE":
            break
    return reference
