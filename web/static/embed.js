/* pygames loader for other sites: turns each <div data-pygames="yams"> into the game's
 * embed page in an iframe, and fits each frame to its content. See README, "Embedding".
 *
 *   <div data-pygames="yams" data-game="yahtzee" data-players="Alice,Ordi:simple"></div>
 *   <script src="https://USER.github.io/REPO/embed.js" defer></script>
 *
 * Attributes of the div, all optional except data-pygames: data-game, data-options,
 * data-players, data-id, data-dice="real" (same meaning as the embed page's URL parameters), data-seed,
 * data-pace, data-height (initial height in px), data-lang (the game's language: "fr", the
 * default, or "en"; the frame is then the embed page of that language's directory,
 * en/embed-yams.html). Anything inside the div (a fallback link
 * for feed readers) is replaced by the frame.
 *
 * It touches nothing on the host page but those divs: no stylesheet, no global except
 * window.pygamesEmbed ({ scan() } for pages that add divs later), one "message" listener
 * that only takes heights from its own frames. The frame is another origin: the game
 * cannot reach the host page, nor the host page's CSS the game.
 *
 * The host page may already use the name pygamesEmbed (an element id="pygamesEmbed", which
 * the browser shows as window.pygamesEmbed, or a script's own value): the loader works all
 * the same. It knows a copy of itself by a registered symbol, not by that name; it takes the
 * name over an element's, and leaves a script's value alone (its API is then
 * window[Symbol.for("pygames.embed")]).
 *
 * Why it differs from the site's other scripts: it runs on other people's pages, from a
 * snippet they have already pasted. So it stays a classic script (the snippet's
 * <script src defer>; document.currentScript, which gives the site's URL, exists only in
 * classic scripts) wrapped in a function, so that none of its names reach the host page,
 * and its one global is window.pygamesEmbed, not the site's window.pygames.
 */
(() => {
  "use strict";
  const KEY = Symbol.for("pygames.embed");
  if (window[KEY]) {  // included twice: the first copy does the work
    window[KEY].scan();
    return;
  }
  const script = document.currentScript;  // only defined while this script first runs
  const base = script?.src || location.href;
  const siteOrigin = new URL(base).origin;
  // Written by web/tools/build.py: {languages: {fr: {yams: {file, title}}, en: …}, unknown: {fr: …},
  // reference: "fr"} (the language of a div without data-lang).
  const EMBED = /* build: embed_pages */ {};
  const LANGUAGES = EMBED.languages || {};
  const PARAMS = ["game", "options", "players", "seed", "pace", "dice"];  // and "id", below
  const DEFAULT_HEIGHT = 420;
  const frames = [];  // our iframes; heights are accepted from these only
  const done = new WeakSet();
  let count = 0;

  // A short, stable tag of the host page, so that the n-th game of one post and the n-th
  // game of another keep separate saved games (FNV-1a of origin + path).
  function pageTag() {
    const text = location.origin + location.pathname;
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(36);
  }

  function important(node, property, value) {
    node.style.setProperty(property, value, "important");  // beats the host's !important rules
  }

  // The div's data-lang ("en", "en-GB"), if the site speaks it; else the reference's.
  function language(div) {
    const wanted = String(div.getAttribute("data-lang") || "").trim().toLowerCase().split("-")[0];
    return Object.hasOwn(LANGUAGES, wanted) ? wanted : EMBED.reference;
  }

  function build(div) {
    const kind = div.getAttribute("data-pygames");
    const lang = language(div);
    const pages = LANGUAGES[lang] || {};
    const page = Object.hasOwn(pages, kind) ? pages[kind] : null;
    if (!page) {
      const words = (EMBED.unknown && EMBED.unknown[lang]) || "pygames: unknown game {kind}";
      div.textContent = words.split("{kind}").join(String(kind).slice(0, 40));
      return;
    }
    count += 1;
    const url = new URL(page.file, base);
    for (const name of PARAMS) {
      const value = div.getAttribute(`data-${name}`);
      if (value !== null) url.searchParams.set(name, value);
    }
    const id = div.getAttribute("data-id");  // a wrong one is passed on: the frame says why
    url.searchParams.set("id", id !== null ? id : `${pageTag()}-${count}`);

    const frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = page.title;
    frame.loading = "lazy";
    // A frame of another origin cannot touch this page anyway; the sandbox also stops it
    // from navigating this page. Scripts, its own storage, forms (the rules dialog),
    // confirm() and the "pygames" link in a new tab are what the game needs.
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-modals " +
      "allow-popups allow-popups-to-escape-sandbox");
    const height = parseInt(div.getAttribute("data-height"), 10);
    important(frame, "display", "block");
    important(frame, "width", "100%");
    important(frame, "max-width", "100%");
    important(frame, "border", "0");
    important(frame, "height", `${height > 0 ? height : DEFAULT_HEIGHT}px`);
    frames.push(frame);
    div.replaceChildren(frame);
  }

  function scan() {
    for (const div of document.querySelectorAll("[data-pygames]")) {
      if (done.has(div)) continue;
      done.add(div);
      build(div);
    }
  }

  addEventListener("message", (event) => {
    const data = event.data;
    if (event.origin !== siteOrigin || !data || data.type !== "pygames:height") return;
    const frame = frames.find((f) => f.contentWindow === event.source);
    if (!frame) return;
    const height = Math.round(Number(data.height));
    if (height > 0 && height < 100000) important(frame, "height", `${height}px`);
  });

  const api = Object.freeze({ scan });
  Object.defineProperty(window, KEY, { value: api });
  // The public name, unless the host's own script holds it (an element's is only a default).
  const held = Object.getOwnPropertyDescriptor(window, "pygamesEmbed");
  if (!held || held.configurable) {
    const current = held ? held.value : window.pygamesEmbed;
    if (current === undefined || current instanceof Element || current instanceof HTMLCollection) {
      try {
        window.pygamesEmbed = api;
      } catch {
        // not writable after all: the symbol still works
      }
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
