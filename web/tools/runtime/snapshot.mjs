// Build step (run by web/tools/runtime/__init__.py): a Pyodide memory snapshot taken
// in Node right after boot and the import of the hot standard-library modules
// and of the game package, for warm and offline visits (js/pyodide-fast.mjs
// restores it when the browser already holds it; a first visit never waits for it).
//
//   node web/tools/runtime/snapshot.mjs <pyodide dir> <stdlib zip> <out>
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
// Output format (js/snapshot-inflate.mjs reads it, and describes it): "PGSNAP2", the
// pages of Python's 30 MiB wasm memory that are not all zeros (about 13 MB), those still as
// the wasm module starts them (its data segments) named but not stored: the page copies them
// from pyodide.asm.wasm; web/tools/runtime/__init__.py compresses it (xz).  Its inflated form ("PGSNAP1", every non-zero page stored) is what
// the page keeps and checks: its SHA-256 is reported.
// Prints one JSON line: {"raw", "stored", "bytes" (uncompressed), "modules", "heap" (the wasm memory in the
// snapshot), "in_use" (how much of it Python uses), "base_pages", "inflated_sha256",
// "stdlib_sha256", "version"}.  web/tools/runtime/__init__.py fails the build when "heap" is
// more than Pyodide can restore.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MAKE_SNAPSHOT_OPTIONS, makeSnapshot, memoryInUse, snapshotMemoryOffset } from "../../static/js/runtime-internals.mjs";
import { DELTA_MAGIC, initialMemory, withBase } from "../../static/js/snapshot-inflate.mjs";

const PAGE = 4096;

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
  console.error("usage: snapshot.mjs <pyodide dir> <stdlib zip> <out> [--package-zip ZIP] [--import MODULE]...");
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
const inUse = memoryInUse(py);
const snapshot = makeSnapshot(py);
const offset = snapshotMemoryOffset(snapshot);

// The non-zero pages; of those, the ones still as the wasm module starts them.
const total = snapshot.length;
const wasm = readFileSync(indexURL + "pyodide.asm.wasm");
const start = new Uint8Array(Math.ceil(total / PAGE) * PAGE + PAGE);
initialMemory(wasm).write(start, offset);
const pages = [];
const base = [];
for (let i = 0; i * PAGE < total; i++) {
  const page = snapshot.subarray(i * PAGE, Math.min((i + 1) * PAGE, total));
  if (!page.some((b) => b !== 0)) continue;
  pages.push(i);
  if (page.length === PAGE && Buffer.compare(page, start.subarray(i * PAGE, (i + 1) * PAGE)) === 0) base.push(i);
}
const baseSet = new Set(base);
const stored = pages.filter((p) => !baseSet.has(p));
const head = Buffer.alloc(28 + 4 * (pages.length + base.length));
head.write(DELTA_MAGIC, 0, "latin1");
[total, PAGE, pages.length, base.length, offset].forEach((v, k) => head.writeUInt32LE(v, 8 + 4 * k));
[...pages, ...base].forEach((p, k) => head.writeUInt32LE(p, 28 + 4 * k));
const body = Buffer.alloc(stored.length * PAGE);  // zero-padded last page
stored.forEach((p, k) => body.set(snapshot.subarray(p * PAGE, Math.min((p + 1) * PAGE, total)), k * PAGE));
const delta = Buffer.concat([head, body]);
// What the page will make of it (and check), made here by the page's own code.
const inflated = withBase(new Uint8Array(delta.buffer, delta.byteOffset, delta.length), wasm);
writeFileSync(out, delta);
console.log(JSON.stringify({
  raw: total,
  stored: inflated.length,
  bytes: delta.length,
  modules,
  heap: total - offset,
  in_use: inUse,
  base_pages: base.length,
  inflated_sha256: createHash("sha256").update(inflated).digest("hex"),
  stdlib_sha256: createHash("sha256").update(zip).digest("hex"),
  version,
}));
