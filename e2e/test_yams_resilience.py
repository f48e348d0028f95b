"""The Yams page survives reloads, bad saves and hostile names, and its rules dialog
follows the chosen ruleset."""

from __future__ import annotations

import json
import re

import pytest
from harness import site
from harness.pages import DESKTOP, GamePage
from harness.yams import XSS_NAME, YamsDriver, check_sheet_totals, expected_ranking, read_ranking, read_sheet, read_view

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)


def _snapshot(page, match):
    view = read_view(page)
    return {
        "sheet": read_sheet(page, match),
        "dice": view.dice,
        "rolls": view.rolls,
        "turn_info": view.turn_info,
        "head": view.head,
        "current": view.current,
        "roll_label": page.text_content("#roll"),
    }


def test_reload_mid_game_resumes(page, site_url, request_log):
    seed = "e2e-reload"
    game = GamePage(page, site_url).open(seed=seed)  # no fresh=1: a reload must resume
    game.start_game([("Reprise", "human")], ruleset="yams", or_end=True)
    driver = YamsDriver(game, by="mouse")
    for _ in range(3):
        driver.play_turn()
    # Mid-turn: one roll made, two dice held.
    game.dice.roll()
    game.dice.wait_throws(1)
    game.dice.toggle(0)
    game.dice.toggle(3)
    assert read_view(page).held == {0, 3}
    match = game.replay()
    before = _snapshot(page, match)
    record_before = game.record()
    assert "Tour 4/15" in before["turn_info"] and "lancer 1/3" in before["turn_info"]

    game.reload()
    assert game.screen() == "table"
    after_reload = _snapshot(page, match)
    assert after_reload["sheet"] == before["sheet"]
    assert after_reload["turn_info"] == before["turn_info"]
    assert [d["face"] for d in after_reload["dice"]] == [d["face"] for d in before["dice"]]
    # The held dice are part of the table too (the page saves "held" for that).
    assert read_view(page).held == {0, 3}, "held dice were lost by the reload"
    assert after_reload == before
    assert game.record() == record_before
    assert game.live() == "Partie reprise."

    # Play goes on: the held dice stay, the others are rolled with the seeded dice.
    game.dice.roll()
    game.dice.wait_throws(2)
    after = read_view(page)
    assert [after.faces[p] for p in (0, 3)] == [before["dice"][p]["face"] for p in (0, 3)]
    expected = game.replay().state.dice
    assert after.faces == expected
    driver.play_turn()  # finishes the resumed turn
    driver.play_turn()
    match = game.replay()
    assert sum(v is not None for v in match.state.sheets[0]) == 5
    assert "Tour 6/15" in read_view(page).turn_info


GARBAGE = "{not json"
# Python's own exception text, e.g. the json module's English "Expecting property name
# enclosed in double quotes: line 1 column 2 (char 1)".
PYTHON_TEXT = r"Traceback|Error|Expecting|line \d+ column|char \d+"
BAD_SAVES = [
    (GARBAGE, "n'a pas pu être reprise"),
    ("[1, 2, 3]", "un objet est attendu"),
    (json.dumps({"record": None}), "partie absente"),
    (json.dumps({"record": {"format": "pygames/1", "game": "yams",
                            "players": [{"name": "X", "seat": "wizard"}], "actions": []}}),
     "Partie enregistrée invalide"),
    # (A newer format, "pygames/2" and on, is not corrupt: kept in place, e2e/test_versions.py.)
    (json.dumps({"record": {"format": "pygames/neuf", "game": "yams", "players": [], "actions": []}}),
     "Format de partie inconnu"),
]


