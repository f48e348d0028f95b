"""The stored setup (pygames:<id>:setup) is checked by two programs, the page's script before
Python (web/static/js/setup-early.js, pygames.setup.check) and the shell (web/app/guard.py's
check_setup), against one set of rules that the build writes into the page as JSON
(web/tools/pages.py setup_rules).  Here both run on the same hostile texts, with every
game's rules, and must agree: the same clean value, or both "bad"."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import facts  # web/tools/facts.py (pytest's pythonpath: pyproject.toml)
import guard  # web/app/guard.py
import pages  # web/tools/pages.py
import pytest

ROOT = Path(__file__).resolve().parent.parent

SETUP_EARLY = ROOT / "web" / "static" / "js" / "setup-early.js"
FAMILIES = pages.paged(facts.families())
RULES = {f.id: pages.setup_rules(f) for f in FAMILIES}

#: Runs setup-early.js as the page does (a classic script), with no form in the document: it
#: only defines pygames.setup.check, which then checks each [text, rules] of stdin.
NODE_CHECK = r"""
const vm = require("node:vm");
const fs = require("node:fs");
const window = {};
const context = { window, document: { getElementById: () => null } };
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), context);
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = cases.map(([raw, rules]) => {
  const clean = window.pygames.setup.check(raw, rules);
  return clean === null ? "bad" : JSON.parse(JSON.stringify(clean));
});
process.stdout.write(JSON.stringify(out));
"""


def js_check(cases: list[tuple[str | None, dict]]) -> list:
    proc = subprocess.run(["node", "-e", NODE_CHECK, str(SETUP_EARLY)], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(proc.stdout)


def as_the_browser_gives_it(text: str | None) -> str | None:
    """A text as Python gets it from localStorage in the page: UTF-16, whose surrogate pairs
    become one character each (a Python literal may hold them as two)."""
    if text is None:
        return None
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def py_check(raw, rules):
    try:
        return guard.check_setup(as_the_browser_gives_it(raw), rules)
    except guard.BadStored:
        return "bad"


def test_the_linotte_setup_offers_each_level_of_the_computer():
    seats = RULES["linotte"]["rulesets"]["linotte"]["seats"]
    assert [s for s, _ in seats] == ["human", "simple", "medium", "expert"]
    assert dict(seats)["medium"] == "Ordinateur (moyen)"
    raw = json.dumps({"game": "linotte", "players": [{"name": "Léa", "seat": "human"},
                                                     {"name": "Ordi", "seat": "medium"}]})
    assert py_check(raw, RULES["linotte"]) == js_check([(raw, RULES["linotte"])])[0] != "bad"


# --- hostile texts ------------------------------------------------------------------------

NAMES = ["", "Léa", "A" * 39, "A" * 40, "A" * 41, "😀" * 39 + "ab", "😀" * 45, "\u202eRTL",
         "<img src=x onerror=alert(1)>", "a\u0000b", "\ud83d\ude00" * 41]


def values_for(rules: dict, rng: random.Random):
    """Setups near every rule's edge: good and bad types, unknown ids, numbers that are
    nearly a choice, too many players, names and seats around their lengths."""
    rulesets = list(rules["rulesets"])
    seats = sorted({s for r in rules["rulesets"].values() for s, _ in r["seats"]})
    junk = [None, True, False, 0, 1, -0.0, 21.0, 1e308, "21", "", [], {}, [1], {"a": 1}, "x" * 30]
    for _ in range(120):
        value = {}
        game = rng.choice(rulesets)
        if rng.random() < 0.8:
            value["game"] = game if rng.random() < 0.6 else rng.choice(rulesets + ["autre", "", "YAMS"] + junk)
        if rng.random() < 0.8:
            ruleset = rules["rulesets"][game]
            options = {}
            for opt in ruleset["options"]:
                if rng.random() < 0.7:
                    near = list(opt["choices"]) + [c + 0.0 for c in opt["choices"] if isinstance(c, int)]
                    near += [str(c) for c in opt["choices"]] or [True, False, "true", 1]
                    options[opt["id"]] = rng.choice(near + junk)
            if rng.random() < 0.3:
                options[rng.choice(["x", "__proto__", "constructor"])] = rng.choice(junk)
            value["options"] = options if rng.random() < 0.9 else rng.choice(junk)
        if rng.random() < 0.8:
            n = rng.choice([0, 1, 2, 5, rules["stored"]["players"], rules["stored"]["players"] + 1])
            players = []
            for _ in range(n):
                p = {}
                if rng.random() < 0.9:
                    p["name"] = rng.choice(NAMES) if rng.random() < 0.85 else rng.choice(junk)
                if rng.random() < 0.9:
                    p["seat"] = rng.choice(seats + ["robot", "s" * 25]) if rng.random() < 0.85 \
                        else rng.choice(junk)
                players.append(p if rng.random() < 0.95 else rng.choice(junk))
            value["players"] = players if rng.random() < 0.9 else rng.choice(junk)
        yield value if rng.random() < 0.95 else rng.choice(junk)


def texts_for(rules: dict, seed: int) -> list[str | None]:
    rng = random.Random(seed)
    limits = rules["stored"]
    texts: list[str | None] = [None, "", " ", "null", "[]", '"x"', "12", "{}", '{"game": null}',
                               "\ufeff{}", "{} x", "{'game': 'yams'}", '{"game": NaN}',
                               '{"options": {"a": Infinity}}', '{"x": 1e400}', '{"x": -1e400}',
                               '{"x": ' + "9" * 400 + "}", '{"x": ' + "9" * 5000 + "}",
                               '{"x": 1e308}', '{"game": "\\ud83d"}', '{"players": [{"name": "\\ud83d\\ude00"}]}',
                               '{"game": "a", "game": 5}', '{"__proto__": {"game": 5}}']
    for depth in (limits["depth"] - 1, limits["depth"], limits["depth"] + 1):
        texts.append('{"x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}")
        texts.append('{"x": "' + "[" * 200 + '"}')  # brackets in a string are no nesting
    pad = limits["text"] - len('{"x": ""}')
    texts += ['{"x": "' + "a" * pad + '"}', '{"x": "' + "a" * (pad + 1) + '"}',
              '{"x": "' + "😀" * (pad // 2) + '"}', '{"x": "' + "😀" * (pad // 2 + 1) + '"}']
    for value in values_for(rules, rng):
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
        texts.append(text)
        if rng.random() < 0.1:
            texts.append(text[: rng.randrange(len(text) + 1)])  # cut short
    return texts


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (comes with npm)")
@pytest.mark.parametrize("family", sorted(RULES))
def test_the_page_and_the_shell_agree_on_any_stored_setup(family):
    rules = RULES[family]
    # Another family's rules too: a setup stored by one page read with another's rules.
    cases = [(text, rules) for text in texts_for(rules, seed=len(family))]
    other = RULES[next(f for f in sorted(RULES) if f != family)]
    cases += [(text, rules) for text in texts_for(other, seed=7)]
    js = js_check(cases)
    disagreements = [(raw if raw is None or len(raw) < 300 else raw[:300] + "…", py, j)
                     for (raw, rules), j in zip(cases, js)
                     if (py := py_check(raw, rules)) != j]
    assert disagreements == []
    outcomes = [j for j in js]
    # The corpus reaches both sides of the rules: bad values, clean ones, each field kept.
    assert "bad" in outcomes and {} in outcomes
    kept = [o for o in outcomes if o != "bad"]
    assert any("game" in o for o in kept) and any(o.get("players") for o in kept)
    assert any(o.get("options") for o in kept) or not any(r["options"] for r in rules["rulesets"].values())


def test_the_rules_are_the_registrys_and_the_limits_are_one():
    for family in FAMILIES:
        rules = RULES[family.id]
        assert list(rules["rulesets"]) == [g.id for g in family.rulesets]
        assert rules["stored"]["name"] == facts.max_name_length() == 40
        for game in family.rulesets:
            spec = rules["rulesets"][game.id]
            assert (spec["min"], spec["max"]) == (game.min_players, game.max_players)


def test_what_the_checks_keep():
    rules = RULES["yams"]
    text = json.dumps({"game": "yahtzee", "options": {"plain": True, "x": 1, "single_prime": 3},
                       "players": [{"name": "A" * 99, "seat": "simple"}, {}]})
    expected = {"game": "yahtzee", "options": {"plain": True},
                "players": [{"name": "A" * 40, "seat": "simple"}, {"name": "", "seat": "human"}]}
    assert py_check(text, rules) == expected
    # an option of another ruleset, and options without a ruleset, are left out
    assert py_check('{"game": "yams", "options": {"plain": true}}', rules) == {"game": "yams", "options": {}}
    assert py_check('{"options": {"plain": true}}', rules) == {"options": {}}
    assert py_check('{"game": "autre"}', rules) == {}
    # a number that is a choice is that choice, whatever its JSON spelling; a text is not
    pot = RULES["421"]
    assert py_check('{"game": "421", "options": {"pot": 11.0}}', pot)["options"] == {"pot": 11}
    assert py_check('{"game": "421", "options": {"pot": "11"}}', pot)["options"] == {}
    for bad in ('{"game": []}', '{"players": 5}', '{"options": []}', '{"players": [5]}',
                '{"players": [{"name": []}]}', '{"players": [{"seat": {}}]}', "[]", '"x"', "null",
                "{", '{"x": NaN}', json.dumps({"players": [{}] * 21})):
        assert py_check(bad, rules) == "bad", bad
    if shutil.which("node"):
        assert js_check([(text, rules)]) == [expected]
