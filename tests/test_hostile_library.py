"""Hostile input to the library and to the Arrow/Parquet column path (issue 20, causes 8 and 9).

The library's public functions raise the project's own errors, naming the argument, whatever
Python value they are given (an :class:`ArgumentError` is a ``TypeError`` too); ``score_table``
refuses every hand the row engine refuses, with the same message, and its Parquet readers
and writers name the input (file, row group, row) or the output, never a temporary folder.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from clitools import done, refused, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from optional import arrow, columns, pa, pq

import gongzhu_score
from gongzhu_score import (
    GongzhuError,
    Hand,
    Normalization,
    Scorer,
    Suit,
    find_variant,
    load_rules,
    normalize,
    parse_card,
    parse_cards,
    score,
    score_hand,
    validate_hand,
)
from gongzhu_score.batch.reading import InputRecord
from gongzhu_score.batch.runner import Batch
from gongzhu_score.core.cards import Card
from gongzhu_score.errors import ArgumentError, CardError

HEARTS = " ".join(f"{r}H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                    "K", "A"))  # fmt: skip
ALL = f"QS JD 10C {HEARTS}"
HAND = {"东": ALL, "南": "", "西": "", "北": ""}


def a_row(first: str = ALL, **more: object) -> dict[str, Any]:
    players = [{"name": "东", "captured": first, **more}, {"name": "南", "captured": ""},
               {"name": "西", "captured": ""}, {"name": "北", "captured": ""}]  # fmt: skip
    return {"players": players}


def table_of(rows: list[dict[str, Any]]) -> pa.Table:
    """Rows as a table, every key of every row a column (not only the first row's)."""
    return pa.Table.from_struct_array(pa.array(rows))


def row_error(data: object) -> str:
    """What the row engine (batch's JSON Lines path) says of a hand."""
    with pytest.raises(GongzhuError) as caught:
        Scorer().score_data(columns.plain(data))
    return str(caught.value)


# --- cause 9: the library's own errors, naming the argument ----------------------------------


@pytest.mark.parametrize(("call", "kind", "says"), [
    (lambda: score_hand({**HAND, "北": 10}), CardError, "player 北: captured: 10 is a number"),
    (lambda: score_hand({**HAND, "北": 2.5}), ArgumentError, "player 北: captured: expected cards"),
    (lambda: score_hand(HAND, exposed={"东": 5}), CardError, "player 东: exposed: 5 is a number"),
    (lambda: score_hand(HAND, exposed={"东": object()}), ArgumentError, "player 东: exposed: "),
    (lambda: score_hand(HAND, exposed=["东"]), ArgumentError, "exposed: expected a mapping"),
    (lambda: score_hand(HAND, first_exposed="东"), ArgumentError, "first_exposed: expected"),
    (lambda: score_hand(None), ArgumentError, "captured: expected a mapping of each player"),
    (lambda: score_hand("QS JD"), ArgumentError, "captured: expected a mapping"),
    (lambda: score_hand(b"QS"), ArgumentError, "captured: b'QS' is bytes, not text"),
    (lambda: score_hand([("东", "QS"), ("南",)]), ArgumentError, "captured: expected a (name, "),
    (lambda: score_hand([1, 2, 3, 4]), ArgumentError, "captured: expected a (name, cards) pair"),
    (lambda: score_hand({1: ALL, "南": "", "西": "", "北": ""}), ArgumentError,
     "captured: a player name is text, not 1"),
    (lambda: score_hand({**HAND, "北": b"QS"}), ArgumentError, "player 北: captured: b'QS' is"),
    (lambda: score_hand({"东": "QS JD 10C", "南": "", "西": ""}, rest=3), ArgumentError,
     "rest: a player name is text, not 3"),
    (lambda: score_hand(HAND, partial="yes"), ArgumentError, "partial: expected True or False"),
    (lambda: score_hand(HAND, rounding="x"), GongzhuError, "unknown rounding 'x'"),
    (lambda: score_hand(HAND, teams=["x"]), GongzhuError, "unknown teams ['x']"),
    (lambda: parse_card(None), ArgumentError, "expected text naming one card, such as 'QS'"),
    (lambda: parse_card(12), ArgumentError, "not 12"),
    (lambda: parse_cards(2.5), ArgumentError, "expected cards (text such as 'QS 6H'"),
    (lambda: parse_cards(b"QS"), ArgumentError, "b'QS' is bytes, not text; decode it"),
    (lambda: parse_cards({"QS": 1}), ArgumentError, "expected cards"),
    (lambda: parse_cards("QS", 3), ArgumentError, "decks: expected 1 or 2"),
    (lambda: parse_cards(7), CardError, "7 is a number, not a card"),
    (lambda: Card(12, "S"), ArgumentError, "suit: expected a Suit"),  # type: ignore[arg-type]
    (lambda: Card("Q", Suit.SPADES), CardError, "a card's rank is 2 to 14"),  # type: ignore[arg-type]
    (lambda: score(None), ArgumentError, "hand: expected a Hand"),  # type: ignore[arg-type]
    (lambda: score(Hand.from_captured(HAND), normalization="zero-sum"), ArgumentError,
     "normalization: expected a Normalization"),
    (lambda: Scorer(partial=1), ArgumentError, "partial: expected True or False"),
    (lambda: Scorer().score_many(None), ArgumentError, "hands: expected an iterable of hands"),
    (lambda: Scorer().score_many(a_row()), ArgumentError, "one hand: score_data"),
    (lambda: Scorer().score_data("QS"), GongzhuError, "a hand file holds a mapping"),
    (lambda: Hand.from_captured(HAND, decks="2"), ArgumentError, "decks: expected 1 or 2"),
    (lambda: Hand.from_captured(HAND).with_rest(None), ArgumentError, "rest: a player name"),
    (lambda: validate_hand(None, find_variant("classic")), ArgumentError, "hand: expected a Hand"),
    (lambda: validate_hand(Hand.from_captured(HAND), "classic"), ArgumentError,
     "variant: expected a Variant"),
    (lambda: normalize(None, Normalization()), ArgumentError, "raws: expected four whole numbers"),
    (lambda: normalize((1, 2, 3), Normalization()), ArgumentError, "raws: expected four whole"),
    (lambda: normalize((1, 2, 3, "4"), Normalization()), ArgumentError, "raws: "),
    (lambda: normalize((1, 2, 3, 4), None), ArgumentError, "norm: expected a Normalization"),
    (lambda: normalize((1, 2, 3, 4), Normalization(), (0, 1, 2, 1)), ArgumentError,
     "sides: expected each seat's side, 0 or 1"),
    (lambda: load_rules(3), ArgumentError, "path: expected a file's path, not 3"),
    (lambda: find_variant(None), GongzhuError, "a variant is named by text"),
    (lambda: arrow.score_table(None), ArgumentError, "table: expected a pyarrow Table or RecordBatch"),
    (lambda: arrow.score_table({"players": []}), ArgumentError, "table: expected a pyarrow Table"),
    (lambda: arrow.paths([1]), ArgumentError, "table: expected a pyarrow Table"),
])  # fmt: skip
def test_a_wrong_argument_is_the_projects_error_naming_it(call: Any, kind: type, says: str) -> None:
    with pytest.raises(GongzhuError) as caught:
        call()
    assert isinstance(caught.value, kind), type(caught.value)
    assert says in str(caught.value)
    assert caught.value.text("zh") != str(caught.value)  # said in Chinese too
    if kind is ArgumentError:
        assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)


