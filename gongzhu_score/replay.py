"""Replaying a trick-by-trick record: check every play, derive the captures, then score.

A record (the YAML schema in README, "Replaying a hand") gives the players in seat order, the
exposures, optionally the deal, and the 13 tricks (two decks: every card twice, plays of one or
two cards), each with its leader and the cards in play order. Replaying checks the rules of
play (RULINGS §1, the seeds' 出牌规则), works out who won each trick, and so who captured what.

A record that cannot be read (an unknown player, a bad card, a trick of three plays) raises
:class:`InputError`; a record that can be read but breaks the rules is replayed anyway and its
violations listed, each naming the trick, the player and the card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import DECK, SCORING_CARDS, Card, Suit
from .errors import InputError
from .hand import Hand, PlayerHand
from .handfile import cards_field
from .rules import Variant, find_variant

__all__ = ["Play", "Record", "Replay", "Trick", "parse_record", "replay"]

_KEYS = ("variant", "teams", "players", "exposed", "first_exposed", "first_hand", "deal",
         "tricks", "captured", "claimed")  # fmt: skip
TWO_CLUBS = Card(2, Suit.CLUBS)
Said = tuple[str, str]
"""A finding, in English and in Chinese."""
_SUIT_WORD = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.DIAMONDS: "diamonds",
              Suit.CLUBS: "clubs"}  # fmt: skip


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
class Record:
    """A trick-by-trick record as read (structure checked; the rules of play not yet)."""

    players: tuple[str, ...]
    variant: Variant
    exposed: Mapping[str, tuple[Card, ...]]
    first_exposed: Mapping[str, tuple[Card, ...]]
    first_hand: bool
    deal: Mapping[str, tuple[Card, ...]] | None
    tricks: tuple[tuple[str, tuple[tuple[Card, ...], ...]], ...]
    """(leader, plays in order) per trick."""
    captured: Mapping[str, tuple[Card, ...]] | None
    teams: str | None = None


@dataclass(frozen=True, slots=True)
class Replay:
    """The replayed hand: tricks with winners, each player's captures, what broke the rules."""

    record: Record
    tricks: tuple[Trick, ...]
    captured: Mapping[str, tuple[Card, ...]]
    violations: tuple[str, ...]
    disagreements: tuple[str, ...]
    """Where the record's own ``captured:`` differs from what the tricks give."""
    violations_zh: tuple[str, ...] = ()
    disagreements_zh: tuple[str, ...] = ()

    def hand(self) -> Hand:
        """The hand the tricks give, ready to score."""
        r = self.record
        return Hand(
            tuple(
                PlayerHand(n, self.captured[n], r.exposed.get(n, ()), r.first_exposed.get(n, ()))
                for n in r.players
            )
        )


# --- reading -----------------------------------------------------------------------------------


