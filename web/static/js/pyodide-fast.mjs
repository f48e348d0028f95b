// PyScript's `interpreter` (web/static/pyscript.json): the vendored Pyodide's loadPyodide, plus the
// memory snapshot of web/tools/runtime/ when this browser already holds it.
//
// * web/tools/build.py writes RUNTIME below (and the vendored Pyodide's paths, `build:`
//   values): the content-named files of this build -- the precompiled standard library,
//   the game's files (`pages`: for each game page, the pygames-<id>-<hash>.tar.gz of the
//   modules that page may import -- its game, its view -- and `shared`, those every page
//   has -- the core, the shell, PyScript's -- as bytecode, written into Python's working
//   directory here; the page is `<html data-family>`; `package`, every module, for a page
//   that names none), the memory snapshot made with exactly those (or null; one for every
//   page, every game imported) -- and an empty Pyodide lock file (the site loads no package:
//   nothing to fetch and index).  A name changes whenever its content does, and the
//   snapshot's covers the standard library and every archive, so a snapshot is never
//   paired with another build's files.
// * A first visit boots as usual, from the precompiled standard library: it never waits for
//   the snapshot (2.6 MB).  The service worker's precache fetches it in the background.
// * The standard library's zip is downloaded as xz (RUNTIME.stdlib_xz: 1.24 MB where the zip
//   of deflated entries was 1.78 MB), inflated in a worker while Pyodide loads, and handed to
//   Pyodide when it fetches the zip's URL (RUNTIME.stdlib; js/runtime-internals.mjs, 8).
//   Should the inflating fail, that fetch goes to the server for the zip itself.
// * A later visit (warm or offline) finds it in Cache Storage and restores Python's memory
//   from it, with the pygames modules already imported, instead of starting the interpreter
//   and importing ~200 modules.  The first restore inflates the .xz in a worker
//   (js/snapshot-worker.mjs) while Pyodide loads, and keeps the inflated form; the visits
//   after read that, from the game page's first line (web/tools/build.py's inline script).
//   Without a service worker: always the ordinary boot.  Any failure falls back to it.
// * What the caches hold is checked before Python gets it: the inflated form, from the kept
//   copy or from the .xz, must have the SHA-256 of this build (RUNTIME.snapshot_inflated_sha256;
//   any page of the origin can write Cache Storage).  A restore that fails, or a page restored
//   that fails before it is ready, drops the kept copy and boots the ordinary way (the latter
//   by reloading once, see `recover`), and the page says so (#boot-notice, NOTICE).
// * `?nosw` (js/register-sw.js): the ordinary boot, and no read of Cache Storage at all.
// * After a restore, `random` is reseeded from fresh entropy (its state was frozen in the
//   snapshot); `secrets`/os.urandom read crypto.getRandomValues at each call anyway.
//   The str hash seed stays the snapshot's (it only matters against hash flooding).
// * The page loads this module first, as an async module script (PyScript's `interpreter`
//   is the same instance): the boot starts before PyScript, once its own chunks and config
//   are loaded, asks for the interpreter, and overlaps them.
// * PyScript's worker hooks are emptied before PyScript gets the interpreter: it would compile
//   them from text with Function(), which the pages' policy refuses (the site runs no
//   PyScript worker; js/runtime-internals.mjs, 6).
// * Progress: `py:progress` events "Loading runtime", "Restoring Python" or "Starting
//   Python" (js/boot.js shows them), and window.pygames.boot = {mode, snapshotFrom, skipped,
//   archive (the game files' name), shared (the shared part's), stages (ms), checkMs (the
//   kept copy's SHA-256), notice, steady (a first visit's downloads tried again when they
//   stall, js/steady-fetch.mjs), retries (why, each time one was)}.
import { loadPyodide as loadVendored, version } from /* build: pyodide_module */ "../vendor/pyodide/pyodide.mjs";
import { INFLATED, check, expand, fetchStdlib, keepStdlib, keptStdlib } from "./snapshot-inflate.mjs";
import { PROGRESS_EVENT, dropWorkerHooks, loadWatched as watched, pythonInWorker, restoreOptions, writeFiles }
  from "./runtime-internals.mjs";
