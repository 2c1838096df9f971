"""Replaying a trick-by-trick record: check every play, derive the captures, then score.

A record (the YAML schema in README, "Replaying a hand") gives the players in seat order, the
exposures, optionally the deal, and the 13 tricks (two decks: every card twice, plays of one or
two cards), each with its leader and the cards in play order. Replaying checks the rules of
play (RULINGS §1, the seeds' 出牌规则), works out who won each trick, and so who captured what.

Reading a record's data is :mod:`gongzhu_score.io.records`' job; here a :class:`Record` is
played out. A record that breaks the rules is replayed anyway and its violations listed, each a
:class:`Finding` naming the trick, the player and the card (in English or Chinese, from the one
table of terms).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..core.cards import DECK, SCORING_CARDS, Card, Suit
from ..core.hand import Hand, PlayerHand
from ..core.variant import Variant
from ..terms import Cards, Names, say
from .claims import POSITION_BUDGET, ClaimDecision, Position, decide
from .rules import exposed_problem, follow_problem, lead_problem, lowest
from .rules import winner as winning

__all__ = ["Finding", "Play", "Record", "Replay", "RestClaim", "Trick", "replay"]


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
class Play:
    """What one player put on a trick: one card, or (two decks) two."""

    player: str
    cards: tuple[Card, ...]

    @property
    def text(self) -> str:
        return " ".join(c.symbol for c in self.cards)


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick (一圈): its number, its plays in order (the leader's first) and its winner."""

    number: int
    plays: tuple[Play, ...]
    winner: str

    @property
    def lead(self) -> str:
        return self.plays[0].player


@dataclass(frozen=True, slots=True)
class RestClaim:
    """A claim of the remaining tricks (声称, RULINGS §11): the claimer shows their cards and
    says who takes each scoring card still to be played."""

    by: str
    takes: Mapping[str, tuple[Card, ...]]
    """Every remaining scoring card (each copy once) under its taker; ``takes: all`` in a
    record is read as all of them to the claimer."""
    line: tuple[Card, ...] | None = None
    """The cards the claimer will play, in order, if they said."""
    lead: str | None = None
    """Who leads next, when the record has no tricks before the claim (else: the last trick's
    winner)."""


@dataclass(frozen=True, slots=True)
class Record:
    """A trick-by-trick record as read (structure checked; the rules of play not yet)."""

    players: tuple[str, ...]
    variant: Variant
    exposed: Mapping[str, tuple[Card, ...]]
    first_exposed: Mapping[str, tuple[Card, ...]]
    hand_number: int | None
    """Which hand of the match this is (1: the first), if the record says: the first lead is
    checked under the variant's rule (首引, RULINGS §10) only then."""
    deal: Mapping[str, tuple[Card, ...]] | None
    tricks: tuple[tuple[str, tuple[tuple[Card, ...], ...]], ...]
    """(leader, plays in order) per trick."""
    captured: Mapping[str, tuple[Card, ...]] | None
    teams: str | None = None
    claim: RestClaim | None = None
    """The hand stopped early with a claim of the remaining tricks (needs the deal)."""


@dataclass(frozen=True, slots=True)
class Replay:
    """The replayed hand: tricks with winners, each player's captures, what broke the rules."""

    record: Record
    tricks: tuple[Trick, ...]
    captured: Mapping[str, tuple[Card, ...]]
    violations: tuple[Finding, ...]
    disagreements: tuple[Finding, ...]
    """Where the record's own ``captured:`` differs from what the tricks give."""
    position: Position | None = None
    """With a claim: every hand, the leader and the suits led when the claim was made."""

    def decide_claim(self, budget: int | None = None) -> ClaimDecision | None:
        """Is the record's claim guaranteed (RULINGS §11)? None without a claim, or when the
        tricks before it break a rule (there is no fair position to judge it from)."""
        claim = self.record.claim
        if claim is None or self.position is None or self.violations:
            return None
        return decide(self.position, claim.by, claim.takes, claim.line,
                      decks=self.record.variant.decks,
                      budget=POSITION_BUDGET if budget is None else budget)  # fmt: skip

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


def _order(players: Sequence[str], lead: str) -> list[str]:
    start = players.index(lead)
    return [players[(start + k) % 4] for k in range(4)]


