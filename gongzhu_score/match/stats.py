"""Across matches: each player's record over many ledgers (``gongzhu-score stats``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.totals import PlayerTotals
from ..errors import InputError, NotALedgerError
from ..io.files import files_below
from ..terms import Listed, error
from .ledger import Ledger
from .storage import read_ledger

__all__ = ["Stats", "read_stats", "totals"]

LEDGER_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Stats:
    """Every player's totals over the ledgers read, in the order the players first appear."""

    players: tuple[PlayerTotals, ...]
    matches: int
    hands: int


def totals(ledgers: Iterable[Ledger]) -> list[PlayerTotals]:
    """Every player's totals, in the order the players first appear: matches, times won and
    lost (当猪), and per hand the ledger's scores and what the engine says each player took."""
    by_name: dict[str, PlayerTotals] = {}
    for ledger in ledgers:
        status = ledger.status()
        for name in ledger.players:
            record = by_name.setdefault(name, PlayerTotals(name))
            record.matches += 1
            record.lost += name in status.loser_side
            record.won += name in status.winner_side
        for entry in ledger.entries:
            counts = ledger.score(entry.hand, partial=entry.partial).counts
            for name, raw, final, taken in zip(ledger.players, entry.raw, entry.final, counts,
                                               strict=True):  # fmt: skip
                by_name[name].add_hand(raw, final, taken)
    return list(by_name.values())


def read_stats(paths: Sequence[str]) -> Stats:
    """The stats of match ledgers, given as files or folders of them (the other YAML files of
    a folder, hand files say, are passed over; a file named itself must be a ledger)."""
    read: list[Ledger] = []
    for given in paths:
        if not Path(given).is_dir():
            read.append(read_ledger(given))
            continue
        for path in files_below(given, LEDGER_SUFFIXES):
            try:
                read.append(read_ledger(path))
            except NotALedgerError:
                continue  # a hand file beside the ledgers
    if not read:
        raise error(InputError, "error.stats.no_ledgers", inputs=Listed(paths))
    hands = sum(len(ledger.entries) for ledger in read)
    return Stats(tuple(totals(read)), len(read), hands)
