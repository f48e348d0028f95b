"""Two devices at one table (web/app/duo.py, web/app/pairing.py, js/duo-link.js), on every game
page: two browser contexts (storage of their own) paired through the page's own text codes,
over a WebRTC data channel with no ICE server (host candidates, on this machine's loopback).

* A whole game: the host sets it up (*Deux appareils*, Léa on this device, Paul on the
  other), the guest opens the host's link (the QR code's text) and gives its answer as text,
  the host pastes it; each device then makes its own moves (a purposeful person: it scores,
  places, seals, so that a game ends), the host throws every die and plays the computer;
  both devices end on the same record, saved on both.
* A dropped link mid-game: said on both devices; paired again with a new code pasted on the
  guest (no new visit), and the game resumes from the record with nothing lost — and a guest
  that played on alone meanwhile gives its moves to the host.
* A peer that sends illegal, oversized and forged messages: refused with a message or
  ignored (counted), the host's game unchanged, nothing evaluated.
* Only the site's own origin requested, and the connection configured with no ICE server.
"""

from __future__ import annotations

import json
import random

import pytest
from harness import site
from harness.landais import wants_seal
from harness.pages import ACTION_CONTROLS, GAME_PAGES, GamePage

from pygames import GameError

LINK_MS = 60_000
HOSTILE_NAME = '<img src=x onerror="window.hacked=1">'


@pytest.fixture
def two(devices, site_url):
    """(host, guest): a new page on each device, the site's storage emptied on both; every
    request of both stays on the site's origin."""
    for context in devices:
        site.empty_site(context, site_url)
    logs = [site.RequestLog().attach(context) for context in devices]
    pages = [context.new_page() for context in devices]
    yield pages
    for page in pages:
        page.close()
    for context, log in zip(devices, logs):
        log.detach(context)
        log.assert_all_local()
        assert all(url.startswith(site_url) for url in log.urls), log.urls
        site.empty_site(context, site_url)


# --- pairing ---------------------------------------------------------------------------------


def offer_link(host: GamePage) -> str:
    try:
        host.page.wait_for_function("() => document.getElementById('duo-offer').value.includes('#pair=')",
                                    timeout=LINK_MS)
    except Exception:  # say what the dialog says
        raise AssertionError(host.page.text_content("#duo-error")) from None
    return host.page.input_value("#duo-offer")


def answer_code(guest: GamePage) -> str:
    guest.page.wait_for_function("() => document.getElementById('duo-reply').value.length > 0", timeout=LINK_MS)
    return guest.page.input_value("#duo-reply")


def wait_linked(*games: GamePage) -> None:
    for game in games:
        game.page.wait_for_function("() => document.body.hasAttribute('data-duo-linked')", timeout=LINK_MS)


def link_up(host: GamePage, guest: GamePage, *, by_link: bool, seed: str = "G") -> None:
    """The guest opens the host's code (its link: a new visit, as a camera would; or the text
    pasted into the open page), the host pastes the guest's answer: both linked."""
    link = offer_link(host)
    if by_link:
        page, _, fragment = link.partition("#")
        guest.mark_unready()  # (a new visit: the address differs from the page's by more than its fragment)
        guest.goto(f"{page}?seed={seed}&pace=0&visit={random.random()}#{fragment}")
        assert "#pair=" not in guest.page.url  # read once
    else:
        if not guest.page.evaluate("() => document.getElementById('duo').open"):
            guest.page.click("#duo-join-open")  # (on the setup screen)
        guest.page.fill("#duo-code", link)
        guest.page.click("#duo-join-go")
    host.page.fill("#duo-answer", answer_code(guest))
    host.page.click("#duo-connect")
    wait_linked(host, guest)
    host.page.wait_for_function("() => !document.getElementById('duo').open")


def same_game(host: GamePage, guest: GamePage) -> list[str]:
    """Until the guest's saved game is the host's (the host's moves reach it): their moves."""
    actions = host.record()["actions"]
    guest.wait_actions(len(actions))
    assert guest.record()["actions"] == actions
    return actions


