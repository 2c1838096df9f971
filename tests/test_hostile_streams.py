"""Issue 20, causes 4–7 and 10, and the unfilled templates: standard streams that are missing,
closed, full or in another encoding; bytes that are not UTF-8 in names and file names; a
byte-order mark in JSON Lines; CSV cells a spreadsheet would run; a folder of YAML files that
are not ledgers; every message's template filled.

Streams are closed for real: the command runs in a process of its own under ``sh``, whose
``<&-``/``>&-``/``2>&-`` close the descriptor before Python starts (``subprocess.DEVNULL`` is
an open stream, not a closed one)."""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from gongzhu_score.batch.reading import numbered_lines
from gongzhu_score.render.formats import csv_cell, csv_text, csv_text_back
from gongzhu_score.terms import LANGS, TERMS, say, template

PACKAGE = Path(__file__).resolve().parent.parent / "gongzhu_score"
SAMPLES = Path(__file__).resolve().parent.parent / "sample_hands"
HAND = SAMPLES / "seed_minus_400.yaml"
FLAGS = ["-c", "东=QS", "-c", "南=", "-c", "西=", "-c", "北=", "--partial"]
RECORD = {
    "players": [
        {"name": "东", "captured": "QS"},
        {"name": "南", "captured": ""},
        {"name": "西", "captured": ""},
        {"name": "北", "captured": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JD 10C"},
    ]
}
LINE = json.dumps(RECORD, ensure_ascii=False).encode("utf-8") + b"\n"
BOM = b"\xef\xbb\xbf"


def cli(
    *args: str | bytes,
    redirect: str = "",
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    input: bytes | None = None,
) -> subprocess.CompletedProcess[bytes]:
    """The real command in a process of its own, with the shell's ``redirect`` (``<&-``…)
    applied before Python starts. Arguments go as bytes: nothing is decoded on the way."""
    script = f'exec "$0" -m gongzhu_score "$@" {redirect}'
    return subprocess.run(
        ["sh", "-c", script, sys.executable, *args],
        capture_output=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        input=input,
    )


def no_traceback(r: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in r.stderr, r.stderr.decode(errors="replace")


def one_error(r: subprocess.CompletedProcess[bytes]) -> str:
    """Exit 2, one ``error:`` line (``错误：`` under ``--lang zh``; valid UTF-8), nothing
    printed."""
    no_traceback(r)
    assert r.returncode == 2, r
    assert r.stdout == b""
    text = r.stderr.decode("utf-8")  # strict: every byte shown is UTF-8
    words = " ".join(a.decode(errors="replace") if isinstance(a, bytes) else a for a in r.args)
    prefix = "错误：" if " --lang zh" in words else "error: "
    assert text.startswith(prefix) and text.count("\n") == 1, text
    return text.removeprefix(prefix).rstrip("\n")


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "m.yaml"
    r = cli("match", "new", str(path), "--players", "东,南,西,北")
    assert r.returncode == 0, r
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# --- cause 4: standard streams ------------------------------------------------------------------


@pytest.mark.parametrize("args", [["score", "-"], ["batch", "-"], ["replay", "-"]])
def test_reading_a_closed_standard_input_is_an_error_line(args: list[str]) -> None:
    said = one_error(cli(*args, redirect="<&-"))
    assert "standard input is closed" in said


def test_a_closed_standard_input_is_said_in_chinese_too() -> None:
    said = one_error(cli("score", "-", "--lang", "zh", redirect="<&-"))
    assert "标准输入已关闭" in said


def test_match_add_with_standard_input_closed_asks_nothing_and_changes_nothing(
    ledger: Path,
) -> None:
    before = snapshot(ledger.parent)
    said = one_error(cli("match", "add", str(ledger), redirect="<&-"))  # no prompt: no terminal
    assert "no hand given" in said
    said = one_error(cli("match", "add", str(ledger), "-", redirect="<&-"))
    assert "standard input is closed" in said
    assert snapshot(ledger.parent) == before


@pytest.mark.parametrize("args", [["score", "-"], ["batch", "-"]])
def test_a_standard_input_open_only_for_writing_is_a_read_refused(
    args: list[str], tmp_path: Path
) -> None:
    said = one_error(cli(*args, redirect=f"0>>{tmp_path / 'w'}"))
    assert said == "<stdin>: cannot read: Bad file descriptor"  # (never "cannot write")


def test_a_prompt_whose_standard_input_refuses_the_read_says_so(ledger: Path) -> None:
    before = snapshot(ledger.parent)
    r = cli("match", "add", str(ledger), "--interactive", redirect=f"0>>{ledger.parent / 'w'}")
    no_traceback(r)
    assert r.returncode == 2
    assert r.stderr.endswith(b"error: <stdin>: cannot read: Bad file descriptor\n")
    assert snapshot(ledger.parent) == {**before, "w": b""}


def test_a_command_that_reads_no_input_runs_with_standard_input_closed() -> None:
    r = cli("score", *FLAGS, "-f", "json", redirect="<&-")
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["players"][0]["raw"] == -100


def test_writing_to_a_closed_standard_output_is_an_error_line() -> None:
    r = cli("score", str(HAND), redirect=">&-")
    no_traceback(r)
    assert r.returncode == 2
    assert r.stderr == b"error: cannot write the output: standard output is closed\n"


def test_with_standard_output_closed_a_file_opened_later_never_gets_its_output(
    ledger: Path,
) -> None:
    # Descriptor 1 is free: without a stand-in there, the ledger (or its lock) would get it.
    r = cli("match", "add", str(ledger), *FLAGS[:6], "--rest", "北", redirect=">&-")
    no_traceback(r)
    assert r.returncode in (2, 4), r  # refused, or made and said unshown (cli/match.py)
    assert b"scoring" not in ledger.read_bytes() and b"seat" not in ledger.read_bytes()
    verified = cli("match", "verify", str(ledger))
    assert verified.returncode == 0, verified


def test_batch_into_a_file_needs_no_standard_output(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    r = cli("batch", str(SAMPLES / "batch.jsonl"), "-f", "jsonl", "-o", str(out), redirect=">&-")
    no_traceback(r)
    assert r.returncode == 0, r
    assert (
        len(out.read_bytes().splitlines())
        == len((SAMPLES / "batch.jsonl").read_bytes().split(b"\n")) - 1
    )


def test_a_closed_standard_error_is_no_traceback() -> None:
    refused = cli("score", "-c", "东=XX", redirect="2>&-")
    assert refused.returncode == 2  # a traceback would exit 1
    fine = cli("score", *FLAGS, "-f", "json", redirect="2>&-")
    assert fine.returncode == 0
    assert json.loads(fine.stdout)["raw_sum"] == -100
    kept_going = cli("batch", str(SAMPLES / "batch.jsonl"), redirect="2>&-")
    assert kept_going.returncode == 0 and kept_going.stdout


def test_every_standard_stream_closed_still_ends_with_the_exit_code() -> None:
    assert cli("score", "-", redirect="<&- >&- 2>&-").returncode == 2
    assert cli("score", "-c", "东=XX", redirect="<&- >&- 2>&-").returncode == 2


def test_a_full_standard_error_is_no_traceback() -> None:
    r = cli("score", "-c", "东=XX", redirect="2>/dev/full")
    assert r.returncode == 2


@pytest.mark.parametrize("encoding", ["latin-1", "latin-1:strict", "cp1252"])
def test_an_output_that_cannot_encode_a_character_gets_it_replaced_and_a_warning(
    encoding: str,
) -> None:
    r = cli("score", *FLAGS, env={"PYTHONIOENCODING": encoding})
    no_traceback(r)
    assert r.returncode == 0, r
    text = r.stdout.decode(encoding.partition(":")[0])
    assert "-100" in text and "?" in text and "东" not in text
    assert r.stderr.decode("ascii").startswith("warning: standard output is ")
    assert r.stderr.count(b"\n") == 1
    as_json = cli("score", *FLAGS, "-f", "json", "--lang", "zh",
                  env={"PYTHONIOENCODING": encoding})  # fmt: skip
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout)["players"][0]["name"] == "?"
    assert b"warning" in as_json.stderr  # said in English: the Chinese could not be shown


def test_an_output_that_can_encode_everything_gets_no_warning() -> None:
    r = cli("score", "-c", "E=QS", "-c", "S=", "-c", "W=", "-c", "N=", "--partial", "-f",
            "json", env={"PYTHONIOENCODING": "latin-1"})  # fmt: skip
    assert r.returncode == 0 and r.stderr == b""


def test_an_ascii_output_is_written_as_utf8() -> None:
    r = cli("score", *FLAGS, "-f", "json", env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r
    assert json.loads(r.stdout.decode("utf-8"))["players"][0]["name"] == "东"
    assert r.stderr == b""


def test_a_prompt_answer_its_encoding_cannot_read_is_an_error_line(ledger: Path) -> None:
    before = snapshot(ledger.parent)
    r = cli("match", "add", str(ledger), "--interactive", input=b"\xff\xfe\n",
            env={"PYTHONIOENCODING": "utf-8:strict"})  # fmt: skip
    no_traceback(r)
    assert r.returncode == 2
    # (after the prompt, on its line: what was typed ended it on a terminal)
    assert b"error: standard input is not utf-8 text (byte ff" in r.stderr.splitlines()[-1]
    assert snapshot(ledger.parent) == before


# --- cause 5: bytes that are not UTF-8 ------------------------------------------------------------

BAD = b"a\xff\xfe"


@pytest.mark.parametrize(
    "args",
    [
        [
            "score",
            b"-c",
            BAD + b"=QS",
            "-c",
            "南=",
            "-c",
            "西=",
            "-c",
            "北=",
            "--partial",
            "-f",
            "json",
        ],
        ["score", "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", BAD, "-f", "json"],
    ],
)
def test_a_name_holding_bytes_that_are_not_utf8_is_refused(args: list[str | bytes]) -> None:
    said = one_error(cli(*args))
    assert "player name 'a\\xff\\xfe' is not valid text: the bytes \\xff\\xfe are not UTF-8" in said


@pytest.mark.parametrize("flag", ["--exposed", "--claim"])
def test_a_flag_naming_a_player_in_bytes_that_are_not_utf8_is_refused_naming_it(
    flag: str,
) -> None:
    value = BAD + (b"=QS" if flag == "--exposed" else b"=-100")
    said = one_error(cli("score", *FLAGS, flag, value))
    assert said.startswith(f"{flag}: player name 'a\\xff\\xfe' is not valid text")


def test_match_new_and_rename_refuse_such_a_name_and_change_nothing(ledger: Path) -> None:
    other = ledger.with_name("n.yaml")
    said = one_error(cli("match", "new", str(other), "--players", BAD + ",南,西,北".encode()))
    assert "\\xff\\xfe" in said and not other.exists()
    before = snapshot(ledger.parent)
    said = one_error(cli("match", "rename", str(ledger), "东", BAD))
    assert "player name 'a\\xff\\xfe' is not valid text" in said
    assert snapshot(ledger.parent) == before
    said = one_error(cli("match", "rename", str(ledger), "东", BAD, "--lang", "zh"))
    assert "不是有效的文字" in said


def test_a_record_whose_name_is_a_lone_surrogate_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(LINE.replace("东".encode(), b"\\udcff"))
    said = one_error(cli("batch", str(path)))  # (orjson refuses it as JSON; json as a name)
    assert said.startswith(f"{path}:1: ")
    assert "surrogate" in said or ("\\xff" in said and "not valid text" in said)


@pytest.fixture
def odd_names(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / os.fsdecode(b"\xff.jsonl")).write_bytes(LINE)
    (folder / os.fsdecode(b"b\xfe.yaml")).write_text(
        json.dumps(RECORD, ensure_ascii=False), encoding="utf-8"
    )
    return folder


@pytest.mark.parametrize("fmt", ["table", "json", "jsonl", "csv"])
def test_file_names_that_are_not_utf8_are_escaped_in_every_output(
    odd_names: Path, fmt: str
) -> None:
    r = cli("batch", "in", "-f", fmt, cwd=odd_names.parent)
    assert r.returncode == 0, r
    text = r.stdout.decode("utf-8")  # strict: no raw byte gets through
    if fmt in ("table", "csv"):
        assert "in/\\xff.jsonl:1" in text and "in/b\\xfe.yaml#1" in text
    if fmt == "json":
        sources = [hand["source"] for hand in json.loads(text)["hands"]]
        assert sources == ["in/b\\xfe.yaml#1", "in/\\xff.jsonl:1"]
    if fmt == "jsonl":
        assert [json.loads(line)["source"] for line in text.splitlines()] == [
            "in/b\\xfe.yaml#1",
            "in/\\xff.jsonl:1",
        ]


def test_file_names_that_are_not_utf8_are_escaped_in_errors_and_bad_records(
    odd_names: Path,
) -> None:
    (odd_names / os.fsdecode(b"c\xfd.jsonl")).write_bytes(b"{nope\n")
    r = cli("batch", "in", "-f", "json", "--keep-going", cwd=odd_names.parent)
    assert r.returncode == 1, r
    bad = json.loads(r.stdout.decode("utf-8"))["bad_records"]
    assert [b["source"] for b in bad] == ["in/c\\xfd.jsonl:1"]
    assert "in/c\\xfd.jsonl:1" in r.stderr.decode("utf-8")
    said = one_error(cli("score", os.fsencode(str(odd_names)) + b"/nothing\xfa.yaml"))
    assert "nothing\\xfa.yaml" in said


# --- cause 6: a byte-order mark in JSON Lines -----------------------------------------------------


def test_a_byte_order_mark_before_the_first_json_line_is_read(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_bytes(BOM + LINE + LINE)
    r = cli("batch", str(path), "-f", "jsonl")
    assert r.returncode == 0, r
    assert [json.loads(x)["source"] for x in r.stdout.splitlines()] == [
        f"{path}:1",
        f"{path}:2",
    ]


def test_a_byte_order_mark_on_a_later_line_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_bytes(LINE + BOM + LINE)
    r = cli("batch", str(path), "--keep-going")
    assert r.returncode == 1
    assert f"  {path}:2: not a JSON object".encode() in r.stderr


@pytest.mark.parametrize("prefix", [b"", b"\n  \n"])
def test_standard_input_with_a_byte_order_mark_is_still_taken_for_json_lines(
    prefix: bytes,
) -> None:
    r = cli("batch", "-", "-f", "jsonl", input=BOM + prefix + LINE + LINE)
    assert r.returncode == 0, r
    sources = [json.loads(x)["source"] for x in r.stdout.splitlines()]
    assert [s.partition(":")[0] for s in sources] == ["<stdin>", "<stdin>"]  # lines, not #docs


def test_standard_input_yaml_with_a_byte_order_mark_is_read_as_yaml() -> None:
    yaml_text = "players:\n" + "".join(
        f"- {{name: {p['name']}, captured: '{p['captured']}'}}\n" for p in RECORD["players"]
    )
    r = cli("batch", "-", "-f", "jsonl", input=BOM + yaml_text.encode("utf-8"))
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["source"] == "<stdin>#1"


class _Trickle(io.RawIOBase):
    """A pipe that gives one byte a read (the mark split over reads)."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        if not self.data:
            return 0
        buffer[0], self.data = self.data[0], self.data[1:]
        return 1


def test_a_byte_order_mark_split_over_reads_is_passed_over() -> None:
    lines = list(numbered_lines(_Trickle(BOM + b'{"a": 1}\n{"b": 2}\n')))  # type: ignore[arg-type]
    assert lines == [(1, b'{"a": 1}'), (2, b'{"b": 2}')]
    assert list(numbered_lines(io.BytesIO(BOM))) == []
    # Not the first line of the file (a slice of it): nothing is taken away.
    assert list(numbered_lines(io.BytesIO(BOM + b"x\n"), first=7)) == [(7, BOM + b"x")]


class _Reads(io.RawIOBase):
    """A stream that gives what it holds in reads of the sizes asked of it, in turn."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.k = data, sizes or [1], 0

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        size = min(size, self.sizes[self.k % len(self.sizes)]) if size >= 0 else len(self.data)
        self.k += 1
        out, self.data = self.data[:size], self.data[size:]
        return out

    read = read1  # type: ignore[assignment]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\n\n", b"a", b"bb", b"xxxxxxxxx", BOM, b"{}"]),
                max_size=14),
       st.sampled_from([1, 2, 3, 5, 8, 64]), st.sampled_from([1, 2, 4, 7, 40]),
       st.lists(st.sampled_from([1, 2, 3, 9, 64]), max_size=4), st.sampled_from([1, 7]))  # fmt: skip
@example([b"a", b"\n", b"bb", b"\n", b"a", b"\n"], 64, 1, [64], 1)  # (only a line between too long)
def test_a_stream_is_read_as_its_lines_whatever_the_blocks(
    pieces: list[bytes], block: int, most: int, sizes: list[int], first: int
) -> None:
    """However the reads cut it and however large the blocks, a stream's lines are those of
    splitting it at its newlines (a mark first passed over, the newline after the last line
    dropped, each line over the size limit given as TOO_LONG); its parts are the same lines."""
    from gongzhu_score.batch import reading

    data = b"".join(pieces)
    text = data.removeprefix(BOM) if first == 1 else data
    want = text.split(b"\n")[: -1 if text.endswith(b"\n") else None] if text else []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reading, "_BLOCK", block)
        patch.setattr(reading, "MAX_RECORD_BYTES", most)
        got = list(numbered_lines(_Reads(data, sizes), first))  # type: ignore[arg-type]
        parts = list(numbered_lines(_Reads(data, sizes), first).parts)  # type: ignore[arg-type]
    assert [n for n, _ in got] == list(range(first, first + len(want)))
    for (_, line), wanted in zip(got, want, strict=True):
        assert line is reading.TOO_LONG if len(wanted) > most else line == wanted
    assert [x for part in parts for x in reading.lines_of(part)] == [x for _, x in got]
    assert all(isinstance(p, list) or max(map(len, p.split(b"\n"))) <= most for p in parts)


# --- cause 7: CSV formula injection --------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://x")', "+1", "-1+2", "@SUM(1)"]


@pytest.fixture
def formula_hand(tmp_path: Path) -> Path:
    path = tmp_path / "inj.yaml"
    players = [dict(p, name=n) for p, n in zip(RECORD["players"], FORMULAS, strict=True)]
    path.write_text(json.dumps({"players": players}), encoding="utf-8")
    return path


def _cells(text: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.decode("utf-8").removeprefix("\ufeff"))))


