"""Writing files so that a refused or failed write changes nothing.

A file is written whole to a temporary file beside it, flushed to disk, given the mode the old
file had, and renamed over it: a kill, a full disk or a refused permission leaves the old file
or the new one, never a torn one. A path that is a symbolic link is written through to the
file it points at (the link stays a link), so two names of one ledger share one file and one
lock. What cannot be written to (a folder, a device, a missing folder, an empty name) is
refused before anything is written. Temporary files are removed on every way out that Python
sees (errors, Ctrl-C, and SIGTERM, which the command line turns into an exit); after a SIGKILL
one may stay behind, named ``.NAME.*.tmp``: nothing here ever reads such a file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Final

from ..errors import GongzhuError, InputError
from ..terms import error

__all__ = [
    "NotRegularError",
    "atomic_write",
    "files_below",
    "fsync_folder",
    "open_lock",
    "open_regular",
    "real_target",
    "refuse_dash",
    "refuse_special",
    "replace_file",
    "replaced",
    "unchanged_unless_written",
    "write_temp",
]


def refuse_dash(path: str, kind: type[GongzhuError] = InputError) -> None:
    """Refuse ``-`` as the name of a file to make: everywhere else it stands for standard input
    or output, so a file named ``-`` could not be read back by that name (``./-`` can)."""
    if path == "-":
        raise error(kind, "error.write.dash")


def real_target(path: str, kind: type[GongzhuError] = InputError) -> Path:
    """The file ``path`` names, symbolic links followed. It is refused (as ``kind``) if it
    cannot be replaced.

    That is an empty name, a folder, a device or a pipe, or a file in a folder that does not
    exist.
    """
    if not path:
        raise error(kind, "error.write.empty")
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise error(kind, "error.storage.no_folder", folder=target.parent).within(
                path
            ) from None
        return target
    except OSError as e:
        raise error(kind, "error.file.unreadable", why=e.strerror).within(path) from None
    if stat.S_ISDIR(mode):
        raise error(kind, "error.write.folder").within(path)
    if not stat.S_ISREG(mode):
        raise error(kind, "error.write.special").within(path)
    return target


def refuse_special(path: str, kind: type[GongzhuError] = InputError) -> None:
    """Refuse a path that is neither a file nor a folder, before opening it. No path at all is
    refused too.

    A pipe would block the read forever and a device never end it; ``""`` the system reads as
    the current folder. A missing path passes: opening it says so.
    """
    if not path:
        raise error(kind, "error.write.empty")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise error(kind, "error.read.special").within(path)


def open_regular(
    path: str | Path,
    kind: type[GongzhuError] = InputError,
    key: str = "error.read.special",
    append: bool = False,
) -> IO[bytes]:
    """``path`` opened to read (or, with ``append``, to append to, created if missing), in
    binary, once it is known to be a regular file.

    It is opened without blocking and then looked at, so a pipe, a device or a socket (or a link
    to one, such as ``/dev/zero``) is refused as ``kind`` with ``key`` instead of hanging the
    command or reading for ever; nothing can swap the file between the look and the read. A
    folder raises :class:`IsADirectoryError`, and the system's other refusals their
    :class:`OSError`, for the caller to name.
    """
    flags = os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    flags |= (os.O_WRONLY | os.O_APPEND | os.O_CREAT) if append else os.O_RDONLY
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as e:
        if e.errno in (errno.ENXIO, errno.EOPNOTSUPP):  # (a pipe nobody reads, a socket)
            raise error(kind, key).within(str(path)) from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise error(kind, key).within(str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "ab" if append else "rb")
    except BaseException:
        os.close(fd)
        raise


class NotRegularError(OSError):
    """A path that should be a regular file is a pipe, a device, a socket or a folder."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(errno.EINVAL, "not a regular file (a pipe or a device?)", str(path))


def open_lock(path: str | Path, mode: int) -> int:
    """A descriptor of the lock file ``path`` (created with ``mode`` if missing), to lock.

    Opened without blocking and refused with :class:`NotRegularError` unless it is a regular
    file: a pipe or a device there would hang or fool the lock.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0), mode)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularError(path)
    os.set_blocking(fd, True)
    return fd


def read_regular(
    path: str | Path,
    limit: int,
    kind: type[GongzhuError] = InputError,
    key: str = "error.read.special",
) -> bytes:
    """At most ``limit + 1`` bytes of the regular file ``path`` (:func:`open_regular`): one
    more than the limit says the file is too large, without reading the rest."""
    with open_regular(path, kind, key) as f:
        return f.read(limit + 1)


def _mode_for(target: Path) -> int:
    """The written file's mode: the old file's, or a new file's default here."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


_NEW_FILE: Final = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))  # fmt: skip
"""A file made here and nowhere else, as :func:`tempfile.mkstemp` makes one."""


def _temp_name(target: Path) -> str:
    """A name for a temporary file beside ``target``: ``.NAME.<random>.tmp``."""
    return str(target.parent / f".{target.name}.{secrets.token_hex(8)}.tmp")


