"""The Jeu de la linotte page (web/linotte.html): a full seeded game against the computer,
the board drawn (pawns, highlighted cells, scoring lines, points, pawns left, dice, appel)
checked against the engine's state replayed from the record saved in localStorage;
keyboard play (roll with Space, keep with 1–5, arrows and Enter to place, P to pass);
a reload after an appel (the named target, the dice and the kept dice resume exactly);
no horizontal scrolling at 320 and 360 px; the embed page; screenshots at 320, 360,
1280 px wide and 740×360."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygames import load_match  # noqa: E402
from pygames.core import Match  # noqa: E402
from pygames.messages import text  # noqa: E402
from pygames.linotte import (  # noqa: E402
    EMPTY, PAWNS, kind_label, Announce, Pass, Place, Roll, cell_name, window_points,
)

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

STORE_KEY = "pygames:linotte:match"
BOOT_TIMEOUT_MS = 90_000
DESKTOP = {"width": 1280, "height": 900}
PHONE_320 = {"width": 320, "height": 640}
PHONE_360 = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}


# --- page basics ------------------------------------------------------------------------


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def open_page(page, site_url, *, seed, pace=0, path="linotte.html", extra="") -> None:
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


def fill_setup(page, players, options=None) -> None:
    for opt, value in (options or {}).items():
        box = page.locator(f'#option-choices [data-option="{opt}"]')
        box.check() if value else box.uncheck()
    rows = page.locator("#player-rows li")
    for i, (name, seat) in enumerate(players):
        rows.nth(i).locator("input[type=text]").fill(name)
        rows.nth(i).locator("select").select_option(seat)


def start(page) -> None:
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")


def no_sideways_scroll(page, width) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


READ_JS = """
(key) => {
  const q = (s) => document.querySelector(s);
  return {
    cells: [...document.querySelectorAll('#board .cell')].map(c => ({
      cls: c.className, action: c.dataset.action || null, kind: c.dataset.kind,
      label: c.getAttribute('aria-label'), tab: c.getAttribute('tabindex')})),
    runs: [...document.querySelectorAll('#runs g.run')].map(g =>
      [g.classList.contains('p0') ? 0 : 1, g.dataset.cells]),
    seats: [...document.querySelectorAll('#scores li')].map(li => ({
      name: li.querySelector('.name').textContent, points: Number(li.dataset.points),
      left: Number(li.dataset.left), pointsText: li.querySelector('.points').textContent,
      current: li.classList.contains('current')})),
    dice: [...document.querySelectorAll('#dice .die')].map(d => Number(d.dataset.face)),
    held: [...document.querySelectorAll('#dice .die')].map(d => d.getAttribute('aria-pressed') === 'true'),
    appel: q('#appel-status') ? q('#appel-status').textContent : null,
    caption: q('#dice-caption').textContent,
    appelRow: !q('#appel-row').hidden,
    appelButtons: [...document.querySelectorAll('#appel-buttons button')].filter(b => !b.disabled)
      .map(b => b.dataset.action),
    roll: q('#roll').disabled, rollAction: q('#roll').dataset.action, pass: q('#pass').disabled,
    turn: q('#turn-info').textContent, hint: q('#hint').textContent,
    last: q('#last-move').textContent,
    saved: localStorage.getItem(key),
  };
}
"""


LISTEN_JS = """
() => {
  window.__live = [];
  const live = document.getElementById('live');
  new MutationObserver(() => window.__live.push(live.textContent))
    .observe(live, {childList: true, characterData: true, subtree: true});
}
"""


def announced(page) -> list[str]:
    """Every announcement since `LISTEN_JS` ran (the computer's moves follow the human's)."""
    return page.evaluate("window.__live || []")


def read(page, key=STORE_KEY) -> dict:
    """What the page shows, and the record saved at the same moment (one evaluation)."""
    view = page.evaluate(READ_JS, key)
    view["saved"] = json.loads(view["saved"]) if view["saved"] else None
    return view


def check_table(page, key=STORE_KEY) -> Match:
    """What the page draws is the replayed state: every pawn (owner and shape class), the
    highlighted and clickable cells (exactly the engine's placeable cells on a human's
    turn), the scoring lines, each player's points and pawns left, the dice, the appel."""
    view = read(page, key)
    match = load_match(view["saved"]["record"])
    state, names = match.state, match.names
    current = None if state.is_terminal() else state.current_player()
    human = current is not None and match.players[current].seat == "human"
    placeable = set(state.placeable_cells()) if human else set()
    for i, cell in enumerate(view["cells"]):
        classes = set(cell["cls"].split())
        owner = state.board[i]
        assert cell["kind"] == state.rules.cells[i]
        if owner == EMPTY:
            assert "taken" not in classes, (i, cell)
        else:
            assert {"taken", f"p{owner}"} <= classes, (i, cell)
            assert names[owner] in cell["label"]
        assert ("placeable" in classes) == (i in placeable), (i, cell, placeable)
        assert cell["action"] == (f"place {cell_name(i).lower()}" if i in placeable else None)
        assert cell["label"].startswith(f"{cell_name(i)}, {text(kind_label(state.rules.cells[i]))}")
    assert sum(c["tab"] == "0" for c in view["cells"]) == 1  # one tab stop: a roving tabindex
    runs = [[p, ",".join(cell_name(c) for c in cells)] for p, cells in state.scoring_runs()]
    assert sorted(view["runs"]) == sorted(runs)
    scores, left = state.scores(), state.pawns_left()
    assert scores == window_points(state.board)
    for p, seat in enumerate(view["seats"]):
        assert seat["name"] == names[p]
        assert seat["points"] == scores[p] and seat["left"] == left[p] == PAWNS - state.board.count(p)
        assert seat["pointsText"] == f"{scores[p]} point{'s' if scores[p] > 1 else ''}"
        assert seat["current"] == (p == current)
    if state.dice and not state.is_terminal():
        assert view["dice"] == list(state.dice)
    if state.target and not state.is_terminal():
        assert view["appel"] and view["appel"].startswith(f"Appel : {text(kind_label(state.target))}")
    else:
        assert view["appel"] is None
    if human:
        assert view["roll"] == (state.rolls >= 3 or all(view["held"]))
        assert view["pass"] == (state.rolls == 0)
        legal = {a.notation() for a in state.legal_actions() if isinstance(a, Announce)}
        assert view["appelRow"] == bool(legal)
        assert set(view["appelButtons"]) == legal
    else:
        assert view["roll"] and view["pass"] and not view["appelRow"]
    return match