def _only_names_quoted(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            if any(cell.startswith(f) or cell.startswith(f"'{f}") for f in FORMULAS):
                assert cell.startswith("'"), (cell, rows)
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (cell, rows)
            if cell.startswith("-"):
                float(cell)  # a number: -200 is no formula, and keeps no quote


def test_every_csv_output_neutralises_cells_a_spreadsheet_would_run(
    formula_hand: Path, tmp_path: Path
) -> None:
    ledger = tmp_path / "m.yaml"
    assert cli("match", "new", str(ledger), "--players", ",".join(FORMULAS)).returncode == 0
    assert cli("match", "add", str(ledger), str(formula_hand)).returncode == 0
    outputs = {
        "score": cli("score", str(formula_hand), "-f", "csv"),
        "batch": cli("batch", str(formula_hand), "-f", "csv"),
        "summary": cli("batch", str(formula_hand), "-f", "csv", "--summary-only"),
        "export": cli("match", "export", str(ledger), "-f", "csv", "--totals", "--bom"),
        "show": cli("match", "show", str(ledger), "-f", "csv"),
        "show 1": cli("match", "show", str(ledger), "1", "-f", "csv"),
        "stats": cli("stats", str(ledger), "-f", "csv"),
    }
    for what, r in outputs.items():
        assert r.returncode == 0, (what, r)
        rows = _cells(r.stdout)
        _only_names_quoted(rows)
        names = [csv_text_back(cell) for row in rows for cell in row]
        assert set(FORMULAS) <= set(names), (what, rows)  # what it prints, it reads
    export = _cells(outputs["export"].stdout)
    assert export[0] == ["hand", *("'" + name for name in FORMULAS), "entered", "note"]
    assert export[1][:5] == ["1", "-300", "-167", "-167", "633"]  # the numbers stay numbers


def test_csv_cells_are_neutralised_by_the_documented_rule() -> None:
    assert [csv_cell(x) for x in ["=1", "+1", "-1", "@a", "\tx", "\rx", "'=1", "'x", "东"]] == [
        "'=1", "'+1", "'-1", "'@a", "'\tx", "'\rx", "''=1", "'x", "东",
    ]  # fmt: skip
    assert [csv_cell(x) for x in [-200, 0, -1.5, None]] == [-200, 0, -1.5, None]
    assert csv_text([["=1", -200]]) == "'=1,-200\n"


@given(st.text())
def test_the_csv_rule_undoes_exactly(text: str) -> None:
    shown = csv_cell(text)
    assert isinstance(shown, str)
    assert csv_text_back(shown) == text
    assert not shown.startswith(("=", "+", "-", "@", "\t", "\r"))


# --- cause 10: stats over a folder of other YAML files --------------------------------------------

OTHERS = {
    "compose.yaml": b"x: &a 1\ny: *a\n",
    "tabs.yaml": b"a:\n\tb: 1\n",
    "twice.yml": b"a: 1\na: 2\n",
    "two.yaml": b"a: 1\n---\nb: 2\n",
    "latin.yaml": b"a: \xff\n",
    "deep.yaml": b"a: " + b"[" * 50 + b"]" * 50 + b"\n",
    "hand.yaml": HAND.read_bytes(),
}


def test_stats_passes_over_every_yaml_file_that_is_not_a_ledger(ledger: Path) -> None:
    assert cli("match", "add", str(ledger), str(HAND)).returncode == 0  # a match played
    for name, data in OTHERS.items():
        (ledger.parent / name).write_bytes(data)
    r = cli("stats", str(ledger.parent), "-f", "json")
    no_traceback(r)
    assert r.returncode == 0, r
    assert json.loads(r.stdout)["matches"] == 1


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace(b"players: [", b"players: [&x "),  # an anchor
        lambda text: text + b"---\nformat: 1\n",  # two documents
        lambda text: text.replace(b"scale: 1", b"scale: \xff"),  # not UTF-8
        lambda text: text.replace(b"players:", b"players:\n\t"),  # a tab
    ],
)
def test_stats_still_reports_a_ledger_that_is_damaged(ledger: Path, damage: object) -> None:
    broken = ledger.with_name("broken.yaml")
    broken.write_bytes(damage(ledger.read_bytes()))  # type: ignore[operator]
    said = one_error(cli("stats", str(ledger.parent)))
    assert said.startswith(f"{broken}: "), said


