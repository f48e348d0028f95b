"""The embed form of the Yams page, as a blogger uses it.

A blog-like page served from another origin (http://127.0.0.1:<other port>/, while the
game is at http://127.0.0.1:<port>/pygames/), with aggressive CSS of its own, includes the
loader (embed.js) from the game's site and two <div data-pygames>: a Yams for Alice against
the computer (players given: no setup) and a Yahtzee whose reader fills the compact setup.
Both frames load and play, fit their content, keep their own saved game across a reload,
and nothing leaves localhost. Also: the "Intégrer ce jeu" snippets, with the plain iframe
pasted on another *site* (http://localhost:<port>/), where this headless Chromium denies
third-party storage (as Chrome does with third-party cookies blocked): the game still plays,
and says it cannot keep the game; and a wrong parameter giving a message in the frame.
"""

from __future__ import annotations

import json
import re
import tempfile
import urllib.parse

import pytest
import serve
from harness import site
from harness.pages import (
    BOOT_TIMEOUT_MS,
    DESKTOP,
    EMBED_GLOBAL,
    MOBILE,
    GamePage,
    aside_keys,
    header_tool,
    screen,
    wait_ready,
)
from harness.yams import roll_and_score

BLOG_PAGE = "blog.html"
EMPTY_PAGE = "empty.html"

# Hostile host styles: if any of this reached the game, fonts would be 40px and red, and
# the frames 50px high, 200px wide, with a red border.
BLOG_HTML = """<!doctype html>
<html lang="fr"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mon blog de jeux</title>
<script>window.__globalsBefore = Object.getOwnPropertyNames(window);</script>
<style>
  * { font-size: 40px !important; color: red !important; font-family: serif !important; }
  body { margin: 0 auto; max-width: 760px; padding: 0 12px; background: #fee; }
  iframe { height: 50px !important; width: 200px !important; border: 8px solid red !important; }
  div { padding: 4px; }
</style>
</head><body>
<h1>Ma partie du dimanche</h1>
<p id="intro">Un billet avec deux jeux dedans.</p>
<div id="game-a" data-pygames="yams" data-id="blog-yams" data-players="Alice,Ordi:simple"
     data-seed="blog-a" data-pace="0"><a href="#">Jouer au Yams</a></div>
<p>Et un Yahtzee, réglé par le lecteur\u00a0:</p>
<div id="game-b" data-pygames="yams" data-game="yahtzee" data-seed="blog-b"></div>
<p id="outro">Fin du billet.</p>
<script src="SITE/embed.js" defer></script>
</body></html>
"""
EMPTY_HTML = b"<!doctype html><html><head><meta charset='utf-8'><title>vide</title></head><body></body></html>"


# Host pages that already use the loader's global name (issue 25, item 7): the markup before
# the game's div, and what the host's own value must still be afterwards (None: the name is
# the loader's).
CLASHES = {
    "element": ('<p id="pygamesEmbed">Un paragraphe du blog.</p>', None),
    "script": ("<script>window.pygamesEmbed = {mine: true};</script>", "({mine: true})"),
    "fixed": ('<script>Object.defineProperty(window, "pygamesEmbed", {value: "hôte"});</script>',
              '"hôte"'),
    "twice": ('<script src="SITE/embed.js"></script>', None),
}
CLASH_HTML = """<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Blog</title></head><body>
MARKUP
<div id="game" data-pygames="yams" data-seed="clash" data-pace="0"></div>
<script src="SITE/embed.js" defer></script>
</body></html>
"""


@pytest.fixture(scope="module")
def blog_server(site_url):
    """The blog's server: another port of 127.0.0.1 (another origin, the same site)."""
    page = BLOG_HTML.replace("SITE/", site_url).encode()
    clashes = {f"clash-{name}.html": CLASH_HTML.replace("MARKUP", markup).replace("SITE/", site_url).encode()
               for name, (markup, _) in CLASHES.items()}
    with tempfile.TemporaryDirectory() as root:
        server, url = serve.start_server(
            root, prefix="/", extra_files={BLOG_PAGE: page, EMPTY_PAGE: EMPTY_HTML, **clashes})
        yield url
        site.stop_site(server)


@pytest.fixture
def blog_url(blog_server):
    return blog_server


@pytest.fixture
def other_site_url(blog_server):
    """The same blog server reached as http://localhost:<port>/: another site."""
    return blog_server.replace("127.0.0.1", "localhost")


