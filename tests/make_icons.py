"""The page's home-screen icons, drawn in plain Python (no image library): a pig's face on the
table's green. ``python tests/make_icons.py`` writes gongzhu_score/web/static/icon-192.png and
icon-512.png; tests/test_web_files.py checks that the files are what it draws."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "gongzhu_score" / "web" / "static"
GREEN, PINK, SNOUT, DARK = (11, 110, 79), (246, 178, 196), (232, 128, 160), (90, 30, 50)


def _colour(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), both 0..1: inside circles and ellipses, back to front."""

    def inside(cx: float, cy: float, rx: float, ry: float) -> bool:
        return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1

    if inside(0.5, 0.64, 0.17, 0.11):  # the snout, with two nostrils
        if inside(0.44, 0.64, 0.035, 0.05) or inside(0.56, 0.64, 0.035, 0.05):
            return DARK
        return SNOUT
    if inside(0.37, 0.45, 0.035, 0.035) or inside(0.63, 0.45, 0.035, 0.035):  # the eyes
        return DARK
    if inside(0.5, 0.55, 0.32, 0.29):  # the face
        return PINK
    if inside(0.27, 0.27, 0.11, 0.11) or inside(0.73, 0.27, 0.11, 0.11):  # the ears
        return PINK
    return GREEN  # (a full square: "maskable" icons are cut to shape by the phone)


def png(size: int) -> bytes:
    rows = b"".join(
        b"\0" + bytes(v for x in range(size) for v in _colour((x + 0.5) / size, (y + 0.5) / size))
        for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))  # fmt: skip


SIZES = (192, 512)

if __name__ == "__main__":
    for n in SIZES:
        (STATIC / f"icon-{n}.png").write_bytes(png(n))
    sys.exit(0)
