"""Playing at a distance, by links (web/app/remote_view.py), on every game page: two devices
(two browser contexts: storage of their own) play one game turn by turn.

Device A sets up a game of two persons, Léa plays her turn, then *Partager* → *Envoyer à
Paul* gives a link; device B, which has a game of its own in progress, opens it, is asked
before that game is set aside, sees what Léa did, plays Paul's turn (the page waits once
the turn is Léa's: a click on the table plays nothing) and sends *Envoyer mon coup* back;
A takes it up, plays, sends a third link; B takes it up.  Then the old links are opened
after the newer ones (on B and on A: refused, the newer game kept), and forged ones (an
illegal move under a name made of markup, a forged ``remote`` field, a game of another page,
a damaged text): refused with a message, nothing changed, nothing evaluated.
"""

from __future__ import annotations

import random

import pytest
import replay  # web/app/replay.py: the links' format
from harness import site
from harness.pages import GAME_PAGES, GamePage, aside_keys

from pygames import FAMILIES

NAMES = ("Léa", "Paul")
HOSTILE_NAME = '<img src=x onerror="window.hacked=1">'


@pytest.fixture
def two(devices, site_url):
    """(A, B): a new page on each device, the site's storage emptied on both."""
    for context in devices:
        site.empty_site(context, site_url)
    log = [site.RequestLog().attach(context) for context in devices]
    yield [context.new_page() for context in devices]
    for context, each in zip(devices, log):
        each.detach(context)
        each.assert_all_local()
        site.empty_site(context, site_url)


def whose_turn(game: GamePage):
    """The person the saved game waits for (None at the end)."""
    state = game.replay().state
    return None if state.is_terminal() else state.current_player()


def play_turn(game: GamePage, me: int, rng) -> None:
    """The person `me` plays (random choices) until the turn is another's, or the end."""
    for _ in range(60):
        if whose_turn(game) != me:
            return
        game.play_random(1, rng)
    raise AssertionError("the turn never passed")


def with_params(link: str, seed: str) -> str:
    """The link as the tests open it: seeded dice, no pause (the fragment kept)."""
    page, _, fragment = link.partition("#")
    return f"{page}?seed={seed}&pace=0#{fragment}"


def open_link(game: GamePage, link: str, seed: str) -> None:
    game.mark_unready()
    game.goto(with_params(link, seed))
    assert "#play=" not in game.page.url  # read once: a reload resumes the game


def panel(page) -> dict:
    return page.evaluate("""() => ({
        shown: !document.getElementById('remote').hidden,
        title: document.getElementById('remote-title').textContent,
        text: document.getElementById('remote-text').textContent,
        news: [...document.querySelectorAll('#remote-news li')].map((li) => li.textContent),
        send: !document.getElementById('remote-send').hidden,
        here: !document.getElementById('remote-here').hidden,
        notice: document.getElementById('remote-notice').hidden ? null
                : document.getElementById('remote-notice-text').textContent,
    })""")


def no_undo(page) -> bool:
    return page.evaluate("() => { const u = document.getElementById('undo'); return !u || u.hidden || u.disabled; }")


def send(game: GamePage) -> str:
    """Envoyer mon coup (the page waits for the other device): the link it gives."""
    page = game.page
    page.wait_for_function("() => !document.getElementById('remote-send').hidden")
    page.click("#remote-send")
    page.wait_for_function("() => document.getElementById('remote-status').textContent.length > 0")
    link = page.input_value("#remote-link")
    assert "#play=1." in link
    return link


def nothing_plays_here(game: GamePage) -> None:
    """The page waits for the other device: a click on the table's controls plays nothing."""
    before = game.actions()
    controls = game.page.locator("#table [data-action]:not([disabled])").filter(visible=True)
    if controls.count():
        controls.first.click(force=True)
    game.page.wait_for_timeout(150)
    assert game.actions() == before


def refused(game: GamePage, link: str, seed: str, words: str) -> None:
    """A link opened that changes nothing: its message, the saved game as it was."""
    kept = game.get_item()
    open_link(game, link, seed)
    note = panel(game.page)["notice"]
    assert note and words in note, note
    assert game.get_item() == kept
    assert not game.page.evaluate("window.hacked") and game.page.locator("#remote-notice img").count() == 0


