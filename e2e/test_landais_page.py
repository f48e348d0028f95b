"""The Dé Landais page (web/de-landais.html): a full seeded game against the computer, the
sealed points drawn on every track checked against the record saved in localStorage and
replayed by `pygames`; a game taken up from paper (the seed's example scores, four
players); a reload in the middle of a series (the floating points resume exactly); the
Conseil panel (both chances, as `landais_expert.advise` gives them); keyboard-only play;
the embed page; screenshots at 320, 360, 1280 px wide and 740×360."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygames import GAMES, load_match  # noqa: E402
from pygames.dice import Roll  # noqa: E402
from pygames.landais import Seal  # noqa: E402
from pygames.cli import read_tables  # noqa: E402
from pygames.landais.bots import advise  # noqa: E402
from pygames.landais.messages import throw_text  # noqa: E402
from pygames.messages import text as words  # noqa: E402
from pygames.core import Match  # noqa: E402

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)

STORE_KEY = "pygames:de-landais:match"
BOOT_TIMEOUT_MS = 90_000
DESKTOP = {"width": 1280, "height": 800}
PHONE_320 = {"width": 320, "height": 640}
PHONE_360 = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
GAME = GAMES["de-landais"]
THIN = "\u202f"


def fmt(n: int) -> str:
    return ("−" if n < 0 else "") + f"{abs(n):,}".replace(",", THIN)


def percent(p: float) -> str:
    return f"{100 * p:.1f}".replace(".", ",") + "\u00a0%"


# --- page basics ------------------------------------------------------------------------


def wait_ready(page) -> None:
    page.wait_for_function("document.body.dataset.ready", timeout=BOOT_TIMEOUT_MS)


def open_page(page, site_url, *, seed, pace=0, path="de-landais.html", extra="") -> None:
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{site_url}{path}?fresh=1&seed={seed}&pace={pace}{extra}")
    wait_ready(page)


def reload(page) -> None:
    """Reload without ?fresh=1 (which would start afresh instead of resuming)."""
    url = re.sub(r"fresh=1&?", "", page.url)
    page.evaluate("delete document.body.dataset.ready")
    page.goto(url)
    wait_ready(page)


def saved(page, key=STORE_KEY) -> dict | None:
    text = page.evaluate("k => localStorage.getItem(k)", key)
    return json.loads(text) if text else None


def replay(page, key=STORE_KEY) -> Match:
    blob = saved(page, key)
    assert blob, "no saved game"
    return load_match(blob["record"])


def fill_setup(page, players, options=None) -> None:
    for opt, value in (options or {}).items():
        page.select_option(f'#option-choices [data-option="{opt}"]', str(value))
    while page.locator("#player-rows li").count() < len(players):
        page.click("#add-player")
    while page.locator("#player-rows li").count() > len(players):
        page.locator("#player-rows li .remove").last.click()
    rows = page.locator("#player-rows li")
    for i, (name, seat) in enumerate(players):
        rows.nth(i).locator("input[type=text]").fill(name)
        rows.nth(i).locator("select").select_option(seat)


def start(page) -> None:
    page.click("#start")
    page.wait_for_function("!document.getElementById('table').hidden")


READ_JS = """
() => {
  const q = (s) => document.querySelector(s);
  return {
    dice: [...document.querySelectorAll('#dice .die')].map(d => Number(d.dataset.face)),
    throwName: q('#throw-name').textContent,
    floating: q('#floating').textContent,
    tracks: [...document.querySelectorAll('#tracks li')].map(li => ({
      name: li.querySelector('.name').textContent,
      sealed: Number(li.dataset.sealed),
      sealedText: li.querySelector('.sealed').textContent,
      floating: Number(li.dataset.floating),
      floatText: li.querySelector('.float').textContent,
      badges: [...li.querySelectorAll('.badge')].map(b => b.textContent),
      manches: li.querySelector('.manches').textContent,
      current: li.classList.contains('current'),
      winner: li.classList.contains('winner'),
      fill: li.querySelector('.fill').style.width,
      ghost: li.querySelector('.ghost').hidden ? null : li.querySelector('.ghost').style.width,
    })),
    turn: q('#turn-info').textContent,
    roll: q('#roll').disabled, seal: q('#seal').disabled,
    opening: q('#opening').hidden ? null : q('#opening').textContent,
  };
}
"""


def read(page) -> dict:
    return page.evaluate(READ_JS)


def check_table(page, match: Match) -> dict:
    """What the page draws is the replayed state: every sealed score (number and text),
    the floating points (big number and the ghost on the current track), the current
    player, the last throw's dice and name, the gifts of the last throw, Lancer/Sceller."""
    state, names = match.state, match.names
    view = read(page)
    current = None if state.is_terminal() else state.current_player()
    assert [t["name"] for t in view["tracks"]] == names
    for p, track in enumerate(view["tracks"]):
        assert track["sealed"] == state.sealed[p], (p, track, state.sealed)
        assert track["sealedText"] == fmt(state.sealed[p])
        assert track["current"] == (p == current)
        floating = state.floating if p == current else 0
        assert track["floating"] == floating
        assert (track["ghost"] is not None) == bool(floating)
        if state.rules.manches > 1:
            won = state.manches_won[p]
            assert track["manches"].endswith(f"{won} manche{'s' if won > 1 else ''} gagnée{'s' if won > 1 else ''}")
    assert view["floating"] == fmt(state.floating if current is not None else 0)
    if state.last is not None:
        assert view["dice"] == list(state.last.faces)
        assert words(throw_text(state.last)) in view["throwName"]
        history = match.history
        if len(history) >= 2 and isinstance(history[-2], Roll) and not isinstance(history[-1], Seal):
            for q, d in state.last.effects:
                assert ("+" if d > 0 else "") + fmt(d) in view["tracks"][q]["badges"], (q, d, view)
    else:
        assert view["dice"] == [0, 0, 0]
    if current is not None and match.players[current].seat == "human":
        assert view["roll"] == (not state.can_roll) and view["seal"] == (not state.can_seal)
    else:
        assert view["roll"] and view["seal"]  # nothing to click while a computer plays
    return view


