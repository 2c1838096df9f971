"""Across matches: each player's record over many ledgers (``gongzhu-score stats``).

A ledger with no hands is no match played: it is not counted. A player renamed in a match
(``match rename``, recorded in the ledger's history) is one player: a rename recorded in any
ledger read joins the old name to the new in every ledger read, under the latest name (unless
both names sit at one table, where they are two players). The matches count in the order they
ended (their last hand's time, then the file's name); every finished one is a game of the
season's ratings (:mod:`.ratings`, rulings §13), and the players are listed by rating. Ledgers
are only read.
"""

from __future__ import annotations

import datetime
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..core.names import canonical_name
from ..core.totals import PlayerTotals
from ..errors import GongzhuError, InputError, LedgerError, NotALedgerError
from ..io.files import files_below, read_regular
from ..terms import Listed, error, printable
from .history import MAX_LEDGER_BYTES, digest, history_path, read_history
from .ledger import Ledger
from .ratings import Game, Rating, game_of, rate
from .storage import read_ledger

__all__ = ["HeadToHead", "PlayerMatch", "PlayerView", "Stats", "parse_day", "player_view",
           "read_stats", "renamed", "totals"]  # fmt: skip

LEDGER_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class Stats:
    """Every player's totals over the ledgers read, in order of appearance."""

    players: tuple[PlayerTotals, ...]
    """By rating, the highest first, then by name; those with no finished match last."""
    matches: int
    hands: int
    without_hands: int = 0
    """Ledgers read that have no hands yet (not counted as matches)."""
    ratings: Mapping[str, Rating] = field(default_factory=dict)
    """Each player's rating after the season's games (none for a player with no finished
    match)."""
    games: tuple[Game, ...] = ()
    """The finished matches, in the order they ended: the season's games."""
    after: tuple[Mapping[str, Rating], ...] = ()
    """For each game, its players' ratings after it."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Each renamed name and the name it is counted under."""
    since: datetime.date | None = None
    until: datetime.date | None = None
    outside: int = 0
    """Matches played whose last hand falls outside ``since`` … ``until`` (or says no time)."""


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


def _when(time: str | None) -> float:
    if time is None:
        return float("-inf")  # (a hand kept before its time was: first)
    try:
        return datetime.datetime.fromisoformat(time).timestamp()
    except (ValueError, OverflowError, OSError):
        return float("-inf")  # (a line edited by hand: before the ones that say when)


def _day(time: str | None) -> datetime.date | None:
    """The date a time was written on, at the table (its own UTC offset); None: no time."""
    if time is None:
        return None
    try:
        return datetime.datetime.fromisoformat(time).date()
    except ValueError:
        return None


def parse_day(text: str | None, flag: str) -> datetime.date | None:
    """A date given as ``YYYY-MM-DD`` (``--since``, ``--until``); None when none is given."""
    if text is None:
        return None
    try:
        if len(text.strip()) != 10:
            raise ValueError
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise error(InputError, "error.stats.date", flag=flag,
                    value=repr(printable(text))) from None  # fmt: skip


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


def read_stats(
    paths: Sequence[str],
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    relative_to: str | None = None,
) -> Stats:
    """The stats of match ledgers, given as files or folders of them.

    A folder's other YAML files (hand files, a compose file) are passed over, whatever the
    strict reader makes of them (anchors, tabs, a key twice, two documents, not UTF-8, too
    large). A file of a folder that says it is a ledger (:func:`looks_like_a_ledger`) but cannot
    be read is reported, and a file named itself must be a ledger. Ledgers with no hands are not
    counted; renames recorded in the ledgers' histories are followed (:func:`renamed`). With
    ``since`` or ``until``, only the matches whose last hand was entered on those dates or
    between them count (a match whose hands say no time then counts for none). Each game's
    ``file`` is its path as found, or relative to ``relative_to``, as the inputs are named in
    a refusal then.
    """
    read: list[Ledger] = []
    renames: list[tuple[str, str, str]] = []
    found = _ledger_files(paths, read)
    for path in found:
        renames += _renames_of(path)
    inputs = Listed(os.path.relpath(p, relative_to) if relative_to else p for p in paths)
    if not read:
        raise error(InputError, "error.stats.no_ledgers", inputs=inputs)
    if since is not None and until is not None and since > until:
        raise error(InputError, "error.stats.dates", since=since.isoformat(),
                    until=until.isoformat())  # fmt: skip
    played = sorted(
        ((_named(path, relative_to), ledger) for path, ledger in zip(found, read, strict=True)
         if ledger.entries),
        key=lambda item: (_when(item[1].entries[-1].entered), item[0]),
    )  # fmt: skip
    if not played:
        raise error(InputError, "error.stats.no_hands", inputs=inputs)
    counted = [item for item in played if _within(item[1], since, until)]
    if not counted:
        raise error(InputError, "error.stats.no_dates", inputs=inputs,
                    since=since.isoformat() if since else "…",
                    until=until.isoformat() if until else "…")  # fmt: skip
    names = renamed(renames)
    games = [game for game in (game_of(ledger, file, _at_this_table(ledger.players, names))
                               for file, ledger in counted) if game is not None]  # fmt: skip
    rated = rate(games)
    players = totals((ledger for _, ledger in counted), names)
    players.sort(key=lambda p: _by_rating(p.name, rated.ratings))
    hands = sum(len(ledger.entries) for _, ledger in counted)
    return Stats(tuple(players), len(counted), hands, len(read) - len(played), rated.ratings,
                 tuple(games), rated.after, names, since, until,
                 len(played) - len(counted))  # fmt: skip


