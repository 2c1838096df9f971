"""The current match on the command line: a ``match`` command given no ledger.

Every ``match`` command whose first argument is the ledger (:data:`LEDGER_VARIABLE` is that
argument's environment variable: what marks it) may leave it out. Then it uses the match that
``GONGZHU_MATCH`` names, else the one last started or changed from this folder
(:mod:`gongzhu_score.match.current` remembers it), and says which on standard error
(``match: tonight.yaml``). It is decided here, once, for every such command
(:class:`MatchGroup`), before the command reads its arguments:

- Every argument given (``match show L 3``), or more: the ledger was given.
- Fewer: the first one given is the ledger when it is a ledger file (its first line, or a
  top-level ``format:``). Otherwise it is what comes after the ledger, when it can be: a hand
  number (``match show 3``, ``match remove 2``) when it is a whole number; a hand file
  (``match add hand.yaml``) when it is ``-`` or a file that is no ledger; a name (``match
  rename 北 小北``) always. What cannot be (``match show tonight.yaml``, ``match add
  missing.yaml``) is the ledger, as before: its error says what is wrong with it.
- A whole number that is also the name of a ledger file here (``match show 3``, a ledger named
  ``3``) is refused, never guessed: ``./3`` names the file, ``match show LEDGER 3`` the hand.

An explicit ledger always wins over ``GONGZHU_MATCH`` and the remembered one. Each change
(``new``, ``add``, ``edit``, ``undo``, ``remove``, ``rename``, ``set``, ``restore``) remembers
its ledger as this folder's current match (:func:`remember_change`); a state folder that cannot
be written is said once, and the change stands.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Sequence
from typing import Any

import typer

from ..terms import Said, printable, say
from .boundary import ErrorsAtTheBoundary, asked_lang

__all__ = [
    "LEDGER_VARIABLE",
    "MatchGroup",
    "current_ledger",
    "ledger_omitted",
    "notice",
    "remember_change",
    "working_folder",
]

LEDGER_VARIABLE = "GONGZHU_MATCH"
"""The environment variable of a match command's ledger argument (the library's
:data:`~gongzhu_score.match.current.CURRENT_VARIABLE`)."""

_WHOLE = re.compile(r"[+-]?[0-9]+")
_said: set[str] = set()  # the notices said in this run (each once)


def _tell(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        typer.echo(printable(text), err=True)


def notice(words: Sequence[Said], lang: str) -> None:
    """Each of ``words`` on standard error, in ``lang``, once in a run."""
    for said in words:
        text = said.text(lang)
        if text not in _said:
            _said.add(text)
            _tell(text)


def working_folder() -> str | None:
    """The folder the command runs in (None if it was removed under it)."""
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us: nothing is current here
        return None


class MatchGroup(ErrorsAtTheBoundary):
    """The ``match`` group: a command of it given no ledger gets the current one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in self.commands.values():
            for param in command.params:
                if param.param_type_name == "argument" and param.envvar == LEDGER_VARIABLE:
                    # Shown as [LEDGER]: left out, the current match is put in its place
                    # before the command reads its arguments (so it is never missing).
                    param.required = False

    def invoke(self, ctx: Any) -> Any:
        _said.clear()  # (one run's notices; the tests run many in one process)
        return super().invoke(ctx)

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not ctx.resilient_parsing:  # (not while completing)
            rest = _with_ledger(ctx, name, command, rest)
        return name, command, rest


def _with_ledger(ctx: Any, name: str | None, command: Any, args: list[str]) -> list[str]:
    """``args`` with the current match put first when the ledger is left out."""
    params = command.get_params(ctx)
    arguments = [p for p in params if p.param_type_name == "argument"]
    if not arguments or arguments[0].envvar != LEDGER_VARIABLE:
        return args  # (match new: its ledger is always named)
    probe = command.context_class(command, info_name=name, parent=ctx)
    try:
        opts, extra, _ = command.make_parser(probe).parse_args(args=list(args))
    except typer.TyperException:  # a usage error: the command's own parsing says it
        return args
    if opts.get("help"):
        return args
    given = [opts.get(p.name) for p in arguments]
    count = sum(value is not None for value in given) + len(extra)
    after = [str(p.metavar or p.name).strip("[]") for p in arguments[1:]]
    if not ledger_omitted(given[0], count, after, name or "show"):
        return args
    return [current_ledger(name or "show", asked_lang(args)), *args]


def current_ledger(command: str, lang: str) -> str:
    """The current match's ledger for ``command`` given none, said on standard error (with
    what was wrong with the state file, if anything); refused when there is none."""
    from ..match.current import look_for_current

    found = look_for_current(os.environ, working_folder(), command)
    notice(found.problems, lang)  # (said before a refusal too: it may be why)
    current = found.get()
    key = "hint.current_variable" if current.source == "variable" else "hint.current"
    _tell(say(key, lang, ledger=current.ledger))
    return current.ledger


def ledger_omitted(
    first: str | None, count: int, after: Sequence[str], command: str = "show"
) -> bool:
    """Whether a match command's arguments leave the ledger out: ``first`` is the first one
    given, ``count`` how many were given, ``after`` the names of the arguments that follow the
    ledger (``N``, ``HAND.yaml``, ``OLD``…). See the module's text for the rules; a whole
    number that is also a ledger file's name is refused."""
    if first is None or count == 0:
        return True
    if count > len(after):
        return False  # every argument is there (or more: the command says so)
    from ..match.current import is_ledger_file

    ledger = is_ledger_file(first)
    kind = after[0]
    if kind == "N":
        if not _WHOLE.fullmatch(first.strip()):
            return False
        if ledger:
            from ..errors import LedgerError
            from ..terms import error

            raise error(LedgerError, "error.cli.ambiguous", token=first, command=command)
        return True
    if ledger:
        return False
    if kind == "HAND.yaml":
        return first == "-" or os.path.isfile(first)
    return True


def remember_change(ledger_file: str, lang: str) -> None:
    """Remember ``ledger_file`` as the match last changed from this folder; what went wrong
    is said once, on standard error, and nothing fails."""
    from ..match.current import remember, state_folder

    cwd = working_folder()
    if cwd is None:
        return
    notice(remember(state_folder(os.environ), ledger_file, cwd), lang)
