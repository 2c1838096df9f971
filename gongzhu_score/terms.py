"""Every word the tool shows people, in English and Chinese: one table, one lookup.

``TERMS[key] = (english, chinese)``; :func:`say` picks the language and fills in the values.
The words live where they are used (the library's messages in :mod:`.messages`, the output's in
:mod:`.render.words`, the command line's in :mod:`.cli.words`) and join this one table.
Machine formats (JSON, CSV, YAML) never go through here: their keys stay English whatever the
language, so scripts do not depend on ``--lang``. Values may be a :class:`Names` (joined with
"and"/"、", or "nobody"), :class:`Cards` (as the language writes cards, or "nothing"), a card
(its symbol, ``Q♠``, or its Chinese name, ``黑桃Q``), anything with a ``term`` (a key of this
table: a suit says its word), or anything with a ``str``.

It sits at the bottom of the package beside :mod:`.errors` (it imports nothing of it), so that
every layer can speak both languages, errors included (:func:`error`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

from .errors import GongzhuError

__all__ = [
    "LANGS",
    "TERMS",
    "Both",
    "Cards",
    "Listed",
    "Names",
    "add_terms",
    "card_names",
    "colon",
    "error",
    "join",
    "place",
    "printable",
    "rule_name",
    "say",
    "title",
    "unsafe_character",
]

LANGS = ("en", "zh")

# One term a line, English then Chinese, so the two can be read side by side. Here: the words
# every message joins with; the library's messages (:mod:`.messages`) are added below, the
# output's headings and words (:mod:`.render.words`) and the command line's prompts and hints
# (:mod:`.cli.words`) when those are imported. A key names its part: ``error.…``, ``where.…``,
# ``violation.…`` (the library), ``match.…``, ``explain.…`` (the output), ``prompt.…``,
# ``hint.…`` (the command line).
# fmt: off
TERMS: dict[str, tuple[str, str]] = {
    "colon": (": ", "："),
    "comma": (", ", "，"),
    "semicolon": ("; ", "；"),
    "list": (", ", "、"),
    "and": (" and ", "、"),
    "or": (" or ", "、"),
    "nobody": ("nobody", "无人"),
    "nothing": ("nothing", "无"),
    "none": ("none", "无"),

    "suit.S": ("spades", "黑桃"),
    "suit.H": ("hearts", "红桃"),
    "suit.D": ("diamonds", "方块"),
    "suit.C": ("clubs", "梅花"),
}
# fmt: on


# What a terminal may take as a command rather than text, or as the end of a line: C0 and C1
# controls (ESC starts an escape sequence, U+009B is a one-byte CSI), DEL, the line and paragraph
# separators (YAML and many readers break lines there), the byte-order mark and the marks that
# reorder text (bidirectional overrides and isolates: text that displays other than it reads),
# and lone surrogates: bytes that were not UTF-8 (a file name, an argument: Python reads them
# as U+DC80…U+DCFF) cannot be written as UTF-8 at all.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff"
    "\ud800-\udfff]"
)


def unsafe_character(text: str) -> str | None:
    """The first character of ``text`` that cannot be shown as it is (see :func:`printable`),
    or None."""
    found = _UNSAFE.search(text)
    return None if found is None else found.group()


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, as backslashreplace writes it
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` safe to print on a terminal and on one line: every character that a terminal
    could act on, or a reader take as a line break, written as its escape (``\\x1b``,
    ``\\u2028``); a byte that was not UTF-8 as ``\\xff`` (Python's ``backslashreplace``), so
    the text is valid UTF-8, JSON included. Everything else (CJK, emoji, ♠) is kept."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


class Names(tuple[str, ...]):
    """Player names, shown joined with "and" (English) or "、" (Chinese), or "nobody"."""


class Listed(tuple[Any, ...]):
    """Items shown as a list: ``东, 南, 西, 北`` (English), ``东、南、西、北`` (Chinese); each item
    as a value is shown (a card in the language's notation: ``Q♠, J♦``, ``黑桃Q、方块J``)."""


class Cards(tuple[Any, ...]):
    """Cards, shown as the language writes them (:func:`card_names`), or "nothing"."""


class Both(tuple[str, str]):
    """Words already said in both languages (English, Chinese): a value of a term, or where an
    error happened (:meth:`GongzhuError.within`)."""


def _shown(value: object, lang: str) -> object:
    if isinstance(value, str):  # what came from input: a name, a file, a token
        return printable(value)
    if isinstance(value, GongzhuError):  # an error within another: in the same language
        return printable(value.text(lang))
    if isinstance(value, Both):
        return value[1] if lang == "zh" else value[0]
    if isinstance(value, Listed):
        return say("list", lang).join(str(_shown(item, lang)) for item in value)
    if isinstance(value, Names):
        return join(value, lang, "and") or say("nobody", lang)
    if isinstance(value, Cards):
        return card_names(value, lang) or say("nothing", lang)
    term = getattr(value, "term", None)
    if isinstance(term, str) and term in TERMS:  # a suit: spades, 黑桃
        return say(term, lang)
    zh = getattr(value, "zh", None)
    if isinstance(zh, str) and hasattr(value, "symbol"):  # a card: Q♠, 黑桃Q
        return zh if lang == "zh" else value.symbol
    return value


def card_names(cards: Iterable[Any], lang: str) -> str:
    """Cards as the language writes them, one notation each: in English their symbols
    (``Q♠ 10♣ 6♥ 8♥``); in Chinese their names, a suit's word then the rank, said once for a
    run of one suit (``黑桃Q 梅花10 红桃6 8``): what the card parser reads back."""
    if lang != "zh":
        return " ".join(c.symbol for c in cards)
    out: list[str] = []
    suit = None
    for card in cards:
        out.append(card.rank_name if card.suit is suit else card.zh)
        suit = card.suit
    return " ".join(out)


E = TypeVar("E", bound=GongzhuError)


def error(kind: type[E], key: str, /, **values: object) -> E:
    """An error of ``kind`` saying the term ``key`` (``e.…``), in English and in Chinese."""
    return kind(say(key, "en", **values), zh=say(key, "zh", **values))


def place(key: str, /, **values: object) -> Both:
    """A term in both languages: where an error happened (for :meth:`GongzhuError.within`),
    or a part of a message."""
    return Both((say(key, "en", **values), say(key, "zh", **values)))


def say(key: str, lang: str = "en", /, **values: object) -> str:
    """The term ``key`` in ``lang`` (``en`` or ``zh``), with ``values`` filled in."""
    text = TERMS[key][1 if lang == "zh" else 0]
    if not values and "{" not in text and "}" not in text:
        return text  # (a text with braces is formatted even without values: {{ is one brace)
    return text.format(**{k: _shown(v, lang) for k, v in values.items()})


def join(items: Iterable[object], lang: str, how: str = "list") -> str:
    """Items joined the way the language lists them (``how``: list, and, or, comma)."""
    return say(how, lang).join(printable(str(item)) for item in items)


def rule_name(rule: str, lang: str) -> str:
    """A rule as a table shows it: its name in a rules file, and in Chinese its meaning too
    (``红桃分值 heart_values``), so that either can be looked up."""
    key = f"rule.{rule}"
    if lang != "zh" or key not in TERMS or TERMS[key][1] == rule:
        return rule
    return f"{TERMS[key][1]} {rule}"


def title(variant: Any, lang: str) -> str:
    """A rule set's title in the language: ``Classic one-deck rules``, ``一副牌规则``; the other
    language's when a house rule gives only that one; empty when it gives none."""
    said, other = (
        (variant.title_zh, variant.title) if lang == "zh" else (variant.title, variant.title_zh)
    )
    return str(said or other)


def colon(lang: str) -> str:
    return say("colon", lang)


def count_of_hands(count: int, lang: str) -> str:
    """``1 hand``, ``3 hands``, ``3 局``."""
    return count_of("hands", count, lang)


def count_of(what: str, count: int, lang: str) -> str:
    """A count and its noun, singular or plural: ``1 match``, ``2 matches``."""
    return say(what if count == 1 else f"{what}.many", lang, count=count)


def add_terms(words: dict[str, tuple[str, str]]) -> None:
    """Words of one part of the tool joining the table (each key once in the whole tool)."""
    twice = set(words) & set(TERMS)
    if twice:
        raise ValueError(f"terms given twice: {sorted(twice)}")
    TERMS.update(words)


from .messages import MESSAGES  # noqa: E402  (data only: the library's words)

add_terms(MESSAGES)
