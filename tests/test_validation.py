"""Input rules (rulings §9): every refused hand names the player and the card."""

from __future__ import annotations

import pytest

from gongzhu_score import GongzhuError, Hand, HandError, MissingCardsError, RulesError, score_hand

FULL = {"东": "QS 10C", "南": "JD", "西": "全红", "北": ""}


def refused(match: str, *args: object, **kwargs: object) -> None:
    with pytest.raises(GongzhuError, match=match):
        score_hand(*args, **kwargs)  # type: ignore[arg-type]


def test_a_card_captured_by_two_players() -> None:
    refused(r"player 南: QS \(Q♠\) captured already by 东", {**FULL, "南": "JD QS"})


def test_a_card_listed_twice_by_one_player() -> None:
    refused(r"player 东: QS \(Q♠\) captured twice", {**FULL, "东": "QS QS 10C"})


def test_a_card_that_cannot_be_exposed() -> None:
    refused(
        r"player 东: cannot expose KS \(K♠\); only Q♠, J♦, 10♣, A♥ can be exposed",
        FULL,
        exposed={"东": "KS"},
    )


def test_a_card_exposed_by_two_players() -> None:
    refused(r"player 南: QS \(Q♠\) exposed already by 东", FULL, exposed={"东": "QS", "南": "QS"})


def test_a_card_both_exposed_and_first_exposed() -> None:
    refused(
        r"player 东: QS \(Q♠\) exposed twice",
        FULL,
        exposed={"东": "QS"},
        first_exposed={"东": "QS"},
    )


@pytest.mark.parametrize("variant", ["jj", "online"])
def test_first_exposure_where_the_variant_forbids_it(variant: str) -> None:
    refused(r"首明 is not part of the .* rules", FULL, first_exposed={"东": "QS"}, variant=variant)


@pytest.mark.parametrize("variant", ["classic", "dehong"])
def test_first_exposure_where_the_variant_allows_it(variant: str) -> None:
    assert score_hand(FULL, first_exposed={"东": "QS"}, variant=variant).players[0].raw == -800


def test_only_one_first_exposed_card_per_player() -> None:
    refused("only the first card a player drew can be 首明", FULL, first_exposed={"东": "QS AH"})


def test_missing_scoring_cards_are_listed() -> None:
    # The library describes the data; the command line adds the flags that fix it (test_cli).
    with pytest.raises(MissingCardsError) as caught:
        score_hand({"东": "", "南": "", "西": "全红", "北": ""})
    assert str(caught.value) == "scoring cards nobody captured: Q♠ J♦ 10♣"


def test_partial_tally_is_marked_and_lists_the_missing() -> None:
    r = score_hand({"东": "QS", "南": "", "西": "", "北": ""}, partial=True)
    assert r.partial
    assert len(r.missing) == 15
    assert r.players[0].raw == -100


def test_a_complete_hand_with_partial_is_not_marked_partial() -> None:
    assert not score_hand(FULL, partial=True).partial


@pytest.mark.parametrize(
    ("players", "match"),
    [
        ({"东": "QS", "南": "JD", "西": "全红 10C"}, "exactly four players, got 3"),
        ({"a": "", "b": "", "c": "", "d": "", "e": "全红 QS JD 10C"}, "got 5"),
        ({" ": "全红 QS JD 10C", "b": "", "c": "", "d": ""}, "player 1 has no name"),
    ],
)
def test_player_count_and_names(players: dict[str, str], match: str) -> None:
    refused(match, players)


def test_duplicate_names() -> None:
    pairs = [("东", "QS 10C"), ("东", "JD"), ("西", "全红"), ("北", "")]
    refused("two players are named '东'", pairs)


def test_rest_takes_every_scoring_card_nobody_else_took() -> None:
    r = score_hand({"东": "QS 10C", "南": "JD", "西": "♥AKQ"}, rest="北")
    assert r.players[3].name == "北"
    assert len(r.players[3].scoring_cards) == 10
    r = score_hand({"东": "QS 10C", "南": "JD", "西": "", "北": "2C"}, rest="西")
    assert r.player("西").full_red


def test_rest_names_an_unknown_player() -> None:
    refused("no player named 'X'", FULL, rest="X")


def test_exposure_by_an_unknown_player() -> None:
    refused("exposed: no player named 'X'", FULL, exposed={"X": "QS"})


def test_unknown_variant_suggests() -> None:
    with pytest.raises(RulesError, match=r"unknown variant 'clasic'.*did you mean 'classic'"):
        score_hand(FULL, variant="clasic")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"normalize": "zerosum"}, "unknown normalization 'zerosum'"),
        ({"rounding": "up"}, "unknown rounding 'up'"),
        ({"scale": 0}, "scale must be a whole number from 1 to 1,000,000"),
    ],
)
def test_unknown_option_values(kwargs: dict[str, object], match: str) -> None:
    refused(match, FULL, **kwargs)


def test_non_scoring_cards_are_ignored_but_still_checked_for_duplicates() -> None:
    r = score_hand({"东": "QS 10C 2C 3C", "南": "JD AS", "西": "全红 KS", "北": "5D"})
    assert [p.raw for p in r.players] == [-200, 100, 200, 0]
    with pytest.raises(HandError, match="AS \\(A♠\\) captured already"):
        score_hand({"东": "QS 10C AS", "南": "JD AS", "西": "全红", "北": ""})


def test_a_hand_object_scores_like_its_mapping() -> None:
    hand = Hand.from_captured(FULL, exposed={"东": "QS"})
    assert score_hand(hand) == score_hand(FULL, exposed={"东": "QS"})
