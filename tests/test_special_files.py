"""Issue 35, cause 3 for the command line: every file a command opens (ledger, history, lock,
the current match's state and its lock, hands, rules) is a regular file or refused at once with
one line; a pipe or a device there never hangs a command, never reads for ever, and a refused
change leaves every file as it was.

Each command runs in a process of its own with a timeout: a hang is a failure, not a stuck
suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "sample_hands"
HAND = ["-c", "东=QS", "-c", "南=", "-c", "西=", "-c", "北=", "--partial"]


def cli(*args: str, cwd: Path, state: Path) -> subprocess.CompletedProcess[str]:
    """The real command, its current-match state in ``state``; 20 s at most."""
    env = {**os.environ, "XDG_STATE_HOME": str(state), "GONGZHU_LANG": "en"}
    env.pop("GONGZHU_MATCH", None)
    return subprocess.run([sys.executable, "-m", "gongzhu_score", *args], capture_output=True,
                          text=True, timeout=20, cwd=cwd, env=env)  # fmt: skip


def one_error(r: subprocess.CompletedProcess[str]) -> str:
    assert r.returncode == 2, r
    assert "Traceback" not in r.stderr
    assert r.stdout == ""
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr
    return r.stderr.removeprefix("error: ").rstrip("\n")


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A folder with a match of one hand in ``m.yaml``, remembered as its current match."""
    r = cli("match", "new", "m.yaml", "--players", "东,南,西,北", cwd=tmp_path, state=tmp_path)
    assert r.returncode == 0, r
    r = cli("match", "add", "m.yaml", *HAND, cwd=tmp_path, state=tmp_path)
    assert r.returncode == 0, r
    return tmp_path


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def hands_in(table: Path) -> int:
    return (table / "m.yaml").read_text(encoding="utf-8").count("entered:")


def pipe_at(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def test_a_state_file_that_is_a_pipe_is_passed_over_and_the_hand_added_once(table: Path) -> None:
    state = table / "gongzhu-score" / "matches.json"
    pipe_at(state)
    r = cli("match", "add", "m.yaml", *HAND, cwd=table, state=table)
    assert r.returncode == 0, r
    assert r.stderr.splitlines()[0] == (
        f"warning: the remembered matches ({state}) cannot be read (not a regular file: a pipe "
        "or a device); ignored"
    )
    assert "Traceback" not in r.stderr
    assert hands_in(table) == 2  # (added once, and the command ended)
    r = cli("match", "show", "m.yaml", cwd=table, state=table)
    assert r.returncode == 0, r


def test_without_a_ledger_named_a_state_pipe_is_no_current_match(table: Path) -> None:
    pipe_at(table / "gongzhu-score" / "matches.json")
    r = cli("match", "add", *HAND, cwd=table, state=table)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r
    assert r.stderr.splitlines()[0].startswith("warning: the remembered matches")
    assert r.stderr.splitlines()[1].startswith("error: no ledger given")
    assert hands_in(table) == 1


def test_a_state_lock_that_is_a_pipe_leaves_the_change_made_and_says_so(table: Path) -> None:
    folder = table / "gongzhu-score"
    pipe_at(folder / "matches.json.lock")
    r = cli("match", "add", "m.yaml", *HAND, cwd=table, state=table)
    assert r.returncode == 0, r
    assert r.stderr.splitlines()[0] == (
        f"warning: cannot remember the current match in {folder} (not a regular file: a pipe "
        "or a device); name the ledger in each command"
    )
    assert hands_in(table) == 2


def test_a_history_that_is_a_pipe_refuses_the_change_and_changes_nothing(table: Path) -> None:
    history = table / "m.yaml.history"
    pipe_at(history)
    before = files(table)
    said = one_error(cli("match", "add", "m.yaml", *HAND, cwd=table, state=table))
    assert said.startswith(f"{history}: is not a regular file")
    assert files(table) == before


def test_a_ledger_lock_that_is_a_pipe_refuses_the_change_and_changes_nothing(
    table: Path,
) -> None:
    lock = table / "m.yaml.lock"
    pipe_at(lock)
    before = files(table)
    said = one_error(cli("match", "add", "m.yaml", *HAND, cwd=table, state=table))
    assert said == f"m.yaml: cannot lock ({lock}: not a regular file: a pipe or a device)"
    assert files(table) == before


@pytest.mark.parametrize("kind", ["pipe", "/dev/zero"])
@pytest.mark.parametrize(
    "command",
    [
        ["match", "show", "odd.yaml"],
        ["match", "add", "odd.yaml", *HAND],
        ["score", "odd.yaml"],
        ["replay", "odd.yaml"],
        ["score", "--rules", "odd.yaml", str(SAMPLES / "seed_minus_400.yaml")],
    ],
    ids=["ledger shown", "ledger changed", "hand", "record", "rules"],
)
def test_a_ledger_hand_or_rules_file_that_is_a_pipe_or_a_device_is_refused_at_once(
    table: Path, kind: str, command: list[str]
) -> None:
    odd = table / "odd.yaml"
    if kind == "pipe":
        os.mkfifo(odd)
    else:
        odd.symlink_to(kind)
    said = one_error(cli(*command, cwd=table, state=table))
    assert said.startswith("odd.yaml: is not a regular file (a pipe or a device?)"), said