import { steadyFetch, stallMs } from "./steady-fetch.mjs";
import { readTarGz } from "./untar.mjs";

export { version };

const RUNTIME = /* build: runtime */ null;

const BASE = new URL(/* build: pyodide_dir */ "../vendor/pyodide/", import.meta.url);
// PyScript's module: loaded already when PyScript asks for the interpreter (the same instance).
const PYSCRIPT = new URL(/* build: pyscript_module */ "../vendor/pyscript/core.js", import.meta.url);
const boot = ((window.pygames ??= {}).boot = { mode: "plain", stages: {}, retries: [] });
// A game page without `?page`: Python runs in a worker (js/worker-page.mjs), none of it here.
const WORKER = pythonInWorker();
if (WORKER) boot.mode = "worker";

// A first visit (no service worker serves the page yet): the runtime's downloads go through
// js/steady-fetch.mjs, so that a stalled or broken connection is tried again (the wait:
// STALL_MS, or `pygames.stallMs` set before the page's scripts, as the tests do).  Later
// visits read Cache Storage, and keep the browser's compiled WebAssembly (a fetched Response).
const STEADY = navigator.serviceWorker?.controller ? null : { stallMs: stallMs(window.pygames.stallMs) };
boot.steady = Boolean(STEADY);
// (Heard by the loading screen, js/boot.js, and the page before Python, js/*-early.js.)
const retried = (why) => {
  boot.retries.push(why);
  dispatchEvent(new CustomEvent("pygames:retrying"));
};
const steady = (url) => (STEADY ? steadyFetch(url, { ...STEADY, retried }) : fetch(url));

// `?nosw`: everything from the server, nothing from the caches (the inline script agrees).
const NO_CACHES = new URLSearchParams(location.search).has("nosw");
// Left by a page restored from the snapshot that then failed (`recover`): this boot is an
// ordinary one, and says why.  (Also read by the page's inline script.)
const PLAIN_ONCE = "pygames:plain-boot";
const plainOnce = (() => {
  try {
    const flag = sessionStorage.getItem(PLAIN_ONCE);
    sessionStorage.removeItem(PLAIN_ONCE);
    return flag;
  } catch {
    return null;  // (storage refused: an embed's sandbox)
  }
})();

const NOTICE = "Le jeu a démarré sans sa copie rapide, qui était abîmée.";
function tell() {
  boot.notice = NOTICE;
  const show = () => {
    const notice = document.getElementById("boot-notice");
    if (notice) { notice.textContent = NOTICE; notice.hidden = false; }
  };
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", show, { once: true });
  else show();
}

// The kept inflated form, dropped (an earlier visit's .xz makes it again, checked).
const dropKept = () => caches.delete(INFLATED).catch(() => {});

function stage(name, detail) {
  boot.stages[name] = performance.now();
  if (detail) dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail }));
}

// Let the browser paint the new stage before a long main-thread task (wasm instantiation):
// one frame, or 50 ms in a background tab where frames do not come.
const nextPaint = () => new Promise((resolve) => {
  const timer = setTimeout(resolve, 50);
  requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(); }, 0));
});