def test_the_argument_error_is_public() -> None:
    assert gongzhu_score.ArgumentError is ArgumentError
    assert "ArgumentError" in gongzhu_score.__all__


def test_a_path_object_is_a_path(tmp_path: Path) -> None:
    rules = tmp_path / "house.yaml"
    rules.write_text("name: house\nextends: classic\npig: -200\n")
    assert load_rules(rules).pig == load_rules(str(rules)).pig == -200  # type: ignore[arg-type]


_junk = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False)
    | st.sampled_from(["QS", "10C", "全红", "东", "", " ", "红桃A K", "H:", "QX", "猪圈"])
    | st.binary(max_size=4),
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(st.sampled_from(["东", "南", "西", "北", "QS"]) | st.integers(0, 3),
                      inner, max_size=4),
    max_leaves=12,
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(captured=_junk, exposed=_junk, rest=_junk, partial=_junk)
def test_fuzz_score_hand_raises_only_its_own_errors(captured: object, exposed: object,
                                                     rest: object, partial: object) -> None:  # fmt: skip
    for call in (
        lambda: score_hand(captured),  # type: ignore[arg-type]
        lambda: score_hand(captured, exposed=exposed, rest=rest),  # type: ignore[arg-type]
        lambda: score_hand(captured, first_exposed=exposed, partial=partial),  # type: ignore[arg-type]
        lambda: parse_cards(captured),  # type: ignore[arg-type]
        lambda: parse_card(captured),  # type: ignore[arg-type]
        lambda: list(Scorer().score_many([captured])),
    ):
        with contextlib.suppress(GongzhuError):
            call()


