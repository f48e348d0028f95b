"""Every game page, played by keyboard and watched by a screen reader (issue #12, defects 1,
5, 6, 9 and "a moment of joy"), the same checks for each page of the registry:

* Space and Enter act on the focused control: a focused die is kept (not a roll), the
  "Aller au jeu" skip link and the home link are followed; the shortcuts still work when
  nothing is focused;
* when a human ends a decision and the turn passes to another human, focus goes to that
  player's main control (Lancer), never to <body>, and the change of turn is announced in
  the same announcement as the action; a computer player's kept dice are announced;
* ``?fresh=1`` is dropped from the address bar once used, so a reload resumes the game;
* a click on a dialog's backdrop closes it; no disabled Lancer/Relancer during the
  computer's turn (its status instead); empty dice slots do not animate after scoring;
* a Yams, the 421, a win: a short animation (none under prefers-reduced-motion), and a
  sound switch, off by default and remembered in ``pygames:prefs``.

Nothing may leave 127.0.0.1 (request_log).
"""

from __future__ import annotations

import random
import re

import pytest
from harness.le421 import paper_start
from harness.pages import GAME_PAGES, GamePage, js_global

from pygames import FAMILIES, DiceSampler, Match, Player
from pygames.bots import bot_for

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

#: The pages whose dice a player keeps between throws (the others throw them all).
KEEPING = [f for f in GAME_PAGES if f != "de-landais"]
#: A paper start where Léa (the first player) leads: the 421's décharge at once (dice can be
#: kept), the Dé Landais without its opening throw.
LEA_FIRST = {"421": paper_start(1), "de-landais": {"#paper-start": True, "#paper-first": "0"}}


def open_game(page, site_url, family, seed, *, pace=0, motion="reduce") -> GamePage:
    return GamePage(page, site_url, family).open(fresh=True, seed=seed, pace=pace, motion=motion)


def current_name(page) -> str:
    return (page.text_content("#turn-info .who") or "").strip()


# --- defect 1: keys act on the focused control -------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_space_and_enter_act_on_the_focused_control(page, site_url, family, request_log):
    game = open_game(page, site_url, family, f"keys-{family}")
    if family in LEA_FIRST:
        game.start_game([("Léa", "human"), ("Paul", "human")], fields=LEA_FIRST[family])
    else:
        game.start_game([("Léa", "human")] + ([("Paul", "human")] if family == "linotte" else []))
    assert game.focused() == "#roll"  # a new game: Lancer has the focus
    n = game.actions()
    page.keyboard.press("Enter")  # on Lancer: a throw
    game.wait_actions_above(n)

    if family in KEEPING:
        die = page.locator("#dice [data-die='0']")
        die.focus()
        n = game.actions()
        page.keyboard.press("Space")
        page.wait_for_function("() => document.querySelector(\"#dice [data-die='0']\").ariaPressed === 'true'",
                               timeout=5_000)
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.querySelector(\"#dice [data-die='0']\").ariaPressed === 'false'",
                               timeout=5_000)
        assert game.actions() == n, "Space/Enter on a die must keep it, not throw"

    # The skip link is followed, nothing is played.
    n = game.actions()
    page.focus("a.skip")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#main'", timeout=5_000)
    assert game.actions() == n
    # With nothing focused but the page itself, Space is the roll shortcut.
    if page.locator("#roll").is_enabled():
        page.focus("#main")
        page.keyboard.press("Space")
        game.wait_actions_above(n)

    # The home link is followed, nothing is played.
    n = game.actions()
    page.focus("header.site a.brand")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.rstrip("/").endswith(site_url.rstrip("/")), page.url
    assert game.actions() == n


# --- defect 5: keyboard flow ---------------------------------------------------------------


def end_decision(game) -> None:
    """Léa, by keyboard only, ends her turn (a box, Stop, Passer, Sceller)."""
    page, family = game.page, game.family
    keys = page.keyboard
    page.focus("#roll")
    n = game.actions()
    keys.press("Enter")
    game.wait_actions_above(n)
    n = game.actions()
    if family == "yams":
        page.focus("#sheet-body button.box:not([disabled])")
    elif family == "421":
        page.focus("#stop")
    elif family == "linotte":
        page.focus("#pass")
    else:
        while current_name(page) == "Léa" and not page.locator("#seal").is_enabled():
            page.focus("#roll")
            keys.press("Enter")
            game.wait_actions_above(n)
            n = game.actions()
        if current_name(page) != "Léa":
            return  # the series ended by itself
        page.focus("#seal")
    keys.press("Enter")
    game.wait_actions_above(n)


