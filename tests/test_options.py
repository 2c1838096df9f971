"""Each option declared once (issue 33): a flag's declaration is found once in the source, the
scoring options travel as one value (``rounding`` in few signatures), and a new option is one
declaration, shown in every language's help and asked of every catalog."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from regenerate import template
from typer.testing import CliRunner

from gongzhu_score.cli.boundary import Command, ErrorsAtTheBoundary
from gongzhu_score.cli.options import grouped, language

PACKAGE = Path(__file__).resolve().parent.parent / "gongzhu_score"


def test_each_flag_is_declared_once() -> None:
    declared: Counter[str] = Counter()
    for path in (PACKAGE / "cli").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Option":
                longs = [a.value for a in node.args if isinstance(a, ast.Constant)]
                declared.update(f for f in longs if str(f).startswith("--"))
    twice = sorted(flag for flag, n in declared.items() if n > 1)
    assert not twice, f"declared more than once: {twice}"
    assert {"--captured", "--variant", "--scale", "--rounding", "--format", "--lang"} <= set(
        declared
    )


def test_the_scoring_options_travel_as_one_value() -> None:
    # rounding= is taken by the library's front doors (score_hand, Scorer, score_table) and by
    # ScoringOptions.parse, and nowhere else: every other layer passes a ScoringOptions.
    taking = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
                if any(a.arg == "rounding" for a in args):
                    taking.append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert len(taking) <= 5, taking


# A new option for a command: one declaration; its help in every language from the catalogs.
LoudOpt = Annotated[bool, typer.Option("--loud", help="Say it twice, for a noisy table.")]


def test_a_new_option_is_one_declaration_and_its_catalog_entries() -> None:
    app = typer.Typer(cls=ErrorsAtTheBoundary, add_completion=False)

    @app.callback()
    def root() -> None:
        """A command line of one command."""

    @app.command("shout", cls=Command)
    @grouped(lang=language)
    def shout(*, loud: LoudOpt = False, lang: str) -> None:
        """Say hello."""
        typer.echo("hello " * (2 if loud else 1) + lang)

    runner = CliRunner()
    assert runner.invoke(app, ["shout", "--loud", "--lang", "zh"]).stdout == "hello hello zh\n"
    assert re.search(
        r"--loud +Say it twice, for a noisy table\.", runner.invoke(app, ["shout", "--help"]).stdout
    )
    # In Chinese, until the catalogs say it, the English stands (and the catalogs' test names
    # the text missing from each catalog: the template the program makes holds it).
    shown = runner.invoke(app, ["shout", "--help", "--lang", "zh"]).stdout
    assert shown.startswith("用法：") and "Say it twice, for a noisy table." in shown
    ids = {m.id for m in template(typer.main.get_command(app)) if m.context is None}
    assert "Say it twice, for a noisy table." in ids


def test_no_private_typer_part_is_used() -> None:
    used = set()
    for path in PACKAGE.rglob("*.py"):
        used |= set(re.findall(r"typer\.(_\w+|[a-z_]+\._\w+)", path.read_text(encoding="utf-8")))
    assert not used, used
