"""Benchmarks: prints figures, asserts nothing. Run: python tests/benchmark.py [--quick] [--played]
[--web] [--startup] [--season]

Every timed process is started in a temporary folder without PYTHONPATH, so it runs the
installed package wherever the benchmark is run from (never the checkout's source, which would
shadow a non-editable install from the checkout's root), and every section says which engine it
timed: where ``gongzhu_score`` was loaded from, whether any of it is compiled (none is since issue
56), and whether the arrow extra is there. The helpers are in ``tests/bench_*.py``.

- CLI start-up (``tests/bench_startup.py``): wall time of ``gongzhu-score --version`` and
  ``--help`` against ``python -c "import typer"`` (target for ``--version`` ≤ 1.0 ×), and of
  ``score`` by flags (a table, and JSON) against the bare Typer app of ``tests/typer_floor.py``
  given the same arguments (target ≤ 1.1 ×), as a user's shell runs them (a new Python process
  each time, with Python's bytecode caches), measured in turn in the same run; ``score FILE``
  too.
- The library on one core (a process of its own), 1,000,000 realistic played hands
  (``tests/played.py``; those of one deck in individual play, which one ``Scorer`` scores) as
  hand-file data: ``score_hand`` from card strings on 20,000 of them (target ≥ 20,000 hands/s),
  ``Scorer.score_many``'s call, and the same with every result's ``players`` read (target
  ≥ 0.5 × ``orjson.loads`` of the same hands' JSON Lines).
- Claims of the remaining tricks (声称), in the benchmark's own process (it says which package
  it imported): the time to decide a claim at 3, 5 and 7 tricks left, one deck and two, on
  random endgames of random legal games, claims as players make them (the median, the p99 and
  the slowest: 600 at 7 tricks left, fewer at 3 and 5; target: the slowest at 7 tricks left
  ≤ 100 ms), and a constructed guaranteed claim (the claimer holds the top cards and says "the
  rest are mine": every reply of the others must be tried, the search's hardest kind of answer).
- ``match add`` on a ledger already holding 1,000 and 10,000 hands, against one ``score`` of
  the same hand (target ≤ 1.5 ×), and the library's ``Ledger.add`` per hand at those lengths.
- ``serve FOLDER`` under load (``tests/bench_web.py``, the load of ``tests/web_load.py``): four
  matches, four live phones each, 200 hands at once (160 from pages, a client a hand, a 409
  read again and sent again; 40 with ``match add``): the requests, the median and the p95 of
  ``POST /api/hands`` and ``GET /api/state``, and how long after each change its maker was told
  the last phone of its match heard of it (p95; target ≤ 1 s, docs/web.md's "within a
  second"). The same load with ``--quick``.
- ``stats`` over a club's season (``tests/bench_season.py``): ``stats FOLDER --format json`` on
  2,000 match ledgers of 20 hands each, with their histories, against reading the same ledgers
  with the project's own reader (``read_ledger``) in a process of its own, start-up included in
  both, timed in turn, the median of 3 (target ≤ 3 ×, issue 58). With ``--quick``: 500
  ledgers, once.
- ``batch --format jsonl`` on 1,000,000 realistic hands (``tests/played.py``'s
  ``played_hands``: every card captured, names from a pool of 3,000; written once with orjson),
  end to end (start-up included), against ``orjson.loads`` per line (batch's own parser and
  call) in a process of its own, the floor (target ≤ 2.0 × with the arrow extra), on every
  core and on one, and on every core as installed without the arrow extra (pyarrow hidden from
  every process of the batch, numpy there: target ≤ 10 ×), the median of 3 (the four commands
  in turn); and the peak memory.
- Parquet: ``batch FILE.parquet --format parquet -o OUT.parquet`` on 1,000,000 random hands,
  end to end (start-up included), against ``pyarrow.parquet.read_table`` of the same file in a
  process of its own (target ≤ 10 ×); ``score_table`` alone against ``read_table`` in one
  process (target ≤ 5 ×); the same batch with ``--dask local``; and the JSON Lines batch of the
  same hands (``parallel.py``) to compare with Dask.
- Realistic played hands (issue 24): 1,000,000 hands of ``tests/played.py`` (every card
  captured four at a time, names from a pool of 3,000, exposures, 首明, 3% two decks, 5%
  partners; drawn with numpy by ``played_arrow``, the distribution of ``played_hands``) in one
  Parquet file, eight row groups: ``score_table`` alone (default threads) against
  ``read_table`` in one process (target ≤ 2 ×); ``batch FILE.parquet --format parquet`` end to
  end against ``read_table`` in a process of its own, start-up included in both (target ≤ 3 ×);
  Spark (``local[2]``, ``spark_scoring`` in ``mapInArrow``) and Ray (2 CPUs, ``ray_scoring`` in
  ``map_batches``) end to end, the whole process and the job alone (the session or cluster up),
  against that batch (target: ≥ 0.6 × its hands per second), and each engine's scoring job
  against the same job passing the rows through unchanged, its own floor: warm (target ≤ 1.3 ×,
  issue 37) and from a fresh start (the first job of a session). Each the median of 3; Spark's
  and Ray's worker processes say their engine too.

``--quick`` makes everything small, about three minutes: start-up 5 rounds, the library 20,000
hands, 40 claims at 3 and 5 tricks left and 80 at 7, the JSON Lines batch, Parquet and the
realistic section 100,000 hands, each command once (the JSON Lines batch after a warm-up
round). ``--startup`` runs the start-up section alone (21 rounds; 5 with ``--quick``);
``--library`` runs the library section alone, ``--played`` the realistic section (with ``--quick``: 100,000 hands, once);
``--jsonl`` the JSON Lines batch alone (likewise); ``--web`` the section on ``serve`` under load
alone; ``--season`` the section on ``stats`` over a season alone (with ``--quick``: 500
ledgers, once).
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from bench_batch import jsonl_figures, parquet_figures
from bench_common import NAMES, ROOT, TESTS, Place, cli_command, engine, engine_words, random_hand
from bench_library import claim_figures, library_figures
from bench_played import played_figures
from bench_season import season_figures
from bench_startup import startup_figures
from bench_web import web_figures

from gongzhu_score import Hand


def main() -> None:
    quick = "--quick" in sys.argv
    cli = cli_command()
    place = Place(Path(tempfile.mkdtemp()))
    try:
        if "--played" in sys.argv:  # the section on realistic played hands alone
            played_figures(cli, place, 100_000 if quick else 1_000_000, 1 if quick else 3)
            return
        if "--jsonl" in sys.argv:  # the JSON Lines batch alone
            jsonl_figures(cli, place, 100_000 if quick else 1_000_000, 1 if quick else 3)
            return
        if "--startup" in sys.argv:  # the start-up section alone
            startup_figures(cli, place, 5 if quick else 21)
            return
        if "--library" in sys.argv:  # the library section alone
            library_figures(place, 20_000 if quick else 1_000_000, 3 if quick else 1)
            return
        if "--web" in sys.argv:  # the section on the table's page under load alone
            web_figures(cli, place)
            return
        if "--season" in sys.argv:  # the section on stats over a club's season alone
            season_figures(cli, place, 500 if quick else 2000, 1 if quick else 3)
            return
        this_process(place)
        runs = 5 if quick else 15
        one_hand = startup_figures(cli, place, runs)
        library_figures(place, 20_000 if quick else 1_000_000, 3 if quick else 1)
        claim_figures({3: 40, 5: 40, 7: 80} if quick else {3: 150, 5: 150, 7: 600})
        match_add_figures(cli, place, runs, one_hand)
        web_figures(cli, place)
        season_figures(cli, place, 500 if quick else 2000, 1 if quick else 3)
        jsonl_figures(cli, place, 100_000 if quick else 1_000_000, 1 if quick else 3)
        parquet_figures(cli, place, 100_000 if quick else 1_000_000, 1 if quick else 3)
        played_figures(cli, place, 100_000 if quick else 1_000_000, 1 if quick else 3)
    finally:
        shutil.rmtree(place.folder)


def this_process(place: Place) -> None:
    """Which package this process imported (the claims and ``Ledger.add`` are timed here), and
    whether it is the one the started processes import."""
    mine, theirs = engine(), place.engine()
    how = ("python tests/benchmark.py: tests/ first on sys.path"
           if sys.path[0] == str(TESTS) else f"not as python tests/benchmark.py (sys.path[0]: "
           f"{sys.path[0]!r})")  # fmt: skip
    print(f"This process ({how}; it times the claims and Ledger.add): {engine_words(mine)}")
    if mine != theirs:
        print(f"  NOTE: not the installed package the other processes run: {engine_words(theirs)}")
    elif Path(mine["at"]).parent == ROOT:
        print("  (the installed package is this checkout's source: an editable install)")


def match_add_figures(cli: list[str], place: Place, runs: int, one: float) -> None:
    from gongzhu_score.match.ledger import Ledger
    from gongzhu_score.match.storage import create_ledger

    print(f"match add on a long ledger, against one score of the same hand (median of {runs}, "
          "started in the temporary folder; target ≤ 1.5 ×), and the library's Ledger.add per "
          "hand at that length (in this process):")  # fmt: skip
    print(place.engine_line())
    sample = str(ROOT / "sample_hands" / "seed_minus_400.yaml")
    ledger = Ledger.new(NAMES, end_at=-(10**9))
    rng = random.Random(8)
    for size in (1_000, 10_000):
        started = time.perf_counter()
        while ledger.count < size:
            h = random_hand(rng)
            hand = Hand.from_captured(h["captured"], exposed=h["exposed"])  # type: ignore[arg-type]
            ledger = ledger.add(hand)[0]
        path = place.folder / f"ledger-{size}.yaml"
        create_ledger(str(path), ledger)
        kb = path.stat().st_size / 1000
        add = place.time_command([*cli, "match", "add", str(path), sample], runs)
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
