"""Shared test set-up: a steady terminal for Typer/Rich, hand builders for the tests."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

# Before typer is imported anywhere: fixed width, no colour, so output is the same on a
# terminal and in CI.
os.environ["TERMINAL_WIDTH"] = "100"
os.environ["COLUMNS"] = "100"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)

# The matches the tests start and change are remembered in a state folder of their own, never
# the user's (each test gets a fresh one: `_own_state_folder`); the current match and the
# clock of the shell that runs the tests do not reach them.
os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="gongzhu-state-")
os.environ.pop("GONGZHU_MATCH", None)
os.environ.pop("GONGZHU_NOW", None)

# The engine (the hand's rules, the bit layouts, a batch's hot path) as installed: compiled in
# place by `pip install -e .`, or plain Python. A compiled copy older than its source would test
# yesterday's engine, so refuse to run against it.
import atexit
import importlib
from pathlib import Path

import pytest
from hypothesis import settings as _hypothesis

from gongzhu_score.core import COMPILED, HOT_PATHS

for _module in [importlib.import_module(f"gongzhu_score.core.{m}") for m in COMPILED] + [
    importlib.import_module(f"gongzhu_score.{m}") for m in HOT_PATHS
]:
    _compiled = Path(_module.__file__ or "")
    _source = _compiled.with_name(_module.__name__.rpartition(".")[2] + ".py")
    if _compiled.suffix != ".py" and _source.stat().st_mtime > _compiled.stat().st_mtime:
        raise SystemExit(
            f"{_source} changed after it was compiled: run `pip install -e .` again (or set "
            "GONGZHU_PURE_PYTHON=1 to test the uncompiled source)"
        )

atexit.register(shutil.rmtree, os.environ["XDG_STATE_HOME"], True)

# Speed is measured in tests/benchmark.py, never by a test: Hypothesis's per-example deadline
# (200 ms) timed every property test, and failed one on a CI machine busy with other work.
_hypothesis.register_profile("untimed", deadline=None)
_hypothesis.load_profile("untimed")


@pytest.fixture(autouse=True)
def _own_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh state folder for each test: no test sees a match another one remembered."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


def pytest_collection_finish(session: pytest.Session) -> None:
    """With ``GONGZHU_COLLECTED_MODULES=FILE``, write the modules imported once the suite is
    collected, one a line (tests/test_layers.py: collecting imports no optional library)."""
    if path := os.environ.get("GONGZHU_COLLECTED_MODULES"):
        Path(path).write_text("\n".join(sorted(sys.modules)) + "\n", encoding="utf-8")
