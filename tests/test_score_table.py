"""score_table for data engines (issue 24, point 1): the columns it does not read come out
unchanged, bad rows can be reported in an ``error`` column instead of raising, ``source`` only
when asked and numbered from the caller's first row, the scoring tables kept for the process,
``threads=``, and text in every Arrow form taking the column path."""

from __future__ import annotations

import datetime
import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from clitools import SAMPLES, refused, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional import arrow, columns, pa, pq
from strategies import RandomHand, hands_for, rule_sets

from gongzhu_score import GongzhuError, Scorer, Variant
from gongzhu_score.api import hand_or_record
from gongzhu_score.batch.reading import InputRecord
from gongzhu_score.batch.runner import Batch
from gongzhu_score.cli.boundary import error_line
from gongzhu_score.core.engine import compiled_rules
from gongzhu_score.core.options import ScoringOptions
from gongzhu_score.errors import ArgumentError, InputError
from gongzhu_score.io.variants import find_variant
from gongzhu_score.render.formats import yaml_text

HEARTS = " ".join(f"{r}H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                    "K", "A"))  # fmt: skip
ALL = f"QS JD 10C {HEARTS}"


def a_row(first: str = ALL, second: str = "", **more: object) -> dict[str, Any]:
    players = [{"name": "东", "captured": first, **more}, {"name": "南", "captured": second},
               {"name": "西", "captured": ""}, {"name": "北", "captured": ""}]  # fmt: skip
    return {"players": players}


GOOD = [a_row(), a_row("QS JD 10C", HEARTS), a_row(HEARTS, "QS JD 10C 2S", exposed="AH"),
        {**a_row(f"QS {HEARTS}", "JD 10C"), "variant": "jj"}]  # fmt: skip
BAD = [a_row("QS QS"), a_row("QS 红A"), a_row("QS"), a_row(ALL, "", exposed="2H")]


def table_of(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_struct_array(pa.array(rows))


def batch_says(data: dict[str, Any], lang: str = "en") -> str:
    """What ``batch`` says of a bad hand after its place (``file:line: ``)."""
    with pytest.raises(GongzhuError) as caught:
        Scorer().score_data(columns.plain(data))
    return caught.value.text(lang)


def numbers(players: list[dict[str, Any]] | None) -> list[tuple[str, int, object]] | None:
    return None if players is None else [(p["name"], p["raw"], p["final"]) for p in players]


def engine(data: dict[str, Any]) -> list[tuple[str, int, object]]:
    result = Scorer(data.get("variant", "classic")).score_data(columns.plain(data))
    return list(zip(result.names, result.raws, result.finals, strict=True))


# --- the columns not read pass through ---------------------------------------------------------


def _keyed(rows: list[dict[str, Any]]) -> pa.Table:
    """``rows`` with columns of every kind around the ones read."""
    n = len(rows)
    hands = table_of(rows)
    day = datetime.date(2026, 1, 1)
    extra = {
        "hand_id": pa.array(range(1000, 1000 + n), pa.int64()),
        "played": pa.array([day + datetime.timedelta(days=i) for i in range(n)], pa.date32()),
        "at": pa.array(
            [datetime.datetime(2026, 1, 1, 20, i % 60) for i in range(n)],
            pa.timestamp("us", tz="Asia/Shanghai"),
        ),
        "table": pa.array([f"桌{i % 3}" for i in range(n)]).dictionary_encode(),
        "meta": pa.array([{"room": i, "tags": ["a"] * (i % 2)} for i in range(n)]),
        "note": pa.array([None] * n, pa.null()),
        "score": pa.array([1.5] * n),  # (a name like no output column's)
    }
    out = pa.table({"hand_id": extra["hand_id"], "played": extra["played"]})
    for name in hands.column_names:
        out = out.append_column(name, hands.column(name))
        if name == "players":
            out = out.append_column("at", extra["at"]).append_column("table", extra["table"])
    for name in ("meta", "note", "score"):
        out = out.append_column(name, extra[name])
    return out


def test_contract_every_column_not_read_comes_out_unchanged_in_order() -> None:
    table = _keyed(GOOD * 5)
    scored = arrow.score_table(table)
    carried = ["hand_id", "played", "at", "table", "meta", "note", "score"]
    assert scored.column_names == [*carried, "players"]
    for name in carried:
        assert scored.schema.field(name) == table.schema.field(name)
        assert scored.column(name).equals(table.column(name)), name
    assert scored.schema.field("players") == arrow.OUTPUT_SCHEMA.field("players")
    assert [numbers(p) for p in scored.column("players").to_pylist()] == [
        engine(r) for r in GOOD * 5
    ]
    assert arrow.paths(table) == arrow.paths(table_of(GOOD * 5))
    # a record batch too, and a table of several batches (the carried columns' chunks kept)
    batch = table.combine_chunks().to_batches()[0]
    assert arrow.score_table(batch).equals(arrow.score_table(pa.Table.from_batches([batch])))
    several = pa.concat_tables([table, table])
    assert arrow.score_table(several, threads=2).column("hand_id").equals(several.column("hand_id"))


def test_a_table_of_only_the_columns_read_gives_what_it_gave() -> None:
    scored = arrow.score_table(table_of(GOOD), source="t")
    assert scored.schema == arrow.OUTPUT_SCHEMA
    assert scored.column("source").to_pylist() == [f"t:{i}" for i in range(1, 5)]


def test_contract_score_table_with_the_file_as_source_gives_batch_parquet_rows(
    tmp_path: Path,
) -> None:
    source = tmp_path / "hands.parquet"
    pq.write_table(table_of(GOOD * 30), source, row_group_size=50)
    out = tmp_path / "out.parquet"
    run("batch", str(source), "-f", "parquet", "-o", str(out))
    assert arrow.score_table(pq.read_table(source), source=str(source)).equals(pq.read_table(out))


def test_a_misspelt_field_of_the_players_is_still_refused_clearly() -> None:
    row = a_row()
    row["players"][0]["captued"] = row["players"][0].pop("captured")
    table = _keyed([row, *GOOD])
    with pytest.raises(InputError) as caught:
        arrow.score_table(table, source="t")
    assert str(caught.value) == (
        "t:1: players[1]: unknown key 'captued' (allowed: name, captured, exposed, "
        "first_exposed, claimed); did you mean 'captured'?"
    )
    assert str(caught.value) == f"t:1: {batch_says(row)}"
    # a player's field written as a column of its own is refused as a hand file's is
    flat = table_of(GOOD).append_column("exposed", pa.array(["AH"] * 4))
    with pytest.raises(InputError, match=r"^row:1: .*exposed"):
        arrow.score_table(flat)


def test_a_column_named_as_one_read_but_for_its_case_is_refused() -> None:
    table = table_of(GOOD).append_column("Variant", pa.array(["jj"] * 4))
    with pytest.raises(InputError) as caught:
        arrow.score_table(table)
    assert str(caught.value) == (
        "column 'Variant' is not 'variant', which score_table reads: name it 'variant' to have "
        "it read, or another name to have it passed through"
    )
    assert caught.value.text("zh").startswith("'Variant' 列不是 score_table 读取的 'variant' 列")


@pytest.mark.parametrize(("name", "options", "argument"), [
    ("source", {"source": "t"}, "source"),
    ("error", {"errors": "column"}, "errors='column'"),
])  # fmt: skip
def test_a_column_named_as_an_output_column_is_refused_only_when_that_column_is_written(
    name: str, options: dict[str, Any], argument: str
) -> None:
    table = table_of(GOOD).append_column(name, pa.array(["x"] * 4))
    with pytest.raises(InputError) as caught:
        arrow.score_table(table, **options)
    assert str(caught.value) == (
        f"the table has a column '{name}', and score_table writes its own; rename that column "
        f"(or leave out {argument})"
    )
    assert arrow.score_table(table).column(name).to_pylist() == ["x"] * 4  # (not written: carried)


def test_a_table_of_records_carries_its_other_columns() -> None:
    import yaml

    record = yaml.safe_load((SAMPLES / "record.yaml").read_text(encoding="utf-8"))
    table = pa.Table.from_pylist([{**record, "hand_id": 7, "hand": 1}])
    scored = arrow.score_table(table)
    # a record's keys are read (hand among them): only hand_id is carried
    assert scored.column_names == ["hand_id", "players"]
    assert numbers(scored.column("players")[0].as_py()) == numbers(
        arrow.score_table(pa.Table.from_pylist([{**record, "hand": 1}]))
        .column("players")[0]
        .as_py()
    )


def test_batch_reads_every_column_as_it_reads_json_lines(tmp_path: Path) -> None:
    # The command line's Parquet contract stays: its output has source and players; a column
    # that is no key of a hand is refused there, as in JSON Lines.
    source = tmp_path / "hands.parquet"
    pq.write_table(_keyed(GOOD), source)
    assert refused("batch", str(source), "-f", "parquet", "-o", str(tmp_path / "o.parquet")) == (
        f"{source}:1: unknown key 'hand_id' (allowed: variant, teams, players)"
    )


# --- errors="column" ---------------------------------------------------------------------------


def test_contract_errors_column_scores_the_good_rows_and_says_why_for_the_bad() -> None:
    rows = [GOOD[0], BAD[0], GOOD[1], BAD[1], BAD[2], GOOD[2], BAD[3], GOOD[3]]
    table = _keyed(rows)
    scored = arrow.score_table(table, errors="column")
    assert scored.column_names[-2:] == ["players", "error"]
    assert scored.schema.field("error").type == pa.string()
    assert scored.column("hand_id").equals(table.column("hand_id"))
    for row, players, said in zip(rows, scored.column("players").to_pylist(),
                                  scored.column("error").to_pylist(), strict=True):  # fmt: skip
        if row in BAD:
            assert players is None
            assert said == batch_says(row)
        else:
            assert said is None
            assert numbers(players) == engine(row)
    # in Chinese
    zh = arrow.score_table(table, errors="column", lang="zh").column("error").to_pylist()
    assert zh[1] == batch_says(BAD[0], "zh") == "玩家 东：黑桃Q收了两次"
    # raise (the default) stops at the first bad row, naming it
    with pytest.raises(GongzhuError) as caught:
        arrow.score_table(table)
    assert str(caught.value) == f"row:2: {batch_says(BAD[0])}"


def test_errors_column_on_a_table_with_no_bad_row_has_a_null_error_column() -> None:
    scored = arrow.score_table(table_of(GOOD), errors="column", source="t", first_row=0)
    assert scored.schema == arrow.output_schema(error=True)
    assert scored.column("error").null_count == 4
    assert scored.column("players").null_count == 0
    assert scored.column("source").to_pylist() == ["t:0", "t:1", "t:2", "t:3"]


def test_errors_column_matches_batch_keep_going(tmp_path: Path) -> None:
    rows = [GOOD[0], BAD[0], GOOD[2], BAD[1], BAD[3], GOOD[1]]
    lines = tmp_path / "hands.jsonl"
    lines.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                     encoding="utf-8")  # fmt: skip
    r = run("batch", str(lines), "-f", "jsonl", "--keep-going")
    assert r.exit_code == 1
    said = {
        int(line.split(":")[1]): line.split(": ", 1)[1]
        for line in (x.strip() for x in r.stderr.splitlines())
        if line.startswith(str(lines))
    }
    assert len(said) == 3
    scored = arrow.score_table(table_of(rows), errors="column").column("error").to_pylist()
    assert {i + 1: s for i, s in enumerate(scored) if s is not None} == said


def test_a_table_with_no_column_read_has_no_hand_in_any_row() -> None:
    keys = pa.table({"hand_id": [1, 2, 3]})
    scored = arrow.score_table(keys, errors="column")
    assert scored.column("hand_id").to_pylist() == [1, 2, 3]
    assert scored.column("error").to_pylist() == [batch_says({})] * 3
    assert scored.column("players").null_count == 3
    assert arrow.paths(keys) == ["row"] * 3
    with pytest.raises(InputError, match=r"^row:1: missing 'players'"):
        arrow.score_table(keys)
    empty = arrow.score_table(keys.slice(0, 0), errors="column")
    assert empty.num_rows == 0 and empty.column_names == ["hand_id", "players", "error"]


def big_rules(folder: Path, extends: str = "classic") -> Variant:
    """House rules of a billion a pig, an exposure and a transformer: raws past int64."""
    from gongzhu_score.io.variants import load_rules

    levels = ", ".join(["1"] + ["1000000000"] * find_variant(extends).decks)
    rules_file = folder / "big.yaml"
    rules_file.write_text(f"name: big\nextends: {extends}\npig: -1000000000\n"
                          f"exposure_levels: [{levels}]\ntransformer_multiplier: 1000000000\n")  # fmt: skip
    return load_rules(str(rules_file))


def test_scores_too_large_for_int64_are_an_error_in_their_row_only(tmp_path: Path) -> None:
    rules = big_rules(tmp_path)
    big = a_row("QS JD 10C " + HEARTS.replace(" AH", ""), "AH", exposed="QS")
    scored = arrow.score_table(table_of([GOOD[0], big, GOOD[1]]), rules, errors="column")
    said = scored.column("error").to_pylist()
    assert said[0] is None and said[2] is None
    assert said[1].startswith("a score of ") and "does not fit the 64-bit" in said[1]
    assert scored.column("players").to_pylist()[1] is None


# --- source ------------------------------------------------------------------------------------


def test_contract_source_only_when_asked_numbered_from_first_row() -> None:
    table = table_of(GOOD + BAD[:1])
    assert "source" not in arrow.score_table(table.slice(0, 4)).column_names
    scored = arrow.score_table(table.slice(0, 4), source="lake/part-3", first_row=123_457)
    assert scored.column("source").to_pylist() == [f"lake/part-3:{123_457 + i}" for i in range(4)]
    # errors name the row by the same number, with or without a name
    with pytest.raises(GongzhuError, match=r"^lake:123461: "):
        arrow.score_table(table, source="lake", first_row=123_457)
    with pytest.raises(GongzhuError, match=r"^row:123461: "):
        arrow.score_table(table, first_row=123_457)
    # a table of many batches: numbered on across them, whatever the threads
    many = pa.Table.from_batches(table_of(GOOD * 50).to_batches(max_chunksize=7))
    for threads in (1, 3):
        assert arrow.score_table(many, source="s", first_row=11, threads=threads).column(
            "source").to_pylist() == [f"s:{i}" for i in range(11, 211)]  # fmt: skip


@pytest.mark.parametrize(("option", "value", "says"), [
    ("source", 3, "source: expected text, or None (no source column), not 3"),
    ("first_row", -1, "first_row: expected a whole number, 0 or more"),
    ("first_row", True, "first_row: expected a whole number, 0 or more"),
    ("first_row", 1.0, "first_row: expected a whole number, 0 or more"),
    ("errors", "ignore", "errors: expected 'raise' or 'column', not 'ignore'"),
    ("errors", None, "errors: expected 'raise' or 'column', not None"),
    ("threads", 0, "threads: expected a whole number, 1 or more, or None, not 0"),
    ("threads", "2", "threads: expected a whole number, 1 or more, or None"),
    ("lang", "fr", "lang: expected 'en' or 'zh', not 'fr'"),
])  # fmt: skip
def test_the_new_arguments_are_checked_naming_them(option: str, value: object, says: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        arrow.score_table(table_of(GOOD), **{option: value})
    assert str(caught.value).startswith(says)


# --- the scoring tables, kept for the process --------------------------------------------------


def test_the_raw_scores_are_asked_of_the_engine_once_per_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gongzhu_score.core import masks  # (its private names)
    from gongzhu_score.io.variants import find_variant

    table = table_of(GOOD[:3])
    arrow.score_table(table)
    kept = masks.RAWS[find_variant("classic")]
    known = int(kept.known.sum())
    values = kept.values
    asked: list[int] = []
    fill = masks._Raws._fill

    def counting(self: Any, codes: Any) -> None:
        asked.extend(codes.tolist())
        fill(self, codes)

    monkeypatch.setattr(masks._Raws, "_fill", counting)
    for _ in range(3):
        assert [numbers(p) for p in arrow.score_table(table).column("players").to_pylist()] == [
            engine(r) for r in GOOD[:3]
        ]
    assert asked == [] and int(kept.known.sum()) == known
    assert kept.values is values  # (read as they are: not made again)
    # a hand with a set not met before asks for that set alone (its four players' sets)
    arrow.score_table(table_of([a_row("QS JD 10C 2H 3H 4H", HEARTS.replace("2H 3H 4H ", ""))]))
    assert 0 < len(asked) <= 4


def test_the_tables_kept_are_zeroed_and_written_in_place() -> None:
    import numpy as np

    from gongzhu_score.core import masks  # (its private names)

    for kind in (np.int64, bool):
        table = masks.small_pages((3, 5), kind)
        assert table.shape == (3, 5) and table.dtype == kind and not table.any()
        table.reshape(-1)[14] = 1  # (a view of the same memory, as look_up reads it)
        assert table[2, 4] and int(table.sum()) == 1


def test_house_rules_read_twice_share_their_numbers(tmp_path: Path) -> None:
    from gongzhu_score.core import masks  # (its private names)
    from gongzhu_score.io.variants import load_rules

    path = tmp_path / "house.yaml"
    path.write_text("name: house24\nextends: classic\npig: -150\n")
    one, two = load_rules(str(path)), load_rules(str(path))
    assert one is not two and one == two
    arrow.score_table(table_of(GOOD[:2]), one)
    assert masks._raws_of(two, None) is masks.RAWS[one]  # type: ignore[arg-type]


# --- threads -----------------------------------------------------------------------------------


def test_threads_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert arrow.default_threads() == min(os.cpu_count() or 1, 8)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # (what Spark, Ray and Dask's nanny set)
    assert arrow.default_threads() == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "nonsense")
    assert arrow.default_threads() == min(os.cpu_count() or 1, 8)
    monkeypatch.delenv("OMP_NUM_THREADS")
    found: list[int] = []
    worker = threading.Thread(target=lambda: found.append(arrow.default_threads()))
    worker.start()
    worker.join()
    assert found == [1]  # (called from a thread: the caller runs things in parallel)


def test_one_thread_starts_no_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pool(*args: object) -> None:
        raise AssertionError("a pool was started")

    many = pa.Table.from_batches(table_of(GOOD * 10).to_batches(max_chunksize=3))
    want = arrow.score_table(many, threads=4)
    monkeypatch.setattr(columns, "ThreadPoolExecutor", no_pool)
    assert arrow.score_table(many, threads=1).equals(want)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert arrow.score_table(many).equals(want)
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert arrow.score_table(table_of(GOOD)).num_rows == 4  # (one batch: no pool, any threads)


@pytest.mark.dask
def test_inside_a_dask_task_one_thread() -> None:
    from distributed import Client

    from gongzhu_score.batch.parquet import local_cluster

    with local_cluster(1) as cluster, Client(cluster) as client:
        assert client.submit(arrow.default_threads, pure=False).result() == 1
        table = _keyed(GOOD + BAD)
        got = client.submit(arrow.score_table, table, errors="column", pure=False).result()
        assert got.equals(arrow.score_table(table, errors="column"))


# --- text in every Arrow form takes the column path --------------------------------------------


def _recast(table: pa.Table, text: pa.DataType | str) -> pa.Table:
    """``table`` with every text column (and field) of the players and the variant as
    ``text`` (``dictionary``: dictionary-encoded strings), built from the values."""

    def kind(t: pa.DataType) -> pa.DataType:
        if t == pa.string():
            return pa.dictionary(pa.int32(), pa.string()) if text == "dictionary" else text
        if pa.types.is_struct(t):
            return pa.struct([t.field(k).with_type(kind(t.field(k).type))
                              for k in range(t.num_fields)])  # fmt: skip
        if pa.types.is_list(t):
            return pa.list_(kind(t.value_type))
        return t

    return pa.table({n: pa.array(table.column(n).to_pylist(), type=kind(table.column(n).type))
                     for n in table.column_names})  # fmt: skip


@pytest.mark.parametrize("text", ["large_string", "string_view", "dictionary"])
def test_every_form_of_text_takes_the_column_path(text: str) -> None:
    rows = [*GOOD, {**GOOD[1], "variant": "classic"}, {**a_row("猪 羊 变压器 全红"),
                                                         "variant": None}]  # fmt: skip
    rows[2] = {**rows[2], "teams": None}
    table = table_of(rows)
    recast = _recast(table, text if text == "dictionary" else getattr(pa, text)())
    assert recast.schema.field("variant").type != pa.string()
    assert arrow.paths(table) == ["column"] * 5 + ["row"]
    assert arrow.paths(recast) == arrow.paths(table)
    assert arrow.score_table(recast).equals(arrow.score_table(table))
    # and carried as they are, beside the results
    keyed = recast.append_column("key", recast.column("variant")).drop_columns(["variant"])
    scored = arrow.score_table(keyed, errors="column")
    assert scored.column("key").equals(recast.column("variant"))
    assert arrow.paths(keyed) == arrow.paths(table.drop_columns(["variant"]))


def test_dictionaries_as_parquet_gives_them(tmp_path: Path) -> None:
    path = tmp_path / "hands.parquet"
    pq.write_table(_keyed(GOOD * 3), path)
    read = pq.read_table(path, read_dictionary=["variant", "players.list.element.name",
                                                "players.list.element.captured"])  # fmt: skip
    assert pa.types.is_dictionary(read.schema.field("variant").type)
    assert arrow.paths(read) == ["column"] * 12
    assert [numbers(p) for p in arrow.score_table(read).column("players").to_pylist()] == [
        engine(r) for r in GOOD * 3
    ]


LISTS = ["list_", "large_list", "list_view", "large_list_view"]
"""Every kind of Arrow list, as pyarrow (16 and later) names its type's maker."""


def _as_lists(rows: list[dict[str, Any]], players: str, cards: str) -> pa.Table:
    """``rows`` with each player's cards as a list of codes, the players in a ``players``
    list and the cards in a ``cards`` list (``list_``, ``large_list``, a view…)."""
    card_list = getattr(pa, cards)(pa.string())
    member = pa.struct([("name", pa.string()), ("captured", card_list),
                        ("exposed", card_list)])  # fmt: skip
    values = [[{**p, "captured": p["captured"].split(),
                "exposed": p["exposed"].split() if "exposed" in p else None}
               for p in row["players"]] for row in rows]  # fmt: skip
    return pa.table({"players": pa.array(values, getattr(pa, players)(member))})


@pytest.mark.parametrize("cards", LISTS)
@pytest.mark.parametrize("players", LISTS)
def test_every_form_of_list_takes_the_column_path(players: str, cards: str) -> None:
    plain = _as_lists(GOOD + BAD[:1], "list_", "list_")
    table = _as_lists(GOOD + BAD[:1], players, cards)
    assert arrow.paths(plain) == ["column"] * 4 + ["row"]
    assert arrow.paths(table) == arrow.paths(plain)
    for part in (slice(0, None), slice(1, 4)):
        assert arrow.score_table(table[part], errors="column").equals(
            arrow.score_table(plain[part], errors="column")
        )


def test_a_list_view_out_of_order_with_a_null_reads_as_its_lists() -> None:
    # Views may point anywhere in their values, in any order, and a null's offset and size may be
    # anything: here each hand's players are taken from one of two copies, and the null points
    # past the values' end.
    rows = GOOD + BAD[:1]
    plain = _as_lists(rows, "list_", "list_").column("players").combine_chunks()
    starts = plain.offsets.to_numpy()[:-1] + [len(plain.values) * (k % 2) for k in range(5)]
    view = pa.ListViewArray.from_arrays(
        pa.array([*starts, 2 * len(plain.values)], pa.int32()), pa.array([4] * 5 + [3], pa.int32()),
        pa.concat_arrays([plain.values, plain.values]),
        mask=pa.array([False] * 5 + [True]))  # fmt: skip
    expected = pa.table({"players": pa.concat_arrays([plain, pa.nulls(1, plain.type)])})
    for part in (slice(0, None), slice(1, 6), slice(2, 4)):
        table = pa.table({"players": view})[part]
        assert arrow.paths(table) == arrow.paths(expected[part])
        assert arrow.score_table(table, errors="column").equals(
            arrow.score_table(expected[part], errors="column")
        )


# --- under random house rules: keys, bad rows, every text form ---------------------------------


def _as_data(hand: RandomHand, lists: bool) -> dict[str, Any]:
    """A hand as a JSON Lines line holds it (captured as a string of codes, or a list)."""
    players: list[dict[str, Any]] = []
    for n in hand.names:
        codes = [c.code for c in hand.captured[n]]
        player: dict[str, Any] = {"name": n, "captured": codes if lists else " ".join(codes)}
        if hand.exposed.get(n):
            player["exposed"] = " ".join(c.code for c in hand.exposed[n])
        if hand.first_exposed.get(n):
            player["first_exposed"] = " ".join(c.code for c in hand.first_exposed[n])
        players.append(player)
    return {"players": players}


@st.composite
def _spoilt(draw: st.DrawFn, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with one of the mistakes recorded hands have (it may still be a valid hand)."""
    players = [dict(p) for p in row["players"]]
    seat = draw(st.integers(0, 3))
    p = players[seat]
    cards = p["captured"] if isinstance(p["captured"], list) else p["captured"].split()
    how = draw(st.sampled_from(["token", "twice", "missing", "names", "expose", "three", "empty",
                                "null", "spelling"]))  # fmt: skip
    if how == "token":
        cards = [*cards, draw(st.sampled_from(["XX", "红A", "QX", "11H", "Q"]))]
    elif how == "twice" and cards:
        cards = [*cards, draw(st.sampled_from(cards))]
    elif how == "missing":
        for q in players:
            q["captured"] = [c for c in (q["captured"] if isinstance(q["captured"], list)
                                         else q["captured"].split()) if c != "QS"]  # fmt: skip
        cards = [c for c in cards if c != "QS"]
    elif how == "names":
        p["name"] = players[(seat + 1) % 4]["name"]
    elif how == "expose":
        p["exposed"] = draw(st.sampled_from(["2H", "QS QS QS", "KS", "AH AH AH"]))
    elif how == "three":
        del players[seat]
        return {"players": players}
    elif how == "empty":
        p["name"] = draw(st.sampled_from(["", " "]))
    elif how == "null":
        players[seat] = None  # type: ignore[call-overload]
        return {"players": players}
    elif how == "spelling":  # (valid, but read by the row engine)
        cards = ["猪" if c == "QS" else c for c in cards]
    p["captured"] = cards if isinstance(p["captured"], list) else " ".join(cards)
    return {"players": players}


def _table(rows: list[dict[str, Any]], keys: list[int], where: int, text: str) -> pa.Table:
    """The hands as a table with key columns around them (``where``: the place of the first
    key), its text in the form ``text``."""
    # (captured is a string in some rows and a list in others: one column holds one type)
    same = [{**r, "players": [None if q is None else {**q, "captured": q["captured"] if
                                                      isinstance(q["captured"], str) else
                                                      " ".join(q["captured"])}
                              for q in r["players"]]} for r in rows]  # fmt: skip
    hands = table_of(same)
    if text != "string":
        hands = _recast(hands, {"large_string": pa.large_string(), "string_view":
                                pa.string_view(), "dictionary": "dictionary"}[text])  # fmt: skip
    table = hands.add_column(min(where, hands.num_columns), "hand_id", pa.array(keys, pa.int64()))
    return table.append_column("room", pa.array([f"房间{k % 7}" for k in keys]).dictionary_encode())


@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(rule_sets(), st.data())
def test_score_table_with_keys_and_bad_rows_gives_the_row_engine_and_batch(
    rules: Variant, data: st.DataObject
) -> None:
    n = data.draw(st.integers(1, 8))
    rows = []
    for _ in range(n):
        row = _as_data(data.draw(hands_for(rules)), data.draw(st.booleans()))
        rows.append(data.draw(_spoilt(row)) if data.draw(st.integers(0, 2)) == 0 else row)
    options = {
        "normalize": data.draw(st.sampled_from([None, "none", "zero-sum", "jj"])),
        "scale": data.draw(st.integers(1, 12)),
        "rounding": data.draw(st.sampled_from(["nearest", "exact"])),
        "teams": data.draw(st.sampled_from([None, "none", "partners", "pig-sheep"])),
    }
    keys = data.draw(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=n, max_size=n))
    table = _table(rows, keys, data.draw(st.integers(0, 3)),
                   data.draw(st.sampled_from(["string", "large_string", "string_view",
                                              "dictionary"])))  # fmt: skip
    table = pa.Table.from_batches(table.to_batches(max_chunksize=data.draw(st.integers(1, 4))))
    first = data.draw(st.integers(0, 10**9))
    scored = arrow.score_table(table, rules, **options, source="t", first_row=first, errors="column",
                         threads=data.draw(st.sampled_from([1, 2])))  # fmt: skip
    assert scored.column("hand_id").to_pylist() == keys
    assert scored.column("room").equals(table.column("room"))
    assert scored.column("source").to_pylist() == [f"t:{first + i}" for i in range(n)]
    batch = Batch(ScoringOptions.parse(rules, options["normalize"], options["scale"],
                                       options["rounding"], options["teams"]))  # fmt: skip
    exact = options["rounding"] == "exact"
    first_bad = None
    for i, (row, players, said) in enumerate(zip(rows, scored.column("players").to_pylist(),
                                                 scored.column("error").to_pylist(),
                                                 strict=True)):  # fmt: skip
        try:
            # batch's own path for a line of JSON Lines, and the Scorer's numbers
            result = batch.score(InputRecord("t", i + 1, columns.plain(row)))
        except GongzhuError as e:
            assert players is None
            assert f"t:{i + 1}: {said}" == str(e)
            first_bad = first_bad or f"t:{first + i}: {said}"
            continue
        assert said is None, said
        want = Scorer(rules, **options).score_data(columns.plain(row))
        assert list(zip(want.names, want.raws, want.finals, strict=True)) == list(
            zip(result.names, result.raws, result.finals, strict=True))  # fmt: skip
        assert numbers(players) == [(name, raw, float(final) if exact else final)
                                    for name, raw, final in zip(want.names, want.raws,
                                                                want.finals, strict=True)]  # fmt: skip
    if first_bad is not None:  # errors="raise" (the default) stops at the first, naming it
        with pytest.raises(GongzhuError) as caught:
            arrow.score_table(table, rules, **options, source="t", first_row=first)
        assert str(caught.value) == first_bad


@settings(max_examples=15, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(rule_sets(), st.data())
def test_score_table_errors_column_is_batch_jsonl_keep_going_under_random_rules(
    rules: Variant, data: st.DataObject
) -> None:
    rows = []
    for _ in range(data.draw(st.integers(2, 6))):
        row = _as_data(data.draw(hands_for(rules)), False)
        rows.append(data.draw(_spoilt(row)) if data.draw(st.booleans()) else row)
    scale = data.draw(st.integers(1, 12))
    scored = arrow.score_table(_table(rows, list(range(len(rows))), 0, "string"), rules, scale=scale,
                         errors="column")  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        rules_file = Path(folder) / "house.yaml"
        rules_file.write_text(yaml_text(rules.to_data()), encoding="utf-8")
        lines = Path(folder) / "hands.jsonl"
        lines.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                         encoding="utf-8")  # fmt: skip
        r = run("batch", str(lines), "--rules", str(rules_file), "--scale", str(scale),
                "-f", "jsonl", "--keep-going")  # fmt: skip
    assert r.exit_code in (0, 1), r.stderr
    hands = {int(h["source"].rsplit(":", 1)[1]): h["players"]
             for h in map(json.loads, r.stdout.splitlines())}  # fmt: skip
    said = {int(line.split(": ", 1)[0].rsplit(":", 1)[1]): line.split(": ", 1)[1]
            for line in (x.strip() for x in r.stderr.splitlines())
            if line.startswith(str(lines))}  # fmt: skip
    batch = Batch(ScoringOptions(rules, scale=scale))
    for i, (players, error) in enumerate(zip(scored.column("players").to_pylist(),
                                             scored.column("error").to_pylist(),
                                             strict=True), 1):  # fmt: skip
        if error is None:
            assert players == hands[i]
            continue
        assert players is None
        with pytest.raises(GongzhuError) as caught:
            batch.score(InputRecord(str(lines), i, rows[i - 1]))
        assert str(caught.value) == f"{lines}:{i}: {error}"
        # the line batch prints: the same, with the command line's advice (which flag to give)
        assert error_line(caught.value) == f"{lines}:{i}: {said[i]}"
    assert len(hands) + len(said) == len(rows)


# --- 首明 and teams on the column path (issue 24) -----------------------------------------------


def _only(exposable: list[str]) -> Variant:
    """Classic, but only ``exposable`` may be exposed."""
    data = {**find_variant("classic").to_data(), "name": "few", "exposable": exposable}
    data.pop("aliases", None)
    return Variant.from_data(data)


WRONG_FIRSTS = [
    (a_row(ALL, "", first_exposed="2H"), "classic"),  # (no special card)
    (a_row(ALL, "", first_exposed="KS"), "classic"),
    (a_row(ALL, "", first_exposed="QS JD"), "classic"),  # two for one player
    (a_row(ALL, "", first_exposed=["QS", "JD"]), "classic"),
    (a_row(ALL, "", first_exposed="QS QS"), "classic"),
    (a_row(ALL, "", first_exposed="QS"), "jj"),  # a variant that forbids 首明
    (a_row(ALL, "", first_exposed="QS", exposed="QS"), "classic"),  # exposed and 首明
    (a_row(ALL, "", first_exposed="10C"), "few"),  # not exposable under these rules
    (a_row(ALL, "", first_exposed="10C", exposed="AH AH"), "classic"),
    (a_row(ALL, "", first_exposed=7), "classic"),
]


def _two_firsts_of_one_card() -> dict[str, Any]:
    row = a_row(ALL, "", first_exposed="AH")
    row["players"][1]["first_exposed"] = "AH"
    return row


def _exposed_by_one_first_by_another() -> dict[str, Any]:
    row = a_row(ALL, "", first_exposed="JD")
    row["players"][2]["exposed"] = "JD"
    return row


WRONG_FIRSTS += [(_two_firsts_of_one_card(), "classic"),
                 (_exposed_by_one_first_by_another(), "classic")]  # fmt: skip


def _rules(name: str) -> Variant:
    return _only(["QS", "JD", "AH"]) if name == "few" else find_variant(name)


@pytest.mark.parametrize(("row", "variant"), WRONG_FIRSTS)
def test_a_wrong_first_exposure_is_never_taken_by_a_quick_path(
    row: dict[str, Any], variant: str
) -> None:
    rules = _rules(variant)
    scorer = Scorer(rules)
    with pytest.raises(GongzhuError) as caught:
        scorer.score_data(columns.plain(row))
    said = caught.value.text("en")
    # the arrays leave it to the one-hand door, which says why
    from gongzhu_score.core import masks

    seats, _ = masks.read_objects([columns.plain(row)], masks.Names())
    norm = scorer.normalization
    assert not masks.score_seats(seats, rules, compiled_rules(rules), norm, False).ok.any()
    table = (
        table_of([GOOD[0], row, GOOD[1]])
        if not isinstance(row["players"][0].get("first_exposed"), list)
        else _listed([GOOD[0], row, GOOD[1]])
    )
    numbers_there = isinstance(row["players"][0]["first_exposed"], int)
    # (a column of numbers where cards belong: every row of it goes the row path)
    assert arrow.paths(table, rules) == (
        ["row"] * 3 if numbers_there else ["column", "row", "column"]
    )
    scored = arrow.score_table(table, rules, errors="column")
    assert scored.column("error").to_pylist() == [None, said, None]
    with pytest.raises(GongzhuError) as raised:
        arrow.score_table(table, rules)
    assert str(raised.value) == f"row:2: {said}"


def _listed(rows: list[dict[str, Any]]) -> pa.Table:
    """``rows`` with every first_exposed as a list of codes (one column holds one type)."""

    def listed(p: dict[str, Any]) -> dict[str, Any]:
        first = p.get("first_exposed")
        return {**p, "first_exposed": first.split() if isinstance(first, str) else first}

    return table_of([{**r, "players": [listed(p) for p in r["players"]]} for r in rows])


def _three_players_expose() -> dict[str, Any]:
    row = a_row(ALL, "", first_exposed="JD")
    row["players"][2]["exposed"] = "QS"
    row["players"][3]["first_exposed"] = "AH"
    return row


RIGHT_FIRSTS = [
    (a_row(ALL, "", first_exposed="QS"), "classic"),
    (a_row(ALL, "", first_exposed="AH", exposed="QS JD 10C"), "classic"),
    (a_row(HEARTS, "QS JD 10C", first_exposed="10C"), "dehong"),
    (a_row(HEARTS, "QS JD 10C", first_exposed="JD"), "few"),
    (_three_players_expose(), "classic"),
]


@pytest.mark.parametrize("teams", [None, "partners"])
@pytest.mark.parametrize(("row", "variant"), RIGHT_FIRSTS)
def test_a_first_exposure_takes_the_column_path_and_the_fast_path(
    row: dict[str, Any], variant: str, teams: str | None
) -> None:
    rules = _rules(variant)
    scorer = Scorer(rules, teams=teams or "none")
    careful = compiled_rules(rules).score(
        hand_or_record(columns.plain(row)).hand, scorer.normalization
    )
    fast = scorer.score_many([columns.plain(row)] * 1024)
    assert {type(p).__name__ for p in fast._parts} == {"Part"}
    assert fast[0] == careful and not fast._parts[0].careful
    for table in (table_of([row, GOOD[0]]), _listed([row, GOOD[0]])):
        assert arrow.paths(table, rules, teams=teams) == ["column", "column"]
        scored = arrow.score_table(table, rules, teams=teams)
        assert numbers(scored.column("players")[0].as_py()) == list(
            zip(careful.names, careful.raws, careful.finals, strict=True))  # fmt: skip


def test_pig_sheep_teams_with_an_exposure_are_the_row_engines_error() -> None:
    rows = [
        GOOD[1],
        a_row("QS JD 10C", HEARTS, exposed="AH"),
        a_row("QS JD 10C", HEARTS, first_exposed="QS"),
        a_row("QS", f"JD 10C {HEARTS}"),
    ]
    scored = arrow.score_table(table_of(rows), teams="pig-sheep", errors="column")
    assert arrow.paths(table_of(rows), teams="pig-sheep") == ["column", "row", "row", "column"]
    scorer = Scorer(teams="pig-sheep")
    for row, players, said in zip(rows, scored.column("players").to_pylist(),
                                  scored.column("error").to_pylist(), strict=True):  # fmt: skip
        try:
            result = scorer.score_data(columns.plain(row))
        except GongzhuError as e:
            assert players is None and said == e.text("en")
            continue
        assert said is None
        assert numbers(players) == list(zip(result.names, result.raws, result.finals,
                                            strict=True))  # fmt: skip


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(rule_sets(), st.data())
def test_first_exposures_teams_and_two_decks_on_both_paths_give_the_row_engine(
    rules: Variant, data: st.DataObject
) -> None:
    rows = [_as_data(data.draw(hands_for(rules)), data.draw(st.booleans()))
            for _ in range(data.draw(st.integers(1, 6)))]  # fmt: skip
    teams = data.draw(st.sampled_from([None, "partners", "pig-sheep"]))
    options = {
        "normalize": data.draw(st.sampled_from([None, "zero-sum", "jj"])),
        "scale": data.draw(st.integers(1, 12)),
        "rounding": data.draw(st.sampled_from(["nearest", "exact"])),
    }
    table = _table(rows, list(range(len(rows))), 0, "string")
    scored = arrow.score_table(table, rules, **options, teams=teams, errors="column")
    taken = arrow.paths(table, rules, options["normalize"], teams=teams)
    # batch's own path for a line (the options it cannot join are each line's error)
    batch = Batch(ScoringOptions.parse(rules, options["normalize"], options["scale"],
                                       options["rounding"], teams))  # fmt: skip
    exact = options["rounding"] == "exact"
    for i, (row, players, said, path) in enumerate(zip(
            rows, scored.column("players").to_pylist(), scored.column("error").to_pylist(),
            taken, strict=True)):  # fmt: skip
        try:
            want = batch.score(InputRecord("t", i + 1, columns.plain(row)))
        except GongzhuError as e:
            assert players is None and f"t:{i + 1}: {said}" == str(e)
            assert path == "row"  # (the column path never takes a hand the engine refuses)
            continue
        assert said is None, said
        assert numbers(players) == [(n, r, float(f) if exact else f)
                                    for n, r, f in zip(want.names, want.raws, want.finals,
                                                       strict=True)]  # fmt: skip
        # every valid hand of canonical codes, 首明, teams and two decks too, by columns
        assert path == "column"


@pytest.mark.parametrize("rows", [
    [a_row(), {**a_row("QS", f"JD 10C {HEARTS}"), "variant": "jj", "teams": None}],
    [{"players": [None, None, None]}, {"players": None}],
    [{"players": [{}, {}, None]}],
    [{"players": [{"name": None, "captured": ["QS", None]}, None], "variant": None}],
    [{"players": [{"name": "东", "captured": "QS", "meta": {"a": None}}]}],
])  # fmt: skip
def test_the_row_path_reads_each_row_as_json_lines_would_give_it(rows: list[Any]) -> None:
    from gongzhu_score.batch import columns  # (its private names)

    batch = pa.RecordBatch.from_pylist(rows)
    for part in (batch, batch.slice(1), batch.take(pa.array([0] * 3))):
        assert columns._plain_rows(part) == [columns.plain(r) for r in part.to_pylist()]


def _two(first: str, second: str, third: str = "", **more: object) -> dict[str, Any]:
    row = a_row(first, second, **more)
    row["players"][2]["captured"] = third
    return {**row, "variant": "two-deck"}


TWICE = f"{ALL} {ALL}"


@pytest.mark.parametrize(("row", "path"), [
    (_two(TWICE, "2S 2S"), "column"),  # every scoring card twice, to one player
    (_two(ALL, f"{ALL} 2S", "2S"), "column"),  # a card's copies in two hands
    (_two(TWICE, "", exposed="QS QS"), "column"),  # both pigs exposed, by one player
    (_two(f"{TWICE} QS", ""), "row"),  # a card three times in one list
    (_two(TWICE, "2S 2S", "2S"), "row"),  # three times across the lists
    (_two(f"{ALL} {HEARTS}", "JD 10C"), "row"),  # a pig missing
    (_two(TWICE, "", exposed="QS QS QS"), "row"),  # three pigs exposed
    (_two(TWICE, " ".join(["2S"] * 200)), "row"),  # more cards than two decks hold
])  # fmt: skip
def test_two_decks_by_columns_each_copy_counted(row: dict[str, Any], path: str) -> None:
    """Two decks (issue 37): each card's second copies read by columns, and a hand the engine
    refuses left to the row path, which says why."""
    assert arrow.paths(table_of([row, row])) == [path, path]
    scored = arrow.score_table(table_of([row]), errors="column")
    try:
        want = engine(row)
    except GongzhuError as e:
        assert scored.column("error").to_pylist() == [e.text("en")]
        assert path == "row"
        return
    assert numbers(scored.column("players")[0].as_py()) == want


def test_two_decks_a_null_name_is_refused_beside_a_valid_hand() -> None:
    """A null name in a two-deck group holding valid hands: that row refused, no crash."""
    valid = _two(TWICE, "")
    nameless = _two(TWICE, "")
    nameless["players"][0]["name"] = None
    table = table_of([valid, nameless])
    assert arrow.paths(table) == ["column", "row"]
    scored = arrow.score_table(table, errors="column")
    assert numbers(scored.column("players")[0].as_py()) == engine(valid)
    assert scored.column("error").to_pylist() == [None, "players[1]: missing 'name'"]


def test_two_decks_numbers_too_large_for_columns_go_the_row_path(tmp_path: Path) -> None:
    rules = big_rules(tmp_path, "two-deck")
    small = _two(f"QS QS {HEARTS} {HEARTS}", "JD JD 10C", "10C")
    big = _two(TWICE.replace(" AH", ""), "AH AH", exposed="QS")  # a raw of −8 × 10¹⁸
    table = table_of([small, big, small])
    assert arrow.paths(table, rules) == ["column", "row", "column"]
    scorer = Scorer(rules)
    want = [list(zip(r.names, r.raws, r.finals, strict=True))
            for r in (scorer.score_data(row) for row in (small, big, small))]  # fmt: skip
    assert want[1][0][1] == -8_000_000_000_000_000_400
    assert [numbers(p) for p in arrow.score_table(table, rules).column("players").to_pylist()
            ] == want  # fmt: skip
