"""``gongzhu-score match …``: a match ledger, from the first hand to 当猪 (RULINGS §8)."""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.cards import parse_cards
from ..core.engine import HandResult
from ..core.hand import Hand, PlayerHand
from ..core.normalize import Rounding
from ..errors import GongzhuError, LedgerError, MatchOverError
from ..render.formats import Format, format_number
from ..render.hand import render_result, result_to_dict
from ..terms import count_of_hands, say
from .common import (
    PROG,
    CapturedOpt,
    ErrorsAtTheBoundary,
    ExposedOpt,
    FirstExposedOpt,
    HandFileArg,
    Lang,
    LangOpt,
    NormalizeOpt,
    PartialOpt,
    RestOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    TableFormatOpt,
    TeamsOpt,
    VariantOpt,
    format_option,
    no_hand_given,
    read_hand,
    resolve_rules,
    split_flag,
    with_rest,
)

if TYPE_CHECKING:
    from ..match.ledger import Ledger, LedgerEntry

# The ledger, its files and its rendering are imported by the commands that use them, so
# that `gongzhu-score score` does not pay for them at start-up.

match_app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    help="Keep a match ledger (YAML, one file per match): new, add, show, undo, edit, rename, "
    "verify, export.",
    no_args_is_help=False,
)

LedgerArg = Annotated[str, typer.Argument(metavar="LEDGER", help="The match's ledger file.")]


class Values(str, enum.Enum):
    final = "final"
    raw = "raw"


