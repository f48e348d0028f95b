// Offline play: registers the service worker (sw.js, written by web/tools/build_sw.mjs) with
// workbox-window (vendored, pinned in package.json) and offers a new version when one is
// fully downloaded.  Every page includes it with one line:
//     <script type="module" src="js/register-sw.js"></script>
//
// * The worker precaches the whole site at the first visit and then serves it from the cache.
// * A new deployment is downloaded in the background while this version keeps running; once it
//   is complete (Workbox's `waiting`), a banner offers "Nouvelle version disponible —
//   recharger".  The click tells the waiting worker to take over (messageSkipWaiting) and every
//   page it served reloads when it has.
// * Not registered when the page is opened from file://, or with `?nosw` in the URL: then any
//   worker installed before for this site is removed as well (and the page reloads once if it
//   was served by it), so everything comes from the server -- handy while developing.
// * The first registration waits until the page has started (the game is ready, or the
//   page's load event), so that the ~20 MB download of the precache does not slow the first
//   game; workbox-window itself is loaded then, not before.
// * <html data-build="..."> tells which build is running (build-info.json's "build"), and
//   <html data-sw> says the registration and that check are done ("registered", or "off"
//   with ?nosw): what this script fetches in the background is then fetched.
// * A page served by the worker also compares that build with the deployed one
//   (build-info.json?live, from the server): when they differ it makes the browser fetch
//   sw.js afresh, a deployment whose sw.js a host answers 304 included (checkDeployed).

const SW_URL = new URL("../sw.js", import.meta.url);
const SCOPE = new URL("../", import.meta.url);
const WORKBOX = new URL(/* build: workbox_window */ "../vendor/workbox-window/workbox-window.prod.mjs", import.meta.url);
const sw = navigator.serviceWorker;
// The page's words (js/words.js, loaded before every script).
const t = (id, params) => (window.pygames?.t ? window.pygames.t(id, params) : id);

const BUILD_INFO = new URL("../build-info.json", import.meta.url);
// The deployed build, from the server itself: neither the HTTP cache (no-store) nor the
// worker's precache (`?live` is the one query parameter it does not ignore, see
// web/tools/build_sw.mjs).  null offline.
const LIVE_BUILD_INFO = new URL("?live", BUILD_INFO);

const buildOf = (url, init) => fetch(url, init)
  .then((r) => (r.ok ? r.json() : null))
  .then((info) => info?.build ?? null)
  .catch(() => null);

// The running build (what the worker serves, or the server without one), shown once the
// page has started.
const running = pageStarted().then(() => buildOf(BUILD_INFO)).then((build) => {
  if (build) document.documentElement.dataset.build = build;
  return build;
});

// The browser finds a new version by fetching sw.js, and only when its bytes differ.  A host
// that answers its check (If-Modified-Since) by modification time says 304 for a new
// deployment whose sw.js is older on disk, and the browser goes on with the old sw.js of its
// HTTP cache (updateViaCache "none" revalidates it, it does not refetch it).  So the page
// compares its build with the deployed one, and when they differ fetches sw.js afresh
// (cache "reload": no condition, and the HTTP cache gets the new one) before asking the
// browser to check again.
async function checkDeployed(wb) {
  if (!navigator.onLine) return;  // (offline for sure: no request bound to fail)
  const [mine, deployed] = await Promise.all([running, buildOf(LIVE_BUILD_INFO, { cache: "no-store" })]);
  if (!mine || !deployed || mine === deployed) return;
  await fetch(SW_URL, { cache: "reload" }).catch(() => {});
  await wb.update();
}

function offerUpdate(accept) {
  if (document.getElementById("update-banner")) return;
  const banner = document.createElement("div");
  banner.id = "update-banner";
  banner.className = "update-banner";
  banner.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = t("js.update.text");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = t("js.update.reload");
  button.addEventListener("click", () => {
    button.disabled = true;
    accept();
  });
  banner.append(text, button);
  // In the flow at the top of the page (after the skip link): it never covers the game.
  const skip = document.querySelector("body > .skip");
  if (skip) skip.after(banner); else document.body.prepend(banner);
}

// The page has started: a game page's shell gave its ready signal (<body data-ready>, README
// "window.pygames"), or a page without Python has loaded.
function pageStarted() {
  return new Promise((resolve) => {
    const body = document.body;
    if (document.querySelector('script[type="py"]') && !body.dataset.ready) {
      const watch = new MutationObserver(() => {
        if (body.dataset.ready) { watch.disconnect(); resolve(); }
      });
      watch.observe(body, { attributes: true, attributeFilter: ["data-ready"] });
      setTimeout(resolve, 30000); // Python did not start: still make the site available offline
    } else if (document.readyState === "complete") {
      resolve();
    } else {
      addEventListener("load", () => resolve(), { once: true });
    }
  });
}

async function register() {
  // Pages that were already served by a worker reload when a new one takes over: the click
  // in one tab updates every tab (the game is saved after every move).  Listened to from the
  // start, not from the registration on (Workbox's `controlling`), so that a tab still
  // starting is switched too.
  if (sw.controller) {
    let reloading = false;
    sw.addEventListener("controllerchange", () => {
      if (reloading) return;
      reloading = true;
      location.reload();
    });
  }
  // After the page has started: the first registration downloads the whole site, and a
  // later one checks sw.js for an update -- neither should compete with the start.
  await pageStarted();
  const { Workbox } = await import(WORKBOX.href);
  const wb = new Workbox(SW_URL.href, { scope: SCOPE.pathname, updateViaCache: "none" });
  // A worker waiting while this page has one (a first install never waits): a new version,
  // found by this tab or another.
  const offer = () => {
    if (sw.controller) offerUpdate(() => wb.messageSkipWaiting());
  };
  wb.addEventListener("waiting", offer);
  const reg = await wb.register({ immediate: true });
  // Workbox hears of the workers found from its registration on; one the browser was already
  // installing (its own update check when this page was opened) is watched here.
  const installing = reg.installing;
  installing?.addEventListener("statechange", () => {
    if (installing.state === "installed") offer();
  });
  // (The browser checked sw.js as it opened the page; a deployment it missed is found here.)
  const checked = sw.controller ? checkDeployed(wb).catch(() => {}) : Promise.resolve();
  checked.then(() => { document.documentElement.dataset.sw = "registered"; });
  // A page left open for hours still hears about a new version: check when it comes back.
  let lastCheck = Date.now();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - lastCheck > 600000) {
      lastCheck = Date.now();
      wb.update().then(() => checkDeployed(wb)).catch(() => {});
    }
  });
}

async function unregister() {
  const regs = await sw.getRegistrations();
  const ours = regs.filter((r) => r.scope === SCOPE.href);
  await Promise.all(ours.map((r) => r.unregister()));
  document.documentElement.dataset.sw = "off";
  // Served by the worker just removed: reload once, from the server (the flag stops a loop).
  if (!sw.controller) {
    sessionStorage.removeItem("pygames:nosw-reloaded");
  } else if (ours.length && !sessionStorage.getItem("pygames:nosw-reloaded")) {
    sessionStorage.setItem("pygames:nosw-reloaded", "1");
    location.reload();
  }
}

if (sw && location.protocol !== "file:") {
  const noSW = new URLSearchParams(location.search).has("nosw");
  (noSW ? unregister() : register()).catch((err) => console.warn("service worker:", err));
}
