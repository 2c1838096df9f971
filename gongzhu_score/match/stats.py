"""Across matches: each player's record over many ledgers (``gongzhu-score stats``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.totals import PlayerTotals
from ..errors import InputError, LedgerError, NotALedgerError
from ..io.files import files_below
from ..terms import Listed, error
from .history import MAX_LEDGER_BYTES
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


_FORMAT_LINE = re.compile(rb"^format[ \t]*:[ \t]*[0-9]", re.MULTILINE)
"""A ledger's ``format: 1`` key (at the top level, a number: what says a file is a ledger)."""
_HEADER = b"# gongzhu-score match ledger"
"""The first line of every ledger the tool writes."""


def looks_like_a_ledger(path: str) -> bool:
    """Whether the file says it is a match ledger (its first line, or a top-level ``format:``
    with a number), however damaged the rest: read up to the ledger size limit, as bytes."""
    try:
        with Path(path).open("rb") as f:
            raw = f.read(MAX_LEDGER_BYTES)
    except OSError:
        return True  # cannot be read, so cannot be told apart: reported, never passed over
    return raw.removeprefix(b"\xef\xbb\xbf").startswith(_HEADER) or bool(_FORMAT_LINE.search(raw))


def read_stats(paths: Sequence[str]) -> Stats:
    """The stats of match ledgers, given as files or folders of them. The other YAML files of
    a folder (hand files, a compose file) are passed over, whatever the strict reader makes of
    them (anchors, tabs, a key twice, two documents, not UTF-8, too large); a file of a folder
    that says it is a ledger (:func:`looks_like_a_ledger`) but cannot be read is reported, and
    a file named itself must be a ledger."""
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
            except LedgerError:
                if looks_like_a_ledger(path):
                    raise  # a damaged ledger: said, never left out of the totals silently
                continue  # some other YAML file the ledger reader refuses
    if not read:
        raise error(InputError, "error.stats.no_ledgers", inputs=Listed(paths))
    hands = sum(len(ledger.entries) for ledger in read)
    return Stats(tuple(totals(read)), len(read), hands)
