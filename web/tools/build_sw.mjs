#!/usr/bin/env node
// Writes <out>/sw.js, the service worker of the built site, with workbox-build
// (pinned in package.json).  Called by web/tools/build.py as its last step:
//
//     node web/tools/build_sw.mjs <out-dir>
//
// * Precaches EVERY file of <out-dir> (the glob is the list: nothing is kept by
//   hand), each with the md5 of its content as its revision, large files
//   included (Pyodide's wasm is ~9.6 MB) -- except the files whose name already
//   changes with their content (dontCacheBustURLsMatching below): fetched as
//   they are, so that the files of the first visit come from the HTTP cache.  A new build changes the revisions
//   of the files that changed, hence sw.js, hence the browser installs the new
//   worker, which downloads only those files.
// * Except the expert's tables (tables/*.bin, 7 MB for every ruleset and option
//   set): a page fetches only the one its game needs, when an expert seat or the
//   advisor is first used.  They are cached then (network first, so a new build's
//   tables replace old ones; the cached copy when offline).
// * And except the complete game files' archive (build-info.json's runtime.package) when
//   every game page has its own (runtime.pages, all precached): no page loads it (it
//   serves the tests' harness pages).
// * And except what no page loads (build-info.json's `unloaded`, see web/tools/build.py:
//   PyScript's chunks of plugins and features the site does not use, Pyodide's lock file).
// * Cache-first for everything precached; `?seed=...`, `?nosw`, ... are ignored
//   when matching, so yams.html?seed=7 is served from the cache -- but `?live`:
//   build-info.json?live goes to the server (js/register-sw.js).
// * No skipWaiting: the new worker waits until the page asks for it
//   (postMessage {type: "SKIP_WAITING"}, sent by workbox-window's messageSkipWaiting in
//   js/register-sw.js when the player clicks "recharger"); until then the old version
//   keeps running.
// * The workbox runtime is bundled into sw.js itself (inlineWorkboxRuntime):
//   no importScripts, no other host.
// * Output is deterministic: same dist/ => byte-identical sw.js.
//
// Prints one JSON line: {"count": files, "size": bytes, "seconds": ...}.

import { generateSW } from "workbox-build";
import { readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";

const out = process.argv[2];
if (!out) {
  console.error("usage: node web/tools/build_sw.mjs <out-dir>");
  process.exit(2);
}
const globDirectory = path.resolve(out);
const started = performance.now();
const info = JSON.parse(readFileSync(path.join(globDirectory, "build-info.json"), "utf8"));
const { runtime } = info;
const unused = runtime?.package && Object.keys(runtime.pages ?? {}).length ? [runtime.package] : [];
unused.push(...(info.unloaded ?? []));

const { count, size, warnings } = await generateSW({
  globDirectory,
  globPatterns: ["**/*"],
  // .nojekyll is a dot file: glob leaves it out (it is empty and never fetched).
  globIgnores: ["**/*.map", "tables/**", "qps/**", ...unused],
  runtimeCaching: [{
    urlPattern: /\/tables\/.+\.bin$/,
    handler: "NetworkFirst",
    options: { cacheName: "pygames-tables", networkTimeoutSeconds: 5 },
  }],
  swDest: path.join(globDirectory, "sw.js"),
  maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
  // Every parameter but `live`: build-info.json?live is not in the precache, it goes to the
  // server (js/register-sw.js compares the deployed build with the one running).
  ignoreURLParametersMatching: [/^(?!live$)/],
  // Files whose URL changes with their content need no revision, so Workbox fetches them
  // without a cache-busting parameter: what the first visit loaded comes from the HTTP
  // cache instead of being downloaded twice.  (The runtime's content-named files and the
  // vendor directories named after their pinned versions, see web/tools/build.py.)
  dontCacheBustURLsMatching: /(?:-[0-9a-f]{16}\.(?:zip|zip\.xz|tar\.gz|bin\.xz)$)|(?:(?:^|\/)vendor\/(?:pyodide|pyscript|workbox-window|lean-qr|qr|xz-decompress)-\d[^/]*\/)/,
  directoryIndex: "index.html",
  cleanupOutdatedCaches: true,
  skipWaiting: false,
  clientsClaim: false,
  inlineWorkboxRuntime: true,
  sourcemap: false,
  mode: "production",
  disableDevLogs: true,
  cacheId: "pygames",
});

for (const w of warnings) console.error(`build_sw.mjs: warning: ${w}`);
console.log(JSON.stringify({ count, size, seconds: (performance.now() - started) / 1000 }));
