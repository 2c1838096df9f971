"""Hands in Arrow form scored a column at a time (the public face is :mod:`gongzhu_score.arrow`):
Parquet files, and the data engines that hand out Arrow record batches (Spark's
``mapInArrow``, Ray's ``map_batches``, Dask, Polars).

:func:`score_table` is a pure function from a table of hands to a table of results, with the
numbers of ``batch --format jsonl``. Input columns mirror the JSON Lines schema: ``players``, a
list of four structs with ``name`` (string), ``captured`` (a string of card codes, or a list of
them), ``exposed`` and ``first_exposed`` (likewise, optional); optional ``variant`` and
``teams`` columns. Output: ``source`` (``NAME:ROW``, rows counted from 1) and ``players``, a
list of structs with ``name``, ``raw`` (int64) and ``final`` (int64; double with exact
rounding, which Arrow cannot hold as thirds).

How a column is scored by the one engine: card codes become bit masks with Arrow compute (one
split, one look-up), each player's scoring cards a 16-bit number; the engine makes, once per
exposure state, the table of the raw score of all 65,536 such sets with its own
:meth:`~gongzhu_score.core.engine.CompiledRules.raw`, and the column reads it. The finals come
from the engine's :func:`~gongzhu_score.core.engine.normalize`, once per distinct (raw, hand
total) pair (individual play: a final depends on nothing else). Numpy only gathers and scatters
numbers.

Hands the column path does not take go through the row engine in the same call, with the same
results: two decks, teams, exposures of 首明, any spelling other than the canonical codes,
anything not plainly valid (whose error then names the row), hands with columns of their own
(trick-by-trick records).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError as e:  # pragma: no cover (the extra is installed for the tests)
    raise ImportError(
        "gongzhu_score.arrow needs pyarrow and numpy: pip install 'gongzhu-score[arrow]'"
    ) from e

from ..core import as_source
from ..core.bits import COPY_KEY, RANK_OF_BYTE, RANK_TEN, SPECIAL_INDEX, SUIT_OF_BYTE, scoring_set
from ..core.cards import DECK, flag_of, not_a
from ..core.engine import HandResult, compiled_rules, normalize
from ..core.hand import is_plain_name
from ..core.normalize import Method, Normalization, Rounding, Teams, parse_teams
from ..core.variant import Variant
from ..errors import GongzhuError, InputError
from ..io.variants import DEFAULT, find_variant
from ..terms import error
from .reading import BadRecord, InputRecord
from .runner import Batch

__all__ = ["OUTPUT_SCHEMA", "check_schema", "output_schema", "paths", "plain", "results_batch",
           "score_batches", "score_table", "too_large"]  # fmt: skip

_CODES = pa.array([c.code for c in DECK])  # bit i of a mask is DECK[i] (core.bits)
# core/hand.py's bit-form questions, run from its source: the same code, on columns of hands
_HAND = as_source("hand")
_PLAYER_FIELDS = {"name", "captured", "exposed", "first_exposed"}
_TABLE_COLUMNS = {"players", "variant", "teams"}


def output_schema(exact: bool = False) -> pa.Schema:
    """The result table's schema: ``final`` is a double only with exact rounding."""
    final = pa.float64() if exact else pa.int64()
    player = pa.struct([("name", pa.string()), ("raw", pa.int64()), ("final", final)])
    return pa.schema([("source", pa.string()), ("players", pa.list_(player))])


OUTPUT_SCHEMA = output_schema()


@dataclass
class _Rows:
    """One batch's results, row by row: filled by the column path and the row path."""

    names: list[list[str] | None]
    raws: np.ndarray[Any, Any]
    finals: np.ndarray[Any, Any]
    scored: np.ndarray[Any, Any]


def score_table(
    table: pa.Table | pa.RecordBatch,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    *,
    scale: int = 1,
    rounding: Rounding | str = Rounding.NEAREST,
    teams: Teams | str | None = None,
    partial: bool = False,
    source: str = "",
) -> pa.Table:
    """Score a table of hands: one result row per hand, in order (the ``batch --format jsonl``
    numbers). ``rules``: every hand's rule set (else each row's ``variant``, else classic);
    ``normalize``, ``scale``, ``rounding``, ``teams`` as ``batch`` takes them; ``source``
    names the table in each row's ``source`` and in errors. A hand that cannot be scored raises
    :class:`~gongzhu_score.errors.GongzhuError` naming its row, with the row engine's message;
    so does a table with a column (or a field) named twice, and an argument of the wrong kind
    (an :class:`~gongzhu_score.errors.ArgumentError`). Columns of ``string_view`` (Polars)
    are read as strings."""
    batches = _batches_of(table)
    if not isinstance(source, str):
        raise not_a("argument.text", source).within("source")
    batch = _batch(rules, normalize, scale, rounding, teams, partial)
    exact = batch.rounding is Rounding.EXACT
    out = [b for b, _ in score_batches(batches, batch, source, exact, keep_going=False)]
    return pa.Table.from_batches(out, schema=output_schema(exact))


