"""Benchmarks: prints figures, asserts nothing. Run: python tests/benchmark.py [--quick] [--played]

- CLI start-up: wall time of ``gongzhu-score --version`` and of scoring one hand (a file, as
  JSON, from flags), as a user's shell runs them (a new Python process each time), against
  importing typer, tabulate and yaml, the floor any tool on them pays (target ≤ 1.0 ×),
  measured in turn in the same run.
- The library on one core, random one-deck hands with random exposures, from card strings:
  ``score_hand`` (target ≥ 100,000 hands/s) and the bulk path, a ``Scorer`` made once
  (target ≥ 200,000 hands/s); both with the compiled engine, and with the same source run as
  plain Python (the fallback where nothing could be compiled).
- ``match add`` on a ledger already holding 1,000 and 10,000 hands, against one ``score`` of
  the same hand (target ≤ 1.5 ×), and the library's ``Ledger.add`` per hand at those lengths.
- ``batch --format jsonl`` on 100,000 and 1,000,000 random hands, end to end, against reading
  the same file with ``json.loads`` per line in plain Python (the floor; target ≤ 2 × the
  floor on 1,000,000 hands), on every core and on one (``parallel.py`` stays only while it
  beats one core at both sizes), and the peak memory.

- Claims of the remaining tricks (声称): the time to decide a claim at 3, 5 and 7 tricks left,
  one deck and two: claims as players make them on random endgames of random legal games (the
  median and the slowest of many), and a constructed guaranteed claim (the claimer holds the top
  cards and says "the rest are mine": every reply of the others must be tried, the search's
  hardest kind of answer). Target: any claim at 7 tricks left decided in seconds.

- Parquet: ``batch FILE.parquet --format parquet -o OUT.parquet`` on 1,000,000 random hands,
  end to end (start-up included), against ``pyarrow.parquet.read_table`` of the same file in a
  process of its own (target ≤ 10 ×); ``score_table`` alone against ``read_table`` in one
  process (target ≤ 5 ×); the same batch with ``--dask local``; and the JSON Lines batch of the
  same hands (``parallel.py``) to compare with Dask.

- Realistic played hands (issue 24): 1,000,000 hands of ``tests/played.py`` (every card
  captured four at a time, names from a pool of 3,000, exposures, 首明, 3% two decks, 5%
  partners; drawn with numpy by ``played_arrow``, the distribution of ``played_hands``) in one
  Parquet file, pyarrow's default row groups: ``score_table`` alone (default threads) against
  ``read_table`` in one process (target ≤ 2 ×); ``batch FILE.parquet --format parquet`` end to
  end against ``read_table`` in a process of its own, start-up included in both (target ≤ 3 ×);
  Spark (``local[2]``, ``spark_scoring`` in ``mapInArrow``) and Ray (2 CPUs, ``ray_scoring`` in
  ``map_batches``) end to end, the whole process and the job alone (the session or cluster up),
  against that batch (target: ≥ 0.6 × its hands per second). Each the median of 3. Every process
  runs the installed package (started in a temporary folder, without PYTHONPATH) and says which
  of ``gongzhu_score.core.COMPILED`` it ran compiled.

``--quick`` skips the million-hand runs (the realistic section takes 100,000 hands);
``--played`` runs the realistic section alone.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gongzhu_score import DECK, SCORING_CARDS, SPECIAL_CARDS, Hand

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("东", "南", "西", "北")


def random_hand(rng: random.Random) -> dict[str, object]:
    captured: dict[str, list[str]] = {n: [] for n in NAMES}
    for card in DECK:
        if card in SCORING_CARDS or rng.random() < 0.5:
            captured[rng.choice(NAMES)].append(card.code)
    exposed: dict[str, list[str]] = {}
    for card in SPECIAL_CARDS:
        if rng.random() < 0.25:
            exposed.setdefault(rng.choice(NAMES), []).append(card.code)
    return {"captured": {n: " ".join(c) for n, c in captured.items()}, "exposed": exposed}


def as_data(hand: dict[str, object]) -> dict[str, object]:
    """A random hand as a JSON Lines line holds it."""
    exposed: dict[str, list[str]] = hand["exposed"]  # type: ignore[assignment]
    captured: dict[str, str] = hand["captured"]  # type: ignore[assignment]
    return {
        "players": [
            {"name": n, "captured": cards, **({"exposed": exposed[n]} if n in exposed else {})}
            for n, cards in captured.items()
        ]
    }


FLAGS = ["-c", "东=QS 6H 8H 10H JH 10C", "-c", "南=AH 2H 3H 4H 5H 7H 9H", "-c", "西=JD QH KH",
         "-c", "北=", "--exposed", "南=AH"]  # fmt: skip


# Commands are timed as a user's machine runs them: with Python's bytecode caches. (A machine
# that sets PYTHONDONTWRITEBYTECODE, as this one does, would otherwise time the compiler on
# every start of this package, and not on the installed libraries it is compared with.)
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_paired(commands: dict[str, list[str]], runs: int) -> dict[str, float]:
    """The median wall time of each command, the commands run in turn, ``runs`` rounds after a
    warm-up round: a machine that slows down or speeds up mid-way moves every figure alike, so
    ratios hold."""
    times: dict[str, list[float]] = {label: [] for label in commands}
    for round_ in range(runs + 1):
        for label, args in commands.items():
            start = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True, env=USER_ENV)
            if round_:
                times[label].append(time.perf_counter() - start)
    return {label: statistics.median(t) for label, t in times.items()}


def time_command(args: list[str], runs: int, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> float:  # fmt: skip
    subprocess.run(args, check=True, capture_output=True, env=env or USER_ENV, cwd=cwd)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True, env=env or USER_ENV, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


LIBRARY = """
import json, random, sys, time
sys.path.insert(0, {tests!r})
from benchmark import as_data, random_hand
import gongzhu_score.core.engine as engine
from gongzhu_score import Scorer, score_hand
rng = random.Random(2026)
hands = [random_hand(rng) for _ in range({n})]
data = [as_data(h) for h in hands]
def best(loop):
    out = []
    for _ in range(3):
        start = time.perf_counter()
        loop()
        out.append(time.perf_counter() - start)
    return {n} / min(out)