def frame_of(page, selector):
    handle = page.wait_for_selector(f"{selector} iframe", state="attached")
    frame = handle.content_frame()
    assert frame is not None
    return frame


def wait_frame_ready(page, selector):
    page.locator(f"{selector} iframe").scroll_into_view_if_needed()
    frame = frame_of(page, selector)
    # (Checked every 100 ms, not at each animation frame: after a reload the browser may put
    # the host page's scroll back after the line above, and Chromium renders no frame of a
    # cross-origin iframe out of view.)
    wait_ready(frame, polling=100)
    return frame


def fit(page, selector):
    """(height the loader gave the iframe, height of the frame's content)."""
    frame = frame_of(page, selector)
    outer = page.eval_on_selector(f"{selector} iframe", "f => f.getBoundingClientRect().height")
    inner = frame.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
    return outer, inner


def wait_fitted(page, selector):
    """Wait until the iframe is exactly as tall as its content; return that height.
    (Chromium pauses the rendering of cross-origin frames out of view, ResizeObserver
    included: a frame fits its content again when it is scrolled to.)"""
    page.locator(f"{selector} iframe").scroll_into_view_if_needed()
    frame = frame_of(page, selector)
    for _ in range(100):
        outer, inner = fit(page, selector)
        if abs(outer - inner) <= 1:
            return inner
        frame.wait_for_timeout(50)
    raise AssertionError(f"{selector}: frame {outer}px high, its content {inner}px")


def saved(frame, instance):
    """The game a frame of the Yams embed page saved for its instance."""
    return GamePage(frame, "", "yams", embed=True, instance=instance).stored()


def instance_of(page, selector):
    src = page.get_attribute(f"{selector} iframe", "src")
    return urllib.parse.parse_qs(urllib.parse.urlsplit(src).query)["id"][0]


