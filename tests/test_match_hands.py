"""Issue 36, part 1: a 盤 of a fixed number of hands (計副製, rulings §12). ``match new --hands N``
ends the match after hand N, or at the end line if that comes first; the winner and the loser are
decided on the §8 totals; a hand past N is refused and the ledger left byte for byte; ``match
set --hands`` changes N, never below the hands played; ledgers without it are as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import SAMPLES, ok, refused
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score import Hand
from gongzhu_score.errors import GongzhuError, MatchOverError
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import read_ledger

PLAYERS = "东,南,西,北"
# Four hands, worked by hand (classic, zero-sum; raw scores):
#   1: 东 Q♠ -100, 南 J♦ +100, 西 全红 +200, 北 10♣ +50 (alone: transformer x2 of 0 = +50)
#   2: 东 J♦ +100, 南 Q♠ -100, 西 全红 +200, 北 10♣ +50
#   3: the same as 1;  4: the same as 2.
# Raw totals after hand 4: 东 0, 南 0, 西 800, 北 200. 东 and 南 are level at 0: the better
# result in the last hand wins the tie (§8): 东 took J♦ there (+100), 南 Q♠ (-100), so 南 is
# the pig and 西 wins.
ONE = ["-c", "东=QS", "-c", "南=JD", "-c", "西=全红", "-c", "北=10C"]
TWO = ["-c", "东=JD", "-c", "南=QS", "-c", "西=全红", "-c", "北=10C"]


def played(tmp_path: Path, hands: int, count: int, *extra: str) -> Path:
    ledger = tmp_path / "pan.yaml"
    ok("match", "new", str(ledger), "-p", PLAYERS, "--hands", str(hands), *extra)
    for k in range(count):
        ok("match", "add", str(ledger), *(ONE if k % 2 == 0 else TWO))
    return ledger


def test_a_pan_of_four_hands_ends_after_hand_four_and_refuses_a_fifth(tmp_path: Path) -> None:
    ledger = played(tmp_path, 4, 4)
    history = ledger.with_name(ledger.name + ".history")
    before, logged = ledger.read_bytes(), history.read_bytes()
    message = refused("match", "add", str(ledger), *ONE)
    assert (
        message
        == f"{ledger}: the match ended after hand 4 (南 当猪); start a new ledger for the next match"
    )
    assert ledger.read_bytes() == before and history.read_bytes() == logged
    # At the prompts it is said before a card is asked.
    assert refused("match", "add", str(ledger), "--interactive", input="QS\n") == message
    assert ledger.read_bytes() == before
    data = json.loads(ok("match", "show", str(ledger), "--format", "json"))
    assert data["last_hand"] == 4 and data["ended"] and data["ended_after"] == 4
    assert (data["loser"], data["winner"]) == ("南", "西")
    assert data["totals"]["raw"] == [0, 0, 800, 200]


def test_it_says_hand_n_of_the_pan_in_both_languages(tmp_path: Path) -> None:
    ledger = played(tmp_path, 4, 1)
    shown = ok("match", "show", str(ledger))
    assert "ends at -1000 or after hand 4" in shown
    assert "in play after 1 of 4 hands; 东 leads the next hand (took the pig)" in shown
    zh = ok("match", "show", str(ledger), "--lang", "zh")
    assert "1/4 局" in zh and "-1000，或打完第 4 局" in zh
    assert ok("match", "summary", str(ledger)).startswith("Gongzhu (拱猪) · classic · 1 of 4 hands")


def test_the_page_says_it_too(tmp_path: Path) -> None:
    from gongzhu_score.web.state import page_state  # (what the page shows: status, rules)

    ledger = played(tmp_path, 4, 1)
    state = page_state(str(ledger), "zh")
    assert "1/4 局" in state["status"] and "一盘 4 局" in state["rules_line"]
    assert "或打满第 4 局" in next(
        r["value"] for r in state["rules_rows"] if r["rule"] == "match_end"
    )
    assert state["match"]["last_hand"] == 4


def test_the_end_line_first_ends_it_first(tmp_path: Path) -> None:
    ledger = played(tmp_path, 10, 1, "--end-at", "-100")  # 东 at -100 after hand 1
    data = json.loads(ok("match", "show", str(ledger), "--format", "json"))
    assert data["ended_after"] == 1 and data["loser"] == "东"


def test_team_play_decides_on_the_final_totals(tmp_path: Path) -> None:
    ledger = played(tmp_path, 2, 2, "--teams", "partners")
    data = json.loads(ok("match", "show", str(ledger), "--format", "json"))
    finals = data["totals"]["final"]
    assert data["ended_after"] == 2 and data["decided_on"] == "final"
    # 东+西 against 南+北: the side with the lower final total is the pig
    east_west = finals[0] + finals[2]
    assert data["loser_side"] == (["南", "北"] if east_west > 0 else ["东", "西"])


def test_set_hands_changes_it_never_below_the_hands_played(tmp_path: Path) -> None:
    ledger = played(tmp_path, 4, 3)
    before = ledger.read_bytes()
    assert refused("match", "set", str(ledger), "--hands", "2") == (
        "2 hands are fewer than the 3 already played: a match cannot end before a hand it has "
        "played"
    )
    assert ledger.read_bytes() == before
    said = ok("match", "set", str(ledger), "--hands", "3")
    assert "last_hand: 4 → 3" in said and "ended after hand 3" in said
    totals = json.loads(ok("match", "show", str(ledger), "--format", "json"))["totals"]
    assert totals["raw"] == [-100, 100, 600, 150]  # nothing rescored away
    ok("match", "set", str(ledger), "--hands", "6")
    ok("match", "add", str(ledger), *TWO)  # open again
    ok("match", "restore", str(ledger))
    ok("match", "restore", str(ledger))
    assert read_ledger(str(ledger)).last_hand == 3


@pytest.mark.parametrize("value", ["0", "-3", "10001"])
def test_hands_out_of_range_is_refused(tmp_path: Path, value: str) -> None:
    ledger = tmp_path / "bad.yaml"
    message = refused("match", "new", str(ledger), "-p", PLAYERS, "--hands", value)
    assert (
        message
        == f"--hands {value}: the hands of a match (--hands) are a whole number from 1 to 10000"
    )
    assert not ledger.exists()


def test_a_ledger_without_it_reads_and_writes_as_before() -> None:
    path = SAMPLES / "match" / "ledger.yaml"
    text = path.read_text(encoding="utf-8")
    ledger = read_ledger(str(path))
    assert ledger.last_hand is None and ledger.to_text() == text and "last_hand" not in text
    shown = json.loads(ok("match", "show", str(path), "--format", "json"))
    assert "last_hand" not in shown


def test_a_pan_is_kept_in_the_ledger_as_one_line(tmp_path: Path) -> None:
    ledger = played(tmp_path, 4, 1)
    text = ledger.read_text(encoding="utf-8")
    assert "\nend_at: -1000\nlast_hand: 4\nhands:\n" in text
    assert read_ledger(str(ledger)).to_text() == text
    damaged = tmp_path / "damaged.yaml"
    damaged.write_text(text.replace("last_hand: 4", "last_hand: 0"), encoding="utf-8")
    assert "last_hand: 0: the hands of a match" in refused("match", "show", str(damaged))


HANDS = [
    {"东": "QS", "南": "JD", "西": "全红", "北": "10C"},
    {"东": "JD", "南": "QS", "西": "全红", "北": "10C"},
    {"东": "全红 QS", "南": "JD", "西": "", "北": "10C"},
    {"东": "", "南": "", "西": "QS JD 10C", "北": "全红"},
]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 8), st.integers(-2000, -100), st.lists(st.sampled_from(range(4)),
       min_size=1, max_size=10))  # fmt: skip
def test_the_match_ends_at_the_first_of_its_last_hand_and_its_end_line(
    last: int, end: int, picks: list[int]
) -> None:
    ledger = Ledger.new(list("东南西北"), end_at=end, last_hand=last)
    plain = Ledger.new(list("东南西北"), end_at=end)  # the same match with no last hand
    for number, k in enumerate(picks, 1):
        hand = Hand.from_captured(HANDS[k])
        try:
            ledger = ledger.add(hand)[0]
        except MatchOverError:
            assert ledger.status().ended and ledger.count == number - 1
            break
        except GongzhuError:
            raise
        if not plain.status().ended:
            plain = plain.add(hand)[0]
    status = ledger.status()
    by_line = plain.status().ended_after
    expected = min(x for x in (last, by_line) if x is not None)
    assert status.ended == (ledger.count >= expected)
    if status.ended:
        assert status.ended_after == expected == ledger.count
