"""Shared test set-up: a steady terminal for Typer/Rich, hand builders for the tests."""

from __future__ import annotations

import os

# Before typer is imported anywhere: fixed width, no colour, so output is the same on a
# terminal and in CI.
os.environ["TERMINAL_WIDTH"] = "100"
os.environ["COLUMNS"] = "100"
os.environ["NO_COLOR"] = "1"
os.environ.pop("FORCE_COLOR", None)
