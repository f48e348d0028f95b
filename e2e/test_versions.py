"""Versions side by side (issue 25, items 2 and 8): what a newer version of the site stored
is kept as it is, never overwritten nor set aside, and a tab that finds it stops and
offers to reload; fields a newer version added to a record come back as they were.

A "newer version" is what its saves look like to this one: a record of format
``pygames/2`` (`pygames.core.record_version`), a statistics store ``pygames-stats/2``,
fields this version does not know.  Two builds served on one origin, an old tab beside an
updated one, are in `test_an_old_tab_beside_an_updated_one_loses_no_move`.
"""

from __future__ import annotations

import json
import random
import shutil

import pytest
import serve
from harness import site
from harness.builds import make_build_b, precache_entries, wait_sw
from harness.pages import (
    ACTION_CONTROLS,
    BOOT_TIMEOUT_MS,
    GAME_PAGES,
    NO_ZERO_QUESTION,
    GamePage,
    aside_keys,
    read_global,
    screen,
)

from pygames import load_match

pytestmark = pytest.mark.warm  # one shared, already cached browser context (e2e/conftest.py)


def as_newer(text: str, **fields) -> str:
    """The saved game `text` as a newer version would have written it."""
    blob = json.loads(text)
    blob["record"] = {**blob["record"], "format": "pygames/2", **fields}
    return json.dumps(blob)


def play_once(game: GamePage) -> None:
    """One action of a person, chosen at random among the controls on the table."""
    assert game.play_random(1, random.Random(game.family)) == 1


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_newer_versions_game_is_kept_in_place_and_the_page_asks_to_update(page, site_url, family):
    game = GamePage(page, site_url, family).open(fresh=True, seed="newer")
    game.start()
    play_once(game)
    newer = as_newer(game.get_item("match"), clock=[3, 4])
    game.store("match", newer)
    game.reload()
    assert screen(page) == "error"
    text = page.inner_text("#error-text")
    assert "version plus récente" in text and "rechargez la page" in text, text
    assert page.is_visible("#error-reload") and page.is_visible("#error-aside")
    assert game.get_item("match") == newer and aside_keys(page) == []  # kept, byte for byte
    game.reload()  # still this version: still kept
    assert game.get_item("match") == newer and screen(page) == "error"
    page.click("#error-aside")  # the player's own choice: set aside, then another game
    assert screen(page) == "setup"
    assert "mise de côté" in page.inner_text("#setup-notice")
    assert game.get_item("match") is None and len(aside_keys(page)) == 1
    assert read_global(page, "errors") == []


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_tab_stops_rather_than_write_over_a_newer_versions_game(context, site_url, family):
    """Tab A (this version) beside tab B, which a newer version runs: B's save is what A
    finds when it plays. A stops and offers to reload; B's game stays as B wrote it, however
    many times A is clicked."""
    a = GamePage(context.new_page(), site_url, family).open(fresh=True, seed="beside")
    a.start()
    play_once(a)
    b = GamePage(context.new_page(), site_url, family)
    b.at_origin()
    newer = as_newer(a.get_item("match"), note="joué plus loin ailleurs")
    b.store("match", newer)
    a.page.bring_to_front()
    for _ in range(3):  # (before the fix, the first click followed nothing and the second wrote)
        # A control to click, once the table has one again (a loaded machine draws late),
        # unless the tab has stopped already.
        a.page.wait_for_function("s => !document.getElementById('error').hidden || !!document.querySelector(s)",
                                 arg=ACTION_CONTROLS)
        a.page.evaluate("s => document.querySelector(s)?.click()", ACTION_CONTROLS)
        a.page.wait_for_timeout(300)
    a.page.wait_for_function("() => !document.getElementById('error').hidden")
    text = a.page.inner_text("#error-text")
    assert "autre onglet" in text and "version plus récente" in text, text
    assert a.page.is_hidden("#error-aside")  # the other tab's game is not this tab's to set aside
    assert a.get_item("match") == newer and aside_keys(a.page) == []
    b.page.close()


def test_a_newer_versions_statistics_are_kept_and_never_written(page, site_url):
    game = GamePage(page, site_url, "yams")
    game.at_origin()
    newer = json.dumps({"format": "pygames-stats/2", "rulesets": {"yams": {"joué": 12}}, "players": []})
    game.store("stats", newer)
    game.open(fresh=True, seed="stats-newer")
    page.wait_for_function("() => !document.getElementById('stats-trouble').hidden")
    assert "version plus récente" in page.inner_text("#stats-trouble-text")
    assert game.get_item("stats") == newer and aside_keys(page) == []


def test_fields_a_newer_version_added_survive_this_ones_moves(page, site_url):
    """A record of this format with fields this version does not know (a newer version's,
    of the same format): the page plays on and writes them back (issue 25, item 8: an
    older page used to drop "undo": false the same way)."""
    game = GamePage(page, site_url, "yams").open(fresh=True, seed="fields")
    game.start()
    play_once(game)
    blob = json.loads(game.get_item("match"))
    blob["record"]["clock"] = {"seconds": [12, 40]}
    blob["record"]["players"][0]["colour"] = "#c00"
    game.store("match", json.dumps(blob))
    game.reload()
    assert screen(page) == "table"
    play_once(game)
    record = game.record()
    assert record["clock"] == {"seconds": [12, 40]} and record["players"][0]["colour"] == "#c00"
    assert len(record["actions"]) == len(blob["record"]["actions"]) + 1
    load_match(record)


def test_an_old_tab_beside_an_updated_one_loses_no_move(new_context, dist_dir, tmp_path):
    """The issue's steps, with two builds on one origin: tab A opens build A before any
    worker controls it; build B is deployed; tab B takes the update through the banner and
    plays on; then tab A, still on build A, plays. Every move made in B is kept: A follows
    B's game rather than write its own over it."""
    a_dir, b_dir = tmp_path / "a", tmp_path / "b"
    shutil.copytree(dist_dir, a_dir)
    build_b = make_build_b(a_dir, b_dir)
    served = tmp_path / "served"
    served.symlink_to(a_dir, target_is_directory=True)
    server, url = serve.start_server(served, prefix="/pygames/")
    try:
        context = new_context()
        context.add_init_script(NO_ZERO_QUESTION)
        old = GamePage(context.new_page(), url, "yams").open(fresh=True, seed="old-tab")
        old.start()
        play_once(old)
        wait_sw(old.page, len(precache_entries((a_dir / "sw.js").read_text())))
        link = tmp_path / "served.new"  # deploy B over A
        link.symlink_to(b_dir, target_is_directory=True)
        link.replace(served)
        server.served.clear()
        new = GamePage(context.new_page(), url, "yams").open(seed="old-tab")
        banner = new.page.get_by_role("status").filter(has_text="Nouvelle version disponible")
        banner.wait_for(timeout=BOOT_TIMEOUT_MS)
        new.mark_unready()
        banner.get_by_role("button", name="recharger").click()
        new.page.wait_for_function("d => document.documentElement.dataset.build === d", arg=build_b,
                                   timeout=BOOT_TIMEOUT_MS)
        new.wait_ready()
        assert old.page.evaluate("document.documentElement.dataset.build") != build_b
        for _ in range(4):
            play_once(new)
        kept = new.record()["actions"]
        old.page.bring_to_front()
        old.page.wait_for_function("t => document.getElementById('hint').textContent.includes(t)",
                                   arg="autre onglet")  # it followed B
        play_once(old)  # and the old tab plays on from B's position
        assert old.record()["actions"][: len(kept)] == kept  # nothing of B's is lost
    finally:
        site.stop_site(server)
