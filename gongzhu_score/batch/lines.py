"""The hot path of a JSON Lines batch: parse, score, write.

There is no Python step between. mypyc compiles it beside the engine (``setup.py``); the same
source runs as plain Python where nothing was compiled.

Only the plain case is done here: a line of JSON whose keys are each given once, under rules the
batch has met already, in canonical card codes. Anything else (a blank line is skipped) goes to
the caller's careful path, which reads the line again, scores it in any spelling or says what is
wrong with it: the same results and errors either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.engine import CompiledRules, HandResult
from ..core.normalize import Normalization

__all__ = ["TOO_LONG", "FastRules", "key_count", "loads_line", "score_lines"]

FastRules = dict[tuple[object, object], tuple[CompiledRules, Normalization]]
"""A record's own ``(variant, teams)`` values, and the rules and normalization that score it."""

TOO_LONG = bytes(bytearray(b"<a line over the size limit>"))
"""Stands for a line too long to read (a distinct object: compared with ``is``)."""


def _json_line(line: bytes) -> object:
    import json

    # Decoded here, not by json.loads: given bytes it first sniffs their encoding.
    return json.loads(line.decode("utf-8"))


def _loader() -> Callable[[bytes], object]:
    """orjson's ``loads`` when installed, else the standard one.

    orjson is three times as fast on a hand.
    """
    try:
        from orjson import loads
    except ImportError:  # pragma: no cover  (orjson is a dependency; batch works without it)
        return _json_line
    return loads


loads_line = _loader()


def key_count(data: object) -> int:
    """How many keys a hand's mapping and its players' mappings hold.

    -1 for another shape: such a record is refused anyway, a player being a mapping.
    """
    if not isinstance(data, dict):
        return -1
    players = data.get("players")
    if not isinstance(players, list):
        return -1
    count = len(data)
    for player in players:
        if not isinstance(player, dict):
            return -1
        count += len(player)
    return count


def _scored(line: bytes, data: object, fast: FastRules) -> HandResult | None:
    """The line's hand scored on the fast path, or None for the careful one.

    Every key is followed by a colon, so a line with more colons than its hand has keys gave a
    key twice (or has a colon in a name): the careful path reads it pair by pair.
    """
    if not isinstance(data, dict) or line.count(b":") != key_count(data):
        return None
    try:
        found = fast.get((data.get("variant"), data.get("teams")))
    except TypeError:  # a list where a name belongs: the careful path refuses it
        return None
    if found is None:
        return None
    return found[0].score_data(data, found[1])


def score_lines(
    lines: Iterable[tuple[int, bytes]],
    fast: FastRules,
    emit: Callable[[int, HandResult], None],
    careful: Callable[[int, bytes], None],
    add: Callable[[HandResult], None] | None = None,
) -> None:
    """Score numbered JSON Lines in order, each by the fast path or ``careful``.

    A plain line is scored by ``fast``'s rules and handed to ``emit`` (its number, its result)
    and to ``add`` (the summary's, when kept). Any other goes to ``careful`` (its number and
    bytes), which may raise to stop the batch.
    """
    loads = loads_line
    for number, line in lines:
        if line is TOO_LONG:
            careful(number, line)
            continue
        if not line or line.isspace():
            continue
        try:
            data = loads(line)
        except (ValueError, RecursionError):  # (not JSON: the careful path says why)
            careful(number, line)
            continue
        result = _scored(line, data, fast)
        if result is None:
            careful(number, line)
            continue
        emit(number, result)
        if add is not None:
            add(result)
