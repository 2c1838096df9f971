"""What hand files, records and ledgers share: the hand as read, cards, scores."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..core.auto_play import AutoPlayed
from ..core.cards import Card, parse_cards
from ..core.hand import Hand
from ..errors import GongzhuError, InputError
from ..terms import error

__all__ = ["HandSpec", "cards_field", "parse_score", "whole_number"]

_WHOLE = re.compile(r"[-+]?[0-9]{1,24}")


def whole_number(text: str) -> int | None:
    """``text`` as the whole number a person writes: decimal digits (ASCII), a sign perhaps;
    None for anything else: ``1_000``, ``1.0``, ``0x10``, `` 5``, ``٥``, ``true``, a number of
    more than 24 digits (Python's ``int`` would take the first four).

    >>> whole_number("-400"), whole_number("5_0"), whole_number("1.0")
    (-400, None, None)
    """
    return int(text) if _WHOLE.fullmatch(text) else None


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand as read from a file or flags. It keeps the variant the file asks for."""

    hand: Hand
    variant: str | None = None
    teams: str | None = None
    claimed: Mapping[str, int] = field(default_factory=dict)
    """What players say they scored (``claimed:``), by name."""
    first_pig: str | None = None
    """Two decks: who took the first pig (Q♠) of the hand, when the input shows it (a trick
    record does; captured cards do not). Under ``first_lead: pig`` that player leads the next
    hand (rulings §10: "上一局第一个得到猪牌的一方")."""
    auto_played: AutoPlayed | None = None
    """Partner play: who the system played for after a disconnect (托管, rulings §12.2), as
    the prompts ask it in a match under the island regime."""


def cards_field(value: object, where: object, decks: int = 1) -> tuple[Card, ...]:
    """A field of cards: a list, or one string. Its errors start with ``where``.

    ``decks`` says what 全红 stands for.
    """
    if value is not None and not isinstance(value, str | list):
        raise error(InputError, "error.input.cards_list", value=repr(value)).within(where)
    try:
        return parse_cards(value, decks)
    except GongzhuError as e:
        raise e.within(where) from None


def parse_score(text: object, where: object) -> int:
    """A claimed score: a whole number. − and full-width digits are accepted."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    cleaned = unicodedata.normalize("NFKC", str(text)).replace("−", "-").replace(" ", "")
    if len(cleaned) > 12:  # longer is no score, and int() of thousands of digits is slow
        raise error(InputError, "error.input.not_score", value=repr(str(text)[:20])).within(where)
    number = whole_number(cleaned)
    if number is None:  # (1_000, 1.0, a digit of another script: no score as a person writes)
        raise error(InputError, "error.input.not_whole", value=repr(text)).within(where)
    return number
