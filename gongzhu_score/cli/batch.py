"""``gongzhu-score batch``: score files of recorded hands, with totals and a list of bad records."""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from ..core.normalize import Rounding
from ..errors import InputError
from ..io.variants import find_variant, load_rules
from ..render.formats import Format
from ..terms import Listed, colon, count_of, error, printable
from .common import (
    Lang,
    LangOpt,
    NormalizeOpt,
    PartialOpt,
    RoundingOpt,
    RulesOpt,
    ScaleOpt,
    TeamsOpt,
    VariantOpt,
    error_line,
    format_option,
)

if TYPE_CHECKING:
    from ..batch.reading import BadRecord, InputRecord
    from ..batch.runner import Batch
    from ..core.engine import HandResult

# The batch machinery (and multiprocessing) is imported when a batch runs, not at start-up.


class _Progress:
    """A line on stderr, when it is a terminal and the work takes more than a moment."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = self.last = time.monotonic()
        self.count = 0
        self.shown = False

    def tick(self) -> None:
        self.count += 1
        if not self.enabled or self.count % 1000:
            return
        self.show()

    def add(self, hands: int) -> None:
        self.count += hands
        if self.enabled:
            self.show()

    def show(self) -> None:
        now = time.monotonic()
        if now - self.start > 0.5 and now - self.last > 0.2:
            rate = self.count / (now - self.start)
            sys.stderr.write(f"\r  scored {self.count:,} hands ({rate:,.0f}/s)")
            sys.stderr.flush()
            self.last, self.shown = now, True

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[IO[str]]:
    """stdout, or a file that appears only once the batch succeeds (no half-written results;
    see :func:`gongzhu_score.io.files.replaced`)."""
    if path is None:
        yield sys.stdout
        return
    from ..io.files import replaced

    with replaced(path) as f:
        yield f


def batch_command(
    inputs: Annotated[
        list[str],
        typer.Argument(
            metavar="INPUT...",
            help="Hand files (.yaml/.yml, many documents allowed; .jsonl, one hand a line; "
            ".parquet, one hand a row), folders (searched for all three), or - for standard "
            "input.",
        ),
    ],
    variant: VariantOpt = None,
    rules_file: RulesOpt = None,
    normalize: NormalizeOpt = None,
    scale: ScaleOpt = 1,
    rounding: RoundingOpt = Rounding.NEAREST,
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
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="Write results to this file instead of stdout.",
            show_default=False,
        ),
    ] = None,
    summary_only: Annotated[
        bool, typer.Option("--summary-only", help="Only the per-player totals.")
    ] = False,
    keep_going: Annotated[
        bool,
        typer.Option(
            "--keep-going",
            "-k",
            help="Score the rest after a bad record; list every bad record at the end, exit 1.",
        ),
    ] = False,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Score Parquet inputs on a Dask cluster, a task per row group, into the "
            "dataset folder --output (with --format parquet; the [dask] extra): 'local' "
            "starts one on this machine's cores, else the scheduler's address "
            "(tcp://host:8786; its workers must see the input and output paths).",
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = Lang.en,
) -> None:
    """Score many recorded hands: each hand's scores, then totals per player.

    Each hand follows the hand-file schema (players, captured, exposed …); a hand's own
    variant is used unless --variant or --rules is given. A bad record stops the batch with an
    error naming the file and the line or document, unless --keep-going.

    Parquet files (*.parquet: a players column of structs, as the JSON Lines schema) are
    scored a column at a time with the [arrow] extra; --format parquet writes the results as
    Parquet (source, then players: name, raw, final).

    \b
    Examples:
      gongzhu-score batch sample_hands/batch.jsonl
      gongzhu-score batch recorded/ --format jsonl --output scores.jsonl
      gongzhu-score batch club-2026.yaml --summary-only --lang zh
      gongzhu-score batch sample_hands/batch.parquet --format parquet -o scores.parquet
      gongzhu-score batch lake/ --format parquet --dask local -o scored/
    """
    from ..batch.parallel import can_split, score_in_parallel
    from ..batch.parquet import is_parquet, parquet_records, require
    from ..batch.reading import expand_inputs, numbered_lines, read_records
    from ..batch.runner import Batch, Summary
    from ..render.batch import BatchWriter

    if rules_file is not None and variant is not None:
        raise error(InputError, "e.cli.variant_or_rules")
    rules = (
        load_rules(rules_file)
        if rules_file is not None
        else (find_variant(variant) if variant is not None else None)
    )
    batch = Batch(rules, normalize, scale, rounding, teams, partial)
    files = expand_inputs(inputs)
    if not files:
        raise error(InputError, "e.batch.no_files", inputs=Listed(inputs))
    if fmt is Format.parquet or dask is not None or any(map(is_parquet, files)):
        require("arrow")
    if dask is not None and (fmt is not Format.parquet or output is None or is_parquet(output)):
        raise error(InputError, "e.dask.format")
    if fmt is Format.parquet:
        if output is None:
            raise error(InputError, "e.parquet.output")
        if summary_only:
            raise error(InputError, "e.parquet.summary")
        options = (rules, normalize, scale, rounding, teams, partial)
        bad = _to_parquet(files, batch, options, output, rounding is Rounding.EXACT, keep_going,
                          dask)  # fmt: skip
        _report(bad, lang)
        return
    wants_totals = summary_only or fmt in (Format.table, Format.json)
    summary = Summary() if wants_totals else None
    progress = _Progress(sys.stderr.isatty())

    with _output(output) as out:
        writer = BatchWriter(out, fmt, lang.value, summary_only)

        def emit(record: InputRecord, result: HandResult) -> None:
            writer.hand(record, result)
            progress.tick()

        if not progress.enabled:  # no terminal to show progress on: one call fewer per hand
            emit = writer.emit

        bad = []
        try:
            for path in files:
                # as the output shows it: nothing a terminal acts on
                name = "<stdin>" if path == "-" else printable(path)
                # A large JSON Lines file is scored on every core (JSON output gathers every
                # hand in one object, so it stays in one process).
                if fmt is not Format.json and can_split(path):
                    part_writer = functools.partial(
                        BatchWriter,
                        fmt=fmt,
                        lang=lang.value,
                        summary_only=summary_only,
                        header=False,
                    )
                    bad += score_in_parallel(
                        path, batch, out, writer, part_writer, summary, keep_going, name=name
                    )
                elif is_parquet(path):
                    records = parquet_records(path, name)
                    bad += batch.run(records, emit, summary, keep_going)
                elif path.endswith(".jsonl"):
                    with open(path, "rb") as lines:
                        bad += batch.run_jsonl(
                            numbered_lines(lines), name, emit, summary, keep_going,
                            None if progress.enabled else writer.line_emitter(name),
                        )  # fmt: skip
                else:
                    records = read_records(path, name=name)
                    bad += batch.run(records, emit, summary, keep_going)
        finally:
            progress.done()
            writer.flush()  # the hands before a bad record are written, not held back
        writer.finish(summary, bad)
    _report(bad, lang)


def _report(bad: list[BadRecord], lang: Lang) -> None:
    """The bad records, when --keep-going passed them by: listed on stderr, exit 1."""
    if bad:
        typer.echo(count_of("b.bad", len(bad), lang.value) + colon(lang.value).rstrip(), err=True)
        for b in bad:
            typer.echo(f"  {error_line(b.error, lang.value)}", err=True)
        raise typer.Exit(1)


def _to_parquet(
    files: list[str],
    batch: Batch,
    options: tuple[Any, ...],
    output: str,
    exact: bool,
    keep_going: bool,
    dask: str | None,
) -> list[BadRecord]:
    """``--format parquet``: Parquet inputs a column at a time (on Dask with ``--dask``),
    other inputs through the row engine, into one file or a dataset folder."""
    from ..batch.parquet import is_parquet, parquet_out, require, run_on_dask, score_parquet_file
    from ..batch.reading import read_records

    bad: list[BadRecord] = []
    progress = _Progress(sys.stderr.isatty())
    with parquet_out(output, exact) as out:
        if dask is not None:
            for path in files:
                if not is_parquet(path):
                    raise error(InputError, "e.dask.inputs", path=path)
            require("dask")
            named = [(path, printable(path)) for path in files]
            return run_on_dask(dask, named, options, out, exact, keep_going)
        try:
            for path in files:
                name = "<stdin>" if path == "-" else printable(path)
                out.open_part()
                if is_parquet(path):
                    bad += score_parquet_file(path, name, batch, out, exact, keep_going,
                                              progress.add)  # fmt: skip
                else:
                    bad += batch.run(read_records(path, name=name), out.hand, None, keep_going)
                    out.flush()
        finally:
            progress.done()
    return bad
