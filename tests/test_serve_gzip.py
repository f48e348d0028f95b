"""web/tools/serve.py's gzip (as GitHub Pages compresses): text types and WebAssembly only, only to
a client that accepts it, the exact bytes once decompressed; off by default."""

from __future__ import annotations

import gzip
import http.client

import pytest
import serve

FILES = {
    "index.html": b"<!doctype html><title>x</title>" + b"<p>bonjour</p>" * 200,
    "a.js": b"export const a = 1;\n" * 300,
    "s.css": b"body { color: black; }\n" * 300,
    "d.json": b'{"a": [' + b"1," * 500 + b"1]}",
    "m.wasm": b"\0asm\1\0\0\0" + b"\0" * 4000,
    "i.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 4000,
    "t.tar.gz": gzip.compress(b"x" * 4000),
    "sub/index.html": b"<p>sub</p>" * 100,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    for name, data in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    servers = {}
    for flag in (True, False):
        servers[flag] = serve.start_server(root, prefix="/p/", gzip=flag)
    yield {flag: srv.server_address[1] for flag, (srv, _) in servers.items()}
    for srv, _ in servers.values():
        srv.shutdown()
        srv.server_close()


def get(port, path, method="GET", **headers):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path, headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp, body


@pytest.mark.parametrize("name", ["index.html", "a.js", "s.css", "d.json", "m.wasm", "sub/index.html"])
def test_text_types_and_wasm_are_compressed(site, name):
    resp, body = get(site[True], "/p/" + name, **{"Accept-Encoding": "gzip, deflate, br"})
    assert resp.status == 200
    assert resp.getheader("Content-Encoding") == "gzip"
    assert resp.getheader("Vary") == "Accept-Encoding"
    assert int(resp.getheader("Content-Length")) == len(body) < len(FILES[name])
    assert gzip.decompress(body) == FILES[name]


def test_directory_index_is_compressed(site):
    resp, body = get(site[True], "/p/sub/", **{"Accept-Encoding": "gzip"})
    assert resp.getheader("Content-Encoding") == "gzip"
    assert gzip.decompress(body) == FILES["sub/index.html"]


@pytest.mark.parametrize("name", ["i.png", "t.tar.gz"])
def test_images_and_archives_go_as_they_are(site, name):
    resp, body = get(site[True], "/p/" + name, **{"Accept-Encoding": "gzip"})
    assert resp.getheader("Content-Encoding") is None
    assert body == FILES[name]


def test_no_gzip_without_accept_encoding_nor_by_default(site):
    resp, body = get(site[True], "/p/a.js", **{"Accept-Encoding": "identity"})
    assert resp.getheader("Content-Encoding") is None and body == FILES["a.js"]
    resp, body = get(site[False], "/p/a.js", **{"Accept-Encoding": "gzip"})
    assert resp.getheader("Content-Encoding") is None and body == FILES["a.js"]
    assert resp.getheader("Vary") is None


def test_head_304_redirect_and_404(site):
    port = site[True]
    _, sent = get(port, "/p/a.js", **{"Accept-Encoding": "gzip"})
    resp, body = get(port, "/p/a.js", "HEAD", **{"Accept-Encoding": "gzip"})
    assert resp.getheader("Content-Encoding") == "gzip" and body == b""
    assert int(resp.getheader("Content-Length")) == len(sent)
    modified = resp.getheader("Last-Modified")
    resp, body = get(port, "/p/a.js", **{"Accept-Encoding": "gzip", "If-Modified-Since": modified})
    assert resp.status == 304 and body == b""
    resp, body = get(port, "/p/sub", **{"Accept-Encoding": "gzip"})
    assert resp.status == 301 and resp.getheader("Content-Length") == "0"
    resp, body = get(port, "/p/nope.js", **{"Accept-Encoding": "gzip"})
    assert resp.status == 404 and resp.getheader("Content-Encoding") is None
