"""Where the player throwing in the décharge stands (`Le421State.standing`): his hand against
the hand to beat, and the tokens that would move were the round to end on the hands so far;
then the same facts in words (pygames.le421.messages)."""

from __future__ import annotations

import random

import pytest

from pygames import GAMES, Match, Player
from pygames.le421 import Hand, Settled, Stop
from pygames.le421.messages import standing_line, standing_outcome, to_beat
from pygames.le421.rules import RampoStarts
from pygames.messages import text

GAME = GAMES["421"]
NBSP = "\u00a0"


def match(names="Léa,Paul", tokens=(10, 11)) -> Match:
    return Match(GAME, [Player(n) for n in names.split(",")], {}, start={"pot": 0, "tokens": list(tokens)})


def play(m: Match, *script: str) -> Match:
    """Each item: one action's notation, or "p: a b c" for `roll` then `dice a b c`."""
    for item in script:
        if ":" in item:
            m.apply("roll")
            m.apply("dice " + item.split(":")[1].strip())
        else:
            m.apply(item)
    return m


def said(m: Match) -> tuple[str, str | None]:
    standing = m.state.standing()
    outcome = standing_outcome(standing, m.names)
    return text(standing_line(standing, m.names)), None if outcome is None else text(outcome)


def test_the_first_player_of_the_decharge_has_nothing_to_beat():
    m = match()
    s = m.state.standing()
    assert (s.player, s.hand, s.to_beat, s.place) == (0, None, (), "")
    assert said(m) == (f"Léa{NBSP}: pas encore lancé{NBSP}; rien à battre encore.", None)
    assert to_beat(s, m.names) is None
    play(m, "roll", "dice 6 5 3")
    s = m.state.standing()
    assert (s.hand, s.place, s.givers, s.amounts) == (Hand((6, 5, 3), 1), "first", (), ())
    assert said(m) == (f"Léa{NBSP}: 653 en 1 coup{NBSP}; rien à battre encore.", None)


def test_the_follower_sees_the_hand_to_beat_then_what_he_would_give_or_receive():
    m = play(match(), "roll", "dice 6 4 2", "keep 6", "dice 3 5", "keep 6", "dice 3 1")  # Léa: 631, 3 throws
    s = m.state.standing()
    assert (s.player, s.to_beat, s.to_beat_hand, s.place) == (1, (0,), Hand((6, 3, 1), 3), "")
    assert said(m) == (f"Paul{NBSP}: pas encore lancé{NBSP}; à battre{NBSP}: 631 de Léa en 3 coups.", None)
    assert text(to_beat(s, m.names)) == f"À battre{NBSP}: 631 de Léa en 3 coups."
    play(m, "roll", "dice 5 5 2")
    s = m.state.standing()
    assert (s.place, s.givers, s.takers, s.value, s.amounts) == ("worst", (0,), (1,), 1, (1,))
    assert said(m) == (f"Paul{NBSP}: 552 en 1 coup{NBSP}; à battre{NBSP}: 631 de Léa en 3 coups.",
                       "En l'état, Paul recevrait 1 jeton de Léa.")
    play(m, "keep 5 5", "dice 5")  # 555: a baraque worth 5, at his second throw
    s = m.state.standing()
    assert (s.place, s.givers, s.takers, s.value, s.amounts) == ("best", (1,), (0,), 5, (5,))
    assert said(m)[1] == "En l'état, Paul donnerait 5 jetons à Léa."
    play(m, "stop")
    assert (m.state.last.best, m.state.last.worst, m.state.last.amount) == (1, 0, 5)


