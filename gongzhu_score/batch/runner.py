"""Batch scoring record by record, in order, with per-player totals.

A :class:`Batch` holds one :class:`~gongzhu_score.api.Scorer` per rule set it meets (the
options' variant, or each record's own ``variant:``/``teams:``), so the rules are compiled once
whatever the number of hands. Memory stays flat: the summary (one entry per player name) is the
only state that grows with the input.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ..api import Scorer
from ..core.engine import HandResult
from ..core.normalize import Teams
from ..core.options import ScoringOptions
from ..core.totals import PlayerTotals
from ..errors import GongzhuError, InputError
from ..io.variants import DEFAULT, find_variant
from ..terms import error
from .reading import TOO_LONG, BadRecord, InputRecord, NumberedLines, jsonl_record

__all__ = ["Batch", "PlayerTotals", "Summary"]

Emit = Callable[[InputRecord, HandResult], None]


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
        with no_gc():
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
    ) -> list[BadRecord]:
        """:meth:`run` for numbered JSON Lines, each scored alone (the one-hand door): the same
        records, scores and errors as ``run(read_records(file))``. A large batch written as
        JSON Lines goes :func:`.lines.run_lines` instead."""
        bad: list[BadRecord] = []
        careful = self.careful(file, emit, summary, keep_going, bad)
        with no_gc():
            for number, line in lines:
                if line is TOO_LONG or (line and not line.isspace()):
                    careful(number, line)
        return bad

    def careful(self, file: str, emit: Emit, summary: Summary | None, keep_going: bool,
                bad: list[BadRecord]) -> Callable[[int, bytes], None]:  # fmt: skip
        """Scores a JSON line alone, given its number and bytes: its hand to ``emit``, or its
        error raised or (``keep_going``) added to ``bad``."""

        def careful(number: int, line: bytes) -> None:
            # (a key twice, a line too long: the record says why, and _one refuses it)
            self._one(jsonl_record(line, file, number), emit, summary, keep_going, bad)

        return careful


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
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
