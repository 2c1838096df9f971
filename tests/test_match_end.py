"""The end, plainly (issue 22): `match show` and `match add` lead with the totals the end is
decided on (rulings §8), beside the end line, with how far each player is from it; a player
past it is named at once; the finals stay, labelled; the table follows the terminal's width,
none of its numbers lost; a range of one hand is said as one hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score import Hand
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.render.fit import columns, fitted_table, wrapped
from gongzhu_score.render.match import render_match

LEDGER = str(SAMPLES / "match" / "ledger.yaml")


def deciding(ledger: str) -> tuple[list[int], int]:
    """The raw totals summed here from each hand's raw scores (not the ledger's own totals),
    and the end line."""
    data = json.loads(ok("match", "show", ledger, "--format", "json"))
    totals = [sum(hand["raw"][i] for hand in data["hands"]) for i in range(4)]
    return totals, data["end_at"]


def test_show_leads_with_the_raw_totals_and_how_far_each_is_from_the_end() -> None:
    totals, end = deciding(LEDGER)
    assert (totals, end) == ([-300, -1100, -100, 0], -1000)
    lines = ok("match", "show", LEDGER).splitlines()
    assert lines[0] == "variant: classic · normalize: zero-sum · ends at -1000"
    assert lines[2] == "raw totals, which decide the end (at or below -1000):"
    # In the match's one order (rulings §8): the highest first, the pig (南) last.
    ranked = sorted(zip("东南西北", totals, strict=True), key=lambda p: -p[1])
    assert [name for name, _ in ranked] == ["北", "西", "东", "南"]
    for line, (name, total) in zip(lines[3:7], ranked, strict=True):
        left = total - end
        said = f"{left} to go" if left > 0 else "past the end line"
        assert re.fullmatch(rf"  {name} +{total}  +{said}", line), line
    # 南 is below the end line: named at once, before the table.
    assert lines[7] == "南 is past the end line (-1100 ≤ -1000): the match is over"
    assert lines[9].split()[0] == "hand"
    # One score to read: the table's cells and total row are the deciding raws too; the finals
    # stay, labelled as not deciding the end.
    assert "raw total         -300         -1100        -100      0" in lines
    assert "        3  -100 (-300)  -600 (-1100)    0 (-100)  0 (0)           东" in lines
    assert "final totals (they do not decide the end): 东 100, 南 -967, 西 367, 北 500" in lines


def test_show_in_chinese_says_how_many_points_to_go() -> None:
    text = ok("match", "show", LEDGER, "--lang", "zh")
    lines = text.splitlines()
    assert lines[2] == "原始分合计（决定终局：到 -1000 或以下即结束）："
    assert lines[3:8] == [
        "  北      0  还差 1000 分",
        "  西   -100  还差 900 分",
        "  东   -300  还差 700 分",
        "  南  -1100  已过终局线",
        "南 已过终局线（-1100 ≤ -1000）：比赛结束",
    ]
    assert "最后得分合计" in text and "原始分合计走势（▁ 为终局线 -1000）：" in text


def test_the_chart_bars_are_the_deciding_totals() -> None:
    text = ok("match", "show", LEDGER)
    chart = text.split("running raw totals (▁ is the end line, -1000):\n")[1].splitlines()
    assert [line.split()[-1] for line in chart] == ["-300", "-1100", "-100", "0"]
    assert chart[1].split()[1] == "▆▄▁"  # 南: -160, -500, -1100 (the end line at ▁)


@pytest.fixture
def played(tmp_path: Path) -> str:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "-p", "东,南,西,北")
    for n in (1, 2):
        ok("match", "add", path, str(SAMPLES / "match" / f"hand{n}.yaml"))
    return path


def test_add_prints_the_deciding_totals_then_the_finals_for_what_they_are(played: str) -> None:
    out = ok("match", "add", played, "-c", "东=", "-c", "南=JD", "-c", "西=", "--rest", "北")
    totals, end = deciding(played)
    said = out.split("raw totals, which decide the end (at or below -1000):\n")[1].splitlines()
    ranked = sorted(zip("东南西北", totals, strict=True), key=lambda p: -p[1])
    for line, (name, total) in zip(said[:4], ranked, strict=True):
        assert line.split() == [name, str(total), str(total - end), "to", "go"]
    assert said[4].startswith("final totals (they do not decide the end): 东 ")
    assert said[5].startswith("in play after 3 hands")


def test_json_has_the_distance_to_the_end(played: str) -> None:
    data = json.loads(ok("match", "show", played, "--format", "json"))
    totals, end = deciding(played)
    assert data["decided_on"] == "raw"
    assert data["to_go"] == [t - end for t in totals]
    assert data["past_end"] == []
    ended = json.loads(ok("match", "show", LEDGER, "--format", "json"))
    assert (ended["to_go"][1], ended["past_end"]) == (-100, ["南"])
    added = json.loads(ok("match", "add", played, str(SAMPLES / "match" / "hand3.yaml"),
                          "-f", "json"))  # fmt: skip
    assert (added["decided_on"], added["past_end"], added["to_go"][1]) == ("raw", ["南"], -100)


def test_team_play_is_decided_on_final_totals_toward_either_line(tmp_path: Path) -> None:
    path = str(tmp_path / "t.yaml")
    done("match", "new", path, "-p", "东,南,西,北", "--teams", "partners", "--end-at", "-300")
    ok("match", "add", path, "-c", "东=羊", "-c", "南=红桃2-10", "-c", "西=变压器", "--rest", "北")
    data = json.loads(ok("match", "show", path, "--format", "json"))
    finals = data["totals"]["final"]
    assert data["decided_on"] == "final"
    assert data["to_go"] == [300 - abs(f) for f in finals]
    text = ok("match", "show", path)
    assert "final totals, which decide the end (reaching -300 or +300):" in text
    assert f"  东   {finals[0]}  {300 - finals[0]} to go (to +300)" in text
    assert f"  南  {finals[1]}  {300 + finals[1]} to go (to -300)" in text
    assert "running final totals (▁ is -300, █ is +300):" in text
    # Past +300 is past the end line too, named with the line it passed.
    ok("match", "add", path, "-c", "东=羊", "-c", "南=红桃2-10", "-c", "西=变压器", "--rest", "北")
    after = json.loads(ok("match", "show", path, "--format", "json"))
    assert after["ended"] and after["past_end"] == ["东", "南", "西", "北"]
    shown = ok("match", "show", path, "--lang", "zh")
    assert re.search(r"东、南、西、北 已过终局线（\+\d+ ≥ \+300、-\d+ ≤ -300", shown)


# --- the width of the terminal ----------------------------------------------------------------

CELL = re.compile(r"-?\d+ \(-?\d+\)")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [50, 80])
def test_show_fits_the_terminal_and_loses_no_number(
    lang: str, width: int, played: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for args in (["-c", "东=全红 猪", "-c", "南=", "-c", "西=羊"],
                 ["-c", "东=", "-c", "南=猪 羊", "-c", "西="]):  # fmt: skip
        ok("match", "add", played, *args, "--rest", "北")
    wide = ok("match", "show", played, "--lang", lang)
    assert max(columns(line) for line in wide.splitlines()) > 50  # (the table is wider)
    monkeypatch.setenv("COLUMNS", str(width))
    narrow = ok("match", "show", played, "--lang", lang)
    assert max(columns(line) for line in narrow.splitlines()) <= width
    # Every cell of the whole table is there, as often (each hand's raw and running raw total).
    assert sorted(CELL.findall(narrow)) == sorted(CELL.findall(wide))
    data = json.loads(ok("match", "show", played, "--format", "json"))
    for hand in data["hands"]:
        for raw, total in zip(hand["raw"], hand["total_raw"], strict=True):
            assert f"{raw} ({total})" in narrow
    for total in data["totals"]["final"] + data["totals"]["raw"] + data["to_go"]:
        assert str(total) in narrow
    assert ("全红" if lang == "zh" else "full red") in narrow


def test_a_long_match_keeps_its_chart_within_the_width() -> None:
    ledger = Ledger.new(["东", "南", "西", "北"], end_at=-100_000)
    for _ in range(60):
        ledger, _ = ledger.add(
            Hand.from_captured({"东": "QS", "南": "JD", "西": "全红", "北": "10C"})
        )
    text = render_match(ledger, "en", width=60)
    assert max(columns(line) for line in text.splitlines()) <= 60
    chart = text.split("-100000):\n")[-1].splitlines()
    assert all(line.split()[1].startswith("…") for line in chart)  # the last hands' bars
    assert render_match(ledger, "en").count("\n") < text.count("\n")  # (no width: one table)


WORDS = st.text(st.sampled_from("ab 东南西北猪羊，：（）-1"), min_size=0, max_size=80)


@given(WORDS, st.integers(4, 40))
@settings(max_examples=300, deadline=None)
def test_wrapped_lines_fit_and_keep_every_character(text: str, width: int) -> None:
    lines = wrapped(text, width)
    assert all(columns(line) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


@given(st.lists(st.lists(st.text("0123456789-() ", max_size=12), min_size=5, max_size=5),
                min_size=1, max_size=6), st.integers(20, 90))  # fmt: skip
@settings(max_examples=200, deadline=None)
def test_a_fitted_table_shows_every_cell(rows: list[list[str]], width: int) -> None:
    headers = ["hand", "东", "南", "西", "北"]
    blocks = fitted_table(rows, headers, "simple", ["right"] * 5, width)
    whole = fitted_table(rows, headers, "simple", ["right"] * 5, None)[0]
    for block in blocks:
        lines = block.splitlines()
        if len(lines[0].split()) > 2:  # (a block of one column is as wide as that column)
            assert max(map(columns, lines)) <= width
    shown = "\n".join(blocks)
    for row in rows:
        for cell in row[1:]:
            assert cell.strip() in shown
    assert len(blocks) == 1 or max(map(columns, whole.splitlines())) > width


# --- a range of one hand, said as one hand -------------------------------------------------------


def test_one_hand_after_the_end_is_not_said_as_a_range(played: str) -> None:
    message = refused("match", "set", played, "--end-at", "-300")
    assert message.endswith("but hand 2 follows it; remove it first")
    zh = refused("match", "set", played, "--end-at", "-300", "--lang", "zh")
    assert zh.endswith("但后面还有第 2 局；请先删除它")
    assert "第 2 到第 2 局" not in zh


def test_no_hand_of_a_one_hand_match_is_said_plainly(tmp_path: Path) -> None:
    path = str(tmp_path / "one.yaml")
    done("match", "new", path, "-p", "东,南,西,北")
    ok("match", "add", path, str(SAMPLES / "match" / "hand1.yaml"))
    assert refused("match", "show", path, "3") == "no hand 3: this match has only hand 1"
    assert refused("match", "show", path, "3", "--lang", "zh") == "没有第 3 局：这场比赛只有第 1 局"


def test_verify_says_one_hand_after_the_end_as_one() -> None:
    ledger = Ledger.new(["东", "南", "西", "北"], end_at=-5000)
    for _ in range(3):
        ledger, _ = ledger.add(
            Hand.from_captured({"东": "QS", "南": "JD", "西": "全红", "北": "10C"})
        )
    from dataclasses import replace

    ended = replace(ledger, end_at=-200)  # (as a ledger edited by hand: the end moved up)
    assert ended.status().ended_after == 2
    assert "hand 3 follows the end (hand 2)" in ended.verify()
    assert "第 3 局在比赛结束（第 2 局）之后" in ended.verify("zh")
