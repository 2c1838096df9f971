"""Hands in Arrow form, scored a column at a time.

The public face is :mod:`gongzhu_score.arrow`. The inputs are Parquet files and the data engines
that hand out Arrow record batches (Spark's ``mapInArrow``, Ray's ``map_batches``, Dask,
Polars).

:func:`score_table` is a pure function from a table of hands to a table of results, with the
numbers of ``batch --format jsonl``. Input columns mirror the JSON Lines schema: ``players``, a
list of four structs with ``name`` (string), ``captured`` (a string of card codes, or a list of
them), ``exposed`` and ``first_exposed`` (likewise, optional); optional ``variant`` and
``teams`` columns. Every other column is carried through to the output unchanged (a key, a
date). Output: those columns, ``source`` when asked (``NAME:ROW``), ``players``, a list of
structs with ``name``, ``raw`` (int64) and ``final`` (int64; double with exact rounding, which
Arrow cannot hold as thirds), and ``error`` with ``errors="column"``.

How a column is scored by the one engine: card codes become bit masks by Arrow (each text
split at its spaces, the pieces looked up among the 52 codes), and the hands go the engine's
many-hands door (:func:`~gongzhu_score.core.masks.score_seats`), which asks the engine each
raw score and final once per distinct case and keeps them for the process. Numpy only gathers
and scatters numbers.

Hands the column path does not take go through the one-hand door in the same call, with the
same results: any spelling other than the canonical codes, anything not plainly valid
(whose error then names the row: a wrong 首明, pig-sheep teams with an exposure, …), hands with
columns of their own (trick-by-trick records).
"""

from __future__ import annotations

import io
import os
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

try:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.json as pj
except ImportError as e:  # pragma: no cover (the extra is installed for the tests)
    raise ImportError(
        "gongzhu_score.arrow needs pyarrow and numpy: pip install 'gongzhu-score[arrow]'"
    ) from e

from ..core.cards import DECK, flag_of, not_a
from ..core.engine import HandResult, compiled_rules
from ..core.hand import is_plain_name
from ..core.masks import Masks, Seats, all_four, bit_count, keep, no_cards, score_seats, unique
from ..core.normalize import Method, Normalization, Rounding, Teams, check_scale
from ..core.options import ScoringOptions
from ..core.variant import Variant
from ..errors import GongzhuError, InputError
from ..io.handfile import TOO_HIGH, TOP_KEYS
from ..io.records import KEYS as RECORD_KEYS
from ..io.variants import DEFAULT, find_variant
from ..terms import LANGS, error
from .reading import BadRecord
from .runner import Batch

__all__ = ["ERRORS", "OUTPUT_SCHEMA", "check_schema", "default_threads", "output_schema", "paths",
           "plain", "read_columns", "results_batch", "score_batches", "score_table", "threads_of",
           "too_large"]  # fmt: skip

_CODES = pa.array([c.code for c in DECK])  # bit i of a mask is DECK[i] (core.bits)
# core/hand.py's bit-form questions, run from its source: the same code, on columns of hands
_PLAYER_FIELDS = {"name", "captured", "exposed", "first_exposed"}
_TABLE_COLUMNS = {"players", "variant", "teams"}
_MOST_ROWS = 65_536
"""The most rows scored at once (a larger record batch is scored in equal slices of at most
this many)."""


def output_schema(exact: bool = False, *, source: bool = True, error: bool = False,
                  carried: Sequence[pa.Field] = ()) -> pa.Schema:  # fmt: skip
    """The result table's schema.

    It has the ``carried`` input columns, ``source`` (unless told not), ``players`` (``final``
    is a double only with exact rounding) and, with ``error``, the ``error`` column
    (``errors="column"``).
    """
    final = pa.float64() if exact else pa.int64()
    player = pa.struct([("name", pa.string()), ("raw", pa.int64()), ("final", final)])
    fields = [*carried, *([pa.field("source", pa.string())] if source else []),
              pa.field("players", pa.list_(player))]  # fmt: skip
    return pa.schema([*fields, *([pa.field("error", pa.string())] if error else [])])


OUTPUT_SCHEMA = output_schema()
"""``batch --format parquet``'s schema (``source`` and ``players``)."""


@dataclass
class _Rows:
    """One batch's results by row, filled by the column and row paths."""

    names: list[list[str] | None]
    """The names the row engine read (None where the column path scored: the input's)."""
    raws: np.ndarray[Any, Any]
    finals: np.ndarray[Any, Any]
    scored: np.ndarray[Any, Any]
    by_row: np.ndarray[Any, Any]
    """Which rows the row engine scored."""

    @classmethod
    def of(cls, n: int, exact: bool) -> _Rows:
        return cls([None] * n, np.zeros((n, 4), np.int64),
                   np.zeros((n, 4), np.float64 if exact else np.int64), np.zeros(n, bool),
                   np.zeros(n, bool))  # fmt: skip


@dataclass(frozen=True)
class _Plan:
    """How the batches of one call are read and written."""

    batch: Batch
    source: str | None
    """The name before each row's number (``NAME:ROW``); None: no ``source`` column."""
    exact: bool
    errors: str
    """``raise`` (the first bad row raises), ``keep`` (bad rows left out of the output and
    listed: ``batch --keep-going``) or ``column`` (in the output, with a message)."""
    read: list[int] | None
    """The columns read (None: every one, as ``batch`` reads a file, whose other columns the
    row engine refuses as unknown keys)."""
    carried: list[int]
    """The columns carried to the output unchanged."""
    schema: pa.Schema
    lang: str = "en"
    kinds: list[pa.DataType] | None = None
    given: pa.Schema | None = None
    """The input's schema, metadata and all (a plan made for it)."""
    """The types the columns read are cast to (:func:`_plain_type`), if known (None: each
    batch's are worked out)."""

    def where(self, row: int) -> str:
        """How an error names a row."""
        return f"{self.source or 'row'}:{row}"


ERRORS = ("raise", "column")
"""What :func:`score_table` does with a hand it cannot score (``errors=``)."""


