"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library.

``main`` is the console script (the error boundary around the command a run names); ``app``
is the whole command line as a Typer app, every command registered (built when first used).
"""

from typing import Any

from .main import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from .root import whole

        return whole()
    raise AttributeError(name)
