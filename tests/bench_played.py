"""The benchmark's section on realistic played hands (tests/benchmark.py, issue 24 point 5):
``tests/played.py``'s hands in one Parquet file through ``score_table``, ``batch``, Spark and
Ray, each process started in the temporary folder (``Place``) without PYTHONPATH, each saying
which engine it ran (Spark's and Ray's worker processes too)."""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from typing import Any

from bench_batch import READ_TABLE
from bench_common import ENGINE, INSTALLED_ENV, Place, engine_words

PLAYED_ALONE = (
    ENGINE
    + """
import json, statistics, sys, time
import pyarrow.parquet as pq
from gongzhu_score.arrow import default_threads, score_table
reads, scores = [], []
for _ in range(3):
    t = time.perf_counter(); table = pq.read_table(sys.argv[1]); reads.append(time.perf_counter() - t)
    t = time.perf_counter(); score_table(table); scores.append(time.perf_counter() - t)
print(json.dumps({"read": statistics.median(reads), "score": statistics.median(scores),
                  "threads": default_threads(), "engine": engine()}))
"""
)
# Spark and Ray: the job timed from the session (cluster) up to the output written; after it,
# untimed (its seconds are taken off the process's), which engine a worker process imported.
# With "floor-first", a process times only the rows passed through unchanged as its first job:
# the engine's own cost from a fresh start, to set beside the scoring job's first run.
SPARK = (
    ENGINE
    + """
import json, sys, time
from pyspark.sql import SparkSession
import gongzhu_score.arrow
path, out = sys.argv[1:3]
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .getOrCreate())
if sys.argv[3:] == ["floor-first"]:
    started = time.perf_counter()
    first = spark.read.parquet(path)
    first.mapInArrow(lambda batches: batches, first.schema).write.mode("overwrite").parquet(out)
    print(json.dumps({"fresh_floor": time.perf_counter() - started}))
    sys.exit()
start = time.perf_counter()
hands = spark.read.parquet(path)
scoring = gongzhu_score.arrow.spark_scoring(hands.schema)
hands.mapInArrow(scoring, scoring.schema).write.mode("overwrite").parquet(out)
job = time.perf_counter() - start


def timed(function, schema, to):
    started = time.perf_counter()
    spark.read.parquet(path).mapInArrow(function, schema).write.mode("overwrite").parquet(to)
    return time.perf_counter() - started


def unchanged(batches):
    yield from batches


# Spark's own cost, warm, and the job again: each twice, in turn, the best of each (so that
# neither takes the other's warming up)
floors, agains = [], []
for _ in range(2):
    floors.append(timed(unchanged, hands.schema, out + "-floor"))
    agains.append(timed(scoring, scoring.schema, out))
floor, again = min(floors), min(agains)
partitions = hands.rdd.getNumPartitions()
worker = spark.sparkContext.parallelize([0], 1).map(lambda _: engine()).collect()[0]
print(json.dumps({"job": job, "after": time.perf_counter() - start - job, "again": again,
                  "floor": floor, "tasks": partitions, "worker": worker}))
"""
)
RAY = (
    ENGINE
    + """
import json, sys, time
import ray
import gongzhu_score.arrow
path, out = sys.argv[1:3]
ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1")
if sys.argv[3:] == ["floor-first"]:
    started = time.perf_counter()
    ray.data.read_parquet(path).map_batches(lambda table: table,
                                            batch_format="pyarrow").write_parquet(out)
    print(json.dumps({"fresh_floor": time.perf_counter() - started}))
    sys.exit()
start = time.perf_counter()
ray.data.read_parquet(path).map_batches(gongzhu_score.arrow.ray_scoring(),
                                        batch_format="pyarrow").write_parquet(out)
job = time.perf_counter() - start


def timed(function, to):
    started = time.perf_counter()
    ray.data.read_parquet(path).map_batches(function, batch_format="pyarrow").write_parquet(to)
    return time.perf_counter() - started


# Ray's own cost, warm, and the job again: each twice, in turn, the best of each
floors, agains = [], []
for k in range(2):
    floors.append(timed(lambda table: table, out + f"-floor{k}"))
    agains.append(timed(gongzhu_score.arrow.ray_scoring(), out + f"-again{k}"))
floor, again = min(floors), min(agains)
worker = ray.get(ray.remote(engine).remote())
print(json.dumps({"job": job, "after": time.perf_counter() - start - job, "again": again,
                  "floor": floor, "worker": worker}))
"""
)


