// Loads the memory snapshot written by web/tools/runtime/snapshot.mjs (`snapshot-<hash>.bin.gz`):
// gzip of
//   "PGSNAP1\0", u32 LE total length, u32 LE page size, u32 LE page count n,
//   n x u32 LE page index, then those n pages
// i.e. only the pages of Python's wasm memory that are not all zeros (about 12 of 31 MB).
// Used by js/snapshot-worker.mjs (off the main thread) and, without workers, by
// js/pyodide-fast.mjs itself.
//
// Only ever from Cache Storage (the service worker's precache holds the .gz): never the
// network.  Inflating takes 100-250 ms, so the inflated form (12 MB) is kept in a cache of
// its own, INFLATED, keyed by the snapshot's content-named URL, and read from there (by the
// page, with `expand`) on the next visits; entries of other snapshots are deleted when one
// is stored.
//
// Whatever the caches hold is checked before Python gets it: the inflated form, read from
// either, must have the SHA-256 the page was built with (RUNTIME.snapshot_inflated_sha256,
// written by web/tools/build.py).  Any page of the origin can rewrite Cache Storage (on a
// GitHub project site, any project of the same user: README "Deployment").

const MAGIC = "PGSNAP1\0";
const HEAD = 20;
export const INFLATED = "pygames-snapshot-inflated";

// A kept copy whose bytes are not the build's (rewritten, truncated, of another build).
export class Damaged extends Error {
  name = "Damaged";
}

// Throws Damaged unless `bytes` has the SHA-256 `digest` (hex).  crypto.subtle works off
// the main thread: 25-35 ms for the 13 MB of the inflated form (e2e/bench/bench_startup.py).
export async function check(bytes, digest, what) {
  const got = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(got, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== digest) throw new Damaged(`${what}: its SHA-256 is not this build's`);
}

// The full memory image from the inflated form (a Uint8Array whose buffer holds only it:
// transferable).  Throws on a malformed one.
export function expand(sparse) {
  const view = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
  if (sparse.length < HEAD || new TextDecoder("latin1").decode(sparse.subarray(0, 8)) !== MAGIC) {
    throw new Error("not a pygames memory snapshot");
  }
  const total = view.getUint32(8, true);
  const pageSize = view.getUint32(12, true);
  const count = view.getUint32(16, true);
  const data = HEAD + 4 * count;
  if (!pageSize || count > Math.ceil(total / pageSize) || sparse.length !== data + count * pageSize) {
    throw new Error("corrupt memory snapshot");
  }
  // Whole pages: the last one may run past `total` (zero padding).
  const out = new Uint8Array(Math.ceil(total / pageSize) * pageSize);
  for (let k = 0; k < count; k++) {
    const page = view.getUint32(HEAD + 4 * k, true);
    if (page * pageSize >= out.length) throw new Error("corrupt memory snapshot");
    out.set(sparse.subarray(data + k * pageSize, data + (k + 1) * pageSize), page * pageSize);
  }
  return out.subarray(0, total);
}

// Inflate a gzip file (a Response from the cache) into one buffer of its exact size (the
// gzip trailer's ISIZE: the inflated form is far below 4 GB).
export async function inflate(response) {
  const gz = new Uint8Array(await response.arrayBuffer());
  if (gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b) throw new Error("not a gzip file");
  const size = new DataView(gz.buffer).getUint32(gz.length - 4, true);
  const out = new Uint8Array(size);
  const reader = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  let pos = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (pos + value.length > size) throw new Error("gzip longer than its trailer says");
    out.set(value, pos);
    pos += value.length;
  }
  if (pos !== size) throw new Error("truncated gzip");
  return out;
}

// From the .gz of the service worker's precache (the page reads the kept inflated form
// itself, js/pyodide-fast.mjs): {bytes: the memory image, from: "gzip", keep: async () =>
// store the inflated form for the next visits (call it once `bytes` is handed over)}, or
// null when the browser does not hold the snapshot `url`.  Throws Damaged when the .gz is
// not the build's (`digest`: its inflated form's SHA-256), after taking it out of the
// precache and asking the worker for it again (from the server: offline it stays out, and
// the pages boot the ordinary way).
export async function loadSnapshot(url, digest) {
  if (!self.caches) return null;
  const response = await caches.match(url);
  if (!response?.ok) return null;
  let sparse;
  try {
    sparse = await inflate(response);
    await check(sparse, digest, "snapshot (.gz)");
  } catch (err) {
    await fetchAgain(url);
    throw err instanceof Damaged ? err : new Damaged(`snapshot (.gz): ${err}`);
  }
  const bytes = expand(sparse);
  // Keep the inflated form; forget other snapshots' (older builds).
  const keep = async () => {
    const inflated = await caches.open(INFLATED);
    for (const old of await inflated.keys()) {
      if (old.url !== url) await inflated.delete(old);
    }
    await inflated.put(url, new Response(sparse)).catch(() => {});  // e.g. quota: next time again
  };
  return { bytes, from: "gzip", keep };
}

// `url` out of every cache of the precache, then fetched through the worker, which misses
// it and asks the server (Workbox's precache falls back to the network), and put back.
async function fetchAgain(url) {
  for (const name of await caches.keys()) {
    if (name === INFLATED) continue;
    const cache = await caches.open(name);
    if (await cache.delete(url)) await cache.add(url).catch(() => {});
  }
}
