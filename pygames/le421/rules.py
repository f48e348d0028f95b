"""The rules of le 421: three dice, a pot of tokens, a charge and a décharge.

The 56 hands are ranked by a small rule (`hand_key`), not a typed-out list: 421, then
the baraque of aces (111), then fiches and baraques by their value (at equal value the
fiche first: 611 > 666 > 511 …), the suites, every other hand by its dice from the
highest, and the nénette (221) last — or, with the option *nénette à 4*, worth 4 and
ranked just below the suites.

A round: each player in turn (from the previous round's loser) throws; in the charge
one throw each (`roll`, then the dice as a chance action); in the décharge the leader
throws up to three times, keeping any dice in their places (`keep 1 4 @1,3`), and
`stop`s when he likes; the others may use as many throws as he did, no more.  Equal
hands: the one made in fewer throws is stronger; the same hand in the same number of
throws at the best or the worst place is a *rampo*, replayed one throw each from the
last tied player backwards, as often as needed.  The worst hand takes from the pot
(charge) or from the best hand (décharge) the value of the original best hand.  A
player with no token after the charge, or who gives away his last one in the
décharge, has won and leaves; the game ends when one player holds every token.

What each action did is kept in the state as typed events (`events`: `Thrown`, `Stopped`,
`Settled`, `Left`, `DechargeStarts`, `RampoStarts`, `Lost`, `NextRound`); where the player
throwing in the décharge stands is a fact too (`Le421State.standing`); their words are
pygames.le421.messages'.  Nothing in this module draws a random number: dice are chance
actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, ClassVar, Mapping, Sequence

from ..core import (
    CHANCE,
    TERMINAL,
    Action,
    Game,
    GameError,
    Option,
    Outcome,
    Player,
    PlayerEvent,
    State,
    Throw,
    Word,
    group_places,
    quote,
    replace,
)
from ..dice import CupState, Roll
from ..messages import Msg

__all__ = [
    "DICE", "DechargeStarts", "FOUR_TWO_ONE", "GAMES", "Hand", "HandInfo", "Le421",
    "Le421State", "Left", "Lost", "NENETTE", "NextRound", "RampoStarts", "Roll", "RoundResult",
    "Rules", "Settled", "Standing", "Stop", "Stopped", "THROWS", "Thrown", "hand_info", "hand_key",
    "hand_kind", "hand_rank", "hand_value", "ranked_hands", "sorted_hand",
]


DICE = 3
THROWS = 3  # the most a décharge leader may use
NENETTE = (2, 2, 1)
FOUR_TWO_ONE = (4, 2, 1)


# --- the hands -----------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """What a state needs of the options."""

    value_421: int = 10
    nenette_four: bool = False
    pot: int = 21


def sorted_hand(dice: Sequence[int]) -> tuple[int, ...]:
    """A hand as players read it: from the highest die (1-1-4 is the fiche "411")."""
    return tuple(sorted(dice, reverse=True))


def hand_kind(hand: tuple[int, ...]) -> str:
    a, b, c = hand
    if hand == FOUR_TWO_ONE:
        return "421"
    if a == b == c:
        return "baraque"
    if b == c == 1:
        return "fiche"
    if a == b + 1 == c + 2:
        return "suite"
    if hand == NENETTE:
        return "nenette"
    return "autre"


def hand_key(hand: tuple[int, ...], rules: Rules) -> tuple:
    """Sorting key, strongest first.  Fiches and baraques rank by their value, the
    fiche first at equal value; 111 (worth 7) falls in that same scale, above 611."""
    kind = hand_kind(hand)
    if kind == "421":
        return (0,)
    if kind in ("fiche", "baraque"):
        return (1, -hand_value(hand, rules), kind == "baraque")
    if kind == "suite":
        return (2, -hand[0])
    if kind == "nenette":
        return (3,) if rules.nenette_four else (5,)
    return (4, *(-d for d in hand))


def hand_value(hand: tuple[int, ...], rules: Rules) -> int:
    """Tokens a hand is worth when it is the best of a round."""
    kind = hand_kind(hand)
    if kind == "421":
        return rules.value_421
    if hand == (1, 1, 1):
        return 7
    if kind == "fiche":
        return hand[0]
    if kind == "baraque":
        return hand[0]
    if kind == "suite":
        return 2
    if kind == "nenette":
        return 4 if rules.nenette_four else 1
    return 1


@lru_cache(maxsize=None)
def ranked_hands(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The 56 hands, strongest first."""
    hands = {sorted_hand(h) for h in combinations_with_replacement(range(1, 7), DICE)}
    return tuple(sorted(hands, key=lambda h: hand_key(h, rules)))


