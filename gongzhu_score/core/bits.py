"""The bit layouts, in one place, for cards, exposures, scoring sets and codes.

A card is a mask bit, a hand's exposures one number, a player's scoring cards 16 bits, a card
code read byte by byte.

The engine (:mod:`.engine`) scores masks; the column path (:mod:`gongzhu_score.batch.columns`)
reads columns of card codes into masks with numpy; ``variants show`` asks the engine about
exposure keys. All take their layouts from here. Whether a hand in bit form is valid is
:mod:`.hand`'s question.

The constants are ``Final``, so mypyc inlines them in the compiled engine.
"""

from __future__ import annotations

from typing import Any, Final

from .cards import ACE_OF_HEARTS, DECK, PIG, SCORING_CARDS, SHEEP, SPECIAL_CARDS, TRANSFORMER, Card

__all__ = [
    "ALL_HEARTS",
    "CARD_BIT",
    "CODE_BIT",
    "COPY_BITS",
    "COPY_KEY",
    "FIRST_BITS",
    "FIRST_KEY",
    "HEART_SHIFT",
    "KEY_WIDTH",
    "PIG_BIT",
    "PIG_OR_SHEEP",
    "PIG_PLACE",
    "RANK_BYTES",
    "RANK_OF_BYTE",
    "RANK_TEN",
    "SCORING",
    "SET_PIG",
    "SET_SHEEP",
    "SET_TEN",
    "SHEEP_BIT",
    "SHEEP_PLACE",
    "SPECIAL_INDEX",
    "SUIT_BYTES",
    "SUIT_OF_BYTE",
    "TEN_BIT",
    "TEN_PLACE",
    "copies_of",
    "is_first",
    "scoring_set",
]

# --- a card: one bit of a 52-bit mask ------------------------------------------------------------
# Bit i is DECK[i]: suits in deck order (♠ ♥ ♦ ♣), ranks 2 to A. 2♠ is bit 0, Q♠ bit 10, the 13
# hearts bits 13–25, J♦ bit 35, 10♣ bit 47. Two decks: a player's captures are two masks, the
# cards held once and the cards held twice.

CODE_BIT: Final[dict[str, int]] = {card.code: 1 << i for i, card in enumerate(DECK)}
"""Each canonical card code (``QS``, ``10C``) and its bit."""
CARD_BIT: Final[dict[Card, int]] = {card: 1 << i for i, card in enumerate(DECK)}
HEART_SHIFT: Final = 13
ALL_HEARTS: Final = 0x1FFF
"""The 13 hearts, once shifted down by :data:`HEART_SHIFT`."""
PIG_PLACE: Final = 10
SHEEP_PLACE: Final = 35
TEN_PLACE: Final = 47
PIG_BIT: Final = 1 << PIG_PLACE
SHEEP_BIT: Final = 1 << SHEEP_PLACE
TEN_BIT: Final = 1 << TEN_PLACE
PIG_OR_SHEEP: Final = PIG_BIT | SHEEP_BIT
SCORING: Final = PIG_BIT | SHEEP_BIT | TEN_BIT | (ALL_HEARTS << HEART_SHIFT)
"""The 16 scoring cards (分牌)."""

# Canonical codes byte by byte (what hand files and JSON Lines hold): a rank byte (2…9, J Q K A;
# the "1" of "10" is -2: a "0" must follow, and the rank's place is RANK_TEN) and a suit byte.
# A card's bit is the suit's block plus the rank's place, 1 << (SUIT_OF_BYTE[s] + RANK_OF_BYTE[r]);
# -1: no such byte.
RANK_OF_BYTE: Final[tuple[int, ...]] = tuple(
    {**{c: k for k, c in enumerate(b"23456789")}, **{c: 9 + k for k, c in enumerate(b"JQKA")},
     ord("1"): -2}.get(b, -1)
    for b in range(256)
)  # fmt: skip
RANK_TEN: Final = 8
"""The place of a 10 in its suit's block (the rank "10" is two bytes)."""
SUIT_OF_BYTE: Final[tuple[int, ...]] = tuple(
    {c: 13 * k for k, c in enumerate(b"SHDC")}.get(b, -1) for b in range(256)
)
# The same two tables as bytes, each value 2 more (so none is negative), for the engine's scan: a
# byte read costs it less than a tuple's item.
RANK_BYTES: Final = bytes(r + 2 for r in RANK_OF_BYTE)
SUIT_BYTES: Final = bytes(s + 2 for s in SUIT_OF_BYTE)

