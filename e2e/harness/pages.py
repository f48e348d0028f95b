"""The game page as the browser tests drive it: one `GamePage` per Playwright page (or
frame) and game family, and everything the tests read from or do to a page, defined once.

* the list of game pages (`GAME_PAGES`, from the registry), the viewports, the timeouts;
* the page's ready signal and its JS globals (`READY_JS`, `GLOBALS`): the tests and the
  benchmarks name them only through this module, so a rename in web/ is one edit here;
* `GamePage`: open a page (seed, pace, game, fresh, the embed form), wait until ready,
  reload, the saved game and the other stored values (``pygames:<id>:match``, ``:setup``,
  ``:view``, ``pygames:prefs``, ``pygames:stats``), the setup, the start, the visible
  screen, a person's turn, random play, the announcements (``#live``), the end screen's
  ranking, the share link of a replay;
* `DiceTray` (e2e/harness/dice.py) mirrors the dice; each game's own parts (the Yams
  sheet, the 421 tokens, the Linotte board, the Dé Landais track) are beside it in
  e2e/harness/<game>.py.
"""

from __future__ import annotations

import json

from harness import site, worker_mode
from harness.dice import DiceTray
from pygames import FAMILIES, DiceSampler, Match, Player, load_match
from pygames.bots import RandomBot, bot_for
from pygames.core import play_out

#: Every game page the site has: a family of the registry with its table's markup
#: (web/games/<id>/table.html); a game added to the registry with its page is in it.
GAME_PAGES: tuple[str, ...] = tuple(
    f.id for f in FAMILIES.values() if (site.WEB / "games" / f.id / "table.html").is_file())

# --- timeouts ------------------------------------------------------------------------------

#: Until a page is ready (Python started), a first visit on a loaded machine included.
BOOT_TIMEOUT_MS = 120_000
#: Until a person may act again, or an action shows in the saved game (the computer's
#: moves in between).
TURN_TIMEOUT_MS = 90_000
#: Until computer players have played a whole game (the expert fetches its tables first).
GAME_TIMEOUT_MS = 180_000

# --- viewports -----------------------------------------------------------------------------

DESKTOP = {"width": 1280, "height": 800}
MOBILE = {"width": 375, "height": 812}
PHONE_320 = {"width": 320, "height": 640}
PHONE_360 = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}

# --- the page's signals and globals (web/app/shell.py, web/js/*.js) ---------------------------

#: The shell's ready signal: ``<body data-ready="1">``, set with the ``pygames:ready`` event.
READY_ATTRIBUTE = "data-ready"
READY_EVENT = "pygames:ready"
READY_JS = "() => !!document.body && document.body.dataset.ready === '1'"
UNREADY_JS = "() => { if (document.body) delete document.body.dataset.ready; }"

#: The page's one global, ``window.pygames`` (README: "window.pygames"), by what it holds.
GLOBALS = {
    "boot": "window.pygames?.boot",           # js/pyodide-fast.mjs: how Python started
    "ready_at": "window.pygames?.readyAt",     # web/app/shell.py: performance.now() when ready
    "early": "window.pygames?.early",         # js/view-early.js: the drawing before Python
    "early_at": "window.pygames?.earlyAt",     # js/view-early.js, js/setup-early.js
    "joy": "window.pygames?.joy",             # js/joy.js: bursts and chimes
    "bot_times": "window.pygames?.botTimes",   # web/app/shell.py fills it when it exists
    "errors": "window.pygames?.errors",       # js/boot.js: the Python errors nobody caught
}
#: A new player is asked before a 0 is written while another box would score
#: (web/app/table_tools.py). The tests play as a player who turned that off, unless they
#: store their own preferences first (e2e/test_page_undo.py tests the question itself).
NO_ZERO_QUESTION = """try {
    if (localStorage.getItem('pygames:prefs') === null)
        localStorage.setItem('pygames:prefs', '{"confirm_zero":false}');
} catch (e) {}"""
if worker_mode.PAGE:  # the whole suite with Python on the page (harness/worker_mode.py)
    NO_ZERO_QUESTION += worker_mode.ADD_PAGE

#: The one global embed.js adds to a host page.
EMBED_GLOBAL = "pygamesEmbed"

#: The controls of the table that play an action, enabled and not hidden.
ACTION_CONTROLS = "#table [data-action]:not([disabled]):not([hidden])"
SCREENS = ("loading", "error", "setup", "table", "end")
#: Stored values of the whole site (the others are a game's: `GamePage.key`).
SITE_KEYS = {"prefs": "pygames:prefs", "stats": "pygames:stats", "theme": "pygames:theme"}

