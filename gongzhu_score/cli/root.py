"""The root command and the hand commands: score, explain, compare, replay, variants.

(No ``from __future__ import annotations`` here: Typer reads these functions' annotations, and
as strings each would be evaluated again when the command runs, a cost on every start.)
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from .. import __version__
from ..api import ScoredInput, score_input
from ..core.normalize import Method, Rounding, Teams
from ..core.options import ScoringOptions
from ..errors import InputError, RestError
from ..io.variants import VARIANTS, choose_rules, find_variant, load_rules
from ..render.formats import Format
from ..render.hand import render_result
from ..terms import error
from .common import (
    PROG,
    CapturedOpt,
    ClaimOpt,
    ClaimsAre,
    ClaimsAreOpt,
    Command,
    ErrorsAtTheBoundary,
    ExposedOpt,
    FirstExposedOpt,
    FormatOpt,
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
    parse_claims,
    read_hand,
    with_rest,
)
from .complete import complete_variant

if TYPE_CHECKING:
    from ..disputes.claimed import ClaimedScore
    from ..disputes.explain_claim import ClaimExplained

DataFormatOpt = Annotated[
    Format, format_option(Format.table, Format.json, Format.yaml, help="table, json or yaml.")
]

app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    rich_markup_mode=None,
    help=(
        "Keep the score of 拱猪 (Gongzhu, Chase the Pig).\n\n"
        "Score a hand from the cards each player captured (score), show why (explain), "
        "compare rule sets (compare), replay a trick-by-trick record (replay), score files of "
        "recorded hands (batch), keep a match ledger until someone is the pig (match), records "
        "across matches (stats), put the match on the table's phones (serve), and list or show "
        "the rule sets (variants).\n\n"
        "\b\nExamples:\n"
        "  gongzhu-score score sample_hands/seed_minus_400.yaml --lang zh\n"
        '  gongzhu-score score -c 东=猪 -c 南="红桃A K Q" -c 西= --rest 北\n'
        "  gongzhu-score match new tonight.yaml --players 东,南,西,北\n"
        "  gongzhu-score variants show classic"
    ),
    add_completion=True,
    invoke_without_command=True,
    # Help wraps to the terminal's width (Click's default stops at 80 columns).
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 400},
)
variants_app = typer.Typer(
    name=PROG,
    cls=ErrorsAtTheBoundary,
    rich_markup_mode=None,
    invoke_without_command=True,
)
app.add_typer(variants_app, name="variants")


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


def _score(
    hand_file: str | None,
    captured: list[str] | None,
    exposed: list[str] | None,
    first_exposed: list[str] | None,
    rest: str | None,
    variant: str | None,
    rules_file: str | None,
    normalize: Method | None,
    scale: int,
    rounding: Rounding,
    teams: Teams | None,
    partial: bool,
    claim: list[str] | None,
    claims_are: ClaimsAre,
) -> ScoredInput:
    """Read the hand (file or flags), settle the rules and options, score it, check claims."""
    spec, rules, source = read_hand(hand_file, captured, exposed, first_exposed, rest,
                                    variant=variant, rules_file=rules_file,
                                    teams=teams)  # fmt: skip
    options = ScoringOptions(None, normalize, scale, rounding, teams)
    try:
        return score_input(spec, rules, options, rest=rest, partial=partial,
                           claimed=parse_claims(claim), claimed_are=claims_are.value,
                           source=source)  # fmt: skip
    except RestError as e:
        raise e.within(f"--rest {rest}") from None


@app.command("score", cls=Command)
def score_command(
    hand_file: HandFileArg = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: ClaimOpt = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    explain_too: Annotated[
        bool, typer.Option("--explain", help="Also explain every score, step by step.")
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
      gongzhu-score score -c 东="猪 变压器 红桃6 8 10 J" -c 南="红桃2 3 4 5 7 9 A" \\
          -c 西="羊 红桃Q K" -c 北= -e 南=红桃A --lang zh
      cat hand.yaml | gongzhu-score score - --format json

    Cards: QS qs SQ Q♠ ♠Q 黑桃Q, 10C TC C10 10♣, nicknames pig/猪, sheep/羊,
    transformer/变压器, 猪羊 for both; a suit carries to the bare ranks after it
    (红桃6 8 10 J, ♥A K Q, H: A K Q), ranges 红桃2-10, Chinese numerals 红桃十, and
    全红 for all the hearts (26 in two decks).
    Exit 0, 2 for a refused hand, 3 when a --claim is wrong.
    """
    scored = _score(hand_file, captured, exposed, first_exposed, rest, variant, rules_file,
                    normalize, scale, rounding, teams, partial, claim, claims_are)  # fmt: skip
    text = render_result(scored.result, fmt, lang.value, table_format, scored.claimed)
    typer.echo(text, nl=False)
    if explain_too:
        from ..render.explain import explain

        typer.echo("")
        typer.echo(explain(scored.result, lang.value), nl=False)
    if scored.claims_wrong:
        raise typer.Exit(3)


