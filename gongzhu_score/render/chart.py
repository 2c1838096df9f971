"""A picture of the match (``match chart``): running totals and the end line.

It is SVG or PNG, in the table's language.

The totals are the ones the end is decided on (rulings §8: raw totals, or final totals in team
play), as ``match show`` leads with. Each seat has its colour (:data:`.seats.SEAT_COLOURS`, as
on the page), its marker and its dashes, and later seats are drawn thinner on top, so that equal
totals hide no line; each line's end is labelled with the name and total. Drawn with matplotlib
(the ``[chart]`` extra: imported only here, when a chart is made). An SVG keeps its text as text
(``svg.fonttype: none``), so that any viewer shows Chinese names with its own fonts; a PNG draws
each text with the first font of this machine that has a glyph of its own for every character
of it (Noto Sans CJK, WenQuanYi, PingFang, Microsoft YaHei, … or any other), and is refused,
saying what to install, when none has: never drawn with boxes.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..match.ledger import Ledger
from ..terms import error, printable, say
from .fit import short_name
from .formats import format_number
from .match import played_text
from .seats import MORE_COLOURS, SEAT_COLOURS

__all__ = ["CJK_FAMILIES", "chart_format", "chart_image", "finish", "label_ends", "line_style",
           "picture", "plain", "stacked", "write_chart", "write_picture"]  # fmt: skip

FORMATS = ("svg", "png")

CJK_FAMILIES = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "PingFang SC",
    "Microsoft YaHei",
    "SimHei",
    "Heiti SC",
    "STHeiti",
    "Noto Sans CJK JP",
    "Noto Sans CJK TC",
    "Droid Sans Fallback",
    "AR PL UMing CN",
)
"""Fonts with Chinese characters, preferred in this order after matplotlib's own for a text
it cannot draw."""

NAME_COLUMNS = 12
"""A name is drawn cut to this many columns (six Chinese characters) around a ``…``, so that
a long one cannot squeeze the plot; the ledger keeps it whole."""

_DEFAULT = "DejaVu Sans"  # (matplotlib's own font, always there)
_END = "#c0392b"
_MARKERS = ("o", "s", "^", "D", "v", "P", "X")
_DASHES: tuple[Any, ...] = ("-", (0, (6, 2)), (0, (2, 1.5)), (0, (7, 2, 2, 2)),
                           (0, (3, 1, 1, 1, 1, 1)))  # fmt: skip
_WIDTHS = (3.4, 2.6, 1.9, 1.3)  # (later seats thinner, on top: equal lines both show)
_SIZES = (7.0, 5.5, 4.5, 3.5)


def chart_format(path: str) -> str:
    """``svg`` or ``png``, from the suffix of the file to write, in any case."""
    suffix = Path(path).suffix.lower()
    if suffix.lstrip(".") not in FORMATS:
        raise error(InputError, "error.chart.suffix", suffix=suffix or path)
    return suffix.lstrip(".")


def write_chart(ledger: Ledger, path: str, lang: str = "en") -> str:
    """Draw ``ledger``'s chart into ``path`` (``.svg`` or ``.png``); return the format.

    The file is replaced atomically, so nothing is written if drawing fails.
    """
    return write_picture(path, lambda fmt: chart_image(ledger, fmt, lang, name=path))


def write_picture(path: str, image: Callable[[str], bytes]) -> str:
    """Write ``image(fmt)`` into ``path``, its format (``svg`` or ``png``) from its suffix;
    return the format. The file is replaced atomically, so nothing is written if drawing
    fails."""
    from ..io.files import real_target, replace_file, unchanged_unless_written

    try:
        fmt = chart_format(path)
    except InputError as e:
        raise e.within(path) from None
    target = real_target(path)
    data = image(fmt)
    with unchanged_unless_written(path):
        replace_file(target, data)
    return fmt


def chart_image(ledger: Ledger, fmt: str = "svg", lang: str = "en", name: str = "") -> bytes:
    """The chart of ``ledger`` as SVG or PNG bytes (``fmt``), in ``lang``.

    ``name`` is the file it is for, as errors name it.
    """
    return picture(lambda: _texts(ledger, lang), lambda texts, font: _draw(ledger, texts, font),
                   fmt, name)  # fmt: skip


Fonts = Callable[[str], list[str]]
"""The font families a text is drawn with (the first of this machine's that has its
characters)."""


def picture(
    texts_of: Callable[[], dict[str, Any]],
    draw: Callable[[dict[str, Any], Fonts], Any],
    fmt: str = "svg",
    name: str = "",
) -> bytes:
    """A picture as SVG or PNG bytes (``fmt``): the figure ``draw(texts, fonts)`` makes of the
    texts ``texts_of()`` says, each drawn in a font of this machine that has its characters.

    A PNG whose text no font here can draw is refused, naming ``name``, the file it is for.
    """
    if fmt not in FORMATS:
        raise error(InputError, "error.chart.suffix", suffix=fmt)
    with _quiet():  # (matplotlib may say it builds its font cache: not the user's business)
        try:
            import matplotlib
        except ImportError:
            raise error(InputError, "error.extra.missing", extra="chart") from None
        texts = texts_of()
        fonts = _chosen(list(_all_text(texts)))
        if fonts.missing and fmt == "png":
            svg = str(Path(name or "chart.png").with_suffix(".svg"))
            chars = "".join(sorted(fonts.missing))[:12]
            refused = error(InputError, "error.chart.no_font", chars=chars, svg=svg)
            raise refused.within(name or "png")
        settings: Any = {  # (matplotlib's own type names each key: these are plain)
            "svg.fonttype": "none",
            "svg.hashsalt": "gongzhu-score",
            "font.family": fonts.of(_TICKS),
            "axes.unicode_minus": False,  # "-1000" as the rest of the tool writes it
        }
        with matplotlib.rc_context(settings):
            figure = draw(texts, fonts.of)
            return _saved(figure, fmt, matplotlib.__version__, ", ".join(fonts.used()))


def _saved(figure: Any, fmt: str, version: str, font: str) -> bytes:
    """The figure as its file's bytes: an SVG, or a PNG.

    The SVG says what made it and carries no date, so the same match makes the same bytes.
    """
    out = io.BytesIO()
    if fmt == "svg":
        creator = f"gongzhu-score (matplotlib {version}, measured with {font})"
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": creator})
        return _viewer_fonts(out.getvalue())
    figure.savefig(out, format="png", dpi=100, metadata={"Software": None})
    return out.getvalue()


# --- what the chart says --------------------------------------------------------------------


def _texts(ledger: Ledger, lang: str) -> dict[str, Any]:
    status = ledger.status()
    standing = ledger.standing()
    team = ledger.team_play
    ends_words = {"end": str(ledger.end_at), "top": f"+{abs(ledger.end_at)}"}
    if status.draw:
        state = say("chart.over_draw", lang, variant=ledger.variant.name, hand=status.ended_after)
    elif status.ended:
        state = say("chart.over", lang, variant=ledger.variant.name, hand=status.ended_after,
                    loser=short_name(status.loser or "", NAME_COLUMNS),
                    winner=short_name(status.winner or "", NAME_COLUMNS))  # fmt: skip
    else:
        state = say("chart.in_play", lang, variant=ledger.variant.name,
                    count=played_text(ledger, lang))  # fmt: skip
    losers = set(status.loser_side)
    labels, ends = [], []
    for name, total in zip(ledger.players, standing.totals, strict=True):
        shown = plain(short_name(name, NAME_COLUMNS))
        label = f"{shown}  {format_number(total)}"
        ends.append(f"{shown} {format_number(total)}")
        if name in losers:
            label += f"  ({say('chart.pig', lang)})"
        # A label that starts with "_" is one matplotlib leaves out of a legend (3.8): a zero
        # width space before it keeps it in, and shows nothing.
        labels.append("\u200b" + label if label.startswith("_") else label)
    return {
        "title": say("chart.title_final" if team else "chart.title_raw", lang, **ends_words),
        "state": plain(state),
        "x": say("match.hand", lang),
        "y": say("match.final_total" if team else "match.raw_total", lang),
        "end": say("chart.end_line", lang, end=ledger.end_at),
        "top": say("chart.end_line", lang, end=ends_words["top"]) if team else None,
        "labels": labels,
        "ends": ends,
    }


_TICKS = "0123456789-+."


def _all_text(texts: dict[str, Any]) -> Iterator[str]:
    """Every text the chart draws, the ticks' characters last."""
    for value in texts.values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from value
    yield _TICKS


