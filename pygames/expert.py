"""The expert Yams player and the advisor, played from the solver's tables.

A table (see `pygames.solver`) holds, for every turn-start state of one ruleset and
option set, the expected points still to come under optimal play.  Everything inside a
turn is worked out here on the fly, in pure Python, from the values of the next turn's
states: the best box for each of the 252 final hands, the expectation of each of the 462
keeps, the best keep of each hand (`Turn`).  That is a few milliseconds per turn, so
the tables stay small and the browser needs nothing but the standard library.

* `load_tables(data)` reads a table from its bytes (the web page fetches them);
* `ExpertYamsBot(tables)` is a bot: `bot(state) -> action`; in a game of several
  players it plays its own sheet for the best expected score, as in solitaire;
* `advise(state, tables)` lists every choice with the expected final score it leads to;
* `analyse(match, tables)` reviews a game: per turn, what was played, what was best and
  the expected points lost.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field

from .core import Action, GameError, Match
from .dice import sub_multisets
from .yams import YAM_PRIME, Roll, Rules, Score, YamsState
from .solver import TurnModel, decode_table, table_name

NEG = float("-inf")
TABLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "web", "tables", "yams")


# --- tables --------------------------------------------------------------------------


class YamsTables:
    """The solved values of one ruleset and option set (see `load_tables`)."""

    def __init__(self, header: dict, codes, model: TurnModel, game_id: str, options: dict):
        self.header = header
        self.codes = codes
        self.model = model
        self.rules = model.rules
        self.game_id = game_id
        self.options = options
        self.name = header["name"]
        self.inverse_scale = 1.0 / header["scale"]
        self.expected = header["expected"]  # optimal expected final score (unquantised)
        self._turns: OrderedDict = OrderedDict()

    def value(self, mask: int, up: int, p: int = 0) -> float:
        """Expected points still to come from a turn-start state (as stored)."""
        return self.codes[self.model.index(mask, up, p)] * self.inverse_scale

    def tables_for(self, rules: Rules) -> "YamsTables":
        if rules != self.rules:
            raise GameError(f"Ces tables sont celles de « {self.name} », pas de cette partie.")
        return self

    def turn(self, mask: int, up: int, p: int) -> "Turn":
        """The worked-out turn of a state (the last few are kept)."""
        key = (mask, up, p)
        turn = self._turns.get(key)
        if turn is None:
            turn = self._turns[key] = Turn(self, mask, up, p)
            if len(self._turns) > 64:
                self._turns.popitem(last=False)
        else:
            self._turns.move_to_end(key)
        return turn


def load_tables(data: bytes) -> YamsTables:
    """Read a table from its bytes; checks its hash and that it fits today's rules."""
    from . import find_game

    try:
        header, codes = decode_table(data)
    except (ValueError, KeyError) as err:
        raise GameError(f"Tables de l'expert illisibles : {err}") from None
    game = find_game(header["game"])
    options = game.resolve_options(header["options"])
    model = TurnModel(game.rules(options), header["dice"], header["rolls"])
    if model.fingerprint() != header["fingerprint"]:
        raise GameError(f"Les tables « {header['name']} » ne correspondent plus aux règles : "
                        "il faut les reconstruire (python -m pygames solve).")
    return YamsTables(header, codes, model, game.id, options)


def rules_name(rules: Rules) -> str:
    """The table name of a ruleset (which game and options give these rules)."""
    from .yams import FAMILY

    for game in FAMILY.games:
        for options in game.option_sets():
            if game.rules(options) == rules:
                return table_name(game.id, options, {o.id: o.default for o in game.options})
    raise GameError("Pas de tables pour ces règles.")


class DirectoryTables:
    """Tables read on demand from a directory of ``<name>.bin`` files (CLI, tests)."""

    def __init__(self, directory: str = TABLES_DIR):
        self.directory = directory
        self._loaded: dict[str, YamsTables] = {}
        self._names: dict[Rules, str] = {}

    def tables_for(self, rules: Rules) -> YamsTables:
        name = self._names.get(rules)
        if name is None:
            name = self._names[rules] = rules_name(rules)
        if name not in self._loaded:
            path = os.path.join(self.directory, name + ".bin")
            try:
                with open(path, "rb") as f:
                    self._loaded[name] = load_tables(f.read())
            except OSError:
                raise GameError(f"Tables de l'expert introuvables : {path} "
                                "(python -m pygames solve --all --write web/tables/yams).") from None
        return self._loaded[name]


# --- one turn ------------------------------------------------------------------------