def test_blog_page_with_two_embedded_games(page, site_url, blog_url, request_log, screenshot):
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size(DESKTOP)
    page.goto(blog_url + BLOG_PAGE)

    # The loader built two frames of the embed page, under the site's sub-path.
    srcs = page.eval_on_selector_all("[data-pygames] iframe", "fs => fs.map(f => f.src)")
    assert len(srcs) == 2
    for src in srcs:
        assert src.startswith(site_url + "embed-yams.html?"), src
    query_a = urllib.parse.parse_qs(urllib.parse.urlsplit(srcs[0]).query)
    assert query_a == {"players": ["Alice,Ordi:simple"], "seed": ["blog-a"], "pace": ["0"],
                       "id": ["blog-yams"]}
    id_b = instance_of(page, "#game-b")
    assert re.fullmatch(r"[a-z0-9]+-2", id_b), id_b  # page tag + position
    assert page.locator("#game-a a").count() == 0  # the fallback link gave way to the frame
    attrs = page.eval_on_selector("#game-b iframe", "f => [f.title, f.loading, f.getAttribute('sandbox')]")
    assert attrs[0].startswith("Yams") and attrs[1] == "lazy"
    assert "allow-top-navigation" not in attrs[2]

    a = wait_frame_ready(page, "#game-a")
    b = wait_frame_ready(page, "#game-b")

    # The host's CSS reaches neither the frames' content nor the frames' size and border.
    for frame in (a, b):
        style = frame.evaluate("""() => { const s = getComputedStyle(document.querySelector('main'));
            return [s.fontSize, s.color, document.querySelector('header.site') === null]; }""")
        assert style[0] != "40px" and style[1] != "rgb(255, 0, 0)" and style[2], style
    box = page.eval_on_selector("#game-b iframe", """f => { const s = getComputedStyle(f);
        return [f.getBoundingClientRect().width, f.parentNode.clientWidth, s.borderTopWidth]; }""")
    assert box[0] > 600 and abs(box[0] - (box[1] - 8)) <= 1 and box[2] == "0px", box

    # The host page is untouched but for its two divs: one global, no stylesheet added.
    new_globals = page.evaluate(
        "() => Object.getOwnPropertyNames(window)"
        "  .filter(n => !window.__globalsBefore.includes(n) && !/^[0-9]+$/.test(n))")  # not frames
    assert set(new_globals) <= {EMBED_GLOBAL, "__globalsBefore"}, new_globals
    assert page.evaluate("document.styleSheets.length") == 1
    assert page.inner_text("#intro") == "Un billet avec deux jeux dedans."

    # Game A: players given, so no setup: straight to the table, Alice against the computer.
    assert screen(a) == "table"
    assert a.inner_text("#turn-info").startswith("Tour 1/15")
    assert "Alice" in a.inner_text("#turn-info")
    assert a.locator("header.site").count() == 0
    link = a.locator(".embed-bar a")
    assert (link.inner_text(), link.get_attribute("target"), link.get_attribute("rel")) == (
        "pygames", "_blank", "noopener")
    height_a = wait_fitted(page, "#game-a")
    box_a, points_a = roll_and_score(a)
    a.wait_for_function("() => document.getElementById('turn-info').textContent.startsWith('Tour 2/15')")
    assert "Alice" in a.inner_text("#turn-info")  # the computer played its turn in between

    # Game B: the compact setup: the ruleset is fixed (no choice shown), the reader starts.
    assert screen(b) == "setup"
    assert b.is_hidden("#ruleset-choices")
    assert b.is_visible("#option-choices") and b.is_visible("#player-rows")
    assert b.inner_text("#setup-title") == "Yahtzee (règles internationales)"
    setup_height = wait_fitted(page, "#game-b")
    assert setup_height != 420  # the loader's initial height was replaced
    b.click("#start")
    b.wait_for_selector("#table:not([hidden])")
    table_height = wait_fitted(page, "#game-b")
    assert table_height != setup_height, (setup_height, table_height)
    box_b, points_b = roll_and_score(b)
    b.wait_for_function("() => document.getElementById('turn-info').textContent.startsWith('Tour 2/13')")
    assert wait_fitted(page, "#game-a") == height_a

    # Each frame saved its own game under its own key; neither overwrote the other.
    save_a, save_b = saved(a, "blog-yams"), saved(b, id_b)
    assert save_a["record"]["game"] == "yams" and save_b["record"]["game"] == "yahtzee"
    assert [p["name"] for p in save_a["record"]["players"]] == ["Alice", "Ordi"]
    assert a.evaluate("localStorage.getItem('pygames:yams:match')") is None  # not the site's key
    screenshot(page, "embed_blog_desktop")

    # Reload the blog: both games resume where they were.
    page.reload()
    a = wait_frame_ready(page, "#game-a")
    b = wait_frame_ready(page, "#game-b")
    assert screen(a) == "table" and screen(b) == "table"
    assert saved(a, "blog-yams") == save_a and saved(b, id_b) == save_b
    for frame, box, points in ((a, box_a, points_a), (b, box_b, points_b)):
        filled = frame.evaluate("""() => [...document.querySelectorAll('#sheet-body td.filled')]
            .map(td => td.textContent)""")
        assert str(points) in filled, (box, points, filled)
    assert a.inner_text("#turn-info").startswith("Tour 2/15")
    assert b.inner_text("#turn-info").startswith("Tour 2/13")

    # On a phone the frames follow the new width (the sheet drops its hints, and so on).
    desktop = wait_fitted(page, "#game-b")
    page.set_viewport_size(MOBILE)
    page.wait_for_function(
        "h => Math.abs(document.querySelector('#game-b iframe').getBoundingClientRect().height - h) > 20",
        arg=desktop)
    wait_fitted(page, "#game-a")
    wait_fitted(page, "#game-b")
    width = page.eval_on_selector("#game-a iframe", "f => f.getBoundingClientRect().width")
    assert 300 < width <= 375
    # (A full-page capture would leave the frames out of view blank: see wait_fitted.)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    screenshot(page, "embed_blog_mobile", full_page=False)
    page.locator("#game-a iframe").screenshot(path=str(site.ARTIFACTS / "embed_frame_mobile.png"))
    request_log.assert_all_local()


