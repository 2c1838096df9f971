"""Across matches: each player's record over many ledgers (``gongzhu-score stats``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from ..core.cards import PIG, SHEEP, TRANSFORMER
from .ledger import Ledger

__all__ = ["PlayerRecord", "records"]


@dataclass
class PlayerRecord:
    """One player's record over the ledgers read, by name."""

    name: str
    matches: int = 0
    hands: int = 0
    lost: int = 0
    """Matches ended with this player (or their side) as the pig (当猪)."""
    won: int = 0
    pigs: int = 0
    sheep: int = 0
    transformers: int = 0
    full_reds: int = 0
    grand_slams: int = 0
    final: int | Fraction = 0

    @property
    def average(self) -> Fraction:
        """The average final score per hand."""
        return Fraction(self.final) / self.hands if self.hands else Fraction(0)


def records(ledgers: Iterable[Ledger]) -> list[PlayerRecord]:
    """Every player's record, in the order the players first appear."""
    by_name: dict[str, PlayerRecord] = {}
    for ledger in ledgers:
        status = ledger.status()
        for name in ledger.players:
            record = by_name.setdefault(name, PlayerRecord(name))
            record.matches += 1
            record.lost += name in status.loser_side
            record.won += name in status.winner_side
        for entry in ledger.entries:
            for p, final, marks in zip(entry.hand.players, entry.final, entry.marks, strict=True):
                record = by_name[p.name]
                record.hands += 1
                record.final += final
                record.pigs += p.captured.count(PIG)
                record.sheep += p.captured.count(SHEEP)
                record.transformers += p.captured.count(TRANSFORMER)
                record.full_reds += "full_red" in marks
                record.grand_slams += "grand_slam" in marks
    return list(by_name.values())
