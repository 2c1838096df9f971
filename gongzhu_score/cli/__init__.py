"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library.

``main`` is the console script; ``app`` is the Typer app (its commands built when they run).
"""

from typing import Any

from .main import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from .root import app

        return app
    raise AttributeError(name)
