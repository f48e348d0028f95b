"""The expert seat and the advisor in the Yams page (tables fetched lazily from tables/)."""

from __future__ import annotations

import re

import pytest
from harness.pages import GamePage
from harness.site import WEB
from harness.yams import check_sheet_totals, expected_ranking, read_ranking

from pygames import find_game
from pygames.yams.advisor import advise
from pygames.yams.bots import ExpertBot as ExpertYamsBot
from pygames.yams.tables import load_tables, rules_name

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

TABLES = {}


def tables_for(game_id: str, options=None):
    game = find_game(game_id)
    name = rules_name(game.rules(game.resolve_options(options)))
    if name not in TABLES:
        TABLES[name] = load_tables((WEB / "tables" / "yams" / f"{name}.bin").read_bytes())
    return TABLES[name]


def points(value: float) -> str:
    return f"{value:.1f}".replace(".", ",")


def test_expert_seat_plays_a_whole_game_as_the_solver_says(page, site_url, request_log):
    game = GamePage(page, site_url).open(seed="e2e-expert", fresh=True)
    game.start_game([("Experte", "expert")], ruleset="yahtzee", or_end=True)
    game.wait_end()
    assert game.screen() == "end"
    match = game.replay()
    assert match.state.is_terminal()
    # Every choice the page's expert made is the one the solver's policy makes.
    bot, state = ExpertYamsBot(tables_for("yahtzee")), find_game("yahtzee").new_state(
        match.players, match.options
    )
    for action in match.history:
        if not state.is_chance():
            assert action == bot(state), (state.rolls, state.dice, action)
        state = state.apply(action)
    assert read_ranking(page) == expected_ranking(match)
    check_sheet_totals(page, match)
    # Only the one table this game needs was fetched.
    fetched = request_log.page_matching(r"/tables/")  # not the service worker's own fetch
    assert [u.rsplit("/", 1)[1] for u in fetched] == ["yahtzee.bin"]


def test_advisor_shows_the_best_choices_and_can_apply_one(page, site_url, request_log, screenshot):
    game = GamePage(page, site_url).open(seed="e2e-advice", fresh=True)
    game.start_game([("Alice", "human")], ruleset="yams", or_end=True)
    game.dice.roll()
    page.click("#advise")
    page.wait_for_selector("#advice .advice-list li")
    screenshot(page, "advisor_desktop")
    match = game.replay()
    expected = [(c.action, c.value) for c in advise(match.state, tables_for("yams")).choices]
    shown = page.eval_on_selector_all(
        "#advice .advice-list li",
        "items => items.map(li => [li.querySelector('button').dataset.advice,"
        " li.querySelector('.advice-value').textContent])"
    )
    assert shown[0][0] == expected[0][0].notation()
    assert shown[0][1] == points(expected[0][1])
    assert [a for a, _ in shown] == [a.notation() for a, _ in expected[: len(shown)]]
    assert page.text_content("#advice .advice-best").endswith(points(expected[0][1]))
    # Taking the advice: keep advice holds those dice (the player then rolls).
    best = expected[0][0]
    page.click("#advice .advice-list li:first-child button")
    if best.notation().startswith("keep"):
        held = [d["face"] for d in game.dice.read() if d["held"]]
        assert sorted(held) == list(best.keep)
        assert page.is_hidden("#advice") is False
        game.dice.roll()
        assert page.is_hidden("#advice")
    assert game.replay().history[-1] != match.history[-1]


#: Every list of dice in the analysis tables ("garder 1 3 4", "dés 2 2 5 6 6"): how many, and
#: the ones a line break cuts in two (their text's boxes on more than one line).
DICE_LISTS_BROKEN = r"""() => {
    const out = { lists: 0, broken: [] };
    for (const td of document.querySelectorAll('#analysis .review-table td')) {
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\d(?:[  ]\d)+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                    .map((r) => Math.round(r.top)));
                out.lists += 1;
                if (tops.size > 1) out.broken.push(m[0]);
            }
        }
    }
    return out;
}"""


def test_analysis_after_a_game_lists_each_player(page, site_url, request_log):
    game = GamePage(page, site_url).open(seed="e2e-analysis", fresh=True)
    game.start_game([("Facile", "simple"), ("Experte", "expert")], ruleset="yams-boite", or_end=True)
    game.wait_end()
    page.click("#analyse")
    page.wait_for_selector("#analysis .review h3 >> nth=1")
    titles = page.eval_on_selector_all("#analysis .review h3", "hs => hs.map(h => h.textContent)")
    assert titles[0].startswith("Facile") and titles[1].startswith("Experte")
    # The expert plays the solver's policy: it loses nothing; the simple bot does lose some.
    assert "aucun point perdu" in titles[1]
    assert "points perdus" in titles[0]
    # Turn by turn: a header and 13 turns per player; the strays are marked.
    for i in (1, 2):
        assert page.locator(f"#analysis .review:nth-child({i}) .review-table tr").count() == 14
    assert page.locator("#analysis .review:nth-child(1) tr.stray").count() > 0
    assert page.locator("#analysis .review:nth-child(2) tr.stray").count() == 0
    # Each better choice says which roll of the turn it was on (the same dice can come twice).
    best = page.eval_on_selector_all("#analysis .review tr.stray td:nth-child(3)",
                                     "tds => tds.map(td => td.textContent)")
    for text in best:
        choices = text.split("; ")
        assert all(re.search(r"\(lancer\u00a0[123], dés \d", c) for c in choices), text
    # On a phone, no list of dice is cut across two lines.
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 740})
        found = page.evaluate(DICE_LISTS_BROKEN)
        assert found["lists"] > 0 and found["broken"] == [], (width, found)


@pytest.mark.parametrize("seat", ["simple", "expert"])
def test_seat_choice_is_offered(page, site_url, request_log, seat):
    GamePage(page, site_url).open(fresh=True)
    values = page.eval_on_selector_all(
        "#player-rows li:first-child select option", "os => os.map(o => o.value)"
    )
    assert seat in values
