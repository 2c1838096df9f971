"""Arrow and Parquet (issue 15): ``score_table`` gives the numbers of the row engine and of
``batch --format jsonl`` on random hands of every variant (exposures, 首明, full red, grand
slam, two decks, teams, other spellings), and the test says which hands the column path takes;
Parquet in and out of ``batch``; bad rows named by file and row."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from clitools import done, refused, run
from hypothesis import strategies as st
from optional import arrow, np, pa, pq

from gongzhu_score import DECK, SCORING_CARDS, GongzhuError, Scorer, parse_cards
from gongzhu_score.io.variants import VARIANTS, find_variant

NAMES = ("东", "南", "西", "北")
HEARTS = [c for c in DECK if c.code.endswith("H")]
SPECIAL = ("QS", "JD", "10C", "AH")
CHINESE = {"QS": "猪", "JD": "羊", "10C": "变压器", "AH": "红桃A"}


def random_row(rng: random.Random, variant: str) -> dict:  # type: ignore[type-arg]
    """One random hand as a JSON Lines line holds it; what makes it take the row path is
    chosen at random too (and recorded in ``why``)."""
    v = find_variant(variant)
    decks = v.decks
    pool = [c for c in DECK for _ in range(decks)]
    captured: dict[str, list[str]] = {n: [] for n in NAMES}
    shape = rng.random()
    if shape < 0.05:  # full red: every heart to one player
        lucky = rng.choice(NAMES)
        for card in pool:
            if card in HEARTS:
                captured[lucky].append(card.code)
            elif card in SCORING_CARDS or rng.random() < 0.3:
                captured[rng.choice(NAMES)].append(card.code)
    elif shape < 0.10:  # grand slam: every scoring card to one player
        lucky = rng.choice(NAMES)
        for card in pool:
            if card in SCORING_CARDS:
                captured[lucky].append(card.code)
            elif rng.random() < 0.3:
                captured[rng.choice(NAMES)].append(card.code)
    else:
        for card in pool:
            if card in SCORING_CARDS or rng.random() < 0.4:
                captured[rng.choice(NAMES)].append(card.code)
    exposed: dict[str, list[str]] = {}
    first: dict[str, list[str]] = {}
    exposable = [c.code for c in v.exposable]
    for code in exposable:
        for _ in range(decks):
            if rng.random() < 0.25:
                who = rng.choice(NAMES)
                if v.first_exposure_allowed and rng.random() < 0.1 and who not in first:
                    first[who] = [code]
                else:
                    exposed.setdefault(who, []).append(code)
    why = ""
    players = []
    for name in NAMES:
        cards = captured[name]
        rng.shuffle(cards)
        if rng.random() < 0.02 and cards:
            cards = [CHINESE.get(c, c) for c in cards]
            if any(c in CHINESE.values() for c in cards):
                why = why or "other spellings"
        value: object = cards if rng.random() < 0.3 else " ".join(cards)
        player = {"name": name, "captured": value}
        if name in exposed:
            player["exposed"] = " ".join(exposed[name])
        if name in first:
            player["first_exposed"] = first[name][0]
        players.append(player)
    if decks > 1:
        why = why or "two decks"
    if first:
        why = why or "首明"
    row: dict[str, object] = {"players": players, "variant": variant}
    if rng.random() < 0.05:
        row["teams"] = "partners"
        why = why or "teams"
    return {"row": row, "why": why or "column"}


COLUMN_PATH = ("column", "two decks", "首明", "teams")
"""What the column path takes (issue 24: 首明 and teams too; issue 37: two decks); other
spellings go the row path."""


def rows_for(n: int, seed: int, variants: list[str] | None = None) -> list[dict]:  # type: ignore[type-arg]
    rng = random.Random(seed)
    names = variants or sorted(VARIANTS)
    return [random_row(rng, rng.choice(names)) for _ in range(n)]


def as_table(rows: list[dict]):  # type: ignore[no-untyped-def,type-arg]
    # (captured is a string in some rows and a list in others: one Arrow column holds one type,
    # so a table is made per type and both kinds meet in the batches of one table)
    strings = [_strings(r["row"]) for r in rows]
    return pa.Table.from_struct_array(pa.array(strings))


def _strings(row: dict) -> dict:  # type: ignore[type-arg]
    players = [{**p, "captured": p["captured"] if isinstance(p["captured"], str)
                else " ".join(p["captured"])} for p in row["players"]]  # fmt: skip
    return {**row, "players": players}


def row_engine(rows: list[dict]) -> list[list[tuple[str, int, object]]]:  # type: ignore[type-arg]
    out = []
    scorers: dict[tuple[str, str], Scorer] = {}
    for r in rows:
        row = r["row"]
        key = (row["variant"], row.get("teams", "none"))
        scorer = scorers.setdefault(key, Scorer(key[0], teams=key[1]))
        result = scorer.score_data(row)
        out.append(list(zip(result.names, result.raws, result.finals, strict=True)))
    return out


def from_table(table) -> list[list[tuple[str, int, object]]]:  # type: ignore[no-untyped-def]
    return [[(p["name"], p["raw"], p["final"]) for p in r["players"]] for r in table.to_pylist()]


def test_score_table_equals_the_row_engine_and_batch_jsonl(tmp_path: Path) -> None:
    rows = rows_for(3000, 15)
    table = as_table(rows)
    expected = row_engine(rows)
    scored = arrow.score_table(table, source="hands")
    assert from_table(scored) == expected
    assert scored.column("source").to_pylist()[:2] == ["hands:1", "hands:2"]
    # batch --format jsonl on the same hands as JSON Lines (captured as lists where they were)
    jsonl = tmp_path / "hands.jsonl"
    jsonl.write_text("".join(json.dumps(r["row"], ensure_ascii=False) + "\n" for r in rows),
                     encoding="utf-8")  # fmt: skip
    out, _ = done("batch", str(jsonl), "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [[(p["name"], p["raw"], p["final"]) for p in h["players"]] for h in lines] == expected


def test_the_column_path_takes_plain_hands_and_the_row_path_the_rest() -> None:
    rows = rows_for(3000, 16)
    taken = arrow.paths(as_table(rows))
    whys = [r["why"] for r in rows]
    for why, path in zip(whys, taken, strict=True):
        assert path == ("column" if why in COLUMN_PATH else "row"), why
    # every kind occurs
    assert {"column", "two decks", "首明", "teams", "other spellings"} <= set(whys)
    assert whys.count("column") > len(whys) // 2
    assert whys.count("other spellings") < len(whys) // 4


def test_full_red_and_grand_slam_through_the_column_path() -> None:
    red = {"players": [{"name": "A", "captured": " ".join(c.code for c in HEARTS)},
                       {"name": "B", "captured": "QS"}, {"name": "C", "captured": "JD 10C"},
                       {"name": "D", "captured": ""}]}  # fmt: skip
    slam = {"players": [{"name": "A", "captured": " ".join(c.code for c in SCORING_CARDS)},
                        {"name": "B", "captured": "2S"}, {"name": "C", "captured": ""},
                        {"name": "D", "captured": ""}], "variant": "classic"}  # fmt: skip
    slam_exposed = {**slam, "players": [{**p, "exposed": s} for p, s in
                                        zip(slam["players"], ("QS JD", "10C AH", "", ""),
                                            strict=True)]}  # fmt: skip
    hands = [red, slam, slam_exposed]
    table = pa.Table.from_struct_array(pa.array(hands))
    assert arrow.paths(table) == ["column"] * 3
    raws = [[p["raw"] for p in r["players"]] for r in arrow.score_table(table).to_pylist()]
    assert raws == [[200, -100, 200, 0], [800, 0, 0, 0], [3200, 0, 0, 0]]


@pytest.mark.parametrize("normalize", ["none", "zero-sum", "jj"])
@pytest.mark.parametrize("rounding", ["nearest", "exact"])
def test_options_as_batch_takes_them(normalize: str, rounding: str) -> None:
    rows = rows_for(400, 17, ["classic"])
    for r in rows:
        r["row"].pop("teams", None)
    table = as_table(rows)
    scored = arrow.score_table(table, "classic", normalize, scale=12, rounding=rounding)
    scorer = Scorer("classic", normalize=normalize, scale=12, rounding=rounding)
    want = [[(n, r, float(f) if rounding == "exact" else f) for n, r, f in
             zip(x.names, x.raws, x.finals, strict=True)]
            for x in (scorer.score_data({"players": r["row"]["players"]}) for r in rows)]  # fmt: skip
    assert from_table(scored) == want


@pytest.mark.parametrize("times", [2, 3, 4, 5, 8])
def test_a_card_exposed_too_often_is_refused_as_the_row_engine_refuses_it(times: int) -> None:
    # Counted apart per card: four exposures of Q♠ once packed into the exposure key's
    # 首明 bit and were scored as 首明 of the pig.
    players = [{"name": "A", "captured": " ".join(c.code for c in HEARTS) + " QS"},
               {"name": "B", "captured": "JD"}, {"name": "C", "captured": "10C"},
               {"name": "D", "captured": ""}]  # fmt: skip
    for k in range(times):
        p = players[k % 4]
        p["exposed"] = (p.get("exposed", "") + " QS").strip()
    hand = {"players": players}
    with pytest.raises(GongzhuError) as row:
        Scorer().score_data(hand)
    table = pa.Table.from_pylist([hand])
    assert arrow.paths(table) == ["row"]
    with pytest.raises(GongzhuError) as column:
        arrow.score_table(table, source="hands")
    assert str(column.value) == f"hands:1: {row.value}"


def test_a_card_the_rules_let_nobody_expose_takes_the_row_path() -> None:
    rules = replace(find_variant("classic"), name="no-ace", exposable=(find_variant(
        "classic").exposable[:3]))  # fmt: skip
    hand = {"players": [{"name": "A", "captured": " ".join(c.code for c in HEARTS)},
                        {"name": "B", "captured": "QS JD 10C", "exposed": "AH"},
                        {"name": "C", "captured": ""}, {"name": "D", "captured": ""}]}  # fmt: skip
    table = pa.Table.from_pylist([hand])
    assert arrow.paths(table, rules) == ["row"]
    with pytest.raises(GongzhuError, match="cannot expose AH"):
        arrow.score_table(table, rules)
    assert arrow.paths(table) == ["column"]  # (classic lets A♥ be exposed)


def test_a_bad_row_is_named_by_its_row() -> None:
    rows = rows_for(20, 18)
    rows[6]["row"]["players"][1]["captured"] = "QS QS XX"
    with pytest.raises(Exception, match=r"^hands:7: "):
        arrow.score_table(as_table(rows), source="hands")


# --- batch with Parquet ---------------------------------------------------------------------------


def parquet(tmp_path: Path, rows: list[dict], name: str = "hands.parquet") -> Path:  # type: ignore[type-arg]
    path = tmp_path / name
    pq.write_table(as_table(rows), path, row_group_size=700)
    return path


def test_contract_parquet_in_parquet_out_equals_jsonl(tmp_path: Path) -> None:
    rows = rows_for(2000, 19)
    source = parquet(tmp_path, rows)
    out = tmp_path / "out.parquet"
    done("batch", str(source), "--format", "parquet", "-o", str(out))
    written = pq.read_table(out)
    assert written.schema.field("players").type == pa.list_(
        pa.struct([("name", pa.string()), ("raw", pa.int64()), ("final", pa.int64())])
    )
    assert from_table(written) == row_engine(rows)
    assert written.column("source").to_pylist()[-1] == f"{source}:2000"
    # and as JSON Lines, the same
    lines, _ = done("batch", str(source), "--format", "jsonl")
    hands = [json.loads(line) for line in lines.splitlines()]
    assert [h["players"] for h in hands] == written.column("players").to_pylist()


def test_a_folder_of_parquet_files_to_a_dataset_folder(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    a = parquet(folder, rows_for(300, 20), "a.parquet")
    b = parquet(folder, rows_for(200, 21), "b.parquet")
    out = tmp_path / "scored"
    done("batch", str(folder), "--format", "parquet", "-o", str(out))
    parts = sorted(p.name for p in out.iterdir())
    assert len(parts) == 2
    table = pq.read_table(out)
    assert table.num_rows == 500
    assert set(table.column("source").to_pylist()) == (
        {f"{a}:{i}" for i in range(1, 301)} | {f"{b}:{i}" for i in range(1, 201)}
    )


def test_bad_rows_are_named_with_file_and_row(tmp_path: Path) -> None:
    rows = rows_for(50, 22)
    rows[9]["row"]["players"][0]["captured"] = "QS 红A"
    source = parquet(tmp_path, rows)
    out = tmp_path / "out.parquet"
    message = refused("batch", str(source), "--format", "parquet", "-o", str(out))
    assert message.startswith(f"{source}:10: ")
    assert not out.exists()
    r = run("batch", str(source), "--format", "parquet", "-o", str(out), "--keep-going")
    assert r.exit_code == 1
    assert f"{source}:10: " in r.stderr
    assert pq.read_table(out).num_rows == 49


def test_parquet_needs_an_output_file(tmp_path: Path) -> None:
    source = parquet(tmp_path, rows_for(5, 23))
    assert refused("batch", str(source), "--format", "parquet") == (
        "--format parquet writes a file: give it with --output FILE.parquet (or a folder)"
    )


@pytest.mark.dask
def test_contract_dask_local_writes_a_dataset_with_the_same_rows(tmp_path: Path) -> None:
    rows = rows_for(1500, 24)
    source = parquet(tmp_path, rows)  # three row groups: three tasks, on two workers here
    out = tmp_path / "dataset"
    done("batch", str(source), "--format", "parquet", "--dask", "local", "-o", str(out))
    table = pq.read_table(out)
    got = sorted(zip(table.column("source").to_pylist(), from_table(table), strict=True),
                 key=lambda x: int(x[0].rsplit(":", 1)[1]))  # fmt: skip
    assert [s for s, _ in got] == [f"{source}:{i}" for i in range(1, 1501)]
    assert [p for _, p in got] == row_engine(rows)


@pytest.mark.dask
def test_two_local_dask_clusters_at_once_take_free_ports() -> None:
    # Dask's usual dashboard port taken (by another run, or anything else): neither collides.
    import socket

    from gongzhu_score.batch.parquet import local_cluster

    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        held.bind(("127.0.0.1", 8787))
        held.listen()
    except OSError:  # (8787 taken already: the point stands all the same)
        pass
    try:
        with local_cluster(1) as one, local_cluster(1) as two:
            ports = {c.dashboard_link.split(":")[2].split("/")[0] for c in (one, two)}
            assert len(ports) == 2 and "8787" not in ports
    finally:
        held.close()


def test_dask_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    source = parquet(tmp_path, rows_for(5, 25))
    assert refused("batch", str(source), "--dask", "local") == (
        "--dask writes a Parquet dataset: give --format parquet and --output FOLDER"
    )
    assert refused("batch", str(source), "--format", "parquet", "--dask", "local", "-o",
                   str(tmp_path / "x.parquet")).startswith("--dask writes")  # fmt: skip
    jsonl = tmp_path / "h.jsonl"
    jsonl.write_text(json.dumps(rows_for(1, 26)[0]["row"]) + "\n", encoding="utf-8")
    assert refused("batch", str(jsonl), "--format", "parquet", "--dask", "local", "-o",
                   str(tmp_path / "d")) == f"--dask scores Parquet files; not: {jsonl}"  # fmt: skip


@pytest.mark.parametrize(("module", "extra"), [("pyarrow", "arrow"), ("distributed", "dask")])
def test_a_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                  module: str, extra: str) -> None:  # fmt: skip
    source = parquet(tmp_path, rows_for(5, 27))
    monkeypatch.setitem(__import__("sys").modules, module, None)  # (import fails)
    args = ["--dask", "local"] if extra == "dask" else []
    assert refused("batch", str(source), "--format", "parquet", "-o", str(tmp_path / "d"),
                   *args) == (
        f"this needs the optional libraries of the {extra} extra: "
        f"pip install 'gongzhu-score[{extra}]'"
    )  # fmt: skip


def test_parquet_input_to_the_other_formats_through_the_row_engine(tmp_path: Path) -> None:
    rows = rows_for(300, 28)
    source = parquet(tmp_path, rows)
    out, _ = done("batch", str(source), "--format", "csv")
    first = out.splitlines()[1].split(",")
    assert first[0] == f"{source}:1"
    table, _ = done("batch", str(source), "--summary-only")
    assert "300" in table


def _expected_masks(text: str | None) -> tuple[int, int, int, bool]:
    """What a reader of a column of card texts gives an entry: its canonical codes' bits or'ed
    and added up (``parse_cards`` reads them), how many runs of non-spaces it holds, and
    whether any is not a canonical code."""
    codes = {c.code: 1 << i for i, c in enumerate(DECK)}
    words = [w for w in (text or "").split(" ") if w]
    good = [w for w in words if w in codes]
    assert [codes[c.code] for c in parse_cards(" ".join(good), decks=2)] == [codes[w] for w in good]
    ors = sums = 0
    for w in good:
        ors, sums = ors | codes[w], sums + codes[w]
    return ors, sums, len(words), len(good) < len(words)


def _masks_of(entries: list[str | None] | Any, reader: str, pick: list[int] | None = None) -> list:
    """What the column path's ``reader`` gives the entries (a list, or a column)."""
    from gongzhu_score.batch import columns

    column = entries if isinstance(entries, pa.Array) else pa.array(entries, pa.string())
    assert reader in READERS
    looked = columns._cards(column, None if pick is None else np.array(pick))
    assert looked is not None
    return list(zip(*(part.tolist() for part in looked), strict=True))


