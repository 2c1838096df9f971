"""A hand being entered at the table, a player at a time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core.cards import Card
from ..core.hand import Hand, PlayerHand, first_too_many

__all__ = ["HandEntry"]


@dataclass
class HandEntry:
    """What has been entered so far, by seat."""

    names: Sequence[str]
    decks: int = 1
    cards: list[tuple[Card, ...]] = field(default_factory=lambda: [(), (), (), ()])
    rest: int | None = None
    """The seat that takes every scoring card the others did not, if one does: any one seat,
    its cards worked out from the others' once the hand is whole (:meth:`hand`)."""
    exposed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    first_exposed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    first_pig: str | None = None
    """Two decks: who took the first pig, where two players took one and the match's rules
    ask it (:meth:`~gongzhu_score.match.ledger.Ledger.asks_first_pig`, which checks it too)."""

    @classmethod
    def of(cls, hand: Hand, decks: int = 1, first_pig: str | None = None) -> HandEntry:
        """An entry holding a hand as it stands, to change a line or two.

        It also holds who took the hand's first pig, if known.
        """
        return cls(
            [p.name for p in hand.players],
            decks,
            [p.captured for p in hand.players],
            None,
            {p.name: p.exposed for p in hand.players if p.exposed},
            {p.name: p.first_exposed for p in hand.players if p.first_exposed},
            first_pig,
        )

    def _others(self, skip: int | None) -> list[tuple[str, tuple[Card, ...]]]:
        seats = enumerate(zip(self.names, self.cards, strict=True))
        return [(n, c) for k, (n, c) in seats if k != skip and k != self.rest]

    def unplaced(self, skip: int | None = None) -> list[Card]:
        """Scoring cards no seat holds yet, each as often as it is missing.

        ``skip`` leaves that seat's cards out. The seat taking the rest holds none of its own.
        """
        held = Hand(tuple(PlayerHand(n, c) for n, c in self._others(skip)))
        return list(held.missing(self.decks))

    def clash(self, seat: int, cards: Sequence[Card]) -> tuple[Card, str] | None:
        """A card that ``cards`` for ``seat`` would make one copy too many.

        It comes with a player who has it already (``seat`` itself, for a card given twice in
        one go); None if there is none.
        """
        found = first_too_many([*self._others(seat), (self.names[seat], tuple(cards))],
                               self.decks)  # fmt: skip
        return None if found is None else (found[0], found[1][0])

    def give(self, seat: int, cards: Sequence[Card]) -> tuple[Card, str] | None:
        """``seat`` captured ``cards``, replacing what it had.

        Refused, the entry as it was, with the clash when one card is one copy too many.
        """
        clash = self.clash(seat, cards)
        if clash is None:
            self.cards[seat] = tuple(cards)
            if self.rest == seat:
                self.rest = None
        return clash

    def give_rest(self, seat: int) -> str | None:
        """``seat`` takes every scoring card the others did not.

        At a table three players count their cards, and the pile nobody counted is one player's:
        any seat, entered before the others or after. Only one seat can take the rest: another
        is refused (the entry as it was) naming who takes it already. None clears it.
        """
        if self.rest is not None and self.rest != seat:
            return self.names[self.rest]
        self.rest = seat
        self.cards[seat] = ()
        return None

    def taken_by_rest(self) -> tuple[Card, ...]:
        """What the rest comes to as the hand stands.

        That is every scoring card the other seats do not hold, each as often as it is missing;
        nothing when no seat takes the rest.
        """
        if self.rest is None:
            return ()
        return self.hand().players[self.rest].captured

    def show(self, exposed: Mapping[str, Sequence[Card]], first: bool = False) -> None:
        """Set the exposures (亮牌), or the 首明 exposures, by player."""
        chosen = {n: tuple(c) for n, c in exposed.items()}
        if first:
            self.first_exposed = chosen
        else:
            self.exposed = chosen

    def hand(self) -> Hand:
        """The hand entered so far, the rest given to its seat as ``--rest`` does.

        See :meth:`~gongzhu_score.core.hand.Hand.with_rest`.
        """
        held = Hand(
            tuple(
                PlayerHand(n, self.cards[i], self.exposed.get(n, ()), self.first_exposed.get(n, ()))
                for i, n in enumerate(self.names)
            )
        )
        return held if self.rest is None else held.with_rest(self.names[self.rest], self.decks)
