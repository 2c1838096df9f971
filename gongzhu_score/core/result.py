"""What a scored hand tells: scores with reasons, exposures, sides.

Plain immutable values, made lazily by the engine (:mod:`gongzhu_score.core.engine`). A
:class:`~gongzhu_score.core.engine.HandResult` holds the numbers at once and builds these
records only when read, from the steps the engine recorded while scoring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

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


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's score for a hand, with the reasons."""

    seat: int
    name: str
    scoring_cards: tuple[Card, ...]
    lines: tuple[Line, ...]
    subtotal: int
    """The sum of the lines, before the transformer."""
    transformer: int | None
    """The transformer (变压器) multiplier when this player took 10♣, else None."""
    transformer_alone: bool
    full_red: bool
    grand_slam: bool
    grand_slam_ratio: Fraction | None
    """Where the rules fix the grand slam (two decks: 1600 against the formula's 3200), the
    ratio applied after the transformer; None otherwise."""
    raw: int
    """原始分."""
    final: int | Fraction
    """最后得分: after normalization, teams and scale."""
    side: int | None = None
    """The player's side (0 or 1) in team play, else None."""
    unrounded: Fraction = Fraction(0)
    """The final before rounding and before ``scale``: ``(4r − R)/3`` in zero-sum play."""
    transformed: int | None = None
    """The score once the transformer has multiplied it (before a fixed grand slam); None
    without 10♣."""

    @property
    def markers(self) -> tuple[str, ...]:
        """Codes: full_red (全红), grand_slam (满贯), transformer_alone, transformer_xT."""
        codes = [key for key in ("full_red", "grand_slam") if getattr(self, key)]
        if self.transformer_alone:
            codes.append("transformer_alone")
        elif self.transformer is not None:
            codes.append(f"transformer_x{self.transformer}")
        return tuple(codes)


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
