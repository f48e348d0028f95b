// Dedicated worker of js/pyodide-fast.mjs: loads the memory snapshot from Cache Storage
// (js/snapshot-inflate.mjs; never the network) off the main thread, while the page compiles
// Pyodide.  Message in: {url, digest (its inflated form's SHA-256), wasm (pyodide.asm.wasm's URL)}; out: {bytes: Uint8Array
// (its buffer transferred), from} or {bytes: null, why, damaged}.  Then it stores the inflated form for the next visits.
// Or {inflate: url, keep, digest, steady}: the .xz file at `url` (the standard library: from the
// service worker's precache, or the server on a first visit, `steady` then giving
// js/steady-fetch.mjs's options), inflated and checked (its SHA-256 `digest`); out: {retry:
// why} for each new try of the download, then {bytes} or {bytes: null, why}; then kept under
// the URL `keep`.
import { fetchStdlib, keepStdlib, loadSnapshot } from "./snapshot-inflate.mjs";

addEventListener("message", async ({ data }) => {
  if (data.inflate) {
    let bytes;
    try {
      const steady = data.steady && { ...data.steady, retried: (why) => postMessage({ retry: why }) };
      bytes = await fetchStdlib(data.inflate, data.digest, steady);
      const copy = bytes.slice();
      postMessage({ bytes: copy }, [copy.buffer]);
    } catch (err) {
      postMessage({ bytes: null, why: String(err) });
      return;
    }
    if (data.keep) await keepStdlib(data.keep, bytes).catch(() => {});
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
