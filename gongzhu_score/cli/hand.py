"""The hand commands: score, explain, compare, replay, stats, and the rule sets (variants)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import typer

from ..errors import InputError
from ..render.formats import Format
from ..terms import count_of, error, say
from .boundary import HelpOpt
from .options import (
    Asked,
    CapturedOpt,
    ChartOpt,
    ClaimLimitOpt,
    ClaimOpt,
    ClaimsAre,
    ClaimsAreOpt,
    DataFormatOpt,
    ExplainNumberArg,
    ExplainTooOpt,
    ExposedOpt,
    FirstExposedOpt,
    FormatOpt,
    HandFileArg,
    HandInput,
    LangOpt,
    LedgersArg,
    NormalizeOpt,
    PartialOpt,
    PlayerOpt,
    RecordFileArg,
    RestOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    ShownFormatOpt,
    SinceOpt,
    TableFormatOpt,
    TeamsOpt,
    UntilOpt,
    VariantNameArg,
    VariantOpt,
    asked,
    hand_input,
    language,
)

if TYPE_CHECKING:
    from ..api import ScoredInput
    from ..disputes.claimed import ClaimedScore
    from ..disputes.explain_claim import ClaimExplained


def _scored(
    hand: HandInput, asked: Asked, partial: bool, claim: list[str] | None, claims_are: ClaimsAre
) -> ScoredInput:
    """The hand read (file or flags) and scored as asked, its claimed scores checked."""
    from ..api import score_input
    from ..io.flags import parse_claims

    options = asked.scoring()
    spec, rules = hand.read(options.rules, options.teams)
    claimed = parse_claims(claim or ())
    spec = replace(spec, hand=hand.with_rest(spec.hand, rules.decks))
    return score_input(spec, rules, options, partial=partial, claimed=claimed,
                       claimed_are=claims_are.value, source=hand.source)  # fmt: skip


def score_command(
    hand_file: HandFileArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: ClaimOpt = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    explain_too: ExplainTooOpt = False,
    fmt: FormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Score one hand: who captured which scoring cards, and who exposed what.

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
    from ..render.hand import render_result

    hand = hand_input(hand_file, captured, exposed, first_exposed, rest)
    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    lang = language(lang_asked)
    scored = _scored(hand, wanted, partial, claim, claims_are)
    typer.echo(render_result(scored.result, fmt, lang, table_format, scored.claimed), nl=False)
    if explain_too:
        from ..render.explain import explain

        typer.echo("")
        typer.echo(explain(scored.result, lang), nl=False)
    if scored.claims_wrong:
        raise typer.Exit(3)


def explain_command(
    hand_file: HandFileArg = None,
    hand_number: ExplainNumberArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: ClaimOpt = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Explain every player's score step by step, citing the rule behind each step.

    Takes the same hand and options as score, or a match ledger and the number of one of its
    hands (explained under the match's rules). The derivation ends with the normalization
    formula with the numbers filled in, and the teams where they play.

    Examples:
      gongzhu-score explain sample_hands/seed_minus_400.yaml
      gongzhu-score explain sample_hands/seed_minus_400.yaml --lang zh --claim 东=-200
      gongzhu-score explain tonight.yaml 3
    """
    from ..render.explain import explain, explain_claimed

    hand = hand_input(hand_file, captured, exposed, first_exposed, rest)
    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    lang = language(lang_asked)
    if hand_number is not None:
        from .match import explain_hand

        if hand.file is None or hand.captured or hand.exposed or hand.first_exposed:
            raise error(InputError, "error.cli.explain_n")
        typer.echo(explain_hand(hand.file, hand_number, lang), nl=False)
        return
    scored = _scored(hand, wanted, partial, claim, claims_are)
    typer.echo(explain(scored.result, lang), nl=False)
    answers: Sequence[ClaimExplained] = ()
    if scored.claims_wrong:  # which rules would give the number claimed
        from ..disputes.explain_claim import explain_claims

        rules = scored.result.variant
        options = wanted.options.or_teams(scored.spec.teams)
        answers = explain_claims(scored.spec.hand, rules, scored.claimed, options, partial)
    typer.echo(explain_claimed(scored.claimed, lang, answers), nl=False)
    if scored.claims_wrong:
        raise typer.Exit(3)


