"""``GONGZHU_LOCK_WAIT``: how long a change waits for another's lock; a value that is not a
number of seconds is a clear error that changes nothing (issue 20), never a traceback or a
wait forever."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clitools import SAMPLES, done

HAND = str(SAMPLES / "match" / "hand1.yaml")


def add(path: str, wait: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GONGZHU_LOCK_WAIT": wait}
    return subprocess.run([sys.executable, "-m", "gongzhu_score", "match", "add", path, HAND],
                          capture_output=True, text=True, env=env, timeout=60)  # fmt: skip


@pytest.mark.parametrize("wait", ["abc", "", "nan", "inf", "-1", "1e400", "10s"])
def test_a_lock_wait_that_is_no_number_of_seconds_is_refused(tmp_path: Path, wait: str) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    before = Path(path).read_bytes(), Path(path + ".history").read_bytes()
    r = add(path, wait)
    assert r.returncode == 2 and r.stdout == ""
    assert (
        r.stderr
        == f"error: GONGZHU_LOCK_WAIT={wait!r}: not a number of seconds; give one such as 10 (0: do not wait)\n"
    )
    assert (Path(path).read_bytes(), Path(path + ".history").read_bytes()) == before


def test_a_lock_wait_of_zero_gives_up_at_once_when_the_lock_is_held(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "--players", "东,南,西,北")
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        start = time.monotonic()
        r = add(path, "0")
        waited = time.monotonic() - start
    assert r.returncode == 2 and "another process is changing this ledger" in r.stderr
    assert waited < 10  # the default wait is 10 s: it did not wait that
