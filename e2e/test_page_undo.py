"""Annuler, *sans annulation*, the confirmation of a 0 and the computer's speed, on every
game page (web/app/table_tools.py, Match.undo in pygames/core.py).

Each test starts from a position made in CPython with the engine (a record stored as the
saved game), where Léa (a person) may take a decision that hands over without any dice:
the box filled in Yams, Stop in the 421, a pawn or Passer in the Linotte, Sceller in the
Landais.  Nothing may leave 127.0.0.1 (request_log).
"""

from __future__ import annotations

import json
import random

import pytest

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

import build
import siteharness
from pygames import FAMILIES, DiceSampler, Match, Player, load_match

BOOT_TIMEOUT_MS = 90_000
PAGES = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
ENABLED = "#table [data-action]:not([disabled])"
PREFS = "pygames:prefs"


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


def open_page(page, url):
    page.emulate_media(reduced_motion="reduce")
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def reload(page):
    page.evaluate("delete document.body.dataset.ready")
    page.reload()
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def store(page, family, record, prefs=None):
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"pygames:{family}:match", json.dumps({"record": record})])
    if prefs is not None:
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [PREFS, json.dumps(prefs)])


def start_at(page, site_url, family, record, pace="0", prefs=None):
    """Store the position (from the site's blank page, for its origin), open the page."""
    siteharness.at_origin(page, site_url)
    store(page, family, record, prefs if prefs is not None else {"confirm_zero": False})
    open_page(page, f"{site_url}{family}.html?seed=undo&pace={pace}")
    page.wait_for_function("!document.getElementById('table').hidden")


def record_of(page, family):
    return json.loads(page.evaluate("k => localStorage.getItem(k)", f"pygames:{family}:match"))["record"]


def visible_actions(page):
    return page.evaluate(f"""() => [...document.querySelectorAll({json.dumps(ENABLED)})]
        .filter((e) => e.checkVisibility()).map((e) => e.dataset.action)""")


def click_action(page, notation):
    page.locator(f'#table [data-action="{notation}"]:not([disabled])').filter(visible=True).first.click()


def table_text(page):
    return page.evaluate("document.getElementById('table').innerText")


def wait_actions(page, family, n):
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length === n",
        arg=[f"pygames:{family}:match", n])


def undo_enabled(page):
    return page.locator("#undo").is_visible() and page.locator("#undo").is_enabled()


def pick(page, notations):
    shown = visible_actions(page)
    chosen = [n for n in notations if n in shown]
    assert chosen, (notations, shown)
    return chosen[0]


# --- tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("family", PAGES)
def test_undo_restores_the_position_and_the_saved_game(page, site_url, family, request_log):
    record, undoable, throws = position(family)
    start_at(page, site_url, family, record)
    n = len(record["actions"])
    drawn = table_text(page)
    assert page.locator("#undo").is_visible() and not undo_enabled(page)  # dice last: nothing to take back
    decision = pick(page, undoable)
    click_action(page, decision)
    wait_actions(page, family, n + 1)
    assert record_of(page, family)["actions"][-1] == decision
    page.wait_for_function("!document.getElementById('undo').disabled")
    page.click("#undo")
    wait_actions(page, family, n)
    assert record_of(page, family) == record
    assert table_text(page) == drawn
    said = page.text_content("#live")
    assert said.startswith("Léa reprend sa décision : « ") and said.endswith("» À Léa de jouer."), said
    assert "Paul de jouer" not in said, said  # the change of turn taken back is not repeated
    reload(page)
    assert record_of(page, family) == record
    assert table_text(page) == drawn
    # The same decision again, then undo by the keyboard (U).
    click_action(page, decision)
    wait_actions(page, family, n + 1)
    page.wait_for_function("!document.getElementById('undo').disabled")
    page.locator("body").focus()
    page.keyboard.press("u")
    wait_actions(page, family, n)
    assert record_of(page, family) == record
    # A decision followed by a throw cannot be taken back.
    throw = pick(page, throws)
    click_action(page, throw)
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length >= n",
        arg=[f"pygames:{family}:match", n + 2])
    assert record_of(page, family)["actions"][n] == throw
    assert not undo_enabled(page)
    page.keyboard.press("Control+z")
    assert len(record_of(page, family)["actions"]) >= n + 2


@pytest.mark.parametrize("family", PAGES)
def test_undo_in_the_computers_pause_and_not_after_it_played(page, site_url, family, request_log):
    game = FAMILIES[family].games[0]
    record, undoable, _ = position(family, seat=bot_seat(game), seed=2, want_throw=False,
                                   next_is_other=True)
    n = len(record["actions"])
    # A slow computer: Léa takes her decision back during its pause; its move never comes.
    start_at(page, site_url, family, record, pace="2500")
    drawn = table_text(page)
    decision = pick(page, undoable)
    click_action(page, decision)
    wait_actions(page, family, n + 1)
    page.click("#undo")
    wait_actions(page, family, n)
    assert table_text(page) == drawn
    page.wait_for_timeout(3000)  # longer than the computer's pause: checks that nothing comes
    assert record_of(page, family) == record
    assert decision in visible_actions(page)  # still Léa's decision to take
    # A quick computer: once it has played, Léa's decision stands.
    start_at(page, site_url, family, record, pace="0")
    click_action(page, decision)
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length > n",
        arg=[f"pygames:{family}:match", n + 1])
    page.wait_for_function(f"""() => !document.getElementById('end').hidden
        || [...document.querySelectorAll({json.dumps(ENABLED)})].some((e) => e.checkVisibility())""")
    match = load_match(record_of(page, family))
    assert match.history[n].notation() == decision
    assert not undo_enabled(page)
    if match.can_undo():  # the computer's own decision is last: never the person's to take back
        assert match.undo_player() == 1