def compare_command(
    hand_file: HandFileArg = None,
    captured: CapturedOpt = None,
    exposed: ExposedOpt = None,
    first_exposed: FirstExposedOpt = None,
    rest: RestOpt = None,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    claim: ClaimOpt = None,
    claims_are: ClaimsAreOpt = ClaimsAre.raw,
    fmt: DataFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """The same hand under several rule sets side by side, and which rule makes each difference.

    A trick-by-trick record's play is judged by its own variant (the rules the table played);
    the rule sets compared change only the score. With --claim, the rules that would give the
    number a player claimed, checked under the first rule set: the rule sets compared and the
    built-in ones as they are, and the first rule set with one rule changed (each shown as a
    house-rules file to check it with).

    Examples:
      gongzhu-score compare sample_hands/seed_minus_400.yaml -v classic -v dehong -v jj
      gongzhu-score compare hand.yaml -v classic --rules our-table.yaml
      gongzhu-score compare sample_hands/seed_minus_400.yaml --claim 东=-200
    """
    from ..disputes.compare import COMPARED_BY_DEFAULT, compare_with
    from ..io.flags import parse_claims
    from ..render.compare import render_comparison

    hand = hand_input(hand_file, captured, exposed, first_exposed, rest)
    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    lang = language(lang_asked)
    rule_sets = wanted.rule_sets(COMPARED_BY_DEFAULT)
    if len(rule_sets) < 2:
        raise error(InputError, "error.cli.compare_two")
    spec, _ = hand.read(rule_sets[0], wanted.options.teams, own_play=True, command="compare")
    cards = hand.with_rest(spec.hand, rule_sets[0].decks)
    options = wanted.options.or_teams(spec.teams)
    scored = compare_with(cards, rule_sets, options, partial=partial)
    claimed: Sequence[ClaimedScore] = ()
    answers: Sequence[ClaimExplained] = ()
    said = {**spec.claimed, **parse_claims(claim or ())}
    if said:
        from ..disputes.explain_claim import answer_claims

        claimed, answers = answer_claims(cards, scored, said, claims_are.value, options, partial)
    typer.echo(render_comparison(scored, fmt, lang, table_format, claimed, answers), nl=False)
    if any(not c.correct for c in claimed):
        raise typer.Exit(3)


def replay_command(
    record_file: RecordFileArg,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    claim_limit: ClaimLimitOpt = None,
    fmt: DataFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
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

    Examples:
      gongzhu-score replay sample_hands/record.yaml
      gongzhu-score replay sample_hands/claim_guaranteed.yaml
      gongzhu-score replay sample_hands/claim_defeated.yaml --lang zh
      gongzhu-score replay sample_hands/dehong_record.yaml --variant classic
    """
    from ..play.judge import judge_record, read_record
    from ..render.replay import render_replay

    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    lang = language(lang_asked)

    data, source = read_record(record_file)
    judged = judge_record(data, source=source, options=wanted.scoring(), claim_limit=claim_limit)
    typer.echo(render_replay(judged, fmt, lang, table_format), nl=False)
    raise typer.Exit(_VERDICT_EXIT[judged.verdict.value])


# replay's exit codes by verdict: legal, breaks a rule of play, disputed (docs/replay.md)
_VERDICT_EXIT = {"legal": 0, "breaks_rules": 1, "disputed": 3}


def stats_command(
    ledgers: LedgersArg,
    since: SinceOpt = None,
    until: UntilOpt = None,
    player: PlayerOpt = None,
    chart: ChartOpt = None,
    fmt: ShownFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Across matches, per player: the rating, matches, hands, times 当猪 (lost), matches won,
    pigs and sheep taken, transformers, full reds, grand slams, and the average final per hand.

    The rating counts every finished match as one game, in the order the matches ended (rulings
    §13): the highest first. The ledgers are only read.

    Examples:
      gongzhu-score stats sample_hands/match/ledger.yaml
      gongzhu-score stats club-2026/ --lang zh
      gongzhu-score stats club-2026/ --since 2026-09-01 --until 2026-12-31
      gongzhu-score stats club-2026/ --player 老王
      gongzhu-score stats club-2026/ --chart season.svg
      gongzhu-score stats club-2026/ --format csv > season.csv
    """
    from ..match.stats import parse_day, player_view, read_stats

    lang = language(lang_asked)
    dates = parse_day(since, "--since"), parse_day(until, "--until")
    if chart is not None:
        from ..render.chart import chart_format

        try:
            chart_format(chart)
        except InputError as e:
            raise e.within(f"--chart {chart}") from None
    stats = read_stats(ledgers, *dates)
    view = player_view(stats, player) if player is not None else None
    if chart is not None:
        from ..render.season_chart import write_season_chart

        drawn = write_season_chart(stats, chart, lang, view)
        count = count_of("stats.finished", drawn, lang)
        typer.echo(say("stats.chart_written", lang, count=count, file=chart))
        return
    if view is not None:
        from ..render.stats import render_player

        typer.echo(render_player(view, fmt, lang, table_format), nl=False)
        return
    from ..render.stats import render_stats

    typer.echo(render_stats(stats, fmt, lang, table_format), nl=False)


variants_app = typer.Typer(rich_markup_mode=None, invoke_without_command=True,
                           add_completion=False)  # fmt: skip


@variants_app.callback()
def _variants_list(
    ctx: typer.Context,
    fmt: DataFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """List the built-in rule sets; 'variants show NAME' prints one in full.

    Examples:
      gongzhu-score variants --lang zh
      gongzhu-score variants show dehong
    """
    from ..io.variants import VARIANTS
    from ..render.variants import render_variant_list

    if ctx.invoked_subcommand is None:
        lang = language(lang_asked)
        typer.echo(render_variant_list(VARIANTS.values(), fmt, lang), nl=False)


def variants_show(
    name: VariantNameArg,
    fmt: DataFormatOpt = Format.table,
    lang_asked: LangOpt = None,
    table_format: TableFormatOpt = "simple",
    help: HelpOpt = False,
) -> None:
    """Print every rule of one variant: values, exposure, transformer, full red, defaults.

    JSON and YAML print the rules-file schema: a copy to edit into house rules (--rules FILE).

    Examples:
      gongzhu-score variants show classic --lang zh
      gongzhu-score variants show classic --format yaml > our-table.yaml
    """
    from ..io.variants import find_variant
    from ..render.variants import render_variant

    lang = language(lang_asked)
    typer.echo(render_variant(find_variant(name), fmt, lang, table_format), nl=False)


variants_app.command("show")(variants_show)
