"""Every game page of the registry, the same checks: it boots, its setup starts a game,
clicks on its controls play actions, a reload resumes the game exactly, a corrupt save
gives a notice and a usable setup, and its embed page starts a game from its URL (every
page offline: e2e/test_offline.py).  A game added to the registry with its page is covered
with no edit here.  Nothing may leave 127.0.0.1 (the request_log fixture fails the test otherwise).
"""

from __future__ import annotations

import random

import pytest
from harness.pages import GAME_PAGES, GamePage, open_embedded

from pygames import FAMILIES

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)


@pytest.mark.parametrize("family", GAME_PAGES)
def test_setup_play_and_resume(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed=f"pages-{family}")
    assert page.locator("#setup").is_visible()
    assert page.locator("#player-rows li").count() >= FAMILIES[family].min_players
    assert page.title().startswith(str(FAMILIES[family].title))
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
        assert card.locator("h2").text_content() == str(FAMILIES[family].title)
        assert card.locator("a.play-link").get_attribute("href") == f"{family}.html"
        assert card.locator("a.resume-link").is_hidden()
    # A game in progress is offered for resuming.
    family = GAME_PAGES[0]
    GamePage(page, site_url, family).store("match", {"record": {"actions": []}})
    page.reload()
    assert page.locator(f'.game-card[data-family="{family}"] a.resume-link').is_visible()
