"""The console script: the root command line, run with every refusal turned into an exit code."""

from __future__ import annotations

import signal

__all__ = ["main"]


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    """Console-script entry point."""
    import typer

    from .boundary import PROG
    from .root import app

    # SIGTERM (a service manager, `kill`) exits as Python does on Ctrl-C: the blocks that
    # remove temporary files run, and a ledger is left as it was.
    signal.signal(signal.SIGTERM, _terminated)
    typer.main.get_command(app).main(prog_name=PROG)
