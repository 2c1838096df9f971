"""The pure core: cards, rule sets, hands, the scoring engine, normalization. No I/O.

Nothing here imports from input, output or CLI code; everything else is built on it.

mypyc compiles the engine (:mod:`.engine`) and the hand's rules (:mod:`.hand`) at install. There
is one way to run them from source: the same modules, uncompiled, under their own names. It is
taken under ``GONGZHU_PURE_PYTHON=1`` (to check that both give the same numbers), and whenever a
compiled module's source is no longer the one it was compiled from (a checkout edited since its
editable install), so the tests always run the source they see.
"""

import importlib.util
import os
import sys
import zlib

COMPILED = ("bits", "hand", "engine")
"""The modules mypyc compiles (``setup.py``), in the order they import each other."""
NATIVE = ("_codes",)
"""The C module ``setup.py`` builds beside them (``codes.c``): the column path's reader of
card-code texts. It has no Python twin to run; while the engine runs from source the column path
reads the same masks with numpy, and an edited ``codes.c`` makes the engine run so too."""
HOT_PATHS = ("batch.lines", "render.lines")
"""The modules outside the core that mypyc compiles too (``setup.py``): a JSON Lines batch's
loop and its lines, which call the engine directly. Their packages run them from source whenever
the engine runs so (:func:`from_source`), since compiled code calls only compiled code."""


def _load(name: str, folder: str = os.path.dirname(__file__), package: str = __name__) -> None:
    """Run the module ``package.name`` from its source, under its own name."""
    spec = importlib.util.spec_from_file_location(f"{package}.{name}",
                                                  os.path.join(folder, f"{name}.py"))  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


def _edited() -> bool:
    """Whether a compiled module's source differs from the one it was compiled from.

    ``setup.py`` writes each one's checksum (``_compiled_from.py``) as it compiles them.
    """
    try:
        from ._compiled_from import SOURCES
    except ImportError:  # nothing compiled
        return False
    top = os.path.dirname(os.path.dirname(__file__))
    for path, checksum in SOURCES.items():
        try:
            with open(os.path.join(top, path), "rb") as f:
                if zlib.crc32(f.read()) != checksum:
                    return True
        except OSError:  # (no source beside it: the compiled module is all there is)
            continue
    return False


FROM_SOURCE = bool(os.environ.get("GONGZHU_PURE_PYTHON")) or _edited()
"""Whether the compiled modules run from their sources (see above)."""

if FROM_SOURCE:
    for _name in COMPILED:
        _load(_name)


def from_source(package: str, package_file: str, name: str) -> None:
    """Run the module ``name`` of ``package`` from its source when the engine runs so.

    Each package of :data:`HOT_PATHS` calls this from its ``__init__`` (``package_file``).
    """
    if FROM_SOURCE:
        _load(name, os.path.dirname(package_file), package)