def test_the_same_hand_in_fewer_throws_is_stronger_and_in_as_many_a_rampo():
    leader = ("roll", "dice 6 6 1", "keep 6 6", "dice 1", "keep 6 6", "dice 2")  # Léa: 662, 3 throws
    m = play(match("Léa,Paul,Zoé", (7, 7, 7)), *leader, "roll", "dice 6 5 2", "stop")  # Paul: 652, 1 throw
    play(m, "roll", "dice 2 5 6")  # Zoé: 652 in one throw, as Paul
    s = m.state.standing()
    assert (s.place, s.takers, s.tied) == ("worst", (1, 2), (1,))
    assert said(m)[1] == "En l'état, rampo pour la pire place entre Zoé et Paul."
    play(m, "keep 6 5", "dice 2")  # 652 again, in two throws: weaker than Paul's
    s = m.state.standing()
    assert (s.place, s.takers, s.tied) == ("worst", (2,), ())
    assert said(m)[1] == "En l'état, Zoé recevrait 1 jeton de Léa."
    m = play(match("Léa,Paul,Zoé", (7, 7, 7)), "roll", "dice 6 6 1", "keep 6 6", "dice 2", "stop",
             "roll", "dice 6 6 2", "stop")  # Léa: 662 in two throws, Paul in one
    play(m, "roll", "dice 2 6 6")  # Zoé: 662 in one throw too, Léa's in two
    s = m.state.standing()
    assert (s.to_beat, s.place, s.givers, s.tied) == ((1,), "best", (1, 2), (1,))
    assert said(m)[1] == "En l'état, rampo pour la meilleure place entre Zoé et Paul."
    play(m, "stop")
    assert any(isinstance(e, RampoStarts) and e.place == "best" and set(e.players) == {1, 2}
               for e in m.state.events)


def test_a_giver_with_fewer_tokens_than_due_gives_them_all_and_would_have_won():
    m = play(match(tokens=(3, 18)), "roll", "dice 4 2 6", "keep 4 2", "dice 1", "stop")  # Léa: 421 (10)
    play(m, "roll", "dice 6 5 3")
    s = m.state.standing()
    assert (s.place, s.value, s.amounts, s.holdings, s.gives_all(0)) == ("worst", 10, (3,), (3,), True)
    assert said(m)[1] == f"En l'état, Paul recevrait 3 jetons de Léa, ses derniers{NBSP}: Léa aurait gagné."
    m = play(match(tokens=(18, 3)), "roll", "dice 6 5 1", "keep 6 5", "dice 3", "stop", "roll", "dice 1 1 6")
    assert said(m)[1] == f"En l'état, Paul donnerait 3 jetons à Léa, ses derniers{NBSP}: Paul aurait gagné."
    m = play(match(tokens=(20, 1)), "roll", "dice 6 5 1", "keep 6 5", "dice 3", "stop", "roll", "dice 2 3 4")
    assert said(m)[1] == f"En l'état, Paul donnerait 1 jeton à Léa, son dernier{NBSP}: Paul aurait gagné."


def test_between_the_best_and_the_worst_nothing_moves_for_him():
    m = match("Léa,Paul,Zoé", (7, 7, 7))
    play(m, "roll", "dice 6 1 2", "keep 6 1", "dice 1", "stop")  # Léa: 611 in two throws
    play(m, "roll", "dice 2 2 1", "stop", "roll", "dice 6 5 3")  # Paul: the nénette; Zoé: 653
    s = m.state.standing()
    assert (s.player, s.place, s.givers, s.takers, s.amounts) == (2, "between", (0,), (1,), (6,))
    assert said(m) == (
        f"Zoé{NBSP}: 653 en 1 coup{NBSP}; à battre{NBSP}: fiche de 6 de Léa en 2 coups.",
        f"En l'état, Zoé ne donnerait ni ne recevrait rien{NBSP}: Léa donnerait 6 jetons à Paul.")


def four(throw: str, tokens=(2, 5, 5, 9)) -> Match:
    """Léa and Paul: 611 in two throws each; Zoé 653 in one; then Yann's first throw."""
    m = match("Léa,Paul,Zoé,Yann", tokens)
    play(m, "roll", "dice 6 1 2", "keep 6 1", "dice 1", "stop", "roll", "dice 1 6 2", "keep 1 6", "dice 1")
    play(m, "roll", "dice 6 5 3", "stop", "roll", "dice " + throw)
    return m


