"""batch --dask against a real scheduler (issue 24, point 4): no live worker is an error within
--dask-timeout, never a wait without end; nothing listening, the same; the paths reach workers
started in another folder; Dask's own log lines stay off stderr."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clitools import refused, run
from optional import pa, pq

from gongzhu_score import Scorer

pytestmark = pytest.mark.dask

HEARTS = " ".join(f"{r}H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                    "K", "A"))  # fmt: skip


def _row(first: str) -> dict[str, Any]:
    return {"players": [{"name": "东", "captured": first}, {"name": "南", "captured": "JD"},
                        {"name": "西", "captured": "10C"}, {"name": "北", "captured": ""}]}  # fmt: skip


ROWS = [_row(f"QS {HEARTS}") if i % 3 else _row(HEARTS + " QS 2S") for i in range(60)]


def _hands(folder: Path, bad_row: int | None = None) -> Path:
    rows = list(ROWS)
    if bad_row is not None:
        rows[bad_row - 1] = _row("QS QS")
    path = folder / "hands.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=25)  # (three tasks)
    return path


@contextlib.contextmanager
def _scheduler() -> Iterator[Any]:
    """A scheduler in this process, reached over TCP, with no worker of its own."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=":0") as cluster, Client(cluster) as client:  # fmt: skip
        yield cluster.scheduler_address, client


