"""Batch scoring with Parquet, on this machine or a Dask cluster (``--dask``).

Parquet files come in, scored a column at a time by
:func:`gongzhu_score.batch.columns.score_batches`; a Parquet file or dataset folder goes out.

pyarrow (and numpy) are the ``arrow`` extra, Dask the ``dask`` extra: without them, Parquet is a
clear error naming the extra to install, and nothing else changes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GongzhuError, InputError
from ..terms import error
from .reading import BadRecord, InputRecord

if TYPE_CHECKING:
    import pyarrow as pa

    from ..core.engine import HandResult
    from ..core.options import ScoringOptions
    from .runner import Batch

__all__ = ["ParquetOut", "is_parquet", "local_cluster", "parquet_records", "require",
           "run_on_dask"]  # fmt: skip

DASK_TIMEOUT = 10.0
"""Seconds ``--dask`` waits to reach a scheduler, and waits while its cluster has no live
worker, before it gives up (``--dask-timeout``)."""
TASK_ROWS = 250_000
"""Rows of one Dask task (a row group larger than this is shared among several)."""
BATCH_ROWS = 65_536
"""Rows read and scored at a time (a Parquet row group is often larger: read in slices)."""


def is_parquet(path: str) -> bool:
    return path.lower().endswith(".parquet")


def require(extra: str) -> None:
    """An error naming the extra to install when its libraries are missing."""
    try:
        if extra == "dask":
            import distributed  # noqa: F401
        else:
            import numpy  # noqa: F401
            import pyarrow  # noqa: F401
    except ImportError:
        raise error(InputError, "error.extra.missing", extra=extra) from None


def _file(path: str, name: str) -> Any:
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(path)
    except OSError as e:
        raise error(InputError, "error.parquet.unreadable", why=str(e)).within(name) from None
    except Exception as e:  # pyarrow's own errors for a file that is no Parquet
        raise error(InputError, "error.parquet.unreadable", why=str(e)).within(name) from None


def _batches(path: str, name: str) -> Iterator[pa.RecordBatch]:
    """A Parquet file's rows in batches, a row group at a time.

    A column or a field named twice is refused. A row group that cannot be read (a corrupt page)
    is an error naming the file, the row group and its rows, not a failure to write the output.
    """
    from .columns import check_schema

    parquet = _file(path, name)
    check_schema(parquet.schema_arrow, name)
    meta = parquet.metadata
    first = 1
    for group in range(meta.num_row_groups):
        size = meta.row_group(group).num_rows
        try:
            yield from parquet.iter_batches(batch_size=BATCH_ROWS, row_groups=[group])
        except Exception as e:  # pyarrow's errors (OSError, ArrowInvalid, …) for a bad page
            raise _unreadable_group(name, group, first, size, e) from None
        first += size


def _unreadable_group(name: str, group: int, first: int, size: int, e: Exception) -> GongzhuError:
    why = str(e).strip() or type(e).__name__
    return error(InputError, "error.parquet.corrupt", group=group + 1, first=first,
                 last=first + size - 1, why=why).within(name)  # fmt: skip


def parquet_records(path: str, name: str) -> Iterator[InputRecord]:
    """A Parquet file's rows as records (``name:row``), for the row engine.

    The output formats that need them are table, csv, json, and jsonl with totals.
    """
    from .columns import plain

    row = 1
    for rb in _batches(path, name):
        for data in rb.to_pylist():
            yield InputRecord(name, row, plain(data))
            row += 1


class ParquetOut:
    """The results written as Parquet: one file, or a dataset folder.

    One file is ``OUT.parquet``; a folder has one file per input (``part-00000.parquet`` …).
    Nothing appears at ``path`` until the batch has finished: the file or folder is written
    beside it under a temporary name, then renamed.
    """

    def __init__(self, path: str, exact: bool) -> None:
        from .columns import output_schema

        self.path = path
        self.exact = exact
        self.folder = not is_parquet(path)
        self.schema = output_schema(exact)
        target = Path(path)
        if self.folder and target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise error(InputError, "error.parquet.folder_exists").within(path)
        if not self.folder and target.is_dir():
            raise error(InputError, "error.parquet.is_folder").within(path)
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise error(InputError, "error.parquet.no_folder").within(path)
        try:  # (beside the output: a folder that refuses it is the output's error)
            self.temp = tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
        except OSError as e:
            raise error(InputError, "error.write.failed", why=e.strerror or str(e)).within(
                path
            ) from None
        self.parts = 0
        self.writer: Any = None
        self.pending: list[tuple[str, HandResult]] = []

    def open_part(self) -> None:
        """Start the next input's file (a folder), or go on in the one file."""
        import pyarrow.parquet as pq

        if self.writer is not None and not self.folder:
            return
        self.close_part()
        name = f"part-{self.parts:05d}.parquet" if self.folder else "out.parquet"
        self.parts += 1
        self.writer = pq.ParquetWriter(os.path.join(self.temp, name), self.schema)

    def write(self, rb: pa.RecordBatch) -> None:
        self.writer.write_batch(rb)

    def hand(self, record: InputRecord, result: HandResult) -> None:
        """Write a hand scored by the row engine (a JSON Lines or YAML input).

        A hand whose scores an int64 column cannot hold is an error naming it.
        """
        from .columns import too_large

        large = too_large(result, self.exact)
        if large is not None:
            raise large.within(record.source)
        self.pending.append((record.source, result))
        if len(self.pending) >= BATCH_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        from .columns import results_batch

        self.write(results_batch(self.pending, self.schema))
        self.pending = []

    def close_part(self) -> None:
        self.flush()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def finish(self) -> None:
        """Put the results in place (only now does ``path`` change)."""
        self.close_part()
        if self.folder:
            if Path(self.path).is_dir():
                os.rmdir(self.path)  # (empty: checked at the start)
            os.replace(self.temp, self.path)
        else:
            os.replace(os.path.join(self.temp, "out.parquet"), self.path)
            shutil.rmtree(self.temp, ignore_errors=True)

    def abandon(self) -> None:
        with contextlib.suppress(Exception):
            if self.writer is not None:
                self.writer.close()
        shutil.rmtree(self.temp, ignore_errors=True)


