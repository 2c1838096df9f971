"""A match's changes, kept beside its ledger (``LEDGER.history``). No change loses a hand.

One JSON line per change: what it was (``new``, ``add``, ``remove``, ``undo``, ``edit``,
``rename``, ``set``), when, the SHA-256 of the ledger file before and after it, and how to bring
back the file as it was before: for a hand appended, the length the file had (the bytes before
it are kept in the ledger itself); for any other change, the whole earlier file, compressed.
``match restore`` reverts the last change exactly; ``match history`` lists them.

A change is written ahead of the ledger (docs/reliability.md, "A change is one act"): its line
first, flushed to disk, then the ledger renamed into place. The rename is the commit. So a last
line whose ``after`` is not the ledger's digest while its ``prior`` is records a change that
never reached the ledger (the process died between the two writes, or a restore died after
bringing the older ledger back): it is *uncommitted*, and :func:`reconcile` passes it over (and
:func:`settle` cuts it, when the next change is written). So is a last line with no newline (a
write torn by a crash). The digest also says whether the ledger is still as this tool last wrote
it: if it is, it was checked when it was written and ``match add`` need not check every hand
again.

Every line is read as strictly as the ledger: its size, its nesting, each field's type and
range, and the earlier file it carries (decompressed no further than a ledger may be long).
"""

from __future__ import annotations

import base64
import binascii
import datetime
import hashlib
import json
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GongzhuError, LedgerError
from ..io.files import open_regular
from ..terms import error, place

__all__ = [
    "MAX_LEDGER_BYTES",
    "Change",
    "Head",
    "digest",
    "history_path",
    "read_history",
    "reconcile",
    "record",
    "settle",
]