// The game's files (the pygames package, the page's modules, PyScript's bytecode): fetched
// and read at once, written into Python's working directory before PyScript gets the
// interpreter (PyScript's `files` would unpack them in Python, 40-70 ms).  The snapshot
// holds the modules already imported from these very files (its name covers them).
// This page's part of them only (a first visit downloads no other game), and the part every
// page shares (RUNTIME.shared: the shell, the core, PyScript's bytecode).
const own = RUNTIME?.pages?.[document.documentElement.dataset.family];
const archive = own ?? RUNTIME?.package;
boot.archive = archive;
boot.shared = own ? RUNTIME.shared : null;
// Nothing is downloaded before the page before Python (the setup, or the saved game drawn:
// js/view-early.js `painted`) is on screen: the runtime's megabytes never delay that paint,
// the page's largest (Lighthouse's LCP replays on a slow link every request that ended
// before it).  Reading the caches (the snapshot) begins at once.
const earlyPainted = new Promise((resolve) => {
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", resolve, { once: true });
  else resolve();
}).then(() => window.pygames.early?.painted).then(() => stage("painted"), () => {});
const readArchive = (name) => steady(new URL(`../${name}`, import.meta.url).href).then((response) => {
  if (!response.ok) throw new Error(`${name}: ${response.status}`);
  return readTarGz(response);
});
const gameFiles = WORKER ? Promise.resolve([]) : earlyPainted
  .then(() => Promise.all([boot.shared, archive].filter(Boolean).map(readArchive)))
  .then((parts) => parts.flat());
gameFiles.catch(() => {});

async function install(py) {
  writeFiles(py, await gameFiles);
  // Directory listings cached by the import system (the snapshot's, from the build) are
  // stale now.  (Not importlib.invalidate_caches(): it imports importlib.metadata.)
  py.runPython(`import sys
for _f in sys.path_importer_cache.values():
    getattr(_f, "invalidate_caches", lambda: None)()
del _f`);
  stage("files written");
}

// The standard library's zip: the copy an earlier visit kept (checked), else inflated from
// its .xz off the main thread (on it where module workers cannot be made; the worker then
// keeps it).  A promise of its bytes, or null (a build without the .xz).
const STDLIB_URL = RUNTIME ? new URL(RUNTIME.stdlib, BASE).href : null;
async function inflateStdlib() {
  const url = new URL(RUNTIME.stdlib_xz, BASE).href;
  const digest = RUNTIME.stdlib_sha256;
  if (!NO_CACHES) {
    const kept = await keptStdlib(STDLIB_URL, digest).catch((err) => { boot.stdlibSkipped = String(err); });
    if (kept) {
      boot.stdlibFrom = "kept";
      stage("stdlib read");
      return kept;
    }
  }
  const here = async () => {
    const bytes = await fetchStdlib(url, digest, STEADY && { ...STEADY, retried });
    if (!NO_CACHES) setTimeout(() => keepStdlib(STDLIB_URL, bytes.slice()).catch(() => {}), 0);
    return bytes;
  };
  let worker;
  try {
    worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
  } catch {
    return here();
  }
  const bytes = await new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.retry) retried(data.retry);
      else if (data.bytes) resolve(data.bytes);
      else reject(new Error(data.why));
    };
    worker.onerror = (event) => reject(new Error(event.message || "stdlib worker failed"));
    // (The worker keeps the zip once it has sent it, then is collected: not with ?nosw.)
    worker.postMessage({ inflate: url, digest, keep: NO_CACHES ? null : STDLIB_URL, steady: STEADY });
  });
  boot.stdlibFrom = "xz";
  stage("stdlib inflated");
  return bytes;
}
// After the early paint, as every download (see earlyPainted).
const stdlibBytes = RUNTIME?.stdlib_xz && !WORKER ? earlyPainted.then(inflateStdlib) : null;
stdlibBytes?.catch((err) => { boot.stdlibSkipped = String(err); });

// Inflated (js/snapshot-inflate.mjs) in a worker; on the main thread where module workers
// cannot be made.  {bytes: a promise of the memory image}.
function loadOffThread(url, digest, wasm) {
  const worker = new Worker(new URL("./snapshot-worker.mjs", import.meta.url), { type: "module" });
  const bytes = new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.bytes) {
        // (The worker goes on to store the inflated form, then is collected.)
        boot.snapshotFrom = data.from;
        resolve(data.bytes);
      } else {
        reject(new Error(data.why));
      }
    };
    worker.onerror = (event) => reject(new Error(event.message || "snapshot worker failed"));
  });
  worker.postMessage({ url, digest, wasm });
  return { bytes };
}