def test_embed_dialog_gives_working_snippets(page, site_url, other_site_url, request_log,
                                             screenshot):
    page.set_viewport_size(DESKTOP)
    page.goto(site_url + "yams.html?game=yams-boite")
    # Plain JS: the dialog works before Python is ready.
    page.click("#open-embed")
    assert page.is_visible("#embed")
    iframe_text = page.input_value("#embed-iframe")
    loader_text = page.input_value("#embed-loader")
    src = re.search(r'<iframe src="([^"]+)"', iframe_text).group(1).replace("&amp;", "&")
    parts = urllib.parse.urlsplit(src)
    assert src.startswith(site_url + "embed-yams.html?"), src
    query = urllib.parse.parse_qs(parts.query)
    assert query["game"] == ["yams-boite"]
    assert re.fullmatch(r"yams-[a-z0-9]{6}", query["id"][0])
    assert 'title="Yams' in iframe_text and 'loading="lazy"' in iframe_text
    assert "\n" not in iframe_text and "\n" not in loader_text  # one line each
    assert loader_text == (f'<div data-pygames="yams" data-game="yams-boite"></div>'
                           f'<script src="{site_url}embed.js" defer></script>')
    page.click("#embed [data-copy=embed-loader]")
    page.wait_for_function("() => document.querySelector('#embed .copied').textContent !== ''")
    assert page.inner_text("#embed .copied") in ("Copié\u202f!", "Sélectionné\u00a0: copiez avec Ctrl+C.")
    screenshot(page, "embed_dialog_desktop")
    page.set_viewport_size(MOBILE)
    screenshot(page, "embed_dialog_mobile", full_page=False)
    page.keyboard.press("Escape")
    assert not page.is_visible("#embed")
    header = page.eval_on_selector("header.site", "h => [h.scrollWidth, h.clientWidth, h.offsetHeight]")
    assert header[0] <= header[1] and header[2] < 90, header  # the header's buttons fit a phone
    screenshot(page, "embed_yams_header_mobile", full_page=False)
    wait_ready(page)
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    header = page.eval_on_selector("header.site", "h => [h.scrollWidth, h.clientWidth]")
    assert header[0] <= header[1], header
    assert header_tool(page, "#open-embed").is_visible()  # in the header's Menu, in a game too
    page.keyboard.press("Escape")

    # Pasted on another site, the iframe snippet shows the compact Boîte à jeux setup, and
    # plays even though the browser denies the frame any storage.
    page.goto(other_site_url + EMPTY_PAGE)
    page.evaluate("html => { document.body.innerHTML = html; }", iframe_text)
    frame = page.wait_for_selector("iframe").content_frame()
    wait_ready(frame)
    assert screen(frame) == "setup"
    assert frame.inner_text("#setup-title") == "Yams (Boîte à jeux)"
    assert page.eval_on_selector("iframe", "f => f.getBoundingClientRect().height") == 720
    assert frame.evaluate("() => { try { return !!localStorage; } catch (e) { return 'denied'; } }") == "denied"
    assert frame.is_visible(".embed-bar .no-save")
    frame.click("#start")
    frame.wait_for_selector("#table:not([hidden])")
    roll_and_score(frame)
    frame.wait_for_function("() => document.getElementById('turn-info').textContent.startsWith('Tour 2/13')")
    request_log.assert_all_local()


@pytest.mark.parametrize("clash", CLASHES)
def test_loader_works_on_a_page_that_already_uses_its_name(page, blog_url, site_url, clash):
    """A host page whose element, script or second copy of the loader already holds the name
    window.pygamesEmbed: the game's frame appears all the same, the loader throws nothing,
    the host's own value is left as it was, and scan() (by the name, or by the registered
    symbol where the host holds the name) picks up a div added later."""
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{blog_url}clash-{clash}.html")
    src = page.wait_for_selector("#game iframe", state="attached").get_attribute("src")
    assert src.startswith(f"{site_url}embed-yams.html?") and "seed=clash" in src, src
    host_value = CLASHES[clash][1]
    if host_value is None:
        assert page.evaluate("typeof window.pygamesEmbed.scan") == "function"
    else:
        assert page.evaluate(f"JSON.stringify(window.pygamesEmbed) === JSON.stringify({host_value})")
    page.evaluate("""() => {
      const div = document.createElement("div");
      div.id = "later";
      div.dataset.pygames = "421";
      document.body.append(div);
      window[Symbol.for("pygames.embed")].scan();
    }""")
    assert page.locator("iframe").count() == 2
    assert page.get_attribute("#later iframe", "src").startswith(f"{site_url}embed-421.html?")
    assert page.locator("#game iframe").count() == 1  # a second copy of the loader adds none
    if clash == "element":
        assert page.inner_text("#pygamesEmbed") == "Un paragraphe du blog."
    assert not errors, errors


