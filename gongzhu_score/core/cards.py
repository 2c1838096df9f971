"""Cards, and the one card notation every input goes through.

A :class:`Card` is a small immutable value (rank 2–14, :class:`Suit`). All 52 exist once, so
parsing returns the same objects and comparisons stay cheap.

:func:`parse_cards` reads every spelling a player might type: ``QS`` ``qs`` ``SQ`` ``10C``
``TC`` ``C10`` ``Q♠`` ``♠Q`` ``♠️Q`` ``ＱＳ`` ``黑桃Q`` ``pig`` ``猪``, groups of one suit
(``H:AKQJ10`` ``♥AKQ`` ``红桃AKQ`` ``hearts A K Q``), ranges of one suit (``红桃2-10``
``6H-10H`` ``2-10H`` ``H2-10`` ``hearts 2-10``), 全红 for all thirteen hearts and 满贯 for every
scoring card. A token that is no card is quoted with a fix one edit away, when every such fix
means the same cards (``红2-10`` → ``红桃2-10``); otherwise with the accepted forms.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

from ..errors import ArgumentError, CardError
from ..terms import Cards, Said, card_names, error, place

__all__ = [
    "ACE_OF_HEARTS",
    "DECK",
    "HEARTS",
    "PIG",
    "SCORING_CARDS",
    "SHEEP",
    "SPECIAL_CARDS",
    "TRANSFORMER",
    "Card",
    "Suit",
    "parse_card",
    "parse_cards",
]


class Suit(enum.Enum):
    """A suit, valued by its one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # A suit is one object (an enum member), so its identity is its hash: hashed in C, where
    # Enum's own hash is a Python call, and every card's hash hashes its suit (a claim's search
    # hashes cards millions of times). Strings hash differently in each process anyway.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def zh(self) -> str:
        """The Chinese name: 黑桃 红桃 方块 梅花."""
        return _SUIT_ZH[self]

    @property
    def term(self) -> str:
        """Its word in the table of terms (spades, 黑桃)."""
        return f"suit.{self.value}"


_SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_ZH = {Suit.SPADES: "黑桃", Suit.HEARTS: "红桃", Suit.DIAMONDS: "方块", Suit.CLUBS: "梅花"}
_RANK_NAME = {11: "J", 12: "Q", 13: "K", 14: "A"}
# Display order within a suit and for sorting hands: suits as a player sorts them.
_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``Card(12, Suit.SPADES)`` is the pig (猪, Q♠)."""

    rank: int
    suit: Suit
    bit: int = field(init=False, repr=False, compare=False)
    """The card's bit in a mask of cards (:mod:`.bits`: bit i is ``DECK[i]``), worked out once:
    the engine reads a hand's cards as masks without hashing a card."""

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 2 <= self.rank <= 14:
            raise error(CardError, "error.card.rank", rank=repr(self.rank))
        if not isinstance(self.suit, Suit):
            raise not_a("argument.suit", self.suit).within("suit")
        object.__setattr__(self, "bit", 1 << (13 * _SUIT_ORDER[self.suit] + self.rank - 2))

    def __hash__(self) -> int:
        return self.bit

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse exactly one card in any accepted spelling (:func:`parse_card`)."""
        return parse_card(token)

    @property
    def rank_name(self) -> str:
        return _RANK_NAME.get(self.rank, str(self.rank))

    @property
    def code(self) -> str:
        """The canonical ASCII code: ``QS``, ``10C``, ``AH``."""
        return self.rank_name + self.suit.value

    @property
    def symbol(self) -> str:
        """``Q♠``, ``10♣``."""
        return self.rank_name + self.suit.symbol

    @property
    def zh(self) -> str:
        """The Chinese spelling: ``黑桃Q``."""
        return self.suit.zh + self.rank_name

    @property
    def sort_key(self) -> tuple[int, int]:
        return (_SUIT_ORDER[self.suit], self.rank)

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _intern(rank: int, suit: Suit) -> Card:
    return _BY_CODE[_RANK_NAME.get(rank, str(rank)) + suit.value]


_BY_CODE: dict[str, Card] = {}
for _suit in Suit:
    for _rank in range(2, 15):
        _card = Card(_rank, _suit)
        _BY_CODE[_card.code] = _card
_CARD_OF_CODE = _BY_CODE.__getitem__

DECK: tuple[Card, ...] = tuple(sorted(_BY_CODE.values(), key=lambda c: c.sort_key))
"""All 52 cards: spades, hearts, diamonds, clubs, each from 2 to A."""

PIG = _intern(12, Suit.SPADES)
"""猪 Q♠."""
SHEEP = _intern(11, Suit.DIAMONDS)
"""羊 J♦."""
TRANSFORMER = _intern(10, Suit.CLUBS)
"""变压器 10♣ (also 倒板, 翻子)."""
ACE_OF_HEARTS = _intern(14, Suit.HEARTS)
"""红桃A: exposing it scales every heart."""
HEARTS: tuple[Card, ...] = tuple(_intern(r, Suit.HEARTS) for r in range(2, 15))
SPECIAL_CARDS: tuple[Card, ...] = (PIG, SHEEP, TRANSFORMER, ACE_OF_HEARTS)
"""The four cards that can be exposed (亮牌), in the order the rules name them."""
SCORING_CARDS: frozenset[Card] = frozenset((*HEARTS, PIG, SHEEP, TRANSFORMER))
"""The 16 scoring cards (分牌) of one deck."""

# --- notation -----------------------------------------------------------------------------

_NICKNAMES: dict[str, Card] = {
    "PIG": PIG,
    "猪": PIG,
    "豬": PIG,
    "SHEEP": SHEEP,
    "GOAT": SHEEP,
    "羊": SHEEP,
    "TRANSFORMER": TRANSFORMER,
    "变压器": TRANSFORMER,
    "變壓器": TRANSFORMER,
    "倒板": TRANSFORMER,
    "翻子": TRANSFORMER,
}
FULL_RED_WORDS: tuple[str, ...] = ("全红", "全紅", "满红", "滿紅", "ALL-HEARTS", "ALLHEARTS")
"""Words that stand for all the hearts (全红): 13, or 26 in two decks."""
GRAND_SLAM_WORDS: tuple[str, ...] = ("满贯", "滿貫", "GRAND-SLAM", "GRANDSLAM")
"""Words that stand for every scoring card (满贯): 16, or 32 in two decks."""
_EVERY_SCORING_CARD: tuple[Card, ...] = tuple(c for c in DECK if c in SCORING_CARDS)
_PIG_AND_SHEEP = ("猪羊", "豬羊", "羊猪", "羊豬")
"""猪羊: the pig and the sheep, both (never one of them)."""
_WORDS_OF_TWO = re.compile(r"\b(grand)\s+(slam)\b|\b(all)\s+(hearts)\b", re.IGNORECASE)
"""``grand slam`` and ``all hearts`` typed with a space, read as the one word each is."""

# Words players use for groups of cards that are *not* scoring cards (rulings §1); refusing them
# by name stops 猪圈 from being read as the pig.
_NOT_ALIASES: dict[str, str] = {
    "猪圈": "K♠ A♠",
    "豬圈": "K♠ A♠",
    "猪头": "K♠ A♠",
    "羊圈": "Q♦ K♦ A♦",
    "羊头": "Q♦ K♦ A♦",
    "羊叉": "Q♦ K♦ A♦",
    "变压器圈": "J♣ Q♣ K♣ A♣",
    "變壓器圈": "J♣ Q♣ K♣ A♣",
}

# Suits in words, longest first so 红心 is not read as 红 + 心 (nor HEARTS as HEART + S).
_SUIT_WORDS_EN: tuple[tuple[str, Suit], ...] = (
    ("HEARTS", Suit.HEARTS), ("HEART", Suit.HEARTS), ("SPADES", Suit.SPADES),
    ("SPADE", Suit.SPADES), ("DIAMONDS", Suit.DIAMONDS), ("DIAMOND", Suit.DIAMONDS),
    ("CLUBS", Suit.CLUBS), ("CLUB", Suit.CLUBS),
)  # fmt: skip
_SUIT_PREFIXES: tuple[tuple[str, Suit], ...] = (
    ("黑桃", Suit.SPADES),
    ("红桃", Suit.HEARTS),
    ("红心", Suit.HEARTS),
    ("紅桃", Suit.HEARTS),
    ("紅心", Suit.HEARTS),
    ("梅花", Suit.CLUBS),
    ("草花", Suit.CLUBS),
    ("方块", Suit.DIAMONDS),
    ("方片", Suit.DIAMONDS),
    ("方塊", Suit.DIAMONDS),
    *_SUIT_WORDS_EN,
)
_PREFIXES_BY_START: dict[str, list[tuple[str, Suit]]] = {}
for _name, _prefix_suit in _SUIT_PREFIXES:
    _PREFIXES_BY_START.setdefault(_name[0], []).append((_name, _prefix_suit))
_SUIT_MARKS: dict[str, Suit] = {
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "❤": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
}
_SUIT_LETTERS: dict[str, Suit] = {s.value: s for s in Suit}
# What a mistyped token says of its suit, for a suggestion that keeps it (桃 alone could be
# 红桃 or 黑桃, so it says nothing).
_SUIT_HINTS: tuple[tuple[str, Suit], ...] = (
    *_SUIT_PREFIXES, *((mark, suit) for mark, suit in _SUIT_MARKS.items()),
    ("红", Suit.HEARTS), ("紅", Suit.HEARTS), ("心", Suit.HEARTS), ("黑", Suit.SPADES),
    ("方", Suit.DIAMONDS), ("片", Suit.DIAMONDS), ("块", Suit.DIAMONDS), ("塊", Suit.DIAMONDS),
    ("梅", Suit.CLUBS), ("草", Suit.CLUBS),
)  # fmt: skip
_RANK_TOKENS: dict[str, int] = {
    "A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "T": 10,
    **{str(r): r for r in range(2, 10)},
    **{numeral: r for r, numeral in enumerate("二三四五六七八九十", 2)},
    "两": 2, "兩": 2,
}  # fmt: skip
_RANGE_MARKS = "-–—~～至到"
_TIMES = re.compile(r"^(.+?)\s*[×X*]\s*([1-9])$")

_SEPARATORS = re.compile(r"[\s,;，、；]+")
_VARIATION_SELECTORS = dict.fromkeys((0xFE0E, 0xFE0F))


def _normalize(token: str) -> str:
    # NFKC folds full-width ＱＳ/１０ to QS/10; variation selectors come with emoji suits (♠️).
    return unicodedata.normalize("NFKC", token).translate(_VARIATION_SELECTORS).strip().upper()


class _Miss(Exception):
    """A token that is no card, raised while a suggestion tries its candidates.

    It has no message: most candidates are not cards, and nobody reads why.
    """


@dataclass
class _Reading:
    """The state of reading one list of cards.

    It holds the suit that bare ranks take (红桃6 8 10 J: the 8, 10 and J are hearts), and a
    suit still waiting for its ranks (``H: A K Q``).
    """

    decks: int = 1
    carried: Suit | None = None
    waiting: str | None = None
    """The token of a suit given alone, until a rank follows it."""
    quiet: bool = False
    """Trying a suggestion's candidate: a token that is no card raises :class:`_Miss`."""