def _batches_of(table: object) -> list[pa.RecordBatch]:
    if isinstance(table, pa.Table):
        batches: list[pa.RecordBatch] = table.to_batches()
        return batches
    if isinstance(table, pa.RecordBatch):
        return [table]
    raise not_a("argument.table", table).within("table")


def paths(
    table: pa.Table | pa.RecordBatch,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    *,
    teams: Teams | str | None = None,
) -> list[str]:
    """Which path :func:`score_table` takes for each row: ``column`` or ``row`` (for tests and
    for seeing why a table scores slowly)."""
    batches = _batches_of(table)
    batch = _batch(rules, normalize, 1, Rounding.NEAREST, teams, False)
    out: list[str] = []
    for rb in batches:
        rb = _readable(rb, "")
        n = rb.num_rows
        rows = _Rows([None] * n, np.zeros((n, 4), np.int64), np.zeros((n, 4), np.int64),
                     np.zeros(n, bool))  # fmt: skip
        out += ["column" if c else "row" for c in _column_path(rb, batch, rows).tolist()]
    return out


def _batch(
    rules: Variant | str | None,
    normalize: Method | str | None,
    scale: int,
    rounding: Rounding | str,
    teams: Teams | str | None,
    partial: bool,
) -> Batch:
    """The options checked as ``batch`` checks them: each error names its option."""
    variant = find_variant(rules) if rules is not None else None
    # (every option but the teams checked at once, the way Normalization checks them)
    checked = Normalization.parse(Method.ZERO_SUM if normalize is None else normalize, scale,
                                  rounding)  # fmt: skip
    flag_of(partial)
    return Batch(variant, None if normalize is None else checked.method, checked.scale,
                 checked.rounding, None if teams is None else parse_teams(teams),
                 partial)  # fmt: skip


def check_schema(schema: pa.Schema, where: str) -> None:
    """Refuse a column, or a field of a column's structs, named twice (``where``: the input
    the error names): the row path would read one of them and drop the other unsaid."""
    found = _named_twice(list(schema), "")
    if found is not None:
        err = error(InputError, "error.column.twice", column=found[0], count=found[1])
        raise err.within(where) if where else err


def _named_twice(fields: list[pa.Field], prefix: str) -> tuple[str, int] | None:
    names = [f.name for f in fields]
    for name in names:
        if names.count(name) > 1:
            return prefix + name, names.count(name)
    for f in fields:
        found = _named_twice(_inner_fields(f.type), f"{prefix}{f.name}.")
        if found is not None:
            return found
    return None


def _inner_fields(kind: pa.DataType) -> list[pa.Field]:
    """The fields a type holds: a struct's, or those of the structs a list holds."""
    if pa.types.is_struct(kind):
        return [kind.field(k) for k in range(kind.num_fields)]
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)
            or pa.types.is_fixed_size_list(kind) or _is_list_view(kind)):  # fmt: skip
        return _inner_fields(kind.value_type)
    return []


def _is_list_view(kind: pa.DataType) -> bool:
    return any(getattr(pa.types, f"is_{v}", lambda _: False)(kind)
               for v in ("list_view", "large_list_view"))  # fmt: skip


def _viewless(kind: pa.DataType) -> pa.DataType:
    """``kind`` with views (``string_view``, ``binary_view``, list views: what Polars hands
    out) as their plain types, which every Arrow kernel takes."""
    if getattr(pa.types, "is_string_view", lambda _: False)(kind):
        return pa.string()
    if getattr(pa.types, "is_binary_view", lambda _: False)(kind):
        return pa.binary()
    if pa.types.is_struct(kind):
        return pa.struct([kind.field(k).with_type(_viewless(kind.field(k).type))
                          for k in range(kind.num_fields)])  # fmt: skip
    if pa.types.is_large_list(kind) or getattr(pa.types, "is_large_list_view",
                                                lambda _: False)(kind):  # fmt: skip
        return pa.large_list(kind.value_field.with_type(_viewless(kind.value_type)))
    if pa.types.is_list(kind) or _is_list_view(kind):
        return pa.list_(kind.value_field.with_type(_viewless(kind.value_type)))
    return kind


