"""The rules of play are the rules in force (issue 21, rulings §10): every first-lead setting,
through every door that reads a trick-by-trick record (replay, score, explain, compare, batch,
match add), judged by the command line's (or the match's) rules, not the record's own."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from clitools import run
from strategies import play_random_hand

from gongzhu_score.io.records import InForce, parse_record
from gongzhu_score.io.variants import load_rules
from gongzhu_score.play.replay import replay

NAMES = ["东", "南", "西", "北"]
SEED = 3  # a deal in which 2♣ (西), ♠3 and ♠7 (南) and seat 1 (东) are three players apart


def deal_holder(code: str) -> str:
    record, _ = play_random_hand(random.Random(SEED), NAMES, expose=False)
    return next(n for n in NAMES if code in record["deal"][n])  # type: ignore[index]


def test_the_deal_is_the_one_the_cases_need() -> None:
    assert (deal_holder("2C"), deal_holder("3S"), deal_holder("7S")) == ("西", "南", "南")


def hand(own_variant: str, **lead: object) -> dict:  # type: ignore[type-arg]
    """The first hand of a match (``hand: 1``) from the seed's deal, led as ``lead`` says, the
    record naming ``own_variant`` as its own rules."""
    record, _ = play_random_hand(random.Random(SEED), NAMES, expose=False, **lead)  # type: ignore[arg-type]
    return {**record, "variant": own_variant, "hand": 1}


RULES = {
    "rotation": "extends: classic\nname: rotation\nfirst_lead: rotation\n",
    "pig": "extends: classic\nname: pig\nfirst_lead: pig\n",  # classic's own: 2♣, led
    "holder": "extends: classic\nname: folk\nfirst_lead: holder\nopening_card: 7S\n"
    "opening_card_must_be_played: false\n",
}

# setting → (the record's own variant, a hand the setting allows and the record's own rules
# refuse, a hand the setting refuses and the record's own rules allow, the setting's message)
CASES = {
    # seat 1 (东) leads hand 1, any card; classic wanted 2♣'s holder (西) leading 2♣
    "rotation": ("classic", {"leader": "东"}, {"first_hand": True},
                 "trick 1: 西 led, but hand 1 is led by seat 1, 东 (rotation)"),
    # 2♣'s holder leads 2♣ in a match's first hand; 德宏 wanted ♠3's holder (南)
    "pig": ("dehong", {"first_hand": True}, {"leader": "南"},
            "trick 1: 南 led, but 西 held 2♣ (in the first hand the holder of 2♣ leads it)"),
    # ♠7's holder (南) leads every hand, any card; classic wanted 2♣'s holder (西)
    "holder": ("classic", {"leader": "南"}, {"first_hand": True},
               "trick 1: 西 led, but 南 held 7♠ (every hand is led by the holder of 7♠)"),
}  # fmt: skip


def files(tmp_path: Path, setting: str, which: int) -> tuple[str, str]:
    own, good, bad, _ = CASES[setting]
    rules = tmp_path / f"{setting}.yaml"
    rules.write_text(RULES[setting], encoding="utf-8")
    record = tmp_path / "record.yaml"
    record.write_text(json.dumps(hand(own, **(good, bad)[which]), ensure_ascii=False),
                      encoding="utf-8")  # fmt: skip
    return str(rules), str(record)


@pytest.mark.parametrize("setting", sorted(CASES))
def test_the_library_judges_by_the_rules_in_force(setting: str, tmp_path: Path) -> None:
    own, good, bad, message = CASES[setting]
    rules_file, _ = files(tmp_path, setting, 0)
    rules = load_rules(rules_file)
    for lead, wanted in ((good, []), (bad, [message])):
        data = hand(own, **lead)
        assert [v.text() for v in replay(parse_record(data, InForce(rules))).violations] == wanted
        # by the record's own rules, the other way round
        assert bool(replay(parse_record(data)).violations) == (lead is good)


@pytest.mark.parametrize("setting", sorted(CASES))
def test_replay_door(setting: str, tmp_path: Path) -> None:
    for which, code in ((0, 0), (1, 1)):
        rules, record = files(tmp_path, setting, which)
        r = run("replay", record, "--rules", rules, "--format", "json")
        assert r.exit_code == code, r.stdout
        assert json.loads(r.stdout)["violations"] == ([] if code == 0 else [CASES[setting][3]])
        # without --rules the record's own variant judges, and says the opposite
        assert run("replay", record).exit_code == 1 - code


@pytest.mark.parametrize("door", ["score", "explain"])
@pytest.mark.parametrize("setting", sorted(CASES))
def test_score_and_explain_doors(setting: str, door: str, tmp_path: Path) -> None:
    for which in (0, 1):
        rules, record = files(tmp_path, setting, which)
        r = run(door, record, "--rules", rules)
        if which == 0:
            assert r.exit_code == 0, r.stderr
        else:
            assert r.exit_code == 2
            assert "the record breaks the rules of play" in r.stderr
            assert CASES[setting][3] in r.stderr


@pytest.mark.parametrize("setting", sorted(CASES))
def test_compare_judges_the_play_by_the_records_own_rules(setting: str, tmp_path: Path) -> None:
    """The rule sets compared are what-ifs for the score: the play is the table's, judged by the
    record's own variant, whichever sets are compared."""
    for which in (0, 1):
        rules, record = files(tmp_path, setting, which)
        r = run("compare", record, "--rules", rules, "-v", "classic", "-v", "jj")
        assert r.exit_code == (2 if which == 0 else 0), r.stderr
        if which == 0:
            assert "the record breaks the rules of play" in r.stderr


