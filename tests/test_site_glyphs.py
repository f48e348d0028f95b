"""No emoji on the site: where the system has no colour-emoji font (many Linux desktops, older
phones) an emoji is drawn as an empty box.  The site draws its own marks (CSS, SVG) or uses
text symbols the common system fonts have (▶ ✓ ✗ ★ ▲ ▼, text presentation).  Issue 20,
item 14: the Dé Landais's tirs were 🦄 and 🐉."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The characters drawn as emoji by default (Unicode's Emoji_Presentation) below U+1F000,
#: the emoji variation selector and the joiner of emoji sequences.
BMP_EMOJI = set(
    "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕"
    "\ufe0f\u200d"
)


def emoji_in(text: str) -> list[str]:
    """The emoji characters of `text` (each once, in order)."""
    found = []
    for ch in text:
        if (0x1F000 <= ord(ch) <= 0x1FAFF or ch in BMP_EMOJI) and ch not in found:
            found.append(ch)
    return found


def site_files() -> list[Path]:
    """What the pages draw from: styles, markup, the views, the scripts, the catalogues."""
    web = ROOT / "web"
    files = [*(web / "static").rglob("*.css"), *(web / "static" / "js").rglob("*.*js"),
             *(web / "templates").rglob("*.html"), *(web / "games").rglob("*.html"),
             *(web / "app").glob("*.py"), *(ROOT / "pygames").rglob("messages.py")]
    return sorted(files)


def test_the_check_sees_emoji():
    assert emoji_in('content: "🦄 "; content: "🐉 "; "⭐"') == ["🦄", "🐉", "⭐"]
    assert emoji_in("✦ ✗ ↺ ★ ▲ ▼ ▶ ✓ ✕ ● ■ ♪ –") == []


def test_site_files_are_found():
    names = {p.name for p in site_files()}
    assert {"style.css", "de-landais.css", "linotte.css", "landais_view.py", "game.html"} <= names


@pytest.mark.parametrize("path", site_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_emoji_on_the_site(path):
    assert emoji_in(path.read_text(encoding="utf-8")) == [], path