function loadHere(url, digest, wasm) {
  const bytes = import("./snapshot-inflate.mjs")
    .then(({ loadSnapshot }) => loadSnapshot(url, digest, wasm))
    .then((found) => {
      if (!found) throw new Error("snapshot not cached");
      boot.snapshotFrom = found.from + " (main thread)";
      setTimeout(() => found.keep(), 0);
      return found.bytes;
    });
  return { bytes };
}

// The snapshot if the browser holds it already: {bytes: a promise of the memory image} (in
// an object: an async function would wait for a promise it returns); null otherwise.
// * Its inflated form, kept by an earlier visit: read here, or taken over from the page's
//   inline script (spreading its pages into the image takes a few ms).
// * Else the .xz of the service worker's precache: inflated in a worker (200-300 ms), its
//   pages still as the wasm starts them copied from pyodide.asm.wasm (precached too), while
//   Pyodide loads; the worker then keeps the inflated form for the next visits.
// Never a network request: a first visit must not wait for 4-5 MB.  Either way the bytes are
// checked (js/snapshot-inflate.mjs `check`, off the main thread, while the kept form is
// spread into the image) before Pyodide gets them: a damaged copy rejects.
async function cachedSnapshot() {
  const digest = RUNTIME?.snapshot_inflated_sha256;
  if (!RUNTIME?.snapshot || !digest || typeof WebAssembly !== "object" || !self.caches
      || !self.crypto?.subtle || NO_CACHES || plainOnce) return null;
  const url = new URL(RUNTIME.snapshot, BASE).href;
  // (Its pages still as the wasm module starts them are copied from the wasm: snapshot-inflate.mjs.)
  const wasm = new URL("pyodide.asm.wasm", BASE).href;
  // The page's inline script may have started the read already (web/tools/build.py writes it).
  const early = window.pygames.earlySnapshot?.url === url ? window.pygames.earlySnapshot : null;
  const kept = await (early?.response ?? caches.open(INFLATED).then((c) => c.match(url))).catch(() => null);
  const fromGzip = () => {
    try {
      return loadOffThread(url, digest, wasm).bytes;
    } catch {  // no module workers
      return loadHere(url, digest, wasm).bytes;
    }
  };
  let bytes;
  if (kept) {
    const buffer = (early?.response ? early.buffer : kept.arrayBuffer());
    bytes = buffer.then(async (b) => {
      const sparse = new Uint8Array(b);
      const since = performance.now();
      const checked = check(sparse, digest, "snapshot (kept inflated)").then(() => {
        boot.checkMs = performance.now() - since;  // (e2e/bench/bench_startup.py prints it)
      });
      checked.catch(() => {});  // (awaited below, unless expand throws first)
      const image = expand(sparse);
      await checked;
      boot.snapshotFrom = "inflated";
      return image;
    });
  } else {
    if (!(await caches.match(url))?.ok || !(await caches.match(wasm))?.ok) return null;
    bytes = fromGzip();
  }
  bytes = bytes.then((b) => { stage("snapshot decompressed"); return b; });
  bytes.catch(() => {});
  return { bytes };
}

// Started as soon as this module is evaluated, before PyScript asks for the interpreter.
// PyScript's options (its stdout/stderr handlers) are only known when it asks, so output
// goes through these forwarders.
const sinks = { stdout: (s) => console.log(s), stderr: (s) => console.error(s) };
const forward = { stdout: (s) => sinks.stdout(s), stderr: (s) => sinks.stderr(s) };

// Pyodide, loaded from the vendored files, watched (js/runtime-internals.mjs loadWatched): the
// standard library's zip from the .xz, Python's WebAssembly steady on a first visit.
const loadWatched = (options) => watched(loadVendored, options, {
  zip: stdlibBytes && options.stdLibURL === STDLIB_URL ? stdlibBytes : null,
  steady: STEADY ? steady : null,
  base: BASE.href,
  asked: () => stage("stdlib asked"),
});

