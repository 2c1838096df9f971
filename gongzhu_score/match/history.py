"""A match's changes, kept beside its ledger (``LEDGER.history``), so that none loses a hand.

One JSON line per change: what it was (``add``, ``remove``, ``undo``, ``edit``, ``rename``,
``set``), when, the SHA-256 of the ledger file after it, and how to bring back the file as it
was before: for a hand appended, the length the file had (the bytes before it are kept in the
ledger itself); for any other change, the whole earlier file, compressed. ``match restore``
reverts the last change exactly; ``match history`` lists them.

The digest also says whether the ledger is still as this tool last wrote it: if it is, it was
checked when it was written and ``match add`` need not check every hand again.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LedgerError
from ..io.files import replace_file
from ..terms import error, place

__all__ = ["Change", "digest", "history_path", "read_history", "record", "without_last"]

MAX_HISTORY_BYTES = 256_000_000


@dataclass(frozen=True)
class Change:
    """One change of a ledger, and what it takes to revert it."""

    number: int
    time: str
    kind: str
    """``new``, ``add``, ``remove``, ``undo``, ``edit``, ``rename`` or ``set``."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """What the change was about: ``{"hand": 3}``, ``{"old": "北", "new": "小北"}``, …"""
    after: str = ""
    """The SHA-256 of the ledger file after the change."""
    kept_length: int | None = None
    """A hand appended: the file's length before it."""
    before: str | None = None
    """Any other change: the whole file before it, zlib-compressed, base64."""

    def previous(self, current: bytes) -> bytes:
        """The ledger file as it was before this change, from the file as it is now."""
        if self.kept_length is not None:
            return current[: self.kept_length]
        if self.before is None:
            raise error(LedgerError, "error.history.start")
        return zlib.decompress(base64.b64decode(self.before))

    def to_line(self) -> str:
        data = {
            "number": self.number,
            "time": self.time,
            "kind": self.kind,
            "values": dict(self.values),
            "after": self.after,
        }
        if self.kept_length is not None:
            data["kept_length"] = self.kept_length
        if self.before is not None:
            data["before"] = self.before
        return json.dumps(data, ensure_ascii=False) + "\n"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack(data: bytes) -> str:
    return base64.b64encode(zlib.compress(data, 6)).decode("ascii")


def now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def history_path(ledger: str | Path) -> Path:
    """``LEDGER.history`` beside the real ledger file (through symbolic links: one history
    whatever name the ledger is reached by)."""
    path = Path(os.path.realpath(ledger))
    return path.with_name(path.name + ".history")


def read_history(ledger: str | Path) -> list[Change]:
    """The recorded changes of a ledger, oldest first (none if it has no history yet)."""
    path = history_path(ledger)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_HISTORY_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as e:
        raise error(LedgerError, "error.file.unreadable", why=e.strerror).within(
            str(path)
        ) from None
    if len(raw) > MAX_HISTORY_BYTES:
        too_large = error(LedgerError, "error.storage.large", size=f"{MAX_HISTORY_BYTES:,}",
                          what=place("what.history"))  # fmt: skip
        raise too_large.within(str(path))
    changes: list[Change] = []
    for number, line in enumerate(raw.splitlines(), 1):
        if line.strip():
            changes.append(_change(line, path, number))
    return changes


def _change(line: bytes, path: Path, number: int | None) -> Change:
    try:
        data = json.loads(line)
        return Change(
            int(data["number"]),
            str(data["time"]),
            str(data["kind"]),
            dict(data.get("values") or {}),
            str(data["after"]),
            data.get("kept_length"),
            data.get("before"),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        where = place("where.last_line") if number is None else place("where.line", number=number)
        raise error(LedgerError, "error.history.line", where=where).within(str(path)) from None


def last_change(ledger: str | Path) -> Change | None:
    """The last recorded change of a ledger (None without a history), read from the end of
    the history: a season's ten thousand changes are not all parsed to add one more."""
    path = history_path(ledger)
    try:
        with path.open("rb") as f:
            end = f.seek(0, os.SEEK_END)
            tail = b""
            while end > 0 and b"\n" not in tail.rstrip(b"\n"):
                start = max(0, end - (1 << 16))
                f.seek(start)
                tail = f.read(end - start) + tail
                end = start
    except FileNotFoundError:
        return None
    except OSError as e:
        raise error(LedgerError, "error.file.unreadable", why=e.strerror).within(
            str(path)
        ) from None
    line = tail.rstrip().rpartition(b"\n")[2]
    return _change(line, path, None) if line.strip() else None


def record(ledger: str | Path, change: Change) -> int:
    """Append one change to the history (flushed to disk before the ledger is replaced); the
    history's length before it, for :func:`forget_since`. A failed write leaves the history as
    it was."""
    path = history_path(ledger)
    length = 0
    try:
        with path.open("ab") as f:
            length = f.tell()
            try:
                f.write(change.to_line().encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            except OSError:
                f.truncate(length)  # a disk full mid-line must not leave half a change
                raise
    except OSError as e:
        raise error(LedgerError, "error.history.write", why=e.strerror).within(str(path)) from None
    return length


def forget_since(ledger: str | Path, length: int) -> None:
    """Take back the change recorded at ``length`` (its ledger write failed). Truncating needs
    no free space, so it works on a full disk too."""
    os.truncate(history_path(ledger), length)


def without_last(ledger: str | Path, changes: list[Change]) -> None:
    """Write the history back without its last change (atomically)."""
    text = "".join(c.to_line() for c in changes[:-1])
    replace_file(history_path(ledger), text.encode("utf-8"))
