"""Le 421's hands: the 56 of them in order, their values and names, under each option;
and the `rank421` command that prints them."""

from __future__ import annotations

import io

import pytest

from pygames.cli import main
from pygames.le421 import Rules, hand_info, hand_rank, hand_value, ranked_hands
from pygames.le421.messages import hand_label, hand_name
from pygames.messages import text

DEFAULT_ORDER = (
    "421 111 611 666 511 555 411 444 311 333 211 222 654 543 432 321 "
    "665 664 663 662 661 655 653 652 651 644 643 642 641 633 632 631 622 621 "
    "554 553 552 551 544 542 541 533 532 531 522 521 443 442 441 433 431 422 332 331 322 221"
).split()


def names(rules: Rules) -> list[str]:
    return ["".join(map(str, h)) for h in ranked_hands(rules)]


def test_the_56_hands_in_order():
    assert names(Rules()) == DEFAULT_ORDER
    assert len(set(DEFAULT_ORDER)) == 56


def test_nenette_four_ranks_it_below_the_suites():
    order = [h for h in DEFAULT_ORDER if h != "221"]
    order.insert(order.index("321") + 1, "221")
    assert names(Rules(nenette_four=True)) == order
    assert hand_value((2, 2, 1), Rules(nenette_four=True)) == 4
    assert hand_value((2, 2, 1), Rules()) == 1


@pytest.mark.parametrize("value_421", [10, 8])
@pytest.mark.parametrize("nenette_four", [False, True])
def test_values_under_each_option(value_421, nenette_four):
    rules = Rules(value_421, nenette_four)
    values = {"".join(map(str, h)): hand_value(h, rules) for h in ranked_hands(rules)}
    expected = {"421": value_421, "111": 7, "611": 6, "666": 6, "511": 5, "555": 5, "411": 4,
                "444": 4, "311": 3, "333": 3, "211": 2, "222": 2, "654": 2, "543": 2, "432": 2,
                "321": 2, "221": 4 if nenette_four else 1}
    for hand, value in values.items():
        assert value == expected.get(hand, 1), hand
    # Down to the suites, no hand worth less ranks above one worth more (the nénette à 4
    # is the seed's exception: below the suites, worth 4).
    ranked = [values[h] for h in names(rules)]
    assert ranked[:16] == sorted(ranked[:16], reverse=True)


@pytest.mark.parametrize(
    "stronger, weaker",
    [((6, 4, 1), (5, 5, 3)), ((6, 5, 4), (3, 2, 1)), ((6, 1, 1), (6, 6, 6)),
     ((4, 2, 1), (1, 1, 1)), ((2, 2, 2), (6, 5, 4)), ((3, 2, 1), (6, 6, 5))],
)
def test_the_seeds_comparisons(stronger, weaker):
    for rules in (Rules(), Rules(8, True)):
        assert hand_rank(stronger, rules) < hand_rank(weaker, rules)


def test_the_nenette_is_last_unless_worth_four():
    assert hand_rank((3, 2, 2), Rules()) < hand_rank((2, 2, 1), Rules()) == 56
    assert hand_rank((3, 2, 1), Rules(nenette_four=True)) < hand_rank((2, 2, 1), Rules(nenette_four=True))
    assert hand_rank((2, 2, 1), Rules(nenette_four=True)) < hand_rank((6, 6, 5), Rules(nenette_four=True))


def test_dice_are_read_from_the_highest():
    assert hand_info((1, 4, 1), Rules()) == hand_info((4, 1, 1), Rules())
    info = hand_info((1, 1, 4), Rules())
    assert (info.dice, info.rank, info.kind, info.value) == ((4, 1, 1), 7, "fiche", 4)
    assert text(hand_name(info.dice)) == "fiche de 4"


@pytest.mark.parametrize(
    "dice, name, label",
    [((4, 2, 1), "421", "421"), ((1, 1, 1), "baraque d'as", "baraque d'as"),
     ((6, 6, 6), "baraque de 6", "baraque de 6"), ((2, 1, 1), "fiche de 2", "fiche de 2"),
     ((5, 4, 3), "suite 543", "suite 543"), ((2, 2, 1), "nénette", "nénette"),
     ((6, 5, 3), "autre", "653")],
)
def test_names(dice, name, label):
    info = hand_info(dice, Rules())
    assert (text(hand_name(info.dice)), text(hand_label(info.dice))) == (name, label)


# --- rank421 ---------------------------------------------------------------------------


def run(*argv):
    out = io.StringIO()
    return main(["rank421", *argv], out), out.getvalue()


@pytest.mark.parametrize(
    "argv, printed",
    [
        (["4", "2", "1"], "1 421 10"),
        (["1", "2", "4"], "1 421 10"),
        (["4", "2", "1", "-o", "value_421=8"], "1 421 8"),
        (["1", "1", "4"], "7 fiche de 4 4"),
        (["6", "6", "6"], "4 baraque de 6 6"),
        (["1", "1", "1"], "2 baraque d'as 7"),
        (["3", "2", "1"], "16 suite 321 2"),
        (["6", "5", "3"], "23 autre 1"),
        (["2", "2", "1"], "56 nénette 1"),
        (["2", "1", "2", "-o", "nenette_four=oui"], "17 nénette 4"),
        (["3", "2", "2", "-o", "nenette_four"], "56 autre 1"),
        (["2", "2", "1", "-o", "pot=41"], "56 nénette 1"),
    ],
)
def test_rank421_prints_rank_name_and_value(argv, printed):
    assert run(*argv) == (0, printed + "\n")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["4", "2"], "Il faut exactement 3 dés"),
        (["4", "2", "1", "1"], "Il faut exactement 3 dés"),
        ([], "Il faut exactement 3 dés"),
        (["4", "2", "7"], "«\u00a07\u00a0» n'est pas un dé"),
        (["4", "2", "x"], "«\u00a0x\u00a0» n'est pas un dé"),
        (["4", "2", "0"], "«\u00a00\u00a0» n'est pas un dé"),
        (["4", "2", "1", "-o", "value_421=9"], "Option value_421"),
        (["4", "2", "1", "-o", "turbo"], "Option inconnue"),
    ],
)
def test_rank421_refuses_bad_input_with_exit_2(argv, message, capsys):
    assert run(*argv) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("erreur\u00a0: ") and message in err and err.count("\n") == 1
