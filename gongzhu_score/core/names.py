"""A player's name in its one written form: Unicode NFC, no character that cannot be seen
(rulings §9).

Two names that look the same are the same name, so a name is taken only in its canonical form:
composed (NFC), with no invisible character (a zero-width space, a word joiner, a Hangul filler,
a braille blank) except the joiners and selectors that change how emoji and some scripts are
drawn. :func:`canonical_name` gives the form a refused name should be written in.

>>> canonical_name("A\\u200b")
'A'
>>> canonical_name("e\\u0301") == "\\u00e9"
True
>>> canonical_name("\\u3164")
''
>>> canonical_name("👨\\u200d👩\\u200d👧") == "👨\\u200d👩\\u200d👧"
True
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["canonical_name", "invisible_character", "is_canonical_name"]

_INVISIBLE = re.compile(
    "[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200d\u2060-\u2064\u206a-\u206f"
    "\u2800\u3164\ufe00-\ufe0f\uffa0\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e0fff]"
)
"""Characters that draw nothing (format characters, fillers, blanks, selectors)."""

_JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: kept between two visible characters, neither ASCII
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef\U000e0020-\U000e007f]")
"""Variation selectors and emoji tag characters: kept right after a visible character."""


def invisible_character(name: str) -> str | None:
    """The first character of ``name`` that draws nothing, or None."""
    found = _INVISIBLE.search(name)
    return None if found is None else found.group()


def _kept(text: str, i: int, before: str) -> bool:
    """Whether the invisible ``text[i]`` changes how its neighbours are drawn (``before``: the
    last character kept)."""
    char = text[i]
    if not before or before.isspace():
        return False
    if char in _JOINERS:
        after = text[i + 1] if i + 1 < len(text) else ""
        visible = after and not after.isspace() and _INVISIBLE.match(after) is None
        return bool(visible) and not before.isascii() and not after.isascii()
    return _SELECTORS.match(char) is not None


def canonical_name(name: str) -> str:
    """``name`` composed (NFC), every invisible character that changes nothing removed, and
    trimmed; empty when nothing visible is left."""
    text = unicodedata.normalize("NFC", name)
    if _INVISIBLE.search(text) is None:
        return text.strip()
    kept: list[str] = []
    for i, char in enumerate(text):
        if _INVISIBLE.match(char) is None or _kept(text, i, kept[-1] if kept else ""):
            kept.append(char)
    return "".join(kept).strip()


def is_canonical_name(name: str) -> bool:
    """Whether ``name`` is already in its one written form (fast for ASCII and plain text)."""
    if name.isascii():
        return True
    if _INVISIBLE.search(name) is None and unicodedata.is_normalized("NFC", name):
        return True
    return canonical_name(name) == name