@pytest.mark.parametrize("family", PAGES)
def test_sans_annulation_has_no_annuler(page, site_url, family, request_log):
    open_page(page, f"{site_url}{family}.html?fresh=1&seed=serious&pace=0")
    page.check("#no-undo")
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")
    record = record_of(page, family)
    assert record["undo"] is False
    assert page.locator("#undo").is_hidden()
    # A position with a decision to take: still no Annuler, U does nothing.
    played, undoable, _ = position(family, seed=3)
    played["undo"] = False
    start_at(page, site_url, family, played)
    assert page.locator("#undo").is_hidden()
    n = len(played["actions"])
    click_action(page, pick(page, undoable))
    wait_actions(page, family, n + 1)
    page.locator("body").focus()
    page.keyboard.press("u")
    assert len(record_of(page, family)["actions"]) == n + 1 and record_of(page, family)["undo"] is False
    reload(page)
    assert page.locator("#undo").is_hidden() and record_of(page, family)["undo"] is False
    # An old record (no such field) allows undo.
    start_at(page, site_url, family, position(family, seed=3)[0])
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
    start_at(page, site_url, "yams", record, prefs={"confirm_zero": True})
    dialog = page.locator("#confirm")
    click_action(page, zero)
    assert dialog.is_visible()
    assert "Inscrire 0" in page.text_content("#confirm-text")
    assert page.evaluate("document.activeElement.id") == "confirm-cancel"
    # Annuler: nothing written.
    page.click("#confirm-cancel")
    assert dialog.is_hidden()
    assert record_of(page, "yams") == record
    # Escape cancels too.
    click_action(page, zero)
    assert dialog.is_visible()
    page.keyboard.press("Escape")
    assert dialog.is_hidden() and record_of(page, "yams") == record
    # Inscrire 0: written; then taken back.
    click_action(page, zero)
    page.click("#confirm-accept")
    wait_actions(page, "yams", n + 1)
    assert record_of(page, "yams")["actions"][-1] == zero
    page.click("#undo")
    wait_actions(page, "yams", n)
    # Ne plus demander: remembered, across a reload.
    click_action(page, zero)
    page.check("#confirm-off")
    page.click("#confirm-accept")
    wait_actions(page, "yams", n + 1)
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", PREFS))["confirm_zero"] is False
    page.click("#undo")
    wait_actions(page, "yams", n)
    reload(page)
    click_action(page, zero)
    wait_actions(page, "yams", n + 1)
    assert dialog.is_hidden()
    # The setup shows that choice and turns the question back on.
    open_page(page, f"{site_url}yams.html?fresh=1")
    ask = page.locator("#ask-zero")
    assert "Demander avant d'inscrire un\u00a00" in page.locator("label", has=ask).text_content()
    assert ask.is_visible() and not ask.is_checked()
    ask.check()
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", PREFS))["confirm_zero"] is True
    store(page, "yams", record)
    open_page(page, f"{site_url}yams.html?seed=undo&pace=0")
    click_action(page, zero)
    assert dialog.is_visible()


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
    }""", [f"pygames:{family}:match", count])


@pytest.mark.parametrize("family", ["yams", "421"])
def test_the_computers_speed_is_remembered_and_used(page, site_url, family, request_log):
    game = FAMILIES[family].games[0]
    record, undoable, _ = position(family, seat=bot_seat(game), seed=5, want_throw=False,
                                   next_is_other=True)
    n = len(record["actions"])
    siteharness.at_origin(page, site_url)
    store(page, family, record, {"confirm_zero": False})
    open_page(page, f"{site_url}{family}.html?seed=speed")
    speed = page.locator("#speed")
    assert speed.is_visible() and speed.input_value() == "normal"
    assert page.get_by_label("Vitesse de l'ordinateur").count() == 1
    speed.select_option("lent")
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", PREFS))["pace"] == "lent"
    reload(page)
    assert page.locator("#speed").input_value() == "lent"
    # Slow: the computer waits 1.2 s before its move.
    bot_gaps(page, family, 2)
    click_action(page, pick(page, undoable))
    page.wait_for_function("window.undoTimes.length >= 2", timeout=30_000)
    times = page.evaluate("window.undoTimes")
    assert times[0][0] == n + 1 and times[1][1] - times[0][1] >= 1150, times
    # Instantané: the computer plays at once.
    page.locator("#speed").select_option("instant")
    siteharness.at_origin(page, site_url)
    store(page, family, record)
    open_page(page, f"{site_url}{family}.html?seed=speed")
    assert page.locator("#speed").input_value() == "instant"
    bot_gaps(page, family, 2)
    click_action(page, pick(page, undoable))
    page.wait_for_function("window.undoTimes.length >= 2", timeout=30_000)
    times = page.evaluate("window.undoTimes")
    assert times[0][0] == n + 1 and times[1][1] - times[0][1] < 1000, times
