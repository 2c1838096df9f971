"""Ledger files on disk: read strictly, written atomically, one writer at a time.

- A write goes to a temporary file in the ledger's folder, is flushed and fsynced, then renamed
  over the ledger (and the folder fsynced): a kill at any moment leaves the old ledger or the new
  one, never a torn file.
- Changes run under an exclusive lock on a ``LEDGER.lock`` file beside the ledger, so two
  ``match add`` at once both land, one after the other. (The ledger itself cannot carry the
  lock: the rename replaces it.)
- A refused change writes nothing, so the ledger stays byte-for-byte as it was.
- Every change is written ahead in ``LEDGER.history`` (:mod:`.history`), with what it takes to
  revert it, then the ledger renamed into place: the rename commits it, and a line whose change
  never reached the ledger is recognised and set aside. :func:`restore_ledger` brings back the
  ledger as it was before the last change.
- A ledger that is not as this tool last wrote it (edited by hand) is checked hand by hand
  before a hand is added to it, and refused if any stored number disagrees.
- Reading is fast for the ledgers this package writes: every value sits on its own
  ``key: value`` line in JSON flow syntax (valid YAML), so those lines are read with
  :func:`json.loads`; anything else (a hand-edited file) goes through the one guarded YAML
  reader (:mod:`gongzhu_score.io.yamlfile`). Adding a hand to such a ledger appends its block
  instead of rewriting the rest.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ChangedMeanwhileError, GongzhuError, LedgerError
from ..io.files import (
    NotRegularError,
    fsync_folder,
    open_lock,
    read_regular,
    real_target,
    refuse_dash,
    replace_file,
    unchanged_unless_written,
    write_temp,
)
from ..io.yamlfile import decode, load_yaml
from ..terms import error, place
from .history import (
    MAX_LEDGER_BYTES,
    Change,
    Head,
    digest,
    forget_since,
    history_path,
    now,
    pack,
    read_history,
    reconcile,
    record,
    settle,
)
from .ledger import Ledger

LEDGER = place("what.ledger")

__all__ = ["change_ledger", "check_seen", "create_ledger", "ledger_history", "lock_within",
           "read_as_seen", "read_ledger", "read_version", "restore_ledger"]  # fmt: skip

T = TypeVar("T")


def _fast_data(text: str) -> dict[str, Any] | None:
    """A canonical ledger's data; None if it is laid out otherwise."""
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
    """The ledger, its text, and whether it is canonical, so appendable."""
    try:
        text = decode(raw, path)
        data: object = _fast_data(text)
        canonical = data is not None
        if data is None:
            data = load_yaml(text, path)
    except GongzhuError as e:
        raise error(LedgerError, "error.storage.invalid", error=e) from None
    try:
        return Ledger.from_data(data), text, canonical
    except LedgerError as e:
        raise e.within(path) from None  # (a file that is no ledger at all keeps saying so)
    except GongzhuError as e:
        raise e.recast(LedgerError).within(path) from None


def _load(path: str) -> tuple[Ledger, str, bool, bytes]:
    raw = _read(path)
    return (*_parse(raw, path), raw)


_HANDS = b"\nhands:\n"
_ENTRY = b"\n- hand: "


def _parse_tail(raw: bytes, path: str) -> Ledger | None:
    """Only the ledger's header and last hand, the rest ``Ledger.skipped``.

    None unless it is in the canonical layout. Enough to add a hand, at any length: only those
    bytes are decoded and read.
    """
    header_end = raw.find(_HANDS)
    if header_end < 0:
        return None
    header_end += len(_HANDS)
    last = raw.rfind(_ENTRY, header_end - 1)
    first = 1
    if last >= 0:
        number = raw[last + len(_ENTRY) : raw.find(b"\n", last + 1)]
        if not number.isdigit():
            return None
        first = int(number)
    try:
        text = decode(raw[:header_end] + (raw[last + 1 :] if last >= 0 else b""), path)
    except GongzhuError:
        return None
    data = _fast_data(text)
    if data is None:
        return None
    try:
        return Ledger.from_data(data, first)
    except GongzhuError as e:
        raise e.recast(LedgerError).within(path) from None


