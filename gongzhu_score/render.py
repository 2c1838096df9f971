"""Turning results into text: tables (tabulate), JSON, CSV and YAML, in English or Chinese.

Machine formats (JSON, CSV, YAML) keep English keys and card codes whatever the language, so
scripts do not depend on ``--lang``; tables speak the players' language.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import yaml

from .cards import PIG, SCORING_CARDS, SHEEP, TRANSFORMER, Card, Suit
from .claims import Claim
from .errors import InputError
from .normalize import Method, Teams
from .rules import Variant
from .scoring import HandResult, PlayerScore, TeamSide

if TYPE_CHECKING:
    from .compare import Scored
    from .replay import Replay

__all__ = [
    "TERMS",
    "csv_text",
    "format_number",
    "render_result",
    "render_table_rows",
    "render_variant",
    "result_to_dict",
]


def _tabulate(rows: Any, headers: Any, table_format: str, **options: Any) -> str:
    # Imported here: tabulate (with wcwidth and importlib.metadata) costs ~30 ms of start-up,
    # which JSON/CSV output and --version need not pay.
    import tabulate

    if table_format not in tabulate.tabulate_formats:
        raise InputError(
            f"--table-format {table_format!r}: not a tabulate format; try simple, github, grid, "
            "plain, rounded_outline (all: " + ", ".join(sorted(tabulate.tabulate_formats)) + ")"
        )
    # Wide (CJK) characters count as two columns when tabulate measures cells.
    tabulate.WIDE_CHARS_MODE = True
    return tabulate.tabulate(rows, headers=headers, tablefmt=table_format, **options)


TERMS: dict[str, dict[str, str]] = {
    "en": {
        "seat": "seat",
        "player": "player",
        "cards": "scoring cards",
        "marks": "marks",
        "raw": "raw",
        "final": "final",
        "sum": "sum",
        "variant": "variant",
        "normalize": "normalize",
        "exposed": "exposed",
        "first_exposed": "first-exposed (首明)",
        "auto": "auto-exposed",
        "full_red": "full red",
        "grand_slam": "grand slam",
        "transformer": "transformer",
        "transformer_alone": "transformer alone",
        "partial": "PARTIAL tally, not captured by anyone",
        "residue": "rounding leaves the finals summing to",
        "rule": "rule",
        "value": "value",
        "pig": "pig",
        "sheep": "sheep",
        "none": "none",
        "side": "side",
        "teams": "teams",
        "difference": "difference",
        "claims": "claims",
        "claim_ok": "{name} claimed {claimed}: right",
        "claim_wrong": "{name} claimed {claimed}: WRONG, the {kind} score is {actual} "
        "(the claim is off by {diff:+})",
        "kind_raw": "raw",
        "kind_final": "final",
    },
    "zh": {
        "seat": "座位",
        "player": "玩家",
        "cards": "分牌",
        "marks": "标记",
        "raw": "原始分",
        "final": "最后得分",
        "sum": "合计",
        "variant": "规则",
        "normalize": "计分",
        "exposed": "亮牌",
        "first_exposed": "首明",
        "auto": "自动亮",
        "full_red": "全红",
        "grand_slam": "满贯",
        "transformer": "变压器",
        "transformer_alone": "单变压器",
        "partial": "部分计分，无人收的分牌",
        "residue": "四舍五入后合计为",
        "rule": "规则",
        "value": "值",
        "pig": "猪",
        "sheep": "羊",
        "none": "无",
        "side": "一方",
        "teams": "组队",
        "difference": "相差",
        "claims": "自报得分",
        "claim_ok": "{name} 自报 {claimed}：正确",
        "claim_wrong": "{name} 自报 {claimed}：不对，{kind}应为 {actual}（差 {diff:+}）",
        "kind_raw": "原始分",
        "kind_final": "最后得分",
    },
}

_NICK_ZH = {PIG: "猪", SHEEP: "羊", TRANSFORMER: "变压器"}
_TEAMS = {
    "en": {
        Teams.NONE: "none",
        Teams.PARTNERS: "partners (打对家)",
        Teams.PIG_SHEEP: "pig-sheep (猪羊一家)",
    },
    "zh": {Teams.NONE: "无", Teams.PARTNERS: "对家", Teams.PIG_SHEEP: "猪羊一家"},
}
METHOD_ZH = {Method.NONE: "原始分", Method.ZERO_SUM: "零和", Method.JJ: "JJ算法"}
_THIRDS = {1: "⅓", 2: "⅔"}


def format_number(value: int | Fraction) -> str:
    """``-293``, or with exact rounding ``-293⅓``."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    sign = "-" if value < 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if value.denominator == 3:
        return f"{sign}{whole}{_THIRDS[rest]}"
    return f"{sign}{whole} {rest}/{value.denominator}"