MAX_LEDGER_BYTES = 64_000_000
"""A thousand hands take about 600 kB; anything over 64 MB is not a ledger."""
MAX_HISTORY_BYTES = 256_000_000
MAX_LINE_BYTES = (MAX_LEDGER_BYTES // 3 + 1) * 4 + 65_536
"""The longest line a change can take: a whole ledger, compressed no smaller, in base64."""
KINDS = ("new", "add", "remove", "undo", "edit", "rename", "set")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Change:
    """One change of a ledger, and what reverting it takes."""

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
    prior: str | None = None
    """The SHA-256 of the ledger file before the change (lines written before it was
    recorded have none)."""

    def previous(self, current: bytes) -> bytes:
        """The ledger file before this change, from the file as it is now."""
        if self.kept_length is not None:
            if self.kept_length > len(current):
                raise error(LedgerError, "error.history.before", number=self.number)
            return current[: self.kept_length]
        if self.before is None:
            raise error(LedgerError, "error.history.start")
        return unpack(self.before, self.number)

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
        if self.prior is not None:
            data["prior"] = self.prior
        return json.dumps(data, ensure_ascii=False) + "\n"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack(data: bytes) -> str:
    return base64.b64encode(zlib.compress(data, 6)).decode("ascii")


def unpack(text: str, number: int) -> bytes:
    """The file a change carries, never inflated past a ledger's size.

    A line edited into a zlib bomb is refused, not expanded.
    """
    try:
        packed = base64.b64decode(text, validate=True)
        inflate = zlib.decompressobj()
        data = inflate.decompress(packed, MAX_LEDGER_BYTES + 1)
        whole = inflate.eof and not inflate.unconsumed_tail and len(data) <= MAX_LEDGER_BYTES
    except (binascii.Error, zlib.error, ValueError):
        whole = False
    if not whole:
        raise error(LedgerError, "error.history.before", number=number)
    return data


def now() -> str:
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


def history_path(ledger: str | Path) -> Path:
    """``LEDGER.history`` beside the real ledger file, links followed.

    So a ledger has one history, whatever name it is reached by.
    """
    path = Path(os.path.realpath(ledger))
    return path.with_name(path.name + ".history")


def _whole(value: object, low: int = 0) -> int:
    """A JSON whole number ≥ ``low``: not a bool, a float, or too large."""
    if type(value) is not int or not low <= value < 1 << 62:
        raise ValueError(value)
    return value


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def _values(kind: str, values: object) -> dict[str, Any]:
    """What a change of ``kind`` says it was about, each value type-checked."""
    if not isinstance(values, dict):
        raise ValueError(values)
    if kind == "new":
        expected: dict[str, Any] = {}
    elif kind == "rename":
        expected = {"old": _text(values.get("old")), "new": _text(values.get("new"))}
    elif kind == "set":
        changes = values.get("changes")
        if not isinstance(changes, dict):
            raise ValueError(changes)
        for key, pair in changes.items():
            if not (isinstance(pair, list) and len(pair) == 2):
                raise ValueError(pair)
            _text(key), _text(pair[0]), _text(pair[1])
        expected = {"changes": changes}
    else:
        expected = {"hand": _whole(values.get("hand"), 1)}
    if values.keys() != expected.keys():
        raise ValueError(values)
    return expected


def parse_change(line: bytes) -> Change:
    """One history line as a :class:`Change`; ValueError if this tool never writes it."""
    try:
        data = json.loads(line, parse_constant=_refuse)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if not isinstance(data, dict):
        raise ValueError(data)
    kind = _text(data.get("kind"))
    if kind not in KINDS:
        raise ValueError(kind)
    after = _text(data.get("after"))
    if not _HEX64.fullmatch(after):
        raise ValueError(after)
    kept = data.get("kept_length")
    before = data.get("before")
    if kept is not None and (kind != "add" or before is not None):
        raise ValueError(kept)
    if before is not None:
        _text(before)
    prior = data.get("prior")
    if prior is not None and not _HEX64.fullmatch(_text(prior)):
        raise ValueError(prior)
    known = {"number", "time", "kind", "values", "after", "kept_length", "before", "prior"}
    if not data.keys() <= known:
        raise ValueError(data.keys())
    return Change(
        _whole(data.get("number"), 1),
        _text(data.get("time")),
        kind,
        _values(kind, data.get("values", {})),
        after,
        None if kept is None else _whole(kept),
        before,
        prior,
    )


def _refuse(constant: str) -> float:
    raise ValueError(constant)  # NaN, Infinity: no field of a change is such a number


def _change(line: bytes, path: Path, where: object) -> Change:
    try:
        return parse_change(line)
    except (ValueError, TypeError):
        raise error(LedgerError, "error.history.line", where=where).within(str(path)) from None


def _unreadable(path: Path, e: OSError) -> GongzhuError:
    return error(LedgerError, "error.file.unreadable", why=e.strerror).within(str(path))


@dataclass(frozen=True)
class Head:
    """The end of a history as :func:`reconcile` found it."""

    last: Change | None
    """The last committed change (None: no history)."""
    as_written: bool
    """The ledger is exactly as ``last`` left it."""
    last_at: int
    """Where ``last``'s line starts in the history file."""
    length: int
    """The history's length once settled (:func:`settle`): where the next line goes."""
    before_last: Change | None = None
    """The change before ``last``: ``restore`` checks it leads back to it."""
    size: int = 0
    """The history file's length as found."""
    unended: bool = False
    """``last`` is a whole line that lacks only its newline (the file saved by an editor)."""


def uncommitted(last: Change, before_last: Change | None, current: str) -> bool:
    """Whether ``last`` never reached the ledger, whose digest is ``current``.

    It did not when the ledger is the one it started from (or, for a line that does not say, the
    one the change before left).
    """
    if last.after == current:
        return False
    if last.prior is not None:
        return last.prior == current
    return before_last is not None and before_last.after == current


def _tail_lines(path: Path) -> tuple[list[tuple[int, bytes]], int, int, bytes] | None:
    """The history's last three non-blank lines, newest first; None if it does not exist.

    Each comes with where it starts (fewer lines if it has fewer), with where its complete lines
    end, its size and what follows the last newline. It is read backwards, each byte at most
    twice, never further back than a torn line and three of the longest lines a change can take:
    linear, and bounded whatever the file holds.
    """
    try:
        with open_regular(path, LedgerError, "error.write.special") as f:
            size = f.seek(0, os.SEEK_END)
            ends: list[int] = []  # just past each newline found, newest first
            full = 0  # lines between two of them that are not blank
            pos = size
            while pos > 0 and full < 3:
                if size - pos > 4 * MAX_LINE_BYTES:
                    raise error(LedgerError, "error.history.long").within(str(path))
                start = max(0, pos - _CHUNK)
                f.seek(start)
                chunk = f.read(pos - start)
                at = len(chunk)
                while full < 3:
                    at = chunk.rfind(b"\n", 0, at)
                    if at < 0:
                        break
                    end = start + at + 1
                    full += bool(ends) and ends[-1] - end > 1
                    ends.append(end)
                pos = start
            complete = ends[0] if ends else 0
            if size - complete > MAX_LINE_BYTES:
                raise error(LedgerError, "error.history.long").within(str(path))
            bounds = ends if full >= 3 else [*ends, 0]
            first = bounds[-1]
            f.seek(first)
            region = f.read(size - first)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _unreadable(path, e) from None
    lines = [
        (bounds[i + 1], region[bounds[i + 1] - first : bounds[i] - first])
        for i in range(len(bounds) - 1)
    ]
    kept = [(at, line) for at, line in lines if line.strip()]
    return kept, complete, size, region[complete - first :]


def _unended(torn: bytes, current: str) -> Change | None:
    """What follows the history's last newline, if it is a whole change.

    It counts when it left the ledger as it is (an editor dropped the final newline); None for a
    line a crash cut short.
    """
    if not torn.strip():
        return None
    try:
        whole = parse_change(torn)
    except (ValueError, TypeError):
        return None
    return whole if whole.after == current else None


def reconcile(ledger: str | Path, current: str) -> Head:
    """The history's last committed change, given the ledger's digest ``current``.

    A torn last line (no newline) and an uncommitted last change (see the module's text) are
    passed over, and :func:`settle` cuts them (under the ledger's lock, when a change is
    written). A last line that lacks only its newline and is the ledger's is kept; settling ends
    it.
    """
    path = history_path(ledger)
    found = _tail_lines(path)
    if found is None:
        return Head(None, False, 0, 0)
    lines, complete, size, torn = found
    changes = [
        (at, _change(line, path, place("where.from_end", number=i)))
        for i, (at, line) in enumerate(lines, 1)
    ]
    length, unended = complete, False
    whole = _unended(torn, current)
    if whole is not None:
        changes.insert(0, (complete, whole))
        length, unended = size + 1, True
    if changes and uncommitted(changes[0][1], changes[1][1] if changes[1:] else None, current):
        length, unended = changes[0][0], False
        changes = changes[1:]
    if not changes:
        return Head(None, False, 0, length, None, size)
    at, last = changes[0]
    earlier = changes[1][1] if len(changes) > 1 else None
    return Head(last, last.after == current, at, length, earlier, size, unended)


def settle(ledger: str | Path, head: Head) -> None:
    """Make the history what ``head`` read: passed-over lines cut, the last line ended.

    A truncation needs no free space, so it works on a full disk too.
    """
    path = history_path(ledger)
    try:
        if head.unended:
            with open_regular(path, LedgerError, "error.write.special", append=True) as f:
                f.write(b"\n")
        elif head.length < head.size:
            os.truncate(path, head.length)
    except OSError as e:
        raise error(LedgerError, "error.history.write", why=e.strerror).within(str(path)) from None


def read_history(ledger: str | Path, current: str | None = None) -> list[Change]:
    """The recorded changes of a ledger, oldest first; none without a history.

    With the ledger's digest ``current``, their end is read as :func:`reconcile` reads it.
    """
    path = history_path(ledger)
    try:
        with open_regular(path, LedgerError, "error.write.special") as f:
            raw = f.read(MAX_HISTORY_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as e:
        raise _unreadable(path, e) from None
    if len(raw) > MAX_HISTORY_BYTES:
        too_large = error(LedgerError, "error.storage.large", size=f"{MAX_HISTORY_BYTES:,}",
                          what=place("what.history"))  # fmt: skip
        raise too_large.within(str(path))
    lines = raw.split(b"\n")
    torn = lines.pop()  # what follows the last newline: nothing, or a line cut short
    changes: list[Change] = []
    for number, line in enumerate([*lines, torn], 1):
        if len(line) > MAX_LINE_BYTES:
            raise error(LedgerError, "error.history.long").within(str(path))
        if line.strip() and number <= len(lines):
            changes.append(_change(line, path, place("where.line", number=number)))
    if current is None:
        return changes
    whole = _unended(torn, current)
    if whole is not None:
        changes.append(whole)
    if changes and uncommitted(changes[-1], changes[-2] if changes[1:] else None, current):
        changes.pop()
    return changes


def record(ledger: str | Path, change: Change, at: int) -> None:
    """Append one change to the history and flush it, before the ledger is replaced.

    ``at`` is the history's length. A failed or interrupted write leaves the history as it was.
    """
    path = history_path(ledger)
    try:
        with open_regular(path, LedgerError, "error.write.special", append=True) as f:
            try:
                f.write(change.to_line().encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            except BaseException:
                f.truncate(at)  # a disk full mid-line must not leave half a change
                raise
    except OSError as e:
        raise error(LedgerError, "error.history.write", why=e.strerror).within(str(path)) from None


def forget_since(ledger: str | Path, length: int) -> None:
    """Take back what was recorded past ``length``, when its ledger write failed."""
    os.truncate(history_path(ledger), length)
