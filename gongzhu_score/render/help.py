"""``--help`` in the table's language, laid out by Rich, which measures wide characters.

Each command's and option's text is English where it is declared; in another language it is
looked up in the catalog by its English (no context), a value's name (``NAME=CARDS``) by context
``metavar``. Rich sets the page in display cells, each text folded where it meets the edge (Rich
breaks lines only at spaces, and Chinese has none: Typer's own Rich help would crop it, so the
page is made here from Rich's tables, the same under every Typer). Rich is imported only to
show help. The columns are measured by :func:`.fit.columns`, the package's one measure; Rich
folds the texts, and measures every character of every page alike (``tests/test_help.py``).
"""

from __future__ import annotations

import inspect
import io
import re
import shutil
from collections.abc import Sequence
from typing import Any

from ..terms import say, translations
from .fit import columns

__all__ = ["help_page", "reflowed", "said_in", "usage_line", "usage_pieces"]


def reflowed(text: str) -> str:
    """A docstring as help shows it: each paragraph on one line, but one whose later lines are
    indented (the examples), which is kept as typed."""
    paragraphs = []
    for block in inspect.cleandoc(text).partition("\f")[0].split("\n\n"):
        lines = [line for line in block.splitlines() if line.strip() != "\b"]
        if any(line[:1].isspace() for line in lines[1:]):
            paragraphs.append("\n".join(lines))
        else:
            paragraphs.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def said_in(text: str, lang: str, context: str | None = None) -> str:
    """A help text (reflowed) or a value's name in ``lang`` (English where it has none)."""
    english = text if context else reflowed(text)
    catalog = translations(lang)
    return catalog.pgettext(context, english) if context else catalog.gettext(english)


def usage_line(pieces: Sequence[str], lang: str) -> str:
    """The usage line's words in ``lang``: ``[选项] [牌局.yaml]``."""
    return " ".join(_piece(piece, lang) for piece in pieces)


def _piece(piece: str, lang: str) -> str:
    optional = piece.startswith("[") and piece.endswith("]")
    core = piece.strip("[]")
    many = core.endswith("...")
    name = said_in(core.removesuffix("..."), lang, "metavar") + ("..." if many else "")
    return f"[{name}]" if optional else name


def help_page(command: Any, ctx: Any, lang: str) -> str:
    """``command``'s help page in ``lang``, as wide as the terminal."""
    from rich.console import Console
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    width = shutil.get_terminal_size().columns
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False, emoji=False)
    usage = usage_line(usage_pieces(command, ctx), lang)
    console.print(Text(f"{say('help.usage', lang)}{ctx.command_path} {usage}", overflow="fold"))
    for paragraph in said_in(command.help or "", lang).split("\n\n") if command.help else ():
        console.print()
        console.print(Padding(Text(paragraph, overflow="fold"), (0, 0, 0, 2)))
    params = [p for p in command.get_params(ctx) if not getattr(p, "hidden", False)]
    params.sort(key=lambda p: "--help" in getattr(p, "opts", ()))  # (help last, as Click has it)
    sections = [
        ("help.arguments", [_row(p, ctx, lang) for p in params if p.param_type_name == "argument"]),
        ("help.options", [_row(p, ctx, lang) for p in params if p.param_type_name != "argument"]),
        ("help.commands", _commands(command, ctx, lang)),
    ]
    for heading, rows in sections:
        if not rows:
            continue
        console.print()
        console.print(say(heading, lang))
        # Both columns' widths given, so that every Rich lays the page out alike.
        first = min(max(columns(name) for name, _ in rows), max(width * 2 // 5, 16))
        table = Table.grid(padding=(0, 2), pad_edge=False)
        table.add_column(width=first, overflow="fold")
        table.add_column(width=max(width - first - 4, 10), overflow="fold")
        for name, text in rows:
            table.add_row(Text(name, overflow="fold"), Text(text, overflow="fold"))
        console.print(Padding(table, (0, 0, 0, 2)))
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())


def usage_pieces(command: Any, ctx: Any) -> list[str]:
    """The usage line's pieces: ``[OPTIONS]``, each argument (``[N]``, ``INPUT...``: in
    brackets where it may be left out, or read from the environment), a group's
    ``COMMAND [ARGS]...``."""
    arguments = [p for p in command.get_params(ctx) if p.param_type_name == "argument"]
    pieces = [command.options_metavar or "[OPTIONS]"]
    for param in arguments:
        name = str(param.metavar or param.name.upper()).strip("[]")
        if param.nargs == -1 and not name.endswith("..."):
            name += "..."
        pieces.append(name if param.required and not param.envvar else f"[{name}]")
    if hasattr(command, "list_commands"):
        pieces.append(getattr(command, "subcommand_metavar", None) or "COMMAND [ARGS]...")
    return pieces


def _row(param: Any, ctx: Any, lang: str) -> tuple[str, str]:
    """A parameter's names and value (``-c, --captured 名字=牌``) and its help with its extras."""
    metavar = param.metavar or ""
    if not metavar.startswith("<"):  # (choices are typed as they are: <en|zh|zh-Hant>)
        metavar = said_in(metavar, lang, "metavar") if metavar else ""
    if param.param_type_name == "argument":
        return metavar or str(param.name).upper(), said_in(param.help or "", lang)
    names = ", ".join(sorted(param.opts, key=lambda o: o.startswith("--")))
    if param.secondary_opts:
        names += " / " + ", ".join(param.secondary_opts)
    name = f"{names} {metavar}".strip()
    extras = []
    kind = getattr(param, "type", None)  # (Typer 0.28: Click's range; 0.29: the option's own)
    kind = getattr(kind, "func", kind)  # (Typer 0.28 with a parser: the parser, its range)
    low = getattr(kind, "min", getattr(param, "min", None))
    high = getattr(kind, "max", getattr(param, "max", None))
    if low is not None and high is not None:
        extras.append(f"{low}<=x<={high}")
    default = param.default
    if getattr(param, "is_flag", False):  # (a flag's default: its own name, where it has two)
        named = param.opts if default else param.secondary_opts
        default = named[-1].lstrip("-") if param.secondary_opts else None
    shown = getattr(param, "show_default", None) is not False
    if shown and default not in (None, False, "", (), []):
        extras.insert(0, say("help.default", lang, value=getattr(default, "value", default)))
    text = said_in(param.help or "", lang)
    return name, f"{text} [{say('semicolon', lang).join(extras)}]" if extras else text


def _commands(group: Any, ctx: Any, lang: str) -> list[tuple[str, str]]:
    """Each command of a group and the first sentence of its help."""
    if not hasattr(group, "list_commands"):
        return []
    rows = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None and not command.hidden:
            first = said_in(command.help or "", lang).split("\n\n")[0]
            rows.append((name, re.split(r"(?<=\.)\s|(?<=。)", first, maxsplit=1)[0]))
    return rows
