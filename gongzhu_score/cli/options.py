"""Every option that several commands share, declared once, and the typed values they make.

A command declares each option as a parameter (``captured: CapturedOpt = None``), as Typer
reads them, and makes a group of them one value first thing (:func:`hand_input`,
:func:`asked`, :func:`language`). Each help text is English; the catalogs translate it (its
id: the text).
"""

from __future__ import annotations

import enum
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..core.auto_play import AutoPlay
from ..core.normalize import MAX_SCALE, Method, Rounding, Teams
from ..errors import InputError, RestError, RulesError
from ..match.standings import Tiebreak
from ..render.formats import Format
from ..terms import LANGS, choose_lang, error
from .boundary import FormatRefused, reading_stdin
from .complete import (
    complete_captured,
    complete_exposed,
    complete_ledger,
    complete_player,
    complete_variant,
)
from .current import LEDGER_VARIABLE, current_if_omitted

if TYPE_CHECKING:
    from ..core.hand import Hand
    from ..core.options import ScoringOptions
    from ..core.variant import Variant
    from ..io.fields import HandSpec
    from ..io.records import InForce

__all__ = ["Asked", "ClaimsAre", "HandInput", "asked", "format_option", "hand_input", "language"]


class Whole:
    """An option's or argument's whole number read as a person writes it: decimal digits, a
    sign perhaps (:func:`~..io.fields.whole_number`: no ``5_0``, no ``1.0``), from ``min`` to
    ``max``; refused in Click's words, which every language says (``render/usage.py``). Typer
    takes it as the ``parser`` (its own int reading takes ``5_0`` and, from 0.29, ``1.0``)."""

    def __init__(self, low: int | None = None, high: int | None = None) -> None:
        self.min, self.max = low, high  # (named as Click's ranges: help shows them)

    def __call__(self, value: Any) -> int:
        if isinstance(value, int) and not isinstance(value, bool):  # (a default)
            number = value
        else:
            from ..io.fields import whole_number

            read = whole_number(str(value))
            if read is None:
                raise typer.BadParameter(f"{str(value)!r} is not a valid integer.")
            number = read
        low, high = self.min, self.max
        if (low is not None and number < low) or (high is not None and number > high):
            span = f"x>={low}" if high is None else f"x<={high}" if low is None else (
                f"{low}<=x<={high}")  # fmt: skip
            raise typer.BadParameter(f"{number} is not in the range {span}.")
        return number


def whole(low: int | None = None, high: int | None = None) -> dict[str, Any]:
    """The keywords of a whole-number option or argument from ``low`` to ``high``: the parser,
    and the range for help (Typer 0.29 shows an option's own ``min`` and ``max``)."""
    ranged = {"min": low, "max": high} if low is not None or high is not None else {}
    return {"parser": Whole(low, high), **ranged}


# --- the hand ---------------------------------------------------------------------------------

# fmt: off
HandFileArg = Annotated[str | None, typer.Argument(
    metavar="HAND.yaml", show_default=False,
    help="A YAML hand file, or - for standard input. Or give the hand with --captured.")]
CapturedOpt = Annotated[list[str] | None, typer.Option(
    "--captured", "-c", metavar="NAME=CARDS", show_default=False, autocompletion=complete_captured,
    help='One per player, in seat order (the order of play, seat 1 first): the cards that player captured, e.g. 东="QS 6H 8H 10C". An empty 北= means nothing.')]
ExposedOpt = Annotated[list[str] | None, typer.Option(
    "--exposed", "-e", metavar="NAME=CARDS", show_default=False, autocompletion=complete_exposed,
    help="Special cards a player exposed (亮牌/卖牌): Q♠ J♦ 10♣ A♥, e.g. 南=AH.")]
FirstExposedOpt = Annotated[list[str] | None, typer.Option(
    "--first-exposed", metavar="NAME=CARD", show_default=False, autocompletion=complete_exposed,
    help="A card exposed under 首明 (the first card the player drew): counts ×4.")]
