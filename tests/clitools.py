"""Helpers for the CLI tests: run the real command through Typer's test runner; golden files;
the command at a real pseudo-terminal (``at_a_terminal``)."""

from __future__ import annotations

import itertools
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from gongzhu_score.cli.boundary import run as run_at_the_boundary
from gongzhu_score.cli.root import command_line

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_hands"
GOLDEN = Path(__file__).resolve().parent / "golden"


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str
    output: str = ""
    """Both streams as a terminal shows them, what is typed at a prompt echoed."""


def run(
    *args: str,
    input: str | bytes | None = None,
    env: dict[str, str | None] | None = None,
    every: bool = False,
) -> Run:
    """The command line as the console script runs it (only the command named; ``every``:
    with every command registered), in this process, its streams caught by Typer's runner."""
    with CliRunner(env=env).isolation(input=input) as (out, err, both):
        code = run_at_the_boundary(list(args), lambda given: command_line(given, every))
        sys.stdout.flush()
        sys.stderr.flush()
        texts = [s.getvalue().decode("utf-8", "replace").replace("\r\n", "\n")
                 for s in (out, err, both)]  # fmt: skip
    return Run(code, *texts)


def ok(*args: str, input: str | None = None) -> str:
    r = run(*args, input=input)
    assert r.exit_code == 0, r.stderr
    assert r.stderr == ""
    return r.stdout


def done(*args: str, input: str | None = None) -> tuple[str, str]:
    """Run a command that must succeed; it may also print messages on stderr."""
    r = run(*args, input=input)
    assert r.exit_code == 0, r.stderr
    assert "Traceback" not in r.stderr
    return r.stdout, r.stderr


def asks_chinese(args: tuple[str, ...]) -> bool:
    """Whether a command line asks for Chinese: ``--lang zh`` (the last ``--lang`` given), else
    the environment's ``GONGZHU_LANG=zh``."""
    asked = [b for a, b in itertools.pairwise(args) if a == "--lang"]
    asked += [a.partition("=")[2] for a in args if a.startswith("--lang=")]
    return (asked[-1] if asked else os.environ.get("GONGZHU_LANG")) == "zh"


def refused(*args: str, input: str | bytes | None = None) -> str:
    """Run a command that must refuse its input: exit 2, one error line (``error: …``, or in
    Chinese ``错误：…``), nothing on stdout."""
    r = run(*args, input=input)
    prefix = "错误：" if asks_chinese(args) else "error: "
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert r.stdout == ""
    assert r.stderr.startswith(prefix), r.stderr
    assert "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1, r.stderr
    return r.stderr.removeprefix(prefix).rstrip("\n")


def sample(name: str) -> str:
    return str(SAMPLES / name)


def golden(name: str, text: str) -> None:
    """Compare with tests/golden/NAME; GONGZHU_UPDATE_GOLDEN=1 rewrites it (then read the diff)."""
    path = GOLDEN / name
    if os.environ.get("GONGZHU_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with GONGZHU_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def at_a_terminal(
    args: list[str], typed: bytes, tmp_path: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The command with a pseudo-terminal as its standard input, ``typed`` at it (then Ctrl-D);
    its standard output and error are pipes."""
    master, slave = os.openpty()
    try:
        child = subprocess.Popen(
            [sys.executable, "-m", "gongzhu_score", *args],
            stdin=slave,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        )
        os.close(slave)
        slave = -1
        for line in typed.splitlines(keepends=True):
            os.write(master, line)
            time.sleep(0.05)
        os.write(master, b"\x04")  # Ctrl-D: the end of what is typed
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    os.read(master, 65536)  # the terminal's echo, drained
                except OSError:  # (the child closed the terminal: it is ending)
                    time.sleep(0.1)
        out, err = child.communicate(timeout=10)
        return subprocess.CompletedProcess(child.args, child.returncode, out, err)
    finally:
        os.close(master)
        if slave >= 0:
            os.close(slave)


LOADED = """
import json, sys
sys.argv = ["gongzhu-score", *json.loads(sys.argv[1])]
from gongzhu_score.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def loaded_by(*args: str) -> set[str]:
    """The modules a command run loaded, in a process of its own (``GONGZHU_LANG`` unset)."""
    import json
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "GONGZHU_LANG"}
    r = subprocess.run([sys.executable, "-c", LOADED, json.dumps(args)], capture_output=True,
                       text=True, timeout=60, check=True, env=env)  # fmt: skip
    return set(json.loads(r.stderr.strip().splitlines()[-1]))
