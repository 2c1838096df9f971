"""Score Arrow tables of hands (Parquet files, Spark's ``mapInArrow``, Ray's ``map_batches``,
Dask, Polars): :func:`score_table` is a pure function from a table of hands to a table of
results, with the numbers of ``batch --format jsonl``; the columns it does not read
(:func:`read_columns`) come out unchanged beside them, and with ``errors="column"`` a bad hand
is reported in an ``error`` column instead of raising. :func:`score_dask` does the same for a
``dask.dataframe``. It needs the ``arrow`` extra (``pip install 'gongzhu-score[arrow]'``:
pyarrow and numpy; ``score_dask`` the ``dask`` extra).

How a table is read and scored, a column at a time by the one engine, is told in
:mod:`gongzhu_score.batch.columns`.
"""

from __future__ import annotations

from typing import Any

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

__all__ = ["OUTPUT_SCHEMA", "default_threads", "output_schema", "paths", "read_columns",
           "score_dask", "score_table"]  # fmt: skip


def score_dask(
    frame: Any,
    rules: Variant | str | None = None,
    normalize: Method | str | None = None,
    *,
    scale: int = 1,
    rounding: Rounding | str = Rounding.NEAREST,
    teams: Teams | str | None = None,
    partial: bool = False,
    errors: str = "raise",
    lang: str = "en",
) -> Any:
    """A ``dask.dataframe`` of hands (``dd.read_parquet`` of them, say) scored partition by
    partition: ``frame.map_partitions`` with its ``meta``, each partition's hands through
    :func:`score_table` with these options. The columns not read come out as they are (the
    same pandas columns, the partition's index kept), then ``players`` (pandas'
    ``ArrowDtype`` of a list of structs with ``name``, ``raw``, ``final``) and, with
    ``errors="column"``, ``error``. What :func:`score_table` refuses of the columns' names, or
    of the options, is refused here, before anything runs. No ``source``: the key columns
    carried through name the rows (a partition's rows would be numbered from 1)."""
    import pandas as pd
    import pyarrow as pa

    options: dict[str, Any] = {"rules": rules, "normalize": normalize, "scale": scale,
                               "rounding": rounding, "teams": teams, "partial": partial,
                               "errors": errors, "lang": lang}  # fmt: skip
    names = [str(name) for name in frame.columns]
    # (the checks of score_table, on the columns' names: an empty table of them)
    empty = score_table(pa.table({name: pa.nulls(0) for name in names}), **options)
    reads = read_columns(names)
    meta = frame._meta.drop(columns=[name for name in names if name in reads])
    for field in empty.schema:
        if field.name not in meta.columns:
            meta[field.name] = pd.Series([], dtype=pd.ArrowDtype(field.type), index=meta.index)
    return frame.map_partitions(_score_partition, meta=meta, options=options)


def _score_partition(part: Any, options: dict[str, Any]) -> Any:
    """One pandas partition scored: its columns read as Arrow, the others kept as they are."""
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
