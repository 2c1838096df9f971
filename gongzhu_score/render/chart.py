"""A picture of the match (``match chart``): running totals and the end line.

It is SVG or PNG, in the table's language.

The totals are the ones the end is decided on (rulings §8: raw totals, or final totals in team
play), as ``match show`` leads with. Drawn with matplotlib (the ``[chart]`` extra: imported only
here, when a chart is made). An SVG keeps its text as text (``svg.fonttype: none``), so that any
viewer shows Chinese names with its own fonts; a PNG is drawn with a font of this machine that
has every character the chart writes (Noto Sans CJK, Source Han Sans, WenQuanYi, PingFang,
Microsoft YaHei, SimHei, … or any other that has them), and is refused, saying what to do, when
none has.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..match.ledger import Ledger
from ..terms import count_of_hands, error, printable, say
from .formats import format_number

__all__ = ["CJK_FAMILIES", "chart_format", "chart_image", "write_chart"]

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
"""Fonts with Chinese characters, the first found on this machine preferred; in an SVG, the
fonts a viewer is asked for, in this order."""

_DEFAULT = "DejaVu Sans"  # (matplotlib's own font, always there)
_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf")
_END = "#c0392b"


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
    from ..io.files import real_target, replace_file, unchanged_unless_written

    try:
        fmt = chart_format(path)
    except InputError as e:
        raise e.within(path) from None
    target = real_target(path)
    data = chart_image(ledger, fmt, lang, name=path)
    with unchanged_unless_written(path):
        replace_file(target, data)
    return fmt


def chart_image(ledger: Ledger, fmt: str = "svg", lang: str = "en", name: str = "") -> bytes:
    """The chart of ``ledger`` as SVG or PNG bytes (``fmt``), in ``lang``.

    ``name`` is the file it is for, as errors name it.
    """
    if fmt not in FORMATS:
        raise error(InputError, "error.chart.suffix", suffix=fmt)
    with _quiet():  # (matplotlib may say it builds its font cache: not the user's business)
        try:
            import matplotlib
        except ImportError:
            raise error(InputError, "error.extra.missing", extra="chart") from None
        texts = _texts(ledger, lang)
        family = _family_for("".join(_all_text(texts)))
        if family == "" and fmt == "png":
            svg = str(Path(name or "chart.png").with_suffix(".svg"))
            chars = "".join(sorted(_missing("".join(_all_text(texts)))))[:12]
            refused = error(InputError, "error.chart.no_font", chars=chars, svg=svg)
            raise refused.within(name or "png")
        settings: Any = {  # (matplotlib's own type names each key: these are plain)
            "svg.fonttype": "none",
            "svg.hashsalt": "gongzhu-score",
            "font.family": [family, _DEFAULT] if family else [_DEFAULT],
            "axes.unicode_minus": False,  # "-1000" as the rest of the tool writes it
        }
        with matplotlib.rc_context(settings):
            return _saved(_draw(ledger, texts), fmt, matplotlib.__version__, family or _DEFAULT)


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
    ends = {"end": str(ledger.end_at), "top": f"+{abs(ledger.end_at)}"}
    if status.ended:
        state = say("chart.over", lang, variant=ledger.variant.name, hand=status.ended_after,
                    loser=status.loser, winner=status.winner)  # fmt: skip
    else:
        state = say("chart.in_play", lang, variant=ledger.variant.name,
                    count=count_of_hands(ledger.count, lang))  # fmt: skip
    losers = set(status.loser_side)
    labels = []
    for name, total in zip(ledger.players, standing.totals, strict=True):
        label = f"{_plain(name)}  {format_number(total)}"
        if name in losers:
            label += f"  ({say('chart.pig', lang)})"
        # A label that starts with "_" is one matplotlib leaves out of a legend (3.8): a zero
        # width space before it keeps it in, and shows nothing.
        labels.append("\u200b" + label if label.startswith("_") else label)
    return {
        "title": say("chart.title_final" if team else "chart.title_raw", lang, **ends),
        "state": _plain(state),
        "x": say("match.hand", lang),
        "y": say("match.final_total" if team else "match.raw_total", lang),
        "end": say("chart.end_line", lang, end=ledger.end_at),
        "top": say("chart.end_line", lang, end=ends["top"]) if team else None,
        "labels": labels,
    }


def _all_text(texts: dict[str, Any]) -> Iterator[str]:
    for value in texts.values():
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from value
    yield "0123456789-+."  # (the ticks)


def _plain(text: str) -> str:
    """Text matplotlib draws as is: printable, no ``$`` read as mathematics."""
    return printable(text).replace("$", r"\$")


# --- fonts ------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _charset(path: str) -> frozenset[int]:
    from matplotlib import ft2font

    try:
        return frozenset(ft2font.FT2Font(path).get_charmap())
    except (OSError, RuntimeError, ValueError):  # a font file that cannot be read
        return frozenset()


def _default_path() -> str:
    from matplotlib import font_manager

    return str(font_manager.findfont(font_manager.FontProperties(family=_DEFAULT)))


def _missing(text: str) -> set[str]:
    """The characters of ``text`` matplotlib's own font lacks."""
    have = _charset(_default_path())
    return {c for c in text if not c.isspace() and ord(c) not in have}


