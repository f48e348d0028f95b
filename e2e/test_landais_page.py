"""The Dé Landais page (web/de-landais.html): a full seeded game against the computer, the
sealed points drawn on every track checked against the record saved in localStorage and
replayed by `pygames`; a game taken up from paper (the seed's example scores, four
players); a reload in the middle of a series (the floating points resume exactly); the
Conseil panel (both chances, as `pygames.landais.bots.advise` gives them); keyboard-only play;
the embed page; the journal of the series and the last series over, kept after a
computer's series at the normal speed and after a reload; no emoji on the page (a tir's
mark included); screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import pytest
from harness.landais import (
    check_journal,
    check_table,
    fmt,
    human_move,
    percent,
    read,
    throw_until_floating,
    wait_human_or_end,
    wants_seal,
)
from harness.pages import DESKTOP, LANDSCAPE, PHONE_320, PHONE_360, GamePage, no_sideways_scroll, open_embedded

from pygames import GAMES
from pygames.cli import read_tables
from pygames.dice import Roll
from pygames.landais import Seal, SeriesPlayed, journal
from pygames.landais.bots import advise
from pygames.landais.messages import throw_text
from pygames.messages import text as words

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url, "de-landais").open(fresh=True, seed="e2e-landais-full")
    assert page.locator("#setup").is_visible()
    game.fill_setup([("Léa", "human"), ("Robot", "simple")], options={"target": 1000, "manches": 2})
    screenshot(page, "landais_1280_setup")
    game.start()
    match = game.replay()
    # The opening throw is in the record (one die each) and on the table.
    assert match.history and all(a.notation().startswith("dice ") for a in match.history[:2])
    if match.state.first == 0:  # Léa starts: the opening throw stays in view
        view = read(page)
        assert view["opening"] and view["opening"].startswith("Lancer d'ouverture")
        assert "Léa commence" in view["opening"]
    shots, moves, manches_seen = set(), 0, set()
    while wait_human_or_end(page):
        match = game.replay()
        state = match.state
        check_table(page, match)
        manches_seen.add(state.manche)
        if state.floating and "floating" not in shots:
            shots.add("floating")
            screenshot(page, "landais_1280_floating")
        human_move(game, state)
        moves += 1
        assert moves < 800
    match = game.replay()
    state = match.state
    assert state.is_terminal() and state.rules.manches == 2
    check_table(page, match)
    screenshot(page, "landais_1280_end")
    winner = match.names[state.winner]
    assert page.text_content("#end-title") == f"{winner} gagne\u202f!"
    ranking = [[name, score] for _, name, score in game.ranking()]
    assert ranking[0][0] == winner and ranking[0][1].startswith("2 manches")
    assert "Analyse" not in [b.text_content() for b in page.locator("#end button:visible").all()]
    assert len(state.manche_winners) >= 2


def test_paper_start_four_players(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    # a Licorne or Chimère gift comes early
    game = GamePage(page, site_url, "de-landais").open(fresh=True, seed="e2e-landais-paper-9")
    names = ["Magazran", "Zuleyka", "Vaya", "Mage Invok"]
    game.fill_setup([(n, "human") for n in names[:2]])
    page.check("#paper-start")
    assert page.locator("#paper-scores input").count() == 2
    # Rows added after the box is ticked get their field, named after the row.
    game.fill_setup([(n, "human" if i else "human") for i, n in enumerate(names)])
    assert page.locator("#paper-scores input").count() == 4
    labels = page.evaluate("[...document.querySelectorAll('#paper-scores label')].map(l => l.textContent)")
    assert labels == names
    for i, text in enumerate(["1 450", "2150", "abc", "2'300"]):
        page.fill(f"#paper-score-{i}", text)
    page.click("#start")
    error = page.locator("#setup-error")
    assert error.is_visible() and "Vaya" in error.text_content() and "abc" in error.text_content()
    page.fill("#paper-score-2", "-175")
    page.click("#start")
    assert "multiple de 50" in error.text_content()
    page.fill("#paper-score-2", "−150")
    page.select_option("#paper-first", "0")
    screenshot(page, "landais_360_paper_setup")
    no_sideways_scroll(page, 360)
    game.start()
    match = game.replay()
    assert match.start == {"scores": [1450, 2150, -150, 2300], "first": 0}
    assert match.history == []  # no opening throw: Magazran starts
    view = check_table(page, match)
    assert [t["sealedText"] for t in view["tracks"]] == ["1\u202f450", "2\u202f150", "−150", "2\u202f300"]
    assert view["tracks"][0]["current"] and view["opening"] == "Magazran commence."
    # The negative score has its bar left of 0; the others fill from 0.
    assert float(view["tracks"][2]["fill"].rstrip("%")) > 0
    screenshot(page, "landais_360_paper")
    page.set_viewport_size(PHONE_320)
    screenshot(page, "landais_320_paper")
    no_sideways_scroll(page, 320)
    # Play a few throws by the mouse and check every track against the record.
    gifts = 0
    for _ in range(12):
        assert wait_human_or_end(page)
        match = game.replay()
        check_table(page, match)
        state = match.state
        mover = match.names[state.current_player()]
        sealing = wants_seal(state)
        human_move(game, state)
        # Every action is announced (all players are human here: nothing overwrites it).
        after = game.replay().state
        live = game.live()
        if sealing:
            assert live.startswith(f"{mover} scelle {fmt(state.floating)} points"), live
        else:
            faces = ", ".join(map(str, after.last.faces))
            assert live.startswith(f"{mover} lance {faces}\u00a0: {words(throw_text(after.last))}."), live
        if after.last is not None and after.last.effects and not sealing:
            gifts += 1  # check_table finds the "+600" / "−100" badges on the others' tracks
            view = check_table(page, game.replay())
            assert sum(len(t["badges"]) for t in view["tracks"]) >= len(after.last.effects)
            if gifts == 1:
                screenshot(page, "landais_320_gift")
        if after.player != state.player:
            scores = ", ".join(f"{n} {fmt(s)}" for n, s in zip(match.names, after.sealed))
            assert f"Scores\u00a0: {scores}." in live, live
    assert gifts >= 1
    check_table(page, game.replay())
    screenshot(page, "landais_320_playing")
    no_sideways_scroll(page, 320)


def test_reload_mid_series_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    game = GamePage(page, site_url, "de-landais").open(fresh=True, seed="e2e-landais-reload")
    game.fill_setup([("Léa", "human"), ("Paul", "simple")])
    game.start()
    state = throw_until_floating(game)
    before = read(page)
    blob = game.stored()
    screenshot(page, "landais_740x360_series", full_page=False)
    game.reload()
    after = read(page)
    assert game.stored()["record"] == blob["record"]
    assert after == before
    assert after["floating"] == fmt(state.floating) != "0"
    assert "Partie reprise" in game.live()
    check_table(page, game.replay())
    screenshot(page, "landais_740x360_resumed")
    # The series goes on from there: seal by the button.
    n = len(blob["record"]["actions"])
    page.click("#seal")
    game.wait_actions_above(n)
    match = game.replay()
    assert match.history[n] == Seal()
    assert match.state.sealed[0] == state.sealed[0] + state.floating


def test_advice_shows_both_chances(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url, "de-landais").open(fresh=True, seed="e2e-landais-advice")
    game.fill_setup([("Léa", "human"), ("Expert", "expert")])
    game.start()
    tables = read_tables(GAMES["de-landais"], {"target": 3000})
    state = throw_until_floating(game)
    found = advise(state, tables)
    expected = {"best": found.best.action.notation(), **{c.action.notation(): c.value for c in found.choices}}
    page.click("#advise")
    page.wait_for_selector("#advice button[data-advice]", timeout=90_000)  # the tables load first
    rows = page.evaluate("""() => [...document.querySelectorAll('#advice li')].map(li =>
        [li.querySelector('button').dataset.advice, li.querySelector('.advice-value').textContent])""")
    assert [r[0] for r in rows][0] == expected["best"] and {r[0] for r in rows} == {"seal", "roll"}
    values = dict(rows)
    assert values["seal"] == f"{percent(expected['seal'])} de chances de gagner"
    assert values["roll"] == f"{percent(expected['roll'])} de chances de gagner"
    assert "approximation" not in page.text_content("#advice").lower()
    assert game.live().startswith("Conseil")
    screenshot(page, "landais_1280_advice", full_page=False)
    n = game.actions()
    page.click(f'#advice button[data-advice="{expected["best"]}"]')
    game.wait_actions_above(n)
    assert game.replay().history[n].notation() == expected["best"]
    assert page.locator("#advice").is_hidden()


def test_keyboard_only(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    game = GamePage(page, site_url, "de-landais").open(fresh=True, seed="e2e-landais-keys")
    keys = page.keyboard
    game.start_by_keyboard(tabs=60)
    # Tab reaches every control of the table.
    wait_human_or_end(page)
    reached = set()
    for _ in range(12):
        keys.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert "advise" in reached, reached
    page.evaluate("document.activeElement.blur()")
    sealed = rolled = 0
    for _ in range(200):
        if not wait_human_or_end(page):
            break
        match = game.replay()
        check_table(page, match)
        if wants_seal(match.state):
            sealed += 1
        else:
            rolled += 1
        human_move(game, match.state, by="keyboard")
        if sealed >= 2 and rolled >= 4:
            break
    assert sealed >= 2 and rolled >= 4
    # Enter on the focused Lancer button plays it once (the button's own key).
    if wait_human_or_end(page):
        n = game.actions()
        page.focus("#roll")
        keys.press("Enter")
        game.wait_actions_above(n)
        assert game.replay().history[n] == Roll()
    screenshot(page, "landais_360_keyboard")
    check_table(page, game.replay())


#: Each tir's and throw's mark on the felt (.throw-name .what::before), for every kind.
MARKS_JS = """(kinds) => {
  const name = document.getElementById('throw-name'), what = name.querySelector('.what');
  const kept = name.className, marks = {};
  for (const kind of kinds) {
    name.className = 'throw-name kind-' + kind;
    marks[kind] = getComputedStyle(what, '::before').content;
  }
  name.className = kept;
  return marks;
}"""

#: Every text the page draws: its text nodes and the ::before / ::after of its elements.
TEXTS_JS = """() => {
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) texts.push(walker.currentNode.textContent);
  for (const el of document.body.querySelectorAll('*')) {
    for (const pseudo of ['::before', '::after']) texts.push(getComputedStyle(el, pseudo).content);
  }
  return texts.join('\\n');
}"""


def emoji(text: str) -> list[str]:
    """Characters drawn as emoji (a box where the system has no emoji font)."""
    return sorted({c for c in text if 0x1F000 <= ord(c) <= 0x1FAFF or c in "\ufe0f\u200d"})


def test_journal_keeps_every_series_and_the_last_one_stays(page, site_url, request_log, screenshot):
    """Issue 20, item 14: at the normal speed a computer's series and the opening throw went by
    in under a second with nothing left to read: the journal keeps them, the last series over
    stays above it until the next one ends, and both come back after a reload."""
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url, "de-landais")
    game.at_origin()
    game.store("prefs", {"pace": "normal"})  # the computer's speed: Normale (650 ms a move)
    game.open(fresh=True, seed="e2e-landais-journal", pace=None)
    game.fill_setup([("Léa", "human"), ("Robot", "simple")])
    game.start()
    computer_series = 0
    for _ in range(80):
        assert wait_human_or_end(page)
        match = game.replay()
        entries = journal(match.positions())
        over = [e for e in entries if isinstance(e, SeriesPlayed) and e.end]
        if over and over[-1].player == 1 and match.state.pending == "start":
            computer_series += 1
            view = check_journal(page, match)  # the computer's series, throw by throw
            assert view["last"][1].startswith("Robot\u00a0: ")
            assert view["journal"][-1][1].startswith("Lancer d'ouverture\u00a0: Léa ")
            assert view["journal"][-1][1].endswith(" commence.")
            if computer_series == 1:
                screenshot(page, "landais_1280_journal_closed", full_page=False)
                page.click("#journal summary")
                screenshot(page, "landais_1280_journal")
            if computer_series == 2:
                break
        human_move(game, match.state)
    assert computer_series == 2
    # The journal is drawn from the saved record: a reload gives it back, whole.
    before = check_journal(page, match)
    game.reload()
    assert check_journal(page, game.replay()) == before
    # No emoji anywhere on the page, the tirs' marks included.
    marks = page.evaluate(MARKS_JS, ["poigne", "points", "troll", "vereux", "licorne", "chimere", "vide"])
    assert all(not emoji(m) for m in marks.values()), marks
    assert marks["troll"] != "none"  # the check reads the marks that are there
    assert emoji(page.evaluate(TEXTS_JS)) == []
    game.forget("prefs")


def test_embed_page(page, site_url, request_log, screenshot):
    game = open_embedded(page, site_url, "de-landais", "blog", viewport={"width": 600, "height": 700},
                         fresh=True, seed="e2e-landais-embed", players="Alice,Ordi:expert")
    view = read(page)
    assert [t["name"] for t in view["tracks"]] == ["Alice", "Ordi"]
    wait_human_or_end(page)
    n = game.actions()
    page.click("#roll")
    game.wait_actions_above(n)
    match = game.replay()
    assert match.players[1].seat == "expert" and Roll() in match.history
    screenshot(page, "landais_embed")
