// Before Python: a saved game shown as it was last drawn, at once (a classic script at the
// end of <main>: it runs before the first paint). The shell (app/shell.py) calls
// pygames.early.storeView() after each redraw; this keeps a bounded JSON tree of the table
// (allow-listed tags and attributes, and text; never HTML) under pygames:<id>:view. On the
// next visit the tree is rebuilt with createElement and textContent only, so whatever a
// stored name holds stays text; it is inert, with a discreet "Réveil du jeu…" sign, and
// Python's shell calls pygames.early.release() first thing, then draws the live table in the
// same task. A stored view that does not match the saved game, or is damaged in any way, is
// ignored: the loading screen shows as before. js/setup-early.js uses the keys below.
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const MAX_TEXT = 200000;  // characters of the stored JSON
  const MAX_NODES = 6000;
  const MAX_DEPTH = 40;
  const MAX_VALUE = 400;  // characters of an attribute value
  const MAX_DATA = 4000;  // characters of a text node
  const DELAY_MS = 400;  // after a redraw: the dice have landed
  const TAGS = new Set((
    "div span p section header footer h2 h3 h4 strong em small b i bdi abbr ul ol li dl dt dd " +
    "table caption thead tbody tfoot tr th td colgroup col button output meter progress " +
    "figure figcaption details summary br hr kbd code sup sub mark time " +
    "label select option optgroup input fieldset legend"
  ).split(" "));
  const SVG_TAGS = new Set(["svg", "g", "line", "circle", "rect", "polyline"]);
  const ATTRS = new Set((
    "id class hidden title role colspan rowspan scope headers value max min low high optimum " +
    "disabled type lang dir open for selected checked placeholder inputmode size step maxlength"
  ).split(" "));
  const SVG_ATTRS = new Set(("class viewBox preserveAspectRatio focusable x1 y1 x2 y2 cx cy r x y " +
    "width height points").split(" "));
  const DATA_ARIA = /^(data|aria)-[a-z0-9-]{1,40}$/;
  const ID = /^[A-Za-z][\w-]{0,60}$/;
  const SVG_VALUE = /^[\w .,%-]{0,200}$/;
  const STYLES = /^(left|right|top|bottom|width|height|--[a-z0-9-]{1,30})$/;
  const STYLE_VALUE = /^-?\d{1,6}(\.\d{1,4})?(px|%|rem|em)?$/;

  const pygames = (window.pygames ??= {});
  const body = document.body;
  const family = body.dataset.family || "";
  const params = new URLSearchParams(location.search);
  // As app/embed.py's EmbedConfig.store_key.
  const suffix = body.hasAttribute("data-embed") ? `:${params.get("id") || "embed"}` : "";
  const replay = location.hash.startsWith("#replay=");  // a shared replay (app/replay_view.py)
  const keys = {
    match: `pygames:${family}:match${suffix}`,
    setup: `pygames:${family}:setup${suffix}`,
    view: `pygames:${family}:view${suffix}`,
  };

  function get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  }
  function put(key, value) {
    try { localStorage.setItem(key, value); return true; } catch { return false; }
  }
  function remove(key) {
    try { localStorage.removeItem(key); } catch { /* no storage */ }
  }

  // Which saved game a view belongs to: its length and FNV-1a hash.
  function digest(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    }
    return `${text.length}:${(h >>> 0).toString(16)}`;
  }

  // --- storing: the DOM as a tree [tag, {attributes}, [children], {style}?] -------------
  function allowed(svg, name, value) {
    if (typeof value !== "string" || value.length > MAX_VALUE) return false;
    if (DATA_ARIA.test(name)) return true;
    if (name === "id") return ID.test(value);
    return svg ? SVG_ATTRS.has(name) && SVG_VALUE.test(value) : ATTRS.has(name);
  }

  function serialise(node, depth, count) {
    if (node.nodeType === Node.TEXT_NODE) return node.data.slice(0, MAX_DATA);
    if (node.nodeType !== Node.ELEMENT_NODE || depth > MAX_DEPTH || ++count.n > MAX_NODES) return null;
    const svg = node.namespaceURI === SVG;
    const tag = node.localName;
    if (!(svg ? SVG_TAGS.has(tag) : TAGS.has(tag))) return null;
    const attrs = {};
    for (const { name, value } of node.attributes) {
      if (allowed(svg, name, value)) attrs[name] = value;
    }
    const kids = [];
    for (const child of node.childNodes) {
      const kid = serialise(child, depth + 1, count);
      if (kid !== null) kids.push(kid);
    }
    // What a control shows is a property, not an attribute: kept as the attribute.
    if (tag === "option") {
      if (node.selected) attrs.selected = ""; else delete attrs.selected;
    }
    if (tag === "input") {
      if (node.checked) attrs.checked = ""; else delete attrs.checked;
      if (node.value.length <= MAX_VALUE) attrs.value = node.value;
    }
    const out = [(svg ? "svg:" : "") + tag, attrs, kids];
    const style = {};
    let styled = false;
    for (const property of node.style ?? []) {
      const value = node.style.getPropertyValue(property).trim();
      if (STYLES.test(property) && STYLE_VALUE.test(value)) {
        style[property] = value;
        styled = true;
      }
    }
    if (styled) out.push(style);
    return out;
  }

  let timer = 0;
  function snapshot() {
    timer = 0;
    const saved = get(keys.match);
    if (saved === null) { remove(keys.view); return; }
    const shown = Array.from(document.querySelectorAll("#end, #table"))
      .filter((s) => !s.hidden && s.localName === "section");
    if (!shown.length) return;
    const count = { n: 0 };
    const tree = shown.map((s) => serialise(s, 0, count));
    const text = JSON.stringify({ v: 1, match: digest(saved), sections: tree });
    if (count.n > MAX_NODES || text.length > MAX_TEXT || !put(keys.view, text)) remove(keys.view);
  }

  function storeView() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(snapshot, DELAY_MS);
  }
  addEventListener("pagehide", () => {
    if (timer) { clearTimeout(timer); snapshot(); }
  });

  // --- showing it --------------------------------------------------------------------
  const bad = () => new Error("stored view");

  function build(item, depth, count, inSvg) {
    if (typeof item === "string") {
      if (item.length > MAX_DATA) throw bad();
      return document.createTextNode(item);
    }
    if (!Array.isArray(item) || item.length < 3 || item.length > 4 || depth > MAX_DEPTH
        || ++count.n > MAX_NODES || typeof item[0] !== "string") throw bad();
    const svg = item[0].startsWith("svg:");
    const tag = svg ? item[0].slice(4) : item[0];
    if (svg ? !SVG_TAGS.has(tag) || (!inSvg && tag !== "svg") : !TAGS.has(tag) || inSvg) throw bad();
    const [, attrs, kids, style] = item;
    if (!attrs || typeof attrs !== "object" || Array.isArray(attrs) || !Array.isArray(kids)) throw bad();
    const node = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (!allowed(svg, name, value)) throw bad();
      node.setAttribute(name, value);
    }
    if (style !== undefined) {
      if (!style || typeof style !== "object" || Array.isArray(style)) throw bad();
      for (const [property, value] of Object.entries(style)) {
        if (!STYLES.test(property) || typeof value !== "string" || !STYLE_VALUE.test(value)) throw bad();
        node.style.setProperty(property, value);
      }
    }
    for (const kid of kids) node.appendChild(build(kid, depth + 1, count, svg));
    return node;
  }

  let originals = [], copies = [], sign = null;

  function show() {
    if (params.has("fresh") || replay) return false;
    const saved = get(keys.match), raw = get(keys.view);
    if (saved === null || raw === null || raw.length > MAX_TEXT) return false;
    let sections;
    try {
      const data = JSON.parse(raw);
      if (!data || data.v !== 1 || data.match !== digest(saved) || !Array.isArray(data.sections)
          || !data.sections.length || data.sections.length > 2) throw bad();
      const count = { n: 0 };
      sections = data.sections.map((s) => {
        const node = build(s, 0, count, false);
        if (node.localName !== "section" || (node.id !== "table" && node.id !== "end")) throw bad();
        return node;
      });
      if (sections.length === 2 && sections[0].id === sections[1].id) throw bad();
    } catch {
      return false;  // damaged, or another game's: the loading screen, as without it
    }
    const table = document.getElementById("table");
    if (!table) return false;
    const ids = sections.map((s) => s.id);
    for (const id of ["table", "end"]) {  // in the page's order, to put them back
      const node = document.getElementById(id);
      if (node && ids.includes(id)) originals.push(node);
    }
    sign = document.createElement("p");
    sign.className = "waking";
    sign.setAttribute("role", "status");
    sign.textContent = pygames.t ? pygames.t("js.view.waking") : "";
    sign.setAttribute("elementtiming", "pygames-view");  // measured by e2e/bench/bench_early.py
    table.before(sign);
    for (const s of sections) {
      s.hidden = false;
      s.setAttribute("inert", "");
      s.setAttribute("aria-busy", "true");
      s.classList.add("early-view");
      for (const control of s.querySelectorAll("button, input, select")) control.disabled = true;
      table.before(s);
    }
    copies = sections;
    for (const node of originals) node.remove();
    const loading = document.getElementById("loading");
    if (loading) loading.hidden = true;
    body.dataset.early = "view";
    pygames.earlyAt = performance.now();
    return true;
  }

  // The live table takes the drawing's place (Python's shell, before it draws anything).
  function release() {
    if (!copies.length) return;
    const anchor = copies[0];
    for (const node of originals) anchor.before(node);
    for (const node of copies) node.remove();
    sign?.remove();
    copies = [];
    originals = [];
    body.dataset.earlyView = "released";
  }

  const busy = () => timer !== 0;  // a drawing waits to be stored (for the tests)

  pygames.early = { keys, replay, digest, storeView, busy, release };
  try {
    show();
  } catch {  // never stops the page: the loading screen, as without it
    release();
  }
  // Python failed to start (js/boot.js shows the error): no drawing that will never wake.
  const error = document.getElementById("error");
  if (error) {
    new MutationObserver(() => { if (!error.hidden) release(); })
      .observe(error, { attributes: true, attributeFilter: ["hidden"] });
  }
})();
