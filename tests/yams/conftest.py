"""The Yams family's test pieces.

`Reference` is the Yams family written a second time, straight from
/work/shared/RULINGS.md and independently of `pygames.yams`: the scoring tables and the
random-play conformance test check the engine against it.  `config` gives every Yams
ruleset × option set.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from pygames import GAMES

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
SHORT_SHEET = UPPER + (
    "three_kind", "four_kind", "full", "small_straight", "large_straight", "yams", "chance",
)
SHEETS = {
    "yams": UPPER + (
        "pair", "two_pairs", "three_kind", "four_kind", "full", "small_straight",
        "large_straight", "yams", "chance",
    ),
    "yams-boite": SHORT_SHEET,
    "yahtzee": SHORT_SHEET,
}
TURNS = {"yams": 15, "yams-boite": 13, "yahtzee": 13}


class Reference:
    """One ruleset with its options, as RULINGS.md reads it."""

    def __init__(self, game_id: str, options: dict | None = None):
        options = dict(options or {})
        self.game_id = game_id
        self.boxes = SHEETS[game_id]
        self.turns = TURNS[game_id]
        self.threshold = 64 if options.get("bonus_above_63") else 63
        self.two_pairs_carre = bool(options.get("four_kind_is_two_pairs"))
        self.forced_scoring = game_id == "yams-boite" and options.get("forced_scoring", True)
        self.joker = None
        self.prime_cap = 0
        if game_id == "yams":
            self.joker = "free"
            self.prime_cap = 1 if options.get("single_prime") else math.inf
        elif game_id == "yahtzee" and not options.get("plain"):
            self.joker = "forced"
            self.prime_cap = math.inf

    # what the dice are worth

    def points(self, box: str, dice, joker: bool = False) -> int:
        """The value of `box` for `dice`; with `joker`, a yam fills any lower box."""
        count = Counter(dice)
        total = sum(dice)
        most = max(count.values())
        faces = set(dice)
        if box in UPPER:
            face = UPPER.index(box) + 1
            return face * count[face]
        if joker:
            return {"full": 25, "small_straight": 30, "large_straight": 40, "yams": 50}.get(
                box, total
            )
        boite = self.game_id == "yams-boite"
        if box == "pair":
            return total if most >= 2 else 0
        if box == "two_pairs":
            pairs = sum(1 for n in count.values() if n >= 2)
            return total if pairs >= 2 or (self.two_pairs_carre and most >= 4) else 0
        if box in ("three_kind", "four_kind"):
            need = 3 if box == "three_kind" else 4
            if most < need:
                return 0
            face = next(f for f, n in count.items() if n >= need)
            return need * face if boite else total
        if box == "full":
            return 25 if sorted(count.values()) == [2, 3] else 0
        if box == "small_straight":
            runs = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
            return 30 if any(run <= faces for run in runs) else 0
        if box == "large_straight":
            return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
        if box == "yams":
            return 50 if most == 5 else 0
        if box == "chance":
            return total
        raise KeyError(box)

    def is_joker(self, dice, sheet: dict) -> bool:
        return bool(self.joker) and len(set(dice)) == 1 and sheet["yams"] is not None

    def value(self, box: str, dice, sheet: dict) -> int:
        return self.points(box, dice, self.is_joker(dice, sheet))

    def allowed(self, dice, sheet: dict) -> set[str]:
        """The boxes a player may fill with `dice` on `sheet` (None = open)."""
        open_boxes = [b for b in self.boxes if sheet[b] is None]
        if self.joker == "forced" and self.is_joker(dice, sheet):
            matching = UPPER[dice[0] - 1]
            if matching in open_boxes:
                return {matching}
            lower = [b for b in open_boxes if b not in UPPER]
            return set(lower or open_boxes)
        if self.forced_scoring:
            scoring = [b for b in open_boxes if self.value(b, dice, sheet) > 0]
            return set(scoring or open_boxes)
        return set(open_boxes)

    def earns_prime(self, dice, sheet: dict, primes: int) -> bool:
        return len(set(dice)) == 1 and sheet["yams"] == 50 and primes < self.prime_cap

    def total(self, sheet: dict, primes: int) -> int:
        upper = sum(sheet[b] or 0 for b in UPPER)
        lower = sum(sheet[b] or 0 for b in self.boxes if b not in UPPER)
        return upper + (35 if upper >= self.threshold else 0) + lower + 100 * primes


def all_configs() -> list[tuple[str, dict]]:
    """Every Yams ruleset (the ones `Reference` knows) with every combination of its
    options; the other families have their own tests and tests/test_protocol.py."""
    configs = []
    for game in (g for g in GAMES.values() if g.id in SHEETS):
        choices = [o.choices or (False, True) for o in game.options]
        for values in itertools.product(*choices):
            configs.append((game.id, {o.id: v for o, v in zip(game.options, values)}))
    return configs


def config_id(config) -> str:
    game_id, options = config
    on = [k for k, v in options.items() if v is True]
    off = [f"{k}={v}" for k, v in options.items() if v is not True and v != _default(game_id, k)]
    return "-".join([game_id, *on, *off]) if on or off else game_id


def _default(game_id: str, option_id: str):
    return next(o.default for o in GAMES[game_id].options if o.id == option_id)


CONFIGS = all_configs()


@pytest.fixture(params=CONFIGS, ids=[config_id(c) for c in CONFIGS])
def config(request):
    """(game id, options): one per ruleset and combination of options."""
    return request.param


@pytest.fixture
def reference():
    return Reference
