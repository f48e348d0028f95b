"""Before Python is there (issue #12, "On a phone, the page is there at once"), on every
game page of the registry and its embed page:

* the setup is plain HTML that works at once (js/setup-early.js): rulesets, their options,
  player rows within the range, the last choices restored; "Commencer la partie" clicked
  before Python is ready says "Démarrage…" and the game starts when Python is, with exactly
  the players and options chosen;
* a saved game is drawn at once as it was last drawn (js/view-early.js), with a
  "Réveil du jeu…" status line, then becomes live; a tap and a key made on it meanwhile are
  played once Python is ready, in order (issue #24);
* the largest paint (LCP) is the early page, and Python draws in it: the node stays, never
  taken out of the page (#24);
* a tap on the saved game right after Python is ready is played (#24);
* a damaged or hostile stored drawing is ignored (the loading screen shows, the game still
  starts), and names in it stay text.

Python is held back by keeping the request for the game's archive (pygames-<hash>.tar.gz)
pending until the test lets it go (`Hold`); the service worker is blocked so that every
request reaches the route.
"""

from __future__ import annotations

import json

import pytest
from harness import worker_mode
from harness.pages import GAME_PAGES, GamePage, js_global

from pygames import FAMILIES

#: Every game page; one embed page (the same scripts and template, keys of its own).
PAGES = [(f, False) for f in GAME_PAGES] + [(GAME_PAGES[0], True)]
HOSTILE = '<img src=x onerror=window.__pwned=1>Zoé'  # 38 characters: within a name's 40


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "service_workers": "block",
            "viewport": {"width": 360, "height": 740}}


class Hold:
    """Keeps the game's archive from arriving (so Python cannot start) until `release`."""

    def __init__(self, page):
        self.page, self.held, self.holding = page, [], True
        page.route("**/pygames-*.tar.gz", self._on_route)

    def _on_route(self, route):
        if self.holding:
            self.held.append(route)
        else:
            route.continue_()

    def release(self):
        self.holding = False
        for route in self.held:
            try:
                route.continue_()
            except Exception:  # the page that asked for it has gone since
                pass
        self.held.clear()


def visit(page, site_url: str, family: str, embed: bool) -> GamePage:
    """The page (or its embed form), seeded, the computer at once; not waiting for Python."""
    game = GamePage(page, site_url, family, embed=embed)
    return game.open(seed="early", motion=None, wait=False)


def settle(game: GamePage) -> None:
    """Wait until the computer has played and the table's drawing is stored."""
    game.wait_person_or_end()
    game.page.wait_for_function(f"k => localStorage.getItem(k) && !{js_global('early', '.busy()')}",
                                arg=game.key("view"))


def edit_setup(page, family: str) -> dict:
    """Change everything the setup offers (before Python): the last ruleset, every option
    away from its default, the players (a hostile name, a computer seat, one more player if
    the range allows). Returns what the record must then hold."""
    games = FAMILIES[family].games
    game = games[-1]
    if len(games) > 1:
        page.check(f'input[name=ruleset][value="{game.id}"]')
        # The options shown are that ruleset's.
        shown = page.eval_on_selector_all("#option-choices [data-option]", "ns => ns.map(n => n.dataset.option)")
        assert shown == [o.id for o in game.options]
    options = {}
    for opt in game.options:
        node = f'#option-choices [data-option="{opt.id}"]'
        if opt.choices:
            value = next(c for c in opt.choices if c != opt.default)
            page.select_option(node, str(value))
        else:
            value = not opt.default
            page.set_checked(node, value)
        options[opt.id] = value
    rows = page.locator("#player-rows li")
    if rows.count() < game.max_players:
        page.click("#add-player")
    assert rows.count() <= game.max_players
    count = rows.count()
    computer = next(s for s in game.seats if s != "human")
    players = []
    for i in range(count):
        name = HOSTILE if i == 0 else f"Joueur {i + 1}"
        seat = "human" if i == 0 else computer
        rows.nth(i).locator("input").fill(name)
        rows.nth(i).locator("select").select_option(seat)
        players.append({"name": name, "seat": seat})
    assert page.locator("#add-player").is_disabled() == (count >= game.max_players)
    return {"game": game.id, "options": options, "players": players}


