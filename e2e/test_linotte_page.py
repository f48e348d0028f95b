"""The Jeu de la linotte page (web/linotte.html): a full seeded game against the computer,
the board drawn (pawns, highlighted cells, scoring lines, points, pawns left, dice, appel)
checked against the engine's state replayed from the record saved in localStorage;
keyboard play (roll with Space, keep with 1–5, arrows and Enter to place, P to pass);
a reload after an appel (the named target, the dice and the kept dice resume exactly);
no horizontal scrolling at 320 and 360 px; the embed page; the keyboard focus on a cell
unlike the last pawn's mark; the end screen's scoring runs under each player's points;
the cells' words readable at 320 px; screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import pytest
from harness.linotte import best_cell, check_table, human_move, keep_places, play_until, read, wait_human_or_end
from harness.pages import LANDSCAPE, PHONE_320, PHONE_360, GamePage, no_sideways_scroll, open_embedded, wait_ready

from pygames import FAMILIES, DiceSampler, Match, Player
from pygames.core import play_out
from pygames.linotte import PAWNS, Announce, Pass, Place, Roll, cell_name
from pygames.linotte.bots import MediumBot
from pygames.linotte.messages import run_text
from pygames.messages import text as words

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
            assert any(t.startswith("Léa (●)\u00a0: pion en ") for t in said[-12:]), said
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
        assert title == f"{match.names[outcome.winners[0]]} gagne\u202f!"
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
            pawn = f"{match.names[0]} (●)\u00a0: pion en {cell_name(cell)}"
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
    assert view["appel"].startswith("Appel\u00a0: full") and not view["appelRow"]
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
    assert after["appel"].startswith("Appel\u00a0: full")
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
    assert read(game)["appel"].startswith("Appel\u00a0: full")


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


#: How a cell is marked: its outline (the keyboard focus) and its dog-ear (the last pawn).
MARKS_JS = """(i) => {
  const cell = document.querySelector(`#board .cell[data-cell="${i}"]`);
  const cs = getComputedStyle(cell), ear = cell.querySelector('.last-mark');
  const es = ear ? getComputedStyle(ear) : null;
  return {focused: document.activeElement === cell, last: cell.classList.contains('last'),
          outline: cs.outlineStyle, outlineWidth: parseFloat(cs.outlineWidth),
          border: cs.borderTopColor, ear: es ? es.display : 'none', earFill: es ? es.backgroundColor : null};
}"""


def tab_to_board(page) -> int:
    """Tab from nowhere until the focus is on a board cell; that cell."""
    page.evaluate("document.activeElement.blur()")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.cell !== undefined"):
            return int(page.evaluate("document.activeElement.dataset.cell"))
    raise AssertionError("Tab never reached the board")


def test_focus_is_unlike_the_last_pawn_mark(page, site_url, request_log, screenshot):
    """Issue 20, item 15: the focus ring on a cell looked like the last move's frame.  The
    focus is an outline around the cell; the last pawn has a dark corner and no ring."""
    page.set_viewport_size(PHONE_360)
    game = GamePage(page, site_url, "linotte").open(fresh=True, seed="e2e-linotte-focus")
    game.fill_setup([("Léa", "human"), ("Robot", "simple")])
    game.start()
    for _ in range(200):  # until Léa may place a pawn, the computer's pawn placed last
        assert wait_human_or_end(page)
        match = game.replay()
        placed = [a.cell for a in match.history if isinstance(a, Place)]
        if match.state.placeable_cells() and placed and match.state.board[placed[-1]] == 1:
            break
        human_move(game, match.state)
    else:
        raise AssertionError("never a placement after the computer's")
    last = placed[-1]
    here = tab_to_board(page)
    if here == last:
        page.keyboard.press("ArrowRight")
        here = int(page.evaluate("document.activeElement.dataset.cell"))
    focused, marked = page.evaluate(MARKS_JS, here), page.evaluate(MARKS_JS, last)
    assert focused["focused"] and not focused["last"] and marked["last"] and not marked["focused"]
    # The focus: a ring (a solid outline of 3px or more), no dog-ear.
    assert focused["outline"] == "solid" and focused["outlineWidth"] >= 3, focused
    assert focused["ear"] == "none"
    # The last pawn: a dog-ear, no outline, no border of its own.
    assert marked["outline"] == "none" and marked["ear"] == "block", marked
    assert marked["border"] == "rgba(0, 0, 0, 0)"
    screenshot(page, "linotte_360_focus_and_last", full_page=False)
    # On the last pawn's cell, the focus adds its ring to the dog-ear.
    (r0, c0), (r1, c1) = divmod(here, 5), divmod(last, 5)
    for _ in range((c1 - c0) % 5):
        page.keyboard.press("ArrowRight")
    for _ in range((r1 - r0) % 5):
        page.keyboard.press("ArrowDown")
    both = page.evaluate(MARKS_JS, last)
    assert both["focused"] and both["outline"] == "solid" and both["ear"] == "block", both
    label = page.evaluate(f"document.querySelector('#board .cell[data-cell=\"{last}\"]').ariaLabel")
    assert label.endswith(", dernier pion posé"), label


def finished_with_runs() -> Match:
    """A finished game with runs for both players (the medium player plays both sides)."""
    game = FAMILIES["linotte"].games[0]
    players = [Player("Léa", "human"), Player("Robot", "simple")]
    match = play_out(Match(game, players, None, DiceSampler("end-runs-2")), MediumBot())
    assert {r.player for r in match.state.scoring_runs()} == {0, 1}
    return match


def test_end_screen_lists_the_runs_that_scored(page, site_url, request_log, screenshot):
    """Issue 20, item 15: the end screen gave the totals only; each player's runs are listed
    under his points, by their end cells as the board names them ("B2–E2 : 2 points")."""
    page.set_viewport_size(PHONE_360)
    match = finished_with_runs()
    game = GamePage(page, site_url, "linotte")
    game.at_origin()
    game.store("match", {"record": match.to_record(), "finished": True})
    game.open(seed="e2e-linotte-end")
    wait_ready(page)
    page.wait_for_function("() => !document.getElementById('end').hidden")
    shown = dict(page.evaluate("""() => [...document.querySelectorAll('#ranking > li')].map(li => [
        li.querySelector('.name').textContent,
        [...li.querySelectorAll('.score-line')].map(s => s.textContent)])"""))
    state = match.state
    assert shown == {name: [words(run_text(r)) for r in state.scoring_runs(p)]
                     for p, name in enumerate(match.names)}
    for p, name in enumerate(match.names):  # they add up to the points shown beside them
        assert sum(int(line.split("\u00a0: ")[1].split()[0]) for line in shown[name]) == state.scores()[p]
    # Read aloud as a list: the runs apart from each other.
    item = page.locator("#ranking > li").first.text_content()
    assert "\u202f; " in item
    screenshot(page, "linotte_360_end_runs")


def test_cell_words_are_readable_at_320(page, site_url, request_log, screenshot):
    """Issue 20, item 15: the words under a cell's name were about 9 px at 320 px."""
    page.set_viewport_size(PHONE_320)
    game = GamePage(page, site_url, "linotte").open(fresh=True, seed="e2e-linotte-320")
    game.fill_setup([("Léa", "human"), ("Robot", "simple")])
    game.start()
    subs = page.evaluate("""() => [...document.querySelectorAll('#board .face .sub')]
        .filter(s => s.checkVisibility()).map(s => {
          const box = s.getBoundingClientRect(), cell = s.closest('.cell').getBoundingClientRect();
          return {text: s.textContent, size: parseFloat(getComputedStyle(s).fontSize),
                  inside: box.left >= cell.left - 0.5 && box.right <= cell.right + 0.5
                          && box.top >= cell.top - 0.5 && box.bottom <= cell.bottom + 0.5};
        })""")
    assert len(subs) >= 8, subs  # suite, 4 pareils, ≤ 8, 5 pareils, 1er lancer, annoncé...
    assert all(s["size"] >= 11 for s in subs), subs
    assert all(s["inside"] for s in subs), subs  # whole inside their cell, not cut
    screenshot(page, "linotte_320_cells", full_page=False)
