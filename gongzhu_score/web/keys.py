"""The server's secret page key, in ``LEDGER.key`` beside the ledger (``FOLDER.key`` beside a
folder served), owner-only.

The page's address carries it (``http://HOST:PORT/?key=KEY``): whoever has the address (the QR
code at the table) can see and change the match, nobody else. It stays the same from one
``serve`` to the next, so the phones keep their bookmark, until it is replaced (``--new-key``),
which shuts out every address given before.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..io.files import open_regular, real_target, replace_file
from ..terms import Said, error, place

__all__ = ["KEY_PATTERN", "KeyPlan", "keep_key", "key_path", "plan_key"]

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


@dataclass(frozen=True)
class KeyPlan:
    """The key ``serve`` will use, read and checked, and what keeping it will change
    (:func:`keep_key`), nothing changed yet: a ``serve`` refused later changes nothing."""

    key: str
    path: Path
    new: bool
    """A new key, to write to ``path`` (owner-only, a link there replaced, not followed)."""
    loose: tuple[int, int, int] | None = None
    """A regular key file others may read (its device, inode and mode): made owner-only."""
    linked: Said | None = None
    """What to say of a link to a key file others may read: left as it is."""


def plan_key(ledger: str, *, new: bool = False) -> KeyPlan:
    """The key of ``ledger`` (or of a folder) that ``serve`` will use, changing nothing.

    A new one with ``new``, or when none is kept yet. A kept file that holds no key, or that is
    not a regular file (a pipe, a device), is refused, saying how to replace it.
    """
    path = key_path(ledger)
    if not new:
        try:
            linked = os.path.islink(path)
            with open_regular(path, key="error.web.key_special") as f:
                st = os.fstat(f.fileno())
                kept = f.read(MAX_KEY_BYTES + 1).decode("ascii", errors="replace").strip()
        except FileNotFoundError:
            kept = None
        except OSError as e:
            raise error(InputError, "error.web.key_file", why=e.strerror).within(
                str(path)
            ) from None
        if kept is not None:
            if not KEY_PATTERN.fullmatch(kept):
                raise error(InputError, "error.web.key_bad").within(str(path))
            mode = stat.S_IMODE(st.st_mode)
            if not mode & 0o077:
                return KeyPlan(kept, path, new=False)
            if linked:  # (a file elsewhere is never changed: said, and left as it is)
                said = place("warning.web.key_linked", file=str(path),
                             target=os.path.realpath(path), mode=f"{mode:04o}")  # fmt: skip
                return KeyPlan(kept, path, new=False, linked=said)
            return KeyPlan(kept, path, new=False, loose=(st.st_dev, st.st_ino, mode))
    if os.path.lexists(path) and not os.path.isfile(path):
        raise error(InputError, "error.web.key_special").within(str(path))
    if not path.parent.is_dir():
        raise error(InputError, "error.web.key_file", why=os.strerror(errno.ENOENT)).within(
            str(path)
        )
    return KeyPlan(secrets.token_urlsafe(18), path, new=True)


def keep_key(plan: KeyPlan) -> Said | None:
    """Keep the key ``plan`` says (the moment ``serve`` is sure to serve), and what to say.

    A new key is written atomically to an owner-only file (a link at its place is replaced, the
    file it pointed at left as it was). A regular key file others may read is made owner-only,
    and said: whoever read it has the key until ``--new-key``; never through a link, nor if the
    file was swapped since it was read.
    """
    try:
        if plan.new:
            replace_file(plan.path, plan.key.encode("ascii") + b"\n", mode=0o600)
            return None
        if plan.loose is None:
            return plan.linked
        device, inode, mode = plan.loose
        fd = os.open(plan.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0))  # fmt: skip
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (device, inode):
                return None  # (replaced since it was read: not the file whose key is used)
            os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
    except OSError as e:
        raise error(InputError, "error.web.key_file", why=e.strerror).within(
            str(plan.path)
        ) from None
    return place("warning.web.key_mode", file=str(plan.path), mode=f"{mode:04o}")
