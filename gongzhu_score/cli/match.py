"""``gongzhu-score match …``: a match ledger, from the first hand to 当猪 (rulings §8).

Every change (add, remove, undo, edit, rename, set) is recorded beside the ledger, so that
``match restore`` can bring back the ledger as it was before the last one: no change loses a
hand.
"""

from __future__ import annotations

import contextlib
import enum
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from ..core.normalize import MAX_SCALE, Rounding
from ..core.options import ScoringOptions
from ..errors import FirstPigError, LedgerError, PlayersError
from ..io.fields import HandSpec
from ..io.variants import choose_rules
from ..match.ledger import check_end, check_note
from ..render.formats import Format, json_text
from ..terms import Listed, colon, count_of_hands, error, place, printable, say
from .clock import entry_time
from .common import (
    PROG,
    CapturedOpt,
    Command,
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
    silence_stdout,
    with_rest,
)
from .complete import complete_ledger, complete_player
from .current import LEDGER_VARIABLE, MatchGroup, remember_change

if TYPE_CHECKING:
    from ..match.ledger import Ledger

# The ledger, its files and its rendering are imported by the commands that use them, so
# that `gongzhu-score score` does not pay for them at start-up.

DONE_BUT_UNSHOWN = 4
"""The exit code of a change that was made but whose output could not be written."""


@contextlib.contextmanager
def _shown(ledger_file: str, kind: str, values: Mapping[str, object], lang: str) -> Iterator[None]:
    """The output of a change already made. If it cannot be written (a full disk, a closed
    pipe) the change still stands, and that is said: exit 4, never 2, so that a script that
    retries on 2 does not make the change twice. The ledger becomes this folder's current
    match (remembering it never fails the change)."""
    remember_change(ledger_file, lang)
    try:
        yield
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as e:
        from ..match.history import Change
        from ..render.match import change_text

        silence_stdout()
        change = change_text(Change(0, "", kind, values), lang)
        key = f"error.cli.unshown.{kind}" if kind in ("restored", "new") else "error.cli.unshown"
        said = say(key, lang, ledger=ledger_file, change=change, why=e.strerror or str(e))
        with contextlib.suppress(OSError, ValueError, AttributeError):
            typer.echo(printable(f"{say('error.prefix', lang)}{said}"), err=True)
        raise typer.Exit(DONE_BUT_UNSHOWN) from None


match_app = typer.Typer(
    name=PROG,
    cls=MatchGroup,
    rich_markup_mode=None,
    help="Keep a match ledger (YAML, one file per match): new, add, show, explain, undo, remove, "
    "edit, rename, set, history, restore, verify, export.\n\n"
    "\b\nExamples:\n"
    "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
    "  gongzhu-score match add tonight.yaml\n"
    "  gongzhu-score match show tonight.yaml --lang zh",
    no_args_is_help=False,
)

LedgerArg = Annotated[
    str,
    typer.Argument(
        metavar="LEDGER",
        envvar=LEDGER_VARIABLE,  # (what marks the argument the current match stands in for)
        show_envvar=False,
        help="The match's ledger file. Left out: the match GONGZHU_MATCH names, else the one "
        "last started or changed in this folder (said on stderr).",
        autocompletion=complete_ledger,
    ),
]
NewLedgerArg = Annotated[
    str,
    typer.Argument(
        metavar="LEDGER",
        help="The new match's ledger file; it becomes this folder's current match.",
    ),
]
NoteOpt = Annotated[
    str | None,
    typer.Option(
        "--note",
        metavar="TEXT",
        help="A note kept with the hand (one line, at most 200 characters), shown by "
        "'match show LEDGER N' and exported.",
        show_default=False,
    ),
]
EditNoteOpt = Annotated[
    str | None,
    typer.Option(
        "--note",
        metavar="TEXT",
        help="A new note for the hand (--note '' removes it); without it, its note stays.",
        show_default=False,
    ),
]
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
FirstPigOpt = Annotated[
    str | None,
    typer.Option(
        "--first-pig",
        metavar="NAME",
        help="Two decks: who took the first pig (Q♠), when two players took one each; under "
        "the first-lead rule pig they lead the next hand, and the match asks it.",
        show_default=False,
        autocompletion=complete_player,
        callback=lambda name: name.strip() if name else name,  # names are trimmed everywhere
    ),
]
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


