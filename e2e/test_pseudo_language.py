"""The pseudo-language walk: how words written outside the catalogues are found.

The build writes every page once more in the pseudo-language ``qps`` (``dist/qps/``,
web/tools/catalogues.py ``pseudo``: every catalogue message wrapped in ⟦ ⟧, not precached,
not linked).  This walk goes through each game page and the home page in it — the setup,
a setup error, a played turn, the Règles panel, each dialog (Partager, Statistiques,
Intégrer, the question before a 0), the end screen, a replay — and at each step reads
every visible text and every readable attribute (aria-label, title, placeholder, alt) of
the page.  Once the wrapped messages are taken out, nothing with letters may remain but
the players' names and the few words that are not the site's to translate (the brand, the
languages' own names).  A word left is a word written in the code, a template or a script:
the failure names it and where it shows.
"""

from __future__ import annotations

import random
import re

import pytest
from harness.pages import GAME_PAGES, GamePage, daily_near_end, header_tool

from pygames import FAMILIES

pytestmark = pytest.mark.warm

#: The players' names the walk uses (data, not words), and what is not the site's to say.
NAMES = ("Alice", "Bob", "Zoé")
NOT_WORDS = {"pygames", "Français", "English", *NAMES, "Léa", "Paul"}  # and the saved games' names

#: Every visible text node's parent element and every readable attribute of a visible
#: element, as (where, text).
READ_JS = """() => {
  const out = [];
  const where = (e) => e.id ? '#' + e.id : (e.closest('[id]') ? '#' + e.closest('[id]').id + ' ' : '')
      + e.tagName.toLowerCase()
      + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
  const visible = (e) => e.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  // Block by block: the text of each element whose children are not all elements.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let e = walker.currentNode; e; e = walker.nextNode()) {
    // A <time> is a date the browser writes in the page's language (toLocaleString).
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'TIME'].includes(e.tagName)) continue;
    if (!visible(e)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
      const value = e.getAttribute(name);
      if (value && value.trim()) out.push([where(e) + '[' + name + ']', value]);
    }
    if (e.tagName === 'INPUT' && ['button', 'submit', 'reset'].includes(e.type) && e.value)
      out.push([where(e) + '[value]', e.value]);
    if (e.tagName === 'SELECT') {
      for (const o of e.options) out.push([where(e) + ' option', o.textContent]);
      continue;
    }
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const inline = getComputedStyle(e).display.startsWith('inline') && e.parentElement
      && [...e.parentElement.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && !inline) out.push([where(e), e.innerText || e.textContent]);
  }
  return out;
}"""

#: A panel the expert fills (Conseil, the analysis) is done: not its one "thinking…" line,
#: or closed again (the advice of a position that has none to give).
DONE_JS = """(id) => { const a = document.getElementById(id);
  return a.hidden || (a.children.length > 0
    && !(a.children.length === 1 && a.firstElementChild.matches('.hint'))); }"""

WRAPPED = re.compile(r"⟦[^⟦⟧]*⟧")
WORD = re.compile(r"[^\W\d_]{2,}")


def unwrapped(text: str) -> list[str]:
    """The words of a text that no ⟦ ⟧ holds (nested messages taken out from the inside)."""
    previous = None
    while previous != text:
        previous, text = text, WRAPPED.sub(" ", text)
    return [w for w in WORD.findall(text) if w not in NOT_WORDS]


def test_the_walk_finds_a_word_left_outside():
    assert unwrapped("⟦Tour 3 sur 13⟧ Alice") == []
    assert unwrapped("⟦Égalité entre ⟦Léa⟧ et Paul⟧") == []
    assert unwrapped("⟦Lancer⟧ Garder") == ["Garder"]
    assert unwrapped("Score ⟦42⟧") == ["Score"]


