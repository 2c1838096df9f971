"""The one scoring engine: rules compiled into tables, hands as bit masks.

Every path (the library, ``score``, ``explain``, ``compare``, claims, ``batch``, the match
ledger, ``replay``) scores through :class:`CompiledRules`. A player's captures are two 52-bit
masks, the cards held once and the cards held twice (two decks), so one deck and two run the
same code. :meth:`CompiledRules.raw` is the whole of rulings §4 and §5. It records its steps
only when asked, so a breakdown and ``explain`` come from the very computation that gave the
number. :func:`normalize` is the whole of §6 and §7.

mypyc compiles this module at install (``setup.py``); uncompiled, the same source gives the same
numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Final

from ..errors import HandError
from ..terms import error
from .bits import (
    ALL_HEARTS,
    CARD_BIT,
    CODE_BIT,
    COPY_BITS,
    COPY_KEY,
    FIRST_BITS,
    FIRST_KEY,
    HEART_SHIFT,
    PIG_BIT,
    PIG_OR_SHEEP,
    RANK_BYTES,
    RANK_TEN,
    SCORING,
    SHEEP_BIT,
    SPECIAL_INDEX,
    SUIT_BYTES,
    TEN_BIT,
    copies_of,
    is_first,
)
from .cards import SPECIAL_CARDS, Card, not_a
from .hand import (
    Hand,
    every_scoring_card,
    exposures_within,
    firsts_within,
    four_different,
    is_plain_name,
    validate_hand,
)
from .normalize import Method, Normalization, Rounding, Teams
from .result import Exposure, PlayerScore, Step, TeamSide, player_score
from .variant import Variant

if TYPE_CHECKING:  # (annotations only: compiled, machine integers; as plain Python, ints)
    from mypy_extensions import i64

__all__ = ["CompiledRules", "HandResult", "HandState", "Hands", "Scored", "compiled_rules",
           "normalize", "normalize_each"]  # fmt: skip

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


def _times(a: int, b: int) -> int:
    """``a * b``, in C's multiplication when neither is negative.

    A product with a negative number (a score times a level, mostly) takes Python's.
    """
    return -(-a * b) if a < 0 else a * b


def _round_half_away(numerator: int, denominator: int) -> int:
    """Nearest integer to n/d (d > 0), halves away from zero, so +x and −x stay opposite."""
    whole = (2 * abs(numerator) + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


class _Tally:
    """Cards read from canonical codes, each card's copies counted as they come.

    It holds the cards of the hand so far (``all_once``, ``all_twice``) and of the player being
    read.
    """

    one_deck: bool
    all_once: i64
    all_twice: i64
    once: i64
    twice: i64
    names: list[str]
    once_list: list[int]
    twice_list: list[int]
    """The players read so far: their names, and the cards each held once and twice."""

    def __init__(self, one_deck: bool) -> None:
        self.one_deck = one_deck
        self.names, self.once_list, self.twice_list = [], [], []
        self.start()

    def start(self) -> None:
        """Begin a hand: nothing read yet."""
        self.all_once = self.all_twice = self.once = self.twice = 0
        self.names.clear()
        self.once_list.clear()
        self.twice_list.clear()

    def player(self, name: str | None, cards: object) -> bool:
        """Read one more player's plain name and cards; False if not plainly valid.

        ``name`` is None for a name that is not plain; ``cards`` are as :meth:`read` takes them.
        """
        if name is None or not self.read(cards):
            return False
        self.names.append(name)
        self.once_list.append(self.once)
        self.twice_list.append(self.twice)
        return True

    def take(self, bit: i64) -> bool:
        """Count one more copy of card ``bit``; False if one too many."""
        if self.all_once & bit:
            if self.one_deck or self.all_twice & bit:
                return False
            self.all_twice |= bit
        else:
            self.all_once |= bit
        if self.once & bit:
            self.twice |= bit
        else:
            self.once |= bit
        return True

    def read(self, cards: object) -> bool:
        """Read one player's captures afresh into ``once`` and ``twice``; False at anything odd.

        ``cards`` is as a hand file gives it: text of codes, a list of codes, or None (no
        cards).
        """
        self.once = self.twice = 0
        if isinstance(cards, str):
            if self.one_deck and not _SCAN:  # (plain Python: the fewest steps there)
                return self._read_distinct(cards.split())  # type: ignore[arg-type]
            return self.read_text(cards)
        if isinstance(cards, list):
            return self.read_tokens(cards)
        return cards is None

    def read_tokens(self, tokens: list[object]) -> bool:
        """A list of codes (``["QS", "6H"]``); False at anything else."""
        if self.one_deck and not _SCAN:
            return self._read_distinct(tokens)
        for token in tokens:
            bit = CODE_BIT.get(token, 0) if isinstance(token, str) else 0
            if not bit or not self.take(bit):
                return False
        return True

    def _read_distinct(self, tokens: list[object]) -> bool:
        """:meth:`read_tokens` for one deck in plain Python: the codes' bits summed at C speed.

        A step per card costs plain Python more than the rest of the hand. With no card twice
        the sum is the mask, its bits as many as the codes; a card twice carries into another
        bit, so its sum has fewer.
        """
        try:
            bits = sum(map(CODE_BIT.__getitem__, tokens))  # type: ignore[arg-type]
        except (KeyError, TypeError):  # another spelling, or no text: the careful path
            return False
        if bits.bit_count() != len(tokens) or self.all_once & bits:
            return False
        self.all_once |= bits
        self.once |= bits
        return True

    def read_text(self, text: str) -> bool:
        """Codes separated by spaces (``"QS 6H 10C"``); False at anything else.

        Compiled, it reads the text's bytes one at a time, in machine integers (``i64``), no
        object made per card: a third of the instructions of reading it a character at a time,
        which was itself three times as fast as splitting the text and looking each piece up;
        as plain Python, splitting is the faster.
        """
        if not _SCAN:
            return self.read_tokens(text.split())  # type: ignore[arg-type]
        # (a byte of another character is in neither table: refused; a lone surrogate too)
        data = text.encode("utf-8", "surrogatepass")
        ranks, suits = RANK_BYTES, SUIT_BYTES  # (RANK_OF_BYTE's and SUIT_OF_BYTE's, 2 more)
        i: i64 = 0
        end: i64 = len(data)
        while i < end:
            c: i64 = data[i]
            if c == 32:  # " "
                i += 1
                continue
            rank: i64 = ranks[c] - 2
            if rank == -2:  # the "1" of "10"
                i += 1
                if i >= end or data[i] != 48:
                    return False
                rank = RANK_TEN
            elif rank < 0:
                return False
            i += 1
            if i >= end:
                return False
            suit: i64 = suits[data[i]] - 2
            if suit < 0:
                return False
            i += 1
            if i < end and data[i] != 32:
                return False
            # (the shift in Python's int: mypyc shifts a machine-integer 1 as C's 32-bit int)
            if not self.take(1 << int(suit + rank)):
                return False
        return True


_SCAN: Final = not __file__.endswith(".py")


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
    good_names: set[str]
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
        self.good_names = set()
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
        """
        hearts = (once >> HEART_SHIFT) & ALL_HEARTS
        red = _is_full_red(once, twice, self.second_hearts)
        grand = red and bool(every_scoring_card(once, twice, self.decks))  # 满贯, §4.6, §5.4
        if grand and steps is not None:
            steps.append(("grand_slam", 0, 0, 0, 0))
        total = 0
        if red:  # §4.5, §5.3
            total = self.full_red_base * st.heart_level
            if steps is not None:
                steps.append(("full_red", 0, self.full_red_base, st.heart_level, total))
        elif hearts:
            base = self.heart_sums[hearts] + self.heart_sums[(twice >> HEART_SHIFT) & ALL_HEARTS]
            total = _times(base, st.heart_level)
            if steps is not None:
                steps.append(("hearts", 0, base, st.heart_level, total))
        pigs = _count(once, twice, PIG_BIT)
        if pigs:  # §4.6: a grand slam turns the pig positive (and, as a house rule, full red)
            positive = grand or (red and self.pig_positive_on_red)
            base = _times(-self.pig if positive else self.pig, pigs)
            points = _times(base, st.pig_level)
            total += points
            if steps is not None:
                steps.append(("pig_positive" if positive else "pig", pigs, base,
                              st.pig_level, points))  # fmt: skip
        sheep = _count(once, twice, SHEEP_BIT)
        if sheep:
            points = self.sheep * sheep * st.sheep_level
            total += points
            if steps is not None:
                steps.append(("sheep", sheep, self.sheep * sheep, st.sheep_level, points))
        tens = _count(once, twice, TEN_BIT)
        if tens:  # §4.4, §5.2
            times = st.times_one if tens == 1 else st.times_two
            # The pig and the sheep always count as other scoring cards; hearts worth 0 count
            # unless the rules say otherwise (online).
            if (once | twice) >> HEART_SHIFT & self.counted_hearts or pigs or sheep:
                subtotal, total = total, _times(total, times)
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

    def counts(self, once: int, twice: int) -> tuple[int, int, int, int, int]:
        """What a player took, for totals: pigs, sheep, transformers, full red, grand slam."""
        red = _is_full_red(once, twice, self.second_hearts)
        grand = red and bool(every_scoring_card(once, twice, self.decks))  # 满贯, §4.6, §5.4
        return (_count(once, twice, PIG_BIT), _count(once, twice, SHEEP_BIT),
                _count(once, twice, TEN_BIT), int(red), int(grand))  # fmt: skip

    # --- a hand -----------------------------------------------------------------------------

    def score(self, hand: Hand, norm: Normalization, partial: bool = False) -> HandResult:
        """Score a :class:`Hand`: every input rule checked with precise errors (rulings §9)."""
        missing = validate_hand(hand, self.variant, partial=partial)
        once_list: list[int] = []
        twice_list: list[int] = []
        shown: list[int] = []
        for p in hand.players:
            once = twice = 0
            for card in p.captured:
                bit = CARD_BIT[card]
                if once & bit:
                    twice |= bit
                else:
                    once |= bit
            once_list.append(once)
            twice_list.append(twice)
            key = 0
            for card in p.exposed:
                key += COPY_KEY[SPECIAL_INDEX[card.code]]
            for card in p.first_exposed:
                key |= FIRST_KEY[SPECIAL_INDEX[card.code]]
            shown.append(key)
        return self._finish(hand.names, once_list, twice_list, shown, norm, bool(missing),
                            tuple(missing))  # fmt: skip

    def _plain(self, name: object) -> str | None:
        """``name`` when it is a plain player's name, else None.

        A name with surrounding space goes the careful path, which trims it or says why not.
        """
        if not isinstance(name, str):
            return None
        good = self.good_names
        if name in good:  # each name is checked once, not in every hand
            return name
        if not is_plain_name(name):
            return None
        if len(good) < _KEEP_NAMES:
            good.add(name)
        return name

    def _exposures(
        self, exposed: Sequence[object], first_exposed: Sequence[object] | None
    ) -> list[int] | None:
        """Each player's exposure key (:mod:`.bits`) from canonical codes; None if not plainly
        valid.

        As in :func:`.hand.exposures_within` and :func:`.hand.firsts_within`, a 首明 counts as
        one of its card's copies.
        """
        shown: list[int] = []
        copies = 0
        for cards in exposed:
            if cards is None:  # (most players expose nothing)
                shown.append(0)
                continue
            tokens = _tokens(cards)
            if tokens is None:
                return None
            key = 0
            for token in tokens:
                k = SPECIAL_INDEX.get(token, -1) if isinstance(token, str) else -1
                if k < 0:
                    return None
                copies += COPY_KEY[k]
                if not exposures_within(copies_of(copies, k), self.decks, self.exposable[k]):
                    return None
                key += COPY_KEY[k]
            shown.append(key)
        if first_exposed is None:
            return shown
        if len(first_exposed) != 4:
            return None
        firsts = [0, 0, 0, 0]
        for i in range(4):
            tokens = _tokens(first_exposed[i])
            if tokens is None or not firsts_within(len(tokens), self.first_allowed):
                return None
            for token in tokens:
                k = SPECIAL_INDEX.get(token, -1) if isinstance(token, str) else -1
                if k < 0:
                    return None
                firsts[k] += 1
                within = exposures_within(copies_of(copies, k) + firsts[k], self.decks,
                                          self.exposable[k])  # fmt: skip
                if not within:
                    return None
                shown[i] |= FIRST_KEY[k]
        return shown

    # --- the two doors: one hand (above), many hands -----------------------------------------

    def score_many(self, hands: Hands, norm: Normalization) -> Scored:
        """Score many hands held as arrays (:class:`Hands`): raws and finals, four a hand.

        No result object is made: :meth:`Scored.result` makes a hand's when asked. A hand whose
        sides the teams refuse keeps its error in :attr:`Scored.errors`.
        """
        how = self._how_for(norm)
        out = Scored(hands, norm)
        raws, finals, errors = out.raws, out.finals, out.errors
        names, once, twice, shown, done = (hands.names, hands.once, hands.twice, hands.shown,
                                           hands.done)  # fmt: skip
        for h in range(hands.size):
            if done:
                result = done.get(h)
                if result is not None:
                    raws.extend(result.raws)
                    finals.extend(result.finals)
                    continue
            i = 4 * h
            st = self.state(_hand_key(shown[i], shown[i + 1], shown[i + 2], shown[i + 3]))
            sides = None
            if how.teams != _NO_TEAMS:
                try:
                    sides = _sides(how.teams, names[i : i + 4], once[i : i + 4],
                                   twice[i : i + 4], shown[i : i + 4])  # fmt: skip
                except HandError as e:
                    errors[h] = e
                    raws.extend(_ZEROS)
                    finals.extend(_ZEROS)
                    continue
            r0 = self.raw(once[i], twice[i], st)
            r1 = self.raw(once[i + 1], twice[i + 1], st)
            r2 = self.raw(once[i + 2], twice[i + 2], st)
            r3 = self.raw(once[i + 3], twice[i + 3], st)
            raws.append(r0)
            raws.append(r1)
            raws.append(r2)
            raws.append(r3)
            four = _normalize((r0, r1, r2, r3), how, sides)[0]
            finals.append(four[0])
            finals.append(four[1])
            finals.append(four[2])
            finals.append(four[3])
        return out

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
        """A hand's result: scored here (the one-hand door), or from the raws and finals
        :meth:`score_many` gave it (``scored``: its sides were accepted there)."""
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


