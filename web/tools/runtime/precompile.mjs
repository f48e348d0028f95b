// Build step (run by web/tools/runtime/__init__.py, called from web/tools/build.py):
// precompile Pyodide's python_stdlib.zip to bytecode with Pyodide's own CPython
// (the very interpreter that runs it in the browser), so that a boot unmarshals
// .pyc instead of compiling ~150 standard-library modules from source.
//
//   node web/tools/runtime/precompile.mjs <pyodide dir> <out.zip>
//        [--all] [--strip-docstrings] [--path DIR]... [--import MODULE]... [--drop GLOB]... [--keep GLOB]...
//
// Which modules become .pyc: by default the "hot" ones, i.e. every module of the
// zip that is in sys.modules after Pyodide's own boot and after importing each
// --import MODULE (with each --path DIR on sys.path, e.g. the repository root
// for `pygames`).  They replace their .py (zipimport looks for name.pyc where
// name.py was).  The other modules stay .py source: source deflates about twice
// as well as bytecode, and they are rarely imported.  --all compiles every .py.
//
// --drop GLOB (fnmatch on the names in the zip, e.g. "unittest/*") leaves those
// files out -- never a hot module: a hot one matched by a GLOB is kept and named
// in "kept_hot"; --keep GLOB makes exceptions to the --drop patterns.  --strip-docstrings removes docstrings from the compiled code
// (what python -OO does, but asserts stay): __doc__ is None, as under -OO.
//
// The .pyc are "unchecked hash" pycs (PEP 552): nothing compares them with a
// source file at run time.  Entry order, names, dates and the other files are
// those of the original zip, so the output is reproducible.
//
// --package-zip IN OUT: also copy the zip IN (an app package, e.g. pygames.zip,
// unpacked into the working directory by PyScript) to OUT with, next to each
// .py that the --import MODULEs loaded, its __pycache__/<name>.cpython-314.pyc
// (unchecked hash, docstrings stripped with --strip-docstrings), so that importing the package at start-up
// does not compile it either.  With --app-source FILE (e.g. web/app/shell.py, which
// PyScript's `files` copy into the working directory, next to the unpacked package), the
// zip also gets __pycache__/<name>.cpython-314.pyc at its top for each FILE.
//
// --pyscript-bytecode DIST OUT: write to the zip OUT the bytecode of PyScript's
// own Python package (pyscript/__pycache__/*.cpython-314.pyc), compiled from the
// sources embedded in @pyscript/core's DIST chunks, which PyScript writes to
// ./pyscript/ and imports at every start; unpacked by the `files` config before
// that, they spare the compilation.  OUT is always written (empty if the
// sources are not found: then nothing changes).
//
// Prints one JSON line: {"magic", "version", "py", "pyc", "source", "other",
// "bytes", "hot": [module names]}.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const argv = process.argv.slice(2);
const opts = { all: false, strip: false, paths: [], imports: [], drop: [], keep: [], appSources: [] };
const positional = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--all") opts.all = true;
  else if (a === "--strip-docstrings") opts.strip = true;
  else if (a === "--drop") opts.drop.push(argv[++i]);
  else if (a === "--keep") opts.keep.push(argv[++i]);
  else if (a === "--package-zip") opts.packageZip = [path.resolve(argv[++i]), path.resolve(argv[++i])];
  else if (a === "--app-source") opts.appSources.push(path.resolve(argv[++i]));
  else if (a === "--pyscript-bytecode") opts.pyscript = [path.resolve(argv[++i]), path.resolve(argv[++i])];
  else if (a === "--path") opts.paths.push(path.resolve(argv[++i]));
  else if (a === "--import") opts.imports.push(argv[++i]);
  else positional.push(a);
}
const [pyodideDir, outZip] = positional;
if (!pyodideDir || !outZip) {
  console.error("usage: precompile.mjs <pyodide dir> <out.zip> [--all] [--strip-docstrings] "
    + "[--path DIR]... [--import MODULE]... [--drop GLOB]... [--keep GLOB]...");
  process.exit(2);
}

