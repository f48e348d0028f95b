"""Replays to share, on every game page of the registry: a seeded game played by the
computer to its end gives a "Partager le replay" link; opened in a NEW browser context
(another visitor, with a game of his own saved), the link shows the game read-only, step
by step, each step described as it was announced when it was played and drawn as the
engine replayed in Python has it; automatic play advances; the visitor's saved game is
untouched. A damaged link and hostile ones (a decompression bomb, a game of another page,
an illegal move with a name made of markup) give a French message and nothing else.
"""

from __future__ import annotations

import base64
import json
import sys
import zlib

import pytest

import build
import siteharness
from pygames import FAMILIES

sys.path.insert(0, str(build.WEB / "app"))
import replay  # noqa: E402

BOOT_MS = 90_000
PAGES = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
HOSTILE_NAME = '<img src=x onerror="window.hacked=1">'

#: Every text the live region says, in order (the announcements of a game as it is played).
RECORD_LIVE = """() => {
    window.liveLog = [];
    const live = document.getElementById('live');
    new MutationObserver(() => window.liveLog.push(live.textContent))
        .observe(live, {childList: true, characterData: true, subtree: true});
}"""


def wait_ready(page) -> None:
    page.wait_for_function("document.body && document.body.dataset.ready", timeout=BOOT_MS)


def goto(page, url: str) -> None:
    page.goto(url)
    wait_ready(page)


def new_page(browser, logs):
    context = browser.new_context()
    logs.append(siteharness.RequestLog().attach(context))
    page = context.new_page()
    page.emulate_media(reduced_motion="reduce")
    return page


@pytest.fixture
def pages(browser):
    """new_page() -> a page in a new context (another visitor); all closed, and checked
    for requests that left 127.0.0.1, at teardown."""
    logs, made = [], []

    def make():
        page = new_page(browser, logs)
        made.append(page)
        return page

    yield make
    for page in made:
        page.context.close()
    for log in logs:
        log.assert_all_local()


def players_for(family):
    """Computer players, as few as the game allows, so that a whole game is short."""
    game = FAMILIES[family].games[0]
    n = max(1, game.min_players)
    return [{"name": f"Ordi {i + 1}", "seat": "simple"} for i in range(n)]


def play_a_computer_game(page, site_url, family) -> dict:
    """A seeded game between computers at pace 0, to its end; its saved record."""
    url = f"{site_url}{family}.html?fresh=1&seed=replay-{family}&pace=0"
    page.emulate_media(reduced_motion="reduce")
    page.goto(site_url + siteharness.BLANK_PAGE)  # the site's origin, to store the setup
    game = FAMILIES[family].games[0]
    setup = {"game": game.id, "options": {}, "players": players_for(family)}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"pygames:{family}:setup", json.dumps(setup)])
    goto(page, url)
    page.evaluate(RECORD_LIVE)
    page.click("#start")
    page.wait_for_function("!document.getElementById('end').hidden", timeout=120_000)
    return json.loads(page.evaluate("k => localStorage.getItem(k)", f"pygames:{family}:match"))["record"]


def share_link(page) -> str:
    page.click("#share-end")
    dialog = page.locator("#share")
    assert dialog.is_visible()
    page.wait_for_function("document.getElementById('share-status').textContent.length > 0")
    link = page.input_value("#share-link")
    page.keyboard.press("Escape")
    assert dialog.is_hidden()
    return link


def visitor_with_a_saved_game(page, site_url, family) -> tuple[str | None, ...]:
    """Another visitor, with a game of his own started: its stored values."""
    goto(page, f"{site_url}{family}.html?fresh=1&seed=visitor&pace=0")
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")
    return stored(page, family)


def stored(page, family):
    return tuple(page.evaluate("k => localStorage.getItem(k)", f"pygames:{family}:{key}")
                 for key in ("match", "setup"))


def position(page) -> str:
    return page.text_content("#replay-pos").strip()


def step_text(page) -> str:
    return " ".join(page.text_content("#replay-step").split())


def only_the_message(page, expected: str) -> str:
    page.wait_for_function("!document.getElementById('replay-error').hidden")
    text = page.text_content("#replay-error")
    assert expected in text, text
    for hidden in ("#table", "#setup", "#end", "#loading", "#replay-body", "#share-open"):
        assert page.locator(hidden).is_hidden(), hidden
    assert page.locator("#replay-leave").is_visible()
    assert not page.evaluate("window.hacked") and page.locator("#replay img").count() == 0
    return text


def faces_drawn(page) -> list[int]:
    return page.eval_on_selector_all(
        "#dice .die", "ds => ds.map((d) => Number(d.dataset.face || 0))")


