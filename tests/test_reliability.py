"""Nothing a user types, a file holds or the machine does crashes the tool, hangs it or costs a
match (issue 12). Each test is named after what it checks; the CLI runs as users run it (a real
process where the terminal, signals, resource limits or the file system are the point)."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import io
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused, run
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score import GongzhuError
from gongzhu_score.match import storage
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.terms import printable

MATCH = SAMPLES / "match"
HAND = {"东": "QS 6H 8H 10H JH 10C", "南": "AH 2H 3H 4H 5H 7H 9H", "西": "JD QH KH", "北": ""}


def hand_line(names: tuple[str, ...] = ("东", "南", "西", "北"), **extra: object) -> str:
    players = [{"name": n, "captured": c} for n, c in zip(names, HAND.values(), strict=True)]
    return json.dumps({"players": players, **extra}, ensure_ascii=False) + "\n"


def cli(
    *args: str, cwd: Path | None = None, **kwargs: object
) -> subprocess.CompletedProcess[bytes]:
    """The real command in a process of its own (bytes in and out: nothing decoded away)."""
    return subprocess.run(
        [sys.executable, "-m", "gongzhu_score", *args], cwd=cwd, capture_output=True,
        timeout=120, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def one_error_line(r: subprocess.CompletedProcess[bytes]) -> bytes:
    assert r.returncode == 2, r
    assert r.stdout == b""
    assert r.stderr.startswith(b"error: ") and r.stderr.count(b"\n") == 1, r.stderr
    assert b"Traceback" not in r.stderr
    return r.stderr


@pytest.fixture
def played(tmp_path: Path) -> Path:
    path = tmp_path / "m.yaml"
    done("match", "new", str(path), "-p", "东,南,西,北")
    ok("match", "add", str(path), str(MATCH / "hand1.yaml"))
    return path


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- 1. names: one rule at every entry; what the ledger writes, it reads --------------------------

BAD_NAMES = ["a\u2028b", "a\u2029b", "a\u0085b", "a\x1b[31mb", "a\nb", "a\u202eb", "a\x00b"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_name_that_would_break_a_line_or_a_terminal_is_refused_at_every_entry(
    name: str, tmp_path: Path, played: Path
) -> None:
    ledger = tmp_path / "n.yaml"
    for args in (
        ["match", "new", str(ledger), "-p", f"{name},B,C,D"],
        ["match", "rename", str(played), "北", name],
        ["score", "-c", f"{name}=QS", "-c", "南=全红", "-c", "西=JD", "-c", "北=10C"],
    ):
        if "\x00" not in name:  # (no NUL in a command line: the files below carry it)
            assert "player name" in refused(*args)
    hand = tmp_path / "h.yaml"
    hand.write_text(hand_line((name, "南", "西", "北")), encoding="utf-8")  # JSON is YAML
    r = run("score", str(hand))
    if r.exit_code == 0:  # YAML itself reads a NEL as a line break, folded to a space
        assert all(printable(line) == line for line in r.stdout.split("\n"))
    else:
        assert "player name" in r.stderr or "invalid YAML" in r.stderr  # (YAML refuses a NUL)
    record = tmp_path / "r.jsonl"
    record.write_text(hand_line((name, "南", "西", "北")), encoding="utf-8")
    assert "player name" in refused("batch", str(record))
    assert not ledger.exists()


def test_names_are_trimmed_everywhere_so_rest_cannot_make_a_second_player() -> None:
    data = json.loads(ok("score", "-c", "东=QS", "-c", "南=全红", "-c", "西=JD", "--rest", "北 ",
                         "-f", "json"))  # fmt: skip
    assert [p["name"] for p in data["players"]] == ["东", "南", "西", "北"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=6), min_size=4, max_size=4))
def test_whatever_names_a_ledger_accepts_it_reads_back(names: list[str]) -> None:
    try:
        ledger = Ledger.new(names)
    except GongzhuError:
        return  # refused whole, never written
    text = ledger.to_text()
    for canonical in (True, False):  # the fast line reader, and the YAML reader behind it
        shown = text if canonical else text.replace("format: 1", "format:   1")
        read, _, _ = storage._parse(shown.encode("utf-8"), "m.yaml")
        assert read.players == ledger.players


# --- 2. output: nothing from input reaches a terminal raw; an error is one line --------------------


def test_a_file_name_with_escape_sequences_is_shown_escaped_everywhere(tmp_path: Path) -> None:
    evil = tmp_path / "a\x1b]0;pwned\x07b.jsonl"
    evil.write_text(hand_line() + '{"players": []}\n', encoding="utf-8")
    for fmt in ("table", "jsonl", "csv", "json"):
        r = cli("batch", str(evil), "-f", fmt, "--keep-going")
        assert r.returncode == 1
        for stream in (r.stdout, r.stderr):
            assert b"\x1b" not in stream and b"\x07" not in stream, (fmt, stream)
        assert b"\\x1b" in r.stdout + r.stderr
    r = cli("score", str(evil))
    assert b"\x1b" not in one_error_line(r)


def test_an_error_naming_a_newline_is_still_one_line(tmp_path: Path) -> None:
    odd = tmp_path / "two\nlines.yaml"
    odd.write_text("players: 3\n", encoding="utf-8")
    assert b"two\\x0alines" in one_error_line(cli("score", str(odd)))


# --- 3. bounded work ----------------------------------------------------------------------------


def test_a_record_with_more_tricks_than_the_decks_hold_is_refused_before_it_is_played(
    tmp_path: Path,
) -> None:
    trick = {"lead": "东", "cards": ["2C", "3C", "4C", "5C"]}
    record = tmp_path / "long.jsonl"
    line = json.dumps({"players": ["东", "南", "西", "北"], "tricks": [trick] * 8000})
    record.write_text(line + "\n", encoding="utf-8")
    for command in ("score", "replay", "batch"):
        message = refused(command, str(record))
        assert "8000 tricks, but 1 deck(s) make at most 13" in message


def test_a_json_lines_record_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    from gongzhu_score.batch.reading import MAX_RECORD_BYTES

    big = tmp_path / "big.jsonl"
    padding = " " * (MAX_RECORD_BYTES + 10)
    big.write_text(hand_line() + '{"players": []' + padding + "}\n" + hand_line(), encoding="utf-8")
    r = run("batch", str(big), "-f", "jsonl", "--keep-going")
    assert r.exit_code == 1
    assert [json.loads(x)["source"].rsplit(":", 1)[1] for x in r.stdout.splitlines()] == ["1", "3"]
    assert f":2: a line over {MAX_RECORD_BYTES:,} bytes" in r.stderr


# --- 4. one way to read each input ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"players": [{"name": "东", "captured": {"QS": false}}]}', "expected a list of cards"),
        ('{"variant": ["x"], "players": []}', "variant must be a name"),
        ('{"teams": ["x"], "players": []}', "teams must be none"),
        (hand_line().replace('"players"', '"players": [], "players"', 1), "key 'players' given twice"),
        (hand_line().replace('"captured"', '"captured": "AS", "captured"', 1), "key 'captured' given twice"),
        (hand_line(("东:1", "南", "西", "北")).replace('"captured"', '"captured": "", "captured"', 1),
         "key 'captured' given twice"),
    ],
)  # fmt: skip
def test_batch_refuses_what_a_hand_file_refuses_and_keep_going_survives_it(
    line: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(line.strip() + "\n" + hand_line(), encoding="utf-8")
    assert message in refused("batch", str(path))
    r = run("batch", str(path), "-f", "jsonl", "--keep-going")
    assert r.exit_code == 1 and message in r.stderr
    assert len(r.stdout.splitlines()) == 1  # the good hand after it is scored
    hand = tmp_path / "x.yaml"
    hand.write_text(line, encoding="utf-8")
    assert message in refused("score", str(hand))  # the same words for the same mistake


def test_a_colon_in_a_name_does_not_hide_or_invent_a_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text(hand_line(("东:1", "南", "西", "北")), encoding="utf-8")
    assert json.loads(ok("batch", str(path), "-f", "jsonl"))["players"][0]["name"] == "东:1"


def test_an_unreadable_folder_is_an_error_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gongzhu_score.batch import reading

    (tmp_path / "locked").mkdir()
    real_scandir = os.scandir

    def scandir(path: object) -> object:
        if str(path).endswith("locked"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(GongzhuError, match="locked: cannot read: Permission denied"):
        reading.expand_inputs([str(tmp_path)])
    # stats walks folders of ledgers the same way (one helper: io.files.files_below)
    from gongzhu_score.match.stats import read_stats

    with pytest.raises(GongzhuError, match="locked: cannot read: Permission denied"):
        read_stats([str(tmp_path)])


def test_a_pipe_given_as_a_file_is_refused_instead_of_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args in (["score", str(fifo)], ["batch", str(fifo)], ["match", "show", str(fifo)],
                 ["score", "-c", "东=QS", "--rules", str(fifo)]):  # fmt: skip
        assert "not a regular file" in refused(*args)


@pytest.mark.parametrize("args", [["--variant", ""], ["--rules", ""]])
def test_an_empty_rule_set_name_is_refused_not_read_as_classic(args: list[str]) -> None:
    refused("score", str(SAMPLES / "seed_minus_400.yaml"), *args)
    refused("batch", str(SAMPLES / "batch.jsonl"), *args)


# --- 5. files: symbolic links, modes, folders, devices, locks, leftovers ----------------------------


def test_a_ledger_reached_through_a_symlink_is_changed_through_it(played: Path) -> None:
    alias = played.with_name("alias.yaml")
    alias.symlink_to(played.name)
    ok("match", "add", str(alias), str(MATCH / "hand2.yaml"))
    assert alias.is_symlink()  # still a link, to the one ledger
    assert len(json.loads(ok("match", "show", str(played), "-f", "json"))["hands"]) == 2
    assert not alias.with_name("alias.yaml.lock").exists()  # one lock: the real file's
    assert not alias.with_name("alias.yaml.history").exists()
    ok("match", "restore", str(alias))
    assert len(json.loads(ok("match", "show", str(played), "-f", "json"))["hands"]) == 1


def test_a_change_keeps_the_ledger_file_mode(played: Path) -> None:
    played.chmod(0o600)
    ok("match", "add", str(played), str(MATCH / "hand2.yaml"))
    done("match", "rename", str(played), "北", "小北")
    assert played.stat().st_mode & 0o777 == 0o600


def test_batch_output_is_written_through_a_symlink_and_keeps_its_mode(tmp_path: Path) -> None:
    target, link = tmp_path / "results.jsonl", tmp_path / "latest.jsonl"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    link.symlink_to(target.name)
    ok("batch", str(SAMPLES / "batch.jsonl"), "-f", "jsonl", "-o", str(link))
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith('{"source"')
    assert target.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize(
    ("where", "message"),
    [(".", "is a folder"), ("missing/out.jsonl", "does not exist"), ("", "an empty file name"),
     ("/dev/null", "not a regular file")],
)  # fmt: skip
def test_batch_output_onto_what_is_no_file_is_refused(
    where: str, message: str, tmp_path: Path
) -> None:
    before = files(tmp_path)
    target = where if where.startswith("/") or not where else str(tmp_path / where)
    assert message in refused("batch", str(SAMPLES / "batch.jsonl"), "-o", target)
    assert files(tmp_path) == before


def test_a_lock_held_by_a_stuck_process_gives_up_with_a_message(
    played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GONGZHU_LOCK_WAIT", "0.3")
    before = played.read_bytes()
    with open(played.with_name("m.yaml.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        message = refused("match", "add", str(played), str(MATCH / "hand2.yaml"))
    assert "another process is changing this ledger" in message and "m.yaml.lock" in message
    assert played.read_bytes() == before


def test_stale_temporary_files_of_a_killed_change_are_removed(played: Path) -> None:
    stale = played.with_name(".m.yaml.abc123.tmp")
    stale.write_text("half a ledger", encoding="utf-8")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    fresh = played.with_name(".m.yaml.def456.tmp")  # maybe a change under way: left alone
    fresh.write_text("x", encoding="utf-8")
    ok("match", "add", str(played), str(MATCH / "hand2.yaml"))
    assert not stale.exists() and fresh.exists()


# --- 6. every OS error: one error line, exit 2, nothing changed --------------------------------------


def _file_size_limit(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def test_a_file_size_limit_while_writing_a_ledger_changes_nothing(played: Path) -> None:
    before = files(played.parent)
    r = cli("match", "add", str(played), str(MATCH / "hand2.yaml"),
            preexec_fn=lambda: _file_size_limit(300))  # fmt: skip
    message = one_error_line(r)
    assert b"File too large" in message and b"the ledger is unchanged" in message
    assert files(played.parent) == before


def test_a_file_size_limit_while_writing_batch_output_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = cli("batch", str(SAMPLES / "batch.jsonl"), "-f", "jsonl", "-o", str(out),
            preexec_fn=lambda: _file_size_limit(200))  # fmt: skip
    assert b"cannot write: File too large; nothing was changed" in one_error_line(r)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("target", ["out.parquet", "dataset"])
def test_a_file_size_limit_while_writing_parquet_leaves_nothing(
    tmp_path: Path, target: str
) -> None:
    out = tmp_path / target
    r = cli("batch", str(SAMPLES / "batch.parquet"), "-f", "parquet", "-o", str(out),
            preexec_fn=lambda: _file_size_limit(300))  # fmt: skip
    message = one_error_line(r)
    assert message.startswith(f"error: {out}: cannot write: ".encode()), message
    assert message.rstrip().endswith(b"File too large; nothing was changed")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EPERM, errno.EACCES])
def test_a_refused_ledger_write_is_one_error_line_and_changes_nothing(
    code: int, played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = files(played.parent)

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(storage, "replace_file", refuse)
    message = refused("match", "add", str(played), str(MATCH / "hand2.yaml"))
    assert message.endswith(f"cannot write: {os.strerror(code)}; the ledger is unchanged")
    assert files(played.parent) == before


def test_a_full_disk_on_standard_output_is_one_error_line() -> None:
    with open("/dev/full", "wb") as full:
        r = subprocess.run([sys.executable, "-m", "gongzhu_score", "score",
                            str(SAMPLES / "seed_minus_400.yaml")],
                           stdout=full, stderr=subprocess.PIPE, timeout=60)  # fmt: skip
    assert r.returncode == 2
    assert r.stderr == b"error: cannot write the output: No space left on device\n"


def test_a_closed_pipe_ends_the_output_quietly() -> None:
    with subprocess.Popen([sys.executable, "-m", "gongzhu_score", "batch",
                           str(SAMPLES / "batch.jsonl"), "-f", "jsonl"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader went away (`| head -0`)
        assert proc.wait(60) == 1
        assert proc.stderr.read() == b""


def test_no_traceback_for_numbers_and_dates_yaml_cannot_build(tmp_path: Path) -> None:
    cases = {
        "int.yaml": "players:\n  - {name: 东, captured: [!!int 1" + "1" * 5000 + "]}\n",
        "date.yaml": "players:\n  - {name: 东, captured: [!!timestamp 2001-02-30]}\n",
        "key.yaml": "players:\n  ? [a, b]\n  : [QS]\n",
        "nul.yaml": "players:\n  - {name: 东, captured: [Q\x00S]}\n",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        one_error_line(cli("score", str(tmp_path / name)))
    rules = tmp_path / "rules.yaml"
    rules.write_text("extends: classic\nname: x\npig: -1" + "0" * 5000 + "\n", encoding="utf-8")
    one_error_line(cli("score", str(SAMPLES / "seed_minus_400.yaml"), "--rules", str(rules)))
    rules.write_text("extends: classic\nname: x\ntransformer_multiplier: 0\n", encoding="utf-8")
    one_error_line(cli("score", str(SAMPLES / "seed_lone_transformer.yaml"), "--rules", str(rules)))
    one_error_line(cli("score", str(SAMPLES / "seed_minus_400.yaml"), "--scale", "1" * 4300))


# --- 7. a dead batch worker fails the batch at once, leaving nothing --------------------------------


def _killed(*args: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # the OOM killer, say


def test_a_killed_batch_worker_fails_the_batch_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from gongzhu_score.batch import parallel
    from gongzhu_score.batch.runner import Batch, Summary
    from gongzhu_score.render.batch import BatchWriter
    from gongzhu_score.render.formats import Format

    path = tmp_path / "big.jsonl"
    path.write_text(hand_line() * 20_000, encoding="utf-8")
    monkeypatch.setattr(parallel, "_work", _killed)  # (the worker, a fresh process, runs it)
    out = io.StringIO()
    writer = BatchWriter(out, Format.jsonl, "en", False)
    started = time.monotonic()
    first = path.read_bytes()[: parallel.cuts(str(path), 2)[1][0]].count(b"\n") + 1
    with pytest.raises(GongzhuError, match=f"lines {first}–20000 stopped before it finished"):
        parallel.score_in_parallel(str(path), Batch(),
                                   out, writer, functools.partial(BatchWriter, fmt=Format.jsonl,
                                                                  lang="en", summary_only=False,
                                                                  header=False),
                                   Summary(), False, workers=2)  # fmt: skip
    assert time.monotonic() - started < 30
    assert [p.name for p in tmp_path.iterdir()] == ["big.jsonl"]  # no part files left


def test_sigterm_during_a_batch_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text(hand_line() * 200_000, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "gongzhu_score", "batch", str(path), "-f",
                             "jsonl", "-o", str(tmp_path / "out.jsonl")],
                            stderr=subprocess.DEVNULL)  # fmt: skip
    deadline = time.monotonic() + 30
    while not any(p.name.startswith(".") for p in tmp_path.iterdir()):  # it is writing
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.01)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(60) == 128 + signal.SIGTERM
    assert [p.name for p in tmp_path.iterdir()] == ["big.jsonl"]


# --- 8. a hand-edited ledger: the same guards as any YAML ---------------------------------------


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t + "x: &a [1, 2]\ny: [*a, *a, *a, *a]\n", "anchors and aliases"),
        (lambda t: t.replace("hands:", "deep: " + "[" * 40 + "]" * 40 + "\nhands:"), ""),
        (lambda t: t.replace("format: 1", "format: 1\nformat: 1"), "given twice"),
        (lambda t: t.replace("end_at: -1000", "end_at: -1" + "0" * 5000), "cannot be read"),
        (lambda t: t.replace("  total_final: [", '  total_final: ["1/0", ').replace(
            ', 200]\n  marks', ']\n  marks'), "is not a number"),
    ],
)  # fmt: skip
def test_a_hand_edited_ledger_is_refused_with_one_line(edit, message: str, played: Path) -> None:  # type: ignore[no-untyped-def]
    played.write_text(edit(played.read_text(encoding="utf-8")), encoding="utf-8")
    before = played.read_bytes()
    for args in (["match", "show", str(played)], ["match", "add", str(played),
                                                   str(MATCH / "hand2.yaml")]):  # fmt: skip
        assert message in one_error_line(cli(*args)).decode()
    assert played.read_bytes() == before


# --- the fuzz: any bytes, any structure, at every reader ------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)
HANDISH = st.fixed_dictionaries(
    {"players": st.lists(st.fixed_dictionaries({}, optional={"name": JSONISH, "captured": JSONISH,
                                                             "exposed": JSONISH}), max_size=5)},
    optional={"variant": JSONISH, "teams": JSONISH, "tricks": JSONISH},
)  # fmt: skip


def _readers(raw: bytes) -> None:
    """Every reader on ``raw``: each may refuse it, only ever with the project's error (JSON
    Lines: or with the parser's "this is no JSON", which the batch reports as such)."""
    from gongzhu_score.api import Scorer
    from gongzhu_score.batch.reading import json_record
    from gongzhu_score.io.handfile import hand_from_data, read_hand_yaml
    from gongzhu_score.io.yamlfile import decode

    with contextlib.suppress(GongzhuError):
        read_hand_yaml(decode(raw))
    with contextlib.suppress(GongzhuError):
        storage._parse(raw, "fuzz.yaml")
    try:
        data = json_record(raw)
    except GongzhuError:
        return
    except (ValueError, UnicodeDecodeError, RecursionError):
        return  # not JSON at all: the batch says so, naming the line
    with contextlib.suppress(GongzhuError):
        Scorer().score_data(data)
    with contextlib.suppress(GongzhuError):
        hand_from_data(data)


