"""Serving the page: a listening socket, addresses a phone types, a QR code.

Needs the ``[web]`` extra: psutil for the addresses, segno for the QR code, uvicorn the server.
"""

from __future__ import annotations

import io
import ipaddress
import socket
from urllib.parse import urlsplit

from ..errors import InputError
from ..terms import error

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


def serve(ledger_file: str, key: str, lang: str, sock: socket.socket, now: object) -> None:
    """Serve the match's page on ``sock`` with uvicorn until Ctrl-C."""
    import uvicorn

    from .app import create_app

    app = create_app(ledger_file, key, lang, now=now)  # type: ignore[arg-type]
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1)  # fmt: skip
    uvicorn.Server(config).run(sockets=[sock])