# --- suggestions (did you mean): only a fix that keeps the cards the player evidently meant ---

_RANK_RE = re.compile(r"10|[1-9AKQJT]|[二三四五六七八九十两兩]")
# A run of three letters or more that is a word (pig, hearts, transfomer), not ranks and suits
# written together (AKQ, SQQ) nor a card mistyped (1OC, QX): it has a letter that no rank or
# suit is written with.
_LETTER_RUN = re.compile(r"[A-Z]{3,}")
_NOT_CARD_LETTERS = frozenset("BEFGILMNOPRUVWXYZ")
_SUFFIXED = re.compile(r"(?:10|[2-9AKQJT])([SHDC])(?![A-Z])")
"""A rank with its suit letter after it, within a longer token (the 2H of 2H-5X)."""
_FIX_LONGEST = 16
"""Tokens longer than this get the accepted forms, not a search for a fix."""
# The characters a fix may put in (or in place of one typed): the ranks and suits, the marks
# that join them, then the rest of the words' letters. Their order is the order of preference
# among fixes that mean the same cards (红A: 红桃A before 红心A).
_FIX_CHARS = (
    "0123456789AKQJT" "HSDC" "桃心块花片" "红黑方梅草" ":-" "♥♠♦♣" "猪羊变压器全满贯"
    "BEFGILMNOPRUVWXYZ"
)  # fmt: skip
_FIX_CHARS_ASCII = "".join(ch for ch in _FIX_CHARS if ch.isascii() or ch in _SUIT_MARKS)


def _words(norm: str) -> list[str]:
    """The words among the letters of ``norm`` (see :data:`_LETTER_RUN`)."""
    return [run for run in _LETTER_RUN.findall(norm) if not _NOT_CARD_LETTERS.isdisjoint(run)]


@dataclass(frozen=True)
class _Shape:
    """What a token, mistyped or not, says of its cards.

    That is: their suits (None: it does not say), how many ranks and ranges it writes, whether
    it is a word (no ranks at all), and whether it says only a suit (红, haerts).
    """

    suits: frozenset[Suit] | None
    ranks: int
    ranges: int
    word: bool
    only_suit: bool