def score_table(
    table: pa.Table | pa.RecordBatch,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    *,
    scale: int = 1,
    rounding: Rounding | str = Rounding.NEAREST,
    teams: Teams | str | None = None,
    partial: bool = False,
    source: str | None = None,
    first_row: int = 1,
    errors: str = "raise",
    threads: int | None = None,
    lang: str = "en",
) -> pa.Table:
    """Score a table of hands: one result row per hand, in order.

    The numbers are those of ``batch --format jsonl``.

    ``rules``: every hand's rule set (else each row's ``variant``, else classic); ``normalize``,
    ``scale``, ``rounding``, ``teams``, ``partial`` as ``batch`` takes them.

    The columns read are ``players``, ``variant`` and ``teams`` (a trick-by-trick record's keys
    in a table with a ``tricks`` column; see :func:`read_columns`); every other column comes out
    unchanged, in order, before the results: ``source`` (only when ``source`` is given),
    ``players`` and, with ``errors="column"``, ``error``.

    ``source``: the name in each row's ``source`` (``NAME:ROW``) and in errors (None, the
    default: no ``source`` column, and errors say ``row:ROW``); ``first_row``: the number of the
    table's first row (a slice of a larger table: its offset + 1), so that rows are numbered
    across calls. ``errors="raise"``: a hand that cannot be scored raises
    :class:`~gongzhu_score.errors.GongzhuError` naming its row, with the row engine's message;
    ``errors="column"``: its ``players`` is null and ``error`` holds the message ``batch`` gives
    for it (after the row's place), in ``lang`` (``en`` or ``zh``); ``error`` is null for every
    hand scored.

    ``threads``: how many record batches are scored at once (None: see :func:`default_threads`,
    one inside a data engine's task).

    Refused whatever ``errors`` says (a :class:`~gongzhu_score.errors.GongzhuError`): an
    argument of the wrong kind (an :class:`~gongzhu_score.errors.ArgumentError`), a column (or a
    field of one read) named twice, a carried column named as an output column, a column named
    as a read one but for its case. Columns of ``string_view`` (Polars), ``large_string`` and
    dictionary-encoded columns are read as strings.
    """
    batches = _batches_of(table)
    variant = find_variant(rules) if rules is not None else None
    asked = ScoringOptions.parse(variant, normalize, check_scale(scale), rounding, teams)
    plan = _plan(table.schema, _batch(asked, partial), source, errors, lang)
    if type(first_row) is not int or first_row < 0:
        raise not_a("argument.first_row", first_row).within("first_row")
    count = threads_of(threads)
    out = [b for b, _ in _score_all(batches, plan, first_row, count)]
    return pa.Table.from_batches(out, schema=plan.schema)


def _batches_of(table: object) -> list[pa.RecordBatch]:
    if isinstance(table, pa.Table):
        batches: list[pa.RecordBatch] = table.to_batches()
    elif isinstance(table, pa.RecordBatch):
        batches = [table]
    else:
        raise not_a("argument.table", table).within("table")
    if all(b.num_rows <= _MOST_ROWS for b in batches):
        return batches
    # (in slices of one size: threads scoring them at once finish together)
    return [b.slice(k, size) for b in batches for size in [_slice_size(b.num_rows)]
            for k in range(0, b.num_rows, size)]  # fmt: skip


def _slice_size(rows: int) -> int:
    """Rows per slice, for the fewest equal slices of at most :data:`_MOST_ROWS`."""
    slices = -(-rows // _MOST_ROWS) or 1
    return -(-rows // slices) or 1


def read_columns(names: Sequence[str]) -> frozenset[str]:
    """The columns :func:`score_table` reads, of a table with columns ``names``.

    They are a hand's keys (``variant``, ``teams``, ``players``; and a player's fields written
    one level too high, which the row engine refuses as a hand file's), or, in a table with a
    ``tricks`` column, a trick-by-trick record's keys. Every other column is carried through.
    """
    return _RECORD if "tricks" in names else _HAND_KEYS


_HAND_KEYS = frozenset((*TOP_KEYS, *TOO_HIGH))
_RECORD = frozenset(RECORD_KEYS)


_PLANS: dict[tuple[object, ...], _Plan] = {}


def _plan(schema: pa.Schema, batch: Batch, source: object, errors: object, lang: object) -> _Plan:
    """:func:`_new_plan`, kept per table schema (metadata and all) and arguments.

    Every call of this process gets the same plan for the same inputs; a source of another name
    gets the same plan, named so.
    """
    if source is not None and not isinstance(source, str):
        raise not_a("argument.source", source).within("source")
    try:
        key = (schema, isinstance(source, str), batch, (type(errors), errors), (type(lang), lang))
        found = _PLANS.get(key)
    except TypeError:  # (something unhashable: refused by _new_plan)
        key, found = None, None
    if found is not None and schema.equals(found.given, check_metadata=True):
        return found if found.source == source else replace(found, source=source)
    made = _new_plan(schema, batch, source, errors, lang)
    if key is not None and found is None:
        keep(_PLANS, key, made, _KEEP_BATCHES)
    return made


def _new_plan(
    schema: pa.Schema, batch: Batch, source: str | None, errors: object, lang: object
) -> _Plan:
    """score_table's arguments checked, and its table's columns sorted into read and carried.

    Each error names its argument; what cannot be carried is refused.
    """
    if not isinstance(errors, str) or errors not in ERRORS:
        raise not_a("argument.errors", errors).within("errors")
    if not isinstance(lang, str) or lang not in LANGS:
        raise not_a("argument.lang", lang).within("lang")
    exact = batch.options.rounding is Rounding.EXACT
    names = schema.names
    reads = read_columns(names)
    read = [i for i, name in enumerate(names) if name in reads]
    carried = [i for i, name in enumerate(names) if name not in reads]
    check_schema(pa.schema([schema.field(i) for i in read]), source or "")
    written = {"players", *(["source"] if source is not None else []),
               *(["error"] if errors == "column" else [])}  # fmt: skip
    for i in carried:
        name = names[i]
        if name in written:
            raise error(InputError, "error.column.written", column=repr(name),
                        argument="errors='column'" if name == "error" else "source")  # fmt: skip
        like = next((k for k in sorted(reads) if k == name.strip().casefold()), None)
        if like is not None:
            raise error(InputError, "error.column.like_read", column=repr(name), read=repr(like))
    out = output_schema(exact, source=source is not None, error=errors == "column",
                        carried=[schema.field(i) for i in carried])  # fmt: skip
    kinds = [_plain_type(schema.field(i).type) for i in read]
    return _Plan(batch, source, exact, errors, read, carried, out, lang, kinds, schema)


def paths(
    table: pa.Table | pa.RecordBatch,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    *,
    teams: Teams | str | None = None,
) -> list[str]:
    """Which path :func:`score_table` takes for each row: ``column`` or ``row``.

    For tests, and for seeing why a table scores slowly.
    """
    batches = _batches_of(table)
    variant = find_variant(rules) if rules is not None else None
    asked = ScoringOptions.parse(variant, normalize, teams=teams)
    plan = _plan(table.schema, _batch(asked, False), None, "raise", "en")
    out: list[str] = []
    for rb in batches:
        read = _readable(_read_part(rb, plan), plan.kinds)
        rows = _Rows.of(rb.num_rows, False)
        out += ["column" if c else "row" for c in _column_path(read, plan.batch, rows).tolist()]
    return out


_BATCHES: dict[tuple[object, ...], Batch] = {}
_KEEP_BATCHES = 32


def _batch(options: ScoringOptions, partial: object) -> Batch:
    """The :class:`Batch` of these options, shared by every call of this process.

    It keeps the scorers, and so the compiled rules, it has made.
    """
    key = (options, type(partial), partial)  # (True is not taken for 1)
    try:
        found = _BATCHES.get(key)
    except TypeError:  # (a rule set that cannot be a key: made anew)
        found = None
    if found is not None:
        return found
    batch = Batch(options, flag_of(partial))
    try:
        return keep(_BATCHES, key, batch, _KEEP_BATCHES)
    except TypeError:  # (a value that cannot be a key: not kept)
        return batch


def check_schema(schema: pa.Schema, where: str) -> None:
    """Refuse a column, or a field of a column's structs, named twice.

    The row path would read one of them and drop the other unsaid. ``where`` is the input the
    error names.
    """
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
    """A type's fields: a struct's, or those of a list's structs."""
    if pa.types.is_struct(kind):
        return [kind.field(k) for k in range(kind.num_fields)]
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)
            or pa.types.is_fixed_size_list(kind) or _is_list_view(kind)):  # fmt: skip
        return _inner_fields(kind.value_type)
    return []


