"""Stop one ``gongzhu-score`` command dead at a chosen step of its writes; check what it left.

``Stopping(step, how, args).wait()`` runs the command in a child forked from the test's process
(the package is already imported there: no interpreter to start per step), with its own
standard streams. In the child every call the package makes that writes to disk
(``os.fsync``, ``os.replace``, ``os.link``, ``os.truncate``, ``os.unlink``) is a step, counted
before it and after it. At step ``step``: ``kill`` sends the child SIGKILL (nothing runs
after), ``term`` SIGTERM (the handler the console script installs runs), ``interrupt`` raises
KeyboardInterrupt (Ctrl-C). If the command ends before ``step``, the child exits with
``NOT_REACHED`` once the command is done, so a test walks step = 1, 2, … until it sees it.

``walk_back`` checks what a crash left: ``match restore`` leads back through every change.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from gongzhu_score.cli.main import main
from gongzhu_score.match.history import digest
from gongzhu_score.match.storage import ledger_history, read_ledger, restore_ledger

NOT_REACHED = 99
WRITES = ("fsync", "replace", "link", "truncate", "unlink")


@dataclass
class Stopped:
    """How the command ended (a negative ``returncode`` is the signal that killed it)."""

    returncode: int
    stdout: str
    stderr: str


class Stopping:
    """The command ``args`` started in a forked child, to be stopped at ``step``."""

    def __init__(self, step: int, how: str, args: list[str], env: dict[str, str]) -> None:
        # (closed by wait, once the child has written them)
        self._out = tempfile.TemporaryFile()  # noqa: SIM115
        self._err = tempfile.TemporaryFile()  # noqa: SIM115
        sys.stdout.flush()
        sys.stderr.flush()
        self._pid = os.fork()
        if self._pid == 0:
            _child(step, how, args, env, self._out.fileno(), self._err.fileno())

    def wait(self, timeout: float = 60) -> Stopped:
        deadline = time.monotonic() + timeout
        while (done := os.waitpid(self._pid, os.WNOHANG))[0] == 0:
            if time.monotonic() > deadline:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
                raise TimeoutError(f"the command did not end within {timeout} s")
            time.sleep(0.002)
        said = []
        for f in (self._out, self._err):
            f.seek(0)
            said.append(f.read().decode("utf-8", errors="replace"))
            f.close()
        return Stopped(os.waitstatus_to_exitcode(done[1]), *said)


def _child(step: int, how: str, args: list[str], env: dict[str, str], out: int,
           err: int) -> NoReturn:  # fmt: skip
    """The forked child: the command as the console script runs it, stopped at ``step``; it
    never returns to the test's code (``os._exit``)."""
    code = 1
    try:
        os.environ.update(env)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        # The streams a fresh interpreter has (not the test's captured ones).
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                          closefd=False, buffering=1)  # fmt: skip
        count = 0

        def at_a_step() -> None:
            nonlocal count
            count += 1
            if count != step:
                return
            if how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            elif how == "term":
                os.kill(os.getpid(), signal.SIGTERM)
            else:
                raise KeyboardInterrupt

        for name in WRITES:
            setattr(os, name, _counted(getattr(os, name), at_a_step))
        sys.argv = ["gongzhu-score", *args]
        try:
            main()
            code = 0
        except SystemExit as e:
            code = _exit_code(e.code)
        if count < step:
            code = NOT_REACHED
    except BaseException:  # as the interpreter does with what nothing caught
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _exit_code(code: object) -> int:
    """The exit status of ``SystemExit(code)``, as the interpreter gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _counted(call: Any, at_a_step: Callable[[], None]) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        at_a_step()
        result = call(*args, **kwargs)
        at_a_step()
        return result

    return run


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
