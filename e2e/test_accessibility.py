"""axe-core on every game page: the setup, a game in play on a human's turn, the Règles and
Intégrer dialogs open, and the end screen; each at 320, 360 and 1280 px wide, in the light
and the dark colour scheme (the dark one with the rules about colours: it changes nothing
else).  Any violation of the WCAG 2.x A/AA rules or of axe's best
practices fails the test, with the rule, its impact, the elements and axe's summary; so does
any "incomplete" colour-contrast result (a pair axe could not compute: a background image,
a pseudo-element, text over another element), with axe's reason.  e2e/test_contrast.py
checks the pairs axe leaves out (disabled controls).

axe-core is vendored from npm (package.json pins it exactly; ``npm ci`` installs it under
node_modules/).  The pages' Content-Security-Policy allows no inline script that is not
hashed, so ``page.add_script_tag`` (an inline <script>) is refused: the file's text is run
with ``page.evaluate`` instead: Playwright evaluates it through DevTools, which the policy's
refusal of text run as code (no ``'unsafe-eval'``) does not hold, and axe, which compiles
some of its code with ``Function()`` as its file is evaluated, runs.  The page keeps its
CSP: axe sees the page as a visitor would.

One page per game goes through the screens in turn (one Pyodide start for the setup, play
and dialogs, one for the end screen, loaded from a finished record in localStorage).
"""

from __future__ import annotations

import random

import pytest
from harness.pages import GAME_PAGES, GamePage, finished_record
from harness.site import ROOT

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (320, 360, 1280)
HEIGHT = 740
SCHEMES = ("light", "dark")
#: WCAG 2.0, 2.1 and 2.2, levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]

#: The rules whose "incomplete" results fail as violations do: color-contrast (WCAG AA;
#: color-contrast-enhanced is AAA, not run).  What axe leaves undecided there, no one checked.
INCOMPLETE_FAILS = ["color-contrast"]
#: The undecided results that are left to e2e/test_contrast.py, which computes these very
#: pairs (and passes): (axe's reason, the elements it is accepted on).
#: * nonBmp: the text is only symbols (the dialogs' close button ✕, the theme switch's ◐);
#:   axe never decides those; test_contrast checks every symbol at 3:1.
#: * bgOverlap on a Linotte cell: the #runs SVG lies over the whole board to draw the
#:   scoring lines (it is transparent but for them, and they cross only taken cells, whose
#:   names are not drawn); test_contrast composites each cell's text on the cell itself.
COVERED_ELSEWHERE = [["nonBmp", "*"], ["bgOverlap", "#board .cell *"]]

#: Run axe once the page is still: finite animations and transitions over (a colour caught
#: half-way through a transition would give a false contrast result), fonts loaded.
#: The page is scrolled to its top first: a sticky panel (the felt over the Yams sheet on a
#: phone) then lies where it belongs, not over the text scrolled under it.
RUN_AXE = """async ([tags, coloursOnly, incompleteFails, covered]) => {
    window.scrollTo(0, 0);
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const finite = document.getAnimations().filter(
        (a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => null)));
    // The dark scheme changes colours only (style.css's html[data-theme=dark] sets colour
    // properties and color-scheme): there, the rules of `tags` about colours (axe's
    // "cat.color"); the nodes, names and layout are the light scheme's, checked with them all.
    const colours = axe.getRules(["cat.color"]).filter((r) => r.tags.some((t) => tags.includes(t)))
        .map((r) => r.ruleId);
    if (!colours.includes("color-contrast")) throw new Error(`axe's colour rules: ${colours}`);
    const result = await axe.run(document, {
        runOnly: coloursOnly ? {type: "rule", values: colours} : {type: "tag", values: tags},
        resultTypes: ["violations", "incomplete"],
    });
    const target = (n) => n.target.map((t) => Array.isArray(t) ? t.join(" >>> ") : t).join(" | ");
    // axe's "incomplete": what it could not decide.  For the contrast rules that is a pair
    // nobody checked (a background image, a pseudo-element, text over another element):
    // it fails too, with axe's reason (its messageKey and message).
    const why = (n) => [...n.any, ...n.all, ...n.none].map((c) => (c.data && c.data.messageKey) || c.id);
    const elsewhere = (n) => why(n).length > 0 && why(n).every((key) => covered.some(([k, sel]) =>
        k === key && document.querySelector(n.target[0])?.matches(sel)));
    const undecided = result.incomplete.filter((v) => incompleteFails.includes(v.id)).map((v) => ({
        id: v.id + " (incomplete)", impact: v.impact, help: v.help, url: v.helpUrl,
        nodes: v.nodes.filter((n) => !elsewhere(n)).map((n) => ({
            target: target(n),
            summary: [...n.any, ...n.all, ...n.none].map((c) =>
                `${(c.data && c.data.messageKey) || c.id}: ${c.message}`).join("; ")
                .replace(/\\s+/g, " ").trim(),
        })),
    }));
    return result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, url: v.helpUrl,
        nodes: v.nodes.map((n) => ({
            target: target(n),
            summary: (n.failureSummary || "").replace(/\\s+/g, " ").trim(),
        })),
    })).concat(undecided.filter((v) => v.nodes.length));
}"""


