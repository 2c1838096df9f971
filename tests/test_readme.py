"""README's promises, checked: its console examples, its install commands, its sample table."""

from __future__ import annotations

import os
import re
import shlex

import pytest
from clitools import ROOT, SAMPLES, run

README = (ROOT / "README.md").read_text(encoding="utf-8")


def console_examples() -> list[tuple[str, str]]:
    """(command, expected output) for every ``$ gongzhu-score …`` in a console block."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            examples.append((command, output))
    return examples


def output_of(command: str) -> str:
    args = shlex.split(command)
    assert args[0] == "gongzhu-score"
    r = run(*args[1:])
    return r.stdout + r.stderr


def _refresh(match: re.Match[str]) -> str:
    commands = [c.partition("\n")[0] for c in re.split(r"^\$ ", match.group(1), flags=re.M)[1:]]
    body = "".join(f"$ {command}\n{output_of(command)}" for command in commands)
    return f"```console\n{body}```"


if os.environ.get("GONGZHU_UPDATE_GOLDEN"):
    # Rewrite every console block's output from the real program (then read the diff).
    README = re.sub(r"```console\n(.*?)```", _refresh, README, flags=re.S)
    (ROOT / "README.md").write_text(README, encoding="utf-8")


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_readme_console_example(command: str, expected: str) -> None:
    assert output_of(command) == expected


def test_readme_has_examples() -> None:
    assert len(console_examples()) >= 6


# The one sample that is meant to break a rule: a dispute about play for `replay` to settle.
BREAKS_A_RULE = {"record_dispute.yaml"}


def test_every_sample_hand_is_in_the_readme_and_scores() -> None:
    samples = sorted(p.name for p in SAMPLES.glob("*.yaml"))
    assert samples
    for name in samples:
        assert f"`{name}`" in README, f"{name} is not shown in README"
        r = run("score", str(SAMPLES / name))
        assert r.exit_code == (2 if name in BREAKS_A_RULE else 0), r.stderr
        if "tricks:" in (SAMPLES / name).read_text(encoding="utf-8"):
            assert run("replay", str(SAMPLES / name)).exit_code == (
                1 if name in BREAKS_A_RULE else 0
            )


def test_ci_runs_the_readme_test_command() -> None:
    marker = "<!-- test-command"
    assert README.count(marker) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "test-command" in ci