def _is_list_view(kind: pa.DataType) -> bool:
    return any(getattr(pa.types, f"is_{v}", lambda _: False)(kind)
               for v in ("list_view", "large_list_view"))  # fmt: skip


def _is(kind: pa.DataType, name: str) -> bool:
    """``pa.types.is_NAME(kind)``; False where this pyarrow lacks the type.

    pyarrow 16 has no views.
    """
    test = getattr(pa.types, f"is_{name}", None)
    return bool(test(kind)) if test is not None else False


def _plain_type(kind: pa.DataType) -> pa.DataType:
    """``kind`` as the column path reads it: plain strings, lists, decoded dictionaries.

    Text comes as ``string`` (``large_string`` and views, which Polars and Spark hand out);
    dictionaries are decoded (``dictionary<…, string>``, from pandas' categories, Polars' and
    Parquet's dictionaries); large lists and list views are read as lists (a hand's lists are
    short).
    """
    if pa.types.is_dictionary(kind):
        return _plain_type(kind.value_type)
    if _is(kind, "string_view") or pa.types.is_large_string(kind):
        return pa.string()
    if _is(kind, "binary_view") or pa.types.is_large_binary(kind):
        return pa.binary()
    if pa.types.is_struct(kind):
        return pa.struct([kind.field(k).with_type(_plain_type(kind.field(k).type))
                          for k in range(kind.num_fields)])  # fmt: skip
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or _is_list_view(kind):
        return pa.list_(kind.value_field.with_type(_plain_type(kind.value_type)))
    return kind


def _read_part(rb: pa.RecordBatch, plan: _Plan) -> pa.RecordBatch:
    """The columns of ``rb`` that are read."""
    if plan.read is None or len(plan.read) == rb.num_columns:
        return rb
    return pa.RecordBatch.from_arrays([rb.column(i) for i in plan.read],
                                      names=[rb.schema.names[i] for i in plan.read])  # fmt: skip


def _readable(rb: pa.RecordBatch, kinds: list[pa.DataType] | None = None) -> pa.RecordBatch:
    """The columns read, as both paths read them: plain types, the same values."""
    if kinds is None:
        kinds = [_plain_type(f.type) for f in rb.schema]
    if all(k == f.type for k, f in zip(kinds, rb.schema, strict=True)):
        return rb
    return pa.RecordBatch.from_arrays(
        [_cast(column, k) for column, k in zip(rb.columns, kinds, strict=True)],
        names=rb.schema.names,
    )


def _cast(column: pa.Array, kind: pa.DataType) -> pa.Array:
    """``column`` as ``kind``, through its values where pyarrow cannot cast it.

    pyarrow 16 casts no string view (it raises). pyarrow 16 to 26 cast a list view to a list
    whose offsets are wrong without a word, so list views are made lists here first.
    """
    if column.type == kind:
        return column
    plain = _unviewed(column)
    if plain is not None:
        try:
            return plain.cast(kind)
        except (pa.ArrowNotImplementedError, pa.ArrowInvalid, pa.ArrowTypeError):
            pass
    return pa.array(column.to_pylist(), type=kind)