@pytest.mark.parametrize("family", GAME_PAGES)
def test_focus_and_announcement_when_the_turn_passes(page, site_url, family, request_log):
    game = open_game(page, site_url, family, f"flow-{family}")
    game.start_game([("Léa", "human"), ("Paul", "human")], fields=LEA_FIRST.get(family))
    game.listen_live()
    assert current_name(page) == "Léa"
    end_decision(game)
    page.wait_for_function("() => document.querySelector('#turn-info .who')?.textContent === 'Paul'")
    assert game.focused() == "#roll", "focus must go to the next player's Lancer"
    log = game.announced()
    assert re.search(r"À Paul de (jouer|lancer)", log[-1]), log


@pytest.mark.parametrize("family", KEEPING)
def test_the_computer_s_kept_dice_are_announced(page, site_url, family, request_log):
    game = open_game(page, site_url, family, f"kept-{family}")
    game.listen_live()  # before the start: at pace 0 the computer may lead at once
    game.start_game([("Léa", "human"), ("Ordi", "simple")],
                    fields=paper_start(2) if family == "421" else None)
    rng = random.Random(family)
    for _ in range(60):
        if any(re.search(r"\bOrdi garde \d", text) for text in game.announced()):
            break
        if not game.play_random(1, rng):
            break
    log = game.announced()
    assert any(re.search(r"\bOrdi garde \d", text) for text in log), log


# --- defect 6: ?fresh=1 is used once -------------------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_fresh_is_dropped_from_the_address_bar(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed=f"fresh-{family}",
                                                 game=FAMILIES[family].games[0].id)
    assert "fresh=" not in page.url and "seed=fresh-" in page.url and "pace=0" in page.url, page.url
    assert "game=" in page.url
    game.start()
    game.play_random(1, random.Random(1))
    game.wait_person_or_end()
    record = game.get_item("match")
    game.mark_unready()
    page.reload()
    game.wait_ready()
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    assert game.get_item("match") == record


# --- defect 9: dialogs, the computer's turn, empty dice -------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_click_on_the_backdrop_closes_a_dialog(page, site_url, family, request_log):
    game = open_game(page, site_url, family, "dialogs")
    for opener, dialog in (("#open-rules", "#rules"), ("#open-embed", "#embed")):
        page.click(opener)
        assert page.locator(dialog).is_visible()
        page.click(f"{dialog} h2")  # inside: it stays
        assert page.locator(dialog).is_visible()
        box = page.locator(dialog).bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, max(2, box["y"] / 2))  # the backdrop above it
        page.wait_for_function(f"() => !document.querySelector('{dialog}').open", timeout=5_000)
        assert game.focused() == opener, "focus returns to the button that opened the dialog"


@pytest.mark.parametrize("family", GAME_PAGES)
def test_nouvelle_partie_mid_game_asks_with_the_sites_dialog(page, site_url, family, request_log):
    """Not the browser's confirm(): the site's dialog, named by its question, the safe answer
    focused; Escape, a click outside or *Continuer la partie* keep the game; *Abandonner la
    partie* clears it and shows the setup."""
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(d.message)))
    game = open_game(page, site_url, family, "ask")
    game.start_game([("Léa", "human"), ("Paul", "human")])
    game.play_random(2, random.Random(2))
    record = game.record()
    ask = page.get_by_role("dialog", name="Abandonner la partie en cours\u00a0?")
    for cancel in ("Escape", "backdrop", "button"):
        game.focus_by_tab("#quit")
        page.keyboard.press("Enter")
        assert ask.is_visible() and game.focused() == "#ask-cancel", cancel
        assert page.text_content("#ask-cancel") == "Continuer la partie"
        if cancel == "Escape":
            page.keyboard.press("Escape")
        elif cancel == "backdrop":
            box = ask.bounding_box()
            page.mouse.click(box["x"] + box["width"] / 2, max(2, box["y"] / 2))
        else:
            page.keyboard.press("Enter")  # on the focused Continuer la partie
        assert ask.is_hidden() and game.screen() == "table", cancel
        assert game.focused() == "#quit", cancel
        assert game.record() == record
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")  # the other answer, by keyboard too
    assert game.focused() == "#ask-accept"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('setup').hidden")
    assert game.get_item("match") is None
    # The setup's game is not asked about again: there is none going on.
    game.start()
    game.quit_to_setup()


