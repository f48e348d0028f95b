"""Replays to share, on every game page of the registry: a seeded game played by the
computer to its end gives a "Partager le replay" link; opened in a NEW browser context
(another visitor, with a game of his own saved), the link shows the game read-only, step
by step, each step described as it was announced when it was played and drawn as the
engine replayed in Python has it; automatic play advances; the visitor's saved game is
untouched. A damaged link and hostile ones (a decompression bomb, a game of another page,
an illegal move with a name made of markup) give a French message and nothing else.
"""

from __future__ import annotations

import base64
import json
import random
import zlib

import pytest
import replay  # web/app/replay.py: the links' format
from harness import site
from harness.pages import GAME_PAGES, GamePage, finished_record, wait_ready, words

from pygames import FAMILIES, load_match

HOSTILE_NAME = '<img src=x onerror="window.hacked=1">'


@pytest.fixture(scope="module")
def visitor_context(browser):
    """Another visitor's browser: a context of its own, apart from the player's, shared by
    this module's tests (its first visit is the first test's)."""
    context = browser.new_context()
    yield context
    context.close()


@pytest.fixture
def pages(visitor_context, site_url):
    """new_page() -> a page of the other visitor, who has no saved game yet (the site's
    stored values are emptied first); its requests are checked at teardown."""
    site.empty_site(visitor_context, site_url)
    log = site.RequestLog().attach(visitor_context)

    def make():
        page = visitor_context.new_page()
        page.emulate_media(reduced_motion="reduce")
        return page

    yield make
    site.empty_site(visitor_context, site_url)
    log.detach(visitor_context)
    log.assert_all_local()


def players_for(family):
    """Computer players, as few as the game allows, so that a whole game is short."""
    game = FAMILIES[family].games[0]
    n = max(1, game.min_players)
    return [{"name": f"Ordi {i + 1}", "seat": "simple"} for i in range(n)]


def play_a_computer_game(game: GamePage) -> dict:
    """A seeded game between computers at pace 0, to its end; its saved record."""
    game.page.emulate_media(reduced_motion="reduce")
    game.at_origin()  # the site's origin, to store the setup
    game.store("setup", {"game": game.game.id, "options": {}, "players": players_for(game.family)})
    game.open(fresh=True, seed=f"replay-{game.family}", motion=None)
    game.listen_live()
    game.start(or_end=True)
    game.wait_end()
    return game.record()


def visitor_with_a_saved_game(game: GamePage) -> tuple[str | None, ...]:
    """Another visitor, with a game of his own started: its stored values."""
    game.open(fresh=True, seed="visitor", motion=None)
    game.start()
    return stored(game)


def stored(game: GamePage):
    return tuple(game.get_item(what) for what in ("match", "setup"))


def position(page) -> str:
    return page.text_content("#replay-pos").strip()


def step_text(page) -> str:
    return " ".join(page.text_content("#replay-step").split())


def only_the_message(page, expected: str) -> str:
    page.wait_for_function("() => !document.getElementById('replay-error').hidden")
    text = page.text_content("#replay-error")
    assert expected in text, text
    for hidden in ("#table", "#setup", "#end", "#loading", "#replay-body", "#share-open"):
        assert page.locator(hidden).is_hidden(), hidden
    assert page.locator("#replay-leave").is_visible()
    assert not page.evaluate("window.hacked") and page.locator("#replay img").count() == 0
    return text


def faces_drawn(page) -> list[int]:
    return page.eval_on_selector_all(
        "#dice .die", "ds => ds.map((d) => Number(d.dataset.face || 0))")


def download_from_share(page, opener) -> dict:
    """Partager (`opener`), then Télécharger la partie: the file's record."""
    page.click(opener)
    assert page.locator("#share").is_visible()
    with page.expect_download() as info:
        page.click("#share-download")
    assert info.value.suggested_filename.endswith("-partie.json")
    record = json.loads(open(info.value.path(), encoding="utf-8").read())
    page.keyboard.press("Escape")
    return record, info.value.path()


