// Build step (run by web/tools/runtime/__init__.py): a Pyodide memory snapshot taken
// in Node right after boot and the import of the hot standard-library modules
// and of the game package, for warm and offline visits (js/pyodide-fast.mjs
// restores it when the browser already holds it; a first visit never waits for it).
//
//   node web/tools/runtime/snapshot.mjs <pyodide dir> <stdlib zip> <out.gz>
//        [--package-zip ZIP] [--import MODULE]...
//
// <stdlib zip> is the zip the browser will mount: the snapshot remembers offsets
// into it, so it is only valid with those exact bytes (the build names both
// files after their content; runtime.json pairs them).
// --package-zip ZIP (pygames.zip) is unpacked into /home/pyodide, the working
// directory where PyScript's `files` unpack it in the page, so that its modules
// (named by --import) are in the snapshot with the paths they have there.  The
// files themselves are not (the file system is not in wasm memory): the page
// unpacks the same zip at every start, and the snapshot is only valid with it.
// No pyscript module and no JS object goes in.
//
// Output format (js/snapshot-inflate.mjs reads it): gzip of
//   "PGSNAP1\0", u32 LE total length, u32 LE page size, u32 LE page count n,
//   n x u32 LE page index, then those n pages (page size bytes each),
// i.e. only the pages of Python's 31 MB wasm memory that are not all zeros
// (about a third): the page inflates 12 MB instead of 31.
// Prints one JSON line: {"raw", "stored", "bytes", "modules", "stdlib_sha256", "version"}.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { MAKE_SNAPSHOT_OPTIONS, makeSnapshot } from "../../static/js/runtime-internals.mjs";

const PAGE = 4096;
const MAGIC = "PGSNAP1\0";

const argv = process.argv.slice(2);
const imports = [];
const positional = [];
let packageZip = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--import") imports.push(argv[++i]);
  else if (argv[i] === "--package-zip") packageZip = path.resolve(argv[++i]);
  else positional.push(argv[i]);
}
const [pyodideDir, stdlibZip, out] = positional;
if (!pyodideDir || !stdlibZip || !out) {
  console.error("usage: snapshot.mjs <pyodide dir> <stdlib zip> <out.gz> [--package-zip ZIP] [--import MODULE]...");
  process.exit(2);
}
const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide, version } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const zip = readFileSync(stdlibZip);
const py = await loadPyodide({
  indexURL,
  stdLibURL: path.resolve(stdlibZip),
  ...MAKE_SNAPSHOT_OPTIONS,
  stdout: () => {},
  stderr: (s) => console.error(s),
});
const HOME = "/home/pyodide";
if (packageZip) py.FS.writeFile("/tmp/package.zip", new Uint8Array(readFileSync(packageZip)));
// Unpacked by Python's zipfile (no JS object involved); the page's sys.path has the
// working directory ("" and /home/pyodide): the same here.
py.runPython(`
import os, sys
os.makedirs(${JSON.stringify(HOME)}, exist_ok=True)
os.chdir(${JSON.stringify(HOME)})
if ${JSON.stringify(HOME)} not in sys.path:
    sys.path.append(${JSON.stringify(HOME)})
if os.path.exists("/tmp/package.zip"):
    import zipfile
    with zipfile.ZipFile("/tmp/package.zip") as z:
        z.extractall(${JSON.stringify(HOME)})
    os.remove("/tmp/package.zip")
    del zipfile
del os, sys
`);
// Import by name through importlib only: nothing else lands in sys.modules.
const importModule = py.pyimport("importlib").import_module;
for (const name of imports) importModule(name).destroy?.();
importModule.destroy?.();
const modules = py.runPython("import sys; len(sys.modules)");
const snapshot = makeSnapshot(py);

// Keep the non-zero pages only.
const total = snapshot.length;
const pages = [];
for (let i = 0; i * PAGE < total; i++) {
  const page = snapshot.subarray(i * PAGE, Math.min((i + 1) * PAGE, total));
  if (page.some((b) => b !== 0)) pages.push(i);
}
const head = Buffer.alloc(8 + 12 + 4 * pages.length);
head.write(MAGIC, 0, "latin1");
head.writeUInt32LE(total, 8);
head.writeUInt32LE(PAGE, 12);
head.writeUInt32LE(pages.length, 16);
pages.forEach((p, k) => head.writeUInt32LE(p, 20 + 4 * k));
const body = Buffer.alloc(pages.length * PAGE);  // zero-padded last page
pages.forEach((p, k) => body.set(snapshot.subarray(p * PAGE, Math.min((p + 1) * PAGE, total)), k * PAGE));
const gz = gzipSync(Buffer.concat([head, body]), { level: 9 });
writeFileSync(out, gz);
console.log(JSON.stringify({
  raw: total,
  stored: head.length + body.length,
  bytes: gz.length,
  modules,
  stdlib_sha256: createHash("sha256").update(zip).digest("hex"),
  version,
}));
