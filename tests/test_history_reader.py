"""The history beside a ledger is read as strictly and as boundedly as the ledger (issue 20):
a damaged or hand-edited line is a clear error naming the history and the line, never a
crash, a hang or a memory blow-up; a fuzz of its bytes finds nothing else."""

from __future__ import annotations

import base64
import contextlib
import json
import zlib
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu_score.errors import LedgerError
from gongzhu_score.match.history import (
    MAX_LINE_BYTES,
    digest,
    history_path,
    parse_change,
    read_history,
    reconcile,
)
from gongzhu_score.match.storage import ledger_history, restore_ledger

HAND = str(SAMPLES / "match" / "hand1.yaml")


@pytest.fixture
def played(tmp_path: Path) -> str:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    ok("match", "add", path, HAND)
    done("match", "rename", path, "北", "小北")
    return path


def lines_of(path: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in history_path(path).read_text().splitlines()]


def write_lines(path: str, lines: list[dict]) -> None:  # type: ignore[type-arg]
    history_path(path).write_text("".join(json.dumps(d) + "\n" for d in lines))


def last_edited(path: str, **fields: object) -> None:
    lines = lines_of(path)
    lines[-1].update(fields)
    write_lines(path, lines)


@pytest.mark.parametrize(
    "fields",
    [
        {"number": 1e400},
        {"number": True},
        {"number": -3},
        {"number": 2**70},
        {"kind": "explode"},
        {"kind": None},
        {"after": "not a digest"},
        {"values": []},
        {"values": {"old": "北"}},
        {"values": {"old": 1, "new": "x"}},
        {"time": 5},
        {"surprise": 1},
    ],
    ids=lambda f: "-".join(f"{k}={v!r}"[:30] for k, v in f.items()),
)
def test_a_hand_edited_field_is_a_clear_error_in_every_command(played: str, fields: dict) -> None:  # type: ignore[type-arg]
    last_edited(played, **fields)
    for command in (["match", "history", played], ["match", "add", played, HAND],
                    ["match", "restore", played]):  # fmt: skip
        said = refused(*command)
        assert said.startswith(f"{history_path(played)}: ") and "not a recorded change" in said


@pytest.mark.parametrize("kept", [30.5, "x", -1, True, 2**80])
def test_kept_length_must_be_a_whole_length(played: str, kept: object) -> None:
    lines = lines_of(played)
    lines[1]["kept_length"] = kept  # the add
    write_lines(played, lines)
    assert "line 2 is not a recorded change" in refused("match", "history", played)


def test_a_kept_length_past_the_ledger_is_refused_on_restore(played: str) -> None:
    ok("match", "restore", played)  # the rename: the hand's players again
    ok("match", "add", played, HAND)
    last_edited(played, kept_length=10**9)
    assert "does not hold a ledger this tool wrote" in refused("match", "restore", played)


def test_a_before_that_is_not_base64_and_zlib_is_refused_on_restore(played: str) -> None:
    for before in ("this is not base64!", base64.b64encode(b"not zlib").decode()):
        last_edited(played, before=before)
        said = refused("match", "restore", played)
        assert said.startswith(f"{history_path(played)}: change 3 does not hold a ledger")


def test_a_zlib_bomb_is_not_inflated_past_a_ledgers_size(played: str) -> None:
    squeeze = zlib.compressobj(9)
    bomb = b"".join(squeeze.compress(b"\0" * 10_000_000) for _ in range(7)) + squeeze.flush()
    last_edited(played, before=base64.b64encode(bomb).decode())  # 70 MB inflated
    assert "does not hold a ledger this tool wrote" in refused("match", "restore", played)


def test_a_line_nested_deeper_than_any_change_is_refused(played: str) -> None:
    with history_path(played).open("a") as f:
        f.write("[" * 200_000 + "]" * 200_000 + "\n")
    assert "not a recorded change" in refused("match", "add", played, HAND)
    assert "not a recorded change" in refused("match", "history", played)


def test_a_huge_history_without_a_newline_is_refused_in_linear_time(played: str) -> None:
    with history_path(played).open("ab") as f:
        f.truncate(MAX_LINE_BYTES + 5_000_000)  # 90 MB of one "line": no change is that long
    said = refused("match", "add", played, HAND)
    assert "longer than any change this tool writes" in said
    assert "longer than any change" in refused("match", "history", played)


def test_the_tail_is_found_at_the_end_of_a_long_history(played: str) -> None:
    lines = lines_of(played)
    write_lines(played, [*lines[:1], *[lines[1]] * 20_000, *lines[1:]])
    head = reconcile(played, digest(Path(played).read_bytes()))
    assert head.last is not None and head.last.kind == "rename" and head.as_written
    assert head.before_last is not None and head.before_last.kind == "add"


def test_restore_refuses_a_history_that_does_not_lead_back(played: str) -> None:
    lines = lines_of(played)
    lines[-1]["prior"] = "0" * 64  # the rename says it started from another ledger
    write_lines(played, lines)
    said = refused("match", "restore", played)
    assert "does not lead back" in said and "nothing was restored" in said


# --- fuzz: whatever the bytes, a LedgerError or a result ----------------------------------


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_fuzzed_history_bytes_never_crash_the_readers(played: str, data: st.DataObject) -> None:
    original = history_path(played).read_bytes()
    ledger = Path(played).read_bytes()
    try:
        edited = bytearray(original)
        for _ in range(data.draw(st.integers(1, 4))):
            at = data.draw(st.integers(0, len(edited)))
            what = data.draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
            if what == "flip" and at < len(edited):
                edited[at] = data.draw(st.integers(0, 255))
            elif what == "cut":
                del edited[at : at + data.draw(st.integers(1, 50))]
            elif what == "insert":
                edited[at:at] = data.draw(st.binary(max_size=40)) or b"\n"
            else:
                del edited[at:]
        history_path(played).write_bytes(bytes(edited))
        current = digest(Path(played).read_bytes())
        for read in (
            lambda: read_history(played, current),
            lambda: reconcile(played, current),
            lambda: ledger_history(played),
            lambda: restore_ledger(played),
        ):
            with contextlib.suppress(LedgerError):
                read()
    finally:
        history_path(played).write_bytes(original)
        Path(played).write_bytes(ledger)


@given(st.binary(max_size=300))
def test_parse_change_takes_only_what_this_tool_writes(line: bytes) -> None:
    """Whatever it accepts, it writes back as a line that reads as the same change."""
    try:
        change = parse_change(line)
    except (ValueError, TypeError):
        return
    assert parse_change(change.to_line().encode()) == change
