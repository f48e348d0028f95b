// Build step (run by web/runtime/__init__.py): a Pyodide memory snapshot taken
// in Node right after boot and the import of the hot standard-library modules,
// for warm and offline visits (js/pyodide-fast.mjs restores it when the browser
// already holds it; a first visit never waits for it).
//
//   node web/runtime/snapshot.mjs <pyodide dir> <stdlib zip> <out.gz> [--import MODULE]...
//
// <stdlib zip> is the zip the browser will mount: the snapshot remembers offsets
// into it, so it is only valid with those exact bytes (the wrapper checks their
// SHA-256).  Only standard-library modules go in: no pygames, no pyscript (they
// are unpacked into the file system at each boot, which a snapshot does not
// hold), no JS object.  The output is gzip-compressed (~31 MB of wasm memory,
// mostly zeros, ~4-5 MB); the page decompresses it with DecompressionStream.
// Prints one JSON line: {"raw", "bytes", "modules", "stdlib_sha256", "version"}.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const argv = process.argv.slice(2);
const imports = [];
const positional = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--import") imports.push(argv[++i]);
  else positional.push(argv[i]);
}
const [pyodideDir, stdlibZip, out] = positional;
if (!pyodideDir || !stdlibZip || !out) {
  console.error("usage: snapshot.mjs <pyodide dir> <stdlib zip> <out.gz> [--import MODULE]...");
  process.exit(2);
}
const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide, version } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const zip = readFileSync(stdlibZip);
const py = await loadPyodide({
  indexURL,
  stdLibURL: path.resolve(stdlibZip),
  _makeSnapshot: true,
  stdout: () => {},
  stderr: (s) => console.error(s),
});
// Import by name through importlib only: nothing else lands in sys.modules.
const importModule = py.pyimport("importlib").import_module;
for (const name of imports) importModule(name).destroy?.();
importModule.destroy?.();
const modules = py.runPython("import sys; len(sys.modules)");
const snapshot = py.makeMemorySnapshot();
const gz = gzipSync(snapshot, { level: 6 });
writeFileSync(out, gz);
console.log(JSON.stringify({
  raw: snapshot.length,
  bytes: gz.length,
  modules,
  stdlib_sha256: createHash("sha256").update(zip).digest("hex"),
  version,
}));
