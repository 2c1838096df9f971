"""Every one-deck worked example in the seeds, to the digit, named after the rule it checks.

The numbers are copied from the seeds (see docs/rules.md, "The rules in short"); rulings § numbers
cite the project's reading of them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from gongzhu_score import Normalization, normalize, score_hand

NOBODY = ""


def raws(result: object) -> list[int]:
    return [p.raw for p in result.players]  # type: ignore[attr-defined]


def test_rulings_4_7_pig_exposed_hearts_and_transformer_is_minus_400() -> None:
    # 得了猪、明红桃6、8、10、J和变压器，其应得负400分 (A♥ exposed by another player)
    r = score_hand(
        {"东": "QS 6H 8H 10H JH 10C", "南": "AH 2H 3H 4H 5H 7H 9H", "西": "JD QH KH", "北": ""},
        exposed={"南": "AH"},
    )
    assert r.player("东").raw == -400
    assert r.player("东").transformer == 2


def test_rulings_4_6_grand_slam_nothing_exposed_is_800() -> None:
    r = score_hand({"东": "全红 QS JD 10C", "南": NOBODY, "西": NOBODY, "北": NOBODY})
    assert raws(r) == [800, 0, 0, 0]
    assert r.players[0].grand_slam and r.players[0].full_red


def test_rulings_4_6_grand_slam_all_exposed_is_3200() -> None:
    r = score_hand(
        {"东": "全红 QS JD 10C", "南": NOBODY, "西": NOBODY, "北": NOBODY},
        exposed={"东": "QS AH", "南": "JD", "西": "10C"},
    )
    assert raws(r) == [3200, 0, 0, 0]


def test_rulings_4_2_grand_slam_three_exposed_auto_exposes_the_fourth_to_3200() -> None:
    # In one deck, three exposed special cards expose the fourth, so the 3200 needs only three.
    r = score_hand(
        {"东": "全红 QS JD 10C", "南": NOBODY, "西": NOBODY, "北": NOBODY},
        exposed={"东": "QS AH", "南": "JD"},
    )
    assert raws(r) == [3200, 0, 0, 0]
    assert [(e.card.code, e.kind) for e in r.exposures][-1] == ("10C", "auto")


def test_rulings_4_5_full_red_is_plus_200() -> None:
    r = score_hand({"东": "QS", "南": "全红", "西": "JD 10C", "北": NOBODY})
    assert raws(r) == [-100, 200, 200, 0]
    assert r.players[1].full_red and not r.players[1].grand_slam


def test_rulings_4_5_full_red_with_ace_of_hearts_exposed_is_plus_400() -> None:
    r = score_hand({"东": "QS 10C", "南": "全红", "西": "JD", "北": NOBODY}, exposed={"南": "AH"})
    assert r.player("南").raw == 400


def test_rulings_4_5_full_red_with_pig_is_plus_100() -> None:
    r = score_hand({"东": NOBODY, "南": "全红 QS", "西": "JD 10C", "北": NOBODY})
    assert r.player("南").raw == 100


def test_rulings_4_4_lone_transformer_is_plus_50() -> None:
    r = score_hand({"东": "10C", "南": "全红", "西": "QS JD", "北": NOBODY})
    assert r.player("东").raw == 50
    assert r.player("东").transformer_alone


def test_rulings_4_4_lone_exposed_transformer_is_plus_100() -> None:
    r = score_hand({"东": "10C", "南": "全红", "西": "QS JD", "北": NOBODY}, exposed={"东": "10C"})
    assert r.player("东").raw == 100


def test_rulings_4_4_lone_first_exposed_transformer_is_plus_200() -> None:
    r = score_hand(
        {"东": "10C", "南": "全红", "西": "QS JD", "北": NOBODY}, first_exposed={"东": "10C"}
    )
    assert r.player("东").raw == 200


def test_rulings_4_4_transformer_with_others_summing_to_zero_gives_zero() -> None:
    # 注意：如果除了 10 ，还有其他分牌，且其他分数之和为 0 ，则总分数记为 0。
    r = score_hand({"东": "10C QS JD", "南": "全红", "西": NOBODY, "北": NOBODY})
    assert r.player("东").raw == 0
    r = score_hand({"东": "10C 3H", "南": "QS JD", "西": "H:AKQJ1098765 2H 4H", "北": NOBODY})
    assert r.player("东").raw == 0
    assert not r.player("东").transformer_alone


def test_rulings_4_4_online_transformer_with_only_zero_hearts_is_plus_50() -> None:
    hand = {"东": "10C 2H 3H", "南": "QS JD", "西": "H:AKQJ1098765 4H", "北": NOBODY}
    assert score_hand(hand, variant="online").player("东").raw == 50
    assert score_hand(hand, variant="classic").player("东").raw == 0


def test_rulings_4_1_exposed_pig_is_minus_200_and_sheep_plus_200() -> None:
    r = score_hand(
        {"东": "QS", "南": "JD", "西": "全红 10C", "北": NOBODY}, exposed={"东": "QS", "西": "JD"}
    )
    assert raws(r)[:2] == [-200, 200]


def test_rulings_4_1_exposed_transformer_multiplies_by_4() -> None:
    r = score_hand({"东": "QS 10C", "南": "JD", "西": "全红", "北": NOBODY}, exposed={"南": "10C"})
    assert r.player("东").raw == -400
    assert r.player("东").transformer == 4


def test_rulings_4_1_first_exposed_counts_four_times() -> None:
    r = score_hand(
        {"东": "QS", "南": "JD", "西": "全红 10C", "北": NOBODY}, first_exposed={"东": "QS"}
    )
    assert r.player("东").raw == -400


def test_rulings_3_classic_hearts_sum_to_minus_200_and_dehong_to_minus_230() -> None:
    # All 13 hearts would be full red, so 东 takes twelve and 西 the 2♥.
    hand = {"东": "H:AKQJ109876543", "南": "QS JD 10C", "西": "2H", "北": ""}
    assert score_hand(hand).player("东").raw == -200
    assert score_hand(hand, variant="dehong").player("东").raw == -220
    assert score_hand(hand, variant="dehong").player("西").raw == -10


def test_rulings_4_5_dehong_full_red_is_plus_200_although_its_hearts_sum_to_minus_230() -> None:
    r = score_hand({"东": "全红", "南": "QS", "西": "JD", "北": "10C"}, variant="dehong")
    assert r.player("东").raw == 200


def test_rulings_4_2_dehong_has_no_auto_exposure() -> None:
    hand = {"东": "全红 QS JD 10C", "南": NOBODY, "西": NOBODY, "北": NOBODY}
    exposed = {"东": "QS AH", "南": "JD"}
    assert score_hand(hand, exposed=exposed, variant="dehong").players[0].raw == 1600
    assert score_hand(hand, exposed=exposed, variant="classic").players[0].raw == 3200


SEED_RAWS = (-120, -280, 0, 160)


def test_rulings_6_2_zero_sum_normalization() -> None:
    assert normalize(SEED_RAWS, Normalization()) == (-80, -293, 80, 293)


def test_rulings_6_4_zero_sum_scaled_by_12() -> None:
    assert normalize(SEED_RAWS, Normalization(scale=12)) == (-960, -3516, 960, 3516)


def test_rulings_6_3_jj_normalization() -> None:
    assert normalize(SEED_RAWS, Normalization("jj")) == (-240, -880, 240, 880)


def test_rulings_6_1_none_keeps_raws() -> None:
    assert normalize(SEED_RAWS, Normalization("none")) == SEED_RAWS


def test_rulings_6_2_exact_rounding_keeps_thirds() -> None:
    finals = normalize(SEED_RAWS, Normalization("zero-sum", rounding="exact"))
    assert finals == (-80, Fraction(-880, 3), 80, Fraction(880, 3))


def test_rulings_6_seed_normalization_from_real_cards() -> None:
    # The sample hand sample_hands/seed_normalization.yaml, scored end to end.
    hand = {"A": "♥AKQ", "B": "pig transformer ♥5678", "C": "♥234", "D": "sheep ♥9 ♥10 ♥J"}
    r = score_hand(hand, exposed={"D": "sheep"})
    assert raws(r) == list(SEED_RAWS)
    assert list(r.finals) == [-80, -293, 80, 293]
    assert list(score_hand(hand, exposed={"D": "JD"}, scale=12).finals) == [-960, -3516, 960, 3516]
    assert list(score_hand(hand, exposed={"D": "JD"}, variant="jj").finals) == [
        -240, -880, 240, 880,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "method"),
    [("classic", "zero-sum"), ("online", "zero-sum"), ("dehong", "none"), ("jj", "jj")],
)
def test_rulings_6_defaults_per_variant(variant: str, method: str) -> None:
    r = score_hand({"A": "全红", "B": "QS", "C": "JD", "D": "10C"}, variant=variant)
    assert r.normalization.method.value == method