@pytest.mark.parametrize("setting", sorted(CASES))
def test_batch_door(setting: str, tmp_path: Path) -> None:
    for which in (0, 1):
        rules, record = files(tmp_path, setting, which)
        lines = tmp_path / "hands.jsonl"
        lines.write_text(Path(record).read_text(encoding="utf-8") + "\n", encoding="utf-8")
        r = run("batch", str(lines), "--rules", rules, "--format", "jsonl")
        if which == 0:
            assert r.exit_code == 0, r.stderr
            assert len(r.stdout.splitlines()) == 1
        else:
            assert r.exit_code == 2
            assert CASES[setting][3] in r.stderr


@pytest.mark.parametrize("setting", sorted(CASES))
def test_match_add_door(setting: str, tmp_path: Path) -> None:
    for which in (0, 1):
        rules, record = files(tmp_path, setting, which)
        ledger = tmp_path / f"match{which}.yaml"
        made = run("match", "new", str(ledger), "--players", ",".join(NAMES), "--rules", rules)
        assert made.exit_code == 0, made.stderr
        before = ledger.read_bytes()
        r = run("match", "add", str(ledger), record)
        if which == 0:
            assert r.exit_code == 0, r.stderr
        else:
            assert r.exit_code == 2
            assert CASES[setting][3] in r.stderr
            assert ledger.read_bytes() == before


def test_teams_on_the_command_line_choose_the_first_lead_rule(tmp_path: Path) -> None:
    """JJ individual play follows the pig (2♣'s holder opens a match, any card); JJ 搭档
    rotates: `--teams partners` on the command line wins over a record that says nothing."""
    record = tmp_path / "r.yaml"
    record.write_text(json.dumps(hand("jj", leader="东"), ensure_ascii=False), encoding="utf-8")
    assert run("replay", str(record)).exit_code == 1  # 西 holds 2♣
    assert run("replay", str(record), "--teams", "partners").exit_code == 0
    assert run("score", str(record), "--teams", "partners").exit_code == 0
    assert run("score", str(record)).exit_code == 2
    assert run("replay", str(record), "--variant", "classic", "--teams", "partners").exit_code == 1


def test_a_variant_and_a_rules_file_together_are_refused(tmp_path: Path) -> None:
    rules, record = files(tmp_path, "holder", 0)
    r = run("replay", record, "--rules", rules, "--variant", "classic")
    assert r.exit_code == 2
    assert "--rules" in r.stderr or "rules" in r.stderr


# --- a match judges each record as its own hand N -------------------------------------------------


def played(seed: int, **lead: object) -> dict:  # type: ignore[type-arg]
    """A random legal hand (no exposures, no hand number, its own variant classic)."""
    record, _ = play_random_hand(random.Random(seed), NAMES, expose=False, **lead)  # type: ignore[arg-type]
    return record


def holder_of(record: dict, code: str) -> str:  # type: ignore[type-arg]
    return next(n for n in NAMES if code in record["deal"][n])


