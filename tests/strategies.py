"""Hypothesis strategies: random legal one-deck hands, and random spellings of cards."""

from __future__ import annotations

from dataclasses import dataclass, field

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
)

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
