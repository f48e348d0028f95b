"""What a player reads, in both themes: every colour pair of every page, computed from the
styles (e2e/harness/contrast.js), at 320, 360, 740×360 and 1280 px.

axe checks text contrast too, but it leaves out disabled controls (a Linotte or Yams cell
the dice do not allow is a disabled button, and it is still read: the Linotte board was
light ink on light pastels in the dark theme, unseen) and answers "incomplete" on what it
cannot compute.  This check includes disabled controls as they are drawn (their opacity
counts), composites every ancestor's translucent background, opacity and gradient stops (the
worst stop counts), and fails on what it cannot compute.  Text needs 4.5:1, large text
(24px, or 18.66px bold) 3:1, symbols (▶, ✓, ●, +: no letter, no digit) 3:1, and the fills
and borders that tell a state (a cell the dice allow, the current seat, a kept die, an open
box of the sheet) 3:1 against their surroundings.  Hidden and sr-only text is left out.

Each game page: the setup, a game in play at a person's turn with cells both allowed and not
(after a throw, a die kept where dice are kept), the Règles and Intégrer dialogs over it, and the end screen (from a
finished record); the home page; the theme follows the emulated
colour scheme (Auto) and switches in the page, so one Pyodide start serves both themes.

The same walk reads each screen's drawn text (``innerText``) for French typography
(web/tools/typography.py): a colon or a « ; ! ? » that a line could begin with is a fault
too.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from harness.pages import GAME_PAGES, GamePage, finished_record, wait_ready
from typography import faults  # web/tools/typography.py

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

CONTRAST_JS = (Path(__file__).parent / "harness" / "contrast.js").read_text(encoding="utf-8")
VIEWPORTS = ({"width": 320, "height": 640}, {"width": 360, "height": 740},
             {"width": 740, "height": 360}, {"width": 1280, "height": 800})
SCHEMES = ("light", "dark")
#: The cells a person may fill, on the pages that have a board or a sheet: the play screen is
#: checked when some are allowed (and the others are not).
ALLOWED_CELLS = {"yams": ".sheet td .box:not(:disabled)", "linotte": ".linotte .cell.placeable"}

#: Once the page is still: fonts loaded, finite animations and transitions over.
STILL_JS = """async () => {
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const finite = document.getAnimations().filter(
        (a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => null)));
}"""


class Contrast:
    """Runs the check on one page in every width and theme; collects the failing pairs."""

    def __init__(self, page, name: str):
        self.page, self.name = page, name
        self.found: dict[tuple, dict] = {}  # (screen, theme, path, text, kind) -> failure, widths
        self.runs = 0
        self.typography: list[str] = []  # "screen: 'context'"

    def check(self, screen: str) -> None:
        page = self.page
        drawn = page.evaluate("() => document.body.innerText")
        self.typography += [f"{screen}: {hit!r}" for hit in faults(drawn, french=False)]
        page.mouse.move(0, 0)  # no hover style on what was clicked last
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            page.wait_for_function("(s) => document.documentElement.dataset.theme === s",
                                   arg=scheme, timeout=5000)
            for viewport in VIEWPORTS:
                page.set_viewport_size(viewport)
                page.evaluate(STILL_JS)
                result = page.evaluate(CONTRAST_JS)
                assert result["checked"]["text"] > 0, f"no text checked on {screen}/{scheme}"
                width = f"{viewport['width']}" + ("x360" if viewport["height"] == 360 else "")
                for f in result["failures"]:
                    key = (screen, scheme, f["path"], f["text"], f["kind"])
                    entry = self.found.setdefault(key, {**f, "widths": []})
                    entry["widths"].append(width)
                self.runs += 1
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 360, "height": 740})

    def report(self) -> str:
        lines = [f"{len(self.typography)} typography fault(s) on {self.name}:", *self.typography]
        lines += [f"{len(self.found)} failing colour pair(s) on {self.name} ({self.runs} runs):"]
        for (screen, scheme, _, _, _), f in sorted(self.found.items(), key=lambda kv: kv[0]):
            pair = (f"{f['fg']} on {f['bg']} = {f['ratio']}:1" if f["ratio"] is not None
                    else "not computed")
            lines.append(f"- {screen}/{scheme} [{','.join(f['widths'])}] {f['kind']} "
                         f"{f['path']} {f['text']!r}: {pair}, needs {f['required']}:1 ({f['why']})")
        return "\n".join(lines)


def reach_allowed_cells(game: GamePage, family: str) -> None:
    """Play on (a throw first when Lancer is there) until a person's turn where some cells
    of the board or sheet are allowed, the others not."""
    page = game.page
    rng = random.Random(family)
    game.play_random(3, rng)
    for _ in range(30):
        assert game.wait_person_or_end(), "the game ended before the play screen was checked"
        if family not in ALLOWED_CELLS or page.locator(ALLOWED_CELLS[family]).count():
            return
        before = game.actions()
        roll = page.locator("#roll:not([disabled])")
        if roll.count() and roll.is_visible():
            roll.click()
            game.wait_actions_above(before)
        else:
            game.play_random(1, rng)
    raise AssertionError(f"no turn with allowed cells on {family}")


def test_home_page_contrast(page, site_url, request_log):
    contrast = Contrast(page, "index.html")
    page.goto(site_url + "index.html")
    page.wait_for_load_state("load")
    contrast.check("home")
    if contrast.found or contrast.typography:
        pytest.fail(contrast.report(), pytrace=False)


@pytest.mark.parametrize("family", GAME_PAGES)
def test_game_page_contrast(page, site_url, family, request_log):
    contrast = Contrast(page, f"{family}.html")
    page.set_viewport_size({"width": 360, "height": 740})
    game = GamePage(page, site_url, family)

    game.open(fresh=True, seed="contrast")
    assert page.locator("#setup").is_visible()
    contrast.check("setup")

    game.start()
    reach_allowed_cells(game, family)
    first_die = '#dice button[data-die="0"]:not([disabled])'
    if page.locator(first_die).count() and not game.dice.held():
        game.dice.toggle(0)  # a kept die too ("gardé" under it), where dice are kept
        page.wait_for_function(f"() => document.querySelector({first_die!r}).ariaPressed === 'true'")
    contrast.check("play")

    # The Règles and Intégrer dialogs, over the game.
    for opener, dialog in (("#open-rules", "rules"), ("#open-embed", "embed")):
        page.set_viewport_size({"width": 1280, "height": 800})  # phones may fold the tools away
        page.click(opener)
        page.wait_for_function("(id) => document.getElementById(id).open", arg=dialog)
        contrast.check(dialog)
        page.keyboard.press("Escape")
        page.wait_for_function("(id) => !document.getElementById(id).open", arg=dialog)

    game.store("match", finished_record(family, "contrast"))
    game.mark_unready()
    game.open(seed="contrast")
    wait_ready(page)
    page.wait_for_function("() => !document.getElementById('end').hidden")
    contrast.check("end")

    assert contrast.runs == 5 * len(SCHEMES) * len(VIEWPORTS)
    if contrast.found or contrast.typography:
        pytest.fail(contrast.report(), pytrace=False)
