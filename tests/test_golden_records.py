"""Saved games from before the rules moved (tests/golden/records.json, made at b20e2ef by
tests/golden/make_golden.py): every ruleset, option sets, paper starts, games played
*sans annulation*, finished and unfinished.  Each must load with today's code and replay
to the same position and the same outcome, and save back to the same record."""

from __future__ import annotations

import json
import os

import pytest

from pygames import load_match

with open(os.path.join(os.path.dirname(__file__), "golden", "records.json"), encoding="utf-8") as f:
    GOLDEN = json.load(f)["entries"]


@pytest.mark.parametrize("entry", GOLDEN, ids=[e["label"] for e in GOLDEN])
def test_a_record_saved_before_the_move_replays_the_same(entry):
    record, expected = entry["record"], entry["expected"]
    match = load_match(json.dumps(record))
    state = match.state
    assert match.to_record() == record
    assert state.is_terminal() == expected["finished"]
    assert state.current_player() == expected["current_player"]
    assert state.scores() == expected["scores"]
    assert state.ranking() == expected["ranking"]
    outcome = match.outcome()
    if expected["outcome"] is None:
        assert outcome is None
    else:
        assert [list(p) for p in outcome.ranking] == expected["outcome"]["ranking"]
        assert list(outcome.winners) == expected["outcome"]["winners"]
        assert list(outcome.losers) == expected["outcome"]["losers"]
        assert outcome.draw == expected["outcome"]["draw"]
        assert outcome.reason == expected["outcome"]["reason"]
    assert match.game.render_text(state, match.names) == expected["text"]


def test_the_golden_set_covers_every_ruleset_and_the_match_settings():
    games = {e["record"]["game"] for e in GOLDEN}
    assert games == {"yams", "yams-boite", "yahtzee", "421", "linotte", "de-landais"}
    assert any("start" in e["record"] for e in GOLDEN if e["record"]["game"] == "421")
    assert any("start" in e["record"] for e in GOLDEN if e["record"]["game"] == "de-landais")
    assert any(e["record"].get("undo") is False for e in GOLDEN)
    assert any(not e["expected"]["finished"] for e in GOLDEN)
    assert any(e["record"]["options"] != {} for e in GOLDEN)
