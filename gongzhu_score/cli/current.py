"""The current match on the command line: a ``match`` command given no ledger.

Every ``match`` command whose first argument is the ledger (:data:`LEDGER_VARIABLE` is that
argument's environment variable: what marks it) may leave it out. Then it uses the match that
``GONGZHU_MATCH`` names, else the one last started or changed from this folder (said on
standard error: ``match: tonight.yaml``), decided once for every such command
(:class:`MatchGroup`) before the command reads its arguments, by the library's rules of a bare
argument (:func:`gongzhu_score.match.current.ledger_omitted`). Each change
(``new``, ``add``, ``edit``, ``undo``, ``remove``, ``rename``, ``set``, ``restore``) remembers
its ledger as this folder's current match (:func:`remember_change`); a state folder that cannot
be written is said once, and the change stands.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import typer

from ..terms import Said, printable, say
from .boundary import ErrorsAtTheBoundary, asked_lang, tell

__all__ = [
    "LEDGER_VARIABLE",
    "MatchGroup",
    "current_ledger",
    "notice",
    "remember_change",
    "working_folder",
]

LEDGER_VARIABLE = "GONGZHU_MATCH"
"""The environment variable of a match command's ledger argument (the library's
:data:`~gongzhu_score.match.current.CURRENT_VARIABLE`)."""

_said: set[str] = set()  # the notices said in this run (each once)


def notice(words: Sequence[Said], lang: str) -> None:
    """Each of ``words`` on standard error, in ``lang``, once in a run."""
    for said in words:
        text = said.text(lang)
        if text not in _said:
            _said.add(text)
            tell(printable(text))


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
    from ..match.current import ledger_omitted

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
    tell(printable(say(key, lang, ledger=current.ledger)))
    return current.ledger


def remember_change(ledger_file: str, lang: str) -> None:
    """Remember ``ledger_file`` as the match last changed from this folder; what went wrong
    is said once, on standard error, and nothing fails."""
    from ..match.current import remember, state_folder

    cwd = working_folder()
    if cwd is None:
        return
    notice(remember(state_folder(os.environ), ledger_file, cwd), lang)
