"""Score Arrow tables of hands: Parquet, Spark, Ray, Dask, Polars.

:func:`score_table` is a pure function from a table of hands to a table of results, with the
numbers of ``batch --format jsonl``. The columns it does not read (:func:`read_columns`) come
out unchanged beside them; with ``errors="column"`` a bad hand is reported in an ``error``
column instead of raising. The engines' adapters are a few lines each over it:
:func:`score_dask` for a ``dask.dataframe``, :func:`spark_scoring` for Spark's ``mapInArrow``
(the function and the output schema as Spark takes it) and :func:`ray_scoring` for Ray Data's
``map_batches``. It needs the ``arrow`` extra (``pip install 'gongzhu-score[arrow]'``: pyarrow
and numpy); ``score_dask`` the ``dask`` extra, ``spark_scoring`` the ``spark`` extra,
``ray_scoring`` the ``ray`` extra.

How a table is read and scored, a column at a time by the one engine, is told in
:mod:`gongzhu_score.batch.columns`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

from .batch.columns import (
    OUTPUT_SCHEMA,
    default_threads,
    output_schema,
    paths,
    read_columns,
    score_table,
)
from .core.normalize import Method, Rounding, Teams
from .core.variant import Variant

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["OUTPUT_SCHEMA", "SparkScoring", "default_threads", "output_schema", "paths",
           "ray_scoring", "read_columns", "score_dask", "score_table",
           "spark_scoring"]  # fmt: skip


def score_dask(
    frame: Any,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    **options: Unpack[TableOptions],
) -> Any:
    """Score a ``dask.dataframe`` of hands partition by partition.

    The frame is ``dd.read_parquet`` of hands, say; ``frame.map_partitions`` runs with its
    ``meta``, each partition's hands through :func:`score_table` with these options. The columns
    not read come out as they are (the same pandas columns, the partition's index kept), then
    ``players`` (pandas' ``ArrowDtype`` of a list of structs with ``name``, ``raw``, ``final``)
    and, with ``errors="column"``, ``error``. What :func:`score_table` refuses of the columns'
    names, or of the options, is refused here, before anything runs. There is no ``source``: the
    key columns carried through name the rows, since a partition's rows would be numbered from
    1.
    """
    import pandas as pd

    asked = _options(rules, normalize, options)
    names = [str(name) for name in frame.columns]
    out = _checked(names, asked)
    reads = read_columns(names)
    meta = frame._meta.drop(columns=[name for name in names if name in reads])
    for column in out:
        if column.name not in meta.columns:
            meta[column.name] = pd.Series([], dtype=pd.ArrowDtype(column.type), index=meta.index)
    return frame.map_partitions(_score_partition, meta=meta, options=asked)


def _score_partition(part: Any, options: dict[str, Any]) -> Any:
    """Score one pandas partition: its read columns as Arrow, the rest kept."""
    import pandas as pd
    import pyarrow as pa

    reads = read_columns([str(name) for name in part.columns])
    read = [name for name in part.columns if name in reads]
    scored = score_table(pa.Table.from_pandas(part[read], preserve_index=False), **options)
    out = part.drop(columns=read)
    results = scored.to_pandas(types_mapper=pd.ArrowDtype)
    for name in results.columns:
        out[name] = results[name].set_axis(part.index)
    return out


class TableOptions(TypedDict, total=False):
    """The options of :func:`score_table` an engine's task takes.

    Besides ``rules`` and ``normalize``; declared once here for the three adapters.
    """

    scale: int
    rounding: Rounding | str
    teams: Teams | str | None
    partial: bool
    errors: str
    lang: str


def _options(
    rules: Variant | str | None, normalize: Method | str | None, options: TableOptions
) -> dict[str, Any]:
    """An engine task's options for :func:`score_table`, as a dict that pickles.

    :func:`_checked` checks them on the driver, where a name it does not take is refused too.
    """
    return {"rules": rules, "normalize": normalize, **options}


def _checked(names: Iterable[str], options: dict[str, Any]) -> Any:
    """The result schema for these columns, refusing what ``score_table`` would.

    An empty table of them is scored with the options, so a bad option or column name is refused
    on the driver before any task runs, not once per task.
    """
    import pyarrow as pa

    return score_table(pa.table({name: pa.nulls(0) for name in names}), **options).schema


@dataclass(frozen=True)
class SparkScoring:
    """What Spark's ``DataFrame.mapInArrow`` takes, from :func:`spark_scoring`.

    Call it with an iterator of Arrow record batches (Spark does, on its executors) and it
    yields them scored; :attr:`schema` is the output's schema as a Spark ``StructType``. Each
    batch is scored by :func:`score_table` on one thread (the task's CPU).
    """

    schema: Any
    """The input's columns not read (as Spark typed them), then ``players``, then ``error``
    with ``errors="column"``."""
    options: dict[str, Any] = field(repr=False)

    def __call__(self, batches: Iterator[Any]) -> Iterator[Any]:
        from pyspark.sql.pandas.types import to_arrow_schema

        targets: dict[bool, Any] = {}
        for batch in batches:
            # Spark sends text as large_string when its session says so
            # (spark.sql.execution.arrow.useLargeVarTypes) and takes back only the same kind;
            # the worker knows the setting, this function only sees the batch.
            large = _large_text(batch.schema.field("players").type)
            if large not in targets:
                targets[large] = to_arrow_schema(self.schema, prefers_large_types=large)
            scored = score_table(batch, threads=1, **self.options)
            yield from scored.cast(targets[large]).to_batches()


def _large_text(kind: Any) -> bool:
    """Whether an Arrow type holds text as ``large_string``, at any depth."""
    import pyarrow as pa

    if pa.types.is_large_string(kind):
        return True
    return any(_large_text(kind.field(i).type) for i in range(kind.num_fields))


def spark_scoring(
    schema: Any,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    **options: Unpack[TableOptions],
) -> SparkScoring:
    """Score a Spark DataFrame of hands with ``mapInArrow``.

    ``scoring = spark_scoring(hands.schema, …)``, then
    ``hands.mapInArrow(scoring, scoring.schema)``. ``schema`` is the input DataFrame's (a
    ``StructType``). Its columns that :func:`score_table` does not read (``hand_id``, dates,
    anything) come out unchanged beside ``players`` (``final`` a ``double`` with
    ``rounding="exact"``, else a ``bigint``) and, with ``errors="column"``, ``error``. A bad
    option or column name is refused here, on the driver. There is no ``source``: a task's rows
    would be numbered from 1, so the key columns name them. Needs the ``spark`` extra.
    """
    from pyspark.sql.pandas.types import from_arrow_type
    from pyspark.sql.types import StructField, StructType

    asked = _options(rules, normalize, options)
    names = [column.name for column in schema.fields]
    out = _checked(names, asked)
    reads = read_columns(names)
    given = {column.name: column for column in schema.fields if column.name not in reads}
    fields = [given[name] if name in given else StructField(name, from_arrow_type(kind), True)
              for name, kind in zip(out.names, out.types, strict=True)]  # fmt: skip
    return SparkScoring(StructType(fields), asked)


def ray_scoring(
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    **options: Unpack[TableOptions],
) -> Any:
    """Score a Ray Dataset of hands with ``map_batches``.

    ``ds.map_batches(ray_scoring(…), batch_format="pyarrow")``. The function takes and gives an
    Arrow table: the columns not read, then ``players`` and, with ``errors="column"``,
    ``error``, on one thread (the task's CPU). A bad option is refused here. Ray itself does not
    keep the rows' order unless told (``DataContext.execution_options.preserve_order``), so
    carry a key column. Needs the ``ray`` extra.
    """
    asked = _options(rules, normalize, options)
    _checked(["players"], asked)
    return functools.partial(score_table, threads=1, **asked)