def _unviewed(array: pa.Array) -> pa.Array | None:
    """``array`` with each list view in it made a large list of the same values; None for a view
    inside anything but structs and lists (a map's, a dictionary's).

    Only the values the lists hold are read: a slice of a large column costs its own size.
    """
    kind = array.type
    if not _holds_list_view(kind):
        return array
    mask = array.is_null() if array.null_count else None
    if pa.types.is_struct(kind):
        found = [_unviewed(array.field(k)) for k in range(kind.num_fields)]
        fields = [f for f in found if f is not None]
        if len(fields) < len(found):
            return None
        return pa.StructArray.from_arrays(
            fields, fields=[kind.field(k).with_type(f.type) for k, f in enumerate(fields)],
            mask=mask)  # fmt: skip
    if _is_list_view(kind):
        starts = _numbers(array.offsets, 0)
        sizes = _numbers(array.sizes, 0)
    elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
        bounds = _numbers(array.offsets, 0)
        starts, sizes = bounds[:-1], np.diff(bounds)
    else:
        return None
    if mask is not None:  # (a null list's offset and size may be anything)
        sizes = np.where(mask.to_numpy(zero_copy_only=False), 0, sizes)
    offsets = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    held = sizes > 0
    low = int(starts[held].min()) if held.any() else 0
    high = int((starts + sizes)[held].max()) if held.any() else 0
    values = _unviewed(array.values.slice(low, high - low))
    if values is None:
        return None
    at = np.arange(offsets[-1]) + np.repeat(starts - low - offsets[:-1], sizes)
    return pa.LargeListArray.from_arrays(pa.array(offsets), values.take(pa.array(at)), mask=mask)


def _holds_list_view(kind: pa.DataType) -> bool:
    """Whether ``kind`` is a list view or has one inside it."""
    if _is_list_view(kind):
        return True
    if pa.types.is_struct(kind):
        return any(_holds_list_view(kind.field(k).type) for k in range(kind.num_fields))
    inner = getattr(kind, "value_type", None)  # (lists of every size, dictionaries)
    return inner is not None and _holds_list_view(inner)


# --- threads ---------------------------------------------------------------------------------


_CORES: list[int] = []


def default_threads() -> int:
    """How many record batches :func:`score_table` scores at once when not told.

    One when called from a thread other than the main one: a Dask worker runs its tasks so, as
    do Dask's threaded scheduler and any caller with a pool of its own, and the caller is then
    the one running things in parallel. Else ``OMP_NUM_THREADS`` when set (Spark, Ray and Dask's
    worker processes set it to the CPUs of a task: 1 unless told otherwise), else this machine's
    cores, at most 8.
    """
    if threading.current_thread() is not threading.main_thread():
        return 1
    if not _CORES:
        _CORES.append(min(os.cpu_count() or 1, 8))  # (asked once: it does not change)
    cores = _CORES[0]
    told = os.environ.get("OMP_NUM_THREADS", "").strip()
    if told.isdigit() and int(told) >= 1:
        return min(int(told), cores)
    return cores


def threads_of(threads: object) -> int:
    """``threads`` as :func:`score_table` takes it: a whole number from 1, or None."""
    if threads is None:
        return default_threads()
    if type(threads) is not int or threads < 1:
        raise not_a("argument.threads", threads).within("threads")
    return threads


def score_batches(
    batches: Iterator[pa.RecordBatch] | Sequence[pa.RecordBatch],
    batch: Batch,
    source: str,
    exact: bool,
    keep_going: bool,
    first_row: int = 1,
    threads: int = 1,
) -> Iterator[tuple[pa.RecordBatch, list[BadRecord]]]:
    """``batch``'s record batches scored in order, as ``batch`` writes them.

    Rows are numbered on from ``first_row``; the results have ``source`` and ``players``. Each
    batch's results come with its bad rows when ``keep_going``; else the first bad row raises.
    Every column is read.
    """
    plan = _Plan(batch, source, exact, "keep" if keep_going else "raise", None, [],
                 output_schema(exact))  # fmt: skip
    return _score_all(batches, plan, first_row, threads)


def _score_all(
    batches: Iterator[pa.RecordBatch] | Sequence[pa.RecordBatch],
    plan: _Plan,
    first_row: int,
    threads: int,
) -> Iterator[tuple[pa.RecordBatch, list[BadRecord]]]:
    """Each record batch scored, ``threads`` at once; the results in order."""
    row = first_row
    if threads <= 1 or (isinstance(batches, Sequence) and len(batches) <= 1):
        for record_batch in batches:
            yield _score(record_batch, plan, row)
            row += record_batch.num_rows
        return
    # Batches are scored by threads: Arrow and numpy let go of the interpreter while they
    # work, and the results come back in order.
    with ThreadPoolExecutor(threads) as pool:
        pending: deque[Future[tuple[pa.RecordBatch, list[BadRecord]]]] = deque()
        for record_batch in batches:
            pending.append(pool.submit(_score, record_batch, plan, row))
            row += record_batch.num_rows
            if len(pending) > threads:  # (a bound on the batches held in memory)
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _score(rb: pa.RecordBatch, plan: _Plan, first: int) -> tuple[pa.RecordBatch, list[BadRecord]]:
    read = _read_part(rb, plan)
    if plan.read is None:
        check_schema(read.schema, plan.source or "")
    read = _readable(read, plan.kinds)
    rows = _Rows.of(rb.num_rows, plan.exact)
    columnar = _column_path(read, plan.batch, rows)
    bad: list[BadRecord] = []
    messages: dict[int, str] = {}
    if not columnar.all():
        bad = _row_path(read, plan, first, np.flatnonzero(~columnar), rows, messages)
    return _results(rb, read, rows, plan, first, messages), bad


# --- the row path: the row engine, as batch scores a JSON Lines line -----------------------------


