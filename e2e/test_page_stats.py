"""Statistics and history (issue 12) on every game page of the registry: a finished game is
counted once (not again on reload, nor by a second tab), the Statistiques dialog shows the
games played, each name's wins and the best score, export / clear / import give the same
store back, a hostile file changes nothing, a corrupt store gives a notice and the game still
starts, a hostile name stays text, and a full storage leaves the end screen whole.

A game is finished quickly from a record saved one decision before its end (computer
players only): the page resumes it and its computer plays the last move.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

import build
import siteharness
from pygames import FAMILIES, DiceSampler, Match, Player, load_match
from pygames.bots import bot_for
from test_game_pages import open_page, reload, saved
from test_page_safety import FILL, aside_keys, set_item, start_game

sys.path.insert(0, str(build.WEB / "app"))
import stats  # noqa: E402  (web/app/stats.py: what the page computes)

PAGES = [f.id for f in FAMILIES.values() if (build.WEB / "games" / f.id / "table.html").is_file()]
HOSTILE = "<img src=x onerror=alert(1)>"
STATS = "pygames:stats"
OPEN_END = "!document.getElementById('end').hidden"


#: After test_page_safety's FILL: the last bytes too, so that no value can grow.
TO_THE_BRIM = """() => {
  for (const size of [256, 16, 1]) {
    try { for (let j = 0; j < 5000; j++) localStorage.setItem('filler:b' + size + ':' + j, 'z'.repeat(size)); }
    catch (e) {}
  }
}"""


def nearly_finished(family: str, seed: str, names) -> dict:
    """A saved game of computer players one decision before its end."""
    game = FAMILIES[family].games[0]
    players = [Player(n, "simple") for n in names]
    match = Match(game, players, None, DiceSampler(seed))
    bot = bot_for(game, "simple")
    decisions = []
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
        else:
            decisions.append(len(match.history))
            match.apply(bot(match.state))
    record = match.to_record()
    record["actions"] = record["actions"][: decisions[-1]]
    load_match(record)  # it replays
    return {"record": record}


def names_for(family: str) -> list[str]:
    game = FAMILIES[family].games[0]
    return [HOSTILE, "Ordi"][: max(game.min_players, 2)] if game.max_players > 1 else [HOSTILE]


def finish(page, url: str, family: str, seed: str) -> dict:
    """Save a nearly finished game, open the page on it, wait for the end: the final match."""
    set_item(page, f"pygames:{family}:match", json.dumps(nearly_finished(family, seed, names_for(family))))
    open_page(page, url)
    page.wait_for_function(OPEN_END, timeout=60_000)
    return saved(page, family)["record"]


def store(page) -> dict | None:
    text = page.evaluate("k => localStorage.getItem(k)", STATS)
    return json.loads(text) if text else None


def open_stats(page, button="#open-stats"):
    page.click(button)
    page.wait_for_function("document.getElementById('stats').open")
    return page.locator("#stats")


def close_stats(page):
    page.keyboard.press("Escape")
    page.wait_for_function("!document.getElementById('stats').open")


def facts(page) -> dict:
    """The figures of the first ruleset section shown: {term: value}."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#stats-body .stats-ruleset:has(dl) ')].slice(0, 1).flatMap((s) =>
        [...s.querySelectorAll('dl div')].map((d) => [d.querySelector('dt').textContent,
                                                     d.querySelector('dd').textContent])))""")


def player_rows(page) -> dict:
    """The players' table of the first ruleset shown: {name: [parties, victoires, meilleur, moyenne]}."""
    return page.evaluate("""() => {
        const table = document.querySelector('#stats-body .stats-players');
        return Object.fromEntries([...table.querySelectorAll('tbody tr')].map((r) =>
            [r.querySelector('bdi.name').textContent, [...r.querySelectorAll('td')].map((c) => c.textContent)]));
    }""")


def expected(record) -> dict:
    match = load_match(record)
    scores = match.state.scores()
    value = (lambda s: -s) if match.game.family == "421" else (lambda s: s)
    return {
        "best": stats.french_number(value(max(scores))),
        "winners": {match.names[p] for p in match.outcome().winners},
        "names": match.names,
        "scores": dict(zip(match.names, scores)),
        "value": value,
    }


