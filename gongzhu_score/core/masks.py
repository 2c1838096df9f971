"""The many-hands door: hands held as numpy arrays of card masks, scored a column at a time.

:func:`score_seats` is its one entry point. A player's cards are read elsewhere into
:data:`Masks` (an Arrow column by ``batch/columns.py``, Python objects by :func:`read_objects`);
here the checks of ``core/hand.py`` run on whole arrays and every number comes from the engine.
Each player's raw score is the engine's (:meth:`.engine.CompiledRules.raw`) for their scoring
cards under the hand's exposures, asked once per distinct case and kept (one deck:
:class:`_Raws`, a table; two decks: :func:`_raws_by_case`); each final the engine's
:func:`.engine.normalize` for its (raw, hand total) pair in individual play (:class:`_Finals`),
for the hand's four raws and sides in team play. Numpy only gathers and scatters numbers; no
rule is decided here. A hand it does not pass goes the one-hand door, which says why.

Nothing in the core imports this module as it loads (importing numpy takes a while).
"""

from __future__ import annotations

import functools
import mmap
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice
from typing import Any, TypeVar

import numpy as np

from ..errors import HandError
from .bits import (
    CODE_BIT,
    COPY_BITS,
    COPY_KEY,
    FIRST_BITS,
    FIRST_KEY,
    KEY_WIDTH,
    scoring_set,
    set_cards,
)
from .cards import DECK, SPECIAL_CARDS
from .engine import CompiledRules, HandResult, normalize, normalize_each
from .hand import (
    every_scoring_card,
    exposures_within,
    firsts_within,
    four_different,
    is_plain_name,
)
from .normalize import Normalization, Rounding, Teams
from .variant import Variant

Masks = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any],
              np.ndarray[Any, Any]]  # fmt: skip
"""Cards read entry by entry: their bits or'ed (the cards held), their bits added up (a card
held twice carries into the next bit: the held-twice mask is the sum less the or), how many
codes each holds, and which hold something that is no canonical code."""

_INT64 = (1 << 63) - 1
COLUMN_LIMIT = _INT64 // (16 * 1_000_000)
"""The largest raw the arrays take (else the careful path): its sums and finals (scale up to a
million) stay far within int64, where numpy would wrap without a word."""
TOO_LARGE = np.iinfo(np.int64).min
"""Kept for a raw beyond :data:`COLUMN_LIMIT` (its hand goes the careful path)."""


def no_cards(n: int) -> Masks:
    """:data:`Masks` of ``n`` entries that hold no card."""
    return np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, bool)


def all_four(flags: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Whether each hand's four flags (``flags``: four a hand, in a row) are all set.

    Each hand's four bytes read as one number: ten times as fast as numpy's ``all(axis=1)``.
    """
    four: np.ndarray[Any, Any] = (
        np.ascontiguousarray(flags, bool).reshape(-1).view(np.uint32) == 0x01010101
    )
    return four


def any_four(flags: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Whether any of each hand's four flags is set (as :func:`all_four`)."""
    four: np.ndarray[Any, Any] = np.ascontiguousarray(flags, bool).reshape(-1).view(np.uint32) != 0
    return four


def four(values: np.ndarray[Any, Any], op: Any) -> np.ndarray[Any, Any]:
    """``op`` (``np.add``, ``np.bitwise_or``) over each hand's four values, four a hand in a row
    (or a row of four a hand), column by column: numpy reduces a short axis slowly."""
    by_seat = values.reshape(-1, 4)
    out: np.ndarray[Any, Any] = op(
        op(by_seat[:, 0], by_seat[:, 1]), op(by_seat[:, 2], by_seat[:, 3])
    )
    return out


def bit_count(masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """How many bits each mask has set."""
    if hasattr(np, "bitwise_count"):  # numpy ≥ 2
        counted: np.ndarray[Any, Any] = np.bitwise_count(masks).astype(np.int64)
        return counted
    count = np.zeros(len(masks), np.int64)
    for shift in range(0, 64, 8):
        count += _BYTE_BITS[(masks >> shift) & 255]
    return count


_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], np.int64)
_SPECIAL_PLACES = [DECK.index(card) for card in SPECIAL_CARDS]
"""Each special card's place in a mask (Q♠ J♦ 10♣ A♥, the order of an exposure key's fields)."""
_SPECIALS = sum(1 << p for p in _SPECIAL_PLACES)


