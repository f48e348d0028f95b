"""The Jeu de la linotte page (web/linotte.html): a full seeded game against the computer,
the board drawn (pawns, highlighted cells, scoring lines, points, pawns left, dice, appel)
checked against the engine's state replayed from the record saved in localStorage;
keyboard play (roll with Space, keep with 1–5, arrows and Enter to place, P to pass);
a reload after an appel (the named target, the dice and the kept dice resume exactly);
no horizontal scrolling at 320 and 360 px; the embed page; screenshots at 320, 360,
1280 px wide and 740×360."""

from __future__ import annotations

import pytest
from harness.linotte import best_cell, check_table, human_move, keep_places, play_until, read, wait_human_or_end
from harness.pages import LANDSCAPE, PHONE_320, PHONE_360, GamePage, no_sideways_scroll, open_embedded

from pygames.linotte import PAWNS, Announce, Pass, Place, Roll, cell_name

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

#: Tall enough for the board and the dice side by side.
DESKTOP = {"width": 1280, "height": 900}


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url, "linotte").open(fresh=True, seed="e2e-linotte-full")
    assert page.locator("#setup").is_visible()
    levels = page.locator("#player-rows li").nth(1).locator("select option")
    assert [t.strip() for t in levels.all_text_contents()] == [
        "Humain", "Ordinateur (facile)", "Ordinateur (moyen)", "Ordinateur (expert)"]
    game.fill_setup([("Léa", "human"), ("Robot", "simple")])
    screenshot(page, "linotte_1280_setup")
    game.start()
    game.listen_live()
    done, shots, moves = [], set(), 0
    while wait_human_or_end(page):
        match = check_table(game)
        state = match.state
        if state.target and "appel" not in shots:
            shots.add("appel")
            screenshot(page, "linotte_1280_appel")
        if state.scoring_runs() and "runs" not in shots:
            shots.add("runs")
            screenshot(page, "linotte_1280_runs")
        # An appel once in the game (a small: its cell kinds are on the board twice).
        appel = "small" if "announce" not in done else None
        what = human_move(game, state, appel)
        done.append(what)
        if what == "place":
            said = game.announced()
            # the computer's kept dice are said too: its pawn is among the last twelve
            assert any(t.startswith("Léa (●) : pion en ") for t in said[-12:]), said
        moves += 1
        assert moves < 600
    match = game.replay()
    state = match.state
    assert state.is_terminal()
    check_table(game)
    screenshot(page, "linotte_1280_end")
    assert {"roll", "keep", "place", "announce"} <= set(done), done
    outcome = match.outcome()
    title = page.text_content("#end-title")
    if outcome.draw:
        assert title.startswith("Égalité")
    else:
        assert title == f"{match.names[outcome.winners[0]]} gagne !"
    ranking = page.evaluate("""() => [...document.querySelectorAll('#ranking li')].map(li =>
        [li.querySelector('.name').textContent, li.querySelector('.score').textContent])""")
    scores = state.scores()
    assert sorted(r[1] for r in ranking) == sorted(f"{s} point{'s' if s > 1 else ''}" for s in scores)
    assert PAWNS in state.pawns_placed()