@contextlib.contextmanager
def parquet_out(path: str, exact: bool) -> Iterator[ParquetOut]:
    """A :class:`ParquetOut`, put in place if the block ends without error.

    A write the system refuses is an error naming ``path``.
    """
    out = ParquetOut(path, exact)
    try:
        yield out
        out.finish()
    except OSError as e:
        out.abandon()
        why = e.strerror or str(e).replace(out.temp, path)  # (the output, not its staging)
        raise error(InputError, "error.write.failed", why=why).within(path) from None
    except BaseException:
        out.abandon()
        raise


def score_parquet_file(
    path: str, name: str, batch: Batch, out: ParquetOut, exact: bool, keep_going: bool,
    tick: Callable[[int], None] | None = None,
) -> list[BadRecord]:  # fmt: skip
    """One Parquet input, a column at a time, into ``out``."""
    from .columns import score_batches

    bad: list[BadRecord] = []
    threads = min(os.cpu_count() or 1, 8)  # (batches scored on every core, by threads)
    for rb, found in score_batches(_batches(path, name), batch, name, exact, keep_going, 1,
                                   threads):  # fmt: skip
        out.write(rb)
        bad += found
        if tick is not None:
            tick(rb.num_rows)
    return bad


# --- Dask ----------------------------------------------------------------------------------------


def _part(
    path: str,
    name: str,
    group: int,
    start: int,
    count: int,
    first_row: int,
    options: ScoringOptions,
    partial: bool,
    exact: bool,
    keep_going: bool,
    target: str,
) -> tuple[int, list[tuple[str, GongzhuError]]]:
    """One worker task: a Parquet row group scored into its own part file.

    Errors come back as (source, error): an error pickles with its message in every language.
    """
    import pyarrow.parquet as pq

    from .columns import output_schema, score_batches
    from .runner import Batch

    batch = Batch(options, partial)
    try:
        table = _file(path, name).read_row_group(group).slice(start, count)
    except GongzhuError as e:
        return -1, [("", e)]
    except Exception as e:  # a row group that cannot be read: named, as on this machine
        return -1, [("", _unreadable_group(name, group, first_row, count, e))]
    bad: list[tuple[str, GongzhuError]] = []
    rows = 0
    with pq.ParquetWriter(target, output_schema(exact)) as writer:
        try:
            # (one thread: the task is one of the worker's, on one of its cores)
            scored = score_batches(table.to_batches(BATCH_ROWS), batch, name, exact, keep_going,
                                   first_row, threads=1)  # fmt: skip
            for rb, found in scored:
                writer.write_batch(rb)
                rows += rb.num_rows
                bad += [(b.source, b.error) for b in found]
        except GongzhuError as e:
            return -1, [("", e)]
    return rows, bad


