"""The page's preferences (web/app/prefs.py): whatever is stored, reading gives valid
settings; writing one setting keeps the others, including settings this page does not know."""

from __future__ import annotations

import json
from pathlib import Path

import prefs
import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent



def test_nothing_stored_gives_the_defaults():
    assert prefs.parse(None) == prefs.defaults()
    assert prefs.parse("") == prefs.defaults()
    assert prefs.defaults()["sound"] is False


@pytest.mark.parametrize("text", ["{not json", "[true]", '"sound"', "null", "7",
                                  "[" * 5000, '{"a":' * 100 + "1" + "}" * 100])
def test_unreadable_values_give_the_defaults(text):
    assert prefs.parse(text) == prefs.defaults()


@pytest.mark.parametrize("value", [1, 0, "true", "on", None, [True], {"on": True}, 1.0])
def test_a_bad_sound_value_keeps_the_default(value):
    assert prefs.parse(json.dumps({"sound": value}))["sound"] is False


def test_sound_round_trips():
    text = prefs.dump(prefs.with_pref(prefs.parse(None), "sound", True))
    assert prefs.parse(text) == {**prefs.defaults(), "sound": True}
    assert prefs.parse(prefs.dump(prefs.with_pref(prefs.parse(text), "sound", False))) == prefs.defaults()


def test_settings_of_another_page_are_kept():
    """A newer page (or another part of this one) stores a setting this one does not know:
    changing the sound keeps it."""
    stored = json.dumps({"speed": "fast", "confirmZero": False, "sound": False})
    after = prefs.parse(prefs.dump(prefs.with_pref(prefs.parse(stored), "sound", True)))
    assert after == {**prefs.defaults(), "speed": "fast", "confirmZero": False, "sound": True}


@pytest.mark.parametrize("entry", [{"x" * 41: 1}, {"k": "v" * 41}, {"k": [1]}, {"k": {"a": 1}},
                                   {"k": None}, {"k": 2 ** 60}])
def test_unknown_settings_that_are_not_short_scalars_are_dropped(entry):
    assert prefs.parse(json.dumps(entry)) == prefs.defaults()


def test_too_many_or_too_long_is_bounded():
    many = {f"k{i}": i for i in range(100)}
    assert len(prefs.parse(json.dumps(many))) <= prefs.MAX_KEYS + len(prefs.ALLOWED)
    assert prefs.parse(json.dumps({"sound": True, "pad": "x" * prefs.MAX_TEXT})) == prefs.defaults()


def test_writing_a_bad_value_raises():
    with pytest.raises(ValueError):
        prefs.with_pref({}, "sound", "yes")
    with pytest.raises(ValueError):
        prefs.with_pref({}, "other", [1, 2])


def test_a_new_setting_is_one_line(monkeypatch):
    monkeypatch.setitem(prefs.ALLOWED, "speed", ("normal", "slow", "fast", "instant"))
    assert prefs.parse(None)["speed"] == "normal"
    assert prefs.parse('{"speed": "fast"}')["speed"] == "fast"
    assert prefs.parse('{"speed": "warp"}')["speed"] == "normal"


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=60))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=50), inner, max_size=4)), max_leaves=20)


@given(st.one_of(st.text(max_size=300), values.map(json.dumps)))
def test_any_stored_text_gives_valid_prefs_that_round_trip(text):
    read = prefs.parse(text)
    assert read["sound"] in (True, False) and type(read["sound"]) is bool
    assert prefs.parse(prefs.dump(read)) == read
    for key, value in read.items():
        prefs.with_pref(read, key, value)  # every kept setting is writable as it is
