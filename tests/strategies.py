"""Hypothesis strategies: random legal one-deck hands, and random spellings of cards."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from gongzhu_score import (
    DECK,
    PIG,
    SCORING_CARDS,
    SHEEP,
    SPECIAL_CARDS,
    TRANSFORMER,
    VARIANTS,
    Card,
    RulesError,
    Variant,
)
from gongzhu_score.core.variant import RANKS

NAMES = st.lists(
    st.text(alphabet="东南西北ABCDxyz甲乙", min_size=1, max_size=3),
    min_size=4,
    max_size=4,
    unique=True,
)


@dataclass
class RandomHand:
    """Plain inputs for score_hand: captured in seat order, exposures by name."""

    variant: str
    names: list[str]
    captured: dict[str, list[Card]]
    exposed: dict[str, list[Card]] = field(default_factory=dict)
    first_exposed: dict[str, list[Card]] = field(default_factory=dict)

    def kwargs(self) -> dict[str, object]:
        return {
            "exposed": self.exposed,
            "first_exposed": self.first_exposed,
            "variant": self.variant,
        }


@st.composite
def legal_hands(
    draw: st.DrawFn, variants: tuple[str, ...] = tuple(VARIANTS), exposures: bool = True
) -> RandomHand:
    variant = draw(st.sampled_from(variants))
    decks = VARIANTS[variant].decks
    names = draw(NAMES)
    captured: dict[str, list[Card]] = {n: [] for n in names}
    for card in DECK:
        for _ in range(decks):
            # every scoring card goes to someone; a non-scoring card may be listed or not
            seats = st.integers(0, 3) if card in SCORING_CARDS else st.integers(-1, 3)
            seat = draw(seats)
            if seat >= 0:
                captured[names[seat]].append(card)
    for name in names:
        captured[name] = draw(st.permutations(captured[name]))
    hand = RandomHand(variant, names, captured)
    if exposures:
        add_exposures(draw, hand)
    return hand


def add_exposures(draw: st.DrawFn, hand: RandomHand) -> None:
    """Random legal exposures: each special card up to once per deck, 首明 where allowed."""
    rules = VARIANTS[hand.variant]
    kinds = ["exposed", "first"] if rules.first_exposure_allowed else ["exposed"]
    for card in SPECIAL_CARDS:
        for _ in range(draw(st.integers(0, rules.decks))):
            kind = draw(st.sampled_from(kinds))
            who = hand.names[draw(st.integers(0, 3))]
            shown = [c for cards in hand.exposed.values() for c in cards]
            if kind == "first" and not hand.first_exposed.get(who) and card not in shown:
                if card not in _firsts(hand):
                    hand.first_exposed[who] = [card]
                continue
            if card not in _firsts(hand):
                hand.exposed.setdefault(who, []).append(card)


def _firsts(hand: RandomHand) -> list[Card]:
    return [c for cards in hand.first_exposed.values() for c in cards]


def _wide(text: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in text)


def spellings(card: Card) -> list[str]:
    """Every way the notation accepts to write ``card`` as one token."""
    ranks = [card.rank_name] + (["T"] if card.rank == 10 else [])
    out: list[str] = []
    for rank in ranks:
        for suit in (card.suit.value, card.suit.value.lower(), card.suit.symbol):
            out += [rank + suit, suit + rank, (rank + suit).lower()]
        out += [
            card.suit.zh + rank,
            _wide(rank + card.suit.value),
            card.suit.symbol + "\ufe0f" + rank,
        ]
    out += {
        PIG: ["pig", "Pig", "猪", "豬"],
        SHEEP: ["sheep", "goat", "羊"],
        TRANSFORMER: ["transformer", "变压器", "變壓器"],
    }.get(card, [])
    return out


def play_random_hand(
    rng: random.Random,
    names: list[str],
    *,
    first_hand: bool = False,
    expose: bool = True,
    leader: str | None = None,
    holder_of: Card | None = None,
    leads_it: bool = True,
) -> tuple[dict[str, object], dict[str, list[Card]]]:
    """A legal one-deck hand played by random players: the record and who captured what.

    Each player plays a random legal card: 2♣ opens the first hand (else ``leader`` leads, or
    the holder of ``holder_of``, leading that card if ``leads_it``), suit is followed when
    possible, and an exposed card (the fourth special card too, once three are exposed) waits
    for the second round of its suit unless it is the player's last card of that suit.
    """
    cards = list(DECK)
    rng.shuffle(cards)
    hands = {n: cards[13 * k : 13 * (k + 1)] for k, n in enumerate(names)}
    exposed: dict[str, list[Card]] = {}
    if expose:
        for card in SPECIAL_CARDS:
            if rng.random() < 0.3:
                owner = next(n for n in names if card in hands[n])
                exposed.setdefault(owner, []).append(card)
    shown = {c: n for n, cs in exposed.items() for c in cs}
    if len(shown) == 3:  # auto-exposure (rulings §4.2): the fourth is held back by its holder too
        fourth = next(c for c in SPECIAL_CARDS if c not in shown)
        shown[fourth] = next(n for n in names if fourth in hands[n])
    deal = {n: list(h) for n, h in hands.items()}
    led_suits: set[object] = set()
    opening = TWO_CLUBS if first_hand else None
    if holder_of is not None:
        leader = next(n for n in names if holder_of in hands[n])
        opening = holder_of if leads_it else None
    elif leader is None:
        leader = (
            next(n for n in names if TWO_CLUBS in hands[n]) if first_hand else rng.choice(names)
        )
    tricks = []
    captured: dict[str, list[Card]] = {n: [] for n in names}
    for number in range(13):
        order = [names[(names.index(leader) + k) % 4] for k in range(4)]
        plays: list[Card] = []
        suit = None
        for player in order:
            hand = hands[player]
            if number == 0 and opening is not None and player == leader:
                choice = opening
            else:
                options = [c for c in hand if c.suit == suit] if suit is not None else list(hand)
                options = options or list(hand)
                first_round = (suit if suit is not None else None) not in led_suits
                legal = [
                    c for c in options
                    if not (shown.get(c) == player and (suit is None or c.suit == suit)
                            and (c.suit not in led_suits if suit is None else first_round)
                            and any(o.suit == c.suit and o != c for o in hand))
                ]  # fmt: skip
                choice = rng.choice(legal or options)
            hand.remove(choice)
            plays.append(choice)
            if suit is None:
                suit = choice.suit
        led_suits.add(suit)
        best = max(range(4), key=lambda k: (plays[k].suit == suit, plays[k].rank))
        winner = order[best]
        captured[winner].extend(plays)
        tricks.append({"lead": leader, "cards": [c.code for c in plays]})
        leader = winner
    record: dict[str, object] = {
        "players": names,
        "deal": {n: [c.code for c in h] for n, h in deal.items()},
        "tricks": tricks,
    }
    if exposed:
        record["exposed"] = {n: [c.code for c in cs] for n, cs in exposed.items()}
    if first_hand:
        record["first_hand"] = True
    return record, captured


TWO_CLUBS = DECK[DECK.index(next(c for c in DECK if c.code == "2C"))]


# --- random house rules: every knob of the rules-file schema ---------------------------------

_VALUES = st.sampled_from([0, 0, -10, -20, -30, -50, 10, 25, -5, 100])
_SPECIAL_CODES = [c.code for c in SPECIAL_CARDS]


@st.composite
def rule_sets(draw: st.DrawFn) -> Variant:
    """A random valid rule set (house rules), odd values included: sheep 0, hearts worth 0 or
    more, a fixed grand slam, the pig positive on full red, two decks, tables."""
    decks = draw(st.sampled_from([1, 1, 2]))
    data: dict[str, object] = {
        "name": "house",
        "decks": decks,
        "heart_values": dict(
            zip(RANKS, draw(st.lists(_VALUES, min_size=13, max_size=13)), strict=True)
        ),
        "pig": draw(st.sampled_from([-100, -50, 0, 100, -200])),
        "sheep": draw(st.sampled_from([100, 0, 50, -100, 200])),
        "exposable": draw(st.lists(st.sampled_from(_SPECIAL_CODES), unique=True)),
        "exposure_levels": draw(
            st.lists(st.integers(1, 4), min_size=decks + 1, max_size=decks + 1)
        ),
        "first_exposure_level": draw(st.integers(1, 8)),
        "first_exposure_allowed": draw(st.booleans()),
        "auto_exposure": draw(st.booleans()),
        "transformer_multiplier": draw(st.integers(1, 4)),
        "transformer_alone": draw(st.sampled_from([50, 0, 25, -50, 100])),
        "zero_hearts_are_scoring": draw(st.booleans()),
        "full_red": draw(st.sampled_from([200, 0, 400, -100, 300])),
        "full_red_mode": draw(st.sampled_from(["fixed", "flip"])),
        "full_red_pig_positive": draw(st.booleans()),
        "normalize": draw(st.sampled_from(["none", "zero-sum", "jj"])),
        "match_end": draw(st.sampled_from([-1000, -500, -1])),
    }
    if decks > 1 or draw(st.booleans()):
        base = draw(st.integers(1, 3))
        rows = [{"exposed": 0, "taken": 1, "times": base}]
        for exposed in range(decks + 1):
            for taken in range(1, decks + 1):
                if (exposed, taken) != (0, 1):
                    rows.append({"exposed": exposed, "taken": taken,
                                 "times": base * draw(st.integers(1, 8))})  # fmt: skip
        data["transformer_table"] = rows
    if draw(st.booleans()):
        data["grand_slam"] = draw(st.sampled_from([800, 1600, 1000, -400]))
    try:
        return Variant.from_data(data)
    except RulesError:  # a fixed grand slam over a formula worth 0: refused, as it should be
        data["grand_slam"] = None
        return Variant.from_data(data)


@st.composite
def hands_for(draw: st.DrawFn, rules: Variant) -> RandomHand:
    """A random complete hand under ``rules``: every copy of every scoring card to someone,
    some other cards listed, exposures of the exposable cards (首明 where allowed)."""
    names = draw(NAMES)
    captured: dict[str, list[Card]] = {n: [] for n in names}
    # The hearts go to a few seats only, so that hands with no hearts, full reds, grand slams
    # and lone transformers (10♣ with nothing, or with only the sheep) come up often.
    heart_seats = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    special_seats = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
    for card in DECK:
        for _ in range(rules.decks):
            if card.suit.value == "H":
                seat = draw(st.sampled_from(heart_seats))
            elif card in SCORING_CARDS:
                seat = draw(st.sampled_from(special_seats))
            else:
                seat = draw(st.integers(-1, 3))
            if seat >= 0:
                captured[names[seat]].append(card)
    hand = RandomHand("house", names, captured)
    for card in rules.exposable:
        for _ in range(draw(st.integers(0, rules.decks))):
            who = names[draw(st.integers(0, 3))]
            if (rules.first_exposure_allowed and not hand.first_exposed.get(who)
                    and card not in _firsts(hand) and draw(st.booleans())):  # fmt: skip
                hand.first_exposed[who] = [card]
            else:
                hand.exposed.setdefault(who, []).append(card)
    return hand


_CODES = ["QS", "JD", "10C", "AH", "2H", "7C", "ZZ", "10H"]


@st.composite
def spoiled(draw: st.DrawFn, data: dict[str, Any]) -> dict[str, Any]:
    """A hand's data, perhaps made wrong in one way a recorded hand can be."""
    players = data["players"]
    how = draw(st.sampled_from(["as is", "as is", "drop", "twice", "name", "expose", "first",
                                "token", "firsts"]))  # fmt: skip
    seat = draw(st.integers(0, 3))
    p = players[seat]
    cards = p["captured"].split()
    if how == "drop" and cards:  # a card nobody captured (a scoring one: refused)
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif how == "twice" and cards:  # a card captured by two players
        other = players[(seat + 1) % 4]
        other["captured"] = f"{other['captured']} {draw(st.sampled_from(cards))}".strip()
    elif how == "name":  # two players of one name
        p["name"] = players[(seat + 1) % 4]["name"]
    elif how == "expose":  # an exposure perhaps not allowed, or one too many
        p["exposed"] = [*p.get("exposed", []), draw(st.sampled_from(_CODES))]
    elif how == "first":
        p["first_exposed"] = [draw(st.sampled_from(_CODES))]
    elif how == "firsts":  # two 首明 for one player
        p["first_exposed"] = ["QS", "JD"]
    elif how == "token":
        cards.append(draw(st.sampled_from(_CODES)))
    p["captured"] = " ".join(cards)
    return data
