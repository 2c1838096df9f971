"""Claims of the remaining tricks (声称, rulings §11). Is a claim guaranteed?

A player shows their cards and says who will take each scoring card still to be played. The
claim is **guaranteed** when, every hand being known, the claimer has a way to play (the line
they stated, if any) such that every legal play of the other three sends each of those scoring
cards where the claim says. That is a game with two sides: at the claimer's turn *some* play
must keep the claim, at any other player's turn *every* legal play must. This module answers it
exactly, by searching every line of play the rules allow (:mod:`.legal` decides what is legal,
as it does for replay). When the answer is no, it gives the evidence: a line of play by the
others that defeats the claim.

Searching every line would be far too slow at seven tricks left; these things keep it exact and
quick:

- positions between tricks are remembered by their shape (the same leader, by suit the same
  order of who holds the cards left, a scoring card owed to the same players, an exposed card
  the same card: one answer, whatever the ranks of the plain cards);
- cards that cannot play differently are tried once: a player's cards of one suit with no other
  player's card of that suit between them (or equal to them), none a scoring card or an exposed
  one, win and lose the same tricks;
- a leader none of whose cards is below another's of its suit takes every trick left: the
  answer is then whether everything still owed is owed to them; a defender leading a card no
  one can beat, the trick taking a scoring card not owed to them (the lead, or another
  defender's discard), defeats the claim there;
- the search stops as soon as the answer is known (one way for the claimer is enough; one
  defeating reply is enough against it), and the last to play in a trick tries first what
  settles it.

A budget of positions bounds the work: every position counts, between tricks and within them
(each play tried), and the tables remembered are bounded too. Past it the answer is "undecided",
never a guess.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from ..core.cards import DECK, SCORING_CARDS, Card, Suit
from ..errors import InputError
from ..io.records import RecordedClaim
from ..terms import Cards as Shown
from ..terms import error
from .legal import legal_plays, winner
from .state import Position, Trick, seat_order

# Position is state.py's; it is named here because docs/library.md imports it from here.
__all__ = ["POSITION_BUDGET", "ClaimDecision", "Position", "RestClaim", "decide", "play_codes",
           "trick_codes"]  # fmt: skip

POSITION_BUDGET = 500_000
"""Positions the search may visit (every play tried, within tricks and between them) before
it says it could not decide: a few seconds on a small machine, a two-deck claim before the
first trick included (the slowest seen: about 6 s on a busy 2-core machine)."""

KNOWN_LIMIT = 250_000
"""Positions between tricks remembered at most (a bound on memory)."""

CACHE_LIMIT = 100_000
"""Entries in each table of the rules' answers remembered at most (a bound on memory)."""


@dataclass(frozen=True, slots=True)
class RestClaim:
    """A claim of the remaining tricks (声称, rulings §11), checked.

    It holds the claimer, every scoring card still to play under its taker, and the stated line.
    """

    by: str
    takes: Mapping[str, tuple[Card, ...]]
    """Every remaining scoring card (each copy once) under its taker, every player named."""
    line: tuple[Card, ...] | None = None
    """The cards the claimer will play, in order, if they said."""

    @classmethod
    def made(cls, said: RecordedClaim, position: Position, decks: int) -> RestClaim:
        """The claim a record states, checked against what ``position`` has left.

        Every scoring card not yet played must be named once (``takes: all``: all to the
        claimer), and each card of the stated line must be in the claimer's hand. An
        :class:`InputError` says what is wrong (within ``claim``).
        """
        try:
            return cls(said.by, _takes(said, position, decks), _line(said, position))
        except InputError as e:
            raise e.within("claim") from None

    def decide(self, position: Position, decks: int, budget: int | None = None) -> ClaimDecision:
        """Is this claim guaranteed from ``position``? (:func:`decide`)"""
        return decide(position, self.by, self.takes, self.line, decks=decks,
                      budget=POSITION_BUDGET if budget is None else budget)  # fmt: skip


def _ordered(cards: Counter[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards.elements(), key=lambda c: c.sort_key))