_ZEROS: Final = (0, 0, 0, 0)


def _hand_key(k0: int, k1: int, k2: int, k3: int) -> int:
    """A hand's exposure key from its players': copies added up, 首明 or'ed (:mod:`.bits`)."""
    copies = (k0 & COPY_BITS) + (k1 & COPY_BITS) + (k2 & COPY_BITS) + (k3 & COPY_BITS)
    return copies | ((k0 | k1 | k2 | k3) & FIRST_BITS)


class Hands:
    """Many hands as arrays, the many-hands door's input: four entries a hand, in seat order.

    Each player is a name, the cards held once and twice (52-bit masks) and an exposure key
    (:mod:`.bits`). The ``add_*`` readers take canonical codes only and say False at anything
    else; such a hand is scored through the one-hand door and kept whole (:meth:`add_result`).
    """

    rules: CompiledRules
    names: list[str]
    once: list[int]
    twice: list[int]
    shown: list[int]
    done: dict[int, HandResult]
    """The hands scored through the one-hand door, by their place."""
    size: int
    _tally: _Tally

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        self.names, self.once, self.twice, self.shown = [], [], [], []
        self.done = {}
        self.size = 0
        self._tally = _Tally(rules.decks == 1)

    def __len__(self) -> int:
        return self.size

    def add_data(self, data: object) -> bool:
        """Add hand-file data (``{"players": [...]}``) in canonical codes; False if not plain.

        A ``variant:`` or ``teams:`` key is not read: the caller chose these rules for it.
        """
        if not isinstance(data, dict):
            return False
        size = len(data)
        if size > 1 and ("variant" in data) + ("teams" in data) + 1 != size:
            return False
        return self.add_players(data.get("players"))

    def add_players(self, players: object) -> bool:
        """Add a hand file's ``players`` list in canonical codes; False if not plain.

        Each player has ``name``, ``captured``, ``exposed`` and perhaps ``first_exposed``.
        """
        if not isinstance(players, list) or len(players) != 4:
            return False
        tally, rules = self._tally, self.rules
        tally.start()
        exposed: list[object] = []
        first_exposed: list[object] | None = None
        for i in range(4):
            p = players[i]
            if not isinstance(p, dict):
                return False
            name, cards, shown = p.get("name"), p.get("captured"), p.get("exposed")
            given, size = (name is not None) + (cards is not None) + (shown is not None), len(p)
            first = p.get("first_exposed") if given != size else None  # (rarely there)
            if given + (first is not None) != size:
                return False  # a claim, a misspelt key: the careful path says which
            if not tally.player(rules._plain(name), cards):
                return False
            exposed.append(shown)
            if first is not None:
                if first_exposed is None:
                    first_exposed = [None, None, None, None]
                first_exposed[i] = first
        return self._add(exposed, first_exposed)

    def add_named(self, captured: object, exposed: object, first_exposed: object) -> bool:
        """Add :func:`~gongzhu_score.api.score_hand`'s arguments in canonical codes; False if
        not plain.

        ``captured`` maps each player's name to their cards, in seat order; exposures are by
        name, or None.
        """
        if not isinstance(captured, dict) or len(captured) != 4:
            return False
        tally, rules = self._tally, self.rules
        tally.start()
        for name, cards in captured.items():
            if not tally.player(rules._plain(name), cards):
                return False
        shown = _by_seat(captured, exposed)
        if shown is None:
            return False
        firsts = None
        if first_exposed is not None and (not isinstance(first_exposed, dict) or first_exposed):
            firsts = _by_seat(captured, first_exposed)
            if firsts is None:
                return False
        return self._add(shown, firsts)

    def add_result(self, result: HandResult) -> None:
        """Add a hand scored through the one-hand door, kept as it is."""
        self.done[self.size] = result
        self.names.extend(result.names)
        self.once.extend(result._once)
        self.twice.extend(result._twice)
        self.shown.extend(result._shown)
        self.size += 1

    def add_masks(
        self, names: list[str], once: list[int], twice: list[int], shown: list[int]
    ) -> None:
        """Add hands already read and checked elsewhere (a column of hands), four entries a
        hand: the names, the cards held once and twice, the exposure keys."""
        self.names.extend(names)
        self.once.extend(once)
        self.twice.extend(twice)
        self.shown.extend(shown)
        self.size += len(names) // 4

    def _add(self, exposed: Sequence[object], first_exposed: Sequence[object] | None) -> bool:
        """The rest of a plain hand once every player's name and cards are read."""
        tally, rules = self._tally, self.rules
        names = tally.names
        if not four_different(names[0], names[1], names[2], names[3]):
            return False
        if not every_scoring_card(tally.all_once, tally.all_twice, rules.decks):
            return False
        shown = rules._exposures(exposed, first_exposed)
        if shown is None:
            return False
        self.names.extend(names)
        self.once.extend(tally.once_list)
        self.twice.extend(tally.twice_list)
        self.shown.extend(shown)
        self.size += 1
        return True


