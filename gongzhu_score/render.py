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
from typing import Any

import yaml

from .cards import PIG, SHEEP, TRANSFORMER, Card, Suit
from .errors import InputError
from .normalize import Method, Teams
from .rules import Variant
from .scoring import HandResult, PlayerScore, TeamSide

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


def render_result(
    result: HandResult, fmt: str = "table", lang: str = "en", table_format: str = "simple"
) -> str:
    """Render a scored hand as ``table``, ``json``, ``csv`` or ``yaml`` text."""
    if fmt == "json":
        return json.dumps(result_to_dict(result), ensure_ascii=False) + "\n"
    if fmt == "yaml":
        return _yaml(result_to_dict(result))
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
    return render_table(result, lang, table_format)


def render_variant(
    variant: Variant, fmt: str = "table", lang: str = "en", table_format: str = "simple"
) -> str:
    """A variant's whole rule table (``variants show NAME``)."""
    data = variant.rule_table()
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        return _yaml(data)
    t = TERMS[lang]
    rows = [[key, _cell(value)] for key, value in data.items()]
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
