"""README's promises, checked: a front page, and the test command CI runs.

Its console examples, like every page's, are run by tests/test_docs.py.
"""

from __future__ import annotations

from clitools import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_is_a_front_page() -> None:
    # The rest is in docs/, one page a use (README's contents link to each).
    assert README.count("\n") <= 300


def test_ci_runs_the_readme_test_command() -> None:
    marker = "<!-- test-command"
    assert README.count(marker) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "test-command" in ci
