"""Le 421: three dice, a pot of tokens, a charge and a décharge.

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

Computer players (`bot`): "naive" rolls once and stops; "simple" keeps the dice of a
421 or a fiche and stops on a good hand or on a hand that beats the round so far;
"expert" plays the décharge by expectation of tokens shed (given away, minus received)
in the round:

* Two players, exactly.  The follower knows the hand it must beat (the leader's, and
  in how many throws); for every hand it may hold and throws used it compares stopping
  with each keep, by the expectation over the dice of the best it can do afterwards
  (`follower_values`, dynamic programming over the 56 hands and the throws left).  A
  tie goes to a rampo, which each side wins with probability 1/2 (both throw one hand
  from the same distribution, ties replayed), so a tie is worth exactly
  ½·(what the follower gives as best) − ½·(what it receives as worst).  The leader
  compares stopping (then the follower plays exactly as above) with each keep, over
  the throws he has left (`leader_values`).  All of it is cached per ruleset and per
  token caps (a value is capped by what the best hand's holder has), so a decision is
  a few table look-ups once the first one at a given pair of caps has run.
* More players, an approximation of the same idea.  A follower plays the same dynamic
  programme against the round so far: beating the strongest hand so far counts as
  being best (it sheds its own value), falling below the weakest hand so far counts as
  being worst (it receives the strongest hand's value from its holder), anything in
  between counts 0, and a tie at either end counts half.  Players still to throw are
  ignored.  The leader plays as in a two-player décharge against one follower holding
  as many tokens as the richest other player.

Nothing in this module draws a random number: dice are chance actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement, product
from operator import itemgetter, mul
from typing import Any, ClassVar, Mapping, Sequence

from .core import (
    Word,
    CHANCE,
    TERMINAL,
    Action,
    Family,
    Game,
    GameError,
    IllegalAction,
    Option,
    Outcome,
    Player,
    State,
    Throw,
    join_names,
    plural,
    quote,
    replace,
)
from .dice import Cup, Roll, rolls, sub_multisets

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


def hand_name(hand: tuple[int, ...]) -> str:
    """The hand's French name: "421", "fiche de 4", "baraque de 6", "suite 654", …"""
    kind = hand_kind(hand)
    digits = "".join(map(str, hand))
    if kind == "baraque":
        return "baraque d'as" if hand[0] == 1 else f"baraque de {hand[0]}"
    if kind == "fiche":
        return f"fiche de {hand[0]}"
    if kind == "suite":
        return f"suite {digits}"
    return {"421": "421", "nenette": "nénette", "autre": "autre"}[kind]


def hand_label(hand: tuple[int, ...]) -> str:
    """The name said at the table: the dice for an ordinary hand ("653")."""
    return "".join(map(str, hand)) if hand_kind(hand) == "autre" else hand_name(hand)


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
    dice: tuple[int, ...]
    rank: int
    kind: str
    name: str
    label: str
    value: int


def hand_info(dice: Sequence[int], rules: Rules) -> HandInfo:
    hand = sorted_hand(dice)
    return HandInfo(hand, hand_rank(hand, rules), hand_kind(hand), hand_name(hand),
                    hand_label(hand), hand_value(hand, rules))


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

    phase: str  # "charge" or "décharge"
    best: int
    worst: int
    best_hand: Hand
    worst_hand: Hand
    amount: int  # tokens moved to the worst hand
    rampos: int  # rampo throws rounds played to settle it
    hands: tuple[Hand | None, ...]  # every player's hand this round
    left: tuple[int, ...] = ()  # players who won and left at this round
    charge_over: bool = False

    def sentence(self, names: Sequence[str]) -> str:
        worst = f"{names[self.worst]} ({hand_label(self.worst_hand.dice)})"
        best = f"{names[self.best]} ({hand_label(self.best_hand.dice)})"
        tokens = plural(self.amount, "jeton")
        if self.phase == "charge":
            text = f"{worst} prend {tokens} au pot, meilleure main : {best}"
        else:
            text = f"{worst} reçoit {tokens} de {best}"
        if self.rampos:
            text += " après un rampo" if self.rampos == 1 else f" après {self.rampos} rampos"
        return text + "."


