"""A match's hands, seen and changed (issue 11): show or explain any hand, remove, undo, edit,
rename and change settings with a history that restores the exact state before; stats."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused

from gongzhu_score import parse_cards

MATCH = SAMPLES / "match"


def hand(n: int) -> str:
    return str(MATCH / f"hand{n}.yaml")


@pytest.fixture
def played(tmp_path: Path) -> str:
    """A match of two hands, made by the tool (so it has a history)."""
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    ok("match", "add", path, hand(1))
    ok("match", "add", path, hand(2))
    return path


def state(path: str) -> dict:  # type: ignore[type-arg]
    return json.loads(ok("match", "show", path, "--format", "json"))


# --- any hand of a match, whole -----------------------------------------------------------------


def test_show_hand_n_json_contract(played: str) -> None:
    data = json.loads(ok("match", "show", played, "2", "--format", "json"))
    assert data["hand"] == 2
    assert [p["name"] for p in data["players"]] == ["东", "南", "西", "北"]
    south = data["players"][1]
    assert south["captured"] == ["QS", "AH", "KH", "QH", "JH"]
    assert south["exposed"] == ["QS"]
    assert (south["raw"], south["final"], south["total"]) == (-340, -387, -400)
    assert [p["total"] for p in data["players"]] == state(played)["hands"][1]["total_final"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_show_hand_n_table_prints_cards_that_read_back(played: str, lang: str) -> None:
    text = ok("match", "show", played, "2", "--lang", lang, "--table-format", "tsv")
    data = json.loads(ok("match", "show", played, "2", "--format", "json"))
    rows = [line.split("\t") for line in text.splitlines() if "\t" in line][1:]
    for row, player in zip(rows, data["players"], strict=True):
        printed = parse_cards(row[2].strip())
        assert sorted(c.code for c in printed) == sorted(player["captured"])


def test_show_hand_out_of_range_is_refused(played: str) -> None:
    assert refused("match", "show", played, "9") == "no hand 9: this match has hands 1 to 2"


def test_explain_a_hand_of_a_ledger(played: str) -> None:
    text = ok("explain", played, "2")
    assert text.startswith("hand 2 of 2\n\nRules: classic")
    assert "南 (seat 2): raw -340, final -387" in text
    assert ok("match", "explain", played, "2", "--lang", "zh").startswith("第 2 局（共 2 局）")


def test_explain_a_ledger_without_a_hand_number_says_how(played: str) -> None:
    message = refused("explain", played)
    assert "this is a match ledger (format, players, hands), not a hand" in message
    assert "'gongzhu-score explain LEDGER N'" in message


# --- no change loses a hand: remove, undo, edit, rename, set; history and restore -----------------


def test_remove_then_restore_brings_back_exactly_the_state_before(played: str) -> None:
    before = state(played)
    text = ok("match", "remove", played, "1", "--yes")
    assert text.startswith("removed hand 1: 东 [Q♠ 6♥ 8♥ 10♥ J♥ 10♣] -400")
    after = state(played)
    assert len(after["hands"]) == 1
    assert after["hands"][0]["total_raw"] == [200, -340, -60, 0]  # hand 2's own scores now
    ok("match", "restore", played)
    assert state(played) == before
    assert done("match", "verify", played)[0] == ""


def test_remove_asks_at_a_terminal_and_refuses_a_script_without_yes(played: str) -> None:
    before = Path(played).read_bytes()
    message = refused("match", "remove", played, "1")
    assert message == "remove hand 1: not asked at a terminal; add --yes"
    assert Path(played).read_bytes() == before


def test_undo_prints_the_command_that_adds_the_hand_again(played: str) -> None:
    before = state(played)
    text = ok("match", "undo", played)
    command = next(line for line in text.splitlines() if line.startswith("To enter it again: "))
    words = shlex.split(command.removeprefix("To enter it again: "))
    assert words[:3] == ["gongzhu-score", "match", "add"]
    assert "-e" in words and "南=QS" in words  # the exposure is part of it
    ok(*words[1:])  # run it: the hand is back, the same (entered again: now)
    after = state(played)["hands"]
    assert [{**h, "entered": None} for h in after] == [
        {**h, "entered": None} for h in before["hands"]
    ]
    assert after[-1]["entered"] >= before["hands"][-1]["entered"]


def test_undo_edit_rename_and_set_each_restore_exactly(played: str) -> None:
    changes = [
        ["match", "undo", played],
        ["match", "edit", played, "1", hand(3)],
        ["match", "rename", played, "北", "小北"],
        ["match", "set", played, "--end-at", "-500", "--scale", "12"],
    ]
    for command in changes:
        before = state(played)
        done(*command)
        assert state(played) != before
        ok("match", "restore", played)
        assert state(played) == before, command


def test_restore_goes_back_one_change_at_a_time(played: str) -> None:
    empty = state(played)["hands"][:0]
    ok("match", "restore", played)  # the second add
    ok("match", "restore", played)  # the first add
    assert state(played)["hands"] == empty
    assert refused("match", "restore", played).endswith(
        "no change to revert; the match is as it started"
    )


def test_history_lists_every_change(played: str) -> None:
    done("match", "rename", played, "北", "小北")
    text = ok("match", "history", played)
    changes = [line.split("  ")[-1].strip() for line in text.splitlines()[2:]]
    assert changes == [
        "started the match",
        "added hand 1",
        "added hand 2",
        "renamed 北 to 小北 (match restore reverts this one)",
    ]
    assert "将 北 改名为 小北" in ok("match", "history", played, "--lang", "zh")


def test_restore_refuses_a_ledger_edited_by_hand_since(played: str) -> None:
    path = Path(played)
    path.write_text(path.read_text(encoding="utf-8") + "# a note\n", encoding="utf-8")
    before = path.read_bytes()
    assert "was changed after its last recorded change" in refused("match", "restore", played)
    assert path.read_bytes() == before


def test_set_recomputes_every_total_and_says_what_moved(played: str) -> None:
    text = ok("match", "set", played, "--variant", "dehong")
    assert "variant: classic → dehong" in text
    assert "南: -500 (-400) → -560 (-560)" in text
    assert state(played)["totals"]["raw"] == [-200, -560, -130, 0]
    assert done("match", "verify", played)[0] == ""


@pytest.mark.parametrize("value", ["1000", "0"])
def test_set_end_at_must_be_negative_and_leaves_the_file_byte_identical(
    played: str, value: str
) -> None:
    before = Path(played).read_bytes()
    message = refused("match", "set", played, "--end-at", value)
    assert message.startswith(f"--end-at {value}: the end is a negative total")
    if value == "1000":
        assert message.endswith("did you mean --end-at -1000?")
    assert Path(played).read_bytes() == before


def test_new_refuses_a_positive_end(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    assert "did you mean --end-at -1000?" in refused(
        "match", "new", str(path), "-p", "东,南,西,北", "--end-at", "1000"
    )
    assert not path.exists()


def test_set_that_would_end_the_match_before_its_last_hand_is_refused(played: str) -> None:
    before = Path(played).read_bytes()
    assert "follows it; remove it first" in refused("match", "set", played, "--end-at", "-300")
    assert Path(played).read_bytes() == before


def test_add_refuses_a_ledger_whose_numbers_were_changed_by_hand(played: str) -> None:
    path = Path(played)
    path.write_text(
        path.read_text(encoding="utf-8").replace("raw: [-400, -160, -40, 0]", "raw: [-300, -160, -40, 0]"),
        encoding="utf-8",
    )  # fmt: skip
    before = path.read_bytes()
    message = refused("match", "add", played, hand(3))
    assert "hand 1: raw of 东: stored -300, recomputed -400" in message
    assert f"see 'gongzhu-score match verify {played}'" in message
    assert path.read_bytes() == before


def test_a_ledger_without_history_is_checked_then_changed(tmp_path: Path) -> None:
    path = tmp_path / "l.yaml"
    shutil.copy(MATCH / "ledger.yaml", path)
    before = state(str(path))
    ok("match", "undo", str(path))
    ok("match", "restore", str(path))
    assert state(str(path)) == before


# --- the match's settings and export -------------------------------------------------------------


def test_new_like_an_old_match(tmp_path: Path) -> None:
    old = str(tmp_path / "old.yaml")
    done("match", "new", old, "-p", "甲,乙,丙,丁", "--variant", "dehong", "--end-at", "-800")
    new = str(tmp_path / "new.yaml")
    done("match", "new", new, "--like", old)
    data = state(new)
    assert data["players"] == ["甲", "乙", "丙", "丁"]
    assert (data["variant"], data["normalize"], data["end_at"]) == ("dehong", "none", -800)


def test_new_like_and_set_merge_the_options_one_way(tmp_path: Path) -> None:
    # Options given win; the rest is the old match's, its normalization method too, while the
    # rule set stays; a new rule set brings its own method (new --like and set alike).
    old = str(tmp_path / "old.yaml")
    done("match", "new", old, "-p", "甲,乙,丙,丁", "--normalize", "jj", "--end-at", "-800")
    same = str(tmp_path / "same.yaml")
    done("match", "new", same, "--like", old, "--scale", "12")
    data = state(same)
    assert (data["variant"], data["normalize"], data["scale"], data["end_at"]) == (
        "classic", "jj", 12, -800)  # fmt: skip
    other = str(tmp_path / "other.yaml")
    done("match", "new", other, "--like", old, "--variant", "dehong")
    assert (state(other)["variant"], state(other)["normalize"]) == ("dehong", "none")
    done("match", "set", same, "--rounding", "exact")
    assert (state(same)["normalize"], state(same)["scale"], state(same)["rounding"]) == (
        "jj", 12, "exact")  # fmt: skip
    done("match", "set", same, "--variant", "dehong")
    assert (state(same)["variant"], state(same)["normalize"]) == ("dehong", "none")


def test_a_bad_player_name_in_new_names_the_flag(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    assert refused("match", "new", path, "-p", "东,南,东,北").startswith("--players: ")
    assert refused("match", "new", path, "-p", "东 ,南,西,\u202e北").startswith(
        "--players: player name"
    )
    assert not Path(path).exists()


def test_export_with_totals_and_a_byte_order_mark(played: str) -> None:
    text = ok("match", "export", played, "--totals", "--bom")
    assert text.startswith("\ufeffhand,东,南,西,北,entered,note\n")
    assert text.splitlines()[-1] == "total,0,-400,134,267,,"


def test_show_explains_its_cells_and_marks_partial_hands(tmp_path: Path) -> None:
    path = str(tmp_path / "p.yaml")
    done("match", "new", path, "-p", "东,南,西,北")
    ok("match", "add", path, "-c", "东=QS", "-c", "南=", "-c", "西=", "-c", "北=", "--partial")
    text = ok("match", "show", path)
    assert ("Each cell: the hand's raw score (the running raw total after it), as raw totals "
            "decide the end.") in text  # fmt: skip
    assert "PARTIAL" in text
    assert "部分计分" in ok("match", "show", path, "1", "--lang", "zh")


# --- across matches ------------------------------------------------------------------------------


def test_stats_on_the_sample_ledger_to_the_digit(tmp_path: Path) -> None:
    data = json.loads(ok("stats", str(MATCH / "ledger.yaml"), "--format", "json"))
    rows = {p["name"]: p for p in data["players"]}
    want = {
        "东": (1, 3, 0, 0, 2, 1, 2, 100),
        "南": (1, 3, 1, 0, 1, 0, 1, -967),
        "西": (1, 3, 0, 0, 0, 2, 0, 367),
        "北": (1, 3, 0, 1, 0, 0, 0, 500),
    }
    keys = ("matches", "hands", "lost", "won", "pigs", "sheep", "transformers", "final")
    assert {n: tuple(rows[n][k] for k in keys) for n in rows} == want
    assert rows["南"]["average"] == -322.33


def test_stats_over_a_folder_reads_only_the_ledgers(tmp_path: Path) -> None:
    for name in ("a.yaml", "b.yaml"):
        shutil.copy(MATCH / "ledger.yaml", tmp_path / name)
    shutil.copy(MATCH / "hand1.yaml", tmp_path / "hand1.yaml")  # not a ledger: passed over
    data = json.loads(ok("stats", str(tmp_path), "-f", "json"))
    assert data["matches"] == 2 and data["hands"] == 6
    assert {p["name"]: p["lost"] for p in data["players"]} == {"东": 0, "南": 2, "西": 0, "北": 0}
    assert data["players"][-1]["name"] == "南"  # (the pig twice: the lowest rating, last)
    csv_text = ok("stats", str(tmp_path), "-f", "csv")
    assert csv_text.splitlines()[0].startswith("name,matches,hands,lost,won,pigs,sheep")
    assert ok("stats", str(tmp_path), "--lang", "zh").startswith("2 场比赛，6 局")


# --- bad input for every new command: exit 2, one error line, nothing written ---------------------

BAD = [
    ["match", "show", "{L}", "0"],
    ["match", "remove", "{L}", "7", "--yes"],
    ["match", "explain", "{L}", "3"],
    ["match", "set", "{L}"],
    ["match", "set", "{L}", "--variant", "nope"],
    ["match", "set", "{L}", "--end-at", "5"],
    ["match", "new", "{L}x", "--like", "no-such.yaml"],
    ["match", "new", "{L}y"],
    ["match", "history", "no-such.yaml"],
    ["match", "restore", "no-such.yaml"],
    ["stats", "no-such.yaml"],
    ["stats", "{S}"],
    ["stats", "{L}", "--format", "yaml"],
    ["match", "rename", "{L}", "东", "南"],
    ["match", "edit", "{L}", "9", "{S}"],
    ["match", "export", "{L}", "--format", "yaml"],
    ["match", "show", "{L}", "1", "--lang", "fr"],
]


@pytest.mark.parametrize("args", BAD, ids=lambda a: " ".join(a[:2] + a[3:4]))
def test_bad_input_to_the_new_commands(played: str, args: list[str], tmp_path: Path) -> None:
    before = Path(played).read_bytes()
    history = Path(played + ".history").read_bytes()
    sample = str(SAMPLES / "seed_minus_400.yaml")
    refused(*(a.replace("{L}", played).replace("{S}", sample) for a in args))
    assert Path(played).read_bytes() == before
    assert Path(played + ".history").read_bytes() == history
    assert not Path(played + "x").exists() and not Path(played + "y").exists()


# --- adding to a long ledger reads only its header and last hand (issue 13) -----------------------


def test_add_reads_only_the_last_hand_of_a_ledger_as_the_tool_wrote_it(
    played: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gongzhu_score.match import ledger as ledger_module

    parsed: list[int] = []
    real = ledger_module.Ledger._entry_from_data

    def counting(self, number, data):  # type: ignore[no-untyped-def]
        parsed.append(number)
        return real(self, number, data)

    monkeypatch.setattr(ledger_module.Ledger, "_entry_from_data", counting)
    ok("match", "add", played, hand(3))
    assert parsed == [2]  # hand 2 only: the totals after it are all hand 3 needs
    monkeypatch.undo()
    data = state(played)
    assert len(data["hands"]) == 3
    assert done("match", "verify", played)[0] == ""  # the same file a full read would write


def test_add_reads_every_hand_of_a_ledger_edited_by_hand(played: str) -> None:
    path = Path(played)
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # not as written
    ok("match", "add", played, hand(3))  # verified in full first, then added
    assert len(state(played)["hands"]) == 3


def test_a_match_over_is_refused_from_its_last_hand_alone(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "-p", "东,南,西,北", "--end-at", "-300")
    ok("match", "add", path, hand(1))  # 东 -400: the end
    message = refused("match", "add", path, hand(2))
    assert message.endswith(
        "the match ended after hand 1 (东 当猪); start a new ledger for the next match"
    )
