"""Replaying a trick-by-trick record: check each play, find captures, score.

A record (:class:`~gongzhu_score.io.records.TrickRecord`, the schema in docs/replay.md) gives
the players in seat order, the exposures, optionally the deal, and the tricks (two decks: every
card twice, plays of one or two cards), each with its leader and the cards in play order.
Replaying plays it out through the one state of play (:class:`~.state.Position`): the rules of
play (:mod:`.legal`) say which plays break a rule, the state says who won each trick, and so who
captured what. A record that breaks the rules is replayed anyway and its violations listed, each
a :class:`Finding` naming the trick, the player and the card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..core.cards import DECK, PIG, SCORING_CARDS, Card, Suit
from ..core.hand import Hand, PlayerHand
from ..errors import HandError
from ..io.fields import HandSpec
from ..io.records import InForce, TrickRecord, claimed_scores, parse_record
from ..terms import Cards, Listed, Names, error, place, say
from .claims import ClaimDecision, RestClaim
from .legal import exposed_problem, follow_problem, lead_problem, lowest
from .state import Play, Position, Trick, rotation_leader, seat_order

__all__ = ["Expected", "Finding", "Play", "Replay", "Trick", "expected_lead", "hand_from_record",
           "replay"]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule a record breaks, or where it contradicts itself.

    It holds the term that says it, and the values to fill in.
    """

    key: str
    values: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return say(self.key, lang, **self.values)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Replay:
    """The replayed hand: tricks with winners, captures, what broke the rules."""

    record: TrickRecord
    tricks: tuple[Trick, ...]
    captured: Mapping[str, tuple[Card, ...]]
    violations: tuple[Finding, ...]
    disagreements: tuple[Finding, ...]
    """Where the record's own ``captured:`` differs from what the tricks give."""
    position: Position | None = None
    """With a claim: the state of play when the claim was made."""
    claim: RestClaim | None = None
    """The record's claim of the remaining tricks, checked against what was left to play."""

    def decide_claim(self, budget: int | None = None) -> ClaimDecision | None:
        """Is the record's claim guaranteed (rulings §11)?

        None without a claim, or when the tricks before it break a rule: there is then no fair
        position to judge it from.
        """
        if self.claim is None or self.position is None or self.violations:
            return None
        return self.claim.decide(self.position, self.record.variant.decks, budget)

    def first_pig(self) -> str | None:
        """Who took the hand's first pig (Q♠), where the play shows it.

        That is the winner of the first trick with a pig in it, or the claim's taker when every
        pig left goes to one player (rulings §10: "上一局第一个得到猪牌的一方"). None when
        nobody took one yet, or the claim gives the pigs to two players.
        """
        for trick in self.tricks:
            if any(PIG in p.cards for p in trick.plays):
                return trick.winner
        if self.claim is not None:
            takers = [n for n, cards in self.claim.takes.items() if PIG in cards]
            if len(takers) == 1:
                return takers[0]
        return None

    def hand(self) -> Hand:
        """The hand the tricks give, ready to score."""
        r = self.record
        return Hand(
            tuple(
                PlayerHand(n, self.captured[n], r.exposed.get(n, ()), r.first_exposed.get(n, ()))
                for n in r.players
            )
        )


# --- playing it out ----------------------------------------------------------------------------


def _dealt(record: TrickRecord) -> dict[str, Counter[Card]]:
    """What each player held: the deal, else every card they played."""
    if record.deal is not None:
        return {n: Counter(record.deal.get(n, ())) for n in record.players}
    held: dict[str, Counter[Card]] = {n: Counter() for n in record.players}
    for leader, plays in record.tricks:
        for name, cards in zip(seat_order(record.players, leader), plays, strict=True):
            held[name].update(cards)
    return held