# names are trimmed everywhere
RestOpt = Annotated[str | None, typer.Option(
    "--rest", metavar="NAME", show_default=False, autocompletion=complete_player, callback=lambda name: name.strip() if name else name,
    help="This player took every scoring card the others did not (the fourth player at a table need not count).")]
PartialOpt = Annotated[bool, typer.Option(
    "--partial",
    help="Allow scoring cards nobody captured; the result says partial.")]
# fmt: on


@dataclass(frozen=True)
class HandInput:
    """A hand as the command line gives it: a file (or ``-``), or ``--captured`` flags."""

    file: str | None
    captured: tuple[str, ...] = ()
    exposed: tuple[str, ...] = ()
    first_exposed: tuple[str, ...] = ()
    rest: str | None = None

    @property
    def given(self) -> bool:
        return self.file is not None or bool(self.captured)

    @property
    def source(self) -> str | None:
        """The file as errors name it (flags name the player themselves)."""
        return None if self.file is None else "<stdin>" if self.file == "-" else self.file

    def read(
        self,
        rules: Variant | None = None,
        teams: Teams | None = None,
        *,
        in_force: InForce | None = None,
        own_play: bool = False,
        command: str = "score",
    ) -> tuple[HandSpec, Variant]:
        """The hand, from the file or the flags (never both), and the rules to score it by:
        ``rules``, else the file's own (or classic). The cards are read with those rules'
        decks (全红 is 26 hearts in two decks); a record's play is judged by them, ``teams``
        and what ``in_force`` adds (a match's), or by its own (``own_play``)."""
        from ..api import read_hand_input
        from ..io.fields import HandSpec
        from ..io.flags import hand_from_flags
        from ..io.variants import DEFAULT, find_variant

        if self.file is not None:
            if self.captured or self.exposed or self.first_exposed:
                raise error(InputError, "error.cli.file_or_flags")
            with reading_stdin(self.file == "-"):
                return read_hand_input(self.file, rules=rules, teams=teams, in_force=in_force,
                                       own_play=own_play)  # fmt: skip
        if not self.captured:
            raise no_hand_given(command)
        chosen = rules if rules is not None else find_variant(DEFAULT)
        hand = hand_from_flags(self.captured, self.exposed, self.first_exposed, rest=self.rest,
                               decks=chosen.decks)  # fmt: skip
        return HandSpec(hand), chosen

    def with_rest(self, hand: Hand, decks: int) -> Hand:
        """``hand`` with ``--rest NAME`` applied (its error naming the flag)."""
        if self.rest is None:
            return hand
        try:
            return hand.with_rest(self.rest, decks)
        except RestError as e:
            raise e.within(f"--rest {self.rest}") from None


def no_hand_given(command: str) -> InputError:
    return error(InputError, "error.cli.no_hand", command=command)


def hand_input(
    hand_file: HandFileArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
) -> HandInput:
    return HandInput(hand_file, tuple(captured or ()), tuple(exposed or ()),
                     tuple(first_exposed or ()), rest)  # fmt: skip


# --- the rules and the finals -----------------------------------------------------------------

# fmt: off
VariantOpt = Annotated[list[str] | None, typer.Option(
    "--variant", "-v", metavar="NAME", show_default=False, autocompletion=complete_variant,
    help="Rule set: classic (default), online, dehong, jj, two-deck; overrides the file's. compare takes two or more (default: the four one-deck ones), each compared with the first.")]
RulesOpt = Annotated[list[str] | None, typer.Option(
    "--rules", metavar="FILE", show_default=False,
    help="House rules: a YAML file in the variants' schema (start from 'gongzhu-score variants show classic --format yaml'), instead of --variant; compare takes several.")]
NormalizeOpt = Annotated[Method | None, typer.Option(
    "--normalize", metavar="<none|zero-sum|jj>", show_default=False,
    help="Raw to final: none, zero-sum (r − others/3), jj (3r − others). Default: the variant's.")]
