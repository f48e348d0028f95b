"""The Le 421 page (web/421.html): a full seeded game against the computer, every round's
tokens checked against the record saved in localStorage and replayed by `pygames`; play
by keyboard only; a reload in the middle of a décharge hand (kept dice included); the
embed page; *Charge auto* (the same game as clicking Lancer, and it stops at the
décharge); screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygames import GAMES, DiceSampler, Match, Player, load_match  # noqa: E402
from pygames.core import bot_for  # noqa: E402
from pygames.dice import Roll  # noqa: E402
from pygames.le421 import Stop, hand_value, sorted_hand  # noqa: E402
from pygames.le421.messages import hand_label, round_sentence  # noqa: E402
from pygames.messages import text  # noqa: E402

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

STORE_KEY = "pygames:421:match"
BOOT_TIMEOUT_MS = 90_000
DESKTOP = {"width": 1280, "height": 800}
PHONE_320 = {"width": 320, "height": 640}
PHONE_360 = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
GAME = GAMES["421"]


# --- page basics ------------------------------------------------------------------------


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def open_421(page, site_url, *, seed, pace=0, path="421.html", extra="") -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{site_url}{path}?fresh=1&seed={seed}&pace={pace}{extra}")
    wait_ready(page)


def reload(page) -> None:
    """Reload without ?fresh=1 (which would start afresh instead of resuming)."""
    url = re.sub(r"fresh=1&?", "", page.url)
    page.evaluate("delete document.body.dataset.ready")
    page.goto(url)
    wait_ready(page)


def saved(page, key=STORE_KEY) -> dict | None:
    text = page.evaluate("k => localStorage.getItem(k)", key)
    return json.loads(text) if text else None


def replay(page, key=STORE_KEY) -> Match:
    blob = saved(page, key)
    assert blob, "no saved game"
    return load_match(blob["record"])


def start_game(page, players, options=None) -> None:
    """Fill the setup with the mouse and start."""
    for opt, value in (options or {}).items():
        node = f'#option-choices [data-option="{opt}"]'
        if isinstance(value, bool):
            page.set_checked(node, value)
        else:
            page.select_option(node, str(value))
    while page.locator("#player-rows li").count() < len(players):
        page.click("#add-player")
    rows = page.locator("#player-rows li")
    assert rows.count() == len(players)
    for i, (name, seat) in enumerate(players):
        rows.nth(i).locator("input[type=text]").fill(name)
        rows.nth(i).locator("select").select_option(seat)
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")


READ_JS = """
() => {
  const q = (s) => document.querySelector(s);
  return {
    dice: [...document.querySelectorAll('#dice [data-die]')].map(d => ({
      face: Number(d.dataset.face), held: d.getAttribute('aria-pressed') === 'true',
      disabled: d.disabled})),
    pot: q('#pot-count').textContent,
    potCoins: document.querySelectorAll('#pot-coins .coin').length,
    seats: [...document.querySelectorAll('#seats tr')].map(tr => ({
      name: tr.querySelector('.name').textContent,
      count: tr.querySelector('.count').textContent,
      coins: tr.querySelectorAll('.coin').length,
      status: tr.querySelector('.status').textContent,
      current: tr.classList.contains('current'),
      hand: tr.querySelector('.hand-label strong')?.textContent ?? null,
      rampo: tr.querySelector('.rampo-tag')?.textContent ?? null,
    })),
    last: q('#last-round').hidden ? null : q('#last-sentence').textContent,
    journal: [...document.querySelectorAll('#journal-list li')].map(li => li.textContent),
    turn: q('#turn-info').textContent,
    phase: q('#phase-info').textContent,
    roll: {disabled: q('#roll').disabled, action: q('#roll').dataset.action},
    stop: {disabled: q('#stop').disabled, hidden: q('#stop').hidden},
    auto: {disabled: q('#auto-charge').disabled, hidden: q('#auto-charge').hidden},
    throwsUsed: document.querySelectorAll('#roll-count i.used').length,
    throwsAllowed: document.querySelectorAll('#roll-count i').length,
  };
}
"""


def read(page) -> dict:
    return page.evaluate(READ_JS)


def tokens_text(n: int) -> str:
    return f"{n} jeton{'s' if n > 1 else ''}"


def check_table(page, match: Match) -> dict:
    """What the page draws is the replayed state: pot, tokens (number and coins), the
    players out, the current player, this round's hands, the last round's sentence."""
    state, names = match.state, match.names
    view = read(page)
    assert view["pot"] == (tokens_text(state.pot) if state.pot else "vide")
    assert view["potCoins"] == min(state.pot, 21)
    out = {p for group in state.left for p in group}
    for p, seat in enumerate(view["seats"]):
        assert seat["name"] == names[p]
        assert seat["count"] == tokens_text(state.tokens[p]), (p, seat, state.tokens)
        assert seat["coins"] == min(state.tokens[p], 21)
        if p in out:
            assert seat["status"] == "sorti — gagné"
        if state.is_terminal():
            assert (seat["status"] == "perdu : tous les jetons") == (p == state.loser)
        else:
            assert seat["current"] == (p == state.current_player())
            hand = state.hand_infos()[p]
            assert seat["hand"] == (text(hand_label(hand.dice)) if hand else None)
    assert view["last"] == (text(round_sentence(state.last, names)) if state.last else None)
    assert len(view["journal"]) == state.round - 1 if not state.is_terminal() else True
    return view


def wait_human_or_end(page, timeout=60_000) -> bool:
    """Until a human may throw or stop (True), or the game is over (False)."""
    page.wait_for_function(
        """() => !document.getElementById('end').hidden ||
                 !document.getElementById('roll').disabled ||
                 (!document.getElementById('stop').hidden && !document.getElementById('stop').disabled)""",
        timeout=timeout)
    return page.locator("#end").is_hidden()


def wait_record_grows(page, before: int, key=STORE_KEY) -> None:
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length > n", arg=[key, before],
        timeout=60_000)


def plan(state) -> set[int] | None:
    """A human's décharge: the places to keep before throwing again, or None to stop.
    Stops on a hand worth 2 or more; otherwise keeps the 4, 2 and 1 (or two aces)."""
    value = hand_value(sorted_hand(state.dice), state.rules)
    if value >= 2 or state.throws >= state.limit:
        return None
    if list(state.dice).count(1) >= 2:
        wanted = [1, 1]
    else:
        wanted = sorted({d for d in state.dice if d in (1, 2, 4)})
    places, free = set(), list(range(3))
    for face in wanted:
        p = next((i for i in free if state.dice[i] == face), None)
        if p is not None:
            places.add(p)
            free.remove(p)
    return places if len(places) < 3 else None


class Driver:
    """Plays the human hands of the page by mouse or keyboard, from what it shows and
    the replayed state (the same decisions as `plan`)."""

    def __init__(self, page, by="mouse"):
        self.page = page
        self.by = by
        self.kept_once = False
        self.stopped_once = False

    def act(self) -> None:
        page = self.page
        before = len(saved(page)["record"]["actions"])
        match = replay(page)
        state = match.state
        check_table(page, match)
        if state.throws == 0:
            self.throw()
        else:
            keep = plan(state)
            if keep is None:
                self.stopped_once = True
                if self.by == "mouse":
                    page.click("#stop")
                else:
                    page.keyboard.press("s")
            else:
                view = read(page)
                held = {i for i, d in enumerate(view["dice"]) if d["held"]}
                for place in sorted(keep ^ held):
                    if self.by == "mouse":
                        page.click(f'#dice [data-die="{place}"]')
                    else:
                        page.keyboard.press(str(place + 1))
                view = read(page)
                assert {i for i, d in enumerate(view["dice"]) if d["held"]} == keep
                if keep:
                    self.kept_once = True
                    faces = sorted(state.dice[p] for p in keep)
                    assert view["roll"]["action"] == Roll(tuple(faces), tuple(sorted(keep))).notation()
                self.throw()
        wait_record_grows(page, before)

    def throw(self) -> None:
        if self.by == "mouse":
            self.page.click("#roll")
        else:
            # Focus is on Lancer, a die or nowhere (never on another button).
            focus = self.page.evaluate("document.activeElement.id || document.activeElement.tagName")
            assert focus in ("roll", "BODY", "MAIN") or focus.startswith("DIE") or \
                self.page.evaluate("document.activeElement.hasAttribute('data-die')"), focus
            self.page.keyboard.press("Space")

    def play_to_end(self, limit=600) -> int:
        n = 0
        while wait_human_or_end(self.page):
            self.act()
            n += 1
            assert n < limit
        return n


def simulate_auto_charge(seed: str, players, options=None) -> list[str]:
    """Offline: the humans click Lancer at each of their charge throws, the computers play
    their seats, the seeded dice fall; the actions until the décharge begins."""
    match = Match(GAME, [Player(n, s) for n, s in players], options or {}, DiceSampler(seed))
    bots = {i: bot_for(GAME, s) for i, (_, s) in enumerate(players) if s != "human"}
    while not match.state.is_terminal() and not match.state.decharge:
        state = match.state
        if state.is_chance():
            match.throw()
        elif state.current_player() in bots:
            match.apply(bots[state.current_player()](state))
        else:
            match.apply(Roll())
    return [a.notation() for a in match.history]


# --- the tests ------------------------------------------------------------------------------


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    open_421(page, site_url, seed="e2e-421-full")
    assert page.locator("#setup").is_visible()
    screenshot(page, "421_1280_setup")
    start_game(page, [("Léa", "human"), ("Paul", "simple")], {"pot": 11})
    view = read(page)
    assert [s["name"] for s in view["seats"]] == ["Léa", "Paul"]
    assert "Charge" in view["phase"] and view["pot"] == "11 jetons"
    assert not view["auto"]["hidden"] and view["stop"]["hidden"]

    driver = Driver(page)
    shots = {}
    rounds_seen = set()
    while wait_human_or_end(page):
        match = replay(page)
        state = match.state
        check_table(page, match)
        rounds_seen.add(state.round)
        if state.decharge and state.throws and "decharge" not in shots:
            shots["decharge"] = screenshot(page, "421_1280_decharge")
        driver.act()
        assert len(rounds_seen) < 200
    match = replay(page)
    state = match.state
    assert state.is_terminal()
    check_table(page, match)
    screenshot(page, "421_1280_end")
    # The end screen: the loser is the one holding every token.
    loser = match.names[state.loser]
    shown = page.text_content("#end-title") + " " + page.text_content("#end-reason")
    assert f"{loser} a tous les jetons : il a perdu." in shown
    ranking = page.evaluate("""() => [...document.querySelectorAll('#ranking li')].map(li =>
        [li.querySelector('.name').textContent, li.querySelector('.score').textContent])""")
    assert ranking[-1] == [loser, tokens_text(sum(state.tokens))]
    assert driver.stopped_once and len(rounds_seen) >= 3
    # Every round's sentence is in the journal.
    journal = page.evaluate("[...document.querySelectorAll('#journal-list li')].map(li => li.textContent)")
    assert len(journal) == state.round and journal[0].endswith(text(round_sentence(state.last, match.names)))


def test_keyboard_only(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    open_421(page, site_url, seed="e2e-421-keys")
    keys = page.keyboard
    # Setup: Tab to "Commencer la partie" with the default players (a human, a computer).
    for _ in range(40):
        if page.evaluate("document.activeElement && document.activeElement.id") == "start":
            break
        keys.press("Tab")
    else:
        raise AssertionError("Tab never reached #start")
    keys.press("Enter")
    page.wait_for_function("!document.getElementById('table').hidden")
    assert page.evaluate("document.activeElement.id") == "roll"
    # Tab reaches every control of the table.
    reached = set()
    for _ in range(30):
        keys.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert {"auto-charge", "SUMMARY"} <= reached, reached
    for _ in range(40):  # and back to Lancer
        if page.evaluate("document.activeElement.id") == "roll":
            break
        keys.press("Tab")
    else:
        raise AssertionError("Tab never came back to #roll")
    driver = Driver(page, by="keyboard")
    n = 0
    while wait_human_or_end(page) and not (driver.kept_once and driver.stopped_once):
        driver.act()
        n += 1
        assert n < 400
    assert driver.kept_once and driver.stopped_once
    screenshot(page, "421_360_keyboard")
    check_table(page, replay(page))


def test_reload_mid_hand_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    # A game begun on paper: the pot is empty, Léa (5 tokens) leads the décharge.
    open_421(page, site_url, seed="e2e-421-reload")
    page.check("#paper")
    page.fill("#paper-pot", "0")
    page.fill("#paper-tokens", "5 16")
    page.fill("#paper-leader", "1")
    start_game(page, [("Léa", "human"), ("Paul", "simple")])
    match = replay(page)
    assert match.start == {"pot": 0, "tokens": [5, 16], "leader": 0}
    assert match.state.decharge and match.state.current_player() == 0
    check_table(page, match)
    page.click("#roll")
    wait_record_grows(page, 0)
    state = replay(page).state
    assert state.decharge and state.throws == 1 and state.limit == 3
    page.click('#dice [data-die="1"]')
    before = read(page)
    blob = saved(page)
    assert before["dice"][1]["held"] and blob["held"] == [1]
    screenshot(page, "421_740x360_held", full_page=False)
    reload(page)
    after = read(page)
    assert saved(page)["record"] == blob["record"]
    assert after["dice"] == before["dice"]
    for key in ("seats", "pot", "last", "journal", "turn", "phase", "roll", "stop",
                "throwsUsed", "throwsAllowed"):
        assert after[key] == before[key], key
    assert "Partie reprise" in page.text_content("#live")
    screenshot(page, "421_740x360_resumed")
    # The game goes on from there: Stop by the button.
    n = len(blob["record"]["actions"])
    page.click("#stop")
    wait_record_grows(page, n)
    assert replay(page).history[n] == Stop()


def test_charge_auto_plays_like_lancer_and_stops_at_the_decharge(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_320)
    seed = "e2e-421-auto"
    players = [("Ana", "human"), ("Bob", "human"), ("Robot", "simple")]
    open_421(page, site_url, seed=seed)
    start_game(page, players)
    screenshot(page, "421_320_charge")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.click("#auto-charge")
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('stop').hidden")
    page.wait_for_function("() => !document.getElementById('auto-charge').textContent.includes('cours')"
                           " || !document.getElementById('end').hidden")
    match = replay(page)
    expected = simulate_auto_charge(seed, players)
    assert [a.notation() for a in match.history] == expected
    state = match.state
    assert state.decharge and state.throws == 0 and state.pot == 0
    view = check_table(page, match)
    assert view["auto"]["hidden"] and "Décharge" in view["phase"]
    # Every round of the charge is in the journal, sentence by sentence.
    assert len(view["journal"]) == state.round - 1
    assert any("prend" in line and "au pot" in line for line in view["journal"])
    # The seed has a rampo for the worst place in the charge: the sentence says so.
    assert any("après un rampo" in line for line in view["journal"]), view["journal"]
    screenshot(page, "421_320_decharge")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.set_viewport_size(PHONE_360)
    screenshot(page, "421_360_decharge")


def test_embed_page(page, site_url, request_log, screenshot):
    page.set_viewport_size({"width": 600, "height": 700})
    open_421(page, site_url, seed="e2e-421-embed", path="embed-421.html",
             extra="&players=Alice,Ordi:expert&id=blog")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    key = f"{STORE_KEY}:blog"
    view = read(page)
    assert [s["name"] for s in view["seats"]] == ["Alice", "Ordi"]
    page.click("#roll")
    wait_record_grows(page, 0, key)
    match = replay(page, key)
    assert match.players[1].seat == "expert" and match.history[0] == Roll()
    screenshot(page, "421_embed")


# --- the expert that plays to win the game, and the advisor ------------------------------


def shipped_421_tables(options=None):
    """The expert's table of these options, read from the shipped file as the page reads it."""
    from pygames.le421 import FAMILY
    from pygames.le421.tables import load_tables

    name = FAMILY.game_tables(GAME, options or {})
    return name, load_tables((ROOT / "web" / "tables" / f"{name}.bin").read_bytes())


