"""Spark and Ray for real (issue 24, points 2 and 3): docs/batch.md's two programs run as
printed on 3,000 played hands with a key column and two bad rows; every good row checked by its
key against ``batch --format jsonl`` (the row engine), the two bad ones in ``error`` with
``batch``'s own message; Spark with exact rounding and plain text; Spark with a Python worker
killed mid-task (``local[2,4]``: the retry gives every row once; engine_jobs.py); Ray on a local instance that
can bind nothing but loopback (its own network namespace). The Spark tests are the spark suite
(``pytest -m spark``: pyspark and Java), the Ray program the ray suite; the Ray function needs
no Ray and runs in README's command."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from clitools import run
from optional import arrow, pa, pq
from played import played_hands, played_table

from gongzhu_score.errors import GongzhuError

ROOT = Path(__file__).resolve().parent.parent
HANDS = 3_000
BAD = {1234: "unknown card 'XX'", 2345: "captured already by"}
"""The bad rows' keys, and what their error says."""


def _hands() -> list[dict[str, Any]]:
    hands = list(played_hands(HANDS, seed=24))
    unknown = hands[1234]["players"][0]  # type: ignore[index]
    unknown["captured"] = "XX " + unknown["captured"]
    twice = hands[2345]["players"]  # type: ignore[index]
    twice[0]["captured"] += " " + twice[1]["captured"].split()[0]
    return hands


