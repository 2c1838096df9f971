"""The rules under which a wrong claimed score comes out, as text and data.

This is ``explain --claim`` and ``compare --claim``: each rule set with the rule changed (before
→ after), and the house-rules file that gives it, ready for ``score --rules FILE``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.variant import RANKS
from ..terms import printable, rule_name, say
from .formats import format_number

if TYPE_CHECKING:
    from ..disputes.claimed import ClaimedScore
    from ..disputes.explain_claim import ClaimExplained, RuleChange

__all__ = ["answer_lines", "answers_data", "claim_lines", "flow_yaml"]


def _as_written(data: object) -> object:
    """Heart ranks as a rules file writes them (``{2: 0, …, A: -50}``)."""
    if isinstance(data, dict):
        return {
            int(k) if isinstance(k, str) and k.isdigit() else k: _as_written(v)
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [_as_written(v) for v in data]
    return data


def flow_yaml(data: object) -> str:
    """``data`` as one line of YAML flow style, a house-rules file to paste.

    ``{extends: classic, pig: -50}`` reads back by the one YAML reader as the same data.
    """
    import yaml

    text = yaml.safe_dump(_as_written(data), default_flow_style=True, allow_unicode=True,
                          sort_keys=False, width=float("inf"))  # fmt: skip
    return printable(text.strip())


def _value(value: object) -> str:
    """A rules-file value as written: ``null``, ``true``, ``[1, 2]``."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return flow_yaml(value) if isinstance(value, list | dict) else printable(str(value))


def _change(key: str, before: Any, after: Any, lang: str) -> str:
    """``transformer_multiplier 2 → 1``: one change, a heart, level or row alone."""
    rule = rule_name(key, lang)
    if key == "heart_values":
        ranks = [r for r in RANKS if before[r] != after[r]]
        return "; ".join(f"{rule} {r}: {before[r]} → {after[r]}" for r in ranks)
    if key == "exposure_levels":
        moved = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        return "; ".join(
            say("explain.claim.level", lang, rule=rule, copies=i, before=before[i],
                after=after[i])
            for i in moved
        )  # fmt: skip
    if key == "transformer_table":
        rows = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
        return "; ".join(
            say("explain.claim.row", lang, rule=rule, exposed=a["exposed"], taken=a["taken"],
                before=a["times"], after=b["times"])
            for a, b in rows
        )  # fmt: skip
    return f"{rule} {_value(before)} → {_value(after)}"


def _how(change: RuleChange, lang: str) -> list[str]:
    """What to run to see it: the variant, or the house-rules file."""
    if not change.changes:
        return [say("explain.claim.as_it_is", lang, variant=change.variant)]
    changes = "; ".join(_change(k, a, b, lang) for k, a, b in change.changes)
    said = say("explain.claim.changed", lang, variant=change.variant, changes=changes)
    if change.builtin:
        return [said, say("explain.claim.file", lang, rules=flow_yaml(change.rules_file()))]
    edit = flow_yaml(change.changed).removeprefix("{").removesuffix("}")
    return [said, say("explain.claim.edit", lang, variant=change.variant, changes=edit)]


def answer_lines(answers: Sequence[ClaimExplained], lang: str = "en") -> list[str]:
    """For each wrong claim, the numbered rule sets that explain it.

    If none does, it says so. Each line is indented under the claim's own.
    """
    lines: list[str] = []
    for answer in answers:
        c = answer.claim
        number, kind = format_number(c.claimed), say(c.kind, lang)
        if not answer.explained_by:
            lines.append(say("explain.claim.none", lang, name=c.name, kind=kind, claimed=number,
                             base=answer.base, tried=answer.tried))  # fmt: skip
            continue
        lines.append(say("explain.claim.under", lang, name=c.name, kind=kind, claimed=number,
                         found=len(answer.explained_by), tried=answer.tried))  # fmt: skip
        for i, change in enumerate(answer.explained_by, 1):
            first, *rest = _how(change, lang)
            lines.append(f"  {i}. {first}")
            lines += [f"     {line}" for line in rest]
    return lines


def answers_data(answers: Sequence[ClaimExplained]) -> dict[str, list[dict[str, Any]]]:
    """Each wrong claim's ``explained_by``, by player.

    Each entry is ``{variant, changes, rules}``, ``rules`` being the house-rules file that gives
    it.
    """
    return {
        a.claim.name: [
            {"variant": c.variant, "changes": c.changed, "rules": c.rules_file()}
            for c in a.explained_by
        ]
        for a in answers
    }


def claim_lines(
    claimed: Sequence[ClaimedScore], answers: Sequence[ClaimExplained], lang: str = "en"
) -> list[str]:
    """Each claim checked; a wrong one, then the rules that explain it."""
    from .hand import claimed_lines

    by_name = {a.claim.name: a for a in answers}
    lines = []
    for c, line in zip(claimed, claimed_lines(claimed, lang), strict=True):
        lines.append(line)
        if c.name in by_name:
            lines += answer_lines([by_name[c.name]], lang)
    return lines
