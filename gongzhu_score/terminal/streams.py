"""The standard streams as a command finds them: missing, closed, or not UTF-8.

Python leaves ``sys.stdin``, ``sys.stdout`` or ``sys.stderr`` None when its descriptor was
closed before the program started (``<&-``, ``>&-``, ``2>&-``). :func:`prepare_streams` puts a
stand-in there, and ``/dev/null`` on the descriptor itself, so that no file opened later (a
ledger, say) takes the number 0, 1 or 2 and receives what was meant for a stream:

- no standard input: reading it is an ``error:`` saying so (exit 2); it is no terminal, so no
  prompt is asked;
- no standard output: writing to it is an ``OSError`` like any other refused write (``error:
  cannot write the output: standard output is closed``, exit 2);
- no standard error: what would be said there is said to nobody; the exit code still tells.

An output whose encoding is not UTF-8 (``PYTHONIOENCODING=latin-1``) keeps its encoding: a
character it cannot encode is written ``?`` and one warning at the end says so (ASCII, which
means no locale was set, is written as UTF-8, as Click writes it). Standard input read as text
(the prompts) that its encoding cannot decode is an ``error:``, never a traceback.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys
from typing import Any

from ..errors import InputError
from ..terms import error, say

__all__ = ["Streams", "prepare_streams"]

_REPLACE = "gongzhu-score.replace"
_replaced: list[str] = []
"""The encodings of the outputs that had a character replaced (a warning follows)."""


def _replace(e: UnicodeError) -> tuple[str, int]:
    if not isinstance(e, UnicodeEncodeError):
        raise e
    _replaced.append(e.encoding)
    return "?" * (e.end - e.start), e.end


codecs.register_error(_REPLACE, _replace)


class _Closed(io.RawIOBase):
    """A stand-in for a standard stream whose descriptor was closed.

    Reading it is an error; writing it is a refused write (``stdout``) or nothing at all
    (``stderr``).
    """

    def __init__(self, which: str, lang: str) -> None:
        super().__init__()
        self.which, self.lang = which, lang

    def readable(self) -> bool:
        return self.which == "stdin"

    def writable(self) -> bool:
        return self.which != "stdin"

    def isatty(self) -> bool:
        return False

    def readinto(self, buffer: Any) -> int:
        raise error(InputError, "error.stream.stdin_closed")

    def write(self, data: Any) -> int:
        if self.which == "stderr":
            return len(data)  # nobody to tell
        raise OSError(errno.EBADF, say("error.stream.stdout_closed", self.lang))

    def close(self) -> None:  # (the stand-in is never closed: it stays what it stands for)
        pass


def _stand_in(which: str, lang: str) -> io.TextIOWrapper:
    raw = _Closed(which, lang)
    # write_through: a refused write keeps nothing back to fail again at exit.
    return io.TextIOWrapper(raw, encoding="utf-8", write_through=True)  # type: ignore[arg-type]


def _hold(fd: int) -> None:
    """``/dev/null`` on ``fd`` if nothing is there, so no later file gets it."""
    try:
        os.fstat(fd)
        return  # something holds it already (left alone)
    except OSError:
        pass
    with contextlib.suppress(OSError):
        opened = os.open(os.devnull, os.O_RDWR)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)


def _encoding(stream: Any) -> str:
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name
    except LookupError:
        return "utf-8"


def _reconfigure(stream: Any, **settings: str) -> None:
    with contextlib.suppress(AttributeError, ValueError, OSError, io.UnsupportedOperation):
        stream.reconfigure(**settings)


class Streams:
    """What :func:`prepare_streams` found: the warning to give at the end."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        _replaced.clear()

    def warning(self) -> str | None:
        """The warning for characters an output could not encode, or None."""
        if not _replaced:
            return None
        encodings = ", ".join(dict.fromkeys(_replaced))
        text = say("warning.stream.replaced", self.lang, encoding=encodings)
        try:
            text.encode(_encoding(sys.stderr))
        except UnicodeEncodeError:  # (Chinese on a latin-1 terminal: said in English)
            text = say("warning.stream.replaced", "en", encoding=encodings)
        return text


def prepare_streams(lang: str = "en") -> Streams:
    """Make the standard streams safe to use (the module's text says how)."""
    for fd, which in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, which) is None:
            _hold(fd)
            setattr(sys, which, _stand_in(which, lang))
    for which in ("stdin", "stdout", "stderr"):
        if _encoding(getattr(sys, which)) == "ascii":  # no locale: UTF-8, as Click writes it
            _reconfigure(getattr(sys, which), encoding="utf-8")
    # What the output's encoding cannot hold (a character latin-1 lacks; a byte that was not
    # UTF-8, which surrogateescape would write raw) is written "?", and said once at the end.
    _reconfigure(sys.stdout, errors=_REPLACE)
    _reconfigure(sys.stderr, errors="backslashreplace")
    return Streams(lang)


def stdin_encoding() -> str:
    """Standard input's encoding as a message names it."""
    return _encoding(sys.stdin)