@pytest.fixture(scope="module")
def lake(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``lake/``: the hands as three Parquet files (tasks), each row with its ``hand_id``; and
    ``hands.jsonl``, the same hands in order (line N is hand N - 1)."""
    folder = tmp_path_factory.mktemp("engines")
    hands = _hands()
    table = played_table(hands)
    table = table.add_column(0, "hand_id", pa.array(range(HANDS), pa.int64()))
    (folder / "lake").mkdir()
    for k, start in enumerate(range(0, HANDS, 1_000)):
        pq.write_table(table.slice(start, 1_000), folder / "lake" / f"part-{k}.parquet")
    lines = "".join(json.dumps(hand, ensure_ascii=False) + "\n" for hand in hands)
    (folder / "hands.jsonl").write_text(lines, encoding="utf-8")
    return folder


def _by_the_row_engine(lake: Path, *options: str) -> tuple[dict[int, Any], dict[int, str]]:
    """Each good hand's players (``batch --format jsonl``) and each bad hand's message
    (``--keep-going``'s, after its place), by key."""
    done = run("batch", str(lake / "hands.jsonl"), "--format", "jsonl", "--keep-going",
               *options)  # fmt: skip
    assert done.exit_code == 1, done.stderr
    good = {}
    for line in done.stdout.splitlines():
        result = json.loads(line)
        good[int(result["source"].rsplit(":", 1)[1]) - 1] = result["players"]
    bad = {int(row) - 1: message
           for row, message in re.findall(r"hands\.jsonl:(\d+): (.*)", done.stderr)}  # fmt: skip
    assert len(good) == HANDS - len(BAD) and sorted(bad) == sorted(BAD)
    return good, bad


@pytest.fixture(scope="module")
def expected(lake: Path) -> tuple[dict[int, Any], dict[int, str]]:
    return _by_the_row_engine(lake)


def _program(name: str) -> str:
    """docs/batch.md's program ``name``, as printed."""
    text = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    found = re.search(rf"<!-- tests/test_engines.py runs this: {name} -->\n```python\n(.*?)```",
                      text, re.S)  # fmt: skip
    assert found, f"docs/batch.md has no {name} program"
    return found.group(1)


def _scored(folder: Path) -> dict[int, dict[str, Any]]:
    """The rows an engine wrote, by key; a key written twice fails."""
    rows = pq.read_table(folder / "scored").to_pylist()
    keyed = {row["hand_id"]: row for row in rows}
    assert len(keyed) == len(rows) == HANDS, "a row is missing or written twice"
    return keyed


def _check(rows: dict[int, dict[str, Any]], expected: tuple[dict[int, Any], dict[int, str]],
           exact: bool = False) -> None:  # fmt: skip
    good, bad = expected
    for key, players in good.items():
        row = rows[key]
        assert row["error"] is None, (key, row["error"])
        if exact:
            assert [(p["name"], p["raw"]) for p in row["players"]] == [
                (p["name"], p["raw"]) for p in players
            ], key
            finals = [float(Fraction(p["final"])) for p in players]
            assert [p["final"] for p in row["players"]] == pytest.approx(finals), key
        else:
            assert row["players"] == players, key
    for key, message in bad.items():
        assert rows[key]["players"] is None
        assert rows[key]["error"] == message and BAD[key] in message


SPARK_ENV = {**os.environ, "PYSPARK_PYTHON": sys.executable}
"""Spark's Python workers run this Python (else the first ``python3`` of the PATH, which may be
another, without gongzhu-score: a venv used without being activated)."""


def _in(folder: Path, lake: Path) -> Path:
    shutil.copytree(lake / "lake", folder / "lake")
    return folder


@pytest.mark.spark
def test_the_docs_spark_program_as_printed(tmp_path: Path, lake: Path, expected: Any) -> None:
    folder = _in(tmp_path, lake)
    done = subprocess.run([sys.executable, "-c", _program("spark")], cwd=folder, env=SPARK_ENV,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "2 bad hands"
    _check(_scored(folder), expected)


@pytest.mark.spark
def test_spark_exact_rounding_plain_text_and_a_worker_killed_mid_task(
    tmp_path: Path, lake: Path
) -> None:
    folder = _in(tmp_path, lake)
    _job("exact-kill", folder)
    assert (folder / "killed").exists(), "no worker was killed"
    rows = _scored(folder)  # (every row once)
    assert (
        pq.read_schema(next((folder / "scored").glob("*.parquet")))
        .field("players")
        .type.value_type.field("final")
        .type
        == pa.float64()
    )
    _check(rows, _by_the_row_engine(lake, "--rounding", "exact"), exact=True)


def _job(name: str, folder: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "engine_jobs.py"), name,
                           str(folder)], env=SPARK_ENV, capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.ray
def test_the_docs_ray_program_as_printed_on_loopback_only(
    tmp_path: Path, lake: Path, expected: Any
) -> None:
    folder = _in(tmp_path, lake)
    program = folder / "ray_program.py"
    program.write_text(_program("ray"), encoding="utf-8")
    # A network namespace of its own, with only loopback: Ray cannot listen anywhere else.
    alone = ["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$0" "$1"']
    done = subprocess.run([*alone, sys.executable, str(program)], cwd=folder,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, (
        "Ray's test runs in a network namespace of its own (unshare --net, as root, with "
        f"iproute2's ip): {done.stderr[-3000:]}"
    )
    assert done.stdout.splitlines()[-1] == "2 bad hands"
    _check(_scored(folder), expected)


# --- the adapters without an engine: what each gives, and what each refuses on the driver ---


def _spark_schema() -> Any:
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    return StructType([
        StructField("hand_id", LongType()),
        StructField("players", StringType()),  # (not read by Spark here: only its name counts)
        StructField("played_on", StringType()),
    ])  # fmt: skip


@pytest.mark.spark
def test_contract_spark_schema_carries_the_keys_then_the_results() -> None:
    from pyspark.sql.types import DoubleType, LongType

    schema = arrow.spark_scoring(_spark_schema(), errors="column").schema
    assert schema.names == ["hand_id", "played_on", "players", "error"]
    assert schema["hand_id"].dataType == LongType()
    player = schema["players"].dataType.elementType
    assert player.names == ["name", "raw", "final"]
    assert player["final"].dataType == LongType()
    exact = arrow.spark_scoring(_spark_schema(), rounding="exact").schema
    assert exact.names == ["hand_id", "played_on", "players"]
    assert exact["players"].dataType.elementType["final"].dataType == DoubleType()


@pytest.mark.spark
@pytest.mark.parametrize("large", [False, True])
def test_spark_function_answers_in_the_text_type_it_was_sent(large: bool) -> None:
    table = played_table(list(played_hands(50, seed=3)))
    table = table.add_column(0, "hand_id", pa.array(range(50), pa.int64()))
    table = table.add_column(2, "played_on", pa.array(["2026-12-01"] * 50))
    if large:
        table = table.cast(pa.schema([
            pa.field(f.name, pa.large_string() if f.type == pa.string() else f.type)
            for f in table.schema
        ]))  # fmt: skip
        table = table.set_column(1, "players", table["players"].cast(pa.list_(pa.struct([
            (f.name, pa.large_string()) for f in table.schema.field("players").type.value_type
        ]))))  # fmt: skip
    scoring = arrow.spark_scoring(_spark_schema(), errors="column")
    out = pa.Table.from_batches(list(scoring(iter(table.to_batches(max_chunksize=20)))))
    text = pa.large_string() if large else pa.string()
    assert out.schema.field("played_on").type == text
    assert out.schema.field("error").type == text
    assert out.schema.field("players").type.value_type.field("name").type == text
    want = arrow.score_table(table, errors="column")
    assert out.column("players").to_pylist() == want.column("players").to_pylist()
    assert out.column("hand_id").to_pylist() == list(range(50))


def test_ray_function_is_score_table_on_one_thread() -> None:
    table = played_table(list(played_hands(50, seed=4)))
    scoring = arrow.ray_scoring(errors="column", normalize="none")
    assert scoring.keywords["threads"] == 1
    assert scoring(table).equals(arrow.score_table(table, errors="column", normalize="none"))


@pytest.mark.parametrize(
    ("make", "says"),
    [
        pytest.param(
            lambda: arrow.spark_scoring(_spark_schema(), errors="skip"),
            "errors",
            marks=pytest.mark.spark,
        ),
        pytest.param(
            lambda: arrow.spark_scoring(_spark_schema(), rules="no-such-rules"),
            "no-such-rules",
            marks=pytest.mark.spark,
        ),
        (lambda: arrow.ray_scoring(lang="fr"), "lang"),
        (lambda: arrow.ray_scoring(scale=0), "scale"),
    ],
)
def test_a_bad_option_is_refused_on_the_driver(make: Any, says: str) -> None:
    with pytest.raises(GongzhuError, match=says):
        make()
