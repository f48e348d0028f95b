"""Le 421 played with forced dice: the charge, the décharge, rampos, winners and the loser."""

from __future__ import annotations

import pytest
from support import reason_text, render_text

from pygames import GAMES, GameError, IllegalAction, Match, Player
from pygames.le421 import Hand, Stop
from pygames.le421.messages import describe_events, round_sentence
from pygames.messages import plain, text

GAME = GAMES["421"]


def match(names="Léa,Paul", start=None, **options) -> Match:
    players = [Player(n) for n in names.split(",")]
    return Match(GAME, players, options, start=start)


def play(m: Match, *script: str) -> Match:
    """Each item: one action's notation, or "p: a b c" for `roll` then `dice a b c`."""
    for item in script:
        if ":" in item:
            _, dice = item.split(":")
            m.apply("roll")
            m.apply("dice " + dice.strip())
        else:
            m.apply(item)
    return m


def test_the_charge_worst_hand_takes_the_best_hands_value():
    m = play(match(), "Léa: 4 2 1", "Paul: 2 2 1")
    s = m.state
    assert (s.pot, s.tokens, s.phase) == (11, (0, 10), "charge")
    assert text(round_sentence(s.last, m.names)) == ("Paul (nénette) prend 10 jetons au pot, "
                                                     "meilleure main\u00a0: Léa (421).")
    assert s.round_order == (1, 0) and s.current_player() == 1  # the loser starts
    assert plain(describe_events(s, m.names)).startswith("Paul lance\u00a0: 2 2 1 (nénette). Paul (nénette) prend")
    m = play(m, "Paul: 6 5 3", "Léa: 6 1 1")
    assert (m.state.pot, m.state.tokens) == (5, (0, 16))
    m = play(m, "Paul: 3 2 1", "Léa: 5 4 2")
    assert (m.state.pot, m.state.tokens, m.state.round_order) == (3, (2, 16), (0, 1))


def test_a_best_tie_in_the_charge_needs_no_rampo():
    m = play(match("Léa,Paul,Zoé"), "Léa: 4 2 1", "Paul: 1 2 4", "Zoé: 6 5 3")
    assert m.state.tokens == (0, 0, 10) and m.state.last.rampos == 0


def test_the_pot_running_short_ends_the_charge():
    m = play(match(start={"pot": 3, "tokens": [10, 8]}), "Léa: 4 2 1", "Paul: 6 5 3")
    s = m.state
    assert (s.pot, s.tokens, s.phase, s.left) == (0, (10, 11), "decharge", ())
    assert s.last.amount == 3 and s.last.charge_over
    assert s.round_order == (1, 0) and s.limit == 3
    assert "la décharge commence, Paul mène" in plain(describe_events(s, m.names))


def test_players_without_tokens_at_the_end_of_the_charge_have_won():
    m = play(match("Léa,Paul,Zoé", start={"pot": 2, "tokens": [0, 10, 9]}),
             "Léa: 6 5 3", "Paul: 6 1 1", "Zoé: 2 2 1")
    s = m.state
    assert (s.pot, s.tokens, s.left) == (0, (0, 10, 11), ((0,),))
    assert s.phase == "decharge" and s.round_order == (2, 1)
    assert s.ranking()[0] == [0]
    assert "Léa n'a plus de jetons et gagne." in plain(describe_events(s, m.names))


def test_a_player_who_takes_the_last_tokens_of_the_charge_alone_has_lost():
    m = play(match(start={"pot": 1, "tokens": [20, 0]}), "Léa: 6 5 3", "Paul: 6 6 6")
    s = m.state
    assert s.is_terminal() and s.tokens == (21, 0) and s.legal_actions() == []
    outcome = m.outcome()
    assert outcome.losers == (0,) and outcome.winners == (1,) and not outcome.draw
    assert reason_text(m) == "Léa a tous les jetons et perd la partie."
    assert s.scores() == [-21, 0]


