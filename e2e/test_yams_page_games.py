"""Complete games on the Yams page (web/yams.html): solo by mouse, solo by keyboard
only, and a human against a computer seat; every score shown is checked against what
`pygames` computes by replaying the record saved in localStorage."""

from __future__ import annotations

import pytest
from harness.pages import DESKTOP, MOBILE, GamePage
from harness.yams import YamsDriver, check_sheet_totals, expected_ranking, read_ranking, read_view, simulate

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

# Seeds where the test strategy earns the upper bonus and at least one Yam prime
# (found offline with harness.yams.simulate).
YAMS_SEED = "e2e-17"
YAHTZEE_SEED = "e2e-159"


def _check_end(game, match, title_prefix=None):
    page = game.page
    assert game.screen() == "end"
    assert match.state.is_terminal()
    totals = check_sheet_totals(page, match)
    assert read_ranking(page) == expected_ranking(match)
    if title_prefix is not None:
        assert page.text_content("#end-title") == f"{title_prefix}{totals[0]} points"
    return totals


def _check_solo_end(game, ruleset, seed):
    """A solo game's end, and the same game offline: the page's dice follow the seed, so the
    same decisions give the same game.  Returns the final sheet."""
    match = game.replay()
    _check_end(game, match, "Partie terminée\u00a0: ")
    offline = simulate(ruleset, seed)
    assert [a.notation() for a in match.history] == [a.notation() for a in offline.history]
    return match.state.sheet(0)


def test_solo_yams_by_mouse(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url).open(seed=YAMS_SEED)
    assert game.screen() == "setup"
    screenshot(page, "yams_desktop_setup")
    game.start_game([("Souris", "human")], ruleset="yams", or_end=True)
    view = read_view(page)
    assert view.head == ["Souris"] and "Tour 1/15" in view.turn_info

    shots = []
    driver = YamsDriver(game, by="mouse",
                        on_held=lambda p: shots.append(screenshot(p, "yams_desktop_midgame_held")))
    turns = driver.play_to_end()
    assert turns == 15 and len(driver.scored) == 15
    assert shots, "dice were never held"
    screenshot(page, "yams_desktop_end")

    sheet = _check_solo_end(game, "yams", YAMS_SEED)
    assert sheet.bonus == 35 and sheet.primes >= 100, "the seed was chosen for a bonus and a prime"
    assert sorted(b for _, b, _ in driver.scored) == sorted(sheet.boxes)


def test_solo_yahtzee_by_keyboard_only(page, site_url, request_log, screenshot):
    page.set_viewport_size(MOBILE)
    game = GamePage(page, site_url).open(seed=YAHTZEE_SEED)
    assert game.screen() == "setup"
    keys = page.keyboard
    driver = YamsDriver(game, by="keyboard")
    # Setup: radio group by arrows, the name typed, start with Enter.
    game.focus_by_tab("input[name=ruleset]:checked")
    assert page.evaluate("document.activeElement.value") == "yams"
    keys.press("ArrowDown")
    keys.press("ArrowDown")
    assert page.evaluate("document.querySelector('input[name=ruleset]:checked').value") == "yahtzee"
    page.wait_for_selector('#option-choices [data-option="plain"]', state="attached")
    game.focus_by_tab('#player-rows input[type="text"]')
    keys.press("Control+a")
    keys.type("Clavier")
    screenshot(page, "yahtzee_mobile_setup")
    game.focus_by_tab("#start")
    keys.press("Enter")
    page.wait_for_function("() => !document.getElementById('table').hidden")
    view = read_view(page)
    assert view.head == ["Clavier"] and "Tour 1/13" in view.turn_info

    shots = []
    driver.on_held = lambda p: shots.append(screenshot(p, "yahtzee_mobile_midgame_held"))
    turns = driver.play_to_end()
    assert turns == 13
    assert shots
    screenshot(page, "yahtzee_mobile_end")

    sheet = _check_solo_end(game, "yahtzee", YAHTZEE_SEED)
    assert sheet.primes >= 100, "the seed was chosen for Yahtzee primes (forced joker)"


