"""The page's own files: the icons are what tests/make_icons.py draws (so they can be drawn
again), real PNGs of the sizes the manifest names."""

from __future__ import annotations

import struct

import make_icons
import pytest


@pytest.mark.parametrize("size", make_icons.SIZES)
def test_each_icon_is_the_drawing_of_its_size(size: int) -> None:
    kept = (make_icons.STATIC / f"icon-{size}.png").read_bytes()
    assert kept == make_icons.png(size)
    assert kept.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", kept[16:24]) == (size, size)
