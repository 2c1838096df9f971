"""The match ledger (rulings §8): a whole match, undo/edit/rename, verify, refusals, sharing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
from clitools import ROOT, SAMPLES, done, golden, ok, refused, run

from gongzhu_score import Hand
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import read_ledger

MATCH = SAMPLES / "match"
PLAYERS = "东,南,西,北"


def hand(n: int) -> str:
    return str(MATCH / f"hand{n}.yaml")


@pytest.fixture
def ledger(tmp_path: Path) -> str:
    path = str(tmp_path / "match.yaml")
    assert done("match", "new", path, "--players", PLAYERS) == (
        f"new match in {path}: 东, 南, 西, 北 · classic · zero-sum · ends at -1000\n",
        "",  # the result on standard output; standard error for errors alone
    )
    return path


def show(path: str) -> dict:  # type: ignore[type-arg]
    return json.loads(ok("match", "show", path, "--format", "json"))


def test_rulings_8_a_whole_match_to_its_end(ledger: str) -> None:
    for n in (1, 2, 3):
        ok("match", "add", ledger, hand(n))
    data = show(ledger)
    assert data["players"] == ["东", "南", "西", "北"]
    assert [h["raw"] for h in data["hands"]] == [
        [-400, -160, -40, 0],
        [200, -340, -60, 0],
        [-100, -600, 0, 0],
    ]
    assert [h["final"] for h in data["hands"]] == [
        [-333, -13, 147, 200],
        [333, -387, -13, 67],
        [100, -567, 233, 233],
    ]
    assert data["totals"] == {"raw": [-300, -1100, -100, 0], "final": [100, -967, 367, 500]}
    # §8: 南's raw total −1100 ≤ −1000 ends it; lowest raw total 当猪, highest wins.
    assert (data["ended"], data["ended_after"], data["loser"], data["winner"]) == (
        True,
        3,
        "南",
        "北",
    )
    assert data["hands"][2]["pig"] == ["东"]


def test_rulings_8_no_hand_after_the_end(ledger: str) -> None:
    for n in (1, 2, 3):
        ok("match", "add", ledger, hand(n))
    before = Path(ledger).read_bytes()
    assert refused("match", "add", ledger, hand(4)) == (
        f"{ledger}: the match ended after hand 3 (南 当猪); start a new ledger for the next match"
    )
    assert Path(ledger).read_bytes() == before


def test_rulings_8_who_leads_next(ledger: str) -> None:
    assert show(ledger)["next_lead"] == []
    assert "the holder of 2♣ leads the first hand" in ok("match", "show", ledger)
    ok("match", "add", ledger, hand(2))
    assert show(ledger)["next_lead"] == ["南"]
    assert "南 leads the next hand" in ok("match", "show", ledger)


def test_match_show_table_and_chinese_golden(ledger: str) -> None:
    for n in (1, 2, 3):
        ok("match", "add", ledger, hand(n))
    golden("match_show.txt", ok("match", "show", ledger))
    golden("match_show_zh.txt", ok("match", "show", ledger, "--lang", "zh"))


def test_match_add_prints_the_hand_and_the_totals(ledger: str) -> None:
    out = ok("match", "add", ledger, hand(1))
    assert out.startswith("hand 1\n")
    assert out.endswith(
        "raw totals, which decide the end (at or below -1000):\n"
        "  北     0  1000 to go\n"
        "  西   -40   960 to go\n"
        "  南  -160   840 to go\n"
        "  东  -400   600 to go\n"
        "final totals (they do not decide the end): 东 -333, 南 -13, 西 147, 北 200\n"
        "in play after 1 hand; 东 leads the next hand (took the pig)\n"
    )
    data = json.loads(ok("match", "add", ledger, hand(2), "--format", "json"))
    assert data["hand"] == 2
    assert [p["raw"] for p in data["players"]] == [200, -340, -60, 0]
    assert data["totals"]["raw"] == [-200, -500, -100, 0]


def test_match_add_from_flags_with_rest(ledger: str) -> None:
    ok("match", "add", ledger, "-c", "东=pig", "-c", "南=♥AKQ", "-c", "西=", "--rest", "北")
    assert show(ledger)["hands"][0]["raw"] == [-100, -120, 0, 40]


def test_hand_players_are_put_in_the_ledger_seat_order(ledger: str, tmp_path: Path) -> None:
    shuffled = tmp_path / "h.yaml"
    shuffled.write_text("players:\n  北: []\n  西: [JD, QH, KH]\n  南: [AH, 2H, 3H, 4H, 5H, 7H, 9H]\n"
                        "  东: [QS, 6H, 8H, 10H, JH, 10C]\n", encoding="utf-8")  # fmt: skip
    ok("match", "add", ledger, str(shuffled))
    # 东: (hearts −50 − pig 100) × 2 = −300 (nobody exposed A♥ this time); 西: 100 − 70 = 30
    assert show(ledger)["hands"][0]["raw"] == [-300, -80, 30, 0]


def test_undo_removes_the_last_hand_and_recomputes(ledger: str) -> None:
    for n in (1, 2):
        ok("match", "add", ledger, hand(n))
    out = ok("match", "undo", ledger)
    assert out.startswith("removed hand 2: 东 [J♦ 10♣] 200; 南 [Q♠ A♥ K♥ Q♥ J♥] -340")
    data = show(ledger)
    assert len(data["hands"]) == 1
    assert data["totals"]["raw"] == [-400, -160, -40, 0]
    ok("match", "undo", ledger)
    assert refused("match", "undo", ledger) == "no hands to undo"


def test_edit_replaces_a_hand_and_recomputes_everything_after(ledger: str) -> None:
    for n in (1, 2):
        ok("match", "add", ledger, hand(n))
    ok("match", "edit", ledger, "1", "-c", "东=全红", "-c", "南=QS", "-c", "西=JD", "-c", "北=10C")
    data = show(ledger)
    assert data["hands"][0]["raw"] == [200, -100, 100, 50]
    assert data["hands"][1]["total_raw"] == [400, -440, 40, 50]
    assert data["totals"]["raw"] == [400, -440, 40, 50]
    assert done("match", "verify", ledger) == ("", f"{ledger}: 2 hands, every number agrees\n")


def test_edit_that_would_end_the_match_early_is_refused(ledger: str) -> None:
    for n in (1, 2):
        ok("match", "add", ledger, hand(n))
    before = Path(ledger).read_bytes()
    # 南: (pig −100·2 + hearts −150·2) × transformer 2·2 = −2000: the match would end at hand 1
    message = refused("match", "edit", ledger, "1", "-c", "东=", "-c", "南=QS H:AKQJ10 10C",
                      "-c", "西=JD", "--rest", "北", "-e", "南=QS AH 10C")  # fmt: skip
    assert (
        message
        == "after this change the match ends at hand 1, but hand 2 follows it; remove it first"
    )
    assert Path(ledger).read_bytes() == before


def test_rename_everywhere(ledger: str) -> None:
    ok("match", "add", ledger, hand(1))
    assert done("match", "rename", ledger, "南", "Nan") == ("renamed 南 to Nan\n", "")
    data = show(ledger)
    assert data["players"] == ["东", "Nan", "西", "北"]
    assert done("match", "verify", ledger)[0] == ""
    assert "Nan" in Path(ledger).read_text(encoding="utf-8")
    assert (
        refused("match", "rename", ledger, "东", "西")
        == "cannot rename '东' to '西': names must be new and non-empty"
    )


def test_verify_catches_a_changed_number(ledger: str) -> None:
    for n in (1, 2):
        ok("match", "add", ledger, hand(n))
    text = Path(ledger).read_text(encoding="utf-8")
    Path(ledger).write_text(
        text.replace("raw: [200, -340, -60, 0]", "raw: [200, -240, -60, 0]"), encoding="utf-8"
    )
    r = run("match", "verify", ledger)
    assert r.exit_code == 1
    assert r.stdout == f"{ledger}: hand 2: raw of 南: stored -240, recomputed -340\n"


def test_verify_catches_a_changed_card(ledger: str) -> None:
    ok("match", "add", ledger, hand(1))
    text = Path(ledger).read_text(encoding="utf-8")
    Path(ledger).write_text(
        text.replace('"西": "JD QH KH"', '"西": "QH KH", "北": "JD"').replace(', "北": ""}', "}"),
        encoding="utf-8",
    )
    r = run("match", "verify", ledger)
    assert r.exit_code == 1
    assert f"{ledger}: hand 1: raw of 西: stored -40, recomputed -140\n" in r.stdout
    assert f"{ledger}: hand 1: raw of 北: stored 0, recomputed 100\n" in r.stdout


def test_export_csv_and_json(ledger: str) -> None:
    for n in (1, 2):
        ok("match", "add", ledger, hand(n))
    rows = ok("match", "export", ledger).splitlines()
    assert rows[0] == "hand,东,南,西,北,entered,note"  # when each hand was entered, its note
    assert [row.rsplit(",", 2)[0] for row in rows[1:]] == [
        "1,-333,-13,147,200",
        "2,333,-387,-13,67",
    ]
    assert all(row.endswith(",") and "T" in row.rsplit(",", 2)[1] for row in rows[1:])
    raws = ok("match", "export", ledger, "--values", "raw").splitlines()
    assert raws[2].rsplit(",", 2)[0] == "2,200,-340,-60,0"
    data = json.loads(ok("match", "export", ledger, "-f", "json"))[1]
    assert data.pop("entered") is not None
    assert data == {
        "hand": 2,
        "note": None,
        "东": 333,
        "南": -387,
        "西": -13,
        "北": 67,
    }
    shown = ok("match", "show", ledger, "-f", "csv").splitlines()
    assert (
        shown[0]
        == "hand,东,南,西,北,东 total,南 total,西 total,北 total,东 raw total,南 raw total,西 raw total,北 raw total"
    )
    assert shown[2] == "2,333,-387,-13,67,0,-400,134,267,-200,-500,-100,0"


def test_interactive_add_reasks_a_bad_card_then_confirms(ledger: str) -> None:
    answers = "QS 6H 8H 10H JH 10C\n1OH\nAH 2H 3H 4H 5H 7H 9H\nJD QH KH\n\n南=AH\n\ny\n"
    r = run("match", "add", ledger, "--interactive", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "error: unknown card '1OH'; did you mean '10H'?; try again" in r.stderr
    assert show(ledger)["hands"][0]["raw"] == [-400, -160, -40, 0]


def test_interactive_a_card_given_twice_is_asked_again_at_once_naming_its_holder(
    ledger: str,
) -> None:
    answers = "QS 10C\nJD QS\nJD\n全红\n\n\n\ny\n"
    r = run("match", "add", ledger, "-i", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "Q♠ is 东's already; enter 南's cards again" in r.stderr
    # asked again right away: 西 is asked once, after 南's second answer
    assert r.stderr.count("西 captured") == 1
    assert show(ledger)["hands"][0]["raw"] == [-200, 100, 200, 0]


def test_interactive_prompts_show_the_scoring_cards_still_unplaced(ledger: str) -> None:
    r = run("match", "add", ledger, "-i", input="pig\n♥AKQ\n\nrest\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    lines = r.stderr.splitlines()
    assert "scoring cards not placed yet: Q♠ 2♥ 3♥" in lines[0]
    assert (
        "scoring cards not placed yet: 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ J♦ 10♣" in r.stderr
    )
    assert "scoring cards not placed yet: 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ J♦ 10♣" in r.stderr


def test_interactive_rest_and_a_cancelled_hand(ledger: str) -> None:
    before = Path(ledger).read_bytes()
    r = run("match", "add", ledger, "-i", input="pig\n♥AKQ\n\nrest\n\n\nn\n")
    assert r.exit_code == 1
    assert Path(ledger).read_bytes() == before
    r = run("match", "add", ledger, "-i", input="pig\n♥AKQ\n\nrest\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert show(ledger)["hands"][0]["raw"] == [-100, -120, 0, 40]


def test_interactive_only_one_player_takes_the_rest(ledger: str) -> None:
    # 东 takes the rest; 北's "rest" is refused and 北's line asked again
    r = run("match", "add", ledger, "-i", input="rest\npig\n♥AKQ\nrest\n\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "error: 东 takes the rest already, and only one player can" in r.stderr
    assert show(ledger)["hands"][0]["raw"] == [40, -100, -120, 0]


def test_interactive_one_line_changed_at_the_confirmation(ledger: str) -> None:
    # nobody took most hearts: the table picks line 4 and gives 北 the rest; nothing retyped
    answers = "pig\n♥AKQ\n\n\n\n\n" + "4\nrest\ny\n"
    r = run("match", "add", ledger, "-i", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "scoring cards nobody took: 2♥ 3♥ 4♥" in r.stderr
    assert r.stderr.count("东 captured") == 1  # the other lines were kept
    assert show(ledger)["hands"][0]["raw"] == [-100, -120, 0, 40]


def test_interactive_the_hand_is_printed_once(ledger: str) -> None:
    r = run("match", "add", ledger, "-i", input="pig\n♥AKQ\n\nrest\n\n\ny\n")
    assert (r.stdout + r.stderr).count("transformer ×2") == 1
    assert "added as hand 1" in r.stdout


def test_interactive_prompts_in_chinese(ledger: str) -> None:
    answers = "猪 变压器\n猪\n其余\n其余\n\n\n\n\ny\n"
    r = run("match", "add", ledger, "-i", "--lang", "zh", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "东 收的牌" in r.stderr and "尚未分配的分牌：猪 羊 变压器 红桃2" in r.stderr
    assert "猪已经是东的了；请重新输入南的牌" in r.stderr
    assert "错误：南已经取了“其余”，只能有一位玩家取其余" in r.stderr
    assert "2. 南：其余（羊 红桃2 3 4 5 6 7 8 9 10 J Q K A）" in r.stderr
    assert "已添加为第 1 局" in r.stdout


def test_interactive_edit_starts_from_the_hand_as_it_is(ledger: str) -> None:
    ok("match", "add", ledger, hand(1))
    # the hand is shown as it is; line 5 (the exposures) is the only one asked, and changed
    r = run("match", "edit", ledger, "1", "-i", input="5\n-\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "1. 东: Q♠ 6♥ 8♥ 10♥ J♥ 10♣" in r.stderr and "captured" not in r.stderr
    assert show(ledger)["hands"][0]["raw"] == [-300, -80, 30, 0]  # A♥ no longer exposed


def test_team_match_ends_on_final_totals(tmp_path: Path) -> None:
    path = str(tmp_path / "teams.yaml")
    done("match", "new", path, "-p", PLAYERS, "--teams", "partners", "--end-at", "-250")
    ok("match", "add", path, str(SAMPLES / "seed_partners.yaml"))
    data = show(path)
    assert data["totals"]["final"] == [-125, 125, -125, 125]
    assert not data["ended"]
    ok("match", "add", path, str(SAMPLES / "seed_partners.yaml"))
    data = show(path)
    assert data["ended"] and data["ended_after"] == 2
    assert (data["loser"], data["winner"]) == ("东+西", "南+北")
    assert (data["loser_side"], data["winner_side"]) == (["东", "西"], ["南", "北"])


def _ended(total_raw: tuple[int, ...], last_final: tuple[int, ...]) -> Ledger:
    """A one-hand ledger whose stored totals and last hand are as given (to test §8's ties)."""
    lg = Ledger.new(["A", "B", "C", "D"]).add(
        Hand.from_captured({"A": "全红 QS JD 10C", "B": "", "C": "", "D": ""})
    )[0]
    entry = replace(lg.entries[0], total_raw=total_raw, final=last_final)
    return replace(lg, entries=(entry,))


def test_rulings_8_winner_tie_goes_to_the_better_last_hand() -> None:
    status = _ended((100, -1000, 100, 50), (10, -30, 20, 0)).status()
    assert (status.ended, status.loser, status.winner) == (True, "B", "C")


def test_rulings_8_winner_tie_on_the_last_hand_too_goes_to_the_earlier_seat() -> None:
    assert _ended((100, -1000, 100, 50), (20, -30, 20, 0)).status().winner == "A"


def test_rulings_8_loser_tie_goes_to_the_worse_last_hand() -> None:
    status = _ended((-1000, 50, -1000, 0), (-30, 0, -20, 50)).status()
    assert (status.loser, status.winner) == ("A", "B")
    assert _ended((-1000, 50, -1000, 0), (-20, 0, -30, 50)).status().loser == "C"


# --- refusals leave the ledger byte-for-byte unchanged ------------------------------------------

REFUSALS = [
    ["match", "add", "{L}", "-c", "东=QX", "-c", "南=", "-c", "西=", "--rest", "北"],
    ["match", "add", "{L}", "-c", "A=QS", "-c", "南=", "-c", "西=", "--rest", "北"],
    ["match", "add", "{L}", "-c", "东=QS", "-c", "南=", "-c", "西=", "-c", "北="],
    ["match", "add", "{L}", str(SAMPLES / "seed_normalization.yaml")],
    ["match", "add", "{L}", "no-such-hand.yaml"],
    ["match", "add", "{L}", "-c", "东=QS", "--first-exposed", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北", "--format", "xml"],
    ["match", "edit", "{L}", "5", str(MATCH / "hand1.yaml")],
    ["match", "edit", "{L}", "1", "-c", "东=QS QS", "-c", "南=", "-c", "西=", "--rest", "北"],
    ["match", "rename", "{L}", "东", "南"],
    ["match", "rename", "{L}", "X", "Y"],
    ["match", "rename", "{L}", "东", " "],
    ["match", "new", "{L}", "--players", "东,南,西,北"],
]  # fmt: skip


@pytest.mark.parametrize("args", REFUSALS, ids=lambda a: " ".join(a[1:2] + a[3:5]))
def test_every_refusal_leaves_the_ledger_unchanged(ledger: str, args: list[str]) -> None:
    ok("match", "add", ledger, hand(1))
    before = Path(ledger).read_bytes()
    refused(*(a.replace("{L}", ledger) for a in args))
    assert Path(ledger).read_bytes() == before


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda t: t.replace("format: 1", "format: 9"), "format: expected 1, found 9"),
        (
            lambda t: t.replace("raw: [-400, -160, -40, 0]", "raw: [-400, -160]"),
            "hands[1]: raw: expected a list of four numbers",
        ),
        (
            lambda t: t.replace("raw: [-400, -160, -40, 0]", "raw: [-400, x, -40, 0]"),
            "hands[1]: raw: 'x' is not a whole number",
        ),
        (lambda t: t.replace("- hand: 1", "- hand: 7"), "hands[1]: hand: expected 1, found 7"),
        (
            lambda t: t.replace('"西": "JD QH KH"', '"西": "JD QX KH"'),
            "hands[1]: players[3] (西): captured: unknown card 'QX'",
        ),
        (lambda t: t.replace('"北": ""}', '"X": ""}'), "hands[1]: player 'X' is not in this match"),
        (lambda t: t.replace("players:", "playerz:"), "unknown key 'playerz'"),
        (
            lambda t: t.replace('variant: "classic"', 'variant: "klassik"'),
            "unknown variant 'klassik'",
        ),
        (lambda t: t + "  - [unclosed\n", "not a valid ledger"),
        (lambda t: "just text\n", "not a ledger: expected a mapping"),
    ],
)
def test_a_broken_ledger_gives_a_clear_error(ledger: str, mangle, message: str) -> None:  # type: ignore[no-untyped-def]
    ok("match", "add", ledger, hand(1))
    Path(ledger).write_text(mangle(Path(ledger).read_text(encoding="utf-8")), encoding="utf-8")
    before = Path(ledger).read_bytes()
    for command in (["show"], ["add", hand(2)], ["verify"], ["undo"]):
        got = refused("match", command[0], ledger, *command[1:])
        assert got.startswith(f"{ledger}: "), got
        assert message in got, got
    assert Path(ledger).read_bytes() == before


