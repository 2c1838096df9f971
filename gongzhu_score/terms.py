"""Every word the tool shows people: the English here in the source, each other language a catalog.

``TERMS[key]`` is a term's English, from the tables of :mod:`.words` (the library's, the
output's, the command line's; the page's own are :mod:`.web.words`). Each other
language is a gettext catalog, ``locale/<language>/LC_MESSAGES/gongzhu_score.po`` (compiled
beside it as ``.mo``), whose entries are the key (context), the English (id) and its
translation: a changed English is a missing translation, never a stale one. :func:`say` looks a
term up in a language and fills in its values; :class:`Said` is a term not yet said in any
language (an error's message, a place in an input), said when it is shown.

Machine formats (JSON, CSV, YAML) never go through here: their keys stay English whatever the
language. Values may be :class:`Names` (joined with "and", or "nobody"), :class:`Cards` (as the
language writes cards, or "nothing"), a card, anything with a ``term`` (a suit says its word), a
:class:`Said` or an error (said in the same language), or anything with a ``str``.

It sits at the bottom of the package beside :mod:`.errors`, so that every layer speaks every
language, errors included (:func:`error`).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from . import errors
from .errors import GongzhuError, Said

if TYPE_CHECKING:
    import gettext

__all__ = [
    "DOMAIN",
    "LANGS",
    "LANG_VARIABLE",
    "LOCALE",
    "TERMS",
    "Cards",
    "Listed",
    "Names",
    "Said",
    "add_terms",
    "card_name",
    "card_names",
    "choose_lang",
    "colon",
    "error",
    "join",
    "lang_named",
    "place",
    "printable",
    "rule_name",
    "say",
    "template",
    "title",
    "translations",
    "unsafe_character",
]

DOMAIN = "gongzhu_score"
"""The catalogs' gettext domain (``gongzhu_score.mo``)."""
LOCALE = os.path.join(os.path.dirname(__file__), "locale")
"""The folder of the catalogs, one folder a language (``zh``, ``zh_Hant``)."""


def _languages() -> tuple[str, ...]:
    try:
        found = sorted(os.listdir(LOCALE))
    except OSError:  # (a package installed without its catalogs: English alone)
        found = []
    mo = os.path.join("LC_MESSAGES", f"{DOMAIN}.mo")
    return (
        "en",
        *(d.replace("_", "-") for d in found if os.path.isfile(os.path.join(LOCALE, d, mo))),
    )


LANGS = _languages()
"""Every language the tool speaks: English, then one for each catalog (``zh``, ``zh-Hant``)."""


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang`` (English, or a language without one: the English itself)."""
    import gettext  # (English, the source, needs none of it)

    if lang == "en" or lang not in LANGS:
        return gettext.NullTranslations()
    path = os.path.join(LOCALE, lang.replace("-", "_"), "LC_MESSAGES", f"{DOMAIN}.mo")
    with open(path, "rb") as file:
        return gettext.GNUTranslations(file)


LANG_VARIABLE = "GONGZHU_LANG"
"""The tool's own variable naming the language to speak (``--lang`` wins over it)."""


def choose_lang(asked: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``asked`` (``--lang``), else ``GONGZHU_LANG`` as a person writes
    it (:func:`lang_named`), else the locale's (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: ``zh_TW.UTF-8`` is ``zh-Hant``, by the locales its catalog says it serves:
    ``language.locales``), else English. A ``GONGZHU_LANG`` it cannot read is passed over here;
    the command line refuses it (:func:`.cli.boundary.check_lang_variable`)."""
    if asked in LANGS:
        return asked
    named = lang_named(environ.get(LANG_VARIABLE) or "")
    if named is not None:
        return named
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return _of_locale(value.split(":")[0])
    return "en"


def lang_named(value: str) -> str | None:
    """The language ``value`` names as a person writes it, or None: a language's code or a
    locale its catalog serves (``language.locales``), in any case, with ``-`` or ``_``, a
    region after a script or after a language only one catalog speaks, and any spelling of a
    ``.UTF-8`` suffix: ``zh``, ``zh_CN``, ``zh-Hans``, ``ZH_sg.utf8`` are ``zh``; ``zh-Hant``,
    ``zh_TW``, ``zh-HK``, ``zh_Hant_TW`` are ``zh-Hant``; ``en``, ``en_US.UTF-8``, ``en-GB``
    are ``en``. ``zh_FR`` (which script?), ``fr``, ``zh.GBK`` are None.

    >>> [lang_named(v) for v in ("zh-CN", "ZH_tw.UTF-8", "en_GB", "zh-Hans-SG", "zh_FR", "fr")]
    ['zh', 'zh-Hant', 'en', 'zh', None, None]
    """
    if not value.isascii():  # (before lower(): the Kelvin sign's is k)
        return None
    base, dot, encoding = value.partition(".")
    if dot and encoding.lower().replace("-", "").replace("_", "") != "utf8":
        return None
    parts = base.replace("-", "_").lower().split("_")
    if not all(part.isalnum() for part in parts):
        return None
    names = _lang_names()
    spelled = "_".join(parts)
    if spelled in names:
        return names[spelled]
    region, stem = parts[-1], "_".join(parts[:-1])
    is_region = (len(region) == 2 and region.isalpha()) or (len(region) == 3 and region.isdigit())
    if len(parts) < 2 or not is_region or stem not in names:
        return None
    scripted = len(parts[-2]) == 4  # (zh_Hant_TW: the script says)
    alone = [lang for lang in LANGS if lang.partition("-")[0].lower() == stem]
    return names[stem] if scripted or len(alone) == 1 else None


@functools.cache
def _lang_names() -> dict[str, str]:
    """Every spelling :func:`lang_named` reads as it is, lower case with ``_``: each language's
    code and its catalog's locales."""
    names: dict[str, str] = {}
    for lang in LANGS:
        for name in (lang, *say("language.locales", lang).split()):
            names.setdefault(name.replace("-", "_").lower(), lang)
    return names


