"""Two decks (rulings §5): every seed example to the digit, and the two-deck input rules."""

from __future__ import annotations

import pytest

from gongzhu_score import HandError, score_hand

TWO = "two-deck"
# Both 10♣, both A♥ and both Q♠ exposed, as in the seed's example.
SEED_EXPOSED = {"南": "QS QS AH", "西": "10C", "北": "AH 10C"}


def test_rulings_5_5_ace_of_hearts_and_both_transformers_is_minus_3200() -> None:
    # 某玩家得到 A、10、10，则原始分为 –3200
    r = score_hand(
        {"东": "AH 10C 10C", "南": "QS QS JD JD", "西": "H:AKQJ1098765432 H:KQJ1098765432", "北": ""},
        exposed=SEED_EXPOSED, variant=TWO,
    )  # fmt: skip
    assert r.player("东").raw == -3200
    assert r.player("东").transformer == 16


def test_rulings_5_5_both_pigs_and_both_transformers_is_minus_12800() -> None:
    # 某玩家得到 Q、Q、10、10，则原始分为 –12800
    r = score_hand(
        {"东": "QS QS 10C 10C", "南": "JD JD", "西": "全红", "北": ""},
        exposed=SEED_EXPOSED, variant=TWO,
    )  # fmt: skip
    assert r.player("东").raw == -12800


def test_rulings_5_5_sample_hand_scores_minus_3200() -> None:
    from clitools import SAMPLES

    from gongzhu_score.io.handfile import read_hand_file

    spec = read_hand_file(str(SAMPLES / "two_deck_seed_minus_3200.yaml"))
    r = score_hand(spec.hand, variant=spec.variant or "classic")
    assert [p.raw for p in r.players] == [-3200, -700, -660, -640]


@pytest.mark.parametrize(("exposed", "value"), [("", 400), ("AH", 800), ("AH AH", 1600)])
def test_rulings_5_3_full_red_is_400_800_1600(exposed: str, value: int) -> None:
    r = score_hand(
        {"东": "全红", "南": "QS QS", "西": "JD JD", "北": "10C 10C"},
        exposed={"北": exposed} if exposed else None, variant=TWO,
    )  # fmt: skip
    assert r.player("东").raw == value
    assert r.player("东").full_red


def test_rulings_5_4_grand_slam_is_1600() -> None:
    r = score_hand({"东": "全红 QS QS JD JD 10C 10C", "南": "", "西": "", "北": ""}, variant=TWO)
    assert [p.raw for p in r.players] == [1600, 0, 0, 0]
    assert r.players[0].grand_slam


def test_rulings_5_4_grand_slam_scales_with_exposure_as_the_formula() -> None:
    # factor = (400·m(A♥) + 200·m(Q♠) + 200·m(J♦)) × mult(10♣ exposed, 2 taken) / 3200
    hand = {"东": "全红 QS QS JD JD 10C 10C", "南": "", "西": "", "北": ""}
    one_ace = score_hand(hand, exposed={"南": "AH"}, variant=TWO)
    assert one_ace.players[0].raw == 1600 * (800 + 200 + 200) * 4 // 3200  # 2400
    everything = score_hand(hand, exposed={"东": "AH AH QS QS JD JD 10C 10C"}, variant=TWO)
    assert everything.players[0].raw == 1600 * (1600 + 800 + 800) * 16 // 3200  # 25600


@pytest.mark.parametrize(
    ("exposed", "taken", "multiplier"),
    [(0, 1, 2), (0, 2, 4), (1, 1, 4), (1, 2, 8), (2, 1, 4), (2, 2, 16)],
)
def test_rulings_5_2_transformer_table(exposed: int, taken: int, multiplier: int) -> None:
    tens = " ".join(["10C"] * taken)
    hand = {
        "东": f"QS {tens}",
        "南": "QS JD JD",
        "西": "全红",
        "北": "10C" if taken == 1 else "",
    }
    r = score_hand(
        hand, exposed={"西": " ".join(["10C"] * exposed)} if exposed else None, variant=TWO
    )
    assert r.player("东").transformer == multiplier
    assert r.player("东").raw == -100 * multiplier