def _shape(norm: str, carried: Suit | None) -> _Shape:
    """The :class:`_Shape` of a normalized token; ``carried``: the suit its bare ranks take."""
    import difflib  # only a mistake pays for it

    suits = {suit for hint, suit in _SUIT_HINTS if hint in norm}
    english = dict(_SUIT_WORDS_EN)
    rest = norm  # without the suit words
    for run in _LETTER_RUN.findall(norm):
        exact = next((w for w in english if run.startswith(w)), None)
        if exact is not None and _NOT_CARD_LETTERS.isdisjoint(run[len(exact) :]):  # HEARTSAK
            rest = rest.replace(run, " " + run[len(exact) :], 1)
        elif not _NOT_CARD_LETTERS.isdisjoint(run):
            close = difflib.get_close_matches(run, english, n=1, cutoff=0.75)
            if close:  # a suit word mistyped (haerts, spadez) still says its suit
                suits.add(english[close[0]])
                rest = rest.replace(run, " ", 1)
    said = rest  # without the other words too: their letters are no ranks
    for run in _words(rest):
        said = said.replace(run, " ", 1)
    letters = said.strip(":： ")
    if letters[-1:] in _SUIT_LETTERS and len(letters) > 1:
        suits.add(_SUIT_LETTERS[letters[-1]])
    elif letters[:1] in _SUIT_LETTERS and len(letters) > 1 and letters[1] in "0123456789AKQJT":
        suits.add(_SUIT_LETTERS[letters[0]])
    suits.update(_SUIT_LETTERS[m] for m in _SUFFIXED.findall(letters))  # 2H-5X: hearts
    if "桃" in norm and not suits & {Suit.HEARTS, Suit.SPADES}:
        suits.clear()  # 桃 alone: hearts or spades?
    ranks = len(_RANK_RE.findall(said))
    leftover = rest
    for hint, _ in _SUIT_HINTS:
        leftover = leftover.replace(hint, "")
    only_suit = bool(suits) and not leftover.strip(":： ")
    if not suits and carried is not None and ranks:
        suits = {carried}
    ranges = sum(ch in _RANGE_MARKS for ch in norm)
    return _Shape(frozenset(suits) or None, ranks, ranges, ranks == 0, only_suit)


def _candidates(norm: str) -> Iterator[str]:
    """Every token one edit from ``norm``: a character added, changed or cut.

    Two characters swapped count too, last.

    They come in that order, each character of :data:`_FIX_CHARS` in its order. A token typed in
    ASCII is not fixed into Chinese.
    """
    chars = _FIX_CHARS_ASCII if norm.isascii() else _FIX_CHARS
    for i in range(len(norm) + 1):
        for ch in chars:
            yield norm[:i] + ch + norm[i:]
    for i in range(len(norm)):
        for ch in chars:
            if ch != norm[i]:
                yield norm[:i] + ch + norm[i + 1 :]
    for i in range(len(norm)):
        yield norm[:i] + norm[i + 1 :]
    for i in range(len(norm) - 1):
        if norm[i] != norm[i + 1]:
            yield norm[:i] + norm[i + 1] + norm[i] + norm[i + 2 :]


_WORDS = frozenset((*_NICKNAMES, *FULL_RED_WORDS, *GRAND_SLAM_WORDS, *_PIG_AND_SHEEP))


def _meaning(
    candidate: str, carried: Suit | None, decks: int
) -> tuple[str, tuple[Card, ...], Suit | None]:
    """What a candidate reads as: a word, a suit alone, or cards.

    ``("word", cards, None)`` (猪, 全红, 满贯), ``("suit", (), suit)`` (waiting for its ranks),
    ``("cards", cards, None)``. Raises :class:`_Miss` (or :class:`CardError`) when it is no
    card.
    """
    state = _Reading(decks, carried=carried, quiet=True)
    cards = _read_token(candidate, state)
    if state.waiting is not None:
        return "suit", (), state.carried
    base = _TIMES.match(candidate)
    word = (base.group(1) if base else candidate).strip()
    return ("word" if word in _WORDS else "cards"), cards, None


def _fits(
    shape: _Shape, meaning: tuple[str, tuple[Card, ...], Suit | None], candidate: str,
    carried: Suit | None,
) -> bool:  # fmt: skip
    """Whether a candidate means what the mistyped token evidently meant.

    A suit alone must fix a suit alone, a word a word; otherwise cards of the token's suits,
    with as many ranks and ranges.
    """
    kind, cards, suit = meaning
    if kind == "suit":
        return shape.only_suit and suit is not None and shape.suits == frozenset((suit,))
    if kind == "word":
        suits = frozenset(c.suit for c in cards)
        return shape.word and not shape.only_suit and shape.suits in (None, suits)
    if shape.word or shape.suits is None or {c.suit for c in cards} != shape.suits:
        return False
    own = _shape(candidate, carried)
    return (own.ranks, own.ranges) == (shape.ranks, shape.ranges)