def setup_two_devices(host: GamePage, family: str, *, seed: str) -> tuple[int, int]:
    """The host's setup: Léa here, Paul on the other device (and a computer where the page
    takes three).  Returns (Léa's seat, Paul's seat)."""
    host.open(fresh=True, seed=seed)
    players = [("Léa", "human"), ("Paul", "human")]
    fields = {}
    if family == "de-landais":  # a game begun on paper, near its end: it ends soon
        fields = {"#paper-start": True}
    if family == "421":
        fields = {"#paper": True, "#paper-pot": "0", "#paper-tokens": "5 6", "#paper-leader": "1"}
    options = {"de-landais": {"target": 1000}, "421": {"pot": 11}}.get(family)
    ruleset = "yahtzee" if family == "yams" else None  # (13 boxes)
    host.fill_setup(players, ruleset=ruleset, options=options)
    host.page.check("#two-devices")
    host.page.wait_for_function("() => document.querySelectorAll('#duo-seats select').length === 2")
    assert host.page.input_value("#duo-seat-0") == "here" and host.page.input_value("#duo-seat-1") == "other"
    for selector, value in fields.items():
        if value is True:
            host.page.check(selector)
        else:
            host.page.fill(selector, value)
    if family == "de-landais":
        host.page.fill("#paper-score-0", "900")
        host.page.fill("#paper-score-1", "900")
    host.start()
    host.page.wait_for_function("() => document.getElementById('duo').open")
    return 0, 1


# --- a purposeful person on each device -------------------------------------------------------


def choose(family: str, state, notations: list[str], rng) -> str:
    """A person who wants the game to end: scores, places, seals (200 or a win), stops."""
    def first(prefix):
        return next((n for n in notations if n.startswith(prefix)), None)

    if family == "yams":
        return first("score") or first("roll") or rng.choice(notations)
    if family == "linotte":
        return first("place") or first("roll") or first("pass") or rng.choice(notations)
    if family == "de-landais":
        if "seal" in notations and wants_seal(state):
            return "seal"
        return first("roll") or rng.choice(notations)
    return first("stop") or rng.choice(notations)


def controls(game: GamePage) -> list[str]:
    return game.visible_actions()


#: Until the device has the game's `n` moves and offers its person's controls: their notations.
CONTROLS_JS = f"""([key, n]) => {{
    const saved = JSON.parse(localStorage.getItem(key));
    if (!saved || saved.record.actions.length !== n) return null;
    const offered = [...document.querySelectorAll({json.dumps(ACTION_CONTROLS)})]
        .filter((e) => e.checkVisibility()).map((e) => e.dataset.action);
    return offered.length ? offered : null;
}}"""

#: A person's click on the control of a notation (the page's own control, as a tap would).
CLICK_JS = f"""(notation) => [...document.querySelectorAll({json.dumps(ACTION_CONTROLS)})]
    .find((e) => e.dataset.action === notation && e.checkVisibility()).click()"""


def wait_controls(game: GamePage, n: int) -> list[str]:
    """The device has the game's `n` moves and offers its person's controls."""
    return game.page.wait_for_function(CONTROLS_JS, arg=[game.key("match"), n], timeout=LINK_MS).json_value()


def play_on(host: GamePage, guest: GamePage, family: str, seats: dict, rng, *, moves: int | None = None,
            counts: dict | None = None) -> bool:
    """Each device plays its own person's moves (the host: Léa; the guest: Paul) until the
    game ends (True) or `moves` persons' moves were made (False).  Each move is a click on
    the device's own control, and must be in the host's record (the one that counts)."""
    made, last = 0, None
    for _ in range(2000):
        match = host.replay()
        n = len(match.history)
        if last is not None:
            assert last[1] in [a.notation() for a in match.history[last[0]:]], last
        if match.state.is_terminal():
            return True
        if moves is not None and made >= moves:
            return False
        p = match.state.current_player()
        device = host if seats[p] == "host" else guest
        notations = wait_controls(device, n)
        notation = choose(family, match.state, notations, rng)
        device.page.evaluate(CLICK_JS, notation)
        host.wait_actions_above(n)
        last = (n, notation)
        if counts is not None:
            counts[seats[p]] += 1
        made += 1
    raise AssertionError("the game never ended")


def nothing_plays_on(game: GamePage) -> None:
    """The device waits for the other: its table's controls play nothing."""
    before = game.actions()
    offered = game.page.locator("#table [data-action]:not([disabled])").filter(visible=True)
    if offered.count():
        offered.first.click(force=True)
    game.page.wait_for_timeout(200)
    assert game.actions() == before


