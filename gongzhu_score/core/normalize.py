"""How raw scores (原始分) become finals (最后得分): the options (rulings §6, §7).

The arithmetic is the engine's (:func:`gongzhu_score.core.engine.normalize`), so one piece of
code turns raws into finals for every command.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar

from ..errors import RulesError
from ..terms import error, place

__all__ = [
    "MAX_SCALE",
    "Method",
    "Normalization",
    "Rounding",
    "Teams",
    "check_scale",
    "choice",
    "parse_teams",
]

MAX_SCALE = 1_000_000
"""The largest ``--scale``: far above any table's (the seed's ×12), small enough that every
score stays a number that prints."""


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
    """Who plays together (rulings §7)."""

    NONE = "none"
    """Everyone for themselves."""
    PARTNERS = "partners"
    """打对家: seats 1 and 3 against seats 2 and 4."""
    PIG_SHEEP = "pig-sheep"
    """猪羊一家: the takers of the pig and the sheep against the others."""


E = TypeVar("E", bound=enum.Enum)


def choice(enum_type: type[E], value: object, what: str) -> E:
    """``value`` as a member of ``enum_type``, else an error listing the values known.

    ``"Zero-Sum "`` is :attr:`Method.ZERO_SUM`; ``what`` (normalization, rounding, teams) names
    the option in the error.
    """
    if isinstance(value, enum_type):
        return value
    try:
        return enum_type(str(value).strip().lower())
    except ValueError:
        known = ", ".join(str(m.value) for m in enum_type)
        raise error(RulesError, "error.option.unknown", what=place(f"option.{what}"),
                    value=repr(value), known=known) from None  # fmt: skip


def parse_teams(value: Teams | str) -> Teams:
    """``"partners"`` → :attr:`Teams.PARTNERS`, with a clear error for anything else."""
    return choice(Teams, value, "teams")


def check_scale(value: object) -> int:
    """A scale of the finals (rulings §6.4): a whole number from 1 to :data:`MAX_SCALE`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SCALE:
        raise error(RulesError, "error.option.scale", value=repr(value))
    return value


@dataclass(frozen=True, slots=True)
class Normalization:
    """How raw scores become finals: method, scale (rulings §6.4), rounding and teams."""

    method: Method = Method.ZERO_SUM
    scale: int = 1
    rounding: Rounding = Rounding.NEAREST
    teams: Teams = Teams.NONE

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", choice(Method, self.method, "normalization"))
        object.__setattr__(self, "rounding", choice(Rounding, self.rounding, "rounding"))
        object.__setattr__(self, "teams", choice(Teams, self.teams, "teams"))
        check_scale(self.scale)
        # rulings §7.4: only the pairs the seeds define.
        if self.teams is not Teams.NONE and self.method is Method.NONE:
            raise error(RulesError, "error.option.teams_none", teams=self.teams.value)
        if self.teams is Teams.PIG_SHEEP and self.method is Method.JJ:
            raise error(RulesError, "error.option.pig_sheep_jj")

    def describe(self) -> str:
        text = self.method.value
        if self.scale != 1:
            text += f" ×{self.scale}"
        if self.rounding is Rounding.EXACT and self.method is not Method.NONE:
            text += " (exact)"
        return text
