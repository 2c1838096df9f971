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
        ("online", "holder", None, "2C", False),
        ("two-deck", "pig", None, "2C", True),
        ("jj", "pig", "rotation", "2C", False),
        ("dehong", "holder", None, "3S", False),
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
    assert "first_lead: holder, pig or rotation, not 'dealer'" in r.stderr


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


def test_dehong_spade_three_leads_every_hand(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path, "--variant", "dehong")
    assert show(ledger)["next_lead"] == []
    assert "the holder of 3♠ leads the first hand" in ok("match", "show", ledger)
    assert "黑桃3" in ok("match", "show", ledger, "--lang", "zh")
    ok("match", "add", ledger, *small_hand(1))  # 西 takes the pig, and does not lead for it
    assert show(ledger)["next_lead"] == []
    assert "the holder of 3♠ leads the next hand" in ok("match", "show", ledger)
    assert "下一局由持黑桃3者先出" in ok("match", "show", ledger, "--lang", "zh")


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
    # every hand of the match, and a record that says no number: the holder leads
    assert violations({**record, "hand": 2}) == []
    assert violations({k: v for k, v in record.items() if k != "hand"}) == []


def test_rulings_10_the_wrong_player_leads_dehong() -> None:
    rng = random.Random(11)
    record, _ = play_random_hand(rng, NAMES, holder_of=SPADE_THREE, leads_it=False)
    holder = record["tricks"][0]["lead"]  # type: ignore[index]
    other = NAMES[(NAMES.index(holder) + 1) % 4]
    record2, _ = play_random_hand(random.Random(11), NAMES, leader=other)
    record2 = {**record2, "deal": record2["deal"], "variant": "dehong", "hand": 1}
    # (the same seed deals the same cards: the holder of 3♠ is the same player)
    assert record2["deal"] == record["deal"]
    wanted = f"trick 1: {other} led, but {holder} held 3♠ (every hand is led by the holder of 3♠)"
    assert violations(record2)[0] == wanted
    assert violations({**record2, "hand": 7})[0] == wanted
    assert violations({k: v for k, v in record2.items() if k != "hand"})[0] == wanted


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


# --- first_lead: holder (online, 德宏, the folk customs) ---------------------------------------


@pytest.mark.parametrize("number", [None, 1, 2, 9])
def test_rulings_10_online_the_club_two_holder_leads_every_hand_any_card(
    number: int | None,
) -> None:
    """ "每局开始后由获得梅花2的玩家开始出牌 … 可以出任意花色的牌（比如玩家出 红心 2）"."""
    for seed in range(4):
        record, _ = play_random_hand(random.Random(seed), NAMES, holder_of=CLUB_TWO,
                                     leads_it=False, expose=False)  # fmt: skip
        record["variant"] = "online"
        if number is not None:
            record["hand"] = number
        assert violations(record) == []
        holder = record["tricks"][0]["lead"]  # type: ignore[index]
        other = NAMES[(NAMES.index(holder) + 2) % 4]
        wrong, _ = play_random_hand(random.Random(seed), NAMES, leader=other, expose=False)
        wrong = {**wrong, "variant": "online", **({"hand": number} if number else {})}
        assert violations(wrong) == [
            f"trick 1: {other} led, but {holder} held 2♣ (every hand is led by the holder of 2♣)"
        ]


def test_rulings_10_a_folk_custom_that_must_lead_its_card(tmp_path: Path) -> None:
    """Seed 001: "有的人还规定，持有这些牌张的人在首引时必须出相应的牌" — ♠7, led, every hand."""
    from gongzhu_score.io.records import InForce
    from gongzhu_score.io.variants import load_rules

    rules_file = tmp_path / "seven.yaml"
    rules_file.write_text("extends: classic\nname: seven\nfirst_lead: holder\nopening_card: 7S\n",
                          encoding="utf-8")  # fmt: skip
    seven = load_rules(str(rules_file))
    spade_seven = Card.parse("7S")
    for number in (1, 4):
        led, _ = play_random_hand(random.Random(number), NAMES, holder_of=spade_seven)
        data = {**led, "hand": number}
        assert replay(parse_record(data, InForce(seven))).violations == ()
        free, _ = play_random_hand(random.Random(number), NAMES, holder_of=spade_seven,
                                   leads_it=False)  # fmt: skip
        first = free["tricks"][0]  # type: ignore[index]
        found = [v.text() for v in replay(parse_record({**free, "hand": number},
                                                       InForce(seven))).violations]  # fmt: skip
        if first["cards"][0] != "7S":
            assert found == [f"trick 1: {first['lead']} led {Card.parse(first['cards'][0]).symbol}, "
                             "not 7♠ (every hand opens with 7♠)"]  # fmt: skip


RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def lowest_play(deal: dict[str, str], leader: str, override: dict[tuple[int, str], str]) -> dict:  # type: ignore[type-arg]
    """A record played by "the lowest card that follows suit" (a lowest lead), except where
    ``override`` says which card a player plays in a trick; one deck, trick winners worked out
    here by the highest card of the suit led."""
    hands = {n: c.split() for n, c in deal.items()}
    tricks = []
    for number in range(1, 14):
        order = [NAMES[(NAMES.index(leader) + k) % 4] for k in range(4)]
        plays: list[str] = []
        for player in order:
            suit = plays[0][-1] if plays else None
            same = [c for c in hands[player] if c[-1] == suit] or hands[player]
            card = override.get((number, player)) or min(same, key=lambda c: RANKS.index(c[:-1]))
            hands[player].remove(card)
            plays.append(card)
        suit = plays[0][-1]
        best = max(range(4), key=lambda k: (plays[k][-1] == suit, RANKS.index(plays[k][:-1])))
        tricks.append({"lead": leader, "cards": plays})
        leader = order[best]
    return {"players": NAMES, "deal": {n: c.split() for n, c in deal.items()},
            "first_hand": True, "tricks": tricks}  # fmt: skip


def test_rulings_11_the_auto_exposed_fourth_card_waits_for_its_suits_second_round() -> None:
    """Three special cards exposed expose the fourth (§4.2), for play too: its holder may not
    play it on its suit's first round while holding another card of the suit."""
    deal = {
        "东": "QS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS",
        "南": "AH 2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D",
        "西": "JD AC 9H 10H JH QH KH 8D 9D 10D QD KD AD",
        "北": "10C 2C 3C 4C 5C 6C 7C 8C 9C JC QC KC 8H",
    }
    exposed = {"东": ["QS"], "西": ["JD"], "北": ["10C"]}  # so 南's A♥ is exposed automatically
    # trick 1: 北 leads 2♣, 西's A♣ wins; trick 2: 西 leads 9♥, hearts' first round
    legal = {**lowest_play(deal, "北", {(2, "西"): "9H"}), "exposed": exposed}
    assert legal["tricks"][1] == {"lead": "西", "cards": ["9H", "8H", "3S", "3H"]}
    assert violations(legal) == []
    broken = {**lowest_play(deal, "北", {(2, "西"): "9H", (2, "南"): "AH"}), "exposed": exposed}
    assert violations(broken) == [
        "trick 2: 南 played A♥, exposed automatically as the fourth special card, the first time "
        "hearts were led, while holding 3♥"
    ]
    # without auto-exposure (a house rule) A♥ is nobody's exposed card: free
    from dataclasses import replace as changed

    from gongzhu_score.io.records import InForce
    from gongzhu_score.io.variants import find_variant

    plain = changed(find_variant("classic"), name="plain", auto_exposure=False)
    assert replay(parse_record(broken, InForce(plain))).violations == ()
