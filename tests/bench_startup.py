"""The benchmark's start-up section (tests/benchmark.py; alone: ``--startup``).

Each command a new process, as a user's shell starts it, the runs interleaved (a machine that
slows down mid-way moves every figure alike), the median. Two floors (issue 56): the bare Typer
app of ``tests/typer_floor.py`` (a copy of the one the issue names: typer, tabulate and yaml
imported, the options ``score`` takes from flags parsed, then printed), given the very
arguments ``score`` is given (target ≤ 1.1 ×); and ``python -c "import typer"`` for
``--version`` (target ≤ 1.0 ×).
"""

from __future__ import annotations

import sys

from bench_common import ROOT, TESTS, Place

FLAGS = ["-c", "东=QS 6H 8H 10H JH 10C", "-c", "南=AH 2H 3H 4H 5H 7H 9H", "-c", "西=JD QH KH",
         "-c", "北=", "--exposed", "南=AH"]  # fmt: skip
"""A hand given by flags, as a table types it."""


def startup_figures(cli: list[str], place: Place, runs: int) -> float:
    """Prints the start-up figures; returns one ``score FILE``'s seconds (for ``match add``)."""
    sample = str(ROOT / "sample_hands" / "seed_minus_400.yaml")
    python = sys.executable
    floor = place.script("typer_floor.py", (TESTS / "typer_floor.py").read_text("utf-8"))
    commands = {
        "python -c pass": [python, "-c", "pass"],
        'python -c "import typer"': [python, "-c", "import typer"],
        "gongzhu-score --version": [*cli, "--version"],
        "gongzhu-score --help": [*cli, "--help"],
        "typer_floor.py FLAGS": [*floor, *FLAGS],
        "gongzhu-score score FLAGS": [*cli, "score", *FLAGS],
        "typer_floor.py FLAGS -f json": [*floor, *FLAGS, "--format", "json"],
        "score FLAGS -f json": [*cli, "score", *FLAGS, "--format", "json"],
        "gongzhu-score score FILE": [*cli, "score", sample],
        "score FILE -f json": [*cli, "score", sample, "--format", "json"],
    }
    times = place.time_paired(commands, runs)
    print(f"CLI start-up (median of {runs}, runs interleaved, each a new process started in a "
          "temporary folder):")  # fmt: skip
    print(place.engine_line())
    typer_alone = times['python -c "import typer"']
    bare = times["typer_floor.py FLAGS"]
    bare_json = times["typer_floor.py FLAGS -f json"]
    against = {
        "gongzhu-score --version": (typer_alone, "import typer", "≤ 1.0 ×"),
        "gongzhu-score --help": (typer_alone, "import typer", ""),
        "gongzhu-score score FLAGS": (bare, "the bare Typer app", "≤ 1.1 ×"),
        "score FLAGS -f json": (bare_json, "the bare Typer app", "≤ 1.1 ×"),
        "gongzhu-score score FILE": (bare, "the bare Typer app", ""),
        "score FILE -f json": (bare, "the bare Typer app", ""),
    }
    for label, seconds in times.items():
        line = f"  {label:30s} {seconds * 1000:7.1f} ms"
        if label in against:
            floor_seconds, floor_name, target = against[label]
            line += f"  = {seconds / floor_seconds:.2f} × {floor_name}"
            line += f" (target {target})" if target else ""
        print(line)
    return times["gongzhu-score score FILE"]
