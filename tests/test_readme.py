"""README's promises, checked: its console examples, its install commands, its sample table."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from clitools import ROOT, SAMPLES, run
from typer.testing import CliRunner

from gongzhu_score.cli import app

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


# --- the walkthrough: console blocks run in order, in one empty folder, as a terminal shows them

WALK_BLOCK = re.compile(r"```console walkthrough\n(.*?)```", re.S)

# What the table types at the prompts of the interactive command (the README shows it echoed).
TYPED = {
    "gongzhu-score match add 牌局.yaml": (
        "猪 变压器 红桃6 8 10 J\n"  # 老王
        "红桃2 3 4 5 7 9 A 猪\n"  # 小李: the pig again, refused at once, line asked again
        "红桃2 3 4 5 7 9 A\n"
        "羊 红桃Q\n"  # 阿芳
        "其余\n"  # 大刘: the rest
        "小李=红桃A\n"  # exposed
        "\n"  # 首明: none
        "5\n"  # change line 5 (exposed) at the confirmation
        "小李=红桃A; 老王=猪\n"
        "y\n"
    ),
}
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d")


def _walk(folder: Path) -> list[tuple[str, str]]:
    """(command, what a terminal shows) for every walkthrough command, run in ``folder``."""
    (folder / "sample_hands").symlink_to(SAMPLES)
    env: dict[str, str | None] = {"GONGZHU_LANG": None}
    shown = []
    old = Path.cwd()
    os.chdir(folder)
    try:
        for block in WALK_BLOCK.findall(README):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                command = chunk.partition("\n")[0]
                args = shlex.split(command)
                if args[0] == "export":
                    name, _, value = args[1].partition("=")
                    env[name] = value
                    shown.append((command, ""))
                    continue
                typed = TYPED.get(command)
                if typed is not None:
                    args.append("--interactive")  # what a terminal does by itself
                # Typer's runner echoes what is typed after each prompt, as a terminal shows it.
                r = CliRunner(env=env).invoke(app, args[1:], input=typed)
                assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
                shown.append((command, r.output))
    finally:
        os.chdir(old)
    return shown


def _refresh_walk(text: str, shown: list[tuple[str, str]]) -> str:
    outputs = iter(shown)

    def block(match: re.Match[str]) -> str:
        count = len(re.findall(r"^\$ ", match.group(1), flags=re.M))
        body = "".join(f"$ {c}\n{o}" for c, o in (next(outputs) for _ in range(count)))
        return f"```console walkthrough\n{body}```"

    return WALK_BLOCK.sub(block, text)


def test_readme_walkthrough(tmp_path: Path) -> None:
    shown = _walk(tmp_path)
    assert len(shown) >= 12
    expected = [
        (c, o)
        for b in WALK_BLOCK.findall(README)
        for c, _, o in (chunk.partition("\n") for chunk in re.split(r"^\$ ", b, flags=re.M)[1:])
    ]
    assert [c for c, _ in shown] == [c for c, _ in expected]
    for (command, got), (_, want) in zip(shown, expected, strict=True):
        assert _TIME.sub("TIME", got) == _TIME.sub("TIME", want), command


if os.environ.get("GONGZHU_UPDATE_GOLDEN"):
    # Rewrite every console block's output from the real program (then read the diff).
    README = re.sub(r"```console\n(.*?)```", _refresh, README, flags=re.S)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        README = _refresh_walk(README, _walk(Path(folder)))
    (ROOT / "README.md").write_text(README, encoding="utf-8")


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_readme_console_example(command: str, expected: str) -> None:
    assert output_of(command) == expected


def test_readme_has_examples() -> None:
    assert len(console_examples()) >= 6


# The one sample that is meant to break a rule: a dispute about play for `replay` to settle.
BREAKS_A_RULE = {"record_dispute.yaml"}
# The sample claim (声称) that is meant to fail: replay exits 3 with the counter-line.
NOT_GUARANTEED = {"claim_defeated.yaml"}


def test_every_sample_hand_is_in_the_readme_and_scores() -> None:
    samples = sorted(p.name for p in SAMPLES.glob("*.yaml"))
    assert samples
    for name in samples:
        assert f"`{name}`" in README, f"{name} is not shown in README"
        r = run("score", str(SAMPLES / name))
        assert r.exit_code == (2 if name in BREAKS_A_RULE else 0), r.stderr
        if "tricks:" in (SAMPLES / name).read_text(encoding="utf-8"):
            assert run("replay", str(SAMPLES / name)).exit_code == (
                1 if name in BREAKS_A_RULE else 3 if name in NOT_GUARANTEED else 0
            )


def test_ci_runs_the_readme_test_command() -> None:
    marker = "<!-- test-command"
    assert README.count(marker) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "test-command" in ci