@pytest.mark.parametrize("family,embed", PAGES, ids=[f"{f}{'-embed' if e else ''}" for f, e in PAGES])
def test_setup_before_python_then_the_game_starts_with_it(page, site_url, request_log, family, embed):
    hold = Hold(page)
    game_page = visit(page, site_url, family, embed)
    page.wait_for_selector("body[data-early=setup]")
    assert page.is_visible("#setup") and page.is_hidden("#loading")
    assert not game_page.is_ready()
    game = FAMILIES[family].games[0]
    rows = page.locator("#player-rows li")
    assert rows.count() == max(len(game.default_players), game.min_players)
    # Rows stay within the range: removing stops at the minimum.
    while rows.count() < game.max_players:
        page.click("#add-player")
    assert page.is_disabled("#add-player") and rows.count() == game.max_players
    # A game for exactly n players offers no button to add or remove one (the Linotte: 2).
    fixed = game.min_players == game.max_players
    assert page.is_hidden("#add-player") == fixed
    assert page.locator("#player-rows li .remove:visible").count() == (0 if fixed else rows.count())
    while page.locator("#player-rows li .remove:not([disabled])").count():
        page.locator("#player-rows li .remove").last.click()
    assert rows.count() == game.min_players
    assert page.get_attribute("#player-rows li:last-child input", "aria-label") == f"Nom du joueur {game.min_players}"
    wanted = edit_setup(page, family)
    page.click("#start")
    assert page.text_content("#start") == "Démarrage…"
    assert page.get_attribute("#setup-form", "data-pending") == "1"
    hold.release()
    game_page.wait_ready()
    page.wait_for_selector("#table:not([hidden])")
    record = game_page.stored("match")["record"]
    assert record["game"] == wanted["game"]
    assert record["options"] == {**FAMILIES[family].games[-1].resolve_options({}), **wanted["options"]}
    assert record["players"] == wanted["players"]
    assert game_page.stored("setup")["players"] == wanted["players"]
    # The hostile name is text in the live table.
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#main img").count() == 0

    # A later visit: the setup comes back from localStorage, before Python, as chosen.
    game_page.forget("match")
    hold = Hold(page)
    visit(page, site_url, family, embed)
    page.wait_for_selector("body[data-early=setup]")
    assert page.is_checked(f'input[name=ruleset][value="{wanted["game"]}"]')
    names = page.eval_on_selector_all("#player-rows input", "ns => ns.map(n => n.value)")
    assert names == [p["name"] for p in wanted["players"]]
    for opt, value in wanted["options"].items():
        node = page.locator(f'#option-choices [data-option="{opt}"]')
        assert (node.is_checked() if isinstance(value, bool) else node.input_value() == str(value))
    # A stored setup that is not well-formed is ignored: the build's defaults.
    game_page.store("setup", {"players": "x", "game": 3})
    visit(page, site_url, family, embed)
    page.wait_for_selector("body[data-early=setup]")
    assert rows.count() == max(len(game.default_players), game.min_players)
    hold.release()
    game_page.wait_ready()
    assert page.is_visible("#setup") and page.is_visible("#setup-notice")  # the shell says so


@pytest.mark.parametrize("family,embed", PAGES, ids=[f"{f}{'-embed' if e else ''}" for f, e in PAGES])
def test_a_saved_game_is_drawn_before_python_then_live(page, site_url, request_log, family, embed):
    game_page = visit(page, site_url, family, embed)
    game_page.wait_ready()
    page.locator("#player-rows li input").first.fill(HOSTILE)
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    settle(game_page)
    live_text = page.inner_text("#table")

    # Next visit, Python held back: the game as drawn, inert, with the sign.
    hold = Hold(page)
    visit(page, site_url, family, embed)
    page.wait_for_selector("body[data-early=view]")
    assert page.is_hidden("#loading") and page.is_hidden("#setup")
    assert page.locator("#table").count() == 1 and page.is_visible("#table")
    assert page.get_attribute("#table", "aria-busy") == "true" and page.is_visible(".waking")
    assert page.text_content(".waking") == "Réveil du jeu…"
    assert page.inner_text("#table") == live_text
    # Its fields wait for the live ones (taps and keys are kept: see the test below).
    assert page.locator("#table :is(input, select):not([disabled])").count() == 0
    assert HOSTILE in page.text_content("#table") and page.locator("#main img").count() == 0
    assert not game_page.is_ready()
    hold.release()
    game_page.wait_ready()
    assert page.locator("#table").count() == 1 and page.get_attribute("#table", "inert") is None
    assert page.locator(".waking").count() == 0 and page.locator(".early-view").count() == 0
    assert page.get_attribute("body", "data-early-view") == "released"
    assert page.is_visible("#table") and page.evaluate("window.__pwned") is None

    # A damaged drawing, another game's, or one with a forbidden tag or attribute: ignored,
    # the loading screen shows, and the game still starts.
    digest = page.evaluate(f"k => {js_global('early', '.digest')}(localStorage.getItem(k))",
                           game_page.key("match"))
    bad = [
        "{not json",
        json.dumps({"v": 1, "match": "0:0", "sections": [["section", {"id": "table"}, []]]}),
        json.dumps({"v": 1, "match": digest,
                    "sections": [["section", {"id": "table"}, [["script", {}, ["window.__pwned=1"]]]]]}),
        json.dumps({"v": 1, "match": digest,
                    "sections": [["section", {"id": "table", "onclick": "window.__pwned=1"}, []]]}),
        json.dumps({"v": 1, "match": digest, "sections": [["section", {"id": "table"}, [["p", {"style": "x"}, []]]]]}),
        json.dumps({"v": 1, "match": digest, "sections": [["section", {"id": "table"}, [[[["p"]]]]]]}),
    ]
    settle(game_page)  # the live page has stored its drawing: nothing overwrites ours now
    hold = Hold(page)  # Python never starts on these visits: the drawing is read before it
    for value in bad:
        game_page.store("view", value)
        visit(page, site_url, family, embed)
        page.wait_for_selector("#loading:not([hidden])", state="attached")
        assert page.evaluate("document.body.dataset.early") is None, value
        assert page.is_visible("#loading") and page.locator(".waking").count() == 0
        assert page.evaluate("window.__pwned") is None
    hold.release()  # ... and the game still starts after the last one
    game_page.wait_ready()
    page.wait_for_selector("#table:not([hidden])")
    assert page.evaluate("window.__pwned") is None
    # A well-formed drawing with a hostile text: drawn, as text.
    settle(game_page)
    hostile = ["section", {"id": "table", "class": "table"},
               [["p", {"class": "hint", "data-x": "y"}, ['<img src=x onerror="window.__pwned=1">']]]]
    game_page.store("view", {"v": 1, "match": digest, "sections": [hostile]})
    hold = Hold(page)
    visit(page, site_url, family, embed)
    page.wait_for_selector("body[data-early=view]")
    assert page.text_content("#table .hint") == '<img src=x onerror="window.__pwned=1">'
    assert page.locator("#main img").count() == 0 and page.evaluate("window.__pwned") is None
    hold.release()
    game_page.wait_ready()
    assert page.locator("#table .hint").count() == 1 and page.evaluate("window.__pwned") is None


