"""Claims of the remaining tricks (声称, RULINGS §11): is a claim guaranteed?

A player shows their cards and says who will take each scoring card still to be played. The
claim is **guaranteed** when, every hand being known, the claimer has a way to play (the line
they stated, if they stated one) such that every legal play of the other three sends each of
those scoring cards where the claim says. That is a game with two sides: at the claimer's turn
*some* play must keep the claim, at any other player's turn *every* legal play must. This module
answers it exactly, by searching every line of play the rules allow (:mod:`.rules` decides what
is legal, as it does for replay), and when the answer is no, gives the evidence: a line of play
by the others that defeats the claim.

Searching every line would be far too slow at seven tricks left; three things keep it exact and
quick:

- positions between tricks are remembered (the same cards left, the same leader, the same cards
  still owed under the claim: one answer);
- cards that cannot play differently are tried once: a player's cards of one suit with no other
  player's card of that suit between them (or equal to them), none a scoring card or an exposed
  one, win and lose the same tricks;
- the search stops as soon as the answer is known (one way for the claimer is enough; one
  defeating reply is enough against it).

A budget of positions bounds the work; past it the answer is "undecided", never a guess.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.cards import SCORING_CARDS, Card, Suit
from .rules import fewest_exposed, follow_problem, lead_problem, winner

__all__ = ["ClaimDecision", "Owed", "Position", "decide", "legal_plays", "trick_codes",
           "trick_winner"]  # fmt: skip

Play = tuple[Card, ...]
Trick = tuple[tuple[str, Play], ...]

POSITION_BUDGET = 2_000_000
"""Positions between tricks the search may visit before it says it could not decide."""


@dataclass(frozen=True)
class Position:
    """Where a hand stands when the claim is made: between tricks, every hand known."""

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


@dataclass(frozen=True)
class ClaimDecision:
    """The answer: guaranteed (True), not (False, with a defeating line), or undecided (None:
    the search went past its budget)."""

    guaranteed: bool | None
    counter_line: tuple[Trick, ...] = ()
    """Not guaranteed: tricks as played (player and cards, in play order), the claimer's plays
    included, up to the trick that sends a scoring card elsewhere than claimed."""
    positions: int = 0
    """Positions the search visited (between tricks)."""
    astray: tuple[tuple[Card, str, tuple[str, ...]], ...] = ()
    """Not guaranteed: in the counter-line's last trick, each scoring card that goes elsewhere
    than claimed: the card, who takes it, whom the claim gave it to."""


class _Undecided(Exception):
    pass


def legal_plays(
    hand: Counter[Card],
    led: Play | None,
    suits_led: frozenset[Suit],
    exposed: Counter[Card],
    decks: int,
) -> list[Play]:
    """Every play the rules allow from ``hand``: leading (``led`` None) or following ``led``;
    ``suits_led``: the suits whose first round is over. Each play once (the two copies of a
    card are one choice), its cards in sort order."""
    cards = sorted(hand, key=lambda c: c.sort_key)
    if led is None:
        leads: list[Play] = [(c,) for c in cards]
        if decks > 1:
            leads += [(c, c) for c in cards if hand[c] >= 2]
        leads = [p for p in leads if lead_problem(p) is None]
        out: list[Play] = []
        for suit in Suit:  # the first-round rule compares a lead with the suit's other leads
            of_suit = [p for p in leads if p[0].suit is suit]
            out += of_suit if suit in suits_led else fewest_exposed(of_suit, hand, suit, exposed)
        return out
    suit = led[0].suit
    # The plays worth asking the rules about (the rules still decide): the suit's cards when
    # the player has some, else any; a pair led: the suit's pairs, else pairs of cards drawn
    # from the suit first.
    same = [c for c in cards if c.suit is suit]
    candidates: list[Play]
    if len(led) == 1:
        candidates = [(c,) for c in (same or cards)]
    else:
        pairs: list[Play] = [(c, c) for c in same if hand[c] >= 2]
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


def _order(players: Sequence[str], lead: str) -> list[str]:
    start = players.index(lead)
    return [players[(start + k) % 4] for k in range(4)]


class _Search:
    def __init__(
        self,
        position: Position,
        by: str,
        takes: Mapping[str, Sequence[Card]],
        line: Sequence[Card] | None,
        decks: int,
        budget: int,
    ) -> None:
        self.players = position.players
        self.exposed = position.exposed
        self.opening = position.opening
        self.first = (position.leader, sum(position.hands[position.leader].values()))
        self.by = by
        self.line = tuple(line) if line is not None else None
        self.line_start = sum(position.hands[by].values())
        self.decks = decks
        self.budget = budget
        self.visited = 0
        self.known: dict[tuple[object, ...], bool] = {}
        owed: dict[Card, Counter[str]] = {}
        for name, cards in takes.items():
            for card in cards:
                owed.setdefault(card, Counter())[name] += 1
        self.owed0 = owed

    # --- the game --------------------------------------------------------------------------

    def holds(
        self, leader: str, hands: dict[str, Counter[Card]], led: frozenset[Suit], owed: Owed
    ) -> bool:
        """Between tricks: can the claimer keep the claim from here?"""
        if not any(hands.values()):
            return True
        key = (leader, _frozen(hands), led, owed.frozen())
        found = self.known.get(key)
        if found is not None:
            return found
        self.visited += 1
        if self.visited > self.budget:
            raise _Undecided
        answer = self.turn(_order(self.players, leader), 0, (), hands, led, owed)
        self.known[key] = answer
        return answer

    def turn(
        self,
        order: list[str],
        k: int,
        plays: tuple[Play, ...],
        hands: dict[str, Counter[Card]],
        led: frozenset[Suit],
        owed: Owed,
    ) -> bool:
        """Within a trick: player ``order[k]`` to play, ``plays`` made before."""
        if k == 4:
            outcome = self.trick_outcome(order, plays, owed)
            if outcome is None:
                return False  # a scoring card went elsewhere than claimed
            suit = plays[0][0].suit
            return self.holds(order[outcome[0]], hands, led | {suit}, outcome[1])
        name = order[k]
        choices = self.choices(name, plays, hands, led)
        claimer = name == self.by
        for play in choices:
            after = dict(hands)
            after[name] = hands[name] - Counter(play)
            kept = self.turn(order, k + 1, (*plays, play), after, led, owed)
            if kept and claimer:
                return True  # one way for the claimer is enough
            if not kept and not claimer:
                return False  # one defeating reply is enough
        return not claimer

    def choices(
        self,
        name: str,
        plays: tuple[Play, ...],
        hands: dict[str, Counter[Card]],
        led: frozenset[Suit],
    ) -> list[Play]:
        hand = hands[name]
        lead = plays[0] if plays else None
        legal = legal_plays(hand, lead, led, self.exposed.get(name, Counter()), self.decks)
        if self.opening is not None and lead is None and (name, sum(hand.values())) == self.first:
            legal = [p for p in legal if self.opening in p]  # the match opens with this card
        if name == self.by and self.line is not None:
            stated = self.stated(hand, lead)
            if stated is not None:  # a line that breaks a rule here cannot be followed
                return [stated] if stated in legal else []
        return self.distinct(legal, name, plays, hands)

    def stated(self, hand: Counter[Card], lead: Play | None) -> Play | None:
        """The claimer's next play by the stated line (None: the line is used up)."""
        assert self.line is not None
        played = self.line_start - sum(hand.values())
        rest = self.line[played:]
        if not rest:
            return None
        size = len(lead) if lead is not None else (2 if len(rest) > 1 and rest[0] == rest[1]
                                                   and self.decks > 1 else 1)  # fmt: skip
        # (as legal_plays writes a play: its cards in sort order)
        return tuple(sorted(rest[:size], key=lambda c: c.sort_key))

    def distinct(
        self,
        options: list[Play],
        name: str,
        plays: tuple[Play, ...],
        hands: dict[str, Counter[Card]],
    ) -> list[Play]:
        """The plays that can make a difference: of cards that win and lose the same tricks
        (see the module's text), one."""
        if len(options) < 2:
            return options
        others: dict[Suit, set[int]] = {}
        for other, hand in hands.items():
            if other != name:
                for card in hand:
                    others.setdefault(card.suit, set()).add(card.rank)
        for play in plays:
            for card in play:
                others.setdefault(card.suit, set()).add(card.rank)
        exposed = self.exposed.get(name, Counter())
        group: dict[Card, tuple[Suit, int]] = {}
        for suit in {c.suit for c in hands[name]}:
            mine = sorted((c for c in hands[name] if c.suit is suit), key=lambda c: c.rank)
            taken = others.get(suit, set())
            run = 0
            previous: Card | None = None
            for card in mine:
                plain = card not in SCORING_CARDS and not exposed[card]
                joined = (
                    previous is not None
                    and plain
                    and previous not in SCORING_CARDS
                    and not exposed[previous]
                    and not any(previous.rank <= r <= card.rank for r in taken)
                )
                if not joined:
                    run += 1
                group[card] = (suit, run)
                previous = card
        seen: set[tuple[object, ...]] = set()
        out = []
        for play in options:
            groups = sorted((group[c] for c in play), key=lambda g: (g[0].value, g[1]))
            shape = (len(play) == 2 and play[0] == play[1], *groups)  # a pair is not two singles
            if shape not in seen:
                seen.add(shape)
                out.append(play)
        return out

    def trick_outcome(
        self, order: list[str], plays: tuple[Play, ...], owed: Owed
    ) -> tuple[int, Owed] | None:
        """The trick's winner (index in ``order``) and what is still owed after it; None if a
        scoring card in it is not owed to the winner."""
        suit = plays[0][0].suit
        won = winner(plays, suit)
        taker = order[won]
        cards = [c for play in plays for c in play if c in SCORING_CARDS]
        if not cards:
            return won, owed
        after = owed.taken(cards, taker)
        return None if after is None else (won, after)

    # --- the evidence ------------------------------------------------------------------------

    def defeating_line(self, position: Position) -> tuple[Trick, ...]:
        """A line of play that defeats the claim (the claimer's first choice at each turn, the
        others' first reply that defeats it), up to the trick it is lost in."""
        tricks: list[Trick] = []
        hands = {n: Counter(h) for n, h in position.hands.items()}
        leader, led, owed = position.leader, position.suits_led, Owed(self.owed0)
        while any(hands.values()):
            order = _order(self.players, leader)
            plays: list[Play] = []
            current = hands
            for k, name in enumerate(order):
                choices = self.choices(name, tuple(plays), current, led)
                chosen = choices[0] if choices else None
                for play in choices:
                    after = dict(current)
                    after[name] = current[name] - Counter(play)
                    if not self.turn(order, k + 1, (*plays, play), after, led, owed):
                        chosen = play
                        break
                if chosen is None:  # the stated line cannot be played here
                    tricks.append(tuple(zip(order, plays, strict=False)))
                    return tuple(tricks)
                plays.append(chosen)
                current = dict(current)
                current[name] = current[name] - Counter(chosen)
            tricks.append(tuple(zip(order, plays, strict=True)))
            outcome = self.trick_outcome(order, tuple(plays), owed)
            if outcome is None:
                return tuple(tricks)
            leader, owed = order[outcome[0]], outcome[1]
            led = led | {plays[0][0].suit}
            hands = current
        return tuple(tricks)  # (not reached when the claim is defeated)


