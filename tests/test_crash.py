"""A change is one act (issue 20): whatever stops a change (SIGKILL, SIGTERM, Ctrl-C at any
step of its writes, a full disk under its output), the ledger is the old one or the new one,
its history agrees with it, ``match verify`` passes, and ``match restore`` walks back through
every change that really happened."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, run
from crashing import NOT_REACHED, Stopped, Stopping, walk_back

from gongzhu_score.match.history import digest, history_path, read_history
from gongzhu_score.match.storage import ledger_history, read_ledger

MATCH = SAMPLES / "match"


def hand(n: int) -> str:
    return str(MATCH / f"hand{n}.yaml")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match of two hands with a history: new, add, add."""
    folder = tmp_path_factory.mktemp("base")
    path = str(folder / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    ok("match", "add", path, hand(1))
    ok("match", "add", path, hand(2))
    return folder


def copy_of(base: Path, into: Path) -> str:
    for f in base.iterdir():
        shutil.copy2(f, into / f.name)
    return str(into / "m.yaml")


def check_state(path: str, states: dict[str, str]) -> str:
    """The ledger is one of the known ``states`` (by digest: its name), verifies, and its
    history's last committed change is the one that made it."""
    now = digest(Path(path).read_bytes())
    assert now in states, "the ledger is neither the old one nor the new one"
    assert not read_ledger(path).verify()
    assert ledger_history(path)[-1].after == now
    return states[now]


CHANGES = {
    "add": ["match", "add", "{L}", hand(3)],
    "edit": ["match", "edit", "{L}", "1", hand(3)],
    "undo": ["match", "undo", "{L}"],
    "remove": ["match", "remove", "{L}", "1", "--yes"],
    "rename": ["match", "rename", "{L}", "北", "小北"],
    "set": ["match", "set", "{L}", "--end-at", "-800", "--scale", "2"],
    "restore": ["match", "restore", "{L}"],
}


CLOCK = {"GONGZHU_NOW": "2026-11-30T21:05:00+08:00"}
"""One clock for every run: an added hand keeps when it was entered, and the new ledger must be
the same bytes each time."""


def crash(step: int, how: str, args: list[str], path: str) -> Stopped:
    return Stopping(step, how, [a.replace("{L}", path) for a in args], CLOCK).wait()


def expected_states(base: Path, tmp: Path, args: list[str]) -> dict[str, str]:
    """The ledger's digest before the change and after it, run to its end."""
    path = copy_of(base, tmp)
    before = digest(Path(path).read_bytes())
    r = crash(10_000, "kill", args, path)
    assert r.returncode == NOT_REACHED, r.stderr
    return {before: "old", digest(Path(path).read_bytes()): "new"}


@pytest.mark.crash
@pytest.mark.parametrize("kind", sorted(CHANGES))
@pytest.mark.parametrize("how", ["kill", "interrupt", "term"])
def test_a_change_stopped_at_any_step_leaves_the_old_state_or_the_new(
    base: Path, tmp_path: Path, kind: str, how: str
) -> None:
    args = CHANGES[kind]
    states = expected_states(base, _fresh(tmp_path, "whole"), args)
    old_history = history_path(base / "m.yaml").read_bytes()
    seen = set()
    last = 0
    for last, path, r in _crashes(base, tmp_path, how, args):  # noqa: B007 (the last step)
        assert "Traceback" not in r.stderr, r.stderr
        if r.returncode == NOT_REACHED:
            break
        state = check_state(path, states)
        seen.add(state)
        if how != "kill" and state == "old":
            # Ctrl-C and SIGTERM run the clean-up: not a byte of the history moved.
            assert history_path(path).read_bytes() == old_history
        if state == "old":
            assert read_history(path, digest(Path(path).read_bytes())) == read_history(
                base / "m.yaml"
            )
        # Whatever the crash left, restore brings back every state that existed, in order.
        recorded = len(ledger_history(path))
        assert walk_back(path) == recorded - 1
    assert last > 4, "the change was stopped at too few steps to mean anything"
    assert seen == {"old", "new"} or how != "kill", seen


def _crashes(
    base: Path, tmp: Path, how: str, args: list[str]
) -> Iterator[tuple[int, str, Stopped]]:
    """The change stopped at step 1, 2, …, each on its own copy of the match, in order, until
    one runs past its last step (a few run at once, one per core; the steps past the end are
    thrown away)."""
    at_once = max(2, os.cpu_count() or 1)
    start = 1
    while True:
        steps = range(start, start + at_once)
        paths = [copy_of(base, _fresh(tmp, f"s{step}")) for step in steps]
        argvs = [[a.replace("{L}", path) for a in args] for path in paths]
        running = [
            Stopping(step, how, argv, CLOCK) for step, argv in zip(steps, argvs, strict=True)
        ]
        for step, path, r in zip(steps, paths, [s.wait() for s in running], strict=True):
            yield step, path, r
            if r.returncode == NOT_REACHED:
                return
        start += at_once


def _fresh(tmp: Path, name: str) -> Path:
    folder = tmp / name
    folder.mkdir()
    return folder


@pytest.mark.crash
def test_a_kill_between_the_history_line_and_the_ledger_leaves_no_phantom(
    base: Path, tmp_path: Path
) -> None:
    """The line written ahead and the ledger never renamed (the case random kills hit): the
    line is set aside, ``match history`` does not list it, restore and add work."""
    path = copy_of(base, tmp_path)
    step = 1
    while True:  # the first step after the history's fsync: its line is on disk, the ledger old
        folder = _fresh(tmp_path, f"s{step}")
        p = copy_of(base, folder)
        crash(step, "kill", CHANGES["add"], p)
        if len(history_path(p).read_bytes()) > len(history_path(path).read_bytes()):
            break
        step += 1
    assert Path(p).read_bytes() == Path(path).read_bytes()  # the ledger never changed
    assert history_path(p).read_bytes().count(b"\n") == 4  # the uncommitted line is there
    text = ok("match", "history", p)
    assert "added hand 3" not in text and "added hand 2 (match restore reverts" in text
    ok("match", "add", p, hand(3))
    assert history_path(p).read_bytes().count(b"\n") == 4  # set aside, then the real one
    assert [c.number for c in ledger_history(p)] == [1, 2, 3, 4]
    assert walk_back(p) == 3


def test_a_torn_last_line_is_set_aside(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    with history_path(path).open("ab") as f:
        f.write(b'{"number": 4, "time": "2026-')  # a write the crash cut short
    assert len(ledger_history(path)) == 3
    ok("match", "add", path, hand(3))
    assert [c.kind for c in ledger_history(path)] == ["new", "add", "add", "add"]
    assert walk_back(path) == 3


# --- output that cannot be written after the change is made --------------------------------


def cli(*args: str, stdout: object = None, stderr: object = None) -> int:
    return subprocess.run(
        [sys.executable, "-m", "gongzhu_score", *args], stdout=stdout, stderr=stderr, timeout=60
    ).returncode


@pytest.mark.parametrize("kind", sorted(CHANGES))
def test_a_change_whose_output_fails_is_done_and_says_so(
    base: Path, tmp_path: Path, kind: str
) -> None:
    """Exit 4 (never 2: a script retrying on 2 would add the hand twice), the error says the
    change was made, and the history has it."""
    path = copy_of(base, tmp_path)
    before = Path(path).read_bytes()
    argv = [a.replace("{L}", path) for a in CHANGES[kind]]
    with open("/dev/full", "w") as full, (tmp_path / "err").open("w") as err:
        code = cli(*argv, stdout=full, stderr=err)  # (every change speaks on standard output)
    assert code == 4
    assert Path(path).read_bytes() != before
    said = (tmp_path / "err").read_text()
    made = "restored the ledger" if kind == "restore" else "the change was made"
    assert said.startswith("error: ") and made in said
    assert "No space left on device" in said and "Traceback" not in said
    assert ledger_history(path)[-1].after == digest(Path(path).read_bytes())
    assert not read_ledger(path).verify()


def test_a_new_match_whose_output_fails_is_made_and_says_so(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    with open("/dev/full", "w") as full:
        assert cli("match", "new", path, "-p", "东,南,西,北", stdout=full) == 4
    assert [c.kind for c in ledger_history(path)] == ["new"]


def test_output_that_fails_without_a_change_is_exit_2(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    with open("/dev/full", "w") as full, (tmp_path / "err").open("w") as err:
        assert cli("match", "show", path, stdout=full, stderr=err) == 2
    assert (tmp_path / "err").read_text().startswith("error: ")


@pytest.mark.crash
def test_a_new_match_stopped_at_any_step_leaves_no_ledger_or_a_whole_one(tmp_path: Path) -> None:
    step = 1
    while True:
        folder = _fresh(tmp_path, f"s{step}")
        path = str(folder / "m.yaml")
        (folder / "m.yaml.history").write_text("an earlier file's history\n")
        r = crash(step, "kill", ["match", "new", "{L}", "-p", "东,南,西,北"], path)
        if r.returncode == NOT_REACHED:
            break
        if Path(path).exists():
            assert [c.kind for c in ledger_history(path)] == ["new"]
        done("match", "new", path, "-p", "东,南,西,北") if not Path(path).exists() else None
        assert [c.kind for c in ledger_history(path)] == ["new"]
        ok("match", "add", path, hand(1))
        assert walk_back(path) == 1
        step += 1
    assert step > 3


# --- a change killed on a ledger the tool did not write last, or with no history ---------------


def killed_between_line_and_ledger(args: list[str], path: str) -> None:
    """Run ``args`` on ``path`` and kill it the moment its history line is on disk."""
    history = history_path(path)
    size = history.stat().st_size if history.exists() else 0
    for step in range(1, 40):
        saved = Path(path).read_bytes(), history.read_bytes() if history.exists() else None
        crash(step, "kill", args, path)
        grown = history.exists() and history.stat().st_size > size
        if grown and Path(path).read_bytes() == saved[0]:
            return
        Path(path).write_bytes(saved[0])  # not that step: back to the start, try the next
        if saved[1] is None:
            history.unlink(missing_ok=True)
        else:
            history.write_bytes(saved[1])
    raise AssertionError("no step fell between the history line and the ledger")


@pytest.mark.crash
def test_a_change_killed_on_a_ledger_edited_by_hand_leaves_no_phantom(
    base: Path, tmp_path: Path
) -> None:
    path = copy_of(base, tmp_path)
    with open(path, "a", encoding="utf-8") as f:
        f.write("# a note from the table\n")
    edited = Path(path).read_bytes()
    killed_between_line_and_ledger(CHANGES["add"], path)
    assert Path(path).read_bytes() == edited
    assert "added hand 3" not in ok("match", "history", path)
    ok("match", "add", path, hand(3))
    ok("match", "restore", path)  # the add that happened, not the one that did not
    assert Path(path).read_bytes() == edited


@pytest.mark.crash
def test_a_change_killed_on_a_ledger_with_no_history_leaves_no_phantom(
    base: Path, tmp_path: Path
) -> None:
    path = copy_of(base, tmp_path)
    history_path(path).unlink()
    killed_between_line_and_ledger(CHANGES["add"], path)
    assert ledger_history(path) == []
    ok("match", "add", path, hand(3))
    assert [c.kind for c in ledger_history(path)] == ["add"]
    ok("match", "restore", path)
    assert len(read_ledger(path).entries) == 2


@pytest.mark.crash
def test_a_change_that_changes_nothing_writes_nothing(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    ok("match", "set", path, "--end-at", "-800")
    files = Path(path).read_bytes(), history_path(path).read_bytes()
    for how in ("kill", "interrupt"):
        for step in (1, 2, 3):
            crash(step, how, ["match", "set", "{L}", "--end-at", "-800"], path)
            assert (Path(path).read_bytes(), history_path(path).read_bytes()) == files
    done("match", "set", path, "--end-at", "-800")
    assert (Path(path).read_bytes(), history_path(path).read_bytes()) == files


def test_a_refused_change_leaves_even_a_torn_history_as_it_was(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    with history_path(path).open("ab") as f:
        f.write(b'{"number": 9, "ti')
    files = Path(path).read_bytes(), history_path(path).read_bytes()
    for args in (["match", "remove", path, "99", "--yes"], ["match", "edit", path, "7", hand(1)]):
        assert run(*args).exit_code == 2
        assert (Path(path).read_bytes(), history_path(path).read_bytes()) == files


def test_a_last_line_an_editor_saved_without_its_newline_is_kept(
    base: Path, tmp_path: Path
) -> None:
    path = copy_of(base, tmp_path)
    history_path(path).write_bytes(history_path(path).read_bytes().rstrip(b"\n"))
    assert [c.number for c in ledger_history(path)] == [1, 2, 3]
    ok("match", "add", path, hand(3))
    assert [c.number for c in ledger_history(path)] == [1, 2, 3, 4]
    assert walk_back(path) == 3


def test_blank_lines_at_the_end_of_the_history_are_passed_over(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    with history_path(path).open("ab") as f:
        f.write(b"\n\n\n\n")
    ok("match", "add", path, hand(3))
    assert [c.number for c in ledger_history(path)] == [1, 2, 3, 4]
    assert walk_back(path) == 3


def test_a_restore_whose_output_fails_says_not_to_restore_again(base: Path, tmp_path: Path) -> None:
    path = copy_of(base, tmp_path)
    with open("/dev/full", "w") as full, (tmp_path / "err").open("w") as err:
        assert cli("match", "restore", path, stdout=full, stderr=err) == 4
    said = (tmp_path / "err").read_text()
    assert "restored" in said and "do not run restore again" in said
    assert len(read_ledger(path).entries) == 1
