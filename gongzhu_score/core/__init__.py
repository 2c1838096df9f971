"""The pure core: cards, rule sets, hands, the one scoring engine, normalization. No I/O.

Nothing here imports from input, output or CLI code; everything else is built on it.

The engine (:mod:`.engine`) is compiled with mypyc when the package is installed; with
``GONGZHU_PURE_PYTHON=1`` in the environment the same source runs uncompiled instead, even
where a compiled copy sits beside it (to check that both give the same numbers).
"""

import os

if os.environ.get("GONGZHU_PURE_PYTHON"):
    import importlib.util
    import sys

    _spec = importlib.util.spec_from_file_location(
        f"{__name__}.engine", os.path.join(os.path.dirname(__file__), "engine.py")
    )
    assert _spec is not None and _spec.loader is not None
    _engine = importlib.util.module_from_spec(_spec)
    sys.modules[_spec.name] = _engine
    _spec.loader.exec_module(_engine)
