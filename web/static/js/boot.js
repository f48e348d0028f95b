// Runs before Python: shows real loading progress, opens the rules dialog, and turns a
// failed start into a readable message instead of a blank page.

import { OWN_PROGRESS, PROGRESS_EVENT, PYSCRIPT_PROGRESS } from "./runtime-internals.mjs";

const bar = document.getElementById("loading-bar");
const text = document.getElementById("loading-text");
let shown = 0;

function progress(value, label) {
  if (value < shown) return;
  shown = value;
  if (bar) { bar.value = value; bar.textContent = `${value} %`; }
  if (label && text) text.textContent = label;
}

progress(8, "Téléchargement de Python…");

// (Python's runtime, js/pyodide-fast.mjs, is the page's first script: it starts at once.)

// Each large runtime file finishing its download moves the bar.
const milestones = [
  [/pyodide\.asm\.wasm$/, 55, "Python est téléchargé, préparation…"],
  [/python_stdlib(-[0-9a-f]+)?\.zip$/, 65, null],
  [/pygames(-[0-9a-f]+)?\.(zip|tar\.gz)$/, 90, "Chargement des règles du jeu…"],
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
  [ownLoading]: [15, "Téléchargement de Python…"],
  [loadingPyodide]: [20, "Téléchargement de Python…"],
  [ownStarting]: [66, "Démarrage de Python…"],           // ordinary boot
  [ownRestoring]: [66, "Démarrage rapide de Python…"],   // from the memory snapshot
  [loadedPyodide]: [75, "Démarrage de Python…"],
  [loadingFiles]: [80, "Chargement des règles du jeu…"],
  [loadedFiles]: [92, "Préparation de la partie…"],
};
addEventListener(PROGRESS_EVENT, ({ detail }) => {
  const stage = stages[detail];
  if (stage) progress(...stage);
});

function fail(message) {
  if (document.body.dataset.ready) return;
  const panel = document.getElementById("error");
  const loading = document.getElementById("loading");
  if (!panel) return;
  document.getElementById("error-text").textContent = message;
  panel.hidden = false;
  if (loading) loading.hidden = true;
}
const BROKEN = "Le jeu n'a pas pu démarrer. Rechargez la page ; si le problème continue, videz le cache du site.";
addEventListener("error", (event) => {
  if (String(event.message || "").includes("PythonError") || event.target?.tagName === "SCRIPT") {
    fail(BROKEN);
  }
}, true);
// A start-up step that failed without anyone to catch it (Python's runtime missing or
// damaged, PyScript's config...): say so after a short grace (a late success wins), not
// after the 90 s below.
addEventListener("unhandledrejection", (event) => {
  if (document.body.dataset.ready) return;
  console.error("pygames: start-up failed:", event.reason);
  setTimeout(() => fail(BROKEN), 3000);
});
setTimeout(() => fail("Le chargement est anormalement long. Vérifiez la connexion (au premier passage) puis rechargez la page."), 90000);

document.getElementById("error-reload")?.addEventListener("click", () => location.reload());
const rules = document.getElementById("rules");
document.getElementById("open-rules")?.addEventListener("click", () => rules?.showModal());
