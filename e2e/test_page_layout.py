"""How every game page looks (issue #12): it fits from 320 px wide with the most players
(the page never scrolls sideways, nothing is cut off, the Yams sheet's first column is
readable and its header row sits on top of its rows), short screens are not covered by the
dice panel, the game and end screens open at their top, contrast of text (>= 4.5:1) and of
the focus ring (>= 3:1) measured from the computed styles, in the light and the dark
theme, and the theme switch (Clair / Sombre / Auto) remembered across a reload.

Games are put on the page as saved records (localStorage), made here by the engine: every
seat played by the "simple" bot, the players all human, so the page shows a human's turn
(or the end screen) at once.
"""

from __future__ import annotations

import functools
import json

import pytest
from harness.pages import DESKTOP, GAME_PAGES, LANDSCAPE, PHONE_320, PHONE_360, GamePage

from pygames import FAMILIES, DiceSampler, Match, Player
from pygames.bots import bot_for

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

SIZES = {name: (v["width"], v["height"]) for name, v in
         (("320", PHONE_320), ("360", PHONE_360), ("1280", DESKTOP), ("740x360", LANDSCAPE))}


@functools.lru_cache(maxsize=None)
def record_json(family: str, end: bool, plies: int = 7, seed: str = "layout") -> str:
    """A saved game with the most players: `plies` decisions in (a human's turn, the dice
    on the table), or played to the end (end=True; plies < 0: that many decisions before
    the end)."""
    game = FAMILIES[family].games[0]
    players = [Player(f"Joueur {i + 1}", "human") for i in range(game.max_players)]
    match = Match(game, players, None, DiceSampler(seed))
    bot = bot_for(game, "simple")
    match.advance_chance()
    marks = []  # the length of the history before each decision
    while not match.state.is_terminal() and (end or len(marks) < plies):
        marks.append(len(match.history))
        match.apply(bot(match.state))
        match.advance_chance()
    record = match.to_record()
    if end and plies < 0:
        record["actions"] = record["actions"][:marks[plies]]
    else:
        assert match.state.is_terminal() == end
    return json.dumps({"record": record})


def open_saved(page, site_url: str, family: str, blob: str | None, fresh: bool = False) -> GamePage:
    """Open a game page with `blob` as its only stored value (None: nothing stored)."""
    return GamePage(page, site_url, family).open_saved(blob, clear=True, fresh=fresh, pace=None,
                                                         motion=None)


def size(page, name: str) -> None:
    w, h = SIZES[name] if name in SIZES else map(int, name.split("x"))
    page.set_viewport_size({"width": w, "height": h})


#: Everything shown on the page that ends beyond the right edge (or starts left of 0):
#: a page that fits has none, and does not scroll sideways.
OVERFLOW_JS = """() => {
  const out = [];
  const w = document.documentElement.clientWidth;
  for (const e of document.querySelectorAll('header.site *, main *, footer *')) {
    if (!e.checkVisibility() || e.closest('.sr-only, dialog')) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > w + 0.5 || r.left < -0.5)
      out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return {scroll: document.documentElement.scrollWidth, width: innerWidth, cut: out.slice(0, 8)};
}"""


def assert_fits(page, where: str) -> None:
    m = page.evaluate(OVERFLOW_JS)
    assert m["scroll"] <= m["width"], f"{where}: the page is {m['scroll']} px wide in {m['width']} px"
    assert not m["cut"], f"{where}: cut off at the right edge: {m['cut']}"


def assert_sheet_readable(page, where: str) -> None:
    """The Yams sheet: the first column's labels are not clipped, and the column heads
    sit above the rows (not floating over them)."""
    m = page.evaluate("""() => {
      const heads = [...document.querySelectorAll('#sheet-head th')].map(th => th.getBoundingClientRect());
      const first = document.querySelector('#sheet-body tr').getBoundingClientRect();
      const labels = [...document.querySelectorAll('#sheet-body th[scope=row]')];
      const clipped = labels.filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent);
      return {headBottom: Math.max(...heads.map(r => r.bottom)), firstTop: first.top,
              right: Math.max(...heads.map(r => r.right)), width: innerWidth, clipped,
              firstWidth: heads[0].width};
    }""")
    assert m["headBottom"] <= m["firstTop"] + 1, f"{where}: the column heads float over the rows: {m}"
    assert m["right"] <= m["width"] + 0.5, f"{where}: the last column is cut off: {m}"
    assert not m["clipped"] and m["firstWidth"] >= 48, f"{where}: first column unreadable: {m}"