def _takes(said: RecordedClaim, position: Position, decks: int) -> dict[str, tuple[Card, ...]]:
    """Each remaining scoring card under its taker, every copy named once."""
    left = position.left(decks, SCORING_CARDS)
    names = position.players
    if said.takes is None:
        return {n: _ordered(left) if n == said.by else () for n in names}
    count: Counter[Card] = Counter()
    for name in names:
        for card in said.takes.get(name, ()):
            count[card] += 1
            if card not in SCORING_CARDS:
                raise error(InputError, "error.claim.not_scoring", card=card).within(
                    f"takes: {name}"
                )
            if count[card] > left[card]:
                key = "error.claim.played" if not left[card] else "error.claim.twice"
                raise error(InputError, key, card=card, decks=decks).within(f"takes: {name}")
    missing = left - count
    if missing:
        raise error(InputError, "error.claim.missing", cards=Shown(_ordered(missing))).within(
            "takes"
        )
    return {n: said.takes.get(n, ()) for n in names}


def _line(said: RecordedClaim, position: Position) -> tuple[Card, ...] | None:
    """The stated line, each of its cards in the claimer's hand."""
    if said.line is None:
        return None
    hand = position.hands[said.by]
    for card, count in Counter(said.line).items():
        if count > hand[card]:
            raise error(InputError, "error.claim.line_card", card=card, by=said.by,
                        cards=Shown(_ordered(hand))).within("line")  # fmt: skip
    return said.line


@dataclass(frozen=True)
class ClaimDecision:
    """The answer: guaranteed (True), defeated (False), or undecided (None).

    A defeated claim comes with a defeating line; undecided means the search went past its
    budget.
    """

    guaranteed: bool | None
    counter_line: tuple[Trick, ...] = ()
    """Not guaranteed: tricks as played (player and cards, in play order), the claimer's plays
    included, up to the trick that sends a scoring card elsewhere than claimed."""
    positions: int = 0
    """Positions the search visited: every play it tried (within a trick or between tricks)."""
    astray: tuple[tuple[Card, str, tuple[str, ...]], ...] = ()
    """Not guaranteed: in the counter-line's last trick, each scoring card that goes elsewhere
    than claimed: the card, who takes it, whom the claim gave it to."""


class _Undecided(Exception):
    pass


