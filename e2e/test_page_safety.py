"""Nothing lost, nothing bricked (issue 13), on every game page of the registry: each
corrupt stored value gives a notice, is set aside and leaves a usable game; two tabs on one
game stay in step; storage at its quota says so and offers a way out; a hostile name is
isolated where it is shown; the Content-Security-Policy holds with no violation during a
full game.
"""

from __future__ import annotations

import json
import random

import pytest

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

import build
import siteharness
from pygames import FAMILIES, load_match
from test_game_pages import ENABLED, click_actions, open_page, saved

PAGES = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
DEEP = '{"record":' + "[" * 20000 + "]" * 20000 + "}"
CSP_WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '')));
"""


def computer_players(family: str, names=None) -> list[dict]:
    game = FAMILIES[family].games[0]
    n = max(game.min_players, 2) if game.max_players > 1 else 1
    names = names or [f"Ordi{i + 1}" for i in range(n)]
    return [{"name": names[i % len(names)] + ("" if i < len(names) else str(i)), "seat": "simple"}
            for i in range(n)]


def set_item(page, key, value):
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])


def aside_keys(page) -> list[str]:
    return page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('pygames:corrupt:'))")


def start_game(page):
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")


# --- corrupt storage -------------------------------------------------------------------


@pytest.mark.parametrize("family", PAGES)
@pytest.mark.parametrize("bad, fresh", [
    ({"match": DEEP, "setup": '{"game":[]}'}, False),
    ({"setup": '{"players":5}'}, True),
    ({"match": '{"record": {"format": "pygames/1", "game": 5, "players": "x"}}',
      "setup": '{"options":[]}'}, False),
    ({"setup": DEEP}, True),
])
def test_a_corrupt_stored_value_is_set_aside(page, site_url, family, bad, fresh, request_log):
    siteharness.at_origin(page, site_url)
    for where, value in bad.items():
        set_item(page, f"pygames:{family}:{where}", value)
    open_page(page, f"{site_url}{family}.html?pace=0" + ("&fresh=1" if fresh else ""))
    assert page.locator("#setup").is_visible()
    notice = page.text_content("#setup-notice")
    assert "de côté" in notice and len(notice) < 700, notice
    kept = aside_keys(page)
    for where in bad:
        key = f"pygames:{family}:{where}"
        assert any(k.startswith(f"pygames:corrupt:{key}:") for k in kept), (key, kept)
    assert len(kept) <= 2  # bounded: only the newest two are kept
    start_game(page)
    assert load_match(saved(page, family)["record"]).game.family == family


@pytest.mark.parametrize("family", PAGES)
def test_the_embed_page_survives_its_corrupt_keys(page, site_url, family, request_log):
    url = f"{site_url}embed-{family}.html?id=bad1&pace=0"
    open_page(page, url)
    set_item(page, f"pygames:{family}:setup:bad1", '{"game":[]}')
    set_item(page, f"pygames:{family}:match:bad1", DEEP)
    open_page(page, url)
    assert page.locator("#setup").is_visible()
    assert "de côté" in page.text_content("#setup-notice")
    start_game(page)


# --- two tabs --------------------------------------------------------------------------


@pytest.mark.parametrize("family", PAGES)
def test_two_tabs_lose_no_action(context, site_url, family, request_log):
    url = f"{site_url}{family}.html?pace=0&seed=tabs"
    a = context.new_page()
    open_page(a, url + "&fresh=1")
    start_game(a)
    b = context.new_page()
    open_page(b, url)
    assert b.locator("#table").is_visible()
    key = f"pygames:{family}:match"
    played = click_actions(b, family, 3, random.Random(3))
    record_b = saved(b, family)["record"]
    # A follows B (the storage event), so A's next action comes after B's.
    a.wait_for_function("(n) => document.querySelectorAll('#table').length && true", arg=0)
    a.bring_to_front()
    click_actions(a, family, 1, random.Random(4))
    record = saved(a, family)["record"]
    assert record["actions"][: len(record_b["actions"])] == record_b["actions"], (played, record)
    load_match(record)
    # Abandoned in one tab: the other does not bring it back.
    a.once("dialog", lambda d: d.accept())
    a.click("#quit")
    b.wait_for_function("!document.getElementById('setup').hidden")
    assert b.evaluate("k => localStorage.getItem(k)", key) is None


# --- full storage -------------------------------------------------------------------------

FILL = """() => {
  const chunk = 'x'.repeat(256 * 1024);
  let i = 0;
  try { for (; i < 400; i++) localStorage.setItem('filler:' + i, chunk); } catch (e) {}
  let small = 'y'.repeat(1024);
  try { for (let j = 0; j < 2000; j++) localStorage.setItem('filler:s' + j, small); } catch (e) {}
  return i;
}"""


@pytest.mark.parametrize("family", PAGES)
def test_storage_at_its_quota_says_so_and_offers_a_way_out(page, site_url, family, request_log, tmp_path):
    open_page(page, f"{site_url}{family}.html?pace=0&seed=quota&fresh=1")
    page.evaluate(FILL)
    start_game(page)
    page.wait_for_function("!document.getElementById('save-trouble').hidden")
    assert "pas pu être enregistrée" in page.text_content("#save-trouble")
    # The game goes on in memory.
    control = page.locator(ENABLED).first
    control.click()
    with page.expect_download() as info:
        page.click("#download-game")
    path = info.value.path()
    record = json.loads(open(path, encoding="utf-8").read())
    match = load_match(record)
    assert match.game.family == family and record["actions"]
    # Freeing the site's own space does not touch other sites' data; clearing the filler
    # (another page of the site) lets the next save through.
    page.evaluate("() => { for (const k of Object.keys(localStorage)) if (k.startsWith('filler:')) localStorage.removeItem(k); }")
    page.click("#free-space")
    page.wait_for_function("document.getElementById('save-trouble').hidden")
    # The downloaded file loads back in the page.
    page.evaluate("k => localStorage.removeItem(k)", f"pygames:{family}:match")
    open_page(page, f"{site_url}{family}.html?pace=0&fresh=1")
    page.set_input_files("#load-game", path)
    page.wait_for_function("!document.getElementById('table').hidden || !document.getElementById('end').hidden")
    assert saved(page, family)["record"]["actions"][: len(record["actions"])] == record["actions"]


# --- hostile names and the CSP during a full game -----------------------------------------

HOSTILE = ["\u202eIRA", "<img src=x onerror=alert(1)>", "عمر"]


@pytest.mark.parametrize("family", PAGES)
def test_a_full_game_under_the_csp_with_hostile_names(page, site_url, family, request_log):
    page.add_init_script(CSP_WATCH)
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(d.message)))
    open_page(page, f"{site_url}{family}.html?pace=0&seed=csp")
    csp = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp
    players = computer_players(family, HOSTILE)
    game = FAMILIES[family].games[0]
    set_item(page, f"pygames:{family}:setup",
             json.dumps({"game": game.id, "options": {}, "players": players}))
    open_page(page, f"{site_url}{family}.html?pace=0&seed=csp&fresh=1")
    start_game(page)
    page.wait_for_function("!document.getElementById('end').hidden", timeout=120_000)
    assert page.evaluate("window.__csp") == []
    assert page.evaluate("document.querySelectorAll('#main img').length") == page.evaluate(
        "document.querySelectorAll('#main img:not([src=x])').length")
    # Every name the shell shows is isolated.
    isolated = page.evaluate("""() => [...document.querySelectorAll(
            '#end-title bdi, #ranking .name, #table .name, #table .who, #table .whose')]
        .map((n) => [n.textContent, getComputedStyle(n).unicodeBidi])""")
    names = {p["name"] for p in players}
    assert {t for t, _ in isolated} & names
    assert all(bidi == "isolate" for _, bidi in isolated), isolated
    # A right-to-left name does not turn the score around in the ranking.
    for item in page.locator("#ranking li").all():
        assert "stniop" not in item.inner_text()


# --- the expert's tables, fetched in the background for offline use ----------------------

TABLE_PAGES = [f for f in PAGES if any(
    FAMILIES[f].game_tables(g, {}) and (FAMILIES[f].advisor or "expert" in g.seats)
    for g in FAMILIES[f].games[:1])]


@pytest.mark.parametrize("family", TABLE_PAGES)
def test_the_tables_are_fetched_once_a_game_is_set_up(page, site_url, family, request_log):
    open_page(page, f"{site_url}{family}.html?pace=0&seed=tables&fresh=1")
    game = FAMILIES[family].games[0]
    name = FAMILIES[family].game_tables(game, {})
    with page.expect_response(lambda r: r.url.endswith(f"tables/{name}.bin"), timeout=60_000) as got:
        start_game(page)
    assert got.value.ok
