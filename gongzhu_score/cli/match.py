"""``gongzhu-score match …``: a match ledger, from the first hand to 当猪 (RULINGS §8).

Every change (add, remove, undo, edit, rename, set) is recorded beside the ledger, so that
``match restore`` can bring back the ledger as it was before the last one: no change loses a
hand.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.engine import HandResult
from ..core.hand import Hand
from ..core.normalize import MAX_SCALE, Method, Normalization, Rounding
from ..errors import GongzhuError, LedgerError, MatchOverError
from ..render.formats import Format, format_number, json_text
from ..render.hand import render_result, result_to_dict
from ..terms import Listed, colon, count_of_hands, error, place, say
from .common import (
    PROG,
    CapturedOpt,
    Command,
    ErrorsAtTheBoundary,
    ExposedOpt,
    FirstExposedOpt,
    HandFileArg,
    Lang,
    LangOpt,
    NormalizeOpt,
    PartialOpt,
    RestOpt,
    RulesOpt,
    TableFormatOpt,
    TeamsOpt,
    VariantOpt,
    format_option,
    no_hand_given,
    read_hand,
    resolve_rules,
    with_rest,
)

if TYPE_CHECKING:
    from ..match.ledger import Ledger, LedgerEntry

# The ledger, its files and its rendering are imported by the commands that use them, so
# that `gongzhu-score score` does not pay for them at start-up.

match_app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    rich_markup_mode=None,
    help="Keep a match ledger (YAML, one file per match): new, add, show, explain, undo, remove, "
    "edit, rename, set, history, restore, verify, export.\n\n"
    "\b\nExamples:\n"
    "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
    "  gongzhu-score match add tonight.yaml\n"
    "  gongzhu-score match show tonight.yaml --lang zh",
    no_args_is_help=False,
)

LedgerArg = Annotated[str, typer.Argument(metavar="LEDGER", help="The match's ledger file.")]
HandNumberArg = Annotated[int, typer.Argument(metavar="N", help="A hand of the match (1 = first).")]
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
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do it without asking (for scripts).")]
EndAtOpt = Annotated[
    int | None,
    typer.Option(
        "--end-at",
        metavar="N",
        help="The end, a negative total: a raw total at or below it (default -1000); in team "
        "play a final total reaching it or its opposite.",
        show_default=False,
    ),
]


class Values(str, enum.Enum):
    final = "final"
    raw = "raw"


@match_app.callback(invoke_without_command=True)
def _match(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


def _end_flag(end_at: int | None) -> int | None:
    """``--end-at`` as given, refused (with the likely fix) unless it is negative."""
    if end_at is not None and end_at >= 0:
        fix = (
            place("e.led.end_fix", value=f"--end-at {-end_at}") if end_at else place("e.led.end_eg")
        )
        raise error(LedgerError, "e.cli.end_at", value=end_at, fix=fix)
    return end_at


@match_app.command("new", cls=Command)
def match_new(
    ledger_file: LedgerArg,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar="NAMES",
            help="Four names in seat order (counter-clockwise): 东,南,西,北.",
            show_default=False,
        ),
    ] = None,
    like: Annotated[
        str | None,
        typer.Option(
            "--like",
            metavar="LEDGER",
            help="Start with the players and rules of another match (options given here win).",
            show_default=False,
        ),
    ] = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: Annotated[
        int | None,
        typer.Option(
            "--scale",
            min=1,
            max=MAX_SCALE,
            metavar="N",
            help="Multiply the finals (default 1).",
            show_default=False,
        ),
    ] = None,
    rounding: Annotated[
        Rounding | None,
        typer.Option(
            "--rounding",
            help="zero-sum finals: nearest (default) or exact thirds.",
            show_default=False,
        ),
    ] = None,
    teams: TeamsOpt = None,
    end_at: EndAtOpt = None,
    lang: LangOpt = Lang.en,
) -> None:
    """Start a match ledger. It is never overwritten.

    \b
    Examples:
      gongzhu-score match new tonight.yaml --players 东,南,西,北
      gongzhu-score match new tomorrow.yaml --like tonight.yaml
    """
    from ..match.ledger import Ledger
    from ..match.storage import create_ledger, read_ledger

    _end_flag(end_at)
    old = read_ledger(like) if like is not None else None
    if players is None and old is None:
        raise error(LedgerError, "e.cli.players_or_like")
    if old is not None and variant is None and rules_file is None:
        rules = old.variant
    else:
        rules = resolve_rules(variant, rules_file, None)
    base = old.normalization if old is not None else None
    norm = rules.normalization(
        normalize if normalize is not None else (base.method if base else None),
        scale if scale is not None else (base.scale if base else 1),
        rounding or (base.rounding if base else Rounding.NEAREST),
        teams if teams is not None else (base.teams if base else None),
    )
    if players is None:
        assert old is not None
        names: list[str] = list(old.players)
    else:
        names = players.replace("，", ",").replace("、", ",").split(",")
    end = end_at if end_at is not None else (old.end_at if old is not None else None)
    try:
        ledger = Ledger.new(names, rules, norm, end)
    except LedgerError as e:
        if "players" in str(e) and players is not None:
            raise e.within("--players") from None
        raise
    create_ledger(ledger_file, ledger)
    started = say("m.new", lang.value, ledger=ledger_file, players=Listed(ledger.players),
                  variant=rules.name, normalize=norm.describe(), end=ledger.end_at)  # fmt: skip
    typer.echo(started, err=True)


def _hand_for(
    ledger_file: str,
    hand_file: str | None,
    captured: list[str] | None,
    exposed: list[str] | None,
    first_exposed: list[str] | None,
    rest: str | None,
    command: str,
) -> Callable[[Ledger], Hand]:
    """The hand to add from a file or flags, as a function of the ledger: it is read under
    the ledger's lock, with the match's rules (their decks say what 全红 stands for)."""

    def from_input(ledger: Ledger) -> Hand:
        spec, rules = read_hand(
            hand_file,
            captured,
            exposed,
            first_exposed,
            rest,
            lambda asked: ledger.variant,
            f"match {command}",
        )
        return with_rest(spec.hand, rest, rules.decks)

    if hand_file is None and not captured:
        raise no_hand_given(f"match {command}")  # before the ledger is locked
    return from_input


def _interactive(hand_file: str | None, captured: list[str] | None, interactive: bool) -> bool:
    return hand_file is None and not captured and (interactive or sys.stdin.isatty())


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


def _report(
    ledger: Ledger, result: HandResult, number: int, lang: str, fmt: Format, table: bool = True
) -> None:
    """The hand just added and the totals after it (the table only if not shown already)."""
    from ..render.match import match_status_text, totals_to_dict

    status = ledger.status()
    if fmt is Format.json:
        data = {
            "hand": number,
            **result_to_dict(result),
            "totals": totals_to_dict(ledger),
            "ended": status.ended,
            "loser": status.loser,
            "winner": status.winner,
        }
        typer.echo(json_text(data), nl=False)
        return
    if table:
        typer.echo(say("m.hand_title", lang, number=number))
        typer.echo(render_result(result, Format.table, lang), nl=False)
    else:
        typer.echo(say("m.added", lang, number=number))
    last = ledger.entries[-1]
    totals = Listed(
        f"{n} {r} ({format_number(f)})"
        for n, r, f in zip(ledger.players, last.total_raw, last.total_final, strict=True)
    )
    typer.echo(say("m.totals", lang, totals=totals))
    typer.echo(match_status_text(ledger, status, lang))


@match_app.command("add", cls=Command)
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

    At a terminal with no hand given, it asks each player's cards in turn, checking each line as
    it is typed, then shows the hand: add it, cancel, or pick a line to change. A ledger changed
    by hand so that its numbers no longer agree with its cards is refused (see match verify).

    \b
    Examples:
      gongzhu-score match add tonight.yaml sample_hands/seed_minus_400.yaml
      gongzhu-score match add tonight.yaml -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
      gongzhu-score match add tonight.yaml            (at a terminal: asks for the cards)
    """
    from ..match.storage import change_ledger, read_ledger

    asked = _interactive(hand_file, captured, interactive)
    if asked:
        from .prompts import ask_hand

        given = ask_hand(read_ledger(ledger_file), lang.value)
        if given is None:
            raise typer.Exit(1)
        hand: Callable[[Ledger], Hand] = lambda ledger: given  # noqa: E731
    else:
        hand = _hand_for(ledger_file, hand_file, captured, exposed, first_exposed, rest, "add")
    ledger, result = change_ledger(
        ledger_file,
        _naming(ledger_file, hand_file, hand, lambda lg, h: lg.add(h, partial=partial)),
        lambda before, after, _: ("add", {"hand": after.count}),
        check_first=True,
        last_hand_only=True,
    )
    _report(ledger, result, ledger.count, lang.value, fmt, table=not asked)


