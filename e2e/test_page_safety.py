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
from harness.pages import ACTION_CONTROLS, GAME_PAGES, GamePage, aside_keys, empty_filler, fill_storage

from pygames import FAMILIES, load_match

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

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


# --- corrupt storage -------------------------------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
@pytest.mark.parametrize("bad, fresh", [
    ({"match": DEEP, "setup": '{"game":[]}'}, False),
    ({"setup": '{"players":5}'}, True),
    ({"match": '{"record": {"format": "pygames/1", "game": 5, "players": "x"}}',
      "setup": '{"options":[]}'}, False),
    ({"setup": DEEP}, True),
])
def test_a_corrupt_stored_value_is_set_aside(page, site_url, family, bad, fresh, request_log):
    game = GamePage(page, site_url, family)
    game.at_origin()
    for where, value in bad.items():
        game.store(where, value)
    game.open(fresh=fresh)
    assert page.locator("#setup").is_visible()
    notice = page.text_content("#setup-notice")
    assert "de côté" in notice and len(notice) < 700, notice
    kept = aside_keys(page)
    for where in bad:
        key = f"pygames:{family}:{where}"
        assert any(k.startswith(f"pygames:corrupt:{key}:") for k in kept), (key, kept)
    assert len(kept) <= 2  # bounded: only the newest two are kept
    game.start()
    assert game.replay().game.family == family


@pytest.mark.parametrize("family", GAME_PAGES)
def test_the_embed_page_survives_its_corrupt_keys(page, site_url, family, request_log):
    game = GamePage(page, site_url, family, embed=True, instance="bad1")
    game.open()
    assert (game.key("setup"), game.key("match")) == (f"pygames:{family}:setup:bad1",
                                                      f"pygames:{family}:match:bad1")
    game.store("setup", '{"game":[]}')
    game.store("match", DEEP)
    game.open()
    assert page.locator("#setup").is_visible()
    assert "de côté" in page.text_content("#setup-notice")
    game.start()


# --- two tabs --------------------------------------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_two_tabs_lose_no_action(context, site_url, family, request_log):
    a = GamePage(context.new_page(), site_url, family).open(fresh=True, seed="tabs")
    a.start()
    b = GamePage(context.new_page(), site_url, family).open(seed="tabs")
    assert b.page.locator("#table").is_visible()
    played = b.play_random(3, random.Random(3))
    record_b = b.record()
    # A follows B (the storage event), so A's next action comes after B's.
    a.page.wait_for_function("(n) => document.querySelectorAll('#table').length && true", arg=0)
    a.page.bring_to_front()
    a.play_random(1, random.Random(4))
    record = a.record()
    assert record["actions"][: len(record_b["actions"])] == record_b["actions"], (played, record)
    load_match(record)
    # Abandoned in one tab: the other does not bring it back.
    a.page.once("dialog", lambda d: d.accept())
    a.page.click("#quit")
    b.page.wait_for_function("() => !document.getElementById('setup').hidden")
    assert b.get_item("match") is None


SAVES_WATCH = """
window.__saves = 0;
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (k, v) {
  if (/^pygames:[^:]+:match$/.test(k)) window.__saves += 1;
  return setItem.call(this, k, v);
};
"""


def saves(game: GamePage) -> int:
    """How many times this tab has saved the game since it opened."""
    return game.page.evaluate("window.__saves")


@pytest.mark.parametrize("family", GAME_PAGES)
def test_one_tab_plays_the_computer_and_the_other_takes_over_when_it_closes(
        context, site_url, family, request_log):
    tabs = []
    for _ in range(2):
        page = context.new_page()
        page.add_init_script(SAVES_WATCH)
        tabs.append(GamePage(page, site_url, family))
    a, b = tabs
    a.at_origin()
    a.store("setup", {"game": a.game.id, "options": {}, "players": computer_players(family)})
    a.open(fresh=True, seed="drive", pace=300)
    a.start()
    a.page.wait_for_function("() => window.__saves >= 3")
    b.open(seed="drive", pace=300)  # the newest tab plays the computer's turns
    b.page.wait_for_function("() => window.__saves >= 1")
    quiet = saves(a)
    b.page.wait_for_function("() => window.__saves >= 4")
    assert saves(a) == quiet, "the following tab played too"
    seen = b.actions()
    assert a.actions() >= seen - 1  # it follows
    b.page.close()  # the driving tab is gone: the other one goes on by itself
    a.page.wait_for_function("(n) => window.__saves > n", arg=quiet, timeout=30_000)
    record = a.record()
    assert len(record["actions"]) > seen
    load_match(record)


# --- full storage -------------------------------------------------------------------------

@pytest.mark.parametrize("family", GAME_PAGES)
def test_storage_at_its_quota_says_so_and_offers_a_way_out(page, site_url, family, request_log, tmp_path):
    game = GamePage(page, site_url, family).open(fresh=True, seed="quota")
    fill_storage(page)
    game.start()
    page.wait_for_function("() => !document.getElementById('save-trouble').hidden")
    assert "pas pu être enregistrée" in page.text_content("#save-trouble")
    # The game goes on in memory.
    control = page.locator(ACTION_CONTROLS).first
    control.click()
    with page.expect_download() as info:
        page.click("#download-game")
    path = info.value.path()
    record = json.loads(open(path, encoding="utf-8").read())
    match = load_match(record)
    assert match.game.family == family and record["actions"]
    # Freeing the site's own space does not touch other sites' data; clearing the filler
    # (another page of the site) lets the next save through.
    empty_filler(page)
    page.click("#free-space")
    page.wait_for_function("() => document.getElementById('save-trouble').hidden")
    # The downloaded file loads back in the page.
    game.forget("match")
    game.open(fresh=True)
    page.set_input_files("#load-game", path)
    page.wait_for_function("() => !document.getElementById('table').hidden || !document.getElementById('end').hidden")
    assert game.record()["actions"][: len(record["actions"])] == record["actions"]


# --- hostile names and the CSP during a full game -----------------------------------------

HOSTILE = ["\u202eIRA", "<img src=x onerror=alert(1)>", "عمر"]


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_full_game_under_the_csp_with_hostile_names(page, site_url, family, request_log):
    page.add_init_script(CSP_WATCH)
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(d.message)))
    game = GamePage(page, site_url, family).open(seed="csp")
    csp = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "default-src 'none'" in csp and "'unsafe-inline'" not in csp
    players = computer_players(family, HOSTILE)
    game.store("setup", {"game": game.game.id, "options": {}, "players": players})
    game.open(fresh=True, seed="csp")
    game.start()
    game.wait_end()
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

TABLE_PAGES = [f for f in GAME_PAGES if any(
    FAMILIES[f].game_tables(g, {}) and (FAMILIES[f].advisor or "expert" in g.seats)
    for g in FAMILIES[f].games[:1])]


@pytest.mark.parametrize("family", TABLE_PAGES)
def test_the_tables_are_fetched_once_a_game_is_set_up(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed="tables")
    name = FAMILIES[family].game_tables(game.game, {})
    with page.expect_response(lambda r: r.url.endswith(f"tables/{name}.bin"), timeout=60_000) as got:
        game.start()
    assert got.value.ok