# --- a hand's exposures: one number ------------------------------------------------------------
# Per special card k (SPECIAL_CARDS' order: Q♠ 0, J♦ 1, 10♣ 2, A♥ 3) a field of KEY_WIDTH bits:
# the low two count the copies exposed (亮牌), the third is 首明. The engine keeps one state of
# exposure levels per key.

SPECIAL_INDEX: Final[dict[str, int]] = {c.code: k for k, c in enumerate(SPECIAL_CARDS)}
"""Q♠ 0, J♦ 1, 10♣ 2, A♥ 3: the exposable cards, in the order the rules name them."""
KEY_WIDTH: Final = 3
COPY_KEY: Final[tuple[int, ...]] = tuple(1 << (KEY_WIDTH * k) for k in range(4))
"""One copy of special card k exposed."""
FIRST_KEY: Final[tuple[int, ...]] = tuple(4 << (KEY_WIDTH * k) for k in range(4))
"""Special card k exposed under 首明."""
COPY_BITS: Final = 0o3333
FIRST_BITS: Final = 0o4444


def copies_of(key: int, k: int) -> int:
    """How many copies of special card ``k`` an exposure key says were exposed."""
    return (key >> (KEY_WIDTH * k)) & 3


def is_first(key: int, k: int) -> bool:
    """Whether an exposure key says special card ``k`` was exposed under 首明."""
    return bool(key & FIRST_KEY[k])


# --- a player's scoring cards: 16 bits (one deck) ----------------------------------------------
# How a column of players keeps its raw scores (one per set, batch/columns.py): hearts 2…A in
# bits 0–12, Q♠ bit 13, J♦ bit 14, 10♣ bit 15.

SET_PIG: Final = 1 << 13
SET_SHEEP: Final = 1 << 14
SET_TEN: Final = 1 << 15


def scoring_set(once: Any) -> Any:
    """A player's scoring cards as 16 bits, from the mask of cards they hold.

    ``once`` is an ``int``, or a numpy ``int64`` array of them (a column of players).
    """
    return (
        ((once >> HEART_SHIFT) & ALL_HEARTS)
        | (((once >> PIG_PLACE) & 1) << 13)
        | (((once >> SHEEP_PLACE) & 1) << 14)
        | (((once >> TEN_PLACE) & 1) << 15)
    )


def set_cards(m: int) -> int:
    """The mask of the cards of scoring set ``m``: :func:`scoring_set` undone."""
    return (
        ((m & ALL_HEARTS) << HEART_SHIFT)
        | (((m >> 13) & 1) << PIG_PLACE)
        | (((m >> 14) & 1) << SHEEP_PLACE)
        | (((m >> 15) & 1) << TEN_PLACE)
    )


# The layouts checked against the deck once, at import.
assert (CARD_BIT[PIG], CARD_BIT[SHEEP], CARD_BIT[TRANSFORMER]) == (PIG_BIT, SHEEP_BIT, TEN_BIT)
assert CARD_BIT[ACE_OF_HEARTS] == 1 << (HEART_SHIFT + 12)
assert sum(CARD_BIT[c] for c in SCORING_CARDS) == SCORING
assert scoring_set(SCORING) == 0xFFFF and scoring_set(PIG_BIT) == SET_PIG
assert scoring_set(SHEEP_BIT) == SET_SHEEP and scoring_set(TEN_BIT) == SET_TEN
assert set_cards(0xFFFF) == SCORING and set_cards(SET_PIG | 1) == PIG_BIT | 1 << HEART_SHIFT
for _card, _bit in CARD_BIT.items():
    _rank = _card.code[:-1].encode()
    _place = RANK_TEN if _rank == b"10" else RANK_OF_BYTE[_rank[0]]
    assert 1 << (SUIT_OF_BYTE[ord(_card.code[-1])] + _place) == _bit, _card
