"""``gongzhu-score match …``: a match ledger, from the first hand to 当猪 (rulings §8).

Every change (add, remove, undo, edit, rename, set) is recorded beside the ledger, so that
``match restore`` can bring back the ledger as it was before the last one: no change loses a
hand. The ledger, its files and its rendering are imported by the commands that use them.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

import typer

from ..errors import FirstPigError, LedgerError, MatchOverError, PlayersError
from ..render.formats import Format, json_text
from ..terms import Listed, colon, count_of_hands, error, place, printable, say
from .boundary import PROG, HelpOpt, show_help, silence_stdout, tell
from .clock import entry_time
from .current import remember_change
from .options import (
    AutoPlayedOpt,
    AutoPlayOpt,
    BomOpt,
    CapturedOpt,
    EditNumberArg,
    EndAtOpt,
    ExportFormatOpt,
    ExposedOpt,
    FirstExposedOpt,
    FirstPigOpt,
    ForgetGoneOpt,
    HandFileArg,
    HandInput,
    HandNumberArg,
    HandsOpt,
    InteractiveOpt,
    LangOpt,
    LastCardOpt,
    LedgerArg,
    LikeOpt,
    NewArg,
    NewLedgerArg,
    NormalizeOpt,
    NoteOpt,
    OldArg,
    PartialOpt,
    PlainFormatOpt,
    PlayersOpt,
    RestOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    ShownFormatOpt,
    ShownNumberArg,
    TableFormatOpt,
    TeamsOpt,
    TitleOpt,
    TotalsOpt,
    Values,
    ValuesOpt,
    VariantOpt,
    YesOpt,
    asked,
    hand_input,
    language,
    no_hand_given,
)

if TYPE_CHECKING:
    from ..core.auto_play import AutoPlayed
    from ..io.fields import HandSpec
    from ..match.ledger import Ledger

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
        tell(printable(f"{say('error.prefix', lang)}{said}"))
        raise typer.Exit(DONE_BUT_UNSHOWN) from None


match_app = typer.Typer(
    name=PROG,
    rich_markup_mode=None,
    add_completion=False,
    help="Keep a match ledger (YAML, one file per match): new, add, show, explain, undo, remove, "
    "edit, rename, set, history, restore, verify, export, summary, chart, list.\n\n"
    "Examples:\n"
    "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
    "  gongzhu-score match add tonight.yaml\n"
    "  gongzhu-score match show tonight.yaml --lang zh",
)


@match_app.callback(invoke_without_command=True)
def _match(ctx: typer.Context, help: HelpOpt = False) -> None:
    if ctx.invoked_subcommand is None:
        show_help(ctx)


@match_app.command("new")
def match_new(
    ledger_file: NewLedgerArg,
    players: PlayersOpt = None,
    like: LikeOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    end_at: EndAtOpt = None,
    hands: HandsOpt = None,
    auto_play: AutoPlayOpt = None,
    title: TitleOpt = None,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Start a match ledger. It is never overwritten.

    Examples:
      gongzhu-score match new tonight.yaml --players 东,南,西,北
      gongzhu-score match new tomorrow.yaml --like tonight.yaml
      gongzhu-score match new final.yaml --players 东,南,西,北 --hands 16
      gongzhu-score match new online.yaml --players 东,南,西,北 --teams partners --auto-play island
    """
    from ..match.actions import new_match, split_names
    from ..match.ledger import check_end, check_last_hand
    from ..render.match import end_text

    lang = language(lang_asked)
    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    if end_at is not None:
        check_end(end_at, "--end-at")
    if hands is not None:
        check_last_hand(hands, "--hands")
    if players is None and like is None:
        raise error(LedgerError, "error.cli.players_or_like")
    try:
        names = split_names(players) if players is not None else None
        ledger = new_match(ledger_file, names, like=like, options=wanted.scoring(), end_at=end_at,
                           last_hand=hands, auto_play=auto_play, title=title)  # fmt: skip
    except PlayersError as e:
        raise e if players is None else e.within("--players") from None
    started = say("match.new", lang, ledger=ledger_file, players=Listed(ledger.players),
                  variant=ledger.variant.name, normalize=ledger.normalization.describe(),
                  end=end_text(ledger, lang))  # fmt: skip
    with _shown(ledger_file, "new", {}, lang):
        typer.echo(started)  # the result: on standard output (errors alone go to stderr)


