"""Start-up (issues 13, 33, 56): a command builds and imports only itself, and says exactly what
the whole command line would say. (Typer 0.29 reads
every option with pydantic: a cost every Typer command pays, docs/speed.md.)"""

from __future__ import annotations

import subprocess
import sys

import pytest
from clitools import SAMPLES, loaded_by, run

HAND = str(SAMPLES / "seed_minus_400.yaml")
LEDGER = str(SAMPLES / "match" / "ledger.yaml")


@pytest.mark.parametrize(
    "args",
    [
        ["score", HAND],
        ["score", HAND, "--format", "json", "--scale", "12", "--lang", "zh"],
        ["score", "-c", "东=QS 10C", "-c", "南=全红", "-c", "西=JD", "--rest", "北"],
        ["explain", HAND],
        ["match", "show", LEDGER],
        ["batch", str(SAMPLES / "batch.jsonl"), "-f", "jsonl"],
    ],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_command_pays_only_for_itself(args: list[str]) -> None:
    modules = loaded_by(*args)
    if "json" in args or "jsonl" in args:  # (a table is tabulate's; JSON needs none of it)
        assert "tabulate" not in modules
    if args[0] != "match":
        assert "gongzhu_score.cli.match" not in modules
    if args[0] != "batch":
        assert "gongzhu_score.cli.batch" not in modules


SCORING = ("gongzhu_score.api", "gongzhu_score.arrow", "gongzhu_score.batch",
           "gongzhu_score.core.cards", "gongzhu_score.core.engine", "gongzhu_score.core.hand",
           "gongzhu_score.core.options", "gongzhu_score.core.variant", "gongzhu_score.disputes",
           "gongzhu_score.io", "gongzhu_score.match.ledger", "gongzhu_score.play")  # fmt: skip
"""The library's scoring modules (the option declarations import only the enumerations their
choices come from: core.normalize, core.auto_play, match.standings)."""


@pytest.mark.parametrize(
    "args",
    [["--version"], ["--help"], ["score", "--help"], ["--lang", "zh", "match", "add", "-h"],
     ["batch", "--help"], ["tournament", "new", "--help"]],
    ids=" ".join,
)  # fmt: skip
def test_version_and_help_import_no_scoring_module(args: list[str]) -> None:
    loaded = sorted(m for m in loaded_by(*args) if m.startswith(SCORING))
    assert not loaded, loaded


def test_version_needs_no_command() -> None:
    modules = loaded_by("--version")
    assert not {"gongzhu_score.cli.match", "gongzhu_score.cli.batch", "pydantic"} & modules
    assert not {"gongzhu_score.cli.hand", "rich"} & modules
    # --version alone is answered before Typer loads (issue 56: at most import typer's time);
    # with GONGZHU_LANG to check, the whole command line answers, refusing a wrong one.
    assert "typer" not in modules
    assert run("--version").stdout == "gongzhu-score 0.1.0\n"


def test_version_with_a_language_variable_is_checked_as_everywhere() -> None:
    import os

    env = {**os.environ, "GONGZHU_LANG": "fr"}
    done = subprocess.run([sys.executable, "-m", "gongzhu_score", "--version"], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and "GONGZHU_LANG" in done.stderr and done.stdout == ""


# What the console script prints (only the command named registered) is what the whole command
# line prints (every command registered).
SAME = [
    ["--help"],
    ["--version"],
    ["score", "--help"],
    ["score", HAND],
    ["score", HAND, "-f", "bogus"],
    ["score", HAND, "--bogus"],
    ["scor", HAND],
    ["match"],
    ["match", "show", LEDGER, "2", "--lang", "zh"],
    ["match", "shwo", LEDGER],
    ["batch", "--help"],
    ["variants"],
    ["--lang", "zh", "match", "--help"],
    ["tournament"],
]


@pytest.mark.parametrize("args", SAME, ids=lambda a: " ".join(a[:3]))
def test_the_console_script_says_what_the_whole_command_line_says(args: list[str]) -> None:
    real = subprocess.run([sys.executable, "-m", "gongzhu_score", *args], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    whole = run(*args, every=True)
    assert (real.returncode, real.stdout, real.stderr) == (whole.exit_code, whole.stdout,
                                                           whole.stderr)  # fmt: skip


def test_the_package_loads_a_public_name_when_it_is_used() -> None:
    """``import gongzhu_score`` loads no module of its own; each name of ``__all__`` is there
    when asked for, the very object of its home module (issue 56: ``--version`` pays for none
    of the library)."""
    code = (
        "import json, sys\nimport gongzhu_score\n"
        "before = sorted(m for m in sys.modules if m.startswith('gongzhu_score.'))\n"
        "from gongzhu_score import *\n"
        "names = {n: type(getattr(gongzhu_score, n)).__name__ for n in gongzhu_score.__all__}\n"
        "print(json.dumps([before, names, sorted(dir(gongzhu_score))]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    import json

    import gongzhu_score
    from gongzhu_score.core.hand import Hand
    from gongzhu_score.io.variants import VARIANTS

    before, names, listed = json.loads(done.stdout)
    assert before == []
    assert set(names) == set(gongzhu_score.__all__) and len(names) == 40
    assert set(gongzhu_score.__all__) <= set(listed)
    assert gongzhu_score.Hand is Hand and gongzhu_score.VARIANTS is VARIANTS
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        gongzhu_score.nothing  # noqa: B018
