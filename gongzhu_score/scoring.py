"""The scoring engine: a validated hand and a variant in, an immutable result out. No I/O.

Every player's result carries its breakdown (the lines that add up to the raw score), so the
table, JSON and a later ``explain`` render what was computed instead of computing it again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from .cards import (
    ACE_OF_HEARTS,
    HEARTS,
    PIG,
    SCORING_CARDS,
    SHEEP,
    SPECIAL_CARDS,
    TRANSFORMER,
    Card,
    Suit,
)
from .errors import GongzhuError
from .hand import CardsLike, Hand, validate_hand
from .normalize import Method, Normalization, Rounding, normalize
from .rules import Variant, find_variant

__all__ = ["Exposure", "HandResult", "Line", "PlayerScore", "score", "score_hand"]

_ALL_HEARTS = frozenset(HEARTS)
# Display order of a player's scoring cards: the named cards first, then hearts low to high
# (the order the seed writes "猪、红桃6、8、10、J和变压器").
_DISPLAY_ORDER = {c: i for i, c in enumerate((PIG, SHEEP, TRANSFORMER, *HEARTS))}


@dataclass(frozen=True, slots=True)
class Exposure:
    """A special card's exposure for the hand (亮牌). ``by`` is None for auto-exposure."""

    card: Card
    level: int
    by: str | None
    kind: str
    """``exposed`` (亮), ``first_exposed`` (首明) or ``auto`` (the fourth, RULINGS §4.2)."""


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
    raw: int
    """原始分."""
    final: int | Fraction
    """最后得分: after normalization and scale."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """The scored hand: every player's result in seat order, and how it was scored."""

    variant: Variant
    normalization: Normalization
    players: tuple[PlayerScore, ...]
    exposures: tuple[Exposure, ...]
    partial: bool
    missing: tuple[Card, ...]

    @property
    def raws(self) -> tuple[int, ...]:
        return tuple(p.raw for p in self.players)

    @property
    def finals(self) -> tuple[int | Fraction, ...]:
        return tuple(p.final for p in self.players)

    @property
    def raw_sum(self) -> int:
        return sum(self.raws)

    @property
    def final_sum(self) -> int | Fraction:
        """The finals' sum: 0 for zero-sum and jj, but rounding can leave ±1 (RULINGS §6.2)."""
        return sum(self.finals, 0)

    def player(self, name: str) -> PlayerScore:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


def exposure_levels(hand: Hand, variant: Variant) -> tuple[dict[Card, int], list[Exposure]]:
    """Each special card's level L (1, 2, 4) and the exposures behind it (RULINGS §4.1–4.2)."""
    levels = dict.fromkeys(SPECIAL_CARDS, 1)
    exposures: list[Exposure] = []
    for p in hand.players:
        for card in p.exposed:
            levels[card] = variant.exposure_level
            exposures.append(Exposure(card, variant.exposure_level, p.name, "exposed"))
        for card in p.first_exposed:
            levels[card] = variant.first_exposure_level
            exposures.append(Exposure(card, variant.first_exposure_level, p.name, "first_exposed"))
    unexposed = [c for c in SPECIAL_CARDS if levels[c] == 1]
    if variant.auto_exposure and len(unexposed) == 1:
        levels[unexposed[0]] = variant.exposure_level
        exposures.append(Exposure(unexposed[0], variant.exposure_level, None, "auto"))
    return levels, exposures