@match_app.command("show", cls=Command)
def match_show(
    ledger_file: LedgerArg,
    number: Annotated[
        int | None,
        typer.Argument(
            metavar="[N]",
            help="One hand, whole: its cards, exposures and scores.",
            show_default=False,
        ),
    ] = None,
    fmt: ShowFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Every hand's finals with running totals, who leads next, and whether the match ended;
    or hand N with its cards, exposures, raw and final scores and the totals after it.

    \b
    Examples:
      gongzhu-score match show tonight.yaml
      gongzhu-score match show tonight.yaml 3 --lang zh
      gongzhu-score match show tonight.yaml 3 --format json
    """
    from ..match.storage import read_ledger
    from ..render.match import (
        hand_to_dict,
        match_to_dict,
        render_hand,
        render_match,
        render_match_csv,
    )

    ledger = read_ledger(ledger_file)
    if number is not None:
        ledger.check_number(number)
        if fmt is Format.json:
            typer.echo(json_text(hand_to_dict(ledger, number)), nl=False)
        elif fmt is Format.csv:
            from ..render.formats import csv_text

            data = hand_to_dict(ledger, number)
            keys = ["name", "captured", "exposed", "first_exposed", "raw", "final", "total"]
            rows = [
                [" ".join(v) if isinstance(v, list) else v for v in (p[k] for k in keys)]
                for p in data["players"]
            ]
            typer.echo(csv_text([keys, *rows]), nl=False)
        else:
            typer.echo(render_hand(ledger, number, lang.value, table_format), nl=False)
        return
    if fmt is Format.json:
        typer.echo(json_text(match_to_dict(ledger)), nl=False)
    elif fmt is Format.csv:
        typer.echo(render_match_csv(ledger), nl=False)
    else:
        typer.echo(render_match(ledger, lang.value, table_format), nl=False)


@match_app.command("explain", cls=Command)
def match_explain(ledger_file: LedgerArg, number: HandNumberArg, lang: LangOpt = Lang.en) -> None:
    """Explain hand N of the match step by step, under the match's rules (also: explain LEDGER N).

    \b
    Example:
      gongzhu-score match explain tonight.yaml 3 --lang zh
    """
    typer.echo(explain_hand(ledger_file, number, lang.value), nl=False)


def explain_hand(ledger_file: str, number: int, lang: str) -> str:
    """The derivation of hand ``number`` of a match (``match explain``, ``explain LEDGER N``)."""
    from ..match.storage import read_ledger
    from ..render.explain import explain

    ledger = read_ledger(ledger_file)
    ledger.check_number(number)
    entry = ledger.entries[number - 1]
    head = say("m.hand_view", lang, number=number, count=len(ledger.entries))
    return f"{head}\n\n" + explain(ledger.score(entry.hand, partial=entry.partial), lang)


def _removed(ledger_file: str, entry: LedgerEntry, number: int, lang: str) -> None:
    """Everything needed to enter a removed hand again, and how to bring it back."""
    from ..render.match import reentry_command

    parts = [
        f"{p.name} [{' '.join(c.code for c in p.captured)}] {raw}"
        for p, raw in zip(entry.hand.players, entry.raw, strict=True)
    ]
    typer.echo(say("m.removed", lang, number=number, players=say("semicolon", lang).join(parts)))
    typer.echo(say("m.readd", lang, command=reentry_command(ledger_file, entry)))
    typer.echo(say("m.restore_hint", lang, ledger=ledger_file))


@match_app.command("undo", cls=Command)
def match_undo(ledger_file: LedgerArg, lang: LangOpt = Lang.en) -> None:
    """Remove the last hand, and print everything needed to enter it again.

    'match restore' brings it back.

    \b
    Example:
      gongzhu-score match undo tonight.yaml
    """
    from ..match.ledger import Ledger
    from ..match.storage import change_ledger
    from ..render.match import match_status_text

    ledger, removed = change_ledger(
        ledger_file, Ledger.undo, lambda before, after, _: ("undo", {"hand": len(before.entries)})
    )
    _removed(ledger_file, removed, len(ledger.entries) + 1, lang.value)
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


@match_app.command("remove", cls=Command)
def match_remove(
    ledger_file: LedgerArg, number: HandNumberArg, yes: YesOpt = False, lang: LangOpt = Lang.en
) -> None:
    """Remove hand N (any hand), redo every total after it; asks first at a terminal.

    'match restore' brings it back.

    \b
    Example:
      gongzhu-score match remove tonight.yaml 2 --yes
    """
    from ..match.storage import change_ledger, read_ledger
    from ..render.match import match_status_text, render_hand

    if not yes:
        ledger = read_ledger(ledger_file)
        ledger.check_number(number)
        if not sys.stdin.isatty():
            raise error(LedgerError, "e.cli.not_tty", number=number)
        typer.echo(render_hand(ledger, number, lang.value), err=True, nl=False)
        if not typer.confirm(
            say("m.confirm_remove", lang.value, number=number), default=False, err=True
        ):
            typer.echo(say("m.not_removed", lang.value), err=True)
            raise typer.Exit(1)
    ledger, removed = change_ledger(
        ledger_file,
        lambda lg: lg.remove(number),
        lambda before, after, _: ("remove", {"hand": number}),
    )
    _removed(ledger_file, removed, number, lang.value)
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


@match_app.command("edit", cls=Command)
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
    """Replace hand N (same input as add) and recompute every total after it.

    At a terminal with no hand given, it asks line by line starting from hand N as it is: Enter
    keeps a line. 'match restore' brings back the hand as it was.

    \b
    Example:
      gongzhu-score match edit tonight.yaml 2 fixed-hand.yaml
      gongzhu-score match edit tonight.yaml 2      (at a terminal: change a line or two)
    """
    from ..match.storage import change_ledger, read_ledger
    from ..render.match import match_status_text

    asked = _interactive(hand_file, captured, interactive)
    if asked:
        from .prompts import ask_hand

        current = read_ledger(ledger_file)
        current.check_number(number)
        given = ask_hand(current, lang.value, current.entries[number - 1], number)
        if given is None:
            raise typer.Exit(1)
        hand: Callable[[Ledger], Hand] = lambda ledger: given  # noqa: E731
    else:
        hand = _hand_for(ledger_file, hand_file, captured, exposed, first_exposed, rest, "edit")
    ledger, result = change_ledger(
        ledger_file,
        _naming(ledger_file, hand_file, hand, lambda lg, h: lg.edit(number, h, partial=partial)),
        lambda before, after, _: ("edit", {"hand": number}),
    )
    typer.echo(say("m.replaced", lang.value, number=number))
    if not asked:
        typer.echo(render_result(result, Format.table, lang.value), nl=False)
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


@match_app.command("rename", cls=Command)
def match_rename(
    ledger_file: LedgerArg,
    old: Annotated[str, typer.Argument(metavar="OLD", help="The name now.")],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new name.")],
    lang: LangOpt = Lang.en,
) -> None:
    """Rename a player everywhere in the ledger ('match restore' brings the old name back).

    \b
    Example:
      gongzhu-score match rename tonight.yaml 北 小北
    """
    from ..match.storage import change_ledger

    change_ledger(
        ledger_file,
        lambda lg: (lg.rename(old, new), None),
        lambda before, after, _: ("rename", {"old": old, "new": new.strip()}),
    )
    typer.echo(say("m.renamed", lang.value, old=old, new=new.strip()), err=True)


@match_app.command("set", cls=Command)
def match_set(
    ledger_file: LedgerArg,
    end_at: EndAtOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: Annotated[
        int | None,
        typer.Option(
            "--scale",
            min=1,
            max=MAX_SCALE,
            metavar="N",
            help="Multiply the finals.",
            show_default=False,
        ),
    ] = None,
    rounding: Annotated[
        Rounding | None,
        typer.Option(
            "--rounding", help="zero-sum finals: nearest or exact thirds.", show_default=False
        ),
    ] = None,
    teams: TeamsOpt = None,
    lang: LangOpt = Lang.en,
) -> None:
    """Change the match's settings after its start: every hand is scored again under them and
    every total redone; it says what moved. 'match restore' brings the old settings back.

    \b
    Examples:
      gongzhu-score match set tonight.yaml --end-at -800
      gongzhu-score match set tonight.yaml --variant dehong --scale 12
    """
    from ..match.storage import change_ledger, read_ledger

    _end_flag(end_at)
    current = read_ledger(ledger_file)
    rules = None
    if variant is not None or rules_file is not None:
        rules = resolve_rules(variant, rules_file, None)
    old = current.normalization
    norm: Normalization | None = None
    if rules is not None or normalize or scale or rounding or teams:
        base = rules or current.variant
        method: Method | None = normalize
        if method is None and rules is None:
            method = old.method  # a method chosen before stays unless asked
        norm = base.normalization(
            method,
            scale or old.scale,
            rounding or old.rounding,
            teams if teams is not None else old.teams,
        )
    if rules is None and norm is None and end_at is None:
        raise error(LedgerError, "e.cli.nothing_to_set")

    def change(ledger: Ledger) -> tuple[Ledger, dict[str, tuple[str, str]]]:
        after = ledger.with_settings(rules, norm, end_at)
        return after, _settings_changed(ledger, after)

    before = current
    after, changed = change_ledger(
        ledger_file, change, lambda b, a, changes: ("set", {"changes": changes})
    )
    _report_settings(before, after, changed, lang.value)


def _settings_changed(before: Ledger, after: Ledger) -> dict[str, tuple[str, str]]:
    def shown(ledger: Ledger) -> dict[str, str]:
        n = ledger.normalization
        return {
            "variant": ledger.variant.name,
            "normalize": n.method.value,
            "scale": str(n.scale),
            "rounding": n.rounding.value,
            "teams": n.teams.value,
            "end_at": str(ledger.end_at),
        }

    old, new = shown(before), shown(after)
    if before.variant != after.variant and old["variant"] == new["variant"]:
        new["variant"] += " (house rules)"
    return {key: (old[key], new[key]) for key in old if old[key] != new[key]}


def _report_settings(
    before: Ledger, after: Ledger, changed: dict[str, tuple[str, str]], lang: str
) -> None:
    from ..render.match import match_status_text

    if not changed:
        typer.echo(say("m.unchanged", lang))
        return
    for key, (old, new) in changed.items():
        typer.echo(say("m.settings", lang, what=key, before=old, after=new))
    if before.entries:
        typer.echo(say("m.moved", lang))
        b, a = before.entries[-1], after.entries[-1]
        for i, name in enumerate(after.players):
            typer.echo(
                f"  {name}{colon(lang)}{b.total_raw[i]} ({format_number(b.total_final[i])}) → "
                f"{a.total_raw[i]} ({format_number(a.total_final[i])})"
            )
    typer.echo(say("m.end_now", lang, status=match_status_text(after, after.status(), lang)))


@match_app.command("history", cls=Command)
def match_history(
    ledger_file: LedgerArg, lang: LangOpt = Lang.en, table_format: TableFormatOpt = "simple"
) -> None:
    """Every recorded change of the match, oldest first; 'match restore' reverts the last one.

    \b
    Example:
      gongzhu-score match history tonight.yaml --lang zh
    """
    from ..match.storage import ledger_history
    from ..render.match import render_history

    typer.echo(render_history(ledger_history(ledger_file), lang.value, table_format), nl=False)


@match_app.command("restore", cls=Command)
def match_restore(ledger_file: LedgerArg, lang: LangOpt = Lang.en) -> None:
    """Bring back the ledger exactly as it was before its last recorded change (an add, a
    removed or edited hand, a rename, new settings). Repeat to go further back.

    \b
    Example:
      gongzhu-score match restore tonight.yaml
    """
    from ..match.storage import restore_ledger
    from ..render.match import change_text, match_status_text

    ledger, change = restore_ledger(ledger_file)
    typer.echo(say("h.restored", lang.value, what=change_text(change, lang.value)))
    typer.echo(match_status_text(ledger, ledger.status(), lang.value))


@match_app.command("verify", cls=Command)
def match_verify(ledger_file: LedgerArg, lang: LangOpt = Lang.en) -> None:
    """Recompute every hand from its stored input; list each stored number that disagrees.

    Exit 0 when all agree, 1 when any does not (a hand-edited or tampered ledger).

    \b
    Example:
      gongzhu-score match verify tonight.yaml
    """
    from ..match.storage import read_ledger

    ledger = read_ledger(ledger_file)
    problems = ledger.verify(lang.value)
    for line in problems:
        typer.echo(f"{ledger_file}{colon(lang.value)}{line}")
    if problems:
        raise typer.Exit(1)
    count = count_of_hands(len(ledger.entries), lang.value)
    typer.echo(say("m.verified", lang.value, ledger=ledger_file, count=count), err=True)


@match_app.command("export", cls=Command)
def match_export(
    ledger_file: LedgerArg,
    fmt: ExportFormatOpt = Format.csv,
    values: Annotated[Values, typer.Option("--values", help="final (default) or raw.")] = (
        Values.final
    ),
    totals: Annotated[
        bool, typer.Option("--totals", help="A last row, 'total', with each player's sum.")
    ] = False,
    bom: Annotated[
        bool,
        typer.Option(
            "--bom",
            help="Start the CSV with a byte-order mark, so that Excel reads Chinese names right.",
        ),
    ] = False,
) -> None:
    """One row per hand, one column per player: the finals (or raws) for a spreadsheet.

    \b
    Example:
      gongzhu-score match export tonight.yaml --totals --bom > tonight.csv
    """
    from ..match.storage import read_ledger
    from ..render.match import render_export

    text = render_export(read_ledger(ledger_file), fmt, values.value, totals)
    typer.echo(("\ufeff" if bom and fmt is Format.csv else "") + text, nl=False)
