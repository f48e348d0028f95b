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
from pathlib import Path

import pytest
import stats  # web/app/stats.py: what the page computes
from harness.pages import GAME_PAGES, GamePage, aside_keys, empty_filler, fill_storage, nearly_finished

from pygames import FAMILIES, load_match

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

HOSTILE = "<img src=x onerror=alert(1)>"


def names_for(family: str) -> list[str]:
    game = FAMILIES[family].games[0]
    return [HOSTILE, "Ordi"][: max(game.min_players, 2)] if game.max_players > 1 else [HOSTILE]


def finish(game: GamePage, record_seed: str, **params) -> dict:
    """Save a nearly finished game, open the page on it, wait for the end: the final match."""
    game.store("match", nearly_finished(game.family, record_seed, names_for(game.family)))
    game.open(**params)
    game.wait_end()
    return game.record()


def open_stats(page, button="#open-stats"):
    page.click(button)
    page.wait_for_function("() => document.getElementById('stats').open")
    return page.locator("#stats")


def close_stats(page):
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('stats').open")


def facts(page) -> dict:
    """The figures of the first ruleset section shown: {term: value}."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#stats-body .stats-ruleset:has(dl) ')].slice(0, 1).flatMap((s) =>
        [...s.querySelectorAll('dl div')].map((d) => [d.querySelector('dt').textContent,
                                                     d.querySelector('dd').textContent])))""")


def player_rows(page) -> dict:
    """The players' table of the first ruleset shown: {name: [parties, victoires, taux, the
    game's figures...]}."""
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


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_finished_game_is_counted_once_and_survives_export_clear_import(page, site_url, family,
                                                                         request_log, tmp_path):
    page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(d.message)))  # no confirm()
    game = GamePage(page, site_url, family).open(fresh=True, seed=f"stats-{family}")
    page.evaluate("() => localStorage.clear()")
    record = finish(game, f"near-{family}", seed=f"stats-{family}")
    want = expected(record)
    kept = game.stored("stats")
    assert kept and len(kept["history"]) == 1 and kept["seen"] == [stats.match_id(record)]
    # The end screen leads to the dialog.
    dialog = open_stats(page, "#end-stats")
    shown = facts(page)
    assert shown["Parties jouées"] == "1"
    # Every figure is a player's, in the game's sense of better (issue 20, item 4): no mean
    # over the seats; the record and who holds it, except in the 421 (every winner ends
    # with no token); each name's win rate and mean.
    assert not any(k.startswith(("Score moyen", "Meilleur score")) for k in shown), shown
    rows = player_rows(page)
    assert set(rows) == set(want["names"])
    heads = page.eval_on_selector_all("#stats-body .stats-players thead th", "hs => hs.map(h => h.textContent)")
    caption = page.text_content("#stats-body .stats-players caption")
    if family == "421":
        assert not any(k.startswith("Record") for k in shown), shown
        assert heads == ["Joueur", "Parties", "Victoires", "Taux", "Moyenne"]
        assert caption.endswith("(moyenne\u00a0: jetons en fin de partie, moins c'est mieux)")
    else:
        top = max(want["scores"].values())
        holders = [n for n in want["names"] if want["scores"][n] == top]
        assert shown["Record (points)"] == f"{stats.french_number(top)}, {', '.join(holders)}"
        assert heads == ["Joueur", "Parties", "Victoires", "Taux", "Meilleur", "Moyenne"]
        assert caption.endswith("(en points)")
    for name, cells in rows.items():
        won = name in want["winners"]
        assert cells[:3] == ["1", "1" if won else "0", "100\u00a0%" if won else "0\u00a0%"], cells
        mine = stats.french_number(want["value"](want["scores"][name]))
        assert cells[3:] == ([mine] if family == "421" else [mine, mine]), cells
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
    game.reload()
    game.wait_end()
    assert game.stored("stats") == kept
    open_stats(page)
    assert facts(page)["Parties jouées"] == "1"
    # Export, clear (confirmed), import: the same store.
    with page.expect_download() as info:
        page.click("#stats-export")
    path = info.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8")) == kept
    page.click("#stats-clear")
    ask = page.locator("#ask")
    assert ask.is_visible() and page.text_content("#ask-title") == "Effacer toutes les statistiques\u00a0?"
    assert page.evaluate("document.activeElement.id") == "ask-cancel"  # the safe answer first
    page.keyboard.press("Escape")  # cancelled: nothing is cleared, the statistics stay open
    assert ask.is_hidden() and dialog.is_visible() and game.stored("stats") == kept
    assert page.evaluate("document.activeElement.id") == "stats-clear"
    page.click("#stats-clear")
    game.answer(True)
    page.wait_for_function("() => document.getElementById('stats-notice').textContent.includes('effacées')")
    assert page.locator("#stats-body .stats-players").count() == 0
    assert stats.is_empty(stats.check(game.stored("stats")))
    page.set_input_files("#stats-import", path)
    page.wait_for_function("() => document.getElementById('stats-notice').textContent.includes('importées')")
    assert game.stored("stats") == kept
    assert facts(page)["Parties jouées"] == "1"
    # Over statistics already there, the import asks first; cancelled, nothing changes.
    page.set_input_files("#stats-import", path)
    game.answer(False)
    page.wait_for_function("() => document.getElementById('stats-notice').textContent.includes('annulé')")
    assert game.stored("stats") == kept
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
            "() => document.getElementById('stats-notice').textContent.includes('pas pu être importé')")
        assert game.stored("stats") == kept
        page.evaluate("document.getElementById('stats-notice').textContent = ''")


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_corrupt_store_is_set_aside_and_the_game_starts(page, site_url, family, request_log):
    game = GamePage(page, site_url, family)
    game.at_origin()
    page.evaluate("() => localStorage.clear()")
    game.store("stats", "{oops")
    game.open(fresh=True, seed="corrupt")
    trouble = page.locator("#stats-trouble")
    assert trouble.is_visible() and "mises de côté" in trouble.inner_text()
    assert any(k.startswith(f"pygames:corrupt:{game.key('stats')}:") for k in aside_keys(page))
    assert game.get_item("stats") is None
    game.start()
    assert game.replay().game.family == family
    page.click("#stats-trouble-ok")
    assert trouble.is_hidden()
    open_stats(page)
    assert "Aucune partie terminée" in page.text_content("#stats-body")