@dataclass(frozen=True)
class Le421State(State):
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
    last: RoundResult | None = None
    events: tuple[tuple, ...] = ()  # what the last action did (see describe_last_event)
    loser: int | None = None

    # protocol

    def current_player(self) -> int:
        if self.loser is not None:
            return TERMINAL
        if self.rolling:
            return CHANCE
        return self.order[self.turn]

    def dice_to_throw(self) -> int:
        return len(self.rolling)

    def legal_actions(self) -> list[Action]:
        who = self.current_player()
        if who == TERMINAL:
            return []
        if who == CHANCE:
            return [Throw(f) for f in product(range(1, 7), repeat=len(self.rolling))]
        if self.throws == 0:
            return [Roll()]
        return [*self.cup.keeps(), Stop()]  # throws < limit: a full hand ends by itself

    @property
    def cup(self) -> Cup:
        return Cup(DICE, self.dice, self.rolling)

    def check_legal(self, action: Action) -> None:
        super().check_legal(action)
        if isinstance(action, Roll) and action.positions is not None:
            self.cup.kept_places(action)

    def why_illegal(self, action: Action) -> str:
        if isinstance(action, (Roll, Stop)) and not self.is_terminal() and not self.is_chance():
            if self.throws == 0:
                return "Lancez d'abord les dés (« roll »)."
            if isinstance(action, Roll):
                if len(action.keep) >= DICE:
                    return "Il faut relancer au moins un dé (ou « stop »)."
                return "On ne peut garder que des dés qui sont sur la table."
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
                            events=(("throw", roller, sorted_hand(dice), self.throws),))
            return state._finish_hand() if state.throws >= state.limit else state
        assert isinstance(action, Stop)
        state = replace(self, events=(("stop", player, sorted_hand(self.dice), self.throws),))
        return state._finish_hand()

    def scores(self) -> list[int]:
        """Minus the tokens held: every token is a step towards losing."""
        return [-t for t in self.tokens]

    def ranking(self) -> list[list[int]]:
        """Winners in the order they left, then the others by tokens held."""
        places = [list(group) for group in self.left]
        out = {p for group in self.left for p in group}
        rest = sorted((p for p in range(len(self.tokens)) if p not in out), key=lambda p: self.tokens[p])
        for p in rest:
            if places and len(places) > len(self.left) and self.tokens[places[-1][0]] == self.tokens[p]:
                places[-1].append(p)
            else:
                places.append([p])
        return places

    def outcome(self, names: Sequence[str]) -> Outcome | None:
        if not self.is_terminal():
            return None
        ranking = tuple(tuple(place) for place in self.ranking())
        reason = f"{names[self.loser]} a tous les jetons : il a perdu."
        # Never a draw: somebody always holds every token in the end.
        return Outcome(ranking, ranking[0], (self.loser,), False, reason)

    # what the page draws

    @property
    def phase(self) -> str:
        """"charge", "décharge" or "rampo"."""
        if self.rampo:
            return "rampo"
        return "décharge" if self.decharge else "charge"

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

    def result_sentence(self, names: Sequence[str]) -> str:
        return "" if self.last is None else self.last.sentence(names)

    def describe_last_event(self, names: Sequence[str]) -> str:
        """The last action's effect in French, for a screen reader."""
        parts = []
        for event in self.events:
            kind = event[0]
            if kind in ("throw", "stop"):
                _, p, hand, throws = event
                dice = " ".join(map(str, hand))
                if kind == "throw":
                    parts.append(f"{names[p]} lance : {dice} ({hand_label(hand)}).")
                else:
                    parts.append(f"{names[p]} s'arrête sur {hand_label(hand)} en {plural(throws, 'coup')}.")
            elif kind == "result":
                parts.append(self.last.sentence(names))
            elif kind == "left":
                who = [names[p] for p in event[1]]
                verb = "n'a plus de jetons : il a gagné" if len(who) == 1 else "n'ont plus de jetons : ils ont gagné"
                parts.append(f"{join_names(who)} {verb}.")
            elif kind == "decharge":
                parts.append(f"Le pot est vide : la décharge commence, {names[event[1]]} mène.")
            elif kind == "rampo":
                _, place, group = event
                where = "la meilleure" if place == "best" else "la pire"
                parts.append(f"Rampo pour {where} place entre {join_names([names[p] for p in group])}.")
            elif kind == "lost":
                parts.append(f"{names[event[1]]} a tous les jetons : il a perdu.")
            elif kind == "round":
                parts.append(f"{names[event[1]]} commence le tour suivant.")
        return " ".join(parts)

    # the round's mechanics

    def _finish_hand(self) -> "Le421State":
        p = self.order[self.turn]
        hand = sorted_hand(self.dice)
        if self.rampo:
            rampo_hands = list(self.rampo_hands)
            rampo_hands[p] = rampo_hands[p] + (hand,)
            state = replace(self, rampo_hands=tuple(rampo_hands))
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
            events=self.events + (("rampo", place, tuple(group)),),
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
        events = self.events + (("result",),)
        charge_over = not self.decharge and pot == 0
        if charge_over:
            gone = tuple(p for p in range(len(tokens)) if tokens[p] == 0)
            decharge = True
        elif self.decharge and tokens[best] == 0:
            gone = (best,)
        if gone:
            left = left + (gone,)
            events += (("left", gone),)
        out = {p for group in left for p in group}
        active = [p for p in range(len(tokens)) if p not in out]
        if len(active) == 1:
            loser = active[0]
            events += (("lost", loser),)
        elif charge_over:
            events += (("decharge", worst),)
        else:
            events += (("round", worst),)
        result = RoundResult(
            phase="décharge" if self.decharge else "charge", best=best, worst=worst,
            best_hand=self.hands[best], worst_hand=self.hands[worst], amount=amount,
            rampos=self.rampos, hands=self.hands, left=gone, charge_over=charge_over,
        )
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
            hands=(None,) * n, rampo="", rampos=0, rampo_hands=((),) * n,
        )


