"""The scoring engine: a validated hand and a variant in, an immutable result out. No I/O.

Every player's result carries its breakdown (the lines that add up to the raw score), so the
table, JSON and a later ``explain`` render what was computed instead of computing it again.
"""

from __future__ import annotations

from collections import Counter
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
)
from .errors import GongzhuError, HandError
from .hand import CardsLike, Hand, validate_hand
from .normalize import Method, Normalization, Rounding, Teams, normalize
from .rules import Variant, find_variant

__all__ = ["Exposure", "HandResult", "Line", "PlayerScore", "TeamSide", "score", "score_hand"]

# Display order of a player's scoring cards: the named cards first, then hearts low to high
# (the order the seed writes "猪、红桃6、8、10、J和变压器").
_DISPLAY_ORDER = {c: i for i, c in enumerate((PIG, SHEEP, TRANSFORMER, *HEARTS))}
_HEARTS = frozenset(HEARTS)


@dataclass(frozen=True, slots=True)
class Exposure:
    """One exposure of a special card (亮牌). ``by`` is None for auto-exposure."""

    card: Card
    level: int
    """The card's level for the hand once this and every other exposure is counted."""
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
    grand_slam_ratio: Fraction | None
    """Where the seed fixes the grand slam (two decks: 1600 against the formula's 3200), the
    ratio applied after the transformer; None otherwise."""
    raw: int
    """原始分."""
    final: int | Fraction
    """最后得分: after normalization, teams and scale."""
    side: int | None = None
    """The player's side (0 or 1) in team play, else None."""

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
        """The finals' sum: 0 for zero-sum and jj, but rounding can leave a residue (§6.2)."""
        return sum(self.finals, 0)

    @property
    def sides(self) -> tuple[TeamSide, TeamSide] | None:
        """The two sides in team play (RULINGS §7), else None."""
        if self.normalization.teams is Teams.NONE:
            return None
        a, b = (
            TeamSide(
                tuple(p.name for p in self.players if p.side == k),
                sum(p.raw for p in self.players if p.side == k),
            )
            for k in (0, 1)
        )
        return a, b

    def player(self, name: str) -> PlayerScore:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class _Levels:
    level: Mapping[Card, int]
    """L(c) for each special card (RULINGS §4.1, §5.1)."""
    copies: Mapping[Card, int]
    """How many copies of each special card count as exposed."""


def exposure_levels(hand: Hand, variant: Variant) -> tuple[_Levels, tuple[Exposure, ...]]:
    """Each special card's level and the exposures behind it (RULINGS §4.1–4.2, §5.1)."""
    copies = Counter(c for p in hand.players for c in p.exposed)
    first = {c for p in hand.players for c in p.first_exposed}
    if variant.auto_exposure:
        unexposed = [c for c in SPECIAL_CARDS if not copies[c] and c not in first]
        if len(unexposed) == 1:
            copies[unexposed[0]] = 1
    level = {
        c: variant.first_exposure_level if c in first else variant.exposure_levels[copies[c]]
        for c in SPECIAL_CARDS
    }
    exposures = [
        Exposure(c, level[c], p.name, kind)
        for p in hand.players
        for kind, cards in (("exposed", p.exposed), ("first_exposed", p.first_exposed))
        for c in cards
    ]
    named = {e.card for e in exposures}
    exposures += [
        Exposure(c, level[c], None, "auto") for c in SPECIAL_CARDS if copies[c] and c not in named
    ]
    return _Levels(level, copies), tuple(exposures)


