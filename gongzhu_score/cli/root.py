"""The root command: the whole command line, each command built when it is first asked for.

Building a command (Typer reads its options) and importing its module is most of what a one-hand
``score`` would otherwise spend on its own code, so the root names each command's function
(:data:`COMMANDS`) and builds one only when it runs, or when help, completion or a mistyped name
needs the list: Click's lazy group (``list_commands``, ``get_command``) over Typer's public parts.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer

from .. import __version__
from .boundary import PROG, Command, ErrorsAtTheBoundary

__all__ = ["COMMANDS", "app"]

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


def build(name: str) -> Any:
    """The command ``name`` as Click runs it (its module imported now)."""
    module, attribute = COMMANDS[name]
    found = getattr(importlib.import_module(module, __package__), attribute)
    if not isinstance(found, typer.Typer):
        single = typer.Typer(rich_markup_mode=None, add_completion=False)
        single.command(name, cls=Command)(found)
        found = single
    command = typer.main.get_command(found)
    command.name = name
    return command


class _Commands(dict[str, Any]):
    """The root's commands by name, each built when it is first looked up."""

    def __init__(self) -> None:
        super().__init__(dict.fromkeys(COMMANDS))

    def __getitem__(self, name: str) -> Any:
        found = super().__getitem__(name)
        if found is None:
            found = build(name)
            self[name] = found
        return found

    def get(self, name: str, default: Any = None) -> Any:
        return self[name] if name in self else default  # noqa: SIM401  (self[name] builds it)


class Root(ErrorsAtTheBoundary):
    """The root group: its commands built on demand, each once (Click's lazy group)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Commands()

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)

    def get_command(self, ctx: Any, name: str) -> Any:
        return self.commands.get(name)


app = typer.Typer(
    name=PROG,
    cls=Root,
    rich_markup_mode=None,
    help="Keep the score of 拱猪 (Gongzhu, Chase the Pig).\n\n"
    "Score a hand from the cards each player captured (score), show why (explain), compare "
    "rule sets (compare), replay a trick-by-trick record (replay), score files of recorded "
    "hands (batch), keep a match ledger until someone is the pig (match), records across "
    "matches (stats), a competition across tables (tournament), put the match on the table's "
    "phones (serve), and list or show the rule sets (variants).\n\n"
    "Examples:\n"
    "  gongzhu-score score sample_hands/seed_minus_400.yaml --lang zh\n"
    '  gongzhu-score score -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北\n'
    "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
    "  gongzhu-score variants show classic",
    add_completion=True,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