class Scored:
    """Many hands scored by :meth:`CompiledRules.score_many`: raws and finals as flat lists,
    four a hand, in seat order; a hand's :class:`HandResult` made when asked."""

    hands: Hands
    normalization: Normalization
    raws: list[int]
    finals: list[int | Fraction]
    errors: dict[int, HandError]
    """The hands whose sides the teams refuse (猪羊一家), by their place."""

    def __init__(self, hands: Hands, normalization: Normalization) -> None:
        self.hands, self.normalization = hands, normalization
        self.raws, self.finals, self.errors = [], [], {}

    def __len__(self) -> int:
        return self.hands.size

    def result(self, h: int) -> HandResult:
        """Hand ``h``'s result, as the one-hand door gives it; its error raised if it has one."""
        hands = self.hands
        if not 0 <= h < hands.size:
            raise IndexError(h)
        done = hands.done.get(h) if hands.done else None
        if done is not None:
            return done
        failed = self.errors.get(h) if self.errors else None
        if failed is not None:
            raise failed
        i = 4 * h
        names, once, twice, shown = hands.names, hands.once, hands.twice, hands.shown
        raws = (self.raws[i], self.raws[i + 1], self.raws[i + 2], self.raws[i + 3])
        finals = (self.finals[i], self.finals[i + 1], self.finals[i + 2], self.finals[i + 3])
        return hands.rules._finish(
            (names[i], names[i + 1], names[i + 2], names[i + 3]), once[i : i + 4],
            twice[i : i + 4], shown[i : i + 4], self.normalization, False, (), (raws, finals),
        )  # fmt: skip

    def plain(self, h: int) -> bool:
        """Whether hand ``h``'s finals are all whole numbers (no error, no fraction)."""
        if self.errors and h in self.errors:
            return False
        finals = self.finals
        i = 4 * h
        return (type(finals[i]) is int and type(finals[i + 1]) is int
                and type(finals[i + 2]) is int and type(finals[i + 3]) is int)  # fmt: skip