def _read(path: str) -> bytes:
    if not path:
        raise error(LedgerError, "error.write.empty")
    try:
        raw = read_regular(path, MAX_LEDGER_BYTES, LedgerError)
    except FileNotFoundError:
        kept = history_path(path)
        if os.path.lexists(kept):  # (match new would start another match, and drop this history)
            raise error(LedgerError, "error.storage.gone", history=kept.name).within(path) from None
        raise error(LedgerError, "error.storage.none", path=path).within(path) from None
    except IsADirectoryError:
        raise error(LedgerError, "error.file.folder", what=LEDGER).within(path) from None
    except OSError as e:
        raise error(LedgerError, "error.file.unreadable", why=e.strerror).within(path) from None
    if len(raw) > MAX_LEDGER_BYTES:
        too_large = error(
            LedgerError, "error.storage.large", size=f"{MAX_LEDGER_BYTES:,}", what=LEDGER
        )
        raise too_large.within(path)
    return raw


def read_ledger(path: str) -> Ledger:
    """Load a ledger. Each problem is a :class:`LedgerError` naming file and place."""
    return _load(path)[0]


def read_version(path: str) -> tuple[Ledger, str]:
    """A ledger and its version, the SHA-256 of its bytes.

    Any change alters it. A change given it back (``expect``) is refused if the ledger is no
    longer that one.
    """
    raw = _read(path)
    return _parse(raw, path)[0], digest(raw)


def check_seen(path: str, expect: str) -> bytes:
    """The ledger's bytes, if it is still the version ``expect`` (:func:`read_version`); else
    the change made against it is refused (:class:`ChangedMeanwhileError`) before anything else
    about it is looked at. The change itself checks again, under the lock."""
    raw = _read(path)
    _expected(expect, digest(raw), path)
    return raw


def read_as_seen(path: str, expect: str) -> Ledger:
    """The ledger as the caller saw it, version ``expect`` (:func:`check_seen`), or a refusal."""
    return _parse(check_seen(path, expect), path)[0]


def _expected(version: str | None, current: str, path: str) -> None:
    if version is not None and version != current:
        raise error(ChangedMeanwhileError, "error.storage.changed").within(path)


@contextlib.contextmanager
def _unchanged_unless_written(path: str) -> Iterator[None]:
    """Turn a write the system refuses into bad input: the ledger is unchanged.

    A disk full, no permission: the error says the ledger is as it was.
    """
    with unchanged_unless_written(path, LedgerError, "error.storage.unwritable"):
        yield


LOCK_WAIT_SECONDS = 10.0
"""How long a change waits for another process's change to the same ledger (each takes
milliseconds); then it gives up, saying so, rather than hang behind a stuck process."""


def lock_wait() -> float:
    """Seconds to wait for the lock.

    ``GONGZHU_LOCK_WAIT`` if set (a number, 0 or more), else :data:`LOCK_WAIT_SECONDS`.
    """
    given = os.environ.get("GONGZHU_LOCK_WAIT")
    if given is None:
        return LOCK_WAIT_SECONDS
    try:
        seconds = float(given)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= 86_400:  # NaN fails too: it would wait forever
        raise error(LedgerError, "error.storage.wait", value=repr(given))
    return seconds