@contextlib.contextmanager
def _worker(address: str, client: Any, folder: str) -> Iterator[subprocess.Popen[bytes]]:
    """A worker process of its own (no nanny to start it again), started in ``folder``."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
         "--nthreads", "1", "--no-dashboard"],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        client.wait_for_workers(1, timeout=60)
        yield worker
    finally:
        worker.kill()
        worker.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_with_the_last_worker_killed_batch_fails_within_the_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _hands(tmp_path)
    with _scheduler() as (address, client):
        with _worker(address, client, "/") as worker:
            # relative paths: the worker, started in /, reads the same files
            r = run("batch", "hands.parquet", "-f", "parquet", "--dask", address, "-o", "out")
            assert r.exit_code == 0, r.stderr
            assert r.stderr == ""
            table = pq.read_table(tmp_path / "out")
            got = sorted(zip(table.column("source").to_pylist(),
                             table.column("players").to_pylist(), strict=True),
                         key=lambda x: int(x[0].rsplit(":", 1)[1]))  # fmt: skip
            assert [s for s, _ in got] == [f"hands.parquet:{i}" for i in range(1, 61)]
            for (_, players), row in zip(got, ROWS, strict=True):
                assert [p["raw"] for p in players] == list(Scorer().score_data(row).raws)
            worker.kill()
            worker.wait()
        start = time.monotonic()
        message = refused("batch", "hands.parquet", "-f", "parquet", "--dask", address,
                          "--dask-timeout", "1.5", "-o", "again")  # fmt: skip
        took = time.monotonic() - start
    assert message == (
        f"the Dask cluster at {address} has had no worker for 1.5 s (0 of 3 tasks done); "
        f"nothing was written: start a worker (dask worker {address}), or wait longer with "
        "--dask-timeout"
    )
    assert took < 1.5 + 5
    assert not (tmp_path / "again").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".again")] == []


def test_nothing_listening_fails_within_the_timeout(tmp_path: Path) -> None:
    source = _hands(tmp_path)
    address = f"tcp://127.0.0.1:{_free_port()}"
    start = time.monotonic()
    message = refused("batch", str(source), "-f", "parquet", "--dask", address,
                      "--dask-timeout", "1", "-o", str(tmp_path / "out"))  # fmt: skip
    assert time.monotonic() - start < 1 + 5
    assert message.startswith(f"cannot reach the Dask scheduler at {address}: ")
    assert not (tmp_path / "out").exists()


def test_the_default_timeout_is_ten_seconds() -> None:
    from gongzhu_score.batch.parquet import DASK_TIMEOUT

    assert DASK_TIMEOUT == 10


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_timeout_that_is_no_time_to_wait_is_refused(tmp_path: Path, value: str) -> None:
    source = _hands(tmp_path)
    shown = f"{float(value):g}"
    assert refused("batch", str(source), "-f", "parquet", "--dask", "local", "--dask-timeout",
                   value, "-o", str(tmp_path / "out")) == (
        f"--dask-timeout {shown}: give the seconds to wait, more than 0"
    )  # fmt: skip


def test_dask_local_says_one_line_and_only_its_own(tmp_path: Path) -> None:
    source = _hands(tmp_path, bad_row=8)
    r = run("batch", str(source), "-f", "parquet", "--dask", "local", "-o", str(tmp_path / "o"))
    assert r.exit_code == 2
    assert r.stderr == f"error: {source}:8: player 东: QS (Q♠) captured twice\n"
    r = run("batch", str(source), "-f", "parquet", "--dask", "local", "-k", "-o",
            str(tmp_path / "k"))  # fmt: skip
    assert r.exit_code == 1
    assert r.stderr == f"1 bad record:\n  {source}:8: player 东: QS (Q♠) captured twice\n"
    # asked for, Dask's own lines may come too (a good batch: none need to)
    r = run("batch", str(_hands(tmp_path)), "-f", "parquet", "--dask", "local", "--verbose",
            "-o", str(tmp_path / "v"))  # fmt: skip
    assert r.exit_code == 0, r.stderr
    assert pq.read_table(tmp_path / "v").num_rows == 60


# --- dask.dataframe ----------------------------------------------------------------------------

# Dask's own read_parquet under pandas 3.1 (its use of reset_index(inplace=True)): not ours.
_DASKS_OWN = pytest.mark.filterwarnings(
    "ignore:The inplace keyword in DataFrame.reset_index is deprecated"
)


def _plain(values: list[Any]) -> list[Any]:
    """A pandas column's values as Arrow's to_pylist gives them (None for a null)."""
    import pandas as pd

    return [None if v is pd.NA else v for v in values]


def _lake(folder: Path) -> tuple[Path, pa.Table]:
    """A Parquet file of hands with a key and a column of text beside them, two rows bad."""
    rows = list(ROWS)
    rows[4], rows[41] = _row("QS QS"), _row("QS 红A")
    table = pa.Table.from_pylist(rows)
    table = table.add_column(0, "hand_id", pa.array(range(5000, 5060), pa.int64()))
    table = table.append_column("room", pa.array([f"房间{i % 4}" for i in range(60)]))
    path = folder / "lake.parquet"
    pq.write_table(table, path, row_group_size=25)
    return path, table


@_DASKS_OWN
def test_contract_score_dask_gives_score_tables_rows_with_the_keys(tmp_path: Path) -> None:
    import dask.dataframe as dd

    from gongzhu_score.arrow import score_dask, score_table

    path, table = _lake(tmp_path)
    frame = dd.read_parquet(path)
    scored = score_dask(frame, errors="column")
    assert list(scored.columns) == ["hand_id", "room", "players", "error"]
    got = scored.compute()
    want = score_table(table, errors="column")
    assert got["hand_id"].tolist() == want.column("hand_id").to_pylist()
    assert got["room"].tolist() == want.column("room").to_pylist()
    assert _plain(got["players"].tolist()) == want.column("players").to_pylist()
    assert _plain(got["error"].tolist()) == want.column("error").to_pylist()
    assert got["error"].notna().sum() == 2
    # the columns carried are the frame's own: the same dtypes, the same index
    assert (got.dtypes[["hand_id", "room"]] == frame.dtypes[["hand_id", "room"]]).all()
    assert got.index.tolist() == frame.compute().index.tolist()
    assert (scored.dtypes == got.dtypes).all()  # (the meta is what comes)


@_DASKS_OWN
def test_score_dask_on_a_local_cluster(tmp_path: Path) -> None:
    import dask.dataframe as dd
    from distributed import Client

    from gongzhu_score.arrow import score_dask, score_table
    from gongzhu_score.batch.parquet import local_cluster

    path, table = _lake(tmp_path)
    with local_cluster(1) as cluster, Client(cluster):
        got = score_dask(dd.read_parquet(path), "classic", errors="column", lang="zh").compute()
    want = score_table(table, "classic", errors="column", lang="zh")
    assert _plain(got["players"].tolist()) == want.column("players").to_pylist()
    assert _plain(got["error"].tolist()) == want.column("error").to_pylist()


@_DASKS_OWN
def test_score_dask_refuses_before_anything_runs(tmp_path: Path) -> None:
    import dask.dataframe as dd

    from gongzhu_score import GongzhuError
    from gongzhu_score.arrow import score_dask
    from gongzhu_score.errors import ArgumentError, InputError

    path, _ = _lake(tmp_path)
    frame = dd.read_parquet(path)
    with pytest.raises(ArgumentError, match=r"^errors: "):
        score_dask(frame, errors="skip")
    with pytest.raises(InputError, match=r"^the table has a column 'error'"):
        score_dask(frame.rename(columns={"room": "error"}), errors="column")
    # errors="raise" (the default): the first bad row stops the computation, naming it
    with pytest.raises(GongzhuError, match=r"^row:5: player 东: QS \(Q♠\) captured twice$"):
        score_dask(frame).compute()


class _Awaited:
    """A stand-in for a Dask future: not done for ``waits`` looks, then ``outcome``."""

    def __init__(self, outcome: object, waits: int = 0) -> None:
        self.outcome, self.waits = outcome, waits

    def result(self, timeout: float) -> object:
        if self.waits:
            self.waits -= 1
            raise TimeoutError
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome

    def done(self) -> bool:
        return not self.waits


class _Cluster:
    def __init__(self, workers: list[int] | Exception) -> None:
        self.workers = workers

    def nthreads(self) -> dict[str, int]:
        if isinstance(self.workers, Exception):
            raise self.workers
        return {f"w{k}": 1 for k in self.workers}


def test_a_task_dask_gives_up_on_or_a_scheduler_gone_is_one_error() -> None:
    from gongzhu_score.batch.parquet import _outcome
    from gongzhu_score.errors import InputError

    class KilledWorker(Exception):  # (as Dask's, after a task's workers died too often)
        pass

    done = _Awaited((3, []))
    assert _outcome(_Cluster([1]), done, [done], "tcp://s:8786", 1) == (3, [])
    killed = _Awaited(KilledWorker("attempted to run task _part-1 on 4 different workers"))
    with pytest.raises(InputError) as caught:
        _outcome(_Cluster([1]), killed, [killed], "tcp://s:8786", 1)
    assert str(caught.value) == (
        "a Dask task on tcp://s:8786 failed: attempted to run task _part-1 on 4 different "
        "workers; nothing was written"
    )
    waiting = _Awaited((3, []), waits=5)
    with pytest.raises(InputError, match=r"^a Dask task on tcp://s:8786 failed: closed"):
        _outcome(_Cluster(OSError("closed")), waiting, [waiting], "tcp://s:8786", 1)
    # a worker that comes back in time: the wait goes on
    slow = _Awaited((7, []), waits=3)
    assert _outcome(_Cluster([1]), slow, [slow], "tcp://s:8786", 0.01) == (7, [])
