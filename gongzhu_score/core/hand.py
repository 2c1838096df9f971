"""One hand as the table reports it, and what makes it valid (rulings §9).

The report says who captured and who exposed what.

A :class:`Hand` is plain input. :func:`validate_hand` checks it against a variant (rulings §9);
the scorer trusts only validated hands, and refuses others with an error naming the player and
the card.

The quick paths (the engine's reading of canonical codes, the column path of
:mod:`gongzhu_score.batch.columns`, the prompts at the table) ask the same questions here, in
the form they hold the hand: :func:`is_plain_name`, :func:`four_different`,
:func:`every_scoring_card`, :func:`exposures_within`, :func:`firsts_within`,
:func:`first_too_many`. The bit-form questions use only operators, so they answer for one hand
(Python ints) and for a column of hands (numpy arrays) alike. A hand they do not pass goes to
:func:`validate_hand`, which says why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import ArgumentError, GongzhuError, HandError, MissingCardsError, RestError
from ..terms import Cards, Listed, Names, Said, error, place, printable, unsafe_character
from .bits import SCORING
from .cards import DECK, SCORING_CARDS, Card, decks_of, flag_of, not_a, parse_cards
from .names import is_canonical_name, written_form
from .variant import Variant

__all__ = [
    "Hand",
    "PlayerHand",
    "check_name",
    "every_scoring_card",
    "exposures_within",
    "first_too_many",
    "firsts_within",
    "four_different",
    "hand_masks",
    "is_plain_name",
    "validate_hand",
]

CardsLike = str | Iterable[object] | None


def _key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _show(cards: Iterable[Card]) -> Cards:
    """Cards for a message, sorted: shown as the message's language writes them."""
    return Cards(sorted(cards, key=_key))


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One seat's part of a hand: cards captured (收的牌), special cards exposed.

    ``exposed`` are ordinary exposures (亮牌/卖牌); ``first_exposed`` are 首明 exposures.
    """

    name: str
    captured: tuple[Card, ...] = ()
    exposed: tuple[Card, ...] = ()
    first_exposed: tuple[Card, ...] = ()

    @classmethod
    def parse(
        cls,
        name: object,
        captured: CardsLike = None,
        exposed: CardsLike = None,
        first_exposed: CardsLike = None,
        decks: object = 1,
    ) -> PlayerHand:
        """Build from card lists in any notation; errors name the player and the field."""
        text = _text_name(name, "name")
        count = decks_of(decks)
        parsed: list[tuple[Card, ...]] = []
        for field_name, value in (
            ("captured", captured),
            ("exposed", exposed),
            ("first_exposed", first_exposed),
        ):
            if value is None:  # (most players expose nothing)
                parsed.append(())
                continue
            try:
                parsed.append(parse_cards(value, count))
            except GongzhuError as e:
                raise e.within(player_field(text, field_name)) from None
        return cls(text, *parsed)


@dataclass(frozen=True, slots=True)
class Hand:
    """The four seats of a hand, in seat order (counter-clockwise, the order of play)."""

    players: tuple[PlayerHand, ...]

    @classmethod
    def from_captured(
        cls,
        captured: Mapping[str, CardsLike] | Iterable[tuple[str, CardsLike]],
        *,
        exposed: Mapping[str, CardsLike] | None = None,
        first_exposed: Mapping[str, CardsLike] | None = None,
        decks: object = 1,
    ) -> Hand:
        """Build a hand from ``{name: cards}`` in seat order, plus exposures by name.

        ``decks`` says what 全红 stands for. An argument of the wrong kind is an
        :class:`~gongzhu_score.errors.ArgumentError` naming it.

        >>> Hand.from_captured({"东": "QS", "南": "", "西": "", "北": ""}).players[0]
        PlayerHand(name='东', captured=(Card.parse('QS'),), exposed=(), first_exposed=())
        """
        pairs = _pairs(captured)
        count = decks_of(decks)
        names = [name for name, _ in pairs]
        shown: list[Mapping[str, CardsLike]] = []
        for label, by_name in (("exposed", exposed), ("first_exposed", first_exposed)):
            if by_name is None:
                by_name = {}
            elif not isinstance(by_name, Mapping):
                raise not_a("argument.by_player", by_name).within(label)
            keys: list[object] = list(by_name)  # (any key: one no player has is refused)
            for key in keys:
                if key not in names:
                    raise _unknown_player(key, names).within(place(f"where.{label}"))
            shown.append(by_name)
        return cls(
            tuple(
                PlayerHand.parse(name, cards, shown[0].get(name), shown[1].get(name), count)
                for name, cards in pairs
            )
        )

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def missing(self, decks: int = 1) -> tuple[Card, ...]:
        """The scoring cards nobody captured, in deck order, once per missing copy."""
        taken = Counter(c for p in self.players for c in p.captured)
        return tuple(
            c for c in DECK if c in SCORING_CARDS for _ in range(decks - min(taken[c], decks))
        )

    def with_rest(self, name: object, decks: int = 1) -> Hand:
        """The hand with every scoring card nobody else captured given to ``name``.

        At a table three players count their cards and the fourth takes the rest; ``name``
        may be one of the seats or a fourth seat not listed yet.
        """
        seat = _text_name(name, "rest")
        rest = self.missing(decks)
        if seat in self.names:
            return Hand(
                tuple(
                    replace(p, captured=p.captured + rest) if p.name == seat else p
                    for p in self.players
                )
            )
        if len(self.players) != 3:
            raise error(
                RestError, "error.hand.rest_seat", name=repr(seat), players=_list(self.names)
            )
        return Hand((*self.players, PlayerHand(seat, rest)))


def _text_name(name: object, argument: str) -> str:
    """A player's name given to a library function: text, else an error."""
    if not isinstance(name, str):
        raise error(ArgumentError, "error.name.not_text", value=repr(name)).within(argument)
    return name


