"""``gongzhu-score batch``: score files of recorded hands, with totals and a list of bad records."""

from __future__ import annotations

import functools
import sys
import time
from typing import TYPE_CHECKING, Annotated

import typer

from ..errors import InputError
from ..render.formats import Format
from ..terms import colon, count_of, error, say
from .boundary import HelpOpt, error_line
from .options import (
    DaskOpt,
    DaskTimeoutOpt,
    InputsArg,
    KeepGoingOpt,
    LangOpt,
    NormalizeOpt,
    OutputOpt,
    PartialOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    SummaryOnlyOpt,
    TeamsOpt,
    VariantOpt,
    VerboseOpt,
    asked,
    format_option,
    language,
)

if TYPE_CHECKING:
    from ..batch.reading import BadRecord
    from ..batch.run import PassedOver

# The batch machinery (and multiprocessing) is imported when a batch runs, not at start-up.


class _Progress:
    """A line on stderr, when it is a terminal and the work takes more than a moment."""

    def __init__(self, enabled: bool, lang: str = "en") -> None:
        self.enabled, self.lang = enabled, lang
        self.start = self.last = time.monotonic()
        self.count = 0
        self.shown = False

    def add(self, hands: int) -> None:
        self.count += hands
        if self.enabled and (hands > 1 or not self.count % 1000):
            self.show()

    def show(self) -> None:
        now = time.monotonic()
        if now - self.start > 0.5 and now - self.last > 0.2:
            rate = self.count / (now - self.start)
            said = say("batch.progress", self.lang, count=f"{self.count:,}", rate=f"{rate:,.0f}")
            sys.stderr.write(f"\r  {said}")
            sys.stderr.flush()
            self.last, self.shown = now, True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def batch_command(
    inputs: InputsArg,
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = None,
    rounding: RoundingOpt = None,
    teams: TeamsOpt = None,
    partial: PartialOpt = False,
    fmt: Annotated[
        Format,
        format_option(
            Format.table,
            Format.csv,
            Format.jsonl,
            Format.json,
            Format.parquet,
            help="table (hands, then totals), csv (one row per player and hand; the "
            "totals with --summary-only), jsonl (one object per hand), json, or parquet "
            "(with --output: a file, or a folder for a dataset; the [arrow] extra).",
        ),
    ] = Format.table,
    output: OutputOpt = None,
    summary_only: SummaryOnlyOpt = False,
    keep_going: KeepGoingOpt = False,
    dask: DaskOpt = None,
    dask_timeout: DaskTimeoutOpt = None,
    verbose: VerboseOpt = False,
    lang_asked: LangOpt = None,
    help: HelpOpt = False,
) -> None:
    """Score many recorded hands: each hand's scores, then totals per player.

    Each hand follows the hand-file schema (players, captured, exposed …); a hand's own
    variant is used unless --variant or --rules is given. A bad record stops the batch with an
    error naming the file and the line or document, unless --keep-going.

    Parquet files (*.parquet: a players column of structs, as the JSON Lines schema) are
    scored a column at a time with the [arrow] extra; --format parquet writes the results as
    Parquet (source, then players: name, raw, final).

    Examples:
      gongzhu-score batch sample_hands/batch.jsonl
      gongzhu-score batch recorded/ --format jsonl --output scores.jsonl
      gongzhu-score batch club-2026.yaml --summary-only --lang zh
      gongzhu-score batch sample_hands/batch.parquet --format parquet -o scores.parquet
      gongzhu-score batch lake/ --format parquet --dask local -o scored/
    """
    from ..batch.run import input_files, score_inputs, score_to_parquet
    from ..batch.runner import Batch, Summary
    from ..render.batch import BatchWriter

    if output == "-":  # (standard output, as everywhere else; never a file named -)
        output = None
    lang = language(lang_asked)
    wanted = asked(variant, rules_file, normalize, scale, rounding, teams)
    batch = Batch(wanted.scoring(), partial)  # (its rule set None: each hand's own)
    files = input_files(inputs, fmt is Format.parquet or dask is not None,
                        functools.partial(_passed_over, lang=lang))  # fmt: skip
    if dask is not None and (fmt is not Format.parquet or output is None):
        raise error(InputError, "error.dask.format")
    progress = _Progress(sys.stderr.isatty(), lang)
    if fmt is Format.parquet:
        if output is None:
            raise error(InputError, "error.parquet.output")
        if summary_only:
            raise error(InputError, "error.parquet.summary")
        _report(
            score_to_parquet(
                files,
                batch,
                output,
                keep_going=keep_going,
                dask=dask,
                dask_timeout=dask_timeout,
                verbose=verbose,
                progress=progress,
            ),
            lang,
        )
        return  # fmt: skip
    wants_totals = summary_only or fmt in (Format.table, Format.json)

    # (a partial, not a closure: the processes that score parts of a file make their own)
    writer_for = functools.partial(BatchWriter, fmt=fmt, lang=lang, summary_only=summary_only)
    bad = score_inputs(files, batch, writer_for, output=output, stdout=sys.stdout,
                       summary=Summary() if wants_totals else None, keep_going=keep_going,
                       split=fmt is not Format.json, progress=progress)  # fmt: skip
    _report(bad, lang)


def _passed_over(passed: PassedOver, lang: str) -> None:
    """A file of a folder passed over: one line on stderr."""
    typer.echo(say(f"batch.passed.{passed.why}", lang, path=passed.path), err=True)


def _report(bad: list[BadRecord], lang: str) -> None:
    """The bad records, when --keep-going passed them by: listed on stderr, exit 1."""
    if bad:
        typer.echo(count_of("batch.bad", len(bad), lang) + colon(lang).rstrip(), err=True)
        for b in bad:
            typer.echo(f"  {error_line(b.error, lang)}", err=True)
        raise typer.Exit(1)
