"""Claimed scores (自报得分): what players say they scored, checked against the rules.

A claim of the remaining tricks (声称) is another thing: :mod:`gongzhu_score.play.claims`.

A claimed score is compared with the raw score (原始分, what the cards give: the usual dispute)
or, when asked, the final score (最后得分).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from ..core.engine import HandResult
from ..errors import InputError
from ..terms import Listed, error

__all__ = ["ClaimedScore", "check_claimed"]


@dataclass(frozen=True, slots=True)
class ClaimedScore:
    """One player's claimed score and the verdict."""

    name: str
    claimed: int
    actual: int | Fraction
    kind: str
    """``raw`` or ``final``: which score the claim is about."""

    @property
    def correct(self) -> bool:
        return self.claimed == self.actual

    @property
    def difference(self) -> int | Fraction:
        """How far the claimed score is off: claimed − actual."""
        return self.claimed - self.actual


def check_claimed(
    result: HandResult, claims: Mapping[str, int], kind: str = "raw"
) -> list[ClaimedScore]:
    """Each claim against the player's raw (or final) score, in seat order."""
    if kind not in ("raw", "final"):
        raise error(InputError, "error.claim.kind", kind=repr(kind))
    names = [p.name for p in result.players]
    for name in claims:
        if name not in names:
            raise error(InputError, "error.claim.player", name=repr(name), players=Listed(names))
    return [
        ClaimedScore(p.name, claims[p.name], p.raw if kind == "raw" else p.final, kind)
        for p in result.players
        if p.name in claims
    ]
