"""Across matches: each player's record over many ledgers (``gongzhu-score stats``).

A ledger with no hands is no match played: it is not counted. A player renamed in a match
(``match rename``, recorded in the ledger's history) is one player: a rename recorded in any
ledger read joins the old name to the new in every ledger read, under the latest name (unless
both names sit at one table, where they are two players).
"""

from __future__ import annotations

import datetime
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.totals import PlayerTotals
from ..errors import GongzhuError, InputError, LedgerError, NotALedgerError
from ..io.files import files_below, read_regular
from ..terms import Listed, error
from .history import MAX_LEDGER_BYTES, digest, history_path, read_history
from .ledger import Ledger
from .storage import read_ledger

__all__ = ["Stats", "read_stats", "renamed", "totals"]

LEDGER_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Stats:
    """Every player's totals over the ledgers read, in order of appearance."""

    players: tuple[PlayerTotals, ...]
    matches: int
    hands: int
    without_hands: int = 0
    """Ledgers read that have no hands yet (not counted as matches)."""


def totals(ledgers: Iterable[Ledger], names: Mapping[str, str] | None = None) -> list[PlayerTotals]:
    """Every player's totals, in order of first appearance.

    They are matches, times won and lost (当猪), and per hand the ledger's scores and what the
    engine says each player took. ``names`` gives the name each player's totals go under (a
    renamed player's latest name).
    """
    by_name: dict[str, PlayerTotals] = {}
    for ledger in ledgers:
        status = ledger.status()
        shown = _at_this_table(ledger.players, names or {})
        for name, as_shown in zip(ledger.players, shown, strict=True):
            record = by_name.setdefault(as_shown, PlayerTotals(as_shown))
            record.matches += 1
            record.lost += name in status.loser_side
            record.won += name in status.winner_side
        for entry in ledger.entries:
            counts = ledger.score(entry.hand, partial=entry.partial).counts
            for name, raw, final, taken in zip(shown, entry.raw, entry.final, counts,
                                               strict=True):  # fmt: skip
                by_name[name].add_hand(raw, final, taken)
    return list(by_name.values())


def _at_this_table(players: Sequence[str], names: Mapping[str, str]) -> list[str]:
    """The names one ledger's players go under: usually their latest.

    Where two of them would go under one name, they are two people, and each keeps their own.
    """
    shown = [names.get(p, p) for p in players]
    twice = {n for n, count in Counter(shown).items() if count > 1}
    return [p if n in twice else n for p, n in zip(players, shown, strict=True)]


def _when(time: str) -> float:
    try:
        return datetime.datetime.fromisoformat(time).timestamp()
    except (ValueError, OverflowError, OSError):
        return float("-inf")  # (a line edited by hand: before the ones that say when)


def renamed(renames: Iterable[tuple[str, str, str]]) -> dict[str, str]:
    """Each name a rename touched, and the name it goes under.

    ``renames`` are ``(time, old, new)``. Names joined by any chain of renames are one player,
    under the name the latest rename among them gave.
    """
    parent: dict[str, str] = {}
    label: dict[str, str] = {}

    def root(name: str) -> str:
        parent.setdefault(name, name)
        while parent[name] != name:
            parent[name] = parent[parent[name]]  # (halving: each look-up nearly constant)
            name = parent[name]
        return name

    ordered = sorted(enumerate(renames), key=lambda item: (_when(item[1][0]), item[0]))
    for _, (_, old, new) in ordered:
        a, b = root(old), root(new)
        if a != b:
            parent[a] = b
        label[b] = new
    return {name: label[root(name)] for name in parent}


def _renames_of(path: str) -> list[tuple[str, str, str]]:
    """The renames a ledger's history records, as ``(time, old, new)``.

    None without a history; a change that never reached the ledger is not one.
    """
    if not history_path(path).exists():
        return []
    current = digest(read_regular(path, MAX_LEDGER_BYTES))
    return [
        (c.time, c.values["old"], c.values["new"])
        for c in read_history(path, current)
        if c.kind == "rename"
    ]


_FORMAT_LINE = re.compile(rb"^format[ \t]*:[ \t]*[0-9]", re.MULTILINE)
"""A ledger's ``format: 1`` key (at the top level, a number: what says a file is a ledger)."""
_HEADER = b"# gongzhu-score match ledger"
"""The first line of every ledger the tool writes."""
_TOURNAMENT = re.compile(
    rb"\A(\xef\xbb\xbf)?# gongzhu-score tournament|^(tiebreak|rounds)[ \t]*:", re.MULTILINE
)
"""What says a file is a tournament (``format: 1`` too, but no ledger): its first line, or a
top-level key only a tournament has."""


def looks_like_a_ledger(path: str) -> bool:
    """Whether the file says it is a match ledger, however damaged.

    It says so in its first line, or a top-level ``format:`` with a number (and no sign of a
    tournament file, which has one too). It is read as bytes, up to the ledger size limit.
    """
    raw = _bytes_of(path)
    if raw is None:  # cannot be read, so cannot be told apart: reported
        return True  # (never passed over)
    if raw.removeprefix(b"\xef\xbb\xbf").startswith(_HEADER):
        return True
    return bool(_FORMAT_LINE.search(raw)) and not _TOURNAMENT.search(raw)


def looks_like_a_tournament(path: str) -> bool:
    """Whether the file says it is a tournament (its first line, or a key only one has)."""
    raw = _bytes_of(path)
    return raw is not None and bool(_FORMAT_LINE.search(raw)) and bool(_TOURNAMENT.search(raw))


def _bytes_of(path: str) -> bytes | None:
    """The file's bytes, up to the ledger size limit; None if it cannot be read."""
    try:
        return read_regular(path, MAX_LEDGER_BYTES)
    except (OSError, GongzhuError):
        return None


def read_stats(paths: Sequence[str]) -> Stats:
    """The stats of match ledgers, given as files or folders of them.

    A folder's other YAML files (hand files, a compose file) are passed over, whatever the
    strict reader makes of them (anchors, tabs, a key twice, two documents, not UTF-8, too
    large). A file of a folder that says it is a ledger (:func:`looks_like_a_ledger`) but cannot
    be read is reported, and a file named itself must be a ledger. Ledgers with no hands are not
    counted; renames recorded in the ledgers' histories are followed (:func:`renamed`).
    """
    read: list[Ledger] = []
    renames: list[tuple[str, str, str]] = []
    for path in _ledger_files(paths, read):
        renames += _renames_of(path)
    if not read:
        raise error(InputError, "error.stats.no_ledgers", inputs=Listed(paths))
    played = [ledger for ledger in read if ledger.entries]
    if not played:
        raise error(InputError, "error.stats.no_hands", inputs=Listed(paths))
    hands = sum(len(ledger.entries) for ledger in played)
    return Stats(tuple(totals(played, renamed(renames))), len(played), hands,
                 len(read) - len(played))  # fmt: skip


def _ledger_files(paths: Sequence[str], read: list[Ledger]) -> list[str]:
    """The ledger files among ``paths``, folders searched, each read into ``read``."""
    found: list[str] = []
    for given in paths:
        if not Path(given).is_dir():
            read.append(read_ledger(given))
            found.append(given)
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
            found.append(path)
    return found