@app.command("explain", cls=Command)
def explain_command(
    hand_file: HandFileArg = None,
    hand_number: Annotated[
        int | None,
        typer.Argument(
            metavar="[N]",
            help="With a match ledger in place of the hand file: explain its hand N.",
            show_default=False,
        ),
    ] = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: ClaimOpt = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    lang: LangOpt = Lang.en,
) -> None:
    """Explain every player's score step by step, citing the rule behind each step.

    Takes the same hand and options as score, or a match ledger and the number of one of its
    hands (explained under the match's rules). The derivation ends with the normalization
    formula with the numbers filled in, and the teams where they play.

    \b
    Examples:
      gongzhu-score explain sample_hands/seed_minus_400.yaml
      gongzhu-score explain sample_hands/seed_minus_400.yaml --lang zh --claim 东=-200
      gongzhu-score explain tonight.yaml 3
    """
    if hand_number is not None:
        from .match import explain_hand

        if hand_file is None or captured or exposed or first_exposed:
            raise error(InputError, "error.cli.explain_n")
        typer.echo(explain_hand(hand_file, hand_number, lang.value), nl=False)
        return
    scored = _score(hand_file, captured, exposed, first_exposed, rest, variant, rules_file,
                    normalize, scale, rounding, teams, partial, claim, claims_are)  # fmt: skip
    from ..render.explain import explain, explain_claimed

    typer.echo(explain(scored.result, lang.value), nl=False)
    answers: Sequence[ClaimExplained] = ()
    if scored.claims_wrong:  # which rules would give the number claimed
        from ..disputes.explain_claim import explain_claims

        hand = with_rest(scored.spec.hand, rest, scored.result.variant.decks)
        options = ScoringOptions(None, normalize, scale, rounding, teams)
        answers = explain_claims(hand, scored.result.variant, scored.claimed,
                                 options.or_teams(scored.spec.teams), partial)  # fmt: skip
    typer.echo(explain_claimed(scored.claimed, lang.value, answers), nl=False)
    if scored.claims_wrong:
        raise typer.Exit(3)


