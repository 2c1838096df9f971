"""tabulate's default ``simple`` table style, written here byte for byte.

Importing tabulate and wcwidth costs about 40 ms, a third of a ``score`` from start to end, to
print one small table. The default style is simple enough to write here: header, a line of
dashes, rows; cells stripped, padded to the column's width (at least the header's plus two), two
spaces between columns, trailing spaces dropped. What only tabulate knows stays with it: any
other style, numbers to align on their decimal point, and any character whose display width is
not certain here. Widths are known for ASCII, the symbols this tool prints (♠ × → ⅓ ▁…) and the
CJK ranges that a terminal always shows two columns wide; a name in another script (emoji, Thai,
combining accents) sends the table to tabulate. ``tests/test_formats.py`` checks every table
here against tabulate's, on random tables and on every character of these ranges.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NARROW", "WIDE", "simple_table", "width"]

NARROW = frozenset("·×–—‘’“”…→−≠≤≥±⅓⅔▁▂▃▄▅▆▇█♠♣♥♦")
"""Characters beyond ASCII that take one column (as wcwidth measures them)."""

WIDE = (
    (0x3000, 0x3003),  # ideographic space and punctuation: 、。〃
    (0x3008, 0x3011),  # 〈〉《》「」『』【】
    (0x3400, 0x4DBF),  # CJK Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xFF01, 0xFF5E),  # full-width forms: ，：；（）！？ and full-width letters and digits
)
"""Ranges of characters that take two columns."""


def _char_width(char: str) -> int | None:
    code = ord(char)
    if 0x20 <= code < 0x7F or char in NARROW:
        return 1
    for low, high in WIDE:
        if low <= code <= high:
            return 2
    return None


def width(text: str) -> int | None:
    """Columns ``text`` takes on a terminal; None if any width is in doubt."""
    if text.isascii():
        return len(text) if text.isprintable() else None
    total = 0
    for char in text:
        one = _char_width(char)
        if one is None:
            return None
        total += one
    return total


def _pad(text: str, shown: int, size: int, align: str) -> str:
    # Python's own alignment, the width corrected for wide characters, as tabulate does it.
    room = size + len(text) - shown
    if align == "right":
        return f"{text:>{room}}"
    if align == "center":
        return f"{text:^{room}}"
    return f"{text:<{room}}"


def simple_table(
    rows: Sequence[Sequence[object]],
    headers: Sequence[object],
    colalign: Sequence[str] | None = None,
) -> str | None:
    """The table in tabulate's ``simple`` style, or None if only tabulate can.

    There is no number parsing; the module's text says when tabulate is needed.
    """
    heads = [str(h) for h in headers]
    count = len(heads)
    if not count or any(len(row) != count for row in rows):
        return None
    aligns = ["left"] * count
    if rows:  # (with no rows tabulate aligns every header left)
        for k, align in enumerate((colalign or ())[:count]):
            if align != "global":
                aligns[k] = align
    if any(a not in ("left", "right", "center") for a in aligns):
        return None
    head_widths = []
    for head in heads:
        shown = width(head)
        if shown is None or "\n" in head:
            return None
        head_widths.append(shown)
    columns: list[list[str]] = []
    sizes: list[int] = []
    for k in range(count):
        texts = ["" if row[k] is None else str(row[k]).strip() for row in rows]
        shown_widths: list[int] = []
        for text in texts:
            shown = width(text)
            if shown is None or "\n" in text:
                return None
            shown_widths.append(shown)
        size = max([head_widths[k] + 2, *shown_widths])
        sizes.append(size)
        columns.append(
            [_pad(t, w, size, aligns[k]) for t, w in zip(texts, shown_widths, strict=True)]
        )
    lines = [
        "  ".join(_pad(h, w, s, a) for h, w, s, a in zip(heads, head_widths, sizes, aligns,
                                                          strict=True)).rstrip(),
        "  ".join("-" * s for s in sizes).rstrip(),
    ]  # fmt: skip
    lines += ["  ".join(cells).rstrip() for cells in zip(*columns, strict=True)]
    return "\n".join(lines)
