// Embed page only, a classic script run before PyScript. Inside another site's iframe, a
// browser that blocks third-party storage (Chrome with third-party cookies blocked, as in
// incognito; Brave) denies localStorage AND IndexedDB. PyScript 0.7 opens an IndexedDB
// store (its package cache) at every start and never starts when that fails. So when
// storage is denied, give PyScript a small in-memory IndexedDB: the game then plays, only
// without keeping the game across reloads (the frame says so). Where storage works (a
// normal browser, or partitioned storage as in Firefox and Safari), this does nothing.
(function () {
  "use strict";
  try {
    if (window.localStorage) return;
  } catch (err) { /* denied: go on */ }
  document.documentElement.setAttribute("data-no-storage", "");

  function request(compute) {  // an IDBRequest-like object answered on a later task
    var req = {};
    setTimeout(function () {
      try {
        req.result = compute();
        if (req.onsuccess) req.onsuccess({ type: "success", target: req });
      } catch (err) {
        req.error = err;
        if (req.onerror) req.onerror({ type: "error", target: req });
      }
    }, 0);
    return req;
  }

  function store(map) {
    return {
      count: function () { return request(function () { return map.size; }); },
      clear: function () { return request(function () { map.clear(); }); },
      delete: function (key) { return request(function () { map.delete(String(key)); }); },
      get: function (key) { return request(function () { return map.get(String(key)); }); },
      getKey: function (key) { return request(function () { return map.has(String(key)) ? key : undefined; }); },
      getAllKeys: function () { return request(function () { return Array.from(map.keys()); }); },
      put: function (value, key) { return request(function () { map.set(String(key), value); return key; }); },
    };
  }

  function database() {
    var stores = {};
    return {
      objectStoreNames: { length: 1, contains: function () { return true; } },
      createObjectStore: function (name) { return store(stores[name] = stores[name] || new Map()); },
      transaction: function () {
        return { objectStore: function (name) { return store(stores[name] = stores[name] || new Map()); } };
      },
      close: function () {},
    };
  }

  var databases = {};
  var memory = {
    open: function (name) {
      return request(function () { return databases[name] = databases[name] || database(); });
    },
    deleteDatabase: function (name) { return request(function () { delete databases[name]; }); },
  };
  try {
    Object.defineProperty(window, "indexedDB", { value: memory, configurable: true });
  } catch (err) { /* cannot replace it: PyScript will report its own failure */ }
})();