@app.command("compare", cls=Command)
def compare_command(
    hand_file: HandFileArg = None,
    *,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant",
            "-v",
            metavar="NAME",
            help="A rule set to compare; give two or more (default: the four one-deck "
            "variants). The first is the one the others are compared with.",
            show_default=False,
            autocompletion=complete_variant,
        ),
    ] = None,
    rule_files: Annotated[
        list[str] | None,
        typer.Option(
            "--rules",
            metavar="FILE",
            help="House rules to compare too (repeatable).",
            show_default=False,
        ),
    ] = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: Annotated[
        list[str] | None,
        typer.Option(
            "--claim",
            metavar="NAME=SCORE",
            help="What a player says they scored, e.g. 东=-200, checked under the first rule "
            "set; a wrong one is answered with the rule sets, and the single changes of the "
            "first, under which it comes out. Exit 3 when one is wrong.",
            show_default=False,
        ),
    ] = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    fmt: DataFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """The same hand under several rule sets side by side, and which rule makes each difference.

    A trick-by-trick record's play is judged by its own variant (the rules the table played);
    the rule sets compared change only the score. With --claim, the rules that would give the
    number a player claimed: the rule sets compared and the built-in ones as they are, and the
    first rule set with one rule changed (each shown as a house-rules file to check it with).

    \b
    Examples:
      gongzhu-score compare sample_hands/seed_minus_400.yaml -v classic -v dehong -v jj
      gongzhu-score compare hand.yaml -v classic --rules our-table.yaml
      gongzhu-score compare sample_hands/seed_minus_400.yaml --claim 东=-200
    """
    from ..disputes.compare import COMPARED_BY_DEFAULT, compare_with
    from ..render.compare import render_comparison

    names = variant or ([] if rule_files else list(COMPARED_BY_DEFAULT))
    rule_sets = [find_variant(n) for n in names] + [load_rules(f) for f in rule_files or ()]
    if len(rule_sets) < 2:
        raise error(InputError, "error.cli.compare_two")
    spec, _, _ = read_hand(hand_file, captured, exposed, first_exposed, rest, rules=rule_sets[0],
                           teams=teams, own_play=True, command="compare")  # fmt: skip
    hand = with_rest(spec.hand, rest, rule_sets[0].decks)
    options = ScoringOptions(None, normalize, scale, rounding, teams).or_teams(spec.teams)
    scored = compare_with(hand, rule_sets, options, partial=partial)
    claimed: Sequence[ClaimedScore] = ()
    answers: Sequence[ClaimExplained] = ()
    said = {**spec.claimed, **parse_claims(claim)}
    if said:
        from ..disputes.explain_claim import answer_claims

        claimed, answers = answer_claims(hand, scored, said, claims_are.value, options,
                                         partial)  # fmt: skip
    typer.echo(render_comparison(scored, fmt, lang.value, table_format, claimed, answers),
               nl=False)  # fmt: skip
    if any(not c.correct for c in claimed):
        raise typer.Exit(3)


@app.command("replay", cls=Command)
def replay_command(
    record_file: Annotated[
        str,
        typer.Argument(
            metavar="RECORD.yaml",
            help="A trick-by-trick record (YAML or JSON), or - for standard input.",
        ),
    ],
    *,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
    teams: TeamsOpt = None,
    claim_limit: Annotated[
        int | None,
        typer.Option(
            "--claim-limit",
            metavar="POSITIONS",
            min=1,
            max=100_000_000,
            help="How many positions the search for a claim (声称) may visit before it says "
            "'undecided': every play it tries counts, within a trick or between tricks "
            "(default 500,000: a few seconds at most, two decks before the first trick too).",
        ),
    ] = None,
    fmt: DataFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Replay a hand trick by trick: check every play, find who won each trick, then score.

    The rules of play are those of --variant, --rules and --teams when given, else the
    record's own variant: and teams:.

    Checks: every card played once; with a deal, 13 cards each and only one's own played;
    the first lead (首引) under the rule in force: online and 德宏, every hand led by the
    holder of 2♣ (♠3), any card; classic, a match's first hand (hand: 1, or first_hand: true)
    opened with 2♣ by its holder; a rotation, hand N (hand: N) led by its seat; each trick
    led by the last trick's winner; suit followed when possible; an exposed card (the fourth
    one auto-exposure exposes too) kept back the first time its suit is led unless it is the
    player's last card of the suit (首明 exempt); exposed cards held by whoever exposed them.
    Two decks: plays of one card or a pair, a pair followed by a pair.

    A record may stop with a claim of the remaining tricks (声称: claim: {by, takes, line}).
    The hand is scored as claimed, and the claim is judged: guaranteed when, every hand being
    known, the claimer has a way to play (the stated line, if given) such that every legal
    play of the others sends each scoring card where the claim says; if not, a counter-line
    of legal plays that defeats it is printed. The search is exact; past its limit it says
    "undecided", never guesses.

    Exit 0 for a legal record (a claim guaranteed), 1 when it breaks a rule (the violations
    are listed), 2 when it cannot be read, 3 when only its captured cards or claimed scores
    disagree, or its claim is not guaranteed (or undecided).

    \b
    Examples:
      gongzhu-score replay sample_hands/record.yaml
      gongzhu-score replay sample_hands/claim_guaranteed.yaml
      gongzhu-score replay sample_hands/claim_defeated.yaml --lang zh
      gongzhu-score replay sample_hands/dehong_record.yaml --variant classic
    """
    from ..play.judge import judge_record, read_record
    from ..render.replay import render_replay

    given = variant is not None or rules_file is not None
    rules = choose_rules(variant, rules_file) if given else None
    data, source = read_record(record_file)
    options = ScoringOptions(rules, normalize, scale, rounding, teams)
    judged = judge_record(data, source=source, options=options, claim_limit=claim_limit)
    typer.echo(render_replay(judged, fmt, lang.value, table_format), nl=False)
    raise typer.Exit(_VERDICT_EXIT[judged.verdict.value])


# replay's exit codes by verdict: legal, breaks a rule of play, disputed (docs/replay.md)
_VERDICT_EXIT = {"legal": 0, "breaks_rules": 1, "disputed": 3}


@app.command("stats", cls=Command)
def stats_command(
    ledgers: Annotated[
        list[str],
        typer.Argument(
            metavar="LEDGER...",
            help="Match ledgers, or folders of them (the other YAML files there are passed over).",
        ),
    ],
    fmt: Annotated[
        Format,
        format_option(Format.table, Format.json, Format.csv, help="table, json or csv."),
    ] = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Across matches, per player: matches, hands, times 当猪 (lost), matches won, pigs and sheep
    taken, transformers, full reds, grand slams, and the average final per hand.

    \b
    Examples:
      gongzhu-score stats sample_hands/match/ledger.yaml
      gongzhu-score stats club-2026/ --lang zh
      gongzhu-score stats club-2026/ --format csv > season.csv
    """
    from ..match.stats import read_stats
    from ..render.stats import render_stats

    typer.echo(render_stats(read_stats(ledgers), fmt, lang.value, table_format), nl=False)