READERS = ["Arrow"]
"""The column path's reader of card texts: Arrow's."""


@pytest.mark.parametrize("reader", READERS)
def test_the_byte_reader_reads_what_the_parser_reads(reader: str) -> None:
    rng = random.Random(29)
    codes = [c.code for c in DECK]
    entries: list[str | None] = []
    for _ in range(500):
        tokens = rng.sample(codes, rng.randint(0, 6)) + rng.sample(codes, rng.randint(0, 2))
        if rng.random() < 0.2:
            tokens.append(rng.choice(NEAR_MISSES))
        spaces = [" " * rng.randint(1, 3) for _ in tokens]
        text = (" " if rng.random() < 0.2 else "") + "".join(
            t + s for t, s in zip(tokens, spaces, strict=True)
        )
        entries.append(text if rng.random() < 0.9 else None)
    expected = [_expected_masks(text) for text in entries]
    assert _masks_of(entries, reader) == expected
    pick = [k for k in range(len(entries)) if rng.random() < 0.3 and entries[k] is not None]
    assert _masks_of(entries, reader, pick) == [expected[k] for k in pick]
    # a slice of the column (its offsets start past the data's start)
    assert _masks_of(pa.array(entries, pa.string()).slice(7, 50), reader) == expected[7:57]


NEAR_MISSES = ["红桃A", "qs", "1H", "10", "XX", "10CC", "Q", "♠Q", "11S", "1XH", "100S", "QQS",
               "0S", "S", "QS\t", "1S", "10 S", "2"]  # fmt: skip