@pytest.mark.warm  # the player's page: the shared warm context (e2e/conftest.py)
@pytest.mark.parametrize("family", PAGES)
def test_a_shared_replay_opens_read_only_in_a_new_context(page, request_log, pages, site_url, family,
                                                          screenshot):
    player = page
    record = play_a_computer_game(player, site_url, family)
    live_log = [" ".join(t.split()) for t in player.evaluate("window.liveLog")]
    link = share_link(player)
    assert link.startswith(f"{site_url}{family}.html#replay=1."), link[:120]
    data = replay.from_fragment("#" + link.split("#", 1)[1])
    assert replay.decode(data) == record  # the link carries the game as saved
    expected = replay.load(data, family)  # the engine, replayed in CPython
    last = expected.last
    assert expected.finished and last >= 3

    visitor = pages()
    own = visitor_with_a_saved_game(visitor, site_url, family)
    assert own[0] is not None
    visitor.evaluate("document.body.removeAttribute('data-ready')")
    goto(visitor, link)
    assert visitor.locator("#replay").is_visible() and visitor.locator("#table").is_visible()
    assert visitor.locator("#setup").is_hidden() and visitor.locator("#end").is_hidden()
    assert visitor.locator("#share-open").is_hidden()
    assert position(visitor) == f"coup 0 / {last}"
    assert "Ordi 1" in visitor.text_content("#replay-about")
    assert visitor.evaluate("document.activeElement.id") == "replay-play"

    # Step by step: each step is described as it was announced when it was played.
    # (in order among the announcements of the game: the views may say more, e.g. the dice
    # a computer keeps before it throws).
    said = [step_text_after(visitor, "#replay-next", k, last) for k in (1, 2, 3)]
    at = [live_log.index(said[0])]
    for text in said[1:]:
        at.append(live_log.index(text, at[-1] + 1))
    assert step_text_after(visitor, "#replay-back", 2, last) == said[1]
    assert f"Coup 2 sur {last}" in visitor.text_content("#live")
    check_drawn(visitor, family, expected, 2)
    # The game's own controls play nothing: a click on any of them, a key of the game.
    for control in visitor.locator("#table [data-action]").all()[:3]:
        control.dispatch_event("click")
    visitor.evaluate("document.activeElement.blur()")  # keys, when focus is not on a control
    for key in ("Space", "Enter", "1", "s"):  # the game's own keys play nothing
        visitor.keyboard.press(key)
    assert position(visitor) == f"coup 2 / {last}"
    visitor.keyboard.press("ArrowRight")
    assert position(visitor) == f"coup 3 / {last}"
    visitor.keyboard.press("End")
    assert position(visitor) == f"coup {last} / {last}"
    assert visitor.locator("#replay-next").is_disabled()
    check_drawn(visitor, family, expected, last)
    visitor.keyboard.press("Home")
    assert position(visitor) == f"coup 0 / {last}"
    assert visitor.locator("#replay-back").is_disabled()
    visitor.click("#replay-last")
    assert position(visitor) == f"coup {last} / {last}"
    visitor.click("#replay-first")
    assert position(visitor) == f"coup 0 / {last}"
    screenshot(visitor, f"replay-{family}-1280")

    # Automatic play advances on its own, and pauses.
    visitor.click("#replay-play")
    assert "Pause" in visitor.text_content("#replay-play")
    visitor.wait_for_function(
        "() => /^coup ([2-9]|\\d\\d+) \\//.test(document.getElementById('replay-pos').textContent)",
        timeout=20_000)
    visitor.click("#replay-play")
    assert "Lecture" in visitor.text_content("#replay-play")
    paused = position(visitor)
    visitor.wait_for_timeout(600)  # longer than a step of the automatic play at this pace
    assert position(visitor) == paused

    # The visitor's own game was never touched, and comes back without the fragment.
    assert stored(visitor, family) == own
    with visitor.expect_navigation():
        visitor.click("#replay-leave")
    wait_ready(visitor)
    assert "#" not in visitor.url
    assert visitor.locator("#replay").is_hidden() and visitor.locator("#table").is_visible()
    assert stored(visitor, family)[0] == own[0]


def step_text_after(page, button, k, last) -> str:
    page.click(button)
    assert position(page) == f"coup {k} / {last}"
    return step_text(page)


def check_drawn(page, family, expected, k):
    """What the view draws at position k agrees with the engine there."""
    state = expected.positions[k][1]
    dice = getattr(state, "dice", None)
    if family == "yams" or family == "linotte":
        faces = faces_drawn(page)
        assert faces == (list(dice) if dice else [0] * len(faces)), (faces, dice)
    if family == "yams":
        totals = page.eval_on_selector_all(
            "#sheet-body tr.grand td", "tds => tds.map((td) => Number(td.textContent))")
        assert totals == [state.sheet(p).total for p in range(len(expected.match.players))]


@pytest.mark.warm  # a visitor who has been here before (e2e/conftest.py)
@pytest.mark.parametrize("family", PAGES)
def test_damaged_and_hostile_links_give_only_a_message(page, request_log, site_url, family):
    visitor = page
    visitor.emulate_media(reduced_motion="reduce")
    own = visitor_with_a_saved_game(visitor, site_url, family)
    game = FAMILIES[family].games[0]
    other = next(f for f in FAMILIES.values() if f.id != family).games[0]
    record = {"format": "pygames/1", "game": game.id, "options": {},
              "players": [{"name": HOSTILE_NAME, "seat": "human"},
                          {"name": "Bob", "seat": "human"}][: max(2, game.min_players)],
              "actions": ["dice 9 9 9"] * 3}
    good_other = {"format": "pygames/1", "game": other.id, "options": {},
                  "players": [{"name": "Alice", "seat": "human"}] * max(1, other.min_players),
                  "actions": []}
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, replay.ZDICT)
    bomb = packer.compress(b'{"actions":["' + b"roll" * 2_500_000) + packer.flush()
    cases = [
        (replay.encode(record)[:-9], "abîmé"),  # cut
        ("1." + base64.urlsafe_b64encode(bomb).decode().rstrip("="), "trop de données"),
        (replay.encode(good_other), str(FAMILIES[other.family].title)),
        (replay.encode(record), "ne peut pas être rejoué"),
        ("1.%3Cscript%3E", "abîmé"),
    ]
    for data, expected in cases:
        visitor.goto("about:blank")  # each link a new visit (not a same-page fragment)
        goto(visitor, f"{site_url}{family}.html#replay={data}")
        only_the_message(visitor, expected)
    assert stored(visitor, family) == own