@lru_cache(maxsize=None)
def _rank_index(rules: Rules) -> dict:
    return {h: i for i, h in enumerate(ranked_hands(rules))}


def hand_rank(dice: Sequence[int], rules: Rules) -> int:
    """1 for the strongest hand, 56 for the weakest."""
    return _rank_index(rules)[sorted_hand(dice)] + 1


@dataclass(frozen=True)
class HandInfo:
    """A hand as the table reads it: its dice high to low, rank, kind and value (its words:
    pygames.le421.messages.hand_name / hand_label)."""

    dice: tuple[int, ...]
    rank: int
    kind: str
    value: int


def hand_info(dice: Sequence[int], rules: Rules) -> HandInfo:
    hand = sorted_hand(dice)
    return HandInfo(hand, hand_rank(hand, rules), hand_kind(hand), hand_value(hand, rules))


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Stop(Word):
    """Stop on the dice shown (décharge: before the last allowed throw)."""

    verbs: ClassVar[tuple[str, ...]] = ("stop",)


# --- the state -----------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """A player's hand this round and the throws he used for it."""

    dice: tuple[int, ...]  # high to low
    throws: int


@dataclass(frozen=True)
class RoundResult:
    """What a round decided, for the page and the screen reader."""

    phase: str  # "charge" or "decharge"
    best: int
    worst: int
    best_hand: Hand
    worst_hand: Hand
    amount: int  # tokens moved to the worst hand
    rampos: int  # rampo throws rounds played to settle it
    hands: tuple[Hand | None, ...]  # every player's hand this round
    left: tuple[int, ...] = ()  # players who won and left at this round
    charge_over: bool = False
    value: int = 0  # the best hand's value: the tokens due (`amount` is less when the pot,
    # or the best hand's player in the décharge, had fewer)
    rampo_throws: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (player, hand) of each rampo
    # throw, in the order thrown

    @property
    def short(self) -> bool:
        """The pot (charge) or the giver (décharge) had fewer tokens than the value due."""
        return self.amount < self.value


@dataclass(frozen=True)
class Standing:
    """Where the player throwing in the décharge stands were he to stop on the dice shown,
    against the hands played so far this round (`Le421State.standing`).

    `to_beat`: the others holding the strongest hand so far.  `givers` and `takers`: the
    strongest and the weakest of the hands so far, his included once he has thrown (more
    than one: a rampo would settle which); `amounts`: the tokens each giver would give (the
    value due, or all he holds if fewer).  With fewer than two hands nothing would move:
    `givers`, `takers` and `amounts` are empty."""

    player: int
    hand: Hand | None  # his dice and the throws used (None before his first throw)
    to_beat: tuple[int, ...]
    to_beat_hand: Hand | None
    givers: tuple[int, ...]
    takers: tuple[int, ...]
    value: int  # the strongest hand's value (0 with fewer than two hands)
    amounts: tuple[int, ...]  # per giver
    holdings: tuple[int, ...]  # per giver, the tokens he holds

    @property
    def place(self) -> str:
        """His place among the hands so far: "" before his first throw, "first" (no other
        hand yet), "best", "worst" or "between"; a rampo is pending when he shares his
        place (`tied`)."""
        if self.hand is None:
            return ""
        if not self.givers:
            return "first"
        if self.player in self.givers:
            return "best"
        if self.player in self.takers:
            return "worst"
        return "between"

    @property
    def tied(self) -> tuple[int, ...]:
        """The others sharing his place, best or worst (a rampo would settle it)."""
        group = {"best": self.givers, "worst": self.takers}.get(self.place, ())
        return tuple(p for p in group if p != self.player)

    def gives_all(self, giver: int) -> bool:
        """`giver` (one of `givers`) would give his last tokens, and so have won."""
        i = self.givers.index(giver)
        return self.amounts[i] == self.holdings[i]


# --- what an action did: typed events (their words: pygames.le421.messages) ---------


@dataclass(frozen=True)
class _HandEvent(PlayerEvent):
    """A fact about a player's hand and the throws he has used for it."""

    hand: tuple[int, ...]
    throws: int


class Thrown(_HandEvent):
    """A player's dice landed: his hand and the throws he has used."""


class Stopped(_HandEvent):
    """A player stopped on his hand (décharge) after `throws` throws."""


@dataclass(frozen=True)
class Settled:
    """The round is decided (see `RoundResult`)."""

    result: RoundResult


@dataclass(frozen=True)
class Left:
    """These players have no token left: they won and leave."""

    players: tuple[int, ...]


@dataclass(frozen=True)
class DechargeStarts:
    """The pot is empty: the décharge begins, `leader` leads."""

    leader: int