def test_the_decharge_throw_limit_and_kept_dice_then_the_end():
    m = match(start={"pot": 0, "tokens": [10, 11]})
    play(m, "roll", "dice 6 3 1")
    s = m.state
    assert s.phase == "decharge" and (s.throws, s.limit) == (1, 3)
    assert Stop() in s.legal_actions() and len(s.legal_actions()) == 8  # 7 keeps and stop
    with pytest.raises(IllegalAction, match="dés qui sont sur la table"):
        m.apply("keep 5")
    with pytest.raises(IllegalAction, match="au moins un dé"):
        m.apply("keep 1 3 6")
    play(m, "keep 1 @3")
    assert m.state.rolling == (0, 1) and m.state.kept == (2,) and m.state.dice_to_throw() == 2
    play(m, "dice 4 2")
    assert m.state.dice == (4, 2, 1) and m.state.kept == (2,)
    play(m, "stop")
    s = m.state
    assert s.hands[0] == Hand((4, 2, 1), 2)
    assert s.current_player() == 1 and s.limit == 2  # the leader used two throws
    play(m, "roll", "dice 1 6 1", "keep 1 1")
    assert m.state.dice == (1, 6, 1) and m.state.rolling == (1,)
    play(m, "dice 5")  # the second throw is Paul's last: his hand ends by itself
    s = m.state
    assert s.is_terminal() and s.tokens == (0, 21) and s.left == ((0,),)
    assert text(round_sentence(s.last, m.names)) == "Paul (fiche de 5) reçoit 10 jetons de Léa (421)."
    assert reason_text(m) == "Paul a tous les jetons et perd la partie."
    assert m.outcome().ranking == ((0,), (1,))


def test_a_follower_may_stop_early_and_equal_hands_go_to_the_fewer_throws():
    m = match(start={"pot": 0, "tokens": [10, 11]})
    play(m, "roll", "dice 6 3 3", "keep 6", "dice 1 1")  # 611 in two throws
    assert m.state.current_player() == 0 and m.state.throws == 2
    play(m, "stop", "roll", "dice 1 6 1")  # Paul: 611 in one throw, stops
    assert Stop() in m.state.legal_actions()
    play(m, "stop")
    s = m.state
    assert s.last.best == 1 and s.last.worst == 0 and s.last.rampos == 0
    assert s.tokens == (16, 5)


def test_the_charge_throw_is_one_and_done():
    m = match()
    with pytest.raises(IllegalAction, match="Lancez d'abord"):
        m.apply("stop")
    with pytest.raises(IllegalAction, match="Lancez d'abord"):
        m.apply("keep 4")
    play(m, "roll", "dice 5 5 5")
    assert m.state.current_player() == 1 and m.state.throws == 0


@pytest.mark.parametrize("giver, said", [("Ordinateur", "d'Ordinateur"), ("Hélène", "d'Hélène"),
                                         ("Paul", "de Paul")])
def test_the_round_sentence_elides_de_before_a_vowel(giver, said):
    m = match(f"{giver},Zoé", start={"pot": 0, "tokens": [10, 11]})
    play(m, "roll", "dice 4 2 1", "stop", "Zoé: 6 5 3")
    assert text(round_sentence(m.state.last, m.names)) == f"Zoé (653) reçoit 10 jetons {said} (421)."


def test_a_best_tie_is_a_rampo_for_the_value_of_the_original_hand():
    m = match(start={"pot": 0, "tokens": [10, 11]})
    play(m, "roll", "dice 6 5 3", "stop", "Paul: 3 5 6")
    s = m.state
    assert s.phase == "rampo" and s.rampo == "best" and s.order == (1, 0)  # last tied first
    assert s.current_player() == 1 and s.limit == 1
    assert "Rampo pour la meilleure place entre Léa et Paul." in plain(describe_events(s, m.names))
    play(m, "Paul: 4 2 1", "Léa: 6 5 2")
    s = m.state
    assert s.phase == "decharge" and s.tokens == (11, 10)  # 653 is worth 1, not the 421's 10
    # The rampo's throws are said, in the order thrown: they explain which 653 was best.
    assert s.last.rampo_throws == ((1, (4, 2, 1)), (0, (6, 5, 2)))
    assert text(round_sentence(s.last, m.names)) == \
        "Léa (653) reçoit 1 jeton de Paul (653) après un rampo (Paul\u00a0: 421, Léa\u00a0: 652)."
    assert s.round_order == (0, 1)


