"""Every game page of the registry, the same checks, in every language (French at the
root, English in en/): it boots, its setup starts a game, clicks on its controls play
actions, a reload resumes the game exactly, a game goes to its end screen, a corrupt save
gives a notice and a usable setup, and its embed page starts a game from its URL (every
page offline: e2e/test_offline.py).  A game added to the registry with its page is covered
with no edit here.  Nothing may leave 127.0.0.1 (the request_log fixture fails the test otherwise).
"""

from __future__ import annotations

import random

import pytest
from harness.pages import GAME_PAGES, GamePage, nearly_finished, open_embedded, words

from pygames import FAMILIES, messages

#: The languages of the site's pages (the pseudo-language's are e2e/test_pseudo_language.py's).
LANGUAGES = tuple(messages.LANGUAGES)


def title(family: str, lang: str) -> str:
    return words(lang, f"family.{family}.title")

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", GAME_PAGES)
def test_setup_play_and_resume(page, site_url, family, lang, request_log):
    game = GamePage(page, site_url, family, lang=lang).open(fresh=True, seed=f"pages-{family}")
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#setup").is_visible()
    assert page.locator("#player-rows li").count() >= FAMILIES[family].min_players
    assert page.title().startswith(title(family, lang))
    assert page.text_content("#start").strip() == words(lang, "page.setup.start")
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
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_game_goes_to_its_end_screen(page, site_url, family, lang, request_log):
    """Computer players only, at full speed, from a saved game one decision before its end
    (whole games between computers: e2e/test_page_replay.py, test_page_safety.py): the
    computer's last move, played here, brings the end screen in the page's language, and a
    reload shows it again."""
    ruleset = FAMILIES[family].games[0]
    seat = [s for s in ruleset.seats if s != "human"][0]
    players = [f"Ordi{i}" for i in range(max(2, ruleset.min_players))]
    saved = nearly_finished(family, f"end-{family}", players, seat)
    game = GamePage(page, site_url, family, lang=lang)
    game.open_saved(saved, seed=f"end-{family}")
    game.wait_end()
    assert len(game.record()["actions"]) > len(saved["record"]["actions"])  # played here
    title_text = page.text_content("#end-title")
    winners = [p for p in game.replay().state.outcome().winners]
    names = [f"Ordi{i}" for i in winners]
    said = (words(lang, "end.wins", player=names[0]) if len(names) == 1
            else words(lang, "end.draw", players=names))
    assert " ".join(title_text.split()) == " ".join(said.split()), (title_text, said)
    game.reload()
    assert page.locator("#end").is_visible() and page.text_content("#end-title") == title_text


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
def test_a_corrupt_save_is_said_in_english_on_the_english_page(page, site_url, family, request_log):
    game = GamePage(page, site_url, family, lang="en").open()
    game.store("match", "{not json")
    game.open()
    notice = page.text_content("#setup-notice")
    said = words("en", "site.resume.failed", why="@").split("@")[0]
    assert notice.startswith(said), (notice, said)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("family", GAME_PAGES)
def test_embed_page_starts_from_its_url(page, site_url, family, lang, request_log):
    game = FAMILIES[family].games[0]
    players = ",".join(["Alice"] + [f"Ordi{i}:simple" for i in range(1, game.min_players)]
                       if game.min_players > 1 else ["Alice"])
    embedded = open_embedded(page, site_url, family, f"e2e-{family}", players=players, seed="e", lang=lang)
    assert page.evaluate("document.body.hasAttribute('data-embed')")
    assert page.evaluate("document.documentElement.lang") == lang
    assert embedded.play_random(2, random.Random(1)) >= 1


def test_a_game_started_in_french_resumes_in_english(page, site_url, request_log):
    """The saved game holds no words: the English page resumes the French page's game."""
    french = GamePage(page, site_url, "yams").open(fresh=True, seed="both")
    french.start()
    french.play_random(3, random.Random(3))
    record = french.record()
    english = GamePage(page, site_url, "yams", lang="en").open(seed="both")
    assert page.locator("#table").is_visible() and english.record() == record
    assert page.text_content("#open-rules").strip() == words("en", "page.rules")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_page_lists_every_game(page, site_url, lang, request_log):
    page.goto(site_url + ("" if lang == "fr" else f"{lang}/index.html"))
    assert page.evaluate("document.documentElement.lang") == lang
    cards = page.locator(".game-card")
    assert cards.count() == len(GAME_PAGES)
    for family in GAME_PAGES:
        card = page.locator(f'.game-card[data-family="{family}"]')
        assert card.locator("h2").text_content() == title(family, lang)
        assert card.locator("a.play-link").get_attribute("href") == f"{family}.html"
        assert card.locator("a.resume-link").is_hidden()
    # A game in progress is offered for resuming.
    family = GAME_PAGES[0]
    GamePage(page, site_url, family).store("match", {"record": {"actions": []}})
    page.reload()
    assert page.locator(f'.game-card[data-family="{family}"] a.resume-link').is_visible()