def match_of(tmp_path: Path, rules_text: str) -> Path:
    rules = tmp_path / "rules.yaml"
    rules.write_text(rules_text, encoding="utf-8")
    ledger = tmp_path / "match.yaml"
    made = run("match", "new", str(ledger), "--players", ",".join(NAMES), "--rules", str(rules),
               "--end-at", "-100000")  # fmt: skip
    assert made.exit_code == 0, made.stderr
    return ledger


def add(ledger: Path, record: dict, tmp_path: Path):  # type: ignore[no-untyped-def, type-arg]
    path = tmp_path / "hand.yaml"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    return run("match", "add", str(ledger), str(path))


def test_a_holder_match_with_spade_two_any_card_takes_each_hand_and_refuses_another_leader(
    tmp_path: Path,
) -> None:
    """The public engine's custom: ♠2's holder leads every hand, with any card."""
    ledger = match_of(tmp_path, "extends: classic\nname: spade-two\nfirst_lead: holder\n"
                                "opening_card: 2S\nopening_card_must_be_played: false\n")  # fmt: skip
    leads = []
    for seed in range(6):
        deal = played(seed)
        leader = holder_of(deal, "2S")
        other = NAMES[(NAMES.index(leader) + 1) % 4]
        wrong = played(seed, leader=other)
        before = ledger.read_bytes()
        r = add(ledger, wrong, tmp_path)
        assert r.exit_code == 2
        assert f"{other} led, but {leader} held 2♠ (every hand is led by the holder of 2♠)" in (
            r.stderr
        )
        assert ledger.read_bytes() == before
        right = played(seed, leader=leader)
        leads.append(right["tricks"][0]["cards"][0])  # type: ignore[index]
        r = add(ledger, right, tmp_path)
        assert r.exit_code == 0, r.stderr
    assert (
        len(json.loads(run("match", "show", str(ledger), "--format", "json").stdout)["hands"]) == 6
    )
    assert any(card != "2S" for card in leads)  # any card: the holder need not lead ♠2


def test_a_rotation_match_refuses_the_wrong_seat_at_every_hand_number(tmp_path: Path) -> None:
    ledger = match_of(tmp_path, "extends: classic\nname: rotation\nfirst_lead: rotation\n")
    for number in range(1, 10):
        seat = (number - 1) % 4
        wrong_seat = (seat + 1) % 4
        # the record's own `hand:` says otherwise; the match's count wins
        wrong = {**played(number, leader=NAMES[wrong_seat]), "hand": wrong_seat + 1}
        r = add(ledger, wrong, tmp_path)
        assert r.exit_code == 2, number
        assert (f"{NAMES[wrong_seat]} led, but hand {number} is led by seat {seat + 1}, "
                f"{NAMES[seat]} (rotation)") in r.stderr  # fmt: skip
        assert add(ledger, played(number, leader=NAMES[seat]), tmp_path).exit_code == 0, number


def test_a_pig_match_wants_the_pig_taker_of_the_hand_before(tmp_path: Path) -> None:
    ledger = match_of(tmp_path, "extends: classic\nname: pig\n")
    first = played(1, first_hand=True)
    assert add(ledger, first, tmp_path).exit_code == 0
    taker = json.loads(run("match", "show", str(ledger), "--format", "json").stdout)["next_lead"]
    assert len(taker) == 1
    other = NAMES[(NAMES.index(taker[0]) + 1) % 4]
    r = add(ledger, played(2, leader=other), tmp_path)
    assert r.exit_code == 2
    assert f"{other} led, but {taker[0]} took the pig in hand 1, so leads hand 2" in r.stderr
    assert add(ledger, played(2, leader=taker[0]), tmp_path).exit_code == 0
    # hand 1 edited: the match's first hand again wants 2♣'s holder leading 2♣
    not_clubs = next(n for n in NAMES if n != holder_of(played(5), "2C"))
    path = tmp_path / "edit.yaml"
    path.write_text(json.dumps(played(5, leader=not_clubs), ensure_ascii=False), encoding="utf-8")
    before = ledger.read_bytes()
    r = run("match", "edit", str(ledger), "1", str(path))
    assert r.exit_code == 2
    assert f"{not_clubs} led, but" in r.stderr
    assert "held 2♣ (in the first hand the holder of 2♣ leads it)" in r.stderr
    assert ledger.read_bytes() == before
