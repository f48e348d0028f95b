"""Writes tests/golden/records.json: saved games made by the version of b20e2ef, before the
rules moved into one package per game (issue "The rules speak no language").

Each entry is a record exactly as that version saved it (`Match.to_record()`) with what it
replayed to then: every player's score, the ranking, winners, losers, draw, whose turn it
was, and the end screen's French reason.  tests/test_golden_records.py replays every
record with today's code and compares.  Run once, at that commit:

    python tests/golden/make_golden.py

(Kept to say how the records were made; running it again with today's code would only
copy today's behaviour.)
"""

from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from pygames import DiceSampler, Match, Player, find_game  # noqa: E402
from pygames.bots import RandomBot, bot_for  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# (label, game, options, [(name, seat)], start, undo, seed, plies or None for a whole game)
CASES = [
    ("yams default, solo expert", "yams", {}, [("Léa", "expert")], None, True, "g1", None),
    ("yams two options, two players", "yams", {"four_kind_is_two_pairs": True, "single_prime": True},
     [("Paul", "simple"), ("Zoé", "expert")], None, True, "g2", None),
    ("yams-boite default", "yams-boite", {}, [("Ana", "simple"), ("Bob", "random")], None, True,
     "g3", None),
    ("yams-boite no forced scoring, above 63", "yams-boite",
     {"forced_scoring": False, "bonus_above_63": True}, [("Ann", "expert")], None, True, "g4", None),
    ("yahtzee default, three players", "yahtzee", {},
     [("A", "expert"), ("B", "simple"), ("C", "random")], None, True, "g5", None),
    ("yahtzee plain, sans annulation", "yahtzee", {"plain": True}, [("Solo", "simple")], None,
     False, "g6", None),
    ("yams unfinished", "yams", {}, [("Moi", "simple"), ("Toi", "simple")], None, True, "g7", 37),
    ("421 default, two players", "421", {}, [("Léa", "expert"), ("Ordinateur", "simple")], None,
     True, "g8", None),
    ("421 three players, 11 tokens, 421 worth 8", "421", {"pot": 11, "value_421": 8},
     [("A", "simple"), ("B", "naive"), ("C", "expert")], None, True, "g9", None),
    ("421 nénette à 4, pot 41", "421", {"nenette_four": True, "pot": 41},
     [("X", "expert"), ("Y", "random")], None, True, "g10", None),
    ("421 paper start in the décharge", "421", {},
     [("Paul", "simple"), ("Marie", "expert"), ("Jean", "naive")],
     {"pot": 0, "tokens": [9, 7, 5], "leader": 1}, True, "g11", None),
    ("421 paper start in the charge, sans annulation", "421", {},
     [("Paul", "random"), ("Marie", "simple")], {"pot": 12, "tokens": [4, 5], "leader": 0},
     False, "g12", None),
    ("421 unfinished", "421", {}, [("A", "simple"), ("B", "simple"), ("C", "simple")], None,
     True, "g13", 60),
    ("linotte default", "linotte", {}, [("Léa", "expert"), ("Ordinateur", "simple")], None, True,
     "g14", None),
    ("linotte yam master, appel own cell", "linotte", {"yam_master": True, "appel_own_cell": True},
     [("A", "random"), ("B", "expert")], None, True, "g15", None),
    ("linotte défi", "linotte", {"defi": True}, [("A", "expert"), ("B", "expert")], None, False,
     "g16", None),
    ("linotte unfinished", "linotte", {}, [("A", "simple"), ("B", "random")], None, True, "g17", 45),
    ("dé landais default", "de-landais", {}, [("Léa", "expert"), ("Ordinateur", "simple")], None,
     True, "g18", None),
    ("dé landais four players, 2000, two manches, stake 5", "de-landais",
     {"target": 2000, "manches": 2, "stake": 5},
     [("A", "simple"), ("B", "expert"), ("C", "random"), ("D", "simple")], None, True, "g19", None),
    ("dé landais paper start (the seed's worked example)", "de-landais", {},
     [("Magazran", "simple"), ("Zuleyka", "expert"), ("Vaya", "simple"), ("Mage Invok", "expert")],
     {"scores": [1450, 2150, -150, 2300]}, True, "g20", None),
    ("dé landais 1000, paper start with first, sans annulation", "de-landais", {"target": 1000},
     [("A", "random"), ("B", "expert")], {"scores": [500, -100], "first": 1}, False, "g21", None),
    ("dé landais unfinished", "de-landais", {}, [("A", "simple"), ("B", "simple")], None, True,
     "g22", 30),
]


def play(game_id, options, seats, start, undo, seed, plies):
    game = find_game(game_id)
    players = [Player(name, seat if seat in game.seats else "human") for name, seat in seats]
    match = Match(game, players, options, DiceSampler(seed), start, undo)
    bots = {}
    for i, (_, seat) in enumerate(seats):
        bots[i] = RandomBot(f"{seed}/{i}") if seat == "random" else bot_for(game, seat)
    while not match.state.is_terminal() and (plies is None or len(match.history) < plies):
        state = match.state
        if state.is_chance():
            match.throw()
        else:
            match.apply(bots[state.current_player()](state))
    return match


def main():
    entries = []
    for label, game_id, options, seats, start, undo, seed, plies in CASES:
        match = play(game_id, options, seats, start, undo, seed, plies)
        state = match.state
        outcome = match.outcome()
        entries.append({
            "label": label,
            "record": match.to_record(),
            "expected": {
                "finished": state.is_terminal(),
                "current_player": state.current_player(),
                "scores": state.scores(),
                "ranking": state.ranking(),
                "outcome": None if outcome is None else {
                    "ranking": [list(p) for p in outcome.ranking],
                    "winners": list(outcome.winners),
                    "losers": list(outcome.losers),
                    "draw": outcome.draw,
                    "reason": outcome.reason,
                },
                "text": find_game(game_id).render_text(state, match.names),
            },
        })
    path = os.path.join(HERE, "records.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"made_at": "b20e2ef", "entries": entries}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(entries)} records -> {path}")


if __name__ == "__main__":
    main()
