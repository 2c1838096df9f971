"""One player's totals over many hands: a batch's summary, or a season's matches (``stats``).

One type, so both count the same things the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction

__all__ = ["PlayerTotals"]


@dataclass
class PlayerTotals:
    """A player's totals, by name."""

    name: str
    hands: int = 0
    raw: int = 0
    final: int | Fraction = 0
    pigs: int = 0
    sheep: int = 0
    transformers: int = 0
    full_reds: int = 0
    grand_slams: int = 0
    matches: int = 0
    """Matches played (``stats``; a batch counts hands only)."""
    lost: int = 0
    """Matches ended with this player (or their side) as the pig (当猪)."""
    won: int = 0

    def add_hand(
        self, raw: int, final: int | Fraction, counts: tuple[int, int, int, int, int]
    ) -> None:
        """Add one hand: its raw and final score, and what the player took.

        What they took is :attr:`~.engine.HandResult.counts`: pigs, sheep, transformers, full
        red, grand slam.
        """
        self.hands += 1
        self.raw += raw
        self.final += final
        self.pigs += counts[0]
        self.sheep += counts[1]
        self.transformers += counts[2]
        self.full_reds += counts[3]
        self.grand_slams += counts[4]

    def merge(self, other: PlayerTotals) -> None:
        """Add another part's totals for the same player."""
        for f in fields(self):
            if f.name != "name":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    @property
    def average(self) -> Fraction:
        """The average final score per hand."""
        return Fraction(self.final) / self.hands if self.hands else Fraction(0)
