"""The site in English (issue 21): the pages of en/ load and speak English (the header, the
setup, Python's words), the header's switch leads to the same page in French and back and
is remembered, the home page at the root follows the browser's languages on a first visit,
an English embed comes through embed.js's data-lang, and the English pages play offline
after a first visit.  Nothing may leave 127.0.0.1.
"""

from __future__ import annotations

import re
import shutil
import tempfile

import pytest
import serve
from harness import site
from harness.builds import precache_entries, wait_sw
from harness.pages import wait_ready
from harness.yams import play_one_turn

ENGLISH = {"locale": "en-US"}


@pytest.fixture
def english(browser):
    """A first visit from an English browser."""
    with site.local_context(browser, **ENGLISH) as context:
        yield context


def test_english_home_and_game_page(english, site_url):
    page = english.new_page()
    page.goto(site_url + "en/index.html")
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("header.site h1").inner_text() == "Dice games"
    assert page.locator('.game-card[data-family="yams"] a.play-link').inner_text() == "Play"
    hreflang = page.eval_on_selector_all('link[rel="alternate"]', "ls => ls.map(l => [l.hreflang, l.href])")
    assert dict(hreflang) == {"fr": site_url, "en": site_url + "en/", "x-default": site_url}
    page.click('.game-card[data-family="yams"] a.play-link')
    wait_ready(page)
    assert page.url.startswith(site_url + "en/yams.html")
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator("#open-rules").inner_text() == "Rules"
    assert page.locator("#setup-title").inner_text() == "New game"
    legends = page.locator("#setup-form legend").all_inner_texts()
    assert "Players" in legends and "Who plays on which device" in legends, legends
    assert page.locator("#add-player").inner_text() == "+ Add a player"
    assert page.get_attribute("#player-rows li input", "aria-label") == "Name of player 1"
    # Python speaks the page's catalogue: its words on the setup (seat labels) are English.
    seats = page.locator("#player-rows li select").first.locator("option").all_inner_texts()
    assert seats[0] == page.evaluate("pygames.t('seat.human')"), seats
    assert page.evaluate("JSON.parse(document.getElementById('catalogue').textContent).language") == "en"
    assert not page.evaluate("(window.pygames.errors || []).length")


