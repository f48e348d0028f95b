// Dedicated worker of js/pyodide-fast.mjs: loads the memory snapshot from Cache Storage
// (js/snapshot-inflate.mjs; never the network) off the main thread, while the page compiles
// Pyodide.  Message in: {url, digest (its inflated form's SHA-256), wasm (pyodide.asm.wasm's URL)}; out: {bytes: Uint8Array
// (its buffer transferred), from} or {bytes: null, why, damaged}.  Then it stores the inflated form for the next visits.
// Or {inflate: url}: the .xz file at `url` (the standard library: from the service worker's
// precache, or the server on a first visit), inflated; out: {bytes} or {bytes: null, why}.
import { inflate, loadSnapshot } from "./snapshot-inflate.mjs";

addEventListener("message", async ({ data }) => {
  if (data.inflate) {
    try {
      const response = await fetch(data.inflate);
      if (!response.ok) throw new Error(`${data.inflate}: ${response.status}`);
      const bytes = await inflate(response);
      postMessage({ bytes }, [bytes.buffer]);
    } catch (err) {
      postMessage({ bytes: null, why: String(err) });
    }
    return;
  }
  try {
    const found = await loadSnapshot(data.url, data.digest, data.wasm);
    if (!found) {
      postMessage({ bytes: null, why: "not cached" });
      return;
    }
    postMessage({ bytes: found.bytes, from: found.from }, [found.bytes.buffer]);
    await found.keep();
  } catch (err) {
    postMessage({ bytes: null, why: String(err), damaged: err?.name === "Damaged" });
  }
});
