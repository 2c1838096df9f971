"""The claim search's own shortcuts, checked against the rules (:mod:`gongzhu_score.play.legal`):
when it says the leader takes every trick left whatever anyone plays, every line of play the
rules allow says so too (one deck and two, exposed cards and pairs included); positions of one
shape (the same order of cards, the cards themselves renamed) get one answer."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from endgames import NAMES, playout
from hypothesis import given, settings
from hypothesis import strategies as st

import gongzhu_score.play.claims as claims
from gongzhu_score.core.cards import DECK, SCORING_CARDS, Card, Suit
from gongzhu_score.play.claims import decide
from gongzhu_score.play.legal import legal_plays, winner
from gongzhu_score.play.state import Position, seat_order


def strong_leader(rng: random.Random, decks: int, size: int) -> Position:
    """A small position whose leader mostly holds high cards (so that they often take every
    trick, and sometimes just fail to): each hand ``size`` cards, exposures at random."""
    pool = list(DECK) * decks
    rng.shuffle(pool)
    pool.sort(key=lambda c: -c.rank if rng.random() < 0.5 else 0)
    leader = rng.choice(NAMES)
    hands = {leader: Counter(pool[:size])}
    rest = pool[size:]
    rng.shuffle(rest)
    for name in NAMES:
        if name != leader:
            hands[name] = Counter(rest[:size])
            rest = rest[size:]
    exposed = {n: Counter([c]) for n in NAMES for c in hands[n] if rng.random() < 0.15}
    done = frozenset(s for s in Suit if rng.random() < 0.5)
    return Position(NAMES, hands, leader, done, exposed)


def winners(pos: Position, decks: int) -> Iterator[tuple[str, ...]]:
    """The takers of the tricks left, in order, along every line of play the rules allow."""
    if not any(pos.hands.values()):
        yield ()
        return

    def trick(at: int, hands: dict[str, Counter[Card]], plays: tuple) -> Iterator[tuple]:  # type: ignore[type-arg]
        order = seat_order(pos.players, pos.leader)
        if at == 4:
            yield hands, plays
            return
        name = order[at]
        for play in legal_plays(hands[name], plays[0] if plays else None, pos.suits_led,
                                pos.exposed.get(name, Counter()), decks):  # fmt: skip
            yield from trick(at + 1, {**hands, name: hands[name] - Counter(play)}, (*plays, play))

    order = seat_order(pos.players, pos.leader)
    for hands, plays in trick(0, dict(pos.hands), ()):
        suit = plays[0][0].suit
        taker = order[winner(plays, suit)]
        after = Position(pos.players, hands, taker, pos.suits_led | {suit}, pos.exposed)
        for rest in winners(after, decks):
            yield (taker, *rest)


def runs(pos: Position, decks: int) -> bool:
    search = claims._Search(pos, pos.leader, {n: () for n in NAMES}, None, decks, 1)
    leader, hands, _ = search.start(pos)
    return search.runs(leader, hands)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from((1, 2)), st.integers(1, 3))
def test_a_leader_said_to_take_every_trick_takes_every_trick_on_every_line(
    seed: int, decks: int, size: int
) -> None:
    pos = strong_leader(random.Random(seed), decks, size)
    if runs(pos, decks):
        assert all(set(line) == {pos.leader} for line in winners(pos, decks)), pos


def test_the_leaders_tested_are_said_to_take_every_trick_and_not() -> None:
    said = Counter(runs(strong_leader(random.Random(seed), decks, size), decks)
                   for seed in range(200) for decks in (1, 2) for size in (1, 2, 3))  # fmt: skip
    assert said[True] > 100 and said[False] > 50


def renamed(pos: Position, rng: random.Random) -> Position:
    """``pos`` with the cards of each suit that are neither scoring nor exposed renamed: the
    same order, other ranks among those no hand holds (the rest of the deck played)."""
    exposed = {c for e in pos.exposed.values() for c in e}
    fixed = set(SCORING_CARDS) | exposed
    held = {c for h in pos.hands.values() for c in h}
    mapping: dict[Card, Card] = {}
    for suit in Suit:
        ranks = sorted((c for c in DECK if c.suit is suit), key=lambda c: c.rank)
        segment: list[Card] = []
        for card in [*ranks, None]:
            if card is not None and card not in fixed:
                segment.append(card)
                continue
            mine = [c for c in segment if c in held]
            mapping.update(zip(mine, sorted(rng.sample(segment, len(mine)), key=lambda c: c.rank),
                               strict=True))  # fmt: skip
            segment = []
    hands = {n: Counter({mapping.get(c, c): k for c, k in h.items()}) for n, h in pos.hands.items()}
    return Position(pos.players, hands, pos.leader, pos.suits_led, pos.exposed)


def test_positions_of_one_shape_are_decided_alike() -> None:
    from endgames import endgame

    rng = random.Random(31)
    seen: Counter[bool | None] = Counter()
    for _ in range(120):
        decks = rng.choice((1, 2))
        pos = endgame(rng, decks, rng.choice((3, 4, 5)))
        by = rng.choice(NAMES)
        takes, _ = playout(rng, pos, by, decks)
        twin = renamed(pos, rng)
        answer = decide(pos, by, takes, decks=decks).guaranteed
        assert decide(twin, by, takes, decks=decks).guaranteed is answer
        seen[answer] += 1
    assert seen[True] and seen[False]


def test_the_shortcuts_decide_as_the_search_without_them(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A leader taking every trick left, a defender leading a card no one can beat into which
    a scoring card strays: the claims decided with these shortcuts are decided alike without
    them (the search then plays those positions out by the rules), counter-lines included."""
    from endgames import endgame

    rng = random.Random(41)  # (600 claims: a wrong shortcut shows in a few)
    cases = []
    for _ in range(600):
        decks = rng.choice((1, 2))
        pos = endgame(rng, decks, rng.choice((3, 4, 5)))
        by = rng.choice(NAMES)
        takes, _ = playout(rng, pos, by, decks)
        if rng.random() < 0.3:
            cards = [c for cs in takes.values() for c in cs]
            takes = {n: [] for n in NAMES}
            for card in cards:
                takes[rng.choice(NAMES)].append(card)
        cases.append((pos, by, takes, decks))
    short = [decide(pos, by, takes, decks=decks) for pos, by, takes, decks in cases]
    monkeypatch.setattr(claims._Search, "runs", lambda *_: False)
    monkeypatch.setattr(claims._Search, "strays", lambda *_: False)
    plain = [decide(pos, by, takes, decks=decks) for pos, by, takes, decks in cases]
    assert [(d.guaranteed, d.counter_line, d.astray) for d in short] == [
        (d.guaranteed, d.counter_line, d.astray) for d in plain]  # fmt: skip
    assert {d.guaranteed for d in short} == {True, False}
    assert sum(d.positions for d in short) < sum(d.positions for d in plain)
