"""Scoring recorded hands in bulk: the common one-deck case without building objects.

:class:`FastScorer` scores a hand given as plain data (a JSON line, a YAML document) straight
from its card codes, with bit masks and tables worked out once per variant. It handles the
common case only: one deck, canonical card codes (``QS``, ``10C``), ordinary exposures,
individual play and nearest rounding. Anything else, and anything wrong, goes to the full
engine (:func:`gongzhu_score.scoring.score`), which gives the same numbers and the precise
errors; a property test checks that both agree on random hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from .cards import DECK, HEARTS, PIG, SCORING_CARDS, SHEEP, SPECIAL_CARDS, TRANSFORMER
from .handfile import hand_from_data
from .normalize import Method, Normalization, Rounding, Teams
from .rules import Variant
from .scoring import HandResult, score

__all__ = ["FastScorer", "Scored"]

_BIT = {card: 1 << i for i, card in enumerate(DECK)}
_HEART_SHIFT = DECK.index(HEARTS[0])  # the 13 hearts are consecutive bits, 2♥ to A♥
_PIG, _SHEEP, _TEN = _BIT[PIG], _BIT[SHEEP], _BIT[TRANSFORMER]
_SCORING = sum(_BIT[c] for c in SCORING_CARDS)
_BITS = {card.code: 1 << i for i, card in enumerate(DECK)}
_SPECIAL_INDEX = {c.code: k for k, c in enumerate(SPECIAL_CARDS)}  # QS JD 10C AH
_HAND_KEYS = frozenset(("players", "variant"))
_PLAYER_KEYS = frozenset(("name", "captured", "exposed"))


class Scored(NamedTuple):
    """One scored hand, as batch needs it: names, raws, finals, and what each player took.

    A tuple, because a batch makes one per hand and a tuple is the cheapest thing to make.
    """

    names: Sequence[str]
    raws: Sequence[int]
    finals: Sequence[int | Fraction]
    masks: Sequence[int] = ()
    """The players' cards as bits (fast path), from which :attr:`stats` is worked out."""
    given: tuple[tuple[int, int, int, int, int], ...] | None = None
    """The stats, when the full engine gave them (two decks count two pigs)."""

    @property
    def stats(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """Per player: pigs, sheep, transformers taken, full red (0/1), grand slam (0/1).

        Worked out only when a summary asks: JSON Lines output never needs it.
        """
        if self.given is not None:
            return self.given
        return tuple(_stats_of(mask) for mask in self.masks)

    def same(self, other: Scored) -> bool:
        """The same scores and stats, however each was worked out."""
        mine = (self.names, self.raws, self.finals, self.stats)
        theirs = (other.names, other.raws, other.finals, other.stats)
        return [tuple(x) for x in mine] == [tuple(x) for x in theirs]


def _stats_of(mask: int) -> tuple[int, int, int, int, int]:
    pig, sheep, ten = int(mask & _PIG != 0), int(mask & _SHEEP != 0), int(mask & _TEN != 0)
    red = int(mask >> _HEART_SHIFT & 0x1FFF == 0x1FFF)
    return pig, sheep, ten, red, int(red and pig and sheep and ten)


class FastScorer:
    """Scores hand data under one variant and normalization, fast when it can."""

    def __init__(self, variant: Variant, normalization: Normalization, partial: bool = False):
        self.variant, self.norm, self.partial = variant, normalization, partial
        self.name = variant.name
        self.zero_sum_scale = normalization.scale if normalization.method is Method.ZERO_SUM else 0
        v = variant
        self.fast = (
            v.decks == 1
            and normalization.teams is Teams.NONE
            and normalization.rounding is Rounding.NEAREST
            and not partial
        )
        # The sum of the heart values for every set of hearts (13 bits: 8192 entries).
        values = v.heart_values
        self.heart_sums = [0] * (1 << 13)
        for mask in range(1, 1 << 13):
            low = mask & -mask  # each set's sum is a smaller set's plus its lowest heart
            self.heart_sums[mask] = self.heart_sums[mask ^ low] + values[low.bit_length() - 1]
        self.nonzero_hearts = sum(1 << r for r in range(13) if values[r] != 0)
        # exposed special cards as bits: Q♠ 1, J♦ 2, 10♣ 4, A♥ 8
        self.exposable_bits = {c.code: 1 << _SPECIAL_INDEX[c.code] for c in v.exposable}
        self.full_red = v.full_red_base()
        self.names_seen: set[str] = set()
        # Read once here rather than from the variant for every player of every hand.
        self.auto, self.levels = v.auto_exposure, v.exposure_levels
        self.pig, self.sheep, self.pig_positive = v.pig, v.sheep, v.full_red_pig_positive
        self.alone = v.transformer_alone
        self.times = [v.transformer_times(v.exposure_levels[e], e, 1) for e in (0, 1)]
        self.counted_hearts = 0x1FFF if v.zero_hearts_are_scoring else self.nonzero_hearts
        self.alone_base = v.transformer_times(1, 0, 1)
        self.ratio = None if v.grand_slam is None else Fraction(v.grand_slam, v.grand_slam_plain())

    def score(self, data: object) -> Scored:
        """Score one hand given as data; raises :class:`GongzhuError` on a bad hand."""
        if self.fast:
            quick = self.quick(data)
            if quick is not None:
                return quick
        return self._full(data)

    def _full(self, data: object) -> Scored:
        spec = hand_from_data(data)
        result = score(spec.hand, self.variant, self.norm, partial=self.partial)
        return from_result(result)

    def quick(self, data: object, bits: Any = _BITS.__getitem__) -> Scored | None:
        """The hand's scores, or None when the full engine must look at it (call only when
        :attr:`fast`)."""
        # (``bits`` is bound once as a default: this runs for every hand of a batch.)
        if not isinstance(data, dict) or (len(data) != 1 and data.keys() - _HAND_KEYS):
            return None
        if data.get("variant", self.name) != self.name:
            return None
        players = data.get("players")
        if type(players) is not list or len(players) != 4:
            return None
        try:
            # Whole-hand comprehensions: each runs its loop in one frame, which is what makes
            # this path several times faster than the full engine.
            if any([len(p) != 2 for p in players]) and any(
                [p.keys() - _PLAYER_KEYS for p in players]
            ):
                return None  # 首明, claims, a misspelt key: the full engine
            names = tuple([p["name"] for p in players])
            if not self.names_seen.issuperset(names):  # a name is checked once, not every hand
                if not all([type(n) is str and n and n == n.strip() for n in names]):
                    return None
                self.names_seen.update(names)
            cards = [p["captured"] for p in players]
            tokens = [c.split() if type(c) is str else c for c in cards]
            # Codes to bits in C; a sum of distinct bits has as many ones as there are cards.
            masks = [sum(map(bits, t)) for t in tokens]
            count = sum(map(len, tokens))
            exposed = 0
            for shown in [p.get("exposed") for p in players]:
                if shown:
                    for token in shown.split() if type(shown) is str else shown:
                        bit = self.exposable_bits[token]
                        if exposed & bit:
                            return None
                        exposed |= bit
        except (KeyError, TypeError, AttributeError):
            return None  # an unknown spelling, a missing key, a wrong type: the full engine
        seen = masks[0] + masks[1] + masks[2] + masks[3]
        if seen.bit_count() != count or seen & _SCORING != _SCORING:
            return None
        if len(set(names)) != 4:
            return None
        return self._finish(names, masks, exposed)

    def _finish(self, names: tuple[str, ...], masks: list[int], shown: int) -> Scored:
        if self.auto and shown.bit_count() == 3:  # RULINGS §4.2
            shown = 0b1111
        levels = self.levels
        lq, lj, la = levels[shown & 1], levels[shown >> 1 & 1], levels[shown >> 3 & 1]
        t = self.times[shown >> 2 & 1]
        pig_value, sheep_value, full_red = self.pig * lq, self.sheep * lj, self.full_red * la
        sums, counted, pig_positive = self.heart_sums, self.counted_hearts, self.pig_positive
        pig_bit, sheep_bit, ten_bit, shift = _PIG, _SHEEP, _TEN, _HEART_SHIFT
        raws: list[int] = []
        for mask in masks:
            hearts = mask >> shift & 0x1FFF
            red = hearts == 0x1FFF
            total = full_red if red else sums[hearts] * la
            if mask & pig_bit:
                grand = red and mask & sheep_bit and mask & ten_bit
                total += -pig_value if grand or (red and pig_positive) else pig_value
            if mask & sheep_bit:
                total += sheep_value
            if mask & ten_bit:
                if hearts & counted or mask & (pig_bit | sheep_bit):
                    total *= t
                else:
                    total = self.alone * t // self.alone_base
                if self.ratio is not None and red and mask & pig_bit and mask & sheep_bit:
                    total = int(total * self.ratio)
            raws.append(total)
        if self.zero_sum_scale:  # the usual case, inline: (4r − R)/3, a remainder of ⅔ up
            total, scale = sum(raws), self.zero_sum_scale
            # (lists, not tuples: nothing changes them, and a batch makes millions)
            finals = [(x // 3 + (x % 3 == 2)) * scale for x in [4 * r - total for r in raws]]
            return Scored(names, raws, finals, masks)
        return Scored(names, raws, _normalize(raws, self.norm), masks)


def _normalize(raws: list[int], norm: Normalization) -> tuple[int, ...]:
    total = sum(raws)
    scale = norm.scale
    if norm.method is Method.NONE:
        return tuple(r * scale for r in raws)
    if norm.method is Method.JJ:
        return tuple((4 * r - total) * scale for r in raws)
    out = []
    for r in raws:
        whole, rest = divmod(4 * r - total, 3)  # (4r − R)/3: a remainder of ⅔ rounds up
        out.append((whole + (rest == 2)) * scale)
    return tuple(out)


def from_result(result: HandResult) -> Scored:
    """The batch view of a full engine result."""
    stats = tuple(
        (
            p.scoring_cards.count(PIG),
            p.scoring_cards.count(SHEEP),
            p.scoring_cards.count(TRANSFORMER),
            int(p.full_red),
            int(p.grand_slam),
        )
        for p in result.players
    )
    return Scored(tuple(p.name for p in result.players), result.raws, result.finals, (), stats)