class Turn:
    """Every decision of one turn from a turn-start state, worked out from the tables.

    `score[h]`: the value of the best legal box for final hand h; `levels[r]` for the
    roll r = 1 .. rolls-1: (E, M) where E[j][k] is the expectation of keeping keep k of
    j dice, M[j][k] the best of keep k and its sub-keeps (M[dice][h] includes scoring
    now).  Values are the points still to come, this turn included.
    """

    def __init__(self, tables: YamsTables, mask: int, up: int, p: int):
        m = tables.model
        self.tables, self.model = tables, m
        self.mask, self.up, self.p = mask, up, p
        self.yam_filled = m.yam is not None and bool(mask >> m.yam & 1)
        self.score = self._score_values()
        self.levels: dict[int, tuple[list, list]] = {}
        current = self.score
        for r in range(m.rolls - 1, 0, -1):
            E = self._expectations(current)
            M = self._best_keeps(E)
            self.levels[r] = (E, M)
            current = M[m.dice]
        self.start = sum(p_ * v for p_, v in zip(m.prob, current))

    # final hands

    def _score_values(self) -> list[float]:
        m, t = self.model, self.tables
        T, mask, up, p = m.threshold, self.mask, self.up, self.p
        cands = []
        for b in range(m.B):
            if mask >> b & 1:
                continue
            m2 = mask | 1 << b
            pts = m.points[b]
            if m.upper[b]:
                by_points = {}
                for v in set(pts):
                    add = v + (m.bonus if up < T <= up + v else 0)
                    by_points[v] = t.value(m2, min(T, up + v), p) + add
                cands.append([by_points[v] for v in pts])
            elif b == m.yam:
                v0 = t.value(m2, up, 0)
                v1 = t.value(m2, up, 1) if m.prime_mode else v0
                cands.append([(v1 if pt == 50 else v0) + pt for pt in pts])
            else:
                base = t.value(m2, up, p)
                cands.append([base + pt for pt in pts])
        if m.forced_scoring:
            open_boxes = [b for b in range(m.B) if not mask >> b & 1]
            scoring = [[c if m.points[b][h] > 0 else NEG for h, c in enumerate(cand)]
                       for b, cand in zip(open_boxes, cands)]
            best_all = list(map(max, *cands)) if len(cands) > 1 else list(cands[0])
            best_pos = list(map(max, *scoring)) if len(scoring) > 1 else list(scoring[0])
            score = [bp if bp > NEG else ba for bp, ba in zip(best_pos, best_all)]
        else:
            score = list(map(max, *cands)) if len(cands) > 1 else list(cands[0])
        if self.yam_filled and (m.joker or m.prime_mode):
            for h in m.yam_hands:
                score[h] = max(v for _, v in self.choices(h))
        return score

    def choices(self, h: int) -> list[tuple[int, float]]:
        """(box, value) of every box the player may fill with final hand h, in sheet
        order; the same legality as `YamsState.scorable`."""
        m, t = self.model, self.tables
        T, mask, up, p = m.threshold, self.mask, self.up, self.p
        yam_hand = m.is_yam[h]
        joker = bool(m.joker) and self.yam_filled and yam_hand
        points = m.joker_points if joker else m.points
        special = self.yam_filled and yam_hand
        prime = YAM_PRIME if special and p == 1 else 0
        p_after = 0 if special and m.single_prime else p
        open_boxes = [b for b in range(m.B) if not mask >> b & 1]
        if joker and m.joker == "forced":
            face_box = m.face_box[m.hands[h][0] - 1]
            if face_box in open_boxes:
                legal = [face_box]
            else:
                legal = [b for b in open_boxes if not m.upper[b]] or open_boxes
        elif m.forced_scoring:
            legal = [b for b in open_boxes if points[b][h] > 0] or open_boxes
        else:
            legal = open_boxes
        out = []
        for b in legal:
            pt = points[b][h]
            m2 = mask | 1 << b
            if m.upper[b]:
                add = pt + (m.bonus if up < T <= up + pt else 0) + prime
                value = t.value(m2, min(T, up + pt), p_after) + add
            elif b == m.yam:
                value = t.value(m2, up, 1 if m.prime_mode and pt == 50 else 0) + pt
            elif special:
                value = t.value(m2, up, p_after) + prime + pt
            else:
                value = t.value(m2, up, p) + pt
            out.append((b, value))
        return out

    def best_box(self, h: int) -> tuple[int, float]:
        best = None
        for b, v in self.choices(h):
            if best is None or v > best[1]:
                best = (b, v)
        return best

    # keeps

    def _expectations(self, values: list[float]) -> list[list[float]]:
        m = self.model
        E: list = [None] * (m.dice + 1)
        E[m.dice] = values
        for j in range(m.dice - 1, -1, -1):
            nxt = E[j + 1]
            E[j] = [sum([nxt[i] for i in add]) / 6 for add in m.add_index[j]]
        return E

    def _best_keeps(self, E: list[list[float]]) -> list[list[float]]:
        """Values only: which keep reaches the maximum is `best_keep`'s business."""
        m = self.model
        M = [E[0]]
        for j in range(1, m.dice + 1):
            below = M[j - 1]
            base = self.score if j == m.dice else E[j]
            M.append([max(v, max([below[s] for s in subs]))
                      for v, subs in zip(base, m.sub_index[j])])
        return M

    def best_keep(self, r: int, h: int) -> tuple[int, ...] | None:
        """The expert's keep after roll r with hand h, or None to score now."""
        m = self.model
        E, M = self.levels[r]
        j, k = m.dice, h
        while True:
            v = self.score[k] if j == m.dice else E[j][k]
            winner = None
            for s in m.sub_index[j][k] if j else ():
                if M[j - 1][s] > v:
                    v, winner = M[j - 1][s], s
            if winner is None:
                return None if j == m.dice else m.keeps[j][k]
            j, k = j - 1, winner