# In the search a card is its index in sort order (the suit's block of 13, then the rank), a
# hand a sorted tuple of indices (two decks: a card twice), a play a sorted tuple too: keys of
# the positions remembered hash as plain integers. The rules are still asked about Cards, once
# per player and lead in each trick.
_CARDS: tuple[Card, ...] = tuple(sorted(DECK, key=lambda c: c.sort_key))
_INDEX: dict[Card, int] = {c: i for i, c in enumerate(_CARDS)}
_SCORING = frozenset(_INDEX[c] for c in SCORING_CARDS)
_SLOT = {c: k for k, c in enumerate(sorted(_SCORING))}
_DIGIT = (1, 3, 9, 27)
_SUIT_BIT = {suit: 1 << k for k, suit in enumerate(Suit)}
_LED_BIT = tuple(_SUIT_BIT[card.suit] for card in _CARDS)
"""A lead's suit bit, by its first card's index."""
_END = 64
"""Ends a hand in the key of a position remembered (a card is 0 to 51, the leader 0 to 3,
the suits led 0 to 15)."""
_NOTHING_OWED = bytes(len(_SLOT))
"""Owed once every scoring card has gone where the claim said: the rest of the play cannot
send one astray."""
_PLACE = tuple(c + c // 13 for c in range(52))
"""Each card's place in a layout of the deck by suit, a place between suits ending each."""
_OWNERS = tuple(2 * p for p in _PLACE)
"""In a shape's layout, each card's place is two bytes: who holds its copies, then (a scoring
card) whom they are owed to."""
_OWED_PLACES = tuple((_OWNERS[c] + 1, k) for c, k in _SLOT.items())
_OWED_AS = bytes(100 + b if 0 < b <= 54 else b for b in range(256))
"""Whom a scoring card is owed to, as a byte of a shape: apart from the holders' bytes (1 to
54) and an exposed card's (from 192), so a shape reads one way only."""
_ONLY = tuple(frozenset((0, d, 2 * d)) for d in _DIGIT)
"""The bytes of what is owed when every card still owed is owed to one seat (by seat)."""
_DIAMONDS = _INDEX[next(c for c in DECK if c.suit is Suit.DIAMONDS)] // 13
_EXPOSED = 192
_SUIT_END = 255

Cards = tuple[int, ...]
Hands = tuple[Cards, ...]
_ORDERS = tuple(seat_order(range(4), leader) for leader in range(4))
"""Seats in play order, by the leader's seat (the search keeps seats as numbers)."""


def _cards(play: Sequence[Card]) -> Cards:
    return tuple(sorted(_INDEX[c] for c in play))


def _paired(hand: Cards) -> list[int]:
    """Suits, diamonds aside, in which ``hand`` holds a pair (two decks)."""
    return [a // 13 for a, b in pairwise(hand) if a == b and a // 13 != _DIAMONDS]


def _not_owed(card: int, owed: _Owed, digit: int) -> bool:
    """Is ``card`` a scoring card with no copy owed to seat ``digit``?"""
    slot = _SLOT.get(card)
    return slot is not None and owed.key[slot] // digit % 3 == 0


def _form(lead: Cards | None) -> int:
    """What the rules of following look at in a lead (:func:`legal_plays`).

    That is its suit, and whether it is a single, a pair or two singles; -1: no lead (the player
    leads).
    """
    if lead is None:
        return -1
    return lead[0] // 13 * 4 + (1 if len(lead) == 1 else 2 if lead[0] == lead[1] else 3)


def _played(hands: Hands, seat: int, play: Cards) -> Hands:
    """The hands once ``seat`` has played ``play``."""
    rest = list(hands[seat])
    for card in play:
        rest.remove(card)
    return (*hands[:seat], tuple(rest), *hands[seat + 1 :])


class _Owed:
    """Scoring cards still owed under the claim, one byte per card.

    For each scoring card (its slot in ``_SLOT``), the byte is the copies owed to each seat:
    seat ``s``'s copies times 3 to the ``s``. Two decks owe at most 2 copies.
    """

    __slots__ = ("key",)

    def __init__(self, key: bytes) -> None:
        self.key = key
        """A part of the key of the positions remembered."""

    @classmethod
    def of(cls, owed: Mapping[int, Sequence[int]]) -> _Owed:
        """From card → copies owed to each seat."""
        slots = bytearray(len(_SLOT))
        for card, copies in owed.items():
            slots[_SLOT[card]] = sum(n * _DIGIT[s] for s, n in enumerate(copies))
        return cls(bytes(slots))

    def taken(self, cards: Sequence[int], taker: int) -> _Owed | None:
        """What is owed once ``taker`` takes ``cards``. None if not owed them."""
        changed = bytearray(self.key)
        digit = _DIGIT[taker]
        for card in cards:
            slot = _SLOT[card]
            if changed[slot] // digit % 3 < 1:
                return None
            changed[slot] -= digit
        return _Owed(bytes(changed))


class _Trick:
    """A trick as it began: the hands, what was owed, each seat's useful plays.

    The useful plays are worked out once per form of lead; what is still owed after the trick,
    once per scoring cards and taker (what was owed as it began is fixed throughout).
    """

    __slots__ = ("below", "choices", "drawn", "groups", "hands", "owed", "owed_after", "rest")

    def __init__(self, hands: Hands, owed: _Owed) -> None:
        self.hands = hands
        self.owed = owed
        self.drawn: bytearray | None = None
        """The hands' shape as drawn (:meth:`_Search.drawn`), once needed."""
        self.rest: tuple[dict[Cards, Cards], ...] = ({}, {}, {}, {})
        """Each seat's hand once it has played a play (the same hand in every line)."""
        self.below: list[int] = []
        """Copies of cards below each card (by index) in all four hands (worked out once)."""
        self.choices: dict[int, list[Cards]] = {}
        """By seat and the lead's form (``4 * (form + 1) + seat``)."""
        self.groups: dict[int, dict[int, int]] = {}
        self.owed_after: dict[tuple[tuple[int, ...], int], _Owed | None] = {}

    def played(self, hands: Hands, seat: int, play: Cards) -> Hands:
        """:func:`_played`, the seat's hand left remembered."""
        mine = self.rest[seat]
        rest = mine.get(play)
        if rest is None:
            rest = mine[play] = _played(self.hands, seat, play)[seat]
        h0, h1, h2, h3 = hands  # (four seats: a tuple made at once, not of slices)
        return ((rest, h1, h2, h3) if seat == 0 else (h0, rest, h2, h3) if seat == 1
                else (h0, h1, rest, h3) if seat == 2 else (h0, h1, h2, rest))  # fmt: skip


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
        self.by = position.players.index(by)
        self.exposed = [Counter(position.exposed.get(n, Counter())) for n in self.players]
        self.shown = [frozenset(_INDEX[c] for c in e if e[c]) for e in self.exposed]
        self.line = tuple(_INDEX[c] for c in line) if line is not None else None
        self.line_start = sum(position.hands[by].values())
        self.opening = _INDEX[position.opening] if position.opening is not None else None
        leader = position.players.index(position.leader)
        self.first = (leader, sum(position.hands[position.leader].values()))
        self.decks = decks
        self.budget = budget
        self.visited = 0
        self.known: dict[bytes, bool] = {}
        self.settled: tuple[defaultdict[Cards, int], ...] = tuple(
            defaultdict(int) for _ in range(4)
        )
        """Each seat's plays that settled a position (kept the claim, or broke it), weighed by
        the cards left then: the order plays are tried in (:meth:`tried`)."""
        self.winners: dict[tuple[Cards, ...], tuple[int, Cards]] = {}
        self.legal_known: dict[tuple[object, ...], list[Cards]] = {}
        owed: dict[int, list[int]] = {}
        for name, cards in takes.items():
            for card in cards:
                owed.setdefault(_INDEX[card], [0, 0, 0, 0])[self.players.index(name)] += 1
        self.owed0 = _Owed.of(owed)
        self.layout = self._layout()
        self.led_matters = sum({_SUIT_BIT[_CARDS[c].suit] for c in frozenset().union(*self.shown)})
        """The suits whose first round can still matter: those of the exposed cards."""

    def _layout(self) -> bytes | None:
        """The empty layout a position's shape is drawn on (:meth:`shape`).

        None when a stated line names the claimer's cards: then a card is only itself.
        """
        if self.line is not None:
            return None
        layout = bytearray(2 * (len(_PLACE) + 4))
        for suit in range(4):
            layout[2 * (suit * 14 + 13)] = _SUIT_END
        for card in frozenset().union(*self.shown):
            layout[2 * _PLACE[card]] = _EXPOSED
        return bytes(layout)

    def start(self, position: Position) -> tuple[int, Hands, int]:
        hands = tuple(_cards(list(position.hands[n].elements())) for n in self.players)
        led = sum(_SUIT_BIT[s] for s in position.suits_led)
        return self.players.index(position.leader), hands, led

    # --- the game --------------------------------------------------------------------------

    def holds(
        self, leader: int, hands: Hands, led: int, owed: _Owed, shape: bytes | None = None
    ) -> bool:
        """Between tricks: can the claimer keep the claim from here?

        ``shape`` is the hands' (:meth:`shape`) when the caller has it: at a trick's end, which
        asked :meth:`kept`.
        """
        if shape is None:
            if self.kept(hands, owed):
                return True
            shape = self.shape(hands, owed)
        key = bytes((leader, led & self.led_matters)) + shape
        found = self.known.get(key)
        if found is not None:
            return found
        if self.line is None and self.runs(leader, hands):  # (a stated line may break a rule)
            answer = set(owed.key) <= _ONLY[leader]
        elif self.strays(leader, hands, led, owed):
            answer = False
        else:
            answer = self.turn(_ORDERS[leader], 0, (), hands, led, owed, _Trick(hands, owed))
        if len(self.known) < KNOWN_LIMIT:  # (a bound on memory: past it, nothing is forgotten,
            self.known[key] = answer  # but nothing more is remembered)
        return answer

    def kept(self, hands: Hands, owed: _Owed) -> bool:
        """Is the claim kept whatever is played from here?

        It is when no cards are left, or nothing is owed (every scoring card went where the
        claim said), as long as a stated line is still playable.
        """
        return not any(hands) or (owed.key == _NOTHING_OWED and self.line is None)

    def runs(self, leader: int, hands: Hands) -> bool:
        """Does the leader take every trick left, whatever anyone plays?

        So it is when none of their cards is below another player's of its suit (two decks: of
        two equal cards, the first played wins, the lead): each lead wins, and the next is
        theirs again. Two decks: a pair led outside diamonds falls to two singles of the suit,
        so no other player may then hold two cards of its suit.
        """
        lowest: dict[int, int] = {}
        for card in reversed(hands[leader]):
            lowest[card // 13] = card
        paired = _paired(hands[leader]) if self.decks > 1 else []
        for seat, hand in enumerate(hands):
            if seat == leader:
                continue
            if any(card > lowest.get(card // 13, 52) for card in hand):
                return False
            if any(sum(c // 13 == suit for c in hand) > 1 for suit in paired):
                return False
        return True

    def strays(self, leader: int, hands: Hands, led: int, owed: _Owed) -> bool:
        """Can the leading defender send a scoring card astray?

        The card must be one no one can beat (at most tie: the lead wins a tie), and the trick
        must take a scoring card not owed to the leader: the lead itself, or a discard of
        another defender void in its suit.
        """
        if leader == self.by:
            return False
        top = [-1] * 4
        for seat, hand in enumerate(hands):
            if seat != leader:
                for card in hand:
                    top[card // 13] = max(top[card // 13], card)
        digit = _DIGIT[leader]
        for play in self.legal(leader, None, -1, hands[leader], led):
            if len(play) > 1 or play[0] < top[play[0] // 13]:
                continue
            if _not_owed(play[0], owed, digit) or any(
                seat not in (leader, self.by)
                and not any(c // 13 == play[0] // 13 for c in hand)
                and any(_not_owed(c, owed, digit) for c in hand)
                for seat, hand in enumerate(hands)
            ):
                return True
        return False

    def shape(self, hands: Hands, owed: _Owed) -> bytes:
        """The position's shape: what the play from here can tell of it.

        By suit, the cards left in order, each as who holds its copies; a scoring card with whom
        it is owed to; an exposed card as itself (the rules name it). Which cards are gone does
        not count, nor which of two scoring cards owed alike is which. Who wins a trick depends
        on the order of its cards, not their ranks, so positions of one shape have one answer,
        and they meet far more often than positions of the same cards.
        """
        if self.layout is None:
            h0, h1, h2, h3 = hands
            return bytes((*h0, _END, *h1, _END, *h2, _END, *h3, _END)) + owed.key
        return bytes(self.drawn(self.layout, hands, owed)).translate(None, b"\0")

    @staticmethod
    def drawn(layout: bytes, hands: Hands, owed: _Owed) -> bytearray:
        """A shape before the places of the cards gone are dropped."""
        drawn = bytearray(layout)
        for seat, hand in enumerate(hands):
            digit = _DIGIT[seat]
            for card in hand:
                drawn[_OWNERS[card]] += digit
        # (a scoring card's copies still owed are the copies still held: none owed, none left)
        owed_as = owed.key.translate(_OWED_AS)
        for at, part in _OWED_PLACES:
            drawn[at] = owed_as[part]
        return drawn

    def shape_after(
        self, trick: _Trick, order: tuple[int, ...], plays: tuple[Cards, ...], owed: _Owed,
        after: _Owed,
    ) -> bytes | None:  # fmt: skip
        """The shape once the trick is played, drawn once per trick.

        It is the shape the trick began with, less its cards. ``owed`` is as the trick began,
        ``after`` once taken.
        """
        if self.layout is None:
            return None
        if trick.drawn is None:
            trick.drawn = self.drawn(self.layout, trick.hands, owed)
        drawn = bytearray(trick.drawn)
        for seat, play in zip(order, plays, strict=True):
            digit = _DIGIT[seat]
            for card in play:
                drawn[_OWNERS[card]] -= digit
        if after is not owed:
            for card in self.winners[plays][1]:
                drawn[_OWNERS[card] + 1] = _OWED_AS[after.key[_SLOT[card]]]
        return bytes(drawn).translate(None, b"\0")  # (the places of the cards gone dropped)

    def turn(
        self,
        order: tuple[int, ...],
        k: int,
        plays: tuple[Cards, ...],
        hands: Hands,
        led: int,
        owed: _Owed,
        trick: _Trick,
    ) -> bool:
        """Within a trick: seat ``order[k]`` to play, ``plays`` made before. Every call is a
        position visited: the budget counts them all."""
        self.visited += 1
        if self.visited > self.budget:
            raise _Undecided
        if k == 4:
            outcome = self.trick_outcome(order, plays, owed, trick)
            if outcome is None:
                return False  # a scoring card went elsewhere than claimed
            if self.kept(hands, outcome[1]):
                return True  # (before the shape is drawn: it would not be needed)
            shape = self.shape_after(trick, order, plays, owed, outcome[1])
            led |= _LED_BIT[plays[0][0]]
            return self.holds(order[outcome[0]], hands, led, outcome[1], shape)
        seat = order[k]
        claimer = seat == self.by
        for play in self.tried(order, k, plays, hands, led, owed, trick):
            after = trick.played(hands, seat, play)
            kept = self.turn(order, k + 1, (*plays, play), after, led, owed, trick)
            if kept == claimer:  # one way for the claimer is enough, one defeating reply too
                self.settled[seat][play] += len(hands[seat])
                return kept
        return not claimer

    def tried(
        self,
        order: tuple[int, ...],
        k: int,
        plays: tuple[Cards, ...],
        hands: Hands,
        led: int,
        owed: _Owed,
        trick: _Trick,
    ) -> list[Cards]:
        """:meth:`choices` in the order the search tries them.

        The answer is the same in any order, the work is not. Plays that settled the most
        positions so far come first, weighed by the cards then left: the same play tends to keep
        a claim, or break it, in nearby positions. A defender last to play in a trick first
        looks for a play that sends a scoring card astray (the claimer's such plays each cost
        one position).
        """
        seat = order[k]
        options = self.choices(seat, plays, hands, led, trick)
        if len(options) < 2:
            return options
        settled = self.settled[seat]
        if settled:  # (sorted is stable: reversed, the ties keep their order too)
            options = sorted(options, key=settled.__getitem__, reverse=True)
        if k < 3 or seat == self.by:
            return options
        for play in options:
            if self.trick_outcome(order, (*plays, play), owed, trick) is None:
                return [play]  # (it defeats the claim: nothing else need be tried)
        return options

    def choices(
        self, seat: int, plays: tuple[Cards, ...], hands: Hands, led: int, trick: _Trick
    ) -> list[Cards]:
        """What ``seat`` may usefully play, once per form of lead.

        Within a trick this depends only on the lead's form; the hands as the trick began fix
        the rest.
        """
        lead = plays[0] if plays else None
        form = _form(lead)
        key = 4 * (form + 1) + seat
        found = trick.choices.get(key)
        if found is None:
            found = self._choices(seat, lead, form, hands[seat], led, trick)
            trick.choices[key] = found
        return found

    def _choices(
        self, seat: int, lead: Cards | None, form: int, hand: Cards, led: int, trick: _Trick
    ) -> list[Cards]:
        legal = self.legal(seat, lead, form, hand, led)
        if seat == self.by and self.line is not None:
            stated = self.stated(hand, lead)
            if stated is not None:  # a line that breaks a rule here cannot be followed
                return [stated] if stated in legal else []
        return self.distinct(legal, seat, trick)

    def legal(self, seat: int, lead: Cards | None, form: int, hand: Cards, led: int) -> list[Cards]:
        """The rules' answer (:func:`legal_plays`), remembered.

        The same hand meets a lead of the same form in many positions.
        """
        key = (seat, form, hand, led)
        found = self.legal_known.get(key)
        if found is not None:
            return found
        done = frozenset(s for s in Suit if led & _SUIT_BIT[s])
        held = Counter(map(_CARDS.__getitem__, hand))
        led_cards = tuple(_CARDS[c] for c in lead) if lead is not None else None
        found = []
        for play in legal_plays(held, led_cards, done, self.exposed[seat], self.decks):
            if len(play) == 1:
                found.append((_INDEX[play[0]],))
            else:
                first, second = _INDEX[play[0]], _INDEX[play[1]]
                found.append((first, second) if first <= second else (second, first))
        if self.opening is not None and lead is None and (seat, len(hand)) == self.first:
            found = [p for p in found if self.opening in p]  # the match opens with this card
        if len(self.legal_known) >= CACHE_LIMIT:  # (a bound on memory)
            self.legal_known.clear()
        self.legal_known[key] = found
        return found

    def stated(self, hand: Cards, lead: Cards | None) -> Cards | None:
        """The claimer's next play by the stated line (None: used up)."""
        assert self.line is not None
        rest = self.line[self.line_start - len(hand) :]
        if not rest:
            return None
        size = len(lead) if lead is not None else (2 if len(rest) > 1 and rest[0] == rest[1]
                                                   and self.decks > 1 else 1)  # fmt: skip
        return tuple(sorted(rest[:size]))

    def distinct(self, options: list[Cards], seat: int, trick: _Trick) -> list[Cards]:
        """The plays that can make a difference: one per group.

        Equivalent cards win and lose the same tricks (the module's text says which).
        """
        if len(options) < 2:
            return options
        group = self.groups(seat, trick)
        seen: set[object] = set()
        out = []
        for play in options:
            if len(play) == 1:
                shape: object = group[play[0]]
            else:  # (a pair is not two singles)
                first, second = play
                shape = (first == second, group[first], group[second])
            if shape not in seen:
                seen.add(shape)
                out.append(play)
        return out

    def groups(self, seat: int, trick: _Trick) -> dict[int, int]:
        """Each card of ``seat``'s hand mapped to its group, once per trick.

        A group is named by its lowest card. Its cards are neighbours in a suit with no other
        player's card between or equal to them, each held once (two decks: a card held twice can
        make a pair, its neighbour cannot), none exposed, and all plain or all scoring cards
        owed alike (which of two goes where does not matter to the claim).
        """
        found = trick.groups.get(seat)
        if found is not None:
            return found
        below = trick.below
        if not below:
            count = [0] * 53
            for hand in trick.hands:
                for c in hand:
                    count[c + 1] += 1
            below = trick.below = list(accumulate(count))
        mine = trick.hands[seat]
        shown, owed = self.shown[seat], trick.owed.key
        group: dict[int, int] = {}
        start = previous = -1
        previous_kind: int | None = None
        for k, card in enumerate(mine):
            if card == previous:
                continue
            # What the card is to the claim: plain (-1), a scoring card by whom it is owed to
            # (its byte of what is owed), or None: held twice, or exposed (itself).
            if (k + 1 < len(mine) and mine[k + 1] == card) or card in shown:
                kind = None
            else:
                slot = _SLOT.get(card)
                kind = -1 if slot is None else owed[slot]
            if not (
                kind is not None
                and kind == previous_kind
                and previous // 13 == card // 13
                and below[card + 1] - below[previous] == 2  # (the two, each held once: no other)
            ):
                start = card
            group[card] = start
            previous, previous_kind = card, kind
        trick.groups[seat] = group
        return group

    def trick_outcome(
        self, order: tuple[int, ...], plays: tuple[Cards, ...], owed: _Owed, trick: _Trick
    ) -> tuple[int, _Owed] | None:
        """The trick's winner (index in ``order``) and what is owed after it.

        ``owed`` is as the trick began. None if a scoring card in it is not owed to the winner.
        """
        found = self.winners.get(plays)
        if found is None:
            cards = [tuple(_CARDS[c] for c in play) for play in plays]
            scoring = tuple(c for play in plays for c in play if c in _SCORING)
            found = winner(cards, cards[0][0].suit), scoring
            if len(self.winners) >= CACHE_LIMIT:  # (a bound on memory; the rule is asked again)
                self.winners.clear()
            self.winners[plays] = found
        won, scoring = found
        if not scoring:
            return won, owed
        key = (scoring, order[won])
        after = trick.owed_after.get(key, owed)  # (``owed``: not yet worked out; a trick
        if after is owed:  # that takes a scoring card owes less after it than before)
            after = trick.owed_after[key] = owed.taken(scoring, order[won])
        return None if after is None else (won, after)

    # --- the evidence ------------------------------------------------------------------------

    def retraced(
        self,
        order: tuple[int, ...],
        k: int,
        plays: tuple[Cards, ...],
        hands: Hands,
        led: int,
        owed: _Owed,
        trick: _Trick,
        judged: dict[tuple[Cards, ...], bool],
    ) -> bool:
        """:meth:`turn` again, for a trick of the defeating line.

        Each of its positions is judged once (``judged``: by the plays made in it).
        """
        found = judged.get(plays)
        if found is not None:
            return found
        if k == 4:
            answer = self.turn(order, k, plays, hands, led, owed, trick)
        else:
            self.visited += 1
            if self.visited > self.budget:
                raise _Undecided
            seat = order[k]
            claimer = seat == self.by
            answer = not claimer
            for play in self.choices(seat, plays, hands, led, trick):
                after = _played(hands, seat, play)
                kept = self.retraced(order, k + 1, (*plays, play), after, led, owed, trick,
                                     judged)  # fmt: skip
                if kept == claimer:  # the claimer keeps it, or another defeats it
                    answer = kept
                    break
        judged[plays] = answer
        return answer

    def defeating_line(self, position: Position) -> tuple[Trick, ...]:
        """A line of play that defeats the claim, up to its losing trick.

        At each turn it takes the claimer's first choice and the others' first defeating reply.
        It is played through the state of play (:class:`~.state.Position`), which says who wins
        each trick.
        """
        tricks: list[Trick] = []
        leader, hands, led = self.start(position)
        owed = self.owed0
        at = position
        while any(hands):
            order = _ORDERS[leader]
            plays: list[Cards] = []
            current = hands
            trick = _Trick(hands, owed)
            judged: dict[tuple[Cards, ...], bool] = {}
            done: Trick | None = None
            for k, seat in enumerate(order):
                choices = self.choices(seat, tuple(plays), current, led, trick)
                chosen = choices[0] if choices else None
                for play in choices:
                    after = _played(current, seat, play)
                    if not self.retraced(order, k + 1, (*plays, play), after, led, owed, trick,
                                         judged):  # fmt: skip
                        chosen = play
                        break
                if chosen is None:  # the stated line cannot be played here
                    tricks.append(Trick(at.number, at.trick, None))
                    return tuple(tricks)
                plays.append(chosen)
                current = _played(current, seat, chosen)
                at, done = at.play(tuple(_CARDS[c] for c in chosen))
            assert done is not None
            tricks.append(done)
            outcome = self.trick_outcome(order, tuple(plays), owed, trick)
            if outcome is None:
                return tuple(tricks)
            leader, owed = order[outcome[0]], outcome[1]
            led |= _SUIT_BIT[_CARDS[plays[0][0]].suit]
            hands = current
        return tuple(tricks)  # (not reached when the claim is defeated)


def decide(
    position: Position,
    by: str,
    takes: Mapping[str, Sequence[Card]],
    line: Sequence[Card] | None = None,
    *,
    decks: int = 1,
    budget: int = POSITION_BUDGET,
) -> ClaimDecision:
    """Is the claim by ``by`` guaranteed from ``position``?

    ``takes`` gives each remaining scoring card to its taker, every copy once; ``line`` is the
    claimer's plays in order, if stated.
    """
    search = _Search(position, by, takes, line, decks, budget)
    try:
        held = search.holds(*search.start(position), search.owed0)
    except _Undecided:
        return ClaimDecision(None, (), search.visited)
    visited = search.visited
    if held:
        return ClaimDecision(True, (), visited)
    # The line is the first defeating reply in the rules' order at each turn, whatever order
    # the search tried: reading it back judges the replies before it too (the answers
    # remembered serve), with a budget of its own.
    search.budget = visited + budget
    try:
        line_found = search.defeating_line(position)
    except _Undecided:
        return ClaimDecision(None, (), visited)
    return ClaimDecision(False, line_found, visited, _astray(takes, line_found))


def _astray(
    takes: Mapping[str, Sequence[Card]], tricks: Sequence[Trick]
) -> tuple[tuple[Card, str, tuple[str, ...]], ...]:
    owed: Counter[tuple[Card, str]] = Counter()
    for name, cards in takes.items():
        owed.update((card, name) for card in cards)
    out: list[tuple[Card, str, tuple[str, ...]]] = []
    for trick in tricks:
        taker = trick.winner
        if taker is None:
            break
        for play in trick.plays:
            for card in play.cards:
                if card not in SCORING_CARDS:
                    continue
                if owed[card, taker]:
                    owed[card, taker] -= 1
                else:
                    claimed = tuple(n for n in takes if owed[card, n])
                    out.append((card, taker, claimed))
    return tuple(out)


def trick_codes(trick: Trick) -> list[str]:
    """A trick's card codes in play order: one deck's ``counter_line``."""
    return [c.code for play in trick.plays for c in play.cards]


def play_codes(trick: Trick) -> list[list[str]]:
    """A trick's plays as lists of codes: two decks' ``counter_line``.

    A pair and two singles read apart; a single card is a list of one.
    """
    return [[c.code for c in play.cards] for play in trick.plays]