# --- unfilled templates ---------------------------------------------------------------------------


def _fields(text: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


_LEFT = re.compile(r"\{\{|\}\}|\{[A-Za-z_][A-Za-z_0-9]*\}")


def test_every_term_is_filled_when_said() -> None:
    """Each term, in each language, said with a value for every field its text names, leaves
    no ``{field}`` behind (and does not fail); the message names every term that does."""
    unfilled = []
    for key in sorted(TERMS):
        for lang in LANGS:
            text = template(key, lang)
            try:
                said = say(key, lang, **{field: "X" for field in _fields(text)})
            except Exception as e:  # (a term that cannot be said at all is named too)
                unfilled.append(f"{key} [{lang}]: {type(e).__name__}: {e}")
                continue
            if _LEFT.search(said):
                unfilled.append(f"{key} [{lang}]: {said!r}")
    assert not unfilled, f"{len(unfilled)} terms not filled when said:\n" + "\n".join(unfilled)


def test_a_text_with_braces_is_filled_even_without_values() -> None:
    assert say("error.record.tricks") == "tricks: a list of tricks, each {lead: NAME, cards: [...]}"
    assert "{{" not in say("error.claim.mapping", "zh")


_SAYERS = {"say", "error", "place", "_say"}


def test_every_call_gives_every_field_its_term_asks_for() -> None:
    """Each ``say``/``error``/``place`` call with a literal key passes the values its texts
    name (a missing one would leave ``{hand}`` in the message, or fail)."""
    missing = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in _SAYERS or any(k.arg is None for k in node.keywords):
                continue
            given = {k.arg for k in node.keywords}
            for arg in node.args:
                if isinstance(arg, ast.Constant) and arg.value in TERMS:
                    for text in (template(arg.value, lang) for lang in LANGS):
                        if _fields(text) - given:
                            missing.append(
                                (path.name, node.lineno, arg.value, _fields(text) - given)
                            )
    assert not missing, missing


def test_a_recorded_change_the_words_do_not_fit_is_shown_not_left_as_a_template() -> None:
    from gongzhu_score.match.history import Change
    from gongzhu_score.render.match import change_text

    assert change_text(Change(3, "", "edit", {"hand": 2})) == "replaced hand 2"
    shown = change_text(Change(3, "", "edit", {}))
    assert "{hand}" not in shown and shown.startswith("edit")