ScaleOpt = Annotated[int | None, typer.Option(
    "--scale", **whole(1, MAX_SCALE), metavar="N", show_default=False,
    help="Multiply the finals (the seed's one-deck ×12). Default 1, or the match's.")]
RoundingOpt = Annotated[Rounding | None, typer.Option(
    "--rounding", metavar="<nearest|exact>", show_default=False,
    help="zero-sum finals: nearest integer (the default), or exact thirds.")]
TeamsOpt = Annotated[Teams | None, typer.Option(
    "--teams", metavar="<none|partners|pig-sheep>", show_default=False,
    help="none (default); partners (打对家: seats 1+3 against 2+4); pig-sheep (猪羊一家: the takers of the pig and the sheep against the others). Overrides the file's.")]
# fmt: on


@dataclass(frozen=True)
class Asked:
    """The rule sets asked for (``--variant``, ``--rules``) and the options of the finals."""

    variants: tuple[str, ...]
    files: tuple[str, ...]
    options: ScoringOptions
    """The options of the finals, its rule set none (see :meth:`scoring`)."""

    def scoring(self) -> ScoringOptions:
        """The options with the one rule set asked for (or none: the hand's own)."""
        from ..io.variants import choose_rules

        if len(self.variants) > 1 or len(self.files) > 1:
            raise error(RulesError, "error.cli.one_rule_set")
        if not self.variants and not self.files:
            return self.options
        from ..core.options import ScoringOptions

        rules = choose_rules(next(iter(self.variants), None), next(iter(self.files), None))
        return ScoringOptions(rules, *_finals(self.options))

    def rule_sets(self, by_default: Sequence[str]) -> list[Variant]:
        """Every rule set asked for, the variants then the files (none: ``by_default``)."""
        from ..io.variants import find_variant, load_rules

        names = self.variants or ([] if self.files else by_default)
        return [find_variant(n) for n in names] + [load_rules(f) for f in self.files]


def _finals(options: ScoringOptions) -> tuple[Any, ...]:
    return options.normalize, options.scale, options.rounding, options.teams


def asked(
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
) -> Asked:
    from ..core.options import ScoringOptions

    options = ScoringOptions(None, normalize, scale, rounding, teams)
    return Asked(tuple(variant or ()), tuple(rules_file or ()), options)


# --- claimed scores ---------------------------------------------------------------------------

# fmt: off
ClaimOpt = Annotated[list[str] | None, typer.Option(
    "--claim", metavar="NAME=SCORE", show_default=False,
    help="What a player says they scored, e.g. 南=-200; each wrong claim is shown with the right number and the rules under which the claim comes out, and the command exits 3.")]
# fmt: on


class ClaimsAre(str, enum.Enum):
    raw = "raw"
    final = "final"


# fmt: off
ClaimsAreOpt = Annotated[ClaimsAre, typer.Option(
    "--claims-are", metavar="<raw|final>",
    help="Claims are raw scores (原始分) or final scores.")]
# fmt: on


# --- what is printed --------------------------------------------------------------------------


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


# fmt: off
FormatOpt = Annotated[
    Format,
    format_option(Format.table, Format.json, Format.csv, Format.yaml,
                  help="Output: a table for people, or json, csv, yaml."),
]  # fmt: skip
DataFormatOpt = Annotated[
    Format, format_option(Format.table, Format.json, Format.yaml, help="table, json or yaml.")
]
ShownFormatOpt = Annotated[
    Format, format_option(Format.table, Format.json, Format.csv, help="table, json or csv.")
]
PlainFormatOpt = Annotated[Format, format_option(Format.table, Format.json, help="table or json.")]
ExportFormatOpt = Annotated[Format, format_option(Format.csv, Format.json, help="csv or json.")]
# fmt: on
Lang = enum.Enum("Lang", [(code, code) for code in LANGS], type=str)  # type: ignore[misc]
"""The languages, one for each catalog (``--lang``'s choices)."""
# fmt: off
LangOpt = Annotated[Lang | None, typer.Option(
    "--lang", metavar=f"<{'|'.join(LANGS)}>", show_default=False,
    help="Language of tables, prompts, messages and help: en, zh (简体中文) or zh-Hant (繁體中文). Default: GONGZHU_LANG, else the locale's (LANG=zh_TW.UTF-8: zh-Hant), else en.")]
