"""What the commands share: the error boundary, output choices, the hand input options.

Every refusal is turned into one ``error: …`` line on stderr and exit code 2, here and nowhere
else (see :class:`ErrorsAtTheBoundary`). The library's errors describe the data; the flag that
would fix it (``--rest NAME``, ``--partial``) is added here, where the flags are known.
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
import io
import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from ..api import read_hand_input
from ..core.cards import Card
from ..core.hand import Hand, PlayerHand, check_name
from ..core.normalize import MAX_SCALE, Method, Rounding, Teams
from ..core.variant import Variant
from ..errors import (
    GongzhuError,
    InputError,
    LedgerNotHandError,
    MissingCardsError,
    RestError,
)
from ..io.fields import HandSpec, cards_field, parse_score
from ..io.variants import choose_rules
from ..render.formats import Format
from ..terms import LANGS, error, join, place, printable, say
from .complete import complete_captured, complete_exposed, complete_player, complete_variant
from .streams import prepare_streams, stdin_encoding
from .typer_internals import read_quickly

if TYPE_CHECKING:
    from ..io.records import InForce

PROG = "gongzhu-score"

# What the CLI adds to a library error: the flags that fix it (a term of each language).
_FLAG_HINTS: dict[type[GongzhuError], str] = {
    MissingCardsError: "hint.missing",
    LedgerNotHandError: "hint.ledger_not_hand",
}


def error_line(e: GongzhuError, lang: str = "en") -> str:
    """The message for ``e`` as the command line shows it, in ``lang``: with the flag that
    fixes it."""
    hint = next((h for kind, h in _FLAG_HINTS.items() if isinstance(e, kind)), None)
    if hint is not None:
        return printable(say("error.with_hint", lang, message=e, hint=place(hint)))
    return printable(e.text(lang))  # one line, and nothing from input a terminal would act on


def asked_lang(args: Sequence[str]) -> str:
    """The language the command line asks for (``--lang zh``, ``--lang=zh``, else the
    ``GONGZHU_LANG`` variable), for messages printed before or without the command's options."""
    lang = os.environ.get("GONGZHU_LANG", "en")
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            lang = args[i + 1]
        elif arg.startswith("--lang="):
            lang = arg.partition("=")[2]
    return lang if lang in LANGS else "en"


_HELP_LANG: contextvars.ContextVar[str | None] = contextvars.ContextVar("help", default=None)


def help_lang() -> str:
    """The language ``--help`` is shown in: the command line's (``--lang``, else
    ``GONGZHU_LANG``), set while it runs; outside a run, ``GONGZHU_LANG``'s."""
    lang = _HELP_LANG.get()
    return lang if lang is not None else asked_lang(())


def usage_error(e: Any, lang: str) -> str:
    """One of Click's usage errors (a bad option, a bad value, a missing argument) in ``lang``:
    Click's own words in English, :mod:`.click_zh`'s in Chinese."""
    if lang == "zh":
        from .click_zh import usage_error_zh

        if isinstance(e, FormatRefused):
            refused = say("error.cli.format", lang, value=repr(e.value),
                          formats=join(e.formats, lang))  # fmt: skip
            return f"--format{say('colon', lang)}{refused}"
        return usage_error_zh(e)
    # Typer's choice errors read "Value error, 'x' is not one of …"; drop the jargon.
    return str(e.format_message()).replace("Value error, ", "")


def help_records(command: Any, ctx: Any) -> list[tuple[Any, str, str]]:
    """Each shown parameter of ``command`` with its help line (name, text), the name saying
    what a value is (``NAME=CARDS``, ``FILE``) and never its Python type (``<str>``)."""
    records = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is not None:
            records.append((param, _TYPE_WORDS.sub("", record[0]), record[1]))
    return records


def _help_in(lang: str, command: Any, ctx: Any) -> str | None:
    """``command``'s help page in ``lang``, or None for English (Click's own layout)."""
    if lang != "zh":
        return None
    from .click_zh import help_page  # (only when help is asked in Chinese)

    return help_page(command, ctx, help_records(command, ctx))