#: Every text the live region takes, in order (the shell replaces its text each time:
#: each announcement is a new text node, several in one task included).
LIVE_LOG_JS = """() => {
    window.__e2eLive = [];
    const live = document.getElementById('live');
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) window.__e2eLive.push(n.textContent);
    }).observe(live, {childList: true});
}"""


#: localStorage filled with ``filler:`` values until it refuses more (large ones, then small).
FILL_STORAGE_JS = """() => {
  const chunk = 'x'.repeat(256 * 1024);
  let i = 0;
  try { for (; i < 400; i++) localStorage.setItem('filler:' + i, chunk); } catch (e) {}
  let small = 'y'.repeat(1024);
  try { for (let j = 0; j < 2000; j++) localStorage.setItem('filler:s' + j, small); } catch (e) {}
  return i;
}"""
#: After `FILL_STORAGE_JS`: the last bytes too, so that no stored value can grow.
TO_THE_BRIM_JS = """() => {
  for (const size of [256, 16, 1]) {
    try { for (let j = 0; j < 5000; j++) localStorage.setItem('filler:b' + size + ':' + j, 'z'.repeat(size)); }
    catch (e) {}
  }
}"""
#: The filler gone again (as if another page of the site had freed its space).
EMPTY_FILLER_JS = """() => { for (const k of Object.keys(localStorage))
    if (k.startsWith('filler:')) localStorage.removeItem(k); }"""


#: The header's "Menu" (js/menu.js): below 1200 px wide the site's tools (Nouvelle partie,
#: Partager, Règles, Stats, Intégrer, Son, Thème) fold under it.
MENU_TOGGLE = "#menu-toggle"


def header_tool(page, selector: str):
    """A tool of the site's header (``#open-rules``, ``#theme-choice``…), ready to use: on a
    narrow screen the header's Menu is opened first, as a player would. Its locator."""
    tool = page.locator(selector)
    toggle = page.locator(MENU_TOGGLE)
    if (not tool.is_visible() and toggle.count() and toggle.is_visible()
            and toggle.get_attribute("aria-expanded") != "true"):
        toggle.click()
    return tool


def fill_storage(page, *, to_the_brim: bool = False) -> None:
    page.evaluate(FILL_STORAGE_JS)
    if to_the_brim:
        page.evaluate(TO_THE_BRIM_JS)


def empty_filler(page) -> None:
    page.evaluate(EMPTY_FILLER_JS)


def aside_keys(page) -> list[str]:
    """The keys where the shell set corrupt stored values aside."""
    return page.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('pygames:corrupt:'))")


def js_global(name: str, path: str = "") -> str:
    """A JS expression reading one of the page's globals (`GLOBALS`), e.g. ``("boot", ".mode")``."""
    return GLOBALS[name] + path


def restored_from(boot: dict) -> str | None:
    """Where a game page's Python was restored from (``boot.snapshotFrom``: "xz" or
    "inflated"), or None for an ordinary start.  Restored in the worker (mode "worker", the
    default) or on the page (mode "snapshot", ``?page``)."""
    if boot.get("mode") == "worker" or boot.get("mode") == "snapshot":
        return boot.get("snapshotFrom")
    return None


def started_plainly(boot: dict) -> bool:
    """An ordinary start, not restored from the snapshot (in the worker or, ``?page``, on
    the page)."""
    return boot.get("mode") in ("worker", "plain") and not boot.get("snapshotFrom")


def read_global(page, name: str, path: str = ""):
    """The value of one of the page's globals (None when the page has not set it)."""
    return page.evaluate(f"() => {js_global(name, path)} ?? null")


def screen(page) -> str:
    """The one visible screen of a page or frame, e.g. 'setup' (fails if none or several
    are shown).  At the end the final table stays visible under the ranking: 'end'."""
    shown = page.evaluate("ids => ids.filter(id => !document.getElementById(id).hidden)",
                          list(SCREENS))
    if shown == ["table", "end"] and page.evaluate(
            "document.getElementById('table').classList.contains('finished')"):
        shown = ["end"]
    assert len(shown) == 1, f"screens shown: {shown}"
    return shown[0]


def get_item(page, key: str) -> str | None:
    return page.evaluate("k => localStorage.getItem(k)", key)


def set_item(page, key: str, value: str) -> None:
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, value])