Shown = list[tuple[bool, np.ndarray[Any, Any], Masks]]
"""Exposures given: whether they are 首明, which players gave them (their places among the
4m), and their cards."""


@dataclass
class Seats:
    """``m`` hands' players, four a hand in seat order, read into arrays."""

    ok: np.ndarray[Any, Any]
    """Which hands were read plainly so far (each a hand of four players, in canonical codes)."""
    names: np.ndarray[Any, Any]
    """Each player's name as its number among ``known``."""
    known: list[str]
    plain: np.ndarray[Any, Any]
    """Whether each number's name is a plain name (the engine's own check)."""
    captured: Masks
    shown: Shown


@dataclass
class Scores:
    """What :func:`score_seats` worked out: which hands it scored, and their numbers."""

    ok: np.ndarray[Any, Any]
    once: np.ndarray[Any, Any]
    """Each player's cards held once, and twice (``m`` rows of four)."""
    twice: np.ndarray[Any, Any]
    keys: np.ndarray[Any, Any]
    """Each player's exposure key (4m)."""
    raws: np.ndarray[Any, Any]
    finals: np.ndarray[Any, Any]
    """``m`` rows of four (0 where a hand was not scored; a double under exact rounding)."""


def score_seats(seats: Seats, variant: Variant, rules: CompiledRules, norm: Normalization,
                exact: bool) -> Scores:  # fmt: skip
    """Check and score the hands of ``seats``: ``ok`` says which; the others' errors are the
    one-hand door's to give."""
    m = len(seats.ok)
    ok = seats.ok & all_four(seats.plain[seats.names])
    per_hand = seats.names.reshape(m, 4)
    ok &= four_different(per_hand[:, 0], per_hand[:, 1], per_hand[:, 2], per_hand[:, 3])
    ors, sums, lengths, unknown = seats.captured
    ors = ors.reshape(m, 4)
    ok &= ~any_four(unknown)
    hand_or = four(ors, np.bitwise_or)
    counted = four(lengths, np.add)
    twice, hand_twice = np.zeros_like(ors), 0
    if variant.decks == 1:  # no card twice, in one list or two: as many cards as bits
        ok &= bit_count(hand_or) == counted
    else:
        # Two decks: a list's bits added up, less its first copies (``ors``), are its second
        # copies (``twice``) where no card is there three times. A hand's sum says so: a third
        # copy carries a bit, so its bits then number fewer than the cards left over. (Past
        # 128 cards, where a sum might wrap, 64-bit masks hold too few bits to pass.)
        twice = sums.reshape(m, 4) - ors
        hand_twice = four(ors + twice, np.add) - hand_or
        ok &= bit_count(hand_or) + bit_count(hand_twice) == counted
    ok &= every_scoring_card(hand_or, hand_twice, variant.decks)
    keys, fine = exposure_keys(seats.shown, m, rules)
    ok &= fine
    out = Scores(ok, ors, twice, keys, np.zeros((m, 4), np.int64),
                 np.zeros((m, 4), object if exact else np.int64))  # fmt: skip
    if not ok.any():
        return out
    sel = np.flatnonzero(ok)
    by_player = keys.reshape(m, 4)[sel]
    hand_keys = four(by_player & COPY_BITS, np.add) | four(by_player & FIRST_BITS, np.bitwise_or)
    if variant.decks == 1:
        raws = _raws_of(variant, rules).look_up(hand_keys, scoring_set(ors[sel]))
    else:  # (two decks hold too many sets of cards for a table: each case met is asked)
        raws = _raws_by_case(rules, hand_keys, ors[sel], twice[sel])
    large = any_four(raws == TOO_LARGE)
    if large.any():  # (numbers this large: the careful path, which says if they are too large)
        ok[sel[large]] = False
        sel, raws = sel[~large], raws[~large]
        if not len(sel):
            return out
    out.raws[sel] = raws
    if norm.teams is Teams.NONE:
        out.finals[sel] = _finals(raws, norm, exact)
    else:  # (a hand's finals depend on its sides and all four raws)
        _team_finals(rules, norm, seats.known, per_hand, out, sel)
    return out


