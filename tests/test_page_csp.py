"""The Content-Security-Policy the build writes into every page (web/tools/pages.py) and the
sandbox of the plain-iframe snippet (web/static/js/embed-dialog.js); the browser side is
e2e/test_page_safety.py (no violation while a game is played and advised)."""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

import build
import pages
import pytest

ROOT = Path(__file__).resolve().parent.parent



def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_policy_hashes_each_inline_script_and_nothing_else():
    body = "\n  console.log(1);\n  "
    html = ('<meta charset="utf-8"><script>' + body + '</script>'
            '<script type="module" src="js/boot.js"></script>'
            '<script type="py" config="pyscript.json">import shell</script>'
            '<script type="module">x()</script>')
    assert pages.inline_script_hashes(html) == [sha(body), sha("x()")]
    policy = pages.policy(body, "x()", "")
    assert sha(body) in policy and sha("x()") in policy
    assert sha("import shell") not in policy and policy.count("sha256-") == 2
    for part in ("default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'",
                 "object-src 'none'", "base-uri 'none'", "form-action 'none'"):
        assert part in policy
    assert "unsafe-inline" not in policy
    # WebAssembly may be compiled (Pyodide), no text evaluated as JavaScript.
    assert "'unsafe-eval'" not in policy


def test_no_page_allows_text_to_be_run_as_javascript():
    """Every page's policy (game pages, their embed forms, the home page) lets Pyodide compile
    its WebAssembly and refuses eval(), Function() and the like (web/tools/pages.py)."""
    written = build.family_pages(f"{build.PYODIDE_DIR}/snapshot-0123456789abcdef.bin.xz")
    assert {"index.html", "yams.html", "embed-yams.html"} <= set(written)
    for name, text in written.items():
        policy = html.unescape(pages.POLICY_META.search(text).group(1))
        script_src = next(d for d in policy.split(";") if d.split()[0] == "script-src").split()
        assert "'unsafe-eval'" not in script_src and "'unsafe-inline'" not in script_src, name
        assert "'wasm-unsafe-eval'" in script_src, name


def test_every_page_allows_exactly_its_inline_scripts_before_any_script():
    """The game pages' one inline script (the early read of the memory snapshot) is hashed
    in their policy, which comes before any script; a page without it allows none."""
    written = build.family_pages(f"{build.PYODIDE_DIR}/snapshot-0123456789abcdef.bin.xz")
    for name, text in written.items():
        pages.check_policy(name, text)
        meta = text.index("Content-Security-Policy")
        assert meta < text.index("<script"), name
        bodies = re.findall(r"<script>(.*?)</script>", text, re.S)
        assert len(bodies) == (0 if name.endswith("index.html") else 1), name  # en/index.html too
        for body in bodies:
            assert "snapshot-0123456789abcdef.bin.xz" in body and sha(body) in html.unescape(text)
    for text in build.family_pages(None).values():
        assert "<script>" not in text and "sha256-" not in text


def test_a_page_whose_policy_misses_a_script_stops_the_build():
    page = build.family_pages(None)["yams.html"]
    with pytest.raises(SystemExit, match="(?i)policy"):
        pages.check_policy("yams.html", page.replace("<head>", "<head><script>alert(1)</script>"))
    with pytest.raises(SystemExit, match="(?i)policy"):
        pages.check_policy("yams.html", page.replace("</body>", "<script>alert(1)</script></body>"))


def test_the_plain_iframe_snippet_is_sandboxed():
    js = (ROOT / "web" / "static" / "js" / "embed-dialog.js").read_text(encoding="utf-8")
    snippet = js[js.index("iframe: `<iframe"):js.index("</iframe>`")]
    assert 'sandbox="allow-scripts allow-same-origin' in snippet
    assert "allow-top-navigation" not in snippet
