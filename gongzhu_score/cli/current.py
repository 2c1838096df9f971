"""The current match on the command line: a ``match`` command given no ledger.

Every ``match`` command whose first argument is the ledger (:data:`LEDGER_VARIABLE` is that
argument's environment variable: what marks it) may leave it out. Then it uses the match that
``GONGZHU_MATCH`` names, else the one last started or changed from this folder (said on
standard error: ``match: tonight.yaml``), decided once for every such command
(:func:`with_current_ledger`, before the command reads its arguments), by the library's rules of
a bare argument (:func:`gongzhu_score.match.current.ledger_omitted`). Each change
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
from .boundary import HELP_LANG, asked_lang, tell

__all__ = [
    "CURRENT",
    "LEDGER_VARIABLE",
    "current_if_omitted",
    "current_ledger",
    "notice",
    "remember_change",
    "with_current_ledger",
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


CURRENT = "\0current"
"""The ledger argument of a ``match`` command given none, put in its place before the command
reads its arguments (a NUL: no argument a shell passes holds one); its callback
(:func:`current_if_omitted`) makes it the current match's ledger."""


def current_if_omitted(ctx: typer.Context, value: str | None) -> str | None:
    """The ledger argument: the current match's, where :func:`with_current_ledger` left it
    out (looked for when the command reads its arguments, after Click's usage errors)."""
    if value != CURRENT or ctx.resilient_parsing:
        return value
    return current_ledger(ctx.info_name or "show", HELP_LANG.get() or asked_lang(()))


def with_current_ledger(command: Any, args: list[str], names: Sequence[str]) -> list[str]:
    """The arguments of ``match NAME …`` (``names``: match and NAME, as ``args`` give them)
    with :data:`CURRENT` put before the command's own when they leave its ledger out, by the
    library's rules of a bare argument (:func:`gongzhu_score.match.current.ledger_omitted`),
    read from what Click makes of them (parsed leniently, nothing run)."""
    _said.clear()  # (one run's notices; the tests run many in one process)
    found = command.commands.get("match")
    found = found.commands.get(names[1]) if found is not None else None
    at = _after(args, names)
    if found is None or at is None:
        return args
    arguments = [p for p in found.params if p.param_type_name == "argument"]
    if not arguments or arguments[0].envvar != LEDGER_VARIABLE:
        return args  # (match new: its ledger is always named)
    probe = found.make_context(names[1], args[at:], resilient_parsing=True)
    if _source(probe, "help") == "COMMANDLINE":
        return args  # (the help is shown, and no ledger needed)
    given = [_typed(probe, p.name) for p in arguments]
    count = sum(value is not None for value in given) + len(probe.args)
    after = [str(p.metavar or p.name).strip("[]") for p in arguments[1:]]
    from ..match.current import ledger_omitted

    if not ledger_omitted(given[0], count, after, names[1]):
        return args
    return [*args[:at], CURRENT, *args[at:]]


def _after(args: Sequence[str], names: Sequence[str]) -> int | None:
    """Where the arguments of the command ``names`` start in ``args``."""
    at = 0
    for name in names:
        try:
            at = args.index(name, at) + 1
        except ValueError:
            return None
    return at


def _typed(probe: Any, name: str | None) -> str | None:
    """What the command line typed for the parameter ``name`` (not its environment variable's
    or default value), as text."""
    value = probe.params.get(name)
    return None if value is None or _source(probe, name) != "COMMANDLINE" else str(value)


def _source(probe: Any, name: str | None) -> str | None:
    """Where the value of the parameter ``name`` came from (``COMMANDLINE``, ``DEFAULT``…)."""
    return getattr(probe.get_parameter_source(name), "name", None)


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
