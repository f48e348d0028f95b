// Every use of Pyodide's and PyScript's private or undocumented behaviour, in one module.
// Runs in the browser (js/pyodide-fast.mjs, js/boot.js) and in Node (web/tools/runtime/snapshot.mjs),
// so it touches no browser global at load time.
//
// Pinned: pyodide 314.0.8 and @pyscript/core 0.7.31 (package.json). When upgrading either,
// check each item below; tests/test_runtime_internals.py checks that every name this module
// relies on still appears in the vendored files, and e2e/test_runtime_fast.py and
// e2e/test_offline.py check the behaviour.
//
//   1. `_loadSnapshot` (loadPyodide option, private): restores a memory image made by
//      `_makeSnapshot: true` + `py.makeMemorySnapshot()` (both private). A snapshot only fits
//      the exact pyodide.asm.wasm and standard library it was made with (the build names the
//      snapshot after both). Check: a warm visit of a game page reports
//      window.pygames.boot.mode === "snapshot".
//   2. `py.FS` (Emscripten's file system: cwd, mkdirTree, writeFile): the game's files are
//      written into the working directory before PyScript gets the interpreter.
//   3. Pyodide logs "wasm instantiation failed" through console.warn and then waits forever
//      when its wasm cannot be instantiated: that log line is turned into an error.
//   4. PyScript's `py:progress` events and their messages (PYSCRIPT_PROGRESS), read by
//      js/boot.js for the loading bar; PyScript accepts any module with `loadPyodide` and
//      `version` exports as its `interpreter` (pyscript.json), and calls it with
//      {stdout, stderr, indexURL} only.
//   5. The plugin names listed as "!name" in pyscript.json (PyScript loads every plugin chunk
//      unless told not to).
//   6. PyScript's worker hooks (`hooks.worker`, in the `hooks` that its core.js exports for
//      plugins): each time one of them is read, PyScript joins those registered into one
//      function compiled from source text with Function() (@pyscript/core's src/hooks.js
//      `createFunction`, through the getters of src/core.js), and polyscript reads them all
//      as soon as the page's interpreter is ready (esm/custom.js, `new Hook(interpreter,
//      hooks)`), workers or not. PyScript registers one itself, onBeforeRunAsync (it sets up
//      `_pyscript` in a worker's Python). The site runs no PyScript worker:
//      js/pyodide-fast.mjs empties them before it returns the interpreter, so that nothing
//      is compiled from text and the pages' policy needs no 'unsafe-eval'. Check: a game
//      page started, played and advised raises no securitypolicyviolation
//      (e2e/test_page_safety.py), and without this the Function() is refused
//      (e2e/test_page_safety.py's test of the worker hooks).
//   7. The memory snapshot's layout (`makeMemorySnapshot`, src/js/snapshot.ts): a header whose
//      second u32 (LE) is the offset where a copy of the whole wasm memory (HEAP8) begins, to
//      the end.  Pyodide restores it with `HEAP8.set` into the memory the wasm module declares
//      (`INITIAL_MEMORY` is not read: pyodide issue #6254), so a snapshot whose memory grew
//      past that initial size cannot be restored (a RangeError, and the page boots the
//      ordinary way).  The build reads both sizes and fails when the memory is larger
//      (web/tools/runtime/__init__.py, `check_snapshot_fits`: the initial size from the
//      wasm's memory section); the page copies the pages still as the wasm starts them from
//      the wasm (js/snapshot-inflate.mjs, `withBase`, at `snapshotMemoryOffset`).  `_sbrk`
//      (an export of the wasm on `py._module`) tells how much of that memory is in use.
//      Check: the build prints the memory and its limit, e2e/test_runtime_fast.py restores.
//   8. Pyodide fetches its standard library (`stdLibURL`) with the page's global `fetch`
//      (`browser_getBinaryResponse`: `fetch(new URL(url, location))`, then `arrayBuffer()`),
//      once, while `loadPyodide` runs.  js/pyodide-fast.mjs answers that one fetch with the
//      zip inflated from its .xz (the site serves the standard library as xz: issue 24,
//      "Fewer bytes").  Check: a game page never requests the zip itself, online or
//      offline (e2e/test_runtime_fast.py, e2e/test_offline.py: the zip is not precached).
//      Pyodide fetches pyodide.asm.wasm with that global `fetch` too, and compiles the
//      Response as it streams in (`WebAssembly.instantiateStreaming`): on a first visit
//      js/pyodide-fast.mjs hands it js/steady-fetch.mjs's Response (a stalled download tried
//      again; its headers' content type kept).  Check: a stalled wasm is tried again and the
//      page starts (e2e/test_steady_downloads.py).
//
// Upgrades, each checked against the items above:
//   * pyodide 314.0.7 -> 314.0.8: pyodide.mjs (its JSPI probe no longer skips iOS), the wasm
//     (a new BUILD_ID: every snapshot is made again) and three files of its own Python package
//     (_pyodide/_importhook.py, pyodide/webloop.py, pyodide/__init__.py); the lock file and
//     every other file of the standard library unchanged.  1-7 hold: every name is there
//     (tests/test_runtime_internals.py), the wasm's initial memory is still 480 pages (30 MiB,
//     tests/test_runtime_build.py) and the snapshot's memory 30 MiB, 24.4 MB of it in use;
//     warm and offline visits restore (e2e/test_runtime_fast.py, e2e/test_offline.py); no
//     policy violation (e2e/test_page_safety.py).  One test had to change: flipping 200
//     bytes of the kept snapshot no longer broke the start (they all missed what it reads).
//
// Python in a worker (issue 24, item 2: the main thread free while Python starts), without
// SharedArrayBuffer.  The question: can the interpreter run in a dedicated worker while the
// page's DOM work reaches the page?  PyScript's own workers give Python the page's DOM
// (`from pyscript import document`) through a synchronous channel: Atomics.wait on a
// SharedArrayBuffer, which needs cross-origin isolation (COOP/COEP headers: GitHub Pages
// cannot send them, and an embed would impose them on other people's pages), or, without
// it, a service worker answering synchronous XMLHttpRequests (PyScript's `service-worker`
// attribute, coincident's "sabayon" service worker).  Measured (stop 36,
// e2e/bench/bench_worker_sync.py, PyScript 0.7.31 and Pyodide 314 from node_modules, the
// second visit, controlled by that service worker): reading a property from the worker takes
// 3-4 ms a call (under 0.01 ms on the page), and making one element (createElement,
// textContent, appendChild) about 1 s (1025-1100 ms each, for 1, 5 and 20 of them; 0.1 ms on
// the page).  A table of a few hundred cells would take minutes: not a way.  What works with
// neither: the worker never touches the DOM; the view
// answers each move with the page's drawing as data, which the page applies (createElement,
// textContent), and the page posts the clicks and keys.  e2e/bench/bench_worker.py builds
// that (not wired into the site): Pyodide 314.0.8, this build's standard library and game
// files, a two-player Yams table redrawn at each click as 17 rows of text (365 bytes of
// JSON), a first visit each time, at 1x CPU on the shared 2-core machine (load 20-24):
//
//                    ready     main thread in long tasks   TBT      click to drawn (median)
//   on the page      9.7 s     8.2 s (longest 7.6 s)       8.0 s    1.7 ms
//   in a worker      7.3 s     0                           0        26 ms (p90 66 ms)
//
// The main thread stays free (no long task at all until ready: the TBT of the start is
// gone, and the page can answer taps meanwhile); a click costs two messages more (tens of
// ms on that loaded machine, within the 100 ms a tap may take); the memory snapshot should
// restore there the same way (Cache Storage and DecompressionStream exist in workers; not
// measured).  The
// price is the page's Python: the shell and the views call the DOM directly (web/app/dom.py,
// the views' drawing, focus, dialogs, storage), so it means a view layer that returns its
// drawing as data plus a small JS applier, and PyScript no longer runs the page (the site
// starts Pyodide itself already, js/pyodide-fast.mjs).  Chosen design for item 2, if taken
// up: this one, not PyScript's workers.
//
// Taken up (stop 39), in steps that keep the site as it is: the drawing as data comes from
// a mirror, not from rewriting the views.  web/worker/mirror.py holds the page's DOM in
// Python; the page's modules draw on it unchanged (they reach JavaScript through dom.py
// only, tests/test_structure.py), every change is made there at once (what Python reads back
// needs no round trip) and recorded as an operation; js/page-mirror.mjs sends the page's
// nodes as a tree, applies the operations and sends the events back.  Checked: each game's
// page runs on the mirror in CPython (tests/page_host.py), a whole match played and resumed
// (tests/test_page_mirror.py), and drawn on a page in Chromium node for node
// (e2e/test_mirror_applier.py).  What the page's main thread would carry, from
// e2e/bench/bench_mirror.py (the four pages, a whole match against the computer, 4x CPU,
// two runs; stop 39, load 3; the page reads each batch as one JSON text, read included):
//
//   the page's tree sent to the worker     104-112 KB of JSON (the catalogue is most of it)
//   the start's operations                 290-340, 8-10 KB, applied in 6-16 ms
//   Commencer's                            210-1490, 6-43 KB, applied in 39-65 ms
//   each move's (median / largest)         2-27 KB / 7-141 KB, applied in 3-5 / 24-38 ms
//
// So a move costs the main thread a few ms; only Commencer's drawing (the whole table at
// once) comes near a long task's 50 ms, and is the one to trim.  Left before a page can run
// so: the worker's start (Pyodide, the snapshot, the game's files) and its messages; the
// window's parts (localStorage read at start and written through the page, timers, the
// address, the clipboard and share sheet); the keys a keydown takes, which the page must
// decide before the worker hears of the key (preventDefault cannot wait); duo.py's WebRTC,
// which exists on the main thread only.  The page's Python reads no layout any more: the
// five reads it made are gone (a die's tumble, the focus still drawn: checkVisibility) or
// answered by the page (a dialog's backdrop: js/dialogs.js closes it and Python hears the
// close; Yams' sticky panel: js/layout.js).
//
// The window's parts, as planned for the worker (stop 40; not built).
// * localStorage: the worker holds a copy, sent with the tree, so Python reads it at once.
//   Each write is an operation in the same stream as the drawing (a save lands between the
//   drawings it came between), and the page applies it to the real storage.  A full quota
//   is known only on the page (QuotaExceededError), one message later.  The page then
//   answers "refused", the worker's copy takes back the value the page still has, and the
//   shell's path for an unsaved game (#save-trouble) runs.  Today dom.Storage.set returns
//   False at once; there it becomes a refusal heard later.  The other tabs' `storage`
//   events come through the page to the copy, before Python's listeners hear them.
// * Timers: the worker's own (Pyodide's loop already runs on setTimeout there).
// * The address: sent with the tree.  history.replaceState and reload are operations.
// * Clipboard and share sheet: operations run within the click's transient activation,
//   which the page holds for seconds in Chromium.  Safari's window is to be checked.
// * Keys: the page must call preventDefault before the worker hears of the key.  So the
//   worker declares which keys each node takes (an operation when they change), and the
//   applier's `prevent` reads that declaration.
// * duo.py (WebRTC): Chromium has no RTCPeerConnection in workers.  It stays on the
//   page, which relays the data channel's messages.
//
// Built (stop 41; every game page's way since stop 43, `?page` for the page's own):
// js/worker-page.mjs turns the page's `<script type="py">` into an inert type, so PyScript
// starts nothing, and js/pyodide-fast.mjs starts nothing either (pythonInWorker below).
// Once the early page is painted it makes js/py-worker.mjs, which restores Python from the
// snapshot when the browser holds it (js/snapshot-inflate.mjs works there unchanged), else
// starts it from the standard library's .xz, writes the game's files, and asks for the
// page.  The page adopts the early drawing (pygames.early.release), sends its tree, its
// storage, its address and the names of its scripts' objects; web/worker/worker_host.py runs
// the shell on the mirror.  Each batch of operations is applied in one task; a click's
// answer comes back as {done} after its batch (the tests' settle: pygames.worker.settled).
// What the plan above asked, as built:
// * localStorage: the worker's copy; writes are operations.  A write the page refuses (a full
//   quota) comes back as a "pygames-storage-refused" window event: the copy takes back the
//   page's value and learns the limit (a longer write is then refused at once), and the
//   shell saves again, which fails now and shows #save-trouble.
// * Keys: preventDefault is decided on the page by a rule that mirrors the page's Python
//   (worker-page.mjs takesKey: a letter, a digit, Space off a control, the arrows, Home,
//   End, Ctrl+Z; never in a field), not yet by keys the worker declares.
// * The clipboard, the share sheet, a selection: operations run as the batch is applied,
//   within the click's transient activation; the answer settles the promise Python awaits.
// * Page scripts that change what Python reads: js/setup-early.js keeps the setup form
//   working for the page's life, so the form is sent again whole (mirror.py Document.sync)
//   after any change the page's scripts make in it (a MutationObserver, and after every
//   page script Python called), and before any event from within it; the page's focus and
//   visibility come with each event.
// * A file picked (the statistics' import): the page reads its text and sends it with the
//   change event (mirror.py File); fetch is PyScript's (the body as bytes) and resolves an
//   address against the page's, not the worker's js/.
// * A page script's method Python calls (worker_host.PageObject): an operation with a token;
//   the page answers with its value, or its promise's once settled (duo.py's WebRTC link stays
//   on the page: offer, answer, draw, scan), and what Python must know at once (whether the
//   page has WebRTC) comes with the tree.
// * What the page changes without Python (stop 42): every field's value as it is typed (sent
//   before the event's own, even where Python listens to none), a dialog closed by Escape,
//   the page's own scripts' localStorage writes (the copy follows; no storage event, as on
//   the page).  A part sent again while Python's batch is on its way keeps the nodes that
//   batch changed (mirror.py sync's `seen`: the batches the page had applied).
// * Every event says so too (`seen`, stop 44): what it tells of the page (where the focus
//   is, a dialog closed) may be older than a batch of Python's still on its way, which then
//   stands: a backdrop's close (fired at the next frame) that reached the worker after a tap
//   on which Python asked its question again cancelled the new question (stop 43's CI).
// * The page's Python script runs there as written (worker_host.run_script): a damaged one
//   fails at once, as on the page.  A first visit's downloads are steady in the worker too
//   (js/steady-fetch.mjs; each new try told to the page), and Pyodide is loaded the same
//   watched way on the page and in the worker (loadWatched below).
// The whole suite in this mode, the embed pages included: stop 41, 380 of 435 passed; stop
// 42, all.  So stop 43 made it the default: a game page loads no PyScript (its core and style
// load on `?page` only, js/worker-page.mjs startOnPage), and the tests run in this mode
// (PYGAMES_E2E_PAGE=1 runs them on the page, README).  Kept on the page, for `?page` and for
// a browser without module workers: PyScript and js/pyodide-fast.mjs, unchanged.
// Measured (stop 41, e2e/bench/bench_lighthouse.py, Lighthouse 12.8.2, a first visit of each
// page, one run each, back to back on the shared 2-core machine at load 5-7), on the page
// and in a worker (`--query page` now measures the page's way):
//
//   mobile        performance   LCP          TBT              best practices
//   on the page   48-69         1.9-4.8 s    2.4-4.4 s        82 (SharedArrayBuffer's deprecation)
//   in a worker   91-99         1.9-2.8 s    48-109 ms        100
//   desktop: 71-73 on the page (TBT 0.8-1.2 s), 100 in a worker (TBT 0); accessibility 100
//   both ways.  The deprecation audit was PyScript's: it probes SharedArrayBuffer, and a
//   page that runs no PyScript probes nothing.
// Again at stop 43, the worker the default (one run each, the four pages, a first visit and
// a saved game's, load 3; `bench_lighthouse.py --presets mobile,desktop --ways first,saved
// [--query page]`; the builds of 3ef68ea, and of 6a68b59 for the worker's saved games):
//
//   mobile             performance   LCP        TBT            CLS           best practices
//   ?page, first       69-70         1.8 s      3.2-4.2 s      0             82
//   ?page, saved       69-70         1.8-2.0 s  2.6-4.1 s      0.016-0.018   82
//   worker, first      96-99         1.8-2.1 s  29-67 ms       0             100
//   worker, saved      92-99         1.8 s      1-320 ms       0.016-0.021   100
//   desktop: ?page 71-79 (TBT 0.5-1.1 s), the worker 100 every page and way; accessibility 100.
// The saved game's visit in the worker first measured CLS 0.28-1.14 (performance 74-83):
// release() (js/view-early.js) empties the drawing to the build's markup a message before
// Python's first drawing, and everything kept moved up, then down.  js/worker-page.mjs
// holdBoxes now keeps each element's height until that drawing is applied
// (e2e/test_page_early.py checks the shift with the largest paint).

