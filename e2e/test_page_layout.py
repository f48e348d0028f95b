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
from harness.pages import DESKTOP, GAME_PAGES, LANDSCAPE, PHONE_320, PHONE_360, GamePage, header_tool

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


#: Shown text set under 12 px (Lighthouse's "legible font sizes" on a phone): none.
SMALL_TEXT_JS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('header.site *, main *, footer *')) {
    if (!e.checkVisibility() || e.closest('.sr-only, dialog')) continue;
    const text = [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent.trim()).join('');
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (text && px < 12)
      out.push(`${e.tagName.toLowerCase()}.${e.className} ${px.toFixed(1)} px: ${text.slice(0, 24)}`);
  }
  return out.slice(0, 8);
}"""


def assert_legible(page, where: str) -> None:
    small = page.evaluate(SMALL_TEXT_JS)
    assert not small, f"{where}: text under 12 px: {small}"


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
    included), no text under 12 px, the Yams sheet readable, an h1 in view during play; the game screen opens
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
        assert_legible(page, f"{family} {name} setup")
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
        assert_legible(page, f"{family} {name} play")
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
        assert_legible(page, f"{family} {name} end")


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
    scrolls (the page measures the panel: js/layout.js); with the advisor's panel open, and
    on the end screen (no panel), they stick at the top, not 248 px down."""
    size(page, "360")
    page.emulate_media(reduced_motion="reduce")
    open_saved(page, site_url, "yams", record_json("yams", False))
    js = """async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));  // measured
      const sheet = document.getElementById('sheet');
      window.scrollTo(0, sheet.getBoundingClientRect().top + scrollY + sheet.offsetHeight / 2);
      const play = document.querySelector('#table .play');
      const th = document.querySelector('#sheet-head th').getBoundingClientRect();
      const p = play.checkVisibility() ? play.getBoundingClientRect().bottom : 0;
      return [th.top, Math.max(0, p)];
    }"""
    head, panel = page.evaluate(js)
    assert panel > 100 and abs(head - panel) <= 2, f"the heads are at {head}, the panel ends at {panel}"
    page.click("#advise")  # the advisor's panel: the dice panel scrolls away with the page
    head, panel = page.evaluate(js)
    assert panel == 0 and abs(head) <= 2, f"advisor open: the heads stick {head} px down"
    page.click("#advise")
    head, panel = page.evaluate(js)
    assert panel > 100 and abs(head - panel) <= 2, f"advisor closed: the heads at {head}, the panel {panel}"
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
RINGS = ["#roll", "#menu-toggle", "#open-rules", "#dice button:not([disabled])", ".sheet .box:not([disabled])",
         "#theme-choice"]


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
    header_tool(page, "#open-rules")  # the header's tools, in its Menu on a phone
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
    header_tool(page, "#theme-choice")  # on a phone, in the header's Menu
    switch = page.get_by_label("Thème")
    assert switch.input_value() == "auto"
    switch.select_option("dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    game.mark_unready()
    page.reload()
    game.wait_ready()
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    header_tool(page, "#theme-choice")
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
    header_tool(page, "#open-embed").click()
    page.wait_for_function("() => document.getElementById('embed').open")
    boxes = page.evaluate("""() => [...document.querySelectorAll('#embed textarea')].map(t => {
        const r = t.getBoundingClientRect(), d = t.closest('dialog').getBoundingClientRect();
        return [r.left, r.right, d.left, d.right, innerWidth, t.scrollHeight, t.clientHeight]; })""")
    for left, right, dleft, dright, width, content, shown in boxes:
        assert dleft >= 0 and dright <= width and left >= dleft and right <= dright, boxes
        assert content <= shown + 2, f"the code box hides part of its code: {boxes}"


# --- the header on a phone, whole selects, the bursts of joy (issue 20, items 5 and 9) ------

#: Each visible select: the width of its chosen text (measured in its own font) and of its
#: box for text (the content box; the arrow takes ARROW px of it in Chromium).
SELECTS_JS = """(root) => [...document.querySelectorAll(root + ' select')].filter((s) => s.checkVisibility())
  .flatMap((s) => [...s.options].map((o) => {
    const cs = getComputedStyle(s), probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;white-space:pre;visibility:hidden';
    probe.style.font = cs.font; probe.style.letterSpacing = cs.letterSpacing;
    const old = s.value; s.value = o.value;  // field-sizing: content follows the choice
    probe.textContent = o.textContent; document.body.append(probe);
    const text = probe.getBoundingClientRect().width; probe.remove();
    const box = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    s.value = old;
    return {select: s.id || s.getAttribute('aria-label') || s.name, option: o.textContent, text, box};
  }))"""
ARROW = 19  # Chromium: an auto-sized select is its widest text plus 19.9 px

#: The header's items in view (the brand, the title, Menu or the tools): its height, and
#: whether they share one row (every item crosses the same horizontal line).
HEADER_JS = """() => {
  const h = document.querySelector('header.site');
  const items = [...h.querySelectorAll(':scope > a, :scope > h1, :scope > button, .tools > *')]
    .filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 1)
    .map((e) => e.getBoundingClientRect());
  const cut = [...h.querySelectorAll(':scope > a, :scope > h1')]
    .filter((e) => e.checkVisibility() && e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1)
    .map((e) => e.textContent);
  return {height: h.getBoundingClientRect().height, items: items.length, cut,
          row: Math.max(...items.map((r) => r.top)) < Math.min(...items.map((r) => r.bottom))};
}"""


def assert_selects_whole(page, root: str, where: str) -> None:
    cut = [m for m in page.evaluate(SELECTS_JS, root) if m["text"] + ARROW > m["box"]]
    assert not cut, f"{where}: a select shows its text cut: {cut}"


def assert_header_one_row(page, where: str, phone: bool) -> None:
    m = page.evaluate(HEADER_JS)
    assert m["items"] >= 2 and m["row"], f"{where}: the header takes more than one row: {m}"
    assert not m["cut"], f"{where}: the brand or the title runs out of its box: {m}"
    if phone:
        assert m["height"] <= 56, f"{where}: the header is {m['height']} px tall: {m}"


def assert_theme_labelled(page, where: str) -> None:
    """The theme switch, in view (the Menu opened on a phone), with its visible label."""
    switch = header_tool(page, "#theme-choice")
    assert switch.is_visible(), where
    label = page.locator("label:has(#theme-choice) .theme-label")
    box = label.bounding_box()
    assert label.is_visible() and label.inner_text() == "Thème" and box["width"] > 20 and box["height"] > 8, \
        f"{where}: the theme switch has no visible label: {box}"
    assert page.get_by_label("Thème").evaluate("(e) => e.id") == "theme-choice"
    assert_selects_whole(page, "header.site", f"{where} header")


@pytest.mark.parametrize("family", (*GAME_PAGES, "home"))
def test_the_header_keeps_one_row_and_selects_read_whole(page, site_url, request_log, family):
    """At 320, 360, 740x360 and 1280 px, setup and play: the header takes one row (at most
    56 px on a phone), its tools in a Menu below 1200 px; the theme switch has a visible
    label; every select of the setup and of the header shows its whole text (each seat,
    "Ordinateur (débutant)" included; Auto, Clair, Sombre)."""
    page.emulate_media(reduced_motion="reduce")
    screens = ["home"] if family == "home" else ["setup", "play"]
    for screen in screens:
        if screen == "home":
            page.goto(site_url)
        elif screen == "setup":
            open_saved(page, site_url, family, None, fresh=True)
        else:
            open_saved(page, site_url, family, record_json(family, False))
        for name in SIZES:
            size(page, name)
            page.evaluate("window.scrollTo(0, 0)")
            where = f"{family} {screen} {name}"
            assert_header_one_row(page, where, phone=name != "1280")
            if screen == "setup":
                assert_selects_whole(page, "#setup", where)
            assert_fits(page, where)
            assert_theme_labelled(page, where)
            if page.locator("#menu-toggle").is_visible():
                page.keyboard.press("Escape")


@pytest.mark.parametrize("family", [f"embed-{f}" for f in GAME_PAGES[:2]])
def test_embed_setup_selects_read_whole(page, site_url, request_log, family):
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{site_url}{family}.html?fresh=1")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    for name in ("320", "360"):
        size(page, name)
        assert_selects_whole(page, "#setup", f"{family} {name}")
        assert_fits(page, f"{family} {name}")


def test_the_header_menu_works_by_keyboard(page, site_url, request_log):
    """The Menu of a phone: a button that says whether it is open; Enter opens it, Tab goes
    through its tools, Escape folds it and gives the focus back to Menu; a dialog opened
    from it gives the focus back to its button; a click elsewhere folds it. At 1280 px there
    is no Menu: the tools are in the header."""
    page.emulate_media(reduced_motion="reduce")
    size(page, "360")
    game = open_saved(page, site_url, "yams", record_json("yams", False))
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.get_attribute("aria-expanded") == "false" and page.locator("#open-rules").is_hidden()
    game.focus_by_tab("#menu-toggle")
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true" and page.locator("#open-rules").is_visible()
    seen = []
    for _ in range(12):
        page.keyboard.press("Tab")
        seen.append(game.focused())
    for tool in ("#quit", "#open-rules", "#open-stats", "#sound", "#theme-choice"):
        assert tool in seen, (tool, seen)
    page.focus("#open-rules")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('rules').open")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('rules').open")
    assert game.focused() == "#open-rules" and toggle.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false" and page.locator("#open-rules").is_hidden()
    assert game.focused() == "#menu-toggle"
    toggle.click()
    box = page.locator("#turn-info").bounding_box()
    page.mouse.click(box["x"] + 4, box["y"] + box["height"] / 2)  # beside the open menu
    assert toggle.get_attribute("aria-expanded") == "false"
    size(page, "1280")
    assert toggle.is_hidden() and page.locator("#open-rules").is_visible()