@pytest.mark.parametrize("family", [f for f in KEEPING if f != "421"])
def test_no_die_is_said_kept_once_no_throw_is_left(page, site_url, family, request_log):
    """After the turn's last throw a kept die is kept no more: not drawn pressed, not said
    "gardé" (issue 20, item 12), and the turn is still the player's (a box, a cell)."""
    game = open_game(page, site_url, family, "kept")
    game.start_game([("Léa", "human"), ("Paul", "human")])
    for n in (1, 2):
        game.dice.roll()
        game.dice.wait_throws(n)
        game.dice.set_held({0})
        assert "gardé" in page.get_attribute('#dice [data-die="0"]', "aria-label")
    game.dice.roll()
    game.dice.wait_throws(3)
    assert current_name(page) == "Léa"
    assert game.dice.held() == set()
    labels = page.eval_on_selector_all("#dice [data-die]", "ds => ds.map(d => d.getAttribute('aria-label'))")
    assert labels and not any("gardé" in label for label in labels), labels


@pytest.mark.parametrize("family", GAME_PAGES)
def test_no_disabled_roll_button_during_the_computer_s_turn(page, site_url, family, request_log):
    game = open_game(page, site_url, family, f"bot-{family}", pace=700)
    game.start_game([("Ordi", "simple"), ("Léa", "human")], fields=LEA_FIRST.get(family))
    page.wait_for_function("() => document.getElementById('hint').textContent.includes('(ordinateur)')")
    shown = page.evaluate("""() => [...document.querySelectorAll('#table .controls button')]
        .filter((b) => b.disabled && b.checkVisibility()).map((b) => b.id)""")
    assert shown == [], f"disabled controls shown during the computer's turn: {shown}"
    status = page.locator("#table .computer-status")
    assert status.is_visible() and "Ordi" in status.text_content()
    # As it is drawn (innerText): the space between the name and "joue" is kept (issue 20, 2).
    assert status.evaluate("(s) => s.innerText").strip() == "Ordi joue…"
    # Back to Léa: her Lancer is there again, focused, the status gone.
    page.wait_for_function("() => document.querySelector('#turn-info .who')?.textContent === 'Léa'"
                           " && !document.getElementById('roll').disabled", timeout=60_000)
    assert page.locator("#roll").is_visible() and status.is_hidden()
    assert game.focused() == "#roll"


@pytest.mark.parametrize("family", KEEPING)
def test_empty_dice_slots_do_not_animate_after_scoring(page, site_url, family, request_log):
    game = open_game(page, site_url, family, f"anim-{family}", motion="no-preference")
    game.start_game([("Léa", "human"), ("Paul", "human")],
                    fields={"421": paper_start(1)}.get(family))
    end_decision(game)
    moving = page.evaluate("""() => document.getAnimations()
        .filter((a) => a.effect?.target?.matches?.('.die[data-face="0"]'))
        .map((a) => a.animationName || a.transitionProperty)""")
    assert moving == [], f"empty dice slots animate: {moving}"
    # A throw still tumbles (motion allowed here).
    page.focus("#roll")
    page.keyboard.press("Enter")
    tumbling = "() => document.getAnimations().map((a) => a.animationName).find((n) => n?.startsWith('tumble'))"
    first = page.wait_for_function(tumbling, timeout=5_000).json_value()
    # And at the next throw too: the die's class alternates, so its animation starts over.
    page.wait_for_function(f"() => !document.getElementById('roll').disabled && !({tumbling})()",
                           timeout=5_000)
    page.click("#roll")
    again = page.wait_for_function(f"() => {{ const n = ({tumbling})(); return n !== {first!r} && n; }}",
                                   timeout=5_000).json_value()
    assert {first, again} == {"tumble", "tumble-again"}


# --- a moment of joy ----------------------------------------------------------------------


