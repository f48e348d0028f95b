// The page's Python in a dedicated worker (issue 24, item 2: the main thread free while
// Python starts; js/runtime-internals.mjs, "Python in a worker").  js/worker-page.mjs makes
// this worker on every game page (not on `?page`); the page's main thread then never runs
// Python.  This worker:
//
// 1. loads the vendored Pyodide -- restored from the memory snapshot when this browser holds
//    it, else started with the build's standard library (its .xz, inflated here; both kept
//    for the next visits) -- and writes the page's game files (RUNTIME.shared and the
//    family's archive), as js/pyodide-fast.mjs does on the page;
// 2. says {want: "tree"}; the page answers {start: JSON} (its nodes, its storage, its
//    address: web/worker/worker_host.py, Bridge.start), and the page's Python (the shell,
//    on the mirror of the page) starts;
// 3. then each {event: JSON} from the page goes to Python, and each batch of operations
//    Python records goes to the page as {ops: JSON} (web/worker/mirror.py says what they mean).
//
// In first: {boot: {family, caching, steady}} (caching: false with `?nosw`, no Cache Storage
// read; steady: js/steady-fetch.mjs's {stallMs} on a first visit, else null).
// Out, besides: {done: 1} after each event's batch, {restored: from} or {skipped: why} for
// the snapshot, {stage: name, ms} as it goes (the page keeps them in pygames.boot.stages),
// {retry: why} when a download is tried again, {failed: text} when Python cannot start,
// {error: text} for an error after that.
// No DOM here and none needed: Python draws on its mirror; Blob, URL, Date and Intl are the
// worker's own (worker_host.Window hands them out).
import { loadPyodide } from /* build: pyodide_module */ "../vendor/pyodide/pyodide.mjs";
import { loadWatched, restoreOptions, writeFiles } from "./runtime-internals.mjs";
import { INFLATED, check, expand, fetchStdlib, keepStdlib, keptStdlib, loadSnapshot } from "./snapshot-inflate.mjs";
import { steadyFetch } from "./steady-fetch.mjs";
import { readTarGz } from "./untar.mjs";

const RUNTIME = /* build: runtime */ null;
const BASE = new URL(/* build: pyodide_dir */ "../vendor/pyodide/", import.meta.url);

const stage = (name) => postMessage({ stage: name, ms: performance.now() });
let bridge = null;
const early = [];  // the page's events before Python is there (none, in practice)

// A first visit (the page not yet controlled by the service worker): the downloads go through
// js/steady-fetch.mjs, as on the page, with the page's wait ({stallMs}, boot.steady); each
// new try is told to the page ({retry: why}: pygames.boot.retries, "pygames:retrying").
let STEADY = null;
const retried = (why) => postMessage({ retry: why });
const steady = (url) => (STEADY ? steadyFetch(url, { ...STEADY, retried }) : fetch(url));

const readArchive = async (name) => {
  const response = await steady(new URL(`../${name}`, import.meta.url).href);
  if (!response.ok) throw new Error(`${name}: ${response.status}`);
  return readTarGz(response);
};

// The memory snapshot if this browser holds it (js/pyodide-fast.mjs `cachedSnapshot`, here
// in the worker): its inflated form kept by an earlier visit, else the service worker's .xz
// (then kept); checked against the build's SHA-256 before Python gets it.  Never the network.
async function cachedSnapshot() {
  const digest = RUNTIME.snapshot_inflated_sha256;
  if (!RUNTIME.snapshot || !digest || !self.caches || !self.crypto?.subtle) return null;
  const url = new URL(RUNTIME.snapshot, BASE).href;
  const kept = await caches.open(INFLATED).then((c) => c.match(url)).catch(() => null);
  if (kept) {
    const sparse = new Uint8Array(await kept.arrayBuffer());
    await check(sparse, digest, "snapshot (kept inflated)");
    return { bytes: expand(sparse), from: "inflated" };
  }
  const found = await loadSnapshot(url, digest, new URL("pyodide.asm.wasm", BASE).href);
  return found && { bytes: found.bytes, from: "xz", keep: found.keep };
}