# --- the game ------------------------------------------------------------------------


class Le421(Game):
    id = "421"
    title = "Le 421"
    family = "421"
    summary = "Trois dés, un pot de jetons : la charge puis la décharge ; le dernier à garder des jetons perd."
    min_players = 2
    max_players = 6
    default_players = (("Joueur 1", "human"), ("Ordinateur", "simple"))
    max_dice = DICE
    options = (
        Option("value_421", "Le 421 vaut", 10, (10, 8)),
        Option("nenette_four", "Nénette à 4 (classée juste après les suites)", False),
        Option("pot", "Jetons au pot", 21, (21, 11, 41)),
    )
    actions = (Roll, Stop)
    seats = {
        "human": "Humain",
        "naive": "Ordinateur (débutant)",
        "simple": "Ordinateur (facile)",
        "expert": "Ordinateur (expert)",
    }

    def rules(self, options: Mapping[str, Any] | None = None) -> Rules:
        options = self.resolve_options(options)
        return Rules(options["value_421"], options["nenette_four"], options["pot"])

    def check_start(self, start, players, options):
        """{"pot": P, "tokens": [..], "leader": i (optional)}: a game begun on paper."""
        rules = self.rules(options)
        n = len(players)
        if not isinstance(start, dict):
            raise GameError("Position de départ : un objet {\"pot\": …, \"tokens\": […]} est attendu.")
        unknown = sorted(set(map(str, start)) - {"pot", "tokens", "leader"})
        if unknown:
            raise GameError(f"Position de départ : clé inconnue « {quote(unknown[0])} ».")
        pot, tokens, leader = start.get("pot"), start.get("tokens"), start.get("leader", 0)
        if type(pot) is not int or pot < 0:
            raise GameError("Position de départ : le pot doit être un nombre entier de jetons (≥ 0).")
        if not isinstance(tokens, list) or len(tokens) != n:
            raise GameError(f"Position de départ : il faut les jetons de chacun des {n} joueurs.")
        if not all(type(t) is int and t >= 0 for t in tokens):
            raise GameError("Position de départ : des nombres entiers de jetons (≥ 0) sont attendus.")
        if pot + sum(tokens) != rules.pot:
            raise GameError(f"Position de départ : pot et jetons font {pot + sum(tokens)}, "
                            f"il en faut {rules.pot}.")
        if type(leader) is not int or not 0 <= leader < n:
            raise GameError("Position de départ : le joueur qui commence est inconnu.")
        if pot == 0:
            if sum(1 for t in tokens if t) < 2:
                raise GameError("Position de départ : un joueur a déjà tous les jetons.")
            if tokens[leader] == 0:
                raise GameError("Position de départ : celui qui commence la décharge doit avoir des jetons.")
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

    def bot(self, seat, tables=None):
        if seat == "naive":
            return naive_bot
        if seat == "simple":
            return simple_bot
        if seat == "expert":
            return expert_bot
        return super().bot(seat, tables)

    def render_text(self, state, names):
        return render_table(state, names)


