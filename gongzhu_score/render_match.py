"""A match ledger as text: the hands table with running totals, the state, a chart; JSON/CSV."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .ledger import Ledger, MatchStatus
from .render import METHOD_ZH, TERMS, csv_text, format_number, render_table_rows

__all__ = ["match_status_text", "match_to_dict", "render_export", "render_match"]

_MATCH_TERMS = {
    "en": {
        "hand": "hand",
        "marks": "marks",
        "pig": "pig",
        "total": "total",
        "total_raw": "raw total",
        "match": "match",
        "hands": "hands",
        "chart": "running totals (final)",
        "end_at": "ends at",
        "full_red": "full red",
        "grand_slam": "grand slam",
    },
    "zh": {
        "hand": "局",
        "marks": "标记",
        "pig": "收猪",
        "total": "合计",
        "total_raw": "原始分合计",
        "match": "比赛",
        "hands": "局",
        "chart": "累计得分走势",
        "end_at": "终局线",
        "full_red": "全红",
        "grand_slam": "满贯",
    },
}
_BARS = "▁▂▃▄▅▆▇█"


def _number(value: int | Fraction) -> int | float:
    return int(value) if isinstance(value, int) or value.denominator == 1 else float(value)


def match_to_dict(ledger: Ledger) -> dict[str, Any]:
    """``match show --format json`` (a contract): players, hands, totals, ended, loser, winner."""
    status = ledger.status()
    last = ledger.entries[-1] if ledger.entries else None
    norm = ledger.normalization
    return {
        "players": list(ledger.players),
        "variant": ledger.variant.name,
        "normalize": norm.method.value,
        "scale": norm.scale,
        "rounding": norm.rounding.value,
        "teams": norm.teams.value,
        "end_at": ledger.end_at,
        "hands": ledger.hands_as_dicts(),
        "totals": {
            "raw": list(last.total_raw) if last else [0] * 4,
            "final": [_number(f) for f in last.total_final] if last else [0] * 4,
        },
        "ended": status.ended,
        "ended_after": status.ended_after,
        "loser": status.loser,
        "winner": status.winner,
        "loser_side": list(status.loser_side),
        "winner_side": list(status.winner_side),
        "next_lead": list(status.next_lead),
    }


def match_status_text(ledger: Ledger, status: MatchStatus, lang: str = "en") -> str:
    """One line: in play and who leads next, or ended with the loser (当猪) and the winner."""
    n = len(ledger.entries)
    if status.ended:
        assert status.ended_after is not None
        entry = ledger.entries[status.ended_after - 1]
        totals: Sequence[int | Fraction] = (
            entry.total_final if ledger.team_play else entry.total_raw
        )
        kind = (
            ("final total" if ledger.team_play else "raw total")
            if lang == "en"
            else ("累计得分" if ledger.team_play else "原始分合计")
        )
        loser_at = totals[ledger.players.index(status.loser_side[0])]
        winner_at = totals[ledger.players.index(status.winner_side[0])]
        if lang == "zh":
            return (
                f"第 {status.ended_after} 局后结束：{status.loser} 当猪（{kind} "
                f"{format_number(loser_at)}）；{status.winner} 获胜（{kind} "
                f"{format_number(winner_at)}）"
            )
        return (
            f"ended after hand {status.ended_after}: {status.loser} is the pig (当猪, {kind} "
            f"{format_number(loser_at)}); {status.winner} wins ({kind} {format_number(winner_at)})"
        )
    lead = "、".join(status.next_lead) if lang == "zh" else " or ".join(status.next_lead)
    if lang == "zh":
        if not n:
            return "尚无牌局；第一局由持梅花2者先出"
        return f"进行中（已打 {n} 局）；下一局由{lead}先出（上一局收猪）"
    if not n:
        return "no hands yet; the holder of 2♣ leads the first hand"
    lead = lead or "(nobody took the pig: a partial hand)"
    return (
        f"in play after {n} hand{'s' if n != 1 else ''}; {lead} leads the next hand (took the pig)"
    )


def _chart(ledger: Ledger, lang: str) -> list[str]:
    """A sparkline per player of the running final totals, on one scale for everyone."""
    series = [[e.total_final[i] for e in ledger.entries] for i in range(len(ledger.players))]
    values = [v for row in series for v in row]
    if not values:
        return []
    low, high = min(values), max(values)
    span = high - low or 1
    from wcwidth import wcswidth  # display width: a Chinese name takes two columns

    width = max(wcswidth(n) for n in ledger.players)
    lines = [_MATCH_TERMS[lang]["chart"] + ("：" if lang == "zh" else ":")]
    for name, row in zip(ledger.players, series, strict=True):
        bars = "".join(_BARS[int((v - low) * (len(_BARS) - 1) / span)] for v in row)
        pad = " " * (width - wcswidth(name))
        lines.append(f"  {name}{pad}  {bars}  {format_number(row[-1])}")
    return lines


def render_match(ledger: Ledger, lang: str = "en", table_format: str = "simple") -> str:
    t, m = TERMS[lang], _MATCH_TERMS[lang]
    status = ledger.status()
    rows: list[list[Any]] = []
    for number, e in enumerate(ledger.entries, 1):
        cells = [
            f"{format_number(f)} ({format_number(total)})"
            for f, total in zip(e.final, e.total_final, strict=True)
        ]
        marks = [
            f"{name} {_mark_text(code, lang)}"
            for name, codes in zip(ledger.players, e.marks, strict=True)
            for code in codes
            if not code.startswith("transformer")
        ]
        rows.append([number, *cells, ", ".join(marks), "+".join(e.pig_takers)])
    if ledger.entries:
        last = ledger.entries[-1]
        rows.append([m["total"], *(format_number(f) for f in last.total_final), "", ""])
        rows.append([m["total_raw"], *(str(r) for r in last.total_raw), "", ""])
    headers = [m["hand"], *ledger.players, m["marks"], m["pig"]]
    norm = ledger.normalization
    rules = norm.describe() if lang == "en" else f"{METHOD_ZH[norm.method]} ({norm.describe()})"
    sep = "：" if lang == "zh" else ": "
    teams = f" · {t['teams']}{sep}{norm.teams.value}" if ledger.team_play else ""
    lines = [
        f"{t['variant']}{sep}{ledger.variant.name} · {t['normalize']}{sep}{rules}{teams}"
        f" · {m['end_at']} {ledger.end_at}",
        "",
    ]
    if rows:
        align = ["right"] * (len(ledger.players) + 1) + ["left", "left"]
        lines.append(render_table_rows(rows, headers, table_format, colalign=tuple(align)))
        lines.append("")
    lines.append(match_status_text(ledger, status, lang))
    chart = _chart(ledger, lang)
    if chart:
        lines += ["", *chart]
    return "\n".join(lines) + "\n"


def _mark_text(code: str, lang: str) -> str:
    return _MATCH_TERMS[lang].get(code, code)


def render_match_csv(ledger: Ledger) -> str:
    """``match show --format csv``: a row per hand; each player's final and running totals."""
    names = ledger.players
    header = ["hand", *names, *(f"{n} total" for n in names), *(f"{n} raw total" for n in names)]
    rows = [
        [i, *map(_number, e.final), *map(_number, e.total_final), *e.total_raw]
        for i, e in enumerate(ledger.entries, 1)
    ]
    return csv_text([header, *rows])


def render_export(ledger: Ledger, fmt: str, values: str = "final") -> str:
    """``match export``: one row per hand, one column per player (finals, or raws)."""
    rows = [
        {
            "hand": i,
            **{n: _number(v) for n, v in zip(ledger.players, getattr(e, values), strict=True)},
        }
        for i, e in enumerate(ledger.entries, 1)
    ]
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False) + "\n"
    return csv_text([["hand", *ledger.players], *([r[k] for k in r] for r in rows)])
