"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library.

Every refusal is turned into one ``error: …`` line on stderr and exit code 2, here and nowhere
else (see :class:`_ErrorsAtTheBoundary`).
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from . import __version__
from .errors import GongzhuError, InputError
from .handfile import HandSpec, hand_from_flags, read_hand_file
from .normalize import Method, Normalization, Rounding, Teams, parse_teams
from .render import render_result, render_variant, render_variant_list
from .rules import VARIANTS, find_variant
from .scoring import score

PROG = "gongzhu-score"


class _ErrorsAtTheBoundary(TyperGroup):
    """Runs commands non-standalone so that every error, ours or Click's, reads ``error: …``."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            rv = super().main(
                args=args,
                prog_name=prog_name or PROG,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
            code = rv if isinstance(rv, int) else 0
        except GongzhuError as e:
            typer.echo(f"error: {e}", err=True)
            code = 2
        except typer.TyperException as e:  # Click's usage errors: bad option, bad value, …
            hint = ""
            ctx = getattr(e, "ctx", None)
            if ctx is not None:
                hint = f" (see '{ctx.command_path} --help')"
            # Typer's choice errors read "Value error, 'x' is not one of …"; drop the jargon.
            message = e.format_message().replace("Value error, ", "")
            typer.echo(f"error: {message}{hint}", err=True)
            code = 2
        except typer.Abort:
            typer.echo("aborted", err=True)
            code = 1
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    name=PROG,
    cls=_ErrorsAtTheBoundary,
    help=(
        "Keep the score of 拱猪 (Gongzhu, Chase the Pig).\n\n"
        "Score a hand from the cards each player captured (score), and list or show "
        "the rule sets (variants)."
    ),
    add_completion=False,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
variants_app = typer.Typer(
    name=PROG,
    cls=_ErrorsAtTheBoundary,
    help="List the rule sets, or show one in full (variants show NAME).",
    invoke_without_command=True,
)
app.add_typer(variants_app, name="variants")


class Format(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"
    yaml = "yaml"


class Lang(str, enum.Enum):
    en = "en"
    zh = "zh"


class ListFormat(str, enum.Enum):
    table = "table"
    json = "json"
    yaml = "yaml"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


FormatOpt = Annotated[
    Format, typer.Option("--format", "-f", help="Output: a table for people, JSON/CSV/YAML.")
]
LangOpt = Annotated[Lang, typer.Option("--lang", help="Table language: en, or zh (中文).")]
TableFormatOpt = Annotated[
    str,
    typer.Option("--table-format", help="Any tabulate table style: simple, github, grid, plain, …"),
]


@app.command("score")
def score_command(
    hand_file: Annotated[
        str | None,
        typer.Argument(
            metavar="HAND.yaml",
            help="A YAML hand file, or - for standard input. Or give the hand with --captured.",
            show_default=False,
        ),
    ] = None,
    *,
    captured: Annotated[
        list[str] | None,
        typer.Option(
            "--captured",
            "-c",
            metavar="NAME=CARDS",
            help="One per player, in seat order (counter-clockwise): the cards that player "
            'captured, e.g. 东="QS 6H 8H 10C". An empty 北= means nothing.',
            show_default=False,
        ),
    ] = None,
    exposed: Annotated[
        list[str] | None,
        typer.Option(
            "--exposed",
            "-e",
            metavar="NAME=CARDS",
            help="Special cards a player exposed (亮牌/卖牌): Q♠ J♦ 10♣ A♥, e.g. 南=AH.",
            show_default=False,
        ),
    ] = None,
    first_exposed: Annotated[
        list[str] | None,
        typer.Option(
            "--first-exposed",
            metavar="NAME=CARD",
            help="A card exposed under 首明 (the first card the player drew): counts ×4.",
            show_default=False,
        ),
    ] = None,
    rest: Annotated[
        str | None,
        typer.Option(
            "--rest",
            metavar="NAME",
            help="This player took every scoring card the others did not (the fourth "
            "player at a table need not count).",
            show_default=False,
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "-v",
            help="Rule set: classic (default), online, dehong, jj, two-deck. Overrides the file's.",
            show_default=False,
        ),
    ] = None,
    normalize: Annotated[
        Method | None,
        typer.Option(
            "--normalize",
            help="Raw to final: none, zero-sum (r − others/3), jj (3r − others). "
            "Default: the variant's.",
            show_default=False,
        ),
    ] = None,
    scale: Annotated[
        int,
        typer.Option("--scale", min=1, help="Multiply the finals (the seed's one-deck ×12)."),
    ] = 1,
    rounding: Annotated[
        Rounding,
        typer.Option("--rounding", help="zero-sum finals: nearest integer, or exact thirds."),
    ] = Rounding.NEAREST,
    teams: Annotated[
        Teams | None,
        typer.Option(
            "--teams",
            help="none (default); partners (打对家: seats 1+3 against 2+4); pig-sheep "
            "(猪羊一家: the takers of the pig and the sheep against the others). "
            "Overrides the file's.",
            show_default=False,
        ),
    ] = None,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial", help="Allow scoring cards nobody captured; the result says partial."
        ),
    ] = False,
    fmt: FormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Score one hand: who captured which scoring cards, and who exposed what.

    \b
    Examples:
      gongzhu-score score sample_hands/seed_minus_400.yaml
      gongzhu-score score --captured 东="QS 6H 8H 10H JH 10C" \\
          --captured 南="AH 2H 3H 4H 5H 7H 9H" --captured 西="JD QH KH" \\
          --captured 北= --exposed 南=AH
      gongzhu-score score -c 东=pig -c 南=♥AKQ -c 西= --rest 北
      cat hand.yaml | gongzhu-score score - --format json

    Cards: QS qs SQ Q♠ ♠Q 黑桃Q, 10C TC C10 10♣, nicknames pig/猪, sheep/羊,
    transformer/变压器, groups H:AKQJ10 ♥AKQ 红桃AKQ, and 全红 for all 13 hearts.
    """
    spec = _read_hand(hand_file, captured or [], exposed or [], first_exposed or [], rest)
    rules = find_variant(variant or spec.variant or "classic")
    team_play = parse_teams(teams or spec.teams or Teams.NONE)
    method = normalize or rules.default_method(team_play)
    norm = Normalization.parse(method, scale, rounding, team_play)
    try:
        hand = spec.hand if rest is None else spec.hand.with_rest(rest, rules.decks)
        result = score(hand, rules, norm, partial=partial)
    except GongzhuError as e:
        if hand_file is None:  # flag errors already name the player
            raise
        raise e.within("<stdin>" if hand_file == "-" else hand_file) from None
    typer.echo(render_result(result, fmt.value, lang.value, table_format), nl=False)


