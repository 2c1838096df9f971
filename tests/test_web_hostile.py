"""A real ``gongzhu-score serve`` at the moments that used to print tracebacks or answer 500.

Ctrl-C with phones on the live feed, a phone gone mid-upload, malformed requests of every kind
(any bytes as a query or a body: a 2xx or a 4xx, never a 500), a burst of live feeds past the
cap, the ledger briefly a pipe or a link to ``/dev/zero`` under the watcher, idle half-open
connections past the open-file limit, and the key file and ``--host`` values serve must refuse.
Each in its own server process, as a table meets it.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import Served, command, request, serving

PLAYERS = "东,南,西,北"
ENTRY = {"captured": {"东": ["QS"], "南": ["AH", "KH"]}, "rest": "西", "exposed": {"东": ["QS"]}}


def cli(*args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=timeout)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "tonight.yaml"
    cli("match", "new", str(path), "--players", PLAYERS)
    return path


def raw_http(base: str, data: bytes, timeout: float = 10) -> bytes:
    """Send ``data`` as it is on a new connection; what came back until the server closed."""
    host, port = base.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(data)
        got = b""
        while True:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            got += chunk
    return got


def status_of(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.1 "), answer[:200]
    return int(answer.split(b" ", 2)[1])


def open_feed(served: Served) -> socket.socket:
    """A live feed opened, its first event read (it is counted and streaming)."""
    host, port = served.base.removeprefix("http://").rsplit(":", 1)
    s = socket.create_connection((host, int(port)), timeout=10)
    s.sendall(f"GET /api/events?key={served.key} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    first = s.recv(4096)
    assert first.startswith(b"HTTP/1.1 200"), first
    return s


def stopped(served: Served, err: IO[str]) -> str:
    """Ctrl-C the server; what it said on standard error all along."""
    served.process.send_signal(signal.SIGINT)
    served.process.wait(timeout=15)
    err.seek(0)
    return err.read()


def test_ctrl_c_with_phones_on_the_live_feed_stops_quietly_in_one_line(ledger: Path) -> None:
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
        serving(str(ledger), "--lang", "en", stderr=err) as served,
    ):
        feeds = [open_feed(served) for _ in range(4)]
        started = time.monotonic()
        said = stopped(served, err)
        took = time.monotonic() - started
        for feed in feeds:  # each phone's stream was ended by the server, not cut
            feed.settimeout(5)
            rest = b""
            while chunk := feed.recv(4096):
                rest += chunk
            assert rest.endswith(b"0\r\n\r\n"), rest[-50:]  # the chunked stream's end
            feed.close()
    assert said.splitlines() == ["stopped serving; every ledger is as it was last written"]
    assert served.process.returncode == 0
    assert took < 5, took  # (the feeds end at once: no waiting out a graceful-shutdown timeout)


def test_phones_gone_mid_upload_are_nothing_to_report(ledger: Path) -> None:
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
        serving(str(ledger), "--lang", "en", stderr=err) as served,
    ):
        host, port = served.base.removeprefix("http://").rsplit(":", 1)
        for _ in range(5):
            with socket.create_connection((host, int(port)), timeout=5) as s:
                s.sendall(
                    f"POST /api/hands?key={served.key} HTTP/1.1\r\nHost: x\r\n"
                    "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                    '{"version": '.encode()
                )
                time.sleep(0.05)
        time.sleep(0.5)
        assert served.get("/api/state")[0] == 200  # (still serving)
        said = stopped(served, err)
    assert "Traceback" not in said and "ClientDisconnect" not in said, said
    assert said.splitlines() == ["stopped serving; every ledger is as it was last written"]


def test_malformed_requests_get_a_4xx_and_their_json_error(ledger: Path) -> None:
    before = ledger.read_bytes()
    with serving(str(ledger), "--lang", "en") as served:
        base, key = served.base, served.key
        v = served.get("/api/state")[1]["version"]
        nested = b'{"version": "' + v.encode() + b'", "entry": ' + b"[" * 30_000 + b"]" * 30_000
        twice = f'{{"version": "{v}", "entry": {{"rest": "西"}}, "entry": {json.dumps(ENTRY)}}}'
        cases = {
            "non-ASCII query, no key": (request(base, "/api/state", x="é"), 401),
            "non-ASCII query, key": (request(base, "/api/state", key=key, x="é"), 200),
            "a language in Chinese": (request(base, "/api/state", key=key, lang="中"), 400),
            "a page, Chinese language": (request(base, "/", lang="中"), 401),
            "nested 30,000 deep": (request(base, "/api/hands", raw=nested + b"}", key=key), 400),
            "a 5,000-digit hand": (request(base, "/api/hands/" + "7" * 5000, key=key), 404),
            "a 5,000-digit number": (
                request(base, "/api/hands", raw=b'{"version": ' + b"9" * 5000 + b"}", key=key),
                400,
            ),
            "a key given twice": (request(base, "/api/hands", raw=twice.encode(), key=key), 400),
            "NaN": (request(base, "/api/hands", raw=b'{"version": NaN}', key=key), 400),
        }
        for name, ((status, answer), expected) in cases.items():
            assert status == expected, (name, status, answer)
            if status >= 400 and "page" not in name:
                assert isinstance(answer, dict) and answer["error"], (name, answer)
        assert "'entry' given twice" in cases["a key given twice"][0][1]["error"]
        assert "5,000" not in cases["a 5,000-digit number"][0][1]["error"]
    assert ledger.read_bytes() == before


def test_a_stale_change_while_the_ledger_is_damaged_is_a_4xx(ledger: Path) -> None:
    with serving(str(ledger), "--lang", "en") as served:
        stale = served.get("/api/state")[1]["version"]
        ledger.write_text("format: 1\nplayers: [\n", encoding="utf-8")  # changed, and damaged
        status, answer = served.post("/api/hands", {"version": stale, "entry": ENTRY})
        assert status == 422, (status, answer)
        assert str(ledger) in answer["error"] or "tonight.yaml" in answer["error"]


def test_the_live_feed_cap_is_exact_under_a_burst(ledger: Path) -> None:
    with serving(str(ledger)) as served:
        host, port = served.base.removeprefix("http://").rsplit(":", 1)
        ask = f"GET /api/events?key={served.key} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        burst = [socket.create_connection((host, int(port)), timeout=15) for _ in range(100)]
        go = threading.Barrier(len(burst))
        statuses: list[int] = []

        def one(s: socket.socket) -> None:
            go.wait()
            s.sendall(ask)
            statuses.append(status_of(s.recv(4096)))

        threads = [threading.Thread(target=one, args=(s,)) for s in burst]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(set(statuses)) == [200, 503] and len(statuses) == 100
        assert statuses.count(200) == 64, statuses.count(200)
        for s in burst:
            s.close()
        deadline = time.monotonic() + 10  # the places come back as the phones leave
        while time.monotonic() < deadline:
            try:
                open_feed(served).close()
                break
            except AssertionError:
                time.sleep(0.2)
        else:
            pytest.fail("no live feed after the burst left")


@pytest.mark.parametrize("what", ["fifo", "dev-zero"])
def test_the_watcher_passes_over_a_ledger_briefly_a_pipe_or_a_device(
    ledger: Path, what: str
) -> None:
    with serving(str(ledger)) as served:
        feed = open_feed(served)
        kept = ledger.with_name("kept.yaml")
        os.rename(ledger, kept)
        if what == "fifo":
            os.mkfifo(ledger)
        else:
            os.symlink("/dev/zero", ledger)
        time.sleep(1.0)  # (five looks of the watcher)
        os.unlink(ledger)
        os.rename(kept, ledger)
        cli("match", "add", str(ledger), "-c", "东=QS", "-c", "南=", "-c", "北=", "--rest", "西")
        feed.settimeout(5)
        heard = b""
        deadline = time.monotonic() + 5
        while b"event: version" not in heard and time.monotonic() < deadline:
            heard += feed.recv(4096)
        assert b"event: version" in heard  # the live feed lives on
        feed.close()
        assert len(served.get("/api/state")[1]["match"]["hands"]) == 1


def serve_once(ledger: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), "serve", str(ledger), "--port", "0", "--no-qr", *args],
                          capture_output=True, text=True, timeout=30)  # fmt: skip


@pytest.mark.parametrize("what", ["fifo", "dev-zero"])
def test_a_key_file_that_is_a_pipe_or_a_device_is_refused_at_once(ledger: Path, what: str) -> None:
    key = ledger.with_name("tonight.yaml.key")
    if what == "fifo":
        os.mkfifo(key)
    else:
        os.symlink("/dev/zero", key)
    for args in ((), ("--new-key",)):
        done = serve_once(ledger, *args)
        assert done.returncode == 2, done
        assert done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
        assert "tonight.yaml.key" in done.stderr and "not a regular file" in done.stderr
        assert done.stdout == ""


def test_a_key_file_others_can_read_is_made_owner_only_and_said(ledger: Path) -> None:
    with serving(str(ledger)) as first:
        pass
    key = ledger.with_name("tonight.yaml.key")
    key.chmod(0o644)
    with (
        tempfile.TemporaryFile("w+", encoding="utf-8") as err,
        serving(str(ledger), "--lang", "en", stderr=err) as again,
    ):
        assert again.key == first.key
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        said = stopped(again, err)
    assert said.splitlines()[0] == (
        f"warning: the page's key file {key} could be read by others (mode 0644); it is "
        "owner-only (0600) now. Whoever read it has the key: --new-key replaces it"
    )


def test_an_empty_host_is_refused(ledger: Path) -> None:
    done = serve_once(ledger, "--host", "")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: --host is empty")
    assert len(done.stderr.splitlines()) == 1


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


def test_idle_half_open_connections_past_the_file_limit_are_shed(ledger: Path) -> None:
    """300 connections that never send a request, against 256 open files: the server says so
    at most once a second, sheds them after its header timeout, and a phone with the key gets
    in meanwhile."""
    from gongzhu_score.web.serving import HEADER_SECONDS

    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        process = subprocess.Popen(
            [*command(), "serve", str(ledger), "--port", "0", "--no-qr", "--lang", "en"],
            stdout=subprocess.PIPE, stderr=err, text=True, preexec_fn=_few_files,
        )  # fmt: skip
        try:
            assert process.stdout is not None
            url = process.stdout.readline().strip()
            base, key = url.split("/?key=")
            host, port = base.removeprefix("http://").rsplit(":", 1)
            idle = []
            for _ in range(300):
                try:
                    idle.append(socket.create_connection((host, int(port)), timeout=2))
                except OSError:
                    break
            started = time.monotonic()
            status, _ = request(base, "/api/state", key=key)
            took = time.monotonic() - started
            assert status == 200
            assert took < HEADER_SECONDS + 5, took
            time.sleep(1)
            err.seek(0)
            said = err.read()
            assert "Traceback" not in said
            lines = said.splitlines()
            assert len(lines) <= took + 3, lines  # (a line a second at most)
            assert all(line.startswith("serve: ") for line in lines), lines
            for s in idle:
                s.close()
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=15)
            assert process.stdout is not None
            process.stdout.close()


# --- any bytes: never a 500 ------------------------------------------------------------------

_PATHS = ["/", "/api/state", "/api/hands", "/api/hands/1", "/api/preview", "/api/matches",
          "/api/undo", "/api/rename", "/api/hands/1/edit", "/manifest.webmanifest"]  # fmt: skip


@pytest.fixture(scope="module")
def one_server(tmp_path_factory: pytest.TempPathFactory) -> Served:
    path = tmp_path_factory.mktemp("any") / "any.yaml"
    cli("match", "new", str(path), "--players", PLAYERS)
    with serving(str(path)) as s:
        yield s


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    path=st.sampled_from(_PATHS),
    query=st.binary(max_size=60),
    body=st.one_of(st.none(), st.binary(max_size=200)),
    keyed=st.booleans(),
)
def test_any_bytes_as_a_query_or_a_body_get_a_2xx_or_a_4xx(
    one_server: Served, path: str, query: bytes, body: bytes | None, keyed: bool
) -> None:
    from urllib.parse import quote_from_bytes

    q = quote_from_bytes(query, safe="=&")
    if keyed:
        q = f"key={one_server.key}&{q}"
    head = f"{'GET' if body is None else 'POST'} {path}?{q} HTTP/1.1\r\nHost: x\r\n"
    if body is not None:
        head += f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\n"
    head += "Connection: close\r\n\r\n"
    answer = raw_http(one_server.base, head.encode("ascii") + (body or b""))
    status = status_of(answer)
    assert 200 <= status < 500, (status, answer[:300])
    if status >= 400 and b"application/json" in answer.split(b"\r\n\r\n")[0]:
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]


if __name__ == "__main__":  # (for a look by hand)
    sys.exit(pytest.main([__file__, "-q"]))
