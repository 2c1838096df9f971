"""A batch on every core refuses an input that changes under it (issue 55): each slice must be
read to its planned end, and the file must be the one it was when the batch began; else exit 2,
one line, no output file, never a batch with hands missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

LINE = (
    '{"players": [{"name": "东", "captured": "QS 6H 8H 10H JH 10C"}, {"name": "南", "captured":'
    ' "AH 2H 3H 4H 5H 7H 9H"}, {"name": "西", "captured": "JD QH KH"}, {"name": "北"}]}\n'
)
# The batch command, with the file changed once the slices are planned (``cuts``): as when
# another program cuts or rewrites the file while the batch reads it.
CHANGING = """
import os, sys
import gongzhu_score.batch.parallel as parallel
from gongzhu_score.cli import main

planned = parallel.cuts


def cuts(path, parts):
    found = planned(path, parts)
    size = os.path.getsize(path)
    if how == "cut":
        os.truncate(path, size // 3)
    elif how == "grown":
        with open(path, "ab") as f:
            f.write(open(path, "rb").read(size // 10))
    return found


if __name__ == "__main__":  # (not in the workers, which import this script)
    how = sys.argv.pop(1)
    parallel.cuts = cuts
    sys.argv = ["gongzhu-score", *sys.argv[1:]]
    main()
"""


@pytest.fixture
def big(tmp_path: Path) -> Path:
    path = tmp_path / "big.jsonl"
    path.write_text(LINE * 150_000, encoding="utf-8")
    assert os.path.getsize(path) > 2_000_000  # (cut for every core: batch/parallel.py)
    return path


@pytest.mark.parametrize("how", ["cut", "grown"])
def test_an_input_changed_while_a_batch_reads_it_is_refused(
    big: Path, tmp_path: Path, how: str
) -> None:
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: the file is not cut for several")
    script = tmp_path / "changing.py"
    script.write_text(CHANGING, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, str(script), how, "batch", str(big), "-f", "jsonl", "-o", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {big}: changed while it was being read")
    assert not out.exists()
    assert not list(tmp_path.glob(".gongzhu-part.*"))  # (no part of a worker left behind)


def test_an_input_left_alone_is_scored_whole_on_every_core(big: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "gongzhu_score", "batch", str(big), "-f", "jsonl", "-o", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = out.read_text(encoding="utf-8").splitlines()
    assert len(written) == 150_000
    assert [line.split('"')[3] for line in written[::7_499]] == [
        f"{big}:{n}" for n in range(1, 150_001, 7_499)
    ]
