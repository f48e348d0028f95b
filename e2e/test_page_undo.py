"""Annuler, *sans annulation*, the confirmation of a 0 and the computer's speed, on every
game page (web/app/table_tools.py, Match.undo in pygames/core.py).

Each test starts from a position made in CPython with the engine (a record stored as the
saved game), where Léa (a person) may take a decision that hands over without any dice:
the box filled in Yams, Stop in the 421, a pawn or Passer in the Linotte, Sceller in the
Landais.  Nothing may leave 127.0.0.1 (request_log).
"""

from __future__ import annotations

import random

import pytest
from harness.pages import GAME_PAGES, GamePage, read_global

from pygames import FAMILIES, DiceSampler, Match, Player, load_match

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

# --- positions made with the engine ---------------------------------------------------


def bot_seat(game):
    return "simple" if "simple" in game.seats else next(s for s in game.seats if s != "human")


def position(family, seat="human", seed=1, want_throw=True, next_is_other=False):
    """A record where Léa (player 0) is to decide, with at least one decision that hands
    over without dice (undoable) and, if `want_throw`, one that throws."""
    game = FAMILIES[family].games[0]
    for attempt in range(200):
        rng = random.Random(f"{seed}/{attempt}")
        match = Match(game, [Player("Léa"), Player("Paul", seat)], sampler=DiceSampler(f"p{seed}/{attempt}"))
        for _ in range(400):
            state = match.state
            if state.is_terminal():
                break
            if state.is_chance():
                match.throw()
                continue
            if state.current_player() == 0 and len(match.history) >= 4:
                undoable, throws = [], []
                for action in state.legal_actions():
                    after = state.apply(action)
                    if after.is_chance():
                        throws.append(action.notation())
                    elif not after.is_terminal() and (not next_is_other or after.current_player() == 1):
                        undoable.append(action.notation())
                if undoable and (throws or not want_throw):
                    return match.to_record(), undoable, throws
            match.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position found for {family}")


# --- the page -----------------------------------------------------------------------------


def start_at(page, site_url, family, record, pace="0", prefs=None) -> GamePage:
    """Store the position (from the site's blank page, for its origin), open the page."""
    game = GamePage(page, site_url, family)
    game.at_origin()
    game.store("match", {"record": record})
    game.store("prefs", prefs if prefs is not None else {"confirm_zero": False})
    game.open(seed="undo", pace=pace)
    page.wait_for_function("() => !document.getElementById('table').hidden")
    return game


def table_text(page):
    return page.evaluate("document.getElementById('table').innerText")


def undo_enabled(page):
    return page.locator("#undo").is_visible() and page.locator("#undo").is_enabled()


def pick(game, notations):
    shown = game.visible_actions()
    chosen = [n for n in notations if n in shown]
    assert chosen, (notations, shown)
    return chosen[0]


# --- tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", GAME_PAGES)
def test_undo_restores_the_position_and_the_saved_game(page, site_url, family, request_log):
    record, undoable, throws = position(family)
    game = start_at(page, site_url, family, record)
    n = len(record["actions"])
    drawn = table_text(page)
    assert page.locator("#undo").is_visible() and not undo_enabled(page)  # dice last: nothing to take back
    decision = pick(game, undoable)
    game.click_action(decision)
    game.wait_actions(n + 1)
    assert game.record()["actions"][-1] == decision
    page.wait_for_function("() => !document.getElementById('undo').disabled")
    page.click("#undo")
    game.wait_actions(n)
    assert game.record() == record
    assert table_text(page) == drawn
    said = page.text_content("#live")
    assert said.startswith("Léa reprend sa décision\u00a0: «\u00a0") and said.endswith("» À Léa de jouer."), said
    assert "Paul de jouer" not in said, said  # the change of turn taken back is not repeated
    game.reload()
    assert game.record() == record
    assert table_text(page) == drawn
    # The same decision again, then undo by the keyboard (U).
    game.click_action(decision)
    game.wait_actions(n + 1)
    page.wait_for_function("() => !document.getElementById('undo').disabled")
    page.locator("body").focus()
    page.keyboard.press("u")
    game.wait_actions(n)
    assert game.record() == record
    # A decision followed by a throw cannot be taken back.
    throw = pick(game, throws)
    game.click_action(throw)
    game.wait_actions_at_least(n + 2)
    assert game.record()["actions"][n] == throw
    assert not undo_enabled(page)
    page.keyboard.press("Control+z")
    assert len(game.record()["actions"]) >= n + 2