def test_corrupt_save_shows_a_notice_and_a_new_game_starts(page, site_url, request_log):
    game = GamePage(page, site_url).open(seed="e2e-corrupt")
    game.start_game([("Zoé", "human")], ruleset="yams", or_end=True)
    YamsDriver(game, by="mouse").play_turn()
    good = game.stored()

    # A record with an illegal action: "score ones" at the start of a turn, before rolling.
    bad = json.loads(json.dumps(good))
    bad["record"]["actions"].append("score ones")
    cases = BAD_SAVES + [(json.dumps(bad), f"Coup n° {len(bad['record']['actions'])}")]
    for text, expected in cases:
        game.store("match", text)
        game.reload()
        assert game.screen() == "setup", text
        notice = page.locator("#setup-notice")
        assert notice.is_visible(), text
        message = notice.text_content()
        assert "n'a pas pu être reprise" in message and expected in message, (text, message)
        assert not re.search(PYTHON_TEXT, message), message  # readable French, not Python's
        assert game.get_item("match") is None
        assert page.locator("#start").is_enabled()

    # And a new game starts from that screen.
    game.start_game([("Zoé", "human")], ruleset="yams-boite", or_end=True)
    assert game.screen() == "table"
    assert not page.locator("#setup-notice").is_visible()
    game.dice.roll()
    game.dice.wait_throws(1)
    assert game.replay().game.id == "yams-boite"

    # A valid record with a nonsense "held" list is still resumed (without holds).
    blob = game.stored()
    blob["held"] = [9, -1, "x", None]
    game.store("match", json.dumps(blob))
    game.reload()
    assert game.screen() == "table"
    assert read_view(page).held == set()


def test_hostile_player_name_is_shown_as_text(page, site_url, request_log):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    # Record every element ever inserted, even briefly, and every alert() call.
    page.add_init_script("""
        window.__alerts = 0;
        const original = window.alert;
        window.alert = function (...args) { window.__alerts++; return original.apply(this, args); };
        window.__imgs = 0;
        window.__named = [];  // inserted <script>alert…</script> or [onerror] elements
        new MutationObserver(records => {
          for (const r of records) for (const n of r.addedNodes) {
            if (n.nodeType !== 1) continue;
            if (n.tagName === 'IMG' || n.querySelector('img')) window.__imgs++;
            for (const e of [n, ...n.querySelectorAll('script, [onerror]')]) {
              if (e.tagName === 'SCRIPT' ? /alert/.test(e.textContent) : e.hasAttribute('onerror')) {
                window.__named.push(e.outerHTML);
              }
            }
          }
        }).observe(document, {childList: true, subtree: true});
    """)
    bot_name = "<script>alert(2)</script>"
    game = GamePage(page, site_url).open(seed="e2e-xss")
    game.start_game([(XSS_NAME, "human"), (bot_name, "simple")], ruleset="yahtzee", or_end=True)
    view = read_view(page)
    assert view.head == [XSS_NAME, bot_name]
    assert page.text_content("#turn-info .who") == XSS_NAME
    assert page.get_attribute("#sheet-head th:nth-child(2)", "title") == XSS_NAME

    driver = YamsDriver(game, by="mouse")
    while driver.wait_human_turn_or_end() == "table":
        driver.play_turn()
        if len(driver.scored) == 1:
            assert XSS_NAME in game.live() or bot_name in game.live()
    assert len(driver.scored) == 13
    match = game.replay()
    assert [p.name for p in match.players] == [XSS_NAME, bot_name]
    check_sheet_totals(page, match)
    ranking = read_ranking(page)
    assert ranking == expected_ranking(match)
    assert {name for _, name, _ in ranking} == {XSS_NAME, bot_name}
    title = page.text_content("#end-title")
    assert XSS_NAME in title or bot_name in title

    # Back on the setup screen, the names come back as input values.
    page.click("#to-setup")
    values = page.eval_on_selector_all("#player-rows input[type=text]", "els => els.map(e => e.value)")
    assert values == [XSS_NAME, bot_name]

    assert dialogs == []
    assert page.evaluate("window.__alerts") == 0
    assert page.evaluate("window.__imgs") == 0
    assert page.evaluate("window.__named") == []
    assert page.locator("img").count() == 0
    # (the page's own early scripts, js/*.js, and the setup's JSON data sit in <main>)
    assert page.locator("#main script:not([src^='js/']):not(#setup-data), #sheet script, #ranking script").count() == 0