@pytest.mark.warm
@pytest.mark.parametrize("family", GAME_PAGES)
def test_the_game_can_be_downloaded_at_any_time_and_taken_up_again(page, request_log, site_url, family):
    """Télécharger la partie is offered always, in Partager (header and end screen), not
    only when the browser cannot save; the file is the game as saved, and the setup's
    "Reprendre une partie téléchargée" takes it up where it was (issue 20, item 6)."""
    game = GamePage(page, site_url, family).open(fresh=True, seed="download")
    game.start_game([("Léa", "human"), ("Paul", "human")])
    game.play_random(3, random.Random(6))
    assert page.locator("#save-trouble").is_hidden()  # saving works: the download is offered anyway
    record, path = download_from_share(page, "#share-open")
    assert record == game.record()
    game.forget("match")
    game.open(fresh=True)
    page.set_input_files("#load-game", path)
    page.wait_for_function("() => !document.getElementById('table').hidden")
    assert game.record() == record
    # A finished game, from its end screen.
    game.store("match", finished_record(family, "download"))
    game.open(seed="download")
    page.wait_for_function("() => !document.getElementById('end').hidden")
    record, _ = download_from_share(page, "#share-end")
    assert record == game.record() and load_match(record).state.is_terminal()


@pytest.mark.warm  # the player's page: the shared warm context (e2e/conftest.py)
@pytest.mark.parametrize("family", GAME_PAGES)
def test_a_shared_replay_opens_read_only_in_a_new_context(page, request_log, pages, site_url, family,
                                                          screenshot):
    player = page
    record = play_a_computer_game(GamePage(player, site_url, family))
    live_log = [" ".join(t.split()) for t in GamePage(player, site_url, family).announced()]
    link = GamePage(player, site_url, family).share_link()
    assert link.startswith(f"{site_url}{family}.html#replay=1."), link[:120]
    data = replay.from_fragment("#" + link.split("#", 1)[1])
    assert replay.decode(data) == record  # the link carries the game as saved
    expected = replay.load(data, family)  # the engine, replayed in CPython
    last = expected.last
    assert expected.finished and last >= 3

    visitor = pages()
    watched = GamePage(visitor, site_url, family)
    own = visitor_with_a_saved_game(watched)
    assert own[0] is not None
    watched.open_replay(link)
    assert visitor.locator("#replay").is_visible() and visitor.locator("#table").is_visible()
    assert visitor.locator("#setup").is_hidden() and visitor.locator("#end").is_hidden()
    assert visitor.locator("#share-open").is_hidden()
    assert position(visitor) == f"coup 0 / {last}"
    assert "Ordi 1" in visitor.text_content("#replay-about")
    assert visitor.evaluate("document.activeElement.id") == "replay-play"

    # Step by step: each step is described as it was announced when it was played.
    # (in order among the announcements of the game: the views may say more, e.g. the dice
    # a computer keeps before it throws).
    said = [step_text_after(visitor, "#replay-next", k, last) for k in (1, 2, 3)]
    at = [live_log.index(said[0])]
    for text in said[1:]:
        at.append(live_log.index(text, at[-1] + 1))
    assert step_text_after(visitor, "#replay-back", 2, last) == said[1]
    assert f"Coup 2 sur {last}" in visitor.text_content("#live")
    check_drawn(visitor, family, expected, 2)
    # The game's own controls play nothing: a click on any of them, a key of the game.
    for control in visitor.locator("#table [data-action]").all()[:3]:
        control.dispatch_event("click")
    visitor.evaluate("document.activeElement.blur()")  # keys, when focus is not on a control
    for key in ("Space", "Enter", "1", "s"):  # the game's own keys play nothing
        visitor.keyboard.press(key)
    assert position(visitor) == f"coup 2 / {last}"
    visitor.keyboard.press("ArrowRight")
    assert position(visitor) == f"coup 3 / {last}"
    visitor.keyboard.press("End")
    assert position(visitor) == f"coup {last} / {last}"
    assert visitor.locator("#replay-next").is_disabled()
    check_drawn(visitor, family, expected, last)
    visitor.keyboard.press("Home")
    assert position(visitor) == f"coup 0 / {last}"
    assert visitor.locator("#replay-back").is_disabled()
    visitor.click("#replay-last")
    assert position(visitor) == f"coup {last} / {last}"
    visitor.click("#replay-first")
    assert position(visitor) == f"coup 0 / {last}"
    screenshot(visitor, f"replay-{family}-1280")

    # Automatic play advances on its own, and pauses.
    visitor.click("#replay-play")
    assert "Pause" in visitor.text_content("#replay-play")
    visitor.wait_for_function(
        "() => /^coup ([2-9]|\\d\\d+) \\//.test(document.getElementById('replay-pos').textContent)",
        timeout=20_000)
    visitor.click("#replay-play")
    assert "Lecture" in visitor.text_content("#replay-play")
    paused = position(visitor)
    visitor.wait_for_timeout(1300)  # longer than a step of the automatic play at its speed
    assert position(visitor) == paused
    # The arrows step with the focus on a replay button too, as the hint says (issue 20,
    # item 7); a 421 replay's Charge auto is not offered (nothing plays in a replay).
    visitor.click("#replay-first")
    visitor.click("#replay-next")
    assert visitor.evaluate("document.activeElement.id") == "replay-next"
    visitor.keyboard.press("ArrowRight")
    assert position(visitor) == f"coup 2 / {last}"
    visitor.keyboard.press("ArrowLeft")
    assert position(visitor) == f"coup 1 / {last}"
    if family == "421":
        visitor.click("#replay-first")
        auto = visitor.locator("#auto-charge")
        assert auto.is_hidden() or auto.is_disabled()
    # Lecture's speed: très rapide plays several steps a second, lente one in two seconds.
    speed = visitor.get_by_label("Vitesse de la lecture", exact=True)
    assert speed.input_value() == "normale"
    speed.select_option("tres-rapide")
    if visitor.locator("#replay-first").is_enabled():
        visitor.click("#replay-first")
    visitor.click("#replay-play")
    visitor.wait_for_function(
        "(n) => Number(document.getElementById('replay-pos').textContent.split(' ')[1]) >= n",
        arg=min(last, 6), timeout=4_000)
    speed.select_option("lente")
    at = int(position(visitor).split()[1])
    visitor.wait_for_timeout(1000)
    assert int(position(visitor).split()[1]) - at <= 1
    visitor.click("#replay-play")  # pause
    assert "Lecture" in visitor.text_content("#replay-play")

    # The visitor's own game was never touched, and comes back without the fragment.
    assert stored(watched) == own
    with visitor.expect_navigation():
        visitor.click("#replay-leave")
    wait_ready(visitor)
    assert "#" not in visitor.url
    assert visitor.locator("#replay").is_hidden() and visitor.locator("#table").is_visible()
    assert stored(watched)[0] == own[0]