@settings(max_examples=300, deadline=2000)
@given(st.binary(max_size=400))
def test_fuzz_arbitrary_bytes_at_every_reader(raw: bytes) -> None:
    _readers(raw)


@settings(max_examples=300, deadline=2000)
@given(HANDISH)
def test_fuzz_arbitrary_structures_at_every_reader(data: dict[str, object]) -> None:
    import yaml

    _readers(json.dumps(data, ensure_ascii=False).encode("utf-8"))
    _readers(yaml.safe_dump(data, allow_unicode=True).encode("utf-8"))


def test_a_house_rules_text_that_would_reach_a_terminal_raw_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "r.yaml"
    for key in ("name", "title", "title_zh", "source"):
        text = f'extends: classic\nname: ours\n{key}: "a\\e]0;x\\a"\n'
        rules.write_text(text.replace("name: ours\nname:", "name:"), encoding="utf-8")
        message = refused("score", str(SAMPLES / "seed_minus_400.yaml"), "--rules", str(rules))
        assert f"{key}: holds U+001B" in message


class _Endless(io.RawIOBase):
    """A standard input that never ends: ``text`` again and again, counting what is read."""

    def __init__(self, text: bytes) -> None:
        self.text, self.given = text, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        assert self.given < 64 << 20, "standard input read whole"  # fail, rather than hang
        size = min(len(buffer), len(self.text))
        buffer[:size] = self.text[:size]
        self.given += size
        return size


@pytest.mark.parametrize("kind", ["jsonl", "yaml"])
def test_standard_input_is_read_as_a_stream_not_whole(kind: str) -> None:
    from gongzhu_score.batch.reading import read_records

    text = hand_line() if kind == "jsonl" else "---\n" + hand_line()
    endless = _Endless(text.encode("utf-8"))
    records = read_records("-", stdin=io.BufferedReader(endless))
    first = [next(records) for _ in range(3)]
    assert all(r.error is None for r in first)
    assert endless.given < 4 << 20  # a few blocks read, not the (endless) whole
