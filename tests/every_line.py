"""An independent search for the claim tests: every line of play, nothing remembered, nothing
grouped (what the claim search must decide as). ``winner`` is looked up here at each trick, so a
test can put another rule in its place (tests/test_two_deck_ties.py does)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

from endgames import order_from

from gongzhu_score.core.cards import SCORING_CARDS, Card
from gongzhu_score.play.legal import exposed_problem, follow_problem, lead_problem, winner
from gongzhu_score.play.state import Position

Hands = dict[str, Counter[Card]]


def candidates(
    hand: Counter[Card], lead: tuple[Card, ...] | None, done_suits: frozenset, exposed: Counter,
    decks: int,
) -> list[tuple[Card, ...]]:  # fmt: skip
    """Every set of one or two cards from the hand that the rules of play allow."""
    sizes = ([1, 2] if decks > 1 else [1]) if lead is None else [len(lead)]
    out = set()
    for size in sizes:
        for combo in itertools.combinations(sorted(hand.elements(), key=lambda c: c.sort_key),
                                            size):  # fmt: skip
            if lead is None:
                if lead_problem(combo):
                    continue
                suit = combo[0].suit
            else:
                suit = lead[0].suit
                if follow_problem(combo, lead, suit, hand):
                    continue
            if suit not in done_suits and exposed_problem(combo, lead, suit, hand, exposed):
                continue
            out.add(combo)
    return sorted(out, key=lambda p: [c.sort_key for c in p])


def brute(
    pos: Position, by: str, takes: Mapping[str, Sequence[Card]], decks: int,
    line: Sequence[Card] | None = None,
) -> bool:  # fmt: skip
    owed: Counter[tuple[Card, str]] = Counter()
    for name, cards in takes.items():
        owed.update((c, name) for c in cards)
    start = sum(pos.hands[by].values())

    def game(hands: Hands, leader: str, done_suits: frozenset, owed: Counter) -> bool:
        if not any(hands.values()):
            return True
        return trick(order_from(leader), [], hands, done_suits, owed)

    def trick(order: list[str], plays: list, hands: Hands, done_suits: frozenset,
              owed: Counter) -> bool:  # fmt: skip
        if len(plays) == 4:
            suit = plays[0][0].suit
            taker = order[winner(plays, suit)]
            owed = owed.copy()
            for card in (c for p in plays for c in p if c in SCORING_CARDS):
                if owed[card, taker] < 1:
                    return False
                owed[card, taker] -= 1
            return game(hands, taker, done_suits | {suit}, owed)
        name = order[len(plays)]
        lead = plays[0] if plays else None
        options = candidates(hands[name], lead, done_suits, pos.exposed.get(name, Counter()),
                             decks)  # fmt: skip
        if name == by and line is not None:
            rest = list(line[start - sum(hands[by].values()) :])
            if rest:
                if lead is not None:
                    size = len(lead)
                else:
                    size = 2 if decks > 1 and len(rest) > 1 and rest[0] == rest[1] else 1
                want = tuple(sorted(rest[:size], key=lambda c: c.sort_key))
                options = [o for o in options if o == want]
        results = (
            trick(order, [*plays, o], {**hands, name: hands[name] - Counter(o)}, done_suits, owed)
            for o in options
        )
        return any(results) if name == by else all(results)

    hands = {n: Counter(h) for n, h in pos.hands.items()}
    return game(hands, pos.leader, pos.suits_led, owed)