# --- taps and keys while the game wakes (issue #24, "Nothing typed is lost") ------------
#: Per page: who plays, how the saved game is brought to the moment of the test, the tap and
#: the key made on the drawing while Python is held back (in this order), and the actions
#: they must add to the record (the notations; a throw's dice, chance, left out).
#: Yams and the linotte: 1 keeps the first die (@1), then a tap on Lancer throws the others (the
#: other order would throw all five). The Dé Landais (two people): S seals Léa's points, then
#: a tap on Lancer throws for Paul (the other order would throw for Léa). The 421 (two
#: people): a tap on Lancer throws for Léa, then Space for Paul.
TWO = (("Léa", "human"), ("Paul", "human"))
KEEP_THEN_THROW = {"players": (), "before": "roll", "steps": (("key", "1"), ("tap", "#roll")),
                   "adds": lambda acts: acts[0].startswith("keep ") and acts[0].endswith(" @1")}
WAKING = {
    "yams": KEEP_THEN_THROW,
    "linotte": KEEP_THEN_THROW,
    "de-landais": {"players": TWO, "before": "floating", "steps": (("key", "s"), ("tap", "#roll")),
                   "adds": lambda acts: acts[:2] == ["seal", "roll"]},
    "421": {"players": TWO, "before": None, "steps": (("tap", "#roll"), ("key", "Space")),
            "adds": lambda acts: acts[:2] == ["roll", "roll"]},
}
#: JS: the record's actions (notations) after the first `n`, chance outcomes left out.
CHOSEN_JS = """([k, n]) => JSON.parse(localStorage.getItem(k)).record.actions.slice(n)
  .map((a) => typeof a === 'string' ? a : (a.action ?? a.notation ?? JSON.stringify(a)))"""


@pytest.mark.parametrize("family", GAME_PAGES)
def test_taps_and_keys_while_the_game_wakes_are_played_in_order(page, site_url, request_log, family):
    plan = WAKING[family]
    game_page = visit(page, site_url, family, False)
    game_page.wait_ready()
    game_page.fill_setup(plan["players"])
    game_page.start()
    game_page.wait_person_or_end()
    if plan["before"] == "roll":
        before = game_page.actions()
        page.click("#roll")
        game_page.wait_actions_above(before)
    elif plan["before"] == "floating":
        from harness.landais import throw_until_floating

        throw_until_floating(game_page)
    settle(game_page)
    n = game_page.actions()

    hold = Hold(page)
    visit(page, site_url, family, False)
    page.wait_for_selector("body[data-early=view]")
    waking = page.locator(".waking")
    assert waking.is_visible() and waking.text_content() == "Réveil du jeu…"
    assert waking.get_attribute("role") == "status"
    # The drawing takes the tap (nothing happens on it yet) and the key, and says so.
    for kind, what in plan["steps"]:
        if kind == "tap":
            page.click(what)
        else:
            page.keyboard.press(what)
    assert waking.text_content() == "Réveil du jeu… 2 coups en attente"
    assert not game_page.is_ready() and game_page.actions() == n
    hold.release()
    game_page.wait_ready()
    game_page.wait_actions_above(n)
    page.wait_for_selector("body[data-early-played]")
    worker_mode.settle(page)  # (the taps played: each one's event answered by the worker)
    game_page.wait_person_or_end()
    added = [a for a in page.evaluate(CHOSEN_JS, [game_page.key("match"), n])
             if not a.startswith(("dice", "throw ", "faces"))]
    assert plan["adds"](added), added
    assert page.locator(".waking").count() == 0 and page.locator(".early-view").count() == 0