@variants_app.callback()
def _variants_list(
    ctx: typer.Context,
    fmt: DataFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
) -> None:
    """List the built-in rule sets; 'variants show NAME' prints one in full.

    \b
    Examples:
      gongzhu-score variants --lang zh
      gongzhu-score variants show dehong
    """
    from ..render.variants import render_variant_list

    if ctx.invoked_subcommand is None:
        typer.echo(render_variant_list(VARIANTS.values(), fmt, lang.value), nl=False)


@variants_app.command("show", cls=Command)
def variants_show(
    name: Annotated[
        str,
        typer.Argument(
            help="classic, online, dehong, jj or two-deck.", autocompletion=complete_variant
        ),
    ],
    fmt: DataFormatOpt = Format.table,
    lang: LangOpt = Lang.en,
    table_format: TableFormatOpt = "simple",
) -> None:
    """Print every rule of one variant: values, exposure, transformer, full red, defaults.

    JSON and YAML print the rules-file schema: a copy to edit into house rules (--rules FILE).

    \b
    Examples:
      gongzhu-score variants show classic --lang zh
      gongzhu-score variants show classic --format yaml > our-table.yaml
    """
    from ..render.variants import render_variant

    typer.echo(render_variant(find_variant(name), fmt, lang.value, table_format), nl=False)


# The commands whose modules are imported only when they run, or when the whole command line
# is built (help, completion, the tests): where each goes among the others.
# (The match group comes through .match_share, which registers chart and summary on it.)
LATER = (
    ("batch", ".batch", "batch_command", "replay"),
    ("match", ".match_share", "match_app", None),
    ("serve", ".serve", "serve_command", "stats"),
)


def with_later(root: typer.Typer, names: Sequence[str] | None = None) -> typer.Typer:
    """``root`` with the later commands (``names``: only those) registered in their places."""
    import importlib

    from .typer_internals import has_command, register_after

    for name, module, attribute, after in LATER:
        if (names is not None and name not in names) or has_command(root, name):
            continue  # not asked for, or registered already
        found = getattr(importlib.import_module(module, __package__), attribute)
        if isinstance(found, typer.Typer):
            root.add_typer(found, name=name)
        else:
            register_after(root, name, found, Command, after)
    return root
