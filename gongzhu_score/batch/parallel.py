"""Scoring one large JSON Lines file on every core, with the output in input order.

The file is cut at line boundaries into one slice per worker. Each worker scores its slice as
the single-process batch would (same records, same sources ``file:line``) into a temporary
file, keeping its own summary; the slices are then written out in order and the summaries
merged in order. Memory stays flat: each worker reads its slice line by line.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from ..errors import GongzhuError
from ..render.batch import BatchWriter
from .reading import BadRecord
from .runner import Batch, Summary

__all__ = ["PARALLEL_FROM_BYTES", "Slice", "can_split", "score_in_parallel"]

PARALLEL_FROM_BYTES = 2_000_000
"""Below about ten thousand hands, starting workers costs more than it saves."""


@dataclass(frozen=True, slots=True)
class Slice:
    """A worker's part of the file: from byte ``start``, ``count`` lines, the first ``line``."""

    start: int
    end: int
    line: int
    count: int


@dataclass
class _Done:
    output: str
    summary: Summary | None
    bad: list[BadRecord]
    error: GongzhuError | None


def can_split(path: str) -> bool:
    """Worth splitting: a large .jsonl file, more than one core, and fork to start workers."""
    return (
        path.endswith(".jsonl")
        and (os.cpu_count() or 1) > 1
        and "fork" in multiprocessing.get_all_start_methods()
        and os.path.getsize(path) >= PARALLEL_FROM_BYTES
    )


def slices(path: str, parts: int) -> list[Slice]:
    """Cut the file at line boundaries into ``parts`` slices, with each slice's first line."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as f:
        for k in range(1, parts):
            f.seek(max(size * k // parts, cuts[-1]))
            f.readline()  # to the start of the next line
            cuts.append(min(f.tell(), size))
        cuts.append(size)
        out, line = [], 1
        for start, end in itertools.pairwise(cuts):
            f.seek(start)
            count, left = 0, end - start
            while left > 0:  # counted a megabyte at a time: memory stays flat
                block = f.read(min(left, 1 << 20))
                if not block:
                    break
                count += block.count(b"\n")
                left -= len(block)
            if end == size and size and not _ends_with_newline(f, size):
                count += 1  # the last line has no newline
            out.append(Slice(start, end, line, count))
            line += count
    return out


def _ends_with_newline(f: IO[bytes], size: int) -> bool:
    f.seek(size - 1)
    return f.read(1) == b"\n"


def _lines(path: str, part: Slice) -> Iterator[tuple[int, bytes]]:
    """The numbered lines of one slice (read by C-level iteration: no Python step per line)."""
    with open(path, "rb") as f:
        f.seek(part.start)
        yield from enumerate(itertools.islice(f, part.count), part.line)


def _work(args: tuple[Any, ...]) -> _Done:
    path, part, batch, fmt, lang, summary_only, keep_going, want_summary, folder = args
    fd, output = tempfile.mkstemp(prefix=".gongzhu-part.", dir=folder)
    summary = Summary() if want_summary else None
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
        writer = BatchWriter(out, fmt, lang, summary_only, header=False)
        try:
            bad = batch.run_jsonl(
                _lines(path, part), path, writer.emit, summary, keep_going,
                writer.line_emitter(path),
            )  # fmt: skip
        except GongzhuError as e:
            writer.flush()
            return _Done(output, summary, [], e)
        writer.flush()
    return _Done(output, summary, bad, None)


def _copy(path: str, out: IO[str]) -> None:
    """Append a part's output: as bytes when ``out`` has a buffer (no decoding and encoding)."""
    out.flush()
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        with open(path, encoding="utf-8", newline="") as text:
            shutil.copyfileobj(text, out)
        return
    with open(path, "rb") as raw:
        shutil.copyfileobj(raw, buffer)
    buffer.flush()


def score_in_parallel(
    path: str,
    batch: Batch,
    out: IO[str],
    writer: BatchWriter,
    summary: Summary | None,
    keep_going: bool,
    workers: int = 0,
) -> list[BadRecord]:
    """Score ``path`` on ``workers`` processes (default: every core) into ``out``, in order.

    This process scores the first slice straight into ``out`` while forked workers score the
    others into temporary files, appended after it. Bad records behave as in one process:
    without ``keep_going`` the output stops at the first one and its error is raised.
    """
    writer.flush()  # what earlier files gave comes first
    parts = slices(path, workers or os.cpu_count() or 2)
    folder = os.path.dirname(os.path.abspath(path))
    folder = folder if os.access(folder, os.W_OK) else tempfile.gettempdir()
    jobs = [
        (path, p, batch, writer.fmt, writer.lang, writer.summary_only, keep_going,
         summary is not None, folder)
        for p in parts[1:]
    ]  # fmt: skip
    with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
        pending = pool.map_async(_work, jobs)
        try:
            bad = batch.run_jsonl(
                _lines(path, parts[0]), path, writer.emit, summary, keep_going,
                writer.line_emitter(path),
            )  # fmt: skip
        except GongzhuError:
            for part in pending.get():  # their output comes after the error: drop it
                os.unlink(part.output)
            raise
        finally:
            writer.flush()
        done = pending.get()
    try:
        for part in done:
            _copy(part.output, out)
            if summary is not None and part.summary is not None:
                summary.merge(part.summary)
            bad += part.bad
            if part.error is not None:
                raise part.error
    finally:
        for part in done:
            os.unlink(part.output)
    return bad