# --- cause 8: the column path refuses what the row path refuses --------------------------------


def test_a_captured_string_of_many_tokens_says_what_the_row_engine_says() -> None:
    for count in (255, 256, 257, 300, 600):
        row = a_row(ALL + " 2S" * (count - 16))
        with pytest.raises(GongzhuError) as caught:
            arrow.score_table(table_of([a_row(), row, a_row()]), source="t")
        assert str(caught.value) == f"t:2: {row_error(row)}"


def test_a_long_row_among_others_is_reported_and_the_others_scored(tmp_path: Path) -> None:
    long = a_row(ALL + " 2S" * 250)
    rows = [a_row(), long, a_row("QS JD 10C 2H", exposed="QS"), a_row()]
    rows[2]["players"][1]["captured"] = HEARTS.replace("2H ", "")
    source = tmp_path / "hands.parquet"
    pq.write_table(table_of(rows), source)
    out = tmp_path / "out.parquet"
    r = run("batch", str(source), "-f", "parquet", "-o", str(out), "--keep-going")
    assert r.exit_code == 1
    assert f"{source}:2: {row_error(long)}" in r.stderr
    scored = pq.read_table(out).to_pylist()
    assert [s["source"] for s in scored] == [f"{source}:{i}" for i in (1, 3, 4)]
    for got, row in zip(scored, [rows[0], rows[2], rows[3]], strict=True):
        assert [p["raw"] for p in got["players"]] == list(Scorer().score_data(row).raws)


def _null_players(data_behind: bool) -> pa.Table:
    names = pa.array(["东", "南", "西", "北"])
    captured = pa.array([ALL, "", "", ""])
    players = pa.StructArray.from_arrays([names, captured], names=["name", "captured"],
                                         mask=pa.array([False, False, False, data_behind]))  # fmt: skip
    return pa.table({"players": pa.ListArray.from_arrays(pa.array([0, 4], pa.int32()), players)})


def test_a_null_player_with_data_behind_it_is_refused_as_the_row_engine_refuses_it() -> None:
    table = _null_players(True)
    assert table.to_pylist()[0]["players"][3] is None
    assert arrow.paths(table) == ["row"]
    with pytest.raises(GongzhuError) as caught:
        arrow.score_table(table, source="t")
    assert str(caught.value) == f"t:1: {row_error(table.to_pylist()[0])}"
    assert "players[4]" in str(caught.value)
    # and without the null, the same data scores by columns
    assert arrow.paths(_null_players(False)) == ["column"]


def _duplicate_column() -> pa.Table:
    players = table_of([a_row()]).column("players")
    return pa.Table.from_arrays([players, players], names=["players", "players"])


def _duplicate_field() -> pa.Table:
    fields = pa.StructArray.from_arrays(
        [pa.array(["东", "南", "西", "北"]), pa.array([ALL, "", "", ""]), pa.array(["", "", "", ""])],
        names=["name", "captured", "captured"])  # fmt: skip
    return pa.table({"players": pa.ListArray.from_arrays(pa.array([0, 4], pa.int32()), fields)})


