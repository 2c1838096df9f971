"""A real ``gongzhu-score serve`` for the page's tests: the installed command in its own process,
on a free port of loopback, and what it printed (the address with the key)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any
from urllib.parse import urlsplit

CHROMIUM = os.environ.get("GONGZHU_CHROMIUM", "/usr/bin/chromium")
"""The browser the page's browser tests launch (Debian's chromium; GONGZHU_CHROMIUM: another)."""
ADDRESS_WAIT = 30.0  # seconds: a cold start on a loaded machine imports Starlette and uvicorn


@dataclass
class Served:
    url: str
    """What serve printed: http://127.0.0.1:PORT/?key=KEY."""
    key: str
    base: str
    """http://127.0.0.1:PORT"""
    process: subprocess.Popen[str]

    def get(self, path: str, **query: str) -> tuple[int, Any]:
        return request(self.base, path, key=self.key, **query)

    def post(self, path: str, body: object, **query: str) -> tuple[int, Any]:
        return request(self.base, path, body, key=self.key, **query)


def request(
    base: str, path: str, body: object = None, raw: bytes | None = None, method: str | None = None,
    headers: Mapping[str, str] | None = None, **query: str,
) -> tuple[int, Any]:  # fmt: skip
    """The status and the answer (JSON decoded where it is JSON) of one request."""
    from urllib.parse import urlencode

    url = base + path + ("?" + urlencode(query) if query else "")
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None and "Content-Type" not in req.headers:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as answer:
            status, kind, content = (
                answer.status,
                answer.headers.get("Content-Type", ""),
                answer.read(),
            )
    except urllib.error.HTTPError as e:
        status, kind, content = e.code, e.headers.get("Content-Type", ""), e.read()
    if kind.startswith("application/json"):
        return status, json.loads(content)
    return status, content.decode("utf-8", errors="replace")


def command() -> list[str]:
    found = shutil.which("gongzhu-score", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "gongzhu_score"]


@contextlib.contextmanager
def serving(
    ledger: str, *args: str, env: Mapping[str, str] | None = None,
    program: list[str] | None = None, base_env: Mapping[str, str] | None = None,
    cwd: str | None = None, stderr: IO[str] | None = None,
) -> Iterator[Served]:  # fmt: skip
    """``gongzhu-score serve LEDGER --port 0 --no-qr ARGS`` running until the block ends.

    ``LEDGER`` may be a folder. ``env`` is added to ``base_env`` (default: this process's
    environment); ``program`` is the command to run (default: :func:`command`), started in
    ``cwd``; ``stderr``, a file for what it says there while it runs (default: a pipe, read only
    when it fails to start; a server that says much there needs a file).
    """
    process = subprocess.Popen(
        [*(program or command()), "serve", ledger, "--port", "0", "--no-qr", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE if stderr is None else stderr,
        text=True,
        env={**(os.environ if base_env is None else base_env), **(env or {})},
        cwd=cwd,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()  # (blocks until serve prints or exits)
        if not line.startswith("http://"):
            process.kill()
            _, err = process.communicate(timeout=ADDRESS_WAIT)
            raise AssertionError(f"serve printed {line!r}, stderr {err!r}")
        parts = urlsplit(line)
        key = parts.query.removeprefix("key=")
        yield Served(line, key, f"{parts.scheme}://{parts.netloc}", process)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()
