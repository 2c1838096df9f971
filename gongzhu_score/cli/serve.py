"""``gongzhu-score serve``: the match on every player's phone (the table's page, :mod:`..web`).

Needs the ``[web]`` extra (Starlette, uvicorn, segno), imported only when the command runs.
"""

from __future__ import annotations

import io
import socket
import sys
from typing import Annotated

import typer

from ..errors import InputError
from ..terms import error, say
from .clock import entry_time
from .common import Lang, LangOpt
from .complete import complete_ledger
from .current import LEDGER_VARIABLE, current_ledger

__all__ = ["page_addresses", "qr_text", "serve_command"]

LOOPBACK = "127.0.0.1"
_EVERYWHERE = ("0.0.0.0", "::")


def _needs_web() -> None:
    try:
        import segno  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise error(InputError, "error.extra.missing", extra="web") from None


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (0: a free port), or a refusal saying why."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host, port), family=family, backlog=64)
    except (OSError, OverflowError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        raise error(InputError, "error.web.listen", host=host, port=port, why=why) from None
    sock.set_inheritable(True)
    return sock


def page_addresses(host: str, port: int, key: str) -> list[str]:
    """The page's address as a phone at the table types it: ``http://HOST:PORT/?key=KEY``;
    listening on every interface, one per address this machine has beside loopback (the
    first is the one the QR code holds), then the loopback one."""
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
    """``url`` as a QR code drawn with block characters, for a phone's camera at the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def serve_command(
    ledger_file: Annotated[
        str | None,
        typer.Argument(
            metavar="[LEDGER]",
            envvar=LEDGER_VARIABLE,
            show_envvar=False,
            show_default=False,
            help="The match's ledger file. Left out: the match GONGZHU_MATCH names, else the "
            "one last started or changed in this folder (said on stderr).",
            autocompletion=complete_ledger,
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            metavar="ADDR",
            help="The address to listen on: 127.0.0.1 (this machine only) by default; 0.0.0.0 "
            "for every phone on the network (anyone there with the address can change the "
            "match).",
        ),
    ] = LOOPBACK,
    port: Annotated[
        int,
        typer.Option(
            "--port",
            metavar="N",
            min=0,
            max=65535,
            help="The port (0: any free one, said in the address).",
        ),
    ] = 8000,
    new_key: Annotated[
        bool,
        typer.Option(
            "--new-key",
            help="Make a new key for the match's page: every address given before stops "
            "working (the key is kept beside the ledger, in LEDGER.key).",
        ),
    ] = False,
    qr: Annotated[
        bool,
        typer.Option("--qr/--no-qr", help="Draw the address as a QR code too."),
    ] = True,
    lang: LangOpt = Lang.en,
) -> None:
    """Serve the match's page to the table: standings, hands, explanations, entry by tapping.

    Prints the page's address with the match's secret key, and a QR code of it for the
    phones' cameras. Every phone with the address sees the same match, live; a hand entered
    on one (or with match add on the same ledger) shows on all within a second. Without the
    key every request is refused. Ctrl-C stops the server; the ledger is never left half
    written.

    Listens on this machine only unless --host says otherwise: with --host 0.0.0.0 anyone on
    the network who has the address can change the match (see docs/web.md).

    Needs the web extra: pip install 'gongzhu-score[web]'.

    \b
    Examples:
      gongzhu-score serve tonight.yaml --lang zh
      gongzhu-score serve 牌局.yaml --host 0.0.0.0 --port 8080 --lang zh
      gongzhu-score serve tonight.yaml --new-key
    """
    _needs_web()
    if ledger_file is None:
        ledger_file = current_ledger("serve", lang.value)
    from ..match.storage import read_version
    from ..web.keys import match_key

    read_version(ledger_file)  # (a ledger that cannot be read is said before anything starts)
    key = match_key(ledger_file, new=new_key)
    sock = _listen(host, port)
    addresses = page_addresses(host, sock.getsockname()[1], key)
    for address in addresses:
        typer.echo(address)
    if qr:
        typer.echo(qr_text(addresses[0]), nl=False)
    typer.echo(say("serve.running", lang.value, ledger=ledger_file))
    sys.stdout.flush()
    _run(ledger_file, key, lang.value, sock)


def _run(ledger_file: str, key: str, lang: str, sock: socket.socket) -> None:
    import uvicorn

    from ..web.app import create_app

    app = create_app(ledger_file, key, lang, now=entry_time)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1)  # fmt: skip
    uvicorn.Server(config).run(sockets=[sock])
