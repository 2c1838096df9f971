"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library."""

from .app import app, main

__all__ = ["app", "main"]