def played_figures(cli: list[str], place: Place, n: int, runs: int = 3) -> None:
    """Issue 24, point 5: realistic played hands (tests/played.py) in one Parquet file, through
    score_table, batch, Spark and Ray, each process started in ``place``."""
    try:
        import pyarrow.parquet as pq
        from played import played_arrow
    except ImportError:
        print("Realistic played hands: not measured (pip install 'gongzhu-score[arrow]')")
        return
    from gongzhu_score.arrow import paths

    start = time.perf_counter()
    table = played_arrow(n)
    made = time.perf_counter() - start
    rows = paths(table).count("row") / n
    folder = place.folder
    path = folder / "played.parquet"
    start = time.perf_counter()
    # Row groups of an eighth each: Spark and Ray split a file by its row groups, so one
    # group (pyarrow's default at this size) would give them one task, on one core.
    pq.write_table(table, path, row_group_size=max(1, n // 8))
    written = time.perf_counter() - start
    del table
    groups = pq.ParquetFile(path).metadata.num_row_groups

    print(f"Realistic played hands (tests/played.py: every card captured four at a time, names "
          f"from a pool of 3,000, exposures, 首明, 3% two decks, 5% partners), {n:,} hands in one "
          f"Parquet file ({path.stat().st_size / 1e6:.0f} MB, {groups} row group(s); drawn in "
          f"{made:.1f} s, written in {written:.1f} s), median of {runs}; every process started "
          "in a temporary folder, without PYTHONPATH:")  # fmt: skip
    alone = place.json([*place.script("time_score_table.py", PLAYED_ALONE), str(path)])
    read_in, score = alone["read"], alone["score"]

    def line(label: str, seconds: float, rest: str = "") -> None:
        print(f"  {label:60s} {seconds:6.2f} s{rest}")

    print(f"  engine timed: {engine_words(alone['engine'])}; {rows:.0%} of the hands go "
          "score_table's row path")  # fmt: skip
    line(f"score_table alone (threads: {alone['threads']}), in one process", score,
         f" = {score / read_in:.2f} × read_table's {read_in:.2f} s there (target ≤ 2 ×; "
         f"{n / score:,.0f} hands/s)")  # fmt: skip
    out = folder / "scored.parquet"
    read = place.time_command([*place.script("time_read_table.py", READ_TABLE), str(path)], runs)
    batch = place.time_command([*cli, "batch", str(path), "--format", "parquet", "-o", str(out)],
                               runs)  # fmt: skip
    speed = n / batch
    line("read_table, its own process (start-up included)", read)
    line("batch --format parquet, end to end (start-up included)", batch,
         f" = {batch / read:.2f} × read_table (target ≤ 3 ×; {speed:,.0f} hands/s)")  # fmt: skip

    # No warm-up run: the median of three leaves out a first run's one-off costs.
    engines = [("Spark local[2]", "pyspark", "spark", SPARK),
               ("Ray, 2 CPUs", "ray", "ray", RAY)]  # fmt: skip
    for label, module, extra, code in engines:
        try:
            __import__(module)
        except ImportError:
            print(f"  {label}: not measured (pip install 'gongzhu-score[{extra}]')")
            continue
        env = {**INSTALLED_ENV, "PYSPARK_PYTHON": sys.executable,
               "PYSPARK_DRIVER_PYTHON": sys.executable}  # fmt: skip
        args = [*place.script(f"run_{extra}.py", code), str(path), str(folder / f"{extra}-out")]
        wholes, jobs, agains, floors, fresh = [], [], [], [], []
        for _ in range(runs):
            for old in folder.glob(f"{extra}-out*"):
                shutil.rmtree(old)
            start = time.perf_counter()
            said: dict[str, Any] = place.json(args, env)
            wholes.append(time.perf_counter() - start - said["after"])
            jobs.append(said["job"])
            agains.append(said["again"])
            floors.append(said["floor"])
            for old in folder.glob(f"{extra}-out*"):
                shutil.rmtree(old)
            fresh.append(place.json([*args, "floor-first"], env)["fresh_floor"])
        whole, job = statistics.median(wholes), statistics.median(jobs)
        again, floor = statistics.median(agains), statistics.median(floors)
        fresh_floor = statistics.median(fresh)
        # how many tasks wrote rows (a task with no row writes no file)
        files = len(list((folder / f"{extra}-out").glob("*.parquet")))
        parts = f"{said['tasks']} partitions, " if "tasks" in said else ""
        line(f"{label}, the whole process (start-up, session, job)", whole,
             f": {n / whole:,.0f} hands/s = {n / whole / speed:.2f} × batch's (target ≥ 0.6 ×)")  # fmt: skip
        line("  the job alone (the session up)", job,
             f": {n / job:,.0f} hands/s = {n / job / speed:.2f} × batch's; {parts}{files} "
             f"file(s) written; its worker's engine: {engine_words(said['worker'])}")  # fmt: skip
        line("  the same job again (the session warm, best of 2)", again,
             f": {n / again:,.0f} hands/s = {n / again / speed:.2f} × batch's")  # fmt: skip
        line("  its floor: the rows through unchanged, warm (best of 2)", floor,
             f" (the engine's own cost: scoring adds {again - floor:.2f} s); the job warm = "
             f"{again / floor:.2f} × it (target ≤ 1.3 ×)")  # fmt: skip
        line("  its floor from a fresh start (the first job of its session)", fresh_floor,
             f"; the job's first run = {job / fresh_floor:.2f} × it")  # fmt: skip