def _pairs(captured: object) -> list[tuple[str, CardsLike]]:
    """``captured`` of :meth:`Hand.from_captured` as (name, cards) pairs, each name text."""
    items: list[object]
    if isinstance(captured, Mapping):
        items = list(captured.items())
    elif isinstance(captured, str | bytes | bytearray | memoryview) or not isinstance(
        captured, Iterable
    ):
        raise not_a("argument.hand", captured).within("captured")
    else:
        items = list(captured)
    pairs: list[tuple[str, CardsLike]] = []
    for item in items:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise not_a("argument.pair", item).within("captured")
        name, cards = item[0], item[1]
        pairs.append((_text_name(name, "captured"), cards))
    return pairs


def player_field(name: str, field: str) -> Said:
    """``player 东: captured`` / ``玩家 东：收的牌``: where in a hand an error is."""
    return place("where.player_field", name=name, field=place(f"where.{field}"))


def _list(names: Iterable[str]) -> Listed:
    return Listed(names)


def _unknown_player(name: object, names: Iterable[str]) -> HandError:
    return error(HandError, "error.hand.unknown_player", name=repr(name), players=_list(names))


def validate_hand(hand: object, variant: object, *, partial: object = False) -> tuple[Card, ...]:
    """Check ``hand`` against rulings §9 and the variant; return the scoring cards missing.

    Raises :class:`HandError` naming the player and the card. Missing scoring cards are an
    error (:class:`MissingCardsError`) unless ``partial``.
    """
    if not isinstance(hand, Hand):
        raise not_a("argument.a_hand", hand).within("hand")
    if not isinstance(variant, Variant):
        raise not_a("argument.variant", variant).within("variant")
    flag_of(partial)
    _check_names(hand)
    _check_captured(hand, variant.decks)
    _check_exposed(hand, variant)
    missing = hand.missing(variant.decks)
    if missing and not partial:
        raise error(MissingCardsError, "error.hand.missing", cards=_show(missing))
    return missing