def _lang_to_command(args: list[str]) -> list[str]:
    """A group's arguments with a ``--lang`` given before the command's name moved after it,
    to the command's own (``gongzhu-score --lang zh score …`` is ``score … --lang zh``), or
    dropped where no command follows (``gongzhu-score --lang zh --help``: the help's language,
    already read by :func:`asked_lang`)."""
    taken: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--" or not arg.startswith("-"):
            break
        if arg == "--lang" and i + 1 < len(args):
            taken += args[i : i + 2]
            i += 2
            continue
        (taken if arg.startswith("--lang=") else rest).append(arg)
        i += 1
    if not taken or args[i : i + 1] == ["--"]:
        return args
    return [*rest, *args[i : i + 1], *taken, *args[i + 1 :]] if i < len(args) else rest


class ErrorsAtTheBoundary(TyperGroup):
    """Runs commands non-standalone so that every error, ours or Click's, reads ``error: …``
    (``错误：`` in Chinese)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        params = self.get_params(ctx)
        read_quickly(params)  # a group's own options (variants --format)
        if not any("--lang" in p.opts for p in params):
            args = _lang_to_command(args)
        return super().parse_args(ctx, args)

    def get_help(self, ctx: Any) -> str:
        page = _help_in(help_lang(), self, ctx)
        return super().get_help(ctx) if page is None else page

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        lang = asked_lang(sys.argv[1:] if args is None else list(args))
        prefix = say("error.prefix", lang)  # `error: `, `错误：` (one prefix per language)
        streams = prepare_streams(lang)  # none closed, missing or unable to encode: see there
        asked = _HELP_LANG.set(lang)  # the language help is shown in (see Command.get_help)
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or PROG,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            sys.stdout.flush()  # a closed pipe or a full disk shows here, not at exit
            code = rv if isinstance(rv, int) else 0
        except BrokenPipeError:  # `gongzhu-score … | head`: the reader has what it wanted
            _silence_stdout()
            code = 1  # as Click ends a command whose pipe closed mid-output
        except GongzhuError as e:
            _tell(f"{prefix}{error_line(e, lang)}")
            code = 2
        except typer.TyperException as e:  # Click's usage errors: bad option, bad value, …
            hint = ""
            ctx = getattr(e, "ctx", None)
            if ctx is not None:
                hint = say("hint.see_help", lang, command=ctx.command_path)
            _tell(f"{prefix}{printable(usage_error(e, lang))}{hint}")
            code = 2
        except typer.Abort:
            _tell(say("aborted", lang))
            code = 1
        except OSError as e:  # a write the system refused that no layer below expected
            where = f"{e.filename}: " if e.filename else say("error.output", lang)
            _tell(printable(f"{prefix}{where}{e.strerror or e}"))
            _silence_stdout()  # what is still buffered for it cannot be written either
            code = 2
        except UnicodeDecodeError as e:  # typed at a prompt in another encoding than the input's
            why = f"byte {e.object[e.start : e.start + 1].hex()}, {e.reason}"
            said = say("error.stream.stdin_encoding", lang, encoding=stdin_encoding(), why=why)
            _tell(f"{prefix}{said}")
            code = 2
        finally:
            _HELP_LANG.reset(asked)
        warning = streams.warning()
        if warning is not None:
            _tell(warning)
        if standalone_mode:
            sys.exit(code)
        return code


def _tell(line: str) -> None:
    """A line on standard error; if even that cannot be written (closed, full), the exit code
    alone tells."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        typer.echo(line, err=True)


def _silence_stdout() -> None:
    """Standard output pointed at nothing, so that Python's last flush at exit cannot fail
    again with a second message."""
    with contextlib.suppress(OSError, ValueError, AttributeError, io.UnsupportedOperation):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)