@contextlib.contextmanager
def _staged(target: Path, text: bool) -> Iterator[tuple[IO[Any], str]]:
    """A temporary file beside ``target`` to write, and its name.

    Text is UTF-8, newlines as written. Once the block ends without error the file is on disk
    with ``target``'s mode. It is removed if the block fails, or if the caller, still in the
    block, does not move it. Its name is chosen before it is made, so that a signal turned into
    an exit the moment after it is made (SIGTERM, Ctrl-C) still finds it to remove.
    """
    tmp, f = _temp_name(target), None
    try:
        while True:
            try:
                fd = os.open(tmp, _NEW_FILE, 0o600)
                break
            except FileExistsError:  # (another's file: never removed here)
                tmp = _temp_name(target)
        f = os.fdopen(fd, "w", encoding="utf-8", newline="") if text else os.fdopen(fd, "wb")
        yield f, tmp
    except BaseException:
        if f is not None:
            with contextlib.suppress(OSError):  # what is still buffered cannot be written
                f.close()
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _finish(f: IO[Any], tmp: str, target: Path, mode: int | None = None) -> None:
    """A staged file flushed to disk and given ``mode``, else ``target``'s mode."""
    f.flush()
    os.fsync(f.fileno())
    f.close()
    os.chmod(tmp, _mode_for(target) if mode is None else mode)


def write_temp(target: Path, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``target``. It is on disk, with
    ``target``'s mode."""
    with _staged(target, text=False) as (f, tmp):
        f.write(data)
        _finish(f, tmp, target)
    return tmp


def fsync_folder(folder: Path) -> None:
    """The folder's entries on disk (a rename is durable only then)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_write(target: Path, text: bool = False, mode: int | None = None) -> Iterator[IO[Any]]:
    """A file to write that replaces ``target`` when the block succeeds.

    Then it is flushed to disk, given the old file's mode (or ``mode``: then a link at
    ``target`` is replaced, its target neither read nor changed) and renamed over it, and the
    folder is synced; on any other way out it is removed. This is the one way the package
    replaces a file.
    """
    with _staged(target, text) as (f, tmp):
        yield f
        _finish(f, tmp, target, mode)
        try:
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    fsync_folder(target.parent)


def replace_file(target: Path, data: bytes, mode: int | None = None) -> None:
    """``target`` becomes ``data``, atomically (see the module's text; ``mode``: as
    :func:`atomic_write`)."""
    with atomic_write(target, mode=mode) as f:
        f.write(data)


@contextlib.contextmanager
def unchanged_unless_written(
    path: str, kind: type[GongzhuError] = InputError, key: str = "error.write.failed"
) -> Iterator[None]:
    """Turn a write the system refuses into bad input.

    A disk full, a file too large or no permission: the error names the file and says nothing
    was changed.
    """
    try:
        yield
    except OSError as e:
        raise error(kind, key, why=e.strerror or str(e)).within(path) from None


@contextlib.contextmanager
def replaced(path: str) -> Iterator[IO[str]]:
    """A text file to write that replaces ``path`` when the block succeeds.

    It goes through :func:`atomic_write`, following symbolic links and keeping the mode; nothing
    is left otherwise. A write the system refuses, in the block or after it, is an
    :class:`InputError` naming ``path``. The block's other errors (about other files, such as an
    input) pass through.
    """
    target = real_target(path)
    passing: OSError | None = None
    try:
        with atomic_write(target, text=True) as f:
            try:
                yield f
            except OSError as e:
                if e.filename is not None:  # about another file (an input), not this one
                    passing = e
                raise
    except OSError as e:
        if e is passing:
            raise
        raise error(InputError, "error.write.failed", why=e.strerror or str(e)).within(
            path
        ) from None


def files_below(
    folder: str, suffixes: tuple[str, ...], passed: list[tuple[str, str]] | None = None
) -> list[str]:
    """The files below ``folder`` whose names end in one of ``suffixes``. They come folder by
    folder, in name order.

    A folder that cannot be read is an error, never silently skipped. What is passed over goes
    to ``passed`` as ``(path, why)``, in the same order: an entry with such a name that is no
    regular file (``dangling``: a link to nothing; ``loop``: a link that leads back to itself;
    ``special``: a pipe, a device or a socket) and a link to a folder (``folder_link``: not
    followed, so a folder is never read twice or for ever).
    """

    def unreadable(e: OSError) -> None:
        raise error(InputError, "error.file.unreadable", why=e.strerror).within(
            str(e.filename)
        ) from None

    found: list[tuple[str, str | None]] = []
    for top, folders, names in os.walk(folder, onerror=unreadable):
        found += [(os.path.join(top, name), "folder_link") for name in folders
                  if os.path.islink(os.path.join(top, name))]  # fmt: skip
        for name in names:
            if os.path.splitext(name)[1] in suffixes:
                path = os.path.join(top, name)
                found.append((path, _not_a_file(path)))
    found.sort(key=lambda entry: Path(entry[0]).parts)
    if passed is not None:
        passed += [(path, why) for path, why in found if why is not None]
    return [path for path, why in found if why is None]


def _not_a_file(path: str) -> str | None:
    """Why ``path`` is no regular file to read (:func:`files_below`), or None.

    One the system will not look at (no permission) is a file: reading it says why.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "dangling"
    except OSError as e:
        return "loop" if e.errno == errno.ELOOP else None
    return None if stat.S_ISREG(mode) else "special"
