"""The console script: the root command line, run with every refusal turned into an exit code."""

from __future__ import annotations

import signal
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(args: Sequence[str] | None = None) -> None:
    """Console-script entry point: runs ``args`` (the command line's, if None) and exits with
    the command's code."""
    from .boundary import run
    from .root import command_line

    # SIGTERM (a service manager, `kill`) exits as Python does on Ctrl-C: the blocks that
    # remove temporary files run, and a ledger is left as it was.
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(run(sys.argv[1:] if args is None else args, command_line))
