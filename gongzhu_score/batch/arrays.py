"""A large JSON Lines batch scored as arrays: the many-hands door of :mod:`..core.masks`.

With the ``arrow`` extra (numpy) and the C readers built, a JSON Lines batch written as JSON
Lines reads its lines a chunk at a time straight from their bytes into card masks (no Python
object per line), scores them as columns under each line's own ``variant`` and ``teams``
(:func:`.masks.score_seats`) and writes their lines in C. A line of any other shape (a key given
twice, an escape, a null, a list of codes) or a hand the arrays refuse goes
:func:`.lines.score_lines` in its turn, as every line did before: the same output, byte for
byte, and the same errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import islice
from typing import Any

import numpy as np

from ..core import masks
from ..core._codes import write_lines
from ..core.engine import CompiledRules
from ..core.normalize import Normalization, Rounding
from .lines import Emit, LineWriter

__all__ = ["CHUNK", "Rules", "RulesFor", "encodable", "score_by_arrays", "usable"]

CHUNK = 16_384
"""Lines read and scored together: a few megabytes of bytes and masks."""
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
    lines: Iterable[tuple[int, bytes]],
    rules_for: RulesFor,
    out: LineWriter,
    careful: Callable[[int, bytes], None],
    rest: Rest,
) -> None:
    """Score numbered JSON Lines in order, writing each hand's line to ``out``.

    Lines of the plainest shape are read and scored as arrays under ``rules_for`` their own
    ``variant`` and ``teams``; any other goes to ``rest``, with ``out`` and ``careful`` (which may
    raise to stop the batch) called for it in its turn.
    """
    default = rules_for(None, None)
    assert default is not None
    names = masks.Names(default[0])  # (the same check of a name under any rules)
    values: dict[str, int] = {}
    known: list[bytes] = []  # (each name's JSON, as the line writer takes it)
    prefix = out.prefix.encode("utf-8")
    room = masks.Room(CHUNK)
    it = iter(lines)
    while chunk := list(islice(it, CHUNK)):
        if len(names.known) > _MOST_NAMES or len(values) > _MOST_NAMES:
            names, known, values = masks.Names(default[0]), [], {}
        numbers, texts = zip(*chunk, strict=True)
        text = b"\n".join(texts)
        offsets = np.zeros(len(texts) + 1, np.int64)  # (line h and its newline, the last none)
        np.cumsum(np.fromiter(map(len, texts), np.int64, len(texts)) + 1, out=offsets[1:])
        offsets[-1] = len(text)
        seats, named = masks.read_lines(text, offsets, names, values, room)
        scores = _scores(seats, named, list(values), rules_for)
        known.extend(json.dumps(name, ensure_ascii=False).encode("utf-8")
                     for name in islice(names.known, len(known), None))  # fmt: skip
        others = np.flatnonzero(~scores.ok)
        pieces = write_lines(prefix, known, np.flatnonzero(scores.ok), np.array(numbers, np.int64),
                             seats.names, scores.raws.ravel(), scores.finals.ravel(),
                             others - np.arange(len(others)))  # fmt: skip
        plan = _Plan(pieces, [numbers[i] for i in others.tolist()], out)
        if len(others):
            rest([chunk[i] for i in others.tolist()], plan.emit, plan.careful(careful))
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
