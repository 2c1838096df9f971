"""``compare`` as a table, JSON or YAML: each rule set's scores, and why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..disputes.compare import Scored
from ..errors import InputError
from ..terms import Listed, error, join, place, rule_name, say
from .formats import Format, format_number, json_number, json_text, table, yaml_text

if TYPE_CHECKING:
    from ..disputes.claimed import ClaimedScore
    from ..disputes.explain_claim import ClaimExplained

__all__ = ["claimed_base", "comparison_to_dict", "render_comparison"]


def claimed_base(scored: Sequence[Scored]) -> Scored:
    """The rule set claims are checked under: the first that scores the hand."""
    _accepted_names(scored)  # (none at all: refused, saying why)
    return next(s for s in scored if s.result is not None)


def _accepted_names(scored: Sequence[Scored]) -> list[str]:
    accepted = [s.result for s in scored if s.result is not None]
    if not accepted:
        refusals = [(s.variant.name, s.error) for s in scored if s.error is not None]
        errors = Listed((place("within", where=n, message=e) for n, e in refusals), "semicolon")
        raise error(InputError, "error.compare.none", errors=errors)
    return list(accepted[0].names)


def comparison_to_dict(
    scored: Sequence[Scored],
    claimed: Sequence[ClaimedScore] = (),
    answers: Sequence[ClaimExplained] = (),
) -> dict[str, Any]:
    """The comparison as data (``compare --format json|yaml``).

    With ``claimed`` (checked under the first rule set), ``claims`` gives each one's
    ``explained_by``: the rule sets under which it comes out (``answers``).
    """
    names = _accepted_names(scored)
    data = {
        "variants": [s.variant.name for s in scored],
        "players": [
            {
                "name": name,
                "scores": {
                    s.variant.name: None
                    if s.result is None
                    else {"raw": s.result.raws[i], "final": json_number(s.result.finals[i])}
                    for s in scored
                },
            }
            for i, name in enumerate(names)
        ],
        "errors": {s.variant.name: str(s.error) for s in scored if s.error is not None},
        "differences": {
            s.variant.name: [
                {
                    "rule": e.rule,
                    "raw_changes": [
                        {"player": n, "before": a, "after": b} for n, a, b in e.raw_changes
                    ],
                    "finals_change": e.finals_change,
                    "alone": e.alone,
                }
                for e in s.effects
            ]
            for s in scored[1:]
        },
    }
    if claimed:
        from .claims import answers_data
        from .hand import claimed_dict

        explained = answers_data(answers)
        data["claims"] = [
            {**said, "explained_by": explained.get(c.name, [])}
            for c, said in zip(claimed, claimed_dict(claimed), strict=True)
        ]
    return data


def render_comparison(
    scored: Sequence[Scored], fmt: Format = Format.table, lang: str = "en",
    table_format: str = "simple", claimed: Sequence[ClaimedScore] = (),
    answers: Sequence[ClaimExplained] = (),
) -> str:  # fmt: skip
    """``compare``: scores per rule set, why they differ, and claims checked.

    Each player's raw / final is shown under each rule set. Each wrong claimed score is followed
    by the rules under which it comes out.
    """
    if fmt is Format.json:
        return json_text(comparison_to_dict(scored, claimed, answers))
    if fmt is Format.yaml:
        return yaml_text(comparison_to_dict(scored, claimed, answers))
    names = _accepted_names(scored)
    base = scored[0]
    both = f"{say('raw', lang)} / {say('final', lang)}"
    headers = [say("player", lang), *(f"{s.variant.name} ({both})" for s in scored)]
    rows = []
    for i, name in enumerate(names):
        row = [name]
        for s in scored:
            if s.result is None:
                row.append(say("compare.refused", lang))
                continue
            cell = f"{s.result.raws[i]} / {format_number(s.result.finals[i])}"
            if (
                base.result is not None
                and s is not base
                and (s.result.raws[i], s.result.finals[i])
                != (base.result.raws[i], base.result.finals[i])
            ):
                cell += "  ≠"
            row.append(cell)
        rows.append(row)
    lines = [table(rows, headers, table_format), ""]
    lines.append(say("compare.header", lang, base=base.variant.name))
    for s in scored:
        if s.error is not None:
            lines.append("  " + say("compare.refuses", lang, name=s.variant.name, error=s.error))
    for s in scored[1:]:
        if s.result is None:
            continue
        if not s.effects:
            lines.append("  " + say("compare.same", lang, name=s.variant.name))
            continue
        parts = []
        for e in s.effects:
            if not e.alone:
                parts.append(say("compare.not_alone", lang, rule=rule_name(e.rule, lang)))
            elif e.raw_changes:
                moves = join(
                    (say("compare.raw_change", lang, name=n, before=a, after=b)
                     for n, a, b in e.raw_changes),
                    lang,
                )  # fmt: skip
                parts.append(say("compare.raws", lang, rule=rule_name(e.rule, lang), changes=moves))
            elif e.finals_change:
                parts.append(say("compare.finals", lang, rule=rule_name(e.rule, lang)))
            else:
                parts.append(say("compare.no_effect", lang, rule=rule_name(e.rule, lang)))
        lines.append(f"  {s.variant.name}: " + say("compare.join", lang).join(parts))
    if claimed:
        from .claims import claim_lines

        lines += ["", say("compare.claims", lang, base=claimed_base(scored).variant.name)]
        lines += [f"  {line}" for line in claim_lines(claimed, answers, lang)]
    return "\n".join(lines) + "\n"
