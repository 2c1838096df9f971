"""The width the output may take: the terminal's, which tables follow."""

from __future__ import annotations

import os
import sys

__all__ = ["terminal_width"]


def terminal_width() -> int | None:
    """``COLUMNS`` when set, else standard output's terminal width, else None.

    ``COLUMNS`` is read as ``shutil.get_terminal_size`` reads it. Output to a file or a pipe is
    not limited: it may go to a wider screen, a spreadsheet, or a script.
    """
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if sys.stdout.isatty():
            return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (OSError, ValueError, AttributeError):  # (no real descriptor: a test's stand-in)
        pass
    return None
