"""A JSON Lines batch written as JSON Lines, by the engine's many-hands door.

The lines come a block at a time (:class:`.reading.NumberedLines`' parts), and a few thousand
at once are read into arrays: by Arrow's JSON reader where the ``arrow`` extra is installed
(the table then takes the column path of :mod:`.columns`, as Parquet does), else by orjson,
the very reader every line goes through (:func:`.reading.json_record`), into
:func:`..core.masks.read_objects`. They are scored as columns under each line's own
``variant`` and ``teams`` and written by the format's one writer. A line the arrays do not take
(a key given twice, a null, another spelling, a mistake) goes the careful way in its turn, the
one-hand door, with the same output or the same error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, Protocol

import numpy as np

from ..core import masks
from ..core.doors import has_arrow
from ..core.engine import HandResult
from ..core.normalize import Rounding
from ..errors import GongzhuError
from .reading import TOO_LONG, BadRecord, NumberedLines, key_count, lines_of, loads_line
from .runner import Batch, Emit, Summary, no_gc

__all__ = ["CHUNK", "LineWriter", "run_lines", "score_blocks"]

CHUNK = 16_384
"""The most lines read and scored together: a few megabytes of text and arrays."""
_MOST_NAMES = 1 << 20
"""The names kept numbered between chunks; past this they are numbered afresh, so memory stays
bounded whatever the file holds."""

Careful = Callable[[int, bytes], None]
"""Scores one line the careful way (the one-hand door), given its number and bytes."""


class LineWriter(Protocol):
    """The JSON Lines writer of one file's hands (``"source": "file:N"``)."""

    def hands(self, places: Sequence[int], names: Sequence[str], raws: Sequence[int],
              finals: Sequence[int | Fraction]) -> None: ...  # fmt: skip

    def columns(self, places: Any, names: Any, raws: Any, finals: Any) -> None: ...

    def result(self, place: int, result: HandResult) -> None: ...


def run_lines(batch: Batch, lines: NumberedLines, file: str, emit: Emit,
              summary: Summary | None, keep_going: bool,
              out: LineWriter | None) -> list[BadRecord]:  # fmt: skip
    """Score a file's numbered JSON Lines in order, as :meth:`.runner.Batch.run_jsonl` does:
    the hands the arrays take written by ``out`` (JSON Lines out, no summary), every other
    line scored alone and given to ``emit``. Returns the bad records passed by with
    ``keep_going``; without it the first one raises."""
    if out is None or summary is not None:
        return batch.run_jsonl(lines, file, emit, summary, keep_going)
    bad: list[BadRecord] = []
    with no_gc():
        score_blocks(lines, batch, out, batch.careful(file, emit, summary, keep_going, bad))
    return bad


def score_blocks(lines: NumberedLines, batch: Batch, out: LineWriter, careful: Careful) -> None:
    """Score numbered JSON Lines in order into ``out``: as arrays, a chunk at a time, and each
    line the arrays do not take by ``careful`` in its turn (which may raise to stop the
    batch). Blank lines are passed over."""
    number, held = lines.first, []
    names = masks.Names()
    for part in lines.parts:
        held += lines_of(part)
        if len(held) >= CHUNK:
            if len(names.known) > _MOST_NAMES:
                names = masks.Names()
            _chunk(number, held, batch, names, out, careful)
            number += len(held)
            held = []
    if held:
        _chunk(number, held, batch, names, out, careful)


def _chunk(number: int, texts: list[bytes], batch: Batch, names: masks.Names, out: LineWriter,
           careful: Careful) -> None:  # fmt: skip
    """Score the lines ``texts``, the first numbered ``number``, and write them in order."""
    given = [i for i, t in enumerate(texts) if t is TOO_LONG or (t and not t.isspace())]
    read = [i for i in given if texts[i] is not TOO_LONG]
    found: tuple[np.ndarray[Any, Any], Any, Any, Any] | None = None
    if has_arrow() and batch.options.rounding is not Rounding.EXACT:
        from .columns import score_json_lines

        found = score_json_lines([texts[i] for i in read], batch)
    if found is None:
        found = _by_objects([texts[i] for i in read], batch, names)
    ok, hand_names, raws, finals = found
    by_columns = not isinstance(hand_names, list)  # (Arrow's names, numpy's numbers)
    run: list[int] = []  # (lines whose hands the arrays scored, waiting to be written)
    done = 0  # (the hands of those lines written so far)

    def write() -> None:
        nonlocal done
        if run:
            at = slice(4 * done, 4 * (done + len(run)))
            if by_columns:
                places = np.array(run, np.int64) + number
                out.columns(places, hand_names[at], raws[at], finals[at])
            else:
                out.hands([number + i for i in run], hand_names[at], raws[at], finals[at])
            done += len(run)
            run.clear()

    if len(read) == len(given) and ok.all():  # (every line scored by the arrays: one run)
        run += given
    else:
        scored = dict(zip(read, ok.tolist(), strict=True))
        for i in given:
            if scored.get(i):
                run.append(i)
                continue
            write()
            careful(number + i, texts[i])
    write()


def _by_objects(texts: list[bytes], batch: Batch, names: masks.Names
                ) -> tuple[np.ndarray[Any, Any], list[str], list[int], list[Any]]:  # fmt: skip
    """The lines read by orjson (as :func:`.reading.json_record` reads a line, but for a key
    given twice, which goes the careful way) and scored as arrays."""
    data: list[object] = []
    for text in texts:
        try:
            parsed = loads_line(text)
        except (ValueError, RecursionError):
            parsed = None
        data.append(parsed if text.count(b":") == key_count(parsed) else None)
    seats, own = masks.read_objects(data, names)
    m = len(data)
    ok = np.zeros(m, bool)
    raws = np.zeros((m, 4), np.int64)
    finals = np.zeros((m, 4), object if batch.options.rounding is Rounding.EXACT else np.int64)
    groups: dict[tuple[object, object], list[int]] = {}
    for h in np.flatnonzero(seats.ok).tolist():
        try:
            groups.setdefault(own[h], []).append(h)
        except TypeError:  # (a list where a name belongs: the careful way refuses it)
            continue
    for (variant, teams), hands in groups.items():
        try:
            scorer = batch.scorer({"variant": variant, "teams": teams})
        except GongzhuError:  # (an unknown variant: the careful way says so)
            continue
        only = np.zeros(m, bool)
        only[hands] = True
        exact = scorer.normalization.rounding is Rounding.EXACT
        scores = masks.score_seats(replace(seats, ok=seats.ok & only), scorer.variant,
                                   scorer.engine, scorer.normalization, exact)  # fmt: skip
        at = scores.ok
        ok |= at
        raws[at], finals[at] = scores.raws[at], scores.finals[at]
    known = seats.known
    hand_names = [known[c] for c in seats.names.reshape(-1, 4)[ok].ravel().tolist()]
    return ok, hand_names, raws[ok].ravel().tolist(), finals[ok].ravel().tolist()
