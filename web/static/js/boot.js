// Runs before Python: shows real loading progress, opens the rules dialog, and turns a
// failed start into a readable message instead of a blank page.

import { OWN_PROGRESS, PROGRESS_EVENT, PYSCRIPT_PROGRESS, pythonInWorker } from "./runtime-internals.mjs";

// The page's words (js/words.js, loaded before every script).
const t = (id, params) => (window.pygames?.t ? window.pygames.t(id, params) : id);

const bar = document.getElementById("loading-bar");
const text = document.getElementById("loading-text");
let shown = 0;

function progress(value, label) {
  if (value < shown) return;
  shown = value;
  if (bar) { bar.value = value; bar.textContent = t("format.percent", { n: value }); }
  if (label && text) text.textContent = label;
}

progress(8, t("js.boot.download"));

// (Python's runtime, js/pyodide-fast.mjs, is the page's first script: it starts at once.)

// Each large runtime file finishing its download moves the bar.
const milestones = [
  [/pyodide\.asm\.wasm$/, 55, t("js.boot.downloaded")],
  [/python_stdlib(-[0-9a-f]+)?\.zip(\.xz)?$/, 65, null],
  [/pygames(-[0-9a-f]+)?\.(zip|tar\.gz)$/, 90, t("js.boot.rules")],
];
if ("PerformanceObserver" in window) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      for (const [pattern, value, label] of milestones) {
        if (pattern.test(entry.name)) progress(value, label);
      }
    }
  }).observe({ type: "resource", buffered: true });
}

// PyScript reports its own stages, and js/pyodide-fast.mjs its (same event; the messages
// are listed in js/runtime-internals.mjs, whose test checks PyScript still sends them).
const [ownLoading, ownStarting, ownRestoring] = OWN_PROGRESS;
const [loadingPyodide, loadedPyodide, loadingFiles, loadedFiles] = PYSCRIPT_PROGRESS;
const stages = {
  [ownLoading]: [15, t("js.boot.download")],
  [loadingPyodide]: [20, t("js.boot.download")],
  [ownStarting]: [66, t("js.boot.starting")],         // ordinary boot
  [ownRestoring]: [66, t("js.boot.restoring")], // from the memory snapshot
  [loadedPyodide]: [75, t("js.boot.starting")],
  [loadingFiles]: [80, t("js.boot.rules")],
  [loadedFiles]: [92, t("js.boot.preparing")],
};
addEventListener(PROGRESS_EVENT, ({ detail }) => {
  const stage = stages[detail];
  if (stage) progress(...stage);
});
// A first visit's download tried again (js/pyodide-fast.mjs): the bar stays where it is.
addEventListener("pygames:retrying", () => progress(shown, t("js.boot.retrying")));

function fail(message) {
  if (document.body.dataset.ready) return;
  const panel = document.getElementById("error");
  const loading = document.getElementById("loading");
  if (!panel) return;
  document.getElementById("error-text").textContent = message;
  panel.hidden = false;
  if (loading) loading.hidden = true;
}
// Once the game runs, a Python error nobody caught is the page's one kind of trouble: web/app/
// dom.py hands it here (its events, timers and tasks), and so does the listener below for any
// other; the player sees the site's notice (the game is saved as it is played, and stays),
// never a traceback; the tests read `pygames.errors`.
const pygames = (window.pygames ??= {});
pygames.errors = [];
pygames.trouble = (detail) => {
  pygames.errors.push(String(detail));
  const notice = document.getElementById("page-trouble");
  if (notice) notice.hidden = false;
};
document.getElementById("page-trouble-ok")?.addEventListener("click", () => {
  document.getElementById("page-trouble").hidden = true;
});
document.getElementById("page-trouble-reload")?.addEventListener("click", () => location.reload());
const pythonError = (text) => String(text || "").includes("PythonError");
addEventListener("error", (event) => {
  if (document.body.dataset.ready && pythonError(event.message)) {
    event.preventDefault();
    pygames.trouble(event.error?.message ?? event.message);
  }
});
addEventListener("unhandledrejection", (event) => {
  if (document.body.dataset.ready && pythonError(event.reason?.name ?? event.reason)) {
    event.preventDefault();
    pygames.trouble(event.reason?.message ?? event.reason);
  }
});

const BROKEN = t("js.boot.broken");
// A start that failed after downloads were tried again (js/steady-fetch.mjs), or offline:
// the connection, not the site's files, is to blame (no "clear the cache" then).
const broken = () => (window.pygames?.boot?.retries?.length || navigator.onLine === false
  ? t("js.boot.lost") : BROKEN);
addEventListener("error", (event) => {
  if (String(event.message || "").includes("PythonError") || event.target?.tagName === "SCRIPT") {
    fail(broken());
  }
}, true);
// The page's Python script (import shell; shell.main(...)) raising before the game is ready
// (a damaged game file): PyScript hands the error to its stderr and goes on, so the page says
// so at once. (Python's own prints reach that stderr as text, never as an Error.)  Only with
// `?page`: Python in a worker reports its failure itself (js/worker-page.mjs).
const core = document.querySelector("script[data-pyscript]");
if (core && !pythonInWorker()) {
  import(new URL(core.dataset.pyscript, document.baseURI).href).then(({ hooks }) => hooks.main.onReady.add((wrap) => {
    const { stderr } = wrap.io;
    wrap.io.stderr = (error, ...rest) => {
      if (error instanceof Error && !document.body.dataset.ready) fail(BROKEN);
      return stderr(error, ...rest);
    };
  }));
}
// A start-up step that failed without anyone to catch it (Python's runtime missing or
// damaged, PyScript's config...): say so after a short grace (a late success wins), not
// after the 90 s below.
addEventListener("unhandledrejection", (event) => {
  if (document.body.dataset.ready) return;
  console.error("pygames: start-up failed:", event.reason);
  setTimeout(() => fail(broken()), 3000);
});
setTimeout(() => fail(t("js.boot.slow")), 90000);

document.getElementById("error-reload")?.addEventListener("click", () => location.reload());
const rules = document.getElementById("rules");
document.getElementById("open-rules")?.addEventListener("click", () => rules?.showModal());
