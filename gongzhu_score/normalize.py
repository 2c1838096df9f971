"""From raw scores (原始分) to final scores (最后得分), individual play (RULINGS §6).

Pure arithmetic on four integers; exact thirds are kept as :class:`fractions.Fraction`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import RulesError

__all__ = ["Method", "Normalization", "Rounding", "normalize"]


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
    """Round each zero-sum final to the nearest integer (thirds never tie)."""
    EXACT = "exact"
    """Keep thirds."""


def _choice(enum_type: type[enum.Enum], value: object, what: str) -> enum.Enum:
    if isinstance(value, enum_type):
        return value
    try:
        return enum_type(str(value).strip().lower())
    except ValueError:
        known = ", ".join(str(m.value) for m in enum_type)
        raise RulesError(f"unknown {what} {value!r} (known: {known})") from None


@dataclass(frozen=True, slots=True)
class Normalization:
    """A normalization method with its scale (RULINGS §6.4) and rounding."""

    method: Method = Method.ZERO_SUM
    scale: int = 1
    rounding: Rounding = Rounding.NEAREST

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", _choice(Method, self.method, "normalization"))
        object.__setattr__(self, "rounding", _choice(Rounding, self.rounding, "rounding"))
        if isinstance(self.scale, bool) or not isinstance(self.scale, int) or self.scale < 1:
            raise RulesError(f"scale must be a whole number ≥ 1, not {self.scale!r}")

    @classmethod
    def parse(
        cls, method: Method | str, scale: int = 1, rounding: Rounding | str = Rounding.NEAREST
    ) -> Normalization:
        """Build from option strings (``"zero-sum"``, ``"exact"``) with clear errors."""
        return cls(
            Method(_choice(Method, method, "normalization")),
            scale,
            Rounding(_choice(Rounding, rounding, "rounding")),
        )

    def describe(self) -> str:
        text = self.method.value
        if self.scale != 1:
            text += f" ×{self.scale}"
        if self.method is Method.ZERO_SUM and self.rounding is Rounding.EXACT:
            text += " (exact)"
        return text


def normalize(raws: Sequence[int], norm: Normalization) -> tuple[int | Fraction, ...]:
    """The four finals for ``raws`` under ``norm``.

    >>> normalize((-120, -280, 0, 160), Normalization())
    (-80, -293, 80, 293)
    """
    total = sum(raws)
    finals: list[int | Fraction]
    if norm.method is Method.NONE:
        finals = list(raws)
    elif norm.method is Method.JJ:
        # 3·r − (R − r) = 4r − R
        finals = [4 * r - total for r in raws]
    else:
        # r − (R − r)/3 = (4r − R)/3; the remainder is 0, ⅓ or ⅔, so round() never ties.
        exact = [Fraction(4 * r - total, 3) for r in raws]
        if norm.rounding is Rounding.EXACT:
            finals = [f.numerator if f.denominator == 1 else f for f in exact]
        else:
            finals = [round(f) for f in exact]
    # RULINGS §6.4: scale after rounding, so −293 × 12 = −3516 as the seed prints.
    return tuple(f * norm.scale for f in finals)
