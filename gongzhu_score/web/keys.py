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
import stat
from pathlib import Path

from ..errors import InputError
from ..io.files import open_regular, real_target, replace_file
from ..terms import Said, error, place

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


MAX_KEY_BYTES = 256
"""The most a key file is read of (a key is at most 64 characters)."""


def match_key(ledger: str, *, new: bool = False) -> tuple[str, Said | None]:
    """The match's key, the one kept or a new one kept for next time, and what was done to
    its file, if anything, to say.

    A new one is made with ``new``, or when none is kept yet. A kept file that holds no key, or
    that is not a regular file (a pipe, a device), is refused, saying how to replace it. One
    that others may read is made owner-only again, and said: whoever read it has the key until
    ``--new-key``.
    """
    path = key_path(ledger)
    if not new:
        try:
            with open_regular(path, key="error.web.key_special") as f:
                mode = stat.S_IMODE(os.fstat(f.fileno()).st_mode)
                kept = f.read(MAX_KEY_BYTES + 1).decode("ascii", errors="replace").strip()
            tightened = None
            if mode & 0o077:
                os.chmod(path, 0o600)
                tightened = place("warning.web.key_mode", file=str(path), mode=f"{mode:04o}")
        except FileNotFoundError:
            kept = None
        except OSError as e:
            raise error(InputError, "error.web.key_file", why=e.strerror).within(
                str(path)
            ) from None
        if kept is not None:
            if not KEY_PATTERN.fullmatch(kept):
                raise error(InputError, "error.web.key_bad").within(str(path))
            return kept, tightened
    key = secrets.token_urlsafe(18)
    try:
        # Owner-only before the key is in it: the atomic write keeps the mode it finds.
        if os.path.lexists(path) and not os.path.isfile(path):
            raise error(InputError, "error.web.key_special").within(str(path))
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK, 0o600))
        os.chmod(path, 0o600)
        replace_file(path, key.encode("ascii") + b"\n")
    except OSError as e:
        raise error(InputError, "error.web.key_file", why=e.strerror).within(str(path)) from None
    return key, None
