"""The Jeu de la linotte page's own parts (web/app/linotte_view.py), beside the page
object: the board as displayed (pawns, highlighted and clickable cells, scoring lines,
points, pawns left, dice, appel) checked against the engine's state replayed from the
saved record; the tests' person (the best cell, the dice to keep) and its moves by mouse.
"""

from __future__ import annotations

import json

from harness.dice import DICE_JS
from harness.pages import TURN_TIMEOUT_MS, GamePage
from pygames import load_match
from pygames.core import Match
from pygames.linotte import EMPTY, PAWNS, Announce, cell_name, kind_label, window_points
from pygames.messages import de, text

READ_JS = """
(key) => {
  const q = (s) => document.querySelector(s);
  const dice = DICE;
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
    dice: dice.map(d => d.face),
    held: dice.map(d => d.held),
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
""".replace("DICE", DICE_JS)


def read(game: GamePage) -> dict:
    """What the page shows, and the record saved at the same moment (one evaluation)."""
    view = game.page.evaluate(READ_JS, game.key("match"))
    view["saved"] = json.loads(view["saved"]) if view["saved"] else None
    return view


def check_table(game: GamePage) -> Match:
    """What the page draws is the replayed state: every pawn (owner and shape class), the
    highlighted and clickable cells (exactly the engine's placeable cells on a human's
    turn), the scoring lines, each player's points and pawns left, the dice, the appel."""
    view = read(game)
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
            assert f" {de(names[owner])}" in cell["label"]  # "pion ○ d'Ordinateur"
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
        assert view["appel"] and view["appel"].startswith(f"Appel\u00a0: {text(kind_label(state.target))}")
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


def wait_human_or_end(page, timeout=TURN_TIMEOUT_MS) -> bool:
    """Until a human may act (True), or the game is over (False)."""
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('pass').disabled"
        " || !document.getElementById('roll').disabled", timeout=timeout)
    return page.locator("#end").is_hidden()


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


def human_move(game: GamePage, state, appel=None) -> str:
    """Play one human action by the mouse; returns what was done."""
    page = game.page
    before = game.actions()
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
        game.dice.set_held(keep_places(state))
        page.click("#roll")
        done = "keep"
    else:
        page.click("#pass")
        done = "pass"
    game.wait_actions_above(before)
    return done


def play_until(game: GamePage, wanted, appel=None, limit=200) -> Match:
    """Human moves until `wanted(state)`; returns the match."""
    for _ in range(limit):
        assert wait_human_or_end(game.page)
        match = game.replay()
        if wanted(match.state):
            return match
        human_move(game, match.state, appel)
    raise AssertionError("never reached")