def _json_number(value: int | Fraction) -> int | float:
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return float(value)


def _cards_text(cards: Sequence[Card], lang: str) -> str:
    if lang != "zh":
        return " ".join(c.symbol for c in cards)
    named = [_NICK_ZH[c] for c in cards if c in _NICK_ZH]
    hearts = [c.rank_name for c in cards if c.suit is Suit.HEARTS]
    if hearts:
        named.append("红桃" + " ".join(hearts))
    return " ".join(named)


def _marks(p: PlayerScore, lang: str) -> str:
    t = TERMS[lang]
    marks = [t[key] for key in ("full_red", "grand_slam") if getattr(p, key)]
    if p.transformer_alone:
        marks.append(t["transformer_alone"])
    elif p.transformer is not None:
        marks.append(f"{t['transformer']} ×{p.transformer}")
    return ", ".join(marks) if lang == "en" else "、".join(marks)


def _header(result: HandResult, lang: str) -> list[str]:
    t = TERMS[lang]
    v = result.variant
    title = v.title_zh if lang == "zh" else v.title
    sep = "：" if lang == "zh" else ": "
    lines = [f"{t['variant']}{sep}{v.name} ({title})"]
    norm = result.normalization
    method = f"{METHOD_ZH[norm.method]} ({norm.describe()})" if lang == "zh" else norm.describe()
    lines.append(f"{t['normalize']}{sep}{method}")
    shown = [_exposure_text(e.card, e.level, e.kind, e.by, lang) for e in result.exposures]
    comma = "，" if lang == "zh" else ", "
    lines.append(f"{t['exposed']}{sep}{comma.join(shown) if shown else t['none']}")
    if result.partial:
        lines.append(f"{t['partial']}{sep}{' '.join(c.symbol for c in result.missing)}")
    sides = result.sides
    if sides is not None:
        mode = _TEAMS[lang][norm.teams]
        a, b = (f"{_side_label(side)} {t['raw']} {side.raw}" for side in sides)
        diff = f"{t['difference']} {sides[0].raw - sides[1].raw}"
        lines.append(f"{t['teams']}{sep}{mode} — {a}{comma}{b}{comma}{diff}")
    return lines


def _side_label(side: TeamSide) -> str:
    return "+".join(side.names)


def render_table_rows(
    rows: Sequence[Sequence[Any]], headers: Sequence[str], table_format: str, **options: Any
) -> str:
    """A tabulate table with Chinese text aligned; errors for unknown table formats."""
    return _tabulate(rows, headers, table_format, disable_numparse=True, **options)


def _exposure_text(card: Card, level: int, kind: str, by: str | None, lang: str) -> str:
    if lang == "zh":
        who = {"exposed": f"{by}亮", "first_exposed": f"{by}首明", "auto": "自动亮"}[kind]
        return f"{card.symbol} ×{level} {who}"
    how = {"exposed": "", "first_exposed": " first-exposed (首明)", "auto": " auto-exposed"}[kind]
    return f"{card.symbol} ×{level}{how}" + ("" if by is None else f" by {by}")