def plain(value: object) -> object:
    """A row as JSON Lines would give it: no keys whose value is null."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _row_path(
    rb: pa.RecordBatch,
    plan: _Plan,
    first: int,
    indices: np.ndarray[Any, Any],
    rows: _Rows,
    messages: dict[int, str],
) -> list[BadRecord]:
    """Score the rows the column path did not take, as :meth:`Batch.score` would.

    A bad row raises naming itself, or comes back (``keep``), or leaves its message in
    ``messages`` (``column``: the message ``batch`` gives, after the row's place). A score the
    columns cannot hold is bad too.
    """
    # (no column read: each row is an empty hand, which the row engine refuses saying so)
    taken = _plain_rows(rb.take(pa.array(indices))) if rb.num_columns else [{}] * len(indices)
    exact = rows.finals.dtype == np.float64
    batch = plan.batch
    failed: list[tuple[int, GongzhuError]] = []
    alone = range(len(taken))  # (each scored alone, as Batch.score would, or says why not)
    for at in alone:
        i, data = int(indices[at]), taken[at]
        try:
            result = batch.scorer(data).score_data(data)  # (Batch.score, but for the place)
            large = too_large(result, exact)
            if large is not None:
                raise large
        except GongzhuError as e:
            failed.append((i, e))
            continue
        _put(rows, i, result.names, result.raws, result.finals, exact)
    bad: list[BadRecord] = []
    for i, refused in sorted(failed, key=lambda x: x[0]):  # (in order: the first raises)
        if plan.errors == "column":
            messages[i] = refused.text(plan.lang)
            continue
        problem = refused.within(plan.where(first + i))
        if plan.errors == "raise":
            raise problem from None
        bad.append(BadRecord(plan.where(first + i), problem))
    return bad


def _plain_rows(rb: pa.RecordBatch) -> list[Any]:
    """Each row as :func:`plain` makes it of ``rb.to_pylist()``, built faster.

    For text, lists of text and the players' structs of them, rows are built from the columns'
    values: no dict is made and then remade without its nulls.
    """
    if not all(_is_text(f.type) or (f.name == "players" and _players_of_text(f.type))
               for f in rb.schema):  # fmt: skip
        return [plain(row) for row in rb.to_pylist()]
    values = [_player_lists(c) if _players_of_text(c.type) else c.to_pylist()
              for c in rb.columns]  # fmt: skip
    names = rb.schema.names
    return [{k: v for k, v in zip(names, row, strict=True) if v is not None}
            for row in zip(*values, strict=True)]  # fmt: skip


def _is_text(kind: pa.DataType) -> bool:
    """Text, a list of text, or nulls: what :func:`plain` leaves alone."""
    if pa.types.is_list(kind):
        return bool(pa.types.is_string(kind.value_type) or pa.types.is_null(kind.value_type))
    return bool(pa.types.is_string(kind) or pa.types.is_null(kind))


def _players_of_text(kind: pa.DataType) -> bool:
    """A list of structs of text, with at least one field.

    A struct of no fields cannot be told from its fields' values.
    """
    return bool(pa.types.is_list(kind) and pa.types.is_struct(kind.value_type)
                and kind.value_type.num_fields > 0
                and all(_is_text(f.type) for f in kind.value_type))  # fmt: skip


def _player_lists(column: pa.Array) -> list[Any]:
    """A column of lists of player structs as plain Python.

    Each struct becomes a dict of its fields that are not null; a null struct or list is None.
    """
    players = column.flatten()  # (the values of the lists, with the column's own offset)
    names = [players.type.field(k).name for k in range(players.type.num_fields)]
    fields = [players.field(k).to_pylist() for k in range(len(names))]
    valid = players.is_valid().to_pylist() if players.null_count else None
    members: list[dict[str, Any] | None] = [
        {k: v for k, v in zip(names, row, strict=True) if v is not None}
        for row in zip(*fields, strict=True)
    ]
    if valid is not None:
        members = [m if ok else None for m, ok in zip(members, valid, strict=True)]
    lengths = _lengths(column).tolist()
    out: list[Any] = []
    at = 0
    for size, ok in zip(lengths, column.is_valid().to_pylist(), strict=True):
        out.append(members[at : at + size] if ok else None)
        at += size
    return out


_INT64 = (1 << 63) - 1


def too_large(result: HandResult, exact: bool) -> GongzhuError | None:
    """The error for results an int64 column cannot hold, or None.

    Raws, or whole finals, can be that large under house rules within their ranges.
    """
    return _too_large(result.raws, result.finals, exact)


def _too_large(
    raws: Sequence[int], finals: Sequence[int | Fraction], exact: bool
) -> GongzhuError | None:
    for value in [*raws] if exact else [*raws, *finals]:
        if not -_INT64 - 1 <= value <= _INT64:
            return error(GongzhuError, "error.column.too_large", value=f"{value:,}",
                         largest=f"{_INT64:,}")  # fmt: skip
    return None


def _put(
    rows: _Rows,
    i: int,
    names: Sequence[str],
    raws: Sequence[int],
    finals: Sequence[int | Fraction],
    exact: bool,
) -> None:
    rows.names[i] = list(names)
    rows.raws[i] = raws
    rows.finals[i] = [float(f) if exact else int(f) for f in finals]
    rows.scored[i] = True
    rows.by_row[i] = True


# --- the column path -----------------------------------------------------------------------------


def _column_path(rb: pa.RecordBatch, batch: Batch, rows: _Rows) -> np.ndarray[Any, Any]:
    """Score every row the column path can take; return which it took."""
    n = len(rows.scored)  # (not rb's: a batch of no columns has no rows)
    taken = np.zeros(n, bool)
    names = set(rb.schema.names)
    if "players" not in names or names - _TABLE_COLUMNS:
        return taken  # (records and other shapes: the row path, which names what is wrong)
    players = rb.column("players")
    if not pa.types.is_list(players.type):  # (every list kind is a list by now: _readable)
        return taken
    member = players.type.value_type
    if not pa.types.is_struct(member):
        return taken
    fields = {member.field(k).name for k in range(member.num_fields)}
    if "name" not in fields or "captured" not in fields or fields - _PLAYER_FIELDS:
        return taken
    four = _lengths(players) == 4
    seated: _Names | None = None
    for (variant, teams), group in _groups(rb, batch, four):
        scorer = batch.scorer({"variant": variant, "teams": teams} if teams else
                              {"variant": variant})  # fmt: skip
        seated = seated or _Names.of(players)
        done = _score_group(players, group, scorer.variant, scorer.normalization, rows, seated)
        taken[group[done]] = True
    return taken


@dataclass(frozen=True)
class _Names:
    """A batch's players' names, each distinct name checked once for all its groups."""

    base: int
    """Where the batch's first player is among the players' entries."""
    codes: np.ndarray[Any, Any]
    """Each player's name's number (its place in ``known``; a null: ``len(known)``)."""
    known: list[str]
    plain: np.ndarray[Any, Any]
    """Whether each number's name is a plain name (the engine's own check); a null's is not."""

    @classmethod
    def of(cls, players: pa.Array) -> _Names:
        offsets = players.offsets.to_numpy(zero_copy_only=False)
        base, top = int(offsets[0]), int(offsets[-1])
        encoded = pc.dictionary_encode(players.values.field("name").slice(base, top - base))
        known = encoded.dictionary.to_pylist()
        plain = np.array([is_plain_name(x) for x in known] + [False])
        return cls(base, _numbers(encoded.indices, len(known)), known, plain)


