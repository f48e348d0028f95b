"""The Le 421 page (web/421.html): a full seeded game against the computer, every round's
tokens checked against the record saved in localStorage and replayed by `pygames`; play
by keyboard only; a reload in the middle of a décharge hand (kept dice included); the
embed page; *Charge auto* (the same game as clicking Lancer, and it stops at the
décharge); screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import pytest
from harness.le421 import Driver, check_table, paper_start, read, simulate_auto_charge, tokens_text, wait_human_or_end
from harness.pages import DESKTOP, LANDSCAPE, PHONE_320, PHONE_360, GamePage, open_embedded
from harness.site import WEB

from pygames import GAMES
from pygames.dice import Roll
from pygames.le421 import Stop
from pygames.le421.messages import round_sentence
from pygames.messages import text

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

GAME = GAMES["421"]


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url, "421").open(fresh=True, seed="e2e-421-full")
    assert page.locator("#setup").is_visible()
    screenshot(page, "421_1280_setup")
    game.start_game([("Léa", "human"), ("Paul", "simple")], options={"pot": 11})
    view = read(page)
    assert [s["name"] for s in view["seats"]] == ["Léa", "Paul"]
    assert "Charge" in view["phase"] and view["pot"] == "11 jetons"
    assert not view["auto"]["hidden"] and view["stop"]["hidden"]

    driver = Driver(game)
    shots = {}
    rounds_seen = set()
    while wait_human_or_end(page):
        match = game.replay()
        state = match.state
        check_table(page, match)
        rounds_seen.add(state.round)
        if state.decharge and state.throws and "decharge" not in shots:
            shots["decharge"] = screenshot(page, "421_1280_decharge")
        driver.act()
        assert len(rounds_seen) < 200
    match = game.replay()
    state = match.state
    assert state.is_terminal()
    check_table(page, match)
    screenshot(page, "421_1280_end")
    # The end screen: the loser is the one holding every token.
    loser = match.names[state.loser]
    shown = page.text_content("#end-title") + " " + page.text_content("#end-reason")
    assert f"{loser} a tous les jetons : il a perdu." in shown
    ranking = [[name, score] for _, name, score in game.ranking()]
    assert ranking[-1] == [loser, tokens_text(sum(state.tokens))]
    assert driver.stopped_once and len(rounds_seen) >= 3
    # Every round's sentence is in the journal.
    journal = page.evaluate("[...document.querySelectorAll('#journal-list li')].map(li => li.textContent)")
    assert len(journal) == state.round and journal[0].endswith(text(round_sentence(state.last, match.names)))


def test_keyboard_only(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    game = GamePage(page, site_url, "421").open(fresh=True, seed="e2e-421-keys")
    keys = page.keyboard
    # Setup: Tab to "Commencer la partie" with the default players (a human, a computer).
    game.start_by_keyboard(tabs=40)
    assert page.evaluate("document.activeElement.id") == "roll"
    # Tab reaches every control of the table.
    reached = set()
    for _ in range(30):
        keys.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert {"auto-charge", "SUMMARY"} <= reached, reached
    game.focus_by_tab("#roll", limit=40)  # and back to Lancer
    driver = Driver(game, by="keyboard")
    n = 0
    while wait_human_or_end(page) and not (driver.kept_once and driver.stopped_once):
        driver.act()
        n += 1
        assert n < 400
    assert driver.kept_once and driver.stopped_once
    screenshot(page, "421_360_keyboard")
    check_table(page, game.replay())


def test_reload_mid_hand_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    # A game begun on paper: the pot is empty, Léa (5 tokens) leads the décharge.
    game = GamePage(page, site_url, "421").open(fresh=True, seed="e2e-421-reload")
    game.start_game([("Léa", "human"), ("Paul", "simple")], fields=paper_start(1, "5 16"))
    match = game.replay()
    assert match.start == {"pot": 0, "tokens": [5, 16], "leader": 0}
    assert match.state.decharge and match.state.current_player() == 0
    check_table(page, match)
    game.dice.roll()
    game.wait_actions_above(0)
    state = game.replay().state
    assert state.decharge and state.throws == 1 and state.limit == 3
    game.dice.toggle(1)
    before = read(page)
    blob = game.stored()
    assert before["dice"][1]["held"] and blob["held"] == [1]
    screenshot(page, "421_740x360_held", full_page=False)
    game.reload()
    after = read(page)
    assert game.record() == blob["record"]
    assert after["dice"] == before["dice"]
    for key in ("seats", "pot", "last", "journal", "turn", "phase", "roll", "stop",
                "throwsUsed", "throwsAllowed"):
        assert after[key] == before[key], key
    assert "Partie reprise" in game.live()
    screenshot(page, "421_740x360_resumed")
    # The game goes on from there: Stop by the button.
    n = len(blob["record"]["actions"])
    page.click("#stop")
    game.wait_actions_above(n)
    assert game.replay().history[n] == Stop()


def test_charge_auto_plays_like_lancer_and_stops_at_the_decharge(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_320)
    seed = "e2e-421-auto"
    players = [("Ana", "human"), ("Bob", "human"), ("Robot", "simple")]
    game = GamePage(page, site_url, "421").open(fresh=True, seed=seed)
    game.start_game(players)
    screenshot(page, "421_320_charge")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.click("#auto-charge")
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('stop').hidden")
    page.wait_for_function("() => !document.getElementById('auto-charge').textContent.includes('cours')"
                           " || !document.getElementById('end').hidden")
    match = game.replay()
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
    game = open_embedded(page, site_url, "421", "blog", viewport={"width": 600, "height": 700},
                         fresh=True, seed="e2e-421-embed", players="Alice,Ordi:expert")
    view = read(page)
    assert [s["name"] for s in view["seats"]] == ["Alice", "Ordi"]
    game.dice.roll()
    game.wait_actions_above(0)
    match = game.replay()
    assert match.players[1].seat == "expert" and match.history[0] == Roll()
    screenshot(page, "421_embed")


# --- the expert that plays to win the game, and the advisor ------------------------------


def shipped_421_tables(options=None):
    """The expert's table of these options, read from the shipped file as the page reads it."""
    from pygames.le421 import FAMILY
    from pygames.le421.tables import load_tables

    name = FAMILY.game_tables(GAME, options or {})
    return name, load_tables((WEB / "tables" / f"{name}.bin").read_bytes())


