"""Run one ``gongzhu-score`` command and stop it dead at a chosen step of its writes.

``python tests/crashing.py STEP HOW -- ARGS...``: every call the package makes that writes to
disk (``os.fsync``, ``os.replace``, ``os.link``, ``os.truncate``, ``os.unlink``) is a step, counted before it and after it. At step ``STEP``: ``kill`` sends the
process SIGKILL (nothing runs after), ``term`` SIGTERM (the handler the console script installs
runs), ``interrupt`` raises KeyboardInterrupt (Ctrl-C). If the command ends before ``STEP``, the
script exits with 99 once the command is done, so a test walks STEP = 1, 2, … until it sees 99.

``walk_back`` checks what a crash left: ``match restore`` leads back through every change.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from gongzhu_score.match.history import digest
from gongzhu_score.match.storage import ledger_history, read_ledger, restore_ledger

COUNT = 0
STEP = 0
HOW = "kill"


def _step() -> None:
    global COUNT
    COUNT += 1
    if COUNT != STEP:
        return
    if HOW == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif HOW == "term":
        os.kill(os.getpid(), signal.SIGTERM)
    else:
        raise KeyboardInterrupt


def _wrapped(call: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        _step()
        result = call(*args, **kwargs)
        _step()
        return result

    return run


def main() -> None:
    global STEP, HOW
    STEP, HOW = int(sys.argv[1]), sys.argv[2]
    for name in ("fsync", "replace", "link", "truncate", "unlink"):
        setattr(os, name, _wrapped(getattr(os, name)))
    from gongzhu_score.cli.main import main as cli

    sys.argv = ["gongzhu-score", *sys.argv[sys.argv.index("--") + 1 :]]
    try:
        cli()
    except SystemExit as e:
        if COUNT < STEP:
            sys.stdout.flush()
            os._exit(99)
        raise SystemExit(e.code) from None
    if COUNT < STEP:
        os._exit(99)


def walk_back(path: str) -> int:
    """Restore change after change until only the start is left, checking that each state
    brought back is the one the change before it recorded; how many were reverted."""
    reverted = 0
    while True:
        changes = ledger_history(path)
        assert changes, "a ledger made by the tool keeps a history"
        assert changes[-1].after == digest(Path(path).read_bytes())
        if changes[-1].kind == "new":
            assert len(changes) == 1
            return reverted
        restore_ledger(path)
        reverted += 1
        assert not read_ledger(path).verify()


if __name__ == "__main__":
    main()