// Why not restore the snapshot on a first visit too (2.5 MB as xz), rather than starting
// Python from the standard library?  Measured (a PerformanceObserver of long tasks from
// FCP until ready, yams.html, 4x CPU with CDP, a loaded machine): a first visit 9.0 s of blocking
// time (the longest task 6.3 s, Python's start), a visit restoring the snapshot still
// 2.8 s (12 long tasks, the longest 0.7 s: Pyodide's script, instantiating and restoring,
// PyScript, the page's first drawing).  Far from 600 ms either way: only the worker above
// takes that time off the main thread.  Tried again in Lighthouse (stop 36, mobile, first visit,
// yams and linotte, a build whose first visit fetches the snapshot's .xz and restores it,
// against this one, back to back on a loaded machine): TBT 2.5 and 5.7 s against 5.6 and
// 8.6 s, but the largest paint later (2.7 and 4.5 s against 1.7 and 2.8 s: the 2.5 MB more
// compete with the early page), so performance 66 and 49 against 69 and 63.  Not taken.
//
// The main thread after ready (issue 24, item 3: at 4x CPU a reloaded game answers its
// first tap within 1 s).  Long tasks after ready, Yams' saved game at 4x CPU (CDP), before:
// one of 7.1 s.  It was the expert's table (yams.bin, 1.4 million states), fetched as soon
// as the game is set up: PyScript's `fetch(...).bytearray()` copies the body byte by byte
// through the JS bridge (about 1 s for its 1.4 MB), then the codes were decoded in one go,
// twice (once for the hash).  Now web/app/shell.py takes the bytes with `arrayBuffer()`
// (Pyodide's `to_py`, one copy) and runs `Family.load_steps` (pygames/tables.py
// `read_steps`): inflate, decode and hash in slices of 16,384 states, 256 KB inflated or
// 512 KB hashed, with `await asyncio.sleep(0)` between them (Pyodide's webloop schedules
// it as a task: input is handled in between); Yams' turn model is built in steps too
// (`TurnModel.in_steps`).  After: no long task over 110 ms after ready, the table read in
// about 3 s of slices; a tap on Lancer from ready to its effect (bench_early.py, 4x, load
// 9-14): Yams 7.5 s -> 0.47 s (median of 2).  The Dé Landais' table (1.7 MB) is read the
// same way.
//
// The early page's largest paint (item 1).  Chromium records a text's paint once per
// layout object: Python may change what an element shows (same node, same box) without a
// new LCP candidate, but a node taken out of the page and put back is painted anew, and is
// a new candidate when it is any larger.  js/view-early.js's release() used to take the
// drawing's sections out and put its nodes back into the build's; the Dé Landais' throw
// name came back a few pixels larger (15,456 -> 15,824 px²), and Lighthouse (mobile,
// saved game) counted it at Python's ready: LCP 42.6 s.  release() now adopts the drawing
// in place (nodes that agree stay, the build's shape is rebuilt around them), and the
// waking line floats out of the flow (its removal moved the whole table up: CLS 0.047).

