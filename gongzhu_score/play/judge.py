"""Judging a trick-by-trick record: the whole use case, in one function.

It reads the record, replays it, scores what the tricks give, checks the scores its players
claimed, decides its claim of the remaining tricks (声称), and gives the verdict.
``gongzhu-score replay`` renders a :class:`Judgement`; any other front door can do the same.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..core.cards import not_a
from ..core.engine import HandResult, compiled_rules
from ..core.options import ScoringOptions
from ..disputes.claimed import ClaimedScore, check_claimed
from ..errors import GongzhuError
from ..io.records import InForce, claimed_scores, parse_record
from ..io.yamlfile import load_yaml, read_text
from .claims import ClaimDecision
from .replay import Replay, replay

__all__ = ["MAX_RECORD_BYTES", "Judgement", "Verdict", "judge_record", "read_record"]

MAX_RECORD_BYTES = 1_000_000
"""A record is a few kilobytes; anything over a megabyte is refused unread."""


class Verdict(str, enum.Enum):
    """What a judged record comes to."""

    LEGAL = "legal"
    """Every play follows the rules; what it says of itself agrees; its claim is guaranteed."""
    BREAKS_RULES = "breaks_rules"
    """A play breaks a rule of play (the violations say which)."""
    DISPUTED = "disputed"
    """The plays are legal, but the record's captured cards or claimed scores disagree with
    them, or its claim is not guaranteed (or could not be decided)."""


@dataclass(frozen=True)
class Judgement:
    """A record judged: replay, score, claimed scores, claim."""

    replay: Replay
    result: HandResult | None
    """The hand the tricks give, scored; None when it cannot be (see :attr:`error`)."""
    error: GongzhuError | None
    """Why the captures cannot be scored (only for a record that breaks the rules)."""
    claimed: tuple[ClaimedScore, ...]
    """The scores the record's players claimed (``claimed:``), each checked."""
    decision: ClaimDecision | None
    """The claim of the remaining tricks decided (None: no claim, or not judged)."""

    @property
    def verdict(self) -> Verdict:
        if self.replay.violations:
            return Verdict.BREAKS_RULES
        if self.replay.disagreements or any(not c.correct for c in self.claimed):
            return Verdict.DISPUTED
        if self.decision is not None and self.decision.guaranteed is not True:
            return Verdict.DISPUTED
        return Verdict.LEGAL


def read_record(path: str) -> tuple[object, str]:
    """``(data, source)`` of a record file (YAML or JSON; ``-``: standard input).

    Every plain scalar is kept as text.
    """
    text, source = read_text(path, MAX_RECORD_BYTES, "record")
    return load_yaml(text, source, keep_text=True), source


def judge_record(
    data: object,
    *,
    source: str = "<record>",
    options: ScoringOptions = ScoringOptions(),
    claim_limit: int | None = None,
) -> Judgement:
    """Judge a record's data under ``options``; ``source`` names it in errors.

    The options' rules and teams judge its play and its score (each None: the record's own
    ``variant:`` and ``teams:``); their normalization gives the finals. A record that cannot be
    read, or whose claim does not name what is left to play, raises
    :class:`~gongzhu_score.errors.GongzhuError`. One that breaks the rules of play is judged all
    the same, and its verdict says so.
    """
    if not isinstance(options, ScoringOptions):
        raise not_a("argument.options", options).within("options")
    played_as = None if options.teams is None else options.teams.value
    try:
        record = parse_record(data, InForce(options.rules, played_as))
        said = claimed_scores(data)  # type: ignore[arg-type]
        played = replay(record)
    except GongzhuError as e:
        raise e.within(source) from None
    norm = options.normalization(record.variant, record.teams)
    result: HandResult | None = None
    problem: GongzhuError | None = None
    claimed: tuple[ClaimedScore, ...] = ()
    try:
        result = compiled_rules(record.variant).score(played.hand(), norm)
        if said:
            claimed = tuple(check_claimed(result, said))
    except GongzhuError as e:
        if not played.violations:
            raise e.within(source) from None
        problem = e
    return Judgement(played, result, problem, claimed, played.decide_claim(claim_limit))