@pytest.mark.parametrize("viewport", [MOBILE], ids=["mobile"])
def test_human_against_computer_yams_boite(page, site_url, request_log, screenshot, viewport):
    page.set_viewport_size(viewport)
    game = GamePage(page, site_url).open(seed="e2e-duel", pace=5)
    game.start_game([("Alice", "human"), ("Robot", "simple")], ruleset="yams-boite", or_end=True)
    view = read_view(page)
    assert view.head == ["Alice", "Robot"]
    assert page.text_content("#sheet-head th:nth-child(3)").strip() == "Robot (ordi)"

    shots = []
    driver = YamsDriver(game, by="mouse",
                        on_held=lambda p: shots.append(screenshot(p, "duel_mobile_midgame_held")))
    seen_robot_turn = False
    while driver.wait_human_turn_or_end() == "table":
        view = read_view(page)
        assert view.current == 0 and "Alice" in view.turn_info
        if driver.scored:
            # the computer played its whole turn by itself in between
            match = game.replay()
            filled = [sum(v is not None for v in match.state.sheets[p]) for p in (0, 1)]
            assert filled == [len(driver.scored)] * 2
            seen_robot_turn = True
        driver.play_turn()
    assert seen_robot_turn and len(driver.scored) == 13
    screenshot(page, "duel_mobile_end")

    match = game.replay()
    assert [p.seat for p in match.players] == ["human", "simple"]
    totals = _check_end(game, match)
    ranking = read_ranking(page)
    assert sorted(name for _, name, _ in ranking) == ["Alice", "Robot"]
    best = max(totals)
    winners = [match.players[p].name for p in range(2) if totals[p] == best]
    title = page.text_content("#end-title")
    assert title == (f"{winners[0]} gagne\u202f!" if len(winners) == 1 else "Égalité\u00a0: Alice et Robot")

    # "Rejouer" starts a fresh game with the same players.
    page.click("#again")
    page.wait_for_function("() => !document.getElementById('table').hidden")
    view = read_view(page)
    assert view.head == ["Alice", "Robot"] and "Tour 1/13" in view.turn_info and view.rolls == 0


def test_mobile_sheet_headers_stay_visible_when_scrolled(page, site_url, request_log, screenshot):
    page.set_viewport_size(MOBILE)
    game = GamePage(page, site_url).open(seed="e2e-scroll")
    game.start_game([("Alice", "human"), ("Robot", "simple")], ruleset="yams", or_end=True)
    page.click("#roll")
    page.mouse.wheel(0, 400)
    page.wait_for_function("() => window.scrollY > 200")
    screenshot(page, "duel_mobile_scrolled", full_page=False)
    covered = page.evaluate("""() => [...document.querySelectorAll('#sheet-head th')].map(th => {
        const r = th.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !(hit && th.contains(hit));
    })""")
    assert covered == [False, False, False], "sheet column headers hidden while scrolled"


@pytest.mark.parametrize("ruleset", ["yams-boite", "yams"])
def test_a_zero_the_boite_refuses_says_why(page, site_url, request_log, ruleset):
    """The Boîte à jeux writes a 0 only when no box would score: its boxes at 0 are closed,
    and the hint and their title say why (issue 20, item 12); the full sheet leaves them open."""
    game = GamePage(page, site_url).open(fresh=True, seed="zero-why")
    game.start_game([("Alice", "human")], ruleset=ruleset)
    game.dice.roll()
    game.dice.wait_throws(1)
    zeros = page.locator("#table button.box.zero")
    assert zeros.count() > 0  # a first throw leaves some box at 0 (a Yam at least, here)
    hint = page.text_content("#hint")
    closed = zeros.evaluate_all("bs => bs.map(b => [b.disabled, b.title])")
    if ruleset == "yams-boite":
        assert "Un\u00a00 seulement si aucune case ne marque" in hint, hint
        assert all(d and t == "Un 0 seulement si aucune case ne marque" for d, t in closed), closed
    else:
        assert "seulement" not in hint, hint
        assert not any(d for d, _ in closed), closed
