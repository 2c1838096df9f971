"""A large JSON Lines batch scored as arrays: the many-hands door of :mod:`..core.masks`.

With the ``arrow`` extra (numpy) and the C readers built, a JSON Lines batch written as JSON
Lines takes the file's blocks as they are read, finds their lines (``line_ends``) and reads them
a chunk at a time straight from their bytes into card masks (no Python object per line), scores
them as columns under each line's own ``variant`` and ``teams`` (:func:`.masks.score_seats`)
and writes their lines in C. A line of any other shape (a key given
twice, an escape, a null, a list of codes) or a hand the arrays refuse goes
:func:`.lines.score_lines` in its turn, as every line did before: the same output, byte for
byte, and the same errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import count, islice
from typing import Any

import numpy as np

from ..core import masks
from ..core._codes import line_ends, write_lines
from ..core.engine import CompiledRules
from ..core.normalize import Normalization, Rounding
from .lines import Emit, LineWriter
from .reading import Part

__all__ = ["CHUNK", "Rules", "RulesFor", "encodable", "score_by_arrays", "usable"]

CHUNK = 16_384
"""The most lines read and scored together: a few megabytes of bytes and masks."""
_MOST_NAMES = 1 << 20
"""The names (and variants' and teams' values) kept numbered between chunks; past this they are
numbered afresh, so memory stays bounded whatever the file holds."""

Rest = Callable[[list[tuple[int, bytes]], Emit, Callable[[int, bytes], None]], None]
"""Scores lines the arrays do not take, in order, through ``emit`` (a line's hand) and the
careful path (a line's number and bytes)."""
Rules = tuple[CompiledRules, Normalization]
RulesFor = Callable[[str | None, str | None], Rules | None]
"""The rules that score a line naming this ``variant`` and ``teams`` (None: not named), or
None where the arrays do not score them (the line goes ``rest``)."""


def encodable(text: str) -> bool:
    """Whether ``text`` (a source's JSON) is UTF-8 as it is: the lines are written as bytes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # (a file name's lone surrogate: the engine's lines say it)
        return False
    return True


def usable(norm: Normalization) -> bool:
    """Whether lines under this normalization are scored here: the C readers are built and the
    finals are whole numbers (exact finals are fractions, which the arrays do not hold)."""
    return masks._read_lines is not None and norm.rounding is not Rounding.EXACT


def score_by_arrays(
    number: int,
    parts: Iterable[Part],
    rules_for: RulesFor,
    out: LineWriter,
    careful: Callable[[int, bytes], None],
    rest: Rest,
) -> None:
    """Score JSON Lines in order, the first numbered ``number``, writing each hand's line to
    ``out``; they come a block at a time (:class:`.reading.NumberedLines`' ``parts``).

    Lines of the plainest shape are read and scored as arrays under ``rules_for`` their own
    ``variant`` and ``teams``; any other goes to ``rest``, with ``out`` and ``careful`` (which may
    raise to stop the batch) called for it in its turn.
    """
    default = rules_for(None, None)
    assert default is not None
    chunk = _Chunk(masks.Names(default[0]), rules_for, out, careful, rest)
    held: list[bytes] = []
    size = 0
    for part in parts:
        if isinstance(part, list):  # (a line too long in it: every line goes the loop)
            number = chunk.score(b"\n".join(held), number) if held else number
            held, size = [], 0
            rest(list(zip(count(number), part)), out, careful)
            number += len(part)
            continue
        held.append(part)
        size += len(part) + 1
        if size >= _BYTES:
            number = chunk.score(b"\n".join(held), number)
            held, size = [], 0
    if held:
        chunk.score(b"\n".join(held), number)


_BYTES = 4 << 20
"""The lines read together, in bytes (at most :data:`CHUNK` lines of them at once)."""


class _Chunk:
    """Lines read and scored :data:`CHUNK` at a time, the names met kept from chunk to chunk."""

    def __init__(self, names: masks.Names, rules_for: RulesFor, out: LineWriter,
                 careful: Callable[[int, bytes], None], rest: Rest) -> None:  # fmt: skip
        self.names, self.rules_for, self.out, self.careful, self.rest = (names, rules_for, out,
                                                                         careful, rest)  # fmt: skip
        self.values: dict[str, int] = {}
        self.known: list[bytes] = []  # (each name's JSON, as the line writer takes it)
        self.prefix = out.prefix.encode("utf-8")
        self.room = masks.Room(CHUNK)
        self.ends = np.zeros(CHUNK, np.int64)
        self.offsets = np.zeros(CHUNK + 1, np.int64)

    def score(self, text: bytes, number: int) -> int:
        """Score the lines of ``text`` (joined by newlines), the first numbered ``number``;
        return the number after the last."""
        begin, most = 0, len(self.ends)
        while True:
            found = line_ends(text, begin, self.ends)
            m = found if found == most else found + 1  # (else the last line runs to the end)
            offsets = self.offsets[: m + 1]  # (line h and its newline, the last none)
            offsets[0] = begin
            offsets[1 : found + 1] = self.ends[:found] + 1
            if found < most:
                offsets[m] = len(text)
            self._lines(text, offsets, number)
            number += m
            if found < most:
                return number
            begin = int(offsets[m])

    def _lines(self, text: bytes, offsets: np.ndarray[Any, Any], number: int) -> None:
        names, values, known = self.names, self.values, self.known
        if len(names.known) > _MOST_NAMES or len(values) > _MOST_NAMES:
            names = self.names = masks.Names(names.rules)
            values, known = self.values, self.known = {}, []
        m = len(offsets) - 1
        seats, named = masks.read_lines(text, offsets, names, values, self.room)
        scores = _scores(seats, named, list(values), self.rules_for)
        known.extend(json.dumps(name, ensure_ascii=False).encode("utf-8")
                     for name in islice(names.known, len(known), None))  # fmt: skip
        others = np.flatnonzero(~scores.ok)
        pieces = write_lines(self.prefix, known, np.flatnonzero(scores.ok),
                             np.arange(number, number + m, dtype=np.int64), seats.names,
                             scores.raws.ravel(), scores.finals.ravel(),
                             others - np.arange(len(others)))  # fmt: skip
        plan = _Plan(pieces, (others + number).tolist(), self.out)
        if len(others):
            bounds = offsets.tolist()
            lines = [(number + i, text[bounds[i] : bounds[i + 1]].removesuffix(b"\n"))
                     for i in others.tolist()]  # fmt: skip
            self.rest(lines, plan.emit, plan.careful(self.careful))
        plan.before(None)


def _scores(seats: masks.Seats, named: np.ndarray[Any, Any], values: list[str],
            rules_for: RulesFor) -> masks.Scores:  # fmt: skip
    """The hands of ``seats`` scored, each under the rules its line names (``named``: the
    numbers of its variant and teams among ``values``, -1 where not named)."""
    kinds = (named[0] + 1) * (len(values) + 1) + named[1] + 1
    found = masks.unique(kinds)[0].tolist()
    by_rules: dict[tuple[int, int], tuple[Rules, list[int]]] = {}
    for kind in found:
        variant, teams = divmod(kind, len(values) + 1)
        rules = rules_for(values[variant - 1] if variant else None,
                          values[teams - 1] if teams else None)  # fmt: skip
        if rules is not None:
            by_rules.setdefault((id(rules[0]), id(rules[1])), (rules, []))[1].append(kind)
    out: masks.Scores | None = None
    for (engine, norm), kinds_of in by_rules.values():
        ok = seats.ok if len(found) == 1 else seats.ok & np.isin(kinds, kinds_of)
        scored = masks.score_seats(replace(seats, ok=ok), engine.variant, engine, norm, False)
        if out is None:
            out = scored
        else:
            at = scored.ok
            out.ok |= at
            out.raws[at], out.finals[at] = scored.raws[at], scored.finals[at]
    if out is None:  # (no line's rules are scored here)
        m = len(seats.ok)
        zeros = np.zeros((m, 4), np.int64)
        out = masks.Scores(np.zeros(m, bool), zeros, zeros, zeros.ravel(), zeros, zeros)
    return out


class _Plan:
    """A chunk's lines written in order: ``pieces[j]`` (the arrays' lines) comes just before the
    line numbered ``numbers[j]``, which ``rest`` scores, and the last piece after them all."""

    def __init__(self, pieces: list[bytes], numbers: list[int], out: LineWriter) -> None:
        self.pieces, self.numbers, self.out, self.written = pieces, numbers, out, 0

    def before(self, number: int | None) -> None:
        """Write the pieces that come before line ``number`` (None: every piece left)."""
        j, numbers, pieces = self.written, self.numbers, self.pieces
        while j < len(pieces) and (number is None or (j < len(numbers) and numbers[j] <= number)):
            if pieces[j]:
                self.out.put(pieces[j])
            j += 1
        self.written = j

    def emit(self, number: int, scored: Any, h: int) -> None:
        """Write a line ``rest`` scored, after the pieces before it."""
        self.before(number)
        self.out(number, scored, h)

    def careful(self, careful: Callable[[int, bytes], None]) -> Callable[[int, bytes], None]:
        def then(number: int, line: bytes) -> None:
            self.before(number)
            careful(number, line)

        return then
