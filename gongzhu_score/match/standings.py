"""A tournament's standings across tables, their tie-breaks, and the next round's seating
(rulings §12.3–12.4).

Pure: the results come in as each table's players and deciding totals (rulings §8), round by
round; out come the players ranked, each with the tie-break that placed them, and the tables of
the next round.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Placed", "TableResult", "Tiebreak", "seat_tables", "standings"]

Number = int | Fraction


class Tiebreak(str, enum.Enum):
    """How players level on points are ranked (平分規則)."""

    LAST_MATCH = "last-match"
    """判定一 then 判定二: the better result in the last match both played, then registration."""
    REGISTRATION = "registration"
    """判定二 alone, as a Swiss tournament (瑞士賽制) ranks: the earlier registration first."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of a round: its players in seat order and their deciding totals there, and
    whether a hand has been played at it (a table seated but not begun is no match played)."""

    players: tuple[str, ...]
    totals: tuple[Number, ...]
    played: bool = True
    draw: bool = False
    """The match ended in a draw (rulings §8): no one at it beat anyone there (§12.3)."""

    def result_of(self, name: str) -> Number:
        return self.totals[self.players.index(name)]


@dataclass(frozen=True, slots=True)
class Placed:
    """A player's place in the standings.

    ``decided_by`` is None when no other player has the same total; otherwise the tie-break
    that placed them against the next player of their level group (the one above, for the
    group's last): ``last-match`` or ``registration``.
    """

    name: str
    total: Number
    rank: int
    matches: int
    decided_by: str | None


def _wins(rounds: Sequence[Sequence[TableResult]], totals: dict[str, Number]) -> dict[str, int]:
    """Per player, how many players level with them they beat in the last match both played
    (a table seated but not begun is no match; a draw is a win for no one). One pass over the
    tables, latest first: each pair is read at the first table found with both, so the work
    grows with the tables."""
    wins = dict.fromkeys(totals, 0)
    read: set[tuple[str, str]] = set()
    for tables in reversed(rounds):
        for table in tables:
            if not table.played:
                continue
            seats = table.players
            for i, a in enumerate(seats):
                for j in range(i + 1, len(seats)):
                    b = seats[j]
                    pair = (a, b) if a < b else (b, a)
                    if totals[a] != totals[b] or pair in read:
                        continue
                    read.add(pair)
                    difference = table.totals[i] - table.totals[j]
                    if difference and not table.draw:
                        wins[a if difference > 0 else b] += 1
    return wins


def standings(
    players: Sequence[str],
    rounds: Sequence[Sequence[TableResult]],
    tiebreak: Tiebreak = Tiebreak.LAST_MATCH,
) -> list[Placed]:
    """The registered ``players`` (in registration order) ranked by the sum of their deciding
    totals over the tables they sat at, each with the matches they played.

    Level players are ranked by ``tiebreak``. Under ``last-match``, each counts the players of
    their level group they beat in the last match both played (a draw, or never having met,
    counts for neither); more such wins ranks higher, and equal counts go to the earlier
    registration. For two level players that is the better result in their last match, then
    registration; for three or more it is the same reading of every pair at once, so that a
    circle (A beat B, B beat C, C beat A) falls back to registration.
    """
    order = {name: i for i, name in enumerate(players)}
    totals: dict[str, Number] = dict.fromkeys(players, 0)
    matches = dict.fromkeys(players, 0)
    for tables in rounds:
        for table in tables:
            for name, total in zip(table.players, table.totals, strict=True):
                totals[name] += total
                matches[name] += table.played
    groups: dict[Number, list[str]] = {}
    for name in players:
        groups.setdefault(totals[name], []).append(name)
    wins = _wins(rounds, totals) if tiebreak is Tiebreak.LAST_MATCH else dict.fromkeys(players, 0)
    placed: list[Placed] = []
    for total in sorted(groups, reverse=True):
        group = groups[total]
        ranked = sorted(group, key=lambda n: (-wins[n], order[n]))
        for k, name in enumerate(ranked):
            decided_by = None
            if len(ranked) > 1:
                other = ranked[k + 1] if k + 1 < len(ranked) else ranked[k - 1]
                decided_by = "last-match" if wins[name] != wins[other] else "registration"
            placed.append(Placed(name, total, len(placed) + 1, matches[name], decided_by))
    return placed


def seat_tables(ranked: Sequence[str], size: int = 4) -> list[tuple[str, ...]]:
    """The next round's tables (瑞士移位): players in standings order fill them four at a time,
    seats in that order (seat 1 North). The count must be a multiple of four (the caller says
    so to the player first)."""
    if len(ranked) % size:
        raise ValueError(f"{len(ranked)} players do not fill tables of {size}")
    return [tuple(ranked[i : i + size]) for i in range(0, len(ranked), size)]