silence_stdout = _silence_stdout  # for a command whose change is made but output fails


_TYPE_WORDS = re.compile(
    r" ?<(?:str|int|bool|float|path|int range|float range|text|list\[[a-z]+\])>"
)


def _usage(param: Any) -> str:
    """An argument as the usage line shows it, the same under every Typer: ``LEDGER``,
    ``[N]`` when it may be left out, ``INPUT...`` when it takes many."""
    name = str(param.metavar or param.name.upper()).strip("[]")
    if param.nargs == -1 and not name.endswith("..."):
        name += "..."
    return name if param.required else f"[{name}]"


class Command(TyperCommand):
    """A command whose help names what a value is (``NAME=CARDS``, ``FILE``, ``N``) and never
    its Python type (``<str>``, ``<bool>``): a player reads it, not a programmer. Its options
    are read without pydantic where they can be (:mod:`.typer_internals`)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        read_quickly(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        arguments = [p for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return [self.options_metavar or "[OPTIONS]", *map(_usage, arguments)]

    def get_help(self, ctx: Any) -> str:
        page = _help_in(help_lang(), self, ctx)
        return super().get_help(ctx) if page is None else page

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param, name, text in help_records(self, ctx):
            (arguments if param.param_type_name == "argument" else options).append((name, text))
        for title, records in (("Arguments", arguments), ("Options", options)):
            if records:
                with formatter.section(title):
                    formatter.write_dl(records)


class Lang(str, enum.Enum):
    en = "en"
    zh = "zh"


class FormatRefused(typer.BadParameter):
    """A ``--format`` the command does not print (said in the table's language at the
    boundary)."""

    def __init__(self, value: str, formats: Sequence[str]) -> None:
        super().__init__(
            say("error.cli.format", "en", value=repr(value), formats=", ".join(formats))
        )
        self.value, self.formats = value, tuple(formats)


def format_option(*supported: Format, help: str) -> Any:
    """``--format``/``-f`` for a command that prints ``supported``; any other is refused (exit
    2), never quietly printed as something else."""
    names = [f.value for f in supported]

    def parse(value: str) -> Format:
        if value not in names:
            raise FormatRefused(value, names)
        return Format(value)

    return typer.Option(
        "--format", "-f", parser=parse, metavar="<" + "|".join(names) + ">", help=help
    )


FormatOpt = Annotated[
    Format,
    format_option(Format.table, Format.json, Format.csv, Format.yaml,
                  help="Output: a table for people, or json, csv, yaml."),
]  # fmt: skip
LangOpt = Annotated[
    Lang,
    typer.Option(
        "--lang",
        envvar="GONGZHU_LANG",
        help="Language of tables, prompts and messages: en, or zh (中文). The environment "
        "variable GONGZHU_LANG sets the default.",
    ),
]
TableFormatOpt = Annotated[
    str,
    typer.Option(
        "--table-format",
        metavar="STYLE",
        help="Any tabulate table style: simple, github, grid, plain, …",
    ),
]


VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "-v",
        metavar="NAME",
        help="Rule set: classic (default), online, dehong, jj, two-deck. Overrides the file's.",
        show_default=False,
        autocompletion=complete_variant,
    ),
]
NormalizeOpt = Annotated[
    Method | None,
    typer.Option(
        "--normalize",
        help="Raw to final: none, zero-sum (r − others/3), jj (3r − others). "
        "Default: the variant's.",
        show_default=False,
    ),
]
ScaleOpt = Annotated[
    int,
    typer.Option(
        "--scale",
        min=1,
        max=MAX_SCALE,
        metavar="N",
        help="Multiply the finals (the seed's one-deck ×12).",
    ),
]
RoundingOpt = Annotated[
    Rounding,
    typer.Option("--rounding", help="zero-sum finals: nearest integer, or exact thirds."),
]
TeamsOpt = Annotated[
    Teams | None,
    typer.Option(
        "--teams",
        help="none (default); partners (打对家: seats 1+3 against 2+4); pig-sheep "
        "(猪羊一家: the takers of the pig and the sheep against the others). "
        "Overrides the file's.",
        show_default=False,
    ),
]


RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        metavar="FILE",
        help="House rules: a YAML file in the variants' schema (start from "
        "'gongzhu-score variants show classic --format yaml'). Instead of --variant.",
        show_default=False,
    ),
]


class ClaimsAre(str, enum.Enum):
    raw = "raw"
    final = "final"


ClaimOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--claim",
        metavar="NAME=SCORE",
        help="What a player says they scored, e.g. 南=-200; each wrong claim is shown with "
        "the right number, and the command exits 3.",
        show_default=False,
    ),
]
ClaimsAreOpt = Annotated[
    ClaimsAre,
    typer.Option("--claims-are", help="Claims are raw scores (原始分) or final scores."),
]


def parse_claims(values: list[str] | None) -> dict[str, int]:
    """``--claim NAME=SCORE`` flags by name."""
    claims: dict[str, int] = {}
    for value in values or ():
        name, sep, number = value.partition("=")
        if not sep or not name.strip():
            raise error(InputError, "error.cli.claim", value=repr(value))
        _refuse_bytes(name.strip(), "--claim")
        claims[name.strip()] = parse_score(number, f"--claim {name.strip()}")
    return claims


def _refuse_bytes(name: str, flag: str) -> None:
    """A name holding bytes that are not UTF-8 (read from the command line as lone
    surrogates) is refused at once, naming the flag and showing the bytes (``\\xff``)."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        try:
            check_name(name)
        except GongzhuError as e:
            raise e.recast(InputError).within(flag) from None


