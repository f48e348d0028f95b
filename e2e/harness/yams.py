"""The Yams page's own parts (web/app/yams_view.py), beside the page object:

* `read_view` / `View`: the sheet, the dice and the turn as displayed;
* `read_sheet` / `check_sheet_totals`: each column as displayed, its internal consistency
  and its agreement with the saved record replayed by `pygames`;
* `read_ranking` / `expected_ranking`: the end screen against the engine;
* `Strategy`: a small, deterministic way of playing ("hold the most common face, score
  the best box"), written against what the page *shows* (dice faces, the points on the
  enabled box buttons), and `simulate`, the same decisions offline with `pygames`, to know
  in advance what a seeded game will do;
* `YamsDriver`: plays the page by mouse or by keyboard only, checking at every score that
  the points shown on the box button become the value shown in the cell.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from harness.dice import DICE_JS, THROWS_USED_JS, DiceTray
from harness.pages import TURN_TIMEOUT_MS, GamePage, ranking
from pygames import GAMES, DiceSampler, Match, Player
from pygames.yams import UPPER_IDS, Roll, Score

XSS_NAME = "<img src=x onerror=alert(1)>"


# --- reading the page ---------------------------------------------------------------------

READ_JS = """
() => {
  const text = (th) => (th.firstChild && th.firstChild.nodeType === 3 ? th.firstChild.textContent
                        : th.firstChild ? th.firstChild.textContent : th.textContent);
  const rows = [...document.querySelectorAll('#sheet-body tr')].map(tr => ({
    label: text(tr.querySelector('th')),
    cells: [...tr.querySelectorAll('td')].map(td => {
      const b = td.querySelector('button.box');
      return b ? {box: b.dataset.box, points: b.textContent, disabled: b.disabled}
               : {text: td.textContent};
    }),
  }));
  const heads = [...document.querySelectorAll('#sheet-head th')].slice(1);
  const dice = DICE;
  return {
    head: heads.map(th => th.firstChild ? th.firstChild.textContent : ''),
    current: heads.findIndex(th => th.classList.contains('current')),
    rows, dice,
    rolls: THROWS_USED,
    turnInfo: document.getElementById('turn-info').textContent,
    rollDisabled: document.getElementById('roll').disabled,
  };
}
""".replace("DICE", DICE_JS).replace("THROWS_USED", THROWS_USED_JS)


@dataclass
class View:
    head: list[str]
    current: int
    rows: list[dict]
    dice: list[dict]
    rolls: int
    turn_info: str
    roll_disabled: bool

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d["face"] for d in self.dice)

    @property
    def held(self) -> set[int]:
        return {i for i, d in enumerate(self.dice) if d["held"]}

    def options(self) -> dict[str, int]:
        """The enabled box buttons of the current player: box -> points shown."""
        out = {}
        for row in self.rows:
            for cell in row["cells"]:
                if "box" in cell and not cell["disabled"]:
                    out[cell["box"]] = int(cell["points"])
        return out

    def box_row(self, box: str) -> int:
        for i, row in enumerate(self.rows):
            if any(c.get("box") == box for c in row["cells"]):
                return i
        raise AssertionError(f"no button for box {box!r}")


def read_view(page) -> View:
    d = page.evaluate(READ_JS)
    return View(d["head"], d["current"], d["rows"], d["dice"], d["rolls"], d["turnInfo"],
                d["rollDisabled"])


def sheet_keys(match: Match) -> list[tuple[str, str]]:
    """(key, label) of the sheet rows, in the page's order."""
    rules = match.state.rules
    keys = []
    for box in rules.boxes:
        keys.append((box.id, str(box.label)))
        if box.id == "sixes":
            keys.append(("upper", "Sous-total"))
            keys.append(("bonus", f"Prime +{rules.bonus}"))
    if rules.primes:
        keys.append(("primes", "Deuxième Yahtzee" if match.game.id == "yahtzee" else "Deuxième Yam"))
    keys.append(("lower", "Partie basse"))
    keys.append(("total", "TOTAL"))
    return keys


def _int(text: str) -> int:
    m = re.match(r"\s*([−-]?\d+)", text)
    assert m, f"not a number: {text!r}"
    return int(m.group(1).replace("−", "-"))


def read_sheet(page, match: Match) -> list[dict[str, str]]:
    """Each player's column as displayed: {row key: cell text} (buttons as '[n]')."""
    view = read_view(page)
    keys = sheet_keys(match)
    assert [r["label"].strip() for r in view.rows] == [label for _, label in keys]
    columns = [dict() for _ in view.head]
    for (key, _), row in zip(keys, view.rows):
        for p, cell in enumerate(row["cells"]):
            columns[p][key] = cell["text"] if "text" in cell else f"[{cell['points']}]"
    return columns


