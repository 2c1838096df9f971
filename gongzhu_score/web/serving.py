"""Serving the page: a listening socket, addresses a phone types, a QR code.

Needs the ``[web]`` extra for the QR code (segno) and the server (uvicorn).
"""

from __future__ import annotations

import io
import socket

from ..errors import InputError
from ..terms import error

__all__ = ["LOOPBACK", "listen", "needs_web", "page_addresses", "qr_text"]

LOOPBACK = "127.0.0.1"
_EVERYWHERE = ("0.0.0.0", "::")


def needs_web() -> None:
    """Refuse, naming the extra, where Starlette, uvicorn or segno is missing."""
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise error(InputError, "error.extra.missing", extra="web") from None


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: any free port), or a refusal."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host, port), family=family, backlog=64)
    except (OSError, OverflowError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise error(InputError, "error.web.listen", host=host, port=port, why=why) from None
    sock.set_inheritable(True)
    return sock


def page_addresses(host: str, port: int, key: str) -> list[str]:
    """The page's addresses as a phone types them: ``http://HOST:PORT/?key=KEY``.

    Listening on every interface, there is one per address this machine has beside loopback (the
    first is the one the QR code holds), then the loopback one.
    """
    hosts = [host]
    if host in _EVERYWHERE:
        found: list[str] = []
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                address = str(info[4][0])
                if not address.startswith("127.") and address not in found:
                    found.append(address)
        except OSError:
            pass
        hosts = [*found, LOOPBACK]
    shown = (f"[{h}]" if ":" in h else h for h in hosts)
    return [f"http://{h}:{port}/?key={key}" for h in shown]


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
