"""A phone's first visit on a link that stalls or breaks (issue 24): each of the runtime's
downloads (Python's WebAssembly, the standard library's .xz, the page's game files and the
shared ones) that stalls is tried again (js/steady-fetch.mjs), the page says so and starts;
a connection that breaks mid-file goes on where it broke; a link that never answers ends
in the page's message about the connection within seconds, not the 90 s one.

The page is told a short stall by an init script (``pygames.stallMs``, 1 s; the real one is
15 s).  A "stall" is a request the test never answers (``context.route``: workers' requests
too); a break, a body that errors half-way (a fetch replaced on a blank page: a route can
only answer a whole body).
"""

from __future__ import annotations

import re

import pytest
from harness import site, worker_mode
from harness.pages import GamePage, js_global, wait_ready, words

STALL_MS = 1000
#: Every label the loading screen showed, in order (kept from the page's first moment).
LABELS = """(window.pygames ??= {}).stallMs = %d;
window.__labels = [];
window.__said = [];  // what the early setup's status line (#live) said
window.__button = [];  // ... and its Commencer button
new MutationObserver(() => {
  const text = document.getElementById("loading-text")?.textContent;
  if (text && text !== window.__labels.at(-1)) window.__labels.push(text);
  const said = document.getElementById("live")?.textContent;
  if (said && said !== window.__said.at(-1)) window.__said.push(said);
  const button = document.getElementById("start")?.textContent.trim();
  if (button && button !== window.__button.at(-1)) window.__button.push(button);
}).observe(document, {subtree: true, childList: true, characterData: true});"""

DOWNLOADS = {
    "wasm": r"/pyodide\.asm\.wasm$",
    "stdlib": r"/python_stdlib-[0-9a-f]+\.zip\.xz$",
    "game": r"/pygames-yams-[0-9a-f]+\.tar\.gz$",
    "shared": r"/pygames-shared-[0-9a-f]+\.tar\.gz$",
}


def _hold(context, pattern: str, times: int) -> list[str]:
    """The first `times` requests matching `pattern` are never answered; the others go on."""
    seen = []

    def handle(route):
        seen.append(route.request.url)
        if len(seen) > times:
            route.continue_()

    context.route(re.compile(pattern), handle)
    return seen


@pytest.mark.parametrize("download", list(DOWNLOADS))
def test_a_stalled_download_is_tried_again_and_the_game_starts(page, context, site_url, request_log, download):
    context.add_init_script(LABELS % STALL_MS)
    seen = _hold(context, DOWNLOADS[download], 1)
    page.goto(site_url + "yams.html?fresh=1")
    # The player starts at once, on the page before Python: told what happens meanwhile.
    page.wait_for_selector("body[data-early=setup]")
    page.click("#start")
    wait_ready(page)
    assert len(seen) == 2, seen
    boot = page.evaluate("window.pygames.boot")
    assert boot["steady"] is True and boot["mode"] == ("worker" if worker_mode.ON else "plain"), boot
    assert boot["retries"] == [f"{seen[0]}: no data for {STALL_MS} ms"], boot
    labels = page.evaluate("window.__labels")
    assert words("fr", "js.boot.retrying") in labels, labels
    said = page.evaluate("window.__said")  # (then the shell's own words, once it is ready)
    retrying = words("fr", "js.boot.retrying")
    assert retrying in said and said[0] in (words("fr", "js.setup.starting.live"), retrying), said
    assert words("fr", "js.setup.retrying") in page.evaluate("window.__button")
    # ...and the game the player started plays.
    page.wait_for_selector("#table:not([hidden])")
    page.click("#roll")
    page.wait_for_function("() => document.querySelectorAll('#dice > *').length === 5")


def test_a_player_who_presses_after_a_retry_is_told_of_it(page, context, site_url, request_log):
    # The game's files were tried again before Commencer was pressed: the press says so too.
    context.add_init_script(LABELS % STALL_MS)
    seen = _hold(context, DOWNLOADS["game"], 1)
    page.goto(site_url + "yams.html?fresh=1")
    page.wait_for_selector("body[data-early=setup]")
    retrying = words("fr", "js.boot.retrying")
    page.wait_for_function("(said) => window.__labels.includes(said)", arg=retrying)
    page.click("#start")
    wait_ready(page)
    assert len(seen) == 2, seen
    said = page.evaluate("window.__said")
    assert said[0] == retrying, said
    assert words("fr", "js.setup.retrying") in page.evaluate("window.__button")
    page.wait_for_selector("#table:not([hidden])")


