"""A hand played by the system after a disconnect (托管), partner play only (rulings §12.2).

Pure: the regime is the match's, who was auto-played the hand's; :func:`auto_played_finals`
moves a losing side's finals onto its auto-played player under the island regime and changes
nothing otherwise, so every hand stays zero-sum.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["AutoPlay", "AutoPlayed", "auto_played_finals", "partner_of"]


class AutoPlay(str, enum.Enum):
    """How a match scores a hand a player's side lost while the system played for them."""

    TOURNAMENT = "tournament"
    """錦標賽: scored as usual."""
    ISLAND = "island"
    """島嶼: the auto-played player bears the side's whole loss, the partner 0."""


@dataclass(frozen=True, slots=True)
class AutoPlayed:
    """Who was auto-played (托管) in a hand, and whether only the last card was left then.

    With one card left "输赢得分正常计算": the hand is scored as usual under either regime.
    """

    name: str
    last_card: bool = False


def partner_of(seat: int) -> int:
    """The partner's seat (0-based) in partner play: seats 1 and 3, 2 and 4 play together."""
    return (seat + 2) % 4


def auto_played_finals(
    finals: Sequence[int | Fraction],
    seat: int,
    regime: AutoPlay,
    last_card: bool = False,
) -> tuple[int | Fraction, ...] | None:
    """The finals once 托管 is applied, or None when it changes nothing.

    ``seat`` (0-based) was auto-played. Under the island regime, when that seat's side lost
    the hand (its finals sum below 0), the seat gets the side's whole loss and its partner 0;
    a side that won or drew, the tournament regime and a last-card 托管 change nothing.
    """
    if regime is not AutoPlay.ISLAND or last_card:
        return None
    partner = partner_of(seat)
    loss = finals[seat] + finals[partner]
    if loss >= 0:
        return None
    moved = list(finals)
    moved[seat], moved[partner] = loss, 0
    return tuple(moved)