def _readable(rb: pa.RecordBatch, source: str) -> pa.RecordBatch:
    """A batch as both paths read it: no name twice (refused), no views (cast)."""
    check_schema(rb.schema, source)
    kinds = [_viewless(f.type) for f in rb.schema]
    if all(k == f.type for k, f in zip(kinds, rb.schema, strict=True)):
        return rb
    return pa.RecordBatch.from_arrays(
        [_cast(column, k) for column, k in zip(rb.columns, kinds, strict=True)],
        names=rb.schema.names,
    )


def _cast(column: pa.Array, kind: pa.DataType) -> pa.Array:
    """``column`` as ``kind``; through its values where this pyarrow cannot cast a view (16
    reads views but casts none: slower, the same values)."""
    if column.type == kind:
        return column
    try:
        return column.cast(kind)
    except pa.ArrowNotImplementedError:
        return pa.array(column.to_pylist(), type=kind)


def score_batches(
    batches: Iterator[pa.RecordBatch] | Sequence[pa.RecordBatch],
    batch: Batch,
    source: str,
    exact: bool,
    keep_going: bool,
    first_row: int = 1,
) -> Iterator[tuple[pa.RecordBatch, list[BadRecord]]]:
    """Score record batches in order (rows numbered on from ``first_row``): each batch's
    results, and its bad rows when ``keep_going`` (else the first bad row raises)."""
    # Batches are scored on every core by threads: Arrow and numpy let go of the interpreter
    # while they work, and the results come back in order.
    workers = min(os.cpu_count() or 1, 8)
    row = first_row
    with ThreadPoolExecutor(workers) as pool:
        pending: deque[Future[tuple[pa.RecordBatch, list[BadRecord]]]] = deque()
        for record_batch in batches:
            pending.append(pool.submit(_score, record_batch, batch, source, row, exact,
                                       keep_going))  # fmt: skip
            row += record_batch.num_rows
            if len(pending) > workers:  # (a bound on the batches held in memory)
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _score(
    rb: pa.RecordBatch, batch: Batch, source: str, first: int, exact: bool, keep_going: bool
) -> tuple[pa.RecordBatch, list[BadRecord]]:
    rb = _readable(rb, source)
    n = rb.num_rows
    rows = _Rows([None] * n, np.zeros((n, 4), np.int64),
                 np.zeros((n, 4), np.float64 if exact else np.int64),
                 np.zeros(n, bool))  # fmt: skip
    columnar = _column_path(rb, batch, rows)
    bad: list[BadRecord] = []
    if not columnar.all():
        bad = _row_path(rb, batch, source, first, np.flatnonzero(~columnar), rows, keep_going)
    return _results(rb, rows, source, first, exact), bad


# --- the row path: the row engine, as batch scores a JSON Lines line -----------------------------