def _family_for(text: str) -> str | None:
    """The font family to draw ``text`` with, or None for matplotlib's own.

    None when matplotlib's own font has every character. Otherwise the first family of
    :data:`CJK_FAMILIES` here that has the rest, then any other font here that has them; ``""``
    when none has.
    """
    missing = {ord(c) for c in _missing(text)}
    if not missing:
        return None
    from matplotlib import font_manager

    fonts = sorted(font_manager.fontManager.ttflist, key=lambda f: (f.name, f.fname))
    rank = {name: k for k, name in enumerate(CJK_FAMILIES)}
    fonts.sort(key=lambda f: rank.get(f.name, len(rank)))  # (stable: then by name)
    for font in fonts:
        if missing <= _charset(font.fname):
            return str(font.name)
    # matplotlib keeps its list of fonts from when it first ran: a font installed since is
    # found among the system's font files, and added.
    known = {font.fname for font in fonts}
    for path in sorted(font_manager.findSystemFonts()):
        if path not in known and missing <= _charset(path):
            font_manager.fontManager.addfont(path)
            return str(font_manager.FontProperties(fname=path).get_name())
    return ""


@contextmanager
def _quiet() -> Iterator[None]:
    """Keep matplotlib's noise from the user.

    That is its warnings about glyphs its font lacks (an SVG's text is shown by the viewer's
    fonts), its font manager's log, and what the libraries under it deprecate (an older
    matplotlib calls pyparsing by names pyparsing 3.3 deprecates).
    """
    import logging
    import warnings

    log = logging.getLogger("matplotlib")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"(?s).*[Gg]lyph.*missing")
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


def _draw(ledger: Ledger, texts: dict[str, Any]) -> Any:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    from .fit import wrapped
    from .match import deciding_series

    series = deciding_series(ledger)
    count = len(ledger.entries)
    hands = list(range(ledger.skipped, ledger.skipped + count + 1))
    figure = Figure(figsize=(7.2, 4.2), layout="constrained")
    axes = figure.add_subplot()
    handles = []
    for k, row in enumerate(series):
        colour = _COLOURS[k % len(_COLOURS)]
        # (the line's own label is not its name: the legend is given the names itself)
        (line,) = axes.plot(hands, [0.0, *map(float, row)], color=colour, linewidth=1.8,
                            marker="o" if count <= 30 else None, markersize=3.5,
                            label=f"seat {k + 1}")  # fmt: skip
        handles.append(line)
    end = ledger.end_at
    lines = [(end, texts["end"], "top")]
    if texts["top"] is not None:
        lines.append((-end, texts["top"], "bottom"))
    for value, label, where in lines:
        axes.axhline(value, color=_END, linestyle="--", linewidth=1.2)
        axes.text(0.01, value, f" {label}", transform=axes.get_yaxis_transform(), color=_END,
                  fontsize=9, va=where, ha="left")  # fmt: skip
    values = [v for row in series for v in row]
    low = min([*values, end, 0])
    high = max([*values, -end if texts["top"] is not None else 0])
    room = (high - low) * 0.08 or 100
    axes.set_ylim(float(low - room), float(high + room))
    axes.set_xlim(hands[0], max(hands[-1], hands[0] + 1))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.axhline(0, color="#999999", linewidth=0.6)
    axes.grid(True, color="#e5e5e5", linewidth=0.6)
    axes.set_axisbelow(True)
    axes.set_xlabel(texts["x"])
    axes.set_ylabel(texts["y"])
    axes.set_title("\n".join(wrapped(texts["state"], 90, indent="")), fontsize=9, loc="left")
    figure.suptitle(texts["title"], fontsize=12)
    figure.legend(handles, texts["labels"], loc="outside right upper", frameon=False)
    return figure
