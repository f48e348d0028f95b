"""The journal of a Dé Landais match (issue 20, item 14): the opening throw and every series,
throw by throw, with how it ended, found from the match's positions; its words."""

from __future__ import annotations

from pygames import Match, Player, find_game
from pygames.landais import Journal, Opening, SeriesPlayed, journal
from pygames.landais.messages import journal_entry
from pygames.messages import text

GAME = find_game("de-landais")
NBSP, THIN = "\u00a0", "\u202f"


def play(match, *actions):
    for a in actions:
        match.apply(a)
    return match


def lines(match):
    return [text(journal_entry(e, match.names)) for e in journal(match.positions())]


def test_the_opening_throw_with_a_tie_then_each_series():
    m = Match(GAME, [Player("Léa"), Player("Robot")], {})
    play(m, "dice 3", "dice 3", "dice 5", "dice 2",  # a tie at 3, then Léa 5
         "roll", "dice 1 3 3", "roll", "dice 2 2 2", "roll", "dice 5 3 1", "seal",
         "roll", "dice 2 3 6", "roll", "dice 1 5 4", "roll", "dice 2 3 4", "roll", "dice 4 4 6",
         "roll", "dice 2 4 6",
         "roll", "dice 1 5 5")
    entries = journal(m.positions())
    assert entries[0] == Opening((((0, 1), (3, 3)), ((0, 1), (5, 2))), 0)
    assert [(e.player, e.end, e.sealed, e.total, e.lost) for e in entries[1:]] == [
        (0, "seal", 450, 450, 0), (1, "vide", 0, 0, 0), (0, "vereux", 0, 500, 0), (1, "", 0, 0, 0)]
    assert [t.kind for t in entries[2].throws] == ["licorne", "points", "troll", "vide"]
    assert entries[2].throws[1].gift == "licorne"
    assert lines(m) == [
        f"Lancer d'ouverture{NBSP}: Léa 3, Robot 3{NBSP}; égalité, on relance{NBSP}: Léa 5, Robot 2. "
        "Léa commence.",
        f"Léa{NBSP}: 1{NBSP}3{NBSP}3 (100 points), 2{NBSP}2{NBSP}2 (poigne 200), 5{NBSP}3{NBSP}1 "
        f"(150 points). Scelle 450{NBSP}: 450 points.",
        f"Robot{NBSP}: 2{NBSP}3{NBSP}6 (Licorne), 1{NBSP}5{NBSP}4 (150 points{NBSP}: +150 aux autres), "
        f"2{NBSP}3{NBSP}4 (Troll), 4{NBSP}4{NBSP}6 (vide). Jet vide{NBSP}: série perdue.",
        f"Léa{NBSP}: 2{NBSP}4{NBSP}6 (Véreux). Véreux{NBSP}: série perdue, 100 de pénalité{NBSP}: 500 points.",
        f"Robot{NBSP}: 1{NBSP}5{NBSP}5 (200 points). Série en cours.",
    ]


def test_a_paper_start_says_who_starts_and_the_ends_lose_floating_points():
    m = Match(GAME, [Player("A"), Player("B")], {}, start={"scores": [2800, 0], "first": 0})
    play(m, "roll", "dice 1 5 4", "roll", "dice 1 1 3",  # 150 then 200: 3 150 > 3 000
         "roll", "dice 2 3 4", "seal",  # a Troll, then passing the dice
         "roll", "dice 1 1 4", "roll", "dice 2 4 6")  # 200 floating lost to a Véreux
    entries = journal(m.positions())
    assert entries[0] == Opening((), 0)
    assert [(e.end, e.lost, e.total) for e in entries[1:]] == [("bust", 350, 2800), ("pass", 0, 0),
                                                               ("vereux", 200, 2700)]
    assert entries[1].throws[-1].bust
    said = lines(m)
    assert said[0] == "A commence (partie reprise sur papier)."
    assert said[1].endswith(f"(200 points, but dépassé). But dépassé{NBSP}: série perdue (350 points flottants).")
    assert said[2] == f"B{NBSP}: 2{NBSP}3{NBSP}4 (Troll). Passe la main sans rien sceller (0 point)."
    assert said[3].endswith(f"Véreux{NBSP}: série perdue (200 points flottants), 100 de pénalité{NBSP}: "
                            f"2{THIN}700 points.")


def test_the_manche_won_by_a_seal_and_by_a_gift():
    m = Match(GAME, [Player("A"), Player("B")], {"manches": 2},
              start={"scores": [2850, 2900], "first": 0})
    play(m, "roll", "dice 1 5 4", "seal")  # A seals 150: exactly 3 000
    entries = journal(m.positions())
    assert (entries[-1].end, entries[-1].winner, entries[-1].total) == ("seal", 0, 3000)
    assert lines(m)[-1].endswith(f"Scelle 150{NBSP}: 3{THIN}000 points. A atteint le but et gagne la manche 1.")
    # B throws a Licorne, then 1 6 6: 100 given to A, exactly 3 000.
    m2 = Match(GAME, [Player("A"), Player("B")], {}, start={"scores": [2900, 0], "first": 1})
    play(m2, "roll", "dice 2 3 6", "roll", "dice 1 6 6")
    last = journal(m2.positions())[-1]
    assert (last.player, last.end, last.winner) == (1, "gift", 0)
    assert text(journal_entry(last, m2.names)) == (
        f"B{NBSP}: 2{NBSP}3{NBSP}6 (Licorne), 1{NBSP}6{NBSP}6 (100 points{NBSP}: +100 aux autres). "
        "A atteint le but et gagne la manche 1.")


def test_built_move_by_move_as_from_the_positions():
    m = Match(GAME, [Player("A"), Player("B"), Player("C")], {}, start={"scores": [0, 0, 0]})
    play(m, "dice 6", "dice 2", "dice 4")
    for a in ("roll", "dice 3 4 6", "roll", "dice 5 5 2", "roll", "dice 1 1 1", "roll", "dice 5 5 5",
              "roll", "dice 1 2 3", "seal", "roll", "dice 6 6 2"):
        m.apply(a)
    built = Journal()
    for step in m.positions():
        built.add(step.before, step.action, step.after)
        assert built.entries == journal(m.positions(step.ply + 1))
    chimere = journal(m.positions())[1].throws[1]
    assert (chimere.gift, chimere.effects) == ("chimere", ((1, -100), (2, -100)))
    assert text(journal_entry(journal(m.positions())[1], m.names)).startswith(
        f"A{NBSP}: 3{NBSP}4{NBSP}6 (Chimère), 5{NBSP}5{NBSP}2 (100 points{NBSP}: −100 aux autres), ")
    assert all(isinstance(e, (Opening, SeriesPlayed)) for e in built.entries)