def test_two_experts_play_the_solved_table(page, site_url, request_log):
    """Two experts play a whole game on the embed page: the page fetches the expert's
    solved table of these options, and every decision it made is the one pygames' expert
    makes from the shipped file (neither the round approximation nor the simple player it
    would fall back to: some decisions differ from each)."""
    from pygames.le421.bots import ExpertBot, RoundBot, SimpleBot

    name, tables = shipped_421_tables({"pot": 11})
    with page.expect_response(lambda r: r.url.endswith(f"tables/{name}.bin"), timeout=90_000) as got:
        open_421(page, site_url, seed="e2e-421-experts-1", path="embed-421.html",
                 extra="&players=A:expert,B:expert&options=pot=11&id=experts")
    assert got.value.ok
    page.wait_for_function("!document.getElementById('end').hidden", timeout=180_000)
    match = replay(page, f"{STORE_KEY}:experts")
    assert match.state.is_terminal() and match.options["pot"] == 11
    expert, round_bot, simple_bot = ExpertBot(tables), RoundBot(), SimpleBot()
    state = GAME.new_state(match.players, match.options)
    decisions = not_round = not_simple = 0
    for action in match.history:
        if not state.is_chance() and state.decharge and state.throws and not state.rampo:
            assert expert(state) == action, (state, action)
            decisions += 1
            not_round += round_bot(state) != action
            not_simple += simple_bot(state) != action
        state = state.apply(action)
    assert decisions >= 10 and not_round >= 1 and not_simple >= 1