# --- the state, seen by the tables ---------------------------------------------------


def _situation(state: YamsState, tables: YamsTables):
    """(turn-start state (mask, up, p), points so far) of the player to move."""
    m = tables.model
    sheet, player = state.sheets[state.player], state.player
    mask = sum(1 << i for i, v in enumerate(sheet) if v is not None)
    upper = sum(v for i, v in enumerate(sheet) if v is not None and m.upper[i])
    lower = sum(v for i, v in enumerate(sheet) if v is not None and not m.upper[i])
    primes = state.primes[player]
    p = int(m.prime_mode and sheet[m.yam] == 50 and primes < state.rules.primes)
    total = upper + (m.bonus if upper >= m.threshold else 0) + lower + YAM_PRIME * primes
    return (mask, min(upper, m.threshold), p), total


def _resolve(tables, state) -> YamsTables:
    if not isinstance(state, YamsState):
        raise GameError("L'expert ne joue qu'au Yams.")
    return tables.tables_for(state.rules)


def advise(state: YamsState, tables) -> list[tuple[Action, float]]:
    """Every choice of the player to move with its expected final score (optimal play
    afterwards), best first; the first one is what `ExpertYamsBot` plays."""
    tables = _resolve(tables, state)
    if state.is_terminal() or state.is_chance():
        return []
    (mask, up, p), total = _situation(state, tables)
    turn = tables.turn(mask, up, p)
    m = turn.model
    if state.rolls == 0:
        return [(Roll(), total + turn.start)]
    h = m.hand_index[tuple(sorted(state.dice))]
    scores = [(Score(m.boxes[b].id), total + v) for b, v in turn.choices(h)]
    played = _decide(turn, state.rolls, h)
    if state.rolls >= m.rolls:
        advice = scores
    else:
        E, _ = turn.levels[state.rolls]
        hand = m.hands[h]
        keeps = [
            (Roll(k), total + E[len(k)][m.keep_index[len(k)][k]])
            for k in sub_multisets(hand, m.dice - 1)
        ]
        advice = scores + keeps
    advice.sort(key=lambda av: (-av[1], av[0] != played))
    return advice


def _decide(turn: Turn, rolls: int, h: int) -> Action:
    m = turn.model
    if rolls < m.rolls:
        keep = turn.best_keep(rolls, h)
        if keep is not None:
            return Roll(keep)
    return Score(m.boxes[turn.best_box(h)[0]].id)


class ExpertYamsBot:
    """Plays every decision for the best expected final score of its own sheet.

    `tables`: a `YamsTables` (from `load_tables`), or anything with a
    ``tables_for(rules)`` method such as `DirectoryTables` (the default: web/tables/).
    """

    def __init__(self, tables=None):
        self.tables = tables if tables is not None else DirectoryTables()

    def __call__(self, state: YamsState) -> Action:
        tables = _resolve(self.tables, state)
        if state.rolls == 0:
            return Roll()
        (mask, up, p), _ = _situation(state, tables)
        turn = tables.turn(mask, up, p)
        return _decide(turn, state.rolls, turn.model.hand_index[tuple(sorted(state.dice))])


# --- after the game ------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """One choice of a player, against the best one (expected final scores)."""

    roll: int  # 1..3: after which roll (3: scoring after the last one)
    dice: tuple[int, ...]
    played: Action
    played_value: float
    best: Action
    best_value: float

    @property
    def loss(self) -> float:
        return self.best_value - self.played_value

    def to_json(self) -> dict:
        return {
            "roll": self.roll, "dice": list(self.dice),
            "played": self.played.notation(), "played_value": round(self.played_value, 4),
            "best": self.best.notation(), "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
        }


@dataclass
class TurnReview:
    player: int
    turn: int  # counted from 1
    decisions: list[Decision] = field(default_factory=list)

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    def to_json(self) -> dict:
        return {"player": self.player, "turn": self.turn, "loss": round(self.loss, 4),
                "decisions": [d.to_json() for d in self.decisions]}


def analyse(match: Match, tables) -> list[TurnReview]:
    """Replay a game and review every decision of every player, turn by turn."""
    state = match.game.new_state(match.players, match.options)
    reviews: list[TurnReview] = []
    current: dict[int, TurnReview] = {}
    for action in match.history:
        if isinstance(state, YamsState) and not state.is_chance() and state.rolls > 0:
            advice = advise(state, tables)
            review = current.get(state.player)
            if review is None or review.turn != state.turn:
                review = current[state.player] = TurnReview(state.player, state.turn)
                reviews.append(review)
            played_value = next(v for a, v in advice if a == action)
            review.decisions.append(Decision(
                state.rolls, tuple(state.dice), action, played_value, advice[0][0], advice[0][1]
            ))
        state = state.apply(action)
    return reviews