def lock_within(fd: int, seconds: float, step: float) -> bool:
    """Try to take the open file ``fd``'s exclusive lock; whether it was taken.

    It tries every ``step`` seconds for at most ``seconds``. Closing ``fd`` releases it.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(step)


@contextlib.contextmanager
def _locked(path: str, target: Path) -> Iterator[None]:
    """The ledger's lock, held for the block.

    It is ``LEDGER.lock`` beside the real file, so every name of the ledger shares one.
    """
    lock = target.with_name(target.name + ".lock")
    wait = lock_wait()
    try:
        fd = open_lock(lock, 0o666)
    except OSError as e:
        why = place("why.special") if isinstance(e, NotRegularError) else e.strerror
        refused = error(LedgerError, "error.storage.lock", lock=lock, why=why)
        raise refused.within(path) from None
    try:
        if not lock_within(fd, wait, 0.02):
            raise error(LedgerError, "error.storage.busy", lock=lock).within(path) from None
        _remove_stale_temps(target)
        yield
    finally:
        os.close(fd)  # closing releases the lock


STALE_AFTER_SECONDS = 60.0


def _remove_stale_temps(target: Path) -> None:
    """Remove this ledger's temporary files (``.NAME.*.tmp``) a killed process left.

    With the lock held no change of this ledger is writing one, and a minute old, no new ledger
    either.
    """
    now_ = time.time()
    for tmp in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            if now_ - tmp.stat().st_mtime > STALE_AFTER_SECONDS:
                tmp.unlink()


def _target(path: str) -> Path:
    """The ledger file ``path`` names, links followed; refused if no file."""
    return real_target(path, LedgerError)


def create_ledger(path: str, ledger: Ledger) -> None:
    """Write a new ledger; refuse, touching nothing, if the file exists.

    Its history is started first (any left by an earlier file of that name removed), then the
    ledger linked into place: the link is the commit, and a history with no ledger beside it is
    nothing.
    """
    refuse_dash(path, LedgerError)
    target = _target(path)
    if target.exists():
        raise error(LedgerError, "error.storage.exists").within(path)
    data = ledger.to_text().encode("utf-8")
    with _unchanged_unless_written(path):
        tmp = write_temp(target, data)
        try:
            with _locked(path, target):
                if target.exists():
                    raise error(LedgerError, "error.storage.exists").within(path)
                with contextlib.suppress(FileNotFoundError):  # of an earlier file
                    history_path(target).unlink()
                record(target, Change(1, now(), "new", {}, digest(data)), 0)
                try:
                    os.link(tmp, target)  # fails if the ledger exists: no check-then-write race
                except BaseException:
                    with contextlib.suppress(OSError):
                        history_path(target).unlink()
                    raise
                fsync_folder(target.parent)
        except FileExistsError:
            raise error(LedgerError, "error.storage.exists").within(path) from None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


Describe = Callable[[Ledger, Ledger, T], tuple[str, dict[str, Any]]]
"""What a change was, for the history: its kind and its values (the ledger before and after,
and what the change returned)."""


def _by_hand_check(before: Ledger, path: str) -> None:
    """Refuse a ledger whose stored numbers its hands no longer give."""
    problems = before.problems()
    if problems:
        first = problems[0]
        more = place("error.storage.more", count=len(problems) - 1) if problems[1:] else ""
        by_hand = error(LedgerError, "error.storage.by_hand", problem=first, more=more, path=path)
        raise by_hand.within(path)


def _commit(target: Path, path: str, new: bytes, new_digest: str, head: Head, step: Change) -> None:
    """Write ``step`` ahead, then the ledger; the rename is the commit.

    Whatever stops it before the rename (a full disk, Ctrl-C, SIGTERM) takes the line back;
    after the rename the change stands (a folder that then fails to sync does not undo it). A
    SIGKILL anywhere leaves at worst a line :func:`reconcile` passes over.
    """
    settle(target, head)
    record(target, step, head.length)
    with _unchanged_unless_written(path):
        try:
            _rename_in(target, new, new_digest)
        except BaseException:
            if _digest_of(target) != new_digest:
                forget_since(target, head.length)
            raise


def _rename_in(target: Path, data: bytes, data_digest: str) -> None:
    """``target`` becomes ``data``, atomically.

    A refused write after the rename (the folder's sync) does not undo it, so it is no error;
    only one that left the old file is.
    """
    try:
        replace_file(target, data)
    except OSError:
        if _digest_of(target) != data_digest:
            raise


def _digest_of(target: Path) -> str | None:
    try:
        return digest(read_regular(target, MAX_LEDGER_BYTES))
    except (OSError, GongzhuError):
        return None


def change_ledger(
    path: str,
    change: Callable[[Ledger], tuple[Ledger, T]],
    describe: Describe[T],
    *,
    check_first: bool = False,
    last_hand_only: bool = False,
    expect: str | None = None,
) -> tuple[Ledger, T]:
    """Read, change and write a ledger under its lock, recording the change.

    A refused change writes nothing. ``check_first``: refuse a ledger whose stored numbers its
    hands no longer give (unless it is as this tool last wrote it, hence checked then).
    ``last_hand_only``: the change needs only the header and the last hand (adding a hand); when
    the ledger is as this tool last wrote it, only those are read, so adding costs the same at
    hand 10,000 as at hand 10. ``expect``: the version (:func:`read_version`) the change was
    made against; refused, the ledger as it is, if it has changed since.
    """
    if not Path(path).is_file():
        read_ledger(path)  # the clear error, without leaving a lock file beside nothing
    target = _target(path)
    with _locked(path, target):
        # Read under the lock: another writer may have changed the ledger meanwhile.
        raw = _read(path)
        hashed = hashlib.sha256(raw)  # kept: the ledger with a hand added hashes on from it
        old_digest = hashed.hexdigest()
        _expected(expect, old_digest, path)
        head = reconcile(target, old_digest)
        tail = _parse_tail(raw, path) if last_hand_only and head.as_written else None
        if tail is not None:
            before, canonical = tail, True
        else:
            before, _, canonical = _parse(raw, path)
        if check_first and not head.as_written:
            _by_hand_check(before, path)
        after, extra = change(before)
        appended = (
            canonical
            and after.same_match(before)
            and after.skipped == before.skipped
            and len(after.entries) == len(before.entries) + 1
            and all(a is b for a, b in zip(after.entries, before.entries, strict=False))
        )
        if appended:  # in bytes: a long ledger is neither decoded, encoded nor hashed again
            added = (b"" if raw.endswith(b"\n") else b"\n") + after.entry_text(
                after.count, after.entries[-1]
            ).encode("utf-8")
            new = raw + added
            hashed.update(added)
            new_digest = hashed.hexdigest()
        else:
            new = after.to_text().encode("utf-8")
            new_digest = digest(new)
            if new == raw:  # a change that changes nothing: nothing written, nothing recorded
                return after, extra
        kind, values = describe(before, after, extra)
        step = Change(
            (head.last.number if head.last is not None else 0) + 1,
            now(),
            kind,
            values,
            new_digest,
            len(raw) if appended else None,
            None if appended else pack(raw),
            old_digest,
        )
        _commit(target, path, new, new_digest, head, step)
    return after, extra


def restore_ledger(path: str) -> tuple[Ledger, Change]:
    """Bring back the ledger as it was before its last recorded change.

    That change leaves the history. It is refused when the ledger is not as the change left it
    (edited since). The older ledger is renamed into place first (the commit), then the line
    cut: a crash between leaves a line :func:`reconcile` recognises as uncommitted and passes
    over. A refused restore changes nothing, the history included.
    """
    if not Path(path).is_file():
        read_ledger(path)
    target = _target(path)
    with _locked(path, target):
        raw = _read(path)
        _parse(raw, path)
        head = reconcile(target, digest(raw))
        last = head.last
        if last is None or last.kind == "new":
            raise error(LedgerError, "error.storage.nothing").within(path)
        if not head.as_written:
            raise error(LedgerError, "error.storage.edited").within(path)
        history = str(history_path(target))
        try:
            previous = last.previous(raw)
        except LedgerError as e:
            raise e.within(history) from None
        expected = last.prior or (head.before_last.after if head.before_last else None)
        if expected is not None and expected != digest(previous):
            raise error(LedgerError, "error.history.astray", number=last.number).within(history)
        ledger, _, _ = _parse(previous, path)
        with _unchanged_unless_written(path):
            _rename_in(target, previous, expected or digest(previous))
        with contextlib.suppress(OSError):  # if it fails, the next change passes the line over
            forget_since(target, head.last_at)
    return ledger, last


def ledger_history(path: str) -> list[Change]:
    """The recorded changes of a ledger, without one that never reached it.

    The ledger is read first, for the clear error if it is not one (:func:`.history.reconcile`).
    """
    raw = _read(path)
    _parse(raw, path)
    return read_history(path, digest(raw))
