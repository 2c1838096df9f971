"""Shared test set-up: a steady terminal for Typer/Rich, hand builders for the tests."""

from __future__ import annotations

import os

# Before typer is imported anywhere: fixed width, no colour, so output is the same on a
# terminal and in CI.
os.environ["TERMINAL_WIDTH"] = "100"
os.environ["COLUMNS"] = "100"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)

# The engine (and the hand's rules) as installed: compiled in place by `pip install -e .`, or
# plain Python. A compiled copy older than its source would test yesterday's engine, so refuse to
# run against it.
from pathlib import Path

import gongzhu_score.core.engine as _engine
import gongzhu_score.core.hand as _hand

for _module in (_engine, _hand):
    _compiled = Path(_module.__file__ or "")
    _source = _compiled.with_name(_module.__name__.rpartition(".")[2] + ".py")
    if _compiled.suffix != ".py" and _source.stat().st_mtime > _compiled.stat().st_mtime:
        raise SystemExit(
            f"{_source} changed after it was compiled: run `pip install -e .` again (or set "
            "GONGZHU_PURE_PYTHON=1 to test the uncompiled source)"
        )