@match_app.callback(invoke_without_command=True)
def _match(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@match_app.command("new")
def match_new(
    ledger_file: LedgerArg,
    players: Annotated[
        str,
        typer.Option(
            "--players", "-p", help="Four names in seat order (counter-clockwise): 东,南,西,北."
        ),
    ],
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    end_at: Annotated[
        int | None,
        typer.Option(
            "--end-at",
            help="The end: a raw total at or below this (default -1000); in team play a final "
            "total reaching ± this.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start a match ledger. It is never overwritten.

    \b
    Example:
      gongzhu-score match new tonight.yaml --players 东,南,西,北
    """
    from ..match.ledger import Ledger
    from ..match.storage import create_ledger

    rules = resolve_rules(variant, rules_file, None)
    norm = rules.normalization(normalize, scale, rounding, teams)
    names = [n for n in players.replace("，", ",").replace("、", ",").split(",")]
    ledger = Ledger.new(names, rules, norm, end_at)
    create_ledger(ledger_file, ledger)
    typer.echo(
        f"new match in {ledger_file}: {', '.join(ledger.players)} · {rules.name} · "
        f"{norm.describe()} · ends at {ledger.end_at}",
        err=True,
    )


def _hand_for(
    ledger_file: str,
    hand_file: str | None,
    captured: list[str] | None,
    exposed: list[str] | None,
    first_exposed: list[str] | None,
    rest: str | None,
    interactive: bool,
    command: str,
    lang: str,
) -> Callable[[Ledger], Hand]:
    """The hand to add, from a file, from flags, or asked for at the terminal.

    It comes as a function of the ledger, called under the ledger's lock: ``--rest`` needs
    the match's rules (one deck or two), and the ledger is read only once there.
    """
    from ..match.storage import read_ledger

    if hand_file is None and not captured and (interactive or sys.stdin.isatty()):
        current = read_ledger(ledger_file)
        asked = _ask_hand(current)
        typer.echo(render_result(current.score(asked), Format.table, lang), err=True, nl=False)
        if not typer.confirm("Add this hand to the ledger?", default=True, err=True):
            raise typer.Abort()
        return lambda ledger: asked

    def from_input(ledger: Ledger) -> Hand:
        # The match's rules, whatever the file says: its decks say what 全红 stands for.
        spec, rules = read_hand(hand_file, captured, exposed, first_exposed, rest,
                                lambda asked: ledger.variant, f"match {command}")  # fmt: skip
        return with_rest(spec.hand, rest, rules.decks)

    if hand_file is None and not captured:
        raise no_hand_given(f"match {command}")  # before the ledger is locked
    return from_input


def _naming(
    ledger_file: str,
    hand_file: str | None,
    hand: Callable[[Ledger], Hand],
    change: Callable[[Ledger, Hand], tuple[Ledger, HandResult]],
) -> Callable[[Ledger], tuple[Ledger, HandResult]]:
    """``change`` with the hand read for it, its refusals prefixed with the file they are about
    (the hand's own reading errors name it already)."""

    def run(ledger: Ledger) -> tuple[Ledger, HandResult]:
        given = hand(ledger)
        try:
            return change(ledger, given)
        except MatchOverError as e:
            raise e.within(ledger_file) from None
        except GongzhuError as e:
            if hand_file is None:
                raise
            raise e.within("<stdin>" if hand_file == "-" else hand_file) from None

    return run


def _ask_hand(ledger: Ledger) -> Hand:
    """Ask each player's cards in turn; a bad card is asked again, never fatal."""
    while True:
        captured: dict[str, tuple] = {}  # type: ignore[type-arg]
        rest_player: str | None = None
        for name in ledger.players:
            while True:
                text = typer.prompt(
                    f"{name} captured (blank: nothing; 'rest': every scoring card left)",
                    default="",
                    show_default=False,
                    err=True,
                )
                if text.strip().lower() in ("rest", "其余", "剩下"):
                    if rest_player is None:
                        rest_player, captured[name] = name, ()
                        break
                    typer.echo(f"error: {rest_player} already takes the rest", err=True)
                    continue
                try:
                    captured[name] = parse_cards(text)
                    break
                except GongzhuError as e:
                    typer.echo(f"error: {name}: {e}; try again", err=True)
        exposed = _ask_exposures("exposed (亮牌)", ledger)
        first = (
            _ask_exposures("首明 (first card drawn, exposed)", ledger)
            if ledger.variant.first_exposure_allowed
            else {}
        )
        hand = Hand(
            tuple(
                PlayerHand(n, captured[n], exposed.get(n, ()), first.get(n, ()))
                for n in ledger.players
            )
        )
        try:
            if rest_player is not None:
                hand = hand.with_rest(rest_player, ledger.variant.decks)
            ledger.score(hand)
            return hand
        except GongzhuError as e:
            typer.echo(f"error: {e}; let's enter the hand again", err=True)


def _ask_exposures(what: str, ledger: Ledger) -> dict[str, tuple]:  # type: ignore[type-arg]
    while True:
        text = typer.prompt(
            f"{what}: NAME=CARDS, several joined by ';' (blank: none)",
            default="",
            show_default=False,
            err=True,
        )
        shown: dict[str, tuple] = {}  # type: ignore[type-arg]
        try:
            for part in filter(str.strip, text.replace("；", ";").split(";")):
                name, cards = split_flag(what, part.strip())
                if name not in ledger.players:
                    raise LedgerError(f"no player named {name!r} ({', '.join(ledger.players)})")
                shown[name] = shown.get(name, ()) + parse_cards(cards)
            return shown
        except GongzhuError as e:
            typer.echo(f"error: {e}; try again", err=True)


def _report(ledger: Ledger, result: HandResult, number: int, lang: str, fmt: Format) -> None:
    from ..render.match import match_status_text, match_to_dict

    status = ledger.status()
    if fmt is Format.json:
        import json

        data = {
            "hand": number,
            **result_to_dict(result),
            "totals": match_to_dict(ledger)["totals"],
            "ended": status.ended,
            "loser": status.loser,
            "winner": status.winner,
        }
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(say("m.hand_title", lang, number=number))
    typer.echo(render_result(result, Format.table, lang), nl=False)
    last = ledger.entries[-1]
    totals = ", ".join(
        f"{n} {r} ({format_number(f)})"
        for n, r, f in zip(ledger.players, last.total_raw, last.total_final, strict=True)
    )
    typer.echo(say("m.totals", lang, totals=totals))
    typer.echo(match_status_text(ledger, status, lang))


AddFormatOpt = Annotated[Format, format_option(Format.table, Format.json, help="table or json.")]
ShowFormatOpt = Annotated[
    Format, format_option(Format.table, Format.json, Format.csv, help="table, json or csv.")
]
ExportFormatOpt = Annotated[Format, format_option(Format.csv, Format.json, help="csv or json.")]
InteractiveOpt = Annotated[
    bool,
    typer.Option(
        "--interactive",
        "-i",
        help="Ask for each player's cards (the default when no hand is given at a terminal).",
    ),
]


@match_app.command("add")
def match_add(
    ledger_file: LedgerArg,
    hand_file: HandFileArg = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    partial: PartialOpt = False,
    interactive: InteractiveOpt = False,
    fmt: AddFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
) -> None:
    """Score a hand under the match's rules and add it; print it and the new totals.

    \b
    Examples:
      gongzhu-score match add tonight.yaml sample_hands/seed_minus_400.yaml
      gongzhu-score match add tonight.yaml -c 东=pig -c 南=♥AKQ -c 西= --rest 北
      gongzhu-score match add tonight.yaml            (at a terminal: asks for the cards)
    """
    from ..match.storage import change_ledger

    hand = _hand_for(
        ledger_file,
        hand_file,
        captured,
        exposed,
        first_exposed,
        rest,
        interactive,
        "add",
        lang.value,
    )
    ledger, result = change_ledger(
        ledger_file,
        _naming(ledger_file, hand_file, hand, lambda lg, h: lg.add(h, partial=partial)),
    )
    _report(ledger, result, len(ledger.entries), lang.value, fmt)


@match_app.command("show")
def match_show(
    ledger_file: LedgerArg,
    fmt: ShowFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Every hand's finals with running totals, who leads next, and whether the match ended."""
    from ..match.storage import read_ledger
    from ..render.match import match_to_dict, render_match, render_match_csv

    ledger = read_ledger(ledger_file)
    if fmt is Format.json:
        import json

        typer.echo(json.dumps(match_to_dict(ledger), ensure_ascii=False))
    elif fmt is Format.csv:
        typer.echo(render_match_csv(ledger), nl=False)
    else:
        typer.echo(render_match(ledger, lang.value, table_format), nl=False)


@match_app.command("undo")
def match_undo(ledger_file: LedgerArg, lang: LangOpt = Lang.en) -> None:
    """Remove the last hand and print it."""
    from ..match.ledger import Ledger
    from ..match.storage import change_ledger
    from ..render.match import match_status_text

    ledger, removed = change_ledger(ledger_file, Ledger.undo)
    typer.echo(_entry_text(ledger, removed, len(ledger.entries) + 1, lang.value))
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


def _entry_text(ledger: Ledger, entry: LedgerEntry, number: int, lang: str) -> str:
    parts = [
        f"{p.name} [{' '.join(c.code for c in p.captured)}] {raw}"
        for p, raw in zip(entry.hand.players, entry.raw, strict=True)
    ]
    return say("m.removed", lang, number=number, players="; ".join(parts))


@match_app.command("edit")
def match_edit(
    ledger_file: LedgerArg,
    number: Annotated[int, typer.Argument(metavar="N", help="The hand to replace (1 = first).")],
    hand_file: HandFileArg = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    partial: PartialOpt = False,
    interactive: InteractiveOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Replace hand N (same input as add) and recompute every total after it."""
    from ..match.storage import change_ledger
    from ..render.match import match_status_text

    hand = _hand_for(
        ledger_file,
        hand_file,
        captured,
        exposed,
        first_exposed,
        rest,
        interactive,
        "edit",
        lang.value,
    )
    ledger, result = change_ledger(
        ledger_file,
        _naming(ledger_file, hand_file, hand, lambda lg, h: lg.edit(number, h, partial=partial)),
    )
    typer.echo(say("m.replaced", lang.value, number=number))
    typer.echo(render_result(result, Format.table, lang.value), nl=False)
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


@match_app.command("rename")
def match_rename(
    ledger_file: LedgerArg,
    old: Annotated[str, typer.Argument(help="The name now.")],
    new: Annotated[str, typer.Argument(help="The new name.")],
) -> None:
    """Rename a player everywhere in the ledger."""
    from ..match.storage import change_ledger

    change_ledger(ledger_file, lambda lg: (lg.rename(old, new), None))
    typer.echo(f"renamed {old} to {new.strip()}", err=True)


@match_app.command("verify")
def match_verify(ledger_file: LedgerArg) -> None:
    """Recompute every hand from its stored input; list each stored number that disagrees.

    Exit 0 when all agree, 1 when any does not (a hand-edited or tampered ledger).
    """
    from ..match.storage import read_ledger

    ledger = read_ledger(ledger_file)
    problems = ledger.verify()
    for line in problems:
        typer.echo(f"{ledger_file}: {line}")
    if problems:
        raise typer.Exit(1)
    count = count_of_hands(len(ledger.entries), "en")
    typer.echo(f"{ledger_file}: {count}, every number agrees", err=True)


@match_app.command("export")
def match_export(
    ledger_file: LedgerArg,
    fmt: ExportFormatOpt = Format.csv,
    values: Annotated[Values, typer.Option("--values", help="final (default) or raw.")] = (
        Values.final
    ),
) -> None:
    """One row per hand, one column per player: the finals (or raws) for a spreadsheet."""
    from ..match.storage import read_ledger
    from ..render.match import render_export

    typer.echo(render_export(read_ledger(ledger_file), fmt, values.value), nl=False)
