#!/usr/bin/env python3
"""Serve the built site (``dist/``) on 127.0.0.1, like GitHub Pages would.

Usage::

    python web/tools/serve.py [PORT] [--dir dist] [--prefix /pygames/] [--no-cache]

* Binds 127.0.0.1 only (default port 8000).
* Explicit MIME types (``.wasm`` application/wasm, ``.mjs``/``.js``
  text/javascript, ``.py`` text/plain, ``.zip`` application/zip, ``.json``
  application/json, ``.webmanifest`` application/manifest+json, ...), never
  the platform's ``mimetypes`` guess for those.
* Caching like GitHub Pages: ``Cache-Control: max-age=600`` plus
  ``Last-Modified``/``If-Modified-Since`` (304).  No query-string busting, no
  ``no-store``: a warm browser cache behaves as it would in production.
  ``--no-cache`` sends ``Cache-Control: no-cache`` instead (always revalidate,
  handy while editing).
* HTTP/1.1 with keep-alive; no directory listings; ``/404.html`` (if present)
  is the body of 404 answers.
* ``--prefix /pygames/`` serves the site under that sub-path, as for a GitHub
  Pages *project* site; anything outside the prefix is a 404.
* ``--gzip`` compresses as GitHub Pages does: ``Content-Encoding: gzip`` (and
  ``Vary: Accept-Encoding``) for the text types (HTML, CSS, JavaScript, JSON,
  SVG, plain text, XML, the manifest) and WebAssembly, when the browser accepts
  gzip; images, archives and fonts go as they are.  Off by default (the tests
  and benchmarks count the bytes of the files themselves).

As a library (used by the e2e tests and the benchmarks)::

    from serve import start_server
    server, base_url = start_server("dist", prefix="/pygames/")  # gzip=True: compressed
    ...  # base_url == "http://127.0.0.1:<free port>/pygames/"
    server.shutdown(); server.server_close()
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import os
import posixpath
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DIR = ROOT / "dist"
HOST = "127.0.0.1"
PAGES_CACHE_CONTROL = "max-age=600"  # what GitHub Pages sends

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".tar": "application/x-tar",
    ".gz": "application/gzip",
    ".xz": "application/x-xz",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".wav": "audio/wav",
    ".xml": "application/xml",
    "": "application/octet-stream",
}

#: What GitHub Pages sends gzip-compressed (to a browser that accepts it).
GZIP_TYPES = ("text/", "application/javascript", "application/json", "application/manifest+json",
              "application/xml", "image/svg+xml", "application/wasm")


def normalise_prefix(prefix: str | None) -> str:
    """``None``/``""``/``"/"`` -> ``"/"``; ``"pygames"`` -> ``"/pygames/"``."""
    prefix = (prefix or "/").strip()
    if not prefix.startswith("/"):
        prefix = "/" + prefix
    if not prefix.endswith("/"):
        prefix += "/"
    return prefix


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static file handler for the built site.  Configure through
    :func:`make_handler` (``directory``, ``prefix``, ``cache_control``)."""

    protocol_version = "HTTP/1.1"
    extensions_map = MIME_TYPES
    server_version = "pygames-serve"
    sys_version = ""

    prefix = "/"
    cache_control: str | None = PAGES_CACHE_CONTROL
    quiet = False
    #: Compress the text types with gzip as GitHub Pages does (see GZIP_TYPES).
    gzip = False
    #: Compressed bodies: (file path, mtime, size) -> gzip bytes, shared by the handlers.
    _gzipped: dict = {}
    #: In-memory files (site-relative path -> bytes) served as if they were in
    #: the directory; used by tests for throw-away pages on the same origin.
    extra_files: dict[str, bytes] = {}

    # -- routing ---------------------------------------------------------
    def _site_path(self) -> str | None:
        """URL path relative to the site root, or None when outside the prefix."""
        path = urllib.parse.urlsplit(self.path).path
        if self.prefix == "/":
            return path
        if path + "/" == self.prefix:
            return ""  # "/pygames" -> redirect below
        if not path.startswith(self.prefix):
            return None
        return "/" + path[len(self.prefix):]

    def send_head(self):
        site_path = self._site_path()
        if site_path is None:
            self.send_error(404, "Outside of the site prefix")
            return None
        if site_path == "":
            self._redirect(self.prefix)
            return None
        served = getattr(self.server, "served", None)
        if served is not None:
            served.append(site_path)  # list.append is atomic: safe across threads
        extra = self.extra_files.get(site_path.lstrip("/"))
        self._gzip_body = None
        if extra is not None:
            body = self._send_bytes(extra, self.guess_type(site_path))
        else:
            self._gzip_body = self._compressed(self.translate_path(self.path))
            body = super().send_head()
            if self._gzip_body is not None and body is not None and not isinstance(body, io.BytesIO):
                body.close()  # the headers announced the compressed body: send that
                body = io.BytesIO(self._gzip_body)
        sent = getattr(self.server, "sent", None)
        if sent is not None:
            if body is None:
                size = 0
            elif isinstance(body, io.BytesIO):
                size = len(body.getbuffer())
            else:
                size = os.fstat(body.fileno()).st_size
            sent.append((site_path, getattr(self, "_status", 0), size, time.monotonic()))
        return body

    def _compressed(self, path: str) -> bytes | None:
        """The gzip body of the file at *path*, when this server compresses and the
        browser accepts it; else None (the file goes as it is)."""
        if not self.gzip or self.command not in ("GET", "HEAD"):
            return None
        accepted = [part.split(";")[0].strip().lower()
                    for part in self.headers.get("Accept-Encoding", "").split(",")]
        if "gzip" not in accepted:
            return None
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not self.guess_type(path).startswith(GZIP_TYPES):
            return None
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (path, stat.st_mtime_ns, stat.st_size)
        body = self._gzipped.get(key)
        if body is None:
            with open(path, "rb") as f:
                body = gzip.compress(f.read(), compresslevel=6, mtime=0)
            self._gzipped[key] = body
        return body

    def send_header(self, keyword, value) -> None:
        if (getattr(self, "_gzip_body", None) is not None and keyword.lower() == "content-length"
                and getattr(self, "_status", 0) == 200):
            value = str(len(self._gzip_body))
            super().send_header("Content-Encoding", "gzip")
        super().send_header(keyword, value)

    def _send_bytes(self, body: bytes, content_type: str):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def translate_path(self, path: str) -> str:
        # Called by send_head with self.path: strip the prefix first.
        path = urllib.parse.urlsplit(path).path
        if self.prefix != "/" and path.startswith(self.prefix):
            path = "/" + path[len(self.prefix):]
        return super().translate_path(path)

    def list_directory(self, path):  # no listings, like GitHub Pages
        self.send_error(404, "Not Found")
        return None

    def _redirect(self, location: str) -> None:
        self.send_response(301)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    # -- headers -----------------------------------------------------------
    def guess_type(self, path) -> str:
        name = os.fspath(path)
        base, ext = posixpath.splitext(name)
        if ext == ".gz" and base.endswith(".tar"):
            return MIME_TYPES[".gz"]
        return MIME_TYPES.get(ext.lower()) or super().guess_type(path)

    def end_headers(self) -> None:
        if self.cache_control and getattr(self, "_status", 200) in (200, 304):
            self.send_header("Cache-Control", self.cache_control)
        if self.gzip and getattr(self, "_status", 200) in (200, 304):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def send_response(self, code, message=None) -> None:
        self._status = code
        super().send_response(code, message)

    def send_error(self, code, message=None, explain=None) -> None:
        self._gzip_body = None  # an error page goes as it is
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file() and self.command != "HEAD":
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", MIME_TYPES[".html"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, format, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_handler(directory: str | os.PathLike = DEFAULT_DIR, prefix: str | None = "/",
                 cache_control: str | None = PAGES_CACHE_CONTROL, quiet: bool = False,
                 extra_files: dict[str, bytes] | None = None, gzip: bool = False):
    """A handler class bound to *directory*, serving it under *prefix* (gzip: compress
    the text types as GitHub Pages does)."""
    attrs = {"prefix": normalise_prefix(prefix), "cache_control": cache_control, "quiet": quiet,
             "extra_files": {k.lstrip("/"): v for k, v in (extra_files or {}).items()},
             "gzip": gzip, "_gzipped": {}}
    cls = type("BoundSiteHandler", (SiteHandler,), attrs)
    return functools.partial(cls, directory=os.fspath(directory))


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: Site-relative path of every request that reached the server (tests
        #: and benchmarks use it to tell cache hits from network fetches).
        self.served: list[str] = []
        #: (site-relative path, status, body bytes, time.monotonic()) of every response:
        #: a 304 (the browser's copy is still good) sends no body.
        self.sent: list[tuple[str, int, int, float]] = []

    def handle_error(self, request, client_address):
        # A browser closing a connection it no longer needs is not an error worth a traceback.
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


def start_server(directory: str | os.PathLike = DEFAULT_DIR, prefix: str | None = "/",
                 port: int = 0, cache_control: str | None = PAGES_CACHE_CONTROL,
                 quiet: bool = True, extra_files: dict[str, bytes] | None = None,
                 gzip: bool = False):
    """Start a ThreadingHTTPServer on 127.0.0.1 (a free port when *port* is 0)
    in a daemon thread.  Returns ``(server, base_url)``; ``base_url`` ends with
    the prefix, e.g. ``http://127.0.0.1:41234/pygames/``.  Stop it with
    ``server.shutdown(); server.server_close()``.  *extra_files* maps
    site-relative paths to bytes served from memory (test pages); *gzip*
    compresses the text types as GitHub Pages does."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory} does not exist: build the site first (make build)")
    handler = make_handler(directory, prefix, cache_control, quiet, extra_files, gzip)
    server = _Server((HOST, port), handler)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    server.thread = thread  # type: ignore[attr-defined]
    base_url = f"http://{HOST}:{server.server_address[1]}{normalise_prefix(prefix)}"
    return server, base_url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the built site on 127.0.0.1")
    parser.add_argument("port", nargs="?", type=int, default=8000)
    parser.add_argument("--dir", default=str(DEFAULT_DIR), help="directory to serve (default dist/)")
    parser.add_argument("--prefix", default="/", help="URL sub-path, e.g. /pygames/")
    parser.add_argument("--no-cache", action="store_true",
                        help="send Cache-Control: no-cache (revalidate every time) instead of "
                             "GitHub Pages' max-age=600")
    parser.add_argument("--gzip", action="store_true",
                        help="compress the text types with gzip, as GitHub Pages does")
    args = parser.parse_args(argv)
    directory = Path(args.dir)
    if not directory.is_dir():
        sys.exit(f"serve.py: {directory} does not exist: run `make build` first")
    handler = make_handler(directory, args.prefix,
                           "no-cache" if args.no_cache else PAGES_CACHE_CONTROL, quiet=False,
                           gzip=args.gzip)
    with _Server((HOST, args.port), handler) as server:
        url = f"http://{HOST}:{server.server_address[1]}{normalise_prefix(args.prefix)}"
        print(f"Serving {directory} at {url} (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
