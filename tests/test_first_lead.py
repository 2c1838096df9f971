"""The first lead (首引, issue 14, rulings §10), each custom in the ledger and in replay: ♣2 led
by its holder and led first (classic), 3♠'s holder leading any card (德宏), rotation by seat
(JJ 搭档, or any rule set that says so) over eight hands."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import yaml
from clitools import SAMPLES, done, ok, run
from strategies import play_random_hand

from gongzhu_score import Card
from gongzhu_score.io.records import parse_record
from gongzhu_score.io.yamlfile import load_yaml
from gongzhu_score.play.replay import replay

NAMES = ["东", "南", "西", "北"]
SPADE_THREE, CLUB_TWO = Card.parse("3S"), Card.parse("2C")


def violations(data: dict) -> list[str]:  # type: ignore[type-arg]
    return [v.text() for v in replay(parse_record(data)).violations]


# --- the rules as data ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "first_lead", "with_partners", "card", "must"),
    [
        ("classic", "pig", None, "2C", True),
        ("online", "pig", None, "2C", True),
        ("two-deck", "pig", None, "2C", True),
        ("jj", "pig", "rotation", "2C", False),
        ("dehong", "pig", None, "3S", False),
    ],
)
def test_contract_variants_show_the_first_lead_rules(
    variant: str, first_lead: str, with_partners: str | None, card: str, must: bool
) -> None:
    data = yaml.safe_load(ok("variants", "show", variant, "--format", "yaml"))
    assert (data["first_lead"], data["first_lead_with_partners"]) == (first_lead, with_partners)
    assert (data["opening_card"], data["opening_card_must_be_played"]) == (card, must)


def test_a_house_rules_file_sets_the_first_lead(tmp_path: Path) -> None:
    rules = tmp_path / "ours.yaml"
    rules.write_text(
        "extends: classic\nname: ours\nfirst_lead: rotation\nopening_card: 7S\n"
        "opening_card_must_be_played: false\n",
        encoding="utf-8",
    )
    shown = ok("explain", str(SAMPLES / "seed_minus_400.yaml"), "--rules", str(rules))
    assert "First lead (首引): by rotation, hand k of a match is led by seat" in shown
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: classic\nname: bad\nfirst_lead: dealer\n", encoding="utf-8")
    r = run("score", str(SAMPLES / "seed_minus_400.yaml"), "--rules", str(bad))
    assert r.exit_code == 2
    assert "first_lead: pig or rotation, not 'dealer'" in r.stderr


# --- the ledger ----------------------------------------------------------------------------------


def new_ledger(tmp_path: Path, *options: str) -> str:
    path = str(tmp_path / "match.yaml")
    done("match", "new", path, "--players", ",".join(NAMES), *options)
    return path


def show(path: str) -> dict:  # type: ignore[type-arg]
    return json.loads(ok("match", "show", path, "--format", "json"))


# Hands that end nobody's match in eight: full red and "猪羊变压器" (0) go round the table.
def small_hand(k: int) -> list[str]:
    red, zero = NAMES[k % 4], NAMES[(k + 1) % 4]
    rest = [n for n in NAMES if n not in (red, zero)]
    return ["-c", f"{red}=全红", "-c", f"{zero}=猪 羊 变压器", "-c", f"{rest[0]}=",
            "--rest", rest[1]]  # fmt: skip


def test_contract_rotation_over_eight_hands_in_the_ledger_jj_partners(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path, "--variant", "jj", "--teams", "partners")
    assert show(ledger)["next_lead"] == ["东"]
    assert "no hands yet; 东 leads the first hand (rotation: seat 1)" in ok("match", "show", ledger)
    for k in range(1, 9):
        ok("match", "add", ledger, *small_hand(k))
        data = show(ledger)
        assert not data["ended"]
        assert data["next_lead"] == [NAMES[k % 4]], k  # seat (k mod 4) + 1
    assert "东 leads the next hand (rotation: seat 1)" in ok("match", "show", ledger)


def test_rotation_from_a_house_rules_file_individual_play(tmp_path: Path) -> None:
    rules = tmp_path / "rotation.yaml"
    rules.write_text("extends: classic\nname: rotation\nfirst_lead: rotation\n", encoding="utf-8")
    ledger = new_ledger(tmp_path, "--rules", str(rules))
    for k in range(1, 9):
        ok("match", "add", ledger, *small_hand(k))
        assert show(ledger)["next_lead"] == [NAMES[k % 4]]


def test_jj_individual_play_follows_the_pig(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path, "--variant", "jj")
    ok("match", "add", ledger, *small_hand(2))  # 北 takes the pig
    assert show(ledger)["next_lead"] == ["北"]


def test_dehong_spade_three_opens_the_match_then_the_pig_leads(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path, "--variant", "dehong")
    assert show(ledger)["next_lead"] == []
    assert "the holder of 3♠ leads the first hand" in ok("match", "show", ledger)
    assert "黑桃3" in ok("match", "show", ledger, "--lang", "zh")
    ok("match", "add", ledger, *small_hand(1))  # 西 takes the pig
    assert show(ledger)["next_lead"] == ["西"]


def test_classic_club_two_opens_the_match(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path)
    assert "the holder of 2♣ leads the first hand" in ok("match", "show", ledger)


# --- replay --------------------------------------------------------------------------------------


def sample_record() -> dict:  # type: ignore[type-arg]
    text = (SAMPLES / "record.yaml").read_text(encoding="utf-8")
    data = load_yaml(text, "record", keep_text=True)
    assert isinstance(data, dict)
    return copy.deepcopy(data)


def test_rulings_10_club_two_must_be_led_first_classic() -> None:
    data = sample_record()
    assert violations(data) == []
    # 东 holds 2♣ and leads, but 3♣ first (2♣ goes in trick 8 instead)
    data["tricks"][0]["cards"][0] = "3C"
    data["tricks"][7]["cards"][0] = "2C"
    assert violations(data) == ["trick 1: 东 led 3♣, not 2♣ (the first hand opens with 2♣)"]
    # the same record under JJ (any card may be led) is legal
    data["variant"] = "jj"
    assert violations(data) == []


@pytest.mark.parametrize("seed", range(6))
def test_rulings_10_spade_three_free_dehong(seed: int) -> None:
    rng = random.Random(seed)
    record, _ = play_random_hand(rng, NAMES, holder_of=SPADE_THREE, leads_it=False)
    record["variant"] = "dehong"
    record["hand"] = 1
    assert violations(record) == []
    holder = record["tricks"][0]["lead"]  # type: ignore[index]
    # the same hand under classic: the holder of 2♣ had to lead it
    classic = {**record, "variant": "classic"}
    club_holder = next(n for n in NAMES if "2C" in record["deal"][n])  # type: ignore[index]
    found = violations(classic)
    if club_holder != holder:
        assert found[0].startswith(f"trick 1: {holder} led, but {club_holder} held 2♣")
    elif record["tricks"][0]["cards"][0] != "2C":  # type: ignore[index]
        assert found[0].startswith(f"trick 1: {holder} led ")
    # a later hand of the match: whoever took the pig leads (not checked from one record)
    assert violations({**record, "hand": 2}) == []


def test_rulings_10_the_wrong_player_leads_dehong() -> None:
    rng = random.Random(11)
    record, _ = play_random_hand(rng, NAMES, holder_of=SPADE_THREE, leads_it=False)
    holder = record["tricks"][0]["lead"]  # type: ignore[index]
    other = NAMES[(NAMES.index(holder) + 1) % 4]
    record2, _ = play_random_hand(random.Random(11), NAMES, leader=other)
    record2 = {**record2, "deal": record2["deal"], "variant": "dehong", "hand": 1}
    # (the same seed deals the same cards: the holder of 3♠ is the same player)
    assert record2["deal"] == record["deal"]
    assert violations(record2)[0] == (
        f"trick 1: {other} led, but {holder} held 3♠ (in the first hand the holder of 3♠ leads it)"
    )


@pytest.mark.parametrize("number", range(1, 9))
def test_rulings_10_rotation_over_eight_hands_in_replay(number: int) -> None:
    seat = (number - 1) % 4
    rng = random.Random(number)
    record, _ = play_random_hand(rng, NAMES, leader=NAMES[seat])
    record.update({"variant": "jj", "teams": "partners", "hand": number})
    assert violations(record) == []
    wrong, _ = play_random_hand(rng, NAMES, leader=NAMES[(seat + 1) % 4])
    wrong.update({"variant": "jj", "teams": "partners", "hand": number})
    assert violations(wrong) == [
        f"trick 1: {NAMES[(seat + 1) % 4]} led, but hand {number} is led by seat {seat + 1}, "
        f"{NAMES[seat]} (rotation)"
    ]
    # without partners JJ follows the pig: only hand 1 is checked (2♣'s holder, any card)
    individual = {**wrong, "teams": None}
    individual.pop("teams")
    found = violations(individual)
    assert all("rotation" not in f for f in found)


def test_replay_cli_reports_a_rotation_violation(tmp_path: Path) -> None:
    record, _ = play_random_hand(random.Random(3), NAMES, leader="南")
    record.update({"variant": "jj", "teams": "partners", "hand": 5})
    path = tmp_path / "r.yaml"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    r = run("replay", str(path), "--format", "json")
    assert r.exit_code == 1
    assert json.loads(r.stdout)["violations"] == [
        "trick 1: 南 led, but hand 5 is led by seat 1, 东 (rotation)"
    ]
