"""The server's secret page key, in ``LEDGER.key`` beside the ledger (``FOLDER.key`` beside a
folder served), owner-only.

The page's address carries it (``http://HOST:PORT/?key=KEY``): whoever has the address (the QR
code at the table) can see and change the match, nobody else. It stays the same from one
``serve`` to the next, so the phones keep their bookmark, until it is replaced (``--new-key``),
which shuts out every address given before.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from ..errors import InputError
from ..io.files import real_target, replace_file
from ..terms import error

__all__ = ["KEY_PATTERN", "key_path", "match_key"]

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a key looks like (URL-safe: it goes into the page's address as it is)."""


def key_path(ledger: str) -> Path:
    """Where the key of ``ledger`` (or of a folder) is kept: beside it, links followed."""
    if os.path.isdir(ledger):
        folder = Path(os.path.realpath(ledger))
        return folder.with_name(folder.name + ".key")
    target = real_target(ledger)
    return target.with_name(target.name + ".key")


def match_key(ledger: str, *, new: bool = False) -> str:
    """The match's key: the one kept, or a new one, kept for next time.

    A new one is made with ``new``, or when none is kept yet. A kept file that holds no key is
    refused, saying how to replace it.
    """
    path = key_path(ledger)
    if not new:
        try:
            kept = path.read_text("ascii", errors="replace").strip()
        except FileNotFoundError:
            kept = None
        except OSError as e:
            raise error(InputError, "error.web.key_file", why=e.strerror).within(
                str(path)
            ) from None
        if kept is not None:
            if not KEY_PATTERN.fullmatch(kept):
                raise error(InputError, "error.web.key_bad").within(str(path))
            return kept
    key = secrets.token_urlsafe(18)
    try:
        # Owner-only before the key is in it: the atomic write keeps the mode it finds.
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
        replace_file(path, key.encode("ascii") + b"\n")
    except OSError as e:
        raise error(InputError, "error.web.key_file", why=e.strerror).within(str(path)) from None
    return key
