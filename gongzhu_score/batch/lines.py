"""The hot path of a JSON Lines batch: parse, read into arrays, score them together, write.

mypyc compiles it beside the engine (``setup.py``); the same source runs as plain Python where
nothing was compiled.

Only the plain case is done here: a line of JSON whose keys are each given once, under rules the
batch has met already, in canonical card codes. Anything else (a blank line is skipped) goes to
the caller's careful path, which reads the line again, scores it in any spelling or says what is
wrong with it: the same results and errors either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final, Protocol

from ..core.engine import CompiledRules, HandResult, Hands, Scored
from ..core.normalize import Normalization

__all__ = ["TOO_LONG", "Emit", "FastRules", "LineWriter", "key_count", "loads_line",
           "score_lines"]  # fmt: skip

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


def _rules_of(
    line: bytes, data: object, fast: FastRules
) -> tuple[CompiledRules, Normalization] | None:
    """The rules that score the line's hand by the many-hands door, or None for the careful
    path.

    Every key is followed by a colon, so a line with more colons than its hand has keys gave a
    key twice (or has a colon in a name): the careful path reads it pair by pair.
    """
    if not isinstance(data, dict) or line.count(b":") != key_count(data):
        return None
    try:
        found = fast.get((data.get("variant"), data.get("teams")))
    except TypeError:  # a list where a name belongs: the careful path refuses it
        return None
    return found


class _Group:
    """The plain hands of a few thousand lines under one rule set, as arrays."""

    hands: Hands
    norm: Normalization
    scored: Scored | None
    """The hands' numbers, once they are scored."""

    def __init__(self, rules: CompiledRules, norm: Normalization) -> None:
        self.hands, self.norm, self.scored = Hands(rules), norm, None


Emit = Callable[[int, Scored, int], None]
"""Takes a line's number, the hands it was scored with and its place among them."""


class LineWriter(Protocol):
    """An :data:`Emit` that writes JSON Lines (the output's writer of one file's hands), which
    also takes lines formatted elsewhere."""

    @property
    def prefix(self) -> str:
        """The hands' ``"source"`` as JSON, up to the line number."""

    def __call__(self, place: int, scored: Scored, h: int) -> None: ...

    def put(self, data: bytes) -> None:
        """Write lines already formatted (as UTF-8), in their turn."""


_CHUNK: Final = 64
"""Lines read before their hands are scored together: few enough that what they made is still in
the processor's cache when they are written (2,048 ran 12% slower on one core, 256 9%)."""


def score_lines(
    lines: Iterable[tuple[int, bytes]],
    fast: FastRules,
    emit: Emit,
    careful: Callable[[int, bytes], None],
    add: Callable[[HandResult], None] | None = None,
) -> None:
    """Score numbered JSON Lines in order, each by the many-hands door or ``careful``.

    A plain line's hand is read into its rules' arrays, and every few dozen lines are scored at
    once and handed to ``emit`` in order (and to ``add``, the summary's, when kept).
    Any other line goes to ``careful`` (its number and bytes) in its turn, which may raise to
    stop the batch.
    """
    loads = loads_line
    numbers: list[int] = []
    texts: list[bytes] = []
    places: list[int] = []  # (a hand's place in its group's arrays; -1: the careful path)
    owners: list[_Group | None] = []
    groups: dict[tuple[int, int], _Group] = {}  # (by their rules' and options' ids)
    last: _Group | None = None
    for number, line in lines:
        if line is not TOO_LONG and (not line or line.isspace()):
            continue
        place, owner = -1, None
        if line is not TOO_LONG:
            try:
                data = loads(line)
            except (ValueError, RecursionError):  # (not JSON: the careful path says why)
                data = None
            found = None if data is None else _rules_of(line, data, fast)
            if found is not None:
                if last is not None and last.hands.rules is found[0] and last.norm is found[1]:
                    owner = last  # (the usual case: the line's rules are the line before's)
                else:
                    # (by ids, the objects' own: compiled, ``found`` is a new tuple each call)
                    key = (id(found[0]), id(found[1]))
                    owner = groups.get(key)
                    if owner is None:
                        owner = groups[key] = _Group(found[0], found[1])
                    last = owner
                if owner.hands.add_data(data):
                    place = owner.hands.size - 1
        numbers.append(number)
        texts.append(line)
        places.append(place)
        owners.append(owner)
        if len(numbers) >= _CHUNK:
            _flush(numbers, texts, places, owners, groups, emit, careful, add)
            last = None
    _flush(numbers, texts, places, owners, groups, emit, careful, add)


def _flush(
    numbers: list[int],
    texts: list[bytes],
    places: list[int],
    owners: list[_Group | None],
    groups: dict[tuple[int, int], _Group],
    emit: Emit,
    careful: Callable[[int, bytes], None],
    add: Callable[[HandResult], None] | None,
) -> None:
    """Score the lines held so far, hand them on in order, and hold none."""
    for group in groups.values():
        group.scored = group.hands.rules.score_many(group.hands, group.norm)
    try:
        for i in range(len(numbers)):
            owner, place = owners[i], places[i]
            if owner is None or place < 0:
                careful(numbers[i], texts[i])
                continue
            out = owner.scored
            assert out is not None
            if out.errors and place in out.errors:  # (sides refused: the careful path says so)
                careful(numbers[i], texts[i])
                continue
            emit(numbers[i], out, place)
            if add is not None:
                add(out.result(place))
    finally:
        numbers.clear()
        texts.clear()
        places.clear()
        owners.clear()
        groups.clear()
