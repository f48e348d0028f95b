"""Scripted Dé Landais games with forced dice: the seed's worked example throw by throw,
every tir and every chained gift, the bust, gifts capped at the target, sealing,
options (target, manches, stake), the opening throw and starting positions."""

from __future__ import annotations

import json

import pytest
from support import reason_text, render_text

from pygames import DiceSampler, GameError, IllegalAction, Match, Player, find_game, load_match
from pygames.landais import ROLL, SEAL, ThresholdBot
from pygames.landais.messages import throw_text
from pygames.messages import text as words

GAME = find_game("de-landais")
SEED_NAMES = ["Magazran", "Zuleyka", "Vaya", "Mage Invok"]


def match(scores, first=0, names=None, **options):
    names = names or ["Alice", "Bob", "Chloé", "Djamel"][: len(scores)]
    return Match(GAME, [Player(n) for n in names], options,
                 start={"scores": list(scores), "first": first})


def throw(m, dice):
    m.apply("roll")
    m.apply("dice " + dice)
    return m.state


def test_the_seed_worked_example_replays_exactly():
    m = match([1450, 2150, -150, 2300], names=SEED_NAMES)
    # (action, sealed scores after it, floating points after it, pending)
    script = [
        # Magazran
        ("1 3 3", [1450, 2150, -150, 2300], 100, ""),
        ("5 3 1", [1450, 2150, -150, 2300], 250, ""),
        ("3 3 3", [1450, 2150, -150, 2300], 550, "poigne"),
        ("2 6 5", [1450, 2150, -150, 2300], 600, ""),
        ("seal", [2050, 2150, -150, 2300], 0, "start"),
        # Zuleyka
        ("2 1 1", [2050, 2150, -150, 2300], 200, ""),
        ("1 5 5", [2050, 2150, -150, 2300], 400, ""),
        ("3 2 4", [2050, 2150, -150, 2300], 0, ""),
        ("4 2 6", [2050, 2050, -150, 2300], 0, "start"),
        # Vaya
        ("5 2 2", [2050, 2050, -150, 2300], 50, ""),
        ("6 2 3", [2050, 2050, -150, 2300], 50, "licorne"),
        ("6 6 6", [2650, 2650, -150, 2900], 50, ""),
        ("3 1 1", [2650, 2650, -150, 2900], 250, ""),
        ("2 2 4", [2650, 2650, -150, 2900], 0, "start"),
        # Mage Invok
        ("2 5 5", [2650, 2650, -150, 2900], 100, ""),
    ]
    players = [0] * 5 + [1] * 4 + [2] * 5 + [3]
    for (step, sealed, floating, pending), player in zip(script, players):
        assert m.state.player == player
        if step == "seal":
            assert m.state.can_seal
            m.apply("seal")
        else:
            throw(m, step)
        s = m.state
        assert (list(s.sealed), s.floating, s.pending) == (sealed, floating, pending), step
    # After the first round: 2650 / 2650 / -150 / 2900, and the gift of 600 is on record.
    assert m.state.player == 3
    assert m.state.seal_wins and words(throw_text(m.state.last)) == "100 points"
    m.apply("seal")
    assert m.state.is_terminal() and m.state.sealed == (2650, 2650, -150, 3000)
    outcome = m.outcome()
    assert outcome.winners == (3,) and "Mage Invok" in reason_text(m)
    assert m.state.tokens == (-1, -1, -1, 3) and m.state.manches_won == (0, 0, 0, 1)
    again = load_match(json.loads(json.dumps(m.to_record())))
    assert again.state == m.state


def test_the_example_gift_is_recorded_as_data():
    m = match([2050, 2050, -150, 2300], first=2)
    throw(m, "5 2 2")
    s = throw(m, "6 2 3")
    assert s.pending == "licorne" and not s.can_seal
    assert words(throw_text(s.last)) == "Tir de la Licorne\u00a0: le prochain jet est offert aux autres"
    s = throw(m, "6 6 6")
    assert s.last.gift == "licorne" and s.last.kind == "poigne" and s.last.points == 600
    assert s.last.effects == ((3, 600), (0, 600), (1, 600))
    assert s.pending == "" and s.floating == 50 and s.can_seal  # free: no forced throw


def test_poigne_forces_the_next_throw():
    m = match([0, 0])
    s = throw(m, "3 3 3")
    assert s.pending == "poigne" and s.legal_actions() == [ROLL]
    assert words(throw_text(s.last)) == "Poigne\u202f! 300 points, relance obligatoire"
    with pytest.raises(IllegalAction, match="poigne"):
        s.apply(SEAL)
    s = throw(m, "1 1 1")
    assert s.floating == 1300 and s.pending == "poigne"
    s = throw(m, "5 2 3")
    assert s.floating == 1350 and s.legal_actions() == [ROLL, SEAL]


def test_poigne_exactly_on_target_still_forces_and_busts():
    m = match([2700, 0])
    s = throw(m, "3 3 3")
    assert s.sealed[0] + s.floating == 3000 and s.pending == "poigne" and not s.can_seal
    s = throw(m, "5 2 3")  # any point now passes the target
    assert s.last.bust and s.sealed == (2700, 0) and s.player == 1 and s.floating == 0


