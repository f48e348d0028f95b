"""Where the benchmark scripts find what they import.

Run as scripts (``python e2e/bench/bench_pages.py``), they import the repository's
``pygames``, web/tools/ (``build``, ``serve``), e2e/ (the ``harness`` package), and tests/,
web/app/ and web/worker/ (the page's Python on the mirror: tests/page_host.py), as the tests
do through pytest's ``pythonpath`` (pyproject.toml).  Every script imports this module
first: it is the one place that puts those folders on ``sys.path``.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

for _path in (ROOT / "web" / "worker", ROOT / "web" / "app", ROOT / "tests", ROOT / "e2e",
              ROOT / "web" / "tools", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
