"""``gongzhu-score serve``: the match on every player's phone (the table's page, :mod:`..web`).

Needs the ``[web]`` extra (Starlette, uvicorn, segno), imported only when the command runs.
"""

from __future__ import annotations

import os
import sys

import typer

from ..terms import say
from .boundary import HelpOpt
from .clock import entry_time
from .current import current_ledger, notice
from .options import (
    HostOpt,
    LangOpt,
    NewKeyOpt,
    PortOpt,
    QrOpt,
    ServedLedgerArg,
    language,
)

__all__ = ["serve_command"]


def serve_command(
    ledger_file: ServedLedgerArg = None,
    host: HostOpt = "127.0.0.1",
    port: PortOpt = 8000,
    new_key: NewKeyOpt = False,
    qr: QrOpt = True,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Serve the matches' page to the table: standings, hands, explanations, entry by tapping.

    Given a folder, it serves every match in it, and the phones can start new ones there (再来一盘),
    under one key, so a bookmark outlives the evening's matches. Prints the page's address with
    the secret key, and a QR code of it for the phones' cameras. Every phone with the address
    sees the same match, live; a hand entered on one (or with match add on the same ledger)
    shows on all within a second. Without the key every request is refused. Ctrl-C stops the
    server; a ledger is never left half written.

    Listens on this machine only unless --host says otherwise: with --host 0.0.0.0 anyone on
    the network who has the address can change the match (see docs/web.md).

    Needs the web extra: pip install 'gongzhu-score[web]'.

    Examples:
      gongzhu-score serve club/ --host 0.0.0.0 --lang zh
      gongzhu-score serve tonight.yaml --lang zh
      gongzhu-score serve 牌局.yaml --host 0.0.0.0 --port 8080 --lang zh
      gongzhu-score serve tonight.yaml --new-key
    """
    from ..match.storage import read_version
    from ..web.keys import keep_key, plan_key
    from ..web.serving import listen, needs_web, page_addresses, qr_text, serve

    needs_web()
    lang = language(lang_asked)
    if ledger_file is None:
        ledger_file = current_ledger("serve", lang)
    if not os.path.isdir(ledger_file):
        read_version(ledger_file)  # (a ledger that cannot be read is said before anything starts)
    # The key read and checked, and the port taken, before anything is changed: a refused serve
    # changes nothing (a key kept, or its file made owner-only, only once it will serve).
    plan = plan_key(ledger_file, new=new_key)
    sock = listen(host, port)
    said = keep_key(plan)
    notice([said] if said is not None else [], lang)
    addresses = page_addresses(host, sock.getsockname()[1], plan.key)
    from ..web.serving import EVERYWHERE, off_loopback

    reachable = off_loopback(addresses)
    for address in addresses:
        typer.echo(address)
    if host in EVERYWHERE and not reachable:
        typer.echo(say("serve.no_network", lang), err=True)
    if qr:  # (a code for each address a phone can open; the loopback one only when it is alone)
        for address in reachable or addresses:
            typer.echo(qr_text(address), nl=False)
    typer.echo(say("serve.running", lang, ledger=ledger_file))
    sys.stdout.flush()
    serve(ledger_file, plan.key, lang, sock, entry_time)
