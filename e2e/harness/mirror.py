"""The page's applier of the mirror's operations (js/page-mirror.mjs) driven from Python, for
e2e/test_mirror_applier.py and e2e/bench/bench_mirror.py: a page of the site holding a
document whose scripts never run, the applier loaded into it, and a `page_host.Host` (the
page's Python on the mirror, in CPython: tests/page_host.py) on a thread of its own."""

from __future__ import annotations

import asyncio
import json
import threading

from page_host import Host

from harness import site

#: Loads the applier into the page: `tree` of the page as it is now, an applier whose sent
#: events are kept in `window.__mirrorSent`, and `__mirrorShape()`, the page as plain data.
START_JS = """async (url) => {
  const m = await import(url);
  const { tree, nodes } = m.tree();
  window.__mirrorSent = [];
  window.__applier = new m.Applier(nodes, (message) => window.__mirrorSent.push(message));
  window.__mirrorShape = (styleProps) => {
    const a = window.__applier;
    const shape = (node) => {
      const id = a.idOf(node);
      if (node.nodeType === Node.TEXT_NODE) return [id, node.data];
      const attrs = {};
      // (style: the mirror holds its properties, compared below, not their written form)
      for (const at of node.attributes) if (at.name !== "style") attrs[at.name] = at.value;
      const kids = [...node.childNodes].filter((n) => n.nodeType === 1 || n.nodeType === 3).map(shape);
      const style = {};
      for (const p of styleProps) if (node.style.getPropertyValue(p)) style[p] = node.style.getPropertyValue(p);
      return [id, node.localName, attrs, style, kids];
    };
    return shape(document.documentElement);
  };
  return JSON.stringify(tree);  // one string: Playwright's own encoding of a large tree is slow
}"""
#: Applies operations sent as one JSON text (as a worker's message would arrive, read
#: included): the ms the page's main thread took.
APPLY_JS = """(text) => { const t = performance.now(); window.__applier.apply(JSON.parse(text));
  return performance.now() - t; }"""


def apply(page, ops: list) -> float:
    """The page applies `ops`; the ms it took (reading the JSON and applying)."""
    return page.evaluate(APPLY_JS, json.dumps(ops))


def blank(page, site_url: str, html: str) -> list:
    """The site's blank page holding `html`'s document (its scripts never run), with the
    applier loaded; the page's tree as it sends it."""
    page.goto(site_url + site.BLANK_PAGE)
    page.evaluate("""(html) => {
      const parsed = new DOMParser().parseFromString(html, "text/html");
      document.replaceChild(document.adoptNode(parsed.documentElement), document.documentElement);
    }""", html)
    return json.loads(page.evaluate(START_JS, site_url + "js/page-mirror.mjs"))


class HostLoop:
    """The host's event loop on a thread of its own: Playwright's sync API holds this one's."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=120)

    def close(self):
        async def cancel():  # the page's own tasks (the tab's heartbeat) end with it
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


async def run_events(host: Host, messages: list) -> None:
    """The events the page sent, dispatched on the mirror, and the page's tasks run."""
    for message in messages:
        host.document.dispatch(message)
    await host.settle()