def qr_drawn(game: GamePage, canvas: str) -> int:
    """The QR of a code, drawn (js/duo-link.js draw: its version on the canvas once done):
    dark modules and light ones.  Returns its version."""
    game.page.wait_for_function(f"() => document.querySelector('{canvas}').dataset.version", timeout=LINK_MS)
    dark, light = game.page.evaluate("""(selector) => {
        const canvas = document.querySelector(selector);
        const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0, light = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] > 128 && data[i] < 80) dark += 1; else if (data[i + 3] > 128 && data[i] > 180) light += 1;
        }
        return [dark, light];
    }""", canvas)
    assert dark > 100 and light > 100, (canvas, dark, light)
    return int(game.page.get_attribute(canvas, "data-version"))


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_whole_game_on_two_devices(two, site_url, family, screenshot):
    rng = random.Random(f"duo-{family}")
    host, guest = (GamePage(page, site_url, family) for page in two)
    guest.open(fresh=True, seed="G")
    lea, paul = setup_two_devices(host, family, seed="H")
    if family == "yams":
        screenshot(host.page, "duo-host-offer-360")
    assert host.record()["remote"]["seats"][paul] is None  # not yet known: the other device's
    assert 1 <= qr_drawn(host, "#duo-offer-qr") <= 10  # (a phone's camera reads it at arm's length)
    assert host.page.locator("#duo-offer-qr").is_visible()
    link_up(host, guest, by_link=True)
    assert 1 <= qr_drawn(guest, "#duo-reply-qr") <= 10
    assert host.page.evaluate("() => window.pygames.duo.config.iceServers.length") == 0
    device = guest.page.evaluate("() => JSON.parse(localStorage.getItem('pygames:remote')).device")
    assert host.record()["remote"]["seats"][paul] == device != host.record()["remote"]["seats"][lea]
    same_game(host, guest)
    assert guest.page.locator("#duo-bar").is_visible() and host.page.locator("#duo-bar").is_visible()
    assert guest.page.locator("#remote").is_hidden()  # not the links' panel: no link to send

    seats = {lea: "host", paul: "guest"}
    counts = {"host": 0, "guest": 0}
    assert play_on(host, guest, family, seats, rng, counts=counts)
    assert counts["host"] > 0 and counts["guest"] > 0, counts
    actions = same_game(host, guest)
    for game in (host, guest):
        game.wait_end()
        assert game.stored()["finished"] is True
    assert guest.record()["actions"] == actions
    if family == "yams":
        screenshot(guest.page, "duo-guest-end-360")


@pytest.mark.parametrize("family", ["linotte"])
def test_a_dropped_link_is_paired_again_with_nothing_lost(two, site_url, family):
    rng = random.Random(f"duo-drop-{family}")
    host, guest = (GamePage(page, site_url, family) for page in two)
    guest.open(fresh=True, seed="G")
    lea, paul = setup_two_devices(host, family, seed="H2")
    link_up(host, guest, by_link=False)
    seats = {lea: "host", paul: "guest"}
    play_on(host, guest, family, seats, rng, moves=4)
    before = same_game(host, guest)

    # The link drops (the host's side goes): both say so; the game is kept on both.
    host.page.evaluate("() => window.pygames.duo.close()")
    for game in (host, guest):
        game.page.wait_for_function("() => !document.body.hasAttribute('data-duo-linked')", timeout=LINK_MS)
        game.page.wait_for_function("() => document.getElementById('duo-bar').classList.contains('dropped')")
        assert game.record()["actions"] == before
    assert guest.words("site.duo.bar_dropped") in guest.page.text_content("#duo-bar")
    assert guest.page.locator("#duo-again").is_visible() and guest.page.locator("#duo-alone").is_visible()

    # The guest, while its person is to play and the link is down, cannot play: it says so.
    state = host.replay().state
    if seats[state.current_player()] == "guest":
        guest.click_action(choose(family, guest.replay().state, controls(guest), rng))
        assert guest.words("site.duo.not_linked") in guest.page.text_content("#hint")
        assert guest.record()["actions"] == before

    # Paired again: a new code from the host, pasted on the guest (no new visit).
    host.page.click("#duo-again")
    guest.page.click("#duo-again")
    link_up(host, guest, by_link=False)
    assert same_game(host, guest) == before
    play_on(host, guest, family, seats, rng, moves=3)
    resumed = same_game(host, guest)
    assert resumed[: len(before)] == before and len(resumed) > len(before)

    # Dropped again; the guest carries on alone (hot-seat: every seat on it) a few moves, then
    # opens the host's new code: the host takes the guest's game, which went further.
    guest.page.evaluate("() => window.pygames.duo.close()")
    for game in (host, guest):
        game.page.wait_for_function("() => !document.body.hasAttribute('data-duo-linked')", timeout=LINK_MS)
    guest.page.click("#duo-alone")
    guest.page.wait_for_function("() => document.getElementById('duo-bar').hidden")
    alone = guest.record()
    device = guest.page.evaluate("() => JSON.parse(localStorage.getItem('pygames:remote')).device")
    assert alone["actions"] == resumed and set(alone["remote"]["seats"]) == {device}
    for _ in range(3):
        k = guest.actions()
        notations = wait_controls(guest, k)
        guest.click_action(choose(family, guest.replay().state, notations, rng))
        guest.wait_actions_above(k)
    further = guest.record()["actions"]
    assert further[: len(resumed)] == resumed and len(further) > len(resumed)
    host.page.click("#duo-again")
    link_up(host, guest, by_link=True)
    assert same_game(host, guest) == further
    assert host.record()["remote"]["seats"][paul] == device != host.record()["remote"]["seats"][lea]
    play_on(host, guest, family, seats, rng, moves=2)
    same_game(host, guest)


