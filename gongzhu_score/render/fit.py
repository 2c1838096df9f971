"""Text that fits a width: display columns, wrapped lines, shortened names, split tables.

A Chinese character takes two columns; a split table loses none of its cells.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from wcwidth import wcswidth, wcwidth

from ..terms import printable
from .formats import table

__all__ = ["columns", "fitted_table", "listed", "short_name", "shortened", "widest", "wrapped"]


def columns(text: str) -> int:
    """Display width: the columns a terminal gives ``text``, as wcwidth measures them (a
    Chinese character takes two). The one measure of the package, and tabulate's own, so a
    table and the lines fitted around it agree; a character wcwidth cannot measure (a control
    character, which :func:`printable` keeps from any output) counts as none."""
    shown = wcswidth(text)
    return shown if shown >= 0 else sum(max(wcwidth(char), 0) for char in text)


def widest(text: str) -> int:
    """The display width of the widest line of ``text``."""
    return max((columns(line) for line in text.split("\n")), default=0)


def _head(text: str, width: int) -> str:
    """The longest start of ``text`` within ``width`` columns, each start measured whole by
    :func:`columns` (an emoji sequence joined with U+200D is one character wide, not its
    pieces' sum)."""
    start = text[: max(width, 0)]
    if start.isascii() and start.isprintable():
        return start
    fits, over = 0, len(text) + 1  # (a start of ``fits`` characters fits; one of ``over`` not)
    while over - fits > 1:
        middle = (fits + over) // 2
        if columns(text[:middle]) <= width:
            fits = middle
        else:
            over = middle
    return text[:fits]


def _wider(text: str, width: int) -> bool:
    """Whether ``text`` takes more than ``width`` columns."""
    return columns(text) > width


def shortened(text: str, width: int, middle: bool = False) -> str:
    """``text`` cut to ``width`` columns, ending in ``…`` when cut.

    With ``middle``, its start and end are kept around the ``…``, so names that begin alike stay
    apart.
    """
    if not _wider(text, width):
        return text
    room = width - 1  # (the … takes one column)
    if not middle:
        return _head(text, room) + "…"
    head = _head(text, (room + 1) // 2)
    tail = _head(text[::-1], room - columns(head))[::-1]
    return f"{head}…{tail}"


def short_name(name: str, width: int) -> str:
    """A name, or a side (``东+西``), shown printable with each name cut to ``width`` columns
    around a ``…`` (the start and the end kept, so that names that begin alike stay apart)."""
    return "+".join(shortened(printable(part), width, middle=True) for part in name.split("+"))


# A word: a Chinese character (with the punctuation after it), or a run of other characters
# that are not spaces (with any Chinese punctuation after it), then the spaces after it. A line
# may break after any word, so Chinese text breaks between characters and other text at spaces.
_IDEOGRAPH = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"
_WORD = re.compile(
    rf"(?:[{_IDEOGRAPH}]|[^\s{_IDEOGRAPH}{_PUNCTUATION}]+|[{_PUNCTUATION}]+)"
    rf"[{_PUNCTUATION}]*\s*"
)


def _more_than_one(body: str, at: int) -> bool:
    """Whether ``body[at:]`` holds more than one character that is not a space (looked at only
    near ``at``: a long rest holds more)."""
    return len(body) - at > 64 or len(body[at:].strip()) > 1


def wrapped(text: str, width: int | None, indent: str = "  ") -> list[str]:
    """``text`` as lines of at most ``width`` columns, later lines indented.

    ``width`` None is one line. A word wider than a line is broken where it must be.
    """
    if width is None or not _wider(text, width):
        return [text]
    width = max(width, 1)
    lines: list[str] = []
    line = ""
    for word in _WORD.findall(text):
        body = word.rstrip()  # (a word's spaces come only at its end)
        if line.strip() and _wider(line + body, width):
            lines.append(line.rstrip())
            line = indent
        at = 0  # (a long word is walked a line at a time, never copied whole per line)
        while _more_than_one(body, at) and _wider(line + body[at : at + 4 * width + 8], width):
            piece = body[at : at + 4 * width + 8]  # (more than a line holds)
            head = _head(piece, width - columns(line)) or piece[0]  # (at least one character)
            lines.append(line + head)
            line, at = indent, at + len(head)
        line += word[at:]
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


FOLD_COLUMNS = 16
"""In a table fitted to a width, a text cell wider than this (or a third of the width) is folded
over lines: every character stays, so the name can be typed back as it is read."""


def _multiline(table_format: str) -> bool:
    """Whether the table format draws a cell of several lines (not Markdown's, say)."""
    import tabulate

    return table_format in tabulate.multiline_formats


def _folded(cell: Any, width: int) -> Any:
    if not isinstance(cell, str) or "\n" in cell or not _wider(cell, width):
        return cell
    return "\n".join(wrapped(cell, width, indent=""))


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

    if _multiline(table_format):  # a column too wide even alone: its long texts folded, not cut
        fold = max(FOLD_COLUMNS, width // 3)
        wide = {k for k in kept[1:] if widest(block([k])) > width}
        headers = [_folded(h, fold) if k in wide else h for k, h in enumerate(headers)]
        rows = [[_folded(c, fold) if k in wide else c for k, c in enumerate(row)] for row in rows]

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