def wait_ready(page, timeout: int = BOOT_TIMEOUT_MS, polling: str | int = "raf") -> None:
    """Until the shell says it is ready; else fail saying where the page was stuck.
    ``polling``: every animation frame, or every so many ms (a frame the browser does not
    render: a cross-origin frame scrolled out of view has no animation frames)."""
    try:
        page.wait_for_function(READY_JS, timeout=timeout, polling=polling)
    except Exception as err:
        try:
            state = page.evaluate("""() => ({url: location.href, readyState: document.readyState,
                loading: document.getElementById('loading-text')?.textContent,
                error: document.getElementById('error')?.hidden ? null
                       : document.getElementById('error-text')?.textContent,
                sw: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
                early: document.body?.dataset.early ?? null,
                boot: (() => { const b = window.pygames?.boot; if (!b) return null;
                  const {stages, ...rest} = b;
                  return {...rest, stages: Object.fromEntries(Object.entries(stages || {})
                    .map(([k, v]) => [k, Math.round(v)])), now: Math.round(performance.now())}; })()})""")
        except Exception as why:  # the page closed or navigating: say that
            state = repr(why)
        bad = getattr(page, "_e2e_bad_responses", None)
        said = list(getattr(page, "_e2e_console", None) or [])
        raise AssertionError(f"the page never became ready: {state}; "
                             f"HTTP errors: {bad or 'none'}; console: {said or 'nothing'}") from err


def ranking(page) -> list[tuple[int, str, str]]:
    """The end screen's ranking: (place, name, score as shown)."""
    return [tuple(item) for item in page.evaluate(
        """() => [...document.querySelectorAll('#ranking li')].map(li => [
            li.value, li.querySelector('.name').textContent,
            li.querySelector('.score').textContent])""")]


