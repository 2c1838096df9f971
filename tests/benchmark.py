"""Benchmarks: prints figures, asserts nothing. Run: python tests/benchmark.py

- CLI start-up: wall time of ``gongzhu-score --version`` and of scoring one sample hand, as a
  user's shell runs them (a new Python process each time).
- Scoring throughput: hands per second through the library (``score`` on parsed hands, and
  ``score_hand`` from card strings) on random legal hands.
- ``match add`` on a ledger already holding 1,000 hands, against one ``score`` of the same hand
  (target: at most 1.5 times as long).
- ``batch --format jsonl`` on 100,000 random legal hands, end to end, against reading the same
  file with ``json.loads`` per line in plain Python (the parsing floor; target at least 100,000
  hands/s and at most 3 times the floor), and its peak memory for 100,000 and 1,000,000 hands
  (target: flat).
"""

from __future__ import annotations

import json
import random
import shutil
import shutil as _shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gongzhu_score import DECK, SCORING_CARDS, SPECIAL_CARDS, Hand, PlayerHand, score, score_hand
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import create_ledger

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


def time_command(args: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    runs = 15
    exe = shutil.which("gongzhu-score")
    cli = [exe] if exe else [sys.executable, "-m", "gongzhu_score"]
    sample = str(ROOT / "sample_hands" / "seed_minus_400.yaml")
    python_floor = time_command([sys.executable, "-c", "pass"], runs)
    version = time_command([*cli, "--version"], runs)
    one_hand = time_command([*cli, "score", sample], runs)
    print(f"CLI start-up (median of {runs}):")
    print(f"  python -c pass            {python_floor * 1000:7.1f} ms  (the interpreter alone)")
    print(f"  gongzhu-score --version   {version * 1000:7.1f} ms")
    print(f"  gongzhu-score score FILE  {one_hand * 1000:7.1f} ms")

    rng = random.Random(2026)
    n = 20_000
    raw_hands = [random_hand(rng) for _ in range(n)]
    start = time.perf_counter()
    for h in raw_hands:
        score_hand(h["captured"], exposed=h["exposed"])  # type: ignore[arg-type]
    from_text = n / (time.perf_counter() - start)

    parsed = [
        Hand.from_captured(h["captured"], exposed=h["exposed"])  # type: ignore[arg-type]
        for h in raw_hands
    ]
    assert all(isinstance(p, PlayerHand) for p in parsed[0].players)
    start = time.perf_counter()
    for hand in parsed:
        score(hand)
    from_hands = n / (time.perf_counter() - start)
    print(f"Scoring throughput ({n:,} random legal hands, one core):")
    print(f"  score(Hand)               {from_hands:10,.0f} hands/s")
    print(f"  score_hand(card strings)  {from_text:10,.0f} hands/s  (parsing included)")

    folder = Path(tempfile.mkdtemp())
    try:
        match_add_figures(cli, sample, folder, runs, one_hand)
        batch_figures(cli, folder)
    finally:
        _shutil.rmtree(folder)


FLOOR = "import json, sys\nfor line in open(sys.argv[1], encoding='utf-8'):\n    json.loads(line)\n"
PEAK = (
    "import resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def write_hands(path: Path, n: int, seed: int = 2026) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as f:
        for _ in range(n):
            h = random_hand(rng)
            players = [
                {"name": name, "captured": cards, **({"exposed": h["exposed"][name]}
                                                     if name in h["exposed"] else {})}
                for name, cards in h["captured"].items()  # type: ignore[attr-defined]
            ]  # fmt: skip
            f.write(json.dumps({"players": players}, ensure_ascii=False) + "\n")


def batch_figures(cli: list[str], folder: Path) -> None:
    n = 100_000
    hands = folder / "hands.jsonl"
    write_hands(hands, n)
    out = folder / "scores.jsonl"
    floor = time_command([sys.executable, "-c", FLOOR, str(hands)], 3)
    batch = time_command([*cli, "batch", str(hands), "--format", "jsonl", "--output", str(out)], 3)
    print(f"batch --format jsonl, {n:,} random legal hands ({hands.stat().st_size / 1e6:.0f} MB), "
          "end to end, median of 3:")  # fmt: skip
    print(f"  json.loads per line (floor) {n / floor:10,.0f} hands/s  {floor:6.2f} s")
    print(f"  gongzhu-score batch         {n / batch:10,.0f} hands/s  {batch:6.2f} s"
          f"  = {batch / floor:.2f} × the floor")  # fmt: skip
    million = folder / "million.jsonl"
    with million.open("wb") as f:
        chunk = hands.read_bytes()
        for _ in range(10):
            f.write(chunk)
    peaks = []
    for path in (hands, million):
        args = [*cli, "batch", str(path), "--format", "jsonl", "--output", str(out)]
        start = time.perf_counter()
        peak = subprocess.run([sys.executable, "-c", PEAK, *args], check=True,
                              capture_output=True, text=True).stdout  # fmt: skip
        took = time.perf_counter() - start
        peaks.append(int(peak) / 1024)
    print(f"  peak memory (largest process): {peaks[0]:.0f} MB for 100,000 hands, "
          f"{peaks[1]:.0f} MB for 1,000,000")  # fmt: skip
    floor_million = time_command([sys.executable, "-c", FLOOR, str(million)], 1)
    print(f"  1,000,000 hands, once: batch {took:.2f} s, floor {floor_million:.2f} s "
          f"= {took / floor_million:.2f} × (start-up weighs less)")  # fmt: skip


def match_add_figures(cli: list[str], sample: str, folder: Path, runs: int, one: float) -> None:
    ledger = Ledger.new(NAMES, end_at=-(10**9))
    rng = random.Random(8)
    for _ in range(1000):
        h = random_hand(rng)
        ledger = ledger.add(Hand.from_captured(h["captured"], exposed=h["exposed"]))[0]  # type: ignore[arg-type]
    path = folder / "ledger.yaml"
    create_ledger(str(path), ledger)
    size = path.stat().st_size
    add = time_command([*cli, "match", "add", str(path), sample], runs)
    print(f"match add on a 1,000-hand ledger ({size / 1000:,.0f} kB, median of {runs}):")
    print(f"  gongzhu-score match add   {add * 1000:7.1f} ms  = {add / one:.2f} × one score")


if __name__ == "__main__":
    main()