class Owed:
    """Scoring cards still owed under the claim: card → how many copies each player takes."""

    __slots__ = ("by_card",)

    def __init__(self, by_card: Mapping[Card, Counter[str]]) -> None:
        self.by_card = by_card

    def taken(self, cards: Sequence[Card], taker: str) -> Owed | None:
        changed = dict(self.by_card)
        for card in cards:
            owed = changed.get(card)
            if owed is None or owed[taker] < 1:
                return None
            owed = owed.copy()
            owed[taker] -= 1
            changed[card] = +owed
        return Owed(changed)

    def frozen(self) -> frozenset[tuple[Card, frozenset[tuple[str, int]]]]:
        return frozenset((c, frozenset(o.items())) for c, o in self.by_card.items() if o)


def _frozen(hands: Mapping[str, Counter[Card]]) -> tuple[object, ...]:
    return tuple(frozenset(hand.items()) for _, hand in sorted(hands.items()))


def decide(
    position: Position,
    by: str,
    takes: Mapping[str, Sequence[Card]],
    line: Sequence[Card] | None = None,
    *,
    decks: int = 1,
    budget: int = POSITION_BUDGET,
) -> ClaimDecision:
    """Is the claim by ``by`` (``takes``: each remaining scoring card to its taker, every copy
    once; ``line``: the claimer's plays in order, if stated) guaranteed from ``position``?"""
    search = _Search(position, by, takes, line, decks, budget)
    hands = {n: Counter(h) for n, h in position.hands.items()}
    try:
        held = search.holds(position.leader, hands, position.suits_led, Owed(search.owed0))
    except _Undecided:
        return ClaimDecision(None, (), search.visited)
    if held:
        return ClaimDecision(True, (), search.visited)
    line_found = search.defeating_line(position)
    return ClaimDecision(False, line_found, search.visited, _astray(takes, line_found))


def _astray(
    takes: Mapping[str, Sequence[Card]], tricks: Sequence[Trick]
) -> tuple[tuple[Card, str, tuple[str, ...]], ...]:
    owed: Counter[tuple[Card, str]] = Counter()
    for name, cards in takes.items():
        owed.update((card, name) for card in cards)
    out: list[tuple[Card, str, tuple[str, ...]]] = []
    for trick in tricks:
        taker = trick_winner(trick)
        if taker is None:
            break
        for _, play in trick:
            for card in play:
                if card not in SCORING_CARDS:
                    continue
                if owed[card, taker]:
                    owed[card, taker] -= 1
                else:
                    claimed = tuple(n for n in takes if owed[card, n])
                    out.append((card, taker, claimed))
    return tuple(out)


def trick_winner(trick: Trick) -> str | None:
    """Who wins a trick of the counter-line (None: it stops early, the stated line being
    unplayable there)."""
    if len(trick) < 4:
        return None
    return trick[winner([play for _, play in trick], trick[0][1][0].suit)][0]


def trick_codes(trick: Trick) -> list[str]:
    """A trick's cards as codes, in play order (the JSON ``counter_line`` form)."""
    return [c.code for _, play in trick for c in play]