def replay(record: TrickRecord) -> Replay:
    """Play the record out: winners, captures, and every rule it breaks.

    A claim that does not name what is left to play is an
    :class:`~gongzhu_score.errors.InputError`.
    """
    players = record.players
    violations: list[Finding] = []
    held = _dealt(record)
    _check_deal(record, violations)
    _check_cards(record, violations)
    for name in players:
        for card in (*record.exposed.get(name, ()), *record.first_exposed.get(name, ())):
            if not held[name][card]:
                violations.append(
                    Finding("violation.exposed_not_held", {"name": name, "card": card})
                )

    first_leader = record.tricks[0][0] if record.tricks else record.claim and record.claim.lead
    assert first_leader  # (the reader asks for a lead when no trick was played)
    position = Position(players, held, first_leader, frozenset(), _exposed(record, held))
    tricks: list[Trick] = []
    for number, (lead, trick_cards) in enumerate(record.tricks, 1):
        if lead != position.leader:  # the record's leader stands; the replay says so
            values = {"trick": number, "lead": lead, "previous": position.leader,
                      "before": number - 1}  # fmt: skip
            violations.append(Finding("violation.led_out_of_turn", values))
            position = replace(position, leader=lead)
        done = None
        for cards in trick_cards:
            player = position.to_play
            if number == 1 and not position.trick:
                _check_first_lead(record, Play(player, cards), held, violations)
            _check_play(number, Play(player, cards), position, record, violations)
            position, done = position.play(cards)
        assert done is not None
        tricks.append(done)
    claim = None
    if record.claim is not None:
        if not record.tricks:  # the claim comes first
            _check_first_lead(record, Play(position.leader, ()), held, violations)
            expected = expected_lead(record, held)
            position = replace(position, opening=expected.card if expected else None)
        _check_claim_hands(record, position, violations)
        claim = RestClaim.made(record.claim, position, record.variant.decks)
    captured = _captured(players, tricks, claim)
    return Replay(record, tuple(tricks), captured, tuple(violations),
                  tuple(_disagreements(record, captured)),
                  position if claim is not None else None, claim)  # fmt: skip


def _captured(
    players: Sequence[str], tricks: Sequence[Trick], claim: RestClaim | None
) -> dict[str, tuple[Card, ...]]:
    """Each player's captures: the tricks they won, then the claim's cards."""
    won: dict[str, list[Card]] = {n: [] for n in players}
    for trick in tricks:
        assert trick.winner is not None
        for play in trick.plays:
            won[trick.winner].extend(play.cards)
    if claim is not None:  # the hand is scored as claimed
        for name in players:
            won[name].extend(claim.takes.get(name, ()))
    return {n: tuple(won[n]) for n in players}


def _exposed(record: TrickRecord, held: Mapping[str, Counter[Card]]) -> dict[str, Counter[Card]]:
    """Each player's exposed cards for play, held back on first rounds.

    They are those the record lists, and the fourth special card when auto-exposure exposes it
    (rulings §4.2, §11). Two decks, a house rule: one copy, when one player holds both; split
    between two players, nobody can say whose copy it is, and neither is held back.
    """
    exposed = {n: Counter(record.exposed.get(n, ())) for n in record.players}
    shown = {c for cards in (*record.exposed.values(), *record.first_exposed.values())
             for c in cards}  # fmt: skip
    auto = record.variant.auto_exposed(shown)
    holders = [n for n in record.players if held[n][auto]] if auto is not None else []
    if auto is not None and len(holders) == 1:
        exposed[holders[0]][auto] += 1
    return exposed


def _check_deal(record: TrickRecord, out: list[Finding]) -> None:
    if record.deal is None:
        return
    size = 13 * record.variant.decks
    played = _dealt(replace(record, deal=None))
    for name in record.players:
        dealt = Counter(record.deal.get(name, ()))
        count = sum(dealt.values())
        if count != size:
            out.append(
                Finding("violation.deal_count", {"name": name, "count": count, "size": size})
            )
        # (a card played twice is reported once, as played twice, by _check_cards)
        for card in sorted(set(played[name]) - set(dealt), key=lambda c: c.sort_key):
            out.append(Finding("violation.not_dealt", {"name": name, "card": card}))


def _check_cards(record: TrickRecord, out: list[Finding]) -> None:
    decks = record.variant.decks
    seen: Counter[Card] = Counter()
    for _, trick_cards in record.tricks:
        for cards in trick_cards:
            seen.update(cards)
    for card, count in sorted(seen.items(), key=lambda kv: kv[0].sort_key):
        if count > decks:
            out.append(
                Finding(f"violation.played_too_often.{decks}", {"card": card, "count": count})
            )
    missing = [c for c in DECK for _ in range(decks - min(seen[c], decks))]
    if missing and record.claim is None:  # (with a claim, the rest stays in the hands)
        out.append(Finding("violation.never_played", {"cards": Cards(missing)}))