@pytest.mark.parametrize(("exposed", "value"), [(0, 50), (1, 100), (2, 100)])
def test_rulings_5_2_lone_transformer_is_25_times_the_multiplier(exposed: int, value: int) -> None:
    hand = {"东": "10C", "南": "QS QS JD JD 10C", "西": "全红", "北": ""}
    r = score_hand(
        hand, exposed={"南": " ".join(["10C"] * exposed)} if exposed else None, variant=TWO
    )
    assert r.player("东").raw == value
    assert r.player("东").transformer_alone


def test_rulings_5_1_one_exposed_pig_makes_both_pigs_minus_200() -> None:
    # Q 亮了一张后，两张 Q 的分数都为负 200
    hand = {"东": "QS", "南": "QS", "西": "全红 JD JD 10C 10C", "北": ""}
    r = score_hand(hand, exposed={"北": "QS"}, variant=TWO, partial=False)
    assert [r.player("东").raw, r.player("南").raw] == [-200, -200]
    both = score_hand(hand, exposed={"东": "QS", "南": "QS"}, variant=TWO)
    assert [both.player("东").raw, both.player("南").raw] == [-400, -400]


def test_rulings_5_1_sheep_exposed_per_copy() -> None:
    hand = {"东": "JD", "南": "JD", "西": "全红 QS QS 10C 10C", "北": ""}
    assert score_hand(hand, exposed={"东": "JD"}, variant=TWO).player("南").raw == 200
    assert score_hand(hand, exposed={"东": "JD JD"}, variant=TWO).player("南").raw == 400


def test_rulings_5_no_auto_exposure_in_two_decks() -> None:
    hand = {"东": "QS QS", "南": "JD JD", "西": "全红", "北": "10C 10C"}
    r = score_hand(hand, exposed={"东": "QS", "南": "JD", "西": "AH"}, variant=TWO)
    assert all(e.kind != "auto" for e in r.exposures)
    assert r.player("北").raw == 50 * 4 // 2  # 10♣ ×2 alone, nothing exposed: +100


@pytest.mark.parametrize(
    ("captured", "exposed", "match"),
    [
        (
            {"东": "QS QS", "南": "QS"},
            {},
            r"player 南: QS \(Q♠\) captured a third time \(already by 东 and 东; two decks hold two\)",
        ),
        (
            {},
            {"东": "AH", "南": "AH", "西": "AH"},
            r"player 西: AH \(A♥\) exposed a third time \(already by 东 and 南",
        ),
        ({}, {"东": "KS"}, r"cannot expose KS"),
    ],
)
def test_rulings_9_two_deck_input_rules(
    captured: dict[str, str], exposed: dict[str, str], match: str
) -> None:
    hand = {"东": "", "南": "", "西": "", "北": ""} | captured
    with pytest.raises(HandError, match=match):
        score_hand(hand, exposed=exposed, rest="北", variant=TWO)


def test_rulings_9_all_32_scoring_cards_must_be_accounted_for() -> None:
    with pytest.raises(HandError, match=r"nobody captured: Q♠ J♦ J♦ 10♣ 10♣"):
        score_hand({"东": "全红 QS", "南": "", "西": "", "北": ""}, variant=TWO)
    r = score_hand(
        {"东": "H:AKQJ1098765432 QS", "南": "", "西": "", "北": ""}, variant=TWO, rest="北"
    )
    assert len(r.player("北").scoring_cards) == 32 - 14


def test_rulings_4_3_no_first_exposure_in_two_decks() -> None:
    with pytest.raises(HandError, match="首明 is not part of the two-deck rules"):
        score_hand(
            {"东": "", "南": "", "西": "", "北": ""},
            first_exposed={"东": "QS"},
            rest="北",
            variant=TWO,
        )


def test_one_player_may_expose_both_copies() -> None:
    r = score_hand(
        {"东": "QS QS", "南": "", "西": "", "北": ""},
        exposed={"东": "QS QS"},
        rest="北",
        variant=TWO,
    )
    assert r.player("东").raw == -800