HandFileArg = Annotated[
    str | None,
    typer.Argument(
        metavar="HAND.yaml",
        help="A YAML hand file, or - for standard input. Or give the hand with --captured.",
        show_default=False,
    ),
]
CapturedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--captured",
        "-c",
        metavar="NAME=CARDS",
        help="One per player, in seat order (counter-clockwise): the cards that player "
        'captured, e.g. 东="QS 6H 8H 10C". An empty 北= means nothing.',
        show_default=False,
        autocompletion=complete_captured,
    ),
]
ExposedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--exposed",
        "-e",
        metavar="NAME=CARDS",
        help="Special cards a player exposed (亮牌/卖牌): Q♠ J♦ 10♣ A♥, e.g. 南=AH.",
        show_default=False,
        autocompletion=complete_exposed,
    ),
]
FirstExposedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--first-exposed",
        metavar="NAME=CARD",
        help="A card exposed under 首明 (the first card the player drew): counts ×4.",
        show_default=False,
        autocompletion=complete_exposed,
    ),
]
RestOpt = Annotated[
    str | None,
    typer.Option(
        "--rest",
        metavar="NAME",
        help="This player took every scoring card the others did not (the fourth "
        "player at a table need not count).",
        show_default=False,
        autocompletion=complete_player,
        callback=lambda name: name.strip() if name else name,  # names are trimmed everywhere
    ),
]
PartialOpt = Annotated[
    bool,
    typer.Option("--partial", help="Allow scoring cards nobody captured; the result says partial."),
]


def _reading_stdin() -> None:
    """A hand read from ``-`` while standard input is a terminal: one line on stderr saying so
    and how to end it, so that the command is not taken for one that hangs."""
    try:
        if not sys.stdin.isatty():
            return
    except (ValueError, AttributeError):  # (closed: reading it says so)
        return
    # (a terminal's standard input: the command line is sys.argv, its --lang said there)
    typer.echo(say("hint.stdin_terminal", asked_lang(sys.argv[1:])), err=True)