def check_sheet_totals(page, match: Match) -> list[int]:
    """At the end of a game: every column adds up (boxes + bonus + primes) and equals
    what `pygames` computes for the match; returns the displayed totals."""
    state = match.state
    assert state.is_terminal()
    rules = state.rules
    totals = []
    for p, col in enumerate(read_sheet(page, match)):
        sheet = state.sheet(p)
        boxes = {b.id: _int(col[b.id]) for b in rules.boxes}
        assert boxes == sheet.boxes, f"player {p}: displayed boxes differ from the record"
        upper = sum(boxes[b] for b in UPPER_IDS)
        lower = sum(v for b, v in boxes.items() if b not in UPPER_IDS)
        bonus = _int(col["bonus"])
        primes = _int(col["primes"]) if col.get("primes") else 0
        total = _int(col["total"])
        assert _int(col["upper"]) == upper
        assert _int(col["lower"]) == lower
        assert bonus == (rules.bonus if upper >= rules.bonus_threshold else 0)
        assert primes % 100 == 0
        assert total == upper + bonus + lower + primes
        assert (upper, bonus, lower, primes, total) == (
            sheet.upper, sheet.bonus, sheet.lower, sheet.primes, sheet.total)
        totals.append(total)
    return totals


def read_ranking(page) -> list[tuple[int, str, int]]:
    """(place, name, points) of the end screen."""
    return [(place, name, _int(score)) for place, name, score in ranking(page)]


def expected_ranking(match: Match) -> list[tuple[int, str, int]]:
    state = match.state
    scores = state.scores()
    return [(place + 1, match.players[p].name, scores[p])
            for place, group in enumerate(state.ranking()) for p in group]


# --- a simple strategy ------------------------------------------------------------------

SACRIFICE = ("ones", "yams", "large_straight", "twos", "four_kind", "pair", "small_straight",
             "full", "two_pairs", "threes", "three_kind", "fours", "fives", "sixes", "chance")


class Strategy:
    """Hold the most common face (ties: the higher), stop on a Yam or a big straight,
    score the best legal box with a nudge towards the upper bonus."""

    @staticmethod
    def hold(faces, rolls, options) -> set[int] | None:
        """Places to hold before the next roll, or None to score now."""
        if rolls >= 3:
            return None
        c = Counter(faces)
        if len(c) == 1 and options.get("yams", 0) or options.get("large_straight", 0) == 40:
            return None
        if options.get("small_straight", 0) == 30 and "large_straight" not in options:
            return None
        if options.get("full", 0) == 25 and max(c.values()) == 3 and len(options) <= 3:
            return None
        face = max(c, key=lambda f: (c[f] + (UPPER_IDS[f - 1] in options) * 0.5, f))
        keep = {i for i, f in enumerate(faces) if f == face}
        return keep if len(keep) < 5 else None

    @staticmethod
    def box(faces, options) -> str:
        c = Counter(faces)

        def value(item):
            box, points = item
            if box in UPPER_IDS:
                face = UPPER_IDS.index(box) + 1
                return points + (12 if c[face] >= 3 else 0) - (3 * face - points) * 0.6
            if box == "chance":
                return points - 12
            return points

        if not any(options.values()):
            return min(options, key=lambda b: SACRIFICE.index(b) if b in SACRIFICE else 99)
        return max(options.items(), key=value)[0]


def simulate(game_id: str, seed: str, options=None, strategy=Strategy) -> Match:
    """Play a solo seeded game offline exactly as the page driver would."""
    match = Match(GAMES[game_id], [Player("Solo")], options or {}, DiceSampler(seed))
    held: set[int] = set()
    while not match.state.is_terminal():
        state = match.state
        if state.is_chance():
            match.throw()
            continue
        if state.rolls == 0:
            match.apply(Roll())
            continue
        legal = {b: v for b, v in state.potential().items() if b in state.scorable()}
        keep = strategy.hold(state.dice, state.rolls, legal)
        if keep is None:
            match.apply(Score(strategy.box(state.dice, legal)))
            held = set()
        else:
            held = keep
            places = tuple(sorted(held))
            match.apply(Roll(tuple(sorted(state.dice[p] for p in places)), places or None))
    return match


# --- driving the page --------------------------------------------------------------------