def test_a_worst_tie_is_replayed_until_settled():
    m = match("Léa,Paul,Zoé", start={"pot": 0, "tokens": [3, 9, 9]})
    play(m, "roll", "dice 4 2 1", "stop", "Paul: 6 5 3", "Zoé: 5 6 3")
    s = m.state
    assert (s.phase, s.rampo, s.order, s.rampos) == ("rampo", "worst", (2, 1), 1)
    play(m, "Zoé: 2 2 1", "Paul: 1 2 2")  # tied again: a rampo on the rampo
    s = m.state
    assert (s.rampo, s.order, s.rampos) == ("worst", (2, 1), 2)
    assert s.rampo_hands[1] == ((2, 2, 1),) and s.rampo_hands[2] == ((2, 2, 1),)
    play(m, "Zoé: 6 6 5", "Paul: 1 1 1")
    s = m.state
    assert s.tokens == (0, 9, 12) and s.left == ((0,),)  # Léa gives all she has: 3
    # Each rampo throw in order; Léa had 3 tokens of the 421's 10.
    assert s.last.rampo_throws == ((2, (2, 2, 1)), (1, (2, 2, 1)), (2, (6, 6, 5)), (1, (1, 1, 1)))
    assert (s.last.amount, s.last.value, s.last.short) == (3, 10, True)
    assert text(round_sentence(s.last, m.names)) == (
        "Zoé (653) reçoit 3 jetons de Léa (421) après 2 rampos (Zoé\u00a0: nénette, Paul\u00a0: nénette, "
        "Zoé\u00a0: 665, Paul\u00a0: baraque d'as)\u00a0; Léa n'avait que 3 jetons des 10 dus.")
    assert s.round_order == (2, 1) and s.phase == "decharge"
    assert s.ranking() == [[0], [1], [2]]


def test_a_best_and_a_worst_tie_in_one_round():
    m = match("Léa,Paul,Zoé,Yann", start={"pot": 0, "tokens": [5, 5, 5, 6]})
    play(m, "roll", "dice 6 1 1", "stop", "Paul: 1 6 1", "Zoé: 5 3 2", "Yann: 2 3 5")
    assert (m.state.rampo, m.state.order) == ("best", (1, 0))
    play(m, "Paul: 6 4 1", "Léa: 6 5 1")
    assert (m.state.rampo, m.state.order) == ("worst", (3, 2))
    play(m, "Yann: 4 4 4", "Zoé: 2 2 1")
    s = m.state
    assert s.tokens == (0, 5, 10, 6) and s.last.rampos == 2 and s.left == ((0,),)
    assert s.round_order == (2, 3, 1)


def test_the_game_plays_on_until_one_holds_every_token():
    m = match("Léa,Paul,Zoé", start={"pot": 0, "tokens": [1, 1, 19]})
    play(m, "roll", "dice 6 5 3", "stop", "Paul: 4 2 1", "Zoé: 2 2 1")
    assert m.state.left == ((1,),) and m.state.tokens == (1, 0, 20)
    play(m, "roll", "dice 6 5 3", "stop", "Léa: 5 5 5")
    s = m.state
    assert s.is_terminal() and s.tokens == (0, 0, 21)
    outcome = m.outcome()
    assert outcome.ranking == ((1,), (0,), (2,)) and outcome.winners == (1,) and outcome.losers == (2,)
    assert reason_text(m) == "Zoé a tous les jetons et perd la partie."