def test_ties_among_the_others_are_rampos_pending():
    m = four("2 2 1")  # the worst, against two 611: the rampo's winner gives (Léa holds 2 only)
    s = m.state.standing()
    assert (s.to_beat, s.place, s.givers, s.takers, s.amounts) == ((0, 1), "worst", (0, 1), (3,), (2, 5))
    assert said(m) == (
        f"Yann{NBSP}: nénette en 1 coup{NBSP}; à battre{NBSP}: fiche de 6 de Léa et Paul en 2 coups.",
        "En l'état, Yann recevrait jusqu'à 5 jetons du gagnant d'un rampo entre Léa et Paul.")
    m = four("6 6 5")  # between: the rampo for the best place is the others'
    assert said(m)[1] == (f"En l'état, Yann ne donnerait ni ne recevrait rien{NBSP}: "
                          "rampo pour la meilleure place entre Léa et Paul.")
    m = match("Léa,Paul,Zoé,Yann", (5, 5, 5, 6))
    play(m, "roll", "dice 6 5 1", "keep 6 5", "dice 3", "stop")  # Léa: 653 in two throws
    play(m, "roll", "dice 2 2 1", "stop", "roll", "dice 1 2 2", "stop", "roll", "dice 4 2 1")
    assert said(m)[1] == (f"En l'état, Yann donnerait 6 jetons au perdant d'un rampo entre Paul et Zoé, "
                          f"ses derniers{NBSP}: Yann aurait gagné.")


def test_no_standing_in_the_charge_nor_in_a_rampo():
    m = Match(GAME, [Player("Léa"), Player("Paul")], {})
    assert m.state.standing() is None
    m = play(match(), "roll", "dice 6 5 3", "stop", "Paul: 3 5 6")
    assert m.state.phase == "rampo" and m.state.standing() is None


@pytest.mark.parametrize("seed", range(40))
def test_the_last_player_s_standing_is_what_stopping_does(seed):
    """Random décharges: whenever the round's last player has thrown, the round settled on
    his dice is the one his standing foretold (a transfer, or a rampo between the tied).
    Half the games throw dice of three faces, for ties."""
    rng = random.Random(seed)
    n = rng.choice((2, 3, 4))
    cuts = sorted(rng.sample(range(1, 21), n - 1))
    tokens = [b - a for a, b in zip([0, *cuts], [*cuts, 21])]
    m = match(",".join("ABCD"[:n]), tokens)
    top = 6 if seed % 2 else 3  # dice of three faces: more ties
    checked = 0
    for _ in range(400):
        state = m.state
        if state.is_terminal():
            break
        if state.is_chance():
            m.apply(f"dice {' '.join(str(rng.randint(1, top)) for _ in range(state.dice_to_throw()))}")
            continue
        standing = state.standing()
        last = not state.rampo and state.turn == len(state.order) - 1
        if standing is not None and standing.hand is not None and last and Stop() in state.legal_actions():
            after = state.apply(Stop())
            settled = [e for e in after.events if isinstance(e, Settled)]
            rampo = [e for e in after.events if isinstance(e, RampoStarts)]
            if standing.tied:
                place = standing.place
                assert rampo and rampo[0].place == place
                assert set(rampo[0].players) == {standing.player, *standing.tied}
            elif len(standing.givers) > 1 or len(standing.takers) > 1:
                assert rampo and not settled
            else:
                result = settled[0].result
                assert (result.best, result.worst, result.amount, result.value) == (
                    standing.givers[0], standing.takers[0], standing.amounts[0], standing.value)
                assert result.short == (standing.amounts[0] < standing.value)
            checked += 1
        m.apply(rng.choice(state.legal_actions()))
    assert checked >= 1
