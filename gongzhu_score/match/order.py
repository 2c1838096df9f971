"""The order of a match's players, first to last (rulings §8): the winner is its first, the pig
(当猪) its last, so that no one is ever named both.

Pure: the deciding totals and the last hand's finals come in, in seat order; out come the seats
from first to last, who won and who lost, or a draw, and each seat's rank, the one a rating
counts (rulings §13): players level on both share a rank, as do partners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Order", "match_order"]

Number = int | Fraction

PARTNER_SIDES: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
"""打对家: seats 1 and 3 against seats 2 and 4 (0-based here)."""


@dataclass(frozen=True, slots=True)
class Order:
    """A match's players from first to last, and its two ends."""

    seats: tuple[int, ...]
    """Every seat (0-based), first to last."""
    draw: bool
    """Everyone (both sides, in partner play) level on the deciding total and on the last hand:
    no pig and no winner."""
    winners: tuple[int, ...]
    """The winner's seat, or the winning side's two in seat order; empty in a draw."""
    losers: tuple[int, ...]
    """The pig's seat, or the losing side's two in seat order; empty in a draw."""
    ranks: tuple[int, ...] = ()
    """Each seat's rank, in seat order, 1 the first (rulings §13): one more than the number of
    players (with partners, sides) ahead of it on the deciding total, then the last hand. Level
    players share a rank, whatever their seats (the seat names the pig, but wins nothing), and
    partners share their side's; in a draw everyone is 1."""


def match_order(totals: Sequence[Number], last: Sequence[Number], partners: bool = False) -> Order:
    """The order of the players whose deciding ``totals`` and last hand's finals ``last`` are
    given in seat order (rulings §8).

    Higher totals first; level totals go to the better final in the last hand, then to the
    earlier seat, so that of level players the later seat is the pig. With ``partners`` the
    sides are ordered on the sums of their members' totals (under island 托管 they differ,
    rulings §12.2), with the same ties, and each side's members follow in their own order.
    """
    seats = range(len(totals))

    def by_player(i: int) -> tuple[Number, Number, int]:
        return (-totals[i], -last[i], i)

    if not partners:
        order = tuple(sorted(seats, key=by_player))
        level = [by_player(i)[:2] for i in seats]
        ranks = tuple(1 + sum(other < mine for other in level) for mine in level)
        if len(set(level)) <= 1:
            return Order(order, True, (), (), ranks)
        return Order(order, False, (order[0],), (order[-1],), ranks)

    def by_side(side: tuple[int, int]) -> tuple[Number, Number, int]:
        return (-sum(totals[i] for i in side), -sum(last[i] for i in side), side[0])

    first, second = sorted(PARTNER_SIDES, key=by_side)
    order = tuple(i for side in (first, second) for i in sorted(side, key=by_player))
    if by_side(first)[:2] == by_side(second)[:2]:
        return Order(order, True, (), (), (1,) * len(totals))
    ranks = tuple(1 if i in first else 2 for i in seats)
    return Order(order, False, first, second, ranks)
