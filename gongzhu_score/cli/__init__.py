"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library.

``main`` is the console script; ``app`` is the whole Typer app (built when first asked for).
"""

from typing import Any

from . import words as words  # the command line's words join the table of terms
from .main import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    if name == "app":
        from .main import whole_app

        return whole_app()
    raise AttributeError(name)
