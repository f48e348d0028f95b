"""The shape of the package, checked so that it stays so.

* No module of ``pygames/`` imports a module that imports it back, directly or through
  others, counting the imports made inside functions (the registry names the games'
  packages by string, `GAME_MODULES`: that is data, not an import).
* The rules speak no language: outside the ``messages.py`` catalogues (and docstrings),
  ``pygames/`` holds no French text.
* Every game is a package laid out the same way.
* The pure package does no file I/O and reads no environment: the command line and the
  page hand it the tables' bytes.
* The page's Python (web/app/) reaches JavaScript through ``dom.py`` only: the one place
  to change when what it talks to changes (a worker's page, issue 24).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pygames import FAMILIES, GAME_MODULES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pygames"


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """The package's modules `name` imports anywhere in its code (functions included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:  # `from pkg import module` imports the module
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_a_module_that_imports_it_back():
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_rules_import_neither_their_bots_nor_their_words_nor_a_solver():
    for package in GAME_MODULES.values():
        rules = GRAPH[f"pygames.{package}.rules"]
        own = {f"pygames.{package}.{m}" for m in ("bots", "messages", "solver", "cli", "tables")}
        assert not rules & own, package
    # what a page imports (the family and everything it pulls in) holds no numpy solver
    for package in GAME_MODULES.values():
        reach, todo = set(), [f"pygames.{package}"]
        while todo:
            m = todo.pop()
            if m not in reach:
                reach.add(m)
                todo.extend(GRAPH[m])
        assert not [m for m in reach if m.endswith((".solver", ".cli"))], package


def test_every_game_is_a_package_laid_out_alike():
    for family_id, package in GAME_MODULES.items():
        folder = PACKAGE / package
        assert {"__init__.py", "rules.py", "bots.py", "messages.py"} <= {p.name for p in folder.iterdir()}
        family = FAMILIES[family_id]
        assert family.cli == f"pygames.{package}.cli" and (folder / "cli.py").is_file()
        assert family.text.__name__ == f"pygames.{package}.messages"
        if family.tables_name:  # an expert that plays from solved tables
            assert {"tables.py", "solver.py"} <= {p.name for p in folder.iterdir()}


# --- no French outside the catalogues ----------------------------------------------------

#: Words that make a string French text (with at least one other word beside them).
FRENCH_WORDS = set("""le la les de des du un une et est pas il ils au aux pour sur avec dans
par qui que ne ni ou sa son ses leur joueur joueurs jetons jeton dés dé coup coups partie
lancer relancer garder manche pion pions illisible inconnu inconnue faut doit""".split())
ACCENTED = re.compile(r"[À-ÖØ-öø-ÿŒœ«»]")


def french_strings(path: Path) -> list[tuple[int, str]]:
    """String constants of a module that read as French text (docstrings left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            words = [w.strip(".,:;!?()«»\"") for w in node.value.lower().split()]
            if ACCENTED.search(node.value) or (len(words) >= 2 and FRENCH_WORDS & set(words)):
                found.append((node.lineno, node.value))
    return sorted(found)


def test_the_heuristic_finds_french_and_leaves_notations_alone(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Un docstring en français."""\n'
                      'A = "Lancez d\'abord les dés."\nB = "keep 3 3 5"\nC = "de-landais"\n'
                      'D = f"Il faut {n} jetons"\nE = "carré"\nF = "tables.stale"\n', encoding="utf-8")
    assert [text for _, text in french_strings(sample)] == ["Lancez d'abord les dés.", "Il faut ",
                                                             "carré"]


def test_no_french_text_outside_the_catalogues():
    found = {str(p.relative_to(ROOT)): french_strings(p) for p in MODULES.values()
             if p.name != "messages.py"}
    assert {k: v for k, v in found.items() if v} == {}


# --- no file I/O in the pure package ------------------------------------------------------

IO_CALLS = re.compile(r"\bopen\(|os\.environ|\bos\.path\b|Path\(|__file__")


# The command line, the solvers, and pygames.locale (the compiled catalogues and the
# terminal's language: what the command line and the tests read; a page gives its catalogue).
@pytest.mark.parametrize("name", [n for n in MODULES if not n.endswith((".cli", ".solver"))
                                  and n not in ("pygames.cli", "pygames.locale")])
def test_the_pure_package_reads_no_file(name):
    source = MODULES[name].read_text(encoding="utf-8")
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    assert not IO_CALLS.findall(code), name


def test_test_modules_have_unique_names():
    """pytest imports test modules by their base name (no __init__.py): a unit test and a
    browser test of the same name stop the whole run at collection."""
    root = Path(__file__).resolve().parent.parent
    names = [p.name for folder in ("tests", "e2e") for p in (root / folder).rglob("test_*.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


# --- the page's Python reaches JavaScript through dom.py only ------------------------------

APP = ROOT / "web" / "app"
JS_MODULES = ("pyscript", "pyodide", "js", "_pyscript")


def js_imports(path: Path) -> list[str]:
    """The JavaScript-side modules `path` imports anywhere (functions included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        found += [n for n in names if n.split(".")[0] in JS_MODULES]
    return found


def test_only_dom_reaches_javascript():
    found = {p.name: js_imports(p) for p in sorted(APP.glob("*.py")) if p.name != "dom.py"}
    assert {k: v for k, v in found.items() if v} == {}
    assert set(js_imports(APP / "dom.py")) >= {"pyscript", "pyscript.ffi"}  # the check sees imports


def test_the_door_check_sees_a_hidden_import(tmp_path):
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    import js\n    from pyodide.ffi import to_js\n", encoding="utf-8")
    assert js_imports(sneaky) == ["js", "pyodide.ffi"]
