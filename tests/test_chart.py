"""`match chart LEDGER -o FILE.svg|FILE.png`: every player's running deciding total hand by hand,
with the end line, in the table's language; the SVG keeps its text as text, the PNG is drawn
with a font that has the names (or refused, saying what to do); docs/chart.svg is what its
documented command makes now."""

from __future__ import annotations

import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from clitools import ROOT, SAMPLES, done, ok, refused

from gongzhu_score.match.storage import read_ledger
from gongzhu_score.render import chart

LEDGER = str(SAMPLES / "match" / "ledger.yaml")
SVG = "{http://www.w3.org/2000/svg}"
DOCS_CHART = ROOT / "docs" / "chart.svg"
# The command docs/table.md gives for the image it shows (run from the repository's root).
DOCS_COMMAND = ["match", "chart", "sample_hands/match/ledger.yaml", "-o", "docs/chart.svg"]


def texts(svg: bytes) -> list[str]:
    """Every text of the SVG, as a viewer shows it (it must parse; a zero width space shows
    nothing)."""
    root = ET.fromstring(svg)
    return ["".join(t.itertext()).strip().lstrip("\u200b") for t in root.iter(f"{SVG}text")]


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
@pytest.mark.font
def test_png_decodes_with_every_player_colour_and_the_end_line(tmp_path: Path) -> None:
    from matplotlib.image import imread

    out = tmp_path / "c.png"
    ok("match", "chart", LEDGER, "-o", str(out), "--lang", "zh")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = imread(str(out))
    height, width = pixels.shape[:2]
    assert 600 <= width <= 1200 and 300 <= height <= 800
    colours = {tuple(round(float(c) * 255) for c in p[:3]) for p in pixels.reshape(-1, 4)}

    def drawn(hex_colour: str) -> bool:
        want = tuple(int(hex_colour[k : k + 2], 16) for k in (1, 3, 5))
        return any(all(abs(a - b) <= 2 for a, b in zip(c, want, strict=True)) for c in colours)

    assert drawn(chart._END)  # the end line
    assert all(drawn(colour) for colour in chart._COLOURS[:4])  # every player's line


@pytest.mark.chart
def test_png_without_a_font_for_the_names_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(chart, "_family_for", lambda text: "")
    out = tmp_path / "c.png"
    message = refused("match", "chart", LEDGER, "-o", str(out))
    assert message.startswith(f"{out}: no font here can draw ")
    assert f"write an SVG instead (-o {tmp_path / 'c.svg'}" in message
    assert "fonts-noto-cjk" in message
    assert not out.exists()
    zh = refused("match", "chart", LEDGER, "-o", str(out), "--lang", "zh")
    assert "这里没有能在 PNG 里画出" in zh
    ok("match", "chart", LEDGER, "-o", str(tmp_path / "c.svg"))  # an SVG needs no font


@pytest.mark.chart
def test_english_names_need_no_chinese_font(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "-p", "Ann,Bob,Cy,Di")
    ok("match", "add", path, "-c", "Ann=QS", "-c", "Bob=JD", "-c", "Cy=全红", "--rest", "Di")
    assert (
        chart._family_for("".join(chart._all_text(chart._texts(read_ledger(path), "en")))) is None
    )
    ok("match", "chart", path, "-o", str(tmp_path / "m.png"))
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"


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


def creator(svg: bytes) -> str:
    found = re.search(rb"<dc:title>(gongzhu-score [^<]*)</dc:title>", svg)
    assert found, "the SVG says what made it"
    return found.group(1).decode()


@pytest.mark.chart
def test_docs_chart_is_what_its_command_makes_now(tmp_path: Path) -> None:
    # docs/table.md shows docs/chart.svg and the command that makes it; GONGZHU_UPDATE_GOLDEN=1
    # makes it again. Made with another matplotlib or another font, the layout may differ by a
    # pixel: then what it says (every text) must be the same.
    if os.environ.get("GONGZHU_UPDATE_GOLDEN"):
        old = Path.cwd()
        os.chdir(ROOT)
        try:
            ok(*DOCS_COMMAND)
        finally:
            os.chdir(old)
    assert f"gongzhu-score {' '.join(DOCS_COMMAND)}" in (ROOT / "docs" / "table.md").read_text(
        encoding="utf-8"
    )
    out = tmp_path / "chart.svg"
    ok(*DOCS_COMMAND[:3], "-o", str(out))
    now, kept = out.read_bytes(), DOCS_CHART.read_bytes()
    if creator(now) == creator(kept):
        assert now == kept, "docs/chart.svg is stale: GONGZHU_UPDATE_GOLDEN=1 makes it again"
    else:
        assert texts(now) == texts(kept)
