"""The day's challenges as this device keeps them (web/app/daily_store.py): one try per day
and game, the streak, the best day, the bounds, and any damaged value a BadStored."""

from __future__ import annotations

import json

import daily_store as ds
import pytest
from guard import BadStored

F = "yams"


def test_one_try_and_streak():
    store = ds.started(ds.empty(), F, "2025-06-14", "yams")
    assert not ds.played(store, F, "2025-06-14")
    store = ds.finished(store, F, "2025-06-14", "yams", result="solo", score=240, picture="■□ ■", replay="1.abc")
    assert ds.played(store, F, "2025-06-14")
    store = ds.abandoned(ds.started(store, F, "2025-06-13", "yams"), F, "2025-06-13")
    assert ds.streak(store, F, "2025-06-14") == 2
    assert ds.streak(store, F, "2025-06-15") == 2  # today still open
    assert ds.streak(store, F, "2025-06-16") == 0
    assert ds.best(store, F) == ("2025-06-14", ds.entry(store, F, "2025-06-14"))
    assert ds.load(ds.dumps(store)) == store


def test_bounds():
    store = ds.empty()
    for n in range(ds.MAX_DAYS + 20):
        day = f"{2020 + n // 300}-{n % 300 // 28 + 1:02d}-{n % 28 + 1:02d}"
        store = ds.finished(store, F, day, "yams", result="solo", score=n, replay="1.x")
    days = store["days"][F]
    assert len(days) == ds.MAX_DAYS
    assert sum(1 for e in days.values() if e["replay"]) == ds.MAX_REPLAYS


@pytest.mark.parametrize("bad", [
    "not json", "[]", '{"format":"x"}', '{"format":"pygames-daily/1","days":[]}',
    '{"format":"pygames-daily/1","days":{"yams":{"2025-02-30":{"status":"done","game":"yams"}}}}',
    '{"format":"pygames-daily/1","days":{"yams":{"2025-06-14":{"status":"won","game":"yams"}}}}',
    '{"format":"pygames-daily/1","days":{"<b>":{}}}',
    '{"format":"pygames-daily/1","days":{"yams":{"2025-06-14":{"status":"done","game":"yams","picture":"<img>"}}}}',
    '{"format":"pygames-daily/1","days":{"yams":{"2025-06-14":{"status":"done","game":"yams","score":1e400}}}}',
    '{"format":"pygames-daily/1","days":{"yams":{"2025-06-14":{"status":"done","game":"yams","replay":"javascript:x"}}}}',
    "[" * 10000, "x" * (ds.MAX_TEXT + 1),
])
def test_damaged_values_are_bad_stored(bad):
    with pytest.raises(BadStored):
        ds.load(bad)


def test_nothing_stored_is_empty():
    assert ds.load(None) == ds.empty()


def test_share_text(english):
    text = ds.share_text("Yams", "2025-06-14", "won", "3 tokens", "■□·", "https://x/yams.html#replay=1.a")
    assert text.splitlines() == ["Daily challenge, Yams, 2025-06-14", "Won against the expert computer (3 tokens)",
                                 "■□·", "https://x/yams.html#replay=1.a"]
    assert json.dumps(text, ensure_ascii=False).isprintable()
