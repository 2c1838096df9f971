"""What a scored hand tells: scores with reasons, exposures, sides.

Plain immutable values, made lazily by the engine (:mod:`gongzhu_score.core.engine`). A
:class:`~gongzhu_score.core.engine.HandResult` holds the numbers at once and builds these
records only when read, from the steps the engine recorded while scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import FrozenInstanceError, dataclass
from fractions import Fraction
from typing import Any

from .bits import CARD_BIT, SCORING
from .cards import HEARTS, PIG, SCORING_CARDS, SHEEP, TRANSFORMER, Card

__all__ = ["Exposure", "Line", "PlayerScore", "Step", "TeamSide", "cards_of", "player_score"]

Step = tuple[str, int, int, int, int]
"""What the engine records while it scores a player: ``(rule, copies, base, factor, points)``."""

# Display order of a player's scoring cards: the named cards first, then hearts low to high
# (the order the seed writes "猪、红桃6、8、10、J和变压器").
_DISPLAY = tuple((CARD_BIT[c], c) for c in (PIG, SHEEP, TRANSFORMER, *HEARTS))
_HEART_BITS = tuple((CARD_BIT[c], c) for c in HEARTS)


@dataclass(frozen=True, slots=True)
class Exposure:
    """One exposure of a special card (亮牌). ``by`` is None for auto-exposure."""

    card: Card
    level: int
    """The card's level for the hand once this and every other exposure is counted."""
    by: str | None
    kind: str
    """``exposed`` (亮), ``first_exposed`` (首明) or ``auto`` (the fourth, rulings §4.2)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a raw score: ``points = base × factor`` for ``cards``.

    ``rule`` names it: ``hearts``, ``full_red`` (全红), ``pig`` (猪), ``pig_positive``
    (the pig turned positive by a grand slam, 满贯), ``sheep`` (羊), ``transformer_alone``.
    ``factor`` is the exposure level that applies.
    """

    rule: str
    cards: tuple[Card, ...]
    base: int
    factor: int
    points: int


_FIELDS = ("scoring_cards", "lines", "subtotal", "transformer", "transformer_alone", "full_red",
           "grand_slam", "grand_slam_ratio", "raw", "final", "side", "unrounded",
           "transformed")  # fmt: skip


class PlayerScore:
    """One player's score for a hand, with the reasons; immutable.

    ``seat``, ``name``, ``raw``, ``final``, ``side`` and ``unrounded`` are there at once; the
    breakdown (``scoring_cards``, ``lines`` and the marks) is the engine's for the player's case
    (their scoring cards under the hand's exposures), read from it the first time asked.

    - ``subtotal``: the sum of the lines, before the transformer;
    - ``transformer``: the transformer (变压器) multiplier when this player took 10♣, else None;
    - ``grand_slam_ratio``: where the rules fix the grand slam (two decks: 1600 against the
      formula's 3200), the ratio applied after the transformer, else None;
    - ``raw``: 原始分; ``final``: 最后得分, after normalization, teams and scale;
    - ``side``: the player's side (0 or 1) in team play, else None;
    - ``unrounded``: the final before rounding and before ``scale`` (``(4r − R)/3`` in zero-sum
      play);
    - ``transformed``: the score once the transformer has multiplied it (before a fixed grand
      slam); None without 10♣.
    """

    __slots__ = ("_made", "_values_at_once")
    _values_at_once: tuple[Any, ...]
    """seat, name, raw, final, side, the unrounded final (a Fraction, or its numerator and
    denominator), and what gives the breakdown (None once it is made)."""
    _made: tuple[object, ...] | None

    def __init__(
        self,
        seat: int,
        name: str,
        scoring_cards: tuple[Card, ...],
        lines: tuple[Line, ...],
        subtotal: int,
        transformer: int | None,
        transformer_alone: bool,
        full_red: bool,
        grand_slam: bool,
        grand_slam_ratio: Fraction | None,
        raw: int,
        final: int | Fraction,
        side: int | None = None,
        unrounded: Fraction = Fraction(0),
        transformed: int | None = None,
    ) -> None:
        made = (scoring_cards, lines, subtotal, transformer, transformer_alone, full_red,
                grand_slam, grand_slam_ratio, transformed)  # fmt: skip
        object.__setattr__(self, "_values_at_once", (seat, name, raw, final, side, unrounded,
                                                     None))  # fmt: skip
        object.__setattr__(self, "_made", made)

    @classmethod
    def of_case(cls, seat: int, name: str, raw: int, final: int | Fraction, side: int | None,
                unrounded: tuple[int, int],
                case: Callable[[], PlayerScore]) -> PlayerScore:  # fmt: skip
        """A player whose breakdown ``case`` gives when first asked (the engine's, kept), and
        whose unrounded final is ``unrounded``'s numerator over its denominator."""
        made = cls.__new__(cls)
        object.__setattr__(made, "_values_at_once", (seat, name, raw, final, side, unrounded,
                                                     case))  # fmt: skip
        object.__setattr__(made, "_made", None)
        return made

    def _breakdown(self) -> tuple[object, ...]:
        made: tuple[object, ...] | None = self._made
        if made is None:
            case = self._values_at_once[6]
            made = case()._breakdown()
            object.__setattr__(self, "_made", made)
        return made

    @property
    def seat(self) -> int:
        return self._values_at_once[0]  # type: ignore[no-any-return]

    @property
    def name(self) -> str:
        return self._values_at_once[1]  # type: ignore[no-any-return]

    @property
    def raw(self) -> int:
        """原始分."""
        return self._values_at_once[2]  # type: ignore[no-any-return]

    @property
    def final(self) -> int | Fraction:
        """最后得分: after normalization, teams and scale."""
        return self._values_at_once[3]  # type: ignore[no-any-return]

    @property
    def side(self) -> int | None:
        """The player's side (0 or 1) in team play, else None."""
        return self._values_at_once[4]  # type: ignore[no-any-return]

    @property
    def unrounded(self) -> Fraction:
        """The final before rounding and before ``scale``."""
        found = self._values_at_once[5]
        if isinstance(found, tuple):
            found = Fraction(*found)
            values = self._values_at_once
            object.__setattr__(self, "_values_at_once", (*values[:5], found, values[6]))
        return found  # type: ignore[no-any-return]

    @property
    def scoring_cards(self) -> tuple[Card, ...]:
        return self._breakdown()[0]  # type: ignore[return-value]

    @property
    def lines(self) -> tuple[Line, ...]:
        return self._breakdown()[1]  # type: ignore[return-value]

    @property
    def subtotal(self) -> int:
        """The sum of the lines, before the transformer."""
        return self._breakdown()[2]  # type: ignore[return-value]

    @property
    def transformer(self) -> int | None:
        """The transformer (变压器) multiplier when this player took 10♣, else None."""
        return self._breakdown()[3]  # type: ignore[return-value]

    @property
    def transformer_alone(self) -> bool:
        return self._breakdown()[4]  # type: ignore[return-value]

    @property
    def full_red(self) -> bool:
        return self._breakdown()[5]  # type: ignore[return-value]

    @property
    def grand_slam(self) -> bool:
        return self._breakdown()[6]  # type: ignore[return-value]

    @property
    def grand_slam_ratio(self) -> Fraction | None:
        """Where the rules fix the grand slam, the ratio applied after the transformer."""
        return self._breakdown()[7]  # type: ignore[return-value]

    @property
    def transformed(self) -> int | None:
        """The score once the transformer has multiplied it (before a fixed grand slam)."""
        return self._breakdown()[8]  # type: ignore[return-value]

    @property
    def markers(self) -> tuple[str, ...]:
        """Codes: full_red (全红), grand_slam (满贯), transformer_alone, transformer_xT."""
        codes = [key for key in ("full_red", "grand_slam") if getattr(self, key)]
        if self.transformer_alone:
            codes.append("transformer_alone")
        elif self.transformer is not None:
            codes.append(f"transformer_x{self.transformer}")
        return tuple(codes)

    def _values(self) -> tuple[object, ...]:
        return (self.seat, self.name, *(getattr(self, f) for f in _FIELDS))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{f}={v!r}" for f, v in zip(("seat", "name", *_FIELDS),
                                                       self._values(), strict=True))  # fmt: skip
        return f"PlayerScore({shown})"

    def __reduce__(self) -> tuple[object, ...]:
        values = dict(zip(("seat", "name", *_FIELDS), self._values(), strict=True))
        return (PlayerScore, tuple(values[f] for f in _ARGS))