def test_missing_ledger() -> None:
    assert refused("match", "show", "nope.yaml").startswith(
        "nope.yaml: no such ledger; start one with"
    )


def test_new_refuses_bad_players(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    assert "a match needs four different names" in refused(
        "match", "new", path, "-p", "东,南,东,北"
    )
    assert not Path(path).exists()


# --- many writers, and kills --------------------------------------------------------------------

ADDER = textwrap.dedent(
    """
    import sys
    from gongzhu_score import Hand
    from gongzhu_score.match.storage import change_ledger
    hand = Hand.from_captured({"东": "QS", "南": "JD", "西": "全红", "北": "10C"})
    for _ in range(int(sys.argv[2])):
        change_ledger(sys.argv[1], lambda lg: lg.add(hand), lambda b, a, _: ("add", {"hand": len(a.entries)}))
    """
)


def _new_long_match(tmp_path: Path) -> str:
    path = str(tmp_path / "long.yaml")
    done("match", "new", path, "-p", PLAYERS, "--end-at", "-1000000000")
    return path


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    path = _new_long_match(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", ADDER, path, "25"], env=env) for _ in range(2)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    ledger = read_ledger(path)
    assert len(ledger.entries) == 50
    assert ledger.verify() == []


def test_a_kill_at_any_moment_leaves_a_whole_ledger(tmp_path: Path) -> None:
    path = _new_long_match(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay in (0.3, 0.45, 0.6, 0.75):
        proc = subprocess.Popen([sys.executable, "-c", ADDER, path, "100000"], env=env)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        ledger = read_ledger(path)  # loads: the old ledger or the new one, never torn
        assert ledger.verify() == []
    assert len(read_ledger(path).entries) > 0


def test_a_hand_written_ledger_in_any_yaml_layout_is_read(tmp_path: Path) -> None:
    path = tmp_path / "by-hand.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            # typed by hand, block style, comments, no quotes
            format: 1
            players:
              - 东
              - 南
              - 西
              - 北
            variant: classic
            normalize: zero-sum
            scale: 1
            rounding: nearest
            teams: none
            end_at: -1000
            hands:
              - hand: 1
                captured:
                  东: QS 6H 8H 10H JH 10C
                  南: AH 2H 3H 4H 5H 7H 9H
                  西: JD QH KH
                  北: ""
                exposed: {南: AH}
                raw: [-400, -160, -40, 0]
                final: [-333, -13, 147, 200]
                total_raw: [-400, -160, -40, 0]
                total_final: [-333, -13, 147, 200]
                marks: {东: [transformer_x2]}
            """
        ),
        encoding="utf-8",
    )
    assert done("match", "verify", str(path))[0] == ""
    ok("match", "add", str(path), hand(2))
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# gongzhu-score match ledger")  # rewritten in the canonical layout
    assert show(str(path))["totals"]["raw"] == [-200, -500, -100, 0]


def test_adding_to_a_canonical_ledger_appends_and_keeps_every_byte_before(ledger: str) -> None:
    ok("match", "add", ledger, hand(1))
    before = Path(ledger).read_bytes()
    ok("match", "add", ledger, hand(2))
    after = Path(ledger).read_bytes()
    assert after.startswith(before)
    assert after.count(b"- hand: ") == 2
