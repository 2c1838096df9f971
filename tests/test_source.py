"""One way to run from source: a compiled module whose source was edited since it was compiled
runs as its source reads, every compiled module with it, under their own names; no second copy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import gongzhu_score

PROBE = """
import sys
import gongzhu_score.batch.lines, gongzhu_score.core.engine, gongzhu_score.render.lines
from gongzhu_score.core import FROM_SOURCE
names = ["core.bits", "core.hand", "core.engine", "batch.lines", "render.lines"]
ran = [sys.modules["gongzhu_score." + m].__file__.endswith(".py") for m in names]
copies = [m for m in sys.modules if m.startswith("gongzhu_score") and "source" in m]
print(FROM_SOURCE, set(ran), copies, getattr(sys.modules["gongzhu_score.core.engine"],
                                             "EDITED", False))
"""


def _probe(top: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "GONGZHU_PURE_PYTHON"}
    env["PYTHONPATH"] = str(top)
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=top, env=env, capture_output=True,
                          text=True, timeout=60, check=True)  # fmt: skip
    return done.stdout.strip()


def test_an_edited_source_runs_as_it_reads_without_reinstalling(tmp_path: Path) -> None:
    package = Path(gongzhu_score.__file__).parent
    shutil.copytree(package, tmp_path / "gongzhu_score",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    for shared in package.parent.glob("*__mypyc*"):  # (mypyc's shared library, beside it)
        shutil.copy(shared, tmp_path)
    compiled = (package / "core" / "_compiled_from.py").exists() and any(
        (package / "core").glob("engine.*.so")
    )
    # as installed: compiled where it was compiled, else the sources
    assert _probe(tmp_path) == ("False {False} [] False" if compiled else "False {True} [] False")
    engine = tmp_path / "gongzhu_score" / "core" / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    # edited: every compiled module from its source, the edit seen, no second copy loaded
    assert _probe(tmp_path) == ("True {True} [] True" if compiled else "False {True} [] True")


C_PROBE = """
from gongzhu_score.core import FROM_SOURCE
from gongzhu_score.batch import columns
print(FROM_SOURCE, columns._read_codes is not None)
"""


def test_an_edited_c_reader_is_not_run_until_it_is_built_again(tmp_path: Path) -> None:
    """The column path's C reader (core/codes.c) is held to its source as the mypyc modules are:
    edited since it was built, everything runs from source and Arrow reads the cards."""
    package = Path(gongzhu_score.__file__).parent
    shutil.copytree(package, tmp_path / "gongzhu_score",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    for shared in package.parent.glob("*__mypyc*"):
        shutil.copy(shared, tmp_path)
    built = (package / "core" / "_compiled_from.py").exists() and any(
        (package / "core").glob("_codes.*.so")
    )
    env = {k: v for k, v in os.environ.items() if k != "GONGZHU_PURE_PYTHON"}
    env["PYTHONPATH"] = str(tmp_path)

    def probe() -> str:
        done = subprocess.run([sys.executable, "-c", C_PROBE], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
        return done.stdout.strip()

    assert probe() == ("False True" if built else "False False")
    source = tmp_path / "gongzhu_score" / "core" / "codes.c"
    source.write_text(source.read_text(encoding="utf-8") + "/* edited */\n", encoding="utf-8")
    assert probe() == ("True False" if built else "False False")
