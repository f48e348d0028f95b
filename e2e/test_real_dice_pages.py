"""Avec de vrais dés (issue 22) on every game page: the setup's choice (or ``?dice=real``),
the entry open at once whenever a person may throw (a 1–6 pad per die thrown, a field for
the keyboard), only the dice not kept asked, the computer's seats on the page's dice, a
typed throw corrected once, bad faces explained and changing nothing, a game to its end,
its record marking the typed throws, a reload in the middle, and a game by keyboard only."""

from __future__ import annotations

import json
import random

import pytest
from harness.pages import ACTION_CONTROLS, GAME_PAGES, GamePage

from pygames import FAMILIES, GAMES
from pygames.core import Throw

pytestmark = pytest.mark.warm

ENTRY = "#faces-entry"
WAIT_JS = f"""() => !document.getElementById('end').hidden
    || !document.getElementById('faces-entry')?.hidden
    || [...document.querySelectorAll({json.dumps(ACTION_CONTROLS)})].some((e) => e.checkVisibility())"""


def seats(family: str) -> list[tuple[str, str]]:
    """Léa and Paul at the table, and the weakest computer when the first ruleset has one
    and room for three (else the computer in Paul's place)."""
    game = FAMILIES[family].games[0]
    computer = next((s for s in game.seats if s != "human"), "human")
    if game.max_players >= 3:
        return [("Léa", "human"), ("Paul", "human"), ("Ordi", computer)]
    return [("Léa", "human"), ("Ordi", computer)][: max(game.min_players, min(2, game.max_players))]


def start_real(game: GamePage, family: str, seed: str, *, by_url: bool = False) -> None:
    if by_url:
        game.open(fresh=True, seed=seed, dice="real")
        assert game.page.is_checked("#real-dice")
    else:
        game.open(fresh=True, seed=seed)
        assert not game.page.is_checked("#real-dice")
        game.page.check("#real-dice")
    game.start_game(seats(family))


def wait_turn(game: GamePage) -> str:
    """Until the end, the faces entry, or a control to click: "end", "faces" or "act"."""
    page = game.page
    page.wait_for_function(WAIT_JS, timeout=30_000)
    if page.locator("#end").is_visible():
        return "end"
    return "faces" if page.locator(ENTRY).is_visible() else "act"


def faces_wanted(game: GamePage) -> int:
    return game.page.locator("#faces-pads .faces-pad").count()


def type_faces(game: GamePage, faces: str, *, pads: bool = False) -> bool:
    """Type the faces in the field (or tap them on the pads), then Valider; a throw that
    ends the game is confirmed (True: the question was asked)."""
    page = game.page
    before = game.actions()
    if pads:
        for slot, face in enumerate(faces):
            page.click(f'#faces-pads button[data-slot="{slot}"][data-face="{face}"]')
        assert page.input_value("#faces-input") == faces
        page.click("#faces-ok")
    else:
        page.fill("#faces-input", faces)
        page.press("#faces-input", "Enter")
    page.wait_for_function(f"""() => document.querySelector('dialog#ask[open]') || JSON.parse(
        localStorage.getItem({json.dumps(game.key())})).record.actions.length > {before}""")
    asked = page.locator("dialog#ask[open]").count() > 0
    if asked:
        assert game.actions() == before  # nothing played before the answer
        page.click("#ask-accept")
    game.wait_actions_above(before)
    return asked


def play_to_end(game: GamePage, rng: random.Random, limit: int = 900) -> tuple[int, bool]:
    """Random decisions and random typed faces until the end screen: the throws typed, and
    whether the last one was confirmed as ending the game."""
    typed, asked = 0, False
    for _ in range(limit):
        turn = wait_turn(game)
        if turn == "end":
            return typed, asked
        controls = game.page.locator(ACTION_CONTROLS).filter(visible=True)
        if turn == "faces" and (controls.count() == 0 or rng.random() < 0.5):
            n = faces_wanted(game)
            asked = type_faces(game, "".join(rng.choice("123456") for _ in range(n)), pads=rng.random() < 0.3)
            typed += 1
        else:
            before = game.actions()
            controls.nth(rng.randrange(controls.count())).click()
            game.page.wait_for_function(f"""() => {{
                const saved = JSON.parse(localStorage.getItem({json.dumps(game.key())}) || "{{}}");
                return (saved.record?.actions?.length ?? 0) !== {before}
                    || document.querySelector('dialog[open]'); }}""")
            if game.page.locator("dialog#confirm[open]").count():
                game.page.click("#confirm-accept")
    pytest.fail("no end screen")