def _check_claim_hands(record: TrickRecord, position: Position, out: list[Finding]) -> None:
    """Check the deal a claim is judged from.

    It must be a whole deal (each card once per deck), and every player must have as many cards
    left as the others.
    """
    assert record.deal is not None
    decks = record.variant.decks
    dealt: Counter[Card] = Counter()
    for cards in record.deal.values():
        dealt.update(cards)
    for card in DECK:
        if dealt[card] != decks:
            out.append(Finding("violation.dealt_count", {"card": card, "count": dealt[card],
                                                 "decks": decks}))  # fmt: skip
    sizes = {n: sum(h.values()) for n, h in position.hands.items()}
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{n} {k}" for n, k in sizes.items())
        out.append(Finding("violation.claim_uneven", {"sizes": shown}))


class Expected(NamedTuple):
    """Who may make the hand's first lead (首引), and with what."""

    leaders: tuple[str, ...]
    card: Card | None
    """The card the first lead must hold, if any."""
    why: str
    """``holder`` (every hand), ``first`` (a match's first hand, pig rule), ``pig`` (the
    pig's taker of the hand before) or ``rotation``."""


def expected_lead(record: TrickRecord, held: Mapping[str, Counter[Card]]) -> Expected | None:
    """Who leads the hand (rulings §10), or None if unknown.

    ``holder``: the opening card's holder, every hand. ``pig``: the same in a match's first
    hand, later the pig's taker of the hand before (known from a match, not from a lone record).
    ``rotation``: the seat of the hand's number (known when the record or the match says which
    hand it is). The opening card must be led where the rules say so.
    """
    rule, number, v = record.first_lead, record.hand_number, record.variant
    if rule == "rotation":
        if number is None:
            return None
        return Expected((rotation_leader(record.seats or record.players, number),), None, rule)
    if rule == "holder" or number == 1:
        holders = tuple(n for n in record.players if held[n][v.opening_card])
        card = v.opening_card if v.opening_card_must_be_played else None
        return Expected(holders, card, "holder" if rule == "holder" else "first")
    if record.leaders:
        return Expected(record.leaders, None, "pig")
    return None


def _check_first_lead(
    record: TrickRecord, lead: Play, held: Mapping[str, Counter[Card]], out: list[Finding]
) -> None:
    """Check the first lead: its leader, and its card if one is due."""
    expected = expected_lead(record, held)
    if expected is None:
        return
    card, why, number = record.variant.opening_card, expected.why, record.hand_number
    if lead.player not in expected.leaders:
        if why == "rotation":
            leader = expected.leaders[0]
            seat = (record.seats or record.players).index(leader) + 1
            out.append(
                Finding(
                    "violation.first_lead_rotation",
                    {"player": lead.player, "hand": number, "seat": seat, "leader": leader},
                )
            )
        elif why == "pig":
            out.append(
                Finding(
                    "violation.first_lead_pig",
                    {
                        "player": lead.player,
                        "leaders": Names(expected.leaders),
                        "hand": number,
                        "before": (number or 2) - 1,
                    },
                )
            )
        else:
            key = _HOLDER_LEADS[why]
            out.append(Finding(key, {"player": lead.player, "card": card,
                                     "holders": Names(expected.leaders)}))  # fmt: skip
    elif expected.card is not None and lead.cards and expected.card not in lead.cards:
        key = _CARD_LED[why]
        out.append(Finding(key, {"player": lead.player, "cards": Cards(lead.cards), "card": card}))


# The holder's rule broken, said as the rule says it: every hand, or a match's first hand.
_HOLDER_LEADS = {"holder": "violation.first_lead_holder_every",
                 "first": "violation.first_lead_holder"}  # fmt: skip
_CARD_LED = {"holder": "violation.first_lead_card_every", "first": "violation.first_lead_card"}


