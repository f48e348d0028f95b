// The page's side of Python in a worker (issue 24, item 2; js/runtime-internals.mjs, "Python
// in a worker").  On a game page (runtime-internals' pythonInWorker: unless `?page`), this
// module turns the page's Python script off (PyScript, which it loads only for `?page`, would
// start nothing; js/pyodide-fast.mjs starts nothing either) and instead:
//
// * once the page before Python is on screen (js/view-early.js `painted`), makes the worker
//   (js/py-worker.mjs), which loads Python and the game's files: the main thread stays free,
//   the early setup or the saved game's drawing answers meanwhile as it does today;
// * when the worker asks for it, adopts the early drawing in place (pygames.early.release,
//   as the shell does first thing) and sends the page as it is then: its nodes
//   (js/page-mirror.mjs `tree`), its localStorage, its address, the names of its scripts'
//   objects under window.pygames;
// * applies the operations the worker's Python records (js/page-mirror.mjs `Applier`), and
//   those of the window (web/worker/worker_host.py): localStorage written, the address
//   replaced, a page script's method called, the window's events listened to;
// * sends back the events of the nodes Python listens to, and the window's.
//
// Taps on a control and keys made between the page sent and Python ready are held and
// played once it is ready (the early drawing's own queue covers the time before).
import { Applier, liveState, tree } from "./page-mirror.mjs";
import { PROGRESS_EVENT, pythonInWorker } from "./runtime-internals.mjs";
import { stallMs } from "./steady-fetch.mjs";

// What takes Space and Enter itself, and what takes every key (app/flow.py's CONTROLS and
// FIELDS: the shell leaves those keys to them; tests/test_worker_page.py keeps them equal).
const CONTROL = "a[href], button, summary, audio[controls], video[controls], [role=button], "
  + "[role=link], [role=checkbox], [role=radio], [role=switch], [role=tab], "
  + "[role=menuitem], [role=option], [role=gridcell], [role=treeitem], "
  + "[tabindex]:not([tabindex^='-']), [data-action], [data-die]";
const FIELD = "input, select, textarea, [contenteditable]:not([contenteditable=false]), "
  + "[role=textbox], [role=combobox], [role=spinbutton], [role=slider]";
/** The parts of the page that its own scripts change after Python has started, which
 *  Python reads: the setup form (js/setup-early.js keeps it working for the page's life). */
const SYNCED = ["setup-form"];
/** The page scripts whose calls may change a synced part's values (js/setup-early.js). */
const SYNCED_BY = ["setup."];
/** The largest file a person may pick whose text is sent to the worker (a saved game, the
 *  statistics: app/stats.py's MAX_TEXT is far below). */
const MAX_FILE = 4 * 1024 * 1024;

/** Whether the page calls preventDefault on a key Python listens to: the worker hears of it
 *  too late to.  The keys the page's Python takes for itself (its shortcuts: a letter, a
 *  digit, Space, the arrows, Home and End), never in a field, never Space or Enter on a
 *  control (its own click), never with Ctrl, Alt or Meta (Ctrl+Z is the shell's, and has no
 *  default off a field). */
export function takesKey(event) {
  if (event.type === "cancel") return true;  // a dialog's Escape: Python closes it itself
  if (event.type !== "keydown" || event.altKey || event.metaKey || event.isComposing) return false;
  const target = event.target;
  if (target?.closest?.(FIELD) || target?.closest?.("dialog[open]")) return false;
  const { key } = event;
  if (event.ctrlKey) return key === "z" || key === "Z";
  if ([" ", "Enter"].includes(key)) return !target?.closest?.(CONTROL);
  return key.length === 1 || ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key);
}

/** The heights of the saved game's drawing's elements (js/view-early.js), before release(). */
function drawnBoxes() {
  const boxes = new Map();
  for (const section of document.querySelectorAll("section.early-view")) {
    for (const node of [section, ...section.querySelectorAll("*")]) {
      boxes.set(node, node.getClientRects().length ? node.getBoundingClientRect().height : null);
    }
  }
  return boxes;
}