def hand_masks(
    hand: Hand, variant: Variant, partial: bool
) -> tuple[list[int], list[int], tuple[Card, ...]]:
    """:func:`validate_hand`, and each player's cards as masks (:mod:`.bits`): held once, held
    twice. The masks are checked first; only a hand they show wrong is searched for the card
    to name, so a valid hand costs a look-up a card."""
    _check_names(hand)
    decks = variant.decks
    once_list: list[int] = []
    twice_list: list[int] = []
    all_once = all_twice = count = 0
    for p in hand.players:
        bits = [card.bit for card in p.captured]
        once = sum(set(bits))  # (each card's bit once: the cards held)
        twice = 0
        if len(bits) != once.bit_count():  # (a card more than once: its second copy)
            seen = 0
            for bit in bits:
                if seen & bit:
                    twice |= bit
                seen |= bit
        once_list.append(once)
        twice_list.append(twice)
        all_twice |= (all_once & once) | twice
        all_once |= once
        count += len(p.captured)
    held = all_once.bit_count() + all_twice.bit_count()
    if held != count or (decks == 1 and all_twice):
        _check_captured(hand, decks)  # (raises, naming the card)
    _check_exposed(hand, variant)
    missing = () if every_scoring_card(all_once, all_twice, decks) else hand.missing(decks)
    if missing and not partial:
        raise error(MissingCardsError, "error.hand.missing", cards=_show(missing))
    return once_list, twice_list, missing


def is_plain_name(name: object) -> bool:
    """Whether ``name`` passes :func:`check_name` as it stands (no trimming needed).

    The names found plain are kept (a few thousand): a table or a batch meets the same ones.
    """
    if type(name) is str and name in _PLAIN:
        return True
    plain = (
        isinstance(name, str)
        and bool(name)
        and not name[0].isspace()
        and not name[-1].isspace()
        and unsafe_character(name) is None
        and is_canonical_name(name)
    )
    if plain and len(_PLAIN) < 10_000:
        _PLAIN.add(name)  # type: ignore[arg-type]
    return plain


_PLAIN: set[str] = set()


def check_name(name: object, seat: int | None = None) -> str:
    """The one rule for a player's name, wherever it comes from.

    Names come from flags, files, prompts, records, a ledger and renames.

    It must be text, not blank, with no surrounding space (the readers trim it). It may hold no
    character a terminal would act on or a reader would take as a line break: the ledger is
    YAML, and a U+2028 would end its line. Bytes that are not UTF-8 arrive as lone surrogates
    and are refused, shown ``\\xff``. CJK, emoji and inner spaces are kept. It must hold a
    visible character and be in its one written form (:mod:`.names`), so that two names that
    look the same are one name; a refusal says that form.
    """
    if is_plain_name(name):
        return name  # type: ignore[return-value]
    if not isinstance(name, str):
        raise error(HandError, "error.name.not_text", value=repr(name))
    if not name.strip():
        raise error(HandError, "error.hand.no_name", seat=seat or "?")
    char = unsafe_character(name)
    if char is not None and 0xD800 <= ord(char) <= 0xDFFF:  # bytes that were not UTF-8
        bad = "".join(printable(c) for c in name if 0xD800 <= ord(c) <= 0xDFFF)
        raise error(HandError, "error.name.not_utf8", name=f"'{printable(name)}'", bytes=bad)
    if char is not None:
        raise error(HandError, "error.name.unsafe", name=repr(name), char=f"U+{ord(char):04X}")
    if name != name.strip():
        raise error(HandError, "error.name.space", name=repr(name))
    fix, removed = written_form(name)
    if not fix:
        code = f"U+{ord(removed or name[0]):04X}"
        raise error(HandError, "error.name.invisible", name=repr(name), char=code)
    if fix != name:
        if removed is None:  # (only its composition differs)
            raise error(HandError, "error.name.nfc", name=repr(name), fix=repr(fix))
        code = f"U+{ord(removed):04X}"
        raise error(HandError, "error.name.hidden", name=repr(name), char=code, fix=repr(fix))
    return name


def _check_names(hand: Hand) -> None:
    names = hand.names
    if len(names) != 4:
        listed = place("error.hand.listed", names=_list(names)) if names else ""
        raise error(HandError, "error.hand.four", count=len(names), listed=listed)
    for seat, name in enumerate(names, 1):
        check_name(name, seat)
    if not four_different(*names):
        twice = next(n for n, count in Counter(names).items() if count > 1)
        raise error(HandError, "error.hand.same_name", name=repr(twice))


