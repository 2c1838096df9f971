"""Random endgames of random legal games, for the claim tests and the benchmark: a random deal
played by random legal plays (random exposures) until the hands are small, and random legal
playouts from there."""

from __future__ import annotations

import random
from collections import Counter

from gongzhu_score.core.cards import DECK, HEARTS, PIG, SCORING_CARDS, SHEEP, TRANSFORMER, Card
from gongzhu_score.play.legal import legal_plays, winner
from gongzhu_score.play.state import Position

NAMES = ("东", "南", "西", "北")


def order_from(lead: str) -> list[str]:
    start = NAMES.index(lead)
    return [NAMES[(start + k) % 4] for k in range(4)]


def endgame(rng: random.Random, decks: int, cards_left: int) -> Position:
    """A random deal played by random legal plays until each hand holds ``cards_left`` cards
    or fewer; exposures at random."""
    pool = list(DECK) * decks
    rng.shuffle(pool)
    size = 13 * decks
    hands = {n: Counter(pool[k * size : (k + 1) * size]) for k, n in enumerate(NAMES)}
    exposed: dict[str, Counter[Card]] = {}
    for card in (PIG, SHEEP, TRANSFORMER, HEARTS[-1]):
        if rng.random() < 0.3:
            holder = next(n for n in NAMES if hands[n][card])
            exposed.setdefault(holder, Counter())[card] += 1
    leader = rng.choice(NAMES)
    done_suits: frozenset = frozenset()
    while sum(hands[leader].values()) > cards_left:
        order = order_from(leader)
        plays: list[tuple[Card, ...]] = []
        for name in order:
            options = legal_plays(hands[name], plays[0] if plays else None, done_suits,
                                  exposed.get(name, Counter()), decks)  # fmt: skip
            play = rng.choice(options)
            plays.append(play)
            hands[name] -= Counter(play)
        suit = plays[0][0].suit
        leader = order[winner(plays, suit)]
        done_suits |= {suit}
    return Position(NAMES, hands, leader, done_suits, exposed)


def playout(rng: random.Random, pos: Position, by: str, decks: int
            ) -> tuple[dict[str, list[Card]], list[Card]]:  # fmt: skip
    """Where the scoring cards go in one random legal playout, and the claimer's plays."""
    hands = {n: Counter(h) for n, h in pos.hands.items()}
    leader, done_suits = pos.leader, pos.suits_led
    takes: dict[str, list[Card]] = {n: [] for n in NAMES}
    line: list[Card] = []
    while any(hands.values()):
        order = order_from(leader)
        plays: list[tuple[Card, ...]] = []
        for name in order:
            options = legal_plays(hands[name], plays[0] if plays else None, done_suits,
                                  pos.exposed.get(name, Counter()), decks)  # fmt: skip
            play = rng.choice(options)
            plays.append(play)
            hands[name] -= Counter(play)
            if name == by:
                line.extend(play)
        suit = plays[0][0].suit
        leader = order[winner(plays, suit)]
        takes[leader] += [c for p in plays for c in p if c in SCORING_CARDS]
        done_suits |= {suit}
    return takes, line