@dataclass
class YamsDriver:
    """Plays the human turns of the page, by 'mouse' or by 'keyboard' only."""

    game: GamePage
    by: str = "mouse"
    strategy: type = Strategy
    scored: list[tuple[int, str, int]] = field(default_factory=list)  # (player, box, points)
    on_held: object = None  # callback(page) the first time dice are held mid-turn

    @property
    def page(self):
        return self.game.page

    def roll(self, first: bool) -> None:
        self.game.dice.roll(self.by, "Space" if first else "Enter")

    def score(self, box: str) -> None:
        selector = f'#sheet-body button.box[data-box="{box}"]'
        if self.by == "mouse":
            self.page.click(selector)
        else:
            self.game.focus_by_tab(selector)
            self.page.keyboard.press("Enter")

    def play_turn(self) -> tuple[str, int]:
        """One complete human turn: roll, hold, reroll, score. Returns (box, points)."""
        page, dice = self.page, self.game.dice
        view = read_view(page)
        player = view.current
        if view.rolls == 0:  # else: finish a turn begun before (e.g. before a reload)
            assert not view.roll_disabled, view.turn_info
            self.roll(first=True)
            dice.wait_throws(1)
        while True:
            view = read_view(page)
            assert all(1 <= f <= 6 for f in view.faces), view.faces
            options = view.options()
            assert options, "no box to score"
            keep = self.strategy.hold(view.faces, view.rolls, options)
            if keep is None:
                break
            for place in sorted(keep ^ view.held):
                dice.toggle(place, self.by)
            view = read_view(page)
            assert view.held == keep, (view.held, keep)
            if self.on_held and keep:
                self.on_held(page)
                self.on_held = None
            rolls = view.rolls
            self.roll(first=False)
            dice.wait_throws(rolls + 1)
            after = read_view(page)
            for place in keep:  # held dice stay where they were
                assert after.faces[place] == view.faces[place]
        box = self.strategy.box(view.faces, options)
        row = view.box_row(box)
        shown = options[box]
        self.score(box)
        page.wait_for_function(
            "([r, p]) => !document.querySelectorAll('#sheet-body tr')[r]"
            ".querySelectorAll('td')[p].querySelector('button')", arg=[row, player])
        cell = page.evaluate(
            "([r, p]) => document.querySelectorAll('#sheet-body tr')[r].querySelectorAll('td')[p].textContent",
            [row, player])
        assert cell == str(shown), f"{box}: button showed {shown}, cell shows {cell!r}"
        self.scored.append((player, box, shown))
        return box, shown

    def wait_human_turn_or_end(self, timeout: int = TURN_TIMEOUT_MS) -> str:
        """Until a person's turn begins (Lancer enabled, no throw yet), or the end."""
        self.page.wait_for_function(
            f"""() => !document.getElementById('end').hidden ||
                     (!document.getElementById('table').hidden &&
                      !document.getElementById('roll').disabled && {THROWS_USED_JS} === 0)""",
            timeout=timeout)
        return self.game.screen()

    def play_to_end(self, max_turns: int = 200) -> int:
        turns = 0
        while self.wait_human_turn_or_end() == "table":
            self.play_turn()
            turns += 1
            assert turns <= max_turns
        return turns


def roll_and_score(page):
    """Roll once and fill the first box that scores; returns (box, points)."""
    page.click("#roll")
    page.wait_for_selector("#sheet-body button.box:not([disabled])")
    box = page.locator("#sheet-body button.box:not([disabled])").first
    name, points = box.get_attribute("data-box"), int(box.inner_text())
    box.click()
    return name, points


def play_one_turn(page) -> None:
    """Setup with the default single human player, then roll, keep, reroll and score."""
    dice = DiceTray(page)
    if not page.locator("#setup").is_hidden():
        page.click("#start")
    page.wait_for_function("() => !document.getElementById('table').hidden")
    assert all(d["face"] == 0 for d in dice.read()), "the turn starts with no dice on the table"
    dice.roll()
    dice.wait_all_thrown()
    first = dice.read()
    dice.toggle(0)
    page.wait_for_function(
        "() => document.querySelector('#dice [data-die=\"0\"]').getAttribute('aria-pressed') === 'true'")
    dice.roll()
    dice.wait_throws(2)
    second = dice.read()
    assert (second[0]["face"], second[0]["held"]) == (first[0]["face"], True), (first, second)
    box = page.locator("#sheet-body button.box:not([disabled])").first
    box_id, points = box.get_attribute("data-box"), box.text_content().strip()
    box.click()
    # The box is filled with the points it showed, and the next turn starts with no dice.
    page.wait_for_function(
        "id => !document.querySelector(`#sheet-body button.box[data-box=\"${id}\"]`)", arg=box_id)
    dice.wait_all_empty()
    saved = json.loads(page.evaluate("localStorage.getItem('pygames:yams:match')"))
    assert box_id in json.dumps(saved["record"]), "the scored box is in the saved record"
    assert re.fullmatch(r"\d+", points), points