def test_keyboard_placement(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    game = GamePage(page, site_url, "linotte").open(fresh=True, seed="e2e-linotte-keys")
    keys = page.keyboard
    game.start_by_keyboard(tabs=60)
    game.listen_live()
    no_sideways_scroll(page, 360)
    placed = passed = kept = 0
    for _ in range(120):
        if not wait_human_or_end(page):
            break
        match = check_table(game)
        state = match.state
        n = game.actions()
        cell = best_cell(state)
        if state.rolls == 0:
            page.evaluate("document.activeElement.blur()")
            keys.press("Space")
        elif cell is not None:
            # Reach the board by Tab, then walk to the cell with the arrows.
            page.evaluate("document.activeElement.blur()")
            for _ in range(40):
                keys.press("Tab")
                if page.evaluate("document.activeElement.dataset.cell !== undefined"):
                    break
            else:
                raise AssertionError("Tab never reached the board")
            here = int(page.evaluate("document.activeElement.dataset.cell"))
            (r0, c0), (r1, c1) = divmod(here, 5), divmod(cell, 5)
            for _ in range((c1 - c0) % 5):
                keys.press("ArrowRight")
            for _ in range((r1 - r0) % 5):
                keys.press("ArrowDown")
            assert int(page.evaluate("document.activeElement.dataset.cell")) == cell
            if placed == 0:
                screenshot(page, "linotte_360_keyboard_focus", full_page=False)
            keys.press("Enter")
            placed += 1
        elif state.rolls < 3:
            page.evaluate("document.activeElement.blur()")
            game.dice.set_held(keep_places(state), "keyboard")
            keys.press("Space")
            kept += 1
        else:
            page.evaluate("document.activeElement.blur()")
            keys.press("p")
            passed += 1
        game.wait_actions_above(n)
        after = game.replay()
        if cell is not None and state.rolls:
            assert after.history[n] == Place(cell)
            said = game.announced()
            pawn = f"{match.names[0]} (●) : pion en {cell_name(cell)}"
            assert any(t.startswith(pawn) for t in said[-12:]), said  # the computer's kept dice are said too
        if placed >= 4 and kept >= 2:
            break
    assert placed >= 4 and kept >= 2, (placed, kept, passed)
    check_table(game)
    screenshot(page, "linotte_360_keyboard")
    no_sideways_scroll(page, 360)
    page.set_viewport_size(PHONE_320)
    screenshot(page, "linotte_320_playing")
    no_sideways_scroll(page, 320)
    # The whole board is in view across the screen at 320 px.
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320


def test_reload_after_an_appel_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    game = GamePage(page, site_url, "linotte").open(fresh=True, seed="e2e-linotte-reload")
    game.fill_setup([("Léa", "human"), ("Paul", "simple")])
    game.start()
    # First roll of a human turn: announce a full.
    match = play_until(game, lambda s: s.rolls == 1 and not s.target and s.player == 0)
    n = game.actions()
    page.click('#appel-buttons button[data-action="announce full"]')
    game.wait_actions_above(n)
    match = game.replay()
    assert match.history[-1] == Announce("full") and match.state.target == "full"
    view = read(game)
    assert view["appel"].startswith("Appel : full") and not view["appelRow"]
    assert not any("placeable" in c["cls"] for c in view["cells"])  # roll again first
    # Keep two dice (not yet rolled) and reload: target, dice and kept dice resume.
    game.dice.set_held([0, 2])
    before = read(game)
    blob = game.stored()
    assert blob["held"] == [0, 2]
    screenshot(page, "linotte_740x360_appel", full_page=False)
    game.reload()
    after = read(game)
    assert game.stored()["record"] == blob["record"]
    assert after == before, (before, after)
    assert after["appel"].startswith("Appel : full")
    assert after["held"] == [True, False, True, False, False]
    assert "Partie reprise" in game.live()
    check_table(game)
    screenshot(page, "linotte_740x360_resumed")
    # The turn goes on from there: the kept dice stay in their places.
    state = game.replay().state
    n = game.actions()
    page.click("#roll")
    game.wait_actions_above(n)
    match = game.replay()
    action = match.history[n]
    assert isinstance(action, Roll) and action.positions == (0, 2)
    assert action.keep == tuple(sorted((state.dice[0], state.dice[2])))
    after = match.state
    assert after.dice[0] == state.dice[0] and after.dice[2] == state.dice[2]
    check_table(game)
    # A failed or fulfilled appel: only the appel cells, or nothing but Passer.
    placeable = {after.rules.cells[c] for c in after.placeable_cells()}
    assert placeable <= {"appel"}
    game.reload()
    check_table(game)
    assert read(game)["appel"].startswith("Appel : full")


def test_embed_page(page, site_url, request_log, screenshot):
    game = open_embedded(page, site_url, "linotte", "blog", viewport={"width": 600, "height": 800},
                         fresh=True, seed="e2e-linotte-embed", players="Alice,Ordi:expert")
    view = read(game)
    assert [s["name"] for s in view["seats"]] == ["Alice", "Ordi"]
    for _ in range(30):
        assert wait_human_or_end(page)
        match = game.replay()
        state = match.state
        n = game.actions()
        if state.rolls == 0:
            page.click("#roll")
        elif state.placeable_cells():
            page.click(f'#board button[data-action="place {cell_name(state.placeable_cells()[0]).lower()}"]')
        else:
            page.click("#pass")
        game.wait_actions_above(n)
        match = game.replay()
        if match.state.pawns_placed()[1] >= 1 and match.state.player == 0:
            break
    match = game.replay()
    assert match.players[1].seat == "expert"
    assert any(isinstance(a, (Place, Pass)) for a in match.history)
    assert match.state.player == 0 or match.state.is_terminal()
    screenshot(page, "linotte_embed")