def _by_player(value: object, players: Sequence[str], key: str) -> dict[str, tuple[Card, ...]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputError(f"{key}: expected a mapping of player to cards")
    out = {}
    for name, cards in value.items():
        if name not in players:
            raise InputError(f"{key}: no player named {name!r} (players: {', '.join(players)})")
        out[name] = cards_field(cards, f"{key}: {name}")
    return out


def parse_record(data: object) -> Record:
    """Read a record's data (YAML with scalars kept as text, or JSON); InputError if unreadable."""
    if not isinstance(data, Mapping):
        raise InputError("a record is a mapping with players and tricks")
    for key in data:
        if key not in _KEYS:
            raise InputError(f"unknown key {key!r} in a record (allowed: {', '.join(_KEYS)})")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(n, str) and n.strip() for n in players):
        raise InputError("players: a list of the four names in seat order")
    names = tuple(n.strip() for n in players)
    if len(names) != 4 or len(set(names)) != 4:
        raise InputError(f"players: four different names, not {', '.join(names)}")
    variant = find_variant(str(data.get("variant") or "classic"))
    first_hand = data.get("first_hand", False)
    if isinstance(first_hand, str):
        first_hand = first_hand.strip().lower() in ("true", "yes", "on")
    deal = data.get("deal")
    tricks_data = data.get("tricks")
    if not isinstance(tricks_data, list) or not tricks_data:
        raise InputError("tricks: a list of tricks, each {lead: NAME, cards: [...]}")
    tricks = []
    for number, trick in enumerate(tricks_data, 1):
        where = f"trick {number}"
        if not isinstance(trick, Mapping) or set(trick) - {"lead", "cards"}:
            raise InputError(f"{where}: expected {{lead: NAME, cards: [...]}}, not {trick!r}")
        lead = trick.get("lead")
        if lead not in names:
            raise InputError(f"{where}: lead {lead!r} is not a player ({', '.join(names)})")
        plays = trick.get("cards")
        if not isinstance(plays, list) or len(plays) != 4:
            raise InputError(f"{where}: cards: the four plays in order, from the leader")
        parsed = tuple(cards_field(p, f"{where}: play {k}") for k, p in enumerate(plays, 1))
        if any(not 1 <= len(p) <= variant.decks for p in parsed):
            raise InputError(f"{where}: each play is one card (two decks: one or two)")
        tricks.append((str(lead), parsed))
    return Record(
        names,
        variant,
        _by_player(data.get("exposed"), names, "exposed"),
        _by_player(data.get("first_exposed"), names, "first_exposed"),
        bool(first_hand),
        None if deal is None else _by_player(deal, names, "deal"),
        tuple(tricks),
        None if data.get("captured") is None else _by_player(data["captured"], names, "captured"),
        data.get("teams") if isinstance(data.get("teams"), str) else None,
    )


# --- playing it out ----------------------------------------------------------------------------


def _order(players: Sequence[str], lead: str) -> list[str]:
    start = players.index(lead)
    return [players[(start + k) % 4] for k in range(4)]


def _winner(plays: Sequence[Play], suit: Suit, decks: int) -> int:
    """Index of the winning play: the highest card of the suit led (RULINGS: 出牌规则).

    Two decks, a pair led: in diamonds a pair beats two single diamonds; in the other suits two
    singles beat a pair; either beats a play with a card of another suit (a discard). Between
    equal plays the first one played wins.
    """

    def strength(play: Play) -> tuple[int, ...]:
        cards = play.cards
        if any(c.suit is not suit for c in cards):
            return (-1,)  # a discard never wins
        ranks = sorted((c.rank for c in cards), reverse=True)
        if len(cards) == 1:
            return (0, *ranks)
        pair = ranks[0] == ranks[1]
        kind = (2 if pair else 1) if suit is Suit.DIAMONDS else (1 if pair else 2)
        return (kind, *ranks)

    best = 0
    for k in range(1, len(plays)):
        if strength(plays[k]) > strength(plays[best]):  # ties: the first played keeps it
            best = k
    return best


