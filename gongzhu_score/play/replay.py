"""Replaying a trick-by-trick record: check every play, derive the captures, then score.

A record (:class:`~gongzhu_score.io.records.TrickRecord`, the schema in docs/replay.md) gives
the players in seat order, the exposures, optionally the deal, and the tricks (two decks: every
card twice, plays of one or two cards), each with its leader and the cards in play order.
Replaying plays it out through the one state of play (:class:`~.state.Position`): the rules of
play (:mod:`.legal`) say which plays break a rule, the state says who won each trick, and so who
captured what. A record that breaks the rules is replayed anyway and its violations listed,
each a :class:`Finding` naming the trick, the player and the card (in English or Chinese, from
the one table of terms).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..core.cards import DECK, SCORING_CARDS, Card, Suit
from ..core.hand import Hand, PlayerHand
from ..errors import HandError
from ..io.fields import HandSpec
from ..io.records import TrickRecord, claimed_scores, parse_record
from ..terms import Both, Cards, Names, error, place, say
from .claims import ClaimDecision, RestClaim
from .legal import exposed_problem, follow_problem, lead_problem, lowest
from .state import Play, Position, Trick, rotation_leader, seat_order

__all__ = ["Finding", "Play", "Replay", "Trick", "hand_from_record", "replay"]


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule a record breaks (or a place where it disagrees with itself): the term that says
    it, and the values to fill in."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        return say(self.key, lang, **self.values)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class Replay:
    """The replayed hand: tricks with winners, each player's captures, what broke the rules."""

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
        """Is the record's claim guaranteed (rulings §11)? None without a claim, or when the
        tricks before it break a rule (there is no fair position to judge it from)."""
        if self.claim is None or self.position is None or self.violations:
            return None
        return self.claim.decide(self.position, self.record.variant.decks, budget)

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
    """What each player held: the deal, or else every card they went on to play."""
    if record.deal is not None:
        return {n: Counter(record.deal.get(n, ())) for n in record.players}
    held: dict[str, Counter[Card]] = {n: Counter() for n in record.players}
    for leader, plays in record.tricks:
        for name, cards in zip(seat_order(record.players, leader), plays, strict=True):
            held[name].update(cards)
    return held


def replay(record: TrickRecord) -> Replay:
    """Play the record out: winners, captures, and every rule it breaks. A claim that does not
    name what is left to play is an :class:`~gongzhu_score.errors.InputError`."""
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
    exposed = {n: Counter(record.exposed.get(n, ())) for n in players}
    position = Position(players, held, first_leader, frozenset(), exposed)
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
            if number == 1 and not position.trick and record.hand_number is not None:
                _check_first_lead(record, Play(player, cards), held, violations)
            _check_play(number, Play(player, cards), position, record, violations)
            position, done = position.play(cards)
        assert done is not None
        tricks.append(done)
    claim = None
    if record.claim is not None:
        if not record.tricks and record.hand_number is not None:  # the claim comes first
            _check_first_lead(record, Play(position.leader, ()), held, violations)
            position = replace(position, opening=_opening(record))
        _check_claim_hands(record, position, violations)
        claim = RestClaim.made(record.claim, position, record.variant.decks)
    captured = _captured(players, tricks, claim)
    return Replay(record, tuple(tricks), captured, tuple(violations),
                  tuple(_disagreements(record, captured)),
                  position if claim is not None else None, claim)  # fmt: skip


def _captured(
    players: Sequence[str], tricks: Sequence[Trick], claim: RestClaim | None
) -> dict[str, tuple[Card, ...]]:
    """Each player's captures: the tricks they won, then what the claim gives them."""
    won: dict[str, list[Card]] = {n: [] for n in players}
    for trick in tricks:
        assert trick.winner is not None
        for play in trick.plays:
            won[trick.winner].extend(play.cards)
    if claim is not None:  # the hand is scored as claimed
        for name in players:
            won[name].extend(claim.takes.get(name, ()))
    return {n: tuple(won[n]) for n in players}


