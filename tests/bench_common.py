"""What the benchmark's sections share (tests/benchmark.py): the random hands, the timers, and
the processes it starts, each running the installed package and saying which engine it ran.

Every timed process is started in a temporary folder (``Place``) without PYTHONPATH, so that it
imports the installed ``gongzhu_score``, never the checkout's source: a script's folder (or the
current one, for ``python -c``) comes first on ``sys.path``, and the temporary folder holds no
package. A script that needs the helpers here puts this tests/ folder on its path (it holds no
``gongzhu_score``).
"""

from __future__ import annotations

import inspect
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gongzhu_score import DECK, SCORING_CARDS, SPECIAL_CARDS

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
NAMES = ("东", "南", "西", "北")


def random_hand(rng: random.Random) -> dict[str, object]:
    """A random one-deck hand, random exposures: card strings by name (``score_hand``'s)."""
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
    """A random hand as hand-file data (a JSON Lines line holds it): names and card strings."""
    exposed: dict[str, list[str]] = hand["exposed"]  # type: ignore[assignment]
    captured: dict[str, str] = hand["captured"]  # type: ignore[assignment]
    return {
        "players": [
            {"name": n, "captured": cards, **({"exposed": exposed[n]} if n in exposed else {})}
            for n, cards in captured.items()
        ]
    }


# Commands are timed as a user's machine runs them: with Python's bytecode caches. (A machine
# that sets PYTHONDONTWRITEBYTECODE, as this one does, would otherwise time the compiler on
# every start of this package, and not on the installed libraries it is compared with.) And
# without PYTHONPATH, so that they import the installed package.
INSTALLED_ENV = {
    k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
}


def engine() -> dict[str, Any]:
    """Where ``gongzhu_score`` was imported from, whether any module of it is compiled (a
    build before issue 56 compiled some), and whether pyarrow (the arrow extra) can be
    imported (self-contained: its source is run in other processes, ``ENGINE``)."""
    import importlib.util
    import os
    import sys

    import gongzhu_score

    top = os.path.dirname(gongzhu_score.__file__ or "")
    compiled = [
        os.path.relpath(os.path.join(folder, f), top)
        for folder, _, files in os.walk(top)
        for f in files
        if f.endswith(".so")
    ]
    try:
        arrow = importlib.util.find_spec("pyarrow") is not None
    except ImportError:  # (a finder that refuses it: the arrow extra hidden)
        arrow = False
    return {
        "at": os.path.dirname(top),
        "compiled": compiled,
        "arrow": arrow,
        "python": sys.version.split()[0],
    }


ENGINE = "from __future__ import annotations\n\n" + inspect.getsource(engine)
"""``engine``'s source, for the scripts other processes run (Spark's and Ray's workers too): the
start of a script (its first line is a ``__future__`` import)."""


def engine_words(found: dict[str, Any]) -> str:
    kind = (f"compiled: {', '.join(found['compiled'])}" if found["compiled"] else
            "plain Python")  # fmt: skip
    arrow = "the arrow extra installed" if found.get("arrow") else "no arrow extra"
    return f"gongzhu_score in {found['at']}, {kind}; {arrow}"


def cli_command() -> list[str]:
    """The console script of the interpreter running the benchmark (its virtual environment's),
    else the first on PATH, else ``python -m gongzhu_score``."""
    beside = Path(sys.executable).with_name("gongzhu-score")
    exe = str(beside) if beside.exists() else shutil.which("gongzhu-score")
    return [exe] if exe else [sys.executable, "-m", "gongzhu_score"]


class Place:
    """A temporary folder the benchmark's processes start in, without PYTHONPATH."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def script(self, name: str, code: str) -> list[str]:
        """``python SCRIPT`` for ``code`` written to the folder (its first path entry)."""
        (self.folder / name).write_text(code, encoding="utf-8")
        return [sys.executable, str(self.folder / name)]

    def run(self, args: list[str], env: dict[str, str] | None = None) -> str:
        """What a process started here prints (its errors shown if it fails)."""
        done = subprocess.run(args, capture_output=True, text=True, env=env or INSTALLED_ENV,
                              cwd=self.folder)  # fmt: skip
        if done.returncode:
            sys.stderr.write(done.stderr)
            done.check_returncode()
        return done.stdout

    def json(self, args: list[str], env: dict[str, str] | None = None) -> Any:
        """What a process prints as JSON on its last line (what it printed shown if not)."""
        printed = self.run(args, env)
        try:
            return json.loads(printed.splitlines()[-1])
        except (IndexError, ValueError):
            sys.stderr.write(f"{args[-1]}: no JSON on the last line of what it printed:\n"
                             f"{printed[-4000:]}\n")  # fmt: skip
            raise

    def engine(self, env: dict[str, str] | None = None) -> dict[str, Any]:
        """The engine a process started here imports (with ``env``)."""
        code = ENGINE + "\nimport json\nprint(json.dumps(engine()))\n"
        found: dict[str, Any] = self.json([sys.executable, "-c", code], env)
        return found

    def engine_line(self, env: dict[str, str] | None = None) -> str:
        return f"  engine timed: {engine_words(self.engine(env))}"

    def time_command(self, args: list[str], runs: int, env: dict[str, str] | None = None,
                     warm_up: bool = True) -> float:  # fmt: skip
        """The median wall time of ``runs`` runs of a command started here (after a warm-up
        run unless told)."""
        times = []
        for k in range(runs + warm_up):
            start = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True, env=env or INSTALLED_ENV,
                           cwd=self.folder)  # fmt: skip
            if k or not warm_up:
                times.append(time.perf_counter() - start)
        return statistics.median(times)

    def time_paired(self, commands: dict[str, list[str]], runs: int, warm_up: bool = True
                    ) -> dict[str, float]:  # fmt: skip
        """The median wall time of each command started here, the commands run in turn,
        ``runs`` rounds (after a warm-up round unless told): a machine that slows down or speeds
        up mid-way moves every figure alike, so ratios hold."""
        times: dict[str, list[float]] = {label: [] for label in commands}
        for round_ in range(runs + warm_up):
            for label, args in commands.items():
                start = time.perf_counter()
                subprocess.run(args, check=True, capture_output=True, env=INSTALLED_ENV,
                               cwd=self.folder)  # fmt: skip
                if round_ or not warm_up:
                    times[label].append(time.perf_counter() - start)
        return {label: statistics.median(t) for label, t in times.items()}