def render_table(state: Le421State, names: Sequence[str]) -> str:
    """The table for a terminal: pot, tokens, this round's hands, the dice."""
    phase = state.phase + (f" ({'meilleure' if state.rampo == 'best' else 'pire'} place)" if state.rampo else "")
    lines = [f"Le 421 — {phase}, tour {state.round} — pot : {state.pot}"]
    out = {p for group in state.left for p in group}
    current = state.current_player()
    for p, name in enumerate(names):
        mark = "▶" if p == current else " "
        hand = state.hands[p] if state.hands else None
        text = f"{mark} {name[:16]:16} {plural(state.tokens[p], 'jeton'):>10}"
        if p in out:
            text += "  (gagné, sorti)"
        elif hand is not None:
            info = hand_info(hand.dice, state.rules)
            text += f"  {info.label} (vaut {info.value}, {plural(hand.throws, 'coup')})"
            if state.rampo_hands[p]:
                text += "  rampo : " + " ".join("".join(map(str, h)) for h in state.rampo_hands[p])
        lines.append(text)
    if state.dice and not state.is_terminal():
        kept = "".join("*" if i in state.kept else " " for i in range(len(state.dice)))
        shown = "  ".join(f"{d}{k}" for d, k in zip(state.dice, kept))
        label = hand_label(sorted_hand(state.dice)) if not state.rolling else "…"
        lines.append(f"Dés : {shown}  {label}  (coup {state.throws}/{state.limit}; * = gardé)")
    if state.last is not None:
        lines.append("Dernier tour : " + state.last.sentence(names))
    return "\n".join(lines)


# --- computer players ----------------------------------------------------------------


def naive_bot(state: Le421State) -> Action:
    """Never keeps a die: one throw, then stop."""
    return Roll() if state.throws == 0 else Stop()


def _strongest_so_far(state: Le421State, exclude: int) -> tuple | None:
    """Key (rank index, throws) of the strongest hand already made this round."""
    index = _rank_index(state.rules)
    keys = [(index[h.dice], h.throws) for p, h in enumerate(state.hands) if h is not None and p != exclude]
    return min(keys) if keys else None


def _weakest_so_far(state: Le421State, exclude: int) -> tuple | None:
    index = _rank_index(state.rules)
    keys = [(index[h.dice], h.throws) for p, h in enumerate(state.hands) if h is not None and p != exclude]
    return max(keys) if keys else None


def simple_bot(state: Le421State) -> Action:
    """Keeps what leads to a 421 or a fiche; stops on a hand worth 4 or more, or (after
    the leader) on a hand that beats every hand so far."""
    if state.throws == 0:
        return Roll()
    hand = sorted_hand(state.dice)
    rules = state.rules
    me = state.current_player()
    best = _strongest_so_far(state, me)
    index = _rank_index(rules)
    if hand_value(hand, rules) >= 4:
        return Stop()
    if best is not None and (index[hand], state.throws) < best:
        return Stop()
    ones = hand.count(1)
    if ones >= 2:
        keep = (1, 1)
    else:
        keep = tuple(sorted({d for d in hand if d in (1, 2, 4)}))
    return Roll(keep)


# The expert: exact expectations over the 56 hands (see the module docstring).


@dataclass(frozen=True)
class _Tables:
    """Per ruleset: hands by strength, their values, how each keep lands."""

    values: tuple[int, ...]  # by rank index
    first: tuple[float, ...]  # probability of each hand in one throw of three dice
    keeps: tuple[tuple[int, ...], ...]  # every keep (0 to 2 dice, ascending faces)
    lands: tuple[tuple[tuple[int, float], ...], ...]  # per keep: (hand index, probability)
    hand_keeps: tuple[tuple[int, ...], ...]  # per hand index: its keeps (indices)


