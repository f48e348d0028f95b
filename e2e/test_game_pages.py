"""Every game page of the registry, the same checks: it boots, its setup starts a game,
clicks on its controls play actions, a reload resumes the game exactly, a corrupt save
gives a notice and a usable setup, its embed page starts a game from its URL, and the
whole site works offline.  A game added to the registry with its page is covered with no
edit here.  Nothing may leave 127.0.0.1 (the request_log fixture fails the test otherwise).
"""

from __future__ import annotations

import random
import shutil
import time

import pytest

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

import serve
from pygames import FAMILIES

from harness import site
from harness.pages import BOOT_TIMEOUT_MS, GAME_PAGES, GamePage, open_embedded

#: How many files the active service worker holds in its precache (0 until it is active).
PRECACHED_JS = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg || !reg.active || reg.active.state !== 'activated') return 0;
    let n = 0;
    for (const name of (await caches.keys()).filter((n) => n.includes('precache')))
        n += (await (await caches.open(name)).keys()).length;
    return n;
}"""


@pytest.mark.parametrize("family", GAME_PAGES)
def test_setup_play_and_resume(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed=f"pages-{family}")
    assert page.locator("#setup").is_visible()
    assert page.locator("#player-rows li").count() >= FAMILIES[family].min_players
    assert page.title().startswith(FAMILIES[family].title)
    game.start()
    assert game.play_random(6, random.Random(family)) >= 3
    game.wait_person_or_end()  # the computer's moves (several actions at pace 0) are over
    record = game.record()
    match = game.replay()  # the page's record replays in CPython
    assert match.game.family == family
    game.open(seed=f"pages-{family}")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    assert game.record() == record
    live = game.live()
    assert live and live.strip()
    # The rules dialog opens and closes with the keyboard.
    page.click("#open-rules")
    assert page.locator("#rules").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#rules").is_hidden()


@pytest.mark.parametrize("family", GAME_PAGES)
@pytest.mark.parametrize("bad", ["{not json", '{"record": {"format": "pygames/1", "game": "nope"}}',
                                 '["a list"]'])
def test_corrupt_save_gives_a_notice_and_a_setup(page, site_url, family, bad, request_log):
    game = GamePage(page, site_url, family).open()
    game.store("match", bad)
    game.open()
    assert page.locator("#setup").is_visible()
    notice = page.text_content("#setup-notice")
    assert "La partie enregistrée n'a pas pu être reprise" in notice, notice
    game.start()


@pytest.mark.parametrize("family", GAME_PAGES)
def test_embed_page_starts_from_its_url(page, site_url, family, request_log):
    game = FAMILIES[family].games[0]
    players = ",".join(["Alice"] + [f"Ordi{i}:simple" for i in range(1, game.min_players)]
                       if game.min_players > 1 else ["Alice"])
    embedded = open_embedded(page, site_url, family, f"e2e-{family}", players=players, seed="e")
    assert page.evaluate("document.body.hasAttribute('data-embed')")
    assert embedded.play_random(2, random.Random(1)) >= 1


def test_home_page_lists_every_game(page, site_url, request_log):
    page.goto(site_url)
    cards = page.locator(".game-card")
    assert cards.count() == len(GAME_PAGES)
    for family in GAME_PAGES:
        card = page.locator(f'.game-card[data-family="{family}"]')
        assert card.locator("h2").text_content() == FAMILIES[family].title
        assert card.locator("a.play-link").get_attribute("href") == f"{family}.html"
        assert card.locator("a.resume-link").is_hidden()
    # A game in progress is offered for resuming.
    family = GAME_PAGES[0]
    GamePage(page, site_url, family).store("match", {"record": {"actions": []}})
    page.reload()
    assert page.locator(f'.game-card[data-family="{family}"] a.resume-link').is_visible()


@pytest.fixture(scope="module")
def offline_site(dist_dir, tmp_path_factory):
    copy = tmp_path_factory.mktemp("pages-offline") / "site"
    shutil.copytree(dist_dir, copy)
    return copy


def test_every_game_page_works_offline(browser, offline_site):
    server, url = serve.start_server(offline_site, prefix="/pygames/")
    context = browser.new_context()
    log = site.RequestLog().attach(context)
    try:
        page = context.new_page()
        GamePage(page, url, GAME_PAGES[0]).open(fresh=True, pace=None)
        expected = (offline_site / "sw.js").read_text().count('{url:"')
        deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
        # (Polled from Python: wait_for_function would take the promise itself as true.)
        while page.evaluate(PRECACHED_JS) < expected:
            assert time.monotonic() < deadline, "the service worker never finished its precache"
            page.wait_for_timeout(250)
        GamePage(page, url).reload()  # a second visit, online: the page is now the worker's
        assert page.evaluate("!!navigator.serviceWorker.controller")
    finally:
        site.stop_site(server)
    context.set_offline(True)
    for family in GAME_PAGES:
        game = GamePage(page, url, family).open(fresh=True)
        game.start()
        assert page.evaluate("!!navigator.serviceWorker.controller")
    page.goto(url)
    assert page.locator(".game-card").count() == len(GAME_PAGES)
    log.assert_all_local()
    context.close()
