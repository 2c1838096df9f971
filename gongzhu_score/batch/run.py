"""Scoring a set of inputs, the whole use case; ``gongzhu-score batch`` renders it.

Which run each input takes is chosen here. A large JSON Lines file is scored on every core
(:mod:`.parallel`), a Parquet file a column at a time (:mod:`.columns`, or on a Dask cluster:
:mod:`.parquet`), anything else record by record (:mod:`.runner`). Every run scores through the
same engine and writes in input order.

The caller chooses the output: a stream and the writer of its format (``make_writer``: the
command line's tables, CSV and JSON, :class:`gongzhu_score.render.batch.BatchWriter`), or a
Parquet file or dataset folder (:func:`score_to_parquet`).
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Protocol

from ..core.doors import file_by_arrays
from ..core.engine import HandResult
from ..errors import InputError
from ..terms import Listed, error, printable
from .parallel import Writer, can_split, score_in_parallel
from .parquet import is_parquet, parquet_out, parquet_records, require
from .reading import BadRecord, InputRecord, found_inputs, not_hands, numbered_lines, read_records
from .runner import Batch, Summary

__all__ = ["PassedOver", "Progress", "WriterFor", "input_files", "score_inputs",
           "score_to_parquet"]  # fmt: skip


class Progress(Protocol):
    """Told of the hands as they are scored, say by a terminal line."""

    @property
    def enabled(self) -> bool: ...

    def add(self, hands: int) -> None: ...

    def done(self) -> None: ...


class WriterFor(Protocol):
    """Makes the writer of the output's format for a stream.

    ``header`` is False for the parts of one output that other processes score.
    """

    def __call__(self, out: IO[str], header: bool = True) -> FormatWriter: ...


class FormatWriter(Writer, Protocol):
    """A :class:`~.parallel.Writer` that writes the totals and bad records last."""

    def hand(self, record: InputRecord, result: HandResult) -> None: ...

    def finish(self, summary: Summary | None, bad: Sequence[BadRecord]) -> None: ...


@dataclass(frozen=True, slots=True)
class PassedOver:
    """A file of a folder that a batch does not read, and why.

    ``ledger`` (a match ledger), ``rules`` (a rules file), ``parquet`` (Parquet, without the
    ``arrow`` extra); and what is no file to read: ``dangling`` (a link to nothing), ``loop`` (a
    link that leads back to itself), ``special`` (a pipe, a device, a socket), ``folder_link`` (a
    link to a folder, not followed).
    """

    path: str
    why: str


def _have_arrow() -> bool:
    try:
        require("arrow")
    except InputError:
        return False
    return True


def input_files(
    inputs: Sequence[str],
    parquet_out: bool = False,
    passed_over: Callable[[PassedOver], None] | None = None,
) -> list[str]:
    """The files a batch reads, folders expanded; refused when there are none.

    The extra a Parquet input or output needs is checked first. Of the files found in folders,
    match ledgers and rules files are passed over (:func:`.reading.not_hands`), and so are
    Parquet files when the ``arrow`` extra is missing, each told to ``passed_over`` once (what
    is no file to read first: a dangling link, a link loop, a pipe, a link to a folder). A file
    named is read as it is: a ledger named is refused, saying what it is; Parquet named needs
    the extra.
    """
    files: list[str] = []
    arrow: bool | None = None
    unread: list[tuple[str, str]] = []
    found = found_inputs(inputs, unread)
    if passed_over is not None:
        for path, unreadable in unread:
            passed_over(PassedOver(path, unreadable))
    for path, in_folder in found:
        why: str | None = None
        if in_folder and is_parquet(path) and not parquet_out:
            arrow = _have_arrow() if arrow is None else arrow
            why = None if arrow else "parquet"
        elif in_folder:
            why = not_hands(path)
        if why is None:
            files.append(path)
        elif passed_over is not None:
            passed_over(PassedOver(path, why))
    if not files:
        raise error(InputError, "error.batch.no_files", inputs=Listed(inputs))
    if parquet_out or any(map(is_parquet, files)):
        require("arrow")
    return files


def _shown(path: str) -> str:
    """A file as the output shows it, with nothing a terminal acts on."""
    return "<stdin>" if path == "-" else printable(path)


@contextlib.contextmanager
def _opened(output: str | None, stdout: IO[str]) -> Iterator[IO[str]]:
    """``stdout``, or a file that appears only once the batch succeeds.

    So there are no half-written results (:func:`gongzhu_score.io.files.replaced`).
    """
    if output is None:
        yield stdout
        return
    from ..io.files import replaced

    with replaced(output) as f:
        yield f


def score_inputs(
    files: Sequence[str],
    batch: Batch,
    writer_for: WriterFor,
    *,
    output: str | None,
    stdout: IO[str],
    summary: Summary | None,
    keep_going: bool,
    split: bool = True,
    progress: Progress | None = None,
) -> list[BadRecord]:
    """Score ``files`` in order into ``output`` with the format's writer.

    ``output`` None is ``stdout``; ``summary`` gathers the totals. With ``split``, a large JSON
    Lines file may be scored on every core (not when the output gathers every hand in one
    object). Returns the bad records passed by with ``keep_going``; without it the first one
    raises, naming its place.
    """
    bad: list[BadRecord] = []
    ticking = progress is not None and progress.enabled
    with _opened(output, stdout) as out:
        writer = writer_for(out)

        def emit(record: InputRecord, result: HandResult) -> None:
            writer.hand(record, result)
            if progress is not None:
                progress.add(1)

        each = emit if ticking else writer.emit  # no terminal: one call fewer per hand
        try:
            for path in files:
                name = _shown(path)
                if split and can_split(path):
                    parts = functools.partial(writer_for, header=False)
                    bad += score_in_parallel(path, batch, out, writer, parts, summary,
                                             keep_going, name=name)  # fmt: skip
                elif is_parquet(path):
                    bad += batch.run(parquet_records(path, name), each, summary, keep_going)
                elif path.endswith(".jsonl") and file_by_arrays(os.path.getsize(path)):
                    from .lines import run_lines

                    with open(path, "rb") as lines:
                        bad += run_lines(
                            batch, numbered_lines(lines), name, each, summary, keep_going,
                            None if ticking else writer.line_emitter(name),
                        )  # fmt: skip
                else:
                    bad += batch.run(read_records(path, name=name), each, summary, keep_going)
        finally:
            if progress is not None:
                progress.done()
            writer.flush()  # the hands before a bad record are written, not held back
        writer.finish(summary, bad)
    return bad


def score_to_parquet(
    files: Sequence[str],
    batch: Batch,
    output: str,
    *,
    keep_going: bool,
    dask: str | None = None,
    dask_timeout: float | None = None,
    verbose: bool = False,
    progress: Progress | None = None,
) -> list[BadRecord]:
    """Score into Parquet: one file (``output`` ending in ``.parquet``) or a dataset folder.

    Parquet inputs are scored a column at a time (on a Dask cluster with ``dask``: a scheduler's
    address, or ``local``), other inputs through the row engine; the batch's rounding ``exact``
    makes ``final`` a double column. ``dask_timeout`` is the seconds
    to wait to reach the scheduler and while it has no live worker (None:
    :data:`~.parquet.DASK_TIMEOUT`); ``verbose`` shows Dask's own log lines on stderr.
    """
    from ..core.normalize import Rounding
    from .parquet import DASK_TIMEOUT, run_on_dask, score_parquet_file

    exact = batch.options.rounding is Rounding.EXACT
    if dask is not None and is_parquet(output):
        raise error(InputError, "error.dask.format")
    timeout = DASK_TIMEOUT if dask_timeout is None else dask_timeout
    if not timeout > 0 or timeout == float("inf"):
        raise error(InputError, "error.dask.timeout", value=f"{timeout:g}")
    bad: list[BadRecord] = []
    tick: Callable[[int], None] | None = progress.add if progress is not None else None
    with parquet_out(output, exact) as out:
        if dask is not None:
            for path in files:
                if not is_parquet(path):
                    raise error(InputError, "error.dask.inputs", path=path)
            require("dask")
            named = [(path, printable(path)) for path in files]
            return run_on_dask(dask, named, batch.options, batch.partial, out, exact, keep_going,
                               timeout, verbose)  # fmt: skip
        try:
            for path in files:
                name = _shown(path)
                out.open_part()
                if is_parquet(path):
                    bad += score_parquet_file(path, name, batch, out, exact, keep_going, tick)
                else:
                    bad += batch.run(read_records(path, name=name), out.hand, None, keep_going)
                    out.flush()
        finally:
            if progress is not None:
                progress.done()
    return bad