def wait_human_or_end(page, timeout=90_000) -> bool:
    """Until a human may act (True), or the game is over (False)."""
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('pass').disabled"
        " || !document.getElementById('roll').disabled", timeout=timeout)
    return page.locator("#end").is_hidden()


def record_length(page, key=STORE_KEY) -> int:
    return len(saved(page, key)["record"]["actions"])


def wait_record_grows(page, before: int, key=STORE_KEY) -> None:
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length > n", arg=[key, before])


def best_cell(state) -> int | None:
    """The tests' human: the placeable cell that gains the most points (the first on a tie)."""
    cells = state.placeable_cells()
    if not cells:
        return None
    me = state.player
    return max(cells, key=lambda c: (window_points(state.board[:c] + (me,) + state.board[c + 1:])[me], -c))


def keep_places(state) -> list[int]:
    """Places of the dice showing the most frequent face (at most four)."""
    face = max(range(1, 7), key=lambda f: (state.dice.count(f), f))
    return [i for i, d in enumerate(state.dice) if d == face][:4]


def set_held(page, wanted, press=None) -> None:
    """Make the kept dice exactly `wanted` (by clicks, or by the keys 1–5)."""
    held = read(page)["held"]
    for i in range(5):
        if held[i] != (i in wanted):
            if press:
                press(str(i + 1))
            else:
                page.click(f'#dice .die[data-die="{i}"]')
    assert [i for i, h in enumerate(read(page)["held"]) if h] == sorted(wanted)