def one():
    for h in hands:
        r = score_hand(h["captured"], exposed=h["exposed"])
        r.raws, r.finals
scorer = Scorer()
def bulk():
    for r in scorer.score_many(data):
        r.raws, r.finals
print(json.dumps([engine.__file__.endswith(".py"), best(one), best(bulk)]))
"""


def library_figures(n: int) -> None:
    print(f"The library, one core, {n:,} random one-deck hands with random exposures, from card "
          "strings (best of 3):")  # fmt: skip
    for label, env in (("compiled", {}), ("plain Python", {"GONGZHU_PURE_PYTHON": "1"})):
        code = LIBRARY.format(tests=str(ROOT / "tests"), n=n)
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True,
            env={**os.environ, **env},
        ).stdout  # fmt: skip
        pure, one, bulk = json.loads(out)
        engine = "plain Python (not compiled)" if pure else "compiled with mypyc"
        print(f"  {label:13s} engine: {engine}")
        print(f"    score_hand                  {one:10,.0f} hands/s   (target ≥ 100,000)")
        print(f"    Scorer.score_many (bulk)    {bulk:10,.0f} hands/s   (target ≥ 200,000)")


def main() -> None:
    quick = "--quick" in sys.argv
    runs = 15
    exe = shutil.which("gongzhu-score")
    cli = [exe] if exe else [sys.executable, "-m", "gongzhu_score"]
    if "--played" in sys.argv:  # the section on realistic played hands alone
        folder = Path(tempfile.mkdtemp())
        try:
            played_figures(cli, folder, 100_000 if quick else 1_000_000)
        finally:
            shutil.rmtree(folder)
        return
    sample = str(ROOT / "sample_hands" / "seed_minus_400.yaml")
    startup = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import typer, tabulate, yaml": [sys.executable, "-c", "import typer, tabulate, yaml"],
        "gongzhu-score --version": [*cli, "--version"],
        "gongzhu-score score FILE": [*cli, "score", sample],
        "score FILE --format json": [*cli, "score", sample, "--format", "json"],
        "score -c … (flags)": [*cli, "score", *FLAGS],
    }
    times = time_paired(startup, runs)
    floor = times["import typer, tabulate, yaml"]
    one_hand = times["gongzhu-score score FILE"]
    print(f"CLI start-up (median of {runs}, runs interleaved; the floor is importing typer, "
          "tabulate and yaml, target ≤ 1.0 ×):")  # fmt: skip
    for label, seconds in times.items():
        ratio = (
            f"= {seconds / floor:.2f} × the floor" if label.startswith(("gong", "score")) else ""
        )
        print(f"  {label:30s} {seconds * 1000:7.1f} ms  {ratio}")

    library_figures(50_000)
    claim_figures(40 if quick else 150)

    folder = Path(tempfile.mkdtemp())
    try:
        match_add_figures(cli, sample, folder, runs, one_hand)
        batch_figures(cli, folder, quick)
        parquet_figures(cli, folder, 100_000 if quick else 1_000_000)
        played_figures(cli, folder, 100_000 if quick else 1_000_000)
    finally:
        shutil.rmtree(folder)


def claim_figures(games: int) -> None:
    from collections import Counter

    from endgames import NAMES as SEATS
    from endgames import endgame, playout

    from gongzhu_score.core.cards import Card
    from gongzhu_score.play.claims import Position, decide

    def timed(pos: Position, by: str, takes: dict[str, list[Card]], decks: int
              ) -> tuple[float, bool | None]:  # fmt: skip
        start = time.perf_counter()
        answer = decide(pos, by, takes, decks=decks).guaranteed
        return time.perf_counter() - start, answer

    print(f"Claims (声称), time to decide one claim (random: {games} endgames of random legal "
          f"games ({games * 4} at 7 tricks left), claims from a random playout; guaranteed: 东 "
          "leads holding the top cards, takes: all):")  # fmt: skip
    tops = [Card.parse(c) for c in ("AH", "AS", "AD", "KH", "KS", "KD", "QH")]
    for decks in (1, 2):
        for left in (3, 5, 7):
            rng = random.Random(100 * decks + left)
            times, answers = [], Counter()
            for _ in range(games * 4 if left == 7 else games):  # the target's case, widest
                pos = endgame(rng, decks, left)
                by = rng.choice(SEATS)
                takes, _ = playout(rng, pos, by, decks)
                seconds, answer = timed(pos, by, takes, decks)
                times.append(seconds)
                answers[answer] += 1
            mine = tops[:left]
            rest = [c for c in DECK if c not in mine] * decks
            rng.shuffle(rest)
            hands = {"东": Counter(mine)}
            for k, name in enumerate(SEATS[1:]):
                hands[name] = Counter(rest[k * left : (k + 1) * left])
            left_cards = [c for h in hands.values() for c in h.elements() if c in SCORING_CARDS]
            pos = Position(SEATS, hands, "东", frozenset(), {})
            claim = {"东": left_cards, "南": [], "西": [], "北": []}
            hard, answer = timed(pos, "东", claim, decks)
            print(f"  {decks} deck(s), {left} tricks left: random median "
                  f"{statistics.median(times) * 1000:7.1f} ms, slowest {max(times) * 1000:7.1f} ms "
                  f"({answers[True]} guaranteed, {answers[False]} not, {answers[None]} undecided);"
                  f" guaranteed {hard * 1000:7.1f} ms ({answer})")  # fmt: skip


FLOOR = "import json, sys\nfor line in open(sys.argv[1], encoding='utf-8'):\n    json.loads(line)\n"
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
    "sys.argv = ['gongzhu-score', *sys.argv[1:]]\n"
    "main()\n"
)


def write_hands(path: Path, n: int, seed: int = 2026) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        for _ in range(n):
            f.write(json.dumps(as_data(random_hand(rng)), ensure_ascii=False) + "\n")


def batch_figures(cli: list[str], folder: Path, quick: bool) -> None:
    hands = folder / "hands.jsonl"
    write_hands(hands, 100_000)
    million = folder / "million.jsonl"
    sizes = [(100_000, hands, 3)]
    if not quick:
        with million.open("wb") as f:
            chunk = hands.read_bytes()
            for _ in range(10):
                f.write(chunk)
        sizes.append((1_000_000, million, 1))
    out = folder / "scores.jsonl"
    print("batch --format jsonl, random one-deck hands, end to end (start-up included), "
          "against json.loads per line (the floor; target ≤ 2 × on 1,000,000 hands):")  # fmt: skip
    for n, path, runs in sizes:
        args = ["batch", str(path), "--format", "jsonl", "--output", str(out)]
        floor = time_command([sys.executable, "-c", FLOOR, str(path)], runs)
        every = time_command([*cli, *args], runs)
        one = time_command([sys.executable, "-c", ONE_CORE, *args], runs)
        size = path.stat().st_size / 1e6
        print(f"  {n:>9,} hands ({size:.0f} MB), median of {runs}: floor {floor:5.2f} s; "
              f"batch {every:5.2f} s = {every / floor:.2f} × the floor "
              f"({n / every:,.0f} hands/s); on one core {one:5.2f} s = {one / floor:.2f} ×")  # fmt: skip
    peaks = []
    for _, path, _ in sizes:
        args = [*cli, "batch", str(path), "--format", "jsonl", "--output", str(out)]
        peak = subprocess.run([sys.executable, "-c", PEAK, *args], check=True,
                              capture_output=True, text=True).stdout  # fmt: skip
        peaks.append(f"{int(peak) / 1024:.0f} MB")
    print(f"  peak memory (largest process), by size: {', '.join(peaks)}")


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


def parquet_figures(cli: list[str], folder: Path, n: int) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        print("Parquet: not measured (pip install 'gongzhu-score[arrow]')")
        return
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
    runs = 3
    read = time_command([sys.executable, "-c", READ_TABLE, str(path)], runs)
    end_to_end = time_command([*cli, "batch", str(path), "--format", "parquet", "-o", str(out)],
                              runs)  # fmt: skip
    alone = subprocess.run([sys.executable, "-c", ALONE, str(path)], check=True,
                           capture_output=True, text=True).stdout  # fmt: skip
    read_in, score = json.loads(alone)
    dask_out = folder / "dataset"

    def dask_run() -> float:
        shutil.rmtree(dask_out, ignore_errors=True)
        start = time.perf_counter()
        subprocess.run([*cli, "batch", str(path), "--format", "parquet", "--dask", "local",
                        "-o", str(dask_out)], check=True)  # fmt: skip
        return time.perf_counter() - start

    dask = statistics.median(dask_run() for _ in range(runs))
    lines = time_command([*cli, "batch", str(jsonl), "--format", "jsonl", "-o",
                          str(folder / "scored.jsonl")], runs)  # fmt: skip
    size = path.stat().st_size / 1e6
    print(f"Parquet, {n:,} random one-deck hands ({size:.0f} MB), median of {runs}:")
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


# The realistic section's processes run the installed package: each from a folder of its own
# (a script's folder, or the current one for ``-c``, comes first on sys.path: never the
# checkout's) and without PYTHONPATH. Each says which engine it ran.
INSTALLED_ENV = {k: v for k, v in USER_ENV.items() if k != "PYTHONPATH"}
ENGINE = """
def engine():
    import importlib, os
    import gongzhu_score.core as core
    files = {m: importlib.import_module("gongzhu_score.core." + m).__file__ or "" for m in core.COMPILED}
    return {"at": os.path.dirname(os.path.dirname(core.__file__)),
            "compiled": [m for m, f in files.items() if not f.endswith(".py")],
            "plain": [m for m, f in files.items() if f.endswith(".py")]}