DASK_SCHEMES = ("tcp", "tls", "ws", "wss")
"""The schemes of a scheduler's address that reach it from another process (Dask's
``inproc://`` is within one process; ``ucx://`` needs a library of its own)."""


def dask_address(address: str) -> str:
    """``address`` (``--dask``), checked before anything connects.

    It must have the form of a scheduler's address: ``local``, ``tcp://HOST:PORT``,
    ``HOST:PORT`` (tcp), ``tls://``, ``ws://`` or ``wss://HOST:PORT`` (an IPv6 host in
    brackets); else an :class:`InputError` says what to give.
    """
    import re

    from distributed.comm.addressing import parse_address, parse_host_port

    if address == "local":
        return address
    scheme, where = parse_address(address)
    if scheme not in DASK_SCHEMES:
        raise error(InputError, "error.dask.scheme", address=address, scheme=scheme)
    try:
        host, port = parse_host_port(where)
    except ValueError:
        host, port = "", 0
    if not re.fullmatch(r"[\w.-]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%\w+)?", host) or not (
        0 < port < 65536
    ):
        raise error(InputError, "error.dask.address", address=address)
    if scheme in ("tls", "wss"):
        from distributed.security import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise error(InputError, "error.dask.tls", address=address, scheme=scheme)
    return address


def _too_many_files(problem: BaseException) -> bool:
    """Is an open-file limit in ``problem``'s chain of causes?"""
    import errno

    seen: set[int] = set()
    todo: list[BaseException | None] = [problem]
    while todo:
        e = todo.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno == errno.EMFILE:
            return True
        todo += [e.__cause__, e.__context__]
    return False


