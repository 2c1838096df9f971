"""The console script: build only the command that runs, then run it.

Building every command (Typer reads each function's options) and importing every command's
module is most of what a one-hand ``score`` would otherwise spend on its own code: the root is
built with the one command named on the command line. Help, completion and a mistyped command
(which Click answers with the close names) get the whole command line.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import typer

__all__ = ["main", "whole_app"]


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def whole_app() -> typer.Typer:
    """The ``gongzhu-score`` Typer app with every command (what the tests and help use)."""
    from .root import app, with_later

    return with_later(app)


def _only(name: str | None) -> typer.Typer | None:
    """The root with just the command ``name`` (and its subcommands), or None if ``name``
    names no command; with ``name`` None, the root alone."""
    from .root import LATER, app, with_later
    from .typer_internals import has_command, only

    root = only(app, name)
    if name is not None and any(name == later[0] for later in LATER):
        with_later(root, [name])
    return root if name is None or has_command(root, name) else None


def _after_lang(args: list[str]) -> list[str]:
    """The arguments after a ``--lang X`` (or ``--lang=X``) given before the command's name."""
    while args:
        if args[0].startswith("--lang="):
            args = args[1:]
        elif args[0] == "--lang" and len(args) > 1:
            args = args[2:]
        else:
            break
    return args


def main() -> None:
    """Console-script entry point."""
    import typer

    from .common import PROG

    # SIGTERM (a service manager, `kill`) exits as Python does on Ctrl-C: the blocks that
    # remove temporary files run, and a ledger is left as it was.
    signal.signal(signal.SIGTERM, _terminated)
    args = sys.argv[1:]
    completing = any(key.endswith("_COMPLETE") for key in os.environ)
    root = None
    named = _after_lang(args)  # (`gongzhu-score --lang zh score …` is `score … --lang zh`)
    if named and not named[0].startswith("-") and not completing:
        root = _only(named[0])
    elif args == ["--version"]:
        root = _only(None)  # the root's own option: no command needed
    typer.main.get_command(root if root is not None else whole_app()).main(prog_name=PROG)
