"""The error boundary and the help option: every refusal as one ``error:`` line, exit 2.

Every refusal is turned into one ``error: …`` line on stderr and exit code 2 here and nowhere
else (:func:`run`, which runs the command line non-standalone, as Click provides), in the
language asked for: the library's errors say themselves, Click's usage errors are read from
their attributes and said from the catalogs. The library's errors describe the data; the flag
that fixes one is added here. ``--help`` is an eager option of every command
(:data:`HelpOpt`), whose callback shows the page in the language asked for.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import os
import sys
from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Annotated, Any

import typer

from ..errors import GongzhuError, InputError, LedgerNotHandError, MissingCardsError
from ..terminal.streams import prepare_streams, stdin_encoding
from ..terms import (
    LANG_VARIABLE,
    LANGS,
    Listed,
    choose_lang,
    error,
    lang_named,
    place,
    printable,
    say,
)

__all__ = ["PROG", "FormatRefused", "HelpOpt", "asked_lang", "check_lang_variable", "error_line",
           "lang_to_command", "run", "show_help", "tell"]  # fmt: skip

PROG = "gongzhu-score"
HELP_LANG: contextvars.ContextVar[str | None] = contextvars.ContextVar("help", default=None)
"""The language of the command line being run (its help, the current match's notice)."""

# What the command line adds to a library error: the flags that fix it.
_FLAG_HINTS: dict[type[GongzhuError], str] = {
    MissingCardsError: "hint.missing",
    LedgerNotHandError: "hint.ledger_not_hand",
}


def error_line(e: GongzhuError, lang: str = "en") -> str:
    """The message for ``e`` in ``lang``, with the flag that fixes it, on one line."""
    hint = next((h for kind, h in _FLAG_HINTS.items() if isinstance(e, kind)), None)
    if hint is not None:
        return printable(say("error.with_hint", lang, message=e, hint=place(hint)))
    return printable(e.text(lang))  # one line, and nothing from input a terminal would act on


def _lang_given(args: Sequence[str]) -> str | None:
    """The language the command line asks for (``--lang X``, ``--lang=X``), if it does."""
    asked = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            asked = args[i + 1]
        elif arg.startswith("--lang="):
            asked = arg.partition("=")[2]
    return asked


def asked_lang(args: Sequence[str]) -> str:
    """The language the command line asks for (``--lang X``, ``--lang=X``), else the
    environment's: for what is said before the command reads its options, or without them."""
    return choose_lang(_lang_given(args), os.environ)


def check_lang_variable(args: Sequence[str]) -> None:
    """Refuse a ``GONGZHU_LANG`` that names no language the tool speaks (``fr``, ``zh_FR``),
    naming the value and the choices, where it would choose the language: no ``--lang`` given.
    Set but empty, it is unset, as the locale's variables are; they stay a quiet fallback."""
    value = os.environ.get(LANG_VARIABLE)
    if not value or _lang_given(args) is not None or lang_named(value) is not None:
        return
    if os.environ.get(f"_{PROG.replace('-', '_').upper()}_COMPLETE"):  # (completing a word)
        return
    raise error(InputError, "error.lang.variable", variable=LANG_VARIABLE,
                value=printable(repr(value)), langs=Listed(LANGS))  # fmt: skip


class FormatRefused(typer.BadParameter):
    """A ``--format`` the command does not print (:func:`.options.format_option`)."""

    def __init__(self, value: str, formats: Sequence[str]) -> None:
        super().__init__(say("error.cli.format", value=repr(value), formats=", ".join(formats)))
        self.value, self.formats = value, tuple(formats)


# --- the help option ---------------------------------------------------------------------------


def _help(ctx: typer.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        show_help(ctx)
        raise typer.Exit()


HelpOpt = Annotated[bool, typer.Option(
    "--help", "-h", is_eager=True, expose_value=False, callback=_help,
    help="Show this message and exit.")]  # fmt: skip
"""Every command's ``--help``: its page in the language asked (Click's own is turned off at the
root: ``help_option_names`` empty)."""


def show_help(ctx: typer.Context) -> None:
    """The help page of the command ``ctx`` runs, in the language asked for
    (:func:`..render.help.help_page`: Rich, and the page's making, only to be shown)."""
    from ..render.help import help_page

    typer.echo(help_page(ctx.command, ctx, HELP_LANG.get() or asked_lang(())))


# --- the boundary -------------------------------------------------------------------------------


def lang_to_command(args: Sequence[str], groups: Collection[str]) -> list[str]:
    """The arguments with each ``--lang`` given before the command's name moved after it
    (``gongzhu-score --lang zh score …`` is ``score … --lang zh``; through the ``groups``, whose
    own options are flags: ``--lang zh match show`` is ``match show --lang zh``), or dropped
    where no command follows (``gongzhu-score --lang zh --help``: the help's language, read
    already)."""
    taken: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            taken += args[i : i + 2]
            i += 2
        elif arg.startswith("--lang="):
            taken.append(arg)
            i += 1
        elif arg.startswith("-") or arg in groups:  # (a group: its command's name comes next)
            rest.append(arg)
            i += 1
        else:
            break
    if not taken or args[i : i + 1] == ["--"]:
        return list(args)
    return [*rest, *args[i : i + 1], *taken, *args[i + 1 :]] if i < len(args) else rest


def run(args: Sequence[str], prepare: Callable[[list[str]], tuple[Any, list[str]]]) -> int:
    """Runs the command line ``args`` (``prepare`` gives the command, as Typer builds it, and
    the arguments it is given) non-standalone, so that every error, ours or Click's, reads
    ``error: …`` (``错误：`` in Chinese) on one line: exit 2. Returns the exit code."""
    lang = asked_lang(args)
    prefix = say("error.prefix", lang)  # `error: `, `错误：` (one prefix per language)
    streams = prepare_streams(lang)  # none closed, missing or unable to encode: see there
    asked = HELP_LANG.set(lang)
    try:
        check_lang_variable(args)
        command, given = prepare(list(args))
        rv = command.main(args=given, prog_name=PROG, standalone_mode=False)
        sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
        code = rv if isinstance(rv, int) else 0
    except BrokenPipeError:  # `gongzhu-score … | head`: the reader has what it wanted
        silence_stdout()
        code = 1  # as Click ends a command whose pipe closed mid-output
    except GongzhuError as e:
        tell(f"{prefix}{error_line(e, lang)}")
        code = 2
    except typer.TyperException as e:  # Click's usage errors: bad option, bad value, …
        ctx = getattr(e, "ctx", None)
        hint = say("hint.see_help", lang, command=ctx.command_path) if ctx else ""
        from ..render.usage import usage_error

        tell(f"{prefix}{printable(usage_error(e, lang))}{hint}")
        code = 2
    except typer.Abort:
        tell(say("aborted", lang))
        code = 1
    except OSError as e:  # a write the system refused that no layer below expected
        where = f"{e.filename}: " if e.filename else say("error.output", lang)
        tell(printable(f"{prefix}{where}{e.strerror or e}"))
        silence_stdout()  # what is still buffered for it cannot be written either
        code = 2
    except UnicodeDecodeError as e:  # typed at a prompt in another encoding than the input's
        why = f"byte {e.object[e.start : e.start + 1].hex()}, {e.reason}"
        said = say("error.stream.stdin_encoding", lang, encoding=stdin_encoding(), why=why)
        tell(f"{prefix}{said}")
        code = 2
    finally:
        HELP_LANG.reset(asked)
    warning = streams.warning()
    if warning is not None:
        tell(warning)
    return code


def tell(line: str) -> None:
    """A line on standard error; if even that cannot be written (closed, full), the exit code
    alone tells."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        typer.echo(line, err=True)


def silence_stdout() -> None:
    """Standard output pointed at nothing, so that Python's last flush at exit cannot fail
    again with a second message."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)


@contextlib.contextmanager
def reading_stdin(reading: bool = True) -> Iterator[None]:
    """A hand read from ``-`` at a terminal: one line on stderr saying so and how to end it,
    so that the command is not taken for one that hangs."""
    with contextlib.suppress(ValueError, AttributeError):  # (closed: reading it says so)
        if reading and sys.stdin.isatty():
            tell(say("hint.stdin_terminal", asked_lang(sys.argv[1:])))
    yield
