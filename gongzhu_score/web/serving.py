"""Serving the page: a listening socket, addresses a phone types, a QR code.

Needs the ``[web]`` extra: psutil for the addresses, segno for the QR code, uvicorn the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import ipaddress
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..errors import InputError
from ..terms import error, printable, say

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

__all__ = [
    "EVERYWHERE",
    "LOOPBACK",
    "listen",
    "needs_web",
    "off_loopback",
    "page_addresses",
    "qr_text",
]

LOOPBACK = "127.0.0.1"
LOOPBACK6 = "::1"
EVERYWHERE = ("0.0.0.0", "::")
"""The hosts that listen on every interface (``--host``)."""


def needs_web() -> None:
    """Refuse, naming the extra, where Starlette, uvicorn, segno or psutil is missing."""
    try:
        import psutil  # noqa: F401
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise error(InputError, "error.extra.missing", extra="web") from None


def _dual_stack(host: str) -> bool:
    """Whether ``host`` is ``::`` on a system whose IPv6 socket can take IPv4 too (Linux's,
    macOS's, Windows's): then it does, and the IPv4 addresses are the page's as well."""
    return host == "::" and socket.has_dualstack_ipv6()


QUEUED = 2048
"""Connections the system holds for ``serve`` until it accepts them."""


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: any free port), or a refusal. On ``::`` it takes
    IPv4 as well where the system can (``socket.create_server`` alone would not)."""
    if not host.strip():  # (an unset variable: every interface, and an address nobody can type)
        raise error(InputError, "error.web.host_empty")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        made = socket.create_server((host, port), family=family, backlog=QUEUED,
                                    dualstack_ipv6=_dual_stack(host))  # fmt: skip
    except (OSError, OverflowError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise error(InputError, "error.web.listen", host=host, port=port, why=why) from None
    sock = _Listening(made.family, made.type, made.proto, fileno=made.detach())
    sock.set_inheritable(True)
    return sock


class _Listening(socket.socket):
    """The listening socket, whose queue stays :data:`QUEUED` long however it is listened on
    again: the event loop listens again with the number of connections it accepts at a time
    (:data:`BACKLOG`, uvicorn's ``backlog``), and a short queue would drop a phone's connection
    (a second's wait for its retry) while a burst of others waits there."""

    def listen(self, backlog: int = 0) -> None:
        super().listen(max(backlog, QUEUED))


def _interface_addresses(ipv4: bool, ipv6: bool) -> list[str]:
    """This machine's addresses a phone on its network can reach, read from its interfaces (not
    from its host name, which Debian and Ubuntu resolve to 127.0.1.1): every IPv4 (``ipv4``) and
    IPv6 (``ipv6``) address of every interface that is up, IPv4 first, in the interfaces' order;
    never a loopback one, nor an IPv6 link-local one (``fe80::``: a phone cannot type its zone).
    psutil reads them: the standard library has no portable getifaddrs."""
    import psutil

    up = {name for name, stats in psutil.net_if_stats().items() if stats.isup}
    v4: list[str] = []
    v6: list[str] = []
    for name, entries in psutil.net_if_addrs().items():
        if name not in up:
            continue
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            text = str(entry.address).partition("%")[0]  # (a link-local one's zone: fe80::1%eth0)
            try:
                address = ipaddress.ip_address(text)
            except ValueError:
                continue
            if address.is_loopback or address.is_unspecified or address.is_multicast:
                continue
            if address.version == 4 and ipv4 and text not in v4:
                v4.append(text)
            elif address.version == 6 and ipv6 and not address.is_link_local and text not in v6:
                v6.append(text)
    return v4 + v6


def page_addresses(host: str, port: int, key: str) -> list[str]:
    """The page's addresses as a phone types them: ``http://HOST:PORT/?key=KEY``, loopback last.

    With a host of its own, that host only. Listening everywhere, one per address of this
    machine's interfaces that are up, beside loopback: ``0.0.0.0`` every IPv4 one, then
    ``127.0.0.1``; ``::`` the same IPv4 ones (its socket takes IPv4 too, :func:`listen`) and every
    IPv6 one but the link-local ones, then ``[::1]``. Only the loopback one, where the machine is
    on no network.

    >>> page_addresses("192.168.1.23", 8000, "k")
    ['http://192.168.1.23:8000/?key=k']
    >>> page_addresses("::1", 8000, "k")
    ['http://[::1]:8000/?key=k']
    """
    hosts = [host]
    if host == "0.0.0.0":
        hosts = [*_interface_addresses(ipv4=True, ipv6=False), LOOPBACK]
    elif host == "::":
        hosts = [*_interface_addresses(ipv4=_dual_stack(host), ipv6=True), LOOPBACK6]
    shown = (f"[{h}]" if ":" in h else h for h in hosts)
    return [f"http://{h}:{port}/?key={key}" for h in shown]


def off_loopback(addresses: list[str]) -> list[str]:
    """The page's addresses a phone can open: those not on loopback.

    >>> off_loopback(["http://10.0.0.5:80/?key=k", "http://127.0.0.1:80/?key=k"])
    ['http://10.0.0.5:80/?key=k']
    >>> off_loopback(["http://[::1]:80/?key=k", "http://localhost:80/?key=k"])
    []
    """
    kept = []
    for url in addresses:
        host = urlsplit(url).hostname or ""
        try:
            loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
        if not loopback:
            kept.append(url)
    return kept


def qr_text(url: str) -> str:
    """``url`` as a QR code of block characters, for a phone at the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


HEADER_SECONDS = 10.0
"""How long a connection may wait without a request being served before it is closed (its
first request's headers never finished, or nothing sent since its last answer): a phone sends
its request at once, and idle or half-sent connections must not hold the server's files."""

MAX_REQUESTS = 400
"""Requests served at once (live feeds among them); past it a request is answered 503 (a
table has four phones, a hall of tables a few hundred). Connections that have sent no whole
request are not requests: they never count here."""

BACKLOG = 16
"""Connections the event loop accepts at a time: each is an open file before the door sees it
(:data:`RESERVED_FILES` holds them), so it is far below uvicorn's 2,048."""

RESERVED_FILES = 160
"""Open files kept for everything but connections (the ledgers, their locks and histories,
read and written by the worker threads; the listening socket; the streams; connections
accepted and not yet seen by the door, or shed and not yet closed), at most half the limit:
connections are capped below the open-file limit by this much."""


def _open_files() -> int:
    """This process's open-file limit, raised to its hard limit where the system allows (each
    phone's live feed holds a connection open); 1024 where it cannot be read."""
    try:
        import resource
    except ImportError:  # (Windows)
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1 << 16), hard))
            soft = min(hard, 1 << 16)
    return 1024 if soft == resource.RLIM_INFINITY else int(soft)