def _groups(
    rb: pa.RecordBatch, batch: Batch, four: np.ndarray[Any, Any]
) -> Iterator[tuple[tuple[str, str | None], np.ndarray[Any, Any]]]:
    """Rows of four players, grouped by the (variant, teams) each names.

    Null means not named.
    """
    n = rb.num_rows
    keys: list[np.ndarray[Any, Any]] = []
    values: list[list[object]] = []
    for column in ("variant", "teams"):
        if column in rb.schema.names:
            array = rb.column(column)
            if pa.types.is_string(array.type) and array.null_count < n:
                encoded = pc.dictionary_encode(array)
                keys.append(_numbers(encoded.indices, -1))
                values.append(encoded.dictionary.to_pylist())
                continue
            if not pa.types.is_null(array.type) and array.null_count < n:
                return  # (not names: the row path refuses them, row by row)
            keys.append(np.full(n, -1))
            values.append([])
        else:
            keys.append(np.full(n, -1))
            values.append([])
    code = (keys[0] + 1) * (len(values[1]) + 1) + (keys[1] + 1)
    for value in unique(code[four])[0] if four.any() else ():
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


def _cards(array: pa.Array, entries: np.ndarray[Any, Any] | None = None) -> Masks | None:
    """The cards of a column of card strings (``"QS 6H"``), code lists, or nulls.

    ``entries`` picks which entries, in order (None: all). The column's types are plain
    (:func:`_readable`: text is ``string``, lists are ``list``); None for any other type. Only
    canonical codes are read here; an entry with anything else is marked, and its hand goes to
    the row path, whose parser reads every spelling or says precisely what is wrong.
    """
    if pa.types.is_null(array.type):
        return no_cards(len(array) if entries is None else len(entries))
    if pa.types.is_list(array.type) and not pa.types.is_string(array.type.value_type):
        try:
            array = array.cast(pa.list_(pa.string()))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
    if pa.types.is_list(array.type) and pa.types.is_string(array.type.value_type):
        if entries is not None:
            array = array.take(pa.array(entries))
        lengths = _lengths(array)
        found = pc.index_in(pc.list_flatten(array), value_set=_CODES)
        bad = pc.is_null(found).to_numpy(zero_copy_only=False)
        return _per_entry(_numbers(found, 0), bad, lengths)
    if not pa.types.is_string(array.type):
        return None
    return _masks_by_arrow(array if entries is None else array.take(pa.array(entries)))


def _per_entry(card: np.ndarray[Any, Any], bad: np.ndarray[Any, Any],
               lengths: np.ndarray[Any, Any]) -> Masks:  # fmt: skip
    """:data:`Masks` from each token's card (its index in DECK) and whether it is none, and how
    many tokens each entry holds."""
    unknown = np.zeros(len(lengths), bool)
    bits = _BIT[np.maximum(card, 0)]  # int64: every mask fits in 52 bits
    if bad.any():  # (whose tokens are bad: found by their place among the entries'; no bits)
        unknown[np.searchsorted(np.cumsum(lengths), np.flatnonzero(bad), "right")] = True
        bits[bad] = 0
    sums = _sum_per_list(bits, lengths, np.add)
    # A list's bits added up are its bits or'ed where no card is in it twice: then nothing
    # carries, and the sum has a bit for each card. Only the other lists are or'ed.
    again = np.flatnonzero(bit_count(sums) != lengths)
    if not len(again):
        return sums, sums.copy(), lengths, unknown
    ends = np.cumsum(lengths)
    spans = np.empty(2 * len(again), np.int64)  # (each such list's start and end, in turn)
    spans[0::2], spans[1::2] = (ends - lengths)[again], ends[again]
    ors = sums.copy()
    ors[again] = np.bitwise_or.reduceat(np.append(bits, 0), spans)[0::2]
    return ors, sums, lengths, unknown


def _masks_by_arrow(array: pa.Array) -> Masks:
    """The cards of a column of texts, read by Arrow: each text split at its spaces, the empty
    pieces left out, and the rest looked up as a list of codes is."""
    pieces = pc.split_pattern(array, " ")
    tokens = pc.list_flatten(pieces)  # (a null text is a null list: no tokens, no cards)
    found = pc.index_in(tokens, value_set=_CODES_OR_EMPTY)
    card = _numbers(found, -1)
    bad = card < 0
    lengths = _lengths(pieces)
    empty = card == _EMPTY
    if empty.any():  # (two spaces in a row, or one at an end: an empty piece, no card)
        lengths = _sum_per_list((~empty).astype(np.int64), lengths, np.add)
        card, bad = card[~empty], bad[~empty]
    return _per_entry(card, bad, lengths)


_EMPTY = len(DECK)
_CODES_OR_EMPTY = pa.array([*(c.code for c in DECK), ""])
"""The 52 codes, then the empty piece."""


_BIT = np.array([1 << i for i in range(len(DECK))], np.int64)
"""Each card's bit (bit i: DECK[i])."""


