"""The Le 421 page (web/421.html): a full seeded game against the computer, every round's
tokens checked against the record saved in localStorage and replayed by `pygames`; play
by keyboard only; a reload in the middle of a décharge hand (kept dice included); the
embed page; *Charge auto* (the same game as clicking Lancer, and it stops at the
décharge); where the player throwing in the décharge stands; a rampo's throws; a giver
short of tokens; names never cut inside a word; the paper start's labels; the journal's
numbers; screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import pytest
from harness.le421 import (
    Driver,
    check_table,
    paper_start,
    read,
    scripted,
    simulate_auto_charge,
    tokens_text,
    wait_human_or_end,
)
from harness.pages import DESKTOP, LANDSCAPE, PHONE_320, PHONE_360, GamePage, no_sideways_scroll, open_embedded
from harness.site import WEB

from pygames import GAMES
from pygames.dice import Roll
from pygames.le421 import Stop
from pygames.le421.messages import hand_label, round_sentence, standing_outcome
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
    assert f"{loser} a tous les jetons et perd la partie." in shown
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


# --- the décharge's standing, the rampo, the last round (issue 20, item 13) ---------------

NBSP = "\u00a0"
THREE = [("Léa", "human"), ("Ordinateur", "simple"), ("Paul", "human")]
THREE_START = {"pot": 0, "tokens": [8, 8, 5]}
#: Léa and Ordinateur tie on 653 in one throw, Paul has the nénette: a rampo for the best
#: place, Ordinateur first (the last tied throws first); Léa is to throw.
IN_RAMPO = ("roll", "dice 6 5 3", "stop", "Ordinateur: 5 3 6", "Paul: 2 2 1", "Ordinateur: 4 2 1")
#: Léa throws 662: Ordinateur's 421 wins the rampo, he gives Paul the 653's 1 token; Paul
#: leads the second round.
AFTER_RAMPO = (*IN_RAMPO, "Léa: 6 6 2")
#: Paul: 631 in three throws; Léa: 552 at her first.
IN_DECHARGE = (*AFTER_RAMPO, "roll", "dice 6 4 2", "keep 6", "dice 3 5", "keep 6", "dice 3 1",
               "roll", "dice 5 5 2")


def open_position(page, site_url, script, players=THREE, start=THREE_START, seed="e2e-421-at"):
    """The 421 page opened on a game played with forced dice (saved as the page saves it)."""
    match = scripted(players, start, *script)
    blob = {"record": match.to_record()}
    if match.state.is_terminal():
        blob["finished"] = True
    return GamePage(page, site_url, "421").open_saved(blob, clear=True, seed=seed), match


def test_the_decharge_says_where_the_thrower_stands(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    # Paul leads the round: nothing to beat yet, before his throw and after it.
    game, match = open_position(page, site_url, AFTER_RAMPO)
    view = check_table(page, match)
    assert view["standing"] == [f"Paul{NBSP}: pas encore lancé{NBSP}; rien à battre encore.", ""]
    game.listen_live()
    n = game.actions()
    page.click("#roll")
    game.wait_actions_above(n)
    match = game.replay()
    view = check_table(page, match)
    assert view["standing"][0].endswith(f"en 1 coup{NBSP}; rien à battre encore.") and view["standing"][1] == ""
    # He stops: Léa's turn, with his hand to beat (on the table and said).
    page.click("#stop")
    game.wait_actions_above(n + 2)
    match = game.replay()
    beat = text(hand_label(match.state.hands[2].dice))
    assert match.state.current_player() == 0
    view = check_table(page, match)
    assert view["standing"] == [f"Léa{NBSP}: pas encore lancé{NBSP}; à battre{NBSP}: {beat} de Paul en 1 coup.", ""]
    assert any(f"À Léa de lancer. À battre{NBSP}: {beat} de Paul en 1 coup." in said for said in game.announced())

    # Paul has 631 in three throws, Léa 552 at her first: she would receive his token.
    game, match = open_position(page, site_url, IN_DECHARGE)
    view = check_table(page, match)
    assert view["standing"] == [f"Léa{NBSP}: 552 en 1 coup{NBSP}; à battre{NBSP}: 631 de Paul en 3 coups.",
                                "En l'état, Léa recevrait 1 jeton de Paul."]
    screenshot(page, "421_740x360_standing")
    # She throws again: the line follows, and her new standing is said.
    game.listen_live()
    n = game.actions()
    page.click("#roll")
    game.wait_actions_above(n)
    match = game.replay()
    state = match.state
    assert state.current_player() == 0 and state.throws == 2
    view = check_table(page, match)
    outcome = text(standing_outcome(state.standing(), match.names))
    assert view["standing"][1] == outcome and outcome.startswith("En l'état, ")
    page.wait_for_function("(s) => (window.__e2eLive || []).some((t) => t.includes(s))", arg=outcome)
    page.set_viewport_size(PHONE_320)
    no_sideways_scroll(page, 320)


def test_a_rampo_shows_each_throw_and_the_previous_round_says_so(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    game, match = open_position(page, site_url, IN_RAMPO)
    view = check_table(page, match)
    assert view["standing"] == [f"Lancers du rampo — Ordinateur{NBSP}: 421.", ""]
    assert view["caption"] == "Ordinateur\u00a0: 421 (rampo)"
    assert [seat["rampo"] for seat in view["seats"]] == [None, "rampo\u00a0: 421", None]
    screenshot(page, "421_360_rampo")
    # Léa's 662 settles it: the round's sentence, the last hands and the journal say who
    # threw what, so that one of the two 653 is the best.
    game, match = open_position(page, site_url, AFTER_RAMPO)
    view = check_table(page, match)
    sentence = (f"Paul (nénette) reçoit 1 jeton d'Ordinateur (653) après un rampo "
                f"(Ordinateur{NBSP}: 421, Léa{NBSP}: 662).")
    assert view["last"] == sentence and view["lastTitle"] == "Tour précédent"
    assert view["lastHands"] == [f"Léa 653 (rampo{NBSP}: 662)", f"Ordinateur 653 (rampo{NBSP}: 421) meilleure",
                                 "Paul nénette pire"]
    assert view["journal"] == [f"Tour 1{NBSP}: {sentence}"]
    # The dice still on the felt are the last throw of the round before, and say so.
    assert view["caption"] == "Tour précédent · Léa\u00a0: 662 (rampo)"
    screenshot(page, "421_360_after_rampo")
    # Once a hand of this round is thrown, the felt shows it.
    n = game.actions()
    page.click("#roll")
    game.wait_actions_above(n)
    assert "Tour précédent" not in read(page)["caption"]


def test_a_giver_short_of_tokens_is_said_and_the_last_round_is_named_so(page, site_url, request_log):
    page.set_viewport_size(DESKTOP)
    game, match = open_position(page, site_url, ("roll", "dice 6 1 1", "stop", "Paul: 6 5 3"),
                                players=[("Léa", "human"), ("Paul", "human")], start={"pot": 0, "tokens": [2, 19]})
    assert match.state.is_terminal()
    view = check_table(page, match)
    assert view["last"] == f"Paul (653) reçoit 2 jetons de Léa (fiche de 6){NBSP}; Léa n'avait que 2 jetons des 6 dus."
    assert view["lastTitle"] == "Dernier tour"


#: Every word of every name drawn in the table that a line break cuts (its boxes on more
#: than one line); words longer than `long` letters are left out (they must break or end
#: in "…" somewhere).
NAME_WORDS_CUT_JS = r"""(long) => {
    const cut = [];
    let words = 0;
    for (const node of document.querySelectorAll('#table .name, #table .who')) {
        if (!node.getClientRects().length) continue;
        const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            for (const m of t.data.matchAll(/[^\s ]+/g)) {
                if (m[0].length > long) continue;
                const range = document.createRange();
                range.setStart(t, m.index);
                range.setEnd(t, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                    .map((r) => Math.round(r.top)));
                words += 1;
                if (tops.size > 1) cut.push(m[0]);
            }
        }
    }
    return {words, cut};
}"""
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 letters, the longest a name may be
#: The seats' names that end in "…", with their title.
SEAT_NAMES_CLIPPED_JS = """() => [...document.querySelectorAll('#seats .who .name')]
    .filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.title)"""


def names_whole(page, viewports, least_words=2):
    for viewport in viewports:
        page.set_viewport_size(viewport)
        found = page.evaluate(NAME_WORDS_CUT_JS, 20)
        assert found["words"] >= least_words and found["cut"] == [], (viewport, found)
        no_sideways_scroll(page, viewport["width"])


def test_names_are_never_cut_inside_a_word(page, site_url, request_log, screenshot):
    players = [("Jean Pierre", "human"), ("Ordinateur", "simple"), (LONG_NAME, "human")]
    page.set_viewport_size(LANDSCAPE)
    game, match = open_position(page, site_url, IN_DECHARGE, players=players)
    check_table(page, match)
    names_whole(page, (LANDSCAPE, {"width": 714, "height": 600}, PHONE_320, PHONE_360, DESKTOP), least_words=8)
    # The 40 letters do not fit a seat on a phone: they end in "…", the whole name in the title.
    page.set_viewport_size(PHONE_320)
    assert page.evaluate(SEAT_NAMES_CLIPPED_JS) == [LONG_NAME]
    page.set_viewport_size(LANDSCAPE)
    screenshot(page, "421_740x360_names")
    # The embed page in a 714 px frame, and on a landscape phone.
    open_embedded(page, site_url, "421", "names", viewport={"width": 714, "height": 700},
                  fresh=True, seed="e2e-421-names", players="Léa,Ordinateur:simple")
    names_whole(page, ({"width": 714, "height": 700}, LANDSCAPE))
    screenshot(page, "421_embed_714")


#: Each control of the setup that is shown, by its accessible name (roles that take input).
SETUP_NAMES_JS = """() => [...document.querySelectorAll('#setup input:not([type=file]), #setup select')]
    .filter((c) => c.getClientRects().length)
    .map((c) => c.getAttribute('aria-label') || c.labels[0]?.querySelector('span')?.textContent || '')"""


def test_the_paper_start_fields_have_their_own_labels(page, site_url, request_log):
    game = GamePage(page, site_url, "421").open(fresh=True)
    page.check("#paper")
    names = page.evaluate(SETUP_NAMES_JS)
    assert "Jetons au pot" in names and "Jetons restant au pot" in names
    assert "" not in names and len(names) == len(set(names)), names
    # The accessible names, as a screen reader hears them: each once.
    tree = page.locator("#setup").aria_snapshot()
    for name in ("Jetons au pot", "Jetons restant au pot"):
        assert tree.count(f'"{name}"') == 1, tree
    page.get_by_label("Jetons restant au pot", exact=True).fill("0")
    game.start_game([("Léa", "human"), ("Paul", "human")], fields={"#paper-tokens": "10 11"})
    assert game.replay().start == {"pot": 0, "tokens": [10, 11], "leader": 0}


#: Each journal line shown with a list number before it (its marker drawn).
JOURNAL_NUMBERED_JS = """() => [...document.querySelectorAll('#journal-list li')]
    .filter((li) => getComputedStyle(li).display === 'list-item'
                    && getComputedStyle(li).listStyleType !== 'none').map((li) => li.textContent)"""


def test_the_journal_numbers_each_round_once(page, site_url, request_log):
    rounds = ("Léa: 2 2 1", "Paul: 6 5 3") * 4  # Léa leads each round and takes 1 token
    game, match = open_position(page, site_url, rounds, players=[("Léa", "human"), ("Paul", "human")],
                                start=None)
    assert match.state.round == 5
    page.click("#journal summary")
    view = check_table(page, match)
    sentence = "Léa (nénette) prend 1 jeton au pot, meilleure main\u00a0: Paul (653)."
    assert view["journal"] == [f"Tour {n}{NBSP}: {sentence}" for n in (4, 3, 2, 1)]
    assert page.evaluate(JOURNAL_NUMBERED_JS) == []