def test_switch_goes_to_french_and_back_and_is_remembered(english, site_url):
    page = english.new_page()
    page.goto(site_url + "en/yams.html?fresh=1")
    wait_ready(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    switch = page.locator("a.language-switch")
    assert switch.inner_text() == "Français" and switch.get_attribute("lang") == "fr"
    switch.focus()
    page.keyboard.press("Enter")  # keyboard accessible
    page.wait_for_url(site_url + "yams.html")
    wait_ready(page)
    assert page.get_attribute("html", "lang") == "fr"
    assert page.locator("#open-rules").inner_text() == "Règles"
    assert page.evaluate("localStorage.getItem('pygames:lang')") == "fr"
    # The root now stays French for this English browser: the visitor chose.
    page.goto(site_url)
    page.wait_for_load_state()
    assert page.url == site_url and page.get_attribute("html", "lang") == "fr"
    # And back to English, remembered: the root then leads to en/.
    page.goto(site_url + "yams.html")
    wait_ready(page)
    page.locator("a.language-switch").click()
    page.wait_for_url(site_url + "en/yams.html")
    assert page.evaluate("localStorage.getItem('pygames:lang')") == "en"
    page.goto(site_url)
    page.wait_for_url(site_url + "en/")
    assert page.get_attribute("html", "lang") == "en"


def test_switch_is_in_the_menu_on_a_phone_and_keeps_the_game(english, site_url):
    page = english.new_page()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(site_url + "yams.html?fresh=1&pace=0&seed=lang")
    wait_ready(page)
    play_one_turn(page)
    saved = page.evaluate("localStorage.getItem('pygames:yams:match')")
    assert saved
    assert page.locator("a.language-switch").is_hidden()
    page.click("#menu-toggle")
    page.locator("a.language-switch").click()
    page.wait_for_url(site_url + "en/yams.html")
    wait_ready(page)
    # The same game, now in English (its storage keys do not depend on the language).
    assert page.locator("#table").is_visible()
    assert page.evaluate("localStorage.getItem('pygames:yams:match')") == saved


@pytest.mark.parametrize("locale, landing", [("en-US", "en/"), ("en-GB", "en/"), ("fr-FR", ""),
                                             ("de-DE", "")])
def test_root_follows_the_browser_languages_on_a_first_visit(browser, site_url, locale, landing):
    with site.local_context(browser, locale=locale) as context:
        page = context.new_page()
        page.goto(site_url)
        if landing:
            page.wait_for_url(site_url + landing)
        else:
            page.wait_for_load_state("load")
            page.wait_for_timeout(300)
        assert page.url == site_url + landing
        assert page.get_attribute("html", "lang") == ("en" if landing else "fr")


def test_root_stays_on_its_own_site_when_the_versions_are_full_urls(browser, site_url):
    """A build for the deployed site names the versions by full URL (build.py --url); a copy
    served elsewhere (here: this server) still sends an English browser to its own en/."""
    with site.local_context(browser, locale="en-US") as context:
        def deployed(route):
            html = route.fetch().text()
            html, n = re.subn(r'<link rel="alternate" hreflang="([a-z-]+)" href="([^"]*)">',
                              lambda m: (f'<link rel="alternate" hreflang="{m[1]}"'
                                         f' href="https://pygames.invalid/{m[2]}" data-href="{m[2]}">'),
                              html)
            assert n == 3
            route.fulfill(body=html, content_type="text/html; charset=utf-8")
        context.route(site_url, deployed)
        page = context.new_page()
        page.goto(site_url)
        page.wait_for_url(site_url + "en/")
        assert page.get_attribute("html", "lang") == "en"


BLOG = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blog</title></head>
<body><h1>My blog</h1>
<div id="en" data-pygames="yams" data-lang="en" data-pace="0"></div>
<div id="bad" data-pygames="nope" data-lang="en"></div>
<script src="SITE/embed.js" defer></script>
</body></html>
"""


def test_english_embed_through_data_lang(english, site_url):
    with tempfile.TemporaryDirectory() as root:
        server, blog = serve.start_server(root, prefix="/", extra_files={
            "blog.html": BLOG.replace("SITE/", site_url).encode()})
        try:
            page = english.new_page()
            page.goto(blog + "blog.html")
            src = page.get_attribute("#en iframe", "src")
            assert src.startswith(site_url + "en/embed-yams.html?")
            assert page.get_attribute("#en iframe", "title").endswith(", a dice game (pygames)")
            assert page.locator("#bad").inner_text() == "pygames: unknown game “nope”."
            frame = page.wait_for_selector("#en iframe").content_frame()
            wait_ready(frame)
            assert frame.get_attribute("html", "lang") == "en"
            assert frame.locator("#open-rules").inner_text() == "Rules"
        finally:
            site.stop_site(server)


def test_embed_dialog_of_an_english_page_gives_an_english_snippet(english, site_url):
    page = english.new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + "en/yams.html?fresh=1")
    wait_ready(page)
    page.click("#open-embed")
    loader = page.input_value("#embed-loader")
    assert 'data-lang="en"' in loader and f'src="{site_url}embed.js"' in loader
    assert f"{site_url}en/embed-yams.html?" in page.input_value("#embed-iframe")
    assert page.locator("#embed-title").inner_text() == "Embed this game"


def test_english_page_plays_offline_after_a_first_visit(browser, dist_dir):
    with tempfile.TemporaryDirectory() as tmp:
        copy = f"{tmp}/site"
        shutil.copytree(dist_dir, copy)
        server, url = serve.start_server(copy, prefix="/pygames/")
        expected = len(precache_entries(open(f"{copy}/sw.js", encoding="utf-8").read()))
        entries = precache_entries(open(f"{copy}/sw.js", encoding="utf-8").read())
        assert "en/yams.html" in entries and "en/pyscript.json" in entries
        assert not [e for e in entries if e.startswith("qps/")]
        with site.local_context(browser, **ENGLISH) as context:
            page = context.new_page()
            page.goto(url + "en/yams.html?fresh=1")
            wait_ready(page)
            wait_sw(page, expected)
            site.stop_site(server)
            context.set_offline(True)
            page.goto(url + "en/linotte.html?fresh=1")
            wait_ready(page)
            assert page.evaluate("!!navigator.serviceWorker.controller")
            assert page.locator("#add-player").inner_text() == "+ Add a player"
            page.goto(url + "en/")
            assert page.locator("header.site h1").inner_text() == "Dice games"


def test_pseudo_language_pages_are_built_but_not_linked(page, site_url, dist_dir):
    page.goto(site_url + "qps/yams.html?fresh=1")
    wait_ready(page)
    assert page.get_attribute("html", "lang") == "en-XA"
    assert page.locator("#add-player").inner_text().startswith("⟦")
    assert page.locator("a.language-switch").count() == 0
    assert "qps/" not in (dist_dir / "yams.html").read_text(encoding="utf-8")
    assert "qps/" not in (dist_dir / "sw.js").read_text(encoding="utf-8")