def _score_player(
    seat: int, name: str, captured: Iterable[Card], v: Variant, lv: _Levels
) -> PlayerScore:
    order = _DISPLAY_ORDER.__getitem__
    counts = Counter(c for c in captured if c in SCORING_CARDS)
    cards = tuple(sorted(counts.elements(), key=order))
    hearts = tuple(c for c in cards if c in _HEARTS)
    pigs, sheep, tens = counts[PIG], counts[SHEEP], counts[TRANSFORMER]
    full_red = len(hearts) == 13 * v.decks
    grand_slam = full_red and len(cards) == 16 * v.decks
    lh, lp, ls = lv.level[ACE_OF_HEARTS], lv.level[PIG], lv.level[SHEEP]

    lines: list[Line] = []
    if full_red:  # RULINGS §4.5, §5.3
        base = v.full_red_base()
        lines.append(Line("full_red", hearts, base, lh, base * lh))
    elif hearts:
        base = sum(v.card_values[c] for c in hearts)
        lines.append(Line("hearts", hearts, base, lh, base * lh))
    if pigs:
        # RULINGS §4.6: a grand slam turns the pig positive too (and, as a house rule, full red).
        positive = grand_slam or (full_red and v.full_red_pig_positive)
        rule, base = ("pig_positive", -v.pig * pigs) if positive else ("pig", v.pig * pigs)
        lines.append(Line(rule, (PIG,) * pigs, base, lp, base * lp))
    if sheep:
        lines.append(Line("sheep", (SHEEP,) * sheep, v.sheep * sheep, ls, v.sheep * sheep * ls))
    subtotal = sum(line.points for line in lines)

    raw = subtotal
    transformer: int | None = None
    alone = False
    if tens:  # RULINGS §4.4, §5.2
        lt = lv.level[TRANSFORMER]
        transformer = v.transformer_times(lt, lv.copies[TRANSFORMER], tens)
        others = [
            c
            for c in cards
            if c is not TRANSFORMER and (v.zero_hearts_are_scoring or v.card_values[c] != 0)
        ]
        if others:
            raw = subtotal * transformer
        else:
            alone = True
            base_t = v.transformer_times(1, 0, 1)
            raw = v.transformer_alone * transformer // base_t
            lines.append(
                Line("transformer_alone", (TRANSFORMER,) * tens, v.transformer_alone,
                     transformer // base_t, raw)
            )  # fmt: skip
    ratio: Fraction | None = None
    if grand_slam and v.grand_slam is not None:  # RULINGS §5.4: the seed's fixed 1600
        ratio = Fraction(v.grand_slam, v.grand_slam_plain())
        raw = int(raw * ratio)
    return PlayerScore(
        seat, name, cards, tuple(lines), subtotal, transformer, alone, full_red, grand_slam,
        ratio, raw, 0,
    )  # fmt: skip


def team_sides(hand: Hand, teams: Teams) -> tuple[int, ...] | None:
    """Each seat's side (0 or 1) for team play (RULINGS §7), or None for individual play."""
    if teams is Teams.NONE:
        return None
    if teams is Teams.PARTNERS:  # 打对家: seats 1 and 3 against 2 and 4
        return (0, 1, 0, 1)
    # 猪羊一家: whoever captured a pig or a sheep (two decks: any copy) plays together.
    for p in hand.players:
        if p.exposed or p.first_exposed:
            raise HandError(
                f"player {p.name}: 猪羊一家 (--teams pig-sheep) allows no exposure (亮牌) or 首明"
            )
    takers = {p.name for p in hand.players for c in p.captured if c in (PIG, SHEEP)}
    if not takers:
        raise HandError("猪羊一家 (--teams pig-sheep) needs the pig or the sheep captured")
    if len(takers) == len(hand.players):
        raise HandError(
            "猪羊一家 (--teams pig-sheep): every player took a pig or a sheep, so there is no "
            "other side"
        )
    return tuple(0 if p.name in takers else 1 for p in hand.players)


def score(
    hand: Hand,
    variant: Variant | str = "classic",
    normalization: Normalization | None = None,
    *,
    partial: bool = False,
) -> HandResult:
    """Score a hand: validate it (RULINGS §9), raw scores (§4, §5), finals (§6, §7).

    ``normalization`` defaults to the variant's own method, scale 1, nearest rounding.
    """
    rules = find_variant(variant)
    norm = normalization or Normalization(rules.normalize)
    missing = validate_hand(hand, rules, partial=partial)
    sides = team_sides(hand, norm.teams)
    levels, exposures = exposure_levels(hand, rules)
    scored = [
        _score_player(seat, p.name, p.captured, rules, levels)
        for seat, p in enumerate(hand.players, 1)
    ]
    finals = normalize([p.raw for p in scored], norm, sides)
    players = tuple(
        replace(p, final=f, side=None if sides is None else sides[i])
        for i, (p, f) in enumerate(zip(scored, finals, strict=True))
    )
    return HandResult(rules, norm, players, exposures, bool(missing), missing)


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
    teams: Teams | str = "none",
    partial: bool = False,
) -> HandResult:
    """Score one hand from plain Python values: the library's front door.

    ``captured`` maps each player, in seat order (counter-clockwise), to the cards they
    captured in any notation; ``exposed``/``first_exposed`` map players to the special cards
    they exposed (亮牌 / 首明); ``rest`` names a player who takes every scoring card the
    others did not; ``teams`` is ``none``, ``partners`` or ``pig-sheep``. Raises
    :class:`~gongzhu_score.errors.GongzhuError` on bad input.

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
        hand = hand.with_rest(rest, rules.decks)
    return score(
        hand, rules, rules.normalization(normalize, scale, rounding, teams), partial=partial
    )
