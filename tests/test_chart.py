"""`match chart LEDGER -o FILE.svg|FILE.png`: every player's running deciding total hand by hand,
with the end line, in the table's language; the SVG keeps its text as text, the PNG is drawn
with a font that really has the names' glyphs (or refused, saying what to do: never boxes); each
seat in its colour (the page's), marker and dashes, so that equal totals hide no line;
docs/chart.svg is what its documented command makes now."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused
from pictures import SVG, docs_picture_is_current
from pictures import svg_texts as texts

from gongzhu_score import Hand
from gongzhu_score.match.storage import read_ledger
from gongzhu_score.render import chart
from gongzhu_score.render.fit import columns
from gongzhu_score.render.seats import SEAT_COLOURS

LEDGER = str(SAMPLES / "match" / "ledger.yaml")
# The command docs/table.md gives for the image it shows (run from the repository's root).
DOCS_COMMAND = ["match", "chart", "sample_hands/match/ledger.yaml", "-o", "docs/chart.svg"]


@pytest.mark.chart
def test_svg_has_every_player_and_the_end_line_as_text(tmp_path: Path) -> None:
    out = tmp_path / "c.svg"
    assert ok("match", "chart", LEDGER, "-o", str(out)) == f"chart of 3 hands written to {out}\n"
    shown = texts(out.read_bytes())
    assert "end line -1000" in shown
    for name, total in zip("东南西北", (-300, -1100, -100, 0), strict=True):  # the raw totals
        assert any(t.startswith(f"{name}  {total}") for t in shown), shown
    assert "南  -1100  (the pig)" in shown
    assert "Raw totals, hand by hand (the end: -1000 or below)" in shown
    # Text stays text: no glyph outlines, and the viewer is asked for Chinese fonts.
    svg = out.read_text(encoding="utf-8")
    assert "<defs>" in svg and 'id="DejaVuSans' not in svg
    # (matplotlib 3.8 writes the families in the shorthand font: 10px 'A', 'B')
    assert re.search(r"font(-family: |: [0-9.]+px )'[^']+', .*'Noto Sans CJK SC'.*sans-serif", svg)


@pytest.mark.chart
def test_in_chinese(tmp_path: Path) -> None:
    out = tmp_path / "牌局.svg"
    said = ok("match", "chart", LEDGER, "-o", str(out), "--lang", "zh")
    assert said == f"已把 3 局的走势图写入 {out}\n"
    shown = texts(out.read_bytes())
    assert "终局线 -1000" in shown and "原始分合计" in shown and "局" in shown
    assert "南  -1100  (当猪)" in shown
    assert any("第 3 局后结束：南 当猪，北 获胜" in t for t in shown)
    out = tmp_path / "牌局-繁體.svg"
    ok("match", "chart", LEDGER, "-o", str(out), "--lang", "zh-Hant")
    shown = texts(out.read_bytes())
    assert "終局線 -1000" in shown and "原始分合計" in shown
    assert "南  -1100  (當豬)" in shown


@pytest.mark.chart
def test_team_play_draws_both_lines(tmp_path: Path) -> None:
    path = str(tmp_path / "t.yaml")
    done("match", "new", path, "-p", "东,南,西,北", "--teams", "partners", "--end-at", "-500")
    ok("match", "add", path, "-c", "东=羊", "-c", "南=红桃2-10", "-c", "西=变压器", "--rest", "北")
    svg = chart.chart_image(read_ledger(path), "svg", "en")
    shown = texts(svg)
    assert {"end line -500", "end line +500", "final total"} <= set(shown)


@pytest.mark.chart
def test_names_are_drawn_as_written(tmp_path: Path) -> None:
    path = str(tmp_path / "n.yaml")
    done("match", "new", path, "-p", "$5$,_hidden,A&B<c>,欧阳诸葛")
    ok("match", "add", path, "-c", "$5$=QS", "-c", "_hidden=JD", "-c", "A&B<c>=全红",
       "--rest", "欧阳诸葛")  # fmt: skip
    shown = texts(chart.chart_image(read_ledger(path), "svg", "en"))
    for name in ("$5$", "_hidden", "A&B<c>", "欧阳诸葛"):  # not mathematics, not left out
        assert any(t.startswith(f"{name}  ") for t in shown), shown


@pytest.mark.chart
@pytest.mark.parametrize("size", [40, 100_000])
def test_a_long_name_is_cut_and_the_plot_keeps_its_room(tmp_path: Path, size: int) -> None:
    # Issue 35, cause 9: a 40-character Chinese name squeezed the plot to nothing, with
    # matplotlib's UserWarning on stderr; a 100,000-character one took 5 s to draw.
    import subprocess
    import warnings

    from gongzhu_score.match.ledger import Ledger

    long = ("欧阳" * size)[:size]
    ledger = Ledger.new([long, "Bob", "Cy", "Di"])
    ledger = ledger.add(Hand.from_captured({long: "QS", "Bob": "JD", "Cy": "全红", "Di": "10C"}))[0]
    path = tmp_path / "long.yaml"
    path.write_text(ledger.to_text(), encoding="utf-8")
    out = tmp_path / "long.svg"
    r = subprocess.run([sys.executable, "-m", "gongzhu_score", "match", "chart", str(path), "-o",
                        str(out)], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 0 and r.stderr == "", r.stderr
    shown = texts(out.read_bytes())
    cut = [t for t in shown if t.startswith("欧阳") and "…" in t]
    assert len(cut) == 2, shown  # the legend's label and the line's end label
    assert all(columns(t.split()[0]) <= chart.NAME_COLUMNS for t in cut), cut
    assert max(len(t) for t in shown) < 120
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (the layout's warning fails the test)
        warnings.filterwarnings("ignore", message=r"(?s).*Glyph.*missing")  # (DejaVu, no CJK)
        read = read_ledger(str(path))
        figure = chart._draw(read, chart._texts(read, "en"), lambda text: ["DejaVu Sans"])
        figure.draw_without_rendering()
    assert figure.axes[0].get_position().width > 0.35  # laid out, the plot keeps its room


def pixel_colours(png: Path) -> set[tuple[int, ...]]:
    from matplotlib.image import imread

    pixels = imread(str(png))
    return {tuple(round(float(c) * 255) for c in p[:3]) for p in pixels.reshape(-1, 4)}


def drawn(colours: set[tuple[int, ...]], hex_colour: str) -> bool:
    want = tuple(int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
    return any(all(abs(a - b) <= 2 for a, b in zip(c, want, strict=True)) for c in colours)


@pytest.mark.chart
@pytest.mark.font
def test_png_decodes_with_every_player_colour_and_the_end_line(tmp_path: Path) -> None:
    from matplotlib.image import imread

    out = tmp_path / "c.png"
    ok("match", "chart", LEDGER, "-o", str(out), "--lang", "zh")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width = imread(str(out)).shape[:2]
    assert 600 <= width <= 1200 and 300 <= height <= 800
    colours = pixel_colours(out)
    assert drawn(colours, chart._END)  # the end line
    assert all(drawn(colours, colour) for colour in SEAT_COLOURS)  # every player's line


def lone_fonts() -> list[tuple[str, frozenset[int]]]:
    """The fonts of a machine with no Chinese font: matplotlib's own, and its box font (the Last
    Resort font matplotlib 3.10 and later carries, which maps every character to a box)."""
    from matplotlib import font_manager

    own = str(font_manager.findfont(font_manager.FontProperties(family="DejaVu Sans")))
    boxes = Path(own).with_name("LastResortHE-Regular.ttf")
    fonts = [("DejaVu Sans", chart._charset(own))]
    if boxes.exists():
        fonts.append(("Last Resort High-Efficiency", chart._charset(str(boxes))))
    return fonts


@pytest.mark.chart
def test_png_without_a_font_for_the_names_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A machine with no Chinese font: a font whose "glyph" for 东 is a box does not count.
    monkeypatch.setattr(chart, "_fonts", lambda more=False: lone_fonts())
    assert chart._family_for("东南西北") == "" and chart._family_for("Ann -300") is None
    out = tmp_path / "c.png"
    message = refused("match", "chart", LEDGER, "-o", str(out))
    assert message.startswith(f"{out}: no font here can draw 东北南西 in a PNG (it would show ")
    assert f"write an SVG instead (-o {tmp_path / 'c.svg'}" in message
    assert "apt-get install fonts-wqy-microhei" in message and "Noto Sans CJK" in message
    assert not out.exists()
    zh = refused("match", "chart", LEDGER, "-o", str(out), "--lang", "zh")
    assert "这里没有能在 PNG 里画出 " in zh and "南" in zh and "fonts-wqy-microhei" in zh
    assert not out.exists()
    ok("match", "chart", LEDGER, "-o", str(tmp_path / "c.svg"))  # an SVG needs no font


@pytest.mark.chart
def test_a_font_is_chosen_per_text_for_glyphs_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    latin = frozenset(map(ord, "Ann -0123456789+."))
    han = frozenset(map(ord, "东南"))
    fonts = [("Latin", latin), ("Boxes", frozenset()), ("Han", han | latin), ("Other", han)]
    chosen = chart._Chosen(fonts, ["Ann -300", "东 -300", "东 ☃"])
    assert chosen.of("Ann -300") == ["Latin"] and chosen.of("东 -300") == ["Han"]
    assert chosen.missing == {"☃"}
    # A glyph that stands for whole blocks of characters is a box, not theirs.
    assert chart._drawn("_a\u200b b\n") == {ord("_"), ord("a"), ord("b")}


@pytest.mark.chart
@pytest.mark.font
def test_a_png_draws_the_names_glyphs_not_boxes(tmp_path: Path) -> None:
    # Boxes are the same for every character: the same chart for 东 and for 南 would be the
    # same pixels. Real glyphs differ.
    from matplotlib.image import imread

    images = []
    for name in ("东", "南"):
        path = str(tmp_path / f"{name}.yaml")
        done("match", "new", path, "-p", f"{name},Bob,Cy,Di")
        ok("match", "add", path, "-c", f"{name}=QS", "-c", "Bob=JD", "-c", "Cy=全红",
           "--rest", "Di")  # fmt: skip
        out = tmp_path / f"{name}.png"
        ok("match", "chart", path, "-o", str(out))
        images.append(imread(str(out)))
    assert images[0].shape == images[1].shape
    differ = (abs(images[0] - images[1]).sum(axis=2) > 0.1).sum()
    assert differ > 20, "the two names are drawn alike: boxes, not glyphs"


def test_the_seat_colours_stand_out_on_white() -> None:
    # WCAG 1.4.11: graphics need a contrast of 3:1 against what is next to them.
    def luminance(hex_colour: str) -> float:
        def linear(c: float) -> float:
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (linear(int(hex_colour[k : k + 2], 16) / 255) for k in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert len(SEAT_COLOURS) == 4 and len(set(SEAT_COLOURS)) == 4
    for colour in (*SEAT_COLOURS, chart._END):
        assert 1.05 / (luminance(colour) + 0.05) >= 3, colour


def equal_totals(tmp_path: Path) -> str:
    """A match in which Cy and Di have the same totals, hand after hand."""
    path = str(tmp_path / "equal.yaml")
    done("match", "new", path, "-p", "Ann,Bob,Cy,Di")
    ok("match", "add", path, "-c", "Ann=QS", "-c", "Bob=JD", "-c", "Cy=", "-c", "Di=",
       "--rest", "Ann")  # fmt: skip
    ok("match", "add", path, "-c", "Ann=", "-c", "Bob=QS", "-c", "Cy=", "-c", "Di=",
       "--rest", "Bob")  # fmt: skip
    return path


def strokes(svg: bytes) -> dict[str, set[str]]:
    """Each colour's line and marker styles in the SVG (its paths' styles)."""
    found: dict[str, set[str]] = {}
    for element in ET.fromstring(svg).iter(f"{SVG}path"):
        style = element.get("style", "")
        colour = re.search(r"stroke: (#[0-9a-f]{6})", style)
        if colour:
            found.setdefault(colour.group(1), set()).add(style)
    return found


@pytest.mark.chart
def test_equal_totals_hide_no_line(tmp_path: Path) -> None:
    path = equal_totals(tmp_path)
    data = json.loads(ok("match", "show", path, "-f", "json"))
    assert [h["total_raw"][2:] for h in data["hands"]] == [[0, 0], [0, 0]]
    # Each seat its own colour, marker, dashes and width, later seats thinner and on top.
    styles = [chart.line_style(k) for k in range(4)]
    for key in ("color", "marker", "linestyle", "linewidth"):
        assert len({str(s[key]) for s in styles}) == 4, key
    assert [s["linewidth"] for s in styles] == sorted((s["linewidth"] for s in styles),
                                                      reverse=True)  # fmt: skip
    assert [s["zorder"] for s in styles] == sorted(s["zorder"] for s in styles)
    # In the SVG both lines are there, drawn differently.
    svg = chart.chart_image(read_ledger(path), "svg", "en")
    found = strokes(svg)
    cy, di = found[SEAT_COLOURS[2]], found[SEAT_COLOURS[3]]
    assert cy and di and cy != di
    assert any("stroke-dasharray" in s for s in cy) and any("stroke-dasharray" in s for s in di)
    # In the PNG, where the thinner line lies on the wider one, both colours show.
    out = tmp_path / "equal.png"
    ok("match", "chart", path, "-o", str(out))
    colours = pixel_colours(out)
    assert drawn(colours, SEAT_COLOURS[2]) and drawn(colours, SEAT_COLOURS[3])
    # Each line's end is labelled with its name and total, equal ones stacked, not on top.
    shown = texts(svg)
    assert {"Cy 0", "Di 0"} <= set(shown)
    assert chart.stacked([0.0, 0.0, -50.0], 10.0, -100.0, 100.0) == [10.0, 0.0, -50.0]
    assert chart.stacked([95.0, 95.0], 10.0, -100.0, 100.0) == [100.0, 90.0]


def test_a_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "c.jpg"
    assert refused("match", "chart", LEDGER, "-o", str(out)) == (
        f"--output {out}: a chart is written as FILE.svg or FILE.png, not .jpg"
    )
    assert not out.exists()
    assert refused("match", "chart", LEDGER, "-o", str(tmp_path)).endswith(f"not {tmp_path}")
    missing = refused("match", "chart", LEDGER, "-o", "/no/such/folder/c.svg")
    assert missing == "/no/such/folder/c.svg: the folder /no/such/folder does not exist"


def test_without_the_extra_it_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "c.svg"
    message = refused("match", "chart", LEDGER, "-o", str(out))
    assert message == (
        "this needs the optional libraries of the chart extra: pip install 'gongzhu-score[chart]'"
    )
    assert not out.exists()


@pytest.mark.chart
def test_a_chart_replaces_the_file_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "c.svg"
    out.write_bytes(b"old")

    def fails(*args: object) -> None:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(chart, "_draw", fails)
    with pytest.raises(RuntimeError):
        chart.write_chart(read_ledger(LEDGER), str(out))
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["c.svg"]  # no temporary file left


@pytest.mark.chart
def test_the_same_match_draws_the_same_bytes(tmp_path: Path) -> None:
    ledger = read_ledger(LEDGER)
    assert chart.chart_image(ledger, "svg", "zh") == chart.chart_image(ledger, "svg", "zh")


@pytest.mark.chart
def test_docs_chart_is_what_its_command_makes_now(tmp_path: Path) -> None:
    # docs/table.md shows docs/chart.svg and the command that makes it.
    docs_picture_is_current(DOCS_COMMAND, "docs/chart.svg", tmp_path / "chart.svg")
