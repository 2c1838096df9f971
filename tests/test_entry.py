"""A hand entered a player at a time (the prompts' and any page's): what is unplaced, a copy too
many refused with its holder, the rest to one seat, the exposures."""

from __future__ import annotations

from gongzhu_score import parse_cards
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
