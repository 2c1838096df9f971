"""Shared test set-up: a steady terminal for Typer/Rich, hand builders for the tests."""

from __future__ import annotations

import os

# Before typer is imported anywhere: fixed width, no colour, so output is the same on a
# terminal and in CI.
os.environ["TERMINAL_WIDTH"] = "100"
os.environ["COLUMNS"] = "100"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)

# The engine as installed: compiled in place by `pip install -e .`, or plain Python. A compiled
# copy older than its source would test yesterday's engine, so refuse to run against it.
from pathlib import Path

import gongzhu_score.core.engine as _engine

_compiled = Path(_engine.__file__)
if _compiled.suffix != ".py" and _compiled.with_name("engine.py").stat().st_mtime > (
    _compiled.stat().st_mtime
):
    raise SystemExit(
        "gongzhu_score/core/engine.py changed after it was compiled: run `pip install -e .` "
        "again (or set GONGZHU_PURE_PYTHON=1 to test the uncompiled source)"
    )