def _vocabulary(carried: Suit | None) -> list[str]:
    """The forms the tool prints, and the nicknames.

    They are the look of a fix, and the targets for a word typed more than one edit off.
    """
    words = [
        *_BY_CODE,
        *(card.zh for card in _BY_CODE.values()),
        *(k.lower() for k in _NICKNAMES if k.isascii()),
        *(k for k in _NICKNAMES if not k.isascii()),
        "全红",
        "all-hearts",
        "满贯",
        "grand-slam",
        "猪羊",
        *(w.lower() for w, _ in _SUIT_WORDS_EN),
        *(name for name, _ in _SUIT_PREFIXES if not name.isascii()),
        *_SUIT_MARKS,
    ]
    if carried is not None:  # after a suit group, a bare rank means a card of that suit
        words += ["A", "K", "Q", "J", "10", *(str(r) for r in range(2, 10))]
    return words


def _suggested(candidate: str, cards: tuple[Card, ...]) -> Said:
    """The suggestion, with the cards it means in the language's notation.

    The cards are left out when the candidate says them already: ``'红桃A' (A♥)``,
    ``'红桃2-10'（红桃2 3 4 … 10）``.
    """
    return place("error.card.suggest", candidate=repr(candidate), shown=_Meaning(candidate, cards))


class _Meaning:
    """What a suggested candidate means, in a language's notation.

    Used when the candidate does not say so itself: a card code says it in symbols (``AH`` is
    ``A♥``).
    """

    def __init__(self, candidate: str, cards: tuple[Card, ...]) -> None:
        self.candidate, self.cards = candidate, cards

    def text(self, lang: str) -> str:
        names = card_names(self.cards, lang)
        code = _BY_CODE.get(self.candidate)
        if not self.cards or names == self.candidate or (code and names == code.symbol):
            return ""
        return place("error.card.suggest_cards", cards=Cards(self.cards)).text(lang)


_AMBIGUOUS = Said("error.card.forms", {})
"""What :func:`_fix` says when fixes one edit away mean different cards (compared by
identity)."""


def _fix(token: str, carried: Suit | None, decks: int, ranks_only: bool = False) -> Said | None:
    """``; did you mean 'X'?`` for the one fix of ``token`` that keeps what it evidently meant.

    A fix keeps the token's suits, its count of ranks and ranges, a word for a word. When every
    such edit means the same cards, that is the fix; when they differ, :data:`_AMBIGUOUS` (1C:
    10♣ or A♣? a guess that changes the hand is worse than none); None when no edit fits.
    ``ranks_only``: only bare ranks will do (after a suit waiting for them).
    """
    norm = _normalize(token)
    if not norm or len(norm) > _FIX_LONGEST:
        return None
    shape = _shape(norm, carried)
    meant: dict[tuple[str, ...], list[tuple[str, tuple[Card, ...]]]] = {}
    for candidate in dict.fromkeys(_candidates(norm)):
        try:
            meaning = _meaning(candidate, carried, decks)
        except (_Miss, CardError):
            continue
        kind, cards, suit = meaning
        if ranks_only and not (kind == "cards" and _is_ranks(candidate)):
            continue
        if not _fits(shape, meaning, candidate, carried):
            continue
        key = (kind, suit.value if suit else "", *sorted(c.code for c in cards))
        meant.setdefault(key, []).append((candidate, cards if kind == "cards" else ()))
        if len(meant) > 1:
            return _AMBIGUOUS  # two readings: which did the player mean?
    if not meant:
        return None
    (fixes,) = meant.values()
    vocabulary = {v.upper(): v for v in _vocabulary(carried)}
    printed = [(vocabulary[c], cards) for c, cards in fixes if c in vocabulary]
    candidate, cards = printed[0] if printed else fixes[0]
    typed = unicodedata.normalize("NFKC", token)
    lower = sum(ch.islower() for ch in typed if ch.isascii())
    if candidate not in vocabulary.values() and lower > sum(ch.isupper() for ch in typed):
        candidate = candidate.lower()  # as it was typed: 2h-5h, hearts2-10
    return _suggested(candidate, cards)