"""Tokens a reader of canonical codes must refuse, each close to one."""

_TOKEN = st.one_of(st.sampled_from([c.code for c in DECK] + NEAR_MISSES),
                   st.text(st.sampled_from(list("0123456789JQKASHDC x♠\t")), max_size=4))  # fmt: skip


def test_large_strings_and_lists_as_other_writers_give_them() -> None:
    rows = rows_for(200, 30, ["classic"])
    for r in rows:
        r["row"].pop("teams", None)
    table = as_table(rows)
    players = table.column("players").combine_chunks()
    member = players.type.value_type
    large = pa.list_(pa.struct([(member.field(k).name, pa.large_string()
                                 if member.field(k).type == pa.string() else member.field(k).type)
                                for k in range(member.num_fields)]))  # fmt: skip
    wide = table.set_column(0, "players", players.cast(large))
    assert arrow.paths(wide) == arrow.paths(table)
    assert from_table(arrow.score_table(wide)) == from_table(arrow.score_table(table))
    # captured as lists of codes
    listed = pa.Table.from_struct_array(pa.array([
        {**r["row"], "players": [{**p, "captured": (p["captured"].split() if isinstance(
            p["captured"], str) else p["captured"])} for p in r["row"]["players"]]}
        for r in rows]))  # fmt: skip
    assert from_table(arrow.score_table(listed)) == row_engine(rows)