/** loadPyodide options that restore a memory snapshot; `bytes` is a thenable of the image. */
export function restoreOptions(bytes) {
  return { _loadSnapshot: bytes };
}

/** loadPyodide options of the build step that makes the snapshot (Node). */
export const MAKE_SNAPSHOT_OPTIONS = { _makeSnapshot: true };

/** The memory image of a Pyodide started with MAKE_SNAPSHOT_OPTIONS. */
export function makeSnapshot(py) {
  return py.makeMemorySnapshot();
}

/** Where the copy of the wasm memory begins in a snapshot of `makeSnapshot` (7). */
export function snapshotMemoryOffset(snapshot) {
  return new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
}

/** How far the wasm memory of a running Pyodide is in use (its sbrk pointer, bytes; 7). */
export function memoryInUse(py) {
  return py._module._sbrk(0) >>> 0;
}

/** What Pyodide logs (console.warn) when its wasm cannot be instantiated. */
export const WASM_FAILURE_LOG = "wasm instantiation failed";

/** `load(options)` (Pyodide's loadPyodide) watched, on the page (js/pyodide-fast.mjs) and in
 *  the worker (js/py-worker.mjs) alike.  While it loads, its fetch of the standard library's
 *  zip (`options.stdLibURL`) gets `zip`, a promise of the bytes inflated from the .xz (8; its
 *  failure: the zip fetched after all), and `asked()` is called then; with `steady(url)` (a
 *  first visit: js/steady-fetch.mjs), Python's WebAssembly under `base` is fetched by it.
 *  Pyodide 314 only logs a wasm that fails to instantiate (WASM_FAILURE_LOG) and then waits
 *  forever: that log becomes the load's error, so that the page says it cannot start. */