def _of_locale(value: str) -> str:
    """A locale's language among :data:`LANGS` (``zh_Hant_TW``, ``zh_TW`` and ``zh_CN.UTF-8``
    are ``zh-Hant``, ``zh-Hant`` and ``zh``), else English."""
    base = value.partition(".")[0].partition("@")[0]
    language = base.partition("_")[0]
    ours = [lang for lang in LANGS if lang.partition("-")[0] == language and lang != "en"]
    for lang in sorted(ours, key=len, reverse=True):  # (the longest first: zh-Hant before zh)
        said = say("language.locales", lang).split()
        if (
            base == lang.replace("-", "_")
            or base.startswith(lang.replace("-", "_") + "_")
            or base in said
        ):
            return lang
    return language if language in ours else "en"


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


# fmt: off
TERMS: dict[str, str] = {
    "language.locales": "en",
    "within": "{where}: {message}",
    "colon": ": ",
    "comma": ", ",
    "semicolon": "; ",
    "list": ", ",
    "and": " and ",
    "or": " or ",
    "nobody": "nobody",
    "nothing": "nothing",
    "none": "none",

    "suit.S": "spades",
    "suit.H": "hearts",
    "suit.D": "diamonds",
    "suit.C": "clubs",

    # how card notation writes a card: English Q♠ (a run of one suit too: 6♥ 8♥), Chinese
    # 黑桃Q (a run: 红桃6 8)
    "card": "{rank}{suit}",
    "card.same_suit": "{rank}{suit}",
    "notation.S": "♠",
    "notation.H": "♥",
    "notation.D": "♦",
    "notation.C": "♣",
}
# fmt: on


class Names(tuple[str, ...]):
    """Player names, shown joined with "and" (English) or "、" (Chinese), or "nobody"."""


class Listed(tuple[Any, ...]):
    """Items shown as a list: ``东, 南, 西, 北`` (English), ``东、南、西、北`` (Chinese); each item
    as a value is shown (a card in the language's notation: ``Q♠, J♦``, ``黑桃Q、方块J``).
    ``how``: the term they are joined with (``semicolon``: ``a; b``, ``a；b``)."""

    how = "list"

    def __new__(cls, items: Iterable[Any] = (), how: str = "list") -> Listed:
        listed = super().__new__(cls, items)
        if how != "list":
            listed.how = how
        return listed


class Cards(tuple[Any, ...]):
    """Cards, shown as the language writes them (:func:`card_names`), or "nothing"."""


def _shown(value: object, lang: str) -> object:
    if isinstance(value, str):  # what came from input: a name, a file, a token
        return printable(value)
    said = getattr(value, "text", None)
    if callable(said):  # a term (a Said), an error within another: said in the same language
        return printable(said(lang))
    if isinstance(value, Listed):
        return say(value.how, lang).join(str(_shown(item, lang)) for item in value)
    if isinstance(value, Names):
        return join(value, lang, "and") or say("nobody", lang)
    if isinstance(value, Cards):
        return card_names(value, lang) or say("nothing", lang)
    term = getattr(value, "term", None)
    if isinstance(term, str) and term in TERMS:  # a suit: spades, 黑桃
        return say(term, lang)
    if hasattr(value, "rank_name") and hasattr(value, "suit"):  # a card: Q♠, 黑桃Q
        return card_name(value, lang)
    return value