def joy_seed(family: str) -> str:
    """A seed whose first throw (by the first player, a human) is the page's moment of joy:
    five of a kind (Yams, Linotte), 4-2-1 (Le 421)."""
    game = FAMILIES[family].games[0]
    players = [Player("Léa")] + ([Player("Ordi", "simple")] if game.min_players > 1 else [])
    wanted = {"421": lambda d: sorted(d) == [1, 2, 4]}.get(family, lambda d: len(set(d)) == 1)
    for i in range(50_000):
        match = Match(game, players, None, DiceSampler(f"joy-{i}"))
        match.advance_chance()
        match.apply(game.parse_action("roll"))
        match.advance_chance()
        if wanted(match.history[-1].faces):
            return f"joy-{i}"
    raise AssertionError("no seed found")


JOY_WORDS = {"yams": "Yams\u202f!", "421": "421\u202f!", "linotte": "Yam\u202f!"}


#: Every burst of joy (js/joy.js) as it is added: its words and whether it moves. (It goes
#: by itself after a moment: on a loaded machine it may be gone before a second look.)
JOY_SEEN_JS = """() => {
    window.joySeen = [];
    new MutationObserver((list) => {
        for (const m of list) for (const n of m.addedNodes)
            if (n.nodeType === 1 && n.matches('.joy')) window.joySeen.push({
                text: n.querySelector('.joy-text')?.textContent,
                moving: n.getAnimations({ subtree: true }).length > 0 });
    }).observe(document.body, { childList: true, subtree: true });
}"""


def joy_seen(page) -> dict:
    page.wait_for_function("() => window.joySeen.length > 0", timeout=5_000)
    return page.evaluate("window.joySeen[0]")


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
@pytest.mark.parametrize("family", [f for f in GAME_PAGES if f in JOY_WORDS])
def test_a_moment_of_joy(page, site_url, family, reduced, request_log):
    game = open_game(page, site_url, family, joy_seed(family),
                     motion="reduce" if reduced else "no-preference")
    game.start_game([("Léa", "human")] + ([("Ordi", "simple")] if game.game.min_players > 1 else []))
    game.listen_live()
    page.evaluate(JOY_SEEN_JS)
    n = game.actions()
    page.keyboard.press("Enter")  # Lancer has the focus
    game.wait_actions_above(n)
    word = JOY_WORDS[family]
    log = game.announced()
    assert any(text.startswith(word) for text in log), log
    if reduced:
        assert page.evaluate("""() => !document.querySelector('.joy')
            || document.getAnimations().every((a) => !a.effect?.target?.closest?.('.joy'))""")
    else:
        assert joy_seen(page) == {"text": word, "moving": True}
        page.wait_for_selector(".joy", state="detached", timeout=10_000)  # it goes by itself


def near_the_end_of_a_yams() -> dict:
    """A solo Yams saved on its last turn after a throw: the next box filled ends it."""
    game = FAMILIES["yams"].games[0]
    match = Match(game, [Player("Léa")], None, DiceSampler("last-turn"))
    bot = bot_for(game, "simple", None)
    while True:
        match.advance_chance()
        state = match.state
        if state.turn == state.turns and state.rolls >= 1:
            return {"record": match.to_record(), "held": []}
        match.apply(bot(state))


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_a_win_is_celebrated_and_the_sound_switch_is_remembered(page, site_url, reduced, request_log):
    game = GamePage(page, site_url, "yams")
    motion = "reduce" if reduced else "no-preference"
    game.open(motion=motion)
    sound = page.locator("#sound")
    assert sound.is_visible() and sound.get_attribute("aria-pressed") == "false"  # off by default
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    assert game.stored("prefs")["sound"] is True
    game.store("match", near_the_end_of_a_yams())
    game.open(motion=motion)
    assert page.locator("#sound").get_attribute("aria-pressed") == "true"  # remembered
    chimes = page.evaluate(js_global("joy", ".chimes"))
    page.evaluate(JOY_SEEN_JS)
    page.focus("#sheet-body button.box:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_selector("#end", state="visible")
    assert page.evaluate(js_global("joy", ".chimes")) > chimes  # the win's chime (sound on)
    if reduced:
        assert page.evaluate("""() => !document.querySelector('.joy')
            || document.getAnimations().every((a) => !a.effect?.target?.closest?.('.joy'))""")
    else:
        assert joy_seen(page) == {"text": "Bravo\u202f!", "moving": True}
    # Off again: remembered too, and nothing sounds.
    page.click("#sound")
    assert game.stored("prefs")["sound"] is False