@match_app.command("new", cls=Command)
def match_new(
    ledger_file: NewLedgerArg,
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
            autocompletion=complete_ledger,
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
    from ..match.actions import new_match, split_names

    if end_at is not None:
        check_end(end_at, "--end-at")
    if players is None and like is None:
        raise error(LedgerError, "error.cli.players_or_like")
    given = variant is not None or rules_file is not None
    try:
        rules = choose_rules(variant, rules_file) if given else None
        options = ScoringOptions(rules, normalize, scale, rounding, teams)
        names = split_names(players) if players is not None else None
        ledger = new_match(ledger_file, names, like=like, options=options, end_at=end_at)
    except PlayersError as e:
        raise e if players is None else e.within("--players") from None
    started = say("match.new", lang.value, ledger=ledger_file, players=Listed(ledger.players),
                  variant=ledger.variant.name, normalize=ledger.normalization.describe(),
                  end=ledger.end_at)  # fmt: skip
    with _shown(ledger_file, "new", {}, lang.value):
        typer.echo(started)  # the result: on standard output (errors alone go to stderr)


def _hand_for(
    hand_file: str | None,
    captured: list[str] | None,
    exposed: list[str] | None,
    first_exposed: list[str] | None,
    rest: str | None,
    command: str,
    number: int | None = None,
) -> Callable[[Ledger], HandSpec]:
    """The hand to add (or to put in place of hand ``number``) from a file or flags, as a
    function of the ledger: it is read under the ledger's lock, with the match's rules (their
    decks say what 全红 stands for; a record's play is judged by them, as that hand of the
    match). The spec whole, so that who took the first pig, where a record shows it, reaches
    the ledger."""

    def from_input(ledger: Ledger) -> HandSpec:
        from ..match.lead import hand_in_force

        in_force = hand_in_force(ledger, ledger.count + 1 if number is None else number)
        spec, rules, _ = read_hand(hand_file, captured, exposed, first_exposed, rest,
                                   rules=ledger.variant, in_force=in_force,
                                   command=f"match {command}")  # fmt: skip
        return replace(spec, hand=with_rest(spec.hand, rest, rules.decks))

    if hand_file is None and not captured:
        raise no_hand_given(f"match {command}")  # before the ledger is locked
    return from_input


def _asked(
    ledger_file: str,
    hand_file: str | None,
    captured: list[str] | None,
    interactive: bool,
    lang: str,
    number: int | None = None,
    first_pig: str | None = None,
) -> HandSpec | None:
    """The hand typed at the prompts, when they are asked for (no hand given, at a terminal or
    with --interactive), with who took the first pig where it is asked (``first_pig``: said
    already): None when they are not; cancelled at the prompts: exit 1."""
    if hand_file is not None or captured or not (interactive or sys.stdin.isatty()):
        return None
    from ..match.storage import read_ledger
    from .prompts import ask_hand

    ledger = read_ledger(ledger_file)
    start = None
    if number is not None:
        ledger.check_number(number)
        start = ledger.entry(number)
    given = ask_hand(ledger, lang, start, number, first_pig)
    if given is None:
        raise typer.Exit(1)
    return given


def _checked_note(note: str | None) -> str | None:
    """``--note`` as given, refused (naming the flag) unless a hand may keep it."""
    from ..errors import GongzhuError

    try:
        check_note(note)
    except GongzhuError as e:
        raise e.within("--note") from None
    return note


def _source(hand_file: str | None) -> str | None:
    """The hand file as errors name it (flags name the player themselves)."""
    return None if hand_file is None else "<stdin>" if hand_file == "-" else hand_file


@contextlib.contextmanager
def _first_pig_hint() -> Iterator[None]:
    """A hand refused because who took the first pig was not said, with the flag that says it
    (the library's message names the two takers; the flag is the command line's)."""
    try:
        yield
    except FirstPigError as e:
        if len(e.takers) < 2:
            raise
        hint = place("hint.first_pig", first=e.takers[0], second=e.takers[1])
        raise FirstPigError(place("error.with_hint", message=e, hint=hint)) from None


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
    first_pig: FirstPigOpt = None,
    note: NoteOpt = None,
    interactive: InteractiveOpt = False,
    fmt: AddFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
) -> None:
    """Score a hand under the match's rules and add it; print it and the new totals.

    At a terminal with no hand given, it asks each player's cards in turn, checking each line as
    it is typed (any one player may answer rest, 其余: every scoring card the others do not
    take), then shows the hand: add it, cancel, or pick a line to change. A ledger changed
    by hand so that its numbers no longer agree with its cards is refused (see match verify).
    With two decks, when two players each took a pig, say who took the first (--first-pig):
    they lead the next hand.

    \b
    Examples:
      gongzhu-score match add tonight.yaml sample_hands/seed_minus_400.yaml
      gongzhu-score match add tonight.yaml -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
      gongzhu-score match add tonight.yaml            (at a terminal: asks for the cards)
      gongzhu-score match add two-decks.yaml -c 东=猪 -c 南="猪 羊" -c 西= --rest 北 --first-pig 南
    """
    from ..match.actions import add_hand
    from ..render.match import added_text

    note = _checked_note(note)  # (before the prompts: a note refused asks no cards)
    asked = _asked(ledger_file, hand_file, captured, interactive, lang.value, None, first_pig)
    hand = asked or _hand_for(hand_file, captured, exposed, first_exposed, rest, "add")
    said = None if asked else first_pig  # (the prompts began from it)
    with _first_pig_hint():
        added = add_hand(ledger_file, hand, partial=partial, source=_source(hand_file),
                         first_pig=said, entered=entry_time(), note=note)  # fmt: skip
    with _shown(ledger_file, "add", {"hand": added.number}, lang.value):
        typer.echo(added_text(added, lang.value, fmt, table_too=asked is None), nl=False)


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
        hand_csv,
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
            typer.echo(hand_csv(ledger, number), nl=False)
        else:
            typer.echo(render_hand(ledger, number, lang.value, table_format), nl=False)
        return
    if fmt is Format.json:
        typer.echo(json_text(match_to_dict(ledger)), nl=False)
    elif fmt is Format.csv:
        typer.echo(render_match_csv(ledger), nl=False)
    else:
        from .width import terminal_width

        typer.echo(render_match(ledger, lang.value, table_format, terminal_width()), nl=False)


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
    from ..match.actions import read_hand as hand_of_match
    from ..render.match import explained_hand

    ledger, _, result = hand_of_match(ledger_file, number)
    return explained_hand(ledger, number, result, lang)


