// Loads the memory snapshot written by web/tools/runtime/snapshot.mjs (`snapshot-<hash>.bin.xz`).
// Its inflated form, the one kept and checked ("PGSNAP1"):
//   "PGSNAP1\0", u32 LE total length, u32 LE page size, u32 LE page count n,
//   n x u32 LE page index, then those n pages
// i.e. only the pages of Python's wasm memory that are not all zeros (about 13 of 31 MB).
// The .xz holds less ("PGSNAP2", `withBase`): the pages that are still as the wasm module
// starts them (its data segments: about 0.8 of the 3.6 MB of static data, 1.4 MB of the
// 5 MB gzip) are named, not stored, and are copied from pyodide.asm.wasm, which the browser
// holds already:
//   "PGSNAP2\0", u32 LE total length, u32 LE page size, u32 LE page count n, u32 LE base
//   count m, u32 LE memory offset (where the wasm's address 0 is in the image), n x u32 LE
//   page index, m x u32 LE page index (those of the n taken from the wasm), then the n - m
//   other pages, in the order of the n.
// Used by js/snapshot-worker.mjs (off the main thread) and, without workers, by
// js/pyodide-fast.mjs itself; by web/tools/runtime/snapshot.mjs too (the same `initialMemory`).
//
// Only ever from Cache Storage (the service worker's precache holds the .xz and the wasm):
// never the network.  Inflating takes 200-300 ms (xz-decompress, a WebAssembly build of
// xz-embedded, imported here only then), so the inflated form (13 MB) is kept in a
// cache of its own, INFLATED, keyed by the snapshot's content-named URL, and read from there
// (by the page, with `expand`) on the next visits; entries of other snapshots are deleted
// when one is stored.
//
// Whatever the caches hold is checked before Python gets it: the inflated form, read from
// either, must have the SHA-256 the page was built with (RUNTIME.snapshot_inflated_sha256,
// written by web/tools/build.py).  Any page of the origin can rewrite Cache Storage (on a
// GitHub project site, any project of the same user: README "Deployment").

import { steadyFetch } from "./steady-fetch.mjs";

const MAGIC = "PGSNAP1\0";
const HEAD = 20;
export const DELTA_MAGIC = "PGSNAP2\0";
const DELTA_HEAD = 28;
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

// What a WebAssembly module's memory holds when it is instantiated: `{write(image, offset)}`
// copies its active data segments into `image` (the module's address a at offset + a).
// Reads the binary format (sections 5 and 11 of the WebAssembly spec): a segment whose
// address is not a constant, or a module that is not one, throws.
export function initialMemory(wasm) {
  const b = wasm instanceof Uint8Array ? wasm : new Uint8Array(wasm);
  if (b.length < 8 || b[0] !== 0 || b[1] !== 0x61 || b[2] !== 0x73 || b[3] !== 0x6d) {
    throw new Error("not a WebAssembly module");
  }
  let i = 8;
  const uleb = () => {
    let r = 0, shift = 0, x;
    do { x = b[i++]; r += (x & 0x7f) * 2 ** shift; shift += 7; } while (x & 0x80);
    return r;
  };
  const sleb = () => {
    let r = 0, shift = 0, x;
    do { x = b[i++]; r += (x & 0x7f) * 2 ** shift; shift += 7; } while (x & 0x80);
    return x & 0x40 ? r - 2 ** shift : r;
  };
  const segments = [];
  while (i < b.length) {
    const id = b[i++];
    const size = uleb();
    const end = i + size;
    if (id === 11) {
      for (let n = uleb(); n > 0; n--) {
        const flags = uleb();
        if (flags === 1) { const len = uleb(); i += len; continue; }  // passive: not at start
        if (flags === 2) uleb();  // memory index
        if (b[i++] !== 0x41) throw new Error("a data segment at an address that is not a constant");
        const address = sleb();
        if (b[i++] !== 0x0b) throw new Error("malformed data segment");
        const len = uleb();
        segments.push([address, b.subarray(i, i + len)]);
        i += len;
      }
    }
    i = end;
  }
  return {
    write(image, offset) {
      for (const [address, bytes] of segments) image.set(bytes, offset + address);
    },
  };
}