export function loadWatched(load, options, { zip = null, steady = null, base = "", asked = () => {} } = {}) {
  const realFetch = globalThis.fetch;
  const fetching = function (input, init) {
    const url = String(input instanceof Request ? input.url : input);
    if (zip && url === options.stdLibURL) {
      asked();
      return zip.then((bytes) => new Response(bytes), () => realFetch(input, init));
    }
    if (steady && !init?.method && url.startsWith(base) && url.endsWith(".wasm")) return steady(url);
    return realFetch(input, init);
  };
  if (zip || steady) globalThis.fetch = fetching;
  const warn = console.warn;
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  console.warn = function (...args) {
    if (String(args[0]).includes(WASM_FAILURE_LOG)) {
      failed(new Error("Python's WebAssembly module could not be instantiated"));
    }
    return warn.apply(this, args);
  };
  return Promise.race([load(options), failure]).finally(() => {
    console.warn = warn;
    if (globalThis.fetch === fetching) globalThis.fetch = realFetch;
  });
}

/** Write files ({name, data}) under Python's working directory, through Emscripten's FS. */
export function writeFiles(py, files) {
  const { FS } = py;
  const home = FS.cwd();
  const made = new Set();
  for (const { name, data } of files) {
    const dir = name.includes("/") ? `${home}/${name.slice(0, name.lastIndexOf("/"))}` : home;
    if (!made.has(dir)) {
      FS.mkdirTree(dir);
      made.add(dir);
    }
    FS.writeFile(`${home}/${name}`, data);
  }
}

