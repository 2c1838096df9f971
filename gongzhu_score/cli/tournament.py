"""``gongzhu-score tournament``: a competition across tables (rulings §12.3–12.4).

Wiring only: each command calls one function of :mod:`..match.tournaments` and renders what it
returns with :mod:`..render.tournament`.
"""

from __future__ import annotations

import typer

from ..render.formats import Format, json_text
from ..terms import colon, count_of, say
from .boundary import PROG, HelpOpt, show_help
from .options import (
    AutoPlayOpt,
    EndAtOpt,
    HandsOpt,
    LangOpt,
    NormalizeOpt,
    PlayersOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    ShownFormatOpt,
    TableFormatOpt,
    TeamsOpt,
    TiebreakOpt,
    TournamentArg,
    TournamentNameOpt,
    VariantOpt,
    asked,
    language,
)

__all__ = ["tournament_app"]

tournament_app = typer.Typer(
    name=PROG,
    rich_markup_mode=None,
    add_completion=False,
    help="A tournament across tables: the registered players, rounds seated by the standings, "
    "each table a match ledger beside the tournament file (rulings §12.3–12.4).\n\n"
    "Examples:\n"
    "  gongzhu-score tournament new cup.yaml --players 甲,乙,丙,丁,戊,己,庚,辛 --hands 4\n"
    "  gongzhu-score tournament round cup.yaml\n"
    "  gongzhu-score tournament show cup.yaml --lang zh",
)


@tournament_app.callback(invoke_without_command=True)
def _tournament(ctx: typer.Context, help: HelpOpt = False) -> None:
    if ctx.invoked_subcommand is None:
        show_help(ctx)


@tournament_app.command("new")
def tournament_new(
    tournament_file: TournamentArg,
    players: PlayersOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    end_at: EndAtOpt = None,
    hands: HandsOpt = None,
    auto_play: AutoPlayOpt = None,
    tiebreak: TiebreakOpt = None,
    name: TournamentNameOpt = None,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Start a tournament: register the players (in order: ties go to the earlier) and say how
    every table plays (the options of match new). It is never overwritten.

    Examples:
      gongzhu-score tournament new cup.yaml --players 甲,乙,丙,丁,戊,己,庚,辛 --hands 4
      gongzhu-score tournament new swiss.yaml --players A,B,C,D --tiebreak registration
    """
    from ..errors import TournamentError
    from ..match.actions import split_names
    from ..match.tournaments import new_tournament
    from ..render.tournament import started_text
    from ..terms import error

    lang = language(lang_asked)
    if players is None:
        raise error(TournamentError, "error.cli.tournament_players")
    tournament = new_tournament(
        tournament_file,
        split_names(players),
        options=asked(variant, rules_file, normalize, scale, rounding, teams).scoring(),
        end_at=end_at,
        last_hand=hands,
        auto_play=auto_play,
        tiebreak=tiebreak,
        name=name,
    )
    typer.echo(started_text(tournament_file, tournament, lang), nl=False)


@tournament_app.command("round")
def tournament_round(
    tournament_file: TournamentArg, lang_asked: LangOpt = None, help: HelpOpt = False
) -> None:
    """Seat the next round by the standings (瑞士移位): players in standings order fill the
    tables four at a time, seat 1 North, and each table's match ledger is created beside the
    tournament file. Refused while a table of the last round is still in play.

    Example:
      gongzhu-score tournament round cup.yaml
    """
    from ..match.tournaments import next_round
    from ..render.tournament import round_text

    tournament, tables = next_round(tournament_file)
    rounds = len(tournament.rounds)
    typer.echo(round_text(tournament_file, rounds, tables, language(lang_asked)), nl=False)


@tournament_app.command("show")
def tournament_show(
    tournament_file: TournamentArg,
    fmt: ShownFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """The standings: each player's total (the sum of their deciding totals, rulings §8, over
    the tables they sat at), the matches they played, and the tie-break that placed them where
    they are level (the last match both played, then registration; Swiss: registration).

    Examples:
      gongzhu-score tournament show cup.yaml
      gongzhu-score tournament show cup.yaml --format json
    """
    from ..match.tournaments import tournament_standings
    from ..render import tournament as shown

    standings = tournament_standings(tournament_file)
    if fmt is Format.json:
        typer.echo(json_text(shown.standings_to_dict(standings)), nl=False)
    elif fmt is Format.csv:
        typer.echo(shown.standings_csv(standings), nl=False)
    else:
        lang = language(lang_asked)
        typer.echo(shown.standings_text(tournament_file, standings, lang, table_format), nl=False)


@tournament_app.command("verify")
def tournament_verify(
    tournament_file: TournamentArg, lang_asked: LangOpt = None, help: HelpOpt = False
) -> None:
    """Check the tournament file, every table's ledger against it (of this tournament, its
    players in their seats) and every hand's stored numbers; list each that disagrees.

    Exit 0 when all agree, 1 when a stored number does not; a file that cannot be read is an
    error (exit 2).

    Example:
      gongzhu-score tournament verify cup.yaml
    """
    from ..match.tournaments import verify_tournament

    lang = language(lang_asked)
    standings, problems = verify_tournament(tournament_file, lang)
    for line in problems:
        typer.echo(f"{tournament_file}{colon(lang)}{line}")
    if problems:
        raise typer.Exit(1)
    t = standings.tournament
    tables = sum(len(r) for r in t.rounds)
    typer.echo(
        say(
            "tournament.verified",
            lang,
            file=tournament_file,
            count=len(t.players),
            rounds=count_of("rounds", len(t.rounds), lang),
            tables=count_of("tables", tables, lang),
        ),
        err=True,
    )