def step_text_after(page, button, k, last) -> str:
    page.click(button)
    assert position(page) == f"coup {k} / {last}"
    return step_text(page)


def check_drawn(page, family, expected, k):
    """What the view draws at position k agrees with the engine there."""
    state = expected.positions[k][1]
    dice = getattr(state, "dice", None)
    if family == "yams" or family == "linotte":
        faces = faces_drawn(page)
        assert faces == (list(dice) if dice else [0] * len(faces)), (faces, dice)
    if family == "de-landais":  # the journal of the series as it stood then (issue 20, item 14)
        from pygames.landais import journal
        from pygames.landais.messages import journal_entry
        from pygames.messages import text

        entries = journal(expected.match.positions(expected.positions[k][0]))
        shown = page.eval_on_selector_all("#journal-list li", "lis => lis.map((li) => li.textContent)")
        assert shown == [text(journal_entry(e, expected.match.names)) for e in reversed(entries)]
        assert entries or k == 0
    if family == "yams":
        totals = page.eval_on_selector_all(
            "#sheet-body tr.grand td", "tds => tds.map((td) => Number(td.textContent))")
        assert totals == [state.sheet(p).total for p in range(len(expected.match.players))]


@pytest.mark.warm  # a visitor who has been here before (e2e/conftest.py)
@pytest.mark.parametrize("family", GAME_PAGES)
def test_damaged_and_hostile_links_give_only_a_message(page, request_log, site_url, family):
    visitor = page
    visitor.emulate_media(reduced_motion="reduce")
    watched = GamePage(visitor, site_url, family)
    own = visitor_with_a_saved_game(watched)
    game = FAMILIES[family].games[0]
    other = next(f for f in FAMILIES.values() if f.id != family).games[0]
    record = {"format": "pygames/1", "game": game.id, "options": {},
              "players": [{"name": HOSTILE_NAME, "seat": "human"},
                          {"name": "Bob", "seat": "human"}][: max(2, game.min_players)],
              "actions": ["dice 9 9 9"] * 3}
    good_other = {"format": "pygames/1", "game": other.id, "options": {},
                  "players": [{"name": "Alice", "seat": "human"}] * max(1, other.min_players),
                  "actions": []}
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, replay.ZDICT)
    bomb = packer.compress(b'{"actions":["' + b"roll" * 2_500_000) + packer.flush()
    cases = [
        (replay.encode(record)[:-9], "abîmé"),  # cut
        ("1." + base64.urlsafe_b64encode(bomb).decode().rstrip("="), "trop de données"),
        (replay.encode(good_other), str(FAMILIES[other.family].title)),
        (replay.encode(record), "ne peut pas être rejoué"),
        ("1.%3Cscript%3E", "abîmé"),
    ]
    for data, expected in cases:
        visitor.goto("about:blank")  # each link a new visit (not a same-page fragment)
        watched.goto(f"{site_url}{family}.html#replay={data}", motion=None)
        only_the_message(visitor, expected)
    assert stored(watched) == own


