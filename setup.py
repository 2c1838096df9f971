"""Build: the scoring engine compiled with mypyc where a C compiler is at hand, else plain Python.

Only the engine and what it calls for every hand are compiled (``gongzhu_score/core/engine.py``,
``hand.py``: what makes a hand valid, ``bits.py``: the bit layouts), and a JSON Lines batch's
loop and lines (``batch/lines.py``, ``render/lines.py``): the same sources run uncompiled and
give the same numbers; the tests compare the two. Beside them, in C, the column path's reader of
card-code texts (``core/codes.c``; without it Arrow reads the same masks). ``GONGZHU_PURE_PYTHON=1``
skips the compilation; a failed compilation is a warning, never a failed install.
"""

from __future__ import annotations

import os
import sys
import zlib

from setuptools import Extension, setup

NATIVE = "gongzhu_score/core/codes.c"
"""The column path's reader of card-code texts (``gongzhu_score.core._codes``), C: without it
the same masks come from numpy."""
COMPILED = [
    "gongzhu_score/core/bits.py",
    "gongzhu_score/core/hand.py",
    "gongzhu_score/core/engine.py",
    # A JSON Lines batch's loop and its lines: they call the engine, compiled, directly.
    "gongzhu_score/batch/lines.py",
    "gongzhu_score/render/lines.py",
]


def engine_extensions() -> list[object]:
    if os.environ.get("GONGZHU_PURE_PYTHON"):
        return []
    record_sources()
    try:
        from mypyc.build import mypycify

        # Only the engine's own types matter to the compiler: the project's strict settings
        # and the other modules' stubs (not installed where the package is built) do not.
        options = ["--config-file", os.devnull, "--ignore-missing-imports",
                   "--follow-imports", "silent"]  # fmt: skip
        extensions = mypycify([*options, *COMPILED], opt_level="3")
    except (Exception, SystemExit) as e:  # no mypyc, or it refuses the source: plain Python
        print(f"gongzhu-score: building the pure-Python engine ({e})", file=sys.stderr)
        return []
    extensions = [*extensions, Extension("gongzhu_score.core._codes", [NATIVE],
                                         extra_compile_args=["-O3"])]  # fmt: skip
    for extension in extensions:
        extension.optional = True  # no compiler: the pure-Python engine, not a failed install
    return list(extensions)


def record_sources() -> None:
    """Write each compiled module's checksum beside the package's core.

    An edited source then runs as it reads, uncompiled (``gongzhu_score/core/__init__.py``),
    until the next install compiles it again.
    """
    sums = {}
    for path in [*COMPILED, NATIVE]:
        with open(path, "rb") as source:
            sums[path.removeprefix("gongzhu_score/")] = zlib.crc32(source.read())
    with open("gongzhu_score/core/_compiled_from.py", "w", encoding="utf-8") as f:
        f.write(f'"""Written by setup.py as it compiles: each source\'s CRC-32."""\n\n'
                f"SOURCES = {sums!r}\n")  # fmt: skip


setup(ext_modules=engine_extensions())
