"""A JSON Lines batch written as JSON Lines scores its lines as numpy's arrays (batch/lines.py:
read by Arrow's JSON reader, or by orjson without it): the same output, byte for byte, the same
bad records and the same error as every record scored on its own (the one-hand door), under
random house rules, for lines plain and not."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from outcomes import METHODS, ROUNDING, as_data
from strategies import hands_for, rule_sets, spoiled

from gongzhu_score import GongzhuError, Variant
from gongzhu_score.batch import lines as by_lines
from gongzhu_score.batch.reading import jsonl_record, numbered_lines
from gongzhu_score.batch.runner import Batch
from gongzhu_score.core.options import ScoringOptions
from gongzhu_score.render.batch import BatchWriter
from gongzhu_score.render.formats import Format

Outcome = tuple[str, list[tuple[str, str]], str | None]


def by_arrays(data: bytes, options: ScoringOptions, keep_going: bool, raw: bool = False,
              arrow: bool = True) -> Outcome:  # fmt: skip
    """What a batch writes of ``data`` when it writes JSON Lines (``raw``: to a stream with
    bytes under it; ``arrow``: read by Arrow, else by orjson), its bad records and the error
    that stopped it."""
    stream = io.BytesIO()
    out = io.TextIOWrapper(stream, encoding="utf-8", newline="") if raw else io.StringIO()
    writer = BatchWriter(out, Format.jsonl)
    emit = writer.line_emitter("f.jsonl")
    assert emit is not None
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(by_lines, "has_arrow", lambda: arrow)
            bad = by_lines.run_lines(Batch(options), numbered_lines(io.BytesIO(data)), "f.jsonl",
                                     writer.emit, None, keep_going, emit)  # fmt: skip
        error = None
    except GongzhuError as e:
        bad, error = [], str(e)
    writer.flush()
    if raw:
        out.flush()
        text = stream.getvalue().decode("utf-8")
    else:
        assert isinstance(out, io.StringIO)
        text = out.getvalue()
    return text, [(b.source, b.message) for b in bad], error


def each_alone(data: bytes, options: ScoringOptions, keep_going: bool) -> Outcome:
    """The same, every line read as a record and scored on its own (the careful path)."""
    out = io.StringIO()
    writer = BatchWriter(out, Format.jsonl)
    records = (jsonl_record(line, "f.jsonl", number)
               for number, line in numbered_lines(io.BytesIO(data)) if line.strip())  # fmt: skip
    try:
        bad = Batch(options).run(records, writer.hand, None, keep_going)
        error = None
    except GongzhuError as e:
        bad, error = [], str(e)
    writer.flush()
    return out.getvalue(), [(b.source, b.message) for b in bad], error


def _text(record: dict[str, Any], how: str) -> bytes:
    """A record as a line of JSON, written one of the ways a recorded hand may be."""
    if how == "spaced":
        return json.dumps(record, ensure_ascii=False).encode("utf-8")
    if how == "ascii":  # (names as \\u escapes: not plain, the engine's way)
        return json.dumps(record).encode("utf-8")
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


ODD_TEXT = [b"", b"   ", b"{nope", b"[]", b"{}", b'{"players": null}', b'{"players": []}',
            b'{"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}]} x']  # fmt: skip


@st.composite
def lines_for(draw: st.DrawFn, rules: Variant) -> bytes:
    """A line of a recorded file: mostly a hand (perhaps spoiled, naming its own variant or
    teams, given a key twice or an escape), sometimes no hand at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(ODD_TEXT))
    record = draw(spoiled(as_data(draw(hands_for(rules)))))
    change = draw(st.sampled_from(["none", "none", "none", "variant", "teams", "both",
                                   "key twice", "null", "escape", "tab"]))  # fmt: skip
    players = record["players"]
    if change in ("variant", "both"):
        record["variant"] = draw(st.sampled_from(["classic", "two-deck", "online", "no such"]))
    if change in ("teams", "both"):
        record["teams"] = draw(st.sampled_from(["partners", "pig-sheep", "none"]))
    if change == "null":
        players[draw(st.integers(0, 3))]["exposed"] = None
    if change == "escape":
        players[0]["name"] = players[0]["name"] + '"'
    text = _text(record, draw(st.sampled_from(["compact", "spaced", "ascii"])))
    if change == "key twice":
        text = text.replace(b'"captured"', b'"captured": "", "captured"', 1)
    if change == "tab":
        text = b"\t" + text.replace(b":", b" :", 2) + b" \r"
    return text


@settings(max_examples=150, derandomize=True, deadline=None)
@given(rule_sets(), st.booleans(), st.data())
def test_lines_by_the_arrays_are_each_record_scored_alone(
    rules: Variant, own_rules: bool, data: st.DataObject
) -> None:
    options = ScoringOptions.parse(
        None if own_rules else rules, data.draw(METHODS), data.draw(st.integers(1, 12)),
        data.draw(ROUNDING), data.draw(st.sampled_from([None, None, "partners"])),
    )  # fmt: skip
    try:
        Batch(options).scorer({})
    except GongzhuError:  # (options the rules do not define: refused before any line)
        assume(False)
    lines = data.draw(st.lists(lines_for(rules), min_size=1, max_size=12))
    text = b"\n".join(lines) + data.draw(st.sampled_from([b"", b"\n"]))
    for keep_going in (True, False):
        want = each_alone(text, options, keep_going)
        for arrow in (True, False):
            assert by_arrays(text, options, keep_going, arrow=arrow) == want
            assert by_arrays(text, options, keep_going, raw=True, arrow=arrow) == want
            with pytest.MonkeyPatch.context() as patch:  # (lines cut into blocks and chunks)
                from gongzhu_score.batch import reading

                patch.setattr(by_lines, "CHUNK", 2)
                patch.setattr(reading, "_BLOCK", 600)
                patch.setattr(reading, "MAX_RECORD_BYTES", 400)  # (some lines too long)
                assert by_arrays(text, options, keep_going, arrow=arrow) == each_alone(
                    text, options, keep_going
                )