def replay(record: Record) -> Replay:
    """Play the record out: winners, captures, and every rule it breaks."""
    players, decks = record.players, record.variant.decks
    violations: list[Said] = []
    # What each player held: the deal, or else every card they went on to play.
    played: dict[str, list[Card]] = {n: [] for n in players}
    for leader, trick_cards in record.tricks:
        for name, cards in zip(_order(players, leader), trick_cards, strict=True):
            played[name].extend(cards)
    held = {n: Counter(record.deal[n] if record.deal else played[n]) for n in players}
    _check_deal(record, played, violations)
    _check_cards(record, played, violations)
    for name in players:
        for card in (*record.exposed.get(name, ()), *record.first_exposed.get(name, ())):
            if not held[name][card]:
                violations.append(
                    (
                        f"{name} exposed {card} but did not hold it",
                        f"{name}亮了{card}，但手里没有这张牌",
                    )
                )

    remaining = {n: Counter(held[n]) for n in players}
    first_round_done: set[Suit] = set()
    tricks: list[Trick] = []
    captured: dict[str, list[Card]] = {n: [] for n in players}
    previous: str | None = None
    for number, (lead, trick_cards) in enumerate(record.tricks, 1):
        order = _order(players, lead)
        plays = tuple(Play(n, c) for n, c in zip(order, trick_cards, strict=True))
        if previous is not None and lead != previous:
            violations.append(
                (
                    f"trick {number}: {lead} led, but {previous} won trick {number - 1}",
                    f"第{number}圈：{lead}首出，但上一圈是{previous}赢的",
                )
            )
        if number == 1 and record.first_hand:
            _check_first_lead(plays[0], held, violations)
        led = plays[0].cards
        suit = led[0].suit
        if len(led) == 2 and led[0] != led[1]:
            violations.append(
                (
                    f"trick {number}: {lead} led {plays[0].text}; a lead is one card or a pair",
                    f"第{number}圈：{lead}首出{plays[0].text}；首出只能是一张或一对",
                )
            )
        for k, play in enumerate(plays):
            if k:
                _check_follow(number, play, led, suit, remaining[play.player], record, violations)
            _check_exposed(number, play, suit, suit not in first_round_done, remaining, record,
                           violations)  # fmt: skip
            remaining[play.player] -= Counter(play.cards)
        first_round_done.add(suit)
        winner = plays[_winner(plays, suit, decks)].player
        for play in plays:
            captured[winner].extend(play.cards)
        tricks.append(Trick(number, plays, winner))
        previous = winner
    result_captured = {n: tuple(captured[n]) for n in players}
    disagreements = _disagreements(record, result_captured)
    return Replay(
        record,
        tuple(tricks),
        result_captured,
        tuple(en for en, _ in violations),
        tuple(en for en, _ in disagreements),
        tuple(zh for _, zh in violations),
        tuple(zh for _, zh in disagreements),
    )


def _check_deal(record: Record, played: Mapping[str, list[Card]], out: list[Said]) -> None:
    if record.deal is None:
        return
    size = 13 * record.variant.decks
    for name in record.players:
        dealt = Counter(record.deal.get(name, ()))
        if sum(dealt.values()) != size:
            count = sum(dealt.values())
            out.append(
                (
                    f"deal: {name} holds {count} cards, not {size}",
                    f"发牌：{name}有{count}张牌，不是{size}张",
                )
            )
        # (a card played twice is reported once, as played twice, by _check_cards)
        for card in sorted(set(played[name]) - set(dealt), key=lambda c: c.sort_key):
            out.append(
                (
                    f"{name} played {card}, which was not dealt to {name}",
                    f"{name}出了{card}，但发给{name}的牌里没有",
                )
            )


def _check_cards(record: Record, played: Mapping[str, list[Card]], out: list[Said]) -> None:
    decks = record.variant.decks
    seen: Counter[Card] = Counter()
    for _, trick_cards in record.tricks:
        for cards in trick_cards:
            seen.update(cards)
    for card, count in sorted(seen.items(), key=lambda kv: kv[0].sort_key):
        if count > decks:
            holds = "a deck holds one" if decks == 1 else "two decks hold two"
            holds_zh = "一副牌只有一张" if decks == 1 else "两副牌只有两张"
            out.append(
                (f"{card} is played {count} times; {holds}", f"{card}出了{count}次；{holds_zh}")
            )
    missing = [c for c in DECK for _ in range(decks - min(seen[c], decks))]
    if missing:
        shown = " ".join(c.symbol for c in missing)
        out.append((f"cards never played: {shown}", f"没有出过的牌：{shown}"))


def _check_first_lead(lead: Play, held: Mapping[str, Counter[Card]], out: list[Said]) -> None:
    holders = [n for n, cards in held.items() if cards[TWO_CLUBS]]
    if lead.player not in holders:
        out.append(
            (
                f"trick 1: {lead.player} led, but {' and '.join(holders) or 'nobody'} held 2♣ "
                "(in the first hand the holder of 2♣ leads it)",
                f"第1圈：{lead.player}首出，但梅花2在{'、'.join(holders) or '无人'}手里"
                "（第一局由持梅花2者首出）",
            )
        )
    elif TWO_CLUBS not in lead.cards:
        out.append(
            (
                f"trick 1: {lead.player} led {lead.text}, not 2♣ (the first hand opens with 2♣)",
                f"第1圈：{lead.player}首出{lead.text}，不是梅花2（第一局先出梅花2）",
            )
        )


def _lowest(cards: Counter[Card], suit: Suit) -> Card:
    return min((c for c in cards.elements() if c.suit is suit), key=lambda c: c.rank)