@pytest.mark.parametrize("family", GAME_PAGES)
def test_fits_every_width(page, site_url, request_log, family):
    """Setup (with the most players), the game with the most players and the end screen fit
    320, 360, 740 and 1280 px: no sideways scrolling, nothing cut off (the header's buttons
    included), the Yams sheet readable, an h1 in view during play; the game screen opens
    at its top (site header in view) after Commencer at the bottom of a scrolled setup, and
    the end screen opens on its title."""
    page.emulate_media(reduced_motion="reduce")
    size(page, "360")
    open_saved(page, site_url, family, None, fresh=True)
    page.evaluate("""() => { const add = document.getElementById('add-player');
                             while (!add.disabled) add.click(); }""")
    for name in SIZES:
        size(page, name)
        assert_fits(page, f"{family} {name} setup with the most players")
    size(page, "360")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    page.locator("#start").click()
    page.wait_for_function("() => !document.getElementById('table').hidden")
    top = page.evaluate("document.querySelector('header.site').getBoundingClientRect().top")
    assert top >= 0, f"{family}: the game screen opens scrolled down ({top})"

    open_saved(page, site_url, family, record_json(family, False))
    for name in SIZES:
        size(page, name)
        page.evaluate("window.scrollTo(0, 0)")
        assert_fits(page, f"{family} {name} play")
        h1 = page.locator("header.site h1").bounding_box()
        assert h1 and h1["width"] > 20 and h1["y"] >= 0, f"{family} {name}: no h1 in view: {h1}"
        if family == "yams":
            assert_sheet_readable(page, f"{name} play")
    # Short screens (a landscape phone, 200 % zoom): the dice panel leaves at least half of
    # the screen to the sheet/board (it sits beside it, or does not stick).
    for name in ("740x360", "640x400"):
        size(page, name)
        m = page.evaluate(UNCOVERED_JS)
        assert m["free"] >= m["height"] / 2, f"{family} {name}: the dice panel covers the board: {m}"

    size(page, "740x360")
    open_saved(page, site_url, family, record_json(family, True))
    assert page.locator("#end").is_visible()
    title = page.evaluate("(() => { const r = document.getElementById('end-title').getBoundingClientRect();"
                          " return [r.top, r.bottom, innerHeight]; })()")
    assert title[0] >= 0 and title[1] <= title[2], f"{family}: end title out of view {title}"
    for name in SIZES:
        size(page, name)
        assert_fits(page, f"{family} {name} end")


#: How much of the viewport shows the game's board/sheet rather than the dice panel, once
#: scrolled into the middle of the board/sheet.
UNCOVERED_JS = """() => {
  const play = document.querySelector('#table .play');
  const other = [...document.getElementById('table').children].find(e => !e.classList.contains('play'));
  const y = other.getBoundingClientRect().top + scrollY;
  window.scrollTo(0, y + other.offsetHeight / 2 - innerHeight / 2);
  const p = play.getBoundingClientRect(), o = other.getBoundingClientRect();
  const side = p.right <= o.left + 1 || p.left >= o.right - 1;
  const covered = side ? 0 : Math.max(0, Math.min(p.bottom, innerHeight) - Math.max(p.top, 0));
  const visible = Math.max(0, Math.min(o.bottom, innerHeight) - Math.max(o.top, 0));
  return {free: visible - covered, height: innerHeight, sticky: getComputedStyle(play).position};
}"""