_ALL = {"name": "东", "captured": "QS 10C AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"}
HANDS = [
    {
        "players": [
            _ALL,
            {"name": "南", "captured": "JD", "exposed": "QS"},
            {"name": "西"},
            {"name": "北"},
        ]
    },
    {
        "teams": "partners",
        "players": [_ALL, {"name": "南", "captured": "JD"}, {"name": "西"}, {"name": "北"}],
    },
]
"""A hand, and one naming its teams."""


@pytest.fixture
def went(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The numbers of the lines scored alone (the one-hand door), as they go."""
    numbers: list[int] = []
    real = Batch.careful

    def spy(self: Batch, *args: Any) -> Any:
        careful = real(self, *args)

        def counted(number: int, line: bytes) -> None:
            numbers.append(number)
            careful(number, line)

        return counted

    monkeypatch.setattr(Batch, "careful", spy)
    return numbers


@pytest.mark.parametrize("arrow", [True, False])
def test_plain_lines_never_go_the_one_hand_door(went: list[int], arrow: bool) -> None:
    """Only the lines the arrays cannot read (here a key given twice) are scored alone; hands
    naming their teams, and lists of codes, are scored as arrays too (Arrow refuses a chunk
    whose lines differ in type: orjson then reads it)."""
    plain = [json.dumps(HANDS[k % 2], ensure_ascii=False).encode() for k in range(40)]
    plain[9] = plain[9].replace(b'"captured"', b'"captured": "", "captured"', 1)
    plain[30] = plain[30].replace(b'"JD"', b'["JD"]')
    text = b"\n".join(plain)  # (no newline after the last line: read all the same)
    want = each_alone(text, ScoringOptions(), True)
    went.clear()
    assert by_arrays(text, ScoringOptions(), True, arrow=arrow) == want
    assert went == [10]


def test_a_small_file_leaves_numpy_unimported(tmp_path: Any) -> None:
    """A fresh ``batch`` of a few lines never imports numpy (about 50 ms): the one-hand door."""
    line = json.dumps(HANDS[0], ensure_ascii=False)
    path = tmp_path / "few.jsonl"
    path.write_text("\n".join([line] * 1000) + "\n", encoding="utf-8")
    code = (
        "import sys\nfrom gongzhu_score.cli import main\n"
        f"sys.argv = ['gongzhu-score', 'batch', {str(path)!r}, '-f', 'jsonl', '-o', "
        f"{str(tmp_path / 'out.jsonl')!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    assert done.stdout.strip() == "False"
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 1000


# A batch run in a process of its own, every file split between workers however small (where
# there are several cores); with ``hidden``, pyarrow cannot be imported in any of its processes
# (a finder that refuses it, installed by sitecustomize), as in an install without the arrow
# extra.
SPLIT = (
    "import sys\n"
    "import gongzhu_score.batch.parallel as parallel\n"
    "import gongzhu_score.core.doors as doors\n"
    "parallel.PARALLEL_FROM_BYTES = doors.MANY_BYTES = 0\n"
    "from gongzhu_score.cli import main\n"
    "if __name__ == '__main__':  # (not in the workers, which import this script)\n"
    "    sys.argv = ['gongzhu-score', *sys.argv[1:]]\n"
    "    main()\n"
)


@pytest.mark.parametrize("flags", [["-f", "jsonl"], ["-f", "jsonl", "--keep-going"],
                                   ["-f", "csv", "--keep-going"],
                                   ["-f", "table", "--keep-going", "--summary-only"]])  # fmt: skip
def test_without_the_arrow_extra_a_split_file_scores_the_same(
    tmp_path: Any, flags: list[str]
) -> None:
    """Where pyarrow is not installed, orjson reads the lines into the arrays, in the workers
    too: the same output, messages and exit code as Arrow's reader gives."""
    import os

    from optional import hiding_arrow
    from played import played_hands

    lines = [json.dumps(h, ensure_ascii=False) for h in played_hands(6_000, seed=37)]
    lines[4_321] = lines[4_321].replace('"captured"', '"captured": "ZZ", "captured"', 1)
    lines[5_000] = "{not json"
    path = tmp_path / "played.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "split.py").write_text(SPLIT, encoding="utf-8")

    def run(env: dict[str, str]) -> tuple[int, bytes, bytes]:
        done = subprocess.run([sys.executable, "split.py", "batch", str(path), *flags],
                              capture_output=True, cwd=tmp_path, env=env)  # fmt: skip
        return done.returncode, done.stdout, done.stderr

    hidden, shown = run(hiding_arrow(tmp_path / "hide")), run(dict(os.environ))
    assert hidden == shown
    assert shown[0] == (2 if "--keep-going" not in flags else 1)
    assert b"played.jsonl:4322" in shown[2]
