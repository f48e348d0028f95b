"""Builds of the site side by side: a second build derived from a first (as a rebuild
with one changed file would be), and waiting for a page's service worker to have cached
a build (e2e/test_offline.py, e2e/test_versions.py)."""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import build

from harness.pages import BOOT_TIMEOUT_MS

# JS: the page's service worker registration and how many entries its caches hold (never
# waits: `navigator.serviceWorker.ready` would hang forever if the install failed).
SW_STATE_JS = """
async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  // (The precache only: not the runtime caches, e.g. the inflated memory snapshot's.)
  const names = (await caches.keys()).filter((n) => n.includes("precache"));
  let cached = 0;
  for (const name of names) cached += (await (await caches.open(name)).keys()).length;
  const w = reg && reg.active;
  return {scope: reg && reg.scope, script: w && w.scriptURL, state: w && w.state,
          installing: !!(reg && reg.installing), names, cached};
}
"""
def precache_entries(sw_js: str) -> dict[str, str | None]:
    """url -> revision (None: the URL changes with the content), read from the manifest
    inlined in sw.js."""
    return {url: rev or None for url, rev in
            re.findall(r'\{url:"([^"]+)",revision:(?:"([0-9a-f]+)"|null)\}', sw_js)}


def wait_sw(page, expected_files: int) -> dict:
    """Wait until the worker is active and has cached *expected_files* entries."""
    deadline = time.monotonic() + BOOT_TIMEOUT_MS / 1000
    while True:
        info = page.evaluate(SW_STATE_JS)
        if info["state"] == "activated" and info["cached"] >= expected_files:
            return info
        assert time.monotonic() < deadline, f"precache not complete: {info}"
        page.wait_for_timeout(200)


def make_build_b(a: Path, b: Path) -> str:
    """B = A with one changed file, a new build-info.json and sw.js, as a rebuild would;
    returns B's build id."""
    shutil.copytree(a, b)
    with (b / "css/style.css").open("a") as f:
        f.write("/* build B */\n")
    (b / "build-info.json").unlink()
    (b / "sw.js").unlink()
    files = sorted(p for p in b.rglob("*") if p.is_file())
    info = json.loads((a / "build-info.json").read_text())
    build.write_build_info(b, info["base"], files, info["runtime"])
    build.write_service_worker(b)
    return json.loads((b / "build-info.json").read_text())["build"]
