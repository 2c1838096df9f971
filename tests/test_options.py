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

from gongzhu_score.cli.boundary import HelpOpt, run
from gongzhu_score.cli.options import LangOpt, language

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
    # rounding= is taken by the library's front doors (score_hand, Scorer, score_table), by
    # ScoringOptions.parse and by the command line's asked(); every other layer passes a
    # ScoringOptions. A command declares the option (as Typer reads it) and passes it on to
    # asked() at once.
    taking = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = node.args.args + node.args.kwonlyargs + node.args.posonlyargs
                if not any(a.arg == "rounding" for a in args):
                    continue
                calls = {getattr(c.func, "id", None) for c in ast.walk(node)
                         if isinstance(c, ast.Call)}  # fmt: skip
                if path.parent.name != "cli" or "asked" not in calls:
                    taking.append(f"{path.relative_to(PACKAGE)}:{node.name}")
    assert len(taking) <= 6, taking


# A new option for a command: one declaration; its help in every language from the catalogs.
LoudOpt = Annotated[bool, typer.Option("--loud", help="Say it twice, for a noisy table.")]


def test_a_new_option_is_one_declaration_and_its_catalog_entries() -> None:
    app = typer.Typer(add_completion=False, context_settings={"help_option_names": []})

    @app.callback()
    def root() -> None:
        """A command line of one command."""

    @app.command("shout")
    def shout(loud: LoudOpt = False, lang_asked: LangOpt = None, help: HelpOpt = False) -> None:
        """Say hello."""
        typer.echo("hello " * (2 if loud else 1) + language(lang_asked))

    def shown(*args: str) -> str:
        with CliRunner().isolation() as (out, _, _):
            assert run(args, lambda given: (typer.main.get_command(app), given)) == 0
            return out.getvalue().decode()

    assert shown("shout", "--loud", "--lang", "zh") == "hello hello zh\n"
    assert re.search(r"--loud +Say it twice, for a noisy table\.", shown("shout", "--help"))
    # In Chinese, until the catalogs say it, the English stands (and the catalogs' test names
    # the text missing from each catalog: the template the program makes holds it).
    said = shown("shout", "--help", "--lang", "zh")
    assert said.startswith("用法：") and "Say it twice, for a noisy table." in said
    ids = {m.id for m in template(typer.main.get_command(app)) if m.context is None}
    assert "Say it twice, for a noisy table." in ids


def test_no_private_typer_part_is_used() -> None:
    used = set()
    for path in PACKAGE.rglob("*.py"):
        used |= set(re.findall(r"typer\.(_\w+|[a-z_]+\._\w+)", path.read_text(encoding="utf-8")))
    assert not used, used


def test_typer_is_used_as_designed() -> None:
    """Issue 56: no class of the package subclasses one of Typer's (or Click's), and no
    function's signature is rewritten for Typer to read: each command declares its options."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                if any(re.search(r"Typer|Group|Command|Context|Option|Argument", b)
                       and "Error" not in b and "BadParameter" not in b for b in bases):  # fmt: skip
                    found.append(f"{path.name}:{node.name}({', '.join(sorted(bases))})")
        found += [f"{path.name}: {m}" for m in re.findall(r"__wrapped__|__signature__", text)]
    assert not found, found
