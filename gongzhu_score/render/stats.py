"""``gongzhu-score stats`` as a table (English or Chinese), JSON or CSV."""

from __future__ import annotations

from typing import Any

from ..core.totals import PlayerTotals
from ..match.stats import Stats
from ..terms import count_of, count_of_hands, say
from .formats import Format, csv_text, json_number, json_text, table

__all__ = ["render_stats"]

_KEYS = (
    "name",
    "matches",
    "hands",
    "lost",
    "won",
    "pigs",
    "sheep",
    "transformers",
    "full_reds",
    "grand_slams",
    "average",
)


def _row(r: PlayerTotals) -> list[Any]:
    return [
        r.name,
        r.matches,
        r.hands,
        r.lost,
        r.won,
        r.pigs,
        r.sheep,
        r.transformers,
        r.full_reds,
        r.grand_slams,
        round(float(r.average), 2),
    ]


def render_stats(stats: Stats, fmt: Format, lang: str = "en", table_format: str = "simple") -> str:
    players, matches, hands = stats.players, stats.matches, stats.hands
    rows = [_row(r) for r in players]
    if fmt is Format.json:
        listed = [
            dict(zip(_KEYS, row, strict=True)) | {"final": json_number(r.final)}
            for row, r in zip(rows, players, strict=True)
        ]
        return json_text({"matches": matches, "hands": hands, "players": listed,
                          "without_hands": stats.without_hands})  # fmt: skip
    if fmt is Format.csv:
        return csv_text([_KEYS, *rows])
    title = say(
        "stats.title",
        lang,
        matches=count_of("matches", matches, lang),
        hands=count_of_hands(hands, lang),
    )
    if stats.without_hands:
        title += say("stats.not_counted", lang,
                     ledgers=count_of("stats.empty", stats.without_hands, lang))  # fmt: skip
    headers = [say(f"stats.{key}", lang) for key in _KEYS]
    shown = [[*row[:-1], f"{row[-1]:.1f}"] for row in rows]
    return f"{title}\n\n{table(shown, headers, table_format)}\n"
