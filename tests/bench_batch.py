"""The benchmark's batch sections (tests/benchmark.py): ``batch --format jsonl`` on realistic
played hands against ``orjson.loads`` per line, and Parquet batches of random hands. Every
process is started in the temporary folder (``Place``), so it runs the installed package."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import time
from pathlib import Path

from bench_common import INSTALLED_ENV, Place, as_data, engine_words, random_hand
from optional import hiding_arrow

# The floor: the very call batch parses a line with (gongzhu_score/batch/reading.py's
# ``loads_line`` is ``orjson.loads``, given the line's bytes), in a process of its own.
FLOOR = (
    "import sys\n"
    "import orjson\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f:\n"
    "        orjson.loads(line)\n"
)
PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)
# The batch command with the file scored in this one process (the parallel split disabled).
ONE_CORE = (
    "import sys\n"
    "import gongzhu_score.batch.parallel as parallel\n"
    "parallel.PARALLEL_FROM_BYTES = 10**18\n"
    "from gongzhu_score.cli import main\n"
    "if __name__ == '__main__':\n"
    "    sys.argv = ['gongzhu-score', *sys.argv[1:]]\n"
    "    main()\n"
)


def write_played(path: Path, n: int) -> float:
    """``n`` hands of ``tests/played.py``'s ``played_hands`` as JSON Lines (orjson, as a data
    team's pipeline writes them); the seconds it took."""
    import orjson
    from played import played_hands

    start = time.perf_counter()
    dumps = orjson.dumps
    with path.open("wb") as f:
        f.writelines(dumps(hand) + b"\n" for hand in played_hands(n))
    return time.perf_counter() - start


def jsonl_figures(cli: list[str], place: Place, n: int, runs: int) -> None:
    """``batch --format jsonl`` on ``n`` realistic hands, end to end, against the orjson floor,
    on every core, on one, and on every core without the arrow extra, the median of ``runs``
    rounds (the four run in turn)."""
    path = place.folder / "played.jsonl"
    written = write_played(path, n)
    os.sync()  # (the input on disk first: its write-back is not the batch's to pay while timed)
    out = place.folder / "scores.jsonl"
    args = ["batch", str(path), "--format", "jsonl", "--output", str(out)]
    commands = {
        "floor": [*place.script("orjson_floor.py", FLOOR), str(path)],
        "every": [*cli, *args],
        "one": [*place.script("one_core.py", ONE_CORE), *args],
    }
    # With one round (--quick) a warm-up round first; three rounds leave a first run's costs out.
    times = place.time_paired(commands, runs, warm_up=runs == 1)
    # as installed without the arrow extra: pyarrow unimportable in every process of the batch
    # (a sitecustomize that refuses it), numpy there (a dependency)
    hidden = hiding_arrow(place.folder / "no-arrow", INSTALLED_ENV)
    times["bare"] = place.time_command([*cli, *args], runs, env=hidden, warm_up=runs == 1)
    floor, every, one, bare = times["floor"], times["every"], times["one"], times["bare"]
    size = path.stat().st_size / 1e6
    print(f"batch --format jsonl, {n:,} realistic played hands (tests/played.py's played_hands: "
          f"every card captured, names from a pool of 3,000; {size:.0f} MB, written with orjson "
          f"in {written:.1f} s), end to end (start-up included), median of {runs}, the four "
          "commands in turn, against orjson.loads per line in a process of its own (the floor: "
          "batch's own parser and call; issue 37's target ≤ 2.0 × with the arrow extra, issue 25's "
          "≤ 1.5 ×):")  # fmt: skip
    print(place.engine_line())
    print(f"  without the extra: {engine_words(place.engine(hidden))}")
    print(f"  floor: orjson.loads per line              {floor:6.2f} s ({n / floor:,.0f} lines/s)")
    print(f"  batch, every core                         {every:6.2f} s = {every / floor:.2f} × "
          f"the floor ({n / every:,.0f} hands/s; target ≤ 2.0 ×)")  # fmt: skip
    print(f"  batch, one core (the parallel split off)  {one:6.2f} s = {one / floor:.2f} × "
          f"the floor ({n / one:,.0f} hands/s)")  # fmt: skip
    print(f"  batch, every core, no arrow extra         {bare:6.2f} s = {bare / floor:.2f} × "
          f"the floor ({n / bare:,.0f} hands/s; pyarrow hidden: orjson reads the lines; "
          "target ≤ 10 ×)")  # fmt: skip
    peak = place.run([*place.script("peak.py", PEAK), *cli, *args])
    print(f"  peak memory (largest process)             {int(peak) / 1024:.0f} MB")
    path.unlink()