@pytest.mark.warm
def test_a_replay_link_made_in_french_opens_in_english(page, request_log, site_url):
    """A replay link holds no words: the French page's link, opened on the English page,
    shows the same game with the English words."""
    record = play_a_computer_game(GamePage(page, site_url, "421"))
    link = GamePage(page, site_url, "421").share_link()
    english = link.replace(f"{site_url}421.html#", f"{site_url}en/421.html#")
    assert english != link
    watched = GamePage(page, site_url, "421", lang="en")
    watched.open_replay(english)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#replay").is_visible() and page.locator("#table").is_visible()
    data = replay.from_fragment("#" + link.split("#", 1)[1])
    assert replay.decode(data) == record
    expected = replay.load(data, "421")
    assert position(page) == words("en", "site.replay.position", k=0, last=expected.last)
    assert position(page) != words("fr", "site.replay.position", k=0, last=expected.last)


@pytest.mark.parametrize("allowed", [True, False], ids=["copied", "refused"])
def test_the_link_is_copied_or_left_selected_to_copy_by_hand(new_context, site_url, allowed):
    """Partager copies the link at once and says so; when the browser refuses the clipboard,
    it says that instead, the link selected to copy by hand (web/app/dom.py `copy_text`, which
    the replay's, the links', the daily challenge's and the two devices' copy buttons share)."""
    context = new_context()
    origin = site_url.split("/", 3)
    if allowed:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin="/".join(origin[:3]))
    else:
        context.add_init_script("navigator.clipboard.writeText = () => "
                                "Promise.reject(new DOMException('refused', 'NotAllowedError'));")
    page = context.new_page()
    game = GamePage(page, site_url, "yams").open(fresh=True, seed="copy")
    game.start_game([("Léa", "human"), ("Paul", "human")])
    page.click("#share-open")
    said = words("fr", "site.share.copied" if allowed else "site.share.not_copied")
    page.wait_for_function("(t) => document.getElementById('share-status').textContent === t", arg=said)
    link = page.input_value("#share-link")
    assert link.startswith(site_url) and "#" in link
    assert page.evaluate("""() => { const f = document.getElementById('share-link');
        return [document.activeElement === f, f.selectionStart, f.selectionEnd]; }""") == [True, 0, len(link)]
    if allowed:
        assert page.evaluate("navigator.clipboard.readText()") == link