def _visible_rules(page):
    return page.evaluate("""() => [...document.querySelectorAll('#rules [data-ruleset], #rules [data-option]')]
        .filter(n => n.checkVisibility())
        .map(n => n.dataset.ruleset || (n.dataset.option + '=' + n.dataset.when))""")


def _open_rules(page):
    page.click("#open-rules")
    page.wait_for_selector("#rules[open]")
    assert page.locator("#rules").is_visible()


def _close_rules(page):
    page.click("#rules .dialog-close button")
    page.wait_for_selector("#rules", state="hidden")


def test_rules_dialog_shows_the_chosen_ruleset_only(page, site_url, request_log):
    page.set_viewport_size(DESKTOP)
    game = GamePage(page, site_url).open(seed="e2e-rules")
    game.start_game([("Règle", "human")], ruleset="yams-boite", options={"bonus_above_63": True},
                    or_end=True)
    _open_rules(page)
    assert _visible_rules(page) == ["yams-boite", "bonus_above_63=true", "forced_scoring=true"]
    # The sections common to every ruleset are there too.
    assert page.locator("#rules h3", has_text="Le tour de jeu").is_visible()
    assert page.locator("#rules h3", has_text="Au clavier").is_visible()
    # Keys do not play while the dialog is open.
    page.keyboard.press("1")
    assert read_view(page).rolls == 0
    _close_rules(page)

    game.quit_to_setup()  # "Abandonner la partie en cours ?", accepted
    game.start_game([("Règle", "human")], ruleset="yahtzee", options={"plain": True}, or_end=True)
    _open_rules(page)
    assert _visible_rules(page) == ["yahtzee", "plain=true"]
    _close_rules(page)

    game.quit_to_setup()
    game.start_game([("Règle", "human")], ruleset="yams", options={"four_kind_is_two_pairs": False},
                    or_end=True)
    _open_rules(page)
    assert _visible_rules(page) == ["yams"]
    _close_rules(page)


def test_rules_dialog_on_setup_screen_follows_the_selected_ruleset(page, site_url, request_log):
    game = GamePage(page, site_url).open(fresh=True)
    game.fill_setup(ruleset="yahtzee")
    _open_rules(page)
    assert _visible_rules(page) == ["yahtzee", "plain=false"]


def test_page_script_failing_before_ready_says_so_quickly(page, request_log, dist_dir):
    """The page's Python script raising as it starts (a game module missing or damaged):
    the page says it could not start at once, and prints no traceback on the page."""
    import time

    html = (dist_dir / "yams.html").read_text(encoding="utf-8")
    assert "import shell; shell.main(" in html
    server, url = site.start_site({"yams.html": html.replace("import shell;", "import shell_gone;").encode()})
    try:
        start = time.monotonic()
        page.goto(url + "yams.html?fresh=1&nosw")
        page.wait_for_selector("#error:not([hidden])", timeout=30_000)
        assert time.monotonic() - start < 20
        assert "n'a pas pu démarrer" in page.text_content("#error-text")
        assert page.locator("#loading").is_hidden() and page.locator(".py-error").count() == 0
        assert "Traceback" not in page.inner_text("body")
    finally:
        site.stop_site(server)


@pytest.mark.parametrize("name, body", [
    ("pyodide.asm.mjs", b'throw new Error("damaged");'),
    ("pyodide.asm.wasm", b"\0asm damaged"),
])
def test_broken_runtime_says_so_quickly(page, request_log, name, body):
    """Python's runtime unusable (a damaged file): the page says it could not start, in
    French, within seconds -- not a blank page, nor the 90 s timeout."""
    import time

    server, url = site.start_site({f"{site.PYODIDE_DIR}/{name}": body})
    try:
        start = time.monotonic()
        page.goto(url + "yams.html?fresh=1&nosw")
        page.wait_for_selector("#error:not([hidden])", timeout=30_000)
        assert time.monotonic() - start < 20
        text = page.text_content("#error-text")
        assert "n'a pas pu démarrer" in text, text
        assert page.locator("#loading").is_hidden()
    finally:
        site.stop_site(server)
