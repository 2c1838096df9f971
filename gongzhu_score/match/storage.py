"""Ledger files on disk: read strictly, write atomically, one writer at a time.

- A write goes to a temporary file in the ledger's folder, is flushed and fsynced, then renamed
  over the ledger (and the folder fsynced): a kill at any moment leaves the old ledger or the new
  one, never a torn file.
- Changes run under an exclusive lock on a ``LEDGER.lock`` file beside the ledger, so two
  ``match add`` at once both land, one after the other. (The ledger itself cannot carry the
  lock: the rename replaces it.)
- A refused change writes nothing, so the ledger stays byte-for-byte as it was.
- Reading is fast for the ledgers this package writes: every value sits on its own
  ``key: value`` line in JSON flow syntax (valid YAML), so those lines are read with
  :func:`json.loads`; anything else (a hand-edited file) goes through the one guarded YAML
  reader (:mod:`gongzhu_score.io.yamlfile`). Adding a hand to such a ledger appends its block
  instead of rewriting the rest.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import GongzhuError, LedgerError
from ..io.yamlfile import decode, load_yaml
from .ledger import Ledger

__all__ = ["change_ledger", "create_ledger", "read_ledger"]

MAX_LEDGER_BYTES = 64_000_000
"""A thousand hands take about 600 kB; anything over 64 MB is not a ledger."""

T = TypeVar("T")


def _fast_data(text: str) -> dict[str, Any] | None:
    """The data of a ledger in the canonical layout, or None if it is laid out otherwise."""
    data: dict[str, Any] = {}
    hands: list[dict[str, Any]] | None = None
    entry: dict[str, Any] | None = None
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line == "hands:" and hands is None and entry is None:
            hands = data["hands"] = []
            continue
        if line.startswith("- ") and hands is not None:
            entry = {}
            hands.append(entry)
            target, body = entry, line[2:]
        elif line.startswith("  ") and entry is not None:
            target, body = entry, line[2:]
        elif entry is None and hands is None:
            target, body = data, line
        else:
            return None
        key, sep, value = body.partition(": ")
        if not sep or not key.isidentifier() or key in target:
            return None
        try:
            target[key] = json.loads(value)
        except (ValueError, RecursionError):
            return None
    return data


def _parse(raw: bytes, path: str) -> tuple[Ledger, str, bool]:
    """The ledger, its text, and whether it is in the canonical layout (so may be appended)."""
    try:
        text = decode(raw, path)
        data: object = _fast_data(text)
        canonical = data is not None
        if data is None:
            data = load_yaml(text, path)
    except GongzhuError as e:
        raise LedgerError(f"{e}; not a valid ledger") from None
    try:
        return Ledger.from_data(data), text, canonical
    except GongzhuError as e:
        raise LedgerError(f"{path}: {e}") from None


def _load(path: str) -> tuple[Ledger, str, bool]:
    try:
        with Path(path).open("rb") as f:
            raw = f.read(MAX_LEDGER_BYTES + 1)
    except FileNotFoundError:
        raise LedgerError(
            f"{path}: no such ledger; start one with 'gongzhu-score match new {path} "
            "--players 东,南,西,北'"
        ) from None
    except IsADirectoryError:
        raise LedgerError(f"{path}: is a folder, not a ledger") from None
    except OSError as e:
        raise LedgerError(f"{path}: cannot read: {e.strerror}") from None
    if len(raw) > MAX_LEDGER_BYTES:
        raise LedgerError(f"{path}: larger than {MAX_LEDGER_BYTES:,} bytes; not a ledger")
    return _parse(raw, path)


def read_ledger(path: str) -> Ledger:
    """Load a ledger; every problem is a :class:`LedgerError` naming the file and the place."""
    return _load(path)[0]


def _write_temp(path: Path, text: str) -> str:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _replace(path: Path, text: str) -> None:
    tmp = _write_temp(path, text)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(path.parent)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    lock = path.with_name(path.name + ".lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as e:
        raise LedgerError(f"{path}: cannot lock ({lock}: {e.strerror})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def create_ledger(path: str, ledger: Ledger) -> None:
    """Write a new ledger; refuse, touching nothing, if the file exists."""
    target = Path(path)
    if not target.parent.is_dir():
        raise LedgerError(f"{path}: the folder {target.parent} does not exist")
    tmp = _write_temp(target, ledger.to_text())
    try:
        os.link(tmp, target)  # fails if the ledger exists: no check-then-write race
    except FileExistsError:
        raise LedgerError(
            f"{path}: already exists; a match ledger is never overwritten (pick another name)"
        ) from None
    finally:
        os.unlink(tmp)
    _fsync_folder(target.parent)


def change_ledger(path: str, change: Callable[[Ledger], tuple[Ledger, T]]) -> tuple[Ledger, T]:
    """Read, change and write a ledger under its lock; a refused change writes nothing."""
    target = Path(path)
    if not target.is_file():
        read_ledger(path)  # the clear error, without leaving a lock file beside nothing
    with _locked(target):
        # Read under the lock: another writer may have changed the ledger meanwhile.
        before, text, canonical = _load(path)
        after, extra = change(before)
        appended = (
            canonical
            and after.same_match(before)
            and len(after.entries) == len(before.entries) + 1
            and all(a is b for a, b in zip(after.entries, before.entries, strict=False))
        )
        if appended:
            text = text if text.endswith("\n") else text + "\n"
            new_text = text + after.entry_text(len(after.entries), after.entries[-1])
        else:
            new_text = after.to_text()
        _replace(target, new_text)
    return after, extra
