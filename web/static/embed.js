/* pygames loader for other sites: turns each <div data-pygames="yams"> into the game's
 * embed page in an iframe, and fits each frame to its content. See README, "Embedding".
 *
 *   <div data-pygames="yams" data-game="yahtzee" data-players="Alice,Ordi:simple"></div>
 *   <script src="https://USER.github.io/REPO/embed.js" defer></script>
 *
 * Attributes of the div, all optional except data-pygames: data-game, data-options,
 * data-players, data-id (same meaning as the embed page's URL parameters), data-seed,
 * data-pace, data-height (initial height in px). Anything inside the div (a fallback link
 * for feed readers) is replaced by the frame.
 *
 * It touches nothing on the host page but those divs: no stylesheet, no global except
 * window.pygamesEmbed ({ scan() } for pages that add divs later), one "message" listener
 * that only takes heights from its own frames. The frame is another origin: the game
 * cannot reach the host page, nor the host page's CSS the game.
 */
(function () {
  "use strict";
  if (window.pygamesEmbed) {  // included twice: the first copy does the work
    window.pygamesEmbed.scan();
    return;
  }
  var script = document.currentScript;  // only defined while this script first runs
  var base = script && script.src ? script.src : location.href;
  var siteOrigin = new URL(base).origin;
  var PAGES = /* build: embed_pages */ {};  // written by web/tools/build.py
  var PARAMS = ["game", "options", "players", "seed", "pace"];  // and "id", below
  var DEFAULT_HEIGHT = 420;
  var frames = [];  // our iframes; heights are accepted from these only
  var done = typeof WeakSet === "function" ? new WeakSet() : null;
  var count = 0;

  // A short, stable tag of the host page, so that the n-th game of one post and the n-th
  // game of another keep separate saved games (FNV-1a of origin + path).
  function pageTag() {
    var text = location.origin + location.pathname, h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h.toString(36);
  }

  function important(node, property, value) {
    node.style.setProperty(property, value, "important");  // beats the host's !important rules
  }

  function build(div) {
    var kind = div.getAttribute("data-pygames");
    var page = Object.prototype.hasOwnProperty.call(PAGES, kind) ? PAGES[kind] : null;
    if (!page) {
      div.textContent = "pygames : jeu inconnu « " + String(kind).slice(0, 40) + " ».";
      return;
    }
    count += 1;
    var url = new URL(page.file, base);
    PARAMS.forEach(function (name) {
      var value = div.getAttribute("data-" + name);
      if (value !== null) url.searchParams.set(name, value);
    });
    var id = div.getAttribute("data-id");  // a wrong one is passed on: the frame says why
    url.searchParams.set("id", id !== null ? id : pageTag() + "-" + count);

    var frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = page.title;
    frame.loading = "lazy";
    // A frame of another origin cannot touch this page anyway; the sandbox also stops it
    // from navigating this page. Scripts, its own storage, forms (the rules dialog),
    // confirm() and the "pygames" link in a new tab are what the game needs.
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-modals " +
      "allow-popups allow-popups-to-escape-sandbox");
    var height = parseInt(div.getAttribute("data-height"), 10);
    important(frame, "display", "block");
    important(frame, "width", "100%");
    important(frame, "max-width", "100%");
    important(frame, "border", "0");
    important(frame, "height", (height > 0 ? height : DEFAULT_HEIGHT) + "px");
    frames.push(frame);
    div.replaceChildren ? div.replaceChildren(frame) : (div.textContent = "", div.appendChild(frame));
  }

  function scan() {
    var divs = document.querySelectorAll("[data-pygames]");
    for (var i = 0; i < divs.length; i++) {
      if (done ? done.has(divs[i]) : divs[i].querySelector("iframe")) continue;
      if (done) done.add(divs[i]);
      build(divs[i]);
    }
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.origin !== siteOrigin || !data || data.type !== "pygames:height") return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        var height = Math.round(Number(data.height));
        if (height > 0 && height < 100000) important(frames[i], "height", height + "px");
        return;
      }
    }
  });

  window.pygamesEmbed = { scan: scan };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scan);
  } else {
    scan();
  }
})();
