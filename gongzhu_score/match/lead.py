"""Who leads a hand of a match, and so the rules that judge it.

A trick-by-trick record added to a match (or put in place of one of its hands) is judged by the
match's rules, not its own: the match's rule set and teams, the hand's number in the match, the
match's seat order (the rotation counts seats in it) and, under ``first_lead: pig``, who took
the pig in the hand before (rulings §10). A tournament's table leads by rotation (§12.4).
"""

from __future__ import annotations

from ..io.records import InForce
from .ledger import Ledger

__all__ = ["hand_in_force"]


def hand_in_force(ledger: Ledger, number: int) -> InForce:
    """The rules of play for hand ``number`` of the match.

    The next hand is ``count + 1``.
    """
    known = ledger.skipped < number - 1 <= ledger.count  # (a hand that is not there: refused later)
    before = ledger.entry(number - 1) if known else None
    leaders = before.pig_leaders if before is not None else None
    return InForce(ledger.rules, ledger.normalization.teams.value, number, ledger.players,
                   leaders or None)  # fmt: skip