def test_a_link_that_never_answers_says_so_within_seconds(page, context, site_url, request_log):
    context.add_init_script(LABELS % 500)
    seen = _hold(context, DOWNLOADS["wasm"], 99)
    page.goto(site_url + "yams.html?fresh=1")
    page.wait_for_selector("#error:not([hidden])", timeout=30_000)
    # The connection is to blame, not the site's files: no "clear the cache" advice.
    assert page.text_content("#error-text") == words("fr", "js.boot.lost")
    assert page.locator("#loading").is_hidden()
    assert len(seen) == 3, seen  # three tries in all
    assert len(page.evaluate("window.pygames.boot.retries")) == 2


# A body that breaks after 100,000 bytes, then one that stalls after 150,000, then a whole
# one: what the reader gets is the file, once, in order.
BROKEN_THEN_STALLED = """async (stallMs) => {
  const full = new Uint8Array(300000).map((_, i) => (i * 7) % 251);
  let calls = 0;
  window.fetch = async (url, init) => {
    calls += 1;
    const call = calls;
    const body = new ReadableStream({
      start(c) {
        init.signal.addEventListener("abort", () => c.error(init.signal.reason));
        if (call === 1) {
          c.enqueue(full.slice(0, 60000));
          c.enqueue(full.slice(60000, 100000));
          setTimeout(() => c.error(new TypeError("network error")), 10);
        } else if (call === 2) {
          c.enqueue(full.slice(0, 150000));  // then nothing
        } else {
          for (let at = 0; at < full.length; at += 65536) c.enqueue(full.slice(at, at + 65536));
          c.close();
        }
      },
    });
    return new Response(body, { headers: { "content-type": "application/wasm", "content-encoding": "gzip" } });
  };
  const { steadyFetch } = await import("./js/steady-fetch.mjs");
  const why = [];
  const response = await steadyFetch("x.bin", { stallMs, retried: (w) => why.push(w) });
  const got = new Uint8Array(await response.arrayBuffer());
  return { calls, why, same: got.length === full.length && got.every((b, i) => b === full[i]),
           length: got.length, type: response.headers.get("content-type"),
           encoding: response.headers.get("content-encoding") };
}"""


def test_a_download_broken_mid_file_goes_on_where_it_broke(page, site_url, request_log):
    site.at_origin(page, site_url)
    out = page.evaluate(BROKEN_THEN_STALLED, 500)
    assert out["calls"] == 3 and out["length"] == 300000 and out["same"], out
    assert out["why"][0] == "network error" and "no data for 500 ms" in out["why"][1], out
    # The body is the decoded bytes: the type stays, the encoding goes.
    assert out["type"] == "application/wasm" and out["encoding"] is None, out


def test_a_saved_game_drawn_before_python_says_a_download_is_tried_again(browser, browser_context_args, site_url):
    """Without a service worker (blocked here; a browser without one), every visit downloads:
    a saved game drawn before Python says why it takes longer to wake."""
    context = browser.new_context(**browser_context_args, service_workers="block")
    log = site.RequestLog().attach(context)
    try:
        page = context.new_page()
        game = GamePage(page, site_url).open(fresh=True, seed="steady")
        page.click("#start")
        game.wait_person_or_end()
        page.wait_for_function(f"k => localStorage.getItem(k) && !{js_global('early', '.busy()')}",
                               arg=game.key("view"))
        context.add_init_script(LABELS % STALL_MS)
        seen = _hold(context, DOWNLOADS["wasm"], 1)
        page.goto(site_url + "yams.html")
        page.wait_for_selector("body[data-early=view]")
        assert page.text_content(".waking") == words("fr", "js.view.waking")
        page.wait_for_function("(t) => document.querySelector('.waking')?.textContent === t",
                               arg=words("fr", "js.boot.retrying"))
        wait_ready(page)
        assert len(seen) == 2 and page.locator(".waking").count() == 0
        assert page.evaluate("window.pygames.boot.steady") is True
        log.assert_all_local()
    finally:
        log.detach(context)
        context.close()