"""
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
SPARK = (
    ENGINE
    + """
import json, sys, time
from pyspark.sql import SparkSession
import gongzhu_score.arrow
path, out = sys.argv[1:3]
spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .getOrCreate())
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


floor = timed(unchanged, hands.schema, out + "-floor")  # (Spark's own cost, warm)
again = timed(scoring, scoring.schema, out)
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
start = time.perf_counter()
ray.data.read_parquet(path).map_batches(gongzhu_score.arrow.ray_scoring(),
                                        batch_format="pyarrow").write_parquet(out)
job = time.perf_counter() - start


def timed(function, to):
    started = time.perf_counter()
    ray.data.read_parquet(path).map_batches(function, batch_format="pyarrow").write_parquet(to)
    return time.perf_counter() - started


floor = timed(lambda table: table, out + "-floor")  # (Ray's own cost, warm)
again = timed(gongzhu_score.arrow.ray_scoring(), out + "-again")
worker = ray.get(ray.remote(engine).remote())
print(json.dumps({"job": job, "after": time.perf_counter() - start - job, "again": again,
                  "floor": floor, "worker": worker}))
"""
)


def engine_words(found: dict[str, Any]) -> str:
    compiled, plain = found["compiled"], found["plain"]
    if not plain:
        kind = f"compiled ({', '.join(compiled)})"
    elif not compiled:
        kind = "plain Python (nothing compiled)"
    else:
        kind = f"compiled: {', '.join(compiled)}; plain Python: {', '.join(plain)}"
    return f"gongzhu_score in {found['at']}, {kind}"


def played_figures(cli: list[str], folder: Path, n: int) -> None:
    """Issue 24, point 5: realistic played hands (tests/played.py) in one Parquet file, through
    score_table, batch, Spark and Ray, each process run from ``folder`` without PYTHONPATH."""
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
    path = folder / "played.parquet"
    start = time.perf_counter()
    # Row groups of an eighth each: Spark and Ray split a file by its row groups, so one
    # group (pyarrow's default at this size) would give them one task, on one core.
    pq.write_table(table, path, row_group_size=max(1, n // 8))
    written = time.perf_counter() - start
    del table
    groups = pq.ParquetFile(path).metadata.num_row_groups
    runs = 3

    def script(name: str, code: str) -> list[str]:
        (folder / name).write_text(code, encoding="utf-8")
        return [sys.executable, str(folder / name)]

    def process(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
        said: dict[str, Any] = json.loads(subprocess.run(
            args, check=True, capture_output=True, text=True, env=env or INSTALLED_ENV, cwd=folder
        ).stdout)  # fmt: skip
        return said

    print(f"Realistic played hands (tests/played.py: every card captured four at a time, names "
          f"from a pool of 3,000, exposures, 首明, 3% two decks, 5% partners), {n:,} hands in one "
          f"Parquet file ({path.stat().st_size / 1e6:.0f} MB, {groups} row group(s); drawn in "
          f"{made:.1f} s, written in {written:.1f} s), median of {runs}; every process started "
          "in a temporary folder, without PYTHONPATH:")  # fmt: skip
    alone = process([*script("time_score_table.py", PLAYED_ALONE), str(path)])
    read_in, score = alone["read"], alone["score"]

    def line(label: str, seconds: float, rest: str = "") -> None:
        print(f"  {label:60s} {seconds:6.2f} s{rest}")

    print(f"  engine timed: {engine_words(alone['engine'])}; {rows:.0%} of the hands go "
          "score_table's row path (the two-deck hands)")  # fmt: skip
    line(f"score_table alone (threads: {alone['threads']}), in one process", score,
         f" = {score / read_in:.2f} × read_table's {read_in:.2f} s there (target ≤ 2 ×; "
         f"{n / score:,.0f} hands/s)")  # fmt: skip
    out = folder / "scored.parquet"
    read = time_command([*script("time_read_table.py", READ_TABLE), str(path)], runs,
                        INSTALLED_ENV, folder)  # fmt: skip
    batch = time_command([*cli, "batch", str(path), "--format", "parquet", "-o", str(out)], runs,
                         INSTALLED_ENV, folder)  # fmt: skip
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
        args = [*script(f"run_{extra}.py", code), str(path), str(folder / f"{extra}-out")]
        wholes, jobs, agains, floors = [], [], [], []
        for _ in range(runs):
            for made in folder.glob(f"{extra}-out*"):
                shutil.rmtree(made)
            start = time.perf_counter()
            said = process(args, env)
            wholes.append(time.perf_counter() - start - said["after"])
            jobs.append(said["job"])
            agains.append(said["again"])
            floors.append(said["floor"])
        whole, job = statistics.median(wholes), statistics.median(jobs)
        again, floor = statistics.median(agains), statistics.median(floors)
        # how many tasks wrote rows (a task with no row writes no file)
        files = len(list((folder / f"{extra}-out").glob("*.parquet")))
        parts = f"{said['tasks']} partitions, " if "tasks" in said else ""
        line(f"{label}, the whole process (start-up, session, job)", whole,
             f": {n / whole:,.0f} hands/s = {n / whole / speed:.2f} × batch's (target ≥ 0.6 ×)")  # fmt: skip
        line("  the job alone (the session up)", job,
             f": {n / job:,.0f} hands/s = {n / job / speed:.2f} × batch's; {parts}{files} "
             f"file(s) written; its worker's engine: {engine_words(said['worker'])}")  # fmt: skip
        line("  the same job again (the session warm)", again,
             f": {n / again:,.0f} hands/s = {n / again / speed:.2f} × batch's")  # fmt: skip
        line("  its floor: the rows through unchanged, warm", floor,
             f" (the engine's own cost: scoring adds {again - floor:.2f} s)")  # fmt: skip


def match_add_figures(cli: list[str], sample: str, folder: Path, runs: int, one: float) -> None:
    from gongzhu_score.match.ledger import Ledger
    from gongzhu_score.match.storage import create_ledger

    print(f"match add on a long ledger, against one score of the same hand (median of {runs}; "
          "target ≤ 1.5 ×), and the library's Ledger.add per hand at that length:")  # fmt: skip
    ledger = Ledger.new(NAMES, end_at=-(10**9))
    rng = random.Random(8)
    for size in (1_000, 10_000):
        started = time.perf_counter()
        while ledger.count < size:
            h = random_hand(rng)
            hand = Hand.from_captured(h["captured"], exposed=h["exposed"])  # type: ignore[arg-type]
            ledger = ledger.add(hand)[0]
        path = folder / f"ledger-{size}.yaml"
        create_ledger(str(path), ledger)
        kb = path.stat().st_size / 1000
        add = time_command([*cli, "match", "add", str(path), sample], runs)
        last = time.perf_counter()
        for _ in range(200):
            ledger.add(hand)
        per_add = (time.perf_counter() - last) / 200
        print(
            f"  {size:>6,} hands ({kb:,.0f} kB): match add {add * 1000:6.1f} ms = "
            f"{add / one:.2f} × one score; Ledger.add {per_add * 1e6:5.0f} µs a hand "
            f"(building it: {time.perf_counter() - started:.1f} s)"
        )


if __name__ == "__main__":
    main()
