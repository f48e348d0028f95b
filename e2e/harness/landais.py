"""The Dé Landais page's own parts (web/app/landais_view.py), beside the page object: the
numbers as the page writes them, each player's track as displayed (sealed score, the
floating points and their ghost, badges, manches) checked against the engine; the journal
of the series and the last series over, checked against `pygames.landais.journal`; the
tests' person (seals 200 or more, or a winning seal) and its moves.
"""

from __future__ import annotations

from harness.dice import DICE_JS
from harness.pages import TURN_TIMEOUT_MS, GamePage
from pygames.core import Match
from pygames.dice import Roll
from pygames.landais import Seal, SeriesPlayed, journal
from pygames.landais.messages import journal_entry, throw_text
from pygames.messages import de
from pygames.messages import text as words

THIN = "\u202f"


def fmt(n: int) -> str:
    return ("−" if n < 0 else "") + f"{abs(n):,}".replace(",", THIN)


def percent(p: float) -> str:
    return f"{100 * p:.1f}".replace(".", ",") + "\u00a0%"


READ_JS = """
() => {
  const q = (s) => document.querySelector(s);
  return {
    dice: DICE.map(d => d.face),
    throwName: q('#throw-name').textContent,
    floating: q('#floating').textContent,
    tracks: [...document.querySelectorAll('#tracks li')].map(li => ({
      name: li.querySelector('.name').textContent,
      sealed: Number(li.dataset.sealed),
      sealedText: li.querySelector('.sealed').textContent,
      floating: Number(li.dataset.floating),
      floatText: li.querySelector('.float').textContent,
      badges: [...li.querySelectorAll('.badge')].map(b => b.textContent),
      manches: li.querySelector('.manches').textContent,
      current: li.classList.contains('current'),
      winner: li.classList.contains('winner'),
      fill: li.querySelector('.fill').style.width,
      ghost: li.querySelector('.ghost').hidden ? null : li.querySelector('.ghost').style.width,
    })),
    turn: q('#turn-info').textContent,
    diceLabel: q('#dice').getAttribute('aria-label'),
    boardTitle: q('#table .board-title').textContent,
    mancheInfo: q('#manche-info').hidden ? '' : q('#manche-info').textContent,
    roll: q('#roll').disabled, seal: q('#seal').disabled,
    opening: q('#opening').hidden ? null : q('#opening').textContent,
  };
}
""".replace("DICE", DICE_JS)


def read(page) -> dict:
    return page.evaluate(READ_JS)


def check_table(page, match: Match) -> dict:
    """What the page draws is the replayed state: every sealed score (number and text),
    the floating points (big number and the ghost on the current track), the current
    player, the last throw's dice and name, the gifts of the last throw, Lancer/Sceller."""
    state, names = match.state, match.names
    view = read(page)
    current = None if state.is_terminal() else state.current_player()
    assert [t["name"] for t in view["tracks"]] == names
    for p, track in enumerate(view["tracks"]):
        assert track["sealed"] == state.sealed[p], (p, track, state.sealed)
        assert track["sealedText"] == fmt(state.sealed[p])
        assert track["current"] == (p == current)
        floating = state.floating if p == current else 0
        assert track["floating"] == floating
        assert (track["ghost"] is not None) == bool(floating)
        if state.rules.manches > 1:
            won = state.manches_won[p]
            assert track["manches"].endswith(f"{won} manche{'s' if won > 1 else ''} gagnée{'s' if won > 1 else ''}")
    assert view["floating"] == fmt(state.floating if current is not None else 0)
    # The target is said once (in the board's title), with the site's thousands separator.
    assert f"exactement {fmt(state.rules.target)}" in view["boardTitle"]
    assert "exactement" not in view["mancheInfo"].lower()
    if state.last is not None:
        assert view["dice"] == list(state.last.faces)
        assert view["diceLabel"].startswith(f"Dés {de(names[state.last.thrower])}\u00a0: ")  # "d'Ordinateur"
        assert words(throw_text(state.last)) in view["throwName"]
        history = match.history
        if len(history) >= 2 and isinstance(history[-2], Roll) and not isinstance(history[-1], Seal):
            for q, d in state.last.effects:
                assert ("+" if d > 0 else "") + fmt(d) in view["tracks"][q]["badges"], (q, d, view)
    else:
        assert view["dice"] == [0, 0, 0]
    check_journal(page, match)
    if current is not None and match.players[current].seat == "human":
        assert view["roll"] == (not state.can_roll) and view["seal"] == (not state.can_seal)
    else:
        assert view["roll"] and view["seal"]  # nothing to click while a computer plays
    return view


def wait_human_or_end(page, timeout=TURN_TIMEOUT_MS) -> bool:
    """Until a human may throw (True), or the game is over (False)."""
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('roll').disabled",
        timeout=timeout)
    return page.locator("#end").is_hidden()


def wants_seal(state) -> bool:
    """The tests' human: seals 200 or more, or when sealing wins."""
    return state.can_seal and (state.floating >= 200 or state.seal_wins)


def human_move(game: GamePage, state, by="mouse") -> None:
    """The tests' person, by mouse or keyboard: Sceller (S) when `wants_seal`, else Lancer."""
    page = game.page
    before = game.actions()
    if wants_seal(state):
        if by == "mouse":
            page.click("#seal")
        else:
            page.keyboard.press("s")
    else:
        if by == "mouse":
            page.click("#roll")
        else:
            page.keyboard.press("Space")
    game.wait_actions_above(before)


def throw_until_floating(game: GamePage, limit: int = 300):
    """Lancer until a person has points in play that they may seal; that state."""
    for _ in range(limit):
        assert wait_human_or_end(game.page)
        state = game.replay().state
        if state.can_seal and state.floating:
            return state
        before = game.actions()
        game.page.click("#roll")
        game.wait_actions_above(before)
    raise AssertionError("never a series with floating points")


JOURNAL_JS = """
() => ({
  journal: [...document.querySelectorAll('#journal-list li')].map(li => [li.value, li.textContent]),
  last: document.getElementById('last-series').hidden ? null : [
    document.getElementById('last-series-title').textContent,
    document.getElementById('last-series-text').textContent],
})
"""


def check_journal(page, match: Match) -> dict:
    """The journal lists the opening throw and every series (newest first, numbered), as
    `pygames.landais.journal` finds them in the record; the last series over stays in view
    above it."""
    entries = journal(match.positions())
    view = page.evaluate(JOURNAL_JS)
    expected = [[n + 1, words(journal_entry(e, match.names))] for n, e in enumerate(entries)]
    assert view["journal"] == expected[::-1], (view["journal"], expected)
    over = [e for e in entries if isinstance(e, SeriesPlayed) and e.end]
    if over:
        title = "Dernière série" if match.state.is_terminal() else "Série précédente"
        assert view["last"] == [title, words(journal_entry(over[-1], match.names))], view["last"]
    else:
        assert view["last"] is None
    return view