# fmt: on


def language(lang: LangOpt = None) -> str:
    """The language asked for (``--lang``), else the environment's (:func:`choose_lang`)."""
    return choose_lang(None if lang is None else lang.value, os.environ)


# fmt: off
TableFormatOpt = Annotated[str, typer.Option(
    "--table-format", metavar="STYLE",
    help="Any tabulate table style: simple, github, grid, plain, …")]
OutputOpt = Annotated[str | None, typer.Option(
    "--output", "-o", metavar="FILE", show_default=False,
    help="Where to write: batch, its results instead of standard output; match chart, the picture (FILE.svg keeps text as text, FILE.png is drawn with a font of this machine that has the names).")]


# --- a match ----------------------------------------------------------------------------------

# (what marks the argument the current match stands in for)
LedgerArg = Annotated[str, typer.Argument(
    metavar="LEDGER", envvar=LEDGER_VARIABLE, show_envvar=False, autocompletion=complete_ledger, callback=current_if_omitted,
    help="The match's ledger file. Left out: the match GONGZHU_MATCH names, else the one last started or changed in this folder (said on stderr); match new: the new one.")]
HandNumberArg = Annotated[int, typer.Argument(
    metavar="N", **whole(),
    help="A hand of the match (1 = first).")]
NoteOpt = Annotated[str | None, typer.Option(
    "--note", metavar="TEXT", show_default=False,
    help="A note kept with the hand (one line, at most 200 characters), shown by 'match show LEDGER N' and exported; in edit, --note '' removes it, and without --note it stays.")]
# names are trimmed everywhere
FirstPigOpt = Annotated[str | None, typer.Option(
    "--first-pig", metavar="NAME", show_default=False, autocompletion=complete_player, callback=lambda name: name.strip() if name else name,
    help="Two decks: who took the first pig (Q♠), when two players took one each; under the first-lead rule pig they lead the next hand, and the match asks it.")]
EndAtOpt = Annotated[int | None, typer.Option(
    "--end-at", metavar="N", show_default=False, **whole(),
    help="The end, a negative total: a raw total at or below it (default -1000); in team play a final total reaching it or its opposite.")]
HandsOpt = Annotated[int | None, typer.Option(
    "--hands", metavar="N", show_default=False, **whole(),
    help="A 盤 of N hands (計副製): the match ends after hand N, or at the end line if that comes first.")]
AutoPlayOpt = Annotated[AutoPlay | None, typer.Option(
    "--auto-play", show_default=False, case_sensitive=False,
    help="How a hand is scored when the system played for a disconnected player (托管), partner play: tournament (錦標賽, as usual; the default) or island (島嶼: a losing side's loss falls whole on the auto-played player, the partner 0).")]
AutoPlayedOpt = Annotated[str | None, typer.Option(
    "--auto-played", metavar="NAME", show_default=False, autocompletion=complete_player, callback=lambda name: name.strip() if name else name,
    help="Partner play: the player the system played for after a disconnect (托管) in this hand; under the island regime their side's loss falls on them.")]
LastCardOpt = Annotated[bool, typer.Option(
    "--last-card",
    help="With --auto-played: only the last card was left then, so the hand is scored as usual.")]
# --- a tournament ---------------------------------------------------------------------------
TournamentArg = Annotated[str, typer.Argument(
    metavar="TOURNAMENT",
    help="The tournament file (YAML); its tables' ledgers are beside it.")]
TiebreakOpt = Annotated[Tiebreak | None, typer.Option(
    "--tiebreak", show_default=False, case_sensitive=False,
    help="How players level on points are ranked: last-match (the better result in the last match both played, then the earlier registration; the default) or registration (Swiss: registration alone).")]
