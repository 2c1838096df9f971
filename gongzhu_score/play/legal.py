"""The rules of play: what may be played to a trick, and who wins.

Replaying a record (:mod:`.replay`) reports the plays these rules refuse; deciding a claim
(:mod:`.claims`) plays out every line they allow (:func:`legal_plays`). Both ask here, so they
cannot disagree about what is legal.

The rules (rulings §1, §11 and the seeds' play texts): follow suit when possible. Two decks: a
lead is one card or a pair, and a player holding a pair of the suit led follows a pair with a
pair. An exposed card is not played on its suit's first round unless it is the player's last
card of that suit (首明 cards exempt). A trick goes to the highest card of the suit led. Who
leads a hand's first trick (首引) is :mod:`.state`'s: it depends on the match, not the cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from ..core.cards import Card, Suit

__all__ = ["Cards", "exposed_problem", "fewest_exposed", "follow_problem", "lead_problem",
           "legal_plays", "lowest", "winner"]  # fmt: skip

Cards = tuple[Card, ...]
"""One play: a card, or (two decks) a pair or two singles, in sort order."""


def winner(plays: Sequence[Sequence[Card]], suit: Suit) -> int:
    """Index of the winning play (rulings §11, 出牌规则).

    It is the highest card of the suit led.

    Two decks, a pair led: in diamonds a pair beats two single diamonds; in the other suits two
    singles beat a pair; either beats a play with a card of another suit (a discard). Two pairs
    compare by rank, two plays of two singles by their higher card only. Between equal plays
    (identical cards, or two singles whose higher cards tie) the first one played wins.
    """

    def strength(cards: Sequence[Card]) -> tuple[int, int]:
        if any(c.suit is not suit for c in cards):
            return (-1, 0)  # a discard never wins
        top = max(c.rank for c in cards)
        if len(cards) == 1:
            return (0, top)
        pair = cards[0] == cards[1]
        kind = (2 if pair else 1) if suit is Suit.DIAMONDS else (1 if pair else 2)
        return (kind, top)  # (the lower of two singles does not count)

    best = 0
    for k in range(1, len(plays)):
        if strength(plays[k]) > strength(plays[best]):  # ties: the first played keeps it
            best = k
    return best


def lead_problem(cards: Sequence[Card]) -> str | None:
    """Why a lead is not one, or None.

    ``not_one_or_pair``: two different cards.
    """
    if len(cards) == 2 and cards[0] != cards[1]:
        return "not_one_or_pair"
    return None


def follow_problem(
    cards: Sequence[Card], led: Sequence[Card], suit: Suit, hand: Counter[Card]
) -> str | None:
    """Why ``cards`` from ``hand`` do not follow ``led``, or None.

    ``hand`` is as before playing them. ``count``: not as many cards as led; ``revoke``: a card
    of the suit led held back; ``pair``: a pair led, a pair of the suit held, no pair played.
    """
    if len(cards) != len(led):
        return "count"
    in_suit = sum(c.suit is suit for c in cards)
    held = sum(n for c, n in hand.items() if c.suit is suit)
    if in_suit < min(len(cards), held):
        return "revoke"
    pair_led = len(led) == 2 and led[0] == led[1]
    if (
        pair_led
        and cards[0] != cards[1]
        and any(c.suit is suit and n >= 2 for c, n in hand.items())
    ):
        return "pair"
    return None


def lowest(cards: Counter[Card], suit: Suit) -> Card:
    """The lowest card of ``suit`` in ``cards``."""
    return min((c for c in cards.elements() if c.suit is suit), key=lambda c: c.rank)


def _locked(hand: Counter[Card], suit: Suit, exposed: Counter[Card]) -> Counter[Card]:
    """Exposed copies of ``suit`` in hand, held back on its first round."""
    return Counter({c: min(n, hand[c]) for c, n in exposed.items() if c.suit is suit and hand[c]})


def _shown(cards: Sequence[Card], hand: Counter[Card], locked: Counter[Card]) -> int:
    """How many exposed copies a play uses. The unexposed copy goes first."""
    return sum(max(0, cards.count(c) - (hand[c] - k)) for c, k in locked.items())


P = TypeVar("P", bound=Sequence[Card])


def fewest_exposed(plays: Sequence[P], hand: Counter[Card], suit: Suit, exposed: Counter[Card]
                   ) -> list[P]:  # fmt: skip
    """Of ``plays``, those that use the fewest exposed copies.

    All are in ``suit``'s first round, each allowed by the rules of following. An exposed card
    is played on its suit's first round only when the player has no other way to follow (the
    seeds: "该花色只有一张牌时…必须出"; two decks: a pair that must be followed with a pair).
    """
    locked = _locked(hand, suit, exposed)
    if not locked:
        return list(plays)
    counts = [_shown(p, hand, locked) for p in plays]
    least = min(counts, default=0)
    return [p for p, n in zip(plays, counts, strict=True) if n == least]


def exposed_problem(
    cards: Sequence[Card],
    led: Sequence[Card] | None,
    suit: Suit,
    hand: Counter[Card],
    exposed: Counter[Card],
) -> Card | None:
    """A card the player could have played instead of an exposed copy.

    None when there is none.

    This is on the suit's first round; ``led`` is the lead followed, None for a lead.
    ``exposed``: the copies this player exposed (首明 aside).
    """
    locked = _locked(hand, suit, exposed)
    used = _shown(cards, hand, locked) if locked else 0
    if not used:
        return None
    held = sorted((c for c in hand if c.suit is suit), key=lambda c: c.sort_key)
    if led is None:  # a lead: any one card or pair of the suit would have done
        options: list[tuple[Card, ...]] = [(c,) for c in held]
        options += [(c, c) for c in held if hand[c] >= 2]
    elif len(led) == 1:
        options = [(c,) for c in hand]
    else:
        every = sorted(hand, key=lambda c: c.sort_key)
        options = [(a, b) for i, a in enumerate(every) for b in every[i:]
                   if a != b or hand[a] >= 2]  # fmt: skip
    if led is not None:
        options = [p for p in options if follow_problem(p, led, suit, hand) is None]
    if used <= min((_shown(p, hand, locked) for p in options), default=9):
        return None  # forced: no way to follow with fewer exposed copies
    return lowest(hand - locked, suit)


def legal_plays(
    hand: Counter[Card],
    led: Cards | None,
    suits_led: frozenset[Suit],
    exposed: Counter[Card],
    decks: int,
) -> list[Cards]:
    """Every play the rules allow from ``hand``, leading or following ``led``.

    ``led`` is None for a lead; ``suits_led`` are the suits whose first round is over. Each play
    comes once (the two copies of a card are one choice), its cards in sort order.
    """
    cards = sorted(hand, key=lambda c: c.sort_key)
    if led is None:
        leads: list[Cards] = [(c,) for c in cards]
        if decks > 1:
            leads += [(c, c) for c in cards if hand[c] >= 2]
        leads = [p for p in leads if lead_problem(p) is None]
        out: list[Cards] = []
        for suit in Suit:  # the first-round rule compares a lead with the suit's other leads
            of_suit = [p for p in leads if p[0].suit is suit]
            out += of_suit if suit in suits_led else fewest_exposed(of_suit, hand, suit, exposed)
        return out
    suit = led[0].suit
    # The plays worth asking the rules about (the rules still decide): the suit's cards when
    # the player has some, else any; a pair led: the suit's pairs, else pairs of cards drawn
    # from the suit first.
    same = [c for c in cards if c.suit is suit]
    candidates: list[Cards]
    if len(led) == 1:
        candidates = [(c,) for c in (same or cards)]
    else:
        pairs: list[Cards] = [(c, c) for c in same if hand[c] >= 2]
        copies = sum(hand[c] for c in same)
        if pairs:
            candidates = pairs
        elif copies >= 2:
            candidates = [(a, b) for i, a in enumerate(same) for b in same[i + 1 :]]
        elif copies == 1:
            candidates = [tuple(sorted((same[0], c), key=lambda c: c.sort_key))
                          for c in cards if c != same[0]]  # fmt: skip
        else:
            candidates = [(c, c) for c in cards if hand[c] >= 2]
            candidates += [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    legal = [p for p in candidates if follow_problem(p, led, suit, hand) is None]
    return legal if suit in suits_led else fewest_exposed(legal, hand, suit, exposed)