def _hand_for(
    hand: HandInput, command: str, number: int | None = None
) -> Callable[[Ledger], HandSpec]:
    """The hand to add (or to put in place of hand ``number``), as a function of the ledger:
    it is read under the ledger's lock, with the match's rules (their decks say what 全红
    stands for; a record's play is judged by them, as that hand of the match). The spec whole,
    so that who took the first pig, where a record shows it, reaches the ledger."""

    def from_input(ledger: Ledger) -> HandSpec:
        from ..match.lead import hand_in_force

        in_force = hand_in_force(ledger, ledger.count + 1 if number is None else number)
        spec, rules = hand.read(ledger.variant, in_force=in_force, command=f"match {command}")
        return replace(spec, hand=hand.with_rest(spec.hand, rules.decks))

    if not hand.given:
        raise no_hand_given(f"match {command}")  # before the ledger is locked
    return from_input


def _asked(
    ledger_file: str,
    hand: HandInput,
    interactive: bool,
    lang: str,
    number: int | None = None,
    first_pig: str | None = None,
    auto_played: AutoPlayed | None = None,
) -> HandSpec | None:
    """The hand typed at the prompts, when they are asked for (no hand given, at a terminal or
    with --interactive), with who took the first pig and who was auto-played where they are
    asked (``first_pig``, ``auto_played``: said already): None when they are not; cancelled at
    the prompts: exit 1."""
    if hand.given or not (interactive or sys.stdin.isatty()):
        return None
    from ..match.storage import read_ledger
    from ..terminal.prompts import ask_hand

    ledger = read_ledger(ledger_file)
    if number is None:  # (an ended match is said before a card is asked)
        try:
            ledger.check_open()
        except MatchOverError as e:
            raise e.within(ledger_file) from None
    start = None
    if number is not None:
        ledger.check_number(number)
        start = ledger.entry(number)
    given = ask_hand(ledger, lang, start, number, first_pig, auto_played)
    if given is None:
        raise typer.Exit(1)
    return given


def _checked_note(note: str | None) -> str | None:
    """``--note`` as given, refused (naming the flag) unless a hand may keep it."""
    from ..errors import GongzhuError
    from ..match.ledger import check_note

    try:
        check_note(note)
    except GongzhuError as e:
        raise e.within("--note") from None
    return note


def _auto_played(name: str | None, last_card: bool) -> AutoPlayed | None:
    """``--auto-played NAME [--last-card]`` as the hand's 托管; --last-card alone is refused."""
    from ..core.auto_play import AutoPlayed

    if name is None:
        if last_card:
            raise error(LedgerError, "error.ledger.last_card_alone").within("--last-card")
        return None
    return AutoPlayed(name, last_card)


def _typed_auto(typed: HandSpec | None, given: AutoPlayed | None) -> AutoPlayed | None:
    """Who was auto-played: as the prompts left it (they began from the flags), else as the
    flags said."""
    return typed.auto_played if typed is not None else given


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