def focus_by_tab(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on `selector` (fails after `limit` presses)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focused(page) -> str:
    """The focused element: '#id', or its tag ('BODY'; a die: 'BUTTON[die]')."""
    return page.evaluate("""() => { const a = document.activeElement;
        return a ? (a.id ? '#' + a.id : a.tagName + (a.dataset.die ? '[die]' : '')) : 'none'; }""")


def reload(page) -> None:
    mark_unready(page)
    page.reload()
    wait_ready(page)


def no_sideways_scroll(page, width: int) -> None:
    """The page is no wider than `width` (it does not scroll sideways)."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide in {width} px"


def mark_unready(page) -> None:
    """Drop the ready signal before a navigation, so that the next wait is for the new page."""
    page.evaluate(UNREADY_JS)


def query(**params) -> str:
    """``?a=1&b=2`` from the parameters that are not None (True is ``1``), in order; values
    are written as the tests give them (``players=Alice,Ordi:simple``)."""
    parts = [f"{k}={1 if v is True else v}" for k, v in params.items() if v is not None and v is not False]
    return "?" + "&".join(parts) if parts else ""


def open_embedded(page, site_url: str, family: str, instance: str, *, viewport=None,
                  lang: str = "fr", **params) -> "GamePage":
    """A family's embed page whose URL names the players (``players=...``): it starts the
    game at once, with no setup, and saves it under its instance's own key.  ``viewport``:
    the frame's size, as a blog gives it."""
    if viewport:
        page.set_viewport_size(viewport)
    game = GamePage(page, site_url, family, embed=True, instance=instance, lang=lang).open(**params)
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    assert game.key() == f"pygames:{family}:match:{instance}"
    return game


def words(lang: str, msg_id: str, **params) -> str:
    """A catalogue entry in a language (pygames/locale/<lang>.json), as a page writes it."""
    from pygames import messages

    previous = messages.language()
    messages.use(lang)
    try:
        return messages.text(msg_id, **params)
    finally:
        messages.use(previous)


class GamePage:
    """One game family's page (or its embed form) in a Playwright page or frame.

    ``instance``: the embed page's ``id`` parameter; its stored values are then
    ``pygames:<family>:<what>:<instance>`` (``:embed`` without one).  ``lang``: the page's
    language, French at the site's root, the others in their folder (``en/yams.html``, the
    pseudo-language's ``qps/``); the stored values are the same in every language."""

    def __init__(self, page, site_url: str, family: str = "yams", *, embed: bool = False,
                 instance: str | None = None, lang: str = "fr"):
        self.page, self.site_url, self.family = page, site_url, family
        self.embed, self.instance, self.lang = embed, instance, lang
        self.dice = DiceTray(page)
        if hasattr(page, "on") and not hasattr(page, "_e2e_bad_responses"):  # for wait_ready
            page._e2e_bad_responses = bad = []
            page.on("response", lambda r: bad.append((r.status, r.url)) if r.status >= 400 else None)

    # --- where ---------------------------------------------------------------------------

    @property
    def path(self) -> str:
        folder = "" if self.lang == "fr" else f"{self.lang}/"
        return folder + (f"embed-{self.family}.html" if self.embed else f"{self.family}.html")

    def words(self, msg_id: str, **params) -> str:
        """A catalogue entry as this page says it (its language's words, tests' checks)."""
        return words(self.lang, msg_id, **params)

    @property
    def game(self):
        """The family's first ruleset (the page's default)."""
        return FAMILIES[self.family].games[0]

    def url(self, *, fresh=False, seed=None, pace=0, game=None, **params) -> str:
        """The page's address: ``fresh``, ``seed``, ``pace``, ``game``, then the others in
        order (``players``, ``nosw``...; ``id`` is the instance's)."""
        if self.instance and "id" not in params:
            params["id"] = self.instance
        return self.site_url + self.path + query(fresh=fresh, seed=seed, pace=pace, game=game,
                                                 **params)

    def key(self, what: str = "match") -> str:
        """The localStorage key of ``match``, ``setup``, ``view`` (this game's), or of
        ``prefs``, ``stats``, ``theme`` (the site's)."""
        if what in SITE_KEYS:
            return SITE_KEYS[what]
        tail = f":{self.instance or 'embed'}" if self.embed else ""
        return f"pygames:{self.family}:{what}{tail}"

    # --- navigation ------------------------------------------------------------------------

    def open(self, *, motion: str | None = "reduce", wait: bool = True, **params) -> "GamePage":
        """Go to the page (`url`'s parameters) and wait until it is ready.  ``motion``:
        "reduce" (no dice animation), "no-preference", or None to leave it as it is."""
        return self.goto(self.url(**params), motion=motion, wait=wait)

    def goto(self, url: str, *, motion: str | None = "reduce", wait: bool = True) -> "GamePage":
        if motion:
            self.page.emulate_media(reduced_motion=motion)
        self.page.goto(url)
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout: int = BOOT_TIMEOUT_MS) -> None:
        wait_ready(self.page, timeout)

    def mark_unready(self) -> None:
        mark_unready(self.page)

    def is_ready(self) -> bool:
        return self.page.evaluate(READY_JS)

    def reload(self) -> None:
        """Reload and wait until ready.  (The shell drops ``fresh=1`` from the address as it
        starts: a reload resumes the game.)"""
        reload(self.page)

    def at_origin(self) -> None:
        """The site's blank page: the origin's storage can be set before a game page opens."""
        site.at_origin(self.page, self.site_url)

    def open_saved(self, value, *, clear: bool = False, **params) -> "GamePage":
        """Store `value` (a dict, a text, or None: nothing) as the saved game from the
        site's blank page (``clear``: emptying the storage first), then open the page."""
        self.at_origin()
        if clear:
            self.page.evaluate("() => localStorage.clear()")
        if value is not None:
            self.store("match", value)
        return self.open(**params)

    def boot(self, path: str = "") -> dict | str | None:
        """How Python started (``window.pygames.boot``): ``mode``, ``snapshotFrom``, ``archive``..."""
        return read_global(self.page, "boot", path)

    # --- stored values ----------------------------------------------------------------------

    def get_item(self, what: str = "match") -> str | None:
        return get_item(self.page, self.key(what))

    def stored(self, what: str = "match"):
        """A stored value, parsed (None when there is none)."""
        text = self.get_item(what)
        return json.loads(text) if text else None

    def store(self, what: str, value) -> None:
        """Store a text as it is, anything else as JSON."""
        set_item(self.page, self.key(what), value if isinstance(value, str) else json.dumps(value))

    def forget(self, what: str = "match") -> None:
        self.page.evaluate("k => localStorage.removeItem(k)", self.key(what))

    def record(self) -> dict:
        blob = self.stored("match")
        assert blob, "no saved game"
        return blob["record"]

    def replay(self) -> Match:
        """The saved game, replayed by `pygames`."""
        return load_match(self.record())

    def actions(self) -> int:
        """How many actions the saved game holds (0 without one)."""
        blob = self.stored("match")
        return len(blob["record"]["actions"]) if blob else 0

    def _wait_actions(self, test: str, n: int, timeout: int) -> None:
        self.page.wait_for_function(
            f"([k, n]) => (JSON.parse(localStorage.getItem(k))?.record?.actions.length ?? -1) {test} n",
            arg=[self.key("match"), n], timeout=timeout)

    def wait_actions_above(self, n: int, timeout: int = TURN_TIMEOUT_MS) -> None:
        self._wait_actions(">", n, timeout)

    def wait_actions_at_least(self, n: int, timeout: int = TURN_TIMEOUT_MS) -> None:
        self._wait_actions(">=", n, timeout)

    def wait_actions(self, n: int, timeout: int = TURN_TIMEOUT_MS) -> None:
        self._wait_actions("===", n, timeout)

    # --- the setup ---------------------------------------------------------------------------

    def fill_setup(self, players=(), *, ruleset=None, options=None, fields=None) -> None:
        """Fill the setup with the mouse: the ruleset, options (booleans are checkboxes,
        other values a select's), the players' rows (added or removed to match; each a
        name and a seat), then other fields by selector (True checks a box, a select takes
        the value, an input is filled)."""
        page = self.page
        if ruleset:
            page.check(f'input[name=ruleset][value="{ruleset}"]')
        for opt, value in (options or {}).items():
            node = f'#option-choices [data-option="{opt}"]'
            if isinstance(value, bool):
                page.set_checked(node, value)
            else:
                page.select_option(node, str(value))
        rows = page.locator("#player-rows li")
        if players:
            while rows.count() < len(players):
                page.click("#add-player")
            while rows.count() > len(players):
                rows.nth(rows.count() - 1).locator(".remove").click()
            assert rows.count() == len(players)
        for i, (name, seat) in enumerate(players):
            rows.nth(i).locator("input[type=text]").fill(name)
            rows.nth(i).locator("select").select_option(seat)
        for selector, value in (fields or {}).items():
            if value is True:
                page.check(selector)
            elif page.locator(selector).evaluate("e => e.tagName") == "SELECT":
                page.select_option(selector, value)
            else:
                page.fill(selector, value)

    def start(self, *, or_end: bool = False) -> None:
        """Commencer, then until the table shows (or the end screen, ``or_end``)."""
        self.page.click("#start")
        self.page.wait_for_function(
            "() => !document.getElementById('table').hidden || !document.getElementById('end').hidden"
            if or_end else "() => !document.getElementById('table').hidden")

    def start_by_keyboard(self, tabs: int = 60) -> None:
        """Tab to Commencer (at most `tabs` presses) and press Enter: the table shows."""
        self.focus_by_tab("#start", limit=tabs)
        self.page.keyboard.press("Enter")
        self.page.wait_for_function("() => !document.getElementById('table').hidden")

    def start_game(self, players=(), *, or_end: bool = False, **setup) -> None:
        """From the setup screen: fill it (`fill_setup`) and start."""
        assert self.screen() == "setup"
        self.fill_setup(players, **setup)
        self.start(or_end=or_end)

    def quit_to_setup(self) -> None:
        """Nouvelle partie, "Abandonner la partie en cours ?" answered yes (the site's own
        question, #ask, while a game is going on), back to the setup."""
        header_tool(self.page, "#quit").click()
        if self.screen() == "table" and self.page.locator("#ask").is_visible():
            self.answer(True)
        self.page.wait_for_function("() => !document.getElementById('setup').hidden")

    def answer(self, accept: bool) -> None:
        """Answer the site's open question (web/app/ask.py) by its buttons."""
        self.page.locator("#ask[open]").wait_for()
        self.page.click("#ask-accept" if accept else "#ask-cancel")
        self.page.locator("#ask").wait_for(state="hidden")

    # --- play --------------------------------------------------------------------------------

    def screen(self) -> str:
        return screen(self.page)

    def tool(self, selector: str):
        """A tool of the site's header, its Menu opened first on a narrow screen."""
        return header_tool(self.page, selector)

    def focus_by_tab(self, selector: str, limit: int = 80) -> None:
        focus_by_tab(self.page, selector, limit)

    def focused(self) -> str:
        return focused(self.page)

    def wait_person_or_end(self, timeout: int = TURN_TIMEOUT_MS) -> bool:
        """Until a person may click a control of the table (True), or the game is over (False)."""
        self.page.wait_for_function(
            f"""() => !document.getElementById('end').hidden
                   || [...document.querySelectorAll({json.dumps(ACTION_CONTROLS)})]
                      .some((e) => e.checkVisibility())""", timeout=timeout)
        return self.page.locator("#end").is_hidden()

    def wait_end(self, timeout: int = GAME_TIMEOUT_MS) -> None:
        self.page.wait_for_function("() => !document.getElementById('end').hidden", timeout=timeout)

    def visible_actions(self) -> list[str]:
        """The notations of the action controls a person may click now."""
        return self.page.evaluate(f"""() => [...document.querySelectorAll({json.dumps(ACTION_CONTROLS)})]
            .filter((e) => e.checkVisibility()).map((e) => e.dataset.action)""")

    def click_action(self, notation: str) -> None:
        self.page.locator(f'#table [data-action="{notation}"]:not([disabled])').filter(
            visible=True).first.click()

    def play_random(self, count: int, rng) -> int:
        """Click `count` action controls (one at random each time); each click must add its
        notation to the saved game.  Returns how many were played before the end."""
        played = 0
        for _ in range(count):
            if not self.wait_person_or_end():
                break
            before = self.actions()
            controls = self.page.locator(ACTION_CONTROLS).filter(visible=True)
            target = controls.nth(rng.randrange(controls.count()))
            notation = target.get_attribute("data-action")
            target.click()
            self.wait_actions_above(before)
            actions = self.record()["actions"]
            assert notation in actions[before:], (notation, actions[before:])
            played += 1
        return played

    # --- what the page says --------------------------------------------------------------------

    def live(self) -> str:
        """The live region's text (the last announcement)."""
        return self.page.text_content("#live")

    def listen_live(self) -> None:
        """From now on, keep every announcement (`announced`)."""
        self.page.evaluate(LIVE_LOG_JS)

    def announced(self) -> list[str]:
        """Every announcement since `listen_live`, in order."""
        return self.page.evaluate("window.__e2eLive || []")

    def ranking(self) -> list[tuple[int, str, str]]:
        return ranking(self.page)

    def share_link(self) -> str:
        """Partager at the end: the replay link the dialog shows (the dialog closed again)."""
        page = self.page
        page.click("#share-end")
        dialog = page.locator("#share")
        assert dialog.is_visible()
        page.wait_for_function("() => document.getElementById('share-status').textContent.length > 0")
        link = page.input_value("#share-link")
        page.keyboard.press("Escape")
        assert dialog.is_hidden()
        return link

    def open_replay(self, link: str) -> None:
        """Open a replay link (a new visit) and wait until ready."""
        self.mark_unready()
        self.goto(link, motion=None)


