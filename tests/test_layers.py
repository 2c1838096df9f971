"""The test suite's own shape (docs/development.md, "Running the tests"): no test file imports
another (what they share lives in conftest.py or a helper module)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


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
