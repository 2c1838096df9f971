"""The root command: the whole command line, or only the command a run names.

Importing a command's module and building it (Typer reads its options) is most of what a
one-hand ``score`` would otherwise spend on its own code, so a run registers only the command
its arguments name (:func:`command_line`); help, completion, a mistyped or a missing name get
every command (:func:`whole`). Both are plain Typer apps: the root's callback, then commands
and groups registered with ``command()`` and ``add_typer()``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any

import typer

from .. import __version__
from .boundary import PROG, HelpOpt, lang_to_command, show_help

__all__ = ["COMMANDS", "command_line", "whole"]

COMMANDS = {
    "score": (".hand", "score_command"),
    "explain": (".hand", "explain_command"),
    "compare": (".hand", "compare_command"),
    "replay": (".hand", "replay_command"),
    "batch": (".batch", "batch_command"),
    "match": (".match_share", "match_app"),
    "stats": (".hand", "stats_command"),
    "tournament": (".tournament", "tournament_app"),
    "serve": (".serve", "serve_command"),
    "variants": (".hand", "variants_app"),
}
"""Each command: the module and the function (or Typer group) it is, in the order help lists."""

GROUPS = ("match", "tournament")
"""The groups whose own options are flags: their command's name follows them."""

HELP = (
    "Keep the score of 拱猪 (Gongzhu, Chase the Pig).\n\n"
    "Score a hand from the cards each player captured (score), show why (explain), compare "
    "rule sets (compare), replay a trick-by-trick record (replay), score files of recorded "
    "hands (batch), keep a match ledger until someone is the pig (match), records across "
    "matches (stats), a competition across tables (tournament), put the match on the table's "
    "phones (serve), and list or show the rule sets (variants).\n\n"
    "Examples:\n"
    "  gongzhu-score score sample_hands/seed_minus_400.yaml --lang zh\n"
    '  gongzhu-score score -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北\n'
    "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
    "  gongzhu-score variants show classic"
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
    show: HelpOpt = False,
) -> None:
    if ctx.invoked_subcommand is None:
        show_help(ctx)


def root_app(names: Sequence[str]) -> typer.Typer:
    """The root with the commands ``names`` (their modules imported now)."""
    app = typer.Typer(
        name=PROG,
        rich_markup_mode=None,
        help=HELP,
        add_completion=True,
        invoke_without_command=True,
        context_settings={"help_option_names": []},  # (each command's own: HelpOpt)
    )
    app.callback()(_root)
    for name in names:
        module, attribute = COMMANDS[name]
        found = getattr(importlib.import_module(module, __package__), attribute)
        if isinstance(found, typer.Typer):
            app.add_typer(found, name=name)
        else:
            app.command(name)(found)
    return app


@cache
def whole() -> typer.Typer:
    """The whole command line: every command."""
    return root_app(list(COMMANDS))


def command_line(args: list[str], every: bool = False) -> tuple[Any, list[str]]:
    """The command to run ``args`` with (Typer's Click command of the root with only the
    command they name, unless ``every``), and the arguments it is given: each ``--lang`` after
    the command's name, and a ``match`` command given no ledger given the current match
    (:func:`.current.with_current_ledger`)."""
    args = lang_to_command(args, GROUPS)
    names = _named(args)
    completing = f"_{PROG.replace('-', '_').upper()}_COMPLETE" in os.environ
    if not names:
        asked = next((a for a in args if a in ("--version", "-h", "--help")), None)
        # (--version alone needs no command; the help lists them all)
        alone = asked == "--version" and not (every or completing)
        return built(root_app([]) if alone else whole()), args
    app = whole() if every or completing or names[0] not in COMMANDS else root_app(names[:1])
    command = built(app)
    if names[0] == "match" and len(names) > 1 and not completing:
        from .current import with_current_ledger

        args = with_current_ledger(command, args, names)
    return command, args


def built(app: typer.Typer) -> Any:
    """The root as Click runs it (Typer's command), its commands in :data:`COMMANDS`' order
    (Typer puts the groups after the commands)."""
    command: Any = typer.main.get_command(app)  # (a group: its commands a dict by name)
    command.commands = {n: command.commands[n] for n in COMMANDS if n in command.commands}
    return command


def _named(args: Sequence[str]) -> list[str]:
    """The command's name, and its group's command's (``match show``), as the arguments give
    them (the root's and the groups' own options are flags)."""
    names: list[str] = []
    for arg in args:
        if arg == "--" or (names and names[0] not in GROUPS):
            break
        if not arg.startswith("-"):
            names.append(arg)
            if len(names) == 2:
                break
    return names


def __getattr__(name: str) -> Any:
    if name == "app":  # (the whole command line, as the package names it)
        return whole()
    raise AttributeError(name)
