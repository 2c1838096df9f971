"""Settling disputes: explain (golden files, en and zh), compare, house rules, claims."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from clitools import SAMPLES, done, golden, ok, refused, run, sample
from hypothesis import given
from hypothesis import strategies as st
from strategies import RandomHand, legal_hands

from gongzhu_score import HEARTS, PIG, VARIANTS, Hand, load_rules, score, score_hand

EXPLAINED = [
    ("seed_minus_400", []),
    ("seed_normalization", ["--scale", "12"]),
    ("seed_grand_slam", []),
    ("seed_grand_slam_all_exposed", []),
    ("seed_full_red", []),
    ("seed_lone_transformer", []),
    ("auto_exposure", []),
    ("first_exposed", []),
    ("online_zero_hearts", []),
    ("seed_partners", []),
    ("pig_sheep_one_against_three", []),
    ("two_deck_seed_minus_3200", []),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("name", "options"), EXPLAINED)
def test_explain_golden(name: str, options: list[str], lang: str) -> None:
    golden(
        f"explain_{name}_{lang}.txt",
        ok("explain", sample(f"{name}.yaml"), "--lang", lang, *options),
    )


def test_explain_jj_normalization_and_flags() -> None:
    out = ok("explain", sample("seed_normalization.yaml"), "--normalize", "jj")
    assert "B: 3 × -280 − (-120 + 0 + 160) = -880" in out
    flags = ok("explain", "-c", "东=QS 6H 8H 10H JH 10C", "-c", "南=AH 2H 3H 4H 5H 7H 9H",
               "-c", "西=JD QH KH", "-c", "北=", "-e", "南=AH")  # fmt: skip
    assert flags == ok("explain", sample("seed_minus_400.yaml"))


def test_the_minus_400_derivation_reads_rule_by_rule() -> None:
    out = ok("explain", sample("seed_minus_400.yaml"))
    assert "2. Hearts 6♥ 8♥ 10♥ J♥: -10 -10 -10 -20 = -50 (rule heart_values)" in out
    assert "3. A♥ was exposed by 南 (亮牌): ×2, -50 × 2 = -100 (rule exposure_levels)" in out
    assert (
        "6. The transformer 10♣ (变压器) multiplies by 2: -200 × 2 = -400 (rule transformer_multiplier)"
        in out
    )
    assert "东: -400 − (-160 + -40 + 0)/3 = -333⅓ → -333" in out


def test_score_explain_prints_the_table_then_the_derivation() -> None:
    out = ok("score", sample("seed_minus_400.yaml"), "--explain")
    table, _, derivation = out.partition("\n\nRules: classic")
    assert "transformer ×2" in table
    assert "Raw score (原始分): -400." in derivation


# --- claims -------------------------------------------------------------------------------------


def test_a_wrong_claim_shows_the_right_number_and_exits_3() -> None:
    r = run("score", sample("seed_minus_400.yaml"), "--claim", "东=-200", "--claim", "南=-160")
    assert r.exit_code == 3
    assert "东 claimed -200: WRONG, the raw score is -400 (the claim is off by +200)" in r.stdout
    assert "南 claimed -160: right" in r.stdout


def test_right_claims_exit_0() -> None:
    out = ok("score", sample("seed_minus_400.yaml"), "--claim", "东=−400", "--claim", "北=０")
    assert "东 claimed -400: right" in out


def test_claims_of_final_scores() -> None:
    r = run("score", sample("seed_minus_400.yaml"), "--claims-are", "final", "--claim", "东=-400")
    assert r.exit_code == 3
    assert "the final score is -333 (the claim is off by -67)" in r.stdout
    assert (
        run(
            "score", sample("seed_minus_400.yaml"), "--claims-are", "final", "--claim", "东=-333"
        ).exit_code
        == 0
    )


def test_claims_in_the_hand_file_and_json(tmp_path: Path) -> None:
    hand = tmp_path / "claimed.yaml"
    hand.write_text(
        sample_text("seed_minus_400.yaml").replace(
            "  - name: 南\n", "  - name: 南\n    claimed: -200\n"
        ),
        encoding="utf-8",
    )
    r = run("score", str(hand), "-f", "json")
    assert r.exit_code == 3
    claims = json.loads(r.stdout)["claims"]
    assert claims == [
        {
            "name": "南",
            "claimed": -200,
            "of": "raw",
            "actual": -160,
            "correct": False,
            "difference": -40,
        }
    ]
    # a flag overrides the file's claim
    assert run("score", str(hand), "--claim", "南=-160").exit_code == 0


def test_explain_checks_claims_in_chinese() -> None:
    r = run("explain", sample("seed_minus_400.yaml"), "--lang", "zh", "--claim", "东=-200")
    assert r.exit_code == 3
    claims = r.stdout.partition("\n自报得分：\n")[2]
    assert claims.startswith("  东 自报 -200：不对，原始分应为 -400（差 +200）\n  试过的 ")
    assert claims.endswith(
        "套规则中，有 1 套使东的原始分为 -200：\n"
        "    1. classic，改动 变压器倍数 transformer_multiplier 2 → 1\n"
        "       本桌规则文件（score --rules 文件）：{extends: classic, name: classic-as-claimed, "
        "transformer_multiplier: 1}\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--claim", "东=abc"], "--claim 东: 'abc' is not a whole number, e.g. -400"),
        (["--claim", "X=5"], "claim for 'X': no such player (东, 南, 西, 北)"),
        (["--claim", "东"], "--claim '东': expected NAME=SCORE, e.g. --claim 南=-200"),
    ],
)
def test_bad_claims(args: list[str], message: str) -> None:
    assert refused("score", sample("seed_minus_400.yaml"), *args) == message


def sample_text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


# --- compare ------------------------------------------------------------------------------------


def test_compare_golden() -> None:
    golden("compare_minus_400.txt", ok("compare", sample("seed_minus_400.yaml")))
    golden("compare_first_exposed_zh.txt",
           ok("compare", sample("first_exposed.yaml"), "-v", "classic", "-v", "dehong", "-v", "two-deck", "--lang", "zh"))  # fmt: skip


def test_compare_names_the_rule_that_makes_the_difference() -> None:
    data = json.loads(
        ok(
            "compare",
            sample("online_zero_hearts.yaml"),
            "-v",
            "online",
            "-v",
            "classic",
            "-f",
            "json",
        )
    )
    assert data["variants"] == ["online", "classic"]
    assert data["players"][0] == {
        "name": "Ann",
        "scores": {"online": {"raw": 50, "final": 117}, "classic": {"raw": 0, "final": 67}},
    }
    effects = {e["rule"]: e for e in data["differences"]["classic"]}
    assert effects["zero_hearts_are_scoring"]["raw_changes"] == [
        {"player": "Ann", "before": 50, "after": 0}
    ]
    assert effects["first_exposure_allowed"]["raw_changes"] == []


def test_compare_with_house_rules(tmp_path: Path) -> None:
    rules = tmp_path / "ours.yaml"
    rules.write_text(ok("variants", "show", "classic", "--format", "yaml").replace("name: classic", "name: ours")
                     .replace("full_red_pig_positive: false", "full_red_pig_positive: true"), encoding="utf-8")  # fmt: skip
    full_red_and_pig = ["-c", "东=", "-c", "南=全红 QS", "-c", "西=JD 10C", "-c", "北="]
    out = ok("compare", *full_red_and_pig, "-v", "classic", "--rules", str(rules))
    assert "full_red_pig_positive: 南 raw 100 → 300" in out


def test_compare_needs_two_rule_sets() -> None:
    assert refused("compare", sample("seed_minus_400.yaml"), "-v", "classic").startswith(
        "compare needs two or more rule sets"
    )


# --- house rules --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    folder = tmp_path_factory.mktemp("rules")
    out = {}
    for name in VARIANTS:
        path = folder / f"{name}.yaml"
        path.write_text(ok("variants", "show", name, "--format", "yaml"), encoding="utf-8")
        out[name] = load_rules(str(path))
    return out


def test_a_copied_rules_file_is_the_built_in_variant(copies: dict[str, object]) -> None:
    for name, variant in copies.items():
        assert variant == VARIANTS[name]


@given(hand=legal_hands())
def test_house_rules_copied_from_a_built_in_score_identically(
    copies: dict[str, object], hand: RandomHand
) -> None:
    a = score_hand(hand.captured, **hand.kwargs())  # type: ignore[arg-type]
    b = score_hand(hand.captured, **{**hand.kwargs(), "variant": copies[hand.variant]})  # type: ignore[arg-type]
    assert (a.raws, a.finals, [p.lines for p in a.players]) == (
        b.raws,
        b.finals,
        [p.lines for p in b.players],
    )


@st.composite
def full_red_hands(draw: st.DrawFn) -> Hand:
    """Random one-deck hands, half of them with one player holding all 13 hearts."""
    names = ["A", "B", "C", "D"]
    owner = {}
    red = draw(st.sampled_from([None, *names]))
    for card in (
        *HEARTS,
        PIG,
        *[c for c in VARIANTS["classic"].exposable if c.suit.value != "H" and c is not PIG],
    ):
        owner[card] = red if (red and card in HEARTS) else draw(st.sampled_from(names))
    return Hand.from_captured({n: [c for c, o in owner.items() if o == n] for n in names})


@given(full_red_hands())
def test_pig_positive_on_full_red_changes_exactly_those_hands(hand: Hand) -> None:
    house = replace(VARIANTS["classic"], name="house", full_red_pig_positive=True)
    plain, ours = score(hand, "classic"), score(hand, house)
    affected = {
        p.name for p in plain.players if p.full_red and PIG in p.scoring_cards and not p.grand_slam
    }
    moved = {p.name for p, q in zip(plain.players, ours.players, strict=True) if p.raw != q.raw}
    assert moved == affected
    for p, q in zip(plain.players, ours.players, strict=True):
        if p.name in affected:
            assert q.raw - p.raw == 200 * (q.transformer or 1)  # −100 became +100


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t + "bogus: 1\n", "unknown rule 'bogus'"),
        (lambda t: t.replace("pig: -100", "pig: lots"), "pig: expected a whole number, not 'lots'"),
        (lambda t: t.replace("  A: -50\n", ""), "heart_values: no value for A"),
        (
            lambda t: t.replace("- AH\n", "- KS\n"),
            "exposable: KS cannot be exposed; only QS JD 10C AH",
        ),
        (lambda t: t.replace("decks: 1", "decks: 2"), "exposure_levels: needs 3 values"),
        (
            lambda t: t.replace("full_red_mode: fixed", "full_red_mode: sideways"),
            "full_red_mode: fixed or flip",
        ),
        (
            lambda t: t.replace("auto_exposure: true", "auto_exposure: 3"),
            "auto_exposure: expected true or false",
        ),
        (
            lambda t: t.replace("normalize: zero-sum", "normalize: zerosum"),
            "normalize: none, zero-sum or jj",
        ),
        (
            lambda t: t.replace("name: classic", "naem: classic"),
            "unknown rule 'naem'; did you mean 'name'?",
        ),
        (lambda t: "- a\n- b\n", "a rules file holds a mapping of rule names to values"),
        (lambda t: "a: &x 1\nb: *x\n", "YAML anchors and aliases are not allowed here"),
    ],
)
def test_a_bad_rules_file_is_refused_with_the_rule_named(
    tmp_path: Path, change, message: str
) -> None:  # type: ignore[no-untyped-def]
    rules = tmp_path / "ours.yaml"
    rules.write_text(
        change(ok("variants", "show", "classic", "--format", "yaml")), encoding="utf-8"
    )
    got = refused("score", sample("seed_minus_400.yaml"), "--rules", str(rules))
    assert got.startswith(f"{rules}: ")
    assert message in got


def test_rules_and_variant_together_are_refused(tmp_path: Path) -> None:
    assert (
        refused("score", sample("seed_minus_400.yaml"), "--rules", "x.yaml", "-v", "jj")
        == "give --variant or --rules, not both"
    )


def test_flip_full_red_counts_the_hearts_own_values(tmp_path: Path) -> None:
    rules = tmp_path / "flip.yaml"
    rules.write_text(ok("variants", "show", "dehong", "--format", "yaml").replace("name: dehong", "name: flip")
                     .replace("full_red_mode: fixed", "full_red_mode: flip"), encoding="utf-8")  # fmt: skip
    out = json.loads(ok("score", sample("seed_full_red.yaml"), "--rules", str(rules), "-f", "json"))
    assert out["players"][1]["raw"] == 230  # 德宏's hearts add up to −230


def test_a_match_keeps_its_house_rules(tmp_path: Path) -> None:
    rules = tmp_path / "ours.yaml"
    rules.write_text(ok("variants", "show", "classic", "--format", "yaml").replace("name: classic", "name: ours")
                     .replace("full_red_pig_positive: false", "full_red_pig_positive: true"), encoding="utf-8")  # fmt: skip
    ledger = str(tmp_path / "m.yaml")
    done("match", "new", ledger, "-p", "东,南,西,北", "--rules", str(rules))
    ok("match", "add", ledger, "-c", "东=", "-c", "南=全红 QS", "-c", "西=JD 10C", "-c", "北=")
    rules.unlink()  # the ledger holds the rules itself
    data = json.loads(ok("match", "show", ledger, "-f", "json"))
    assert data["variant"] == "ours"
    assert data["hands"][0]["raw"] == [0, 300, 200, 0]
    assert done("match", "verify", ledger)[0] == ""