/** The event PyScript dispatches on `window` while it starts, with a message as `detail`. */
export const PROGRESS_EVENT = "py:progress";

/** The messages of PyScript's own PROGRESS_EVENTs that the loading bar follows. */
export const PYSCRIPT_PROGRESS = ["Loading Pyodide", "Loaded Pyodide", "Loading files", "Loaded files"];

/** The messages js/pyodide-fast.mjs dispatches itself (same event). */
export const OWN_PROGRESS = ["Loading runtime", "Starting Python", "Restoring Python"];

/** Empty PyScript's worker hooks (6), given the `hooks` of its core.js: it then compiles none. */
export function dropWorkerHooks(hooks) {
  for (const set of Object.values(hooks.worker)) set.clear();
}

/** Whether a game page's (<html data-family>) Python runs in a dedicated worker
 *  (js/worker-page.mjs, js/py-worker.mjs), not on the page (issue 24, "Python in a worker"):
 *  always (stop 43), unless the address asks for the page (`?page`: PyScript on the main
 *  thread, kept for comparison: the benches' `--query page`) or the browser has no module
 *  workers. */
export function pythonInWorker() {
  return Boolean(document.documentElement.dataset.family) && typeof Worker === "function"
    && !new URLSearchParams(location.search).has("page");
}
