"""What the chart tests share: an SVG's texts and maker, and the check that a picture the docs
show is what its documented command makes now."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from clitools import ROOT, ok

SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(svg: bytes) -> list[str]:
    """Every text of the SVG, as a viewer shows it (it must parse; a zero width space shows
    nothing)."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()).strip().lstrip("\u200b") for t in root.iter(f"{SVG}text")]


def creator(svg: bytes) -> str:
    found = re.search(rb"<dc:title>(gongzhu-score [^<]*)</dc:title>", svg)
    assert found, "the SVG says what made it"
    return found.group(1).decode()


def docs_picture_is_current(command: list[str], kept: str, out: Path) -> None:
    """``command`` (run from the repository's root, it writes the docs' picture ``kept``) is the
    one docs/table.md gives, and run again into ``out`` it makes the very same file; made with
    another matplotlib or font, the layout may move a pixel, so then every text must be the
    same. GONGZHU_UPDATE_GOLDEN=1 makes the picture again first."""
    if os.environ.get("GONGZHU_UPDATE_GOLDEN"):
        old = Path.cwd()
        os.chdir(ROOT)
        try:
            ok(*command)
        finally:
            os.chdir(old)
    assert f"gongzhu-score {' '.join(command)}" in (ROOT / "docs" / "table.md").read_text(
        encoding="utf-8"
    )
    ok(*[str(out) if word == kept else word for word in command])
    now, was = out.read_bytes(), (ROOT / kept).read_bytes()
    if creator(now) == creator(was):
        assert now == was, f"{kept} is stale: GONGZHU_UPDATE_GOLDEN=1 makes it again"
    else:
        assert svg_texts(now) == svg_texts(was)