def why_illegal(game: GamePage, notation: str) -> str:
    """What the rules say of a move in the saved game's position."""
    match = game.replay()
    try:
        match.state.apply(match.game.parse_action(notation))
    except GameError as err:
        return str(err)
    raise AssertionError(f"{notation} is legal")


def test_a_hostile_peer(two, site_url):
    """The guest's device is hostile: whatever it sends, the host's game changes only by legal
    moves of the guest's own seat; the rest is refused (said to the guest) or ignored."""
    host, guest = (GamePage(page, site_url, "yams") for page in two)
    guest.open(fresh=True, seed="G")
    host.open(fresh=True, seed="H3")
    host.fill_setup([(HOSTILE_NAME, "human"), ("Paul", "human")])
    host.page.check("#two-devices")
    host.page.wait_for_function("() => document.querySelectorAll('#duo-seats select').length === 2")
    host.start()
    host.page.wait_for_function("() => document.getElementById('duo').open")
    link_up(host, guest, by_link=False)
    kept = same_game(host, guest)
    first = host.replay().state.current_player()
    n = len(kept)

    def send(raw: str) -> None:
        guest.page.evaluate("(raw) => window.pygames.duo.send(raw)", raw)

    def refused_with(words: str) -> None:
        guest.page.wait_for_function(
            "(w) => document.getElementById('duo-note').textContent === w", arg=words, timeout=LINK_MS)

    # Léa (the host's seat) is to play: a move in her place is refused.
    assert first == 0
    send(f'{{"t":"move","n":{n},"move":"roll"}}')
    refused_with(guest.words("site.duo.not_your_turn"))
    # A stale move, an illegal one, an unreadable one (once it is Paul's turn).
    host.click_action("roll")
    host.wait_actions_above(n)
    host.click_action(choose("yams", host.replay().state, controls(host), random.Random(1)))
    kept = same_game(host, guest)
    assert host.replay().state.current_player() == 1
    n = len(kept)
    send(f'{{"t":"move","n":{n - 1},"move":"roll"}}')
    refused_with(guest.words("site.duo.stale"))
    for move in ("score chance", "<script>alert(1)</script>"):  # no dice rolled yet; no move at all
        send(f'{{"t":"move","n":{n},"move":{json.dumps(move)}}}')
        refused_with(why_illegal(host, move))
    send(f'{{"t":"undo","n":{n}}}')  # Léa's decision is not Paul's to take back
    refused_with(guest.words("site.duo.no_undo"))
    # Forged and oversized messages: ignored and counted, nothing changes.
    forged = [
        '{"t":"game","record":"1.AAAA"}',  # only the host sends the game
        f'{{"t":"moves","n":{n},"moves":["roll"],"hash":"0000000000000000"}}',
        '{"t":"hello","v":1,"device":"<b>x</b>","record":""}',
        '{"t":"eval","code":"window.hacked=1"}',
        "x" * 70_000,  # oversized
        "[" * 50_000,
        '{"t":"move","n":1,"move":"roll","extra":"<img src=x onerror=window.hacked=1>"}',
    ]
    for raw in forged:
        send(raw)
    host.page.wait_for_function(f"() => Number(document.body.dataset.duoIgnored || 0) >= {len(forged)}",
                                timeout=LINK_MS)
    assert host.record()["actions"] == kept and guest.record()["actions"] == kept
    for game in (host, guest):
        assert not game.page.evaluate("() => window.hacked")
        assert game.page.locator("#table img, #duo-bar img, #hint img").count() == 0
    # Still linked, and Paul's real move is played.
    assert host.page.evaluate("() => document.body.hasAttribute('data-duo-linked')")
    guest.click_action("roll")
    host.wait_actions_above(n)
    same_game(host, guest)


def test_two_devices_refused_with_real_dice(page, site_url):
    game = GamePage(page, site_url, "yams").open(fresh=True)
    game.fill_setup([("Léa", "human"), ("Paul", "human")])
    page.check("#real-dice")
    page.check("#two-devices")
    page.click("#start")
    page.wait_for_function("() => !document.getElementById('setup-error').hidden")
    assert page.text_content("#setup-error") == game.words("site.duo.no_real_dice")
    assert game.screen() == "setup"
