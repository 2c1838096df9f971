"""From raw scores (原始分) to final scores (最后得分): individual play (RULINGS §6) and teams (§7).

Pure arithmetic on four integers; exact thirds are kept as :class:`fractions.Fraction`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import RulesError

__all__ = [
    "Method",
    "Normalization",
    "Rounding",
    "Teams",
    "normalize",
    "parse_teams",
    "round_half_away",
]


class Method(str, enum.Enum):
    """How a hand's four raw scores become finals."""

    NONE = "none"
    """final = raw: paper scoring, as in 德宏."""
    ZERO_SUM = "zero-sum"
    """final = raw − (sum of the other three raws) / 3 (得分计算)."""
    JJ = "jj"
    """final = 3·raw − (sum of the other three raws) (JJ比赛)."""


class Rounding(str, enum.Enum):
    NEAREST = "nearest"
    """Round each final to the nearest integer (thirds never tie; halves away from zero)."""
    EXACT = "exact"
    """Keep fractions (thirds, halves)."""


class Teams(str, enum.Enum):
    """Who plays together (RULINGS §7)."""

    NONE = "none"
    """Everyone for themselves."""
    PARTNERS = "partners"
    """打对家: seats 1 and 3 against seats 2 and 4."""
    PIG_SHEEP = "pig-sheep"
    """猪羊一家: the takers of the pig and the sheep against the others."""


def _choice(enum_type: type[enum.Enum], value: object, what: str) -> enum.Enum:
    if isinstance(value, enum_type):
        return value
    try:
        return enum_type(str(value).strip().lower())
    except ValueError:
        known = ", ".join(str(m.value) for m in enum_type)
        raise RulesError(f"unknown {what} {value!r} (known: {known})") from None


def parse_teams(value: Teams | str) -> Teams:
    """``"partners"`` → :attr:`Teams.PARTNERS`, with a clear error for anything else."""
    return Teams(_choice(Teams, value, "teams"))


@dataclass(frozen=True, slots=True)
class Normalization:
    """How raw scores become finals: method, scale (RULINGS §6.4), rounding and teams."""

    method: Method = Method.ZERO_SUM
    scale: int = 1
    rounding: Rounding = Rounding.NEAREST
    teams: Teams = Teams.NONE

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", _choice(Method, self.method, "normalization"))
        object.__setattr__(self, "rounding", _choice(Rounding, self.rounding, "rounding"))
        object.__setattr__(self, "teams", _choice(Teams, self.teams, "teams"))
        if isinstance(self.scale, bool) or not isinstance(self.scale, int) or self.scale < 1:
            raise RulesError(f"scale must be a whole number ≥ 1, not {self.scale!r}")
        # RULINGS §7.4: only the pairs the seeds define.
        if self.teams is not Teams.NONE and self.method is Method.NONE:
            raise RulesError(
                f"teams {self.teams.value} with normalization none is not defined by the rules; "
                "use --normalize zero-sum or jj"
            )
        if self.teams is Teams.PIG_SHEEP and self.method is Method.JJ:
            raise RulesError(
                "teams pig-sheep (猪羊一家) with normalization jj is not defined by the rules; "
                "use --normalize zero-sum"
            )

    @classmethod
    def parse(
        cls,
        method: Method | str,
        scale: int = 1,
        rounding: Rounding | str = Rounding.NEAREST,
        teams: Teams | str = Teams.NONE,
    ) -> Normalization:
        """Build from option strings (``"zero-sum"``, ``"exact"``) with clear errors."""
        return cls(
            Method(_choice(Method, method, "normalization")),
            scale,
            Rounding(_choice(Rounding, rounding, "rounding")),
            parse_teams(teams),
        )

    def describe(self) -> str:
        text = self.method.value
        if self.scale != 1:
            text += f" ×{self.scale}"
        if self.rounding is Rounding.EXACT and self.method is not Method.NONE:
            text += " (exact)"
        return text


def round_half_away(value: Fraction) -> int:
    """Nearest integer, halves away from zero, so that +x and −x round to opposites."""
    whole = (abs(value.numerator) * 2 + value.denominator) // (2 * value.denominator)
    return whole if value >= 0 else -whole


def _finish(exact: list[Fraction], norm: Normalization) -> tuple[int | Fraction, ...]:
    finals: list[int | Fraction]
    if norm.rounding is Rounding.EXACT:
        finals = [f.numerator if f.denominator == 1 else f for f in exact]
    else:
        finals = [round_half_away(f) for f in exact]
    # RULINGS §6.4: scale after rounding, so −293 × 12 = −3516 as the seed prints.
    return tuple(f * norm.scale for f in finals)


def normalize(
    raws: Sequence[int], norm: Normalization, sides: Sequence[int] | None = None
) -> tuple[int | Fraction, ...]:
    """The four finals for ``raws`` under ``norm``; ``sides`` gives each seat's side (0/1).

    >>> normalize((-120, -280, 0, 160), Normalization())
    (-80, -293, 80, 293)
    >>> normalize((-190, 50, -10, 0), Normalization(teams=Teams.PARTNERS), (0, 1, 0, 1))
    (-125, 125, -125, 125)
    """
    total = sum(raws)
    if norm.teams is not Teams.NONE:
        if sides is None:
            raise RulesError("team play needs each seat's side")
        side_sum = [sum(r for r, s in zip(raws, sides, strict=True) if s == k) for k in (0, 1)]
        size = [list(sides).count(k) for k in (0, 1)]
        # D = own side − other side. zero-sum shares D among the side's members (§7.1, §7.3);
        # JJ 搭档 gives every member the whole D (§7.2).
        diff = [side_sum[k] - side_sum[1 - k] for k in (0, 1)]
        if norm.method is Method.JJ:
            return _finish([Fraction(diff[s]) for s in sides], norm)
        return _finish([Fraction(diff[s], size[s]) for s in sides], norm)
    if norm.method is Method.NONE:
        return _finish([Fraction(r) for r in raws], norm)
    if norm.method is Method.JJ:
        # 3·r − (R − r) = 4r − R
        return _finish([Fraction(4 * r - total) for r in raws], norm)
    # r − (R − r)/3 = (4r − R)/3; the remainder is 0, ⅓ or ⅔, so rounding never ties.
    return _finish([Fraction(4 * r - total, 3) for r in raws], norm)