@lru_cache(maxsize=None)
def _tables(rules: Rules) -> _Tables:
    hands = ranked_hands(rules)
    index = _rank_index(rules)
    keeps = tuple(k for size in range(DICE) for k in combinations_with_replacement(range(1, 7), size))
    keep_id = {k: i for i, k in enumerate(keeps)}
    lands = []
    for keep in keeps:
        dist: dict[int, float] = {}
        for faces, p in rolls(DICE - len(keep)):
            h = index[sorted_hand(keep + faces)]
            dist[h] = dist.get(h, 0.0) + p
        lands.append(tuple(sorted(dist.items())))
    first = [0.0] * len(hands)
    for h, p in lands[0]:
        first[h] = p
    hand_keeps = tuple(
        tuple(keep_id[k] for k in sub_multisets(tuple(sorted(h)), DICE - 1)) for h in hands
    )
    return _Tables(tuple(hand_value(h, rules) for h in hands), tuple(first), keeps,
                   tuple(lands), hand_keeps)


def _continuations(t: _Tables, after: Sequence[float]) -> list[float]:
    """For each keep: the expected value of `after` once the other dice land."""
    return [sum(p * after[h] for h, p in land) for land in t.lands]


@lru_cache(maxsize=200_000)
def follower_values(rules: Rules, best: tuple, worst: tuple, limit: int, cap_own: int, cap_best: int):
    """A follower's expected tokens shed, by throws used (1..limit) and hand index.

    `best` / `worst` are the (rank index, throws) keys of the strongest / weakest hands
    so far (the leader's, twice, in a two-player round); `cap_own` is what the follower
    holds, `cap_best` what the holder of `best` holds.  Returns (values, conts): values[j]
    per hand, conts[j] the expectation of each keep at throw j (None at the limit)."""
    t = _tables(rules)

    def stop_value(h: int, j: int) -> float:
        return _follower_stop(t, best, worst, h, j, cap_own, cap_best)

    n = len(t.values)
    values: list = [None] * (limit + 1)
    conts: list = [None] * (limit + 1)
    values[limit] = tuple(stop_value(h, limit) for h in range(n))
    for j in range(limit - 1, 0, -1):
        cont = _continuations(t, values[j + 1])
        conts[j] = tuple(cont)
        values[j] = tuple(
            max(stop_value(h, j), max(cont[k] for k in t.hand_keeps[h])) for h in range(n)
        )
    return tuple(values), tuple(conts)


def follower_expectation(rules: Rules, best: tuple, worst: tuple, limit: int, cap_own: int, cap_best: int) -> float:
    """Expected tokens shed by a follower who has not thrown yet."""
    values, _ = follower_values(rules, best, worst, limit, cap_own, cap_best)
    return sum(p * v for p, v in zip(_tables(rules).first, values[1]))


@lru_cache(maxsize=4096)
def leader_values(rules: Rules, cap_own: int, cap_other: int):
    """A two-player décharge leader's expected tokens shed, by throws used and hand.

    Stopping on hand r after k throws gives the follower the target (r, k); the leader
    sheds what the follower receives (zero-sum), so stop[k][r] is minus the follower's
    exact expectation.  Computing that for all 56 × 3 targets is the costly part, done
    once per ruleset and caps: the follower's last throw pays a threshold function of
    its rank (win above r, tie at r, loss below), so the expectation of each keep over
    it is read from prefix sums; only the follower's first throw of three needs a full
    pass over the hands.  Returns (stop, values, conts) indexed like follower_values."""
    t = _tables(rules)
    n = len(t.values)
    win = [min(v, cap_other) for v in t.values]  # what the follower sheds as best
    loss = [min(v, cap_own) for v in t.values]  # what it receives from a best hand r
    tie = [0.5 * win[r] - 0.5 * loss[r] for r in range(n)]
    lands = t.lands
    # Per keep, over the follower's hand index: P(h < r)·win summed, P(h = r), P(h > r).
    below_win, at, above = [], [], []
    for land in lands:
        dense = [0.0] * n
        for h, p in land:
            dense[h] = p
        acc_win, acc_p, bw, ab = 0.0, 0.0, [], []
        for r in range(n):
            bw.append(acc_win)
            acc_win += dense[r] * win[r]
            acc_p += dense[r]
            ab.append(1.0 - acc_p)
        below_win.append(bw)
        at.append(dense)
        above.append(ab)
    keep_range = range(len(lands))
    hand_keeps = t.hand_keeps
    first = t.first
    # itemgetters: a keep's outcomes, a hand's keeps (the inner loops of the 56 passes)
    land_get = [(itemgetter(*(h for h, _ in land)), tuple(p for _, p in land)) for land in lands]
    keeps_get = [itemgetter(*keeps) for keeps in hand_keeps]
    hands = range(n)
    stop = [None, [], [], []]
    for r in range(n):
        tie_r, loss_r = tie[r], loss[r]
        # The follower's expected shed on a throw that is his last (throws == k).
        last = [below_win[k][r] + at[k][r] * tie_r - above[k][r] * loss_r for k in keep_range]
        stop[1].append(-last[0])  # k = 1: one throw, nothing to decide
        # k = 2, the follower at throw 1 (equal hand in fewer throws wins: h <= r).
        v2 = [max(win[h] if h <= r else -loss_r, max(keeps_get[h](last))) for h in hands]
        stop[2].append(-sum(map(mul, first, v2)))
        # k = 3: throw 2 is as above (v2); throw 1 looks over v2 in full.
        cont = [sum(map(mul, probs, get(v2))) for get, probs in land_get]
        v1 = [max(win[h] if h <= r else -loss_r, max(keeps_get[h](cont))) for h in hands]
        stop[3].append(-sum(map(mul, first, v1)))
    stop = [None] + [tuple(s) for s in stop[1:]]
    values: list = [None] * (THROWS + 1)
    conts: list = [None] * (THROWS + 1)
    values[THROWS] = stop[THROWS]
    for j in range(THROWS - 1, 0, -1):
        cont = _continuations(t, values[j + 1])
        conts[j] = tuple(cont)
        values[j] = tuple(max(stop[j][h], max(cont[k] for k in hand_keeps[h])) for h in range(n))
    return tuple(stop), tuple(values), tuple(conts)