@pytest.mark.parametrize(
    "start, message",
    [
        ([0, 21], "un objet"),
        ({"pot": 0}, "jetons de chacun des 2 joueurs"),
        ({"pot": 0, "tokens": [10, 11], "extra": 1}, "clé inconnue"),
        ({"pot": "0", "tokens": [10, 11]}, "pot doit être un nombre entier"),
        ({"pot": True, "tokens": [10, 10]}, "pot doit être un nombre entier"),
        ({"pot": 0, "tokens": [10.0, 11]}, "nombres entiers"),
        ({"pot": 0, "tokens": [False, 21]}, "nombres entiers"),
        ({"pot": 0, "tokens": [-1, 22]}, "nombres entiers"),
        ({"pot": 0, "tokens": [10, 10]}, "font 20, il en faut 21"),
        ({"pot": 0, "tokens": [0, 21]}, "déjà tous les jetons"),
        ({"pot": 0, "tokens": [0, 21, 0]}, "chacun des 2"),
        ({"pot": 0, "tokens": [5, 16], "leader": 2}, "qui commence est inconnu"),
        ({"pot": 0, "tokens": [0, 21], "leader": 1}, "déjà tous les jetons"),
    ],
)
def test_bad_starting_positions_are_refused(start, message):
    with pytest.raises(GameError, match=message):
        match(start=start)


def test_a_start_with_no_tokens_for_the_leader_in_the_decharge_is_refused():
    with pytest.raises(GameError, match="doit avoir des jetons"):
        match("Léa,Paul,Zoé", start={"pot": 0, "tokens": [0, 5, 16], "leader": 0})


def test_a_paper_start_is_kept_in_the_record_and_replays():
    m = match(start={"pot": 0, "tokens": [5, 16]}, pot=21)
    assert m.state.phase == "decharge"
    play(m, "roll", "dice 6 5 3", "stop")
    again = Match.from_record(m.to_record(), GAMES)
    assert again.state == m.state and m.to_record()["start"] == {"pot": 0, "tokens": [5, 16], "leader": 0}
    m3 = match("Léa,Paul,Zoé", start={"pot": 0, "tokens": [0, 5, 16], "leader": 2})
    assert m3.state.left == ((0,),) and m3.state.round_order == (2, 1)


def test_render_text_draws_the_table():
    m = play(match(), "Léa: 4 2 1")
    text = render_text(GAME, m.state, m.names)
    assert "pot\u00a0: 21" in text and "421 (vaut 10, 1 coup)" in text and "charge" in text


@pytest.mark.parametrize("tokens, said", [
    ([2, 19], "Paul (653) reçoit 2 jetons de Léa (fiche de 6)\u00a0; Léa n'avait que 2 jetons des 6 dus."),
    ([6, 15], "Paul (653) reçoit 6 jetons de Léa (fiche de 6)."),  # all she had, but all that was due
])
def test_the_round_sentence_says_when_the_giver_had_fewer_tokens_than_due(tokens, said):
    m = play(match(start={"pot": 0, "tokens": tokens}), "roll", "dice 6 1 1", "stop", "Paul: 6 5 3")
    s = m.state
    assert (s.last.amount, s.last.value) == (tokens[0], 6) and s.last.short == (tokens[0] < 6)
    assert s.left == ((0,),)
    assert text(round_sentence(s.last, m.names)) == said
    assert said in plain(describe_events(s, m.names))


def test_the_round_sentence_says_when_the_pot_had_fewer_tokens_than_due():
    m = play(match(start={"pot": 3, "tokens": [10, 8]}), "Léa: 4 2 1", "Paul: 6 5 3")
    assert text(round_sentence(m.state.last, m.names)) == (
        "Paul (653) prend 3 jetons au pot, meilleure main\u00a0: Léa (421)"
        "\u00a0; le pot n'avait plus que 3 jetons des 10 dus.")
    m = play(match(start={"pot": 10, "tokens": [6, 5]}), "Léa: 4 2 1", "Paul: 6 5 3")
    assert text(round_sentence(m.state.last, m.names)) == \
        "Paul (653) prend 10 jetons au pot, meilleure main\u00a0: Léa (421)."