def test_two_experts_play_the_solved_table(page, site_url, request_log):
    """Two experts play a whole game on the embed page: the page fetches the expert's
    solved table of these options, and every decision it made is the one pygames' expert
    makes from the shipped file (neither the round approximation nor the simple player it
    would fall back to: some decisions differ from each)."""
    from pygames.le421.bots import ExpertBot, RoundBot, SimpleBot

    name, tables = shipped_421_tables({"pot": 11})
    game = GamePage(page, site_url, "421", embed=True, instance="experts")
    with page.expect_response(lambda r: r.url.endswith(f"tables/{name}.bin"), timeout=90_000) as got:
        game.open(fresh=True, seed="e2e-421-experts-1", players="A:expert,B:expert", options="pot=11")
    assert got.value.ok
    game.wait_end()
    match = game.replay()
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
    game = GamePage(page, site_url, "421").open(fresh=True, seed="e2e-421-advice")
    game.start_game([("Léa", "human"), ("Paul", "expert")], fields=paper_start(1, "3 18"))
    for throw in range(2):
        state = game.replay().state
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
            game.wait_actions_above(0)
    # Taking the best choice: a keep shows its dice held, anything else is played.
    best = found.choices[0].action
    n = game.actions()
    page.click(f'#advice button[data-advice="{best.notation()}"]')
    if isinstance(best, Roll) and best.keep:
        page.wait_for_function("() => document.querySelectorAll('#dice [aria-pressed=true]').length > 0")
        held = [d["face"] for d in read(page)["dice"] if d["held"]]
        assert sorted(held) == sorted(best.keep) and read(page)["roll"]["action"].startswith("keep")
    else:
        game.wait_actions_above(n)
        assert game.replay().history[n] == best