def _choose(t: _Tables, h: int, stop_value: float, cont: Sequence[float]) -> Action:
    """Stop unless a keep does strictly better (the first best keep otherwise)."""
    best_action: Action = Stop()
    best_value = stop_value
    for k in t.hand_keeps[h]:
        if cont[k] > best_value + 1e-12:
            best_action, best_value = Roll(t.keeps[k]), cont[k]
    return best_action


def expert_choice(state: Le421State) -> tuple[Action, dict]:
    """The expert's action and the expectation of each choice (for tests and advice)."""
    if state.throws == 0:
        return Roll(), {}
    rules = state.rules
    t = _tables(rules)
    me = state.current_player()
    h = _rank_index(rules)[sorted_hand(state.dice)]
    top = max(t.values)
    cap_own = min(state.tokens[me], top)
    if state.turn == 0:  # the leader
        others = [state.tokens[p] for p in state.round_order if p != me]
        stop, _values, conts = leader_values(rules, cap_own, min(max(others), top))
        stop_value, cont = stop[state.throws][h], conts[state.throws]
    else:
        best = _strongest_so_far(state, me)
        worst = _weakest_so_far(state, me)
        holder = next(p for p, hand in enumerate(state.hands)
                      if hand is not None and p != me
                      and (_rank_index(rules)[hand.dice], hand.throws) == best)
        cap_best = min(state.tokens[holder], top)
        _values, conts = follower_values(rules, best, worst, state.limit, cap_own, cap_best)
        stop_value = _follower_stop(t, best, worst, h, state.throws, cap_own, cap_best)
        cont = conts[state.throws]
    choices = {"stop": stop_value}
    for k in t.hand_keeps[h]:
        choices[Roll(t.keeps[k]).notation()] = cont[k]
    return _choose(t, h, stop_value, cont), choices


def _follower_stop(t: _Tables, best: tuple, worst: tuple, h: int, j: int, cap_own: int, cap_best: int) -> float:
    """A follower's tokens shed if he stops on hand `h` after `j` throws: his own value
    as best, minus the best hand's value as worst, half of each on a rampo's tie."""
    loss = min(t.values[best[0]], cap_best)
    win = min(t.values[h], cap_own)
    key = (h, j)
    if key < best:
        return win
    if key > worst:
        return -loss
    return (0.5 * win if key == best else 0.0) - (0.5 * loss if key == worst else 0.0)


def expert_bot(state: Le421State) -> Action:
    if state.throws == 0 or not state.decharge or state.rampo:
        return Roll()
    return expert_choice(state)[0]


FAMILY = Family(
    id="421",
    title="Le 421",
    description="Trois dés et un pot de jetons : la charge, la décharge et ses rampos ; "
    "celui qui garde tous les jetons a perdu.",
    games=(Le421(),),
    view="le421_view",
    commands={"rank421": "rang, nom et valeur d'une main de 421"},
    cli_module="pygames.le421_cli",
)
