"""Numbers, names and suggestions read as strictly as the rest of the tool (issue 55): a count
is decimal digits (no ``5_0``, no ``1.0``, ``true`` is no number), in options and in files; ``-``
is standard input or output, never a file made by that name; a file made through the page has
no control, line-separator or text-direction character in its name; no error suggests a command
that would write a wrong file (a deleted table is no match to start again).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from clitools import run
from serving import command, serving

PLAYERS = "东,南,西,北"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), *args, "--lang", "en"], capture_output=True, text=True,
                          timeout=60, cwd=cwd)  # fmt: skip


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.mark.parametrize("value", ["5_0", "1.0", "1e2", " 5", "٥", "true", "0x10", "5 "])
@pytest.mark.parametrize(
    "args",
    [
        ("match", "new", "{dir}/m.yaml", "--players", PLAYERS, "--hands", "{v}"),
        ("match", "new", "{dir}/m.yaml", "--players", PLAYERS, "--end-at", "-{v}"),
        ("tournament", "new", "{dir}/t.yaml", "--players", "a,b,c,d", "--hands", "{v}"),
        ("score", "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北", "--scale", "{v}"),
        ("serve", "{dir}/none.yaml", "--port", "{v}"),
    ],
)
def test_a_count_in_an_option_is_decimal_digits(
    tmp_path: Path, args: tuple[str, ...], value: str
) -> None:
    done = run(*(a.format(dir=tmp_path, v=value) for a in args), "--lang", "en")
    assert done.exit_code == 2, (done.stdout, done.stderr)
    assert done.stderr.startswith("error: Invalid value for '--"), done.stderr
    assert "is not a valid integer" in done.stderr and len(done.stderr.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_a_hand_number_is_decimal_digits(tmp_path: Path) -> None:
    ledger = str(tmp_path / "m.yaml")
    assert run("match", "new", ledger, "--players", PLAYERS).exit_code == 0
    assert run("match", "add", ledger, "-c", "东=QS", "-c", "南=", "-c", "西=",
               "--rest", "北").exit_code == 0  # fmt: skip
    assert run("match", "show", ledger, "1").exit_code == 0
    for value in ("1.0", "0_1", "true"):
        done = run("match", "show", ledger, value, "--lang", "en")
        assert done.exit_code == 2 and "is not a valid integer" in done.stderr, done.stderr


def test_within_the_range_and_out_of_it_as_before(tmp_path: Path) -> None:
    ledger = tmp_path / "m.yaml"
    assert run("match", "new", str(ledger), "--players", PLAYERS, "--hands", "05").exit_code == 0
    assert "last_hand: 5" in ledger.read_text(encoding="utf-8")
    done = run("score", "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北", "--scale", "0",
               "--lang", "en")  # fmt: skip
    assert done.exit_code == 2
    assert "'--scale': 0 is not in the range 1<=x<=1000000" in done.stderr, done.stderr


@pytest.mark.parametrize("value", ["true", "1.0", "!!float 1", "1_0", "0x1", "!!int 0x1"])
def test_format_in_a_ledger_or_a_tournament_is_the_number_1(tmp_path: Path, value: str) -> None:
    ledger, tournament = tmp_path / "m.yaml", tmp_path / "cup.yaml"
    assert run("match", "new", str(ledger), "--players", PLAYERS).exit_code == 0
    assert run("tournament", "new", str(tournament), "--players", "a,b,c,d").exit_code == 0
    for path, show in ((ledger, ("match", "show")), (tournament, ("tournament", "show"))):
        text = path.read_text(encoding="utf-8")
        assert "\nformat: 1\n" in text
        path.write_text(text.replace("\nformat: 1\n", f"\nformat: {value}\n"), encoding="utf-8")
        done = run(*show, str(path), "--lang", "en")
        assert done.exit_code == 2, (path, done.stdout)
        assert done.stderr.startswith(f"error: {path}: ") and "format" in done.stderr


@pytest.mark.parametrize("value", ["true", "1.0"])
def test_a_hand_s_number_in_a_ledger_is_a_whole_number(tmp_path: Path, value: str) -> None:
    ledger = tmp_path / "m.yaml"
    assert run("match", "new", str(ledger), "--players", PLAYERS).exit_code == 0
    assert run("match", "add", str(ledger), "-c", "东=QS", "-c", "南=", "-c", "西=",
               "--rest", "北").exit_code == 0  # fmt: skip
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text.replace("- hand: 1\n", f"- hand: {value}\n"), encoding="utf-8")
    done = run("match", "show", str(ledger), "--lang", "en")
    assert done.exit_code == 2 and "hand: expected 1" in done.stderr, done.stderr


@pytest.mark.parametrize("value", ["-1_000", "-0x3e8"])
def test_yaml_s_other_spellings_of_numbers_are_refused_in_a_ledger(
    tmp_path: Path, value: str
) -> None:
    ledger = tmp_path / "m.yaml"
    assert run("match", "new", str(ledger), "--players", PLAYERS).exit_code == 0
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text.replace("end_at: -1000", f"end_at: {value}"), encoding="utf-8")
    done = run("match", "show", str(ledger), "--lang", "en")
    assert done.exit_code == 2 and "end_at" in done.stderr, done.stderr


def test_a_claimed_score_is_decimal_digits() -> None:
    hand = ("score", "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北", "--lang", "en")
    for value in ("-1_00", "-100.0", "-١٠٠"):
        done = run(*hand, "--claim", f"东={value}")
        assert done.exit_code == 2, done
        assert done.stderr == f"error: --claim 东: {value!r} is not a whole number, e.g. -400\n"
    assert run(*hand, "--claim", "东=-100").exit_code == 0
    assert run(*hand, "--claim", "东=－１００").exit_code == 0  # (full-width, as before)


@pytest.mark.parametrize("made", [("tournament", "new", "-", "--players", "a,b,c,d"),
                                  ("match", "new", "-", "--players", PLAYERS)])  # fmt: skip
def test_dash_is_never_a_file_made(tmp_path: Path, made: tuple[str, ...]) -> None:
    done = cli(*made, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("error: '-' stands for standard input or output, not a file to make: "
                           "name the file (./- for a file named -)\n")  # fmt: skip
    assert list(tmp_path.iterdir()) == []


def test_batch_output_dash_is_standard_output(tmp_path: Path) -> None:
    (tmp_path / "h.jsonl").write_text(
        '{"players": {"a": "QS", "b": "", "c": "", "d": "红桃2-A 方块J 梅花10"}}\n',
        encoding="utf-8",
    )
    done = cli("batch", "h.jsonl", "-f", "jsonl", "-o", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{"source": "h.jsonl:1", "players": [')
    assert sorted(os.listdir(tmp_path)) == ["h.jsonl"]


def test_a_deleted_table_suggests_no_new_match(tmp_path: Path) -> None:
    assert (
        cli("tournament", "new", "cup.yaml", "--players", "a,b,c,d", cwd=tmp_path).returncode == 0
    )
    assert cli("tournament", "round", "cup.yaml", cwd=tmp_path).returncode == 0
    (tmp_path / "cup-r1-t1.yaml").unlink()
    before = files(tmp_path)
    for args in (("tournament", "show", "cup.yaml"), ("tournament", "verify", "cup.yaml"),
                 ("match", "add", "cup-r1-t1.yaml", "-c", "a=QS", "-c", "b=", "-c", "c=",
                  "--rest", "d"), ("match", "show", "cup-r1-t1.yaml")):  # fmt: skip
        done = cli(*args, cwd=tmp_path)
        assert done.returncode == 2, done
        assert "match new" not in done.stderr.replace("match new would", ""), done.stderr
        assert "--players" not in done.stderr and "put it back" in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
    assert files(tmp_path) == before
    with serving(str(tmp_path), "--lang", "en") as served:
        listed = served.get("/api/matches")[1]
        (cup,) = listed["tournaments"]
        assert cup["file"] == "cup.yaml" and "put it back" in cup["problem"], cup
        assert "--players" not in cup["problem"]


def test_a_ledger_never_started_still_says_how_to_start_one(tmp_path: Path) -> None:
    done = cli("match", "show", "nothing.yaml", cwd=tmp_path)
    assert done.returncode == 2
    assert "match new nothing.yaml --players" in done.stderr


@pytest.mark.parametrize(
    "bad", ["evil\u202etxt.yaml", "two\u2028lines", "next\x85line", "rtl\u2067x", "\ufeffbom"]
)
def test_a_file_made_through_the_page_has_a_plain_name(tmp_path: Path, bad: str) -> None:
    with serving(str(tmp_path), "--lang", "en") as served:
        status, answer = served.post("/api/matches", {"players": PLAYERS, "name": bad})
        assert status == 400, answer
        assert "cannot be a match's file name" in answer["error"]
        assert bad not in answer["error"]  # (said escaped)
        status, answer = served.post("/api/matches", {"players": PLAYERS, "name": "周五 晚上"})
        assert status == 200 and answer["match"] == "周五 晚上.yaml", answer
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == [
        "周五 晚上.yaml", "周五 晚上.yaml.history", "周五 晚上.yaml.lock"]  # fmt: skip
