"""Benchmark: two devices at one table (web/app/duo.py, js/duo-link.js), in headless Chromium
(not a pytest module).

    python e2e/bench/bench_two_devices.py [--runs 5] [--moves 20] [--processes]

Serves the built site (dist/) on 127.0.0.1 and opens the Yams page on two devices: two
browser contexts of one Chromium, or with ``--processes`` two Chromium processes (no shared
state at all).  The host sets up a game on two devices; the guest opens the host's link; the
host pastes the guest's answer.  Prints, over `--runs` pairings:

* the sizes of the codes: bytes, base64url characters, the link's characters, and the
  version of each QR code as drawn (lean-qr, correction M);
* the time from the host's code pasted on the guest to its answer shown, and from the
  answer pasted on the host (Relier, `--settle` seconds after the answer is shown, as a
  person scanning it would) to the data channel open and to both pages saying so (what a
  person waits for after scanning), and the data channel's own time (answer set → open);
* a move's round trip: the guest's click on a control → the host applies it and sends it
  back with its dice → the guest's saved game holds it (median, p95, max of `--moves`).
"""

from __future__ import annotations

import argparse
import base64
import statistics
import sys
import time

import _paths  # noqa: E402,F401  (sys.path: the repository, web/tools/, e2e/)
from harness import site  # noqa: E402
from harness.pages import ACTION_CONTROLS, NO_ZERO_QUESTION, PHONE_360  # noqa: E402

READY = "() => document.body.dataset.ready === '1'"
QR_DRAWN = "(canvas) => document.querySelector(canvas).dataset.version"  # (drawn after its text)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {ms(statistics.median(ordered))}, p95 {ms(p95)}, max {ms(ordered[-1])} (n={len(ordered)})"


def code_bytes(code: str) -> int:
    return len(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))