def _close_word(token: str, carried: Suit | None) -> Said:
    """A word typed more than one edit off (transfromer), or a near card.

    A near card is one close to a printed form.

    It is matched by likeness, and only when it keeps the number of cards and their suits;
    otherwise the accepted forms.
    """
    import difflib

    norm = _normalize(token)
    shape = _shape(norm, carried)
    count = max(shape.ranks, 1)
    vocabulary = _vocabulary(carried)
    upper = [v.upper() for v in vocabulary]
    for close in difflib.get_close_matches(norm, upper, n=6, cutoff=0.5):
        candidate = vocabulary[upper.index(close)]
        try:
            kind, cards, _ = _meaning(candidate, carried, 1)
        except (_Miss, CardError):
            continue
        if len(cards) != count:
            continue
        if shape.suits is None:
            if shape.word and candidate.upper() in _NICKNAMES:  # pigg → pig: the word's card
                return _suggested(candidate, ())
            continue
        if kind == "cards" and not shape.word and {c.suit for c in cards} == shape.suits:
            return _suggested(candidate, cards)  # (a rank typed: no rank made up for it)
    return place("error.card.forms")


def _refuse(
    token: str, state: _Reading, key: str, *, fix: bool = False, **values: object
) -> Exception:
    """:func:`_unknown` with the reason the term ``key`` gives (not worded for a candidate)."""
    return _Miss() if state.quiet else _unknown(token, state, place(key, **values), fix=fix)


def _unknown(
    token: str, state: _Reading, why: Said | None = None, *, fix: bool = False
) -> Exception:
    """The error for a token that is no card.

    ``why`` says why. Without it, or with ``fix`` (where a fix may say it better: '1' is not a
    rank in 红桃2-1O), the error offers a suggestion that keeps the cards, else the accepted
    forms. ``state.carried``: the suit before the token.
    """
    if state.quiet:
        return _Miss()
    if why is None or fix:
        found = _fix(token, state.carried, state.decks)
        if found is _AMBIGUOUS:
            why = why or place("error.card.forms")
        elif found is not None:
            why = found
        elif why is None or _words(_normalize(token)):  # haerts: not "'E' is not a rank"
            why = _close_word(token, state.carried)
    return error(CardError, "error.card.unknown", token=repr(token), detail=why)


# --- reading --------------------------------------------------------------------------------


def _parse_ranks(text: str, token: str, state: _Reading) -> list[int]:
    """Ranks written together (``AKQ``, ``10JQ``, ``十``), with ranges (``2-10``, ``J-A``)."""
    ranks: list[int] = []
    i = 0
    ranged = False
    while i < len(text):
        if text[i] in _RANGE_MARKS and ranks and not ranged:
            ranged = True
            i += 1
            continue
        if text.startswith("10", i):
            rank, i = 10, i + 2
        elif text[i] in _RANK_TOKENS:
            rank, i = _RANK_TOKENS[text[i]], i + 1
        else:
            raise _refuse(token, state, "error.card.not_rank", char=repr(text[i]), fix=True)
        if ranged:
            low, high = sorted((ranks.pop(), rank))
            ranks += range(low, high + 1)
            ranged = False
        else:
            ranks.append(rank)
    if ranged:
        raise _refuse(token, state, "error.card.range")
    return ranks


def _split_suit_prefix(norm: str) -> tuple[Suit, str, bool] | None:
    """``(suit, rest, carries)`` when the token starts with a suit, else None.

    A suit word, a symbol or a letter with a colon (``H:``) carries over to the bare ranks after
    it.
    """
    for name, suit in _PREFIXES_BY_START.get(norm[:1], ()):
        if norm.startswith(name):
            return suit, norm[len(name) :].lstrip(":："), True
    if norm[:1] in _SUIT_MARKS:
        return _SUIT_MARKS[norm[0]], norm[1:].lstrip(":："), True
    if norm[:1] in _SUIT_LETTERS:
        # A letter suit groups only with a colon (H:AKQ), so a typo such as "SQQ" is not
        # silently read as two cards.
        grouped = norm[1:2] in (":", "：")
        return _SUIT_LETTERS[norm[0]], norm[2:] if grouped else norm[1:], grouped
    return None


def _range_end(text: str) -> tuple[int, Suit | None, bool] | None:
    """One end of a range as ``(rank, suit, carries)``, or None.

    An end is a rank (``10``) or a card (``10H`` ``H10`` ``♥10`` ``红桃10`` ``10♥``).
    """
    rank = _RANK_TOKENS.get(text)
    if rank is not None:
        return rank, None, False
    prefix = _split_suit_prefix(text)
    if prefix is not None:
        suit, rest, carries = prefix
        rank = _RANK_TOKENS.get(rest)
        if rank is not None:
            return rank, suit, carries
    suffix = _SUIT_LETTERS.get(text[-1:]) or _SUIT_MARKS.get(text[-1:])
    rank = _RANK_TOKENS.get(text[:-1])
    return None if suffix is None or rank is None else (rank, suffix, False)