def test_poigne_past_the_target_busts_at_once():
    s = throw(match([2500, 0]), "6 6 6")
    assert s.last.bust and s.last.lost == 600 and s.player == 1 and s.sealed == (2500, 0)


def test_points_past_the_target_bust_and_exact_seal_wins():
    m = match([2800, 1000])
    s = throw(m, "1 2 2")
    assert s.floating == 100 and not s.seal_wins
    s = throw(m, "1 2 2")
    assert s.seal_wins
    s = throw(m, "5 2 2")  # 3050: bust
    assert s.last.bust and s.player == 1 and s.sealed == (2800, 1000)
    m2 = match([2850, 1000])  # 100 + 50: exactly 3000
    throw(m2, "5 5 2")
    throw(m2, "5 2 3")
    m2.apply("seal")
    assert m2.state.is_terminal() and m2.outcome().winners == (0,)


def test_troll_resets_floating_and_the_series_goes_on():
    m = match([0, 0])
    throw(m, "1 1 5")
    s = throw(m, "2 3 4")
    assert s.floating == 0 and s.player == 0 and s.pending == "" and s.last.lost == 250
    m.apply("seal")  # passing with nothing: allowed, nothing sealed
    assert m.state.sealed == (0, 0) and m.state.player == 1


def test_vereux_ends_the_series_and_may_go_negative():
    m = match([50, 0])
    throw(m, "1 1 2")
    s = throw(m, "2 4 6")
    assert s.sealed == (-50, 0) and s.player == 1 and s.floating == 0 and s.last.ended


def test_vide_ends_the_series():
    m = match([0, 0])
    throw(m, "1 2 2")
    s = throw(m, "2 2 4")
    assert s.player == 1 and s.last.lost == 100 and s.sealed == (0, 0)


def test_chimere_takes_the_next_throw_off_the_others():
    m = match([1000, 500, -100])
    throw(m, "1 2 2")
    s = throw(m, "3 4 6")
    assert s.pending == "chimere" and s.floating == 100
    assert words(throw_text(s.last)) == "Tir de la Chimère\u00a0: le prochain jet est retiré aux autres"
    s = throw(m, "1 1 5")
    assert s.sealed == (1000, 250, -350) and s.floating == 100 and s.player == 0
    assert s.last.effects == ((1, -250), (2, -250))


@pytest.mark.parametrize("tir", ["6 2 3", "6 4 3"])
def test_chained_troll_and_vide_give_nothing(tir):
    for dice in ("2 3 4", "2 2 4"):
        m = match([1000, 500])
        throw(m, "5 2 2")
        throw(m, tir)
        s = throw(m, dice)
        assert s.sealed == (1000, 500) and s.floating == 50 and s.pending == "" and s.player == 0
        assert not s.last.effects


@pytest.mark.parametrize("tir", ["6 2 3", "6 4 3"])
def test_chained_vereux_costs_every_other_player_100(tir):
    m = match([1000, 500, 2950])
    throw(m, "5 2 2")
    throw(m, tir)
    s = throw(m, "6 4 2")
    assert s.sealed == (1000, 400, 2850) and s.floating == 50 and s.player == 0


def test_chained_licorne_and_chimere_pass_the_gift_on():
    m = match([1000, 500])
    throw(m, "5 2 2")
    throw(m, "6 2 3")  # Licorne
    s = throw(m, "6 4 3")  # Chimère during the gift: nobody gains, the Chimère applies next
    assert s.pending == "chimere" and s.sealed == (1000, 500) and not s.can_seal
    s = throw(m, "6 2 3")  # and now a Licorne again
    assert s.pending == "licorne" and s.sealed == (1000, 500)
    s = throw(m, "1 2 2")
    assert s.sealed == (1000, 600) and s.floating == 50 and s.pending == ""


def test_gift_past_the_target_is_not_applied_and_exact_gift_wins():
    m = match([0, 2900, 2950, 2800], names=["A", "B", "C", "D"])
    throw(m, "5 2 2")
    throw(m, "6 2 3")
    s = throw(m, "1 2 2")  # +100: B lands on 3000, C would pass it, D goes to 2900
    assert s.sealed == (0, 3000, 2950, 2900)
    assert s.last.capped == (2,) and s.last.effects == ((1, 100), (3, 100))
    assert s.is_terminal() and m.outcome().winners == (1,)


def test_gift_landing_two_players_goes_to_the_first_after_the_thrower():
    m = match([2900, 0, 2900], first=1)
    throw(m, "5 2 2")
    throw(m, "6 2 3")
    s = throw(m, "1 2 2")
    assert s.sealed == (3000, 0, 3000) and s.is_terminal() and s.winner == 2


def test_seal_is_refused_before_the_first_throw_and_during_a_gift():
    m = match([0, 0])
    with pytest.raises(IllegalAction, match="lancer"):
        m.state.apply(SEAL)
    with pytest.raises(IllegalAction):
        m.apply("keep 3")