_ARGS = ("seat", "name", "scoring_cards", "lines", "subtotal", "transformer",
         "transformer_alone", "full_red", "grand_slam", "grand_slam_ratio", "raw", "final",
         "side", "unrounded", "transformed")  # fmt: skip


@dataclass(frozen=True, slots=True)
class TeamSide:
    """One side in team play: its members (seat order) and their raw total."""

    names: tuple[str, ...]
    raw: int


def cards_of(once: int, twice: int, order: Sequence[tuple[int, Card]] = _DISPLAY) -> list[Card]:
    """The cards of two masks (held once, held twice), in ``order``."""
    out: list[Card] = []
    for bit, card in order:
        if once & bit:
            out.append(card)
            if twice & bit:
                out.append(card)
    return out


_STEP_CARD = {"pig": PIG, "pig_positive": PIG, "sheep": SHEEP, "transformer_alone": TRANSFORMER}
_MARKS = ("transformer", "grand_slam", "grand_slam_fixed")


def player_score(
    seat: int,
    name: str,
    masks: tuple[int, int],
    steps: Sequence[Step],
    raw: int,
    final: int | Fraction,
    unrounded: Fraction,
    side: int | None,
) -> PlayerScore:
    """A player's score from the engine's recorded steps; nothing is worked out again.

    Steps that are lines of the score become lines. ``transformer`` (its multiplier in
    ``factor``), ``grand_slam`` and ``grand_slam_fixed`` (the fixed value over the formula's, in
    ``base`` and ``factor``) mark the player instead.
    """
    once, twice = masks
    by_rule = {rule: (copies, base, factor) for rule, copies, base, factor, _ in steps}
    by_points = {rule: points for rule, _, _, _, points in steps}
    lines = tuple(
        Line(rule, _cards(rule, copies, once, twice), base, factor, points)
        for rule, copies, base, factor, points in steps
        if rule not in _MARKS
    )
    fixed = by_rule.get("grand_slam_fixed")
    return PlayerScore(
        seat,
        name,
        tuple(cards_of(once, twice)),
        lines,
        sum(line.points for line in lines if line.rule != "transformer_alone"),
        by_rule["transformer"][2] if "transformer" in by_rule else None,
        "transformer_alone" in by_rule,
        "full_red" in by_rule,
        "grand_slam" in by_rule,
        None if fixed is None else Fraction(fixed[1], fixed[2]),
        raw,
        final,
        side,
        unrounded,
        by_points.get("transformer"),
    )


def _cards(rule: str, copies: int, once: int, twice: int) -> tuple[Card, ...]:
    if rule in ("hearts", "full_red"):
        return tuple(cards_of(once, twice, _HEART_BITS))
    return (_STEP_CARD[rule],) * copies


assert set(cards_of(SCORING, 0)) == SCORING_CARDS