def plain(text: str) -> str:
    """Text matplotlib draws as is: printable, no ``$`` read as mathematics."""
    return printable(text).replace("$", r"\$")


# --- fonts ------------------------------------------------------------------------------------


_SHARED = 16
"""A glyph drawn for more characters than this is a box standing for them (a last-resort font,
such as the one matplotlib 3.10 and later carries, maps whole blocks to one), not their glyph."""


@lru_cache(maxsize=256)
def _charset(path: str, face: int = 0) -> frozenset[int]:
    """The characters the font in ``path`` (its face ``face``) draws with a glyph of their own."""
    from matplotlib import ft2font

    try:
        font = ft2font.FT2Font(path, face_index=face) if face else ft2font.FT2Font(path)
        charmap = font.get_charmap()
    except (OSError, RuntimeError, ValueError, TypeError):  # a font file that cannot be read
        return frozenset()
    uses = Counter(charmap.values())
    return frozenset(c for c, glyph in charmap.items() if glyph and uses[glyph] <= _SHARED)


def _drawn(text: str) -> set[int]:
    """The characters of ``text`` that need a glyph (not spaces, controls, zero width ones)."""
    return {ord(c) for c in text if unicodedata.category(c) not in ("Zs", "Zl", "Zp", "Cc", "Cf")}


