"""Spark jobs that tests/test_engines.py runs in a process of their own (a JVM and its Python
workers are not a test process's to keep): ``python engine_jobs.py exact-kill FOLDER``,
reading ``FOLDER/lake`` and writing ``FOLDER/scored``: ``spark_scoring`` with
``rounding="exact"`` (``final`` a double), Spark sending text as plain ``string``
(``useLargeVarTypes`` off; docs/batch.md's program runs with the default), on ``local[2,4]``
(two threads, a task tried up to four times) where the first task's Python worker kills itself
with SIGKILL after it has given back two batches, so Spark must throw that task's output away
and run it again: every row must come out once. (One JVM for both: each start costs seconds.)
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (imported when a job runs: collecting the tests imports no pyspark)
    from pyspark.sql import SparkSession


def session(master: str, **conf: str) -> SparkSession:
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.master(master).config("spark.ui.enabled", "false")
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main(job: str, folder: Path) -> None:
    from gongzhu_score.arrow import spark_scoring

    if job != "exact-kill":
        sys.exit(f"no job {job!r}")
    spark = session(
        "local[2,4]",
        **{
            "spark.sql.execution.arrow.useLargeVarTypes": "false",
            "spark.sql.execution.arrow.maxRecordsPerBatch": "200",
        },
    )
    hands = spark.read.parquet(str(folder / "lake"))
    scoring = spark_scoring(hands.schema, errors="column", rounding="exact")
    marker = str(folder / "killed")

    def killed_once(batches: Iterator[Any]) -> Iterator[Any]:
        for given, batch in enumerate(scoring(batches), 1):
            yield batch
            if given == 2 and not os.path.exists(marker):
                Path(marker).write_text(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)

    hands.mapInArrow(killed_once, scoring.schema).write.parquet(str(folder / "scored"))
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