READ_TABLE = "import pyarrow.parquet as pq, sys\npq.read_table(sys.argv[1])\n"
ALONE = (
    "import json, statistics, sys, time\n"
    "import pyarrow.parquet as pq\n"
    "from gongzhu_score.arrow import score_table\n"
    "reads, scores = [], []\n"
    "for _ in range(3):\n"
    "    t = time.perf_counter(); table = pq.read_table(sys.argv[1]); reads.append(time.perf_counter() - t)\n"
    "    t = time.perf_counter(); score_table(table); scores.append(time.perf_counter() - t)\n"
    "print(json.dumps([statistics.median(reads), statistics.median(scores)]))\n"
)


def parquet_figures(cli: list[str], place: Place, n: int, runs: int = 3) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        print("Parquet: not measured (pip install 'gongzhu-score[arrow]')")
        return
    folder = place.folder
    rng = random.Random(2027)
    rows = []
    for _ in range(n):
        data = as_data(random_hand(rng))
        for p in data["players"]:  # type: ignore[union-attr]
            p["exposed"] = " ".join(p.get("exposed", []))  # type: ignore[index,union-attr]
        rows.append(data)
    path = folder / "hands.parquet"
    pq.write_table(pa.Table.from_struct_array(pa.array(rows)), path)
    jsonl = folder / "same.jsonl"
    with jsonl.open("w", encoding="utf-8") as f:
        for data in rows:
            f.write(json.dumps(data, ensure_ascii=False) + "\n")
    del rows
    out = folder / "scored.parquet"
    read = place.time_command([*place.script("read_table.py", READ_TABLE), str(path)], runs)
    end_to_end = place.time_command(
        [*cli, "batch", str(path), "--format", "parquet", "-o", str(out)], runs
    )
    read_in, score = place.json([*place.script("score_table.py", ALONE), str(path)])
    dask_out = folder / "dataset"

    def dask_run() -> float:
        shutil.rmtree(dask_out, ignore_errors=True)
        start = time.perf_counter()
        place.run([*cli, "batch", str(path), "--format", "parquet", "--dask", "local",
                   "-o", str(dask_out)])  # fmt: skip
        return time.perf_counter() - start

    dask = statistics.median(dask_run() for _ in range(runs))
    lines = place.time_command([*cli, "batch", str(jsonl), "--format", "jsonl", "-o",
                                str(folder / "scored.jsonl")], runs)  # fmt: skip
    size = path.stat().st_size / 1e6
    print(f"Parquet, {n:,} random one-deck hands ({size:.0f} MB), median of {runs}:")
    print(place.engine_line())
    print(f"  read_table (its own process, start-up included)  {read:6.2f} s")
    print(
        f"  batch --format parquet, end to end               {end_to_end:6.2f} s = "
        f"{end_to_end / read:.2f} × read_table (target ≤ 10 ×; {n / end_to_end:,.0f} hands/s)"
    )
    print(
        f"  score_table alone, in one process                {score:6.2f} s = "
        f"{score / read_in:.2f} × read_table's {read_in:.2f} s there (target ≤ 5 ×)"
    )
    print(f"  batch --format parquet --dask local (2 workers)   {dask:6.2f} s")
    print(f"  batch --format jsonl of the same hands (parallel.py) {lines:6.2f} s")
