"""The one scoring engine: rules compiled into tables, hands as bit masks.

Every path (the library, ``score``, ``explain``, ``compare``, claims, ``batch``, the match
ledger, ``replay``) scores through :class:`CompiledRules`. A player's captures are two 52-bit
masks, the cards held once and the cards held twice (two decks), so one deck and two run the
same code. :meth:`CompiledRules.raw` is the whole of rulings §4 and §5. It records its steps
only when asked, so a breakdown and ``explain`` come from the very computation that gave the
number. :func:`normalize` is the whole of §6 and §7.

It has two doors. One hand: :meth:`CompiledRules.score` takes a :class:`Hand` and gives its
:class:`HandResult`, breakdown and all. Many hands: :func:`.masks.score_seats` scores numpy
arrays of hands a column at a time, each number asked of :meth:`CompiledRules.raw` and
:func:`normalize` here, once per distinct case.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from ..errors import HandError
from ..terms import error
from .bits import (
    ALL_HEARTS,
    COPY_BITS,
    COPY_KEY,
    FIRST_BITS,
    FIRST_KEY,
    HEART_SHIFT,
    PIG_BIT,
    PIG_OR_SHEEP,
    SCORING,
    SHEEP_BIT,
    SPECIAL_INDEX,
    TEN_BIT,
    copies_of,
    is_first,
)
from .cards import SPECIAL_CARDS, Card, not_a
from .hand import Hand, every_scoring_card, hand_masks
from .normalize import Method, Normalization, Rounding, Teams
from .result import Exposure, PlayerScore, Step, TeamSide, player_score
from .variant import Variant

__all__ = [
    "CompiledRules",
    "HandResult",
    "HandState",
    "compiled_rules",
    "normalize",
    "normalize_each",
]

_PARTNER_SIDES: Final = (0, 1, 0, 1)
_THREES: Final = (3, 3, 3, 3)
_ONES: Final = (1, 1, 1, 1)


def _is_full_red(once: int, twice: int, second: int) -> bool:
    """全红: every heart of every deck (rulings §4.5, §5.3)."""
    return (once >> HEART_SHIFT) & ALL_HEARTS == ALL_HEARTS and (
        twice >> HEART_SHIFT
    ) & ALL_HEARTS == second


def _count(once: int, twice: int, bit: int) -> int:
    return (1 if once & bit else 0) + (1 if twice & bit else 0)


def _toward_zero(numerator: int, denominator: int) -> int:
    whole = abs(numerator) // abs(denominator)
    return whole if (numerator < 0) == (denominator < 0) else -whole


_SPECIAL_BITS: Final = PIG_BIT | SHEEP_BIT | TEN_BIT
"""The scoring cards that are no heart."""


def _times(a: int, b: int) -> int:
    """``a * b``, in C's multiplication when neither is negative.

    A product with a negative number (a score times a level, mostly) takes Python's.
    """
    return -(-a * b) if a < 0 else a * b


def _round_half_away(numerator: int, denominator: int) -> int:
    """Nearest integer to n/d (d > 0), halves away from zero, so +x and −x stay opposite."""
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


class HandState:
    """One hand's exposures worked out once: every special card's level (rulings §4.1–4.2, §5.1).

    ``copies`` count the ordinary exposures (after auto-exposure); ``first`` marks 首明.
    """

    rules: CompiledRules
    key: int
    levels: list[int]
    copies: list[int]
    first: list[bool]
    auto: int
    """The special card exposed by auto-exposure (index into SPECIAL_CARDS), or -1."""
    heart_level: int
    pig_level: int
    sheep_level: int
    times_one: int
    times_two: int
    """The transformer multiplier for a player who took one (two) 10♣."""

    def __init__(self, rules: CompiledRules, key: int) -> None:
        v = rules.variant
        self.rules, self.key = rules, key
        self.copies = [copies_of(key, k) for k in range(4)]
        self.first = [is_first(key, k) for k in range(4)]
        self.auto = -1
        shown = [SPECIAL_CARDS[k] for k in range(4) if self.copies[k] or self.first[k]]
        auto = v.auto_exposed(shown)  # the rule's one home, asked once per exposure key
        if auto is not None:
            self.auto = SPECIAL_CARDS.index(auto)
            self.copies[self.auto] = 1
        self.levels = [
            v.first_exposure_level if self.first[k] else v.exposure_levels[self.copies[k]]
            for k in range(4)
        ]
        self.pig_level, self.sheep_level = self.levels[0], self.levels[1]
        self.heart_level = self.levels[3]
        ten_level, ten_copies = self.levels[2], self.copies[2]
        self.times_one = v.transformer_times(ten_level, ten_copies, 1)
        self.times_two = v.transformer_times(ten_level, ten_copies, 2) if v.decks > 1 else 0

    def __reduce__(self) -> tuple[object, ...]:
        return (_state_of, (self.rules, self.key))


class CompiledRules:
    """A rule set compiled once into the tables the engine reads. Make one with
    :func:`compiled_rules`, which keeps one per variant."""

    variant: Variant
    name: str
    decks: int
    heart_sums: list[int]
    pig: int
    sheep: int
    full_red_base: int
    pig_positive_on_red: bool
    alone: int
    alone_base: int
    counted_hearts: int
    second_hearts: int
    fixed_slam: bool
    slam: int
    slam_plain: int
    exposable: list[bool]
    """Per special card (:data:`.bits.SPECIAL_INDEX`): whether the rules let it be exposed."""
    first_allowed: bool
    """Whether the rules allow 首明."""
    states: dict[int, HandState]
    breakdowns: dict[tuple[int, int, int], PlayerScore]
    """Each case's breakdown met so far (:meth:`breakdown`)."""
    last_how: tuple[Normalization, _How] | None
    """The normalization of the hands scored last, as the engine reads it."""

    def __init__(self, variant: Variant) -> None:
        v = variant
        self.variant, self.name, self.decks = v, v.name, v.decks
        values = list(v.heart_values)
        # The sum of the heart values of every set of hearts (13 bits: 8192 sets), each set's
        # sum being a smaller set's plus its lowest heart.
        sums = [0] * (ALL_HEARTS + 1)
        for mask in range(1, ALL_HEARTS + 1):
            low = mask & -mask
            sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        self.heart_sums = sums
        self.pig, self.sheep = v.pig, v.sheep
        self.full_red_base = v.full_red_base()
        self.pig_positive_on_red = v.full_red_pig_positive
        self.alone = v.transformer_alone
        self.alone_base = v.transformer_times(1, 0, 1)
        nonzero = sum(1 << r for r in range(13) if values[r] != 0)
        self.counted_hearts = ALL_HEARTS if v.zero_hearts_are_scoring else nonzero
        self.second_hearts = ALL_HEARTS if v.decks > 1 else 0
        self.fixed_slam = v.grand_slam is not None
        self.slam = v.grand_slam if v.grand_slam is not None else 0
        self.slam_plain = v.grand_slam_plain()
        self.exposable = [card in v.exposable for card in SPECIAL_CARDS]
        self.first_allowed = v.first_exposure_allowed
        self.states = {}
        self.breakdowns = {}
        self.last_how = None

    def __reduce__(self) -> tuple[object, ...]:
        return (compiled_rules, (self.variant,))

    def state(self, key: int) -> HandState:
        """The exposure levels for a hand's exposure key (worked out once per key)."""
        found = self.states.get(key)
        if found is None:
            found = self.states[key] = HandState(self, key)
        return found

    # --- one player (rulings §4, §5) ----------------------------------------------------------

    def raw(self, once: int, twice: int, st: HandState, steps: list[Step] | None = None) -> int:
        """A player's raw score (原始分) from the cards held once and twice.

        ``steps``, when given, receives each step of the computation (:data:`~.result.Step`).
        Written for the interpreter: the many-hands door asks it once per distinct case, the
        one-hand door four times a hand, so it calls no helper on its usual way through.
        """
        hearts = (once >> HEART_SHIFT) & ALL_HEARTS
        second = (twice >> HEART_SHIFT) & ALL_HEARTS
        red = hearts == ALL_HEARTS and second == self.second_hearts  # 全红, §4.5, §5.3
        grand = red and bool(every_scoring_card(once, twice, self.decks))  # 满贯, §4.6, §5.4
        if grand and steps is not None:
            steps.append(("grand_slam", 0, 0, 0, 0))
        total = 0
        if red:  # §4.5, §5.3
            total = self.full_red_base * st.heart_level
            if steps is not None:
                steps.append(("full_red", 0, self.full_red_base, st.heart_level, total))
        elif hearts:
            base = self.heart_sums[hearts] + self.heart_sums[second]
            total = base * st.heart_level
            if steps is not None:
                steps.append(("hearts", 0, base, st.heart_level, total))
        held = once | twice
        if not held & _SPECIAL_BITS:  # (no pig, sheep or transformer: hearts alone)
            return total
        pigs = (once & PIG_BIT != 0) + (twice & PIG_BIT != 0)  # (a count: bools add up)
        if pigs:  # §4.6: a grand slam turns the pig positive (and, as a house rule, full red)
            positive = grand or (red and self.pig_positive_on_red)
            base = (-self.pig if positive else self.pig) * pigs
            points = base * st.pig_level
            total += points
            if steps is not None:
                steps.append(("pig_positive" if positive else "pig", pigs, base,
                              st.pig_level, points))  # fmt: skip
        sheep = (once & SHEEP_BIT != 0) + (twice & SHEEP_BIT != 0)
        if sheep:
            points = self.sheep * sheep * st.sheep_level
            total += points
            if steps is not None:
                steps.append(("sheep", sheep, self.sheep * sheep, st.sheep_level, points))
        tens = (once & TEN_BIT != 0) + (twice & TEN_BIT != 0)
        if tens:  # §4.4, §5.2
            times = st.times_one if tens == 1 else st.times_two
            # The pig and the sheep always count as other scoring cards; hearts worth 0 count
            # unless the rules say otherwise (online).
            if held >> HEART_SHIFT & self.counted_hearts or pigs or sheep:
                subtotal, total = total, total * times
                if steps is not None:
                    steps.append(("transformer", tens, subtotal, times, total))
            else:
                total = self.alone * times // self.alone_base
                if steps is not None:
                    steps.append(("transformer_alone", tens, self.alone,
                                  times // self.alone_base, total))  # fmt: skip
                    steps.append(("transformer", tens, 0, times, total))
        if grand and self.fixed_slam:  # §5.4: the seed's fixed 1600, scaled as the formula is
            total = _toward_zero(total * self.slam, self.slam_plain)
            if steps is not None:
                steps.append(("grand_slam_fixed", 0, self.slam, self.slam_plain, total))
        return total

    def breakdown(self, once: int, twice: int, st: HandState) -> PlayerScore:
        """A player's raw score with its steps as a :class:`PlayerScore` (its seat, name and
        final left blank), worked out once per case (exposures, scoring cards) and kept."""
        case = (st.key, once & SCORING, twice & SCORING)
        found = self.breakdowns.get(case)
        if found is None:
            steps: list[Step] = []
            raw = self.raw(once, twice, st, steps)
            found = player_score(0, "", case[1:], steps, raw, 0, Fraction(0), None)
            if len(self.breakdowns) >= _KEEP_CASES:
                self.breakdowns.clear()
            self.breakdowns[case] = found
        return found

    def counts(self, once: int, twice: int) -> tuple[int, int, int, int, int]:
        """What a player took, for totals: pigs, sheep, transformers, full red, grand slam."""
        red = _is_full_red(once, twice, self.second_hearts)
        grand = red and bool(every_scoring_card(once, twice, self.decks))  # 满贯, §4.6, §5.4
        return (_count(once, twice, PIG_BIT), _count(once, twice, SHEEP_BIT),
                _count(once, twice, TEN_BIT), int(red), int(grand))  # fmt: skip

    # --- a hand -----------------------------------------------------------------------------

    def score(self, hand: Hand, norm: Normalization, partial: bool = False) -> HandResult:
        """Score a :class:`Hand`: every input rule checked with precise errors (rulings §9).

        The one-hand door.
        """
        once, twice, missing = hand_masks(hand, self.variant, partial)
        shown: list[int] = []
        for p in hand.players:
            key = 0
            for card in p.exposed:
                key += COPY_KEY[SPECIAL_INDEX[card.code]]
            for card in p.first_exposed:
                key |= FIRST_KEY[SPECIAL_INDEX[card.code]]
            shown.append(key)
        return self._finish(hand.names, once, twice, shown, norm, bool(missing), missing)

    def sides(self, norm: Normalization, names: Sequence[str], once: list[int],
              twice: list[int], shown: list[int]) -> tuple[int, ...] | None:  # fmt: skip
        """Each seat's side (0 or 1) under ``norm``'s teams, or None for individual play;
        a :class:`HandError` where the teams refuse the hand (rulings §7)."""
        return _sides(self._how_for(norm).teams, names, once, twice, shown)

    def _finish(
        self,
        names: tuple[str, ...],
        once: list[int],
        twice: list[int],
        shown: list[int],
        norm: Normalization,
        partial: bool,
        missing: tuple[Card, ...],
        scored: tuple[tuple[int, ...], tuple[int | Fraction, ...]] | None = None,
    ) -> HandResult:
        """A hand's result: scored here (the one-hand door), or from the raws and finals the
        many-hands door gave it (``scored``: its sides were accepted there)."""
        st = self.state(_hand_key(shown[0], shown[1], shown[2], shown[3]))
        how = self._how_for(norm)
        sides = None if how.teams == _NO_TEAMS else _sides(how.teams, names, once, twice, shown)
        raws: tuple[int, ...]
        if scored is None:
            raws = (self.raw(once[0], twice[0], st), self.raw(once[1], twice[1], st),
                    self.raw(once[2], twice[2], st), self.raw(once[3], twice[3], st))  # fmt: skip
            finals, numerators, denominators = _normalize(raws, how, sides)
        else:
            raws, finals = scored
            numerators, denominators = _shares(raws, how, sides)
        return HandResult(
            self, norm, names, raws, finals, partial, missing, once, twice, shown, st,
            numerators, denominators, sides,
        )  # fmt: skip

    def _how_for(self, norm: Normalization) -> _How:
        """``norm`` as the engine reads it; the last one is kept."""
        last = self.last_how  # (one tuple, read at once: threads may share the rules)
        if last is not None and last[0] is norm:
            return last[1]
        how = _how(norm)
        self.last_how = (norm, how)
        return how


def _hand_key(k0: int, k1: int, k2: int, k3: int) -> int:
    """A hand's exposure key from its players': copies added up, 首明 or'ed (:mod:`.bits`)."""
    copies = (k0 & COPY_BITS) + (k1 & COPY_BITS) + (k2 & COPY_BITS) + (k3 & COPY_BITS)
    return copies | ((k0 | k1 | k2 | k3) & FIRST_BITS)


def _state_of(rules: CompiledRules, key: int) -> HandState:
    return rules.state(key)


_COMPILED: dict[int, tuple[Variant, CompiledRules]] = {}
_KEEP: Final = 64
_KEEPING: Final = threading.Lock()
"""Held while a kept entry is added or evicted: serve's threads score at once (a look-up needs
no lock: it checks the entry it finds is its own object's)."""
_KEEP_CASES: Final = 100_000
"""Breakdowns kept per rule set (a few MB): realistic hands meet a few tens of thousands."""


def compiled_rules(variant: Variant) -> CompiledRules:
    """The compiled rules of ``variant``, made once per variant object.

    The last few dozen variants are kept.
    """
    found = _COMPILED.get(id(variant))
    if found is not None and found[0] is variant:
        return found[1]
    rules = CompiledRules(variant)
    with _KEEPING:  # (the page's threads share these: one evicts at a time)
        if len(_COMPILED) >= _KEEP:
            del _COMPILED[next(iter(_COMPILED))]
        _COMPILED[id(variant)] = (variant, rules)  # the variant kept alive: its id its own
    return rules


# --- teams and normalization (rulings §6, §7) --------------------------------------------------


class _How:
    """A :class:`Normalization` as the engine reads it: plain numbers, worked out once."""

    method: int
    teams: int
    scale: int
    exact: bool

    def __init__(self, norm: Normalization) -> None:
        self.method = _METHODS.index(norm.method)
        self.teams = _TEAMS.index(norm.teams)
        self.scale = norm.scale
        self.exact = norm.rounding is Rounding.EXACT


_METHODS: Final = (Method.NONE, Method.ZERO_SUM, Method.JJ)
_PAPER: Final = 0
_THIRDS: Final = 1
_TEAMS: Final = (Teams.NONE, Teams.PARTNERS, Teams.PIG_SHEEP)
_NO_TEAMS: Final = 0
_PARTNERS: Final = 1
_HOWS: dict[int, tuple[Normalization, _How]] = {}


def _how(norm: Normalization) -> _How:
    found = _HOWS.get(id(norm))
    if found is not None and found[0] is norm:
        return found[1]
    how = _How(norm)
    with _KEEPING:
        if len(_HOWS) >= _KEEP:
            del _HOWS[next(iter(_HOWS))]
        _HOWS[id(norm)] = (norm, how)
    return how


def _sides(
    teams: int, names: Sequence[str], once: list[int], twice: list[int], shown: list[int]
) -> tuple[int, ...] | None:
    """Each seat's side (0 or 1) for team play, or None for individual play."""
    if teams == _NO_TEAMS:
        return None
    if teams == _PARTNERS:  # 打对家: seats 1 and 3 against 2 and 4
        return _PARTNER_SIDES
    # 猪羊一家: whoever captured a pig or a sheep (two decks: any copy) plays together.
    for name, key in zip(names, shown, strict=True):
        if key:
            raise error(HandError, "error.teams.no_exposure", name=name)
    sides = tuple([0 if (a | b) & PIG_OR_SHEEP else 1 for a, b in zip(once, twice, strict=True)])
    if 0 not in sides:
        raise error(HandError, "error.teams.no_taker")
    if 1 not in sides:
        raise error(HandError, "error.teams.one_side")
    return sides


def _shares(
    raws: tuple[int, ...], how: _How, sides: tuple[int, ...] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each of the four finals as a fraction (numerators, denominators), before rounding and
    scale."""
    r0, r1, r2, r3 = raws[0], raws[1], raws[2], raws[3]
    if sides is not None:
        # D = own side − other side: zero-sum shares D among the side's members (§7.1, §7.3),
        # JJ 搭档 gives every member the whole D (§7.2).
        side_sum = [0, 0]
        size = [0, 0]
        for k in range(4):
            side_sum[sides[k]] += raws[k]
            size[sides[k]] += 1
        diff = (side_sum[0] - side_sum[1], side_sum[1] - side_sum[0])
        numerators = (diff[sides[0]], diff[sides[1]], diff[sides[2]], diff[sides[3]])
        if how.method != _THIRDS:
            return numerators, _ONES
        return numerators, (size[sides[0]], size[sides[1]], size[sides[2]], size[sides[3]])
    if how.method == _PAPER:
        return raws, _ONES
    # zero-sum: r − (R − r)/3 = (4r − R)/3, whose remainder is 0, ⅓ or ⅔ (never a tie);
    # jj: 3·r − (R − r) = 4r − R.
    total = r0 + r1 + r2 + r3
    numerators = (_times(r0, 4) - total, _times(r1, 4) - total, _times(r2, 4) - total,
                  _times(r3, 4) - total)  # fmt: skip
    return numerators, (_THREES if how.method == _THIRDS else _ONES)


def _normalize(
    raws: tuple[int, ...], how: _How, sides: tuple[int, ...] | None
) -> tuple[tuple[int | Fraction, ...], tuple[int, ...], tuple[int, ...]]:
    """The four finals (and their fractions) from the four raws: rulings §6 and §7."""
    numerators, denominators = _shares(raws, how, sides)
    scale = how.scale
    if how.exact:
        finals: list[int | Fraction] = []
        for k in range(4):
            value = Fraction(numerators[k], denominators[k]) * scale
            finals.append(value.numerator if value.denominator == 1 else value)
        return tuple(finals), numerators, denominators
    # rulings §6.4: scale after rounding, so −293 × 12 = −3516 as the seed prints.
    n, d = numerators, denominators
    rounded = (_times(_round_half_away(n[0], d[0]), scale),
               _times(_round_half_away(n[1], d[1]), scale),
               _times(_round_half_away(n[2], d[2]), scale),
               _times(_round_half_away(n[3], d[3]), scale))  # fmt: skip
    return rounded, numerators, denominators


def normalize(
    raws: Sequence[int], norm: Normalization, sides: Sequence[int] | None = None
) -> tuple[int | Fraction, ...]:
    """The four finals for ``raws`` under ``norm``; ``sides`` gives each seat's side (0/1).

    >>> normalize((-120, -280, 0, 160), Normalization())
    (-80, -293, 80, 293)
    >>> normalize((-190, 50, -10, 0), Normalization(teams=Teams.PARTNERS), (0, 1, 0, 1))
    (-125, 125, -125, 125)
    """
    numbers = _four(raws, False)
    if numbers is None:
        raise not_a("argument.raws", raws).within("raws")
    if not isinstance(norm, Normalization):
        raise not_a("argument.normalization", norm).within("norm")
    how = _how(norm)
    return _normalize(numbers, how, _seats(sides, how))[0]


def _seats(sides: Sequence[int] | None, how: _How) -> tuple[int, ...] | None:
    """``sides`` checked: four 0s and 1s, given for team play (None: individual play)."""
    seats = None if sides is None else _four(sides, True)
    if sides is not None and seats is None:
        raise not_a("argument.sides", sides).within("sides")
    if how.teams != _NO_TEAMS and seats is None:
        raise error(HandError, "error.teams.sides")
    return seats


def normalize_each(
    hands: Sequence[Sequence[int]],
    norm: Normalization,
    sides: Sequence[Sequence[int]] | None = None,
) -> list[tuple[int | Fraction, ...]]:
    """:func:`normalize` of each of ``hands`` (four raws each), in one call.

    ``sides`` holds each hand's sides (None: individual play). The column path asks it once per
    batch for its distinct inputs; compiled, the loop costs little.
    """
    if not isinstance(norm, Normalization):
        raise not_a("argument.normalization", norm).within("norm")
    if sides is not None and len(sides) != len(hands):
        raise not_a("argument.sides", sides).within("sides")
    how = _how(norm)  # (the options read once, not once a hand)
    out: list[tuple[int | Fraction, ...]] = []
    for i in range(len(hands)):
        numbers = _four(hands[i], False)
        if numbers is None:
            raise not_a("argument.raws", hands[i]).within("hands")
        seats = _seats(None if sides is None else sides[i], how)
        out.append(_normalize(numbers, how, seats)[0])
    return out


def _four(values: object, sides: bool) -> tuple[int, ...] | None:
    """Four whole numbers (``sides``: each 0 or 1), or None."""
    if not isinstance(values, tuple | list) and (  # (the usual two: no ABC check)
        isinstance(values, str | bytes) or not isinstance(values, Sequence)
    ):
        return None
    if len(values) != 4:
        return None
    out: list[int] = []
    for v in values:
        if type(v) is not int or (sides and v != 0 and v != 1):
            return None
        out.append(v)
    return tuple(out)


# --- the result ----------------------------------------------------------------------------------


class HandResult:
    """The scored hand, immutable: raw and final scores in seat order, and how.

    ``raws`` and ``finals`` are there at once. :attr:`players` (each with the lines of the
    derivation) and :attr:`exposures` are built when first read, by scoring each player again
    with its steps recorded.
    """

    variant: Variant
    normalization: Normalization
    names: tuple[str, ...]
    raws: tuple[int, ...]
    finals: tuple[int | Fraction, ...]
    partial: bool
    missing: tuple[Card, ...]
    """The scoring cards nobody captured, in deck order (a partial tally)."""
    _rules: CompiledRules
    _once: list[int]
    _twice: list[int]
    _shown: list[int]
    _state: HandState
    _numerators: tuple[int, ...]
    _denominators: tuple[int, ...]
    _sides: tuple[int, ...] | None
    _players: tuple[PlayerScore, ...] | None

    def __init__(
        self,
        rules: CompiledRules,
        normalization: Normalization,
        names: tuple[str, ...],
        raws: tuple[int, ...],
        finals: tuple[int | Fraction, ...],
        partial: bool,
        missing: tuple[Card, ...],
        once: list[int],
        twice: list[int],
        shown: list[int],
        state: HandState,
        numerators: tuple[int, ...],
        denominators: tuple[int, ...],
        sides: tuple[int, ...] | None,
    ) -> None:
        self._rules = rules
        self.variant = rules.variant
        self.normalization = normalization
        self.names, self.raws, self.finals = names, raws, finals
        self.partial, self.missing = partial, missing
        self._once, self._twice, self._shown, self._state = once, twice, shown, state
        self._numerators, self._denominators = numerators, denominators
        self._sides = sides
        self._players = None

    @property
    def players(self) -> tuple[PlayerScore, ...]:
        """Every player's score with its breakdown, in seat order."""
        if self._players is None:
            rules, st, finals, sides = self._rules, self._state, self.finals, self._sides
            once, twice, raws = self._once, self._twice, self.raws
            shares = zip(self._numerators, self._denominators, strict=True)
            of_case = PlayerScore.of_case
            built: list[PlayerScore] = []
            for i, share in enumerate(shares):
                case = functools.partial(rules.breakdown, once[i], twice[i], st)
                side = None if sides is None else sides[i]
                built.append(of_case(i + 1, self.names[i], raws[i], finals[i], side, share,
                                     case))  # fmt: skip
            self._players = tuple(built)
        return self._players

    @property
    def unrounded(self) -> tuple[Fraction, ...]:
        """Each final before rounding and scale (zero-sum: the exact (4r − R)/3)."""
        return tuple([Fraction(n, d) for n, d in zip(self._numerators, self._denominators,
                                                     strict=True)])  # fmt: skip

    @property
    def exposures(self) -> tuple[Exposure, ...]:
        """Every exposure (亮牌, 首明) by player, then auto-exposure, each with its level."""
        st = self._state
        out: list[Exposure] = []
        for name, key in zip(self.names, self._shown, strict=True):
            for k in range(4):
                for _ in range(copies_of(key, k)):
                    out.append(Exposure(SPECIAL_CARDS[k], st.levels[k], name, "exposed"))
            for k in range(4):
                if is_first(key, k):
                    out.append(Exposure(SPECIAL_CARDS[k], st.levels[k], name, "first_exposed"))
        if st.auto >= 0:
            out.append(Exposure(SPECIAL_CARDS[st.auto], st.levels[st.auto], None, "auto"))
        return tuple(out)

    @property
    def raw_sum(self) -> int:
        return sum(self.raws)

    @property
    def final_sum(self) -> int | Fraction:
        """The finals' sum: 0 for zero-sum and jj, but rounding can leave a residue (§6.2)."""
        total: int | Fraction = 0
        for f in self.finals:
            total += f
        return total

    @property
    def sides(self) -> tuple[TeamSide, TeamSide] | None:
        """The two sides in team play (rulings §7), else None."""
        if self._sides is None:
            return None
        made = [
            TeamSide(
                tuple([n for n, s in zip(self.names, self._sides, strict=True) if s == k]),
                sum([r for r, s in zip(self.raws, self._sides, strict=True) if s == k]),
            )
            for k in (0, 1)
        ]
        return made[0], made[1]

    @property
    def counts(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """Per player: pigs, sheep, transformers taken, full red (0/1), grand slam (0/1)."""
        return tuple([self._rules.counts(a, b) for a, b in zip(self._once, self._twice,
                                                                strict=True)])  # fmt: skip

    def __reduce__(self) -> tuple[object, ...]:
        # (a result travels between processes, for a data engine's workers, as its inputs)
        args = (
            self._rules, self.normalization, self.names, self.raws, self.finals, self.partial,
            self.missing, self._once, self._twice, self._shown, self._state, self._numerators,
            self._denominators, self._sides,
        )  # fmt: skip
        return (HandResult, args)

    def player(self, name: str) -> PlayerScore:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def _key(self) -> tuple[object, ...]:
        return (
            self.variant, self.normalization, self.names, self.raws, self.finals, self.partial,
            self.missing, tuple([m & SCORING for m in self._once]),
            tuple([m & SCORING for m in self._twice]), tuple(self._shown), self._sides,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = zip(self.names, self.raws, self.finals, strict=True)
        scores = ", ".join(f"{n}: {r} ({f})" for n, r, f in shown)
        return f"<HandResult {self.variant.name}: {scores}>"