class _Limited:
    """One line on standard error at most once a second, no traceback (a burst of failed
    accepts when file descriptors run out, or of malformed requests, would write megabytes);
    how many were left unsaid goes with the next line."""

    def __init__(self, lang: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.lang, self.clock, self.last, self.unsaid = lang, clock, -1e9, 0
        self.lock = threading.Lock()

    def say(self, what: str, why: str) -> None:
        with self.lock:
            now = self.clock()
            if now - self.last < 1.0:
                self.unsaid += 1
                return
            self.last = now
            line = say("serve.trouble", self.lang, what=printable(what), why=printable(why))
            if self.unsaid:
                line += say("serve.trouble_more", self.lang, count=self.unsaid)
            self.unsaid = 0
        with contextlib.suppress(OSError, ValueError):
            print(line, file=sys.stderr, flush=True)

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's error handler while serving."""
        exc = context.get("exception")
        why = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc or "")) or ""
        self.say(str(context.get("message", "")), why)

    def handler(self) -> logging.Handler:
        """uvicorn's log (its ``log_config``), said the same way: its message, no traceback."""
        limited = self

        class Said(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                with contextlib.suppress(Exception):
                    limited.say(record.getMessage(), record.levelname.lower())

        return Said()


_SERVING: contextvars.ContextVar[_Connection | None] = contextvars.ContextVar(
    "gongzhu_connection", default=None
)
"""The connection whose bytes are being read: the request uvicorn starts from them runs in a
task that keeps it, so the door knows which connection a request is on."""


class _Connection(asyncio.Protocol):
    """One connection: uvicorn's own HTTP/1.1 protocol inside it, every call passed on (given
    to uvicorn through its ``http`` option, a protocol factory), and what the door needs to
    know: whether a request of it is being served, and since when it has waited for one."""

    def __init__(self, door: _Door, inner: asyncio.Protocol) -> None:
        self.door, self.inner = door, inner
        self.transport: asyncio.BaseTransport | None = None
        self.serving = 0
        self.timer: asyncio.TimerHandle | None = None
        self.shed = False
        """Closed by the door to make room: it counts for nothing any more."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.door.opened(self)
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        token = _SERVING.set(self)
        try:
            self.inner.data_received(data)
        finally:
            _SERVING.reset(token)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.closed(self)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()


class _Door:
    """Who gets in: a phone that sends its request is served however many idle or half-sent
    connections are open. Connections waiting for a request are closed after
    :data:`HEADER_SECONDS`; at most ``most_open`` are open (planned below the open-file limit,
    :data:`RESERVED_FILES`), and past it the one that has waited longest for a request is
    closed first, so those never fill the cap; at most ``most_requests`` requests are served at
    once (503 past it), counted when their headers are whole (an ASGI call)."""

    def __init__(self, app: Any, most_open: int, most_requests: int) -> None:
        self.app, self.most_open, self.most_requests = app, most_open, most_requests
        self.waiting: dict[_Connection, None] = {}
        """The open connections no request of which is being served, the longest waiting
        first."""
        self.open = 0
        self.requests = 0

    @classmethod
    def planned(cls, app: Any, files: int) -> _Door:
        """The door for a process allowed ``files`` open files."""
        most_open = max(16, files - min(RESERVED_FILES, files // 2))
        return cls(app, most_open, min(MAX_REQUESTS, most_open // 2))

    def protocol(self, inner: Callable[..., asyncio.Protocol]) -> type[asyncio.Protocol]:
        """A protocol class for uvicorn's ``http`` option: uvicorn's own ``inner`` (made with
        the arguments uvicorn gives, whatever they are), each connection watched by the door."""
        door = self

        class Watched(_Connection):
            def __init__(self, **kwargs: Any) -> None:
                super().__init__(door, inner(**kwargs))

        return Watched

    def opened(self, connection: _Connection) -> None:
        self.open += 1
        self._wait(connection)
        while self.open > self.most_open and self.waiting:
            oldest = next(iter(self.waiting))
            self._done_waiting(oldest)
            oldest.shed = True  # (its connection_lost comes later: not counted again then)
            oldest.close()
            self.open -= 1

    def closed(self, connection: _Connection) -> None:
        self._done_waiting(connection)
        if not connection.shed:
            self.open -= 1

    def _wait(self, connection: _Connection) -> None:
        self.waiting[connection] = None
        loop = asyncio.get_running_loop()
        connection.timer = loop.call_later(HEADER_SECONDS, self._too_long, connection)

    def _done_waiting(self, connection: _Connection) -> None:
        self.waiting.pop(connection, None)
        if connection.timer is not None:
            connection.timer.cancel()
            connection.timer = None

    def _too_long(self, connection: _Connection) -> None:
        if connection in self.waiting and connection.serving == 0:
            connection.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app, behind the door: each request counted while it is served."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.requests >= self.most_requests:
            await _busy(scope, receive, send)
            return
        connection = _SERVING.get()
        if connection is not None and not connection.shed:
            connection.serving += 1
            self._done_waiting(connection)
        self.requests += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.requests -= 1
            if connection is not None and not connection.shed:
                connection.serving -= 1
                transport = connection.transport
                if connection.serving == 0 and transport is not None and not transport.is_closing():
                    self._wait(connection)


async def _busy(scope: Scope, receive: Receive, send: Send) -> None:
    """503: more requests are being served than the door lets in."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": b"Service Unavailable"})