def _score_player(
    seat: int, name: str, captured: Iterable[Card], variant: Variant, levels: Mapping[Card, int]
) -> PlayerScore:
    taken = {c for c in captured if c in SCORING_CARDS}
    order = _DISPLAY_ORDER.__getitem__
    hearts = tuple(sorted((c for c in taken if c.suit is Suit.HEARTS), key=order))
    full_red = len(hearts) == len(_ALL_HEARTS)
    grand_slam = full_red and len(taken) == len(SCORING_CARDS)
    lh, lp, ls = levels[ACE_OF_HEARTS], levels[PIG], levels[SHEEP]
    lines: list[Line] = []
    if full_red:  # RULINGS §4.5
        lines.append(Line("full_red", hearts, variant.full_red, lh, variant.full_red * lh))
    elif hearts:
        base = sum(variant.card_values[c] for c in hearts)
        lines.append(Line("hearts", hearts, base, lh, base * lh))
    if PIG in taken:
        if grand_slam:  # RULINGS §4.6: the pig turns positive too
            lines.append(Line("pig_positive", (PIG,), -variant.pig, lp, -variant.pig * lp))
        else:
            lines.append(Line("pig", (PIG,), variant.pig, lp, variant.pig * lp))
    if SHEEP in taken:
        lines.append(Line("sheep", (SHEEP,), variant.sheep, ls, variant.sheep * ls))
    subtotal = sum(line.points for line in lines)

    transformer: int | None = None
    alone = False
    raw = subtotal
    if TRANSFORMER in taken:  # RULINGS §4.4
        lt = levels[TRANSFORMER]
        transformer = variant.transformer_multiplier * lt
        others = [
            c
            for c in taken
            if c is not TRANSFORMER
            and (variant.zero_hearts_are_scoring or variant.card_values[c] != 0)
        ]
        if others:
            raw = subtotal * transformer
        else:
            alone = True
            raw = variant.transformer_alone * lt
            lines.append(
                Line("transformer_alone", (TRANSFORMER,), variant.transformer_alone, lt, raw)
            )
    cards = tuple(sorted(taken, key=order))
    return PlayerScore(
        seat, name, cards, tuple(lines), subtotal, transformer, alone, full_red, grand_slam, raw, 0
    )


def score(
    hand: Hand,
    variant: Variant | str = "classic",
    normalization: Normalization | None = None,
    *,
    partial: bool = False,
) -> HandResult:
    """Score a hand: validate it (RULINGS §9), compute raw scores (§4), normalize (§6).

    ``normalization`` defaults to the variant's own method, scale 1, nearest rounding.
    """
    rules = find_variant(variant)
    norm = normalization or Normalization(rules.normalize)
    missing = validate_hand(hand, rules, partial=partial)
    levels, exposures = exposure_levels(hand, rules)
    scored = [
        _score_player(seat, p.name, p.captured, rules, levels)
        for seat, p in enumerate(hand.players, 1)
    ]
    finals = normalize([p.raw for p in scored], norm)
    players = tuple(replace(p, final=f) for p, f in zip(scored, finals, strict=True))
    return HandResult(rules, norm, players, tuple(exposures), bool(missing), missing)


def score_hand(
    captured: Hand | Mapping[str, CardsLike] | Iterable[tuple[str, CardsLike]],
    *,
    exposed: Mapping[str, CardsLike] | None = None,
    first_exposed: Mapping[str, CardsLike] | None = None,
    rest: str | None = None,
    variant: Variant | str = "classic",
    normalize: Method | str | None = None,
    scale: int = 1,
    rounding: Rounding | str = "nearest",
    partial: bool = False,
) -> HandResult:
    """Score one hand from plain Python values: the library's front door.

    ``captured`` maps each player, in seat order (counter-clockwise), to the cards they
    captured in any notation; ``exposed``/``first_exposed`` map players to the special cards
    they exposed (亮牌 / 首明); ``rest`` names a player who takes every scoring card the
    others did not. Raises :class:`~gongzhu_score.errors.GongzhuError` on bad input.

    >>> r = score_hand({"东": "QS 6H 8H 10H JH 10C", "南": "AH 2H 3H 4H 5H 7H 9H",
    ...                 "西": "JD QH KH", "北": ""}, exposed={"南": "AH"})
    >>> [(p.name, p.raw, p.final) for p in r.players]
    [('东', -400, -333), ('南', -160, -13), ('西', -40, 147), ('北', 0, 200)]
    """
    rules = find_variant(variant)
    if isinstance(captured, Hand):
        if exposed or first_exposed:
            raise GongzhuError("a Hand carries its own exposures; pass them in the Hand")
        hand = captured
    else:
        hand = Hand.from_captured(captured, exposed=exposed, first_exposed=first_exposed)
    if rest is not None:
        hand = hand.with_rest(rest)
    norm = Normalization.parse(rules.normalize if normalize is None else normalize, scale, rounding)
    return score(hand, rules, norm, partial=partial)
