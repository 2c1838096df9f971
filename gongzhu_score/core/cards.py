"""Cards and the one card notation every input goes through.

A :class:`Card` is a small immutable value (rank 2–14, :class:`Suit`). All 52 exist once, so
parsing returns the same objects and comparisons stay cheap. :func:`parse_cards` is the single
entry point for every spelling a player might type: ``QS`` ``qs`` ``SQ`` ``10C`` ``TC`` ``C10``
``Q♠`` ``♠Q`` ``♠️Q`` ``ＱＳ`` ``黑桃Q`` ``pig`` ``猪``, groups of one suit (``H:AKQJ10``
``♥AKQ`` ``红桃AKQ``) and 全红 for all thirteen hearts.
"""

from __future__ import annotations

import difflib
import enum
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import CardError

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

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def zh(self) -> str:
        """The Chinese name: 黑桃 红桃 方块 梅花."""
        return _SUIT_ZH[self]


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

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14:
            raise CardError(f"rank must be 2–14, not {self.rank}")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse exactly one card in any accepted spelling (see :func:`parse_card`)."""
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

DECK: tuple[Card, ...] = tuple(sorted(_BY_CODE.values(), key=lambda c: c.sort_key))
"""All 52 cards, spades, hearts, diamonds, clubs, each from 2 to A."""

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
"""Words that stand for all 13 hearts (全红)."""

# Words players use for groups of cards that are *not* scoring cards (RULINGS §1); refusing them
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

# Longest names first so 红心 is not read as 红 + 心.
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
)
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
_RANK_TOKENS: dict[str, int] = {
    "A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "T": 10,
    **{str(r): r for r in range(2, 10)},
}  # fmt: skip

_SEPARATORS = re.compile(r"[\s,;，、；]+")
_VARIATION_SELECTORS = dict.fromkeys((0xFE0E, 0xFE0F))
# Vocabulary for "did you mean": canonical codes and words.
_VOCABULARY: tuple[str, ...] = (
    *_BY_CODE,
    *(k.lower() for k in _NICKNAMES if k.isascii()),
    *(k for k in _NICKNAMES if not k.isascii()),
    "全红",
    "all-hearts",
)


def _normalize(token: str) -> str:
    # NFKC folds full-width ＱＳ/１０ to QS/10; variation selectors come with emoji suits (♠️).
    return unicodedata.normalize("NFKC", token).translate(_VARIATION_SELECTORS).strip().upper()


def _suggest(token: str) -> str:
    close = difflib.get_close_matches(
        token.upper(), [v.upper() for v in _VOCABULARY], n=1, cutoff=0.5
    )
    if not close:
        return ""
    match = next(v for v in _VOCABULARY if v.upper() == close[0])
    return f"; did you mean {match!r}?"


def _unknown(token: str, why: str = "") -> CardError:
    # A specific reason carries its own fix; a guess would only distract from it.
    detail = f" ({why})" if why else _suggest(_normalize(token))
    return CardError(f"unknown card {token!r}{detail}")


def _parse_ranks(text: str, token: str) -> list[int]:
    ranks: list[int] = []
    i = 0
    while i < len(text):
        if text.startswith("10", i):
            ranks.append(10)
            i += 2
        elif text[i] in _RANK_TOKENS:
            ranks.append(_RANK_TOKENS[text[i]])
            i += 1
        else:
            raise _unknown(token, f"{text[i]!r} is not a rank; ranks are A K Q J 10 (or T) 9 … 2")
    if not ranks:
        raise _unknown(token, "a suit with no rank; write e.g. QS or ♥AK")
    return ranks


def _split_suit_prefix(norm: str) -> tuple[Suit, str, bool] | None:
    """``(suit, rest, may_group)`` when the token starts with a suit; None otherwise."""
    for name, suit in _SUIT_PREFIXES:
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


def _parse_token(token: str) -> tuple[Card, ...]:
    norm = _normalize(token)
    if not norm:
        raise CardError("empty card")
    if norm in _NICKNAMES:
        return (_NICKNAMES[norm],)
    if norm in FULL_RED_WORDS:
        return HEARTS
    if norm in _NOT_ALIASES:
        raise CardError(
            f"{token!r} is not a scoring card and not an alias of one; "
            f"write its cards instead ({_NOT_ALIASES[norm]})"
        )
    prefix = _split_suit_prefix(norm)
    if prefix is not None:
        suit, rest, may_group = prefix
        ranks = _parse_ranks(rest, token)
        if len(ranks) > 1 and not may_group:
            raise _unknown(token, f"for several {suit.name.lower()} write {suit.value}:{rest}")
        return tuple(_intern(r, suit) for r in ranks)
    suit_char = norm[-1:]
    suffix = _SUIT_LETTERS.get(suit_char) or _SUIT_MARKS.get(suit_char)
    if suffix is None:
        if norm in _RANK_TOKENS:
            raise _unknown(token, f"a rank with no suit; write e.g. {norm}H or {norm}S")
        raise _unknown(token)
    rank = _RANK_TOKENS.get(norm[:-1])
    if rank is None:
        raise _unknown(token)
    return (_intern(rank, suffix),)


def parse_card(token: str) -> Card:
    """Parse one card in any accepted spelling; a group or 全红 is an error here.

    >>> parse_card("黑桃Q")
    Card.parse('QS')
    """
    cards = _parse_token(token)
    if len(cards) != 1:
        raise CardError(f"{token!r} is {len(cards)} cards, expected one")
    return cards[0]


def parse_cards(spec: str | Card | Iterable[object] | None) -> tuple[Card, ...]:
    """Parse a list of cards: one string (``"QS 6H, 8H"``), or an iterable of tokens/Cards.

    Order and duplicates are kept: checking a card taken twice is the hand's job.

    >>> parse_cards("pig ♥AK 10C")
    (Card.parse('QS'), Card.parse('AH'), Card.parse('KH'), Card.parse('10C'))
    """
    if spec is None:
        return ()
    if isinstance(spec, Card):
        return (spec,)
    items: Iterable[object] = [spec] if isinstance(spec, str) else spec
    out: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, str):
            for token in _SEPARATORS.split(item):
                # Canonical codes (QS, 10C: what ledgers and records hold) skip normalization.
                card = _BY_CODE.get(token)
                if card is not None:
                    out.append(card)
                elif token:
                    out.extend(_parse_token(token))
        elif isinstance(item, bool) or item is None:
            raise CardError(f"{item!r} is not a card")
        elif isinstance(item, int):
            raise CardError(
                f"{item!r} is a number, not a card; give it a suit, e.g. '{item}H' "
                "(in YAML a bare 10 reads as a number)"
            )
        else:
            raise CardError(f"{item!r} is not a card")
    return tuple(out)