def _numbers(array: pa.Array, null: int) -> np.ndarray[Any, Any]:
    """An Arrow array of whole numbers as numpy's, ``null`` for nulls."""
    full = pc.coalesce(array, pa.scalar(null, array.type)) if array.null_count else array
    numbers: np.ndarray[Any, Any] = full.to_numpy(zero_copy_only=False)
    return numbers


def _lengths(lists: pa.Array) -> np.ndarray[Any, Any]:
    """How many items each list of ``lists`` holds; a null list none."""
    offsets = lists.offsets.to_numpy(zero_copy_only=False)
    lengths: np.ndarray[Any, Any] = np.diff(offsets).astype(np.int64)
    if lists.null_count:
        lengths[lists.is_null().to_numpy(zero_copy_only=False)] = 0
    return lengths


def _any(column: pa.Array) -> bool:
    """Whether a column of cards has anything but nulls."""
    return bool(column.null_count < len(column))


def _valid(column: pa.Array) -> np.ndarray[Any, Any]:
    """Which entries of ``column`` are not null, its validity bits unpacked by numpy (Arrow's
    ``is_valid`` makes an array of them first)."""
    bits = column.buffers()[0]
    if bits is None:
        return np.ones(len(column), bool)
    first, n = column.offset, len(column)  # (only the bytes of the column's own bits)
    held = np.frombuffer(bits, np.uint8)[first // 8 : (first + n + 7) // 8]
    unpacked = np.unpackbits(held, bitorder="little")
    valid: np.ndarray[Any, Any] = unpacked[first % 8 : first % 8 + n].view(bool)
    return valid


def _sum_per_list(values: np.ndarray[Any, Any], lengths: np.ndarray[Any, Any],
                  op: Any) -> np.ndarray[Any, Any]:  # fmt: skip
    """``op`` over each list's values; 0 for an empty list.

    ``lengths`` is how many each list holds.
    """
    out = np.zeros(len(lengths), values.dtype)
    filled = lengths > 0
    if len(values):  # (only the lists that hold some: each reduced up to the next one's start)
        out[filled] = op.reduceat(values, (np.cumsum(lengths) - lengths)[filled])
    return out


def _score_group(
    players: pa.Array,
    rows_of: np.ndarray[Any, Any],
    variant: Variant,
    norm: Normalization,
    rows: _Rows,
    names: _Names,
) -> np.ndarray[Any, Any]:
    """Score the rows ``rows_of`` by columns (:func:`.core.masks.score_seats`); return which
    it scored.

    Each row has four players; the others go the row path. ``names`` are the batch's.
    """
    m = len(rows_of)
    if not m:
        return np.zeros(0, bool)
    seats = _seats(players, rows_of, names)
    if seats is None:
        return np.zeros(m, bool)
    scores = score_seats(seats, variant, compiled_rules(variant), norm,
                         rows.finals.dtype == np.float64)  # fmt: skip
    done = rows_of[scores.ok]
    rows.raws[done] = scores.raws[scores.ok]
    rows.finals[done] = scores.finals[scores.ok]
    rows.scored[done] = True
    return scores.ok


def _seats(players: pa.Array, rows_of: np.ndarray[Any, Any], names: _Names) -> Seats | None:
    """The rows ``rows_of``'s players read into arrays, or None for columns of another type."""
    m = len(rows_of)
    starts = players.offsets.to_numpy(zero_copy_only=False)[rows_of]
    # these rows' players, read in place (nothing copied): ``at`` each one's place
    low = int(starts.min())
    members = players.values.slice(low, int(starts.max()) + 4 - low)
    at = (starts[:, None] - low + np.arange(4)).ravel()
    # a null player (its fields may still hold data behind it) is the row path's to refuse
    ok: np.ndarray[Any, Any] = np.ones(m, bool)
    if members.null_count:
        ok &= all_four(_valid(members)[at])
    captured = _cards(members.field("captured"), at)
    if captured is None:
        return None
    fields = {members.type.field(k).name for k in range(members.type.num_fields)}
    shown = []
    for field in ("exposed", "first_exposed"):
        if field not in fields or not _any(column := members.field(field)):
            continue
        # Most players expose nothing: only the entries given are read.
        given = np.flatnonzero(_valid(column)[at]) if column.null_count else np.arange(len(at))
        looked = _cards(column, at[given])
        if looked is None:
            return None
        shown.append((field == "first_exposed", given, looked))
    codes = names.codes[at + (low - names.base)]
    return Seats(ok, codes, names.known, names.plain, captured, shown)


# --- the results ---------------------------------------------------------------------------------


def _names(rb: pa.RecordBatch, rows: _Rows, scored: np.ndarray[Any, Any]) -> pa.Array:
    """The scored rows' names in seat order.

    Where the column path scored, they are as the input has them (it takes names only as given);
    else as the row engine read them.
    """
    by_row = rows.by_row[scored]
    column = scored[~by_row]
    players = rb.column("players") if len(column) else None
    taken = pa.array([], pa.string())
    if players is not None:
        starts = players.offsets.to_numpy(zero_copy_only=False)[column]
        names = players.values.field("name")
        if (np.diff(starts) == 4).all():  # (side by side: no copy)
            taken = names.slice(int(starts[0]), 4 * len(column))
        else:
            taken = names.take(pa.array((starts[:, None] + np.arange(4)).ravel()))
        if not by_row.any():
            return taken
    read = pa.array([n for i in scored[by_row].tolist() for n in rows.names[i] or ()],
                    pa.string())  # fmt: skip
    if not len(column):
        return read
    place = np.empty(len(scored), np.int64)
    place[~by_row] = np.arange(len(column))
    place[by_row] = len(column) + np.arange(int(by_row.sum()))
    both = pa.concat_arrays([taken, read])
    return both.take(pa.array((place[:, None] * 4 + np.arange(4)).ravel()))


def _results(
    rb: pa.RecordBatch,
    read: pa.RecordBatch,
    rows: _Rows,
    plan: _Plan,
    first: int,
    messages: dict[int, str],
) -> pa.RecordBatch:
    """The output batch: carried columns, ``source``, ``players`` and ``error``.

    ``players`` are of the hands read from ``read``. A bad row is left out with ``keep``, else
    kept (its ``players`` null, its message in ``error``).
    """
    scored = np.flatnonzero(rows.scored)
    k = len(scored)
    out = scored if plan.errors == "keep" else np.arange(rb.num_rows)
    arrays: list[pa.Array] = [rb.column(i) for i in plan.carried]
    if plan.source is not None:
        numbers = pc.cast(pa.array(out + first), pa.string())
        arrays.append(pc.binary_join_element_wise(pa.scalar(plan.source or "row"), numbers,
                                                  ":"))  # fmt: skip
    names = _names(read, rows, scored)
    final_type = pa.float64() if plan.exact else pa.int64()
    members = pa.StructArray.from_arrays(
        [names, pa.array(rows.raws[scored].ravel()),
         pa.array(rows.finals[scored].ravel(), final_type)],
        names=["name", "raw", "final"],
    )  # fmt: skip
    if k == len(out):
        offsets = pa.array(np.arange(0, 4 * k + 1, 4, dtype=np.int32))
        arrays.append(pa.ListArray.from_arrays(offsets, members))
    else:  # (errors="column": a bad row's players are null)
        ends = np.cumsum(rows.scored.astype(np.int32) * 4, dtype=np.int32)
        offsets = pa.array(np.concatenate((np.zeros(1, np.int32), ends)))
        arrays.append(pa.ListArray.from_arrays(offsets, members,
                                               mask=pa.array(~rows.scored)))  # fmt: skip
    if plan.errors == "column":
        arrays.append(pa.array([messages.get(i) for i in range(rb.num_rows)], pa.string())
                      if messages else pa.nulls(rb.num_rows, pa.string()))  # fmt: skip
    return pa.RecordBatch.from_arrays(arrays, schema=plan.schema)


def results_batch(results: Sequence[tuple[str, HandResult]], schema: pa.Schema) -> pa.RecordBatch:
    """Row-engine results (``source``, result) as a batch of the output schema."""
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


# --- JSON Lines, read by Arrow's JSON reader ------------------------------------------------------

_JSON_PLAYER = pa.struct([(field, pa.string()) for field in ("name", "captured", "exposed",
                                                              "first_exposed")])  # fmt: skip
_JSON_SCHEMA = pa.schema([("players", pa.list_(_JSON_PLAYER)), ("variant", pa.string()),
                          ("teams", pa.string())])  # fmt: skip
_JSON_BLOCK = 1 << 20
"""Arrow reads JSON a block at a time, each line within one: a line is at most a megabyte
(:data:`.reading.MAX_RECORD_BYTES`)."""
_JSON_PARSE = pj.ParseOptions(explicit_schema=_JSON_SCHEMA, unexpected_field_behavior="ignore")


def score_json_lines(
    texts: list[bytes], batch: Batch
) -> tuple[np.ndarray[Any, Any], pa.Array, np.ndarray[Any, Any], np.ndarray[Any, Any]] | None:
    """JSON Lines (none blank) read by Arrow's JSON reader and scored by the column path.

    Returns which lines' hands it scored, and their names (an Arrow array), raws and finals
    (numpy's), four a hand, in order; a line it does not take is the caller's to score the
    careful way. None where the reader refuses the text as a whole (a line that is not JSON, a
    key given twice, a value of another type): then another reader reads the lines. A line
    with a key Arrow passes over (unknown, or null: found by counting its colons, as
    :func:`.reading.json_record` does) or an escape is not taken.
    """
    n = len(texts)
    if not n:
        return (
            np.zeros(0, bool),
            pa.array([], pa.string()),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
        )
    joined = b"\n".join(texts)
    try:
        table = pj.read_json(io.BytesIO(joined),
                             read_options=pj.ReadOptions(block_size=_JSON_BLOCK),
                             parse_options=_JSON_PARSE)  # fmt: skip
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return None
    if table.num_rows != n:  # (two objects on a line, say)
        return None
    rb = table.combine_chunks().to_batches()[0]
    colons = _per_line(joined, n, b":")
    colons[_per_line(joined, n, b"\\") > 0] = -1
    rows = _Rows.of(n, False)
    _column_path(rb, batch, rows)
    ok = rows.scored & (colons == _key_counts(rb))
    players = rb.column("players")
    starts = players.offsets.to_numpy(zero_copy_only=False)[np.flatnonzero(ok)]
    at = (starts[:, None] + np.arange(4)).ravel()
    names = players.values.field("name").take(pa.array(at))
    return ok, names, rows.raws[ok].ravel(), rows.finals[ok].ravel()


def _per_line(joined: bytes, n: int, byte: bytes) -> np.ndarray[Any, Any]:
    """How many times ``byte`` occurs in each of the ``n`` lines of ``joined`` (the lines
    joined by newlines): numpy finds them all at once, then where each line ends among them."""
    text = np.frombuffer(joined, np.uint8)
    found = np.flatnonzero(text == byte[0])
    if not len(found):
        return np.zeros(n, np.int64)
    ends = np.empty(n + 1, np.int64)  # (how many come before each line's end)
    ends[0] = 0
    ends[1:n] = np.searchsorted(found, np.flatnonzero(text == 10))
    ends[n] = len(found)
    return np.diff(ends)


def _key_counts(rb: pa.RecordBatch) -> np.ndarray[Any, Any]:
    """How many keys each row's line gave a value (not null) to, its players' included."""
    players = rb.column("players")
    counts = _valid(players).astype(np.int64)
    for column in ("variant", "teams"):
        counts += _valid(rb.column(column))
    members = players.values
    held = np.zeros(len(members), np.int64)
    for k in range(members.type.num_fields):
        held += _valid(members.field(k))
    filled = _lengths(players) > 0
    if filled.any():
        offsets = players.offsets.to_numpy(zero_copy_only=False)
        counts[filled] += np.add.reduceat(held[: offsets[-1]], offsets[:-1][filled])
    return counts