def _file_limit() -> int | None:
    """How many files this process may open; None if unlimited or unknown."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return None
    limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if limit == resource.RLIM_INFINITY else limit


def _files_needed(workers: int) -> int:
    """About the files a local cluster of ``workers`` opens here, with room to spare.

    Here that is about 20, and 9 a worker.
    """
    return 32 + 16 * workers


def _files_error(workers: int) -> InputError:
    return error(InputError, "error.dask.files", limit=_file_limit(), workers=workers,
                 need=_files_needed(workers))  # fmt: skip


def local_cluster(workers: int | None = None, verbose: bool = False) -> Any:
    """A Dask cluster of this machine's cores, a process each, started here.

    Its dashboard takes a free port (its address is ``cluster.dashboard_link``), so two batches
    at once, or anything else on Dask's usual 8787, do not collide. A cluster that cannot start
    is an :class:`InputError` saying why (Dask's own log of it is kept quiet): too many open
    files for this process's limit names the limit and how to raise it. The workers' own log
    lines are kept off stderr unless ``verbose``.
    """
    import logging

    from distributed import LocalCluster

    n = workers or os.cpu_count() or 1
    limit = _file_limit()
    if limit is not None and limit < _files_needed(n):  # (far too few: Dask would spin)
        raise _files_error(n)
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        return LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                            dashboard_address=":0",
                            silence_logs=logging.INFO if verbose else logging.CRITICAL)  # fmt: skip
    except Exception as e:
        if _too_many_files(e):
            raise _files_error(n) from None
        raise error(InputError, "error.dask.local", why=str(e) or type(e).__name__) from None
    finally:
        quiet.setLevel(level)


def run_on_dask(
    address: str,
    files: list[tuple[str, str]],
    options: ScoringOptions,
    partial: bool,
    out: ParquetOut,
    exact: bool,
    keep_going: bool,
    timeout: float = DASK_TIMEOUT,
    verbose: bool = False,
) -> list[BadRecord]:
    """Every Parquet row group as one Dask task, each writing one file of ``out``.

    ``out`` is the dataset folder; ``local`` starts a cluster of this machine's cores here. The
    paths go to the workers made absolute, so a worker started in another folder reads the same
    files. ``timeout`` is the seconds to wait to reach the scheduler, and while the cluster has
    no live worker, before an :class:`InputError` says so (never a wait without end).
    ``distributed``'s own log lines and warnings are kept off stderr unless ``verbose``.
    """
    from ..errors import HandError

    with _kept_quiet(verbose):
        from distributed import Client  # (its import's warnings kept off stderr too)

        address = dask_address(address)
        cluster = local_cluster(verbose=verbose) if address == "local" else None
        try:
            client = Client(cluster if cluster is not None else address, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError, TypeError) as e:
            if cluster is None:
                raise error(InputError, "error.dask.connect", address=address, why=str(e)) from None
            workers = len(cluster.workers)
            cluster.close()
            if _too_many_files(e):
                raise _files_error(workers) from None
            raise error(InputError, "error.dask.local", why=str(e) or type(e).__name__) from None
        try:
            futures = []
            k = 0
            folder = os.path.abspath(out.temp)
            for path, name in files:
                meta = _file(path, name).metadata
                first = 1
                whole = os.path.abspath(path)
                for group in range(meta.num_row_groups):
                    size = meta.row_group(group).num_rows
                    for start in range(0, size, TASK_ROWS):  # (a large row group: several tasks)
                        count = min(TASK_ROWS, size - start)
                        target = os.path.join(folder, f"part-{k:05d}.parquet")
                        futures.append(client.submit(_part, whole, name, group, start, count,
                                                     first, options, partial, exact, keep_going,
                                                     target, pure=False))  # fmt: skip
                        first += count
                        k += 1
            bad: list[BadRecord] = []
            for future in futures:  # in input order: the first bad row is the first reported
                where = cluster.scheduler_address if cluster is not None else address
                rows, found = _outcome(client, future, futures, where, timeout)
                for source, refused in found:
                    problem = refused.recast(HandError)
                    if rows < 0:
                        raise problem
                    bad.append(BadRecord(source, problem))
            out.parts = k
            return bad
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


@contextlib.contextmanager
def _kept_quiet(verbose: bool) -> Iterator[None]:
    """Keep ``distributed``'s log lines and warnings here off stderr, unless ``verbose``."""
    import logging
    import warnings

    if verbose:
        yield
        return
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        quiet.setLevel(level)


_POLL = 0.25
"""Seconds between looks at the cluster while a task is awaited."""


def _outcome(
    client: Any, future: Any, futures: list[Any], address: str, timeout: float
) -> tuple[int, list[tuple[str, GongzhuError]]]:
    """A task's result, with the workers counted while it is awaited.

    With no worker for ``timeout`` seconds (the last one stopped, or none ever came), an
    :class:`InputError` says so. So does a task that failed (its worker killed too often: Dask's
    ``KilledWorker``), or a scheduler that went away.
    """
    import asyncio
    import time

    alone_since: float | None = None
    while True:
        try:
            found: tuple[int, list[tuple[str, GongzhuError]]] = future.result(timeout=_POLL)
            return found
        except (TimeoutError, asyncio.TimeoutError):
            pass
        except GongzhuError:
            raise
        except Exception as e:  # (Dask's own: KilledWorker, a closed connection, …)
            raise error(InputError, "error.dask.task", address=address,
                        why=str(e) or type(e).__name__) from None  # fmt: skip
        try:
            workers = len(client.nthreads())
        except Exception as e:  # (the scheduler is gone)
            raise error(InputError, "error.dask.task", address=address,
                        why=str(e) or type(e).__name__) from None  # fmt: skip
        now = time.monotonic()
        if workers:
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= timeout:
            raise error(InputError, "error.dask.no_workers", address=address,
                        seconds=f"{timeout:g}", done=sum(f.done() for f in futures),
                        count=len(futures))  # fmt: skip