@dataclass(frozen=True)
class RampoStarts:
    """A rampo settles the best or the worst place ("best", "worst") between `players`."""

    place: str
    players: tuple[int, ...]


class Lost(PlayerEvent):
    """`player` holds every token: he has lost, the game is over."""


@dataclass(frozen=True)
class NextRound:
    """`leader` starts the next round."""

    leader: int


@dataclass(frozen=True)
class Le421State(CupState, State):
    CUP_SIZE: ClassVar[int] = DICE
    CUP_AIR: ClassVar[str] = "rolling"
    rules: Rules = field(repr=False)
    tokens: tuple[int, ...]
    pot: int
    left: tuple[tuple[int, ...], ...] = ()  # players who won, grouped, in the order they left
    decharge: bool = False
    round: int = 1
    round_order: tuple[int, ...] = ()  # who plays this round, from its leader
    order: tuple[int, ...] = ()  # who throws now: the round's players, or a rampo's
    turn: int = 0  # index in `order`
    limit: int = 1  # throws the current player may use
    throws: int = 0  # throws he has used
    dice: tuple[int, ...] = ()  # on the table, in their places
    rolling: tuple[int, ...] = ()  # places of the dice in the air
    kept: tuple[int, ...] = ()  # places kept at the last throw
    hands: tuple[Hand | None, ...] = ()  # per player, this round
    rampo: str = ""  # "", "best" or "worst": which place a rampo is settling
    rampos: int = 0  # rampos played this round
    rampo_hands: tuple[tuple[tuple[int, ...], ...], ...] = ()  # per player, his rampo throws
    rampo_throws: tuple[tuple[int, tuple[int, ...]], ...] = ()  # (player, hand), in order
    last: RoundResult | None = None
    events: tuple = ()  # what the last action did: typed events (Thrown, Settled, …)
    loser: int | None = None

    # protocol

    def current_player(self) -> int:
        if self.loser is not None:
            return TERMINAL
        if self.rolling:
            return CHANCE
        return self.order[self.turn]

    def thrower(self) -> int:
        return self.order[self.turn]

    def player_actions(self) -> list[Action]:
        if self.throws == 0:
            return [Roll()]
        return [*self.cup.keeps(), Stop()]  # throws < limit: a full hand ends by itself

    def why_illegal(self, action: Action) -> Msg:
        if isinstance(action, (Roll, Stop)) and not self.is_terminal() and not self.is_chance():
            if self.throws == 0:
                return Msg("421.error.roll_first")
            if isinstance(action, Roll):
                if len(action.keep) >= DICE:
                    return Msg("421.error.reroll_one")
                return Msg("error.keep_not_on_table")
        return super().why_illegal(action)

    def apply(self, action: Action) -> "Le421State":
        self.check_legal(action)
        player = self.current_player()
        if isinstance(action, Roll):
            cup = self.cup.roll(action)
            kept = tuple(p for p in range(DICE) if p not in cup.rolling)
            return replace(self, throws=self.throws + 1, rolling=cup.rolling, kept=kept, events=())
        if isinstance(action, Throw):
            roller = self.order[self.turn]
            dice = self.cup.land(action.faces).dice
            state = replace(self, dice=dice, rolling=(),
                            events=(Thrown(roller, sorted_hand(dice), self.throws),))
            return state._finish_hand() if state.throws >= state.limit else state
        assert isinstance(action, Stop)
        state = replace(self, events=(Stopped(player, sorted_hand(self.dice), self.throws),))
        return state._finish_hand()

    def throw_key(self) -> tuple:
        """The round (charge or décharge), the rampo, the thrower and his throw in the round."""
        thrower = self.order[self.turn] if self.turn < len(self.order) else -1
        return ("421", self.decharge, self.round, self.rampos, thrower, self.throws)

    def scores(self) -> list[int]:
        """Minus the tokens held: every token is a step towards losing."""
        return [-t for t in self.tokens]

    def ranking(self) -> list[list[int]]:
        """Winners in the order they left, then the others by tokens held."""
        places = [list(group) for group in self.left]
        out = {p for group in self.left for p in group}
        rest = (p for p in range(len(self.tokens)) if p not in out)
        return places + group_places(rest, lambda p: self.tokens[p])

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        ranking = tuple(tuple(place) for place in self.ranking())
        # Never a draw: somebody always holds every token in the end.
        return Outcome("tokens", ranking, ranking[0], (self.loser,), False, tuple(self.scores()),
                       {"loser": self.loser, "tokens": self.tokens[self.loser]})

    # what the page draws

    @property
    def phase(self) -> str:
        """"charge", "decharge" or "rampo"."""
        if self.rampo:
            return "rampo"
        return "decharge" if self.decharge else "charge"

    @property
    def leader(self) -> int:
        return self.round_order[0]

    def active(self) -> list[int]:
        """Players still in the game (not yet winners)."""
        out = {p for group in self.left for p in group}
        return [p for p in range(len(self.tokens)) if p not in out]

    def hand_infos(self) -> list[HandInfo | None]:
        """Each player's hand this round, with its rank, name and value."""
        return [None if h is None else hand_info(h.dice, self.rules) for h in self.hands]

    def standing(self) -> Standing | None:
        """In the décharge (not in a rampo), where the player throwing stands were he to
        stop on the dice shown: the hands so far compared as the round's end compares them
        (the hand, then the fewer throws), and the tokens that would move."""
        if not self.decharge or self.rampo or self.is_terminal() or self.rolling:
            return None
        player = self.order[self.turn]
        hand = Hand(sorted_hand(self.dice), self.throws) if self.throws else None
        played = {p: self.hands[p] for p in self.round_order if self.hands[p] is not None and p != player}
        index = _rank_index(self.rules)

        def key(h: Hand) -> tuple[int, int]:
            return index[h.dice], h.throws

        to_beat: tuple[int, ...] = ()
        if played:
            top = min(key(h) for h in played.values())
            to_beat = tuple(p for p in played if key(played[p]) == top)
        to_beat_hand = played[to_beat[0]] if to_beat else None
        if hand is not None:
            played[player] = hand
        if len(played) < 2:
            return Standing(player, hand, to_beat, to_beat_hand, (), (), 0, (), ())
        keys = {p: key(h) for p, h in played.items()}
        best, worst = min(keys.values()), max(keys.values())
        givers = tuple(p for p in self.round_order if p in keys and keys[p] == best)
        takers = tuple(p for p in self.round_order if p in keys and keys[p] == worst)
        value = hand_value(played[givers[0]].dice, self.rules)
        holdings = tuple(self.tokens[p] for p in givers)
        return Standing(player, hand, to_beat, to_beat_hand, givers, takers, value,
                        tuple(min(value, t) for t in holdings), holdings)

    # the round's mechanics

    def _finish_hand(self) -> "Le421State":
        p = self.order[self.turn]
        hand = sorted_hand(self.dice)
        if self.rampo:
            rampo_hands = list(self.rampo_hands)
            rampo_hands[p] = rampo_hands[p] + (hand,)
            state = replace(self, rampo_hands=tuple(rampo_hands),
                            rampo_throws=self.rampo_throws + ((p, hand),))
        else:
            hands = list(self.hands)
            hands[p] = Hand(hand, self.throws)
            state = replace(self, hands=tuple(hands))
        if state.turn + 1 < len(state.order):
            limit = 1
            if state.decharge and not state.rampo:
                limit = state.hands[state.order[0]].throws  # what the leader used
            return replace(state, turn=state.turn + 1, limit=limit, throws=0, dice=(), kept=())
        return state._settle()

    def _key(self, p: int) -> tuple:
        """Lower is stronger: the hand, its throws (décharge), then the rampo throws."""
        index = _rank_index(self.rules)
        hand = self.hands[p]
        return (index[hand.dice], hand.throws if self.decharge else 0,
                *(index[h] for h in self.rampo_hands[p]))

    def _settle(self) -> "Le421State":
        keys = {p: self._key(p) for p in self.round_order}
        best_key, worst_key = min(keys.values()), max(keys.values())
        best = [p for p in self.round_order if keys[p] == best_key]
        worst = [p for p in self.round_order if keys[p] == worst_key]
        # In the charge the tokens come from the pot: who is best does not matter.
        if self.decharge and len(best) > 1:
            return self._start_rampo("best", best)
        if len(worst) > 1:
            return self._start_rampo("worst", worst)
        return self._transfer(best[0], worst[0])

    def _start_rampo(self, place: str, group: list[int]) -> "Le421State":
        return replace(
            self, rampo=place, rampos=self.rampos + 1, order=tuple(reversed(group)), turn=0,
            limit=1, throws=0, dice=(), kept=(),
            events=self.events + (RampoStarts(place, tuple(group)),),
        )

    def _transfer(self, best: int, worst: int) -> "Le421State":
        value = hand_value(self.hands[best].dice, self.rules)
        tokens = list(self.tokens)
        pot = self.pot
        if self.decharge:
            amount = min(value, tokens[best])
            tokens[best] -= amount
        else:
            amount = min(value, pot)
            pot -= amount
        tokens[worst] += amount
        left = self.left
        gone: tuple[int, ...] = ()
        loser = None
        decharge = self.decharge
        events = self.events
        charge_over = not self.decharge and pot == 0
        if charge_over:
            gone = tuple(p for p in range(len(tokens)) if tokens[p] == 0)
            decharge = True
        elif self.decharge and tokens[best] == 0:
            gone = (best,)
        result = RoundResult(
            phase="decharge" if self.decharge else "charge", best=best, worst=worst,
            best_hand=self.hands[best], worst_hand=self.hands[worst], amount=amount,
            rampos=self.rampos, hands=self.hands, left=gone, charge_over=charge_over,
            value=value, rampo_throws=self.rampo_throws,
        )
        events += (Settled(result),)
        if gone:
            left = left + (gone,)
            events += (Left(gone),)
        out = {p for group in left for p in group}
        active = [p for p in range(len(tokens)) if p not in out]
        if len(active) == 1:
            loser = active[0]
            events += (Lost(loser),)
        elif charge_over:
            events += (DechargeStarts(worst),)
        else:
            events += (NextRound(worst),)
        state = replace(self, tokens=tuple(tokens), pot=pot, left=left, decharge=decharge,
                        last=result, events=events, loser=loser)
        if loser is not None:
            return replace(state, rampo="", dice=(), kept=(), throws=0)
        return state._new_round(worst, round_number=self.round + 1)

    def _new_round(self, leader: int, round_number: int) -> "Le421State":
        active = self.active()
        n = len(self.tokens)
        order = tuple((leader + k) % n for k in range(n) if (leader + k) % n in active)
        return replace(
            self, round=round_number, round_order=order, order=order, turn=0,
            limit=THROWS if self.decharge else 1, throws=0, dice=(), rolling=(), kept=(),
            hands=(None,) * n, rampo="", rampos=0, rampo_hands=((),) * n, rampo_throws=(),
        )


