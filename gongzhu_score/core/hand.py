"""What happened in one hand, as the table reports it: who captured which cards, who exposed what.

A :class:`Hand` is plain input; :func:`validate_hand` checks it against a variant (RULINGS §9)
and the scorer trusts only validated hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..errors import GongzhuError, HandError, MissingCardsError
from .cards import DECK, SCORING_CARDS, Card, parse_cards
from .variant import Variant

__all__ = ["Hand", "PlayerHand", "validate_hand"]

CardsLike = str | Iterable[object] | None


def _key(card: Card) -> tuple[int, int]:
    return card.sort_key


def _show(cards: Iterable[Card]) -> str:
    return " ".join(c.symbol for c in sorted(cards, key=_key))


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One seat's part of a hand: the cards captured (收的牌) and the special cards exposed.

    ``exposed`` are ordinary exposures (亮牌/卖牌); ``first_exposed`` are 首明 exposures.
    """

    name: str
    captured: tuple[Card, ...] = ()
    exposed: tuple[Card, ...] = ()
    first_exposed: tuple[Card, ...] = ()

    @classmethod
    def parse(
        cls,
        name: str,
        captured: CardsLike = None,
        exposed: CardsLike = None,
        first_exposed: CardsLike = None,
        decks: int = 1,
    ) -> PlayerHand:
        """Build from card lists in any notation; errors name the player and the field."""
        parsed: list[tuple[Card, ...]] = []
        for field_name, value in (
            ("captured", captured),
            ("exposed", exposed),
            ("first_exposed", first_exposed),
        ):
            try:
                parsed.append(parse_cards(value, decks))
            except GongzhuError as e:
                raise e.within(f"player {name}: {field_name}") from None
        return cls(name, *parsed)


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
        decks: int = 1,
    ) -> Hand:
        """Build a hand from ``{name: cards}`` in seat order plus exposures by name (``decks``:
        what 全红 stands for).

        >>> Hand.from_captured({"东": "QS", "南": "", "西": "", "北": ""}).players[0]
        PlayerHand(name='东', captured=(Card.parse('QS'),), exposed=(), first_exposed=())
        """
        pairs = list(captured.items() if isinstance(captured, Mapping) else captured)
        names = [name for name, _ in pairs]
        for label, by_name in (("exposed", exposed), ("first_exposed", first_exposed)):
            for name in by_name or {}:
                if name not in names:
                    raise HandError(f"{label}: {_unknown_player(name, names)}")
        return cls(
            tuple(
                PlayerHand.parse(
                    name,
                    cards,
                    (exposed or {}).get(name),
                    (first_exposed or {}).get(name),
                    decks,
                )
                for name, cards in pairs
            )
        )

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    def missing(self, decks: int = 1) -> tuple[Card, ...]:
        """The scoring cards nobody captured, in deck order (each as often as it is missing)."""
        taken = Counter(c for p in self.players for c in p.captured)
        return tuple(
            c for c in DECK if c in SCORING_CARDS for _ in range(decks - min(taken[c], decks))
        )

    def with_rest(self, name: str, decks: int = 1) -> Hand:
        """The hand with every scoring card nobody else captured given to ``name``.

        At a table three players count their cards and the fourth takes the rest; ``name``
        may be one of the seats or a fourth seat not listed yet.
        """
        rest = self.missing(decks)
        if name in self.names:
            return Hand(
                tuple(
                    replace(p, captured=p.captured + rest) if p.name == name else p
                    for p in self.players
                )
            )
        if len(self.players) != 3:
            raise HandError(
                f"the rest for {name}: {_unknown_player(name, self.names)} "
                "(a new seat for the rest needs exactly three listed players)"
            )
        return Hand((*self.players, PlayerHand(name, rest)))


def _unknown_player(name: str, names: Iterable[str]) -> str:
    return f"no player named {name!r} (players: {', '.join(names)})"


def validate_hand(hand: Hand, variant: Variant, *, partial: bool = False) -> tuple[Card, ...]:
    """Check ``hand`` against RULINGS §9 and the variant; return the scoring cards missing.

    Raises :class:`HandError` naming the player and the card. Missing scoring cards are an
    error (:class:`MissingCardsError`) unless ``partial``.
    """
    _check_names(hand)
    _check_captured(hand, variant.decks)
    _check_exposed(hand, variant)
    missing = hand.missing(variant.decks)
    if missing and not partial:
        raise MissingCardsError(f"scoring cards nobody captured: {_show(missing)}")
    return missing


def _check_names(hand: Hand) -> None:
    names = hand.names
    if len(names) != 4:
        listed = f" ({', '.join(names)})" if names else ""
        raise HandError(f"a hand needs exactly four players, got {len(names)}{listed}")
    for seat, name in enumerate(names, 1):
        if not isinstance(name, str) or not name.strip():
            raise HandError(f"player {seat} has no name")
    for name, count in Counter(names).items():
        if count > 1:
            raise HandError(f"two players are named {name!r}; names must differ")


def _too_many(card: Card, holders: list[str], name: str, decks: int, verb: str) -> HandError:
    """The error for one copy too many of ``card``, naming who else had it."""
    if decks == 1:
        who = "twice" if holders[0] == name else f"already by {holders[0]}"
    else:
        who = f"a third time (already by {' and '.join(holders)}; two decks hold two)"
    return HandError(f"player {name}: {card.code} ({card}) {verb} {who}")


def _check_captured(hand: Hand, decks: int) -> None:
    holders: dict[Card, list[str]] = {}
    for p in hand.players:
        for card in p.captured:
            seen = holders.setdefault(card, [])
            if len(seen) == decks:
                raise _too_many(card, seen, p.name, decks, "captured")
            seen.append(p.name)


def _check_exposed(hand: Hand, variant: Variant) -> None:
    holders: dict[Card, list[str]] = {}
    allowed = ", ".join(c.symbol for c in variant.exposable)
    for p in hand.players:
        if p.first_exposed and not variant.first_exposure_allowed:
            raise HandError(
                f"player {p.name}: first_exposed {_show(p.first_exposed)}: 首明 is not part of "
                f"the {variant.name} rules; list the card under exposed instead"
            )
        if len(p.first_exposed) > 1:
            raise HandError(
                f"player {p.name}: first_exposed {_show(p.first_exposed)}: only the first card "
                "a player drew can be 首明, so one card at most"
            )
        for card in (*p.exposed, *p.first_exposed):
            if card not in variant.exposable:
                raise HandError(
                    f"player {p.name}: cannot expose {card.code} ({card}); "
                    f"only {allowed} can be exposed (亮牌)"
                )
            seen = holders.setdefault(card, [])
            if len(seen) == variant.decks:
                raise _too_many(card, seen, p.name, variant.decks, "exposed")
            seen.append(p.name)
