"""One hand under several rule sets, and which rule makes each difference.

This is ``compare``. For each rule set after the first, every rule that differs from the first
is tried alone: the first rule set with just that rule changed scores the hand again, and the
players whose score moves are the ones that rule affects. Pure: hand and rules in, an immutable
comparison out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..core.engine import HandResult, compiled_rules
from ..core.hand import Hand
from ..core.normalize import Normalization
from ..core.options import ScoringOptions
from ..core.variant import Variant
from ..errors import GongzhuError

__all__ = ["COMPARED_BY_DEFAULT", "RuleEffect", "Scored", "compare", "compare_with"]

COMPARED_BY_DEFAULT = ("classic", "online", "dehong", "jj")
"""The rule sets a hand is compared under when none is named: the four one-deck variants."""

# Not rules of scoring: a title, and who leads (首引), which changes no score.
_LABELS = ("name", "title", "title_zh", "source", "first_lead", "first_lead_with_partners",
           "opening_card", "opening_card_must_be_played")  # fmt: skip


@dataclass(frozen=True, slots=True)
class RuleEffect:
    """One rule that differs from the first rule set, and its effect alone."""

    rule: str
    raw_changes: tuple[tuple[str, int, int], ...] = ()
    """``(player, raw before, raw after)`` for each raw score this rule alone moves."""
    finals_change: bool = False
    """Whether this rule alone moves any final score."""
    alone: bool = True
    """False when the rule cannot be changed on its own (e.g. decks without its tables)."""


@dataclass(frozen=True, slots=True)
class Scored:
    """One rule set's outcome: a result, or why it refuses the hand."""

    variant: Variant
    result: HandResult | None
    error: GongzhuError | None
    """Why the rule set refuses the hand (``str(error)`` in English, ``error.text("zh")``)."""
    effects: tuple[RuleEffect, ...]


def _try(
    hand: Hand, rules: Variant, norm: Normalization, partial: bool
) -> HandResult | GongzhuError:
    try:
        return compiled_rules(rules).score(hand, norm, partial)
    except GongzhuError as e:
        return e


def _effect(rule: str, a: HandResult, b: HandResult) -> RuleEffect:
    pairs = list(zip(a.players, b.players, strict=True))
    raws = tuple((p.name, p.raw, q.raw) for p, q in pairs if p.raw != q.raw)
    return RuleEffect(rule, raws, any(p.final != q.final for p, q in pairs))


def compare(
    hand: Hand,
    variants: Sequence[Variant],
    normalization: Callable[[Variant], Normalization],
    *,
    partial: bool = False,
) -> tuple[Scored, ...]:
    """Score ``hand`` under each rule set; explain differences from the first."""
    base = variants[0]
    base_norm = normalization(base)
    first = _try(hand, base, base_norm, partial)
    out = []
    for rules in variants:
        outcome = _try(hand, rules, normalization(rules), partial)
        effects: list[RuleEffect] = []
        if rules is not base and isinstance(first, HandResult):
            mine, theirs = base.to_data(), rules.to_data()
            for key in (k for k in mine if k not in _LABELS and mine[k] != theirs[k]):
                try:
                    trial_rules = replace(base, **{key: getattr(rules, key)})
                except GongzhuError:
                    effects.append(RuleEffect(key, alone=False))
                    continue
                trial_norm = normalization(trial_rules) if key == "normalize" else base_norm
                trial = _try(hand, trial_rules, trial_norm, partial)
                if isinstance(trial, GongzhuError):
                    effects.append(RuleEffect(key, alone=False))
                else:
                    effects.append(_effect(key, first, trial))
        result = outcome if isinstance(outcome, HandResult) else None
        error = outcome if isinstance(outcome, GongzhuError) else None
        out.append(Scored(rules, result, error, tuple(effects)))
    return tuple(out)


def compare_with(
    hand: Hand,
    variants: Sequence[Variant],
    options: ScoringOptions = ScoringOptions(),
    *,
    partial: bool = False,
) -> tuple[Scored, ...]:
    """:func:`compare` with the options a user gives.

    Where ``options.normalize`` is None, each rule set uses its own default method.
    """
    return compare(hand, variants, options.normalization, partial=partial)