TournamentNameOpt = Annotated[str | None, typer.Option(
    "--name", metavar="NAME", show_default=False,
    help="The tournament's name, kept in each table's ledger and in its file names (letters, digits, - and _); the file's name by default.")]
InteractiveOpt = Annotated[bool, typer.Option(
    "--interactive", "-i",
    help="Ask for each player's cards (the default when no hand is given at a terminal).")]
YesOpt = Annotated[bool, typer.Option(
    "--yes", "-y",
    help="Do it without asking (for scripts).")]
# fmt: on


def output_needed(output: str | None, command: str) -> str:
    """``--output`` where a command cannot do without it."""
    if output is None:
        raise error(InputError, "error.cli.output", command=command)
    return output


class Values(str, enum.Enum):
    final = "final"
    raw = "raw"


# --- match's own ------------------------------------------------------------------------------

# fmt: off
NewLedgerArg = Annotated[str, typer.Argument(
    metavar="LEDGER",
    help="The new match's ledger file; it becomes this folder's current match.")]
PlayersOpt = Annotated[str | None, typer.Option(
    "--players", "-p", metavar="NAMES", show_default=False,
    help="Four names in seat order, the order of play (seat 1 first; seats 1 and 3 are partners), e.g. 东,南,西,北: names, not compass seats (rulings §1). tournament new: every player, in registration order (ties go to the earlier), a multiple of four.")]
TitleOpt = Annotated[str | None, typer.Option(
    "--title", metavar="TABLE", show_default=False,
    help="The match's name as the table calls it (桌名), e.g. 一号桌: the phones show it instead of the file's name. With --like, the other match's, unless given.")]
LikeOpt = Annotated[str | None, typer.Option(
    "--like", metavar="LEDGER", show_default=False, autocompletion=complete_ledger,
    help="Start with the players and rules of another match (options given here win).")]
ShownNumberArg = Annotated[int | None, typer.Argument(
    metavar="[N]", show_default=False, **whole(),
    help="One hand, whole: its cards, exposures and scores.")]
EditNumberArg = Annotated[int, typer.Argument(
    metavar="N", **whole(),
    help="The hand to replace (1 = first).")]
OldArg = Annotated[str, typer.Argument(
    metavar="OLD", autocompletion=complete_player,
    help="The name now.")]
NewArg = Annotated[str, typer.Argument(
    metavar="NEW",
    help="The new name.")]
ValuesOpt = Annotated[Values, typer.Option(
    "--values", metavar="<final|raw>",
    help="final (default) or raw.")]
TotalsOpt = Annotated[bool, typer.Option(
    "--totals",
    help="A last row, 'total', with each player's sum.")]
BomOpt = Annotated[bool, typer.Option(
    "--bom",
    help="Start the CSV with a byte-order mark, so that Excel reads Chinese names right.")]
ForgetGoneOpt = Annotated[bool, typer.Option(
    "--forget-gone",
    help="Forget the remembered ledgers that are gone (no such file: moved or deleted); one that cannot be read for now is kept.")]
# fmt: on


# --- the hand commands' own -------------------------------------------------------------------

# fmt: off
ExplainTooOpt = Annotated[bool, typer.Option(
    "--explain",
    help="Also explain every score, step by step.")]
ExplainNumberArg = Annotated[int | None, typer.Argument(
    metavar="[N]", show_default=False, **whole(),
    help="With a match ledger in place of the hand file: explain its hand N.")]
RecordFileArg = Annotated[str, typer.Argument(
    metavar="RECORD.yaml",
    help="A trick-by-trick record (YAML or JSON), or - for standard input.")]
ClaimLimitOpt = Annotated[int | None, typer.Option(
    "--claim-limit", metavar="POSITIONS", **whole(1, 100_000_000),
    help="How many positions the search for a claim (声称) may visit before it says 'undecided': every play it tries counts, within a trick or between tricks (default 500,000: a few seconds at most, two decks before the first trick too).")]