def _raws_by_case(rules: CompiledRules, keys: np.ndarray[Any, Any], once: np.ndarray[Any, Any],
                  twice: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:  # fmt: skip
    """Each player's raw score (rows of four), asked of the engine once per distinct case:
    the hand's exposure key and the scoring cards held once and twice."""
    cases = (np.repeat(keys, 4) << 32 | scoring_set(once.ravel()) << 16
             | scoring_set(twice.ravel()))  # fmt: skip
    distinct, which = np.unique(cases, return_inverse=True)
    numbers = []
    for case in distinct.tolist():
        state = rules.state(case >> 32)
        raw = rules.raw(set_cards(case >> 16 & 0xFFFF), set_cards(case & 0xFFFF), state)
        numbers.append(raw if -COLUMN_LIMIT <= raw <= COLUMN_LIMIT else TOO_LARGE)
    raws: np.ndarray[Any, Any] = np.array(numbers, np.int64)[which.ravel()].reshape(-1, 4)
    return raws


def _team_finals(
    rules: CompiledRules,
    norm: Normalization,
    names: list[str],
    codes: np.ndarray[Any, Any],
    out: Scores,
    sel: np.ndarray[Any, Any],
) -> None:
    """Team play's finals of the hands ``sel``, each from its sides and four raws (rulings §7).

    A hand whose sides the teams refuse is no longer ``ok``: the one-hand door says why.
    """
    raws, keys = out.raws[sel].tolist(), out.keys.reshape(-1, 4)[sel].tolist()
    once, twice = out.once[sel].tolist(), out.twice[sel].tolist()
    players = codes[sel].tolist()
    fine: list[int] = []
    sides: list[Sequence[int]] = []
    for h in range(len(sel)):
        try:
            seats = rules.sides(norm, [names[c] for c in players[h]], once[h], twice[h], keys[h])
        except HandError:
            continue
        sides.append(seats or (0, 0, 0, 0))
        fine.append(h)
    finals = normalize_each([raws[h] for h in fine], norm, sides)
    at = sel[fine]
    if len(at):
        out.finals[at] = np.array(finals, out.finals.dtype)
    refused = np.ones(len(sel), bool)
    refused[fine] = False
    out.ok[sel[refused]] = False


def exposure_keys(shown: Shown, m: int, rules: CompiledRules
                  ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:  # fmt: skip
    """Each player's exposure key, and which of the ``m`` hands' exposures are valid.

    ``exposed`` adds a COPY_KEY per card and ``first_exposed`` a FIRST_KEY, as the engine keys
    them. The valid hands hold only exposures core/hand.py passes (each special card exposed at
    most once a deck, a 首明 counted as its copy; at most one 首明 a player, and only where the
    rules allow it).
    """
    keys = np.zeros(m * 4, np.int64)
    fine = np.ones(m, bool)
    copies = np.zeros((4, m), np.int64)  # each special card's exposures in each hand
    for first, given, (ors, sums, counts, strange) in shown:
        key_of = FIRST_KEY if first else COPY_KEY
        twice = sums - ors  # (as the cards captured: a card a third time shows in the count)
        strange = strange | (ors & ~_SPECIALS != 0) | (bit_count(ors) + bit_count(twice) != counts)
        if first:
            strange |= ~firsts_within(counts, rules.first_allowed)
        hand = given // 4
        fine[hand[strange]] = False
        # each special card's copies (0 to 2) in a byte of its own, summed per hand at once
        held = [(ors >> p & 1) + (twice >> p & 1) for p in _SPECIAL_PLACES]
        keys[given] += sum(h * key for h, key in zip(held, key_of, strict=True))
        packed = np.bincount(hand, held[0] | held[1] << 8 | held[2] << 16 | held[3] << 24, m)
        by_card = packed.astype(np.int64)  # (a hand's players: at most 8 copies of a card)
        for k in range(4):
            copies[k] += by_card >> 8 * k & 255
    for k in range(4):
        fine &= exposures_within(copies[k], rules.decks, rules.exposable[k])
    return keys, fine


def small_pages(shape: tuple[int, ...], kind: Any) -> np.ndarray[Any, Any]:
    """``np.zeros(shape, kind)`` in the system's usual pages, for the large arrays kept.

    numpy asks for huge pages for an array of 4 MB or more; where memory is fragmented (a
    large file just written), the kernel then stalls to compact it: measured here, 0.3 s to
    first touch a 42 MB table, against 0.02 s in small pages.
    """
    count = int(np.prod(shape))
    memory = mmap.mmap(-1, max(count * np.dtype(kind).itemsize, 1))  # (zeroed by the system)
    return np.frombuffer(memory, kind, count).reshape(shape)


# --- one deck's raw scores, kept -----------------------------------------------------------------

_SETS = 1 << 16
"""How many sets of scoring cards one player can take (one deck):
:func:`~gongzhu_score.core.bits.scoring_set`."""
_V = TypeVar("_V")


def keep(store: dict[Any, _V], key: object, value: _V, most: int) -> _V:
    """Keep ``value`` for ``key`` in ``store``, unless another thread kept one first.

    Returns what is kept. The oldest entry is let go when ``most`` are kept, a bound on memory.
    """
    with _LOCK:
        found = store.get(key)
        if found is not None:
            return found
        if len(store) >= most:
            del store[next(iter(store))]
        store[key] = value
    return value


_LOCK = threading.Lock()


class _Raws:
    """One rule set's raw scores, asked of the engine once per process.

    Each (exposure key, set of scoring cards) is asked of :meth:`CompiledRules.score_many` the
    first time a table holds it. There is a row of 65,536 numbers for each of the 81 exposure
    keys of one deck (each of the four special cards not exposed, exposed, or exposed under
    首明), which every later call reads as it is. The rows are made at once but cost memory only
    as they are filled.
    """

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        self.values = small_pages((len(_KEYS), _SETS), np.int64)
        self.known = small_pages((len(_KEYS), _SETS), bool)
        self.marked = small_pages((len(_KEYS) * _SETS,), bool)
        self.lock = threading.Lock()

    def look_up(
        self, keys: np.ndarray[Any, Any], sets: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """Each player's raw score from their scoring set and the hand's exposure key.

        ``sets`` is a row of four players' scoring sets per hand, ``keys`` the hands' exposure
        keys. A key that is none of one deck's, which the readers never give, gets
        :data:`TOO_LARGE`.
        """
        rows = np.zeros(len(keys), np.int64)
        for k in range(4):  # (a key that is none of one deck's: caught below, never read)
            field = keys >> (KEY_WIDTH * k)
            state = np.where(field & _FIRST_FIELD, 2, np.minimum(field & _COPY_FIELD, 1))
            rows += state * 3**k
        codes = rows[:, None] * _SETS + sets
        with self.lock:  # (threads of one call, or calls at once, share the numbers)
            missing = codes[~self.known.reshape(-1)[codes]]
            if len(missing):  # (each once, in order: marked, not sorted, which costs more)
                marked = self.marked  # (kept clear between calls: no fresh memory each time)
                marked[missing] = True
                new = np.flatnonzero(marked)
                marked[new] = False
                self._fill(new)
        found: np.ndarray[Any, Any] = self.values.reshape(-1)[codes]
        found[_KEYS[rows] != keys] = TOO_LARGE
        return found

    def _fill(self, codes: np.ndarray[Any, Any]) -> None:
        """Ask the engine the raws of ``codes`` (places in the table), each a player's scoring
        set under an exposure key (a player's raw is their cards' under the hand's exposures,
        whoever holds the others)."""
        cards = _set_cards()[codes % _SETS].tolist()
        rows = (codes // _SETS).tolist()
        rules = self.rules
        raw, states = rules.raw, [rules.state(key) for key in _KEYS.tolist()]
        numbers = [raw(held, 0, states[row]) for held, row in zip(cards, rows, strict=True)]
        values = np.array([n if -COLUMN_LIMIT <= n <= COLUMN_LIMIT else TOO_LARGE
                           for n in numbers], np.int64)  # fmt: skip
        self.values.reshape(-1)[codes] = values
        self.known.reshape(-1)[codes] = True


@functools.cache
def _set_cards() -> np.ndarray[Any, Any]:
    """Each scoring set's cards (:func:`.bits.set_cards`), worked out the first time asked."""
    return np.array([set_cards(s) for s in range(_SETS)], np.int64)


_COPY_FIELD = COPY_KEY[0] * 3
_FIRST_FIELD = FIRST_KEY[0]
"""A special card's copies and its 首明 in its field of an exposure key (:mod:`.bits`)."""
_KEYS = np.array([sum((0, COPY_KEY[k], FIRST_KEY[k])[row // 3**k % 3] for k in range(4))
                  for row in range(81)], np.int64)  # fmt: skip
"""One deck's exposure keys, by each special card's state (digit k in base 3: card k not
exposed, exposed, or exposed under 首明)."""


RAWS: dict[Variant, _Raws] = {}
_KEEP_RAWS = 8
"""Rule sets whose raw scores are kept (47 MB at most each, as they are filled: realistic
hands fill a few of the 81 keys' rows)."""


def _raws_of(variant: Variant, rules: CompiledRules) -> _Raws:
    """The raw scores kept for ``variant``, by value.

    The same rules read twice share them.
    """
    try:
        found = RAWS.get(variant)
    except TypeError:  # (a rule set that cannot be a key: its numbers for this call only)
        return _Raws(rules)
    if found is None:
        found = keep(RAWS, variant, _Raws(rules), _KEEP_RAWS)
    return found


# --- individual play's finals, kept --------------------------------------------------------------


def unique(values: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``np.unique(values, return_inverse=True)`` in linear time, for small non-negative
    numbers.

    It uses a look-up table instead of a sort; for a few numbers, a set, cheaper than either.
    """
    if len(values) <= _FEW:
        listed = values.tolist()
        found = sorted(set(listed))
        at = {v: i for i, v in enumerate(found)}
        return np.array(found, values.dtype), np.array([at[v] for v in listed], np.int64)
    top = int(values.max()) + 1 if len(values) else 0
    if top > 2 * len(values) + (1 << 16):
        return np.unique(values, return_inverse=True)  # (sparse: sorting is cheaper)
    seen = np.zeros(top, bool)
    seen[values] = True
    found_values = np.flatnonzero(seen)
    place = np.zeros(top, np.int32)
    place[found_values] = np.arange(len(found_values))
    return found_values, place[values]


_FEW = 32
"""Numbers few enough that Python's sets and dicts handle them faster than numpy's calls."""


def _finals(raws: np.ndarray[Any, Any], norm: Normalization, exact: bool) -> np.ndarray[Any, Any]:
    """The engine's individual-play finals, asked once per distinct (raw, hand total).

    In individual play a final depends on nothing else (rulings §6).
    """
    kind = object if exact else np.int64  # (exact: whole numbers and Fractions)
    if raws.size <= _FEW:  # (a few hands: each pair looked up as it comes)
        seen: dict[tuple[int, int], int | Fraction] = {}
        got: list[int | Fraction] = []
        for hand in raws.tolist():
            total = sum(hand)
            for raw in hand:
                final = seen.get((raw, total))
                if final is None:
                    final = seen[raw, total] = normalize((raw, total - raw, 0, 0), norm)[0]
                got.append(final if exact else int(final))
        few: np.ndarray[Any, Any] = np.array(got, kind).reshape(raws.shape)
        return few
    totals = np.repeat(four(raws, np.add), 4)
    flat = raws.ravel()
    low_raw, low_total = int(flat.min()), int(totals.min())
    raw_values, raw_at = unique(flat - low_raw)
    total_values, total_at = unique(totals - low_total)
    # one number per (raw, total) pair: few of each, so few pairs
    pairs, which = unique(raw_at.astype(np.int64) * len(total_values) + total_at)
    r, t = np.divmod(pairs, len(total_values))
    raw = raw_values[r] + low_raw
    total = total_values[t] + low_total
    if max(-low_raw, -low_total, int(raw.max()), int(total.max())) < _HALF:
        out = _kept_finals(norm, exact).look_up(raw, total)
    else:  # (numbers this large are not kept)
        out = _asked_finals(norm, exact, raw, total)
    finals: np.ndarray[Any, Any] = out[which.ravel()].reshape(raws.shape)
    return finals


def _asked_finals(norm: Normalization, exact: bool, raw: np.ndarray[Any, Any],
                  total: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:  # fmt: skip
    """The engine's final of each (raw, hand total), asked of it."""
    pairs = [(r, t - r, 0, 0) for r, t in zip(raw.tolist(), total.tolist(), strict=True)]
    values = [finals[0] for finals in normalize_each(pairs, norm)]
    if exact:
        out = np.empty(len(values), object)
        out[:] = values
        return out
    return np.array([int(v) for v in values], np.int64)


class _Finals:
    """Individual play's finals under one set of options, by (raw, hand total), kept per process.

    Each pair is asked of the engine the first time a table holds it; the pairs met are kept as
    sorted numbers (``raw · 2³² + total + 2³¹``), so a later table's are found by numpy alone.
    """

    def __init__(self, norm: Normalization, exact: bool) -> None:
        self.norm, self.exact = norm, exact
        self.table = np.zeros(0, np.int64), np.zeros(0, object if exact else np.int64)
        """The pairs' numbers, sorted, and their finals: one value, replaced whole (threads
        read it as they find it)."""

    def look_up(self, raw: np.ndarray[Any, Any], total: np.ndarray[Any, Any]
                ) -> np.ndarray[Any, Any]:  # fmt: skip
        """The final of each of these distinct pairs (each number within ±2³¹)."""
        codes = raw * (2 * _HALF) + (total + _HALF)
        known, values = self.table
        at = np.minimum(np.searchsorted(known, codes), max(len(known) - 1, 0))
        found = known[at] == codes if len(known) else np.zeros(len(codes), bool)
        if found.all():
            out: np.ndarray[Any, Any] = values[at]
            return out
        new = ~found
        asked = _asked_finals(self.norm, self.exact, raw[new], total[new])
        out = np.empty(len(codes), values.dtype)
        out[found] = values[at[found]]
        out[new] = asked
        if len(known) + len(asked) <= _KEEP_FINALS:  # (beyond: asked again when met)
            merged = np.concatenate((known, codes[new]))
            order = np.argsort(merged, kind="stable")
            self.table = merged[order], np.concatenate((values, asked))[order]
        return out


_HALF = 1 << 31
_KEEP_FINALS = 100_000
"""The most (raw, hand total) pairs whose finals are kept for the process for one set of options
(1.6 MB; realistic hands meet a few tens of thousands); the last 8 sets of options kept."""
_FINALS: dict[tuple[Normalization, bool], _Finals] = {}
"""Individual play: the finals kept, by the options (and whether they are exact)."""


def _kept_finals(norm: Normalization, exact: bool) -> _Finals:
    """The finals kept for ``norm``."""
    found = _FINALS.get((norm, exact))
    if found is None:
        found = keep(_FINALS, (norm, exact), _Finals(norm, exact), _KEEP_RAWS)
    return found


# --- Python objects: hand-file data (Scorer.score_many, JSON Lines read by orjson) --------------

CHUNK = 65_536
"""The most hands read into arrays at once: the memory a call holds beyond its results."""


class Part:
    """Results of some hands scored as arrays: each hand's :class:`HandResult` made when
    asked; the hands the one-hand door scored kept whole."""

    def __init__(self, rules: CompiledRules, norm: Normalization, known: list[str],
                 names: np.ndarray[Any, Any], scores: Scores,
                 careful: dict[int, HandResult]) -> None:  # fmt: skip
        self.rules, self.norm, self.known, self.names = rules, norm, known, names
        self.scores, self.careful = scores, careful
        self._lists: tuple[list[Any], ...] | None = None

    def __len__(self) -> int:
        return len(self.scores.ok)

    def result(self, h: int) -> HandResult:
        """Hand ``h``'s result, as the one-hand door gives it."""
        done = self.careful.get(h)
        if done is not None:
            return done
        if self._lists is None:  # (the arrays as lists once: a list is read fastest by index)
            s = self.scores
            self._lists = (self.names.tolist(), s.once.tolist(), s.twice.tolist(),
                           s.keys.tolist(), s.raws.tolist(), s.finals.tolist())  # fmt: skip
        names, once, twice, keys, raws, finals = self._lists
        known, i = self.known, 4 * h
        return self.rules._finish(
            (known[names[i]], known[names[i + 1]], known[names[i + 2]], known[names[i + 3]]),
            once[h], twice[h], keys[i : i + 4], self.norm, False, (),
            (tuple(raws[h]), tuple(finals[h])),
        )  # fmt: skip

    def numbers(self) -> tuple[list[str], list[int], list[int | Fraction]]:
        """Every player's name, raw and final, four a hand."""
        known = self.known
        names = [known[c] for c in self.names.tolist()]
        raws, finals = self.scores.raws.ravel().tolist(), self.scores.finals.ravel().tolist()
        for h, result in self.careful.items():
            at = slice(4 * h, 4 * h + 4)
            names[at], raws[at], finals[at] = result.names, result.raws, result.finals
        return names, raws, finals


class Names:
    """The names met, each numbered and checked once (the one rule for a name:
    :func:`.hand.is_plain_name`)."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.known: list[str] = []
        self.good: list[bool] = []

    def add(self, name: str) -> int:
        """``name``'s number, numbered now (it was not met before)."""
        number = self.numbers[name] = len(self.known)
        self.known.append(name)
        self.good.append(is_plain_name(name))
        return number

    def plain(self) -> np.ndarray[Any, Any]:
        """Whether each name met is plain, and last a False for a hand not read."""
        return np.array([*self.good, False])


_PLAYER_KEYS = frozenset(("name", "captured", "exposed", "first_exposed"))
_HAND_KEYS = frozenset(("players", "variant", "teams"))


def _cards(cards: object) -> tuple[int, int, int] | None:
    """Canonical codes (a text or a list of them) read: their bits or'ed, added up, and how
    many; None for anything else (another spelling: the one-hand door reads it)."""
    tokens = cards.split() if type(cards) is str else cards
    if type(tokens) is not list:
        return None
    try:
        added = sum(map(_BIT_OF, tokens))
    except (KeyError, TypeError):
        return None
    if added >> 62:
        return None
    if added.bit_count() == len(tokens):
        return added, added, len(tokens)
    return sum(set(map(_BIT_OF, tokens))), added, len(tokens)


_BIT_OF = CODE_BIT.__getitem__


def read_objects(hands: Sequence[Any], names: Names) -> tuple[Seats, list[tuple[Any, Any]]]:
    """Hand-file data (``{"players": [...]}``, as orjson or YAML gives it) read into
    :class:`Seats`; with each hand's own ``variant`` and ``teams`` values (None: not given).

    Only the plain shape is read (exact dicts and lists, the known keys, no null, canonical
    codes); any other hand is not ``ok``, and the one-hand door reads it.
    """
    m = len(hands)
    ok = [False] * m
    codes, ors, sums, counts = [0] * (4 * m), [0] * (4 * m), [0] * (4 * m), [0] * (4 * m)
    shown: tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int, int]]] = ([], [])
    own: list[tuple[Any, Any]] = [(None, None)] * m
    numbers, add, bit_of = names.numbers, names.add, _BIT_OF
    for h in range(m):
        data = hands[h]
        if type(data) is not dict:
            continue
        players = data.get("players")
        if type(players) is not list or len(players) != 4:
            continue
        if len(data) > 1:
            if not data.keys() <= _HAND_KEYS:
                continue
            own[h] = (data.get("variant"), data.get("teams"))
        at = 4 * h
        given: list[tuple[int, int, int, int, int]] = []
        for p in players:
            if type(p) is not dict:
                break
            name, cards = p.get("name"), p.get("captured", "")
            if type(name) is not str:
                break
            tokens = cards.split() if type(cards) is str else cards
            if type(tokens) is not list:
                break
            try:
                added = sum(map(bit_of, tokens))
            except (KeyError, TypeError):
                break
            if added >> 62:  # (a card so many times that its sum leaves 64 bits: refused anyway)
                break
            count = len(tokens)
            number = numbers.get(name)
            codes[at] = number if number is not None else add(name)
            ors[at] = added if added.bit_count() == count else sum(set(map(bit_of, tokens)))
            sums[at], counts[at] = added, count
            if len(p) > 2 or "captured" not in p:  # (exposures, or keys of another kind)
                if not p.keys() <= _PLAYER_KEYS:
                    break
                for first, key in ((0, "exposed"), (1, "first_exposed")):
                    if key in p:
                        read = _cards(p[key])
                        if read is None:
                            break
                        given.append((first, at, *read))
                else:
                    at += 1
                    continue
                break
            at += 1
        else:
            ok[h] = True
            for first, place, o, a, c in given:
                shown[first].append((place, o, a, c))
    good = np.array(ok, bool)
    names_at = np.array(codes, np.int64)
    names_at[np.repeat(~good, 4)] = len(names.known)  # (a hand not read: no name)
    seen: Shown = []
    for first, exposures in ((False, shown[0]), (True, shown[1])):
        if exposures:
            places, e_or, e_sum, e_count = (np.array(column, np.int64)
                                         for column in zip(*exposures, strict=True))  # fmt: skip
            seen.append((first, places, (e_or, e_sum, e_count, np.zeros(len(places), bool))))
    captured = (np.array(ors, np.int64), np.array(sums, np.int64), np.array(counts, np.int64),
                np.zeros(4 * m, bool))  # fmt: skip
    return Seats(good, names_at, names.known, names.plain(), captured, seen), own


def score_objects(
    hands: Iterable[Any],
    variant: Variant,
    rules: CompiledRules,
    norm: Normalization,
    careful: Callable[[Any], HandResult],
) -> Iterator[Part]:
    """Score hand-file data a chunk at a time, as arrays: the plain hands here, any other by
    ``careful`` (the one-hand door, which raises at a bad hand: the hands before it are good).
    The hands' own ``variant`` and ``teams`` are not read: these rules are theirs."""
    names = Names()
    it = iter(hands)
    exact = norm.rounding is Rounding.EXACT
    while chunk := list(islice(it, CHUNK)):
        seats, _ = read_objects(chunk, names)
        scores = score_seats(seats, variant, rules, norm, exact)
        done = {h: careful(chunk[h]) for h in np.flatnonzero(~scores.ok).tolist()}
        yield Part(rules, norm, names.known, seats.names, scores, done)
