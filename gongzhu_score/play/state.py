"""One state of play, the plays it allows, and the step one play makes.

A :class:`Position` holds the hands, the leader, the suits already led, the exposed cards and
the opening card. As every caller of pokerkit drives its one ``State``, every part of this
project that follows play drives this one :class:`Position`. Replay (:mod:`.replay`) plays a
record out through it and reports each play the rules refuse. A claim of the remaining tricks
(声称) is judged from the position it was made in, its cards checked against what the position
has left (:mod:`.claims`, whose search keeps the same facts as integers and plays its
counter-line back through here). A match asks :func:`rotation_leader` who leads a hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple, TypeVar

from ..core.cards import Card, Suit
from .legal import Cards, legal_plays, winner

__all__ = ["Play", "Position", "Trick", "rotation_leader", "seat_order"]


class Play(NamedTuple):
    """One player's play to a trick: one card, or two (two decks)."""

    player: str
    cards: Cards

    @property
    def text(self) -> str:
        return " ".join(c.symbol for c in self.cards)


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick (一圈): its number, its plays in order, its winner.

    The leader plays first. The winner is None for a trick not played to its end: a claim's
    stated line that cannot be followed there.
    """

    number: int
    plays: tuple[Play, ...]
    winner: str | None

    @property
    def lead(self) -> str:
        return self.plays[0].player


S = TypeVar("S")


def seat_order(players: Sequence[S], leader: S) -> tuple[S, ...]:
    """The order of play in a trick led by ``leader``.

    The seats are players by name, or seats by number.
    """
    start = players.index(leader)
    return tuple(players[(start + k) % len(players)] for k in range(len(players)))


def rotation_leader(players: Sequence[str], hand_number: int) -> str:
    """Who leads hand ``hand_number`` of a match under ``first_lead: rotation`` (rulings §10).

    That is seat ((k − 1) mod 4) + 1, seat 1 being the first player (North).
    """
    return players[(hand_number - 1) % len(players)]


@dataclass(frozen=True)
class Position:
    """Where play stands. Immutable: :meth:`play` gives the next position.

    It holds every hand still to play, who leads the trick under way (or the next), the suits
    whose first round is over, each player's exposed cards, and the plays of the trick under
    way.
    """

    players: tuple[str, ...]
    """Seat order (play goes round in this order from the leader)."""
    hands: Mapping[str, Counter[Card]]
    """Each player's cards still to play."""
    leader: str
    suits_led: frozenset[Suit]
    """Suits already led: their first round is over (exposed cards are free in them)."""
    exposed: Mapping[str, Counter[Card]]
    """Each player's exposed cards (亮牌; 首明 cards are exempt from the first-round rule)."""
    opening: Card | None = None
    """Before the first trick of a match whose opening card must be led (首引): that card."""
    trick: tuple[Play, ...] = ()
    """The plays of the trick under way, from its leader (empty between tricks)."""
    number: int = 1
    """The number of the trick under way (or the next one) in the hand."""
    played: Counter[Card] = field(default_factory=Counter)
    """Every card played so far in the hand (two decks: each copy)."""

    def order(self) -> tuple[str, ...]:
        """The order of play in the trick under way."""
        return seat_order(self.players, self.leader)

    @property
    def to_play(self) -> str:
        """Who plays next."""
        return self.order()[len(self.trick)]

    @property
    def led(self) -> Cards | None:
        """The lead of the trick under way (None: the next play leads)."""
        return self.trick[0].cards if self.trick else None

    def legal_plays(self, decks: int) -> list[Cards]:
        """Every play the rules allow the next player (:func:`.legal.legal_plays`).

        The opening card must be in the hand's first lead when the position says so.
        """
        player = self.to_play
        plays = legal_plays(self.hands[player], self.led, self.suits_led,
                            self.exposed.get(player, Counter()), decks)  # fmt: skip
        if self.opening is not None and not self.trick:
            plays = [p for p in plays if self.opening in p]
        return plays

    def left(self, decks: int, cards: frozenset[Card]) -> Counter[Card]:
        """The copies of ``cards`` not yet played, ``decks`` of each dealt."""
        return Counter({c: decks - self.played[c] for c in cards if self.played[c] < decks})

    def play(self, cards: Sequence[Card]) -> tuple[Position, Trick | None]:
        """The position after the next player plays ``cards``, and the trick it ends.

        The cards need not be held: a replay goes on past a broken rule, as the table did.
        """
        player = self.to_play
        played = tuple(cards)
        hands = {**self.hands, player: self.hands[player] - Counter(played)}
        trick = (*self.trick, Play(player, played))
        seen = self.played + Counter(played)
        if len(trick) < len(self.players):
            return replace(self, hands=hands, trick=trick, played=seen), None
        suit = trick[0].cards[0].suit
        won = trick[winner([p.cards for p in trick], suit)].player
        done = Trick(self.number, trick, won)
        after = replace(self, hands=hands, leader=won, suits_led=self.suits_led | {suit},
                        opening=None, trick=(), number=self.number + 1, played=seen)  # fmt: skip
        return after, done