@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_tap_right_after_ready_is_played(page, site_url, request_log, family):
    """The saved game reloaded and Lancer tapped as soon as Python is ready: it throws, on
    every page (Yams: while the expert's table, 1.4 million states, is read in slices after
    ready, web/app/shell.py)."""
    game_page = visit(page, site_url, family, False)
    game_page.wait_ready()
    game_page.start()
    settle(game_page)
    page.wait_for_selector("#roll:not([disabled])")
    n = game_page.actions()
    visit(page, site_url, family, False)
    game_page.wait_ready()
    page.click("#roll")
    game_page.wait_actions_above(n)
    added = [a for a in page.evaluate(CHOSEN_JS, [game_page.key("match"), n])
             if not a.startswith(("dice", "throw ", "faces"))]
    assert added[:1] == ["roll"], added


# --- the largest paint (issue #24, "The early page is the largest paint") ---------------
#: Every largest-contentful-paint candidate of the page, kept with its element; and every
#: node taken out of the page (a node taken out and put back is painted anew: a new
#: candidate whenever it is any larger, as the Dé Landais' throw was once Python had drawn).
LCP_INIT = """
window.__lcp = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__lcp.push({ time: e.startTime, size: e.size, element: e.element });
}).observe({ type: "largest-contentful-paint", buffered: true });
window.__removed = new Set();
new MutationObserver((records) => {
  for (const r of records) for (const node of r.removedNodes) window.__removed.add(node);
}).observe(document, { childList: true, subtree: true });
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
}).observe({ type: "layout-shift", buffered: true });
"""
#: Some frames after the ready signal (a paint of Python's has had its turn to be counted),
#: then the page's last candidate: where it is, when, whether it is still in the page, and
#: whether it or a node above it was ever taken out of the page.
LCP_JS = """async ([ready, within]) => {
  for (let i = 0; i < 20; i++) await new Promise((r) => requestAnimationFrame(r));
  const all = window.__lcp, last = all[all.length - 1];
  let moved = [];
  for (let node = last.element; node; node = node.parentNode) {
    if (window.__removed.has(node)) moved.push(node.nodeName + (node.id ? "#" + node.id : ""));
  }
  return { count: all.length, time: last.time, ready: ready,
           inside: !!last.element && !!last.element.closest(within),
           connected: !!last.element && last.element.isConnected, moved,
           what: last.element ? last.element.outerHTML.slice(0, 120) : null };
}"""


@pytest.mark.parametrize("way", ["setup", "saved"])
@pytest.mark.parametrize("family", GAME_PAGES)
def test_the_largest_paint_is_the_early_page_and_python_keeps_it(page, site_url, request_log, family, way):
    game_page = visit(page, site_url, family, False)
    game_page.wait_ready()
    if way == "saved":
        game_page.start()
        settle(game_page)
    page.add_init_script(LCP_INIT)
    visit(page, site_url, family, False)
    page.wait_for_selector(f"body[data-early={'view' if way == 'saved' else 'setup'}]")
    game_page.wait_ready()
    ready = page.evaluate(js_global("ready_at"))
    got = page.evaluate(LCP_JS, [ready, "#setup" if way == "setup" else "#table, #end"])
    # Painted before Python was ready, never outdone by what it drew, and the same node now.
    assert got["count"] >= 1 and got["time"] < got["ready"], got
    assert got["inside"] and got["connected"], got
    # Python's start kept that node in the page all along (js/view-early.js adopts the drawing
    # in place): never painted anew, so never a later, larger candidate.
    assert got["moved"] == [], got
    # ... and nothing moved under the player's eyes as Python took over (the layout shift
    # Lighthouse counts, CLS: "good" below 0.1; with Python in a worker, the drawing's boxes
    # are held until its first drawing, js/worker-page.mjs holdBoxes).
    assert page.evaluate("window.__shift") < 0.05, page.evaluate("window.__shift")