def _fonts(more: bool = False) -> Iterable[tuple[str, frozenset[int]]]:
    """This machine's font families, the preferred first, each with the characters it draws.

    They are those of the file matplotlib draws the family from: so what is checked is what is
    drawn. Matplotlib's own (DejaVu Sans) comes first, then :data:`CJK_FAMILIES`, then the rest
    by name; each family's file is looked for only when it is reached. With ``more``, the
    system's font files matplotlib does not know yet (installed since it listed them) are added
    first.
    """
    from matplotlib import font_manager

    manager = font_manager.fontManager
    if more:
        known = {font.fname for font in manager.ttflist}
        for path in sorted(font_manager.findSystemFonts()):
            if path not in known and _charset(path):
                manager.addfont(path)
    rank = {name: k for k, name in enumerate((_DEFAULT, *CJK_FAMILIES))}
    names = sorted({str(font.name) for font in manager.ttflist})
    names.sort(key=lambda name: rank.get(name, len(rank)))  # (stable: then by name)
    return _Families(names)


class _Families:
    """Font families in order, each with its characters, its file looked for once, when asked."""

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.found: dict[str, frozenset[int]] = {}

    def __iter__(self) -> Iterator[tuple[str, frozenset[int]]]:
        from matplotlib import font_manager

        for name in self.names:
            if name not in self.found:
                try:
                    path: Any = font_manager.fontManager.findfont(
                        font_manager.FontProperties(family=name), fallback_to_default=False
                    )
                except ValueError:  # (no file of that name's now)
                    self.found[name] = frozenset()
                else:  # (3.10 and later: which face of a collection, .ttc)
                    face = int(getattr(path, "face_index", 0))
                    self.found[name] = _charset(str(path), face)
            yield name, self.found[name]


class _Chosen:
    """The families each text is drawn with, and the characters no font here has."""

    def __init__(self, fonts: Iterable[tuple[str, frozenset[int]]], texts: list[str]) -> None:
        self.families: dict[str, list[str]] = {}
        self.missing: set[str] = set()
        for text in texts:
            self.families[text] = self._for(fonts, text)

    def _for(self, fonts: Iterable[tuple[str, frozenset[int]]], text: str) -> list[str]:
        """The first family that has every character of ``text``; else those that have them
        between them, in order (matplotlib draws each glyph from the first that has it)."""
        need = _drawn(text)
        for family, chars in fonts:
            if need <= chars:
                return [family]
        chosen = []
        for family, chars in fonts:
            if need & chars:
                chosen.append(family)
                need -= chars
        self.missing |= {chr(c) for c in need}
        return chosen or [_DEFAULT]

    def of(self, text: str) -> list[str]:
        """The families to draw ``text`` with (one of the texts chosen for, else the ticks')."""
        return self.families.get(text) or self.families.get(_TICKS) or [_DEFAULT]

    def used(self) -> list[str]:
        return list(dict.fromkeys(f for families in self.families.values() for f in families))