def _named(path: str, relative_to: str | None) -> str:
    """A ledger's path as a game names it: as found (``./`` and the like left out), or relative
    to ``relative_to``."""
    return os.path.relpath(path, relative_to) if relative_to else os.path.normpath(path)


def _within(ledger: Ledger, since: datetime.date | None, until: datetime.date | None) -> bool:
    """Whether the match's last hand was entered within the dates (any, when none is given)."""
    if since is None and until is None:
        return True
    day = _day(ledger.entries[-1].entered)
    return day is not None and (since is None or since <= day) and (until is None or day <= until)


def _by_rating(name: str, ratings: Mapping[str, Rating]) -> tuple[int, float, str]:
    """A player's place in the list: the rating shown, the highest first, then the name; no
    rating last."""
    rating = ratings.get(name)
    return (0, -rating.shown, name) if rating is not None else (1, 0.0, name)


@dataclass(frozen=True)
class PlayerMatch:
    """One finished match of a player's: the game, their seat in it, their rating after it."""

    game: Game
    seat: int
    rating_after: Rating

    @property
    def rank(self) -> int:
        return self.game.ranks[self.seat]

    @property
    def final(self) -> int | Fraction:
        return self.game.finals[self.seat]


@dataclass(frozen=True)
class HeadToHead:
    """A player against one other: the finished matches they played together, how often the
    player finished ahead and how often behind (level, or partners, is neither)."""

    name: str
    together: int = 0
    ahead: int = 0
    behind: int = 0


@dataclass(frozen=True)
class PlayerView:
    """One player's season: their rating, each finished match, and their head-to-head."""

    name: str
    rating: Rating | None
    matches: tuple[PlayerMatch, ...]
    """In the order the matches ended."""
    head_to_head: tuple[HeadToHead, ...]
    """The most matches together first, then by name."""


def player_view(stats: Stats, name: str) -> PlayerView:
    """``name``'s season in ``stats``: found in its one written form (rulings §9), or by a name
    they had before a rename."""
    wanted = canonical_name(name)
    known = {p.name for p in stats.players}
    if wanted not in known and stats.names.get(wanted) in known:
        wanted = stats.names[wanted]
    if wanted not in known:
        raise error(InputError, "error.stats.no_player", name=repr(printable(name)),
                    players=Listed(sorted(known)))  # fmt: skip
    matches: list[PlayerMatch] = []
    meetings: dict[str, list[int]] = {}
    for game, after in zip(stats.games, stats.after, strict=True):
        if wanted not in game.players:
            continue
        seat = game.players.index(wanted)
        matches.append(PlayerMatch(game, seat, after[wanted]))
        for other, rank in zip(game.players, game.ranks, strict=True):
            if other != wanted:
                met = meetings.setdefault(other, [0, 0, 0])
                met[0] += 1
                met[1] += game.ranks[seat] < rank
                met[2] += game.ranks[seat] > rank
    faced = sorted(meetings.items(), key=lambda item: (-item[1][0], item[0]))
    return PlayerView(wanted, stats.ratings.get(wanted), tuple(matches),
                      tuple(HeadToHead(other, *met) for other, met in faced))  # fmt: skip


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