// The inflated form ("PGSNAP1") from the .xz's ("PGSNAP2") and the wasm module's bytes (its
// initial memory fills the pages named, not stored).  A "PGSNAP1" is returned as it is.
export function withBase(delta, wasm) {
  const magic = new TextDecoder("latin1").decode(delta.subarray(0, 8));
  if (magic === MAGIC) return delta;
  if (delta.length < DELTA_HEAD || magic !== DELTA_MAGIC) throw new Error("not a pygames memory snapshot");
  const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
  const [total, pageSize, count, baseCount, offset] = [8, 12, 16, 20, 24].map((at) => view.getUint32(at, true));
  const index = DELTA_HEAD;
  const data = index + 4 * (count + baseCount);
  if (!pageSize || baseCount > count || count > Math.ceil(total / pageSize)
      || delta.length !== data + (count - baseCount) * pageSize) {
    throw new Error("corrupt memory snapshot");
  }
  const base = new Set();
  for (let k = 0; k < baseCount; k++) base.add(view.getUint32(index + 4 * (count + k), true));
  const image = new Uint8Array(Math.ceil(total / pageSize) * pageSize + pageSize);
  initialMemory(wasm).write(image, offset);
  const out = new Uint8Array(HEAD + 4 * count + count * pageSize);
  const outView = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC));
  outView.setUint32(8, total, true);
  outView.setUint32(12, pageSize, true);
  outView.setUint32(16, count, true);
  const body = HEAD + 4 * count;
  let stored = 0;
  for (let k = 0; k < count; k++) {
    const page = view.getUint32(index + 4 * k, true);
    if (page * pageSize >= total) throw new Error("corrupt memory snapshot");
    outView.setUint32(HEAD + 4 * k, page, true);
    const from = base.has(page)
      ? image.subarray(page * pageSize, (page + 1) * pageSize)
      : delta.subarray(data + stored * pageSize, data + ++stored * pageSize);
    out.set(from, body + k * pageSize);
  }
  if (base.size !== baseCount || stored !== count - baseCount) throw new Error("corrupt memory snapshot");
  return out;
}

// Where the build put xz-decompress's module (web/tools/build.py, copy_xz).
const XZ_MODULE = /* build: xz_module */ "../vendor/xz-decompress/xz-decompress.mjs";
const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];

// Inflate an xz file (a Response from the cache) into one buffer.  `XzStream`: the decoder's
// stream class (xz-decompress's XzReadableStream), imported from the build's copy when not
// given.  A damaged or cut file throws (the xz container's CRC32 and its index).
export async function inflate(response, XzStream = null) {
  const packed = new Uint8Array(await response.arrayBuffer());
  if (packed.length < 32 || XZ_MAGIC.some((b, i) => packed[i] !== b)) throw new Error("not an xz file");
  const Stream = XzStream ?? (await import(new URL(XZ_MODULE, import.meta.url).href)).XzReadableStream;
  return new Uint8Array(await new Response(new Stream(new Blob([packed]).stream())).arrayBuffer());
}

// From the .xz of the service worker's precache and the wasm module `wasmUrl` (precached too:
// its initial memory, see `withBase`; the page reads the kept inflated form itself,
// js/pyodide-fast.mjs): {bytes: the memory image, from: "xz", keep: async () =>
// store the inflated form for the next visits (call it once `bytes` is handed over)}, or
// null when the browser does not hold the snapshot `url` or the wasm.  Throws Damaged when the .xz is
// not the build's (`digest`: its inflated form's SHA-256), after taking it out of the
// precache and asking the worker for it again (from the server: offline it stays out, and
// the pages boot the ordinary way).
export async function loadSnapshot(url, digest, wasmUrl) {
  if (!self.caches) return null;
  const response = await caches.match(url);
  if (!response?.ok) return null;
  const wasm = await caches.match(wasmUrl);
  if (!wasm?.ok) return null;
  let sparse;
  try {
    sparse = withBase(await inflate(response), await wasm.arrayBuffer());
    await check(sparse, digest, "snapshot (.xz)");
  } catch (err) {
    await fetchAgain(url);
    throw err instanceof Damaged ? err : new Damaged(`snapshot (.xz): ${err}`);
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
  return { bytes, from: "xz", keep };
}

// The standard library's zip, inflated from its .xz (js/pyodide-fast.mjs), is kept too, in a
// cache of its own keyed by the zip's content-named URL, and checked like the snapshot (its
// SHA-256, RUNTIME.stdlib_sha256) whenever it is read: a later visit reads it (a few ms)
// instead of inflating the .xz again (100-250 ms).
export const STDLIB_KEPT = "pygames-stdlib-inflated";

// The standard library's zip from its .xz at `url` (the service worker's precache, or the
// server on a first visit), inflated and checked against its SHA-256 `digest`.
export async function fetchStdlib(url, digest, steady = null) {
  // (`steady`: js/steady-fetch.mjs's options, on a first visit: a stalled download is tried again.)
  const response = await (steady ? steadyFetch(url, steady) : fetch(url));
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const bytes = await inflate(response);
  await check(bytes, digest, "standard library (.xz)");
  return bytes;
}

// The kept zip of `url` if it is this build's (`digest`), else null (a damaged one is dropped).
export async function keptStdlib(url, digest) {
  if (!self.caches) return null;
  const cache = await caches.open(STDLIB_KEPT);
  const response = await cache.match(url);
  if (!response) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  try {
    await check(bytes, digest, "standard library (kept)");
  } catch (err) {
    await cache.delete(url);
    throw err;
  }
  return bytes;
}

// Keep the zip of `url`, and forget other builds'.
export async function keepStdlib(url, bytes) {
  if (!self.caches) return;
  const cache = await caches.open(STDLIB_KEPT);
  for (const old of await cache.keys()) {
    if (old.url !== url) await cache.delete(old);
  }
  await cache.put(url, new Response(bytes)).catch(() => {});  // e.g. quota: next time again
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
