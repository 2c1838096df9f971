"""A picture of the season (``stats --chart``): each player's rating after every finished match
they played, in the order the matches ended (rulings §13).

Drawn as ``match chart`` draws a match (:mod:`.chart`: matplotlib, the ``[chart]`` extra; the
same fonts, the same SVG and PNG): one colour, marker and dashes per player, later lines
thinner on top, each line's end labelled with the name and rating. A line starts at a new
player's rating (openskill's μ 25, σ 25/3: 0) just before their first match.
"""

from __future__ import annotations

from typing import Any

from ..match.ratings import start
from ..match.stats import PlayerView, Stats
from ..terms import count_of, say
from .chart import Fonts, finish, label_ends, line_style, picture, plain, write_picture
from .fit import short_name

__all__ = ["season_chart_image", "write_season_chart"]

NAME_COLUMNS = 12
"""A name is drawn cut to this many columns around a ``…`` (as in a match's chart)."""
LABELLED = 8
"""Up to this many lines have their ends labelled beside the plot (more would crowd it); the
legend names every one."""


def write_season_chart(stats: Stats, path: str, lang: str = "en",
                       only: PlayerView | None = None) -> int:  # fmt: skip
    """Draw the season's ratings into ``path`` (``.svg`` or ``.png``), every rated player's or
    ``only`` that player's; return how many finished matches it spans. The file is replaced
    atomically, so nothing is written if drawing fails."""
    write_picture(path, lambda fmt: season_chart_image(stats, fmt, lang, path, only))
    return len(stats.games)


def season_chart_image(stats: Stats, fmt: str = "svg", lang: str = "en", name: str = "",
                       only: PlayerView | None = None) -> bytes:  # fmt: skip
    """The season's chart as SVG or PNG bytes (``fmt``), in ``lang``; ``name`` is the file it
    is for, as errors name it."""
    lines = _lines(stats, only)
    games = len(stats.games)
    return picture(lambda: _texts(stats, lines, lang),
                   lambda texts, font: _draw(lines, texts, font, games), fmt, name)  # fmt: skip


Line = tuple[str, list[int], list[float]]
"""A player's name, the numbers of the matches on their line (0 before the first), and their
rating after each."""


def _lines(stats: Stats, only: PlayerView | None) -> list[Line]:
    """Each rated player's line, best first (the table's order), or ``only`` that player's."""
    names = [only.name] if only is not None else [p.name for p in stats.players]
    lines = []
    for player in names:
        if player not in stats.ratings:
            continue
        played = [(k, after[player].ordinal) for k, after in enumerate(stats.after, 1)
                  if player in after]  # fmt: skip
        xs = [played[0][0] - 1, *(k for k, _ in played)]
        lines.append((player, xs, [start().ordinal, *(r for _, r in played)]))
    return lines


def _texts(stats: Stats, lines: list[Line], lang: str) -> dict[str, Any]:
    days = [game.ended[:10] for game in stats.games if game.ended]
    labels, ends = [], []
    for name, _, ratings in lines:
        shown = plain(short_name(name, NAME_COLUMNS))
        label = f"{shown}  {ratings[-1]:.2f}"
        labels.append("\u200b" + label if label.startswith("_") else label)  # (see chart.py)
        ends.append(f"{shown} {ratings[-1]:.2f}")
    state = say("chart.ratings_state", lang, count=count_of("stats.finished", len(stats.games),
                lang), first=min(days, default="…"), last=max(days, default="…"))  # fmt: skip
    return {
        "title": say("chart.ratings_title", lang),
        "state": plain(state),
        "x": say("chart.ratings_x", lang),
        "y": say("chart.ratings_y", lang),
        "labels": labels,
        "ends": ends,
    }


def _draw(lines: list[Line], texts: dict[str, Any], font: Fonts, games: int) -> Any:
    """The figure: a line per player over the ``games`` of the season, each line's end labelled
    (up to :data:`LABELLED`), a legend."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7.2, max(4.2, 1.4 + 0.24 * len(lines))), layout="constrained")
    axes = figure.add_subplot()
    handles = []
    for k, (_, xs, ys) in enumerate(lines):
        style = line_style(k, len(lines))
        if len(xs) > 30:
            style["marker"] = None
        (line,) = axes.plot(xs, ys, label=f"player {k + 1}", **style)
        handles.append(line)
    values = [y for _, _, ys in lines for y in ys] or [0.0]
    low, high = min(values), max(values)
    room = (high - low) * 0.08 or 1.0
    axes.set_ylim(low - room, high + room)
    axes.set_xlim(0, max(games, 1))
    if len(lines) <= LABELLED:
        colours = [line_style(k, len(lines))["color"] for k in range(len(lines))]
        lasts = [ys[-1] for _, _, ys in lines]
        label_ends(axes, lasts, texts["ends"], colours, (low, high, room), font)
    return finish(figure, axes, handles, texts, font, texts["state"])
