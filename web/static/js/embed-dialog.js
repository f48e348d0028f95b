// "Intégrer ce jeu" on a game page: shows the two snippets a blogger pastes (the loader
// script + div, or a plain iframe), with this deployment's absolute URLs, each with a copy
// button. Plain JS: it works before Python has loaded. The snippets are text for a
// textarea (set through .value), never markup put into this page.

const dialog = document.getElementById("embed");
const opener = document.getElementById("open-embed");
// The data-pygames value / embed-<page>.html of this page (the build writes it on <body>).
const GAME_PAGE = document.body.dataset.family || "yams";
const GAME_TITLE = document.querySelector("header.site h1")?.textContent || GAME_PAGE;
const IFRAME_HEIGHT = 720;
// The page's words (js/words.js, loaded before every script).
const t = (id, params) => (window.pygames?.t ? window.pygames.t(id, params) : id);

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return GAME_PAGE + "-" + Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}
// One per visit (two pasted iframes keep separate saves); drawn when first needed, not
// while the page starts.
let instance = null;

function attr(value) {
  return String(value).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

// The ruleset on screen: the game being played (set by the app), else the one picked in
// the setup, else ?game=, else the first.
function currentRuleset() {
  const picked = document.querySelector("input[name=ruleset]:checked");
  const onTable = !document.getElementById("table")?.hidden;
  return (onTable && document.body.dataset.game) || picked?.value
    || new URLSearchParams(location.search).get("game") || document.body.dataset.game || GAME_PAGE;
}

export function snippets(game = currentRuleset()) {
  const loader = new URL("../embed.js", import.meta.url).href;  // the site's root, from en/ too
  const page = new URL(`embed-${GAME_PAGE}.html`, location.href);
  page.searchParams.set("game", game);
  instance ??= randomId();
  page.searchParams.set("id", instance);
  // A page in another language than the reference (in its directory, <html data-root>)
  // gives its language to the loader: the frame is then that language's embed page.
  const lang = window.pygames?.language?.() || document.documentElement.lang;
  let langAttr = "";
  if (document.documentElement.dataset.root !== undefined) langAttr = ` data-lang="${attr(lang)}"`;
  return {
    loader: `<div data-pygames="${GAME_PAGE}" data-game="${attr(game)}"${langAttr}></div>`
      + `<script src="${attr(loader)}" defer></script>`,
    iframe: `<iframe src="${attr(page.href)}" title="${attr(t("page.embed.frame_title", { game: GAME_TITLE }))}" width="100%" `
      + `height="${IFRAME_HEIGHT}" style="border:0;max-width:100%" loading="lazy" `
      // As embed.js's frame: a script inside cannot navigate the host page.
      + `sandbox="allow-scripts allow-same-origin allow-forms allow-modals allow-popups `
      + `allow-popups-to-escape-sandbox"></iframe>`,
  };
}

async function copy(textarea, status) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(textarea.value);
    ok = true;
  } catch {
    textarea.focus();
    textarea.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
  }
  status.textContent = ok ? t("js.copy.done") : t("js.copy.selected");
  textarea.select();
}

if (dialog && opener) {
  opener.addEventListener("click", () => {
    const text = snippets();
    document.getElementById("embed-loader").value = text.loader;
    document.getElementById("embed-iframe").value = text.iframe;
    for (const status of dialog.querySelectorAll(".copied")) status.textContent = "";
    dialog.showModal();
  });
  for (const button of dialog.querySelectorAll("[data-copy]")) {
    const textarea = document.getElementById(button.dataset.copy);
    const status = button.parentNode.querySelector(".copied");
    button.addEventListener("click", () => copy(textarea, status));
    textarea.addEventListener("focus", () => textarea.select());
  }
}
