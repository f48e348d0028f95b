"""Every game page of the registry, the same checks: it boots, its setup starts a game,
clicks on its controls play actions, a reload resumes the game exactly, a corrupt save
gives a notice and a usable setup, its embed page starts a game from its URL, and the
whole site works offline.  A game added to the registry with its page is covered with no
edit here.  Nothing may leave 127.0.0.1 (the request_log fixture fails the test otherwise).
"""

from __future__ import annotations

import json
import random
import time

import pytest

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

import build
import serve
import siteharness
from pygames import FAMILIES, load_match

BOOT_TIMEOUT_MS = 90_000
PAGES = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
ENABLED = "#table [data-action]:not([disabled]):not([hidden])"


#: How many files the active service worker holds in its precache (0 until it is active).
PRECACHED_JS = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg || !reg.active || reg.active.state !== 'activated') return 0;
    let n = 0;
    for (const name of (await caches.keys()).filter((n) => n.includes('precache')))
        n += (await (await caches.open(name)).keys()).length;
    return n;
}"""


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def open_page(page, url: str) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(url)
    wait_ready(page)


def reload(page) -> None:
    page.evaluate("delete document.body.dataset.ready")
    page.reload()
    wait_ready(page)


def saved(page, family: str, key: str | None = None) -> dict | None:
    text = page.evaluate("k => localStorage.getItem(k)", key or f"pygames:{family}:match")
    return json.loads(text) if text else None


def human_can_act(page) -> bool:
    """Wait until a human may click something, or the game is over (False)."""
    page.wait_for_function(
        f"""() => !document.getElementById('end').hidden
               || [...document.querySelectorAll({json.dumps(ENABLED)})].some((e) => e.checkVisibility())""",
        timeout=60_000)
    return page.locator("#end").is_hidden()


def click_actions(page, family: str, count: int, rng: random.Random, key: str | None = None) -> int:
    """Click `count` enabled action controls (a different one each time at random); each
    click must add to the saved record. Returns how many were played before the end."""
    key = key or f"pygames:{family}:match"
    played = 0
    for _ in range(count):
        if not human_can_act(page):
            break
        before = len(saved(page, family, key)["record"]["actions"])
        controls = page.locator(ENABLED).filter(visible=True)
        target = controls.nth(rng.randrange(controls.count()))
        notation = target.get_attribute("data-action")
        target.click()
        page.wait_for_function(
            "([key, n]) => JSON.parse(localStorage.getItem(key)).record.actions.length > n",
            arg=[key, before])
        actions = saved(page, family, key)["record"]["actions"]
        assert notation in actions[before:], (notation, actions[before:])
        played += 1
    return played


@pytest.mark.parametrize("family", PAGES)
def test_setup_play_and_resume(page, site_url, family, request_log):
    open_page(page, f"{site_url}{family}.html?fresh=1&seed=pages-{family}&pace=0")
    assert page.locator("#setup").is_visible()
    assert page.locator("#player-rows li").count() >= FAMILIES[family].min_players
    assert page.title().startswith(str(FAMILIES[family].title))
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")
    assert click_actions(page, family, 6, random.Random(family)) >= 3
    human_can_act(page)  # the computer's moves (several actions at pace 0) are over
    blob = saved(page, family)
    match = load_match(blob["record"])  # the page's record replays in CPython
    assert match.game.family == family
    open_page(page, f"{site_url}{family}.html?seed=pages-{family}&pace=0")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    assert saved(page, family)["record"] == blob["record"]
    live = page.text_content("#live")
    assert live and live.strip()
    # The rules dialog opens and closes with the keyboard.
    page.click("#open-rules")
    assert page.locator("#rules").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#rules").is_hidden()


@pytest.mark.parametrize("family", PAGES)
@pytest.mark.parametrize("bad", ["{not json", '{"record": {"format": "pygames/1", "game": "nope"}}',
                                 '["a list"]'])
def test_corrupt_save_gives_a_notice_and_a_setup(page, site_url, family, bad, request_log):
    open_page(page, f"{site_url}{family}.html?pace=0")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"pygames:{family}:match", bad])
    open_page(page, f"{site_url}{family}.html?pace=0")
    assert page.locator("#setup").is_visible()
    notice = page.text_content("#setup-notice")
    assert "La partie enregistrée n'a pas pu être reprise" in notice, notice
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")


@pytest.mark.parametrize("family", PAGES)
def test_embed_page_starts_from_its_url(page, site_url, family, request_log):
    game = FAMILIES[family].games[0]
    players = ",".join(["Alice"] + [f"Ordi{i}:simple" for i in range(1, game.min_players)]
                       if game.min_players > 1 else ["Alice"])
    open_page(page, f"{site_url}embed-{family}.html?players={players}&id=e2e-{family}&pace=0&seed=e")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    assert page.evaluate("document.body.hasAttribute('data-embed')")
    key = f"pygames:{family}:match:e2e-{family}"
    assert click_actions(page, family, 2, random.Random(1), key) >= 1


def test_home_page_lists_every_game(page, site_url, request_log):
    page.goto(site_url)
    cards = page.locator(".game-card")
    assert cards.count() == len(PAGES)
    for family in PAGES:
        card = page.locator(f'.game-card[data-family="{family}"]')
        assert card.locator("h2").text_content() == str(FAMILIES[family].title)
        assert card.locator("a.play-link").get_attribute("href") == f"{family}.html"
        assert card.locator("a.resume-link").is_hidden()
    # A game in progress is offered for resuming.
    family = PAGES[0]
    page.evaluate("k => localStorage.setItem(k, JSON.stringify({record: {actions: []}}))",
                  f"pygames:{family}:match")
    page.reload()
    assert page.locator(f'.game-card[data-family="{family}"] a.resume-link').is_visible()


@pytest.fixture(scope="module")
def offline_site(dist_dir, tmp_path_factory):
    import shutil

    copy = tmp_path_factory.mktemp("pages-offline") / "site"
    shutil.copytree(dist_dir, copy)
    return copy


def test_every_game_page_works_offline(browser, offline_site):
    server, url = serve.start_server(offline_site, prefix="/pygames/")
    context = browser.new_context()
    log = siteharness.RequestLog().attach(context)
    try:
        page = context.new_page()
        open_page(page, f"{url}{PAGES[0]}.html?fresh=1")
        expected = (offline_site / "sw.js").read_text().count('{url:"')
        deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
        # (Polled from Python: wait_for_function would take the promise itself as true.)
        while page.evaluate(PRECACHED_JS) < expected:
            assert time.monotonic() < deadline, "the service worker never finished its precache"
            page.wait_for_timeout(250)
        reload(page)  # a second visit, online: the page is now the worker's
        assert page.evaluate("!!navigator.serviceWorker.controller")
    finally:
        siteharness.stop_site(server)
    context.set_offline(True)
    for family in PAGES:
        open_page(page, f"{url}{family}.html?fresh=1&pace=0")
        page.click("#start")
        page.wait_for_function("!document.getElementById('table').hidden")
        assert page.evaluate("!!navigator.serviceWorker.controller")
    page.goto(url)
    assert page.locator(".game-card").count() == len(PAGES)
    log.assert_all_local()
    context.close()