@match_app.command("undo", cls=Command)
def match_undo(ledger_file: LedgerArg, lang: LangOpt = Lang.en) -> None:
    """Remove the last hand, and print everything needed to enter it again.

    'match restore' brings it back.

    \b
    Example:
      gongzhu-score match undo tonight.yaml
    """
    from ..match.actions import undo_hand
    from ..render.match import taken_text

    taken = undo_hand(ledger_file)
    with _shown(ledger_file, "undo", {"hand": taken.number}, lang.value):
        typer.echo(taken_text(ledger_file, taken, lang.value), nl=False)


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
    from ..match.actions import remove_hand
    from ..match.storage import read_ledger
    from ..render.match import render_hand, taken_text

    if not yes:
        ledger = read_ledger(ledger_file)
        ledger.check_number(number)
        if not sys.stdin.isatty():
            raise error(LedgerError, "error.cli.not_tty", number=number)
        typer.echo(render_hand(ledger, number, lang.value), err=True, nl=False)
        if not typer.confirm(
            say("match.confirm_remove", lang.value, number=number), default=False, err=True
        ):
            typer.echo(say("match.not_removed", lang.value), err=True)
            raise typer.Exit(1)
    taken = remove_hand(ledger_file, number)
    with _shown(ledger_file, "remove", {"hand": number}, lang.value):
        typer.echo(taken_text(ledger_file, taken, lang.value), nl=False)


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
    first_pig: FirstPigOpt = None,
    note: EditNoteOpt = None,
    interactive: InteractiveOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Replace hand N (same input as add) and recompute every total after it.

    At a terminal with no hand given, it shows hand N as it is, each line in the table's card
    notation: pick a line, type it again (Enter keeps it) and confirm; no other line is asked
    again. 'match restore' brings back the hand as it was. The hand is replaced whole: who took
    the first pig (two decks) is said again with --first-pig where add needs it.

    \b
    Example:
      gongzhu-score match edit tonight.yaml 2 fixed-hand.yaml
      gongzhu-score match edit tonight.yaml 2      (at a terminal: change a line or two)
      gongzhu-score match edit two-decks.yaml 2 -c 东=猪 -c 南=猪 -c 西=羊 --rest 北 --first-pig 东
    """
    from ..match.actions import edit_hand
    from ..render.match import edited_text

    note = _checked_note(note)
    asked = _asked(ledger_file, hand_file, captured, interactive, lang.value, number, first_pig)
    hand = asked or _hand_for(hand_file, captured, exposed, first_exposed, rest, "edit", number)
    said = None if asked else first_pig  # (the prompts began from it)
    with _first_pig_hint():
        edited = edit_hand(ledger_file, number, hand, partial=partial, source=_source(hand_file),
                           first_pig=said, note=note)  # fmt: skip
    with _shown(ledger_file, "edit", {"hand": number}, lang.value):
        typer.echo(edited_text(edited, lang.value, table_too=asked is None), nl=False)


@match_app.command("rename", cls=Command)
def match_rename(
    ledger_file: LedgerArg,
    old: Annotated[
        str, typer.Argument(metavar="OLD", help="The name now.", autocompletion=complete_player)
    ],
    new: Annotated[str, typer.Argument(metavar="NEW", help="The new name.")],
    lang: LangOpt = Lang.en,
) -> None:
    """Rename a player everywhere in the ledger ('match restore' brings the old name back).

    \b
    Example:
      gongzhu-score match rename tonight.yaml 北 小北
    """
    from ..match.actions import rename_player

    rename_player(ledger_file, old, new)
    with _shown(ledger_file, "rename", {"old": old, "new": new.strip()}, lang.value):
        typer.echo(say("match.renamed", lang.value, old=old, new=new.strip()))


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
    from ..match.actions import change_settings
    from ..render.match import settings_text

    if end_at is not None:
        check_end(end_at, "--end-at")
    given = variant is not None or rules_file is not None
    rules = choose_rules(variant, rules_file) if given else None
    options = ScoringOptions(rules, normalize, scale, rounding, teams)
    if not options.given() and end_at is None:
        raise error(LedgerError, "error.cli.nothing_to_set")
    changed = change_settings(ledger_file, options, end_at=end_at)
    with _shown(ledger_file, "set", {"changes": changed.changes}, lang.value):
        typer.echo(settings_text(changed, lang.value), nl=False)


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
    from ..match.actions import restore_match
    from ..render.match import change_text, match_status_text

    ledger, change = restore_match(ledger_file)
    what = change_text(change, lang.value)
    with _shown(ledger_file, "restored", {"what": what}, lang.value):
        typer.echo(say("history.restored", lang.value, what=what))
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
    typer.echo(say("match.verified", lang.value, ledger=ledger_file, count=count), err=True)


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
    """One row per hand, one column per player: the finals (or raws) for a spreadsheet, then
    when each hand was entered and its note.

    \b
    Example:
      gongzhu-score match export tonight.yaml --totals --bom > tonight.csv
    """
    from ..match.storage import read_ledger
    from ..render.match import render_export

    text = render_export(read_ledger(ledger_file), fmt, values.value, totals)
    typer.echo(("\ufeff" if bom and fmt is Format.csv else "") + text, nl=False)


ListFormatOpt = Annotated[Format, format_option(Format.table, Format.json, help="table or json.")]


@match_app.command("list", cls=Command)
def match_list(
    fmt: ListFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Your matches: each one started or changed with this tool (in any folder), and the
    ledgers in this folder, with its last change, players, hands and state (in play, or over
    and who is the pig), the newest first. The current one, which a match command given no
    ledger uses, is marked *. A ledger moved or deleted since is listed as missing.

    \b
    Examples:
      gongzhu-score match list
      gongzhu-score match list --format json
    """
    import os

    from ..match.current import list_matches
    from ..render.matches import render_match_list
    from .current import notice, working_folder

    matches = list_matches(os.environ, working_folder())
    notice(matches.problems, lang.value)
    typer.echo(render_match_list(matches, fmt, lang.value, table_format), nl=False)