/** Python in a worker draws a message after release() emptied the drawing to the build's
 *  markup (on the page, both come in one task): meanwhile every element kept would move up,
 *  and back down once drawn (Lighthouse's CLS on a saved game's visit: 0.28-1.14, stop 43).
 *  So each element that release() made lower or higher keeps its former height (a min- or
 *  max-height) until Python's first drawing is applied; returns what gives them back. */
function holdBoxes(boxes) {
  const changed = [];
  for (const [node, height] of boxes) {  // (all read first: one layout)
    if (!node.isConnected) continue;
    if (height === null) {  // not drawn (hidden): not shown before Python says so
      if (node.getClientRects().length) changed.push([node, "display", "none"]);
      continue;
    }
    const now = node.getBoundingClientRect().height;
    if (Math.abs(now - height) > 0.5) changed.push([node, now < height ? "min-height" : "max-height", `${height}px`]);
  }
  for (const [node, property, height] of changed) {
    node.style.setProperty(property, height);
    if (property === "max-height") node.style.setProperty("overflow", "clip");  // (a higher one)
  }
  return () => {
    for (const [node, property, height] of changed) {
      if (node.style.getPropertyValue(property) !== height) continue;  // Python's own since
      node.style.removeProperty(property);
      if (property === "max-height") node.style.removeProperty("overflow");
    }
  };
}