def test_opening_throw_decides_who_starts_and_ties_throw_again():
    m = Match(GAME, [Player(n) for n in "ABC"], sampler=DiceSampler("o"))
    assert m.state.is_chance() and m.state.dice_to_throw() == 1 and m.state.starting
    for face in ("5", "6", "6"):
        m.apply("dice " + face)
    assert m.state.contenders == (1, 2) and m.state.is_chance()
    m.apply("dice 2")
    m.apply("dice 4")
    assert not m.state.starting and m.state.player == 2 and m.state.first == 2
    assert m.state.legal_actions() == [ROLL]


def test_starting_position_without_first_uses_the_opening_throw():
    m = Match(GAME, [Player("A"), Player("B")], start={"scores": [100, 200]})
    assert m.state.starting and m.state.sealed == (100, 200)


@pytest.mark.parametrize("start, message", [
    ([1, 2], "objet"), ({"scores": [0]}, "2 joueurs"), ({"scores": [0, 25]}, "multiple"),
    ({"scores": [0, 3000]}, "2950"), ({"scores": [0, "10"]}, "nombre"),
    ({"scores": [0, True]}, "nombre"), ({"scores": [0, 0], "first": 2}, "premier"),
    ({"scores": [0, 0], "first": True}, "premier"), ({"scores": [0, 0], "x": 1}, "clé"),
    ({"scores": [0, -100_050]}, "-100000"),
])
def test_starting_positions_are_checked(start, message):
    with pytest.raises(GameError, match=message):
        Match(GAME, [Player("A"), Player("B")], start=start)


def test_target_option_and_a_start_below_it():
    with pytest.raises(GameError):
        match([0, 1000], target=1000)
    m = match([900, 0], target=1000)
    throw(m, "1 2 2")
    m.apply("seal")
    assert m.state.is_terminal() and m.state.sealed == (1000, 0)


def test_manches_and_stakes_over_a_partie():
    m = match([2900, 2900], manches=2, stake=5)
    throw(m, "1 2 2")
    m.apply("seal")
    s = m.state
    assert not s.is_terminal() and s.manche == 2 and s.manches_won == (1, 0)
    assert s.sealed == (0, 0) and s.tokens == (5, -5) and s.player == 1 and s.first == 1
    assert s.manche_winners == (0,)
    assert s.pending == "start" and s.legal_actions() == [ROLL]
    assert [list(p) for p in s.ranking()] == [[0], [1]]
    for _ in range(2):  # B seals 1250 twice, A throws a vide
        throw(m, "1 1 1")
        throw(m, "1 1 5")
        m.apply("seal")
        throw(m, "2 2 4")
    assert m.state.sealed == (0, 2500) and m.state.player == 1
    throw(m, "1 1 5")
    throw(m, "1 1 5")
    m.apply("seal")
    s = m.state
    assert s.manches_won == (1, 1) and not s.is_terminal() and s.manche == 3
    assert s.tokens == (0, 0) and s.player == 0 and s.sealed == (0, 0)
    throw(m, "1 1 1")
    throw(m, "2 2 3")  # a vide after a poigne loses it all
    assert m.state.player == 1 and m.state.sealed == (0, 0)
    throw(m, "2 2 3")
    for _ in range(2):
        throw(m, "1 1 1")
        throw(m, "1 2 2")
        m.apply("seal")
        throw(m, "2 2 3")
    throw(m, "1 1 5")
    throw(m, "2 3 4")  # Troll: 0 floating, the series goes on
    throw(m, "5 5 5")
    throw(m, "1 1 5")
    throw(m, "5 2 3")
    assert m.state.floating == 800 and m.state.sealed == (2200, 0)
    m.apply("seal")
    s = m.state
    assert s.is_terminal() and s.manches_won == (2, 1) and s.tokens == (5, -5)
    assert s.sealed == (3000, 0) and m.outcome().winners == (0,) and "2 manches" in reason_text(m)


def test_render_text_and_state_for_the_page():
    m = match([1450, 2150], names=["Magazran", "Zuleyka"])
    throw(m, "1 3 3")
    s = throw(m, "3 3 3")
    text = render_text(GAME, s, ["Magazran", "Zuleyka"])
    assert "1450" in text and "+ 400 flottants" in text and "relance obligatoire" in text
    assert s.can_roll and not s.can_seal and words(throw_text(s.last)).startswith("Poigne\u202f!")
    assert "text" not in s.last.to_json()  # the record of a throw holds no words
    json.dumps(s.last.to_json())


def test_threshold_bot_seals_at_its_threshold_or_to_win():
    bot = ThresholdBot(300)
    m = match([2800, 0])
    s = throw(m, "1 2 2")
    assert bot(s) == ROLL
    s = throw(m, "1 2 2")
    assert bot(s) == SEAL  # sealing wins at 200
    m = match([0, 0])
    s = throw(m, "1 1 5")
    assert bot(s) == ROLL
    s = throw(m, "5 2 2")
    assert bot(s) == SEAL
    with pytest.raises(GameError):
        ThresholdBot(0)