// The standard library's zip: kept by an earlier visit (checked), else inflated from its .xz
// (then kept: not with `?nosw`).
async function stdlibZip(url, caching) {
  const kept = caching ? await keptStdlib(url, RUNTIME.stdlib_sha256).catch(() => null) : null;
  if (kept) return kept;
  const bytes = await fetchStdlib(new URL(RUNTIME.stdlib_xz, BASE).href, RUNTIME.stdlib_sha256,
    STEADY && { ...STEADY, retried });
  if (caching) setTimeout(() => keepStdlib(url, bytes.slice()).catch(() => {}), 0);
  return bytes;
}

// Pyodide watched as on the page (js/runtime-internals.mjs loadWatched): the zip from `zip`,
// the WebAssembly steady on a first visit, a failed instantiation an error.
const load = (options, zip) => loadWatched(loadPyodide, options,
  { zip, steady: STEADY ? steady : null, base: BASE.href });

async function boot(family, caching, steadyOptions) {
  STEADY = steadyOptions || null;
  stage("start");
  const own = RUNTIME.pages?.[family];
  const files = Promise.all([own ? RUNTIME.shared : null, own ?? RUNTIME.package]
    .filter(Boolean).map(readArchive)).then((parts) => parts.flat());
  files.catch(() => {});
  const stdLibURL = new URL(RUNTIME.stdlib, BASE).href;
  const zip = RUNTIME.stdlib_xz ? stdlibZip(stdLibURL, caching) : null;  // (a third smaller as .xz)
  zip?.catch(() => {});
  const options = { indexURL: BASE.href, stdLibURL, lockFileContents: RUNTIME.lock };
  let py = null;
  const snapshot = caching ? await cachedSnapshot().catch((err) => { postMessage({ skipped: String(err) }); }) : null;
  if (snapshot) {
    try {
      py = await load({ ...options, ...restoreOptions(snapshot.bytes) }, zip);
      postMessage({ restored: snapshot.from });
      if (snapshot.keep) setTimeout(() => snapshot.keep().catch(() => {}), 0);
    } catch (err) {
      postMessage({ skipped: `restore failed: ${err}` });
      await caches.delete(INFLATED).catch(() => {});
      py = null;
    }
  }
  if (!py) py = await load(options, zip);
  stage("python");
  writeFiles(py, await files);
  // Directory listings cached by the import system (the snapshot's) are stale now; a restored
  // `random` would repeat the snapshot's state.
  py.runPython(`import sys
for _f in sys.path_importer_cache.values():
    getattr(_f, "invalidate_caches", lambda: None)()
del _f
import random as _r; _r.seed(); del _r`);
  const host = py.pyimport("worker_host");
  bridge = host.Bridge((ops) => postMessage({ ops }), (url) => fetch(url), globalThis);
  stage("files written");
  postMessage({ want: "tree" });
}

// One event of the page to Python; then {done: 1}, after the batch of what it drew: the page
// counts them (pygames.worker.settled(): every event it sent answered).
function handle(event) {
  try {
    bridge.event(event);
  } catch (err) {
    postMessage({ error: String(err) });
  }
  postMessage({ done: 1 });
}

onmessage = ({ data }) => {
  if (data.boot) {
    boot(data.boot.family, data.boot.caching, data.boot.steady).catch((err) => postMessage({ failed: String(err?.stack || err) }));
  } else if (data.start) {
    try {
      bridge.start(data.start);
      stage("ready");
      for (const message of early.splice(0)) handle(message);
    } catch (err) {
      postMessage({ failed: String(err) });
    }
  } else if (data.event) {
    if (!bridge?.shell) early.push(data.event);
    else handle(data.event);
  }
};
