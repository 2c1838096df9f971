"""Variants are data: one registry, printable rule tables, and tables that agree with the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gongzhu_score import VARIANTS, RulesError, find_variant, load_rules, score_hand
from gongzhu_score.render.variants import rule_table


def test_registry_has_the_five_variants() -> None:
    assert list(VARIANTS) == ["classic", "dehong", "jj", "online", "two-deck"]


@pytest.mark.parametrize(
    ("name", "expected"), [("CLASSIC", "classic"), (" jj ", "jj"), ("德宏", "dehong")]
)
def test_find_variant_is_case_insensitive_with_aliases(name: str, expected: str) -> None:
    assert find_variant(name).name == expected


def test_unknown_variant_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="known: classic, dehong, jj, online, two-deck"):
        find_variant("two-decks-of-fun")


def test_rule_tables_share_one_schema_so_they_diff() -> None:
    keys = {name: list(rule_table(v)) for name, v in VARIANTS.items()}
    assert len({tuple(k) for k in keys.values()}) == 1


def test_variants_differ_only_where_the_rulings_say() -> None:
    classic = rule_table(VARIANTS["classic"])
    changed = {
        name: sorted(
            k
            for k, v in rule_table(v_).items()
            if classic[k] != v and k not in ("name", "title", "title_zh", "source")
        )
        for name, v_ in VARIANTS.items()
    }
    assert changed["online"] == [
        "first_exposure_allowed",
        "first_lead",
        "opening_card_must_be_played",
        "transformer_alone_values",
        "transformer_multipliers",
        "zero_hearts_are_scoring",
    ]
    assert changed["dehong"] == [
        "auto_exposure",
        "first_lead",
        "heart_values",
        "normalize",
        "opening_card",
        "opening_card_must_be_played",
    ]
    assert changed["jj"] == [
        "first_exposure_allowed",
        "first_lead_with_partners",
        "normalize",
        "opening_card_must_be_played",
        "transformer_alone_values",
        "transformer_multipliers",
    ]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_printed_grand_slam_figures_match_the_engine(name: str) -> None:
    decks = VARIANTS[name].decks
    text = str(rule_table(VARIANTS[name])["grand_slam_rule"])
    plain, exposed = map(int, re.findall(r"(\d+) (?:nothing|all) exposed", text))
    hand = {"东": "全红 " + " ".join(["QS JD 10C"] * decks), "南": "", "西": "", "北": ""}
    assert score_hand(hand, variant=name).players[0].raw == plain
    everything = {"东": " ".join(["QS JD 10C AH"] * decks)}
    assert score_hand(hand, variant=name, exposed=everything).players[0].raw == exposed


@pytest.mark.parametrize("name", list(VARIANTS))
def test_printed_lone_transformer_values_match_the_engine(name: str) -> None:
    rules = VARIANTS[name]
    text = str(rule_table(rules)["transformer_alone_values"])
    values = [int(v) for v in re.findall(r"\+(\d+)", text)]
    hand = {"东": "10C", "南": "", "西": "", "北": ""}
    for copies, value in enumerate(values[: rules.decks + 1]):
        exposed = {"南": " ".join(["10C"] * copies)} if copies else None
        r = score_hand(hand, variant=name, exposed=exposed, rest="北")
        assert r.players[0].raw == value
    if rules.first_exposure_allowed:
        r = score_hand(hand, variant=name, first_exposed={"东": "10C"}, rest="北")
        assert r.players[0].raw == values[-1]


# --- where published texts differ: the house-rules files in sample_hands/rules/ (docs/rules.md) -

RULES_SAMPLES = Path(__file__).resolve().parent.parent / "sample_hands" / "rules"
FULL_RED_AND_PIG = {"东": "", "南": "全红 猪", "西": "羊 变压器", "北": ""}
SLAM = {"东": "AS KS", "南": "", "西": "全红 猪 羊 变压器", "北": ""}
ALL_EXPOSED = {"西": "QS JD 10C AH"}


@pytest.mark.parametrize(
    ("file", "captured", "exposed", "taker", "built_in", "published"),
    [
        ("full_red_pig_plus.yaml", FULL_RED_AND_PIG, {}, "南", ("classic", 100), 300),
        ("grand_slam_1600.yaml", SLAM, {}, "西", ("classic", 800), 1600),
        ("online_slam_3200.yaml", SLAM, {}, "西", ("online", 800), 3200),
        ("online_slam_3200.yaml", SLAM, ALL_EXPOSED, "西", ("online", 3200), 12800),
    ],
)
def test_each_house_rules_file_reproduces_its_published_number(
    file: str,
    captured: dict[str, str],
    exposed: dict[str, str],
    taker: str,
    built_in: tuple[str, int],
    published: int,
) -> None:
    rules = load_rules(str(RULES_SAMPLES / file))
    hand = score_hand(captured, exposed=exposed, variant=rules)
    assert hand.player(taker).raw == published
    assert (
        score_hand(captured, exposed=exposed, variant=built_in[0]).player(taker).raw == built_in[1]
    )
    assert f"`{file}`" in (RULES_SAMPLES.parent.parent / "docs" / "rules.md").read_text(
        encoding="utf-8"
    )