def card_name(card: Any, lang: str, after: Any = None) -> str:
    """A card as the language writes it: ``Q♠``, ``黑桃Q``; after a card of its suit
    (``after``), as a run of one suit goes on (``8♥``, ``8``: 红桃6 8)."""
    key = "card.same_suit" if after is not None and after.suit is card.suit else "card"
    return say(key, lang, rank=card.rank_name, suit=_Mark(card.suit))


class _Mark:
    """A suit as card notation writes it: ``♠`` in English, ``黑桃`` in Chinese."""

    __slots__ = ("term",)

    def __init__(self, suit: Any) -> None:
        self.term = f"notation.{suit.value}"


def card_names(cards: Iterable[Any], lang: str) -> str:
    """Cards as the language writes them, one notation each: in English their symbols
    (``Q♠ 10♣ 6♥ 8♥``); in Chinese their names, a suit's word then the rank, said once for a
    run of one suit (``黑桃Q 梅花10 红桃6 8``): what the card parser reads back."""
    out: list[str] = []
    before = None
    for card in cards:
        out.append(card_name(card, lang, before))
        before = card
    return " ".join(out)


E = TypeVar("E", bound=GongzhuError)


def error(kind: type[E], key: str, /, **values: object) -> E:
    """An error of ``kind`` saying the term ``key`` (``error.…``), in every language."""
    return kind(Said(key, values))


def place(key: str, /, **values: object) -> Said:
    """A term for every language: where an error happened (for :meth:`GongzhuError.within`),
    or a part of a message."""
    return Said(key, values)


def template(key: str, lang: str = "en") -> str:
    """The term ``key`` in ``lang`` as it is written, its values' places unfilled."""
    english = TERMS[key]
    return english if lang == "en" else translations(lang).pgettext(key, english)


def say(key: str, lang: str = "en", /, **values: object) -> str:
    """The term ``key`` in ``lang`` (one of :data:`LANGS`), with ``values`` filled in."""
    text = template(key, lang)
    if not values and "{" not in text and "}" not in text:
        return text  # (a text with braces is formatted even without values: {{ is one brace)
    return text.format(**{k: _shown(v, lang) for k, v in values.items()})


def join(items: Iterable[object], lang: str, how: str = "list") -> str:
    """Items joined the way the language lists them (``how``: list, and, or, comma)."""
    return say(how, lang).join(printable(str(item)) for item in items)


def rule_name(rule: str, lang: str, spoken: bool = False) -> str:
    """A rule as a table shows it: its name in a rules file, and where the language has a
    word for it, that word too (``红桃分值 heart_values``), so that either can be looked up.

    ``spoken``: the word alone, as players say it (``红桃分值``; in English ``heart values``).
    """
    key = f"rule.{rule}"
    said = say(key, lang) if key in TERMS else rule
    if spoken:
        return said.replace("_", " ")
    return rule if said == rule else f"{said} {rule}"


def title(variant: Any, lang: str) -> str:
    """A rule set's title in the language: ``Classic one-deck rules``, ``一副牌规则`` (a
    built-in one's from the catalog; a house rule's ``title_zh`` in every other language than
    English); the other title when a house rule gives only one; empty when it gives none."""
    if lang == "en":
        return str(variant.title or variant.title_zh)
    said = translations(lang).pgettext("variant.title", variant.title) if variant.title else ""
    return str(said if said and said != variant.title else variant.title_zh or variant.title)


def colon(lang: str) -> str:
    return say("colon", lang)


def count_of_hands(count: int, lang: str) -> str:
    """``1 hand``, ``3 hands``, ``3 局``."""
    return count_of("hands", count, lang)


def count_of(what: str, count: int, lang: str) -> str:
    """A count and its noun, singular or plural: ``1 match``, ``2 matches``."""
    return say(what if count == 1 else f"{what}.many", lang, count=count)


def add_terms(words: Mapping[str, str]) -> None:
    """Words of one part of the tool joining the table (each key once in the whole tool)."""
    twice = set(words) & set(TERMS)
    if twice:
        raise ValueError(f"terms given twice: {sorted(twice)}")
    TERMS.update(words)


errors.speaker = say  # (a Said is said by this table)

from .words.command_line import COMMAND_LINE  # noqa: E402  (data only)
from .words.library import LIBRARY  # noqa: E402
from .words.output import OUTPUT  # noqa: E402

for _words in (LIBRARY, OUTPUT, COMMAND_LINE):
    add_terms(_words)
