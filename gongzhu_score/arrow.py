"""Score Arrow tables of hands (Parquet files, Spark's ``mapInArrow``, Ray's ``map_batches``,
Dask, Polars): :func:`score_table` is a pure function from a table of hands to a table of
results, with the numbers of ``batch --format jsonl``; the columns it does not read
(:func:`read_columns`) come out unchanged beside them, and with ``errors="column"`` a bad hand
is reported in an ``error`` column instead of raising. It needs the ``arrow`` extra
(``pip install 'gongzhu-score[arrow]'``: pyarrow and numpy).

How a table is read and scored, a column at a time by the one engine, is told in
:mod:`gongzhu_score.batch.columns`.
"""

from .batch.columns import (
    OUTPUT_SCHEMA,
    default_threads,
    output_schema,
    paths,
    read_columns,
    score_table,
)

__all__ = ["OUTPUT_SCHEMA", "default_threads", "output_schema", "paths", "read_columns",
           "score_table"]  # fmt: skip