def check_record(record: dict) -> None:
    """The record says real dice and marks exactly the persons' throws."""
    assert record["dice"] == "real" and record["typed"]
    game = GAMES[record["game"]]
    from pygames import load_match

    match = load_match(record)
    seats_of = [p["seat"] for p in record["players"]]
    for step in match.positions():
        if isinstance(step.action, Throw) and step.before.thrown_at_table():
            person = seats_of[step.before.thrower()] == "human"
            assert (step.ply in match.typed) == person, (game.id, step.ply)


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_game_with_real_dice_to_its_end(page, site_url, family, request_log):
    game = GamePage(page, site_url, family)
    start_real(game, family, f"real-{family}")
    rng = random.Random(family)
    # The entry is open at once (no Lancer to press first) when Léa may throw.
    while wait_turn(game) != "faces":
        game.page.locator(ACTION_CONTROLS).filter(visible=True).first.click()
    assert page.locator("#roll").is_hidden()
    n = faces_wanted(game)
    assert page.locator("#faces-pads button[data-face]").count() == 6 * n
    # Bad faces: explained, nothing played.
    before = game.record()
    for bad in ["7" * n, "1" * (n + 1), "x"]:
        page.fill("#faces-input", bad)
        page.press("#faces-input", "Enter")
        page.wait_for_function("() => !document.getElementById('faces-error').hidden")
        assert page.get_attribute("#faces-input", "aria-invalid") == "true"
        assert game.record() == before
    # A throw typed, then corrected: back to the thrower's throw, the entry open again.
    type_faces(game, "1" * n)
    record = game.record()
    assert record["typed"] == [len(record["actions"]) - 1]  # a person (Paul) decides next
    undo = page.locator("#undo")
    assert undo.is_visible() and undo.text_content().startswith(game.words("site.real.correct"))
    undo.click()
    page.wait_for_function(f"() => JSON.parse(localStorage.getItem({json.dumps(game.key())})).record.actions.length"
                           f" < {len(record['actions'])}")
    assert page.locator(ENTRY).is_visible() and "typed" not in game.record()
    type_faces(game, "2" * n, pads=True)
    assert game.record()["actions"][-1] == "dice " + " ".join("2" * n)
    # A reload in the middle keeps the real dice.
    game.reload()
    assert game.record()["dice"] == "real"
    typed, asked = play_to_end(game, rng)
    record = game.record()
    check_record(record)
    assert typed + 1 <= len(record["typed"])
    # a typed throw that ended the game was confirmed first (it cannot be corrected after)
    assert asked == (len(record["actions"]) - 1 in record["typed"])
    assert page.locator("#end").is_visible()


@pytest.mark.parametrize("family", GAME_PAGES)
def test_kept_dice_stay_kept_and_only_the_others_are_asked(page, site_url, family, request_log):
    """After a first throw, the dice kept are not asked again (the Dé Landais throws its
    three every time); ?dice=real ticks the setup's choice."""
    game = GamePage(page, site_url, family)
    start_real(game, family, f"keep-{family}", by_url=True)
    while wait_turn(game) != "faces":
        page.locator(ACTION_CONTROLS).filter(visible=True).first.click()
    n = faces_wanted(game)
    type_faces(game, "6" * n)
    if wait_turn(game) != "faces" or not page.locator("#dice button.die:not([disabled])").count():
        return  # no second throw offered to keep from (a hand over at once)
    page.locator("#dice button.die").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#faces-pads .faces-pad').length === {n - 1}")
    assert page.locator("#faces-pads .faces-pad").first.get_attribute("aria-label") != \
        game.words("site.real.pad", n=1)


