// PyScript's `interpreter` (web/pyscript.json): the vendored Pyodide's loadPyodide, plus the
// memory snapshot of web/runtime/ when this browser already holds it.
//
// * A first visit boots as usual, from the precompiled standard library: it never waits for
//   the snapshot (4-5 MB).  The service worker's precache fetches it in the background.
// * A later visit (warm or offline) finds it in Cache Storage (the service worker's
//   precache) and restores Python's memory from it instead of starting the interpreter
//   and importing ~150 modules.  Without a service worker: always the ordinary boot.
// * The snapshot is valid only with the very python_stdlib.zip it was made with: this
//   module fetches the zip itself, hands Pyodide those bytes (a blob: URL) and restores the
//   snapshot only if their SHA-256 is the one recorded in runtime.json.  Any failure falls
//   back to the ordinary boot.
// * After a restore, `random` is reseeded from fresh entropy (its state was frozen in the
//   snapshot); `secrets`/os.urandom read crypto.getRandomValues at each call anyway.
//   The str hash seed stays the snapshot's (it only matters against hash flooding).
// * It starts as soon as js/boot.js imports it (early in the page), not when PyScript, once
//   its own chunks and config are loaded, asks for the interpreter: the boot overlaps them.
// * Progress: `py:progress` events "Loading runtime", "Restoring Python" or "Starting
//   Python" (js/boot.js shows them), and window.pygamesBoot = {mode, stages (ms)}.
import { loadPyodide as loadVendored, version } from "../vendor/pyodide/pyodide.mjs";

export { version };

const BASE = new URL("../vendor/pyodide/", import.meta.url);
const boot = (window.pygamesBoot = { mode: "plain", stages: {} });

function stage(name, detail) {
  boot.stages[name] = performance.now();
  if (detail) dispatchEvent(new CustomEvent("py:progress", { detail }));
}

// Let the browser paint the new stage before a long main-thread task (wasm instantiation,
// memory restore): one frame, or 50 ms in a background tab where frames do not come.
const nextPaint = () => new Promise((resolve) => {
  const timer = setTimeout(resolve, 50);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(); }, 0));
});

async function json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

async function sha256(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

// The snapshot if the browser holds it already (in Cache Storage: the service worker's
// precache): {bytes: a promise of its decompressed bytes}; null otherwise.  Never a network
// request: a first visit must not wait for 4-5 MB.
async function cachedSnapshot(manifest) {
  if (!manifest?.snapshot || typeof DecompressionStream !== "function" || !self.caches) return null;
  // Precaches may add a revision parameter to the URL: ignoreSearch.
  const response = await caches.match(new URL(manifest.snapshot, BASE).href, { ignoreSearch: true });
  if (!response?.ok || !response.body) return null;
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  // Decompressed while Pyodide fetches and compiles the wasm (it awaits this promise).
  // (Wrapped in an object: an async function would wait for the promise it returns.)
  return {
    bytes: new Response(stream).arrayBuffer().then((b) => {
      stage("snapshot decompressed");
      return new Uint8Array(b);
    }),
  };
}

// Started as soon as this module is evaluated (js/boot.js imports it early, before
// PyScript asks for the interpreter): the zip, the manifest, the snapshot lookup, and
// then the boot itself (below).
async function prepare() {
  stage("start", "Loading runtime");
  const prep = { zipBytes: null, snapshot: null };
  try {
    const manifest = json(new URL("runtime.json", BASE)).catch(() => null);
    const response = await fetch(new URL("python_stdlib.zip", BASE));
    if (!response.ok) throw new Error(`python_stdlib.zip: ${response.status}`);
    prep.zipBytes = await response.arrayBuffer();
    const m = await manifest;
    const snapshot = await cachedSnapshot(m);
    if (snapshot && (await sha256(prep.zipBytes)) !== m.stdlib_sha256) {
      boot.skipped = "python_stdlib.zip differs from the snapshot's";
      snapshot.bytes.catch(() => {});
    } else if (snapshot) {
      prep.snapshot = snapshot.bytes;
    }
  } catch (err) {
    boot.skipped = String(err);
  }
  stage("fetched");
  return prep;
}
const prepared = prepare();

// The boot itself starts as soon as the runtime is fetched, without waiting for PyScript to
// load its own chunks and config and ask: PyScript's options (its stdout/stderr handlers,
// indexURL) are only known then, so output goes through these forwarders.
const sinks = { stdout: (s) => console.log(s), stderr: (s) => console.error(s) };
const forward = { stdout: (s) => sinks.stdout(s), stderr: (s) => sinks.stderr(s) };

async function start({ zipBytes, snapshot }) {
  const indexURL = BASE.href;
  const stdLibURL = zipBytes ? URL.createObjectURL(new Blob([zipBytes])) : undefined;
  const withZip = stdLibURL ? { stdLibURL } : {};
  try {
    if (snapshot) {
      try {
        stage("restore", "Restoring Python");
        await nextPaint();
        const py = await loadVendored({ ...forward, indexURL, ...withZip, _loadSnapshot: snapshot });
        py.runPython("import random as _r; _r.seed(); del _r");
        boot.mode = "snapshot";
        stage("ready");
        return py;
      } catch (err) {
        boot.skipped = `restore failed: ${err}`;
        console.warn("pygames: snapshot restore failed, ordinary boot", err);
      }
    }
    stage("python", "Starting Python");
    await nextPaint();
    const py = await loadVendored({ ...forward, indexURL, ...withZip });
    stage("ready");
    return py;
  } finally {
    if (stdLibURL) setTimeout(() => URL.revokeObjectURL(stdLibURL), 0);
  }
}
const started = prepared.then(start);
started.catch(() => {});  // reported to the caller of loadPyodide

// PyScript's call (options: {stdout, stderr, indexURL}; packages, lock files and the like
// are not used by this site and would need a boot of their own).
export async function loadPyodide(options = {}) {
  const unsupported = Object.keys(options).filter((k) => !["stdout", "stderr", "indexURL"].includes(k));
  if (unsupported.length) {
    return loadVendored({ ...options, indexURL: BASE.href });
  }
  if (options.stdout) sinks.stdout = options.stdout;
  if (options.stderr) sinks.stderr = options.stderr;
  stage("asked");
  return started;
}
