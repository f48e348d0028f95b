"""The settings of the page's table tools in web/app/prefs.py: the computer's speed
(`pace`) and the confirmation of a 0 (`confirm_zero`).  A damaged stored value gives the
defaults and never an exception; each setting round-trips and keeps the others."""

from __future__ import annotations

import json
from pathlib import Path

import prefs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent



def test_defaults_are_normal_speed_and_confirmation_on():
    assert prefs.defaults()["pace"] == "normal" and prefs.defaults()["confirm_zero"] is True
    assert prefs.pace_seconds(prefs.parse(None)) == 0.65


@pytest.mark.parametrize("speed, seconds", [("lent", 1.2), ("normal", 0.65), ("rapide", 0.25),
                                            ("instant", 0.0)])
def test_each_speed_round_trips_with_its_pause(speed, seconds):
    stored = prefs.dump(prefs.with_pref(prefs.parse('{"sound": true}'), "pace", speed))
    read = prefs.parse(stored)
    assert read["pace"] == speed and read["sound"] is True
    assert prefs.pace_seconds(read) == seconds


def test_every_speed_has_a_pause_and_a_french_label():
    assert set(prefs.PACE_MS) == set(prefs.ALLOWED["pace"]) == set(prefs.PACE_LABELS)


@pytest.mark.parametrize("value", ["fast", "", "LENT", 0, 650, None, True, ["lent"], {"x": 1}])
def test_a_bad_speed_reads_as_normal(value):
    read = prefs.parse(json.dumps({"pace": value, "confirm_zero": False}))
    assert read["pace"] == "normal" and read["confirm_zero"] is False
    assert prefs.pace_seconds({"pace": value}) == 0.65 and prefs.pace_seconds(None) == 0.65


@pytest.mark.parametrize("value", [0, 1, "false", None, [False]])
def test_a_bad_confirmation_value_keeps_asking(value):
    assert prefs.parse(json.dumps({"confirm_zero": value}))["confirm_zero"] is True


def test_turning_the_confirmation_off_is_remembered_and_keeps_the_speed():
    text = prefs.dump(prefs.with_pref(prefs.parse('{"pace": "rapide"}'), "confirm_zero", False))
    assert prefs.parse(text) == {**prefs.defaults(), "pace": "rapide", "confirm_zero": False}


@pytest.mark.parametrize("key, value", [("pace", "warp"), ("pace", 250), ("confirm_zero", "no")])
def test_writing_a_bad_value_raises(key, value):
    with pytest.raises(ValueError):
        prefs.with_pref(prefs.defaults(), key, value)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=300), st.binary(max_size=50).map(lambda b: b.decode("latin-1")),
                 st.dictionaries(st.sampled_from(["pace", "confirm_zero", "sound", "x"]),
                                 st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
                                 max_size=4).map(json.dumps)))
def test_any_stored_text_gives_valid_settings(text):
    read = prefs.parse(text)
    assert read["pace"] in prefs.PACE_MS and read["confirm_zero"] in (True, False)
    assert prefs.pace_seconds(read) in {ms / 1000 for ms in prefs.PACE_MS.values()}
    assert prefs.parse(prefs.dump(read)) == read