def test_yams_headers_follow_the_panel(page, site_url, request_log):
    """Phone: the sheet's column heads stick just under the dice panel while the sheet
    scrolls; on the end screen (no panel) they stick at the top, not 248 px down."""
    size(page, "360")
    page.emulate_media(reduced_motion="reduce")
    open_saved(page, site_url, "yams", record_json("yams", False))
    js = """() => {
      const sheet = document.getElementById('sheet');
      window.scrollTo(0, sheet.getBoundingClientRect().top + scrollY + sheet.offsetHeight / 2);
      const play = document.querySelector('#table .play');
      const th = document.querySelector('#sheet-head th').getBoundingClientRect();
      const p = play.checkVisibility() ? play.getBoundingClientRect().bottom : 0;
      return [th.top, Math.max(0, p)];
    }"""
    head, panel = page.evaluate(js)
    assert abs(head - panel) <= 2, f"the heads are at {head}, the panel ends at {panel}"
    # The last box of the game, filled on the page: the panel goes, the end screen comes.
    open_saved(page, site_url, "yams", record_json("yams", True, -1))
    page.locator(".sheet .box:not([disabled])").first.click()
    page.locator("#end").wait_for()
    head, panel = page.evaluate(js)
    assert panel == 0 and abs(head) <= 2, f"end screen: the heads stick {head} px down"


# --- contrast ------------------------------------------------------------------------

#: A small WCAG contrast helper in the page: the colour of a text or focus ring against
#: the backgrounds under it (alpha composited up the ancestors; background images are not
#: read: the felt is one colour).  e2e/test_contrast.py checks every pair of every page.
CONTRAST_JS = """
(() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const bg = (e) => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let out = [255, 255, 255, 1];
    for (const c of layers.reverse()) out = over(c, out);
    return out;
  };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => p - q); return (y + 0.05) / (x + 0.05); };
  window.__contrast = {
    text(sel, under) {  // under: the element drawn beneath (if not an ancestor)
      const e = document.querySelector(sel);
      if (!e) return null;
      const back = bg(under ? e.closest(under).parentElement : e);
      return ratio(over(parse(getComputedStyle(e).color), back), back);
    },
    async ring(sel) {  // focus the control, then: its ring against the control and around it
      const e = document.querySelector(sel);
      if (e.disabled) return null;
      e.focus();
      await Promise.all(e.getAnimations().map((a) => a.finished));  // a transition to its end
      const s = getComputedStyle(e);
      const colours = [parse(s.outlineColor)];
      const shadow = s.boxShadow.match(/rgba?\\([^)]+\\)/g) || [];
      if (shadow.length) colours.push(parse(shadow[0]));
      const inside = bg(e), around = bg(e.parentElement);
      const best = (under) => Math.max(...colours.filter(Boolean).map((c) => ratio(over(c, under), under)));
      return {visible: e.matches(':focus-visible') && s.outlineStyle !== 'none',
              inside: best(inside), around: best(around)};
    },
  };
})()
"""

#: Texts that must reach 4.5:1 on every page (those of the page that exist are checked);
#: (selector, drawn over): a label placed outside its parent (a die's number above it).
TEXTS = ["header.site h1", "#turn-info", "#hint", "#roll", ("#dice .num", ".die"), ".sheet .box.zero",
         ".sheet tr.sub td", ".sheet th[scope=row] small", ".sheet-legend", ".sheet thead th",
         ".seats .bot", ".seats .status", ".linotte .seat .left", ".track-score .float",
         ".landais .pot-note", ".t421 .phase-info"]
#: Controls whose focus ring must reach 3:1 against the control and what surrounds it.
RINGS = ["#roll", "#open-rules", "#dice button:not([disabled])", ".sheet .box:not([disabled])", "#theme-choice"]


def check_contrast(page, where: str) -> None:
    page.evaluate(CONTRAST_JS)
    checked = 0
    for sel in TEXTS:
        sel, under = sel if isinstance(sel, tuple) else (sel, None)
        r = page.evaluate("([s, u]) => window.__contrast.text(s, u)", [sel, under])
        if r is None:
            continue
        checked += 1
        assert r >= 4.5, f"{where}: text {sel} has contrast {r:.2f}:1"
    assert checked >= 4, f"{where}: only {checked} texts found"
    page.keyboard.press("Shift")  # a keyboard user: focus shows its ring
    for sel in RINGS:
        if not page.locator(sel).count():
            continue
        r = page.evaluate("s => window.__contrast.ring(s)", sel)
        if r is None:
            continue  # disabled now
        assert r["visible"], f"{where}: {sel} shows no focus ring"
        assert r["inside"] >= 3 and r["around"] >= 3, f"{where}: focus ring of {sel}: {r}"


