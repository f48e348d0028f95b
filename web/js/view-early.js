// Before Python: a saved game shown as it was last drawn, at once (a classic script at the
// end of <main>: it runs before the first paint). The shell (app/shell.py) calls
// pygamesEarly.storeView() after each redraw; this keeps a bounded JSON tree of the table
// (allow-listed tags and attributes, and text; never HTML) under pygames:<id>:view. On the
// next visit the tree is rebuilt with createElement and textContent only, so whatever a
// stored name holds stays text; it is inert, with a discreet "Réveil du jeu…" sign, and
// Python's shell calls pygamesEarly.release() first thing, then draws the live table in the
// same task. A stored view that does not match the saved game, or is damaged in any way, is
// ignored: the loading screen shows as before. js/setup-early.js uses the keys below.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var MAX_TEXT = 200000;  // characters of the stored JSON
  var MAX_NODES = 6000;
  var MAX_DEPTH = 40;
  var MAX_VALUE = 400;  // characters of an attribute value
  var MAX_DATA = 4000;  // characters of a text node
  var DELAY_MS = 400;  // after a redraw: the dice have landed
  var TAGS = new Set((
    "div span p section header footer h2 h3 h4 strong em small b i bdi abbr ul ol li dl dt dd " +
    "table caption thead tbody tfoot tr th td colgroup col button output meter progress " +
    "figure figcaption details summary br hr kbd code sup sub mark time " +
    "label select option optgroup input fieldset legend"
  ).split(" "));
  var SVG_TAGS = new Set(["svg", "g", "line", "circle", "rect", "polyline"]);
  var ATTRS = new Set((
    "id class hidden title role colspan rowspan scope headers value max min low high optimum " +
    "disabled type lang dir open for selected checked placeholder inputmode size step maxlength"
  ).split(" "));
  var SVG_ATTRS = new Set(("class viewBox preserveAspectRatio focusable x1 y1 x2 y2 cx cy r x y " +
    "width height points").split(" "));
  var DATA_ARIA = /^(data|aria)-[a-z0-9-]{1,40}$/;
  var ID = /^[A-Za-z][\w-]{0,60}$/;
  var SVG_VALUE = /^[\w .,%-]{0,200}$/;
  var STYLES = /^(left|right|top|bottom|width|height|--[a-z0-9-]{1,30})$/;
  var STYLE_VALUE = /^-?\d{1,6}(\.\d{1,4})?(px|%|rem|em)?$/;

  var body = document.body;
  var family = body.dataset.family || "";
  var params = new URLSearchParams(location.search);
  var suffix = "";
  if (body.hasAttribute("data-embed")) {  // as app/embed.py's EmbedConfig.store_key
    suffix = ":" + (params.get("id") || "embed");
  }
  var replay = location.hash.indexOf("#replay=") === 0;  // a shared replay (app/replay_view.py)
  var keys = {
    match: "pygames:" + family + ":match" + suffix,
    setup: "pygames:" + family + ":setup" + suffix,
    view: "pygames:" + family + ":view" + suffix,
  };

  function get(key) {
    try { return window.localStorage.getItem(key); } catch (err) { return null; }
  }
  function put(key, value) {
    try { window.localStorage.setItem(key, value); return true; } catch (err) { return false; }
  }
  function remove(key) {
    try { window.localStorage.removeItem(key); } catch (err) { /* no storage */ }
  }

  // Which saved game a view belongs to: its length and FNV-1a hash.
  function digest(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    }
    return text.length + ":" + (h >>> 0).toString(16);
  }

  // --- storing: the DOM as a tree [tag, {attributes}, [children], {style}?] -------------
  function allowed(svg, name, value) {
    if (typeof value !== "string" || value.length > MAX_VALUE) return false;
    if (DATA_ARIA.test(name)) return true;
    if (name === "id") return ID.test(value);
    return svg ? SVG_ATTRS.has(name) && SVG_VALUE.test(value) : ATTRS.has(name);
  }

  function serialise(node, depth, count) {
    if (node.nodeType === 3) return node.data.slice(0, MAX_DATA);
    if (node.nodeType !== 1 || depth > MAX_DEPTH || ++count.n > MAX_NODES) return null;
    var svg = node.namespaceURI === SVG;
    var tag = node.localName;
    if (!(svg ? SVG_TAGS.has(tag) : TAGS.has(tag))) return null;
    var attrs = {};
    for (var i = 0; i < node.attributes.length; i++) {
      var a = node.attributes[i];
      if (allowed(svg, a.name, a.value)) attrs[a.name] = a.value;
    }
    var kids = [];
    for (var c = node.firstChild; c; c = c.nextSibling) {
      var k = serialise(c, depth + 1, count);
      if (k !== null) kids.push(k);
    }
    // What a control shows is a property, not an attribute: kept as the attribute.
    if (tag === "option") { if (node.selected) attrs.selected = ""; else delete attrs.selected; }
    if (tag === "input") {
      if (node.checked) attrs.checked = ""; else delete attrs.checked;
      if (node.value.length <= MAX_VALUE) attrs.value = node.value;
    }
    var out = [(svg ? "svg:" : "") + tag, attrs, kids];
    var style = {}, styled = false;
    if (node.style) {
      for (var j = 0; j < node.style.length; j++) {
        var p = node.style[j], v = node.style.getPropertyValue(p).trim();
        if (STYLES.test(p) && STYLE_VALUE.test(v)) { style[p] = v; styled = true; }
      }
    }
    if (styled) out.push(style);
    return out;
  }

  var timer = 0;
  function snapshot() {
    timer = 0;
    var saved = get(keys.match);
    if (saved === null) { remove(keys.view); return; }
    var shown = Array.prototype.filter.call(document.querySelectorAll("#end, #table"),
      function (s) { return !s.hidden && s.localName === "section"; });
    if (!shown.length) return;
    var count = { n: 0 };
    var tree = shown.map(function (s) { return serialise(s, 0, count); });
    var text = JSON.stringify({ v: 1, match: digest(saved), sections: tree });
    if (count.n > MAX_NODES || text.length > MAX_TEXT || !put(keys.view, text)) remove(keys.view);
  }

  function storeView() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(snapshot, DELAY_MS);
  }
  addEventListener("pagehide", function () {
    if (timer) { clearTimeout(timer); snapshot(); }
  });

  // --- showing it --------------------------------------------------------------------
  function bad() { return new Error("stored view"); }

  function build(item, depth, count, inSvg) {
    if (typeof item === "string") {
      if (item.length > MAX_DATA) throw bad();
      return document.createTextNode(item);
    }
    if (!Array.isArray(item) || item.length < 3 || item.length > 4 || depth > MAX_DEPTH
        || ++count.n > MAX_NODES || typeof item[0] !== "string") throw bad();
    var svg = item[0].slice(0, 4) === "svg:";
    var tag = svg ? item[0].slice(4) : item[0];
    if (svg ? !SVG_TAGS.has(tag) || (!inSvg && tag !== "svg") : !TAGS.has(tag) || inSvg) throw bad();
    var attrs = item[1], kids = item[2], style = item[3];
    if (!attrs || typeof attrs !== "object" || Array.isArray(attrs) || !Array.isArray(kids)) throw bad();
    var node = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
    Object.keys(attrs).forEach(function (name) {
      var value = attrs[name];
      if (!allowed(svg, name, value)) throw bad();
      node.setAttribute(name, value);
    });
    if (style !== undefined) {
      if (!style || typeof style !== "object" || Array.isArray(style)) throw bad();
      Object.keys(style).forEach(function (p) {
        if (!STYLES.test(p) || typeof style[p] !== "string" || !STYLE_VALUE.test(style[p])) throw bad();
        node.style.setProperty(p, style[p]);
      });
    }
    kids.forEach(function (k) { node.appendChild(build(k, depth + 1, count, svg)); });
    return node;
  }

  var originals = [], copies = [], sign = null;

  function show() {
    if (params.has("fresh") || replay) return false;
    var saved = get(keys.match), raw = get(keys.view);
    if (saved === null || raw === null || raw.length > MAX_TEXT) return false;
    var sections;
    try {
      var data = JSON.parse(raw);
      if (!data || data.v !== 1 || data.match !== digest(saved) || !Array.isArray(data.sections)
          || !data.sections.length || data.sections.length > 2) throw bad();
      var count = { n: 0 };
      sections = data.sections.map(function (s) {
        var node = build(s, 0, count, false);
        if (node.localName !== "section" || (node.id !== "table" && node.id !== "end")) throw bad();
        return node;
      });
      if (sections.length === 2 && sections[0].id === sections[1].id) throw bad();
    } catch (err) {
      return false;  // damaged, or another game's: the loading screen, as without it
    }
    var table = document.getElementById("table");
    if (!table) return false;
    var ids = sections.map(function (s) { return s.id; });
    ["table", "end"].forEach(function (id) {  // in the page's order, to put them back
      var node = document.getElementById(id);
      if (node && ids.indexOf(id) >= 0) originals.push(node);
    });
    sign = document.createElement("p");
    sign.className = "waking";
    sign.setAttribute("role", "status");
    sign.textContent = "Réveil du jeu…";
    sign.setAttribute("elementtiming", "pygames-view");  // measured by e2e/bench/bench_early.py
    table.parentNode.insertBefore(sign, table);
    sections.forEach(function (s) {
      s.hidden = false;
      s.setAttribute("inert", "");
      s.setAttribute("aria-busy", "true");
      s.classList.add("early-view");
      s.querySelectorAll("button, input, select").forEach(function (b) { b.disabled = true; });
      table.parentNode.insertBefore(s, table);
    });
    copies = sections;
    originals.forEach(function (node) { node.remove(); });
    var loading = document.getElementById("loading");
    if (loading) loading.hidden = true;
    body.dataset.early = "view";
    window.pygamesEarlyAt = performance.now();
    return true;
  }

  // The live table takes the drawing's place (Python's shell, before it draws anything).
  function release() {
    if (!copies.length) return;
    var anchor = copies[0];
    originals.forEach(function (node) { anchor.parentNode.insertBefore(node, anchor); });
    copies.forEach(function (node) { node.remove(); });
    if (sign) sign.remove();
    copies = [];
    originals = [];
    body.dataset.earlyView = "released";
  }

  function busy() { return timer !== 0; }  // a drawing waits to be stored (for the tests)

  window.pygamesEarly = { keys: keys, replay: replay, digest: digest, storeView: storeView, busy: busy, release: release };
  try {
    show();
  } catch (err) {  // never stops the page: the loading screen, as without it
    release();
  }
  // Python failed to start (js/boot.js shows the error): no drawing that will never wake.
  var error = document.getElementById("error");
  if (error && "MutationObserver" in window) {
    new MutationObserver(function () { if (!error.hidden) release(); })
      .observe(error, { attributes: true, attributeFilter: ["hidden"] });
  }
})();
