/* The colour theme, applied before the first paint (a classic script in <head>: it runs
   before the body is drawn). The player's choice is kept under localStorage
   "pygames:theme": "light" (Clair), "dark" (Sombre) or "auto" (follow the system's
   prefers-color-scheme); any other stored value counts as "auto". The result is
   <html data-theme="light|dark">, which style.css reads (its dark set of colours).
   The header's switch (<select id="theme-choice">) is bound once the page is parsed. */
(() => {
  "use strict";
  const KEY = "pygames:theme";
  const CHOICES = new Set(["light", "dark", "auto"]);
  const root = document.documentElement;
  const query = matchMedia("(prefers-color-scheme: dark)");

  function stored() {
    try {
      const value = localStorage.getItem(KEY);
      return CHOICES.has(value) ? value : "auto";
    } catch {
      return "auto"; // storage refused (private mode, sandboxed frame)
    }
  }

  function apply(choice) {
    const dark = choice === "dark" || (choice === "auto" && query.matches);
    root.setAttribute("data-theme", dark ? "dark" : "light");
    root.setAttribute("data-theme-choice", choice);
  }

  apply(stored());
  query.addEventListener("change", () => apply(stored()));
  // Another tab changed the theme: follow it.
  addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) apply(stored());
  });

  function bind() {
    const select = document.getElementById("theme-choice");
    if (!select) return;
    select.value = stored();
    select.addEventListener("change", () => {
      const choice = CHOICES.has(select.value) ? select.value : "auto";
      try {
        localStorage.setItem(KEY, choice);
      } catch { /* not kept, but applied to this page */ }
      apply(choice);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
  else bind();
})();
