"""A folder is a batch (issue 22): the match ledgers and rules files found in a folder are
passed over with a notice, and so are its Parquet files without the arrow extra; a file named
is read as it is. ``batch sample_hands/`` works on a fresh install with no extras."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
import yaml
from clitools import SAMPLES, refused, run

from gongzhu_score.batch.parallel import _first_line, cuts
from gongzhu_score.batch.reading import SNIFF_BYTES, not_hands
from gongzhu_score.batch.run import PassedOver, input_files

RULES = sorted(p.relative_to(SAMPLES.parent).as_posix() for p in (SAMPLES / "rules").glob("*"))
LEDGER = "sample_hands/match/ledger.yaml"
MATCH = SAMPLES / "match"


def _relative(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SAMPLES.parent)  # the paths as a user types them


def test_the_sample_folder_is_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    _relative(monkeypatch)
    r = run("batch", "sample_hands/", "--format", "csv")
    assert r.exit_code == 0, r.stderr
    notices = r.stderr.splitlines()
    assert notices == [
        f"passed over {LEDGER}: a match ledger, not recorded hands (match show and stats read it)",
        *(f"passed over {p}: a rules file, not recorded hands (use it with --rules)"
          for p in RULES),
    ]  # fmt: skip
    scored = {row["source"] for row in csv.DictReader(io.StringIO(r.stdout))}
    files = {s.rsplit("#", 1)[0].rsplit(":", 1)[0] for s in scored}
    assert "sample_hands/batch.parquet" in files and "sample_hands/batch.jsonl" in files
    assert "sample_hands/match/hand1.yaml" in files
    assert not files & {LEDGER, *RULES}
    assert len(scored) == len(r.stdout.splitlines()[1:]) // 4  # four players a hand


def test_without_the_arrow_extra_parquet_of_a_folder_is_passed_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _relative(monkeypatch)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # (its import fails, as without the extra)
    r = run("batch", "sample_hands/", "--format", "csv", "--lang", "zh")
    assert r.exit_code == 0, r.stderr
    lines = r.stderr.splitlines()
    parquet = [line for line in lines if "batch.parquet" in line]
    assert parquet == [
        "已跳过 sample_hands/batch.parquet：读取 Parquet 需要可选依赖 arrow："
        "pip install 'gongzhu-score[arrow]'"
    ]
    assert f"已跳过 {LEDGER}：这是比赛记录，不是牌局记录（可用 match show 或 stats 查看）" in lines
    assert len(lines) == 2 + len(RULES)  # once per file
    assert "sample_hands/batch.parquet" not in r.stdout
    assert "sample_hands/batch.jsonl:5" in r.stdout
    en = run("batch", "sample_hands/", "--format", "csv")
    assert ("passed over sample_hands/batch.parquet: reading Parquet needs the arrow extra: "
            "pip install 'gongzhu-score[arrow]'") in en.stderr.splitlines()  # fmt: skip
    # a Parquet file named needs the extra: said, as before
    assert refused("batch", "sample_hands/batch.parquet", "--format", "csv") == (
        "this needs the optional libraries of the arrow extra: pip install 'gongzhu-score[arrow]'"
    )


def test_a_file_named_is_read_as_it_is() -> None:
    message = refused("batch", str(MATCH / "ledger.yaml"))
    assert "this is a match ledger (format, players, hands), not a hand" in message
    rules = SAMPLES / "rules" / "grand_slam_1600.yaml"
    assert run("batch", str(rules)).exit_code == 2


def test_a_folder_of_ledgers_only_has_no_hands_and_says_what_it_passed_over(
    tmp_path: Path,
) -> None:
    shutil.copy(MATCH / "ledger.yaml", tmp_path / "a.yaml")
    r = run("batch", str(tmp_path))
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"passed over {tmp_path / 'a.yaml'}: a match ledger, not recorded hands (match show and "
        "stats read it)",
        f"error: no hand files (*.jsonl, *.yaml, *.yml, *.parquet) in {tmp_path}",
    ]


def test_the_library_tells_each_file_passed_over_once(tmp_path: Path) -> None:
    shutil.copy(MATCH / "ledger.yaml", tmp_path / "ledger.yaml")
    shutil.copy(MATCH / "hand1.yaml", tmp_path / "hand1.yaml")
    (tmp_path / "ours.yml").write_text("extends: classic\nname: ours\n", encoding="utf-8")
    told: list[PassedOver] = []
    files = input_files([str(tmp_path)], passed_over=told.append)
    assert files == [str(tmp_path / "hand1.yaml")]
    assert told == [PassedOver(str(tmp_path / "ledger.yaml"), "ledger"),
                    PassedOver(str(tmp_path / "ours.yml"), "rules")]  # fmt: skip
    assert input_files([str(tmp_path)]) == files  # (told to no one: passed over all the same)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ((MATCH / "ledger.yaml").read_text(encoding="utf-8"), "ledger"),
        # a ledger edited by hand, its header line gone, its keys in another order
        ("players: [a, b, c, d]\nhands: []\nformat: 1\n", "ledger"),
        ("\ufeffformat: 1\nplayers: [a, b, c, d]\nhands:\n", "ledger"),
        ("extends: classic\nname: ours\npig: -50\n", "rules"),
        ("name: ours\nheart_values: {2: 0}\npig: -50  # house rule\n", "rules"),
        ("aliases: [x]\nname: y\n", "rules"),
        ((MATCH / "hand1.yaml").read_text(encoding="utf-8"), None),
        ((SAMPLES / "record.yaml").read_text(encoding="utf-8"), None),
        ("variant: classic\nplayers:\n  - {name: A, captured: QS}\n", None),
        ('{"players": [], "format": 1, "hands": []}\n', None),  # flow style: no key at a line start
        ("", None),
        ("pig: -50\nsomething: else\n", None),  # not only rules: a hand file's mistake, said there
        ("---\nplayers: []\n---\nextends: classic\n", None),
    ],
)
def test_ledgers_and_rules_files_are_told_by_their_keys(
    tmp_path: Path, text: str, kind: str | None
) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    assert not_hands(str(path)) == kind
    assert not_hands(str(tmp_path / "f.jsonl")) is None  # (only YAML files are asked)


def test_a_long_ledger_is_told_by_its_start(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("format: 1\nplayers: [a, b, c, d]\nnote: " + "x" * SNIFF_BYTES + "\nhands:\n",
                    encoding="utf-8")  # fmt: skip
    assert not_hands(str(path)) == "ledger"


# --- issue 35, cause 7: what a folder holds that is no file to read gets its notice ----------


def test_links_to_nothing_loops_pipes_and_linked_folders_each_get_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(MATCH / "hand1.yaml", folder / "a.yaml")
    (folder / "dangling.yaml").symlink_to("nowhere.yaml")
    (folder / "loop.jsonl").symlink_to("loop.jsonl")
    os.mkfifo(folder / "sub" / "pipe.yaml")
    (folder / "null.yml").symlink_to(os.devnull)
    (folder / "linked").symlink_to(tmp_path / "elsewhere")
    (folder / "notes.txt").write_text("not a hand, by its name: no notice", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = run("batch", "in", "--format", "csv")
    assert r.exit_code == 0, r.stderr
    assert r.stderr.splitlines() == [
        "passed over in/dangling.yaml: a link to nothing (its target is gone)",
        "passed over in/linked: a link to a folder, not followed (name the folder to read it)",
        "passed over in/loop.jsonl: a link that leads back to itself (a loop)",
        "passed over in/null.yml: not a regular file (a pipe, a device or a socket)",
        "passed over in/sub/pipe.yaml: not a regular file (a pipe, a device or a socket)",
    ]
    assert {row["source"] for row in csv.DictReader(io.StringIO(r.stdout))} == {"in/a.yaml#1"}
    told: list[PassedOver] = []
    assert input_files(["in"], passed_over=told.append) == ["in/a.yaml"]
    assert [(p.path, p.why) for p in told] == [
        ("in/dangling.yaml", "dangling"),
        ("in/linked", "folder_link"),
        ("in/loop.jsonl", "loop"),
        ("in/null.yml", "special"),
        ("in/sub/pipe.yaml", "special"),
    ]
    said = run("batch", "in", "--format", "csv", "--lang", "zh").stderr.splitlines()
    assert said[0] == "已跳过 in/dangling.yaml：这是指向不存在目标的链接（目标已不在）"


def test_cutting_a_file_for_the_workers_never_holds_a_long_line(tmp_path: Path) -> None:
    hand = (MATCH / "hand1.yaml").read_text(encoding="utf-8")
    line = json.dumps(yaml.safe_load(hand), ensure_ascii=False).encode() + b"\n"
    path = tmp_path / "long.jsonl"
    with path.open("wb") as f:
        f.write(line * 1000 + b'{"note": "' + b"x" * 30_000_000 + b'"}\n' + line * 1000)
    tracemalloc.start()
    try:
        cut = cuts(str(path), 4)
        firsts = [_first_line(str(path), start) for start, _ in cut]  # (as each worker counts)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000, peak  # (the line is 30 MB: reading it whole was the old way)
    data = path.read_bytes()
    assert cut[0][0] == 0 and cut[-1][1] == len(data)
    assert all(end == start for (_, end), (start, _) in itertools.pairwise(cut))
    for start, _ in cut[1:]:
        assert data[start - 1 : start] == b"\n"
    assert firsts == [data[:start].count(b"\n") + 1 for start, _ in cut]


def test_a_300_mb_line_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    hand = (MATCH / "hand1.yaml").read_text(encoding="utf-8")
    line = json.dumps(yaml.safe_load(hand), ensure_ascii=False).encode() + b"\n"
    path = tmp_path / "long.jsonl"
    with path.open("wb") as f:
        f.write(line * 20_000)
        f.write(b'{"note": "')
        for _ in range(300):
            f.write(b"x" * 1_000_000)
        f.write(b'"}\n' + line * 20_000)
    measure = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run([sys.executable, '-m', 'gongzhu_score', 'batch', sys.argv[1],"
        " '--keep-going', '--format', 'csv'], capture_output=True, text=True)\n"
        "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
        "print(r.stderr)"
    )
    r = subprocess.run([sys.executable, "-c", measure, str(path)], capture_output=True,
                       text=True, timeout=300)  # fmt: skip
    code, peak_kb = map(int, r.stdout.splitlines()[0].split())
    assert code == 1, r.stdout
    assert f"{path}:20001: a line over 1,000,000 bytes" in r.stdout
    assert peak_kb < 150_000, peak_kb  # (313 MB when the cut read the line whole)
