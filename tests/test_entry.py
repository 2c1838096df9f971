"""A hand entered a player at a time (the prompts' and any page's): what is unplaced, a copy too
many refused with its holder, the rest to one seat, the exposures."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import RandomHand, legal_hands

from gongzhu_score import Hand, PlayerHand, parse_cards
from gongzhu_score.io.variants import find_variant
from gongzhu_score.match.entry import HandEntry
from gongzhu_score.match.ledger import Ledger

NAMES = ("东", "南", "西", "北")


def test_cards_given_one_seat_at_a_time_leave_what_is_unplaced() -> None:
    entry = HandEntry(NAMES)
    assert len(entry.unplaced()) == 16
    assert entry.give(0, parse_cards("猪 变压器 红桃6 8 10 J")) is None
    assert entry.give(1, parse_cards("红桃2 3 4 5 7 9 A 猪")) == (parse_cards("QS")[0], "东")
    assert entry.cards[1] == ()  # refused: nothing of it taken
    assert entry.give(1, parse_cards("红桃2 3 4 5 7 9 A")) is None
    assert entry.give(2, parse_cards("QD QD")) == (parse_cards("QD")[0], "西")  # twice in one go
    assert [c.code for c in entry.unplaced()] == ["QH", "KH", "JD"]
    assert entry.give(2, parse_cards("羊 红桃Q")) is None
    entry.give_rest(3)
    entry.show({"南": parse_cards("AH")})
    hand = entry.hand()
    assert [c.code for c in hand.players[3].captured] == ["KH"]
    assert not hand.missing()
    result = Ledger.new(NAMES).score(hand)
    assert result.raws == (-400, -160, 40, -80)  # A♥ exposed: every heart counts double


def test_a_seat_given_cards_after_the_rest_no_longer_takes_it_and_two_decks_hold_two() -> None:
    entry = HandEntry(NAMES, decks=2)
    entry.give_rest(3)
    assert entry.give(3, parse_cards("QS")) is None and entry.rest is None
    assert entry.give(0, parse_cards("QS")) is None  # the second copy
    assert entry.give(1, parse_cards("QS")) == (
        parse_cards("QS")[0],
        "东",
    )  # the first in seat order
    assert len(entry.unplaced()) == 30


def test_an_entry_of_a_hand_holds_it_as_it_stands() -> None:
    hand = Ledger.new(NAMES, find_variant("classic")).score(
        HandEntry(NAMES, cards=[parse_cards("全红"), parse_cards("QS JD 10C"), (), ()]).hand()
    )
    assert hand.raws == (200, 0, 0, 0)
    again = HandEntry.of(
        HandEntry(
            NAMES,
            cards=[parse_cards("全红"), parse_cards("QS JD 10C"), (), ()],
            exposed={"南": parse_cards("QS")},
        ).hand()
    )
    assert again.cards[1] == parse_cards("QS JD 10C") and again.exposed == {"南": parse_cards("QS")}


@given(legal_hands(), st.integers(0, 3), st.permutations(range(4)))
def test_the_rest_on_any_seat_is_what_the_command_line_s_rest_gives(
    hand: RandomHand, rest: int, order: list[int]
) -> None:
    """Whichever seat takes the rest and in whatever order the lines are typed (seats after the
    rest-taker too), the hand is the one ``--rest`` makes, and the rest what it says."""
    decks = find_variant(hand.variant).decks
    names = list(hand.captured)
    entry = HandEntry(names, decks)
    for seat in order:
        if seat == rest:
            assert entry.give_rest(seat) is None
        else:
            assert entry.give(seat, hand.captured[names[seat]]) is None
    others = Hand(tuple(PlayerHand(n, () if i == rest else tuple(hand.captured[n]))
                        for i, n in enumerate(names)))  # fmt: skip
    assert entry.hand() == others.with_rest(names[rest], decks)
    assert entry.taken_by_rest() == others.with_rest(names[rest], decks).players[rest].captured
    assert not entry.hand().missing(decks)
    other = (rest + 1) % 4
    assert entry.give_rest(other) == names[rest]  # only one seat takes the rest
    assert entry.rest == rest and entry.cards[other] == tuple(hand.captured[names[other]])