#: Every burst of joy as long as it shows, each frame: the controls and hints its box
#: crosses (none, ever), and how many frames it showed.
#: A burst shown (js/joy.js celebrate), then its animations (the words popping up, the paper
#: pieces) paused and stepped through every 50 ms to their end: at each step, the controls
#: and the hint that the burst's box or its words cross.  Then the burst is taken away (not
#: watched for its 1.8 s).
JOY_STEP_JS = """([words, kind]) => {
  window.pygames.joy.celebrate(words, false, kind);
  const burst = document.querySelector('.joy');
  if (!burst) return {shown: false};
  const clear = 'button, select, input, textarea, a[href], #hint, .hint';
  const controls = [...document.querySelectorAll(clear)].filter(
    (e) => e.checkVisibility() && !e.closest('.sr-only, .joy'));
  const animations = burst.getAnimations({subtree: true});
  for (const a of animations) a.pause();
  const end = Math.max(...animations.map((a) => a.effect.getComputedTiming().endTime));
  const crossed = [];
  let steps = 0;
  for (let t = 0; t <= end + 1; t += 50) {
    for (const a of animations) a.currentTime = t;
    steps += 1;
    const b = burst.getBoundingClientRect();
    const w = burst.querySelector('.joy-text').getBoundingClientRect();
    for (const e of controls) {
      const r = e.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      for (const x of [b, w]) if (x.left < r.right && x.right > r.left && x.top < r.bottom && x.bottom > r.top)
        crossed.push(`${e.tagName}#${e.id}.${e.className} at ${t} ms`);
    }
  }
  const shown = burst.isConnected && getComputedStyle(burst).visibility === 'visible'
    && burst.textContent === words;
  burst.remove();
  return {shown, steps, animations: animations.length, crossed};
}"""