@pytest.mark.parametrize(
    ("table", "named"), [(_duplicate_column, "players"), (_duplicate_field, "players.captured")]
)
def test_a_column_or_a_field_named_twice_is_refused_in_both_paths(
    tmp_path: Path, table: Any, named: str
) -> None:
    message = (
        f"{named} is given 2 times; every column, and every field of one, needs a name of its own"
    )
    with pytest.raises(GongzhuError, match="^" + message.replace(".", r"\.") + "$"):
        arrow.score_table(table())
    with pytest.raises(GongzhuError, match=f"^t: {named}"):
        arrow.score_table(table(), source="t")
    source = tmp_path / "twice.parquet"
    pq.write_table(table(), source)
    out = tmp_path / "out.parquet"
    assert refused("batch", str(source), "-f", "parquet", "-o", str(out)) == f"{source}: {message}"
    assert refused("batch", str(source), "-f", "jsonl") == f"{source}: {message}"
    assert not out.exists()


def _corrupt(tmp_path: Path) -> Path:
    """A Parquet file of three row groups whose second one's first page header is broken."""
    path = tmp_path / "hands.parquet"
    pq.write_table(table_of([a_row()] * 30), path, row_group_size=10,
                   compression="none", use_dictionary=False)  # fmt: skip
    chunk = pq.ParquetFile(path).metadata.row_group(1).column(0)
    data = bytearray(path.read_bytes())
    data[chunk.data_page_offset : chunk.data_page_offset + 24] = b"\xff" * 24
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("fmt", ["parquet", "jsonl", "csv"])
def test_a_corrupt_page_is_named_as_the_input_not_as_the_output(tmp_path: Path, fmt: str) -> None:
    source = _corrupt(tmp_path)
    out = tmp_path / f"out.{fmt}"
    message = refused("batch", str(source), "-f", fmt, "-o", str(out))
    assert message.startswith(f"{source}: row group 2 (rows 11 to 20) cannot be read: "), message
    assert "cannot write" not in message
    assert not out.exists()


BIG_RULES = """\
name: big
extends: classic
pig: -1000000000
exposure_levels: [1, 1000000000]
transformer_multiplier: 1000000000
"""


def test_scores_beyond_int64_are_a_clear_error_per_row(tmp_path: Path) -> None:
    rules_file = tmp_path / "big.yaml"
    rules_file.write_text(BIG_RULES)
    rules = load_rules(str(rules_file))
    big = a_row("QS JD 10C " + HEARTS.replace(" AH", ""), exposed="QS")
    big["players"][1]["captured"] = "AH"
    rows = [a_row(), big, a_row()]
    raw = Scorer(rules).score_data(big).raws[0]
    assert raw < -(2**63)  # (the rules, each value within its range, give it)
    with pytest.raises(GongzhuError) as caught:
        arrow.score_table(table_of(rows), rules, source="t")
    assert str(caught.value).startswith(f"t:2: a score of {raw:,} does not fit the 64-bit")
    source = tmp_path / "hands.parquet"
    pq.write_table(table_of(rows), source)
    lines = tmp_path / "hands.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.parquet"
    for hands in (source, lines):
        message = refused("batch", str(hands), "--rules", str(rules_file), "-f", "parquet",
                          "-o", str(out))  # fmt: skip
        assert message.startswith(f"{hands}:2: a score of {raw:,} does not fit"), message
        assert not out.exists()
    r = run("batch", str(source), "--rules", str(rules_file), "-f", "parquet", "-o", str(out),
            "--keep-going")  # fmt: skip
    assert r.exit_code == 1 and f"{source}:2: a score of" in r.stderr
    assert pq.read_table(out).column("source").to_pylist() == [f"{source}:1", f"{source}:3"]
    # JSON holds any number: the same hand is scored there
    written, _ = done("batch", str(source), "--rules", str(rules_file), "-f", "jsonl")
    assert json.loads(written.splitlines()[1])["players"][0]["raw"] == raw


def _as_views(table: pa.Table) -> pa.Table:
    def view(kind: pa.DataType) -> pa.DataType:
        if kind == pa.string():
            return pa.string_view()
        if pa.types.is_struct(kind):
            return pa.struct([kind.field(k).with_type(view(kind.field(k).type))
                              for k in range(kind.num_fields)])  # fmt: skip
        if pa.types.is_list(kind):
            return pa.list_(view(kind.value_type))
        return kind

    # Built from the values: pyarrow 16 (the lowest supported) makes views but casts to none.
    return pa.table(
        {
            n: pa.array(table.column(n).to_pylist(), type=view(table.column(n).type))
            for n in table.column_names
        }
    )


