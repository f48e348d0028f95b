"""The Content-Security-Policy the build writes into every page (web/tools/build.py) and the
sandbox of the plain-iframe snippet (web/static/js/embed-dialog.js); the browser side is
e2e/test_page_safety.py (no violation during a full game)."""

from __future__ import annotations

import base64
import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "web" / "tools"))

import build  # noqa: E402


def sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_the_policy_hashes_each_inline_script_and_nothing_else():
    body = "\n  console.log(1);\n  "
    html = ('<meta charset="utf-8"><script>' + body + '</script>'
            '<script type="module" src="js/boot.js"></script>'
            '<script type="py" config="pyscript.json">import shell</script>'
            '<script type="module">x()</script>')
    policy = build.content_security_policy(html)
    assert sha(body) in policy and sha("x()") in policy
    assert sha("import shell") not in policy and policy.count("sha256-") == 2
    for part in ("default-src 'none'", "script-src 'self' 'unsafe-eval'", "style-src 'self'",
                 "object-src 'none'", "base-uri 'none'", "form-action 'none'"):
        assert part in policy
    assert "unsafe-inline" not in policy


def test_the_early_snapshot_script_is_hashed(tmp_path):
    early = build.EARLY_SNAPSHOT % {"path": '"vendor/x.bin"'}
    page = tmp_path / "g.html"
    page.write_text('<!doctype html><head>\n  <meta charset="utf-8">\n  ' + early + "\n</head>")
    build.add_csp(tmp_path)
    text = page.read_text()
    body = re.search(r"<script>(.*?)</script>", text, re.S).group(1)
    meta = text.index("Content-Security-Policy")
    assert meta < text.index("<script>") and sha(body) in text


def test_the_plain_iframe_snippet_is_sandboxed():
    js = (ROOT / "web" / "static" / "js" / "embed-dialog.js").read_text(encoding="utf-8")
    snippet = js[js.index("iframe: `<iframe"):js.index("</iframe>`")]
    assert 'sandbox="allow-scripts allow-same-origin' in snippet
    assert "allow-top-navigation" not in snippet