def _too_many(card: Card, holders: list[str], name: str, decks: int, verb: str) -> HandError:
    """The error for one copy too many of ``card``, naming who else had it."""
    how = "third" if decks > 1 else ("twice" if holders[0] == name else "already")
    return error(HandError, f"error.hand.{verb}_{how}", name=name, code=card.code, card=card,
                 holder=holders[0], holders=Names(holders))  # fmt: skip


def first_too_many(
    players: Iterable[tuple[str, Iterable[Card]]], decks: int
) -> tuple[Card, tuple[str, ...], str] | None:
    """The first card copy beyond what the decks hold, in seat order, or None.

    It comes as ``(card, the players who have it already, the player with one too many)``. A
    card is captured by one player only; with two decks, twice in all (rulings §9).
    """
    holders: dict[Card, list[str]] = {}
    for name, cards in players:
        for card in cards:
            seen = holders.setdefault(card, [])
            if len(seen) == decks:
                return card, tuple(seen), name
            seen.append(name)
    return None


# The bit-form questions are written with operators only (``&``, ``|``, ``==``) and typed
# ``Any``, so the one source answers for one hand (ints, names) and, compiled or not, for a
# column of hands (numpy arrays: batch/columns.py).


def four_different(n0: Any, n1: Any, n2: Any, n3: Any) -> Any:
    """Whether a hand's four names, or a column of hands' name codes, all differ."""
    return (n0 != n1) & (n0 != n2) & (n0 != n3) & (n1 != n2) & (n1 != n3) & (n2 != n3)


def every_scoring_card(once: Any, twice: Any, decks: int) -> Any:
    """Whether cards held once and twice (:mod:`.bits`) include every scoring card, every copy.

    For a hand's masks or'ed together this means none is missing; for one player's, a grand slam
    (满贯). Masks are ints, or numpy ``int64`` arrays of them (a column of hands).
    """
    second = SCORING if decks > 1 else 0
    return ((once & SCORING) == SCORING) & ((twice & SCORING) == second)


def exposures_within(copies: Any, decks: int, exposable: bool) -> Any:
    """Whether ``copies`` exposures of one special card in a hand are allowed (rulings §1).

    That is at most one per deck, and none of a card the rules let nobody expose.
    """
    return (copies <= decks) & ((copies == 0) | exposable)


def firsts_within(count: Any, allowed: bool) -> Any:
    """Whether a player's ``count`` cards exposed under 首明 are allowed.

    That is at most one, and none where the variant's ``first_exposure_allowed`` (``allowed``)
    is false. Each also counts as an exposure: :func:`exposures_within`.
    """
    return (count <= 1) & ((count == 0) | allowed)


def _check_captured(hand: Hand, decks: int) -> None:
    found = first_too_many(((p.name, p.captured) for p in hand.players), decks)
    if found is not None:
        card, holders, name = found
        raise _too_many(card, list(holders), name, decks, "captured")


def _check_exposed(hand: Hand, variant: Variant) -> None:
    holders: dict[Card, list[str]] = {}
    for p in hand.players:
        if not p.exposed and not p.first_exposed:  # (most players expose nothing)
            continue
        if p.first_exposed and not variant.first_exposure_allowed:
            raise error(HandError, "error.hand.first_not_allowed", name=p.name,
                        cards=_show(p.first_exposed), variant=variant.name)  # fmt: skip
        if len(p.first_exposed) > 1:
            raise error(
                HandError, "error.hand.first_one", name=p.name, cards=_show(p.first_exposed)
            )
        for card in (*p.exposed, *p.first_exposed):
            if card not in variant.exposable:
                raise error(HandError, "error.hand.cannot_expose", name=p.name, code=card.code,
                            card=card, allowed=Listed(variant.exposable))  # fmt: skip
            seen = holders.setdefault(card, [])
            if len(seen) == variant.decks:
                raise _too_many(card, seen, p.name, variant.decks, "exposed")
            seen.append(p.name)
