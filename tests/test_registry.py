"""The lazy registry (pygames/__init__.py): `import pygames` imports no game, a family
or ruleset lookup imports that game's module only (a game page imports its own game, not
the four), and listing keeps the menu order.  GAME_MODULES declares each module's family
id: checked here against the module's own FAMILY."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import pygames
from pygames import FAMILIES, GAME_MODULES, GAMES

ROOT = Path(__file__).resolve().parent.parent


def loaded_after(code: str) -> list[str]:
    """The game modules (pygames.<module> of GAME_MODULES) in sys.modules after *code*, run
    in a fresh interpreter."""
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted(m for m in {sorted(GAME_MODULES.values())!r} "
             f"if 'pygames.' + m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("family_id, module", list(GAME_MODULES.items()))
def test_each_declared_id_is_the_modules_family(family_id, module):
    family = import_module(f"pygames.{module}").FAMILY
    assert family.id == family_id
    assert FAMILIES[family_id] is family


def test_every_game_module_is_declared():
    """A module ending with a FAMILY that GAME_MODULES forgets would be silently left out."""
    declared = set(GAME_MODULES.values())
    for path in sorted((ROOT / "pygames").glob("*.py")):
        if path.stem not in declared and "\nFAMILY = " in path.read_text(encoding="utf-8"):
            pytest.fail(f"pygames/{path.name} defines a FAMILY but is not in GAME_MODULES")


def test_import_pygames_imports_no_game():
    assert loaded_after("import pygames") == []


@pytest.mark.parametrize("family_id, module", list(GAME_MODULES.items()))
def test_a_family_lookup_imports_its_module_only(family_id, module):
    assert loaded_after(f"import pygames; pygames.FAMILIES[{family_id!r}]") == [module]


def test_a_ruleset_of_an_imported_family_imports_nothing_else():
    last = list(GAME_MODULES)[-1]
    game = FAMILIES[last].games[0].id
    code = f"import pygames; pygames.FAMILIES[{last!r}]; pygames.find_game({game!r})"
    assert loaded_after(code) == [GAME_MODULES[last]]


def test_a_saved_game_of_the_page_family_loads_without_the_other_games():
    """The page shell looks up its family, then loads its saved game (load_match)."""
    last = list(GAME_MODULES)[-1]
    game = FAMILIES[last].games[0]
    record = pygames.Match(game, [pygames.Player(f"J{i}") for i in range(game.min_players)]).to_record()
    code = (f"import pygames; pygames.FAMILIES[{last!r}]; "
            f"pygames.load_match({json.dumps(record)!r})")
    assert loaded_after(code) == [GAME_MODULES[last]]


def test_listing_keeps_the_menu_order_and_every_ruleset():
    assert list(FAMILIES) == list(GAME_MODULES) == [f.id for f in FAMILIES.values()]
    assert list(GAMES) == [g.id for f in FAMILIES.values() for g in f.games]
    assert len(GAMES) == len(set(GAMES)) == sum(len(f.games) for f in FAMILIES.values())
    assert all(GAMES[g].family == f for f in FAMILIES for g in (x.id for x in FAMILIES[f].games))


def test_unknown_ids():
    for registry in (FAMILIES, GAMES):
        for key in ("nope", "", 3, None):
            assert key not in registry
            with pytest.raises(KeyError):
                registry[key]
            assert registry.get(key) is None
    with pytest.raises(pygames.GameError, match="Jeu inconnu"):
        pygames.find_game("nope")
    with pytest.raises(pygames.BadRecord):
        pygames.load_match({"format": pygames.RECORD_FORMAT, "game": "nope", "players": [],
                            "actions": []})


def test_a_game_whose_module_is_not_there_is_unknown(tmp_path):
    """A game page's files hold its own game only: another game's id, or an unknown one,
    is a KeyError / "Jeu inconnu" / BadRecord there, not an import error; the page's game
    works."""
    import shutil

    ids = list(GAME_MODULES)
    own, gone = ids[-1], ids[0]
    pkg = tmp_path / "pygames"
    shutil.copytree(ROOT / "pygames", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for family_id in ids:
        if family_id != own:
            shutil.rmtree(pkg / GAME_MODULES[family_id])
    code = f"""
import json, sys
sys.path.insert(0, {str(tmp_path)!r})
import pygames
assert pygames.__file__.startswith({str(tmp_path)!r})
out = [pygames.FAMILIES[{own!r}].id, {gone!r} in pygames.FAMILIES, pygames.FAMILIES.get({gone!r}),
       list(pygames.FAMILIES), len(pygames.GAMES)]
for call in (lambda: pygames.FAMILIES[{gone!r}], lambda: pygames.GAMES["nope"]):
    try:
        call()
    except KeyError:
        out.append("KeyError")
try:
    pygames.load_match({{"format": pygames.RECORD_FORMAT, "game": "nope", "players": [], "actions": []}})
except pygames.BadRecord as exc:
    out.append(str(exc))
print(json.dumps(out))
"""
    # (-S: no site-packages, where an editable install of the project would find the rest.)
    out = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == [own, False, None, [own], len(FAMILIES[own].games),
                               "KeyError", "KeyError", "Jeu inconnu\u00a0: 'nope'."]