def render_table(result: HandResult, lang: str = "en", table_format: str = "simple") -> str:
    t = TERMS[lang]
    sides = result.sides
    keys = ["seat", "player", "cards", "marks", "raw", "final"]
    align = ["right", "left", "left", "left", "right", "right"]
    rows: list[list[Any]] = [
        [
            p.seat,
            p.name,
            _cards_text(p.scoring_cards, lang),
            _marks(p, lang),
            p.raw,
            format_number(p.final),
        ]
        for p in result.players
    ]
    rows.append(["", t["sum"], "", "", result.raw_sum, format_number(result.final_sum)])
    if sides is not None:
        keys.insert(2, "side")
        align.insert(2, "left")
        for row, p in zip(rows, result.players, strict=False):
            row.insert(2, "" if p.side is None else _side_label(sides[p.side]))
        rows[-1].insert(2, "")
    table = _tabulate(
        rows,
        [t[k] for k in keys],
        table_format,
        colalign=tuple(align),
        disable_numparse=True,
    )
    lines = [*_header(result, lang), "", table]
    if result.final_sum != 0 and result.normalization.method is not Method.NONE:
        lines.append(f"({t['residue']} {format_number(result.final_sum)})")
    return "\n".join(lines) + "\n"


def result_to_dict(result: HandResult) -> dict[str, Any]:
    """The result as plain data: the JSON/YAML contract (``players`` in seat order)."""
    norm = result.normalization
    return {
        "variant": result.variant.name,
        "normalize": norm.method.value,
        "scale": norm.scale,
        "rounding": norm.rounding.value,
        "partial": result.partial,
        "missing": [c.code for c in result.missing],
        "exposures": [
            {"card": e.card.code, "by": e.by, "kind": e.kind, "level": e.level}
            for e in result.exposures
        ],
        "teams": _teams_dict(result),
        "players": [_player_dict(p) for p in result.players],
        "raw_sum": result.raw_sum,
        "final_sum": _json_number(result.final_sum),
    }


def _teams_dict(result: HandResult) -> dict[str, Any] | None:
    sides = result.sides
    if sides is None:
        return None
    return {
        "mode": result.normalization.teams.value,
        "sides": [{"players": list(side.names), "raw": side.raw} for side in sides],
        "difference": sides[0].raw - sides[1].raw,
    }


def _player_dict(p: PlayerScore) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": p.seat,
        "name": p.name,
        "raw": p.raw,
        "final": _json_number(p.final),
        "side": p.side,
    }
    if isinstance(p.final, Fraction) and p.final.denominator != 1:
        out["final_exact"] = str(p.final)
    out.update(
        {
            "scoring_cards": [c.code for c in p.scoring_cards],
            "markers": list(p.markers),
            "breakdown": [
                {
                    "rule": line.rule,
                    "cards": [c.code for c in line.cards],
                    "base": line.base,
                    "factor": line.factor,
                    "points": line.points,
                }
                for line in p.lines
            ],
            "subtotal": p.subtotal,
            "transformer": p.transformer,
        }
    )
    return out


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def _yaml(data: object) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def claim_lines(claims: Sequence[Claim], lang: str = "en") -> list[str]:
    """One line per claim: right, or wrong with the right number and the difference."""
    t = TERMS[lang]
    return [
        t["claim_ok" if c.correct else "claim_wrong"].format(
            name=c.name,
            claimed=c.claimed,
            kind=t[f"kind_{c.kind}"],
            actual=format_number(c.actual),
            diff=c.difference,
        )
        for c in claims
    ]


def _claims_dict(claims: Sequence[Claim]) -> list[dict[str, Any]]:
    return [
        {
            "name": c.name,
            "claimed": c.claimed,
            "of": c.kind,
            "actual": _json_number(c.actual),
            "correct": c.correct,
            "difference": _json_number(c.difference),
        }
        for c in claims
    ]


def render_result(
    result: HandResult,
    fmt: str = "table",
    lang: str = "en",
    table_format: str = "simple",
    claims: Sequence[Claim] = (),
) -> str:
    """Render a scored hand as ``table``, ``json``, ``csv`` or ``yaml`` text, with any claims."""
    if fmt in ("json", "yaml"):
        data = result_to_dict(result)
        if claims:
            data["claims"] = _claims_dict(claims)
        if fmt == "json":
            return json.dumps(data, ensure_ascii=False) + "\n"
        return _yaml(data)
    if fmt == "csv":
        header = ["seat", "name", "raw", "final", "scoring_cards", "markers", "side"]
        rows = [
            [
                p.seat,
                p.name,
                p.raw,
                _json_number(p.final),
                " ".join(c.code for c in p.scoring_cards),
                " ".join(list(p.markers)),
                "" if p.side is None else p.side,
            ]
            for p in result.players
        ]
        return csv_text([header, *rows])
    text = render_table(result, lang, table_format)
    if claims:
        text += f"\n{TERMS[lang]['claims']}:\n" + "".join(
            f"  {line}\n" for line in claim_lines(claims, lang)
        )
    return text


