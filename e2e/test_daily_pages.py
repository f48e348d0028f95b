"""The day's challenge ("Défi du jour") on every game page: a daily played to its end on the
day's dice, shared (the text and its replay link), reloaded (the result, not a new game),
refused a second try; a bad date gets a notice and changes nothing; the setup's button
starts today's by keyboard alone."""

from __future__ import annotations

import random

import pytest
from harness import site
from harness.pages import GAME_PAGES, NO_ZERO_QUESTION, GamePage, daily_near_end

from pygames import FAMILIES

pytestmark = pytest.mark.warm

DAY = "2025-06-14"


def clean(game: GamePage) -> None:
    """An empty storage on the site's origin, as a player who turned off the 0 question."""
    game.at_origin()
    game.page.evaluate("() => localStorage.clear()")
    game.page.evaluate(f"() => {{ {NO_ZERO_QUESTION} }}")


def finish(game: GamePage, rng) -> None:
    for _ in range(60):
        if game.play_random(20, rng) < 20:
            break
    game.wait_end()


@pytest.mark.parametrize("family", GAME_PAGES)
def test_daily_played_shared_reloaded_and_refused(page, site_url, family, request_log):
    game = GamePage(page, site_url, family)
    clean(game)
    game.store("match", daily_near_end(family, DAY, f"daily-{family}"))
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["pygames:daily", (
        '{"format":"pygames-daily/1","days":{"%s":{"%s":{"status":"playing","game":"%s"}}}}'
        % (family, DAY, FAMILIES[family].games[0].id))])
    game.open(daily=DAY)
    # The saved daily is resumed, marked as the day's challenge.
    assert page.locator("#table").is_visible()
    assert DAY in page.text_content("#daily-badge") and page.locator("#daily-badge").is_visible()
    finish(game, random.Random(family))
    assert game.record()["daily"] == DAY
    # The share: the text (date, result, picture) and the replay link.
    share = page.locator("#end #daily-share")
    assert share.is_visible()
    text = page.text_content("#daily-share-text")
    assert DAY in text and "#replay=" in page.get_attribute("#end #daily-watch", "href")
    assert game.words("site.daily.share.title", game=game.words(f"game.{game.game.id}.title"), date=DAY) in text
    page.click("#daily-copy")
    page.wait_for_function("() => document.getElementById('daily-status').textContent.length > 0")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('pygames:daily'))")
    assert stored["days"][family][DAY]["status"] == "done"
    # Reloaded: the day's result and share, never a new game (one try).
    record = game.record()
    game.reload()
    assert page.locator("#daily").is_visible() and page.locator("#table").is_hidden()
    assert game.words("site.daily.done.title", date=DAY) == page.text_content("#daily-title")
    assert DAY in page.text_content("#daily #daily-share-text")
    assert game.record() == record
    # Asked again from the setup (today is another day: the stored day is asked by URL).
    game.open(daily=DAY)
    assert page.locator("#daily").is_visible() and game.record() == record
    # The replay link shows the game.
    link = page.get_attribute("#daily-watch", "href")
    assert "#replay=" in link
    # The statistics keep it apart.
    stats = page.evaluate("() => localStorage.getItem('pygames:stats')")
    assert stats is None or DAY not in stats


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_bad_date_changes_nothing(page, site_url, family, request_log):
    game = GamePage(page, site_url, family)
    clean(game)
    game.open(daily="2025-02-30")
    notice = page.locator("#daily-notice")
    assert notice.is_visible()
    assert "2025-02-30" in notice.text_content()
    assert game.screen() == "setup" and game.get_item("match") is None
    assert page.evaluate("() => localStorage.getItem('pygames:daily')") is None


def test_keyboard_only_daily(page, site_url, request_log):
    """Tab to "Défi du jour", Enter: today's game starts, marked; the dice roll by key."""
    game = GamePage(page, site_url, "yams")
    clean(game)
    game.open(fresh=True)
    game.focus_by_tab("#daily-start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('table').hidden")
    assert page.locator("#daily-badge").is_visible()
    today = game.record()["daily"]
    assert len(today) == 10
    page.keyboard.press("Space")
    game.wait_actions_at_least(2)
    game.focus_by_tab("#table [data-action^='score']")
    page.keyboard.press("Enter")
    game.wait_actions_at_least(3)
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('pygames:daily'))")
    assert stored["days"]["yams"][today]["status"] == "playing"
    # Left for another game: that was the day's try.
    game.quit_to_setup()
    game.focus_by_tab("#daily-start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('daily').hidden")
    assert page.evaluate("document.activeElement.id") == "daily-title"


@pytest.fixture(scope="module")
def other_device(browser, browser_context_args):
    """A second browser context (its own storage and cache): another visitor's device."""
    context = browser.new_context(**browser_context_args)
    context.add_init_script(NO_ZERO_QUESTION)
    log = site.RequestLog().attach(context)
    yield context
    context.close()
    log.assert_all_local()


def first_throw(game: GamePage, day: str) -> str:
    """The day's challenge opened on `day` with an empty storage, played until the dice
    have landed once: the notation of that first throw."""
    clean(game)
    game.open(daily=day)
    assert game.record()["daily"] == day
    rng = random.Random(day)
    for _ in range(10):
        throws = [p.action for p in game.replay().positions() if p.before.is_chance()]
        if throws:
            return str(throws[0])
        game.play_random(1, rng)
    raise AssertionError("no dice landed")


@pytest.mark.parametrize("family", GAME_PAGES)
def test_two_devices_deal_the_same_dice_on_one_day_and_others_the_next(page, other_device, site_url, family,
                                                                        request_log):
    here = GamePage(page, site_url, family)
    there = GamePage(other_device.new_page(), site_url, family)
    try:
        mine = first_throw(here, DAY)
        assert first_throw(there, DAY) == mine
        assert first_throw(there, "2025-06-15") != mine
    finally:
        there.page.close()
