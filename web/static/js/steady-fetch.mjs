// A first visit's downloads on a phone's link: a connection that stalls (no byte for
// STALL_MS while the page waits for one) or breaks mid-file is tried again, up to TRIES times
// in all, instead of leaving the loading bar still until the 90 s message (js/boot.js).
//
// `steadyFetch(url, {stallMs, tries, retried})` resolves to a Response as fetch() would
// (a status other than 2xx is returned as it is, never tried again: the server answered).
// Its body carries on across the new tries: a new request's body skips the bytes already
// handed on (the site's runtime files are named by version or content, so every answer is
// the same file; the .xz and archives are checked by their SHA-256 or their format anyway).
// `retried(why)` is called before each new try (the page says so: js.boot.retrying).
//
// Only time spent waiting for the network counts: not time the reader spends elsewhere (it
// reads at its own pace), nor time the thread was blocked (a tick that comes late), so a
// busy main thread on a slow phone never aborts a healthy download.
//
// Used on a first visit only (js/pyodide-fast.mjs: the page not yet controlled by the
// service worker, which serves later visits from Cache Storage): a Response made here has
// no URL, and the browser keeps compiled WebAssembly only for a fetched one.

export const STALL_MS = 15000;
const TRIES = 3;

class Stalled extends Error {
  name = "Stalled";
}

// The stall timeout a page asks for (tests: a shorter one), else STALL_MS.
export function stallMs(value) {
  return Number.isFinite(value) && value > 0 ? value : STALL_MS;
}

// The browser's fetch, as it was when this module loaded (js/pyodide-fast.mjs wraps the
// global one while Pyodide loads, and that wrapper comes back here).
const browserFetch = globalThis.fetch.bind(globalThis);

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Calls `onStall` once no byte came for `limit` ms while someone waited for one.
function watchdog(limit, onStall) {
  const step = Math.max(50, Math.min(1000, limit / 5));
  let waiting = false;
  let last = performance.now();
  let tick = last;
  const timer = setInterval(() => {
    const now = performance.now();
    if (!waiting || now - tick > 2 * step) last = now;  // not waiting, or the thread was busy
    tick = now;
    if (now - last > limit) {
      clearInterval(timer);
      onStall();
    }
  }, step);
  return {
    wait() { waiting = true; },
    came() { waiting = false; last = performance.now(); },
    stop() { clearInterval(timer); },
  };
}

// One request: {response, dog (the body's watchdog), abort(why)} once its headers came.
async function request(url, limit) {
  const controller = new AbortController();
  const dog = watchdog(limit, () => controller.abort(new Stalled(`${url}: no data for ${limit} ms`)));
  dog.wait();
  try {
    const response = await browserFetch(url, { signal: controller.signal });
    dog.came();
    return { response, dog, abort: (why) => controller.abort(why) };
  } catch (err) {
    dog.stop();
    throw controller.signal.aborted ? controller.signal.reason : err;
  }
}

export async function steadyFetch(url, { stallMs: limit = STALL_MS, tries = TRIES, retried = () => {} } = {}) {
  let left = tries;
  const again = async (err) => {
    if (--left <= 0) throw err;
    retried(String(err?.message ?? err));
    await pause(Math.min(4000, 1000 * (tries - left)));
  };
  const open = async () => {
    for (;;) {
      try {
        return await request(url, limit);
      } catch (err) {
        await again(err);
      }
    }
  };
  let current = await open();
  const { response } = current;
  if (!response.ok || !response.body) {
    current.dog.stop();
    return response;
  }
  let reader = response.body.getReader();
  let handed = 0;  // bytes handed on
  let skip = 0;    // bytes of the present try's body handed on by an earlier one
  const body = new ReadableStream({
    async pull(out) {
      for (;;) {
        let chunk;
        try {
          current.dog.wait();
          const { done, value } = await reader.read();
          current.dog.came();
          if (done) {
            current.dog.stop();
            out.close();
            return;
          }
          chunk = value;
        } catch (err) {
          current.dog.stop();
          await again(err);
          current = await open();
          if (!current.response.ok || !current.response.body) {
            current.dog.stop();
            throw new Error(`${url}: ${current.response.status}`);
          }
          reader = current.response.body.getReader();
          skip = handed;
          continue;
        }
        if (skip) {
          const n = Math.min(skip, chunk.length);
          skip -= n;
          chunk = chunk.subarray(n);
        }
        if (chunk.length) {
          handed += chunk.length;
          out.enqueue(chunk);
          return;
        }
      }
    },
    cancel(why) {
      current.dog.stop();
      current.abort(why);
    },
  });
  // The body is the decoded bytes: no encoding, no length of the encoded ones.
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
