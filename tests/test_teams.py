"""Team play (rulings §7): 打对家 with zero-sum and JJ 搭档, 猪羊一家 2 v 2 and 1 v 3."""

from __future__ import annotations

import pytest

from gongzhu_score import (
    GongzhuError,
    HandError,
    Normalization,
    RulesError,
    Teams,
    normalize,
    score_hand,
)

SEED_RAWS = (-190, 50, -10, 0)
PARTNERS = (0, 1, 0, 1)
# Cards giving the seed's raws (sample_hands/seed_partners.yaml).
SEED_HAND = {
    "东": "pig ♥A ♥K",
    "南": "transformer",
    "西": "♥5",
    "北": "sheep ♥Q ♥J H:1098762 ♥3 ♥4",
}


def test_rulings_7_1_partners_zero_sum() -> None:
    norm = Normalization(teams=Teams.PARTNERS)
    assert normalize(SEED_RAWS, norm, PARTNERS) == (-125, 125, -125, 125)


def test_rulings_7_1_partners_zero_sum_scaled_by_12() -> None:
    norm = Normalization(scale=12, teams=Teams.PARTNERS)
    assert normalize(SEED_RAWS, norm, PARTNERS) == (-1500, 1500, -1500, 1500)


def test_rulings_7_2_jj_partners() -> None:
    norm = Normalization("jj", teams="partners")
    assert normalize(SEED_RAWS, norm, PARTNERS) == (-250, 250, -250, 250)


def test_rulings_7_seed_partners_from_real_cards() -> None:
    r = score_hand(SEED_HAND, teams="partners")
    assert r.raws == SEED_RAWS
    assert r.finals == (-125, 125, -125, 125)
    assert score_hand(SEED_HAND, teams="partners", scale=12).finals == (-1500, 1500, -1500, 1500)
    assert score_hand(SEED_HAND, teams="partners", variant="jj").finals == (-250, 250, -250, 250)
    sides = r.sides
    assert sides is not None
    assert [(s.names, s.raw) for s in sides] == [(("东", "西"), -200), (("南", "北"), 50)]


def test_rulings_7_3_pig_sheep_two_against_two() -> None:
    r = score_hand(
        {"东": "QS H:2345", "南": "H:AK6", "西": "JD H:QJ", "北": "10C H:10987"}, teams="pig-sheep"
    )
    assert r.raws == (-110, -100, 50, -80)
    assert r.finals == (60, -60, 60, -60)  # D = (−110 + 50) − (−100 − 80) = 120, ±D/2
    assert [p.side for p in r.players] == [0, 1, 0, 1]


def test_rulings_7_3_pig_sheep_one_against_three() -> None:
    r = score_hand(
        {"东": "H:AKQ", "南": "QS JD H:2", "西": "10C H:J10", "北": "H:98765 H:43"},
        teams="pig-sheep",
    )
    assert r.raws == (-120, 0, -60, -50)
    # D = 0 − (−230) = 230: 南 gets D, each of the three −D/3 = −76⅔ → −77
    assert r.finals == (-77, 230, -77, -77)
    assert r.final_sum == -1
    exact = score_hand(
        {"东": "H:AKQ", "南": "QS JD H:2", "西": "10C H:J10", "北": "H:98765 H:43"},
        teams="pig-sheep", rounding="exact",
    )  # fmt: skip
    assert sum(exact.finals) == 0


def test_rulings_7_3_pig_sheep_allows_no_exposure() -> None:
    with pytest.raises(
        HandError, match=r"player 东: 猪羊一家 \(teams pig-sheep\) allows no exposure"
    ):
        score_hand(SEED_HAND, teams="pig-sheep", exposed={"东": "QS"})


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            {"teams": "pig-sheep", "normalize": "jj"},
            "pig-sheep .* with normalization jj is not defined",
        ),
        (
            {"teams": "partners", "normalize": "none"},
            "partners with normalization none is not defined",
        ),
        ({"teams": "trios"}, "unknown teams 'trios'"),
    ],
)
def test_rulings_7_4_undefined_combinations_are_refused(kwargs: dict[str, str], match: str) -> None:
    with pytest.raises(RulesError, match=match):
        score_hand(SEED_HAND, **kwargs)  # type: ignore[arg-type]


def test_dehong_teams_default_to_zero_sum() -> None:
    # 德宏 scores on paper (none), which teams cannot use; unasked, teams play zero-sum.
    r = score_hand(SEED_HAND, teams="partners", variant="dehong")
    assert r.normalization.method.value == "zero-sum"
    assert r.finals[0] == r.finals[2] == -r.finals[1]
    assert score_hand(SEED_HAND, variant="dehong").normalization.method.value == "none"
    jj = score_hand(SEED_HAND, teams="partners", variant="dehong", normalize="jj")
    assert jj.normalization.method.value == "jj"


def test_teams_work_with_two_decks() -> None:
    hand = {"东": "QS QS", "南": "JD JD", "西": "全红", "北": "10C 10C"}
    r = score_hand(hand, variant="two-deck", teams="partners")
    # 东+西 −200 + 400, 南+北 +200 + 100 (two 10♣ alone, ×4 → +100): D = −100
    assert r.raws == (-200, 200, 400, 100)
    assert r.finals == (-50, 50, -50, 50)
    ps = score_hand(hand, variant="two-deck", teams="pig-sheep")
    assert [p.side for p in ps.players] == [0, 0, 1, 1]
    assert ps.finals == (-250, -250, 250, 250)


def test_pig_sheep_with_every_player_on_one_side_is_refused() -> None:
    hand = {"东": "QS ♥2-A", "南": "QS ♥2-A", "西": "JD 10C", "北": "JD 10C"}
    with pytest.raises(GongzhuError, match="every player took a pig or a sheep"):
        score_hand(hand, variant="two-deck", teams="pig-sheep")
