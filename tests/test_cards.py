"""The card notation (issue 2 §1): one parser, every spelling a player types, precise errors."""

from __future__ import annotations

import pytest

from gongzhu_score import (
    DECK,
    HEARTS,
    PIG,
    SCORING_CARDS,
    SHEEP,
    TRANSFORMER,
    Card,
    CardError,
    Suit,
    parse_card,
    parse_cards,
)

QS = Card(12, Suit.SPADES)
TEN_C = Card(10, Suit.CLUBS)


@pytest.mark.parametrize(
    "token",
    ["QS", "qs", "Qs", "SQ", "sq", "Q♠", "♠Q", "Q♠️", "♠️Q", "♤Q", "Q♤", "ＱＳ", "黑桃Q", "黑桃q",
     "pig", "PIG", "猪", "豬", " QS "],
)  # fmt: skip
def test_every_spelling_of_the_pig(token: str) -> None:
    assert parse_card(token) == QS


@pytest.mark.parametrize(
    "token",
    ["10C", "10c", "TC", "tc", "C10", "CT", "10♣", "♣10", "♧10", "１０Ｃ", "梅花10", "草花10",
     "transformer", "变压器", "變壓器"],
)  # fmt: skip
def test_every_spelling_of_the_transformer(token: str) -> None:
    assert parse_card(token) == TEN_C


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("JD", "JD"), ("方块J", "JD"), ("方片J", "JD"), ("方塊J", "JD"), ("♢J", "JD"),
        ("sheep", "JD"), ("goat", "JD"), ("羊", "JD"),
        ("红桃10", "10H"), ("红心A", "AH"), ("紅桃K", "KH"), ("紅心2", "2H"), ("♡7", "7H"),
        ("❤️A", "AH"), ("H:A", "AH"), ("2h", "2H"),
    ],
)  # fmt: skip
def test_other_spellings(token: str, code: str) -> None:
    assert parse_card(token).code == code


def test_all_52_canonical_codes_round_trip() -> None:
    assert len(DECK) == 52
    for card in DECK:
        assert parse_card(card.code) is card
        assert parse_card(card.symbol) is card
        assert parse_card(card.zh) is card
        assert eval(repr(card), {"Card": Card}) is card


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("H:AKQJ10", ["AH", "KH", "QH", "JH", "10H"]),
        ("♥AKQ", ["AH", "KH", "QH"]),
        ("红桃AKQ", ["AH", "KH", "QH"]),
        ("h:T98", ["10H", "9H", "8H"]),
        ("QS, 6H，8H、10H;JH", ["QS", "6H", "8H", "10H", "JH"]),
        ("pig ♥AK 10C", ["QS", "AH", "KH", "10C"]),
        ("", []),
    ],
)
def test_lists_and_one_suit_groups(text: str, codes: list[str]) -> None:
    assert [c.code for c in parse_cards(text)] == codes


@pytest.mark.parametrize("word", ["全红", "全紅", "满红", "all-hearts", "ALLHEARTS"])
def test_full_red_word_is_all_thirteen_hearts(word: str) -> None:
    assert parse_cards(word) == HEARTS


def test_lists_accept_cards_and_tokens_mixed() -> None:
    assert parse_cards([PIG, "JD", "♥AK"]) == (PIG, SHEEP, *parse_cards("AH KH"))


def test_scoring_cards_are_sixteen() -> None:
    assert len(SCORING_CARDS) == 16
    assert {PIG, SHEEP, TRANSFORMER} <= SCORING_CARDS


@pytest.mark.parametrize("token", ["猪圈", "羊圈", "变压器圈"])
def test_pens_are_not_aliases_of_the_scoring_cards(token: str) -> None:
    # RULINGS §1: 猪圈 (K♠ A♠) is not the pig, 羊圈 is not the sheep.
    with pytest.raises(CardError, match="not a scoring card"):
        parse_cards(token)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("QX", "unknown card 'QX'; did you mean 'QS'?"),
        ("1OC", "unknown card '1OC'; did you mean '10C'?"),
        ("pigg", "unknown card 'pigg'; did you mean 'pig'?"),
        ("10", "unknown card '10' (a rank with no suit; write e.g. 10H or 10S)"),
        ("H", "unknown card 'H' (a suit with no rank; write e.g. QS or ♥AK)"),
        ("SQQ", "unknown card 'SQQ' (for several spades write S:QQ)"),
        ("黑桃Z", "unknown card '黑桃Z' ('Z' is not a rank; ranks are A K Q J 10 (or T) 9 … 2)"),
        ("1C", "unknown card '1C'"),
    ],
)
def test_unknown_tokens_are_quoted_with_a_suggestion(token: str, message: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(token)
    assert str(err.value).startswith(message)


def test_a_number_from_yaml_gets_a_hint() -> None:
    with pytest.raises(CardError, match="10 is a number, not a card; give it a suit"):
        parse_cards(["QS", 10])


def test_parse_card_refuses_a_group() -> None:
    with pytest.raises(CardError, match="is 3 cards, expected one"):
        parse_card("♥AKQ")


def test_card_repr_and_str() -> None:
    assert repr(QS) == "Card.parse('QS')"
    assert str(TEN_C) == "10♣"
    assert TEN_C.zh == "梅花10"
