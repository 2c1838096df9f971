"""The current match: the ledger a ``match`` command given none uses.

It also lists one's matches.

A ``match`` command given no ledger uses the one ``GONGZHU_MATCH`` names, else the one last
started or changed from the folder it runs in. That is remembered in a small file of the user's
state folder (``$XDG_STATE_HOME/gongzhu-score/matches.json``, else
``~/.local/state/gongzhu-score/matches.json``): for each folder the ledger last started or
changed from it, and every ledger started or changed, most recent first (at most
:data:`MAX_REMEMBERED` of each, so the file stays small). It is written atomically, under a lock
(a lock another process holds for long is not waited for: the write is atomic either way, the
later one wins).

Remembering is a convenience, never a reason to fail: a state file that cannot be read (broken,
too large, not this tool's) is ignored, and one that cannot be written is not written; each
function here returns what went wrong as words to say (:class:`~gongzhu_score.terms.Said`), and
raises only for a match that cannot be found (:func:`find_current`).

The environment and the folder are arguments (the command line passes its own): nothing here
reads a clock, the environment or the working folder by itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..errors import GongzhuError, LedgerError
from ..io.files import NotRegularError, atomic_write, open_lock, read_regular
from ..terms import Said, error, place
from .ledger import Ledger, is_whole
from .stats import LEDGER_SUFFIXES, looks_like_a_ledger
from .storage import lock_within, read_ledger

__all__ = [
    "CURRENT_VARIABLE",
    "MAX_REMEMBERED",
    "Current",
    "Found",
    "Listing",
    "Matches",
    "Remembered",
    "find_current",
    "forget_gone",
    "is_gone",
    "is_ledger_file",
    "ledger_omitted",
    "list_matches",
    "look_for_current",
    "named_current",
    "read_state",
    "remember",
    "shown_path",
    "state_folder",
]

CURRENT_VARIABLE = "GONGZHU_MATCH"
"""The environment variable that names the current match (it wins over the remembered one)."""
STATE_FILE = "matches.json"
STATE_FORMAT = 1
MAX_REMEMBERED = 100
"""Folders, and matches, remembered: the oldest are forgotten first."""
MAX_STATE_BYTES = 1_000_000
"""A state file larger than this is not one this tool wrote: ignored."""
LOCK_WAIT_SECONDS = 2.0


@dataclass(frozen=True)
class Remembered:
    """What the state file holds: each folder's current match, every match remembered.

    Paths are absolute. Folders come changed-from longest ago first; matches most recently
    changed first.
    """

    folders: dict[str, str] = field(default_factory=dict)
    matches: tuple[str, ...] = ()

    def changed(self, ledger: str, folder: str) -> Remembered:
        """Remembered after ``ledger`` was started or changed from ``folder``."""
        folders = {k: v for k, v in self.folders.items() if k != folder}
        folders[folder] = ledger
        while len(folders) > MAX_REMEMBERED:
            del folders[next(iter(folders))]
        matches = (ledger, *(m for m in self.matches if m != ledger))[:MAX_REMEMBERED]
        return Remembered(folders, matches)

    def without(self, gone: set[str]) -> Remembered:
        """Remembered with the ledgers ``gone`` forgotten, and the folders whose match they were."""
        folders = {k: v for k, v in self.folders.items() if v not in gone}
        return Remembered(folders, tuple(m for m in self.matches if m not in gone))

    def to_text(self) -> str:
        data = {"format": STATE_FORMAT, "folders": self.folders, "matches": list(self.matches)}
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Remembered:
        """The state in ``text``; ValueError if this tool did not write it."""
        data = json.loads(text)
        if not isinstance(data, dict) or not is_whole(data.get("format"), STATE_FORMAT):
            raise ValueError("not a state file of this format")
        folders, matches = data.get("folders"), data.get("matches")
        if not isinstance(folders, dict) or not isinstance(matches, list):
            raise ValueError("folders or matches missing")
        paths = [*folders, *folders.values(), *matches]
        if not all(isinstance(p, str) and os.path.isabs(p) and "\0" not in p for p in paths):
            raise ValueError("a path that is not absolute")
        return cls(dict(folders), tuple(matches))


def state_folder(env: Mapping[str, str]) -> Path | None:
    """Where the state file lives, or None when nothing says.

    ``$XDG_STATE_HOME/gongzhu-score`` when that is an absolute path (the XDG rule: a relative
    one is ignored), else ``$HOME/.local/state/gongzhu-score``; None when neither is set.
    """
    for base, below in (
        (env.get("XDG_STATE_HOME", ""), ()),
        (env.get("HOME", ""), (".local", "state")),
    ):
        if os.path.isabs(base):
            return Path(base, *below, "gongzhu-score")
    return None


def read_state(folder: Path | None) -> tuple[Remembered, Said | None]:
    """The state (empty if none), and what was wrong with its file.

    A file that cannot be read, or that this tool did not write, is ignored.
    """
    if folder is None:
        return Remembered(), None
    path = folder / STATE_FILE
    try:
        raw = read_regular(path, MAX_STATE_BYTES)
    except (FileNotFoundError, NotADirectoryError):  # nothing remembered yet
        return Remembered(), None
    except GongzhuError:  # (a pipe or a device: never waited on; written anew at a change)
        return Remembered(), place("warning.state.unreadable", file=str(path),
                                   why=place("why.special"))  # fmt: skip
    except OSError as e:
        return Remembered(), place("warning.state.unreadable", file=str(path), why=_why(e))
    try:
        if len(raw) > MAX_STATE_BYTES:
            raise ValueError("too large")
        return Remembered.from_text(raw.decode("utf-8")), None
    except (ValueError, RecursionError):  # (UnicodeDecodeError and JSON's errors included)
        return Remembered(), place("warning.state.broken", file=str(path))


def remember(folder: Path | None, ledger: str, cwd: str) -> list[Said]:
    """Remember ``ledger`` as the current match of the folder ``cwd``.

    It returns what went wrong, as words to say (a state file ignored, one that could not be
    written). It never raises for the file system: remembering is never a reason for a change to
    fail.
    """
    if folder is None:
        return [place("warning.state.nowhere")]
    path = os.path.abspath(ledger)
    said: list[Said] = []
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with _locked(folder / (STATE_FILE + ".lock")):
            state, problem = read_state(folder)
            said += [problem] if problem is not None else []
            changed = state.changed(path, os.path.abspath(cwd))
            if changed != state or problem is not None:
                with atomic_write(folder / STATE_FILE, text=True) as f:
                    f.write(changed.to_text())
    except OSError as e:
        said.append(place("warning.state.unwritable", folder=str(folder), why=_why(e)))
    return said


def is_gone(path: str) -> bool:
    """Whether the ledger ``path`` is gone: no such file (moved or deleted).

    One that cannot be looked at for now (permission denied, a disk that fails) is not gone.
    """
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except (OSError, ValueError):
        return False
    return False


def forget_gone(folder: Path | None) -> tuple[tuple[str, ...], list[Said]]:
    """Forget the remembered ledgers that are gone (:func:`is_gone`), and the folders whose
    current match they were.

    It returns those forgotten, most recent first, and what went wrong, as words to say; like
    :func:`remember` it reads and writes the state under its lock, and never raises for the
    file system.
    """
    if folder is None:
        return (), []
    said: list[Said] = []
    try:
        with _locked(folder / (STATE_FILE + ".lock")):
            state, problem = read_state(folder)
            said += [problem] if problem is not None else []
            remembered = dict.fromkeys([*state.matches, *state.folders.values()])
            gone = tuple(path for path in remembered if is_gone(path))
            if gone and problem is None:  # (a state that cannot be read is not written over)
                with atomic_write(folder / STATE_FILE, text=True) as f:
                    f.write(state.without(set(gone)).to_text())
    except FileNotFoundError:  # no state folder: nothing remembered
        return (), said
    except OSError as e:
        said.append(place("warning.state.unwritable", folder=str(folder), why=_why(e)))
        return (), said
    return gone, said


@contextlib.contextmanager
def _locked(lock: Path) -> Iterator[None]:
    """The state file's lock, for a read and a write at once.

    It is waited for briefly, then done without: the write is atomic, so at worst one process's
    change is the one kept.
    """
    fd = open_lock(lock, 0o600)
    try:
        lock_within(fd, LOCK_WAIT_SECONDS, 0.01)  # (not taken in time: go on without it)
        yield
    finally:
        os.close(fd)


def _why(e: OSError) -> str | Said:
    if isinstance(e, NotRegularError):
        return place("why.special")
    return e.strerror or str(e)


# --- the current match -----------------------------------------------------------------------


@dataclass(frozen=True)
class Current:
    """The current match: its ledger as named, and where it came from.

    The ledger is relative to the folder when it is in it. It came from ``variable``
    (``GONGZHU_MATCH``) or ``folder`` (the one last started or changed here).
    """

    ledger: str
    source: str


def shown_path(path: str, cwd: str) -> str:
    """``path`` as named from the folder ``cwd``: relative when inside, else absolute.

    A relative path never starts with ``-``, which would read as an option.
    """
    absolute = os.path.abspath(os.path.join(cwd, path))
    relative = os.path.relpath(absolute, cwd)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return absolute
    return f".{os.sep}{relative}" if relative.startswith("-") else relative


def named_current(env: Mapping[str, str], cwd: str | None, state: Remembered) -> Current | None:
    """The current match as named, whether or not its ledger still exists.

    That is ``GONGZHU_MATCH`` if set (not empty), else the ledger last started or changed from
    the folder ``cwd``.
    """
    named = env.get(CURRENT_VARIABLE, "")
    if named:
        return Current(f".{os.sep}{named}" if named.startswith("-") else named, "variable")
    found = state.folders.get(os.path.abspath(cwd)) if cwd is not None else None
    return None if found is None else Current(shown_path(found, cwd or os.sep), "folder")


@dataclass(frozen=True)
class Found:
    """The current match looked for: the one found, state-file trouble, and refusal.

    The match is None when none is found; what was wrong with the state file is said even then;
    the refusal says why none can be used.
    """

    current: Current | None
    problems: tuple[Said, ...] = ()
    refusal: LedgerError | None = None

    def get(self) -> Current:
        """The current match, or its refusal raised."""
        if self.refusal is not None or self.current is None:
            raise self.refusal or error(LedgerError, "error.current.none", command="show")
        return self.current


def look_for_current(env: Mapping[str, str], cwd: str | None, command: str = "show") -> Found:
    """The current match (:func:`named_current`), and state-file trouble, if any.

    None, with a refusal saying how to name or start one (``command``: the command it was for),
    when there is none or the remembered ledger is gone. A ledger ``GONGZHU_MATCH`` names is the
    command's to read, and its error to say.
    """
    problems: tuple[Said, ...] = ()
    state = Remembered()
    if not env.get(CURRENT_VARIABLE, ""):
        state, problem = read_state(state_folder(env))
        problems = (problem,) if problem is not None else ()
    current = named_current(env, cwd, state)
    if current is None:
        return Found(None, problems, error(LedgerError, "error.current.none", command=command))
    where = os.path.join(cwd or os.sep, current.ledger)
    if current.source == "folder" and not os.path.lexists(where):
        gone = error(LedgerError, "error.current.gone", ledger=current.ledger, command=command)
        return Found(None, problems, gone)
    return Found(current, problems)


def find_current(
    env: Mapping[str, str], cwd: str | None, command: str = "show"
) -> tuple[Current, list[Said]]:
    """The current match and state-file trouble (:func:`look_for_current`).

    When there is none, its refusal is raised as a :class:`LedgerError`.
    """
    found = look_for_current(env, cwd, command)
    return found.get(), list(found.problems)


def is_ledger_file(path: str) -> bool:
    """Whether ``path`` is a file that says it is a match ledger.

    It says so in its first line, or a top-level ``format:``. A file that cannot be read counts,
    so that reading it says why.
    """
    return os.path.isfile(path) and looks_like_a_ledger(path)


# --- one's matches ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Listing:
    """One match of ``match list``.

    It holds its ledger (``path`` absolute, ``shown`` as named from the folder), whether it is
    the current one, whether it is remembered (else a ledger found in the folder), when its file
    last changed, and the ledger read (None if missing or unreadable: ``problem`` says why).
    """

    path: str
    shown: str
    current: bool
    remembered: bool
    changed: datetime | None = None
    ledger: Ledger | None = None
    missing: bool = False
    problem: GongzhuError | None = None


MAX_FOLDER_FILES = 1000
"""The files of the folder looked at for ledgers (a folder of thousands of hand files is not
read whole to list one's matches)."""


@dataclass(frozen=True)
class Matches:
    """``match list``: one's matches, the current one, and state-file trouble.

    The current one is None when there is none here. ``gone`` are the remembered ledgers left
    out, being gone (:func:`is_gone`); ``forgotten`` those just forgotten (``--forget-gone``).
    """

    listings: tuple[Listing, ...]
    current: Current | None
    problems: tuple[Said, ...] = ()
    gone: tuple[str, ...] = ()
    forgotten: tuple[str, ...] = ()


def list_matches(env: Mapping[str, str], cwd: str | None, forget: bool = False) -> Matches:
    """One's matches, each read, the newest change first.

    They are every remembered one (the state folder of ``env``), the ledgers in the folder
    ``cwd`` (not below it), and the current match. A remembered ledger that is gone is left out
    (unless it is the current one), and with ``forget`` forgotten first. A missing or
    unreadable ledger comes last. Linear in the ledgers' sizes.
    """
    forgotten: tuple[str, ...] = ()
    said: list[Said] = []
    if forget:
        forgotten, said = forget_gone(state_folder(env))
    state, problem = read_state(state_folder(env))
    current = named_current(env, cwd, state)
    here = os.path.abspath(cwd) if cwd is not None else None
    found: dict[str, tuple[str, bool]] = {}  # real path → (path, remembered)

    def add(path: str, remembered: bool) -> str:
        real = os.path.realpath(path)
        found.setdefault(real, (path, remembered))
        return real

    for path in state.matches:
        add(path, True)
    if here is not None:
        for name in _folder_ledgers(here):
            add(os.path.join(here, name), False)
    chosen = add(os.path.join(here or os.sep, current.ledger), False) if current else None
    listed = [_listing(path, here, remembered, real == chosen)
              for real, (path, remembered) in found.items()]  # fmt: skip
    gone = tuple(item.path for item in listed if item.missing and item.remembered
                 and not item.current)  # fmt: skip
    listed = [item for item in listed if item.path not in gone]

    def order(item: Listing) -> tuple[bool, float, str]:
        when = -item.changed.timestamp() if item.changed is not None else 0.0
        return (item.ledger is None, when, item.shown)

    problems = tuple(dict.fromkeys([*said, *([problem] if problem is not None else [])]))
    return Matches(tuple(sorted(listed, key=order)), current, problems, gone, forgotten)


def _folder_ledgers(folder: str) -> list[str]:
    names: list[str] = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if len(names) >= MAX_FOLDER_FILES:
                    break
                if entry.name.endswith(LEDGER_SUFFIXES) and entry.is_file():
                    names.append(entry.name)
    except OSError:
        return []
    return sorted(n for n in names if looks_like_a_ledger(os.path.join(folder, n)))


def _listing(path: str, here: str | None, remembered: bool, current: bool) -> Listing:
    shown = shown_path(path, here) if here is not None else path
    try:
        changed: datetime | None = datetime.fromtimestamp(os.stat(path).st_mtime).astimezone()
    except (FileNotFoundError, NotADirectoryError):  # gone (is_gone)
        return Listing(path, shown, current, remembered, missing=True)
    except OSError:
        changed = None
    try:
        ledger = read_ledger(path)
    except GongzhuError as e:
        return Listing(path, shown, current, remembered, changed, problem=e)
    return Listing(path, shown, current, remembered, changed, ledger)


_WHOLE = re.compile(r"[+-]?[0-9]+")


def ledger_omitted(
    first: str | None, count: int, after: Sequence[str], command: str = "show"
) -> bool:
    """Whether a match command's arguments leave the ledger out.

    ``first`` is the first argument given, ``count`` how many were given, ``after`` the names of
    the arguments that follow the ledger (``N``, ``HAND.yaml``, ``OLD``…).

    - Every argument given (``match show L 3``), or more: the ledger was given.
    - Fewer: the first one given is the ledger when it is a ledger file. Otherwise it is what
      comes after the ledger, when it can be: a hand number (``match show 3``) when it is a
      whole number; a hand file (``match add hand.yaml``) when it is ``-`` or a file that is no
      ledger; a name (``match rename 北 小北``) always. What cannot be (``match show
      tonight.yaml``) is the ledger: its error says what is wrong with it.
    - A whole number that is also the name of a ledger file here is refused, never guessed:
      ``./3`` names the file, ``match show LEDGER 3`` the hand.
    """
    if first is None or count == 0:
        return True
    if count > len(after):
        return False  # every argument is there (or more: the command says so)
    ledger = is_ledger_file(first)
    kind = after[0]
    if kind == "N":
        if not _WHOLE.fullmatch(first.strip()):
            return False
        if ledger:
            raise error(LedgerError, "error.cli.ambiguous", token=first, command=command)
        return True
    if ledger:
        return False
    if kind == "HAND.yaml":
        return first == "-" or os.path.isfile(first)
    return True