@pytest.mark.parametrize("query, message", [
    ("game=belote", "Règle inconnue\u00a0: «\u00a0belote\u00a0»"),
    ("players=Alice,Robot:terminator", "Place inconnue pour Robot\u00a0: «\u00a0terminator\u00a0»"),
    ("id=pas%20bien", "Le paramètre «\u00a0id\u00a0»"),
    ("game=yahtzee&options=plain=peut-etre", "Option plain"),
])
def test_embed_bad_parameter_says_what_is_wrong(page, site_url, request_log, query, message):
    page.goto(site_url + "embed-yams.html?" + query)
    page.wait_for_selector("#error:not([hidden])", timeout=BOOT_TIMEOUT_MS)
    text = page.inner_text("#error-text")
    assert text.startswith("Ce jeu intégré est mal configuré") and message in text, text
    assert page.is_hidden("#error-reload")


def test_embed_alone_installs_offline_play(browser):
    """A reader who only ever saw the game inside a blog post: the frame installs the site's
    service worker, so the embedded game still loads and plays when the game's site cannot be
    reached (the blog itself still can)."""
    server, site_url = site.start_site()
    blog = BLOG_HTML.replace("SITE/", site_url).encode()
    root = tempfile.TemporaryDirectory()
    blog_srv, blog_url = serve.start_server(
        root.name, prefix="/", extra_files={BLOG_PAGE: blog})
    context = browser.new_context(viewport=DESKTOP)
    log = site.RequestLog().attach(context)
    try:
        page = context.new_page()
        page.goto(blog_url + BLOG_PAGE)
        frame = wait_frame_ready(page, "#game-a")
        wait_frame_ready(page, "#game-b")
        # The worker is registered from the frame, for the site's scope, and precaches it.
        state = frame.evaluate("""async () => {
            const reg = await navigator.serviceWorker.ready;
            while (reg.active.state !== "activated") await new Promise(r => setTimeout(r, 100));
            const names = (await caches.keys()).filter((n) => n.includes("precache"));
            let n = 0;
            for (const name of names) n += (await (await caches.open(name)).keys()).length;
            return {scope: reg.scope, cached: n};
        }""")
        assert state["scope"] == site_url and state["cached"] > 40, state
        site.stop_site(server)
        server = None
        page.reload()
        frame = wait_frame_ready(page, "#game-a")
        assert frame.evaluate("!!navigator.serviceWorker.controller")
        assert screen(frame) == "table"
        box, points = roll_and_score(frame)
        assert box and points >= 0
        log.assert_all_local()
    finally:
        context.close()
        if server:
            site.stop_site(server)
        site.stop_site(blog_srv)
        root.cleanup()


@pytest.mark.parametrize("players", [None, "Alice,Ordi:simple"])
@pytest.mark.parametrize("stored", ["other settings", "unreadable"])
def test_embed_sets_a_stored_game_it_cannot_take_up_aside_and_says_so(page, site_url, request_log, players,
                                                                       stored):
    """As the full pages do (issue 25, item 11): a game this frame saved under other settings
    (the embedder changed the div's attributes), or an unreadable one, is set aside, not
    deleted, and the frame says so: on its setup screen, or in the table's hint when the
    embedder's players start the game at once."""
    game = GamePage(page, site_url, "yams", embed=True, instance="post-1")
    if stored == "unreadable":
        game.at_origin()
        old = '{"record": {"format": "pygames/1", "game": "yams", "play'
        game.store("match", old)
    else:
        game.open(fresh=True, seed="before", game="yahtzee", players="Alice,Ordi:simple")
        roll_and_score(page)
        old = game.get_item("match")
    params = {"players": players} if players else {}
    game.open(seed="after", **params)
    if players:
        page.wait_for_function("() => document.getElementById('hint').textContent.includes('mise de côté')")
        assert screen(page) == "table"
    else:
        assert screen(page) == "setup"
        assert "mise de côté" in page.inner_text("#setup-notice")
    keys = aside_keys(page)
    assert len(keys) == 1
    kept = game.page.evaluate("k => localStorage.getItem(k)", keys[0])
    if stored == "unreadable":
        assert kept == old
    else:  # (the computer may have played on after `old` was read)
        before = json.loads(old)["record"]["actions"]
        assert json.loads(kept)["record"]["actions"][: len(before)] == before