def test_a_file_that_is_no_parquet_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "fake.parquet"
    fake.write_bytes(b"not parquet at all\n")
    message = refused("batch", str(fake), "--format", "parquet", "-o", str(tmp_path / "o.parquet"))
    assert message.startswith(f"{fake}: not a readable Parquet file: ")
    assert "\n" not in message
    assert not (tmp_path / "o.parquet").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".o.parquet")]


def test_validity_bits_read_as_arrow_reads_them() -> None:
    """The column path unpacks a column's validity bits itself: the same as ``is_valid``, for
    text and structs, their fields, sliced anywhere."""
    from gongzhu_score.batch.columns import _valid

    rng = random.Random(31)
    for _ in range(300):
        n = rng.randint(0, 200)
        text = pa.array([None if rng.random() < 0.3 else "QS" for _ in range(n)], pa.string())
        mask = pa.array([rng.random() < 0.2 for _ in range(n)], pa.bool_())
        start = rng.randint(0, n)
        length = rng.randint(0, n - start)
        players = pa.StructArray.from_arrays([text], ["exposed"], mask=mask).slice(start, length)
        for column in (text.slice(start, length), players, players.field("exposed")):
            assert _valid(column).tolist() == column.is_valid().to_pylist()


@pytest.mark.parametrize("reader", READERS)
def test_a_null_holds_no_cards_whatever_bytes_lie_behind_it(reader: str) -> None:
    """Arrow lets a null entry's place hold bytes (another writer's, or a slice's); neither
    reader reads them, whether the entries are read whole or picked."""
    offsets = np.array([0, 2, 4, 6], np.int32).tobytes()
    valid = np.packbits(np.array([0, 1, 0], np.uint8), bitorder="little").tobytes()
    column = pa.StringArray.from_buffers(3, pa.py_buffer(offsets), pa.py_buffer(b"QS6HJD"),
                                         pa.py_buffer(valid))  # fmt: skip
    nothing, six = (0, 0, 0, False), (1 << 17, 1 << 17, 1, False)
    assert _masks_of(column, reader) == [nothing, six, nothing]
    assert _masks_of(column, reader, [2, 0, 1]) == [nothing, nothing, six]
