/* The colour theme, applied before the first paint (a classic script in <head>: it runs
   before the body is drawn). The player's choice is kept under localStorage
   "pygames:theme": "light" (Clair), "dark" (Sombre) or "auto" (follow the system's
   prefers-color-scheme); any other stored value counts as "auto". The result is
   <html data-theme="light|dark">, which style.css reads (its dark set of colours).
   The header's switch (<select id="theme-choice">) is bound once the page is parsed. */
(function () {
  "use strict";
  var KEY = "pygames:theme";
  var CHOICES = { light: 1, dark: 1, auto: 1 };
  var root = document.documentElement;
  var query = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return CHOICES.hasOwnProperty(value) ? value : "auto";
    } catch (e) {
      return "auto"; // storage refused (private mode, sandboxed frame)
    }
  }

  function apply(choice) {
    var dark = choice === "dark" || (choice === "auto" && !!query && query.matches);
    root.setAttribute("data-theme", dark ? "dark" : "light");
    root.setAttribute("data-theme-choice", choice);
  }

  apply(stored());
  if (query) {
    var follow = function () { apply(stored()); };
    if (query.addEventListener) query.addEventListener("change", follow);
    else if (query.addListener) query.addListener(follow);
  }
  // Another tab changed the theme: follow it.
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) apply(stored());
  });

  function bind() {
    var select = document.getElementById("theme-choice");
    if (!select) return;
    select.value = stored();
    select.addEventListener("change", function () {
      var choice = CHOICES.hasOwnProperty(select.value) ? select.value : "auto";
      try {
        window.localStorage.setItem(KEY, choice);
      } catch (e) { /* not kept, but applied to this page */ }
      apply(choice);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bind);
  else bind();
})();