@pytest.mark.parametrize("family", GAME_PAGES)
def test_undo_in_the_computers_pause_and_not_after_it_played(page, site_url, family, request_log):
    ruleset = FAMILIES[family].games[0]
    record, undoable, _ = position(family, seat=bot_seat(ruleset), seed=2, want_throw=False,
                                   next_is_other=True)
    n = len(record["actions"])
    # A slow computer: Léa takes her decision back during its pause; its move never comes.
    game = start_at(page, site_url, family, record, pace="4000")
    drawn = table_text(page)
    decision = pick(game, undoable)
    game.click_action(decision)
    game.wait_actions(n + 1)
    page.click("#undo")
    game.wait_actions(n)
    assert table_text(page) == drawn
    page.wait_for_timeout(4500)  # longer than the computer's pause: checks that nothing comes
    assert game.record() == record
    assert decision in game.visible_actions()  # still Léa's decision to take
    # A quick computer: once it has played, Léa's decision stands.
    game = start_at(page, site_url, family, record, pace="0")
    game.click_action(decision)
    game.wait_actions_above(n + 1)
    game.wait_person_or_end()
    match = game.replay()
    assert match.history[n].notation() == decision
    assert not undo_enabled(page)
    if match.can_undo():  # the computer's own decision is last: never the person's to take back
        assert match.undo_player() == 1


@pytest.mark.parametrize("family", GAME_PAGES)
def test_sans_annulation_has_no_annuler(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed="serious")
    game.fill_setup(fields={"#no-undo": True})
    game.start()
    record = game.record()
    assert record["undo"] is False
    assert page.locator("#undo").is_hidden()
    # A position with a decision to take: still no Annuler, U does nothing.
    played, undoable, _ = position(family, seed=3)
    played["undo"] = False
    game = start_at(page, site_url, family, played)
    assert page.locator("#undo").is_hidden()
    n = len(played["actions"])
    game.click_action(pick(game, undoable))
    game.wait_actions(n + 1)
    page.locator("body").focus()
    page.keyboard.press("u")
    assert len(game.record()["actions"]) == n + 1 and game.record()["undo"] is False
    game.reload()
    assert page.locator("#undo").is_hidden() and game.record()["undo"] is False
    # An old record (no such field) allows undo.
    game = start_at(page, site_url, family, position(family, seed=3)[0])
    assert page.locator("#undo").is_visible()


def yams_zero_position():
    """Léa has thrown: a box would get 0 while another would score."""
    record, undoable, _ = position("yams", seed=4)
    state = load_match(record).state
    points = state.potential()
    legal = set(state.scorable())
    zero = next(b for b in state.rules.boxes if b.id in legal and points[b.id] == 0)
    assert any(points[b] > 0 for b in legal)
    return record, f"score {zero.id}"


