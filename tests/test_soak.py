"""A soak (issue 20): processes adding, editing, setting, undoing and restoring on one ledger
while they are killed at random (SIGKILL mostly, SIGTERM and Ctrl-C too), for a bounded time
(``GONGZHU_SOAK_SECONDS``, 20 by default). Afterwards the ledger verifies, its history leads
back from it change by change, and ``match restore`` walks back through every recorded one."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, run
from crashing import walk_back

from gongzhu_score.match.history import digest
from gongzhu_score.match.storage import ledger_history, read_ledger

MATCH = SAMPLES / "match"
AT_ONCE = 3
LIFETIME = 0.6
NEVER = float("inf")
POUNCE = -1.0
"""About how long one command runs here, start-up included (seconds)."""


def commands(path: str, rng: random.Random) -> list[str]:
    hand = str(MATCH / f"hand{rng.randint(1, 3)}.yaml")
    return rng.choice(
        [
            ["match", "add", path, hand],
            ["match", "add", path, hand],
            ["match", "add", path, hand],
            ["match", "edit", path, "1", hand],
            ["match", "set", path, "--end-at", str(rng.choice([-900, -1000, -1200]))],
            ["match", "set", path, "--scale", str(rng.choice([1, 2, 3]))],
            ["match", "undo", path],
            ["match", "remove", path, "1", "--yes"],
            ["match", "restore", path],
            ["match", "restore", path],
            ["match", "rename", path, *rng.choice([["北", "小北"], ["小北", "北"]])],
        ]
    )


@pytest.mark.soak
def test_random_kills_never_leave_a_change_half_done(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    ok("match", "add", path, str(MATCH / "hand1.yaml"))
    rng = random.Random(int(os.environ.get("GONGZHU_SOAK_SEED", "20")))
    deadline = time.monotonic() + float(os.environ.get("GONGZHU_SOAK_SECONDS", "20"))
    env = {**os.environ, "GONGZHU_LOCK_WAIT": "60"}
    running: list[tuple[subprocess.Popen[bytes], Path, float]] = []  # kill at that time
    started = killed = 0
    signalled: set[subprocess.Popen[bytes]] = set()
    history = Path(path + ".history")
    seen = history.stat().st_size
    # (a busy machine starts fewer commands in the time: go on until enough were killed, up to
    # a bound, so the test checks what kills do and not how fast the machine is)
    last = deadline + 120

    def more() -> bool:
        now = time.monotonic()
        return now < deadline or (killed <= 20 and now < last)

    while more() or running:
        while len(running) < AT_ONCE and more():
            err = tmp_path / f"err{started}"
            with err.open("wb") as e:
                p = subprocess.Popen([sys.executable, "-m", "gongzhu_score",
                                      *commands(path, rng)], stdout=subprocess.DEVNULL,
                                     stderr=e, stdin=subprocess.DEVNULL, env=env)  # fmt: skip
            # Killed at any moment of its life (start-up takes most of it), the moment a change
            # is written ahead in the history (the window a random kill rarely hits), or left
            # to finish.
            fate = rng.random()
            at = (time.monotonic() + rng.uniform(0.0, LIFETIME) if fate < 0.4
                  else POUNCE if fate < 0.6 else NEVER)  # fmt: skip
            running.append((p, err, at))
            started += 1
        time.sleep(0.002)
        size = history.stat().st_size
        grew, seen = size > seen, size
        for item in list(running):
            p, err, at = item
            due = grew if at == POUNCE else time.monotonic() >= at
            if p.poll() is None and due and p not in signalled:
                p.send_signal(rng.choice([signal.SIGKILL] * 4 + [signal.SIGTERM, signal.SIGINT]))
                signalled.add(p)
                killed += 1
                continue
            if p.poll() is None:
                continue
            running.remove(item)
            said = err.read_text(errors="replace")
            if at == NEVER:
                assert p.returncode in (0, 2), said
                assert "Traceback" not in said, said
    assert killed > 20 and started > killed, (started, killed)
    assert run("match", "verify", path).exit_code == 0
    changes = ledger_history(path)
    assert changes[-1].after == digest(Path(path).read_bytes())
    assert [c.number for c in changes] == list(range(1, len(changes) + 1))
    assert not read_ledger(path).verify()
    assert walk_back(path) == len(changes) - 1