class Audit:
    """Runs axe on one page in every width and colour scheme; collects the violations."""

    def __init__(self, page, family: str):
        self.page = page
        self.family = family
        self.found: dict[tuple[str, str], dict] = {}  # (rule, target) -> details and where
        self.runs = 0

    def inject(self) -> None:
        if not self.page.evaluate("typeof window.axe === 'object'"):
            self.page.evaluate(AXE_JS.read_text(encoding="utf-8"))
            assert self.page.evaluate("typeof window.axe.run === 'function'"), "axe-core did not load"

    def check(self, screen: str) -> None:
        self.inject()
        for scheme in SCHEMES:
            self.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
            # The page's theme follows the system's (js/theme.js sets <html data-theme>).
            self.page.wait_for_function(
                """(s) => !document.documentElement.hasAttribute('data-theme-choice')
                         || document.documentElement.dataset.theme === s""", arg=scheme, timeout=5000)
            for width in WIDTHS:
                self.page.set_viewport_size({"width": width, "height": HEIGHT})
                for v in self.page.evaluate(RUN_AXE, [TAGS, scheme == "dark", INCOMPLETE_FAILS,
                                                         COVERED_ELSEWHERE]):
                    for node in v["nodes"]:
                        entry = self.found.setdefault((v["id"], node["target"]), {
                            "rule": v["id"], "impact": v["impact"], "help": v["help"],
                            "url": v["url"], "target": node["target"],
                            "summary": node["summary"], "where": []})
                        entry["where"].append(f"{screen}/{scheme}/{width}")
                self.runs += 1
        self.page.emulate_media(color_scheme="light")
        self.page.set_viewport_size({"width": 360, "height": HEIGHT})

    def report(self) -> str:
        """One entry per rule and set of places, with every element it was found on."""
        groups: dict[tuple, list[dict]] = {}
        for e in self.found.values():
            groups.setdefault((e["rule"], tuple(e["where"])), []).append(e)
        lines = [f"{len(self.found)} axe violation(s) on {self.family}.html "
                 f"({self.runs} runs; where = screen/scheme/width):"]
        for (rule, where), entries in sorted(groups.items()):
            first = entries[0]
            targets = sorted(e["target"] for e in entries)
            lines.append(
                f"- {rule} ({first['impact']}): {first['help']}\n"
                f"    where: {', '.join(where)}\n"
                f"    {len(targets)} element(s): {'; '.join(targets)}\n"
                f"    {first['summary'][:500]}\n"
                f"    {first['url']}")
        return "\n".join(lines)


def open_dialog(page, opener: str, dialog: str) -> None:
    page.set_viewport_size({"width": 1280, "height": HEIGHT})  # phones may fold the tools away
    page.click(opener)
    page.wait_for_function("(id) => document.getElementById(id).open", arg=dialog)


def close_dialog(page, dialog: str) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function("(id) => !document.getElementById(id).open", arg=dialog)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("family", GAME_PAGES)
def test_axe_finds_no_violation(page, site_url, family, lang, request_log):
    audit = Audit(page, family if lang == "fr" else f"{lang}-{family}")
    page.set_viewport_size({"width": 360, "height": HEIGHT})
    game = GamePage(page, site_url, family, lang=lang)

    # The setup screen.
    game.open(fresh=True, seed="a11y")
    assert page.locator("#setup").is_visible()
    audit.check("setup")

    # A game in play: a few moves in, a human's turn.
    game.start()
    game.play_random(3, random.Random(family))
    assert game.wait_person_or_end(), "the game ended before the play screen was checked"
    audit.check("play")

    # The dialogs, over the game.
    open_dialog(page, "#open-rules", "rules")
    audit.check("rules")
    close_dialog(page, "rules")
    open_dialog(page, "#open-embed", "embed")
    audit.check("embed")
    close_dialog(page, "embed")

    # The end screen, from a finished game in the page's save.
    game.store("match", finished_record(family, "a11y"))
    game.open(seed="a11y")
    page.wait_for_function("() => !document.getElementById('end').hidden")
    audit.check("end")

    assert audit.runs == 5 * len(SCHEMES) * len(WIDTHS)
    if audit.found:
        pytest.fail(audit.report(), pytrace=False)