def replay(record: Record) -> Replay:
    """Play the record out: winners, captures, and every rule it breaks."""
    players = record.players
    violations: list[Finding] = []
    # What each player held: the deal, or else every card they went on to play.
    played: dict[str, list[Card]] = {n: [] for n in players}
    for leader, trick_cards in record.tricks:
        for name, cards in zip(_order(players, leader), trick_cards, strict=True):
            played[name].extend(cards)
    held = {n: Counter(record.deal[n] if record.deal else played[n]) for n in players}
    _check_deal(record, played, violations)
    _check_cards(record, violations)
    for name in players:
        for card in (*record.exposed.get(name, ()), *record.first_exposed.get(name, ())):
            if not held[name][card]:
                violations.append(Finding("v.exposed_not_held", {"name": name, "card": card}))

    remaining = {n: Counter(held[n]) for n in players}
    first_round_done: set[Suit] = set()
    tricks: list[Trick] = []
    captured: dict[str, list[Card]] = {n: [] for n in players}
    previous: str | None = None
    for number, (lead, trick_cards) in enumerate(record.tricks, 1):
        order = _order(players, lead)
        plays = tuple(Play(n, c) for n, c in zip(order, trick_cards, strict=True))
        if previous is not None and lead != previous:
            values = {"trick": number, "lead": lead, "previous": previous, "before": number - 1}
            violations.append(Finding("v.led_out_of_turn", values))
        if number == 1 and record.hand_number is not None:
            _check_first_lead(record, plays[0], held, violations)
        led = plays[0].cards
        suit = led[0].suit
        if lead_problem(led):
            violations.append(Finding("v.lead_not_one_or_pair", {
                "trick": number, "lead": lead, "cards": plays[0].text}))  # fmt: skip
        for k, play in enumerate(plays):
            if k:
                _check_follow(number, play, led, suit, remaining[play.player], record, violations)
            _check_exposed(number, play, led if k else None, suit, suit not in first_round_done,
                           remaining, record, violations)  # fmt: skip
            remaining[play.player] -= Counter(play.cards)
        first_round_done.add(suit)
        winner = plays[winning([p.cards for p in plays], suit)].player
        for play in plays:
            captured[winner].extend(play.cards)
        tricks.append(Trick(number, plays, winner))
        previous = winner
    position = None
    if record.claim is not None:
        claim = record.claim
        next_lead = previous if previous is not None else claim.lead
        assert next_lead is not None  # (the reader asks for a lead when no trick was played)
        exposed = {n: Counter(record.exposed.get(n, ())) for n in players}
        opening = None
        if not record.tricks and record.hand_number is not None:  # the claim comes first
            _check_first_lead(record, Play(next_lead, ()), held, violations)
            if (
                record.hand_number == 1
                and first_lead_rule(record) == "pig"
                and (record.variant.opening_card_must_be_played)
            ):
                opening = record.variant.opening_card
        position = Position(players, remaining, next_lead, frozenset(first_round_done), exposed,
                            opening)  # fmt: skip
        _check_claim_hands(record, remaining, violations)
        for name in players:  # the hand is scored as claimed
            captured[name].extend(claim.takes.get(name, ()))
    result_captured = {n: tuple(captured[n]) for n in players}
    disagreements = _disagreements(record, result_captured)
    return Replay(record, tuple(tricks), result_captured, tuple(violations), tuple(disagreements),
                  position)  # fmt: skip


def _check_deal(record: Record, played: Mapping[str, list[Card]], out: list[Finding]) -> None:
    if record.deal is None:
        return
    size = 13 * record.variant.decks
    for name in record.players:
        dealt = Counter(record.deal.get(name, ()))
        count = sum(dealt.values())
        if count != size:
            out.append(Finding("v.deal_count", {"name": name, "count": count, "size": size}))
        # (a card played twice is reported once, as played twice, by _check_cards)
        for card in sorted(set(played[name]) - set(dealt), key=lambda c: c.sort_key):
            out.append(Finding("v.not_dealt", {"name": name, "card": card}))


def _check_cards(record: Record, out: list[Finding]) -> None:
    decks = record.variant.decks
    seen: Counter[Card] = Counter()
    for _, trick_cards in record.tricks:
        for cards in trick_cards:
            seen.update(cards)
    for card, count in sorted(seen.items(), key=lambda kv: kv[0].sort_key):
        if count > decks:
            out.append(Finding(f"v.played_too_often.{decks}", {"card": card, "count": count}))
    missing = [c for c in DECK for _ in range(decks - min(seen[c], decks))]
    if missing and record.claim is None:  # (with a claim, the rest stays in the hands)
        out.append(Finding("v.never_played", {"cards": Cards(missing)}))


def _check_claim_hands(
    record: Record, remaining: Mapping[str, Counter[Card]], out: list[Finding]
) -> None:
    """A claim is judged from the deal: it must be a whole deal (each card as many times as
    there are decks), and every player must have as many cards left as the others."""
    assert record.deal is not None
    decks = record.variant.decks
    dealt: Counter[Card] = Counter()
    for cards in record.deal.values():
        dealt.update(cards)
    for card in DECK:
        if dealt[card] != decks:
            out.append(Finding("v.dealt_count", {"card": card, "count": dealt[card],
                                                 "decks": decks}))  # fmt: skip
    sizes = {n: sum(h.values()) for n, h in remaining.items()}
    if len(set(sizes.values())) > 1:
        shown = ", ".join(f"{n} {k}" for n, k in sizes.items())
        out.append(Finding("v.claim_uneven", {"sizes": shown}))


