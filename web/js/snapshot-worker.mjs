// Dedicated worker of js/pyodide-fast.mjs: loads the memory snapshot from Cache Storage
// (js/snapshot-inflate.mjs; never the network) off the main thread, while the page compiles
// Pyodide.  Message in: {url}; out: first {held: true/false} (whether the browser holds it,
// known at once), then {bytes: Uint8Array (its buffer transferred), from} or {bytes: null, why}.
import { loadSnapshot } from "./snapshot-inflate.mjs";

addEventListener("message", async ({ data }) => {
  try {
    const found = await loadSnapshot(data.url, (held) => postMessage({ held }));
    if (!found) {
      postMessage({ bytes: null, why: "not cached" });
      return;
    }
    postMessage({ bytes: found.bytes, from: found.from }, [found.bytes.buffer]);
    await found.keep();
  } catch (err) {
    postMessage({ bytes: null, why: String(err) });
  }
});
