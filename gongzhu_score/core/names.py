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
>>> canonical_name("e\\u200b\\u0301") == "\\u00e9"
True
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["canonical_name", "is_canonical_name", "written_form"]

_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
"""Characters that draw nothing (format characters, fillers, blanks, selectors)."""

_JOINING_SCRIPTS = ((0x0600, 0x08FF), (0x0900, 0x0DFF), (0x0F00, 0x109F), (0x1780, 0x17FF),
                    (0xFB50, 0xFDFF), (0xFE70, 0xFEFC))  # fmt: skip
"""Arabic, Syriac, the Indic scripts, Tibetan, Myanmar, Khmer: where ZWNJ and ZWJ change how
letters join."""
_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))
_SELECTOR_16 = "\ufe0e\ufe0f"  # text and emoji presentation
_TAG_BLACK_FLAG = "\U0001f3f4"  # 🏴, which tag characters spell a flag after


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


def _emoji(char: str) -> bool:
    """A pictograph, a symbol or an emoji modifier, or the selector that made one emoji."""
    if char in _SELECTOR_16:
        return True
    return 0x1F000 <= ord(char) <= 0x1FAFF or unicodedata.category(char) in ("So", "Sk")


def _kept(char: str, before: str, after: str) -> bool:
    """Whether the invisible ``char`` changes how its neighbours are drawn: ``before`` is the
    last character kept, ``after`` the next one ("" at either end)."""
    if not before or before.isspace():
        return False
    code = ord(char)
    if (
        char == "\u200d"
        and after
        and _emoji(before)
        and _emoji(after)
        and after not in _SELECTOR_16
    ):
        return True  # 👨‍👩‍👧, ❤️‍🔥
    if char in "\u200c\u200d":  # (letters that join, or not)
        return (
            bool(after) and _within(before, _JOINING_SCRIPTS) and _within(after, _JOINING_SCRIPTS)
        )
    if char in _SELECTOR_16:  # ❤️, 1️⃣
        return _emoji(before) or before in "0123456789#*"
    if 0xE0020 <= code <= 0xE007F:  # a subdivision flag: 🏴 then its tag characters
        return before == _TAG_BLACK_FLAG or 0xE0020 <= ord(before) <= 0xE007F
    if 0xE0100 <= code <= 0xE01EF:  # an ideographic variation sequence
        return _within(before, _HAN)
    return False


def _pass(text: str) -> tuple[str, str | None]:
    """``text`` without the invisible characters that change nothing, and the first removed."""
    kept: list[str] = []
    removed: str | None = None
    for i, char in enumerate(text):
        if _INVISIBLE.match(char) is None:
            kept.append(char)
            continue
        if _kept(char, kept[-1] if kept else "", text[i + 1 : i + 2]):
            kept.append(char)
        elif removed is None:
            removed = char
    return "".join(kept), removed


def written_form(name: str) -> tuple[str, str | None]:
    """:func:`canonical_name` of ``name``, and the first invisible character it removes (None
    when it removes none: only the composition, or the surrounding spaces, differ)."""
    text = unicodedata.normalize("NFC", name)
    if _INVISIBLE.search(text) is None:
        return text.strip(), None
    first: str | None = None
    while True:  # (a removal may bring a letter and its accent together: compose, look again)
        again, removed = _pass(text)
        first = first or removed
        again = unicodedata.normalize("NFC", again)
        if again == text:
            return text.strip(), first
        text = again


def canonical_name(name: str) -> str:
    """``name`` composed (NFC), every invisible character that changes nothing removed, and
    trimmed; empty when nothing visible is left."""
    return written_form(name)[0]


def is_canonical_name(name: str) -> bool:
    """Whether ``name`` is already in its one written form (fast for ASCII and plain text)."""
    if name.isascii():
        return True
    if _INVISIBLE.search(name) is None and unicodedata.is_normalized("NFC", name):
        return True
    return canonical_name(name) == name