def _read_hand(
    hand_file: str | None,
    captured: list[str],
    exposed: list[str],
    first_exposed: list[str],
    rest: str | None,
) -> HandSpec:
    if hand_file is not None:
        if captured or exposed or first_exposed:
            raise InputError(
                "give the hand either as a file or with --captured/--exposed flags, not both"
            )
        return read_hand_file(hand_file)
    if not captured:
        raise InputError(
            "no hand given: name a hand file (or - for stdin), or give --captured NAME=CARDS "
            f"for each player; see '{PROG} score --help'"
        )
    return HandSpec(hand_from_flags(captured, exposed, first_exposed, rest=rest))


@variants_app.callback()
def _variants_list(
    ctx: typer.Context,
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="table, json or yaml.")] = (
        ListFormat.table
    ),
    lang: LangOpt = Lang.en,
) -> None:
    """List the built-in rule sets; 'variants show NAME' prints one in full."""
    if ctx.invoked_subcommand is None:
        typer.echo(render_variant_list(VARIANTS.values(), fmt.value, lang.value), nl=False)


@variants_app.command("show")
def variants_show(
    name: Annotated[str, typer.Argument(help="classic, online, dehong, jj or two-deck.")],
    fmt: Annotated[ListFormat, typer.Option("--format", "-f", help="table, json or yaml.")] = (
        ListFormat.table
    ),
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Print every rule of one variant: values, exposure, transformer, full red, defaults."""
    typer.echo(render_variant(find_variant(name), fmt.value, lang.value, table_format), nl=False)


def main() -> None:
    """Console-script entry point."""
    typer.main.get_command(app).main(prog_name=PROG)