@pytest.mark.parametrize("family", PAGES)
def test_a_finished_game_is_counted_once_and_survives_export_clear_import(page, site_url, family,
                                                                         request_log, tmp_path):
    page.on("dialog", lambda d: d.accept())
    url = f"{site_url}{family}.html?pace=0&seed=stats-{family}"
    open_page(page, url + "&fresh=1")
    page.evaluate("() => localStorage.clear()")
    record = finish(page, url, family, f"near-{family}")
    want = expected(record)
    kept = store(page)
    assert kept and len(kept["history"]) == 1 and kept["seen"] == [stats.match_id(record)]
    # The end screen leads to the dialog.
    dialog = open_stats(page, "#end-stats")
    assert facts(page)["Parties jouées"] == "1"
    assert any(k.startswith("Meilleur score") and v == want["best"] for k, v in facts(page).items())
    rows = player_rows(page)
    assert set(rows) == set(want["names"])
    for name, (played, wins, best, _) in rows.items():
        assert played == "1" and wins == ("1" if name in want["winners"] else "0")
        assert best == stats.french_number(want["value"](want["scores"][name]))
    # A hostile name is text: in the table, the history and nowhere as markup.
    assert dialog.locator("img").count() == 0
    assert dialog.locator(".stats-games bdi.name", has_text=HOSTILE).count() >= 1
    assert dialog.locator("svg.chart rect.bar").count() >= 1
    assert "Répartition" in dialog.locator("svg.chart").get_attribute("aria-label")
    # What the page counts for this game (its view's highlights): a count.
    label = {"yams": "Yams réalisés", "421": "421 obtenus", "linotte": "Yams obtenus",
             "de-landais": "Poignes"}[family]
    assert facts(page)[label].isdigit(), facts(page)
    close_stats(page)
    # A reload of the finished game does not count it again.
    reload(page)
    page.wait_for_function(OPEN_END)
    assert store(page) == kept
    open_stats(page)
    assert facts(page)["Parties jouées"] == "1"
    # Export, clear (confirmed), import: the same store.
    with page.expect_download() as info:
        page.click("#stats-export")
    path = info.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8")) == kept
    page.click("#stats-clear")
    page.wait_for_function("document.getElementById('stats-notice').textContent.includes('effacées')")
    assert page.locator("#stats-body .stats-players").count() == 0
    assert stats.is_empty(stats.check(store(page)))
    page.set_input_files("#stats-import", path)
    page.wait_for_function("document.getElementById('stats-notice').textContent.includes('importées')")
    assert store(page) == kept
    assert facts(page)["Parties jouées"] == "1"
    # A hostile or malformed file: a French message, nothing changes.
    for i, text in enumerate([
        "{oops",
        json.dumps({**kept, "history": [{"id": "zz", "date": "x"}]}),
        json.dumps({**kept, "rulesets": {"yams": {**next(iter(kept["rulesets"].values())), "played": "1e9"}}}),
        '{"format": "pygames-stats/1", "rulesets": ' + "[" * 5000 + "]" * 5000 + "}",
    ]):
        bad = tmp_path / f"bad{i}.json"
        bad.write_text(text, encoding="utf-8")
        page.set_input_files("#stats-import", str(bad))
        page.wait_for_function(
            "document.getElementById('stats-notice').textContent.includes('pas pu être importé')")
        assert store(page) == kept
        page.evaluate("document.getElementById('stats-notice').textContent = ''")


@pytest.mark.parametrize("family", PAGES)
def test_a_corrupt_store_is_set_aside_and_the_game_starts(page, site_url, family, request_log):
    url = f"{site_url}{family}.html?pace=0&seed=corrupt"
    siteharness.at_origin(page, site_url)
    page.evaluate("() => localStorage.clear()")
    set_item(page, STATS, "{oops")
    open_page(page, url + "&fresh=1")
    trouble = page.locator("#stats-trouble")
    assert trouble.is_visible() and "mises de côté" in trouble.inner_text()
    assert any(k.startswith(f"pygames:corrupt:{STATS}:") for k in aside_keys(page))
    assert page.evaluate("k => localStorage.getItem(k)", STATS) is None
    start_game(page)
    assert load_match(saved(page, family)["record"]).game.family == family
    page.click("#stats-trouble-ok")
    assert trouble.is_hidden()
    open_stats(page)
    assert "Aucune partie terminée" in page.text_content("#stats-body")


@pytest.mark.parametrize("family", PAGES)
def test_two_tabs_count_a_game_once(context, site_url, family, request_log):
    url = f"{site_url}{family}.html?seed=tabs-{family}"
    a = context.new_page()
    open_page(a, url + "&fresh=1&pace=0")
    a.evaluate("() => localStorage.clear()")
    set_item(a, f"pygames:{family}:match",
             json.dumps(nearly_finished(family, f"tabs-{family}", names_for(family))))
    b = context.new_page()
    open_page(b, url + "&pace=60000")  # B waits; A's computer ends the game
    open_page(a, url + "&pace=0")
    a.wait_for_function(OPEN_END, timeout=60_000)
    b.wait_for_function(OPEN_END, timeout=60_000)  # B follows A to the end screen
    reload(b)
    b.wait_for_function(OPEN_END)
    kept = store(b)
    assert kept["rulesets"][FAMILIES[family].games[0].id]["played"] == 1
    assert len(kept["history"]) == 1


@pytest.mark.parametrize("family", PAGES)
def test_a_full_storage_leaves_the_end_screen_whole(page, site_url, family, request_log):
    url = f"{site_url}{family}.html?pace=0&seed=full-{family}"
    open_page(page, url + "&fresh=1")
    page.evaluate("() => localStorage.clear()")
    set_item(page, f"pygames:{family}:match",
             json.dumps(nearly_finished(family, f"full-{family}", names_for(family))))
    earlier, _ = stats.record_match(stats.empty(), ident="f" * 32, date="2026-11-30T20:00:00.000Z",
                                    family=family, game=FAMILIES[family].games[0].id,
                                    players=[{"name": "Léa", "score": 1, "text": "1"}],
                                    winners=["Léa"], draw=False)
    set_item(page, STATS, stats.dumps(earlier))
    page.evaluate(FILL)
    page.evaluate(TO_THE_BRIM)
    open_page(page, url)
    page.wait_for_function(OPEN_END, timeout=60_000)
    assert page.locator("#ranking li").count() == len(names_for(family))
    assert page.locator("#again").is_visible()
    note = page.locator("#stats-end-note")
    assert note.is_visible() and "pleine" in note.inner_text()
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", STATS)) == earlier
    # Freeing the site's space (the other saved data, confirmed) keeps the statistics.
    page.wait_for_function("!document.getElementById('save-trouble').hidden")
    page.once("dialog", lambda d: d.accept())
    page.click("#free-space")
    page.wait_for_function("document.getElementById('save-trouble-text').textContent.includes('Toujours')")
    assert json.loads(page.evaluate("k => localStorage.getItem(k)", STATS)) == earlier
    page.evaluate("() => { for (const k of Object.keys(localStorage)) if (k.startsWith('filler:')) localStorage.removeItem(k); }")
