"""The ``gongzhu-score`` command: Typer wiring and rendering only; the work is in the library."""

from __future__ import annotations

from typing import Annotated

import typer

from . import __version__
from .cli_common import (
    PROG,
    CapturedOpt,
    ErrorsAtTheBoundary,
    ExposedOpt,
    FirstExposedOpt,
    Format,
    FormatOpt,
    HandFileArg,
    Lang,
    LangOpt,
    ListFormat,
    NormalizeOpt,
    PartialOpt,
    RestOpt,
    RoundingOpt,
    ScaleOpt,
    TableFormatOpt,
    TeamsOpt,
    VariantOpt,
    read_hand,
)
from .cli_match import match_app
from .errors import GongzhuError
from .normalize import Normalization, Rounding, Teams, parse_teams
from .render import render_result, render_variant, render_variant_list
from .rules import VARIANTS, find_variant
from .scoring import score

app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    help=(
        "Keep the score of 拱猪 (Gongzhu, Chase the Pig).\n\n"
        "Score a hand from the cards each player captured (score), keep a match ledger "
        "until someone is the pig (match), and list or show the rule sets (variants)."
    ),
    add_completion=False,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
variants_app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    help="List the rule sets, or show one in full (variants show NAME).",
    invoke_without_command=True,
)
app.add_typer(variants_app, name="variants")
app.add_typer(match_app, name="match")


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


@app.command("score")
def score_command(
    hand_file: HandFileArg = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
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
    spec = read_hand(hand_file, captured, exposed, first_exposed, rest)
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