def first_lead_rule(record: Record) -> str:
    """The record's first-lead rule: its variant's, for the teams it says it played."""
    teams = record.teams if record.teams in ("none", "partners", "pig-sheep") else "none"
    return record.variant.first_lead_for(teams)


def _check_first_lead(
    record: Record, lead: Play, held: Mapping[str, Counter[Card]], out: list[Finding]
) -> None:
    """The first lead of the hand under the variant's rule (RULINGS §10): by rotation, the
    seat of the hand's number leads, any card; else in a match's first hand the holder of the
    opening card leads (it, if the rule says so). Later hands under the pig rule: not checked
    (the record does not say who took the pig before)."""
    number = record.hand_number
    assert number is not None
    if first_lead_rule(record) == "rotation":
        seat = (number - 1) % 4
        if lead.player != record.players[seat]:
            out.append(Finding("v.first_lead_rotation", {
                "player": lead.player, "hand": number, "seat": seat + 1,
                "leader": record.players[seat]}))  # fmt: skip
        return
    if number != 1:
        return
    card = record.variant.opening_card
    holders = [n for n, cards in held.items() if cards[card]]
    if lead.player not in holders:
        out.append(Finding("v.first_lead_holder", {"player": lead.player, "card": card,
                                                   "holders": Names(holders)}))  # fmt: skip
    elif record.variant.opening_card_must_be_played and lead.cards and card not in lead.cards:
        out.append(Finding("v.first_lead_card", {"player": lead.player, "cards": lead.text,
                                                 "card": card}))  # fmt: skip


def _check_follow(
    number: int,
    play: Play,
    led: tuple[Card, ...],
    suit: Suit,
    hand: Counter[Card],
    record: Record,
    out: list[Finding],
) -> None:
    """Follow suit when able (two decks: follow a pair with a pair when holding one)."""
    who = {"trick": number, "player": play.player, "cards": play.text}
    problem = follow_problem(play.cards, led, suit, hand)
    if problem == "count":
        out.append(Finding("v.wrong_count", {**who, "count": len(play.cards), "led": len(led)}))
        return
    if problem == "revoke":
        card = lowest(hand - Counter(play.cards), suit)
        if record.deal is not None:
            out.append(Finding("v.revoke", {**who, "suit": suit, "card": card}))
        else:
            later = _later(record, play.player, card, number)
            out.append(Finding("v.revoke_later", {**who, "suit": suit, "card": card,
                                                  "later": later}))  # fmt: skip
        return
    if problem == "pair":
        pairs = sorted(
            (c for c, n in hand.items() if c.suit is suit and n >= 2), key=lambda c: c.rank
        )
        out.append(Finding("v.pair_not_followed", {**who, "pair": pairs[0]}))


def _later(record: Record, player: str, card: Card, after: int) -> int:
    for number, (lead, plays) in enumerate(record.tricks, 1):
        if number > after:
            for name, cards in zip(_order(record.players, lead), plays, strict=True):
                if name == player and card in cards:
                    return number
    return after


def _check_exposed(
    number: int,
    play: Play,
    led: tuple[Card, ...] | None,
    suit: Suit,
    first_round: bool,
    remaining: Mapping[str, Counter[Card]],
    record: Record,
    out: list[Finding],
) -> None:
    """An exposed card is not played the first time its suit is led, unless the player has no
    other way to follow (their only card of the suit; two decks: a pair to be followed with a
    pair; 首明 cards exempt; per copy exposed)."""
    if not first_round:
        return
    exposed = Counter(record.exposed.get(play.player, ()))
    other = exposed_problem(play.cards, led, suit, remaining[play.player], exposed)
    if other is not None:
        card = next(c for c in play.cards if c.suit is suit and exposed[c])
        out.append(Finding("v.exposed_first_round", {
            "trick": number, "player": play.player, "card": card, "suit": suit,
            "other": other}))  # fmt: skip


def _scoring(cards: Sequence[Card]) -> Cards:
    return Cards(sorted((c for c in cards if c in SCORING_CARDS), key=lambda c: c.sort_key))


def _disagreements(record: Record, captured: Mapping[str, tuple[Card, ...]]) -> list[Finding]:
    if record.captured is None:
        return []
    out = []
    for name in record.players:
        said, given = _scoring(record.captured.get(name, ())), _scoring(captured[name])
        if Counter(said) != Counter(given):
            out.append(Finding("v.captured_disagrees", {"name": name, "said": said,
                                                        "given": given}))  # fmt: skip
    return out