@pytest.mark.parametrize("family", GAME_PAGES)
def test_contrast(page, site_url, request_log, family):
    """Texts >= 4.5:1 and focus rings >= 3:1 on the game screen (a human's turn with the
    dice on the table) in both themes; the dark theme follows prefers-color-scheme."""
    size(page, "360")
    page.emulate_media(reduced_motion="reduce", color_scheme="light")
    open_saved(page, site_url, family, record_json(family, False))
    check_contrast(page, f"{family} light")
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_function(f"() => document.documentElement.dataset.theme === '{scheme}'")
        body = page.evaluate("getComputedStyle(document.body).backgroundColor")
        dark_body = sum(int(v) for v in body[body.index("(") + 1:body.index(")")].split(",")[:3]) < 150
        assert dark_body == (scheme == "dark"), f"{scheme} theme: body background {body}"
    check_contrast(page, f"{family} dark")


def test_theme_switch_is_remembered(page, site_url, request_log):
    """The header's switch: Sombre under a light system, Clair under a dark one, kept across
    a reload; a damaged stored value falls back to Auto; the home page has it too."""
    size(page, "360")
    page.emulate_media(reduced_motion="reduce", color_scheme="light")
    game = open_saved(page, site_url, "421", record_json("421", False))
    switch = page.get_by_label("Thème")
    assert switch.input_value() == "auto"
    switch.select_option("dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    game.mark_unready()
    page.reload()
    game.wait_ready()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.get_by_label("Thème").input_value() == "dark"
    page.emulate_media(color_scheme="dark")
    page.get_by_label("Thème").select_option("light")
    page.goto(site_url)  # the home page: same choice
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert page.get_by_label("Thème").input_value() == "light"
    page.evaluate("localStorage.setItem('pygames:theme', '{\"bad\": 1}')")
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"  # auto: the system's
    assert page.get_by_label("Thème").input_value() == "auto"


# --- the Yams sheet's numbers, the embed box ---------------------------------------------

def test_yams_numbers_explained(page, site_url, request_log):
    """The subtotal's bracket and the prime's "−63" are explained under the sheet and in
    the rules, and said in words to a screen reader; the Boîte à jeux rules say "Yam"
    like its sheet."""
    size(page, "360")
    page.emulate_media(reduced_motion="reduce")
    open_saved(page, site_url, "yams", record_json("yams", False))
    legend = page.locator("#sheet-legend")
    assert legend.is_visible()
    text = legend.inner_text()
    assert "Sous-total" in text and "Prime +35" in text and "manque" in text
    bonus_row = page.locator("#sheet-body tr").nth(7)
    assert "Prime de 35 points" in bonus_row.locator("th").text_content()
    cell = bonus_row.locator("td").first
    assert cell.locator("[aria-hidden=true]").inner_text().startswith("−")
    said = cell.locator(".sr-only").text_content()
    assert said.startswith("il manque ") and "prime de 35 points" in said, said
    rules = page.locator("#rules")
    assert "Lire la feuille" in rules.text_content()
    assert "Tant qu'elle n'est pas gagnée" in rules.text_content()
    boite = page.locator("#rules [data-ruleset=yams-boite]").text_content()
    assert "Yams" not in boite and "Yam" in boite


def test_embed_box_fits_a_phone(page, site_url, request_log):
    """The Intégrer dialog's code boxes fit a 320 px screen."""
    size(page, "320")
    page.emulate_media(reduced_motion="reduce")
    open_saved(page, site_url, "yams", None, fresh=True)
    page.locator("#open-embed").click()
    page.wait_for_function("() => document.getElementById('embed').open")
    boxes = page.evaluate("""() => [...document.querySelectorAll('#embed textarea')].map(t => {
        const r = t.getBoundingClientRect(), d = t.closest('dialog').getBoundingClientRect();
        return [r.left, r.right, d.left, d.right, innerWidth, t.scrollHeight, t.clientHeight]; })""")
    for left, right, dleft, dright, width, content, shown in boxes:
        assert dleft >= 0 and dright <= width and left >= dleft and right <= dright, boxes
        assert content <= shown + 2, f"the code box hides part of its code: {boxes}"