def serve(served: str, key: str, lang: str, sock: socket.socket, now: object) -> None:
    """Serve the page of ``served`` (a ledger or a folder) on ``sock`` with uvicorn until Ctrl-C
    (or SIGTERM). Stopping ends the live feeds first, so it is quiet: one line says it stopped.

    Only uvicorn's public parts: its ``Config`` options (the h11 protocol, given through the
    ``http`` option inside :class:`_Connection`; the log, through ``log_config``) and
    ``Server.run``; the app is told the server is stopping by ``Server.should_exit``."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from .app import create_app

    said = _Limited(lang)
    server: list[uvicorn.Server] = []
    app = create_app(served, key, lang, now=now,  # type: ignore[arg-type]
                     stopping=lambda: bool(server) and server[0].should_exit,
                     loop_error=said.loop_error)  # fmt: skip
    door = _Door.planned(app, _open_files())
    logs = {"version": 1, "disable_existing_loggers": False,
            "handlers": {"said": {"()": said.handler}},
            "loggers": {name: {"handlers": ["said"], "level": "WARNING", "propagate": False}
                        for name in ("uvicorn", "uvicorn.error", "uvicorn.access")}}  # fmt: skip
    # (backlog: how many connections the loop accepts at a time, each an open file before the
    # door sees it; uvicorn's 2,048 would take more than the reserve holds at once)
    config = uvicorn.Config(door, log_config=logs, log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=3, backlog=BACKLOG,
                            http=door.protocol(H11Protocol), ws="none")  # fmt: skip
    server.append(uvicorn.Server(config))
    try:
        server[0].run(sockets=[sock])
    except KeyboardInterrupt:  # (uvicorn raises the Ctrl-C again once it has stopped)
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            print(say("serve.stopped", lang), file=sys.stderr, flush=True)
