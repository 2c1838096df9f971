"""The test suite's own shape (docs/development.md, "Running the tests"): no test file imports
another (what they share lives in conftest.py or a helper module); collecting the whole suite
imports no optional library, so it collects where none is installed; a package module left out
of the doctests has none; every marked suite is left out of README's command, run by CI and
documented with what it needs."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
OPTIONAL = ["pyspark", "ray", "dask", "distributed", "playwright", "pyarrow", "pandas",
            "matplotlib", "PIL", "uvicorn", "starlette", "segno", "psutil"]  # fmt: skip
"""The libraries of the extras (and what they bring: pandas, Pillow). numpy is a dependency of
the package itself (the engine's many-hands door)."""


def test_no_test_file_imports_another() -> None:
    found = []
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found += [f"{path.name}:{node.lineno} imports {n}" for n in names
                      if n.split(".")[0].startswith("test_")]  # fmt: skip
    assert not found, "move what they share into a helper module:\n" + "\n".join(found)


def test_collecting_the_suite_imports_no_optional_library(tmp_path: Path) -> None:
    """Every test collected, every marker selected (``-m ""``); conftest.py writes the modules
    imported once collection is done (``GONGZHU_COLLECTED_MODULES``)."""
    written = tmp_path / "modules.txt"
    env = {**os.environ, "GONGZHU_COLLECTED_MODULES": str(written)}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", ""],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    imported = {name.partition(".")[0] for name in written.read_text().split()}
    assert imported & set(OPTIONAL) == set(), "import these inside the tests that need them"
    assert "deselected" not in done.stdout.splitlines()[-1]


def test_a_package_module_left_out_of_the_doctests_for_its_imports_has_none() -> None:
    """The modules that import an extra as they load are not collected (pyproject's addopts):
    none has an example that would then go unrun."""
    addopts = re.search(r'^addopts = "(.*)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert addopts
    ignored = re.findall(r"--ignore=(\S+)", addopts.group(1))
    for module in ["gongzhu_score/arrow.py", "gongzhu_score/batch/columns.py",
                   "gongzhu_score/web/app.py"]:  # fmt: skip
        assert module in ignored
        assert ">>>" not in (ROOT / module).read_text(encoding="utf-8"), module


def _declared_markers() -> set[str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r"^markers = \[\n(.*?)^\]", text, re.M | re.S)
    assert block
    return set(re.findall(r'^\s*"([a-z]+):', block.group(1), re.M))


def _named(expression: str) -> set[str]:
    return set(re.findall(r"[a-z]+", expression)) - {"not", "or", "and"}


def test_every_marked_suite_is_left_out_by_default_and_run_by_ci() -> None:
    declared = _declared_markers()
    addopts = re.search(r'^addopts = ".*-m \'([^\']*)\'"$', (ROOT / "pyproject.toml").read_text(),
                        re.M)  # fmt: skip
    assert addopts and addopts.group(1).startswith("not (")
    ci = re.search(r'^MARKED="([^"]*)"$', (ROOT / ".ci" / "run").read_text(), re.M)
    assert ci
    assert _named(addopts.group(1)) == _named(ci.group(1)) == declared


def test_every_marked_suite_is_documented_with_what_it_needs() -> None:
    page = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    table = page[page.index("### The marked suites") :]
    assert [m for m in sorted(_declared_markers()) if f"\n| `{m}` | " not in table] == []