#: Each page's moments of joy, by their words and kind (web/app/*_view.py joy, flow.py).
BURSTS = {"yams": ["Yams\u202f!"], "421": ["421\u202f!"], "linotte": ["Yam\u202f!"], "de-landais": ["Poigne\u202f!"]}


def burst_clear(page, words: str, kind: str, where: str) -> None:
    m = page.evaluate(JOY_STEP_JS, [words, kind])
    # the words' pop (1.7 s) and the 14 pieces' flight, from start to end
    assert m["shown"] and m["animations"] == 15 and m["steps"] >= 34, f"{where}: no burst shown: {m}"
    assert not m["crossed"], f"{where}: the burst covers {sorted(set(m['crossed']))[:6]}"


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_burst_of_joy_leaves_the_controls_clear(page, site_url, request_log, family, screenshot):
    """The bursts ("Yams !", "Poigne !", "Bravo !" at the end…) never cover a control or the
    hint, at 320, 360, 740x360 and 1280 px, during play and on the end screen, at every
    50 ms of their animation; with the header's Menu open too."""
    page.emulate_media(reduced_motion="no-preference")
    open_saved(page, site_url, family, record_json(family, False))
    for name in SIZES:
        size(page, name)
        page.evaluate("window.scrollTo(0, 0)")
        for words in BURSTS.get(family, ["Bravo\u202f!"]):
            burst_clear(page, words, "joy", f"{family} {name} play")
        burst_clear(page, "Bravo\u202f!", "win", f"{family} {name} play")
    size(page, "360")
    header_tool(page, "#open-rules")
    burst_clear(page, BURSTS[family][0], "joy", f"{family} 360 play, Menu open")
    page.keyboard.press("Escape")
    page.evaluate("""(w) => { window.pygames.joy.celebrate(w, false, 'joy');
                             window.scrollTo(0, 0); }""", BURSTS[family][0])
    page.wait_for_function("() => document.querySelector('.joy-text')?.getAnimations()[0]?.currentTime > 450")
    screenshot(page, f"joy_{family}_360", full_page=False)
    open_saved(page, site_url, family, record_json(family, True))
    for name in SIZES:
        size(page, name)
        burst_clear(page, "Bravo\u202f!", "win", f"{family} {name} end")
