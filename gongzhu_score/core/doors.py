"""Which door of the engine scores hands, said in one place.

The one-hand door (:meth:`.engine.CompiledRules.score`) scores a hand at a time, with its
breakdown; the many-hands door (:func:`.masks.score_seats`) scores numpy arrays of hands a
column at a time. Which one runs depends only on how many hands there are; which reader fills
the arrays from JSON Lines, only on whether Arrow (the ``arrow`` extra) is installed.
"""

from __future__ import annotations

import functools

__all__ = ["MANY", "MANY_BYTES", "by_arrays", "file_by_arrays", "has_arrow"]

MANY = 1_024
"""Hands from which the arrays pay: below it, importing numpy (about 50 ms) and its calls cost
more than the one-hand door takes."""
MANY_BYTES = MANY * 256
"""The same for a file of recorded hands, whose lines are counted only as they are read: a
hand's line is 150 to 350 bytes."""


def by_arrays(count: int) -> bool:
    """Whether ``count`` hands go the many-hands door."""
    return count >= MANY


def file_by_arrays(size: int) -> bool:
    """Whether a file of ``size`` bytes of JSON Lines goes the many-hands door."""
    return size >= MANY_BYTES


@functools.cache
def has_arrow() -> bool:
    """Whether pyarrow (the ``arrow`` extra) is installed: then Arrow's JSON reader reads JSON
    Lines into the arrays, else orjson does."""
    try:
        import pyarrow.json  # noqa: F401
    except ImportError:
        return False
    return True
