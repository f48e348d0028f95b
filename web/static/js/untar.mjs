// Reads a .tar.gz (the game's files: web/tools/build.py makes it): one gzip stream inflated by the
// browser's own DecompressionStream, then the tar records.  js/pyodide-fast.mjs writes the
// files into Python's file system with it: a few ms, where PyScript's `files` unpacking in
// Python took 40-70 ms of the page's start.
//
//   const files = await readTarGz(response);  // [{name, data: Uint8Array}] (files only)
//
// Plain ustar/GNU/POSIX archives of regular files and directories, as Python's tarfile
// writes them; anything else is refused.

const BLOCK = 512;
const text = new TextDecoder();

function field(bytes, start, length) {
  const raw = bytes.subarray(start, start + length);
  const end = raw.indexOf(0);
  return text.decode(end < 0 ? raw : raw.subarray(0, end));
}

function octal(bytes, start, length) {
  const value = field(bytes, start, length).trim();
  if (!/^[0-7]*$/.test(value)) throw new Error("corrupt tar header");
  return value ? parseInt(value, 8) : 0;
}

export function readTar(bytes) {
  const files = [];
  let at = 0;
  let longName = null;
  while (at + BLOCK <= bytes.length) {
    const header = bytes.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;  // end of archive
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
    if (sum !== octal(header, 148, 8)) throw new Error("corrupt tar header (checksum)");
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const prefix = text.decode(header.subarray(257, 263)).startsWith("ustar") ? field(header, 345, 155) : "";
    let name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = null;
    const data = bytes.subarray(at + BLOCK, at + BLOCK + size);
    if (data.length !== size) throw new Error(`${name}: truncated`);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "L") {  // GNU long name: the next record's name
      longName = field(data, 0, size);
    } else if (type === "x") {  // POSIX extended header: a path may be in it
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text.decode(data));
      if (path) longName = path[1];
    } else if (type === "0" || type === "\0") {
      if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`${name}: unsafe path`);
      files.push({ name: name.replace(/^\.\//, ""), data });
    } else if (type !== "5") {  // directories are made as needed
      throw new Error(`${name}: unsupported tar entry type ${type}`);
    }
  }
  return files;
}

export async function readTarGz(response) {
  const stream = response.body.pipeThrough(new DecompressionStream("gzip"));
  return readTar(new Uint8Array(await new Response(stream).arrayBuffer()));
}