def test_string_view_columns_as_polars_gives_them() -> None:
    rows = [a_row(), {**a_row("QS JD 10C " + HEARTS, exposed="QS"), "variant": "jj"},
            {**a_row("猪 羊 变压器 全红"), "variant": None}]  # fmt: skip
    table = table_of(rows)
    views = _as_views(table)
    assert views.schema.field("variant").type == pa.string_view()
    assert arrow.paths(views) == arrow.paths(table) == ["column", "column", "row"]
    assert arrow.score_table(views).to_pylist() == arrow.score_table(table).to_pylist()
    bad = _as_views(table_of([a_row("QS QS")]))
    with pytest.raises(GongzhuError, match=r"^row:1: player 东: QS"):
        arrow.score_table(bad)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("rounding", "x", "unknown rounding 'x'"),
    ("normalize", "x", "unknown normalization 'x'"),
    ("teams", "x", "unknown teams 'x'"),
    ("scale", 0, "scale must be a whole number"),
    ("partial", "no", "partial: expected True or False"),
    ("source", 3, "source: expected text"),
    ("rules", "nonsense", "unknown variant 'nonsense'"),
])  # fmt: skip
def test_score_tables_options_are_checked_naming_them(
    option: str, value: object, says: str
) -> None:
    with pytest.raises(GongzhuError) as caught:
        arrow.score_table(table_of([a_row()]), **{option: value})
    assert says in str(caught.value)
    assert not str(caught.value).startswith("row:")  # (an option's error, not a row's)


def test_a_folder_that_refuses_the_output_names_the_output(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    # (the tests run as root, whom a read-only folder does not stop: the refusal is the system's)
    source = tmp_path / "hands.parquet"
    pq.write_table(table_of([a_row()]), source)

    def refuse(*args: object, prefix: str = "", suffix: str = "", dir: str = "") -> str:
        raise PermissionError(13, "Permission denied", f"{dir}/{prefix}x1y2{suffix}")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    for out in (tmp_path / "ro" / "out.parquet", tmp_path / "ro" / "dataset"):
        out.parent.mkdir(exist_ok=True)
        message = refused("batch", str(source), "-f", "parquet", "-o", str(out))
        assert message == f"{out}: cannot write: Permission denied; nothing was changed"


_token = st.sampled_from(["QS", "JD", "10C", "AH", "2H", "KH", "3S", "QS", "10", "qs", "猪", "",
                          "XX", "Q♠", "红桃A"])  # fmt: skip
_player = st.fixed_dictionaries(
    {"name": st.sampled_from(["东", "南", "西", "北", " 东", ""]),
     "captured": st.lists(_token, max_size=6).map(" ".join) | st.none()},
    optional={"exposed": st.sampled_from(["QS", "AH", "QS QS", "2H", ""])},
)  # fmt: skip
_row = st.fixed_dictionaries(
    {"players": st.lists(_player | st.none(), min_size=3, max_size=5)},
    optional={"variant": st.sampled_from(["classic", "jj", "nonsense"])},
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(row=_row, everything=st.booleans())
def test_contract_score_table_scores_or_refuses_each_row_as_the_row_engine_does(
    row: dict[str, Any], everything: bool
) -> None:
    players = row["players"]
    if everything and players and players[0] is not None:  # every scoring card, somewhere
        players[0] = {**players[0], "captured": " ".join(filter(None, [players[0]["captured"],
                                                                      ALL]))}  # fmt: skip
    table = table_of([row])
    record = InputRecord("t", 1, columns.plain(table.to_pylist()[0]))  # as batch reads a JSON line
    try:
        expected = Batch().score(record)
    except GongzhuError as e:
        with pytest.raises(GongzhuError) as caught:
            arrow.score_table(table, source="t")
        assert str(caught.value) == str(e)
        return
    got = arrow.score_table(table).to_pylist()[0]["players"]
    assert [(p["name"], p["raw"], p["final"]) for p in got] == list(
        zip(expected.names, expected.raws, expected.finals, strict=True)
    )