ADVICE_JS = """() => [...document.querySelectorAll('#advice .advice-list li')].map(li =>
    [li.querySelector('button').dataset.advice, li.querySelector('.advice-value').textContent])"""


def test_the_advisor_gives_each_choice_s_chance_of_winning(page, site_url, request_log):
    """A two-player décharge begun on paper: Conseil lists the choices pygames' advisor
    gives, best first, each with its probability of winning the game as the page says it."""
    from pygames.le421 import advise
    from pygames.le421.messages import advice_value

    _, tables = shipped_421_tables()
    open_421(page, site_url, seed="e2e-421-advice")
    page.check("#paper")
    page.fill("#paper-pot", "0")
    page.fill("#paper-tokens", "3 18")
    page.fill("#paper-leader", "1")
    start_game(page, [("Léa", "human"), ("Paul", "expert")])
    for throw in range(2):
        state = replay(page).state
        assert state.decharge and state.current_player() == 0 and state.throws == throw
        page.click("#advise")
        page.wait_for_selector("#advice .advice-value", timeout=30_000)
        shown = page.evaluate(ADVICE_JS)
        found = advise(state, tables)
        assert found.exact and found.choices
        assert shown == [[c.action.notation(), text(advice_value("win", c.value))] for c in found.choices]
        assert "de chances de gagner la partie" in shown[0][1]
        if throw == 0:
            page.click("#advise")  # closed
            page.click("#roll")
            wait_record_grows(page, 0)
    # Taking the best choice: a keep shows its dice held, anything else is played.
    best = found.choices[0].action
    n = len(replay(page).history)
    page.click(f'#advice button[data-advice="{best.notation()}"]')
    if isinstance(best, Roll) and best.keep:
        page.wait_for_function("document.querySelectorAll('#dice [aria-pressed=true]').length > 0")
        held = [d["face"] for d in read(page)["dice"] if d["held"]]
        assert sorted(held) == sorted(best.keep) and read(page)["roll"]["action"].startswith("keep")
    else:
        wait_record_grows(page, n)
        assert replay(page).history[n] == best
