"""The console script: the root command line, run with every refusal turned into an exit code."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(args: Sequence[str] | None = None) -> None:
    """Console-script entry point: runs ``args`` (the command line's, if None) and exits with
    the command's code."""
    given = sys.argv[1:] if args is None else list(args)
    if given == ["--version"] and "GONGZHU_LANG" not in os.environ:
        # Answered before Typer loads: the version is all it says, in every language (the
        # command line would print the same line, root._version). A GONGZHU_LANG to check
        # goes the whole way, so a wrong one is refused there as everywhere.
        from .. import __version__

        sys.stdout.write(f"gongzhu-score {__version__}\n")
        sys.exit(0)
    from .boundary import run
    from .root import command_line

    # SIGTERM (a service manager, `kill`) exits as Python does on Ctrl-C: the blocks that
    # remove temporary files run, and a ledger is left as it was.
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(run(given, command_line))
