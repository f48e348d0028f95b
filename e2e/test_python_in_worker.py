"""The game pages with their Python in a dedicated worker (the default since stop 43; issue
24, item 2: js/worker-page.mjs on the page, js/py-worker.mjs in the worker, web/worker/ for
Python); ``?page`` runs it on the page instead (PyScript, js/pyodide-fast.mjs).

Each game page, a first visit: the page itself never downloads Python (its WebAssembly and
standard library are fetched by the worker), the setup is filled on the page (player rows
added by js/setup-early.js reach Python's mirror), a hostile name stays text, a game is
played by clicks and keys (the keys Python takes do not scroll the page), saved as it goes
and resumed after a reload, with no error.  Taps made while Python starts are played once it
is ready, in order.  A returning visit restores Python from the memory snapshot in the
worker, offline too.  The page loads no PyScript then; with ``?page`` it does, and the game
plays the same.
"""

from __future__ import annotations

import random

import pytest
from harness.builds import precache_entries, wait_sw
from harness.pages import GamePage, read_global, reload, wait_ready

from pygames import FAMILIES

HOSTILE = '<img src=x onerror="window.__pwned=1">'
PAGES = [f.id for f in FAMILIES.values()]
#: Every event the page sent is answered (js/worker-page.mjs), and no tap is held.
SETTLED = "() => window.pygames.worker.settled()"
#: What the page itself fetched: never Python's runtime (the worker's fetches are its own).
PAGE_FETCHED = "() => performance.getEntriesByType('resource').map((e) => e.name)"
#: The cache of the snapshot's inflated form (js/snapshot-inflate.mjs INFLATED).
INFLATED = "pygames-snapshot-inflated"


def settle(page) -> None:
    page.wait_for_function(SETTLED)


@pytest.mark.parametrize("family", PAGES)
def test_a_game_played_and_resumed_with_python_in_a_worker(page, site_url, family, request_log):
    game = GamePage(page, site_url, family).open(seed=f"worker-{family}")
    assert read_global(page, "boot", ".mode") == "worker"
    assert read_global(page, "boot", ".stages.python") > 0  # the worker's Python started
    fetched = page.evaluate(PAGE_FETCHED)
    assert not [u for u in fetched if "pyodide.asm" in u or "python_stdlib" in u], fetched
    assert not [u for u in fetched if "/vendor/pyscript" in u], fetched  # nor PyScript
    assert page.evaluate("() => document.querySelector('script[type=\"py\"]')") is None

    # The setup, as a person fills it on the page (js/setup-early.js adds the rows there):
    # a hostile name, a computer.
    game.fill_setup([(HOSTILE, "human"), ("Robot", "simple")])
    settle(page)
    game.start()
    settle(page)
    assert page.evaluate("() => window.__pwned") is None
    assert HOSTILE in page.locator("#table").inner_text()  # drawn as text, never as markup
    assert page.locator("#table img").count() == 0
    players = game.record()["players"]
    assert len(players) == 2 and players[0]["name"] == HOSTILE

    # Played by clicks: each one reaches Python and is saved.
    played = game.play_random(4, random.Random(family))
    assert played >= 1
    settle(page)
    before = game.record()["actions"]

    # A reload resumes the same game, from the worker again.
    page.reload()
    wait_ready(page)
    settle(page)
    assert read_global(page, "boot", ".mode") == "worker"
    assert game.record()["actions"][:len(before)] == before
    assert HOSTILE in page.locator("#table").inner_text()
    assert read_global(page, "errors") == []


def test_keys_reach_python_and_do_not_scroll(page, site_url):
    """Space throws the dice (the shell's shortcut, yams): Python hears it, and the page called
    preventDefault itself (the worker hears of the key too late to), so nothing scrolled."""
    page.set_viewport_size({"width": 360, "height": 500})
    game = GamePage(page, site_url, "yams").open(seed="worker-keys")
    game.start()
    settle(page)
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.keyboard.press("Space")
    settle(page)
    game.dice.wait_throws(1)
    game.dice.wait_all_thrown()
    assert page.evaluate("() => window.scrollY") == 0
    page.keyboard.press("1")  # keep the first die
    settle(page)
    assert game.dice.held() == {0}
    assert read_global(page, "errors") == []