def human_move(page, state, appel=None) -> str:
    """Play one human action by the mouse; returns what was done."""
    before = record_length(page)
    cell = best_cell(state)
    if state.rolls == 0:
        page.click("#roll")
        done = "roll"
    elif cell is not None:
        page.click(f'#board button[data-action="place {cell_name(cell).lower()}"]')
        done = "place"
    elif state.rolls == 1 and appel and not state.target:
        page.click(f'#appel-buttons button[data-action="announce {appel}"]')
        done = "announce"
    elif state.rolls < 3:
        set_held(page, keep_places(state))
        page.click("#roll")
        done = "keep"
    else:
        page.click("#pass")
        done = "pass"
    wait_record_grows(page, before)
    return done


# --- the tests ------------------------------------------------------------------------------


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    open_page(page, site_url, seed="e2e-linotte-full")
    assert page.locator("#setup").is_visible()
    levels = page.locator("#player-rows li").nth(1).locator("select option")
    assert [t.strip() for t in levels.all_text_contents()] == [
        "Humain", "Ordinateur (facile)", "Ordinateur (moyen)", "Ordinateur (expert)"]
    fill_setup(page, [("Léa", "human"), ("Robot", "simple")])
    screenshot(page, "linotte_1280_setup")
    start(page)
    page.evaluate(LISTEN_JS)
    done, shots, moves = [], set(), 0
    while wait_human_or_end(page):
        match = check_table(page)
        state = match.state
        if state.target and "appel" not in shots:
            shots.add("appel")
            screenshot(page, "linotte_1280_appel")
        if state.scoring_runs() and "runs" not in shots:
            shots.add("runs")
            screenshot(page, "linotte_1280_runs")
        # An appel once in the game (a small: its cell kinds are on the board twice).
        appel = "small" if "announce" not in done else None
        what = human_move(page, state, appel)
        done.append(what)
        if what == "place":
            said = announced(page)
            assert any(t.startswith("Léa (●) : pion en ") for t in said[-12:]), said  # the computer's kept dice are said too[-6:]
        moves += 1
        assert moves < 600
    match = replay(page)
    state = match.state
    assert state.is_terminal()
    check_table(page)
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
    open_page(page, site_url, seed="e2e-linotte-keys")
    keys = page.keyboard
    for _ in range(60):
        if page.evaluate("document.activeElement && document.activeElement.id") == "start":
            break
        keys.press("Tab")
    else:
        raise AssertionError("Tab never reached #start")
    keys.press("Enter")
    page.wait_for_function("!document.getElementById('table').hidden")
    page.evaluate(LISTEN_JS)
    no_sideways_scroll(page, 360)
    placed = passed = kept = 0
    for _ in range(120):
        if not wait_human_or_end(page):
            break
        match = check_table(page)
        state = match.state
        n = record_length(page)
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
            set_held(page, keep_places(state), keys.press)
            keys.press("Space")
            kept += 1
        else:
            page.evaluate("document.activeElement.blur()")
            keys.press("p")
            passed += 1
        wait_record_grows(page, n)
        after = replay(page)
        if cell is not None and state.rolls:
            assert after.history[n] == Place(cell)
            said = announced(page)
            assert any(t.startswith(f"{match.names[0]} (●) : pion en {cell_name(cell)}") for t in said[-12:]), said  # the computer's kept dice are said too
        if placed >= 4 and kept >= 2:
            break
    assert placed >= 4 and kept >= 2, (placed, kept, passed)
    check_table(page)
    screenshot(page, "linotte_360_keyboard")
    no_sideways_scroll(page, 360)
    page.set_viewport_size(PHONE_320)
    screenshot(page, "linotte_320_playing")
    no_sideways_scroll(page, 320)
    # The whole board is in view across the screen at 320 px.
    box = page.locator("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320


def play_until(page, wanted, appel=None, limit=200):
    """Human moves until `wanted(state)`; returns the match."""
    for _ in range(limit):
        assert wait_human_or_end(page)
        match = replay(page)
        if wanted(match.state):
            return match
        human_move(page, match.state, appel)
    raise AssertionError("never reached")


def test_reload_after_an_appel_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    open_page(page, site_url, seed="e2e-linotte-reload")
    fill_setup(page, [("Léa", "human"), ("Paul", "simple")])
    start(page)
    # First roll of a human turn: announce a full.
    match = play_until(page, lambda s: s.rolls == 1 and not s.target and s.player == 0)
    n = record_length(page)
    page.click('#appel-buttons button[data-action="announce full"]')
    wait_record_grows(page, n)
    match = replay(page)
    assert match.history[-1] == Announce("full") and match.state.target == "full"
    view = read(page)
    assert view["appel"].startswith("Appel : full") and not view["appelRow"]
    assert not any("placeable" in c["cls"] for c in view["cells"])  # roll again first
    # Keep two dice (not yet rolled) and reload: target, dice and kept dice resume.
    set_held(page, [0, 2])
    before = read(page)
    blob = saved(page)
    assert blob["held"] == [0, 2]
    screenshot(page, "linotte_740x360_appel", full_page=False)
    reload(page)
    after = read(page)
    assert saved(page)["record"] == blob["record"]
    assert after == before, (before, after)
    assert after["appel"].startswith("Appel : full")
    assert after["held"] == [True, False, True, False, False]
    assert "Partie reprise" in page.text_content("#live")
    check_table(page)
    screenshot(page, "linotte_740x360_resumed")
    # The turn goes on from there: the kept dice stay in their places.
    state = replay(page).state
    n = record_length(page)
    page.click("#roll")
    wait_record_grows(page, n)
    match = replay(page)
    action = match.history[n]
    assert isinstance(action, Roll) and action.positions == (0, 2)
    assert action.keep == tuple(sorted((state.dice[0], state.dice[2])))
    after = match.state
    assert after.dice[0] == state.dice[0] and after.dice[2] == state.dice[2]
    check_table(page)
    # A failed or fulfilled appel: only the appel cells, or nothing but Passer.
    placeable = {after.rules.cells[c] for c in after.placeable_cells()}
    assert placeable <= {"appel"}
    reload(page)
    check_table(page)
    assert read(page)["appel"].startswith("Appel : full")


def test_embed_page(page, site_url, request_log, screenshot):
    page.set_viewport_size({"width": 600, "height": 800})
    open_page(page, site_url, seed="e2e-linotte-embed", path="embed-linotte.html",
              extra="&players=Alice,Ordi:expert&id=blog")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    key = f"{STORE_KEY}:blog"
    view = read(page, f"{STORE_KEY}:blog")
    assert [s["name"] for s in view["seats"]] == ["Alice", "Ordi"]
    for _ in range(30):
        assert wait_human_or_end(page)
        match = replay(page, key)
        state = match.state
        n = record_length(page, key)
        if state.rolls == 0:
            page.click("#roll")
        elif state.placeable_cells():
            page.click(f'#board button[data-action="place {cell_name(state.placeable_cells()[0]).lower()}"]')
        else:
            page.click("#pass")
        wait_record_grows(page, n, key)
        match = replay(page, key)
        if match.state.pawns_placed()[1] >= 1 and match.state.player == 0:
            break
    match = replay(page, key)
    assert match.players[1].seat == "expert"
    assert any(isinstance(a, (Place, Pass)) for a in match.history)
    assert match.state.player == 0 or match.state.is_terminal()
    screenshot(page, "linotte_embed")
