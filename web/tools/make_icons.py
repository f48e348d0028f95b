#!/usr/bin/env python3
"""Draw the PNG app icons of the web app manifest (stdlib only, deterministic).

Usage::

    python web/tools/make_icons.py   # rewrites web/static/icons/icon-{192,512}.png, icon-maskable-512.png

The same picture as ``web/static/icons/icon.svg``: a white die showing 5 on green.
``icon-maskable-512.png`` fills the whole square with green and keeps the die
inside the central "safe zone" (a circle of 40 % of the size), so a phone may
crop it to any shape.  The PNGs are committed; this script is not part of the
site (nothing of web/tools/ is served) and only needs re-running if the design
changes.  Shapes are drawn with signed distances: 1-pixel anti-aliasing.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (0x1F, 0x6F, 0x4A)
WHITE = (0xFF, 0xFF, 0xFF)
PIP = (0x1F, 0x23, 0x28)


def rounded_rect_sdf(x, y, cx, cy, half, radius):
    qx = abs(x - cx) - (half - radius)
    qy = abs(y - cy) - (half - radius)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - radius


def coverage(distance):
    return min(1.0, max(0.0, 0.5 - distance))


def draw(size: int, maskable: bool) -> bytes:
    """RGBA rows of the icon (64-unit design of icon.svg scaled to *size*)."""
    u = size / 64
    if maskable:
        die_half, die_radius = 18 * u, 7.2 * u  # 36/64 of the width: inside the safe zone
    else:
        die_half, die_radius = 20 * u, 8 * u
    pip_r = die_half * 0.2
    pip_off = die_half * 0.5
    c = size / 2
    pips = [(c + dx * pip_off, c + dy * pip_off) for dx, dy in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1))]
    rows = []
    for j in range(size):
        row = bytearray([0])  # filter type 0
        y = j + 0.5
        for i in range(size):
            x = i + 0.5
            # back to front: green tile, white die, pips
            a_bg = 1.0 if maskable else coverage(rounded_rect_sdf(x, y, c, c, c, 14 * u))
            rgb = GREEN
            a_die = coverage(rounded_rect_sdf(x, y, c, c, die_half, die_radius))
            if a_die:
                rgb = tuple(g + (w - g) * a_die for g, w in zip(rgb, WHITE))
                d_pip = min(math.hypot(x - px, y - py) for px, py in pips) - pip_r
                a_pip = coverage(d_pip)
                if a_pip:
                    rgb = tuple(v + (p - v) * a_pip for v, p in zip(rgb, PIP))
            row += bytes(round(v) for v in rgb) + bytes([round(255 * a_bg)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(size: int, rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rgba_rows, 9)) + chunk(b"IEND", b""))


def main() -> None:
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("icon-maskable-512.png", 512, True)):
        path = ICONS / name
        path.write_bytes(png(size, draw(size, maskable)))
        print(f"wrote {path} ({path.stat().st_size:,d} bytes)")


if __name__ == "__main__":
    main()
