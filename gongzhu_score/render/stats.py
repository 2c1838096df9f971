"""``gongzhu-score stats`` as a table (English or Chinese), JSON or CSV: the season's table, or
one player's matches and head-to-head (``--player``)."""

from __future__ import annotations

from typing import Any

from ..core.totals import PlayerTotals
from ..match.ratings import Rating
from ..match.stats import PlayerView, Stats
from ..terms import count_of, count_of_hands, join, say
from .formats import Format, csv_text, format_number, json_number, json_text, table

__all__ = ["player_data", "render_player", "render_stats", "stats_data"]

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

_NONE = "–"
"""A table's cell for a rating that is not there (no finished match)."""


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


def _rating_data(rating: Rating | None) -> dict[str, float] | None:
    return rating.data() if rating is not None else None


def _shown(rating: Rating | None) -> str:
    return f"{rating.shown:.2f}" if rating is not None else _NONE


def stats_data(stats: Stats) -> dict[str, Any]:
    """What ``stats --format json`` prints (and ``GET /api/stats`` answers)."""
    players = [
        dict(zip(_KEYS, _row(r), strict=True))
        | {"final": json_number(r.final), "rating": _rating_data(stats.ratings.get(r.name))}
        for r in stats.players
    ]
    return {
        "matches": stats.matches,
        "hands": stats.hands,
        "players": players,
        "without_hands": stats.without_hands,
        "rated": len(stats.games),
        "since": stats.since.isoformat() if stats.since else None,
        "until": stats.until.isoformat() if stats.until else None,
        "outside_dates": stats.outside,
    }


def render_stats(stats: Stats, fmt: Format, lang: str = "en", table_format: str = "simple") -> str:
    players, matches, hands = stats.players, stats.matches, stats.hands
    rows = [_row(r) for r in players]
    if fmt is Format.json:
        return json_text(stats_data(stats))
    if fmt is Format.csv:
        ratings = [stats.ratings.get(r.name) for r in players]
        rated = [[*(r.data().values() if r else ("", "", ""))] for r in ratings]
        head = [*_KEYS, "rating_mu", "rating_sigma", "rating"]
        return csv_text([head, *([*row, *r] for row, r in zip(rows, rated, strict=True))])
    title = say(
        "stats.title",
        lang,
        matches=count_of("matches", matches, lang),
        hands=count_of_hands(hands, lang),
    )
    if stats.since or stats.until:
        title += say("stats.dates", lang, since=_day(stats.since), until=_day(stats.until))
    if stats.without_hands:
        title += say("stats.not_counted", lang,
                     ledgers=count_of("stats.empty", stats.without_hands, lang))  # fmt: skip
    if stats.outside:
        title += say("stats.not_counted", lang,
                     ledgers=count_of("stats.outside", stats.outside, lang))  # fmt: skip
    headers = [say(f"stats.{key}", lang) for key in _KEYS]
    headers.insert(1, say("stats.rating", lang))
    shown = [[row[0], _shown(stats.ratings.get(row[0])), *row[1:-1], f"{row[-1]:.1f}"]
             for row in rows]  # fmt: skip
    note = say("stats.rating_note", lang, count=count_of("stats.finished", len(stats.games), lang))
    if any(r.name not in stats.ratings for r in players):
        note += say("stats.unrated", lang)
    return f"{title}\n\n{table(shown, headers, table_format)}\n{note}\n"


def _day(day: object) -> str:
    return day.isoformat() if day is not None else "…"  # type: ignore[attr-defined]


def player_data(view: PlayerView) -> dict[str, Any]:
    """What ``stats --player NAME --format json`` prints."""
    return {
        "name": view.name,
        "rating": _rating_data(view.rating),
        "matches": [
            {
                "file": m.game.file,
                "ended": m.game.ended,
                "players": list(m.game.players),
                "rank": m.rank,
                "final": json_number(m.final),
                "rating_after": m.rating_after.data(),
            }
            for m in view.matches
        ],
        "head_to_head": [
            {"name": h.name, "together": h.together, "ahead": h.ahead, "behind": h.behind}
            for h in view.head_to_head
        ],
    }


def render_player(
    view: PlayerView, fmt: Format, lang: str = "en", table_format: str = "simple"
) -> str:
    """One player's season: their finished matches, oldest first, then their head-to-head."""
    if fmt is Format.json:
        return json_text(player_data(view))
    matches = [
        [m.game.file, (m.game.ended or "")[:10] or _NONE, join(m.game.players, lang), m.rank,
         format_number(m.final), f"{m.rating_after.shown:.2f}"]
        for m in view.matches
    ]  # fmt: skip
    faced = [[h.name, h.together, h.ahead, h.behind] for h in view.head_to_head]
    if fmt is Format.csv:
        head = ["file", "ended", "players", "rank", "final", "rating_mu", "rating_sigma",
                "rating"]  # fmt: skip
        rows = [[m.game.file, m.game.ended or "", ",".join(m.game.players), m.rank,
                 json_number(m.final), *m.rating_after.data().values()]
                for m in view.matches]  # fmt: skip
        return csv_text([head, *rows])
    if view.rating is None:
        title = say("stats.player.unrated", lang, name=view.name)
    else:
        title = say("stats.player.title", lang, name=view.name, rating=_shown(view.rating),
                    mu=f"{view.rating.mu:.2f}", sigma=f"{view.rating.sigma:.2f}",
                    count=count_of("stats.finished", len(view.matches), lang))  # fmt: skip
    parts = [title]
    if matches:
        shown = ("match", "ended", "players", "rank", "final", "rating_after")
        headers = [say(f"stats.player.{key}", lang) for key in shown]
        parts.append(table(matches, headers, table_format))
    if faced:
        against = ("name", "together", "ahead", "behind")
        headers = [say(f"stats.versus.{key}", lang, name=view.name) for key in against]
        parts.append(say("stats.versus.title", lang, name=view.name))
        parts.append(table(faced, headers, table_format))
    return "\n\n".join(parts) + "\n"
