// Before Python: a saved game shown as it was last drawn, at once (a classic script at the
// end of <main>: it runs before the first paint). The shell (app/shell.py) calls
// pygames.early.storeView() after each redraw; this keeps a bounded JSON tree of the table
// (allow-listed tags and attributes, and text; never HTML) under pygames:<id>:view. On the
// next visit the tree is rebuilt with createElement and textContent only, so whatever a
// stored name holds stays text. A stored view that does not match the saved game, or is
// damaged in any way, is ignored: the loading screen shows as before. js/setup-early.js uses
// the keys below.
//
// * While Python wakes, the drawing says so (a status line, "Réveil du jeu…") and keeps
//   what the player does: a tap on a control of the drawing, a key off the form fields
//   (the shell's own shortcuts), in order. The shell (app/shell.py) calls release() first
//   thing, draws the live table in the same task, and once it is ready calls play(): the
//   taps and keys are played then, one after the other, as the player made them.
// * The drawing is adopted, not replaced: release() makes it the page's own sections as the
//   build wrote them (what the shell expects to bind and draw), in place: every element of
//   the drawing that the build has too (same id and tag, or same tag at the same place)
//   stays, emptied to the build's attributes and children, and is never taken out of the
//   page. The text painted early (the page's largest paint, what Lighthouse's LCP counts)
//   thus stays the same node, never painted anew, once Python has drawn in it.
// * `painted`: a promise, settled once the page before Python (this drawing, or the setup,
//   js/setup-early.js) is on screen: Python's runtime (js/pyodide-fast.mjs) downloads
//   nothing before it, so that its megabytes never delay that paint.
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

  // --- the first paint of the page before Python ----------------------------------------
  // Element Timing of the marked text (this script's sign, setup-early.js's title); a frame
  // after DOMContentLoaded where it is not supported or nothing is marked (the loading screen),
  // at once in a hidden tab (no frames there), and after 2 s in any case.
  const painted = new Promise((resolve) => {
    const done = () => resolve(performance.now());
    setTimeout(done, 2000);
    if (document.visibilityState === "hidden") { done(); return; }
    addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") done(); });
    const timed = typeof PerformanceObserver === "function"
      && (PerformanceObserver.supportedEntryTypes || []).includes("element");
    if (timed) {
      new PerformanceObserver((list, observer) => {
        if (list.getEntries().some((e) => e.identifier.startsWith("pygames-"))) {
          observer.disconnect();
          done();
        }
      }).observe({ type: "element", buffered: true });
    }
    const frame = () => requestAnimationFrame(() => setTimeout(done, 0));
    const loaded = () => {
      if (!timed || !document.querySelector("[elementtiming^='pygames-']:not([hidden])")) frame();
    };
    if (document.readyState === "loading") addEventListener("DOMContentLoaded", loaded, { once: true });
    else loaded();
  });

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
  const queue = [];  // what the player did while Python woke: {tap: where} or {key: {...}}
  let playing = false;

  let retrying = false;  // a download tried again (js/pyodide-fast.mjs): said while waking
  function say() {
    if (!sign || !pygames.t) return;
    sign.textContent = queue.length ? pygames.t("js.view.queued", { n: queue.length })
      : pygames.t(retrying ? "js.boot.retrying" : "js.view.waking");
  }
  addEventListener("pygames:retrying", () => {
    retrying = true;
    say();
  });

  // Where a node is: the nearest element with an id (itself or above), and the path of child
  // places from there; with its tag, and the action it showed (data-action) when it has no id
  // of its own, checked when it is found again (a control with an id is that control, whatever
  // it plays by then: Lancer after a die was kept).
  function where(node) {
    const path = [];
    let at = node;
    while (at && !at.id) {
      const parent = at.parentElement;
      if (!parent) return null;
      path.unshift(Array.prototype.indexOf.call(parent.children, at));
      at = parent;
    }
    if (!at) return null;
    return { id: at.id, path, tag: node.localName, action: path.length ? node.getAttribute("data-action") : null };
  }
  function find(place) {
    let node = document.getElementById(place.id);
    for (const i of place.path) node = node?.children[i];
    return node && node.localName === place.tag
      && (!place.path.length || node.getAttribute("data-action") === place.action) ? node : null;
  }

  const CONTROL = "button, [data-action], [data-die], [role=button]";
  const FIELD = "input, select, textarea, [contenteditable]";

  // A tap on a control of the drawing: kept (the drawing's own controls do nothing).
  function onTap(event) {
    if (!copies.length) return;
    const target = event.target;
    if (!copies.some((s) => s.contains(target))) return;
    event.preventDefault();
    event.stopPropagation();
    const control = target.closest?.(CONTROL);
    const place = control && !control.matches(FIELD) ? where(control) : null;
    if (place) { queue.push({ tap: place }); say(); }
  }

  // A key the shell may take (app/shell.py _on_key): not with Ctrl, Alt or Meta, not Tab,
  // not typed into a field; Space and Enter on a control of the drawing are its tap.
  function onKey(event) {
    if (!copies.length || event.ctrlKey || event.altKey || event.metaKey || event.isComposing
        || event.repeat) return;
    const { key, code, shiftKey } = event;
    if (key === "Tab" || key === "Escape" || ["Shift", "Control", "Alt", "Meta"].includes(key)) return;
    const target = event.target;
    if (target?.closest?.(FIELD) || target?.closest?.("dialog[open]")) return;
    if ([" ", "Enter"].includes(key) && target?.closest?.(CONTROL)) return;
    if (key.length === 1 || [" ", "Enter"].includes(key)) event.preventDefault();  // no scrolling
    queue.push({ key: { key, code, shiftKey } });
    say();
  }

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
    const places = sections.map((s) => document.getElementById(s.id));
    if (places.some((node) => !node || node.localName !== "section")) return false;
    sign = document.createElement("p");
    sign.className = "waking";
    sign.setAttribute("role", "status");  // polite
    sign.setAttribute("elementtiming", "pygames-view");  // measured by e2e/bench/bench_early.py
    say();
    places[0].before(sign);
    sections.forEach((s, i) => {
      s.hidden = false;
      s.setAttribute("aria-busy", "true");
      s.classList.add("early-view");
      // Typing waits for the live fields; the controls take taps (kept, see onTap).
      for (const field of s.querySelectorAll("input, select, textarea")) field.disabled = true;
      places[i].replaceWith(s);  // the drawing in the page's own section's place
    });
    copies = sections;
    originals = places;
    const loading = document.getElementById("loading");
    if (loading) loading.hidden = true;
    addEventListener("click", onTap, true);
    addEventListener("keydown", onKey, true);
    body.dataset.early = "view";
    pygames.earlyAt = performance.now();
    return true;
  }

  // The live table takes the drawing's place (Python's shell, before it draws anything): the
  // page's sections as the build wrote them, made of the drawing's own nodes wherever the two
  // agree, each emptied to the build's attributes and children. An element agrees when it has
  // the same id and tag, or, without an id, the same tag at the same place among its parent's
  // elements (a drawing's element that agrees with none is dropped; a build's that agrees with
  // none is put in). The drawing's nodes stay in the page, in place: a node taken out and put
  // back is painted anew, and the browser counts it as a new largest paint when it is any
  // larger than it was (the Dé Landais' throw, a few pixels wider once the waking line is
  // gone: Lighthouse's LCP at Python's ready). The drawn sections stay shown (the shell shows
  // its screen: no section hidden and shown again in between), unless `shown` is false.
  function release(shown = true) {
    removeEventListener("click", onTap, true);
    removeEventListener("keydown", onKey, true);
    if (!copies.length) return;
    const drawn = new Map();  // id -> the drawing's element (the first one)
    for (const s of copies) {
      for (const node of [s, ...s.querySelectorAll("[id]")]) {
        if (!drawn.has(node.id)) drawn.set(node.id, node);
      }
    }
    sign?.remove();
    originals.forEach((section, i) => {
      drawn.delete(section.id);
      adopt(copies[i], section, drawn, shown);
    });
    copies = [];
    originals = [];
    body.dataset.earlyView = "released";
  }

  const agree = (a, b) => a.localName === b.localName && a.namespaceURI === b.namespaceURI;

  // The drawing's `copy` (in the page) becomes the build's `node`: its attributes, and its
  // children, each element of them being the drawing's own that agrees (adopted in turn) or
  // else the build's; the children already in place are not moved.
  function adopt(copy, node, drawn, shown) {
    const keep = (name) => !(shown && name === "hidden");
    for (const name of copy.getAttributeNames()) {
      if (!node.hasAttribute(name) && keep(name)) copy.removeAttribute(name);
    }
    for (const { name, value } of node.attributes) {
      if (keep(name) && copy.getAttribute(name) !== value) copy.setAttribute(name, value);
    }
    const here = Array.from(copy.children);
    let place = 0;
    const wanted = Array.from(node.childNodes, (child) => {
      if (child.nodeType !== Node.ELEMENT_NODE) return child;
      const mine = here[place++];
      let match = child.id ? drawn.get(child.id) : mine && !mine.id ? mine : null;
      if (!match || !agree(match, child) || match.contains(copy)) return child;
      if (child.id) drawn.delete(child.id);
      adopt(match, child, drawn, false);
      return match;
    });
    const kept = new Set(wanted);
    for (const old of Array.from(copy.childNodes)) {
      if (!kept.has(old)) old.remove();
    }
    let at = copy.firstChild;
    for (const child of wanted) {
      if (child === at) at = at.nextSibling;
      else copy.insertBefore(child, at);
    }
  }

  // What the player did while Python woke, played in order (the shell calls it once ready):
  // a tap clicks the same control of the live table (when it is there, the same action),
  // a key goes to the page as the shell's shortcut. One per task: each one's drawing first.
  async function play() {
    if (playing) return;
    playing = true;
    while (queue.length) {
      const item = queue.shift();
      if (item.tap) {
        const node = find(item.tap);
        if (node && !node.disabled && !node.closest("[hidden], [inert]")) node.click();
      } else {  // (made off any control: the page's, not the focused button's)
        body.dispatchEvent(new KeyboardEvent("keydown", { ...item.key, bubbles: true, cancelable: true }));
      }
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    playing = false;
    body.dataset.earlyPlayed = "1";
  }

  const busy = () => timer !== 0;  // a drawing waits to be stored (for the tests)

  pygames.early = { keys, replay, digest, storeView, busy, release, play, painted };
  try {
    show();
  } catch {  // never stops the page: the loading screen, as without it
    release(false);
  }
  // Python failed to start (js/boot.js shows the error): no drawing that will never wake.
  const error = document.getElementById("error");
  if (error) {
    new MutationObserver(() => { if (!error.hidden) release(false); })
      .observe(error, { attributes: true, attributeFilter: ["hidden"] });
  }
})();