LedgersArg = Annotated[list[str], typer.Argument(
    metavar="LEDGER...",
    help="Match ledgers, or folders of them (the other YAML files there are passed over).")]
SinceOpt = Annotated[str | None, typer.Option(
    "--since", metavar="DATE", show_default=False,
    help="Count only the matches whose last hand was entered on DATE (YYYY-MM-DD) or later.")]
UntilOpt = Annotated[str | None, typer.Option(
    "--until", metavar="DATE", show_default=False,
    help="Count only the matches whose last hand was entered on DATE (YYYY-MM-DD) or earlier.")]
PlayerOpt = Annotated[str | None, typer.Option(
    "--player", metavar="NAME", show_default=False, callback=lambda name: name.strip() if name else name,
    help="One player's season instead: each finished match (its date, players, rank, final total and the rating after it) and the head-to-head against every other player.")]
ChartOpt = Annotated[str | None, typer.Option(
    "--chart", metavar="FILE", show_default=False,
    help="Draw each player's rating over the season into FILE.svg or FILE.png instead of printing the table (the chart extra); with --player, that player's alone.")]
VariantNameArg = Annotated[str, typer.Argument(
    autocompletion=complete_variant,
    help="classic, online, dehong, jj or two-deck.")]
# fmt: on


# --- batch's own ------------------------------------------------------------------------------

# fmt: off
InputsArg = Annotated[list[str], typer.Argument(
    metavar="INPUT...",
    help="Hand files (.yaml/.yml, many documents allowed; .jsonl, one hand a line; .parquet, one hand a row), folders (searched for all three), or - for standard input.")]
SummaryOnlyOpt = Annotated[bool, typer.Option(
    "--summary-only",
    help="Only the per-player totals.")]
KeepGoingOpt = Annotated[bool, typer.Option(
    "--keep-going", "-k",
    help="Score the rest after a bad record; list every bad record at the end, exit 1.")]
DaskOpt = Annotated[str | None, typer.Option(
    "--dask", metavar="ADDRESS", show_default=False,
    help="Score Parquet inputs on a Dask cluster, a task per row group, into the dataset folder --output (with --format parquet; the [dask] extra): 'local' starts one on this machine's cores, else the scheduler's address (tcp://host:8786; its workers must see the input and output paths).")]
DaskTimeoutOpt = Annotated[float | None, typer.Option(
    "--dask-timeout", metavar="SECONDS", show_default=False,
    help="With --dask: how long to wait to reach the scheduler, and while its cluster has no live worker, before giving up (exit 2). Default: 10.")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose",
    help="With --dask: Dask's own log lines on stderr too.")]
# fmt: on


# --- serve's own ------------------------------------------------------------------------------

# fmt: off
ServedLedgerArg = Annotated[str | None, typer.Argument(
    metavar="[FOLDER|LEDGER]", envvar=LEDGER_VARIABLE, show_envvar=False, show_default=False, autocompletion=complete_ledger,
    help="A folder: every match in it, and new ones started from the phones. A ledger file: that match. Left out: the match GONGZHU_MATCH names, else the one last started or changed in this folder (said on stderr).")]
HostOpt = Annotated[str, typer.Option(
    "--host", metavar="ADDR",
    help="The address to listen on: 127.0.0.1 (this machine only) by default; 0.0.0.0 for every phone on the network (anyone there with the address can change the match).")]
PortOpt = Annotated[int, typer.Option(
    "--port", metavar="N", **whole(0, 65535),
    help="The port (0: any free one, said in the address).")]
NewKeyOpt = Annotated[bool, typer.Option(
    "--new-key",
    help="Make a new key for the match's page: every address given before stops working (the key is kept beside the ledger, in LEDGER.key).")]
QrOpt = Annotated[bool, typer.Option(
    "--qr/--no-qr",
    help="Draw the address as a QR code too.")]
# fmt: on
