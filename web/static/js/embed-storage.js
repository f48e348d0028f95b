// Embed page only, a classic script run before PyScript. Inside another site's iframe, a
// browser that blocks third-party storage (Chrome with third-party cookies blocked, as in
// incognito; Brave) denies localStorage AND IndexedDB. PyScript 0.7 opens an IndexedDB
// store (its package cache) at every start and never starts when that fails. So when
// storage is denied, give PyScript a small in-memory IndexedDB: the game then plays, only
// without keeping the game across reloads (the frame says so). Where storage works (a
// normal browser, or partitioned storage as in Firefox and Safari), this does nothing.
(() => {
  "use strict";
  try {
    if (localStorage) return;
  } catch { /* denied: go on */ }
  document.documentElement.setAttribute("data-no-storage", "");

  // An IDBRequest-like object answered on a later task.
  function request(compute) {
    const req = {};
    setTimeout(() => {
      try {
        req.result = compute();
        req.onsuccess?.({ type: "success", target: req });
      } catch (err) {
        req.error = err;
        req.onerror?.({ type: "error", target: req });
      }
    }, 0);
    return req;
  }

  const store = (map) => ({
    count: () => request(() => map.size),
    clear: () => request(() => { map.clear(); }),
    delete: (key) => request(() => { map.delete(String(key)); }),
    get: (key) => request(() => map.get(String(key))),
    getKey: (key) => request(() => (map.has(String(key)) ? key : undefined)),
    getAllKeys: () => request(() => Array.from(map.keys())),
    put: (value, key) => request(() => { map.set(String(key), value); return key; }),
  });

  function database() {
    const stores = {};
    const named = (name) => store(stores[name] ??= new Map());
    return {
      objectStoreNames: { length: 1, contains: () => true },
      createObjectStore: named,
      transaction: () => ({ objectStore: named }),
      close: () => {},
    };
  }

  const databases = {};
  const memory = {
    open: (name) => request(() => (databases[name] ??= database())),
    deleteDatabase: (name) => request(() => { delete databases[name]; }),
  };
  try {
    Object.defineProperty(window, "indexedDB", { value: memory, configurable: true });
  } catch { /* cannot replace it: PyScript will report its own failure */ }
})();