def _read_range(norm: str, token: str, state: _Reading) -> tuple[Card, ...] | None:
    """A range of one suit, or None when the token is not one.

    The ends are cards or ranks, the suit said at either end: ``6H-10H`` ``2-10H`` ``H2-10``
    ``红桃2-10`` ``♥J-A``.
    """
    marks = [i for i, ch in enumerate(norm) if ch in _RANGE_MARKS]
    if len(marks) != 1:
        return None
    first, last = norm[: marks[0]], norm[marks[0] + 1 :]
    left, right = _range_end(first), _range_end(last)
    if left is None or right is None:
        return None
    suit = left[1] or right[1]
    if suit is None:
        return None  # 2-10: bare ranks, whose suit is the one carried (or missing)
    if left[1] is not None and right[1] is not None and left[1] is not right[1]:
        raise _refuse(token, state, "error.card.range_suits", left=first, right=last)
    low, high = sorted((left[0], right[0]))
    state.carried = suit if left[2] else None  # 红桃2-10 J: the J is a heart too
    return tuple(_intern(r, suit) for r in range(low, high + 1))


def _read_token(token: str, state: _Reading) -> tuple[Card, ...]:
    """The cards of one token, read with the suit carried so far."""
    norm = token if state.quiet else _normalize(token)  # (a candidate is normalized already)
    if not norm:
        if state.quiet:
            raise _Miss()
        raise error(CardError, "error.card.empty")
    times = _TIMES.match(norm)
    if times is not None:  # QS×2: two copies (two decks)
        once = _read_token(times.group(1), state)
        return once * int(times.group(2))
    if state.waiting is not None and not _is_ranks(norm):
        if not state.quiet:  # hearts 2-1O: the ranks mistyped, not the suit left without them
            found = _fix(token, state.carried, state.decks, ranks_only=True)
            if found is not None and found is not _AMBIGUOUS:
                raise error(CardError, "error.card.unknown", token=repr(token), detail=found)
        raise _refuse(state.waiting, state, "error.card.no_rank_after")
    if norm in _NICKNAMES:
        state.carried = None
        return (_NICKNAMES[norm],)
    if norm in FULL_RED_WORDS:
        state.carried = None
        return HEARTS * state.decks
    if norm in GRAND_SLAM_WORDS:
        state.carried = None
        return _EVERY_SCORING_CARD * state.decks
    if norm in _PIG_AND_SHEEP:
        state.carried = None
        return (PIG, SHEEP)
    if norm in _NOT_ALIASES:
        raise error(
            CardError, "error.card.not_scoring", token=repr(token),
            cards=Cards(parse_cards(_NOT_ALIASES[norm])),  # in the language's one notation
        )  # fmt: skip
    if _is_ranks(norm) and state.carried is not None:  # 红桃6 8 10: the 8 is a heart
        state.waiting = None
        return tuple(_intern(r, state.carried) for r in _parse_ranks(norm, token, state))
    ranged = _read_range(norm, token, state)
    if ranged is not None:
        return ranged
    prefix = _split_suit_prefix(norm)
    if prefix is not None:
        suit, rest, carries = prefix
        if not rest:
            if not carries:
                raise _refuse(token, state, "error.card.no_rank")
            state.carried, state.waiting = suit, token  # H: A K Q
            return ()
        ranks = _parse_ranks(rest, token, state)
        if len(ranks) > 1 and not carries:
            raise _refuse(
                token, state, "error.card.letter_group", suit=suit, letter=suit.value, rest=rest
            )
        state.carried = suit if carries else None
        return tuple(_intern(r, suit) for r in ranks)
    suit_char = norm[-1:]
    suffix = _SUIT_LETTERS.get(suit_char) or _SUIT_MARKS.get(suit_char)
    if suffix is None:
        if _is_ranks(norm):
            example = norm.split("-")[0][:2].rstrip("0123456789") or norm[:2]
            raise _refuse(token, state, "error.card.no_suit", rank=example)
        raise _unknown(token, state)
    rank = _RANK_TOKENS.get(norm[:-1])
    if rank is None:
        raise _unknown(token, state)
    state.carried = None
    return (_intern(rank, suffix),)


def _is_ranks(norm: str) -> bool:
    """Only ranks and range marks: ``8``, ``10``, ``JQK``, ``2-10``, ``十``."""
    rest = norm.replace("10", "")
    return bool(norm) and all(ch in _RANK_TOKENS or ch in _RANGE_MARKS for ch in rest)


