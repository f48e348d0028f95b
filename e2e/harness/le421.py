"""The 421 page's own parts (web/app/le421_view.py), beside the page object: the table as
displayed (pot, each player's tokens as a number and as coins, hands, the last round's
sentence, the journal, where the player throwing in the décharge stands, a rampo's throws)
checked against the engine; a person's décharge (`plan`) and a driver that plays it by
mouse or keyboard; *Charge auto* replayed offline; a paper start that opens on a décharge;
games played with forced dice (`scripted`), to open a page on a chosen position.
"""

from __future__ import annotations

from harness.dice import DICE_JS, THROWS_USED_JS
from harness.pages import TURN_TIMEOUT_MS, GamePage
from pygames import GAMES, DiceSampler, Match, Player
from pygames.core import bot_for
from pygames.dice import Roll
from pygames.le421 import hand_value, sorted_hand
from pygames.le421.messages import hand_label, rampo_line, round_sentence, standing_line, standing_outcome
from pygames.messages import text

GAME = GAMES["421"]

READ_JS = """
() => {
  const q = (s) => document.querySelector(s);
  return {
    dice: DICE,
    pot: q('#pot-count').textContent,
    potCoins: document.querySelectorAll('#pot-coins .coin').length,
    seats: [...document.querySelectorAll('#seats tr')].map(tr => ({
      name: tr.querySelector('.name').textContent,
      count: tr.querySelector('.count').textContent,
      coins: tr.querySelectorAll('.coin').length,
      status: tr.querySelector('.status').textContent,
      current: tr.classList.contains('current'),
      hand: tr.querySelector('.hand-label strong')?.textContent ?? null,
      rampo: tr.querySelector('.rampo-tag')?.textContent ?? null,
    })),
    last: q('#last-round').hidden ? null : q('#last-sentence').textContent,
    lastTitle: q('#last-round').hidden ? null : q('#last-title').textContent,
    lastHands: [...document.querySelectorAll('#last-hands .last-hand')].map(s => s.textContent),
    caption: q('#dice-caption').textContent,
    standing: q('#standing').hidden ? null
      : [q('#standing-line').textContent, q('#standing-outcome').textContent],
    journal: [...document.querySelectorAll('#journal-list li')].map(li => li.textContent),
    turn: q('#turn-info').textContent,
    phase: q('#phase-info').textContent,
    roll: {disabled: q('#roll').disabled, action: q('#roll').dataset.action},
    stop: {disabled: q('#stop').disabled, hidden: q('#stop').hidden},
    auto: {disabled: q('#auto-charge').disabled, hidden: q('#auto-charge').hidden},
    throwsUsed: THROWS_USED,
    throwsAllowed: document.querySelectorAll('#roll-count i').length,
  };
}
""".replace("DICE", DICE_JS).replace("THROWS_USED", THROWS_USED_JS)


def read(page) -> dict:
    return page.evaluate(READ_JS)


def tokens_text(n: int) -> str:
    return f"{n} jeton{'s' if n > 1 else ''}"


def paper_start(leader: int, tokens: str = "10 11") -> dict:
    """The setup's fields for a game begun on paper with an empty pot: a décharge at once
    (dice can be kept), led by player `leader` (1-based)."""
    return {"#paper": True, "#paper-pot": "0", "#paper-tokens": tokens, "#paper-leader": str(leader)}


def check_table(page, match: Match) -> dict:
    """What the page draws is the replayed state: pot, tokens (number and coins), the
    players out, the current player, this round's hands, the last round's sentence."""
    state, names = match.state, match.names
    view = read(page)
    assert view["pot"] == (tokens_text(state.pot) if state.pot else "vide")
    assert view["potCoins"] == min(state.pot, 21)
    out = {p for group in state.left for p in group}
    for p, seat in enumerate(view["seats"]):
        assert seat["name"] == names[p]
        assert seat["count"] == tokens_text(state.tokens[p]), (p, seat, state.tokens)
        assert seat["coins"] == min(state.tokens[p], 21)
        if p in out:
            assert seat["status"] == "sorti — gagné"
        if state.is_terminal():
            assert (seat["status"] == "perdu\u00a0: tous les jetons") == (p == state.loser)
        else:
            assert seat["current"] == (p == state.current_player())
            hand = state.hand_infos()[p]
            assert seat["hand"] == (text(hand_label(hand.dice)) if hand else None)
    assert view["last"] == (text(round_sentence(state.last, names)) if state.last else None)
    assert view["standing"] == expected_standing(match), (view["standing"], state)
    assert len(view["journal"]) == state.round - 1 if not state.is_terminal() else True
    return view


