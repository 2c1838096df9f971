"""Output formats (issue 10): each command prints exactly the format asked for, or refuses it;
CSV is always one table."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import yaml
from clitools import refused, run, sample
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score.render.fit import columns
from gongzhu_score.render.formats import Format, table

HAND = sample("seed_minus_400.yaml")
LEDGER = sample("match/ledger.yaml")
RECORD = sample("record.yaml")
COMMANDS = {
    ("score", HAND): {"table", "json", "csv", "yaml"},
    ("compare", HAND): {"table", "json", "yaml"},
    ("replay", RECORD): {"table", "json", "yaml"},
    ("variants",): {"table", "json", "yaml"},
    ("variants", "show", "classic"): {"table", "json", "yaml"},
    ("batch", sample("batch.jsonl")): {"table", "csv", "jsonl", "json", "parquet"},
    ("match", "show", LEDGER): {"table", "json", "csv"},
    ("match", "export", LEDGER): {"csv", "json"},
}


@pytest.mark.parametrize(("command", "supported"), list(COMMANDS.items()))
def test_each_command_prints_its_formats_and_refuses_the_others(
    command: tuple[str, ...], supported: set[str], tmp_path: Path
) -> None:
    for fmt in Format:
        if fmt is Format.parquet and fmt.value in supported:  # (a file, never stdout)
            out = tmp_path / "out.parquet"
            assert run(*command, "--format", "parquet", "-o", str(out)).exit_code == 0
            assert out.read_bytes()[:4] == b"PAR1"
        elif fmt.value in supported:
            r = run(*command, "--format", fmt.value)
            assert r.exit_code == 0, (command, fmt, r.stderr)
            if fmt is Format.json:
                json.loads(r.stdout)
            elif fmt is Format.yaml:
                assert isinstance(yaml.safe_load(r.stdout), dict | list)
            elif fmt is Format.jsonl:
                assert all(json.loads(line) for line in r.stdout.splitlines())
        else:
            message = refused(*command, "--format", fmt.value)
            listed = message.split(f"'{fmt.value}': this command prints ")[1].split(" (see")[0]
            assert set(listed.split(", ")) == supported


def test_yaml_is_the_json_data(tmp_path: Path) -> None:
    for command in (("compare", HAND, "-v", "classic", "-v", "jj"), ("replay", RECORD)):
        as_json = json.loads(run(*command, "-f", "json").stdout)
        assert yaml.safe_load(run(*command, "-f", "yaml").stdout) == as_json


def test_match_add_refuses_csv_and_leaves_the_ledger_as_it_was(tmp_path: Path) -> None:
    ledger = tmp_path / "m.yaml"
    assert run("match", "new", str(ledger), "-p", "东,南,西,北").exit_code == 0
    before = ledger.read_bytes()
    message = refused("match", "add", str(ledger), HAND, "-f", "csv")
    assert message.startswith("Invalid value for '--format'")
    assert "'csv': this command prints table, json" in message
    assert ledger.read_bytes() == before


def _one_table(text: str) -> list[dict[str, str]]:
    """The rows of ``text`` read as CSV, checking it is one table: one header, every row as wide."""
    rows = list(csv.reader(io.StringIO(text)))
    assert rows, "no CSV at all"
    width = len(rows[0])
    assert all(len(row) == width for row in rows), rows
    assert rows.count(rows[0]) == 1, "a second header"
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


def test_batch_csv_is_one_table_with_and_without_the_totals() -> None:
    hands = _one_table(run("batch", sample("batch.jsonl"), "-f", "csv").stdout)
    assert list(hands[0]) == ["source", "seat", "name", "raw", "final"]
    assert len(hands) == 20
    totals = _one_table(run("batch", sample("batch.jsonl"), "-f", "csv", "--summary-only").stdout)
    assert [t["name"] for t in totals] == ["东", "南", "西", "北"]
    assert totals[1]["raw"] == "-1130"


def test_every_csv_the_tool_prints_is_one_table() -> None:
    for command in (("score", HAND), ("match", "show", LEDGER), ("match", "export", LEDGER)):
        _one_table(run(*command, "-f", "csv").stdout)


# --- one measure of width (issue 56): the package's is tabulate's, wcwidth's ---------------------

_CELL_CHARS = st.sampled_from(
    list("abcXYZ019 -+()") + list("东南西北猪羊变压器红桃，：、（）") + list("♠♥♦♣×→⅓▁█")
    + ["😀", "é", "\u0301", "\u200b", "ｗ", "ﾊ", "가"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(_CELL_CHARS, max_size=8), min_size=1, max_size=5))
def test_a_table_and_the_lines_around_it_measure_alike(names: list[str]) -> None:
    """Every line of a table, measured by :func:`columns`, has its last column where
    tabulate put it: the two measure every text alike."""
    text = table([[name, "|"] for name in names], ["name", "|"])
    lines = [line for line in text.split("\n") if not line.startswith("-")]
    starts = {columns(line[: line.rindex("|")]) for line in lines}
    assert len(starts) == 1, text