def _opening(record: TrickRecord) -> Card | None:
    """The card the first lead must hold, when a claim is made before the first trick of a
    match whose rules say it is led (首引, rulings §10)."""
    if (
        record.hand_number == 1
        and first_lead_rule(record) == "pig"
        and record.variant.opening_card_must_be_played
    ):
        return record.variant.opening_card
    return None


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
    """A claim is judged from the deal: it must be a whole deal (each card as many times as
    there are decks), and every player must have as many cards left as the others."""
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


def first_lead_rule(record: TrickRecord) -> str:
    """The record's first-lead rule: its variant's, for the teams it says it played."""
    teams = record.teams if record.teams in ("none", "partners", "pig-sheep") else "none"
    return record.variant.first_lead_for(teams)


def _check_first_lead(
    record: TrickRecord, lead: Play, held: Mapping[str, Counter[Card]], out: list[Finding]
) -> None:
    """The first lead of the hand under the variant's rule (rulings §10): by rotation, the
    seat of the hand's number leads, any card; else in a match's first hand the holder of the
    opening card leads (it, if the rule says so). Later hands under the pig rule: not checked
    (the record does not say who took the pig before)."""
    number = record.hand_number
    assert number is not None
    if first_lead_rule(record) == "rotation":
        leader = rotation_leader(record.players, number)
        if lead.player != leader:
            out.append(Finding("violation.first_lead_rotation", {
                "player": lead.player, "hand": number, "seat": record.players.index(leader) + 1,
                "leader": leader}))  # fmt: skip
        return
    if number != 1:
        return
    card = record.variant.opening_card
    holders = [n for n, cards in held.items() if cards[card]]
    if lead.player not in holders:
        out.append(Finding("violation.first_lead_holder", {"player": lead.player, "card": card,
                                                   "holders": Names(holders)}))  # fmt: skip
    elif record.variant.opening_card_must_be_played and lead.cards and card not in lead.cards:
        out.append(Finding("violation.first_lead_card", {"player": lead.player, "cards": lead.text,
                                                 "card": card}))  # fmt: skip


def _check_play(
    number: int, play: Play, position: Position, record: TrickRecord, out: list[Finding]
) -> None:
    """One play against the rules of play, from the position it was made in."""
    led = position.led
    if led is None:
        if lead_problem(play.cards):
            out.append(Finding("violation.lead_not_one_or_pair", {
                "trick": number, "lead": play.player, "cards": play.text}))  # fmt: skip
        suit = play.cards[0].suit
    else:
        suit = led[0].suit
        _check_follow(number, play, led, suit, position.hands[play.player], record, out)
    if suit not in position.suits_led:
        _check_exposed(number, play, led, suit, position.hands[play.player], record, out)


def _check_follow(
    number: int,
    play: Play,
    led: tuple[Card, ...],
    suit: Suit,
    hand: Counter[Card],
    record: TrickRecord,
    out: list[Finding],
) -> None:
    """Follow suit when able (two decks: follow a pair with a pair when holding one)."""
    who = {"trick": number, "player": play.player, "cards": play.text}
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
    hand: Counter[Card],
    record: TrickRecord,
    out: list[Finding],
) -> None:
    """On a suit's first round an exposed card is not played, unless the player has no other
    way to follow (their only card of the suit; two decks: a pair to be followed with a pair;
    首明 cards exempt; per copy exposed)."""
    exposed = Counter(record.exposed.get(play.player, ()))
    other = exposed_problem(play.cards, led, suit, hand, exposed)
    if other is not None:
        card = next(c for c in play.cards if c.suit is suit and exposed[c])
        out.append(Finding("violation.exposed_first_round", {
            "trick": number, "player": play.player, "card": card, "suit": suit,
            "other": other}))  # fmt: skip


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


def hand_from_record(data: Mapping[str, object]) -> HandSpec:
    """The hand a trick-by-trick record gives.

    A record that breaks the rules of play is refused here, naming what it breaks; ``replay``
    shows the whole story.
    """
    record = parse_record(data)
    played = replay(record)
    if played.violations:
        found = played.violations
        shown = Both(("; ".join(v.text("en") for v in found[:3]),
                      "；".join(v.text("zh") for v in found[:3])))  # fmt: skip
        more = place("error.record.more", count=len(found) - 3) if len(found) > 3 else ""
        raise error(HandError, "error.record.breaks", shown=shown, more=more)
    return HandSpec(played.hand(), record.variant.name, record.teams, claimed_scores(data))