def wait_human_or_end(page, timeout=90_000) -> bool:
    """Until a human may throw (True), or the game is over (False)."""
    page.wait_for_function(
        "() => !document.getElementById('end').hidden || !document.getElementById('roll').disabled",
        timeout=timeout)
    return page.locator("#end").is_hidden()


def record_length(page, key=STORE_KEY) -> int:
    return len(saved(page, key)["record"]["actions"])


def wait_record_grows(page, before: int, key=STORE_KEY) -> None:
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.length > n", arg=[key, before])


def wants_seal(state) -> bool:
    """The tests' human: seals 200 or more, or when sealing wins."""
    return state.can_seal and (state.floating >= 200 or state.seal_wins)


def human_move(page, state, by="mouse") -> None:
    before = record_length(page)
    if wants_seal(state):
        if by == "mouse":
            page.click("#seal")
        else:
            page.keyboard.press("s")
    else:
        if by == "mouse":
            page.click("#roll")
        else:
            page.keyboard.press("Space")
    wait_record_grows(page, before)


# --- the tests ------------------------------------------------------------------------------


def test_full_game_against_the_computer(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    open_page(page, site_url, seed="e2e-landais-full")
    assert page.locator("#setup").is_visible()
    fill_setup(page, [("Léa", "human"), ("Robot", "simple")], {"target": 1000, "manches": 2})
    screenshot(page, "landais_1280_setup")
    start(page)
    match = replay(page)
    # The opening throw is in the record (one die each) and on the table.
    assert match.history and all(a.notation().startswith("dice ") for a in match.history[:2])
    if match.state.first == 0:  # Léa starts: the opening throw stays in view
        view = read(page)
        assert view["opening"] and view["opening"].startswith("Lancer d'ouverture")
        assert "Léa commence" in view["opening"]
    shots, moves, manches_seen = set(), 0, set()
    while wait_human_or_end(page):
        match = replay(page)
        state = match.state
        check_table(page, match)
        manches_seen.add(state.manche)
        if state.floating and "floating" not in shots:
            shots.add("floating")
            screenshot(page, "landais_1280_floating")
        human_move(page, state)
        moves += 1
        assert moves < 800
    match = replay(page)
    state = match.state
    assert state.is_terminal() and state.rules.manches == 2
    check_table(page, match)
    screenshot(page, "landais_1280_end")
    winner = match.names[state.winner]
    assert page.text_content("#end-title") == f"{winner} gagne !"
    ranking = page.evaluate("""() => [...document.querySelectorAll('#ranking li')].map(li =>
        [li.querySelector('.name').textContent, li.querySelector('.score').textContent])""")
    assert ranking[0][0] == winner and ranking[0][1].startswith("2 manches")
    assert "Analyse" not in [b.text_content() for b in page.locator("#end button:visible").all()]
    assert len(state.manche_winners) >= 2


def test_paper_start_four_players(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    open_page(page, site_url, seed="e2e-landais-paper-9")  # a Licorne or Chimère gift comes early
    names = ["Magazran", "Zuleyka", "Vaya", "Mage Invok"]
    fill_setup(page, [(n, "human") for n in names[:2]])
    page.check("#paper-start")
    assert page.locator("#paper-scores input").count() == 2
    # Rows added after the box is ticked get their field, named after the row.
    fill_setup(page, [(n, "human" if i else "human") for i, n in enumerate(names)])
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
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    start(page)
    match = replay(page)
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
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # Play a few throws by the mouse and check every track against the record.
    gifts = 0
    for _ in range(12):
        assert wait_human_or_end(page)
        match = replay(page)
        check_table(page, match)
        state = match.state
        mover = match.names[state.current_player()]
        sealing = wants_seal(state)
        human_move(page, state)
        # Every action is announced (all players are human here: nothing overwrites it).
        after = replay(page).state
        live = page.text_content("#live")
        if sealing:
            assert live.startswith(f"{mover} scelle {fmt(state.floating)} points"), live
        else:
            faces = ", ".join(map(str, after.last.faces))
            assert live.startswith(f"{mover} lance {faces} : {words(throw_text(after.last))}."), live
        if after.last is not None and after.last.effects and not sealing:
            gifts += 1  # check_table finds the "+600" / "−100" badges on the others' tracks
            view = check_table(page, replay(page))
            assert sum(len(t["badges"]) for t in view["tracks"]) >= len(after.last.effects)
            if gifts == 1:
                screenshot(page, "landais_320_gift")
        if after.player != state.player:
            scores = ", ".join(f"{n} {fmt(s)}" for n, s in zip(match.names, after.sealed))
            assert f"Scores : {scores}." in live, live
    assert gifts >= 1
    check_table(page, replay(page))
    screenshot(page, "landais_320_playing")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_reload_mid_series_resumes_exactly(page, site_url, request_log, screenshot):
    page.set_viewport_size(LANDSCAPE)
    open_page(page, site_url, seed="e2e-landais-reload")
    fill_setup(page, [("Léa", "human"), ("Paul", "simple")])
    start(page)
    for _ in range(300):
        assert wait_human_or_end(page)
        state = replay(page).state
        if state.can_seal and state.floating:
            break
        before = record_length(page)
        page.click("#roll")
        wait_record_grows(page, before)
    else:
        raise AssertionError("never a series with floating points")
    before = read(page)
    blob = saved(page)
    screenshot(page, "landais_740x360_series", full_page=False)
    reload(page)
    after = read(page)
    assert saved(page)["record"] == blob["record"]
    assert after == before
    assert after["floating"] == fmt(state.floating) != "0"
    assert "Partie reprise" in page.text_content("#live")
    check_table(page, replay(page))
    screenshot(page, "landais_740x360_resumed")
    # The series goes on from there: seal by the button.
    n = len(blob["record"]["actions"])
    page.click("#seal")
    wait_record_grows(page, n)
    match = replay(page)
    assert match.history[n] == Seal()
    assert match.state.sealed[0] == state.sealed[0] + state.floating


def test_advice_shows_both_chances(page, site_url, request_log, screenshot):
    page.set_viewport_size(DESKTOP)
    open_page(page, site_url, seed="e2e-landais-advice")
    fill_setup(page, [("Léa", "human"), ("Expert", "expert")])
    start(page)
    tables = read_tables(GAMES["de-landais"], {"target": 3000})
    for _ in range(300):
        assert wait_human_or_end(page)
        state = replay(page).state
        if state.can_seal and state.floating:
            break
        before = record_length(page)
        page.click("#roll")
        wait_record_grows(page, before)
    else:
        raise AssertionError("never a choice to make")
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
    assert page.text_content("#live").startswith("Conseil")
    screenshot(page, "landais_1280_advice", full_page=False)
    n = record_length(page)
    page.click(f'#advice button[data-advice="{expected["best"]}"]')
    wait_record_grows(page, n)
    assert replay(page).history[n].notation() == expected["best"]
    assert page.locator("#advice").is_hidden()


def test_keyboard_only(page, site_url, request_log, screenshot):
    page.set_viewport_size(PHONE_360)
    open_page(page, site_url, seed="e2e-landais-keys")
    keys = page.keyboard
    for _ in range(60):
        if page.evaluate("document.activeElement && document.activeElement.id") == "start":
            break
        keys.press("Tab")
    else:
        raise AssertionError("Tab never reached #start")
    keys.press("Enter")
    page.wait_for_function("!document.getElementById('table').hidden")
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
        match = replay(page)
        check_table(page, match)
        if wants_seal(match.state):
            sealed += 1
        else:
            rolled += 1
        human_move(page, match.state, by="keyboard")
        if sealed >= 2 and rolled >= 4:
            break
    assert sealed >= 2 and rolled >= 4
    # Enter on the focused Lancer button plays it once (the button's own key).
    if wait_human_or_end(page):
        n = record_length(page)
        page.focus("#roll")
        keys.press("Enter")
        wait_record_grows(page, n)
        assert replay(page).history[n] == Roll()
    screenshot(page, "landais_360_keyboard")
    check_table(page, replay(page))


def test_embed_page(page, site_url, request_log, screenshot):
    page.set_viewport_size({"width": 600, "height": 700})
    open_page(page, site_url, seed="e2e-landais-embed", path="embed-de-landais.html",
              extra="&players=Alice,Ordi:expert&id=blog")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    key = f"{STORE_KEY}:blog"
    view = read(page)
    assert [t["name"] for t in view["tracks"]] == ["Alice", "Ordi"]
    wait_human_or_end(page)
    n = record_length(page, key)
    page.click("#roll")
    wait_record_grows(page, n, key)
    match = replay(page, key)
    assert match.players[1].seat == "expert" and Roll() in match.history
    screenshot(page, "landais_embed")