def _chosen(texts: list[str]) -> _Chosen:
    """The fonts for ``texts``: from matplotlib's list of fonts, then, for a character none of
    them has, from the system's font files it does not know yet too."""
    chosen = _Chosen(_fonts(), texts)
    if chosen.missing:
        chosen = _Chosen(_fonts(more=True), texts)
    return chosen


def _family_for(text: str) -> str | None:
    """The first family here with a glyph of its own for every character of ``text``.

    None when matplotlib's own font (DejaVu Sans) has them all, ``""`` when no font has.
    """
    chosen = _chosen([text])
    if chosen.missing or len(chosen.families[text]) > 1:
        return ""
    family = chosen.families[text][0]
    return None if family == _DEFAULT else family


@contextmanager
def _quiet() -> Iterator[None]:
    """Keep matplotlib's noise from the user.

    That is its warnings about glyphs its font lacks (an SVG's text is shown by the viewer's
    fonts) and about its layout, its font manager's log, and what the libraries under it
    deprecate (an older matplotlib calls pyparsing by names pyparsing 3.3 deprecates).
    """
    import logging
    import warnings

    log = logging.getLogger("matplotlib")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"(?s).*[Gg]lyph.*missing")
            warnings.filterwarnings("ignore", category=UserWarning)  # (its layout's, say)
            warnings.filterwarnings("ignore", category=DeprecationWarning,
                                    module=r"(matplotlib|pyparsing)(\.|$)")  # fmt: skip
            yield
    finally:
        log.setLevel(level)


# The families of a text's style, as matplotlib writes them: ``font-family: 'A', 'B'`` (3.9
# and later) or within the shorthand ``font: 10px 'A', 'B'`` (3.8).
_FONT_FAMILY = re.compile(rb"(font-family: ?|font: ?[^;\"]*?[0-9.]+px )([^;\"]*)")

VIEWER_FONTS = (
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "PingFang SC",
    "Microsoft YaHei",
    "WenQuanYi Micro Hei",
    "SimHei",
)
"""The fonts an SVG's text asks a viewer for after the one it was measured with: the Chinese
fonts of Linux, macOS and Windows, then any sans-serif."""


def _viewer_fonts(svg: bytes) -> bytes:
    """The fonts the SVG asks the viewer for, best first.

    That is the font it was measured with, then the Chinese fonts the viewer may have, then any
    sans-serif.
    """

    def stack(found: re.Match[bytes]) -> bytes:
        measured = [f.strip(" '\"") for f in found.group(2).decode().split(",")]
        names = dict.fromkeys([*measured, *VIEWER_FONTS])
        names.pop("", None)
        return found.group(1) + ", ".join([*(f"'{n}'" for n in names), "sans-serif"]).encode()

    return _FONT_FAMILY.sub(stack, svg)


# --- the drawing -------------------------------------------------------------------------------


def line_style(k: int, count: int = len(SEAT_COLOURS)) -> dict[str, Any]:
    """How line ``k`` (0-based: a seat, or a player of a season) of ``count`` is drawn: its
    colour, marker, dashes, width, and its place on top of the lines before it, so that two
    equal lines both show.

    The first four are the seats' (:data:`.seats.SEAT_COLOURS`); past them the colours, markers
    and dashes go round cycles of different lengths (8, 7 and 5), so that no two of the first
    280 lines look alike, and the lines get thinner.
    """
    colours = (*SEAT_COLOURS, *MORE_COLOURS)
    if count <= len(SEAT_COLOURS):
        k %= len(SEAT_COLOURS)
        return {"color": colours[k], "marker": _MARKERS[k], "linestyle": _DASHES[k],
                "linewidth": _WIDTHS[k], "markersize": _SIZES[k],
                "zorder": 2.0 + 0.1 * k}  # fmt: skip
    share = k / max(count - 1, 1)
    return {"color": colours[k % len(colours)], "marker": _MARKERS[k % len(_MARKERS)],
            "linestyle": _DASHES[k % len(_DASHES)], "linewidth": 3.4 - 2.2 * share,
            "markersize": 7.0 - 3.5 * share, "zorder": 2.0 + k / count}  # fmt: skip


