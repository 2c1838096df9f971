"""The pure core: cards, rule sets, hands, the scoring engine, normalization. No I/O.

Nothing here imports from input, output or CLI code; everything else is built on it.

mypyc compiles the engine (:mod:`.engine`) and the hand's rules (:mod:`.hand`) at install.
``GONGZHU_PURE_PYTHON=1`` runs their sources instead, even beside compiled copies, to check that
both give the same numbers. :func:`as_source` gives a compiled module's source as plain Python:
the column path runs :mod:`.hand`'s bit-form questions that way, on numpy arrays.
"""

import importlib.util
import os
import sys
from types import ModuleType

COMPILED = ("bits", "hand", "engine")
"""The modules mypyc compiles (``setup.py``), in the order they import each other."""
HOT_PATHS = ("batch.lines", "render.lines")
"""The modules outside the core that mypyc compiles too (``setup.py``): a JSON Lines batch's
loop and its lines, which call the engine directly. Their packages run them from source whenever
the engine runs so (:func:`from_source`), since compiled code calls only compiled code."""


def _load(name: str, as_name: str, folder: str = os.path.dirname(__file__)) -> ModuleType:
    path = os.path.join(folder, f"{name}.py")
    spec = importlib.util.spec_from_file_location(as_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[as_name] = module
    spec.loader.exec_module(module)
    return module


def as_source(name: str) -> ModuleType:
    """The module ``name`` of this package, run from its source as plain Python.

    So it takes what compiled code's types would refuse, such as numpy arrays. An uncompiled
    module is returned as is.
    """
    own = sys.modules.get(f"{__name__}.{name}") or importlib.import_module(f"{__name__}.{name}")
    if (own.__file__ or "").endswith(".py"):
        return own
    found = sys.modules.get(f"{__name__}.{name}_as_source")
    return found if found is not None else _load(name, f"{__name__}.{name}_as_source")


if os.environ.get("GONGZHU_PURE_PYTHON"):
    for _name in COMPILED:
        _load(_name, f"{__name__}.{_name}")


def from_source(package: str, package_file: str, name: str) -> None:
    """Run the module ``name`` of ``package`` from its source under ``GONGZHU_PURE_PYTHON=1``.

    Each package of :data:`HOT_PATHS` calls this from its ``__init__`` (``package_file``).
    """
    if os.environ.get("GONGZHU_PURE_PYTHON"):
        _load(name, f"{package}.{name}", os.path.dirname(package_file))