# --- the game ------------------------------------------------------------------------


class Le421(Game):
    id = "421"
    family = "421"
    min_players = 2
    max_players = 6
    default_players = ((None, "human"), (None, "simple"))
    max_dice = DICE
    options = (
        Option("value_421", 10, (10, 8)),
        Option("nenette_four", False),
        Option("pot", 21, (21, 11, 41)),
    )
    actions = (Roll, Stop)
    seats = ("human", "naive", "simple", "expert")

    def rules(self, options: Mapping[str, Any] | None = None) -> Rules:
        options = self.resolve_options(options)
        return Rules(options["value_421"], options["nenette_four"], options["pot"])

    def check_start(self, start, players, options):
        """{"pot": P, "tokens": [..], "leader": i (optional)}: a game begun on paper."""
        rules = self.rules(options)
        n = len(players)
        if not isinstance(start, dict):
            raise GameError("421.start.not_object")
        unknown = sorted(set(map(str, start)) - {"pot", "tokens", "leader"})
        if unknown:
            raise GameError("start.unknown_key", key=quote(unknown[0]))
        pot, tokens, leader = start.get("pot"), start.get("tokens"), start.get("leader", 0)
        if type(pot) is not int or pot < 0:
            raise GameError("421.start.pot")
        if not isinstance(tokens, list) or len(tokens) != n:
            raise GameError("421.start.tokens_count", n=n)
        if not all(type(t) is int and t >= 0 for t in tokens):
            raise GameError("421.start.tokens_type")
        if pot + sum(tokens) != rules.pot:
            raise GameError("421.start.total", total=pot + sum(tokens), pot=rules.pot)
        if type(leader) is not int or not 0 <= leader < n:
            raise GameError("421.start.leader")
        if pot == 0:
            if sum(1 for t in tokens if t) < 2:
                raise GameError("421.start.all_tokens")
            if tokens[leader] == 0:
                raise GameError("421.start.leader_tokens")
        return {"pot": pot, "tokens": list(tokens), "leader": leader}

    def new_state(self, players: Sequence[Player], options: Mapping[str, Any], start: Any = None) -> Le421State:
        self.check_players(players)
        rules = self.rules(options)
        n = len(players)
        if start is None:
            start = {"pot": rules.pot, "tokens": [0] * n, "leader": 0}
        else:
            start = self.check_start(start, players, options)
        tokens = tuple(start["tokens"])
        decharge = start["pot"] == 0
        left = ()
        if decharge:
            gone = tuple(p for p in range(n) if tokens[p] == 0)
            left = (gone,) if gone else ()
        state = Le421State(rules=rules, tokens=tokens, pot=start["pot"], left=left, decharge=decharge)
        return state._new_round(start["leader"], round_number=1)


GAMES = (Le421(),)