def test_yams_confirms_a_zero(page, site_url, request_log):
    """The question before a 0; Annuler, Escape, Inscrire 0; Ne plus demander, remembered;
    the setup's checkbox turns it back on (only the Yams page offers it)."""
    record, zero = yams_zero_position()
    n = len(record["actions"])
    game = start_at(page, site_url, "yams", record, prefs={"confirm_zero": True})
    dialog = page.locator("#confirm")
    game.click_action(zero)
    assert dialog.is_visible()
    assert "Inscrire 0" in page.text_content("#confirm-text")
    assert page.evaluate("document.activeElement.id") == "confirm-cancel"
    # Annuler: nothing written.
    page.click("#confirm-cancel")
    assert dialog.is_hidden()
    assert game.record() == record
    # Escape cancels too.
    game.click_action(zero)
    assert dialog.is_visible()
    page.keyboard.press("Escape")
    assert dialog.is_hidden() and game.record() == record
    # Inscrire 0: written; then taken back.
    game.click_action(zero)
    page.click("#confirm-accept")
    game.wait_actions(n + 1)
    assert game.record()["actions"][-1] == zero
    page.click("#undo")
    game.wait_actions(n)
    # Ne plus demander: remembered, across a reload.
    game.click_action(zero)
    page.check("#confirm-off")
    page.click("#confirm-accept")
    game.wait_actions(n + 1)
    assert game.stored("prefs")["confirm_zero"] is False
    page.click("#undo")
    game.wait_actions(n)
    game.reload()
    game.click_action(zero)
    game.wait_actions(n + 1)
    assert dialog.is_hidden()
    # The setup shows that choice and turns the question back on.
    game.open(fresh=True, pace=None)
    ask = page.locator("#ask-zero")
    assert "Demander avant d'inscrire un\u00a00" in page.locator("label", has=ask).text_content()
    assert ask.is_visible() and not ask.is_checked()
    ask.check()
    assert game.stored("prefs")["confirm_zero"] is True
    game.store("match", {"record": record})
    game.open(seed="undo")
    game.click_action(zero)
    assert dialog.is_visible()


def test_yams_zero_question_cancelled_after_a_click_that_left_the_focus_on_the_page(page, site_url):
    """Safari, and Firefox on macOS, do not focus a clicked button: the focus stays on <body>.
    Cancelling the question then (Annuler, Escape, a click outside it) returns the focus
    nowhere, and raises
    nothing (it once raised ``AttributeError: disabled``, shown as a traceback)."""
    record, zero = yams_zero_position()
    game = start_at(page, site_url, "yams", record, prefs={"confirm_zero": True})
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    dialog = page.locator("#confirm")
    click_unfocused = """(action) => { document.activeElement?.blur();
        document.querySelector(`#table [data-action="${action}"]`).click(); }"""

    def backdrop():  # js/dialogs.js closes it; the page's Python hears the close: cancelled
        box = dialog.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, max(2, box["y"] / 2))

    for close in (lambda: page.click("#confirm-cancel"), lambda: page.keyboard.press("Escape"), backdrop):
        page.evaluate(click_unfocused, zero)
        dialog.wait_for(state="visible", timeout=5_000)  # (Python may answer a message later)
        page.evaluate("() => { document.getElementById('live').textContent = ''; }")
        close()
        assert dialog.is_hidden()
        page.wait_for_function("() => document.getElementById('live').textContent.includes('Rien')")
    assert game.record() == record
    assert read_global(page, "errors") == [] and errors == []
    assert page.locator("#page-trouble").is_hidden()


def bot_gaps(page, family, count):
    """The times (ms) at which the saved record grew, watched from inside the page."""
    page.evaluate("""([key, count]) => {
        window.undoTimes = [];
        let n = JSON.parse(localStorage.getItem(key)).record.actions.length;
        const t = setInterval(() => {
            const m = JSON.parse(localStorage.getItem(key)).record.actions.length;
            if (m !== n) { window.undoTimes.push([m, performance.now()]); n = m; }
            if (window.undoTimes.length >= count) clearInterval(t);
        }, 5);
    }""", [GamePage(page, "", family).key("match"), count])