def plain(value: object) -> object:
    """A row as JSON Lines would have given it: no keys whose value is missing (null)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _row_path(
    rb: pa.RecordBatch,
    batch: Batch,
    source: str,
    first: int,
    indices: np.ndarray[Any, Any],
    rows: _Rows,
    keep_going: bool,
) -> list[BadRecord]:
    """The rows the column path did not take, scored by :meth:`Batch.score` as any record is
    (the bad ones raise, or come back with ``keep_going``): a score the columns cannot hold
    is bad too."""
    taken = rb.take(pa.array(indices)).to_pylist()
    exact = rows.finals.dtype == np.float64
    bad: list[BadRecord] = []
    for i, data in zip(indices.tolist(), taken, strict=True):
        record = InputRecord(source or "row", first + i, plain(data))
        try:
            result = batch.score(record)
            large = too_large(result, exact)
            if large is not None:
                raise large.within(record.source)
        except GongzhuError as e:
            if not keep_going:
                raise
            bad.append(BadRecord(record.source, e))
            continue
        _put(rows, i, result, exact)
    return bad


_INT64 = (1 << 63) - 1
_COLUMN_LIMIT = _INT64 // (16 * 1_000_000)
"""The largest raw the column path takes (else the row path): its sums and finals (scale up to
a million) stay far within int64, where numpy would wrap without a word."""


def too_large(result: HandResult, exact: bool) -> GongzhuError | None:
    """The error for a result whose raws (or whole finals) an int64 column cannot hold (house
    rules within their ranges can give such numbers), or None."""
    numbers = [*result.raws] if exact else [*result.raws, *result.finals]
    for value in numbers:
        if not -_INT64 - 1 <= value <= _INT64:
            return error(GongzhuError, "error.column.too_large", value=f"{value:,}",
                         largest=f"{_INT64:,}")  # fmt: skip
    return None


def _put(rows: _Rows, i: int, result: HandResult, exact: bool) -> None:
    rows.names[i] = list(result.names)
    rows.raws[i] = result.raws
    rows.finals[i] = [float(f) if exact else int(f) for f in result.finals]
    rows.scored[i] = True


# --- the column path -----------------------------------------------------------------------------


def _column_path(rb: pa.RecordBatch, batch: Batch, rows: _Rows) -> np.ndarray[Any, Any]:
    """Score every row the column path can take; returns which rows it took."""
    n = rb.num_rows
    taken = np.zeros(n, bool)
    names = set(rb.schema.names)
    if "players" not in names or names - _TABLE_COLUMNS:
        return taken  # (records and other shapes: the row path, which names what is wrong)
    players = rb.column("players")
    if not (pa.types.is_list(players.type) or pa.types.is_large_list(players.type)):
        return taken
    member = players.type.value_type
    if not pa.types.is_struct(member):
        return taken
    fields = {member.field(k).name for k in range(member.num_fields)}
    if "name" not in fields or "captured" not in fields or fields - _PLAYER_FIELDS:
        return taken
    lengths = pc.fill_null(pc.list_value_length(players), 0).to_numpy(zero_copy_only=False)
    four = lengths == 4
    for (variant, teams), group in _groups(rb, batch, four):
        scorer = batch.scorer({"variant": variant, "teams": teams} if teams else
                              {"variant": variant})  # fmt: skip
        norm = scorer.normalization
        if scorer.variant.decks != 1 or norm.teams is not Teams.NONE:
            continue
        done = _score_group(players, group, scorer.variant, norm, rows)
        taken[group[done]] = True
    return taken


def _groups(
    rb: pa.RecordBatch, batch: Batch, four: np.ndarray[Any, Any]
) -> Iterator[tuple[tuple[str, str | None], np.ndarray[Any, Any]]]:
    """Rows of four players by (variant, teams) as each row names them (null: not named)."""
    n = rb.num_rows
    keys: list[np.ndarray[Any, Any]] = []
    values: list[list[object]] = []
    for column in ("variant", "teams"):
        if column in rb.schema.names:
            array = rb.column(column)
            if pa.types.is_string(array.type):
                encoded = pc.dictionary_encode(array)
                keys.append(pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False))
                values.append(encoded.dictionary.to_pylist())
                continue
            if not pa.types.is_null(array.type):
                return  # (not names: the row path refuses them, row by row)
            keys.append(np.full(n, -1))
            values.append([])
        else:
            keys.append(np.full(n, -1))
            values.append([])
    code = (keys[0] + 1) * (len(values[1]) + 1) + (keys[1] + 1)
    for value in _unique(code[four])[0] if four.any() else ():
        v, t = divmod(int(value), len(values[1]) + 1)
        variant = DEFAULT if v == 0 else values[0][v - 1]
        teams = None if t == 0 else values[1][t - 1]
        if not isinstance(variant, str) or (teams is not None and not isinstance(teams, str)):
            continue
        try:
            batch.scorer({"variant": variant} if teams is None else
                         {"variant": variant, "teams": teams})  # fmt: skip
        except GongzhuError:
            continue  # (an unknown variant: the row path says so, row by row)
        yield (variant, teams), np.flatnonzero(four & (code == value))


Looked = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]
"""Cards read from a column: each card's index in DECK (bit i of a mask), how many cards each
entry holds, and which entries hold something that is no canonical code."""


# Canonical codes byte by byte (core.bits): a rank byte's place in its suit, a suit byte's block.
_RANK = np.array(RANK_OF_BYTE, np.int8)
_SUIT = np.array(SUIT_OF_BYTE, np.int8)
# A DECK index → its special card's place in an exposure key (Q♠ J♦ 10♣ A♥), or -1.
_SPECIAL_OF = np.array([SPECIAL_INDEX.get(c.code, -1) for c in DECK], np.int64)


def _cards(array: pa.Array) -> Looked | None:
    """The cards of a column of card strings (``"QS 6H"``), lists of codes, or nulls (no
    cards); None for any other type. Only canonical codes are read here; an entry with
    anything else is marked, and its hand goes to the row path, whose parser reads every
    spelling or says precisely what is wrong."""
    n = len(array)
    if pa.types.is_null(array.type):
        return np.zeros(0, np.int64), np.zeros(n, np.int64), np.zeros(n, bool)
    if pa.types.is_large_string(array.type) or str(array.type) == "string_view":
        array = array.cast(pa.string())  # (Polars writes these: the same text)
    elif pa.types.is_list(array.type) and not pa.types.is_string(array.type.value_type):
        try:
            array = array.cast(pa.list_(pa.string()))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
    if pa.types.is_list(array.type) and pa.types.is_string(array.type.value_type):
        lengths = pc.fill_null(pc.list_value_length(array), 0).to_numpy(zero_copy_only=False)
        flat = pc.list_flatten(array)
        found = pc.index_in(flat, value_set=_CODES)
        missing = pc.is_null(found).to_numpy(zero_copy_only=False)
        unknown = np.zeros(n, bool)
        unknown[np.repeat(np.arange(n), lengths)[missing]] = True
        return pc.fill_null(found, 0).to_numpy(zero_copy_only=False), lengths, unknown
    if not pa.types.is_string(array.type):
        return None
    if array.null_count:
        array = pc.fill_null(array, "")
    offsets = np.frombuffer(array.buffers()[1], np.int32)[array.offset : array.offset + n + 1]
    data = np.frombuffer(array.buffers()[2], np.uint8)[offsets[0] : offsets[-1]]
    offsets = offsets - offsets[0]
    size_of_data = len(data)
    # Tokens are runs of non-spaces within one entry: a token opens after a space or where an
    # entry starts, and closes before a space or where an entry ends.
    filled = data != 32
    opens = filled.copy()
    opens[1:] &= ~filled[:-1]
    entry_starts = offsets[:-1][offsets[:-1] < size_of_data]
    opens[entry_starts] = filled[entry_starts]
    closes = filled
    closes[:-1] &= ~filled[1:]  # (in place: ``filled`` is not needed after this)
    entry_ends = offsets[1:][offsets[1:] > offsets[:-1]] - 1
    closes[entry_ends] = data[entry_ends] != 32
    first = np.flatnonzero(opens)
    last = np.flatnonzero(closes)
    # tokens per entry: the token starts between the entry's bounds (counted, never summed
    # as bytes, which would wrap at 256 tokens)
    lengths = np.diff(np.searchsorted(first, offsets)).astype(np.int64)
    owner = np.repeat(np.arange(n), lengths)
    size = last - first
    head = data[first]
    rank = np.where(size == 1, _RANK[head], -1)
    ten = (size == 2) & (head == ord("1")) & (data[np.minimum(first + 1, size_of_data - 1)]
                                              == ord("0"))  # fmt: skip
    rank = np.where(ten, RANK_TEN, rank)
    suit = _SUIT[data[last]]
    bad = (rank < 0) | (suit < 0)
    unknown = np.zeros(n, bool)
    unknown[owner[bad]] = True
    return np.where(bad, 0, suit + rank).astype(np.int64), lengths, unknown


def _bit_count(masks: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """How many bits each mask has set."""
    if hasattr(np, "bitwise_count"):  # numpy ≥ 2
        counted: np.ndarray[Any, Any] = np.bitwise_count(masks).astype(np.int64)
        return counted
    count = np.zeros(len(masks), np.int64)
    for shift in range(0, 64, 8):
        count += _BYTE_BITS[(masks >> shift) & 255]
    return count


_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], np.int64)


def _sum_per_list(values: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any],
                  op: Any) -> np.ndarray[Any, Any]:  # fmt: skip
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])) if len(lengths) else lengths
    padded = np.concatenate((values, np.zeros(1, values.dtype)))
    out = op.reduceat(padded, starts) if len(lengths) else padded[:0]
    return np.where(lengths == 0, 0, out).astype(values.dtype)


def _score_group(
    players: pa.Array,
    rows_of: np.ndarray[Any, Any],
    variant: Variant,
    norm: Normalization,
    rows: _Rows,
) -> np.ndarray[Any, Any]:
    """Score the rows ``rows_of`` (four players each) by columns; returns which of them it
    scored (the others: the row path)."""
    m = len(rows_of)
    if not m:
        return np.zeros(0, bool)
    offsets = players.offsets.to_numpy(zero_copy_only=False)
    at = (offsets[rows_of][:, None] + np.arange(4)).ravel()  # each player's place
    members = players.values.take(pa.array(at))
    # a null player (its fields may still hold data behind it) is the row path's to refuse
    ok: np.ndarray[Any, Any] = members.is_valid().to_numpy(zero_copy_only=False).reshape(
        m, 4).all(axis=1)  # fmt: skip

    names = members.field("name")
    name_codes = pc.dictionary_encode(names)
    known = name_codes.dictionary.to_pylist()
    fine = np.array([is_plain_name(x) for x in known] + [False])
    idx = pc.fill_null(name_codes.indices, len(known)).to_numpy(zero_copy_only=False)
    per_hand = idx.reshape(m, 4)
    ok &= fine[per_hand].all(axis=1)
    ok &= _HAND.four_different(per_hand[:, 0], per_hand[:, 1], per_hand[:, 2], per_hand[:, 3])

    looked = _cards(members.field("captured"))
    if looked is None:
        return np.zeros(m, bool)
    index, lengths, unknown = looked
    bits = np.left_shift(1, index.astype(np.int64))  # int64: every mask fits in 52 bits
    ors = _sum_per_list(bits, lengths, np.bitwise_or).reshape(m, 4)
    ok &= ~unknown.reshape(m, 4).any(axis=1)
    # one deck: no card twice, in one player's list or in two, when there are as many cards as
    # bits (two decks go the row path)
    hand_or = np.bitwise_or.reduce(ors, axis=1)
    ok &= _bit_count(hand_or) == lengths.reshape(m, 4).sum(axis=1)
    ok &= _HAND.every_scoring_card(hand_or, 0, 1)

    rules = compiled_rules(variant)
    keys = np.zeros(m * 4, np.int64)
    fields = {members.type.field(k).name for k in range(members.type.num_fields)}
    if "exposed" in fields:
        shown = _cards(members.field("exposed"))
        if shown is None:
            return np.zeros(m, bool)
        cards, shown_lengths, strange = shown
        special = _SPECIAL_OF[cards]
        strange[np.repeat(np.arange(len(shown_lengths)), shown_lengths)[special < 0]] = True
        ok &= ~strange.reshape(m, 4).any(axis=1)
        owner = np.repeat(np.arange(len(shown_lengths)) // 4, shown_lengths)
        for k in range(4):  # each special card's exposures in the hand, counted apart
            copies = np.bincount(owner[special == k], minlength=m)
            ok &= _HAND.exposures_within(copies, 1, rules.exposable[k])
        keys = _sum_per_list(np.asarray(COPY_KEY, np.int64)[np.maximum(special, 0)],
                             shown_lengths, np.add)  # fmt: skip
    hand_keys = keys.reshape(m, 4).sum(axis=1)
    if "first_exposed" in fields:
        first = _cards(members.field("first_exposed"))
        if first is None:
            return np.zeros(m, bool)
        ok &= (first[1].reshape(m, 4) == 0).all(axis=1) & ~first[2].reshape(m, 4).any(axis=1)

    if not ok.any():
        return ok
    sel = np.flatnonzero(ok)
    s16 = scoring_set(ors[sel])
    unique_keys, which = _unique(hand_keys[sel])
    try:
        tables = np.array([rules.raw_table(int(key)) for key in unique_keys], np.int64)
    except OverflowError:
        tables = None
    if tables is None or np.abs(tables).max() > _COLUMN_LIMIT:
        return np.zeros(m, bool)  # (numbers this large: the row path, which says if too large)
    raws = tables[which[:, None], s16]
    rows.raws[rows_of[sel]] = raws
    rows.finals[rows_of[sel]] = _finals(raws, norm, rows.finals.dtype == np.float64)
    rows.scored[rows_of[sel]] = True
    return ok


def _unique(values: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """``np.unique(values, return_inverse=True)`` for small non-negative numbers, in linear
    time (a look-up table instead of a sort)."""
    top = int(values.max()) + 1 if len(values) else 0
    if top > 2 * len(values) + (1 << 16):
        return np.unique(values, return_inverse=True)  # (sparse: sorting is cheaper)
    seen = np.zeros(top, bool)
    seen[values] = True
    unique = np.flatnonzero(seen)
    place = np.zeros(top, np.int32)
    place[unique] = np.arange(len(unique))
    return unique, place[values]


def _finals(raws: np.ndarray[Any, Any], norm: Normalization, exact: bool) -> np.ndarray[Any, Any]:
    """The engine's finals for individual play, asked once per distinct (raw, hand total):
    in individual play a final depends on nothing else (rulings §6)."""
    totals = np.repeat(raws.sum(axis=1), 4)
    flat = raws.ravel()
    low_raw, low_total = int(flat.min()), int(totals.min())
    raw_values, raw_at = _unique(flat - low_raw)
    total_values, total_at = _unique(totals - low_total)
    # one number per (raw, total) pair: few of each, so few pairs
    unique, which = _unique(raw_at.astype(np.int64) * len(total_values) + total_at)
    values = []
    for code in unique.tolist():
        r, t = divmod(code, len(total_values))
        raw = int(raw_values[r]) + low_raw
        total = int(total_values[t]) + low_total
        values.append(normalize((raw, total - raw, 0, 0), norm)[0])
    out = np.array([float(v) for v in values] if exact else [int(v) for v in values],
                   np.float64 if exact else np.int64)  # fmt: skip
    finals: np.ndarray[Any, Any] = out[which.ravel()].reshape(raws.shape)
    return finals


# --- the results ---------------------------------------------------------------------------------


def _names(rb: pa.RecordBatch, rows: _Rows, scored: np.ndarray[Any, Any]) -> pa.Array:
    """The scored rows' names in seat order: as the input has them where the column path
    scored (it takes names only as given), else as the row engine read them."""
    by_row = [i for i in scored.tolist() if rows.names[i] is not None]
    column = [i for i in scored.tolist() if rows.names[i] is None]
    taken: pa.Array | None = None
    if column:
        players = rb.column("players")
        offsets = players.offsets.to_numpy(zero_copy_only=False)
        at = (offsets[np.array(column)][:, None] + np.arange(4)).ravel()
        taken = pc.cast(players.values.field("name").take(pa.array(at)), pa.string())
        if not by_row:
            return taken
    listed = taken.to_pylist() if taken is not None else []
    out: list[str] = []
    k = 0
    for i in scored.tolist():
        names = rows.names[i]
        if names is None:
            out += listed[4 * k : 4 * k + 4]
            k += 1
        else:
            out += names
    return pa.array(out, pa.string())


def _results(
    rb: pa.RecordBatch, rows: _Rows, source: str, first: int, exact: bool
) -> pa.RecordBatch:
    scored = np.flatnonzero(rows.scored)
    k = len(scored)
    numbers = pc.cast(pa.array(scored + first), pa.string())
    sources = pc.binary_join_element_wise(pa.scalar(source or "row"), numbers, ":")
    names = _names(rb, rows, scored)
    final_type = pa.float64() if exact else pa.int64()
    members = pa.StructArray.from_arrays(
        [names, pa.array(rows.raws[scored].ravel()),
         pa.array(rows.finals[scored].ravel(), final_type)],
        names=["name", "raw", "final"],
    )  # fmt: skip
    lists = pa.ListArray.from_arrays(pa.array(np.arange(0, 4 * k + 1, 4, dtype=np.int32)),
                                     members)  # fmt: skip
    return pa.RecordBatch.from_arrays([sources, lists], schema=output_schema(exact))


def results_batch(results: Sequence[tuple[str, HandResult]], schema: pa.Schema) -> pa.RecordBatch:
    """Hands scored by the row engine (``source``, result) as a batch of the output schema."""
    exact = schema.field("players").type.value_type.field("final").type == pa.float64()
    players = [
        [{"name": n, "raw": r, "final": float(f) if exact else int(f)}
         for n, r, f in zip(x.names, x.raws, x.finals, strict=True)]
        for _, x in results
    ]  # fmt: skip
    return pa.RecordBatch.from_pylist(
        [{"source": source, "players": p} for (source, _), p in zip(results, players,
                                                                      strict=True)],
        schema=schema,
    )  # fmt: skip
