"""Serving the page: a listening socket, addresses a phone types, a QR code.

Needs the ``[web]`` extra: psutil for the addresses, segno for the QR code, uvicorn the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ipaddress
import socket
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any
from urllib.parse import urlsplit

from ..errors import InputError
from ..terms import error, printable, say

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


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: any free port), or a refusal. On ``::`` it takes
    IPv4 as well where the system can (``socket.create_server`` alone would not)."""
    if not host.strip():  # (an unset variable: every interface, and an address nobody can type)
        raise error(InputError, "error.web.host_empty")
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host, port), family=family, backlog=64,
                                    dualstack_ipv6=_dual_stack(host))  # fmt: skip
    except (OSError, OverflowError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise error(InputError, "error.web.listen", host=host, port=port, why=why) from None
    sock.set_inheritable(True)
    return sock


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
"""How long a connection may take to send its first request's headers before it is closed: a
phone sends them at once, and idle half-open connections must not hold the server's files."""

MAX_CONNECTIONS = 400
"""Connections and requests served at once; past it uvicorn answers 503 (a table has four
phones, a hall of tables a few hundred)."""


def _more_files() -> None:
    """Raise this process's open-file limit to its hard limit, where the system allows: each
    phone's live feed holds a connection open."""
    try:
        import resource
    except ImportError:  # (Windows)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 1 << 16), hard))


class _Reporter:
    """The event loop's error handler while serving: one line, at most once a second, no
    traceback (a burst of failed accepts when file descriptors run out would write megabytes);
    how many were left unsaid goes with the next line."""

    def __init__(self, lang: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.lang, self.clock, self.last, self.unsaid = lang, clock, -1e9, 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        now = self.clock()
        if now - self.last < 1.0:
            self.unsaid += 1
            return
        self.last = now
        exc = context.get("exception")
        why = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc or "")) or ""
        what = printable(str(context.get("message", "")))
        line = say("serve.trouble", self.lang, what=what, why=printable(why))
        if self.unsaid:
            line += say("serve.trouble_more", self.lang, count=self.unsaid)
        self.unsaid = 0
        with contextlib.suppress(OSError, ValueError):
            print(line, file=sys.stderr, flush=True)


def _protocol() -> type:
    """uvicorn's HTTP/1.1 protocol (h11), closing a connection that sends no request headers
    within :data:`HEADER_SECONDS`: a header timeout, which uvicorn lacks."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderTimeout(H11Protocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._first = self.loop.call_later(HEADER_SECONDS, self._no_request)

        def _no_request(self) -> None:
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            self._first.cancel()
            super().connection_lost(exc)

    return HeaderTimeout


def serve(served: str, key: str, lang: str, sock: socket.socket, now: object) -> None:
    """Serve the page of ``served`` (a ledger or a folder) on ``sock`` with uvicorn until Ctrl-C
    (or SIGTERM). Stopping ends the live feeds first, so it is quiet: one line says it stopped."""
    import uvicorn

    from .app import create_app

    app = create_app(served, key, lang, now=now)  # type: ignore[arg-type]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=3, http=_protocol(), ws="none",
                            limit_concurrency=MAX_CONNECTIONS)  # fmt: skip
    reporter = _Reporter(lang)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            self.loop = asyncio.get_running_loop()
            self.loop.set_exception_handler(reporter)
            await super().startup(sockets)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            loop = getattr(self, "loop", None)
            if loop is not None:  # (from the signal handler: woken through the loop)
                loop.call_soon_threadsafe(app.close)

    _more_files()
    try:
        Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # (uvicorn raises the Ctrl-C again once it has stopped)
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            print(say("serve.stopped", lang), file=sys.stderr, flush=True)