def read_hand(
    hand_file: str | None,
    captured: list[str] | None,
    exposed: list[str] | None,
    first_exposed: list[str] | None,
    rest: str | None,
    *,
    variant: str | None = None,
    rules_file: str | None = None,
    rules: Variant | None = None,
    teams: Teams | None = None,
    in_force: InForce | None = None,
    own_play: bool = False,
    command: str = "score",
) -> tuple[HandSpec, Variant, str | None]:
    """The hand from a file (or ``-``) or from the flags, never both; the rules to score it by
    (``rules``, else ``--rules``, ``--variant`` or the file's own); and the file as errors name
    it (None for flags, whose errors name the player already). The cards are read with those
    rules' decks (全红 is 26 hearts in two decks); a record's play is judged by those rules,
    ``teams`` and what ``in_force`` adds (a match's), or by its own (``own_play``)."""
    if hand_file is not None:
        if captured or exposed or first_exposed:
            raise error(InputError, "error.cli.file_or_flags")
        if hand_file == "-":
            _reading_stdin()
        spec, chosen = read_hand_input(hand_file, variant=variant, rules_file=rules_file,
                                       rules=rules, teams=teams, in_force=in_force,
                                       own_play=own_play)  # fmt: skip
        return spec, chosen, "<stdin>" if hand_file == "-" else hand_file
    if not captured:
        raise no_hand_given(command)
    chosen = rules if rules is not None else choose_rules(variant, rules_file)
    hand = hand_from_flags(captured, exposed or (), first_exposed or (), rest=rest,
                           decks=chosen.decks)  # fmt: skip
    return HandSpec(hand), chosen, None


def no_hand_given(command: str) -> InputError:
    return error(InputError, "error.cli.no_hand", command=command)


def split_flag(flag: str, value: str) -> tuple[str, str]:
    """``NAME=CARDS`` into its two parts, or an error showing the form."""
    name, sep, cards = value.partition("=")
    if not sep or not name.strip():
        raise error(InputError, "error.cli.name_cards", flag=flag, value=repr(value))
    _refuse_bytes(name.strip(), flag)
    return name.strip(), cards


def hand_from_flags(
    captured: Iterable[str],
    exposed: Iterable[str] = (),
    first_exposed: Iterable[str] = (),
    *,
    rest: str | None = None,
    decks: int = 1,
) -> Hand:
    """Build a hand from ``--captured NAME=CARDS`` (seat order) and the exposure flags.

    ``rest`` names the player who will take the scoring cards nobody else took
    (:meth:`Hand.with_rest`, once the variant is known); when three players are listed, it
    is the fourth seat, so that ``--exposed`` may name it.
    """
    seats: dict[str, tuple[Card, ...]] = {}
    for value in captured:
        name, cards = split_flag("--captured", value)
        if name in seats:
            raise error(InputError, "error.cli.captured_twice", name=name)
        seats[name] = cards_field(cards, f"--captured {name}", decks)
    if rest is not None and rest not in seats and len(seats) == 3:
        seats[rest] = ()
    shown: dict[str, dict[str, tuple[Card, ...]]] = {"--exposed": {}, "--first-exposed": {}}
    for flag, values in (("--exposed", exposed), ("--first-exposed", first_exposed)):
        for value in values:
            name, cards = split_flag(flag, value)
            if name not in seats:
                raise error(InputError, "error.cli.flag_player", flag=flag, name=name,
                            quoted=repr(name))  # fmt: skip
            more = cards_field(cards, f"{flag} {name}", decks)
            shown[flag][name] = shown[flag].get(name, ()) + more
    return Hand(
        tuple(
            PlayerHand(name, cards, shown["--exposed"].get(name, ()),
                       shown["--first-exposed"].get(name, ()))
            for name, cards in seats.items()
        )
    )  # fmt: skip


def with_rest(hand: Hand, rest: str | None, decks: int) -> Hand:
    """The hand with ``--rest NAME`` applied (its error naming the flag)."""
    if rest is None:
        return hand
    try:
        return hand.with_rest(rest, decks)
    except RestError as e:
        raise e.within(f"--rest {rest}") from None
