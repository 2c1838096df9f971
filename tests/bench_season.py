"""The benchmark's section on the club's season (tests/benchmark.py; alone: ``--season``):
``gongzhu-score stats FOLDER --format json`` over 2,000 match ledgers of 20 hands each, against
reading the same ledgers with the project's own reader (``match.storage.read_ledger``, every
ledger of the folder, in a process of its own), start-up included in both; issue 58's target
≤ 3 ×.

The ledgers are ``tests/season.py``'s, as the tool writes them: a club of 40 players, one match
in four partner play, one in ten still in play, each with the history ``match new`` and ``match
add`` keep beside it (which ``stats`` reads, for renames). Both commands are started in the
temporary folder without PYTHONPATH (``Place``), so they run the installed package, and they
are timed in turn, the median of the rounds.
"""

from __future__ import annotations

import time

from bench_common import Place
from season import make_season

TARGET = 3.0
"""``stats`` over the ledgers ≤ this many times reading them (issue 58)."""

READ = """import sys
from gongzhu_score.io.files import files_below
from gongzhu_score.match.storage import read_ledger

paths = files_below(sys.argv[1], (".yaml", ".yml"))
print(sum(len(read_ledger(path).entries) for path in paths))
"""


def season_figures(cli: list[str], place: Place, count: int = 2000, runs: int = 3) -> None:
    folder = place.folder / "season"
    folder.mkdir()
    started = time.perf_counter()
    club = tuple(f"player{i:02d}" for i in range(40))
    made = make_season(folder, count, seed=58, hands=20, history=True, club=club, draws=False)
    built = time.perf_counter() - started
    hands = sum(len(m.ledger.entries) for m in made)
    finished = sum(m.ledger.status().ended for m in made)
    size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
    print(f"stats over a season: {count:,} ledgers of 20 hands ({hands:,} hands, {finished:,} "
          f"finished, {size:.0f} MB with their histories; made in {built:.0f} s), against "
          f"reading them with the project's reader (read_ledger), each a process of its own, "
          f"start-up included, timed in turn, the median of {runs} (target ≤ {TARGET:.0f} ×):")  # fmt: skip
    print(place.engine_line())
    reader = place.script("read_ledgers.py", READ)
    assert int(place.run([*reader, str(folder)])) == hands
    times = place.time_paired(
        {"read": [*reader, str(folder)], "stats": [*cli, "stats", str(folder), "-f", "json"]},
        runs,
    )
    ratio = times["stats"] / times["read"]
    print(f"  reading the ledgers     {times['read']:6.2f} s")
    print(f"  stats --format json     {times['stats']:6.2f} s  = {ratio:.2f} × reading them: "
          f"{'within' if ratio <= TARGET else 'OVER'} the target of {TARGET:.0f} ×")  # fmt: skip
