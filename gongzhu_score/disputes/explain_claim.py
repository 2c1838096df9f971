"""Which rules give the number a player claimed (``explain --claim``, ``compare --claim``).

"Your app must count the pig ×2 only once": a table that disagrees with the tool usually plays
by a rule set in which one rule is different. So a wrong claimed score is answered with the rule
sets under which it comes out: every built-in variant (and every rule set compared) as it is,
then the table's own rule set with one rule changed at a time, each rule over a small set of
values tables play (:data:`ALTERNATIVES`). Each rule set is scored by the one engine; nothing
here applies a rule. The work is bounded: a few hundred scorings at most (:func:`candidates`).

Each answer is checkable by running it: :meth:`RuleChange.rules_file` is a house-rules file
(``extends: classic`` and the changed rule) that ``score --rules FILE`` scores to the claimed
number. Pure: hand and rules in, immutable answers out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..core.engine import CompiledRules, HandResult
from ..core.hand import Hand
from ..core.normalize import Method, Normalization
from ..core.options import ScoringOptions
from ..core.variant import FULL_RED_MODES, Variant
from ..errors import GongzhuError
from ..io.variants import VARIANTS
from .claimed import ClaimedScore, check_claimed
from .compare import Scored

__all__ = ["ALTERNATIVES", "ClaimExplained", "RuleChange", "answer_claims", "candidates",
           "explain_claims", "rules_giving"]  # fmt: skip

_LEVELS = (1, 2, 3, 4, 8)
_POINTS = (-200, -100, -50, 50, 100, 200)

ALTERNATIVES: Mapping[str, tuple[Any, ...]] = {
    "heart_values": (-10, 0, 10),  # each heart alone: 0, or 10 either side of it (not above 0)
    "pig": _POINTS,
    "sheep": _POINTS,
    "exposure_levels": _LEVELS,  # each level of an exposed card alone (by copies exposed)
    "first_exposure_level": _LEVELS,
    "first_exposure_allowed": (True, False),
    "auto_exposure": (True, False),
    "transformer_multiplier": _LEVELS,
    "transformer_table": (2, 4, 8, 16),  # two decks: each row's multiplier alone
    "transformer_alone": (-100, -50, 0, 50, 100, 200),
    "zero_hearts_are_scoring": (True, False),
    "full_red": (100, 200, 300, 400, 800),
    "full_red_mode": FULL_RED_MODES,
    "full_red_pig_positive": (True, False),
    "grand_slam": (None, 800, 1600, 3200),
    "normalize": tuple(m.value for m in Method),
}
"""The rules a table's rule set is changed in, one at a time, and the values each is tried at
(rules-file values). The other rules are no scores (names, who leads, the end of a match) or
make another hand of it (the decks, which cards may be exposed)."""

_NOT_RULES = ("name", "title", "title_zh", "source")


@dataclass(frozen=True, slots=True)
class RuleChange:
    """A rule set under which the claimed number comes out.

    It is ``variant`` as it is (no ``changes``), or with each ``(rule, before, after)`` of
    ``changes`` (rules-file values).
    """

    variant: str
    changes: tuple[tuple[str, Any, Any], ...]
    builtin: bool
    """Whether ``variant`` is a built-in rule set (a house-rules file can then extend it)."""
    rules: Variant
    """The rule set it amounts to."""

    @property
    def changed(self) -> dict[str, Any]:
        """Each changed rule and its new value (``{"transformer_multiplier": 1}``)."""
        return {key: after for key, _, after in self.changes}

    def rules_file(self) -> dict[str, Any]:
        """A house-rules file (``--rules FILE``) that gives this rule set.

        It extends the built-in variant with the changed rules, or else holds the whole rule
        set.
        """
        name = f"{self.variant}-as-claimed" if self.changes else self.variant
        if self.builtin:
            return {"extends": self.variant, "name": name, **self.changed}
        data = self.rules.to_data()
        data["name"] = name
        return data


@dataclass(frozen=True, slots=True)
class ClaimExplained:
    """A wrong claimed score, and the rule sets that would make it right."""

    claim: ClaimedScore
    base: str
    """The rule set whose single changes were tried (the table's)."""
    explained_by: tuple[RuleChange, ...]
    tried: int
    """How many rule sets were scored."""


def _is_builtin(rules: Variant) -> bool:
    return VARIANTS.get(rules.name) == rules


def _single_changes(base: Variant) -> Iterator[tuple[str, Any]]:
    """``(rule, value)`` for each rule of ``base`` changed alone to each value tried.

    Values are the field's, not the file's.
    """
    for key, values in ALTERNATIVES.items():
        now = getattr(base, key)
        if key == "heart_values":
            for i in range(len(now)):
                tried = sorted({0, now[i] + values[0], now[i] + values[2]}, reverse=True)
                for v in tried:
                    if v != now[i] and v <= 0:
                        yield key, (*now[:i], v, *now[i + 1 :])
        elif key == "exposure_levels":
            for i in range(1, len(now)):  # (nothing exposed counts ×1 at every table)
                for v in values:
                    if v != now[i]:
                        yield key, (*now[:i], v, *now[i + 1 :])
        elif key == "transformer_table":
            for i, (exposed, taken, times) in enumerate(now):
                for v in values:
                    if v != times:
                        yield key, (*now[:i], (exposed, taken, v), *now[i + 1 :])
        elif key == "normalize":
            for v in values:
                if v != now.value:
                    yield key, Method(v)
        else:
            for v in values:
                if v != now:
                    yield key, v


def _schema(rules: Variant) -> str:
    """A rule set's rules, not its names, as one text. Equal rules, equal text."""
    data = rules.to_data()
    for label in _NOT_RULES:
        data.pop(label)
    return json.dumps(data, sort_keys=True)


def candidates(base: Variant, also: Sequence[Variant] = ()) -> Iterator[RuleChange]:
    """The rule sets tried, in order.

    First ``also`` (the rule sets compared) and the built-in variants with ``base``'s decks,
    each as it is; then ``base`` with one rule changed, for each rule and value of
    :data:`ALTERNATIVES`. None twice, none with the same rules as ``base``, none that cannot be
    a rule set (a level below 1: refused where it is made).
    """
    seen = {_schema(base)}
    wholes = [*also, *(v for v in VARIANTS.values() if v.decks == base.decks)]
    for rules in wholes:
        said = _schema(rules)
        if said not in seen:
            seen.add(said)
            yield RuleChange(rules.name, (), _is_builtin(rules), rules)
    before = base.to_data()
    builtin = _is_builtin(base)
    for key, value in _single_changes(base):
        try:
            rules = replace(base, **{key: value})
        except GongzhuError:
            continue
        said = _schema(rules)
        if said in seen:
            continue
        seen.add(said)
        after = rules.to_data()[key]
        yield RuleChange(base.name, ((key, before[key], after),), builtin, rules)


def _score(hand: Hand, rules: Variant, norm: Normalization, partial: bool) -> HandResult | None:
    try:
        return CompiledRules(rules).score(hand, norm, partial)
    except GongzhuError:
        return None  # a rule set that refuses the hand (a 首明 it does not allow) explains nothing


def explain_claims(
    hand: Hand,
    rules: Variant,
    claimed: Sequence[ClaimedScore],
    options: ScoringOptions = ScoringOptions(),
    partial: bool = False,
    *,
    also: Sequence[Variant] = (),
) -> tuple[ClaimExplained, ...]:
    """For each wrong claim, the rule sets under which it comes out.

    ``claimed`` is checked under ``rules``, the table's. Each candidate (:func:`candidates`) is
    scored once for every claim, with the options a user gives (each rule set's own default
    method where ``options.normalize`` is None).
    """
    wrong = [c for c in claimed if not c.correct]
    if not wrong:
        return ()
    found: list[list[RuleChange]] = [[] for _ in wrong]
    tried = 0
    for change in candidates(rules, also):
        tried += 1
        result = _score(hand, change.rules, options.normalization(change.rules), partial)
        if result is None:
            continue
        for i, c in enumerate(wrong):
            seat = result.names.index(c.name)
            value = result.raws[seat] if c.kind == "raw" else result.finals[seat]
            if value == c.claimed:
                found[i].append(change)
    return tuple(
        ClaimExplained(c, rules.name, tuple(by), tried) for c, by in zip(wrong, found, strict=True)
    )


def rules_giving(
    hand: Hand,
    rules: Variant,
    name: str,
    number: int,
    *,
    kind: str = "raw",
    options: ScoringOptions = ScoringOptions(),
    partial: bool = False,
    also: Sequence[Variant] = (),
) -> tuple[RuleChange, ...]:
    """The rule sets under which player ``name`` scores ``number`` in ``hand``.

    ``number`` is raw, or final with ``kind="final"``. The candidates are built-in variants (and
    ``also``) as they are, and ``rules`` with one rule changed (:func:`candidates`). Empty when
    ``rules`` already gives it, or no single change does.
    """
    from ..core.engine import compiled_rules

    result = compiled_rules(rules).score(hand, options.normalization(rules), partial)
    claims = check_claimed(result, {name: number}, kind)
    explained = explain_claims(hand, rules, claims, options=options, partial=partial, also=also)
    return explained[0].explained_by if explained else ()


def answer_claims(
    hand: Hand,
    scored: Sequence[Scored],
    claims: Mapping[str, int],
    kind: str = "raw",
    options: ScoringOptions = ScoringOptions(),
    partial: bool = False,
) -> tuple[tuple[ClaimedScore, ...], tuple[ClaimExplained, ...]]:
    """``compare --claim``: the claims checked, and rule sets that explain wrong ones.

    The claims are checked under the first rule set compared that scores the hand (the table's).
    For each wrong one come the rule sets under which it comes out: the others compared and the
    built-in variants as they are, the first with one rule changed. Nothing when no rule set
    scores the hand (the comparison says why).
    """
    base = next((s for s in scored if s.result is not None), None)
    if base is None or base.result is None or not claims:
        return (), ()
    claimed = tuple(check_claimed(base.result, claims, kind))
    others = [s.variant for s in scored if s is not base]
    answers = explain_claims(hand, base.variant, claimed, options=options, partial=partial,
                             also=others)  # fmt: skip
    return claimed, answers