def check(page, step: str, found: dict) -> None:
    """Read the page as it is now; keep every word left outside the catalogues."""
    for where, text in page.evaluate(READ_JS):
        words = unwrapped(text)
        if words:
            found.setdefault(f"{step}: {where}", " ".join(text.split())[:160])


def close_dialog(page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")


@pytest.mark.parametrize("family", GAME_PAGES)
def test_every_visible_word_of_a_game_page_comes_from_the_catalogues(page, site_url, family, request_log):
    found: dict[str, str] = {}
    game = GamePage(page, site_url, family, lang="qps")
    game.open(fresh=True, seed=f"pseudo-{family}")
    assert page.evaluate("document.documentElement.lang") != "fr"
    check(page, "setup", found)
    # A setup error: a name with nothing visible in it.
    page.locator("#player-rows li input[type=text]").first.fill("\u200b\u200b")
    page.click("#start")
    page.locator("#setup-error").wait_for(state="visible")
    check(page, "setup error", found)
    ruleset = FAMILIES[family].games[0]
    seats = [seat for seat in ruleset.seats if seat != "human"]
    players = [("Alice", "human")] + [(name, seats[0]) for name in NAMES[1:ruleset.min_players]]
    game.start_game(players)
    check(page, "table", found)
    game.play_random(4, random.Random(family))
    assert game.wait_person_or_end()
    check(page, "a played turn", found)
    if page.locator("#advise").is_visible():  # Conseil: the advisor's choices and figures
        page.click("#advise")
        page.wait_for_function(DONE_JS, arg="advice", timeout=120_000)
        check(page, "advice", found)
    for opener, dialog in (("#open-rules", "#rules"), ("#share-open", "#share"), ("#open-stats", "#stats"),
                           ("#open-embed", "#embed")):
        header_tool(page, opener).click()
        page.locator(dialog).wait_for(state="visible")
        if dialog == "#share":
            page.wait_for_function("() => document.getElementById('share-status').textContent.length > 0")
        check(page, opener, found)
        close_dialog(page)
    # To the end: the rest of the game played by the computer for Alice.
    game.quit_to_setup()
    check(page, "setup again", found)
    game.start_game([(name, seats[-1]) for name, _ in players], or_end=True)
    game.wait_end()
    check(page, "end", found)
    if page.locator("#analyse").is_visible():  # the expert's analysis of the game
        page.click("#analyse")
        page.wait_for_function(DONE_JS, arg="analysis", timeout=120_000)
        check(page, "analysis", found)
    header_tool(page, "#open-stats").click()  # the statistics, a game in them now
    page.locator("#stats").wait_for(state="visible")
    check(page, "statistics", found)
    close_dialog(page)
    page.click("#share-end")
    page.wait_for_function("() => document.getElementById('share-status').textContent.length > 0")
    link = page.input_value("#share-link")
    close_dialog(page)
    game.open_replay(link)
    page.wait_for_function("() => !document.getElementById('table').hidden")
    check(page, "replay", found)
    assert found == {}, "words outside the catalogues:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())


def test_the_question_before_a_zero_comes_from_the_catalogues(page, site_url, request_log):
    from test_page_undo import yams_zero_position

    record, zero = yams_zero_position()
    game = GamePage(page, site_url, "yams", lang="qps")
    game.at_origin()
    game.store("match", {"record": record})
    game.store("prefs", {"confirm_zero": True})
    game.open(seed="undo", pace="0")
    page.wait_for_function("() => !document.getElementById('table').hidden")
    game.click_action(zero)
    page.locator("#confirm").wait_for(state="visible")
    found: dict[str, str] = {}
    check(page, "zero", found)
    assert found == {}, found


@pytest.mark.parametrize("path", ["qps/index.html"])
def test_the_home_page_comes_from_the_catalogues(page, site_url, path, request_log):
    page.goto(site_url + path)
    found: dict[str, str] = {}
    check(page, "home", found)
    assert found == {}, found


#: The daily's day in the walk (any past day: the page takes it from the address).
DAILY_DAY = "2025-06-14"


@pytest.mark.parametrize("family", GAME_PAGES)
def test_the_other_ways_to_play_come_from_the_catalogues(page, site_url, family, request_log):
    """Real dice (the faces entry, its error, a typed throw to correct), the day's challenge
    (its badge, its end and share, its result reloaded) and play by link (the offer, the
    line while the other device plays, a forged link's notice), in the pseudo-language."""
    found: dict[str, str] = {}
    game = GamePage(page, site_url, family, lang="qps")
    ruleset = FAMILIES[family].games[0]
    seat = next(s for s in ruleset.seats if s != "human")
    # Avec de vrais dés: the entry asks Alice's throw at once.
    game.open(fresh=True, seed=f"pseudo-real-{family}", dice="real")
    game.start_game([("Alice", "human"), ("Bob", seat)][: max(2, ruleset.min_players)])
    page.wait_for_function("() => !document.getElementById('faces-entry')?.hidden", timeout=30_000)
    check(page, "faces entry", found)
    page.fill("#faces-input", "9")
    page.press("#faces-input", "Enter")
    page.locator("#faces-error").wait_for(state="visible")
    check(page, "faces error", found)
    before = game.actions()
    wanted = page.locator("#faces-pads .faces-pad").count()
    page.fill("#faces-input", "3" * wanted)
    page.press("#faces-input", "Enter")
    page.wait_for_function("""([key, n]) => document.querySelector('dialog#ask[open]')
        || JSON.parse(localStorage.getItem(key)).record.actions.length > n""", arg=[game.key(), before])
    if page.locator("dialog#ask[open]").count():
        check(page, "a last throw's question", found)
        page.click("#ask-accept")
    game.wait_actions_above(before)
    check(page, "a typed throw", found)
    # Défi du jour: a daily near its end, finished, shared, then reloaded.
    game.at_origin()
    page.evaluate("() => localStorage.clear()")
    game.store("match", daily_near_end(family, DAILY_DAY, f"pseudo-daily-{family}", names=("Alice", "Bob")))
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", ["pygames:daily", (
        '{"format":"pygames-daily/1","days":{"%s":{"%s":{"status":"playing","game":"%s"}}}}'
        % (family, DAILY_DAY, ruleset.id))])
    game.open(daily=DAILY_DAY)
    page.locator("#daily-badge").wait_for(state="visible")
    check(page, "daily table", found)
    rng = random.Random(f"pseudo-daily-{family}")
    for _ in range(60):
        if game.play_random(20, rng) < 20:
            break
    game.wait_end()
    page.locator("#end #daily-share").wait_for(state="visible")
    check(page, "daily end", found)
    game.reload()
    page.locator("#daily").wait_for(state="visible")
    check(page, "daily done", found)
    # Jouer à distance, par lien: Alice plays, then sends the game to Bob's device.
    page.evaluate("() => localStorage.removeItem('pygames:daily')")
    game.open(fresh=True, seed=f"pseudo-link-{family}")
    game.start_game([("Alice", "human"), ("Bob", "human")])
    state = game.replay().state
    alice = state.current_player()
    for _ in range(60):
        if game.replay().state.current_player() != alice:
            break
        game.play_random(1, rng)
    header_tool(page, "#share-open").click()
    page.wait_for_function("() => !document.getElementById('remote-offer').hidden")
    check(page, "share with play by link", found)
    page.click("#remote-start")
    page.wait_for_function("() => document.getElementById('remote-status').textContent.length > 0")
    check(page, "link sent", found)
    close_dialog(page)
    check(page, "waiting for the other device", found)
    game.goto(game.url(seed="forged") + "#play=1.AAAA")
    page.wait_for_function("() => !document.getElementById('remote-notice').hidden")
    check(page, "a forged link", found)
    assert found == {}, "words outside the catalogues:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())