async function start() {
  stage("start", "Loading runtime");
  const indexURL = BASE.href;
  // The build's standard library, and its empty lock file: this site loads no package.
  const withZip = RUNTIME
    ? { stdLibURL: new URL(RUNTIME.stdlib, BASE).href, lockFileContents: RUNTIME.lock } : {};
  let snapshot = null;
  const cached = cachedSnapshot();
  cached.catch(() => {});
  await earlyPainted;
  try {
    snapshot = await cached;
  } catch (err) {
    boot.skipped = String(err);
  }
  stage("fetched");
  if (snapshot) {
    try {
      stage("restore", "Restoring Python");
      const py = await loadWatched({ ...forward, indexURL, ...withZip, ...restoreOptions({
        // (A thenable: records when Pyodide, its script loaded, waits for the memory image.)
        then: (ok, ko) => { stage("snapshot awaited"); return snapshot.bytes.then(ok, ko); },
      }) });
      await install(py);
      py.runPython("import random as _r; _r.seed(); del _r");
      boot.mode = "snapshot";
      stage("ready");
      return py;
    } catch (err) {
      // (The damaged copy is dropped: the next visit makes it again from the .xz.)
      boot.skipped = `restore failed: ${err}`;
      console.warn("pygames: snapshot restore failed, ordinary boot", err);
      await dropKept();
      tell();
    }
  } else if (plainOnce) {
    boot.skipped = `the restore before failed: ${plainOnce}`;
    tell();
  }
  stage("python", "Starting Python");
  await nextPaint();
  const py = await loadWatched({ ...forward, indexURL, ...withZip });
  await install(py);
  stage("ready");
  return py;
}
// A page restored from the snapshot that fails before it is ready (Python raising as the page
// starts, a fatal error, a start-up step rejected): the restored memory is suspect.  The kept
// copy is dropped and the page reloads once, to an ordinary boot (PLAIN_ONCE; never twice in
// a row: that boot never reloads).
function recover(why) {
  if (recover.done || document.body?.dataset.ready) return;
  recover.done = true;
  try {
    sessionStorage.setItem(PLAIN_ONCE, String(why).slice(0, 200));
  } catch {
    return;  // no way to know at the next load that this one failed: no reload
  }
  console.warn("pygames: the page restored from the snapshot failed, ordinary boot", why);
  dropKept().then(() => location.reload());
}

function watchRestored() {
  const error = console.error;
  console.error = function (...args) {
    const text = args.map(String).join(" ");
    if (/PythonError|Pyodide has suffered a fatal error/.test(text)) recover(text);
    return error.apply(this, args);
  };
  const rejected = (event) => recover(event.reason);
  addEventListener("unhandledrejection", rejected);
  const stop = () => {
    console.error = error;
    removeEventListener("unhandledrejection", rejected);
  };
  // Until the shell's ready signal (<body data-ready>).
  const watch = new MutationObserver(() => {
    if (document.body.dataset.ready) { watch.disconnect(); stop(); }
  });
  const observe = () => watch.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
  if (document.body) observe(); else addEventListener("DOMContentLoaded", observe, { once: true });
}

const started = WORKER ? new Promise(() => {}) : start();
started.then(() => { if (boot.mode === "snapshot") watchRestored(); }, () => {});
started.catch(() => {});  // reported to the caller of loadPyodide

// PyScript's call (options: {stdout, stderr, indexURL}; packages, lock files and the like
// are not used by this site and would need a boot of their own).
export async function loadPyodide(options = {}) {
  // Before the interpreter is returned: polyscript reads the worker hooks right after.
  dropWorkerHooks((await import(PYSCRIPT.href)).hooks);
  const unsupported = Object.keys(options).filter((k) => !["stdout", "stderr", "indexURL"].includes(k));
  if (unsupported.length) {
    return loadVendored({ ...options, indexURL: BASE.href,
      ...(RUNTIME ? { stdLibURL: new URL(RUNTIME.stdlib, BASE).href } : {}) });
  }
  if (options.stdout) sinks.stdout = options.stdout;
  if (options.stderr) sinks.stderr = options.stderr;
  stage("asked");
  return started;
}
