// The page's words for its scripts, and its language: a classic script in <head>, right after
// the page's catalogue (<script type="application/json" id="catalogue">, written by
// web/tools/pages.py from pygames/locale/<lang>.json), so that every script after it, the
// early ones too (js/setup-early.js, js/view-early.js), says its words in the page's language.
//
// * pygames.t(id, params): a catalogue entry, its {fields} filled with params (a field may
//   name the filter "n", thousands: {points|n}); a plural entry takes its form from params.n
//   under the catalogue's plural rule (the rules of pygames/messages.py PLURAL_RULES). An id
//   the catalogue lacks shows as itself, never a crash.
// * The header's language switch (parts/language-switch.html): following it keeps the choice
//   in localStorage "pygames:lang" (beside "pygames:theme" and "pygames:prefs").
// * The home page at the root (<html data-home="root">): a visitor who has not chosen goes to
//   the version in the first of navigator.languages the site speaks (English: en/); one who
//   has chosen, to the chosen one. Other pages never move: their URL says their language.
(() => {
  "use strict";
  const pygames = (window.pygames ??= {});
  const KEY = "pygames:lang";
  const RULES = {
    "(n > 1)": (n) => Number(Math.abs(n) > 1),   // French: 0 and 1 take the singular
    "(n != 1)": (n) => Number(Math.abs(n) !== 1), // English
  };
  let catalogue = null;

  function read() {
    if (catalogue) return catalogue;
    const node = document.getElementById("catalogue");
    let data = null;
    try { data = node ? JSON.parse(node.textContent) : null; } catch { data = null; }
    if (data && typeof data.messages === "object" && data.messages) catalogue = data;
    return data || { messages: {} };
  }

  function thousands(value) {
    const text = String(value);
    const match = /^([-−]?)(\d{4,})$/.exec(text);
    if (!match) return text;
    const sep = read().messages["format.thousands"];
    return match[1] + match[2].replace(/\B(?=(\d{3})+$)/g, typeof sep === "string" ? sep : " ");
  }

  function t(id, params = {}) {
    const data = read();
    let entry = Object.hasOwn(data.messages, id) ? data.messages[id] : id;
    if (Array.isArray(entry)) {
      const rule = RULES[data.plural] || RULES["(n > 1)"];
      const n = typeof params.n === "number" ? params.n : 0;
      entry = entry[Math.min(rule(n), entry.length - 1)];
    }
    return String(entry).replace(/\{(\w+)(?:\|(\w+))?\}/g, (field, key, filter) => {
      if (!Object.hasOwn(params, key)) return field;
      return filter === "n" ? thousands(params[key]) : String(params[key]);
    });
  }

  pygames.t = t;
  pygames.language = () => read().language || document.documentElement.lang;

  function stored() {
    try { return localStorage.getItem(KEY); } catch { return null; }
  }

  // The page in the language asked: its alternate link's relative href (data-href when the
  // href is the deployed site's full URL: a copy of the site elsewhere stays on its own).
  function versions() {
    const found = {};
    for (const link of document.querySelectorAll('link[rel="alternate"][hreflang]')) {
      const code = link.getAttribute("hreflang");
      if (code !== "x-default") found[code] = link.dataset.href ?? link.getAttribute("href");
    }
    return found;
  }

  // The first visit of the home page at the root: the visitor's language, or the chosen one.
  const root = document.documentElement;
  if (root.dataset.home === "root") {
    const offered = versions();
    let wanted = stored();
    if (!Object.hasOwn(offered, wanted || "")) {
      wanted = null;
      for (const tag of navigator.languages || [navigator.language || ""]) {
        const code = String(tag).toLowerCase().split("-")[0];
        if (Object.hasOwn(offered, code)) { wanted = code; break; }
      }
    }
    if (wanted && wanted !== root.lang && Object.hasOwn(offered, wanted)) {
      const url = new URL(offered[wanted], location.href);
      url.search = location.search;
      url.hash = location.hash;
      location.replace(url.href);
    }
  }

  // The switch followed (a click, or Enter on the link): the choice is kept.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("a.language-switch[data-language]");
    if (!link) return;
    try { localStorage.setItem(KEY, link.dataset.language); } catch { /* not kept */ }
  });
})();
