"""The command line's clock: when a hand is entered (the library is given the time).

``GONGZHU_NOW``, when set, is that time (ISO 8601 with its UTC offset): for tests and
demonstrations, which need the same ledger every run. It is read for nothing else (a match's
history keeps the real time of each change).
"""

from __future__ import annotations

import os
from datetime import datetime

__all__ = ["NOW_VARIABLE", "entry_time"]

NOW_VARIABLE = "GONGZHU_NOW"


def entry_time() -> datetime:
    """When a hand is entered: now, with the local UTC offset; or ``GONGZHU_NOW`` when it is
    set (refused, naming it, unless it is ISO 8601 with its UTC offset)."""
    given = os.environ.get(NOW_VARIABLE)
    if given:
        from ..match.ledger import parse_time

        return parse_time(given, NOW_VARIABLE)
    return datetime.now().astimezone()
