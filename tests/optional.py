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

HIDE_EXTRA = (
    "import sys\n"
    "class NoExtra:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.partition('.')[0] in ('numpy', 'pyarrow'):\n"
    "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
    "def hide_extra():\n"
    "    sys.meta_path.insert(0, NoExtra())\n"
)
"""The start of a script that can run as installed without the arrow extra: after
``hide_extra()``, numpy and pyarrow cannot be imported (a finder refuses them, and the forked
workers inherit it)."""