def _check_follow(
    number: int,
    play: Play,
    led: tuple[Card, ...],
    suit: Suit,
    hand: Counter[Card],
    record: Record,
    out: list[Said],
) -> None:
    """Follow suit when able (two decks: follow a pair with a pair when holding one)."""
    if len(play.cards) != len(led):
        out.append(
            (
                f"trick {number}: {play.player} played {len(play.cards)} card(s) on a lead of "
                f"{len(led)}",
                f"第{number}圈：{play.player}出了{len(play.cards)}张，首家出了{len(led)}张",
            )
        )
        return
    in_suit = sum(c.suit is suit for c in play.cards)
    held = sum(n for c, n in hand.items() if c.suit is suit)
    if in_suit < min(len(play.cards), held):
        card = _lowest(hand - Counter(play.cards), suit)
        word = _SUIT_WORD[suit]
        if record.deal is not None:
            out.append(
                (
                    f"trick {number}: {play.player} played {play.text} on a {word} lead while "
                    f"holding {card}",
                    f"第{number}圈：{suit.zh}领出，{play.player}手里有{card}却出了{play.text}"
                    "（有该花色必须跟）",
                )
            )
        else:
            later = _later(record, play.player, card, number)
            out.append(
                (
                    f"trick {number}: {play.player} showed out of {word} ({play.text}) but "
                    f"played {card} in trick {later}",
                    f"第{number}圈：{play.player}在{suit.zh}领出时垫了{play.text}，"
                    f"却在第{later}圈出了{card}",
                )
            )
        return
    if len(led) == 2 and led[0] == led[1] and play.cards[0] != play.cards[1]:
        pairs = sorted(
            (c for c, n in hand.items() if c.suit is suit and n >= 2), key=lambda c: c.rank
        )
        if pairs:
            out.append(
                (
                    f"trick {number}: {play.player} played {play.text} on a pair lead while "
                    f"holding the pair {pairs[0]} {pairs[0]}",
                    f"第{number}圈：首家出对，{play.player}手里有对子{pairs[0]} {pairs[0]}"
                    f"却出了{play.text}",
                )
            )


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
    suit: Suit,
    first_round: bool,
    remaining: Mapping[str, Counter[Card]],
    record: Record,
    out: list[Said],
) -> None:
    """An exposed card is not played the first time its suit is led, unless it is the player's
    only card of the suit then (首明 cards exempt; two decks: per copy exposed)."""
    if not first_round:
        return
    hand = remaining[play.player]
    exposed = Counter(c for c in record.exposed.get(play.player, ()) if c.suit is suit)
    for card, copies in exposed.items():
        locked = min(copies, hand[card])  # exposed copies still in hand
        if play.cards.count(card) > hand[card] - locked:  # an exposed copy was played
            others = hand.copy()
            others[card] -= locked
            others = +others
            if any(c.suit is suit for c in others):
                word = _SUIT_WORD[suit]
                other = _lowest(others, suit)
                out.append(
                    (
                        f"trick {number}: {play.player} played the exposed {card} the first time "
                        f"{word} were led, while holding {other}",
                        f"第{number}圈：{suit.zh}首轮，{play.player}出了亮过的{card}，"
                        f"而手里还有{other}",
                    )
                )


def _show(cards: Counter[Card], nothing: str = "nothing") -> str:
    return " ".join(c.symbol for c in sorted(cards.elements(), key=lambda c: c.sort_key)) or nothing


def _disagreements(record: Record, captured: Mapping[str, tuple[Card, ...]]) -> list[Said]:
    if record.captured is None:
        return []
    out = []
    for name in record.players:
        said = Counter(c for c in record.captured.get(name, ()) if c in SCORING_CARDS)
        given = Counter(c for c in captured[name] if c in SCORING_CARDS)
        if said != given:
            out.append(
                (
                    f"captured: the record gives {name} {_show(said)}; the tricks give "
                    f"{_show(given)}",
                    f"收分：记录里{name}收了{_show(said, '无')}；按出牌应为{_show(given, '无')}",
                )
            )
    return out