def expected_standing(match: Match) -> list[str] | None:
    """The line under the dice, as pygames words it: in the décharge the hand of the player
    throwing against the hand to beat, and what would move; in a rampo its throws."""
    state, names = match.state, match.names
    standing = state.standing()
    if standing is not None:
        outcome = standing_outcome(standing, names)
        return [text(standing_line(standing, names)), text(outcome) if outcome else ""]
    if state.rampo and state.rampo_throws and not state.is_terminal():
        return [text(rampo_line(state.rampo_throws, names)), ""]
    return None


def scripted(players, start, *script: str, options=None) -> Match:
    """A game played with forced dice: each item of `script` is an action's notation, or
    "Name: a b c" for `roll` then `dice a b c`.  `players`: (name, seat) pairs."""
    match = Match(GAME, [Player(n, s) for n, s in players], options or {}, start=start)
    for item in script:
        if ":" in item:
            match.apply("roll")
            match.apply("dice " + item.split(":")[1].strip())
        else:
            match.apply(item)
    return match


def wait_human_or_end(page, timeout=TURN_TIMEOUT_MS) -> bool:
    """Until a human may throw or stop (True), or the game is over (False)."""
    page.wait_for_function(
        """() => !document.getElementById('end').hidden ||
                 !document.getElementById('roll').disabled ||
                 (!document.getElementById('stop').hidden && !document.getElementById('stop').disabled)""",
        timeout=timeout)
    return page.locator("#end").is_hidden()


def plan(state) -> set[int] | None:
    """A human's décharge: the places to keep before throwing again, or None to stop.
    Stops on a hand worth 2 or more; otherwise keeps the 4, 2 and 1 (or two aces)."""
    value = hand_value(sorted_hand(state.dice), state.rules)
    if value >= 2 or state.throws >= state.limit:
        return None
    if list(state.dice).count(1) >= 2:
        wanted = [1, 1]
    else:
        wanted = sorted({d for d in state.dice if d in (1, 2, 4)})
    places, free = set(), list(range(3))
    for face in wanted:
        p = next((i for i in free if state.dice[i] == face), None)
        if p is not None:
            places.add(p)
            free.remove(p)
    return places if len(places) < 3 else None


class Driver:
    """Plays the human hands of the page by mouse or keyboard, from what it shows and
    the replayed state (the same decisions as `plan`)."""

    def __init__(self, game: GamePage, by="mouse"):
        self.game, self.page = game, game.page
        self.by = by
        self.kept_once = False
        self.stopped_once = False

    def act(self) -> None:
        page, game = self.page, self.game
        before = game.actions()
        match = game.replay()
        state = match.state
        check_table(page, match)
        if state.throws == 0:
            self.throw()
        else:
            keep = plan(state)
            if keep is None:
                self.stopped_once = True
                if self.by == "mouse":
                    page.click("#stop")
                else:
                    page.keyboard.press("s")
            else:
                game.dice.set_held(keep, self.by)
                if keep:
                    self.kept_once = True
                    faces = sorted(state.dice[p] for p in keep)
                    assert game.dice.roll_action() == Roll(tuple(faces), tuple(sorted(keep))).notation()
                self.throw()
        game.wait_actions_above(before)

    def throw(self) -> None:
        if self.by == "mouse":
            self.page.click("#roll")
        else:
            # Focus is on Lancer, a die or nowhere (never on another button).
            focus = self.page.evaluate("document.activeElement.id || document.activeElement.tagName")
            assert focus in ("roll", "BODY", "MAIN") or focus.startswith("DIE") or \
                self.page.evaluate("document.activeElement.hasAttribute('data-die')"), focus
            self.page.keyboard.press("Space")

    def play_to_end(self, limit=600) -> int:
        n = 0
        while wait_human_or_end(self.page):
            self.act()
            n += 1
            assert n < limit
        return n


def simulate_auto_charge(seed: str, players, options=None) -> list[str]:
    """Offline: the humans click Lancer at each of their charge throws, the computers play
    their seats, the seeded dice fall; the actions until the décharge begins."""
    match = Match(GAME, [Player(n, s) for n, s in players], options or {}, DiceSampler(seed))
    bots = {i: bot_for(GAME, s) for i, (_, s) in enumerate(players) if s != "human"}
    while not match.state.is_terminal() and not match.state.decharge:
        state = match.state
        if state.is_chance():
            match.throw()
        elif state.current_player() in bots:
            match.apply(bots[state.current_player()](state))
        else:
            match.apply(Roll())
    return [a.notation() for a in match.history]
