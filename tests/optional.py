"""Optional libraries for the tests, imported when a test first uses one and never while the
suite is collected (tests/test_layers.py checks that collecting imports none of them): a test
module says ``from optional import pa, pq`` and uses them as the modules."""

from __future__ import annotations

import importlib
from typing import Any


class Lazy:
    """The module ``name``, imported at the first attribute asked of it."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        # Collecting asks private names of every object it finds (pytest, doctest and inspect:
        # __wrapped__, __test__, _mock_name…): those are never the module's. A test that needs
        # one of a module's private names imports the module itself.
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<{self._name}, imported at first use>"


pa = Lazy("pyarrow")
np = Lazy("numpy")
pq = Lazy("pyarrow.parquet")
# The package's own modules that import pyarrow and numpy as they load.
arrow = Lazy("gongzhu_score.arrow")
columns = Lazy("gongzhu_score.batch.columns")

HIDE_ARROW = """
import sys


class NoArrow:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "pyarrow":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


sys.meta_path.insert(0, NoArrow())
"""
"""A ``sitecustomize`` that makes pyarrow unimportable, as in an install without the arrow
extra: in every process that starts with it on its path (a batch's workers too)."""


def hiding_arrow(folder: Any, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment (``base``'s, else this process's) of a process, and of those it starts,
    that cannot import pyarrow: ``folder`` gets :data:`HIDE_ARROW` as its
    ``sitecustomize.py``, first on the path."""
    import os
    from pathlib import Path

    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / "sitecustomize.py").write_text(HIDE_ARROW, encoding="utf-8")
    return {**(os.environ if base is None else base), "PYTHONPATH": str(folder)}