function start() {
  const pygames = (window.pygames ??= {});
  // (js/pyodide-fast.mjs, an async module, may write pygames.boot after this: read it late.)
  const boot = () => (pygames.boot ??= { mode: "worker", retries: [] });
  const stages = () => (boot().stages ??= {});
  const family = document.documentElement.dataset.family;
  const script = document.querySelector('script[type="py"]');
  if (script) script.type = "text/x-python-in-worker";  // PyScript's selector misses it now
  const source = script?.textContent || null;  // run in the worker instead (worker_host.run_script)

  let worker = null;
  let applier = null;
  let ready = false;  // Python started (its readyAt; not <body data-ready>: a test may take it off)
  const held = [];  // [kind, node, init]: taps and keys while Python starts on the page's tree
  const hold = (event) => {
    if (!applier || ready) return;
    const target = event.target;
    if (event.type === "click") {
      const control = target?.closest?.(CONTROL);
      if (!control || control.matches(FIELD)) return;
      held.push(["click", control]);
    } else {
      if (target?.closest?.(FIELD) || event.ctrlKey || event.altKey || event.metaKey || event.key === "Tab") return;
      held.push(["keydown", target, { key: event.key, code: event.code, shiftKey: event.shiftKey }]);
    }
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  const playHeld = () => {
    removeEventListener("click", hold, true);
    removeEventListener("keydown", hold, true);
    for (const [kind, node, init] of held.splice(0)) {
      if (!node.isConnected) continue;
      if (kind === "click") node.click();
      else node.dispatchEvent(new KeyboardEvent("keydown", { ...init, bubbles: true, cancelable: true }));
    }
  };

  const post = (message) => worker.postMessage(message);
  let sent = 0;
  let answered = 0;
  let order = Promise.resolve();  // events wait for a file's text read before them
  let reading = 0;
  const sendEvent = (message) => {
    sent += 1;
    // How many batches of operations the page had applied as the event came: what it says
    // of the page may be older than what Python did since (mirror.py: a dialog's late close).
    if (message.node !== undefined) message.seen ??= applied;
    if (!message.files && !reading) {
      post({ event: JSON.stringify(message) });
      return;
    }
    reading += 1;
    const files = message.files || [];
    order = order.then(async () => {
      message.files = await Promise.all(files.map(async (f) => ({ name: f.name, size: f.size, type: f.type,
        text: f.size <= MAX_FILE ? await f.text().catch(() => null) : null })));
      if (!files.length) delete message.files;
      post({ event: JSON.stringify(message) });
    }).finally(() => { reading -= 1; });
  };
  const windowEvent = (type) => addEventListener(type, (event) => {
    let detail = null;
    try {
      detail = event.detail === undefined ? null : JSON.parse(JSON.stringify(event.detail));
    } catch {}  // not data: left out
    sendEvent({ window: type, key: event.key ?? null, newValue: event.newValue ?? null, detail, href: location.href });
  });
  const answer = (token, ok, value, error) => {
    if (value !== undefined && value !== null) {
      try { value = JSON.parse(JSON.stringify(value)); } catch { value = null; }  // data only
    }
    sendEvent({ window: "answer", token, ok, value: value ?? null, error: error ? String(error) : null });
  };
  const pageCall = (path, args, token) => {  // worker_host.PageObject: answered when settled
    let result;
    try {
      let self = pygames;
      const names = path.split(".");
      const last = names.pop();
      for (const name of names) self = self?.[name];
      if (typeof self?.[last] !== "function") throw new Error(`worker-page: no pygames.${path}`);
      result = self[last](...args.map((a) => (a && typeof a === "object" && "$node" in a ? applier.node(a.$node) : a)));
    } catch (err) {
      console.error(err);
      result = Promise.reject(err);
    }
    if (token === undefined) return;
    Promise.resolve(result).then((value) => answer(token, true, value), (err) => answer(token, false, null, err));
  };
  // localStorage written on the page by anything but Python (the page's own scripts: the
  // theme, the setup's choices; a test): the worker's copy takes it too, unheard by Python's
  // "storage" listeners (a same-tab write fires no storage event on the page either).
  let ownWrite = false;  // Python's own writes ("ls" operations) are the copy's already
  const store = (() => { try { return localStorage; } catch { return null; } })();
  if (store) {
    for (const name of ["setItem", "removeItem", "clear"]) {
      const real = Storage.prototype[name];
      Storage.prototype[name] = function (...args) {
        const result = real.apply(this, args);
        if (this === store && applier && !ownWrite) {
          sendEvent({ window: "pygames-storage-set", key: name === "clear" ? null : String(args[0]),
                      newValue: name === "setItem" ? String(args[1]) : null, clear: name === "clear" });
        }
        return result;
      };
    }
  }
  const windowOps = {
    ls: (key, value) => {
      ownWrite = true;
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch (err) {  // a full quota, known here only: the worker's copy took it back
        let used = 0;
        let kept = null;
        try {
          kept = localStorage.getItem(key);
          for (let i = 0; i < localStorage.length; i++) {
            const k = localStorage.key(i);
            used += k.length + (localStorage.getItem(k) || "").length;
          }
        } catch {}
        console.warn("pygames: storage refused", key, err);
        sendEvent({ window: "pygames-storage-refused", key, value: kept, used });
      } finally {
        ownWrite = false;
      }
    },
    hr: (url) => history.replaceState(history.state, "", url ?? location.href),
    rl: () => location.reload(),
    pg: (name, value) => {
      pygames[name] = name === "readyAt" ? performance.now() : value;
      // Python is ready (shell.main's signal, before the early drawing's taps are played in
      // the same batch: those are not held again); the taps held meanwhile come after them.
      if (name === "readyAt" && !ready) {
        ready = true;
        setTimeout(playHeld, 0);
      }
    },
    pc: (path, args, token) => pageCall(path, args, token),
    wo: (type) => windowEvent(type),
    sc: (args) => scrollTo(...args),
    ce: (text) => console.error(text),
    sl: (id) => getSelection()?.selectAllChildren(applier.node(id)),
    ak: (what, args, token) => {  // within the click's transient activation (worker_host.Asked)
      let promise;
      try {
        promise = what === "clipboard" ? navigator.clipboard.writeText(args[0])
          : what === "share" ? navigator.share(args[0]) : Promise.reject(new Error(what));
      } catch (err) {
        promise = Promise.reject(err);
      }
      Promise.resolve(promise).then(() => answer(token, true), (err) => answer(token, false, null, err));
    },
  };
  // The synced parts (SYNCED): whatever the page's scripts change in them (a player row
  // added, a ruleset's options drawn, the stored choices put back) is sent again whole
  // (mirror.py's Document.sync), before the next event from within them, or on its own
  // (then as a "change") once the script's task is over.  What the operations change there
  // is Python's own, not sent back.
  let nextPageId = -1;  // the page's numbers for the nodes its scripts made
  const part = (node) => {
    let id = applier.idOf(node);
    if (id === undefined) {
      id = nextPageId--;
      applier.made(id, node);
    }
    if (node.nodeType === Node.TEXT_NODE) return [id, node.data];
    const attrs = {};
    for (const a of node.attributes) attrs[a.name] = a.value;
    const kids = [];
    for (const child of node.childNodes) {
      if (child.nodeType === Node.ELEMENT_NODE || child.nodeType === Node.TEXT_NODE) kids.push(part(child));
    }
    return [id, node.localName, attrs, kids, liveState(node)];
  };
  const roots = [];
  const dirty = new Set();
  const syncNow = (root, change) => {
    dirty.delete(root);
    sendEvent({ sync: part(root), change, seen: applied });
  };
  const syncLater = (root) => {
    if (dirty.has(root)) return;
    dirty.add(root);
    setTimeout(() => { if (dirty.has(root)) syncNow(root, true); }, 0);
  };
  const observers = [];
  function watchParts() {
    for (const id of SYNCED) {
      const root = document.getElementById(id);
      if (!root) continue;
      roots.push(root);
      const observer = new MutationObserver(() => syncLater(root));
      observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      observers.push(observer);
    }
  }

  let applied = 0;  // batches: a part is sent with how many were (mirror.py's sync `seen`)
  // What a page script Python called changed in a synced part, as it ran: its nodes (the
  // observers' records then), or its fields' values (no record: js/setup-early.js's, the
  // setup form's own script, SYNCED_BY).  Not after every call: early.storeView() follows each
  // drawing, and the form sent again each time kept the page's events unanswered while the
  // computers played (a game of computers only, stop 43).
  const changedBy = (op) => {
    for (const observer of observers) observer.takeRecords();  // Python's own changes
    windowOps.pc(...op.slice(2));
    let changed = SYNCED_BY.some((prefix) => String(op[2]).startsWith(prefix));
    for (const observer of observers) changed = observer.takeRecords().length > 0 || changed;
    return changed;
  };
  let unhold = null;  // the early drawing's boxes, held until Python's first drawing (holdBoxes)
  const apply = (ops) => {
    applied += 1;
    let changed = false;
    for (const op of ops) {
      if (op[0] === "pc") changed = changedBy(op) || changed;
      else if (windowOps[op[0]]) windowOps[op[0]](...op.slice(2));
      else applier.one(op);
    }
    if (unhold) {
      unhold();
      unhold = null;
    }
    for (const observer of observers) observer.takeRecords();  // Python's own changes
    if (changed) for (const root of roots) syncLater(root);
  };

  function sendTree() {
    const boxes = drawnBoxes();
    pygames.early?.release?.();
    addEventListener("click", hold, true);
    addEventListener("keydown", hold, true);
    const { tree: nodes, nodes: list } = tree(document);
    unhold = holdBoxes(boxes);  // (after the tree: the mirror never sees these styles)
    applier = new Applier(list, (message) => {
      if (message.type === "visibilitychange") message.visibilityState = document.visibilityState;
      // Where the focus is now (the page moves it without Python's hearing: a Tab, a click).
      const active = applier.idOf(document.activeElement);
      if (active !== undefined) message.active = active;
      sendEvent(message);
    }, takesKey, (target) => {
      // An event from within a synced part: the part as it is now first (its new nodes named).
      for (const root of roots) if (root.contains(target)) syncNow(root, false);
    });
    watchParts();
    // A field's value as the person leaves it, whether Python listens to it or not (it reads
    // some only when a button is pressed: duo's #duo-answer): sent before the event's own.
    const live = ({ target }) => {
      const id = applier.idOf(target);
      if (id !== undefined && target.matches?.("input, select, textarea")) {
        sendEvent({ node: id, type: "pygames-live", ...liveState(target) });
      }
    };
    addEventListener("input", live, true);
    addEventListener("change", live, true);
    // A dialog closed on the page (Escape, js/dialogs.js), whether Python listens or not: the
    // mirror's stays open otherwise, and Python would not open it again.
    // (Chromium fires `close` at the next animation frame: a dialog Python opened again in
    // between, on a key pressed first, is open, and stays so in the mirror.)
    addEventListener("close", ({ target }) => {
      const id = applier.idOf(target);
      if (id !== undefined && target.localName === "dialog" && !target.open) {
        sendEvent({ node: id, type: "pygames-closed" });
      }
    }, true);
    const storage = {};
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        storage[key] = localStorage.getItem(key);
      }
    } catch {}  // no storage (a private mode's refusal): Python finds none
    const scripts = Object.keys(pygames).filter((k) => pygames[k] !== null
      && (typeof pygames[k] === "object" || typeof pygames[k] === "function"));
    // What Python asks of a page script and must know at once (worker_host.PageObject).
    const values = {};
    try { if (pygames.duo?.supported) values["duo.supported"] = Boolean(pygames.duo.supported()); } catch {}
    post({ start: JSON.stringify({ tree: nodes, href: location.href, storage, family, pygames: scripts,
                                   width: innerWidth, visibility: document.visibilityState, values, script: source,
                                   features: [navigator.clipboard && "clipboard", navigator.share && "share"]
                                     .filter(Boolean) }) });
  }

  const progress = (detail) => dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail }));
  const painted = Promise.resolve(pygames.early?.painted).catch(() => {});
  painted.then(() => {
    progress("Loading runtime");
    worker = new Worker(new URL("./py-worker.mjs", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }) => {
      if (data.ops) apply(JSON.parse(data.ops));
      else if (data.done) answered += 1;
      else if (data.restored) boot().snapshotFrom = data.restored;
      else if (data.retry) {  // a download tried again (as js/pyodide-fast.mjs says it)
        (boot().retries ??= []).push(data.retry);
        dispatchEvent(new CustomEvent("pygames:retrying"));
      }
      else if (data.skipped) boot().skipped = data.skipped;
      else if (data.stage) {
        stages()[data.stage] = Math.round(performance.now());
        if (data.stage === "python") progress("Starting Python");
        if (data.stage === "ready" && !ready) {  // (a shell that gave no readyAt)
          ready = true;
          setTimeout(playHeld, 0);
        }
      } else if (data.want === "tree") sendTree();
      else if (data.failed || data.error) {
        console.error(`pygames (worker): ${data.failed || data.error}`);
        if (data.failed) dispatchEvent(new ErrorEvent("error", { message: `PythonError: ${data.failed}` }));
      }
    };
    worker.onerror = (event) => {
      console.error("pygames (worker):", event.message);
      dispatchEvent(new ErrorEvent("error", { message: `PythonError: ${event.message}` }));
    };
    // A first visit's downloads are steady (js/steady-fetch.mjs), as js/pyodide-fast.mjs's.
    const steady = navigator.serviceWorker?.controller ? null : { stallMs: stallMs(pygames.stallMs) };
    post({ boot: { family, caching: !new URLSearchParams(location.search).has("nosw"), steady } });
  });
  // For the tests: whether every event sent has been answered, and the taps held.
  pygames.worker = { settled: () => answered === sent && !held.length && !dirty.size, held: () => held.length };
}

/** `?page` (or no module workers): PyScript starts the page's Python on the main thread, as
 *  before stop 43 (its core and style, named by this module's script tag, load only then). */
function startOnPage() {
  const tag = document.querySelector("script[data-pyscript]");
  if (!tag) return;
  const style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = tag.dataset.pyscriptStyle;
  document.head.append(style);
  import(new URL(tag.dataset.pyscript, document.baseURI).href)
    .catch((err) => dispatchEvent(new ErrorEvent("error", { message: `PyScript: ${err}` })));
}

if (pythonInWorker()) start();
else if (document.documentElement.dataset.family) startOnPage();
