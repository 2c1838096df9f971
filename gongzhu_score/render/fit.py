"""Text that fits a width: display columns, wrapped lines, shortened names, split tables.

A Chinese character takes two columns; a split table loses none of its cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .formats import table

__all__ = ["columns", "fitted_table", "listed", "shortened", "widest", "wrapped"]


def columns(text: str) -> int:
    """Display width: a Chinese character takes two columns.

    wcwidth is asked only for characters the simple table's list does not know, so a common
    table pays nothing to import it.
    """
    from .simple import width

    known = width(text)
    if known is not None:
        return known
    from wcwidth import wcswidth

    return max(wcswidth(text), len(text))


def widest(text: str) -> int:
    """The display width of the widest line of ``text``."""
    return max((columns(line) for line in text.split("\n")), default=0)


def _head(text: str, width: int) -> str:
    """The longest start of ``text`` within ``width`` columns."""
    used = 0
    for k, char in enumerate(text):
        used += columns(char)
        if used > width:
            return text[:k]
    return text


def shortened(text: str, width: int, middle: bool = False) -> str:
    """``text`` cut to ``width`` columns, ending in ``…`` when cut.

    With ``middle``, its start and end are kept around the ``…``, so names that begin alike stay
    apart.
    """
    if columns(text) <= width:
        return text
    room = width - 1  # (the … takes one column)
    if not middle:
        return _head(text, room) + "…"
    head = _head(text, (room + 1) // 2)
    tail = _head(text[::-1], room - columns(head))[::-1]
    return f"{head}…{tail}"


# A word: a Chinese character (with the punctuation after it), or a run of other characters
# that are not spaces (with any Chinese punctuation after it), then the spaces after it. A line
# may break after any word, so Chinese text breaks between characters and other text at spaces.
_IDEOGRAPH = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"
_WORD = re.compile(
    rf"(?:[{_IDEOGRAPH}]|[^\s{_IDEOGRAPH}{_PUNCTUATION}]+|[{_PUNCTUATION}]+)"
    rf"[{_PUNCTUATION}]*\s*"
)


def wrapped(text: str, width: int | None, indent: str = "  ") -> list[str]:
    """``text`` as lines of at most ``width`` columns, later lines indented.

    ``width`` None is one line. A word wider than a line is broken where it must be.
    """
    if width is None or columns(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for word in _WORD.findall(text):
        if line.strip() and columns((line + word).rstrip()) > width:
            lines.append(line.rstrip())
            line = indent
        while columns((line + word).rstrip()) > width and len(word.strip()) > 1:
            head = _head(word, width - columns(line)) or word[0]  # (at least one character)
            lines.append(line + head)
            line, word = indent, word[len(head) :]
        line += word
    if line.strip():
        lines.append(line.rstrip())
    return lines


def listed(
    head: str, items: list[str], separator: str, width: int, indent: str = "  "
) -> list[str]:
    """``head``, then ``items`` joined by ``separator``, wrapped to ``width``.

    Lines break between items; an item wider than a line is wrapped as text.
    """
    lines: list[str] = []
    line = head
    for k, item in enumerate(items):
        piece = item + (separator if k < len(items) - 1 else "")
        if line.strip() and columns(line + piece.rstrip()) > width:
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines += wrapped(line.rstrip(), width, indent)
    return lines


def fitted_table(
    rows: Sequence[Sequence[Any]],
    headers: Sequence[Any],
    table_format: str,
    colalign: Sequence[str],
    width: int | None,
) -> list[str]:
    """The table, split into blocks that fit ``width``; whole when it fits.

    Each block has the first column (the key) and as many of the next columns as fit, so every
    cell is shown; no ``width`` means one block. Empty columns are left out. A block of the key
    and one column wider than ``width`` is shown as it is: a cell is never cut.
    """
    whole = table(rows, headers, table_format, colalign=tuple(colalign))
    if width is None or widest(whole) <= width:
        return [whole]
    kept = [k for k in range(len(headers)) if k == 0 or any(str(row[k]).strip() for row in rows)]

    def block(chosen: Sequence[int]) -> str:
        picked = [0, *chosen]
        return table([[row[k] for k in picked] for row in rows], [headers[k] for k in picked],
                     table_format, colalign=tuple(colalign[k] for k in picked))  # fmt: skip

    blocks: list[str] = []
    rest = kept[1:]
    while rest:
        size = 1
        best = block(rest[:1])
        while size < len(rest):
            trial = block(rest[: size + 1])
            if widest(trial) > width:
                break
            size, best = size + 1, trial
        blocks.append(best)
        rest = rest[size:]
    return blocks