@match_app.command("add")
def match_add(
    ledger_file: LedgerArg,
    hand_file: HandFileArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    partial: PartialOpt = False,
    first_pig: FirstPigOpt = None,
    auto_played: AutoPlayedOpt = None,
    last_card: LastCardOpt = False,
    note: NoteOpt = None,
    interactive: InteractiveOpt = False,
    fmt: PlainFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Score a hand under the match's rules and add it; print it and the new totals.

    At a terminal with no hand given, it asks each player's cards in turn, checking each line as
    it is typed (any one player may answer rest, 其余: every scoring card the others do not
    take), then shows the hand: add it, cancel, or pick a line to change. A ledger changed
    by hand so that its numbers no longer agree with its cards is refused (see match verify).
    With two decks, when two players each took a pig, say who took the first (--first-pig):
    they lead the next hand. In partner play, say who the system played for after a disconnect
    (--auto-played, 托管): under the island regime their side's loss falls on them.

    Examples:
      gongzhu-score match add tonight.yaml sample_hands/seed_minus_400.yaml
      gongzhu-score match add tonight.yaml -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北
      gongzhu-score match add tonight.yaml            (at a terminal: asks for the cards)
      gongzhu-score match add two-decks.yaml -c 东=猪 -c 南="猪 羊" -c 西= --rest 北 --first-pig 南
      gongzhu-score match add online.yaml -c 东=猪 -c 南= -c 西= --rest 北 --auto-played 东
    """
    from ..match.actions import add_hand
    from ..render.match import added_text

    hand = hand_input(hand_file, captured, exposed, first_exposed, rest)
    lang = language(lang_asked)
    note = _checked_note(note)  # (before the prompts: a note refused asks no cards)
    auto = _auto_played(auto_played, last_card)
    typed = _asked(ledger_file, hand, interactive, lang, None, first_pig, auto)
    said = None if typed else first_pig  # (the prompts began from it)
    with _first_pig_hint():
        added = add_hand(ledger_file, typed or _hand_for(hand, "add"), partial=partial,
                         source=hand.source, first_pig=said, entered=entry_time(),
                         note=note, auto_played=_typed_auto(typed, auto))  # fmt: skip
    with _shown(ledger_file, "add", {"hand": added.number}, lang):
        typer.echo(added_text(added, lang, fmt, table_too=typed is None), nl=False)


@match_app.command("show")
def match_show(
    ledger_file: LedgerArg,
    number: ShownNumberArg = None,
    fmt: ShownFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Every hand's finals with running totals, who leads next, and whether the match ended;
    or hand N with its cards, exposures, raw and final scores and the totals after it.

    Examples:
      gongzhu-score match show tonight.yaml
      gongzhu-score match show tonight.yaml 3 --lang zh
      gongzhu-score match show tonight.yaml 3 --format json
    """
    from ..match.storage import read_ledger
    from ..render import match as shown

    lang = language(lang_asked)
    ledger = read_ledger(ledger_file)
    if number is not None:
        ledger.check_number(number)
        if fmt is Format.json:
            typer.echo(json_text(shown.hand_to_dict(ledger, number)), nl=False)
        elif fmt is Format.csv:
            typer.echo(shown.hand_csv(ledger, number), nl=False)
        else:
            typer.echo(shown.render_hand(ledger, number, lang, table_format), nl=False)
    elif fmt is Format.json:
        typer.echo(json_text(shown.match_to_dict(ledger)), nl=False)
    elif fmt is Format.csv:
        typer.echo(shown.render_match_csv(ledger), nl=False)
    else:
        from ..terminal.width import terminal_width

        typer.echo(shown.render_match(ledger, lang, table_format, terminal_width()), nl=False)


@match_app.command("explain")
def match_explain(
    ledger_file: LedgerArg,
    number: HandNumberArg,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Explain hand N of the match step by step, under the match's rules (also: explain LEDGER N).

    Example:
      gongzhu-score match explain tonight.yaml 3 --lang zh
    """
    typer.echo(explain_hand(ledger_file, number, language(lang_asked)), nl=False)


def explain_hand(ledger_file: str, number: int, lang: str) -> str:
    """The derivation of hand ``number`` of a match (``match explain``, ``explain LEDGER N``)."""
    from ..match.actions import read_hand as hand_of_match
    from ..render.match import explained_hand

    ledger, _, result = hand_of_match(ledger_file, number)
    return explained_hand(ledger, number, result, lang)


@match_app.command("undo")
def match_undo(ledger_file: LedgerArg, lang_asked: LangOpt = None, help: HelpOpt = False) -> None:
    """Remove the last hand, and print everything needed to enter it again.

    'match restore' brings it back.

    Example:
      gongzhu-score match undo tonight.yaml
    """
    from ..match.actions import undo_hand
    from ..render.match import taken_text

    lang = language(lang_asked)
    taken = undo_hand(ledger_file)
    with _shown(ledger_file, "undo", {"hand": taken.number}, lang):
        typer.echo(taken_text(ledger_file, taken, lang), nl=False)


@match_app.command("remove")
def match_remove(
    ledger_file: LedgerArg,
    number: HandNumberArg,
    yes: YesOpt = False,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Remove hand N (any hand), redo every total after it; asks first at a terminal.

    'match restore' brings it back.

    Example:
      gongzhu-score match remove tonight.yaml 2 --yes
    """
    from ..match.actions import remove_hand
    from ..match.storage import read_ledger
    from ..render.match import render_hand, taken_text

    lang = language(lang_asked)
    if not yes:
        ledger = read_ledger(ledger_file)
        ledger.check_number(number)
        if not sys.stdin.isatty():
            raise error(LedgerError, "error.cli.not_tty", number=number)
        typer.echo(render_hand(ledger, number, lang), err=True, nl=False)
        if not typer.confirm(say("match.confirm_remove", lang, number=number), default=False,
                             err=True):  # fmt: skip
            typer.echo(say("match.not_removed", lang), err=True)
            raise typer.Exit(1)
    taken = remove_hand(ledger_file, number)
    with _shown(ledger_file, "remove", {"hand": number}, lang):
        typer.echo(taken_text(ledger_file, taken, lang), nl=False)


@match_app.command("edit")
def match_edit(
    ledger_file: LedgerArg,
    number: EditNumberArg,
    hand_file: HandFileArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    partial: PartialOpt = False,
    first_pig: FirstPigOpt = None,
    auto_played: AutoPlayedOpt = None,
    last_card: LastCardOpt = False,
    note: NoteOpt = None,
    interactive: InteractiveOpt = False,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Replace hand N (same input as add) and recompute every total after it.

    At a terminal with no hand given, it shows hand N as it is, each line in the table's card
    notation: pick a line, type it again (Enter keeps it) and confirm; no other line is asked
    again. 'match restore' brings back the hand as it was. The hand is replaced whole: who took
    the first pig (two decks) is said again with --first-pig where add needs it, and who was
    auto-played (--auto-played).

    Example:
      gongzhu-score match edit tonight.yaml 2 fixed-hand.yaml
      gongzhu-score match edit tonight.yaml 2      (at a terminal: change a line or two)
      gongzhu-score match edit two-decks.yaml 2 -c 东=猪 -c 南=猪 -c 西=羊 --rest 北 --first-pig 东
    """
    from ..match.actions import edit_hand
    from ..render.match import edited_text

    hand = hand_input(hand_file, captured, exposed, first_exposed, rest)
    lang = language(lang_asked)
    note = _checked_note(note)
    auto = _auto_played(auto_played, last_card)
    typed = _asked(ledger_file, hand, interactive, lang, number, first_pig, auto)
    said = None if typed else first_pig  # (the prompts began from it)
    with _first_pig_hint():
        edited = edit_hand(ledger_file, number, typed or _hand_for(hand, "edit", number),
                           partial=partial, source=hand.source, first_pig=said,
                           note=note, auto_played=_typed_auto(typed, auto))  # fmt: skip
    with _shown(ledger_file, "edit", {"hand": number}, lang):
        typer.echo(edited_text(edited, lang, table_too=typed is None), nl=False)


@match_app.command("rename")
def match_rename(
    ledger_file: LedgerArg,
    old: OldArg,
    new: NewArg,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Rename a player everywhere in the ledger ('match restore' brings the old name back).

    Example:
      gongzhu-score match rename tonight.yaml 北 小北
    """
    from ..match.actions import rename_player

    lang = language(lang_asked)
    rename_player(ledger_file, old, new)
    with _shown(ledger_file, "rename", {"old": old, "new": new.strip()}, lang):
        typer.echo(say("match.renamed", lang, old=old, new=new.strip()))


@match_app.command("set")
def match_set(
    ledger_file: LedgerArg,
    end_at: EndAtOpt = None,
    hands: HandsOpt = None,
    auto_play: AutoPlayOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Change the match's settings after its start: every hand is scored again under them and
    every total redone; it says what moved. 'match restore' brings the old settings back.

    Examples:
      gongzhu-score match set tonight.yaml --end-at -800
      gongzhu-score match set tonight.yaml --variant dehong --scale 12
      gongzhu-score match set final.yaml --hands 20
    """
    from ..match.actions import change_settings
    from ..match.ledger import check_end, check_last_hand
    from ..render.match import settings_text

    lang = language(lang_asked)
    if end_at is not None:
        check_end(end_at, "--end-at")
    if hands is not None:
        check_last_hand(hands, "--hands")
    options = asked(variant, rules_file, normalize, scale, rounding, teams).scoring()
    if not options.given() and end_at is None and hands is None and auto_play is None:
        raise error(LedgerError, "error.cli.nothing_to_set")
    changed = change_settings(ledger_file, options, end_at=end_at, last_hand=hands,
                              auto_play=auto_play)  # fmt: skip
    with _shown(ledger_file, "set", {"changes": changed.changes}, lang):
        typer.echo(settings_text(changed, lang), nl=False)


@match_app.command("history")
def match_history(
    ledger_file: LedgerArg,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Every recorded change of the match, oldest first; 'match restore' reverts the last one.

    Example:
      gongzhu-score match history tonight.yaml --lang zh
    """
    from ..match.storage import ledger_history
    from ..render.match import render_history

    lang = language(lang_asked)
    typer.echo(render_history(ledger_history(ledger_file), lang, table_format), nl=False)


@match_app.command("restore")
def match_restore(
    ledger_file: LedgerArg, lang_asked: LangOpt = None, help: HelpOpt = False
) -> None:
    """Bring back the ledger exactly as it was before its last recorded change (an add, a
    removed or edited hand, a rename, new settings). Repeat to go further back.

    Example:
      gongzhu-score match restore tonight.yaml
    """
    from ..match.actions import restore_match
    from ..render.match import change_text, match_status_text

    lang = language(lang_asked)
    ledger, change = restore_match(ledger_file)
    what = change_text(change, lang)
    with _shown(ledger_file, "restored", {"what": what}, lang):
        typer.echo(say("history.restored", lang, what=what))
        typer.echo(match_status_text(ledger, ledger.status(), lang))


@match_app.command("verify")
def match_verify(ledger_file: LedgerArg, lang_asked: LangOpt = None, help: HelpOpt = False) -> None:
    """Recompute every hand from its stored input; list each stored number that disagrees.

    Exit 0 when all agree, 1 when any does not (a hand-edited or tampered ledger).

    Example:
      gongzhu-score match verify tonight.yaml
    """
    from ..match.storage import read_ledger

    lang = language(lang_asked)
    ledger = read_ledger(ledger_file)
    problems = ledger.verify(lang)
    for line in problems:
        typer.echo(f"{ledger_file}{colon(lang)}{line}")
    if problems:
        raise typer.Exit(1)
    count = count_of_hands(len(ledger.entries), lang)
    typer.echo(say("match.verified", lang, ledger=ledger_file, count=count), err=True)


@match_app.command("export")
def match_export(
    ledger_file: LedgerArg,
    fmt: ExportFormatOpt = Format.csv,
    values: ValuesOpt = Values.final,
    totals: TotalsOpt = False,
    bom: BomOpt = False,
    help: HelpOpt = False,
) -> None:
    """One row per hand, one column per player: the finals (or raws) for a spreadsheet, then
    when each hand was entered and its note.

    Example:
      gongzhu-score match export tonight.yaml --totals --bom > tonight.csv
    """
    from ..match.storage import read_ledger
    from ..render.match import render_export

    text = render_export(read_ledger(ledger_file), fmt, values.value, totals)
    typer.echo(("\ufeff" if bom and fmt is Format.csv else "") + text, nl=False)


@match_app.command("list")
def match_list(
    fmt: PlainFormatOpt = Format.table,
    forget_gone: ForgetGoneOpt = False,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Your matches: each one started or changed with this tool (in any folder), and the
    ledgers in this folder, with its last change, players, hands and state (in play, or over
    and who is the pig), the newest first. The current one, which a match command given no
    ledger uses, is marked *. A remembered ledger moved or deleted since is left out (the
    current one is listed as missing) and counted in a last line; --forget-gone forgets them.

    Examples:
      gongzhu-score match list
      gongzhu-score match list --forget-gone
      gongzhu-score match list --format json
    """
    import os

    from ..match.current import list_matches
    from ..render.matches import render_match_list
    from .current import notice, working_folder

    lang = language(lang_asked)
    matches = list_matches(os.environ, working_folder(), forget=forget_gone)
    notice(matches.problems, lang)
    typer.echo(render_match_list(matches, fmt, lang, table_format), nl=False)