def test_a_question_closed_on_the_page_as_python_asks_it_again_stays_open(page, site_url):
    """The page closes the site's question (its backdrop, js/dialogs.js) and *Nouvelle partie*
    is pressed in the same moment: the tap reaches Python first, which asks again; the page's
    close (fired at the next frame) comes after, from before the page had that.  The new
    question stays open, answerable (it was cancelled by the old close: CI of stop 43)."""
    game = GamePage(page, site_url, "yams").open(fresh=True, seed="worker-ask")
    game.start_game([("Léa", "human"), ("Paul", "human")])
    game.play_random(2, random.Random(2))
    record = game.record()
    page.click("#quit")
    ask = page.locator("#ask")
    assert ask.is_visible()
    page.evaluate("""() => { document.getElementById("ask").close();
                             document.getElementById("quit").click(); }""")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    settle(page)
    assert ask.is_visible() and game.focused() == "#ask-cancel"
    page.keyboard.press("Enter")  # Continuer la partie
    assert ask.is_hidden() and game.screen() == "table" and game.record() == record
    page.click("#quit")
    game.answer(True)  # Abandonner la partie: the question is Python's still
    page.wait_for_function("() => !document.getElementById('setup').hidden")
    assert game.get_item("match") is None
    assert read_global(page, "errors") == []


def test_taps_made_while_python_starts_are_played_once_ready(page, site_url):
    """Commencer pressed while the worker's Python is still starting: the page shows it is
    starting (js/setup-early.js), and the game begins once Python is ready."""
    game = GamePage(page, site_url, "421")
    game.goto(game.url(seed="worker-early"), wait=False)
    page.wait_for_selector("#start")
    page.click("#start")
    wait_ready(page)
    page.wait_for_function("() => !document.getElementById('table').hidden")
    settle(page)
    assert game.record()["game"] == "421"
    assert read_global(page, "errors") == []


def test_later_visits_restore_the_snapshot_in_the_worker_and_play_offline(page, context, site_url, dist_dir):
    """A returning player's Python is restored from the memory snapshot in the worker (the
    service worker's .xz the first time back, its kept inflated form after), offline too:
    the fast path cannot vanish unnoticed from the worker's start either."""
    expected = len(precache_entries((dist_dir / "sw.js").read_text()))
    game = GamePage(page, site_url, "yams").open(seed="worker-later")
    assert read_global(page, "boot", ".snapshotFrom") is None  # a first visit: never waits for it
    wait_sw(page, expected)
    reload(page)
    boot = read_global(page, "boot")
    assert boot["mode"] == "worker" and boot["snapshotFrom"] == "xz", boot
    page.wait_for_function(f"async () => (await caches.keys()).includes({INFLATED!r})")
    context.set_offline(True)
    game.open(seed="worker-offline")
    boot = read_global(page, "boot")
    assert boot["mode"] == "worker" and boot["snapshotFrom"] == "inflated", boot
    game.start()
    game.dice.roll()
    settle(page)
    game.dice.wait_throws(1)
    game.wait_actions_at_least(1)
    assert read_global(page, "errors") == []


@pytest.mark.parametrize("embed", [False, True], ids=["page", "embed"])
def test_the_page_query_runs_python_on_the_page_with_pyscript(page, site_url, embed):
    """``?page``: PyScript starts the page's Python on the main thread (js/pyodide-fast.mjs,
    as before stop 43, kept for comparison); a game plays there as in the worker."""
    game = GamePage(page, site_url, "421", embed=embed, instance="on-page" if embed else None)
    game.open(seed="on-the-page", page="1")
    assert read_global(page, "boot", ".mode") in ("plain", "snapshot")
    assert page.evaluate("() => window.pygames.worker") is None
    fetched = page.evaluate(PAGE_FETCHED)
    assert [u for u in fetched if u.endswith("/core.js") and "/vendor/pyscript" in u], fetched
    game.start()
    game.dice.roll()
    game.wait_actions_at_least(1)
    assert read_global(page, "errors") == []