def render_variant(
    variant: Variant, fmt: str = "table", lang: str = "en", table_format: str = "simple"
) -> str:
    """A variant's whole rule table (``variants show NAME``).

    JSON and YAML give the rules-file schema, so the output loads back with ``--rules``; the
    table adds what follows from the rules (multipliers, lone values, the grand slam).
    """
    if fmt == "json":
        return json.dumps(variant.to_data(), ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        return _yaml(variant.to_data())
    t = TERMS[lang]
    rows = [[key, _cell(value)] for key, value in variant.rule_table().items()]
    return _tabulate(rows, [t["rule"], t["value"]], table_format) + "\n"


def render_variant_list(
    variants: Iterable[Variant], fmt: str = "table", lang: str = "en", table_format: str = "simple"
) -> str:
    rows = [
        {"name": v.name, "title": v.title_zh if lang == "zh" else v.title, "source": v.source}
        for v in variants
    ]
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        return _yaml(rows)
    return _tabulate(rows, "keys", table_format) + "\n"


def _cell(value: object) -> str:
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    if isinstance(value, list):
        sep = "; " if any(" " in str(v) for v in value) else " "
        return sep.join(str(v) for v in value)
    return str(value)


_COMPARE = {
    "en": {
        "player": "player",
        "refused": "refused",
        "header": "Differences from {base}:",
        "raws": "{rule}: {changes}",
        "raw_change": "{name} raw {before} → {after}",
        "finals": "{rule}: changes the finals only",
        "no_effect": "{rule}: no effect on this hand",
        "not_alone": "{rule} (goes with the rules above)",
        "refuses": "{name} refuses the hand: {error}",
        "same": "{name}: the same rules",
        "sep": ", ",
        "join": "; ",
    },
    "zh": {
        "player": "玩家",
        "refused": "不接受",
        "header": "与 {base} 的不同：",
        "raws": "{rule}：{changes}",
        "raw_change": "{name} 原始分 {before} → {after}",
        "finals": "{rule}：只改变最后得分",
        "no_effect": "{rule}：对本局无影响",
        "not_alone": "{rule}（与上面的规则一起变）",
        "refuses": "{name} 不接受这一局：{error}",
        "same": "{name}：规则相同",
        "sep": "、",
        "join": "；",
    },
}


def render_comparison(
    scored: Sequence[Scored], fmt: str = "table", lang: str = "en", table_format: str = "simple"
) -> str:
    """``compare``: each player's raw / final under each rule set, and why they differ."""
    base = scored[0]
    accepted = [s.result for s in scored if s.result is not None]
    if not accepted:
        errors = "; ".join(f"{s.variant.name}: {s.error}" for s in scored)
        raise InputError(f"no rule set accepts this hand ({errors})")
    names = [p.name for p in accepted[0].players]
    if fmt == "json":
        data = {
            "variants": [s.variant.name for s in scored],
            "players": [
                {
                    "name": name,
                    "scores": {
                        s.variant.name: None
                        if s.result is None
                        else {"raw": s.result.raws[i], "final": _json_number(s.result.finals[i])}
                        for s in scored
                    },
                }
                for i, name in enumerate(names)
            ],
            "errors": {s.variant.name: s.error for s in scored if s.error},
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
        return json.dumps(data, ensure_ascii=False) + "\n"
    c = _COMPARE[lang]
    headers = [c["player"], *(f"{s.variant.name} ({TERMS[lang]['raw']} / {TERMS[lang]['final']})"
                              for s in scored)]  # fmt: skip
    rows = []
    for i, name in enumerate(names):
        row = [name]
        for s in scored:
            if s.result is None:
                row.append(c["refused"])
                continue
            cell = f"{s.result.raws[i]} / {format_number(s.result.finals[i])}"
            if (
                base.result is not None
                and s is not base
                and (
                    (s.result.raws[i], s.result.finals[i])
                    != (base.result.raws[i], base.result.finals[i])
                )
            ):
                cell += "  ≠"
            row.append(cell)
        rows.append(row)
    lines = [_tabulate(rows, headers, table_format, disable_numparse=True), ""]
    lines.append(c["header"].format(base=base.variant.name))
    for s in scored:
        if s.error is not None:
            lines.append("  " + c["refuses"].format(name=s.variant.name, error=s.error))
    for s in scored[1:]:
        if s.result is None:
            continue
        if not s.effects:
            lines.append("  " + c["same"].format(name=s.variant.name))
            continue
        parts = []
        for e in s.effects:
            if not e.alone:
                parts.append(c["not_alone"].format(rule=e.rule))
            elif e.raw_changes:
                moves = c["sep"].join(
                    c["raw_change"].format(name=n, before=a, after=b) for n, a, b in e.raw_changes
                )
                parts.append(c["raws"].format(rule=e.rule, changes=moves))
            elif e.finals_change:
                parts.append(c["finals"].format(rule=e.rule))
            else:
                parts.append(c["no_effect"].format(rule=e.rule))
        lines.append(f"  {s.variant.name}: " + c["join"].join(parts))
    return "\n".join(lines) + "\n"


_REPLAY = {
    "en": {
        "trick": "trick",
        "lead": "lead",
        "plays": "plays, in order",
        "winner": "winner",
        "took": "scoring cards taken",
        "legal": "No violations: every play follows the rules.",
        "violations": "Violations",
        "disagreements": "Disagreements with the record",
        "unscored": "The captures cannot be scored",
    },
    "zh": {
        "trick": "圈",
        "lead": "首家",
        "plays": "出牌（按顺序）",
        "winner": "赢家",
        "took": "收到的分牌",
        "legal": "没有违规：每一张牌都合规。",
        "violations": "违规",
        "disagreements": "与记录不符",
        "unscored": "无法计分",
    },
}


def render_replay(
    played: Replay,
    result: HandResult | None,
    error: str | None,
    fmt: str = "table",
    lang: str = "en",
    table_format: str = "simple",
    claims: Sequence[Claim] = (),
) -> str:
    """``replay``: the tricks and their winners, the score, the violations."""
    if fmt == "json":
        if result is not None:
            data = result_to_dict(result)
        else:
            names = played.record.players
            data = {"players": [{"name": n, "raw": None, "final": None} for n in names]}
        data["tricks"] = [
            {
                "number": t.number,
                "lead": t.lead,
                "cards": [" ".join(c.code for c in p.cards) for p in t.plays],
                "winner": t.winner,
            }
            for t in played.tricks
        ]
        data["violations"] = list(played.violations)
        data["disagreements"] = list(played.disagreements)
        if error is not None:
            data["error"] = error
        if claims:
            data["claims"] = _claims_dict(claims)
        return json.dumps(data, ensure_ascii=False) + "\n"
    r = _REPLAY[lang]
    rows = []
    for t in played.tricks:
        taken = [c for p in t.plays for c in p.cards if c in SCORING_CARDS]
        rows.append([
            t.number, t.lead, "  ".join(f"{p.player} {p.text}" for p in t.plays), t.winner,
            _cards_text(tuple(sorted(taken, key=lambda c: c.sort_key)), lang),
        ])  # fmt: skip
    headers = [r[k] for k in ("trick", "lead", "plays", "winner", "took")]
    out = [_tabulate(rows, headers, table_format, disable_numparse=True), ""]
    if result is not None:
        out.append(render_result(result, "table", lang, table_format, claims).rstrip("\n"))
    else:
        out.append(f"{r['unscored']}: {error}")
    out.append("")
    zh = lang == "zh"
    violations = played.violations_zh if zh else played.violations
    disagreements = played.disagreements_zh if zh else played.disagreements
    colon = "：" if zh else ":"
    if violations:
        out.append(f"{r['violations']} ({len(violations)}){colon}")
        out += [f"  {v}" for v in violations]
    else:
        out.append(r["legal"])
    if disagreements:
        out.append(f"{r['disagreements']}{colon}")
        out += [f"  {d}" for d in disagreements]
    return "\n".join(out) + "\n"