def test_the_computers_speed_is_remembered_and_used(page, site_url, request_log):
    family = "yams"  # the computer's turn has several moves: the pace shows between them
    game = GamePage(page, site_url, family)
    record, undoable, _ = position(family, seat=bot_seat(game.game), seed=5, want_throw=False,
                                   next_is_other=True)
    n = len(record["actions"])
    game.at_origin()
    game.store("match", {"record": record})
    game.store("prefs", {"confirm_zero": False})
    game.open(seed="speed", pace=None)
    speed = page.locator("#speed")
    assert speed.is_visible() and speed.input_value() == "normal"
    assert page.get_by_label("Vitesse de l'ordinateur").count() == 1
    speed.select_option("lent")
    assert game.stored("prefs")["pace"] == "lent"
    game.reload()
    assert page.locator("#speed").input_value() == "lent"
    # Slow: the computer waits 1.2 s between its moves, and 3 s (Annuler offered) first.
    bot_gaps(page, family, 3)
    game.click_action(pick(game, undoable))
    page.wait_for_function("() => window.undoTimes.length >= 3", timeout=30_000)
    times = page.evaluate("window.undoTimes")
    assert times[0][0] == n + 1, times
    assert times[1][1] - times[0][1] >= 2900, times
    assert times[2][1] - times[1][1] >= 1150, times
    # Instantané: the computer plays at once, once Annuler is no longer offered.
    page.locator("#speed").select_option("instant")
    game.at_origin()
    game.store("match", {"record": record})
    game.open(seed="speed", pace=None)
    assert page.locator("#speed").input_value() == "instant"
    bot_gaps(page, family, 3)
    game.click_action(pick(game, undoable))
    page.wait_for_function("() => window.undoTimes.length >= 3", timeout=30_000)
    times = page.evaluate("window.undoTimes")
    assert times[0][0] == n + 1 and times[1][1] - times[0][1] >= 2900, times
    assert times[2][1] - times[1][1] < 1000, times


@pytest.mark.parametrize("family", GAME_PAGES)
def test_annuler_against_the_computer_at_every_speed(page, site_url, family, request_log):
    """At every speed the computer waits while Annuler is offered after a person's decision,
    the button counting the seconds down; Annuler then takes the decision back and the
    computer's move never comes.  Left alone, the computer plays after the wait, and its
    throw can never be taken back."""
    ruleset = FAMILIES[family].games[0]
    record, undoable, _ = position(family, seat=bot_seat(ruleset), seed=2, want_throw=False,
                                   next_is_other=True)
    n = len(record["actions"])
    game = GamePage(page, site_url, family)
    for speed in ("lent", "normal", "rapide", "instant"):
        game.at_origin()
        game.store("match", {"record": record})
        game.store("prefs", {"confirm_zero": False, "pace": speed})
        game.open(seed="undo", pace=None)
        drawn = table_text(page)
        game.click_action(pick(game, undoable))
        game.wait_actions(n + 1)
        page.wait_for_function("() => document.getElementById('undo-wait').textContent !== ''")
        button = page.locator("#undo")
        assert button.is_enabled(), speed
        assert page.text_content("#undo-wait") in (" (3\u00a0s)", " (2\u00a0s)"), speed
        assert button.evaluate("b => b.dataset.wait") in ("3", "2"), speed
        assert page.get_by_role("button", name="Annuler", exact=True).count() == 1  # the count is not read out
        page.wait_for_timeout(800)  # well past a quick computer's pause: it still waits
        assert len(game.record()["actions"]) == n + 1, speed
        button.click()
        game.wait_actions(n)
        assert table_text(page) == drawn, speed
        assert page.text_content("#undo-wait") == ""
    # Left alone (instantanée): the computer plays once the wait is over, not before.
    bot_gaps(page, family, 2)
    game.click_action(pick(game, undoable))
    page.wait_for_function("() => window.undoTimes.length >= 2", timeout=30_000)
    times = page.evaluate("window.undoTimes")
    assert times[0][0] == n + 1 and times[1][1] - times[0][1] >= 2900, times
    game.wait_person_or_end()
    assert page.text_content("#undo-wait") == ""
    match = game.replay()
    assert not undo_enabled(page)
    if match.can_undo():  # the computer's own decision is last: never the person's to take back
        assert match.undo_player() == 1