const indexURL = path.resolve(pyodideDir) + path.sep;
const { loadPyodide } = await import(pathToFileURL(indexURL + "pyodide.mjs").href);
const py = await loadPyodide({ indexURL, stdout: () => {}, stderr: (s) => console.error(s) });
py.FS.writeFile("/tmp/stdlib_in.zip", readFileSync(indexURL + "python_stdlib.zip"));
// Host directories for --path, read-only use (NODEFS).
const mounted = opts.paths.map((dir, i) => {
  const mount = `/mnt/path${i}`;
  py.FS.mkdirTree(mount);
  py.FS.mount(py.FS.filesystems.NODEFS, { root: dir }, mount);
  return mount;
});
py.globals.set("OPTS", py.toPy({ ...opts, paths: mounted }));
const report_extra = {};
const report = py.runPython(`
# The hot set is read before this script imports anything of its own.
import importlib, sys
STDLIB = next(p for p in sys.path if p.endswith(".zip"))
sys.dont_write_bytecode = True
sys.path[:0] = OPTS["paths"]
for name in OPTS["imports"]:
    importlib.import_module(name)

def zip_name(module):
    # Frozen modules (os, io, site, ...) carry a __file__ but never read it.
    if getattr(getattr(module, "__spec__", None), "origin", None) == "frozen":
        return None
    f = getattr(module, "__file__", None) or ""
    return f[len(STDLIB) + 1:] if f.startswith(STDLIB + "/") else None

hot = {n: zip_name(m) for n, m in list(sys.modules.items()) if zip_name(m)}
hot_files = set(hot.values())

import ast, fnmatch, importlib.util, json, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from importlib.util import source_hash


def strip_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                doc = body.pop(0)
                if not body:
                    body.append(ast.copy_location(ast.Pass(), doc))
    return tree

def to_pyc(data, name):
    source = ast.parse(data, name) if OPTS["strip"] else data
    if OPTS["strip"]:
        source = strip_docstrings(source)
    code = compile(source, name, "exec", dont_inherit=True, optimize=0)
    return bytes(_code_to_hash_pyc(code, source_hash(data), checked=False))

def dropped(name):
    return (any(fnmatch.fnmatchcase(name, g) for g in OPTS["drop"])
            and not any(fnmatch.fnmatchcase(name, g) for g in OPTS["keep"]))

counts = {"py": 0, "pyc": 0, "source": 0, "other": 0, "dropped": 0, "dropped_other": 0, "kept_hot": []}
with zipfile.ZipFile("/tmp/stdlib_in.zip") as src, \\
        zipfile.ZipFile("/tmp/stdlib_out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
    for info in src.infolist():
        data = src.read(info)
        name = info.filename
        if name.endswith(".py"):
            counts["py"] += 1
        if dropped(name):
            if name not in hot_files:
                counts["dropped" if name.endswith(".py") else "dropped_other"] += 1
                continue
            counts["kept_hot"].append(name)
        if name.endswith(".py") and (OPTS["all"] or name in hot_files):
            data = to_pyc(data, name)
            name += "c"
            counts["pyc"] += 1
        elif name.endswith(".py"):
            counts["source"] += 1
        elif not name.endswith("/"):
            counts["other"] += 1
        out = zipfile.ZipInfo(name, date_time=info.date_time)
        out.compress_type = zipfile.ZIP_STORED if name.endswith("/") else zipfile.ZIP_DEFLATED
        out.external_attr = info.external_attr
        dst.writestr(out, data)
counts["magic"] = importlib.util.MAGIC_NUMBER.hex()
counts["version"] = sys.version.split()[0]
counts["hot"] = sorted(hot)
json.dumps(counts)
`);
if (opts.packageZip) {
  py.FS.writeFile("/tmp/pkg_in.zip", readFileSync(opts.packageZip[0]));
  py.globals.set("APP_SOURCES", py.toPy(Object.fromEntries(
    opts.appSources.map((f) => [path.basename(f), readFileSync(f, "utf8")]))));
  // Only the package modules the imports above loaded (e.g. not a CLI module).
  py.globals.set("PKG_HOT", py.runPython(`
import sys
{m.__file__[len(p) + 1:] for m in list(sys.modules.values()) for p in OPTS["paths"]
 if (getattr(m, "__file__", None) or "").startswith(p + "/")}`));
  const added = py.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from importlib.util import source_hash
added = 0

def app_tree(data, name):
    """The game's own code, docstrings stripped as the standard library's are (the sources
    stay beside the bytecode in the complete archive, for tracebacks)."""
    return strip_docstrings(ast.parse(data, name)) if OPTS["strip"] else data

with zipfile.ZipFile("/tmp/pkg_in.zip") as src, \\
        zipfile.ZipFile("/tmp/pkg_out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
    for info in src.infolist():
        data = src.read(info)
        dst.writestr(info, data)
        if info.filename.endswith(".py") and info.filename in PKG_HOT:
            code = compile(app_tree(data, info.filename), info.filename, "exec", dont_inherit=True)
            head, _, tail = info.filename.rpartition("/")
            name = (head + "/" if head else "") + "__pycache__/" + tail[:-3] + "." \\
                + sys.implementation.cache_tag + ".pyc"
            out = zipfile.ZipInfo(name, date_time=info.date_time)
            out.compress_type = zipfile.ZIP_DEFLATED
            out.external_attr = info.external_attr
            dst.writestr(out, bytes(_code_to_hash_pyc(code, source_hash(data), checked=False)))
            added += 1
    for fname, text in sorted(APP_SOURCES.items()):
        data = text.encode("utf-8")
        code = compile(app_tree(data, fname), fname, "exec", dont_inherit=True)
        out = zipfile.ZipInfo(f"__pycache__/{fname[:-3]}.{sys.implementation.cache_tag}.pyc",
                              date_time=(2020, 1, 1, 0, 0, 0))
        out.compress_type = zipfile.ZIP_DEFLATED
        out.external_attr = 0o644 << 16
        dst.writestr(out, bytes(_code_to_hash_pyc(code, source_hash(data), checked=False)))
        added += 1
added
`);
  writeFileSync(opts.packageZip[1], py.FS.readFile("/tmp/pkg_out.zip"));
  report_extra.package_pyc = added;
}
// PyScript's Python package, as embedded in its core chunk: {pyscript: {"x.py": "..."}}.
function pyscriptSources(dir) {
  const marker = '{pyscript:{"__init__.py":';
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
    const text = readFileSync(path.join(dir, name), "utf8");
    const start = text.indexOf(marker);
    if (start < 0) continue;
    let depth = 0, end = start, quote = null;
    for (; end < text.length; end++) {  // the matching brace, skipping strings
      const c = text[end];
      if (quote) {
        if (c === "\\") end++;
        else if (c === quote) quote = null;
      } else if (c === '"' || c === "'" || c === "`") quote = c;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) break;
    }
    const files = {};
    const walk = (node, prefix) => {
      for (const [key, value] of Object.entries(node)) {
        if (typeof value === "string") files[prefix + key] = value;
        else walk(value, prefix + key + "/");
      }
    };
    walk(new Function(`return ${text.slice(start, end + 1)}`)(), "");
    return files;
  }
  return {};
}
if (opts.pyscript) {
  const sources = pyscriptSources(opts.pyscript[0]);
  py.globals.set("PYSCRIPT_SOURCES", py.toPy(sources));
  report_extra.pyscript_pyc = py.runPython(`
import sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc
from importlib.util import source_hash
with zipfile.ZipFile("/tmp/pyscript_pyc.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
    for name, text in sorted(PYSCRIPT_SOURCES.items()):
        if not name.endswith(".py"):
            continue
        data = text.encode("utf-8")
        code = compile(data, "/home/pyodide/" + name, "exec", dont_inherit=True)
        head, _, tail = name.rpartition("/")
        out = zipfile.ZipInfo(f"{head}/__pycache__/{tail[:-3]}.{sys.implementation.cache_tag}.pyc",
                              date_time=(2020, 1, 1, 0, 0, 0))
        out.compress_type = zipfile.ZIP_DEFLATED
        out.external_attr = 0o644 << 16
        dst.writestr(out, bytes(_code_to_hash_pyc(code, source_hash(data), checked=False)))
len(dst.namelist())
`);
  writeFileSync(opts.pyscript[1], py.FS.readFile("/tmp/pyscript_pyc.zip"));
}
const out = py.FS.readFile("/tmp/stdlib_out.zip");
writeFileSync(outZip, out);
const parsed = { ...JSON.parse(report), ...report_extra };
parsed.bytes = out.length;
console.log(JSON.stringify(parsed));
