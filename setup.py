"""Build: the scoring engine compiled with mypyc where a C compiler is at hand, else plain Python.

Only ``gongzhu_score/core/engine.py`` is compiled (the same source runs uncompiled and gives the
same numbers; the tests compare the two). ``GONGZHU_PURE_PYTHON=1`` skips the compilation; a
failed compilation is a warning, never a failed install.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

ENGINE = "gongzhu_score/core/engine.py"


def engine_extensions() -> list[object]:
    if os.environ.get("GONGZHU_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(["--ignore-missing-imports", ENGINE], opt_level="3")
    except Exception as e:  # no mypyc, or it refuses the source: the pure-Python engine
        print(f"gongzhu-score: building the pure-Python engine ({e})", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True  # no compiler: the pure-Python engine, not a failed install
    return list(extensions)


setup(ext_modules=engine_extensions())