def not_a(expected: str, value: object) -> ArgumentError:
    """The error for a library function's argument of the wrong kind.

    ``expected`` is the term saying what it should be (``argument.cards``). Bytes are told to be
    decoded.
    """
    if isinstance(value, bytes | bytearray | memoryview):
        return error(ArgumentError, "error.argument.bytes", value=_cut(value))
    return error(ArgumentError, "error.argument", expected=place(expected), value=_cut(value))


def decks_of(decks: object) -> int:
    """``decks`` as a library function takes it: 1 or 2, else an error."""
    if type(decks) is not int or not 1 <= decks <= 2:
        raise not_a("argument.decks", decks).within("decks")
    return decks


def flag_of(value: object, name: str = "partial") -> bool:
    """A yes-or-no argument: True or False itself, else an error naming ``name``."""
    if value is not True and value is not False:
        raise not_a("argument.flag", value).within(name)
    return value


def path_of(path: object) -> str:
    """A file's path as a library function takes it: text or a :class:`~pathlib.PurePath`."""
    if isinstance(path, PurePath):
        return str(path)
    if not isinstance(path, str):
        raise not_a("argument.path", path).within("path")
    return path


def _cut(value: object) -> str:
    """A value as an error shows it: its repr, cut short."""
    try:
        shown = repr(value)
    except Exception:  # (a repr that fails is no reason to hide the error)
        shown = f"<{type(value).__name__}>"
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _one_word(match: re.Match[str]) -> str:
    return "-".join(part for part in match.groups() if part)


def parse_card(token: str) -> Card:
    """Parse one card in any accepted spelling. A group or 全红 is an error.

    >>> parse_card("黑桃Q")
    Card.parse('QS')
    """
    if not isinstance(token, str):
        raise not_a("argument.card", token)
    cards = _read_token(token, _Reading())
    if len(cards) != 1:
        raise error(CardError, "error.card.count", token=repr(token), count=len(cards))
    return cards[0]


def parse_cards(spec: str | Card | Iterable[object] | None, decks: int = 1) -> tuple[Card, ...]:
    """Parse a list of cards: a string (``"QS 6H, 8H"``), or tokens or Cards.

    A suit word or symbol carries over to the bare ranks after it until the next suit
    (``红桃6 8 10 J``, ``♥A K Q``, ``H: A K Q``), as the tool prints hearts in Chinese. Order
    and duplicates are kept: a card taken twice is the hand's to check. ``decks`` says what the
    shorthands stand for: 全红 is all 26 hearts in two decks, 满贯 all 32 scoring cards.

    >>> parse_cards("pig ♥AK 10C")
    (Card.parse('QS'), Card.parse('AH'), Card.parse('KH'), Card.parse('10C'))
    >>> [c.code for c in parse_cards("猪 红桃6 8 10 J")]
    ['QS', '6H', '8H', '10H', 'JH']
    """
    if spec is None:
        return ()
    if isinstance(spec, Card):
        return (spec,)
    decks_of(decks)
    if type(spec) is str:  # (canonical codes, the usual text: looked up at once, as below)
        try:
            return tuple(map(_CARD_OF_CODE, spec.split()))
        except KeyError:
            pass
    items: Iterable[object]
    if isinstance(spec, str):
        items = [spec]
    elif isinstance(spec, int) and not isinstance(spec, bool):
        raise error(CardError, "error.card.number", item=repr(spec))  # (YAML: captured: 10)
    elif isinstance(spec, bytes | bytearray | memoryview | Mapping) or not isinstance(
        spec, Iterable
    ):
        raise not_a("argument.cards", spec)
    else:
        items = spec
    out: list[Card] = []
    state = _Reading(decks)
    for item in items:
        if isinstance(item, Card):
            out.append(item)
            state.carried = None
        elif isinstance(item, str):
            try:  # (canonical codes, as ledgers, records and batches hold them: looked up)
                found = [_BY_CODE[token] for token in item.split()]
            except KeyError:
                found = None
            if found is not None and state.waiting is None:
                out += found
                state.carried = None if found else state.carried
                continue
            for token in _SEPARATORS.split(_WORDS_OF_TWO.sub(_one_word, item)):
                # Canonical codes (QS, 10C: what ledgers and records hold) skip normalization.
                card = _BY_CODE.get(token)
                if card is not None and state.waiting is None:
                    out.append(card)
                    state.carried = None
                elif token:
                    out.extend(_read_token(token, state))
        elif isinstance(item, int) and not isinstance(item, bool):
            raise error(CardError, "error.card.number", item=repr(item))
        else:
            raise error(CardError, "error.card.not_card", item=repr(item))
    if state.waiting is not None:
        raise _refuse(state.waiting, state, "error.card.no_rank_after")
    return tuple(out)