@pytest.mark.parametrize("family", GAME_PAGES)
def test_two_tabs_count_a_game_once(context, site_url, family, request_log):
    seed = f"tabs-{family}"
    a = GamePage(context.new_page(), site_url, family).open(fresh=True, seed=seed)
    a.page.evaluate("() => localStorage.clear()")
    a.store("match", nearly_finished(family, seed, names_for(family)))
    b = GamePage(context.new_page(), site_url, family)
    b.open(seed=seed, pace=60000)  # B waits; A's computer ends the game
    a.open(seed=seed)
    a.wait_end()
    b.wait_end()  # B follows A to the end screen
    b.reload()
    b.wait_end()
    kept = b.stored("stats")
    assert kept["rulesets"][FAMILIES[family].games[0].id]["played"] == 1
    assert len(kept["history"]) == 1


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_full_storage_leaves_the_end_screen_whole(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(fresh=True, seed=f"full-{family}")
    page.evaluate("() => localStorage.clear()")
    game.store("match", nearly_finished(family, f"full-{family}", names_for(family)))
    earlier, _ = stats.record_match(stats.empty(), ident="f" * 32, date="2026-11-30T20:00:00.000Z",
                                    family=family, game=FAMILIES[family].games[0].id,
                                    players=[{"name": "Léa", "score": 1, "text": "1"}],
                                    winners=["Léa"], draw=False)
    game.store("stats", stats.dumps(earlier))
    fill_storage(page, to_the_brim=True)
    game.open(seed=f"full-{family}")
    game.wait_end()
    assert page.locator("#ranking li").count() == len(names_for(family))
    assert page.locator("#again").is_visible()
    note = page.locator("#stats-end-note")
    assert note.is_visible() and "pleine" in note.inner_text()
    assert game.stored("stats") == earlier
    # Freeing the site's space (the other saved data, confirmed) keeps the statistics.
    page.wait_for_function("() => !document.getElementById('save-trouble').hidden")
    page.once("dialog", lambda d: d.accept())
    page.click("#free-space")
    page.wait_for_function("() => document.getElementById('save-trouble-text').textContent.includes('Toujours')")
    assert game.stored("stats") == earlier
    empty_filler(page)