def pair_once(host, guest, url: str, run: int, moves: int, settle: float) -> dict:
    host.goto(f"{url}yams.html?fresh&pace=0&seed=bench{run}")
    host.wait_for_function(READY, timeout=120_000)
    host.fill("#player-rows li:nth-child(1) input[type=text]", "Léa")
    if host.locator("#player-rows li").count() < 2:
        host.click("#add-player")
    host.locator("#player-rows li").nth(1).locator("input[type=text]").fill("Paul")
    host.locator("#player-rows li").nth(1).locator("select").select_option("human")
    host.check("#two-devices")
    host.click("#start")
    host.wait_for_function("() => document.getElementById('duo-offer').value.includes('#pair=')", timeout=60_000)
    link = host.input_value("#duo-offer")
    offer = link.split("#pair=", 1)[1]
    host.wait_for_function(QR_DRAWN, arg="#duo-offer-qr", timeout=60_000)
    offer_version = host.get_attribute("#duo-offer-qr", "data-version")

    guest.goto(f"{url}yams.html?fresh&pace=0&seed=guest{run}")
    guest.wait_for_function(READY, timeout=120_000)
    guest.click("#duo-join-open")
    guest.fill("#duo-code", link)
    started = time.perf_counter()
    guest.click("#duo-join-go")
    guest.wait_for_function("() => document.getElementById('duo-reply').value.length > 0", timeout=60_000)
    answered = time.perf_counter() - started
    answer = guest.input_value("#duo-reply")
    guest.wait_for_function(QR_DRAWN, arg="#duo-reply-qr", timeout=60_000)
    answer_version = guest.get_attribute("#duo-reply-qr", "data-version")

    time.sleep(settle)  # a person scanning a code takes that long: the host's page is idle again
    host.fill("#duo-answer", answer)
    host.evaluate("""() => document.getElementById('duo-connect').addEventListener('click',
        () => { window.__clickedAt = performance.now(); }, {capture: true, once: true})""")
    for page in (host, guest):  # when each page says it is linked (its clock)
        page.evaluate("""() => new MutationObserver((_, observer) => {
            if (document.body.hasAttribute('data-duo-linked')) {
                window.__linkedAt = performance.now(); observer.disconnect(); }
        }).observe(document.body, {attributes: true})""")
    started = time.perf_counter()
    host.click("#duo-connect")
    for page in (host, guest):
        page.wait_for_function("() => document.body.hasAttribute('data-duo-linked')", timeout=60_000)
    linked = time.perf_counter() - started
    channel = host.evaluate("() => pygames.duo.timing.opened - pygames.duo.timing.started") / 1000
    opened = host.evaluate("() => pygames.duo.timing.opened - window.__clickedAt") / 1000
    host_says = host.evaluate("() => window.__linkedAt - window.__clickedAt") / 1000
    guest_says = guest.evaluate("() => window.__linkedAt - pygames.duo.timing.opened") / 1000
    assert host.evaluate("() => pygames.duo.config.iceServers.length") == 0

    key = "pygames:yams:match"
    trips = []
    click = f"""(n) => [...document.querySelectorAll({ACTION_CONTROLS!r})]
        .find((e) => e.dataset.action === n && e.checkVisibility()).click()"""
    count = "(k) => JSON.parse(localStorage.getItem(k)).record.actions.length"
    offered_js = f"""() => [...document.querySelectorAll({ACTION_CONTROLS!r})]
        .filter((e) => e.checkVisibility()).map((e) => e.dataset.action)"""
    while len(trips) < moves:
        n = host.evaluate(count, key)
        guest.wait_for_function(f"(k) => ({count})(k) === {n}", arg=key, timeout=60_000)
        page, offered = None, []
        for _ in range(600):  # whose turn: the page that offers its person's controls
            page = next((pg for pg in (host, guest) if pg.evaluate(offered_js)), None)
            if page is not None:
                offered = page.evaluate(offered_js)
                break
            time.sleep(0.05)
        assert offered, "no controls on either device"
        # a person who rolls once, then scores the first box
        notation = next((x for x in offered if x.startswith("score")), "roll" if "roll" in offered else offered[0])
        started = time.perf_counter()
        page.evaluate(click, notation)
        guest.wait_for_function(f"(k) => ({count})(k) > {n}", arg=key, timeout=60_000)
        if page is guest:  # its move went to the host and came back, with any dice
            trips.append(time.perf_counter() - started)
    return {"offer": offer, "answer": answer, "link": link, "offer_version": offer_version,
            "answer_version": answer_version, "answered": answered, "linked": linked, "opened": opened,
            "host_says": host_says, "guest_says": guest_says,
            "channel": channel, "trips": trips}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before the answer is pasted")
    parser.add_argument("--processes", action="store_true", help="two Chromium processes, not two contexts")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site.ensure_built()
    server, url = site.start_site()
    results = []
    try:
        with sync_playwright() as p:
            browsers = [p.chromium.launch(**site.chromium_launch_kwargs())
                        for _ in range(2 if args.processes else 1)]
            for run in range(args.runs):
                pages = []
                for k in range(2):
                    context = browsers[k % len(browsers)].new_context(locale="fr-FR", viewport=PHONE_360)
                    context.add_init_script(NO_ZERO_QUESTION)
                    pages.append(context.new_page())
                results.append(pair_once(*pages, url, run, args.moves, args.settle))
                for page in pages:
                    page.context.close()
            for browser in browsers:
                browser.close()
    finally:
        site.stop_site(server)

    first = results[0]
    print(f"two devices: {'two Chromium processes' if args.processes else 'two contexts of one Chromium'}, "
          f"{args.runs} pairings, {args.moves} moves each")
    print(f"offer:  {code_bytes(first['offer'])} bytes, {len(first['offer'])} characters; "
          f"link {len(first['link'])} characters; QR version {first['offer_version']}")
    print(f"answer: {code_bytes(first['answer'])} bytes, {len(first['answer'])} characters; "
          f"QR version {first['answer_version']}")
    print(f"host's code pasted -> guest's answer shown: {summary([r['answered'] for r in results])}")
    print(f"answer pasted (Relier) -> channel open:    {summary([r['opened'] for r in results])}")
    print(f"answer pasted (Relier) -> the host says linked: {summary([r['host_says'] for r in results])}")
    print(f"guest's channel open -> the guest says linked: {summary([r['guest_says'] for r in results])}")
    print(f"data channel (answer set -> open):         {summary([r['channel'] for r in results])}")
    print(f"a guest's move, round trip:                {summary([t for r in results for t in r['trips']])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