def _by_seat(captured: dict[object, object], by_name: object) -> list[object] | None:
    """Exposures given by name, as a list in seat order; None if not plain.

    A name nobody has goes the careful path, which says which.
    """
    if by_name is None:
        return [None, None, None, None]
    if not isinstance(by_name, dict):
        return None
    for name in by_name:
        if name not in captured:
            return None
    return [by_name.get(name) for name in captured]


def _tokens(cards: object) -> list[object] | None:
    """A player's exposures as the fast path reads them; None for the careful path.

    Exposures are text of codes, or a list; None means no cards. The careful path refuses
    anything else, saying why.
    """
    if cards is None:
        return []
    if isinstance(cards, str):
        return cards.split()  # type: ignore[return-value]
    if isinstance(cards, list):
        return cards
    return None


def _state_of(rules: CompiledRules, key: int) -> HandState:
    return rules.state(key)


_COMPILED: dict[int, tuple[Variant, CompiledRules]] = {}
_KEEP: Final = 64
_KEEP_NAMES: Final = 10_000


def compiled_rules(variant: Variant) -> CompiledRules:
    """The compiled rules of ``variant``, made once per variant object.

    The last few dozen variants are kept.
    """
    found = _COMPILED.get(id(variant))
    if found is not None and found[0] is variant:
        return found[1]
    rules = CompiledRules(variant)
    if len(_COMPILED) >= _KEEP:
        del _COMPILED[next(iter(_COMPILED))]
    _COMPILED[id(variant)] = (variant, rules)  # the variant kept alive: its id stays its own
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
            built: list[PlayerScore] = []
            for i in range(len(self.names)):
                steps: list[Step] = []
                raw = self._rules.raw(self._once[i], self._twice[i], self._state, steps)
                built.append(
                    player_score(
                        i + 1,
                        self.names[i],
                        (self._once[i] & SCORING, self._twice[i] & SCORING),
                        steps,
                        raw,
                        self.finals[i],
                        self.unrounded[i],
                        None if self._sides is None else self._sides[i],
                    )
                )
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


# The reading of canonical codes, checked against the deck once at import.
for _code, _bit in CODE_BIT.items():
    _check = _Tally(True)
    assert _check.read_text(_code) and _check.once == _bit, (_code, _check.once, _bit)
    assert not _Tally(True).read_text(_code + "x") and not _Tally(True).read_text(_code[:-1])