def finished_record(family: str, seed: str) -> dict:
    """A finished game of the family's first ruleset (a person and the computer, random
    moves, seeded dice), as the page saves it: to open an end screen at once."""
    game = FAMILIES[family].games[0]
    names = ["Alice", "Ordi"][: max(game.min_players, min(2, game.max_players))]
    players = [Player(n, "human" if i == 0 else "simple") for i, n in enumerate(names)]
    match = play_out(Match(game, players, None, DiceSampler(seed)), RandomBot(seed))
    assert match.state.is_terminal()
    return {"record": match.to_record(), "finished": True}


def nearly_finished(family: str, seed: str, names, seat: str = "simple") -> dict:
    """A saved game of the family's first ruleset between computer players (`seat`, one a
    name), one decision before its end: the page resumes it and its computer plays the last
    move, to an end screen reached in play at once."""
    game = FAMILIES[family].games[0]
    players = [Player(n, seat) for n in names]
    match = Match(game, players, None, DiceSampler(seed))
    bot = bot_for(game, seat)
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


def daily_near_end(family: str, day: str, seed: str, names=("Léa", "Ordinateur")) -> dict:
    """The day's challenge of `family` on `day` (its first ruleset: the person alone, or
    against the expert where there is one), random moves until one of the person's last
    decisions is left: as the page saves it (it replays the moves on the day's dice)."""
    game = FAMILIES[family].games[0]
    players = [Player(names[0])]
    if game.min_players > 1:
        players.append(Player(names[1], "expert" if "expert" in game.seats else game.seats[-1]))
    match = Match(game, players, daily=day)
    bot = RandomBot(seed)
    while not match.state.is_terminal():
        if match.state.is_chance():
            match.throw()
        else:
            match.apply(bot(match.state))
    cut = max(p.ply for p in match.positions() if not p.before.is_chance() and p.before.current_player() == 0)
    record = match.to_record()
    record["actions"] = record["actions"][:cut]
    return {"record": record}
