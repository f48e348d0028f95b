"""js/worker-page.mjs decides on the page what the page's Python in a worker would decide too
late: which keys it takes for itself (preventDefault).  Its rule names the same controls and
fields as app/flow.py, which leaves Space and Enter to a focused control and every key to a
field."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE_JS = (ROOT / "web" / "static" / "js" / "worker-page.mjs").read_text(encoding="utf-8")


def js_selector(name: str) -> set[str]:
    """The selector list `name` of worker-page.mjs (string literals joined by +)."""
    m = re.search(rf"^const {name} = (.*?);$", PAGE_JS, re.S | re.M)
    assert m, name
    text = "".join(ast.literal_eval(part.strip()) for part in m.group(1).split("\n  +"))
    return {s.strip() for s in text.split(",") if s.strip()}


def py_selector(name: str) -> set[str]:
    tree = ast.parse((ROOT / "web" / "app" / "flow.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return {s.strip() for s in ast.literal_eval(node.value).split(",") if s.strip()}
    raise AssertionError(name)


def test_the_page_leaves_the_same_keys_to_controls_and_fields_as_the_shell():
    assert js_selector("FIELD") == py_selector("FIELDS")
    assert js_selector("CONTROL") >= py_selector("CONTROLS")
    # (and the table's own controls, which the early drawing's queue names too)
    assert js_selector("CONTROL") - py_selector("CONTROLS") == {"[data-action]", "[data-die]"}
