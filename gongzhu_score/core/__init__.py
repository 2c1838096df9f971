"""The pure core: cards, rule sets, hands, the one scoring engine, normalization. No I/O.

Nothing here imports from input, output or CLI code; everything else is built on it.

The engine (:mod:`.engine`) and the hand's rules (:mod:`.hand`) are compiled with mypyc when
the package is installed; with ``GONGZHU_PURE_PYTHON=1`` in the environment their sources run
uncompiled instead, even where compiled copies sit beside them (to check that both give the
same numbers). :func:`as_source` gives a compiled module's source as plain Python beside it:
the column path runs :mod:`.hand`'s bit-form questions that way, on numpy arrays.
"""

import importlib.util
import os
import sys
from types import ModuleType

COMPILED = ("bits", "hand", "engine")
"""The modules mypyc compiles (``setup.py``), in the order they import each other."""


def _load(name: str, as_name: str) -> ModuleType:
    path = os.path.join(os.path.dirname(__file__), f"{name}.py")
    spec = importlib.util.spec_from_file_location(as_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[as_name] = module
    spec.loader.exec_module(module)
    return module


def as_source(name: str) -> ModuleType:
    """The module ``name`` of this package run from its source, plain Python (itself where it
    was not compiled): the same code, taking what compiled code's types would refuse."""
    own = sys.modules.get(f"{__name__}.{name}") or importlib.import_module(f"{__name__}.{name}")
    if (own.__file__ or "").endswith(".py"):
        return own
    found = sys.modules.get(f"{__name__}.{name}_as_source")
    return found if found is not None else _load(name, f"{__name__}.{name}_as_source")


if os.environ.get("GONGZHU_PURE_PYTHON"):
    for _name in COMPILED:
        _load(_name, f"{__name__}.{_name}")