def _check_play(
    number: int, play: Play, position: Position, record: TrickRecord, out: list[Finding]
) -> None:
    """Check one play against the rules, from its position."""
    led = position.led
    if led is None:
        if lead_problem(play.cards):
            out.append(Finding("violation.lead_not_one_or_pair", {
                "trick": number, "lead": play.player, "cards": Cards(play.cards)}))  # fmt: skip
        suit = play.cards[0].suit
    else:
        suit = led[0].suit
        _check_follow(number, play, led, suit, position.hands[play.player], record, out)
    if suit not in position.suits_led:
        _check_exposed(number, play, led, suit, position, record, out)


def _check_follow(
    number: int,
    play: Play,
    led: tuple[Card, ...],
    suit: Suit,
    hand: Counter[Card],
    record: TrickRecord,
    out: list[Finding],
) -> None:
    """Follow suit when able; two decks: a pair follows a pair."""
    who = {"trick": number, "player": play.player, "cards": Cards(play.cards)}
    problem = follow_problem(play.cards, led, suit, hand)
    if problem == "count":
        out.append(
            Finding("violation.wrong_count", {**who, "count": len(play.cards), "led": len(led)})
        )
        return
    if problem == "revoke":
        card = lowest(hand - Counter(play.cards), suit)
        if record.deal is not None:
            out.append(Finding("violation.revoke", {**who, "suit": suit, "card": card}))
        else:
            later = _later(record, play.player, card, number)
            out.append(Finding("violation.revoke_later", {**who, "suit": suit, "card": card,
                                                  "later": later}))  # fmt: skip
        return
    if problem == "pair":
        pairs = sorted(
            (c for c, n in hand.items() if c.suit is suit and n >= 2), key=lambda c: c.rank
        )
        out.append(Finding("violation.pair_not_followed", {**who, "pair": pairs[0]}))


def _later(record: TrickRecord, player: str, card: Card, after: int) -> int:
    for number, (lead, plays) in enumerate(record.tricks, 1):
        if number > after:
            for name, cards in zip(seat_order(record.players, lead), plays, strict=True):
                if name == player and card in cards:
                    return number
    return after


def _check_exposed(
    number: int,
    play: Play,
    led: tuple[Card, ...] | None,
    suit: Suit,
    position: Position,
    record: TrickRecord,
    out: list[Finding],
) -> None:
    """An exposed card waits out its suit's first round, unless forced.

    It must be when the player has no other way to follow: their only card of the suit, or (two
    decks) a pair to be followed with a pair. 首明 cards are exempt. This holds per copy
    exposed, and for the card auto-exposure exposed too.
    """
    exposed = position.exposed[play.player]
    other = exposed_problem(play.cards, led, suit, position.hands[play.player], exposed)
    if other is not None:
        card = next(c for c in play.cards if c.suit is suit and exposed[c])
        listed = card in record.exposed.get(play.player, ())
        key = "violation.exposed_first_round" if listed else "violation.exposed_auto_first_round"
        out.append(Finding(key, {"trick": number, "player": play.player, "card": card,
                                 "suit": suit, "other": other}))  # fmt: skip


def _scoring(cards: Sequence[Card]) -> Cards:
    return Cards(sorted((c for c in cards if c in SCORING_CARDS), key=lambda c: c.sort_key))


def _disagreements(record: TrickRecord, captured: Mapping[str, tuple[Card, ...]]) -> list[Finding]:
    if record.captured is None:
        return []
    out = []
    for name in record.players:
        said, given = _scoring(record.captured.get(name, ())), _scoring(captured[name])
        if Counter(said) != Counter(given):
            out.append(Finding("violation.captured_disagrees", {"name": name, "said": said,
                                                        "given": given}))  # fmt: skip
    return out


# --- a record where a hand is wanted ------------------------------------------------------------


def hand_from_record(data: Mapping[str, object], in_force: InForce | None = None) -> HandSpec:
    """The hand a trick-by-trick record gives, its play judged.

    ``in_force`` is the command line's, or the match's; else the record's own. A record that
    breaks the rules of play is refused here, naming what it breaks; ``replay`` shows the whole
    story.
    """
    record = parse_record(data, in_force)
    played = replay(record)
    if played.violations:
        found = played.violations
        shown = Listed(found[:3], "semicolon")
        more = place("error.record.more", count=len(found) - 3) if len(found) > 3 else ""
        raise error(HandError, "error.record.breaks", shown=shown, more=more)
    return HandSpec(
        played.hand(), record.variant.name, record.teams, claimed_scores(data), played.first_pig()
    )
