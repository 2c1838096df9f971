"""The card notation (issue 2 §1): one parser, every spelling a player types, precise errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import RandomHand, legal_hands

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
    # rulings §1: 猪圈 (K♠ A♠) is not the pig, 羊圈 is not the sheep.
    with pytest.raises(CardError, match="not a scoring card"):
        parse_cards(token)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("QX", "unknown card 'QX' (a card is a rank and a suit: QS, Q♠"),
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


# --- what the tool prints, it reads back (issue 11) ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("红桃6 8 10 J", "6H 8H 10H JH"),
        ("♥A K Q", "AH KH QH"),
        ("红心A,K,Q", "AH KH QH"),
        ("H: A K Q", "AH KH QH"),
        ("h:a k q", "AH KH QH"),
        ("猪 变压器 红桃6 8 10 J", "QS 10C 6H 8H 10H JH"),
        ("羊 红桃Q K", "JD QH KH"),
        ("红桃2-10", "2H 3H 4H 5H 6H 7H 8H 9H 10H"),
        ("♥2-10", "2H 3H 4H 5H 6H 7H 8H 9H 10H"),
        ("♥J-A", "JH QH KH AH"),
        ("红桃十", "10H"),
        ("红桃二 三 四", "2H 3H 4H"),
        ("黑桃Q 红桃A K", "QS AH KH"),
        ("♥A K, ♠Q", "AH KH QS"),
        ("QS×2 10Cx2", "QS QS 10C 10C"),
        ("猪×2", "QS QS"),
        ("猪羊", "QS JD"),
    ],
)
def test_a_suit_carries_over_to_the_bare_ranks_after_it(text: str, codes: str) -> None:
    assert " ".join(c.code for c in parse_cards(text)) == codes


def test_a_suit_carries_across_the_items_of_a_list() -> None:
    assert [c.code for c in parse_cards(["红桃6", "8", "10", "J"])] == ["6H", "8H", "10H", "JH"]


def test_a_card_with_its_own_suit_ends_the_carry() -> None:
    with pytest.raises(CardError, match=r"unknown card '8' \(a rank with no suit"):
        parse_cards("♥A QS 8")


def test_a_suit_alone_must_be_followed_by_ranks() -> None:
    with pytest.raises(CardError, match=r"unknown card '红桃' \(a suit with no rank"):
        parse_cards("红桃 猪")
    with pytest.raises(CardError, match=r"unknown card 'H:' \(a suit with no rank"):
        parse_cards("QS H:")


def test_full_red_and_pig_sheep_are_the_variant_s_whole_set() -> None:
    assert len(parse_cards("全红", decks=2)) == 26
    assert parse_cards("全红", decks=2) == HEARTS * 2
    assert parse_cards("猪羊", decks=2) == (PIG, SHEEP)  # both cards, never one


@pytest.mark.parametrize(
    ("token", "not_suggested"),
    [("红A", "全红"), ("桃A", "AS"), ("桃A", "AH"), ("QX", "QS"), ("黑Z", "黑桃Q")],
)
def test_no_suggestion_that_would_change_the_hand(token: str, not_suggested: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(token)
    assert f"did you mean {not_suggested!r}" not in str(err.value)
    assert "did you mean" in str(err.value) or "a card is a rank and a suit" in str(err.value)


@pytest.mark.parametrize(
    ("text", "suggestion"),
    [
        ("红A", "did you mean '红桃A' (A♥)?"),
        ("红桃6 8 1O", "did you mean '10' (10♥)?"),  # the carried suit, not 10♠
        ("1OC", "did you mean '10C'?"),
        ("变压", "did you mean '变压器'?"),
    ],
)
def test_a_suggestion_keeps_the_number_of_cards_and_their_suits(text: str, suggestion: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(text)
    assert str(err.value).endswith(suggestion)
    wanted = str(err.value).split("did you mean ")[1].split("'")[1]
    cards = parse_cards(text.replace(str(err.value).split("'")[1], wanted))
    assert cards  # following the suggestion gives a hand


@given(legal_hands(), st.sampled_from(["en", "zh"]))
def test_every_card_list_the_tool_prints_reads_back_as_the_same_cards(
    hand: RandomHand, lang: str
) -> None:
    from gongzhu_score import find_variant, score_hand
    from gongzhu_score.render.hand import cards_text

    decks = find_variant(hand.variant).decks
    result = score_hand(hand.captured, **hand.kwargs())  # type: ignore[arg-type]
    for p in result.players:
        wanted = sorted(p.scoring_cards, key=lambda c: c.sort_key)
        shown = cards_text(p.scoring_cards, lang)  # score, replay and match tables
        assert sorted(parse_cards(shown, decks), key=lambda c: c.sort_key) == wanted, shown
        symbols = " ".join(c.symbol for c in p.scoring_cards)  # explain, the English tables
        assert sorted(parse_cards(symbols, decks), key=lambda c: c.sort_key) == wanted


# --- ranges and suits in English, 满贯, and fixes one edit away (issue 22) --------------------


def codes(text: str, decks: int = 1) -> str:
    return " ".join(c.code for c in parse_cards(text, decks))


NINE_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H 10H"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6H-10H", "6H 7H 8H 9H 10H"),
        ("2h-5h", "2H 3H 4H 5H"),
        ("2-10H", NINE_HEARTS),
        ("2-10h", NINE_HEARTS),
        ("H2-10", NINE_HEARTS),
        ("hearts 2-10", NINE_HEARTS),
        ("heart 2-10", NINE_HEARTS),
        ("Hearts: 2-10", NINE_HEARTS),
        ("♥2-10", NINE_HEARTS),
        ("2-10♥", NINE_HEARTS),
        ("红桃2-10", NINE_HEARTS),
        ("红桃2到10", NINE_HEARTS),
        ("10H-2H", NINE_HEARTS),  # either way round
        ("6H–10H", "6H 7H 8H 9H 10H"),  # an en dash
        ("hearts 2-10 J", NINE_HEARTS + " JH"),  # a suit word carries, as 红桃 does
        ("红桃2-10 J", NINE_HEARTS + " JH"),
        ("spades Q K", "QS KS"),
        ("spade A", "AS"),
        ("diamonds J", "JD"),
        ("clubs 10", "10C"),
        ("heartsA", "AH"),
        ("JD-AD", "JD QD KD AD"),
        ("6H-10H×2", "6H 7H 8H 9H 10H " * 2),
    ],
)
def test_ranges_and_suit_words_in_english(text: str, expected: str) -> None:
    assert codes(text) == expected.strip()


def test_a_range_of_letter_cards_does_not_carry_its_suit() -> None:
    # 6H-10H is cards written in full: a bare rank after it has no suit, as after 6H
    with pytest.raises(CardError, match=r"unknown card 'J' \(a rank with no suit"):
        parse_cards("6H-10H J")


@pytest.mark.parametrize("text", ["6H-10S", "♥2-10♠", "红桃2-梅花5"])
def test_a_range_across_two_suits_is_one_clear_error(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(text)
    message = str(err.value)
    assert message.startswith(f"unknown card {text!r} (a range is of one suit: ")
    assert "\n" not in message and "did you mean" not in message
    assert "范围只能在同一花色内" in err.value.text("zh")


@pytest.mark.parametrize("word", ["满贯", "滿貫", "grand-slam", "GrandSlam", "grand slam"])
def test_grand_slam_is_every_scoring_card_with_one_deck_and_two(word: str) -> None:
    one = parse_cards(word)
    assert len(one) == 16 and set(one) == SCORING_CARDS
    two = parse_cards(word, decks=2)
    assert len(two) == 32 and sorted(two, key=lambda c: c.sort_key) == sorted(
        [*SCORING_CARDS] * 2, key=lambda c: c.sort_key
    )


def test_all_hearts_with_a_space_is_the_word() -> None:
    assert parse_cards("all hearts") == HEARTS


def test_a_grand_slam_typed_as_one_word_scores_as_one() -> None:
    from gongzhu_score import score_hand

    result = score_hand({"东": "满贯", "南": "", "西": "", "北": ""})
    assert result.players[0].grand_slam
    two = score_hand({"东": "满贯", "南": "", "西": "", "北": ""}, variant="two-deck")
    assert len(two.players[0].scoring_cards) == 32


@pytest.mark.parametrize(
    ("text", "token", "fix", "cards"),
    [
        ("红2-10", "红2-10", "红桃2-10", NINE_HEARTS),
        ("红桃2-1O", "红桃2-1O", "红桃2-10", NINE_HEARTS),  # the letter O
        ("2-1OH", "2-1OH", "2-10H", NINE_HEARTS),
        ("6H-1OH", "6H-1OH", "6H-10H", "6H 7H 8H 9H 10H"),
        ("2h-5x", "2h-5x", "2h-5h", "2H 3H 4H 5H"),
        ("hearts2-1O", "hearts2-1O", "hearts2-10", NINE_HEARTS),
        ("hearts 2-1O", "2-1O", "2-10", NINE_HEARTS),  # the ranks mistyped, not the suit alone
        ("haerts 2-10", "haerts", "hearts", NINE_HEARTS),
        ("spadez Q", "spadez", "spades", "QS"),
        ("红 A", "红", "红桃", "AH"),
        ("红A", "红A", "红桃A", "AH"),
        ("sheap", "sheap", "sheep", "JD"),
        ("全虹", "全虹", "全红", " ".join(c.code for c in HEARTS)),
        ("满贯了", "满贯了", "满贯", " ".join(c.code for c in DECK if c in SCORING_CARDS)),
    ],
)
def test_a_near_miss_gets_the_fix_that_keeps_its_cards(
    text: str, token: str, fix: str, cards: str
) -> None:
    with pytest.raises(CardError) as err:
        parse_cards(text)
    message = str(err.value)
    assert message.startswith(f"unknown card {token!r}; did you mean {fix!r}"), message
    assert "is not a rank" not in message
    assert codes(text.replace(token, fix)) == cards  # the fix means the cards meant
    assert f"是不是要写 {fix!r}" in err.value.text("zh")


@pytest.mark.parametrize("token", ["1C", "QX", "桃A", "黑Z", "桃H", "zD方块", "1-5"])
def test_no_fix_that_would_make_up_or_change_a_card(token: str) -> None:
    # 1C: 10♣ or A♣? 桃H: which rank? No guess that changes the hand, no rank made up.
    with pytest.raises(CardError) as err:
        parse_cards(token)
    assert "did you mean" not in str(err.value)


def test_a_suit_word_is_not_read_as_a_letter_and_ranks() -> None:
    # hearts was H + "EARTS" ('E' is not a rank); now a suit waiting for its ranks
    with pytest.raises(CardError) as err:
        parse_cards("hearts")
    assert "a suit with no rank" in str(err.value) and "'E'" not in str(err.value)
    with pytest.raises(CardError) as err:
        parse_cards("heartz 2-10")
    assert "'E'" not in str(err.value) and "did you mean 'hearts'" in str(err.value)


_SUIT_WRITINGS = {
    Suit.HEARTS: ["红桃", "红心", "♥", "hearts ", "heart ", "H:"],
    Suit.SPADES: ["黑桃", "♠", "spades ", "S:"],
    Suit.DIAMONDS: ["方块", "方片", "♦", "diamonds ", "D:"],
    Suit.CLUBS: ["梅花", "草花", "♣", "clubs ", "C:"],
}


@given(
    st.sampled_from(list(Suit)),
    st.integers(2, 14),
    st.integers(2, 14),
    st.integers(0, 7),
    st.sampled_from(["-", "–", "~", "到"]),
)
def test_every_spelling_of_a_range_expands_to_its_ranks(
    suit: Suit, a: int, b: int, form: int, mark: str
) -> None:
    low, high = sorted((a, b))
    wanted = [Card(r, suit) for r in range(low, high + 1)]
    ra, rb = Card(a, suit).rank_name, Card(b, suit).rank_name
    letter = suit.value
    written = _SUIT_WRITINGS[suit]
    text = [
        f"{ra}{letter}{mark}{rb}{letter}",  # 6H-10H
        f"{ra}{mark}{rb}{letter}",  # 2-10H
        f"{letter}{ra}{mark}{rb}",  # H2-10
        f"{written[0]}{ra}{mark}{rb}",  # 红桃2-10
        f"{written[-2]}{ra}{mark}{rb}",  # hearts 2-10
        f"{suit.symbol}{ra}{mark}{rb}",  # ♥2-10
        f"{ra}{mark}{rb}{suit.symbol}",  # 2-10♥
        f"{ra}{letter}{mark}{rb}{letter}".lower(),  # 2h-5h
    ][form]
    assert list(parse_cards(text)) == wanted, text


@given(st.lists(st.sampled_from(DECK), max_size=20), st.sampled_from(["code", "symbol", "zh"]),
       st.sampled_from([" ", ", ", "、", "，", "; "]))  # fmt: skip
def test_every_card_as_the_tool_prints_it_reads_back(
    cards: list[Card], form: str, separator: str
) -> None:
    text = separator.join(getattr(c, form) for c in cards)
    assert list(parse_cards(text, decks=2)) == cards


_TYPO = st.text(alphabet="0123456789AKQJTHSDCOhsdcxz红桃心黑方块梅花-:♥♠ ", min_size=1, max_size=9)


@given(_TYPO)
def test_any_text_is_cards_or_one_clear_error_whose_fix_reads_back(text: str) -> None:
    """Whatever is typed: cards, or one error line quoting a token; a fix it offers reads as
    cards, and the suits it says it means."""
    try:
        parse_cards(text, decks=2)
    except CardError as err:
        message = str(err)
        assert "\n" not in message and message
        found = re.search(r"did you mean '([^']*)'(?: \(([^)]*)\))?\?", message)
        if found is not None:
            token = message.split("'")[1]
            fixed = text.replace(token, found.group(1), 1)
            try:
                parse_cards(fixed, decks=2)
            except CardError as again:  # a later token may be wrong too, never the fixed one
                alone = found.group(1)  # (or the fix is a suit, and ranks follow it: 红 → 红桃)
                assert str(again).split("'")[1] != alone or parse_cards(f"{alone} A")
            if found.group(2):
                assert parse_cards(found.group(2)), found.group(2)