@pytest.mark.parametrize("family", GAME_PAGES)
def test_three_links_back_and_forth(two, site_url, family, screenshot):
    rng = random.Random(f"bylink-{family}")
    a, b = (GamePage(page, site_url, family) for page in two)

    # Device B has a game of its own going on.
    b.open(fresh=True, seed="B")
    b.start_game([("Zoé", "human"), ("Ordi", "simple")][: max(2, b.game.min_players)])
    b.play_random(1, rng)
    own = b.get_item()

    # Device A: Léa and Paul; Léa plays, then the game goes to Paul by a link.
    a.open(fresh=True, seed="A")
    a.start_game([(name, "human") for name in NAMES])
    lea, paul = 0, 1  # the person on A, the person on B (whoever begins is on A)
    if whose_turn(a) == paul:  # (a game may begin with either)
        lea, paul = paul, lea
    play_turn(a, lea, rng)
    assert whose_turn(a) == paul and not panel(a.page)["shown"]  # played here only, so far
    a.tool("#share-open").click()
    a.page.wait_for_function("() => !document.getElementById('remote-offer').hidden")
    assert NAMES[paul] in a.page.text_content("#remote-start")
    a.page.click("#remote-start")
    a.page.wait_for_function("() => document.getElementById('remote-status').textContent.length > 0")
    first = a.page.input_value("#remote-link")
    state = panel(a.page)
    assert state["shown"] and state["send"] and state["here"] and NAMES[paul] in state["text"], state
    assert a.record()["remote"]["seats"][paul] is None
    nothing_plays_here(a)
    assert no_undo(a.page)  # the link is gone: Léa's move stays
    assert a.page.text_content("#hint").strip() == a.words("site.remote.elsewhere", player=NAMES[paul])
    if family == "yams":
        screenshot(a.page, "play-by-link-send-360")

    # B opens it: asked before its own game is set aside; sees what Léa did; plays Paul.
    b.mark_unready()
    b.goto(with_params(first, "B"))
    b.answer(True)
    b.page.wait_for_function("() => !document.getElementById('remote').hidden")
    assert own in [b.page.evaluate("k => localStorage.getItem(k)", k) for k in aside_keys(b.page)]
    state = panel(b.page)
    assert NAMES[lea] in state["title"] and state["news"], state
    assert b.focused() == "#remote-title"
    assert no_undo(b.page)  # Léa's decision is not B's to take back
    assert b.actions() == len(a.record()["actions"])
    if family == "yams":
        screenshot(b.page, "play-by-link-open-360")
    play_turn(b, paul, rng)
    if whose_turn(b) is not None:
        b.page.wait_for_function("() => document.activeElement?.id === 'remote-send'", timeout=5000)
        assert b.words("site.remote.waiting", player=NAMES[lea]) in b.live()
        nothing_plays_here(b)
    second = send(b)

    # A takes it up (the link carries its game further): Paul's moves listed; Léa plays.
    open_link(a, second, "A")
    state = panel(a.page)
    assert NAMES[paul] in state["title"] and state["news"] and state["notice"] is None, state
    assert a.actions() == b.actions()
    if whose_turn(a) is not None:
        play_turn(a, lea, rng)
    third = send(a)

    # B takes the third.
    open_link(b, third, "B")
    assert b.record()["actions"] == a.record()["actions"]
    device_b = b.page.evaluate("() => JSON.parse(localStorage.getItem('pygames:remote')).device")
    assert b.record()["remote"]["seats"][paul] == device_b != b.record()["remote"]["seats"][lea]
    if whose_turn(b) is not None:
        assert whose_turn(b) == paul and not panel(b.page)["here"]
    b.reload()  # the link is not read again: the game resumes as saved
    assert b.record()["actions"] == a.record()["actions"] and panel(b.page)["notice"] is None

    # Old links opened after newer ones: refused, the newer game kept.
    refused(b, first, "B", b.words("site.remote.older"))
    refused(a, second, "A", a.words("site.remote.older"))
    refused(b, third, "B", b.words("site.remote.same"))


@pytest.mark.parametrize("family", GAME_PAGES)
def test_forged_links_change_nothing(two, site_url, family):
    game = FAMILIES[family].games[0]
    b = GamePage(two[1], site_url, family)
    b.open(fresh=True, seed="B")
    b.start_game([("Zoé", "human"), ("Yann", "human")])
    good = {"format": "pygames/1", "game": game.id, "options": {},
            "players": [{"name": HOSTILE_NAME, "seat": "human"}, {"name": "Paul", "seat": "human"}],
            "actions": [], "remote": {"id": "g" * 16, "seats": [None, None]}}
    other = next(g for f in FAMILIES.values() if f.id != family for g in f.games)
    page = f"{site_url}{family}.html"
    bad = {
        "an illegal move": {**good, "actions": ["score nothing at all"]},
        "a forged remote field": {**good, "remote": {"id": "<b>", "seats": [None, None]}},
        "another page's game": {**good, "game": other.id},
        "no remote game": {k: v for k, v in good.items() if k != "remote"},
    }
    for why, record in bad.items():
        refused(b, page + "#play=" + replay.encode(record), "B", b.words("site.remote.refused", why="")[:20])
    refused(b, page + "#play=1.AAAA$$", "B", b.words("site.remote.refused", why="")[:20])