def stacked(values: list[float], gap: float, low: float, high: float) -> list[float]:
    """Where labels at ``values`` go: at them, moved apart to at least ``gap``, within the axes.

    Equal values keep their order (seat 1 on top).
    """
    order = sorted(range(len(values)), key=lambda k: (values[k], -k))
    placed = [values[k] for k in order]
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    over = placed[-1] - high if placed else 0.0
    if over > 0:  # too high: the whole stack down, not below the axes
        shift = min(over, max(placed[0] - low, 0.0))
        placed = [v - shift for v in placed]
    where = [0.0] * len(values)
    for k, value in zip(order, placed, strict=True):
        where[k] = value
    return where


def _draw(ledger: Ledger, texts: dict[str, Any], font: Callable[[str], list[str]]) -> Any:
    """The figure: a line per seat, the end line(s), each line's end labelled, a legend.

    ``font`` gives the families each text is drawn with.
    """
    from matplotlib.figure import Figure

    from .fit import wrapped
    from .match import deciding_series

    series = deciding_series(ledger)
    count = len(ledger.entries)
    hands = list(range(ledger.skipped, ledger.skipped + count + 1))
    figure = Figure(figsize=(7.2, 4.2), layout="constrained")
    axes = figure.add_subplot()
    handles = []
    for k, row in enumerate(series):
        style = line_style(k)
        if count > 30:
            style["marker"] = None
        # (the line's own label is not its name: the legend is given the names itself)
        (line,) = axes.plot(hands, [0.0, *map(float, row)], label=f"seat {k + 1}", **style)
        handles.append(line)
    end = ledger.end_at
    lines = [(end, texts["end"], "top")]
    if texts["top"] is not None:
        lines.append((-end, texts["top"], "bottom"))
    for value, label, where in lines:
        axes.axhline(value, color=_END, linestyle="--", linewidth=1.2)
        axes.text(0.01, value, f" {label}", transform=axes.get_yaxis_transform(), color=_END,
                  fontsize=9, va=where, ha="left", fontfamily=font(label))  # fmt: skip
    values = [v for row in series for v in row]
    low = float(min([*values, end, 0]))
    high = float(max([*values, -end if texts["top"] is not None else 0]))
    room = (high - low) * 0.08 or 100
    axes.set_ylim(low - room, high + room)
    axes.set_xlim(hands[0], max(hands[-1], hands[0] + 1))
    lasts = [float(row[-1]) if row else 0.0 for row in series]
    colours = [SEAT_COLOURS[k % len(SEAT_COLOURS)] for k in range(len(series))]
    label_ends(axes, lasts, texts["ends"], colours, (low, high, room), font)
    return finish(figure, axes, handles, texts, font,
                  "\n".join(wrapped(texts["state"], 90, indent="")))  # fmt: skip


def label_ends(axes: Any, lasts: list[float], labels: list[str], colours: list[str],
               span: tuple[float, float, float], font: Fonts) -> None:  # fmt: skip
    """Each line's end labelled beside the axes in its colour; labels that would overlap are
    stacked. ``span`` is the values' lowest, highest and the room kept around them."""
    low, high, room = span
    gap = (high - low + 2 * room) * 0.065
    for y, label, colour in zip(stacked(lasts, gap, low - room, high + room), labels, colours,
                                strict=True):  # fmt: skip
        axes.text(1.01, y, label, transform=axes.get_yaxis_transform(), fontsize=8,
                  color=colour, va="center", ha="left", clip_on=False,
                  fontfamily=font(label))  # fmt: skip


def finish(figure: Any, axes: Any, handles: list[Any], texts: dict[str, Any], font: Fonts,
           state: str) -> Any:  # fmt: skip
    """The figure's whole-number x ticks, zero line, grid, axis names, ``state`` above the axes,
    title and legend, each text in its fonts: what every chart draws alike."""
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.grid(True, color="#e5e5e5", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.set_xlabel(texts["x"], fontfamily=font(texts["x"]))
    axes.set_ylabel(texts["y"], fontfamily=font(texts["y"]))
    axes.set_title(state, fontsize=9, loc="left", fontfamily=font(texts["state"]))
    figure.suptitle(texts["title"], fontsize=12, fontfamily=font(texts["title"]))
    legend = figure.legend(handles, texts["labels"], loc="outside right upper", frameon=False)
    for text, label in zip(legend.get_texts(), texts["labels"], strict=True):
        text.set_fontfamily(font(label))
    return figure
