"""Batch scoring record by record, in order, with per-player totals.

A :class:`Batch` holds one :class:`~gongzhu_score.api.Scorer` per rule set it meets (the
options' variant, or each record's own ``variant:``/``teams:``), so the rules are compiled once
whatever the number of hands. Memory stays flat: the summary (one entry per player name) is the
only state that grows with the input.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..api import Scorer
from ..core.engine import HandResult, Scored
from ..core.normalize import Teams
from ..core.options import ScoringOptions
from ..core.totals import PlayerTotals
from ..errors import GongzhuError, InputError
from ..io.variants import DEFAULT, find_variant
from ..terms import error
from .lines import Emit as LineEmit
from .lines import FastRules, LineWriter, score_lines
from .reading import BadRecord, InputRecord, NumberedLines, Part, jsonl_record

__all__ = ["Batch", "PlayerTotals", "Summary"]

Emit = Callable[[InputRecord, HandResult], None]
Careful = Callable[[int, bytes], None]
"""Scores a JSON line its own careful way: its number and bytes."""
_COLD = 16_384
"""JSON Lines scored by the engine's arrays before numpy's are worth importing numpy for (about
50 ms: what numpy's save on some 20,000 played hands); none once numpy is imported."""


def _cold() -> int:
    """How many JSON Lines the engine's arrays score before numpy's: none once it is imported."""
    return 0 if "numpy" in sys.modules else _COLD


def warm_arrays() -> None:
    """Import what scores JSON Lines as arrays, if it is installed: before a large file's worker
    processes start, which then need not each import it."""
    with contextlib.suppress(ImportError):
        from . import arrays  # noqa: F401


@dataclass
class Summary:
    """Per-player totals over every hand scored.

    This is the only state that grows with the input.
    """

    players: dict[str, PlayerTotals] = field(default_factory=dict)
    hands: int = 0

    def add(self, result: HandResult) -> None:
        self.hands += 1
        for name, raw, final, counts in zip(
            result.names, result.raws, result.finals, result.counts, strict=True
        ):
            t = self.players.get(name)
            if t is None:
                t = self.players[name] = PlayerTotals(name)
            t.add_hand(raw, final, counts)

    def merge(self, other: Summary) -> None:
        """Add another part's totals; names new here come after, in their order."""
        self.hands += other.hands
        for name, theirs in other.players.items():
            self.players.setdefault(name, PlayerTotals(name)).merge(theirs)


class Batch:
    """Scores records under fixed options, or each record's own variant."""

    def __init__(self, options: ScoringOptions = ScoringOptions(), partial: bool = False) -> None:
        self.options, self.partial = options, partial
        self._scorers: dict[tuple[str, str], Scorer] = {}
        # the same, by the record's own (variant, teams) values: one look-up per record
        self._by_record: dict[tuple[object, object], Scorer] = {}
        self._fast: FastRules = {}  # (the same, as the hot path of JSON Lines reads them)

    def scorer(self, data: object) -> Scorer:
        """A record's scorer: the options' rules, else the record's own."""
        asked = data.get("variant") if isinstance(data, dict) else None
        own_teams = data.get("teams") if isinstance(data, dict) else None
        key = (asked, own_teams)
        try:
            found = self._by_record.get(key)
        except TypeError:  # a list where a name belongs: refused below
            found = None
        if found is not None:
            return found
        if asked is not None and not isinstance(asked, str):
            raise error(InputError, "error.input.variant_name", value=repr(asked))
        if own_teams is not None and not isinstance(own_teams, str):
            raise error(InputError, "error.input.teams_name", value=repr(own_teams))
        rules = self.options.rules or find_variant(DEFAULT if asked is None else asked)
        teams = self.options.teams or own_teams or Teams.NONE
        name = rules.name if self.options.rules is None else "\0options"
        scorer = self._scorers.get((name, str(teams)))
        if scorer is None:
            norm = self.options.normalization(rules, teams)
            scorer = Scorer.scoring(rules, norm, self.partial)
            self._scorers[(name, str(teams))] = scorer
        self._by_record[key] = scorer
        self._fast[key] = scorer.engine, scorer.normalization
        return scorer

    def score(self, record: InputRecord) -> HandResult:
        """Score one record; a bad one raises :class:`GongzhuError` naming its source."""
        if record.error is not None:
            raise record.error.within(record.source)
        try:
            return self.scorer(record.data).score_data(record.data)
        except GongzhuError as e:
            raise e.within(record.source) from None

    def run(
        self,
        records: Iterable[InputRecord],
        emit: Emit,
        summary: Summary | None,
        keep_going: bool,
    ) -> list[BadRecord]:
        """Score every record in order; stop at a bad one unless ``keep_going``."""
        bad: list[BadRecord] = []
        with _no_gc():
            for record in records:
                self._one(record, emit, summary, keep_going, bad)
        return bad

    def _one(
        self,
        record: InputRecord,
        emit: Emit,
        summary: Summary | None,
        keep_going: bool,
        bad: list[BadRecord],
    ) -> None:
        """Score and write one record, or note it as bad.

        A bad record raises unless ``keep_going``.
        """
        try:
            result = self.score(record)
        except GongzhuError as e:
            if not keep_going:
                raise
            bad.append(BadRecord(record.source, e))
            return
        emit(record, result)
        if summary is not None:
            summary.add(result)

    def run_jsonl(
        self,
        lines: NumberedLines,
        file: str,
        emit: Emit,
        summary: Summary | None,
        keep_going: bool,
        emit_line: LineWriter | None = None,
    ) -> list[BadRecord]:
        """:meth:`run` for numbered JSON Lines: the hot path of a large batch.

        The same records, scores and errors as ``run(read_records(file))``. ``emit_line``, when
        given, writes a hand from its line number alone: no :class:`InputRecord` is made for it.
        """
        bad: list[BadRecord] = []

        def careful(number: int, line: bytes) -> None:
            # (a key twice, a line too long: the record says why, and _one refuses it)
            self._one(jsonl_record(line, file, number), emit, summary, keep_going, bad)

        def each(number: int, scored: Scored, h: int) -> None:
            emit(InputRecord(file, number), scored.result(h))

        add = None if summary is None else summary.add
        with _no_gc():
            if emit_line is None or add is not None:
                score_lines(lines, self._fast, emit_line or each, careful, add)
            else:
                self._lines_out(lines, emit_line, careful)
        return bad

    def _lines_out(self, lines: NumberedLines, out: LineWriter, careful: Careful) -> None:
        """JSON Lines written as JSON Lines: past the first few thousand lines (a large file,
        worth importing numpy for), as arrays where :mod:`.arrays` can."""
        number, parts, fast = lines.first, lines.parts, self._fast
        cold = _cold()
        while cold > 0:
            part = next(parts, None)
            if part is None:
                return
            if isinstance(part, bytes):  # (at most ``cold`` lines, and the rest as one text)
                taken = part.split(b"\n", cold)
                left: Part = taken.pop() if len(taken) > cold else []
            else:
                taken, left = part[:cold], part[cold:]
            if left != []:
                parts = itertools.chain([left], parts)
            score_lines(zip(itertools.count(number), taken), fast, out, careful, None)
            number, cold = number + len(taken), cold - len(taken)
        try:
            from .arrays import Rules, encodable, score_by_arrays, usable
        except ImportError:  # (no numpy: the arrow extra)
            score_lines(NumberedLines(number, parts), fast, out, careful, None)
            return

        def rules_for(variant: str | None, teams: str | None) -> Rules | None:
            try:
                scorer = self.scorer({"variant": variant, "teams": teams})
            except GongzhuError:  # (an unknown variant: the careful path says so)
                return None
            return (scorer.engine, scorer.normalization) if usable(scorer.normalization) else None

        def rest(part: list[tuple[int, bytes]], emit: LineEmit, then: Careful) -> None:
            score_lines(part, fast, emit, then, None)

        if rules_for(None, None) is None or not encodable(out.prefix):
            score_lines(NumberedLines(number, parts), fast, out, careful, None)
        else:
            score_by_arrays(number, parts, rules_for, out, careful, rest)


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """The cycle collector off while scoring.

    Each hand makes short-lived objects and no cycles, and collecting every few hundred of them
    costs more than it frees.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
