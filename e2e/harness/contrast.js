// Every colour pair a player reads on the page, computed from the styles (e2e/test_contrast.py).
// Returns {checked: {text, large, symbol, state}, failures: [...]}; a failure is
// {kind, path, text, fg, bg, ratio, required, why}.
//
// * Text: every non-blank text node of <body> whose element is drawn (checkVisibility, not
//   opacity 0), sr-only text and text off the page excepted; the ::before / ::after text of
//   every drawn element; the shown value of a <select>, a filled <input> or <textarea>.
//   Disabled controls are included, drawn as they are (their opacity counts).
// * Required: 4.5:1; large text (>= 24px, or >= 18.66px and bold) 3:1; a symbol (text with
//   no letter and no digit: ▶, ✓, ●, +, ★...) 3:1.
// * The background of a point: the ancestors from <html> down to the element, each one's
//   background-color and the colour stops of its background-image gradients composited in
//   turn (an ancestor whose box does not hold the point paints nothing there), each one's
//   opacity applied to all it holds.  Every stop of a gradient is a candidate: the worst
//   pair counts.  What cannot be computed (an image, a filter, a colour that is not sRGB) is
//   a failure, never a pass.
// * State (3:1): the fills, borders and outlines that tell a state (STATE below) against
//   their parent's paint at their centre: the best of the three counts (the worst fill
//   stop for a gradient).
(() => {
  "use strict";
  const STATE = [
    ".linotte .cell.placeable", ".linotte .cell.taken .pawn", ".linotte .seat.current",
    ".linotte .pawn", ".die[aria-pressed='true']", ".die[data-face='0']", ".roll-count i",
    ".choice:has(input:checked)", ".sheet td .box:not(:disabled)", ".track-row.current",
    ".sound-switch[aria-pressed='true']", ".coin", ".bar .fill", ".bar .ghost",
    ".linotte .cell.last .last-mark",
  ];
  const failures = [];
  const checked = {text: 0, large: 0, symbol: 0, state: 0};
  const WHITE = [255, 255, 255, 1];

  class Uncomputable extends Error {}

  function parseColor(text) {
    if (text === "transparent") return [0, 0, 0, 0];
    let m = /^rgba?\(([^)]*)\)$/.exec(text);
    if (m) {
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      if (p.length >= 3 && p.every((x) => !Number.isNaN(x))) return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = /^color\(srgb ([^)]*)\)$/.exec(text);
    if (m) {
      const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      if (p.length >= 3 && p.every((x) => !Number.isNaN(x)))
        return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    throw new Uncomputable(`colour "${text}"`);
  }
  const over = (top, back) => {  // `top` composited over the opaque `back`
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + back[i] * (1 - a)).concat([1]);
  };
  const mix = (back, front, alpha) => [0, 1, 2].map((i) => front[i] * alpha + back[i] * (1 - alpha)).concat([1]);
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");

  function gradientStops(image) {
    if (image === "none") return [];
    if (/url\(|image-set\(|element\(|paint\(|cross-fade\(/.test(image)) throw new Uncomputable("background image");
    const stops = image.match(/rgba?\([^)]*\)|color\(srgb [^)]*\)|\btransparent\b/g) || [];
    if (!stops.length) throw new Uncomputable(`background "${image.slice(0, 60)}"`);
    return stops.map(parseColor);
  }

  // One element's paint, read once: background colour, gradient stops, opacity, its box.
  const cache = new Map();
  function paintOf(el, pseudo) {
    const key = pseudo ? null : el;
    if (key && cache.has(key)) return cache.get(key);
    const cs = getComputedStyle(el, pseudo || null);
    if (cs.filter !== "none" && cs.filter !== "") throw new Uncomputable(`filter ${cs.filter}`);
    if (cs.mixBlendMode !== "normal") throw new Uncomputable(`mix-blend-mode ${cs.mixBlendMode}`);
    const info = {
      el, bg: parseColor(cs.backgroundColor), stops: gradientStops(cs.backgroundImage),
      opacity: Number(cs.opacity), box: cs.display === "contents" ? null : el.getBoundingClientRect(),
      whole: el === document.documentElement || el === document.body,
    };
    if (key) cache.set(key, info);
    return info;
  }
  function chainOf(el) {
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(paintOf(e));
    return chain;
  }
  const holds = (p, pt) => p.whole || (p.box && pt.x >= p.box.left && pt.x <= p.box.right &&
                                      pt.y >= p.box.top && pt.y <= p.box.bottom);
  function backgrounds(p, backdrop) {
    const base = over(p.bg, backdrop);
    return p.stops.length ? p.stops.map((s) => over(s, base)) : [base];
  }
  // Every colour the point can take: the chain painted from <html> down, then `ink` on top
  // (null: the background alone).  The same walk with and without ink pairs up index by index.
  function paint(chain, pt, ink, i = 0, backdrop = WHITE) {
    if (i === chain.length) return [ink ? over(ink, backdrop) : backdrop];
    const p = chain[i];
    const out = [];
    for (const b of holds(p, pt) ? backgrounds(p, backdrop) : [backdrop])
      for (const c of paint(chain, pt, ink, i + 1, b)) out.push(mix(backdrop, c, p.opacity));
    if (out.length > 256) throw new Uncomputable("too many gradient stops");
    return out;
  }

  function path(el) {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      let s = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(s + "#" + e.id); break; }
      s += [...e.classList].map((c) => "." + c).join("");
      for (const a of ["data-kind", "data-action", "data-face", "aria-pressed"])
        if (e.hasAttribute(a)) s += `[${a}="${e.getAttribute(a)}"]`;
      if (e.disabled) s += ":disabled";
      parts.unshift(s);
    }
    return parts.join(" > ");
  }

  function hiddenText(el) {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (e.classList.contains("sr-only")) return true;
      const cs = getComputedStyle(e);
      if (cs.clip !== "auto" && /rect\(0px,? 0px,? 0px,? 0px\)/.test(cs.clip)) return true;
    }
    return false;
  }
  const drawn = (el) => el.checkVisibility({opacityProperty: true, visibilityProperty: true,
                                           checkOpacity: true, checkVisibilityCSS: true});

  function required(cs, text) {
    if (!/[\p{L}\p{N}]/u.test(text)) return [3, "symbol"];
    const size = parseFloat(cs.fontSize);
    const bold = Number(cs.fontWeight) >= 700;
    if (size >= 24 || (size >= 18.66 && bold)) return [3, "large"];
    return [4.5, "text"];
  }

  function checkInk(el, chain, pt, cs, text, what) {
    const [need, kind] = required(cs, text);
    checked[kind] += 1;
    const record = (extra) => failures.push({kind, path: path(el) + (what ? " " + what : ""),
                                             text: text.trim().slice(0, 40), required: need, ...extra});
    try {
      const ink = parseColor(cs.color);
      const fgs = paint(chain, pt, ink);
      const bgs = paint(chain, pt, null);
      let worst = null;
      fgs.forEach((fg, i) => {
        const r = ratio(fg, bgs[i]);
        if (!worst || r < worst.r) worst = {r, fg, bg: bgs[i]};
      });
      if (worst.r < need)
        record({fg: hex(worst.fg), bg: hex(worst.bg), ratio: Math.round(worst.r * 100) / 100,
                why: `ink ${cs.color}`});
    } catch (err) {
      if (!(err instanceof Uncomputable)) throw err;
      record({fg: null, bg: null, ratio: null, why: "not computable: " + err.message});
    }
  }
  const centre = (r) => ({x: r.left + r.width / 2, y: r.top + r.height / 2});
  const offPage = (r) => r.right <= 0 || r.bottom <= -scrollY || r.width < 2 || r.height < 2;

  // --- text nodes ---
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest("script, style, noscript, template, select, option, textarea, svg")) continue;
    if (!drawn(el) || hiddenText(el)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = [...range.getClientRects()].find((r) => r.width >= 2 && r.height >= 2);
    if (!rect || offPage(rect)) continue;
    checkInk(el, chainOf(el), centre(rect), getComputedStyle(el), node.data, "");
  }

  // --- generated text (::before, ::after) and the values of form fields ---
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") || !drawn(el) || hiddenText(el)) continue;
    const box = el.getBoundingClientRect();
    for (const which of ["::before", "::after"]) {
      const cs = getComputedStyle(el, which);
      const strings = cs.content.split(" / ")[0].match(/"((?:[^"\\]|\\.)*)"/g);
      if (!strings || cs.display === "none" || cs.visibility !== "visible") continue;
      const text = strings.map((s) => JSON.parse(s)).join("");
      if (!text.trim()) continue;
      let pt = centre(box);
      if (cs.position === "absolute" || cs.position === "fixed") {
        const n = (v) => (v === "auto" ? null : parseFloat(v));
        const w = parseFloat(cs.width) || 0, h = parseFloat(cs.height) || 0;
        const x = n(cs.left) !== null ? box.left + n(cs.left) : box.right - (n(cs.right) || 0) - w;
        const y = n(cs.top) !== null ? box.top + n(cs.top) : box.bottom - (n(cs.bottom) || 0) - h;
        pt = {x: x + w / 2, y: y + h / 2};
      }
      let chain;
      try {
        chain = chainOf(el).concat([paintOf(el, which)]);
        chain[chain.length - 1] = {...chain[chain.length - 1], box: null, whole: true};
      } catch (err) {
        if (!(err instanceof Uncomputable)) throw err;
        failures.push({kind: "text", path: path(el) + " " + which, text, required: 4.5, fg: null,
                       bg: null, ratio: null, why: "not computable: " + err.message});
        continue;
      }
      checkInk(el, chain, pt, cs, text, which);
    }
    let value = null;
    if (el.tagName === "SELECT") value = el.selectedOptions[0]?.textContent || "";
    else if (el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && /^(text|search|number|email|url|tel|)$/.test(el.type)))
      value = el.value;
    if (value && value.trim() && box.width >= 2) checkInk(el, chainOf(el), centre(box), getComputedStyle(el), value, "(value)");
  }

  // --- fills and borders that tell a state ---
  for (const el of document.body.querySelectorAll(STATE.join(", "))) {
    if (!drawn(el) || hiddenText(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) continue;
    checked.state += 1;
    const record = (extra) => failures.push({kind: "state", path: path(el), text: el.textContent.trim().slice(0, 40),
                                             required: 3, ...extra});
    try {
      const cs = getComputedStyle(el);
      const chain = chainOf(el);
      const outside = chain.slice(0, -1);
      const pt = centre(box);
      // What is around it: its parent's paint at its centre.
      const around = paint(outside, pt, null);
      const fills = around.map((b, i) => {
        // Its fill: its background colour, or when it has none its gradient's stops (the
        // worst counts); a gradient over a colour draws on the fill (a die's pips).
        const self = chain[chain.length - 1];
        const own = self.bg[3] > 0 ? [over(self.bg, b)] : backgrounds(self, b);
        return own.map((f) => mix(b, f, chain[chain.length - 1].opacity)).concat([around[i]]);
      });
      let best = 0, pair = null;
      const borderWidth = parseFloat(cs.borderLeftWidth);
      const borderInk = borderWidth >= 1 && cs.borderLeftStyle !== "none" && cs.borderLeftStyle !== "hidden"
        ? parseColor(cs.borderLeftColor) : null;
      const outlineInk = parseFloat(cs.outlineWidth) >= 1 && cs.outlineStyle !== "none"
        ? parseColor(cs.outlineColor) : null;
      around.forEach((a, i) => {
        let worstFill = Infinity, fillPair = null;
        for (const f of fills[i].slice(0, -1)) {
          const r = ratio(f, a);
          if (r < worstFill) { worstFill = r; fillPair = [f, a]; }
        }
        let r = worstFill, p = fillPair;
        if (borderInk) {
          const edge = mix(a, over(borderInk, fills[i][0]), chain[chain.length - 1].opacity);
          const rb = ratio(edge, a);
          if (rb > r) { r = rb; p = [edge, a]; }
        }
        if (outlineInk) {  // drawn outside the border, over the surroundings
          const ring = mix(a, over(outlineInk, a), chain[chain.length - 1].opacity);
          const ro = ratio(ring, a);
          if (ro > r) { r = ro; p = [ring, a]; }
        }
        if (i === 0 || r < best) { best = r; pair = p; }
      });
      if (best < 3)
        record({fg: hex(pair[0]), bg: hex(pair[1]), ratio: Math.round(best * 100) / 100,
                why: "fill or border against its surroundings"});
    } catch (err) {
      if (!(err instanceof Uncomputable)) throw err;
      record({fg: null, bg: null, ratio: null, why: "not computable: " + err.message});
    }
  }
  return {checked, failures};
})
