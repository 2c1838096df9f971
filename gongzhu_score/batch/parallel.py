"""Scoring one large JSON Lines file on every core, output in input order.

The file is cut at line boundaries into one slice per core. This process scores the first slice
straight into the output while worker processes score the others, each as the single-process
batch would (same records, same sources ``file:line``: a worker first counts the lines before
its slice, so nobody waits for the whole file to be counted), into a temporary file with a
summary of its own; the parts are then appended in order and the summaries merged in order.
Memory stays flat: each worker reads its slice line by line.

The workers are a :class:`~concurrent.futures.ProcessPoolExecutor`'s, started fresh
(``spawn``: no process is forked from one that may run threads, as Arrow's and numpy's do).
Each slice must be read to its planned end, and the file must be the same when the batch ends
as when it began (its size, its time of change, the file itself): otherwise the batch refuses,
writing nothing, rather than leave hands out. A worker that dies (killed, out of memory) fails
the batch at once with an error naming its part, and every temporary file is removed on every
way out: the parent makes them, and the parent deletes them; a worker whose output file is gone
stops at its next block, which is how a failing batch ends its workers.

Measured on the 2-core development machine (``tests/benchmark.py``), this beats one core at
100,000 and at 1,000,000 hands, which is why it exists.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Protocol, cast

from ..core.options import ScoringOptions
from ..errors import GongzhuError, InputError
from ..io.files import open_regular
from ..terms import error, place
from .reading import BadRecord, NumberedLines, Part, numbered_lines
from .runner import Batch, Emit, Summary

if TYPE_CHECKING:
    from .lines import LineWriter

__all__ = ["PARALLEL_FROM_BYTES", "Writer", "can_split", "cuts", "score_in_parallel"]

PARALLEL_FROM_BYTES = 2_000_000
"""Below about ten thousand hands, starting workers costs more than it saves."""


class Writer(Protocol):
    """What the batch writes hands with (the output format's writer)."""

    @property
    def emit(self) -> Emit: ...

    def line_emitter(self, file: str) -> LineWriter | None: ...

    def flush(self) -> None: ...


WriterFactory = Callable[[IO[str]], Writer]
"""Makes the writer for a part's output (the same format, no header)."""


@dataclass
class _Done:
    summary: Summary | None
    bad: list[BadRecord]
    error: GongzhuError | None


def can_split(path: str) -> bool:
    """Whether splitting is worth it: a large .jsonl, several cores."""
    return (
        path.endswith(".jsonl")
        and (os.cpu_count() or 1) > 1
        and os.path.getsize(path) >= PARALLEL_FROM_BYTES
    )


def cuts(path: str, parts: int) -> list[tuple[int, int]]:
    """Cut the file at line boundaries into ``parts`` byte ranges.

    Only the places near each cut are read: the workers start at once, each counting its own
    first line's number (:func:`_first_line`).
    """
    size = os.path.getsize(path)
    at = [0]
    with open_regular(path) as f:
        for k in range(1, parts):
            f.seek(max(size * k // parts, at[-1]))
            at.append(_next_line(f, size))
    at.append(size)
    return list(itertools.pairwise(at))


def _numbered(path: str, start: int, end: int) -> tuple[int, int]:
    """The numbers of the first and the last line of bytes ``start`` to ``end``."""
    size = os.path.getsize(path)
    with open_regular(path) as f:
        first = 1 + _newlines(f, 0, start)
        count = _newlines(f, start, end)
        if end == size and size and not _ends_with_newline(f, size):
            count += 1  # the last line has no newline
    return first, first + count - 1


def _first_line(path: str, start: int) -> int:
    """The number of the line that starts at byte ``start``."""
    with open_regular(path) as f:
        return 1 + _newlines(f, 0, start)


def _newlines(f: IO[bytes], start: int, end: int) -> int:
    """How many newlines bytes ``start`` to ``end`` hold, counted a megabyte at a time into
    one buffer: memory stays flat, and none is made afresh for each block."""
    f.seek(start)
    count, left = 0, end - start
    buffer = bytearray(1 << 20)
    view = memoryview(buffer)
    while left > 0:
        size = cast(io.BufferedIOBase, f).readinto(view[: min(left, len(buffer))])
        if not size:
            break
        count += buffer.count(b"\n", 0, size)
        left -= size
    return count


def _next_line(f: IO[bytes], size: int) -> int:
    """Where the line after the one ``f`` is in starts (or ``size``), looked for a megabyte at a
    time: a 300 MB line is refused by its reader, never held here."""
    while block := f.read(1 << 20):
        newline = block.find(b"\n")
        if newline >= 0:
            return f.tell() - len(block) + newline + 1
    return size


def _ends_with_newline(f: IO[bytes], size: int) -> bool:
    f.seek(size - 1)
    return f.read(1) == b"\n"


Stamp = tuple[int, int, int, int]
"""What says a file is the one it was: its device, its inode, its size, its time of change."""


def _stamp(f: IO[bytes] | int) -> Stamp:
    found = os.fstat(f if isinstance(f, int) else f.fileno())
    return found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns


class _Changed(Exception):
    """The input is not the file it was when the batch began, or a slice ended early."""


class _Stopped(Exception):
    """The batch is failing: this worker's output file is gone."""


class _Upto:
    """The next ``left`` bytes of a file, as :func:`.reading.numbered_lines` reads a stream;
    its end is ``left``'s, read in full or the file changed."""

    def __init__(self, f: IO[bytes], left: int, watch: str | None) -> None:
        self.f, self.left, self.watch = f, left, watch

    def read(self, size: int = -1) -> bytes:
        if self.watch is not None and not os.path.exists(self.watch):
            raise _Stopped
        size = self.left if size < 0 else min(size, self.left)
        block = self.f.read(size) if size > 0 else b""
        self.left -= len(block)
        if not block and self.left:
            raise _Changed  # (the file ended before the slice did)
        return block


def _lines(path: str, start: int, end: int, line: int, stamp: Stamp,
           watch: str | None = None) -> NumberedLines:  # fmt: skip
    """The numbered lines of bytes ``start`` to ``end`` of the file ``stamp`` says, the first
    numbered ``line``, each read up to the size limit (``watch``: a worker's output file,
    whose loss stops it)."""
    return NumberedLines(line, _parts(path, start, end, line, stamp, watch))


def _parts(path: str, start: int, end: int, line: int, stamp: Stamp,
           watch: str | None) -> Iterator[Part]:  # fmt: skip
    with open(path, "rb") as f:  # (open while the lines are read, closed once they are)
        if _stamp(f) != stamp:
            raise _Changed
        f.seek(start)
        upto = _Upto(f, end - start, watch)
        yield from numbered_lines(cast(IO[bytes], upto), line).parts
        if upto.left or _stamp(f) != stamp:
            raise _Changed


def _work(
    path: str,
    shown: str,
    part: tuple[int, int],
    stamp: Stamp,
    options: ScoringOptions,
    partial: bool,
    make_writer: WriterFactory,
    keep_going: bool,
    want_summary: bool,
    output: str,
) -> _Done:
    from .lines import run_lines

    summary = Summary() if want_summary else None
    batch = Batch(options, partial)
    try:  # (the parent made the file: gone, the batch is failing, and nothing is made again)
        made = os.open(output, os.O_WRONLY | os.O_TRUNC)
    except FileNotFoundError:
        return _Done(summary, [], None)
    with open(made, "w", encoding="utf-8", newline="") as out:
        writer = make_writer(out)
        try:
            lines = _lines(path, *part, _first_line(path, part[0]), stamp, output)
            bad = run_lines(batch, lines, shown, writer.emit, summary, keep_going,
                                  writer.line_emitter(shown))  # fmt: skip
        except GongzhuError as e:
            writer.flush()
            return _Done(summary, [], e)
        except _Stopped:
            return _Done(summary, [], None)
        writer.flush()
    return _Done(summary, bad, None)


def _copy(path: str, out: IO[str]) -> None:
    """Append a part's output, as bytes when ``out`` has a buffer.

    Bytes need no decoding and encoding.
    """
    out.flush()
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        with open(path, encoding="utf-8", newline="") as text:
            shutil.copyfileobj(text, out)
        return
    with open(path, "rb") as raw:
        shutil.copyfileobj(raw, buffer)
    buffer.flush()


def _temp_folder(path: str) -> str:
    folder = os.path.dirname(os.path.abspath(path))
    return folder if os.access(folder, os.W_OK) else tempfile.gettempdir()


def score_in_parallel(
    path: str,
    batch: Batch,
    out: IO[str],
    writer: Writer,
    make_writer: WriterFactory,
    summary: Summary | None,
    keep_going: bool,
    workers: int = 0,
    name: str | None = None,
) -> list[BadRecord]:
    """Score ``path`` on ``workers`` processes (default: every core) into ``out``, in order.

    ``name`` is the file as the output shows it.

    Bad records behave as in one process: without ``keep_going`` the output stops at the first
    one and its error is raised. A worker that dies fails the batch while this process is still
    scoring its own slice (it looks every few thousand lines), not after.
    """
    from .lines import run_lines

    shown = name or path
    writer.flush()  # what earlier files gave comes first
    with open_regular(path) as f:
        stamp = _stamp(f)
    parts = cuts(path, workers or os.cpu_count() or 2)
    folder = _temp_folder(path)
    outputs: list[str] = []
    pool: ProcessPoolExecutor | None = None
    try:
        for _ in parts[1:]:
            fd, output = tempfile.mkstemp(prefix=".gongzhu-part.", dir=folder)
            os.close(fd)
            outputs.append(output)
        pool = ProcessPoolExecutor(len(outputs), mp_context=multiprocessing.get_context("spawn"))
        futures = [
            pool.submit(_work, path, shown, part, stamp, batch.options, batch.partial,
                        make_writer, keep_going, summary is not None, output)
            for part, output in zip(parts[1:], outputs, strict=True)
        ]  # fmt: skip
        watched = list(zip(futures, parts[1:], strict=True))
        own = _lines(path, *parts[0], 1, stamp)
        lines = NumberedLines(1, _watching(own.parts, watched, path, shown))
        try:
            bad = run_lines(batch, lines, shown, writer.emit, summary, keep_going,
                                  writer.line_emitter(shown))  # fmt: skip
        finally:
            writer.flush()
        done = [_result(future, path, part, shown) for future, part in watched]
        with open_regular(path) as f:
            if _stamp(f) != stamp:
                raise _Changed
        for part_done, output in zip(done, outputs, strict=True):
            _copy(output, out)
            if summary is not None and part_done.summary is not None:
                summary.merge(part_done.summary)
            bad += part_done.bad
            if part_done.error is not None:
                raise part_done.error
        return bad
    except _Changed:
        raise error(InputError, "error.batch.changed").within(shown) from None
    finally:
        for output in outputs:
            with contextlib.suppress(OSError):
                os.unlink(output)  # (a worker still scoring stops at its next block)
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
            for output in outputs:  # (one that had not begun, and made it again: none now)
                with contextlib.suppress(OSError):
                    os.unlink(output)


def _watching(
    parts: Iterator[Part],
    watched: list[tuple[Future[_Done], tuple[int, int]]],
    path: str,
    shown: str,
) -> Iterator[Part]:
    """The lines a block at a time, with the workers checked between blocks.

    A dead worker fails the batch at once; the lines themselves pass through at C speed.
    """
    for part in parts:
        for future, slice_ in watched:
            if future.done():
                _result(future, path, slice_, shown)  # raises if the worker died
        yield part


def _result(future: Future[_Done], path: str, part: tuple[int, int], shown: str) -> _Done:
    try:
        return future.result()
    except _Changed:
        raise error(InputError, "error.batch.changed").within(shown) from None
    except BrokenProcessPool:
        first, last = _numbered(path, *part)  # (counted now: the batch is failing)
        lines = place("where.lines", first=first, last=last)
        raise error(InputError, "error.batch.worker", lines=lines).within(shown) from None