def test_a_family_game_with_real_dice_by_keyboard_only(page, site_url, request_log):
    """Yams, Léa and Paul at the table, keyboard only: the setup (names typed, a row added,
    the seat chosen, Avec de vrais dés ticked), each throw typed in the field (the focus is
    there at once), now and then a die kept with Shift+Tab and Space before the next throw,
    a box chosen by Tab and Enter, to the end screen."""
    game = GamePage(page, site_url, "yams")
    game.open(fresh=True, seed="keyboard-real")
    rows = page.locator("#player-rows li")
    while rows.count() > 1:  # back to one row: the keyboard makes the second
        game.focus_by_tab("#player-rows li:last-child .remove")
        page.keyboard.press("Enter")
    for i, name in enumerate(["Léa", "Paul"], 1):
        if rows.count() < i:
            game.focus_by_tab("#add-player")
            page.keyboard.press("Enter")
        game.focus_by_tab(f"#player-rows li:nth-child({i}) input[type=text]")
        page.keyboard.press("Control+A")
        page.keyboard.type(name)
        game.focus_by_tab(f"#player-rows li:nth-child({i}) select")
        page.keyboard.press("Home")  # the first seat: a person
    game.focus_by_tab("#real-dice")
    page.keyboard.press("Space")
    assert page.is_checked("#real-dice")
    game.focus_by_tab("#start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('faces-entry').hidden")
    assert [p["name"] for p in game.record()["players"]] == ["Léa", "Paul"]
    assert {p["seat"] for p in game.record()["players"]} == {"human"}
    rng = random.Random("keys")
    turns = 2 * len(game.replay().state.sheets[0])
    for turn in range(turns):
        assert game.focused() == "#faces-input", turn
        page.keyboard.type("".join(rng.choice("123456") for _ in range(5)))
        before = game.actions()
        page.keyboard.press("Enter")
        game.wait_actions_above(before)
        page.wait_for_function("() => document.activeElement?.id === 'faces-input'")
        if turn % 4 == 0:  # keep the first die, throw the four others
            for _ in range(40):
                if page.evaluate("() => document.activeElement.matches('#dice button.die')"):
                    break
                page.keyboard.press("Shift+Tab")
            page.keyboard.press("Space")
            page.wait_for_function("() => document.querySelectorAll('#faces-pads .faces-pad').length === 4")
            game.focus_by_tab("#faces-input")
            page.keyboard.type("".join(rng.choice("123456") for _ in range(4)))
            before = game.actions()
            page.keyboard.press("Enter")
            game.wait_actions_above(before)
        # the sheet: Tab to its first open box, Enter (and Enter again if a 0 is questioned)
        game.focus_by_tab("#sheet-body [data-action]:not([disabled])")
        before = game.actions()
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.querySelector('dialog#confirm[open]') || JSON.parse("
                               f"localStorage.getItem({json.dumps(game.key())})).record.actions.length > {before}")
        if page.locator("dialog#confirm[open]").count():
            assert game.focused() == "#confirm-accept"
            page.keyboard.press("Enter")
        game.wait_actions_above(before)
        if turn < turns - 1:
            page.wait_for_function("() => document.activeElement?.id === 'faces-input'")
    game.wait_end()
    record = game.record()
    assert len(record["typed"]) == turns + len(range(0, turns, 4)) and record["dice"] == "real"
    assert any(a.startswith("keep ") for a in record["actions"])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_embed_with_real_dice_opens_the_entry_at_once(page, site_url, lang, request_log):
    """``dice=real`` on an embed page with its players: the game starts and asks Léa's dice
    at once, in the page's language; a mistyped face is explained."""
    game = GamePage(page, site_url, "yams", embed=True, instance=f"real-{lang}", lang=lang)
    game.open(fresh=True, seed="embed-real", players="Léa", dice="real")
    page.wait_for_function("() => !document.getElementById('faces-entry').hidden")
    assert page.text_content("#faces-prompt") == game.words("site.real.prompt", player="Léa", n=5,
                                                            dice="1, 2, 3, 4, 5")
    page.fill("#faces-input", "12378")
    page.press("#faces-input", "Enter")
    page.wait_for_function("() => !document.getElementById('faces-error').hidden")
    assert game.words("error.not_a_face", text="7", what=game.words("word.a_die")) in \
        page.text_content("#faces-error")
    type_faces(game, "66666")
    assert game.record()["typed"] == [1] and game.stored("match").get("embed")
