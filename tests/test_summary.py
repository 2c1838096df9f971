"""`match summary`: a match in plain text at most 40 display columns wide (a Chinese character
takes two), to paste into a group chat: the standings on the deciding totals, how far each is
from the end, the pig when it is over, the hands played; in both languages."""

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
from gongzhu_score.render.fit import columns
from gongzhu_score.render.summary import WIDTH, match_summary

LEDGER = str(SAMPLES / "match" / "ledger.yaml")

HANDS = [
    {0: "QS", 1: "JD", 2: "全红", 3: "10C"},
    {0: "全红 QS JD 10C", 1: "", 2: "", 3: ""},  # a grand slam
    {0: "", 1: "QS 10C", 2: "H2-10", 3: "JD JH QH KH AH"},
]


def played(names: list[str], count: int, end_at: int = -100_000, **options: object) -> Ledger:
    ledger = Ledger.new(names, end_at=end_at, **options)  # type: ignore[arg-type]
    for k in range(count):
        cards = HANDS[k % len(HANDS)]
        hand = Hand.from_captured({names[(seat + k) % 4]: cards[seat] for seat in range(4)})
        ledger, _ = ledger.add(hand)
    return ledger


def widest(text: str) -> int:
    return max(columns(line) for line in text.splitlines())


def test_the_sample_match_in_english_and_chinese() -> None:
    assert ok("match", "summary", LEDGER) == (
        "Gongzhu (拱猪) · classic · 3 hands\n"
        "over after hand 3\n"
        "南 is the pig (当猪), raw total -1100\n"
        "北 wins, raw total 0\n"
        "standings by raw total (end -1000):\n"
        "  1. 北        0  1000 to go\n"
        "  2. 西     -100   900 to go\n"
        "  3. 东     -300   700 to go\n"
        "  4. 南    -1100  past the end line\n"
        "finals: 北 500, 西 367, 东 100, 南 -967\n"
    )
    zh = ok("match", "summary", LEDGER, "--lang", "zh")
    assert zh.splitlines()[:4] == ["拱猪 · classic · 已打 3 局", "第 3 局后结束",
                                   "南 当猪（原始分合计 -1100）", "北 获胜（原始分合计 0）"]  # fmt: skip
    assert "  4. 南    -1100  已过终局线" in zh and "  1. 北        0  还差 1000 分" in zh
    assert widest(zh) <= WIDTH


def test_the_standings_are_the_raw_totals_summed_from_the_hands() -> None:
    data = json.loads(ok("match", "show", LEDGER, "--format", "json"))
    raw = [sum(h["raw"][i] for h in data["hands"]) for i in range(4)]
    rows = re.findall(r"^  \d\. (\S+) +(-?\d+) +(.*)$", ok("match", "summary", LEDGER), re.M)
    by_name = {name: (int(total), rest) for name, total, rest in rows}
    for name, total in zip(data["players"], raw, strict=True):
        left = total - data["end_at"]
        assert by_name[name] == (total, f"{left} to go" if left > 0 else "past the end line")
    assert [int(t) for _, t, _ in rows] == sorted(raw, reverse=True)


LONG_NAMES = [
    [
        "欧阳诸葛司马长名字一",
        "欧阳诸葛司马长名字二",
        "欧阳诸葛司马长名字三",
        "欧阳诸葛司马长名字四",
    ],
    ["Bartholomew-Fitzgerald", "Maximiliana-Ekaterina", "东", "Zebedee-Wolfgang-Jr"],
    ["老王", "小李", "阿芳", "大刘"],
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("names", LONG_NAMES, ids=["cjk", "latin", "short"])
@pytest.mark.parametrize("count", [1, 7, 40])
def test_never_wider_than_40_columns(names: list[str], count: int, lang: str) -> None:
    ledger = played(names, count)
    text = match_summary(ledger, lang)
    assert widest(text) <= WIDTH, text
    assert str(count) in text.splitlines()[0]
    for name in names:  # each player is there, a long name shortened to its start and end
        assert name[:3] in text and name[-2:] in text
    if max(columns(n) for n in names) > 12:
        assert "…" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pig_is_named_once_it_is_over(lang: str) -> None:
    ledger = Ledger.new(["老王", "小李", "阿芳", "大刘"])
    while not ledger.status().ended:  # 小李 takes the pig and the transformer: -200 a hand
        hand = Hand.from_captured({"老王": "全红", "小李": "QS 10C", "阿芳": "JD", "大刘": ""})
        ledger, _ = ledger.add(hand)
    status = ledger.status()
    assert status.loser == "小李" and ledger.count == 5
    assert status.ended
    text = match_summary(ledger, lang)
    assert widest(text) <= WIDTH
    pig = "当猪（原始分合计" if lang == "zh" else "is the pig (当猪), raw total"
    assert f"{status.loser} {pig}" in text
    assert ("已过终局线" if lang == "zh" else "past the end line") in text


def test_team_play_stands_on_the_final_totals(tmp_path: Path) -> None:
    from gongzhu_score.core.normalize import Normalization, Teams

    ledger = played(["东", "南", "西", "北"], 3, end_at=-1000,
                    normalization=Normalization(teams=Teams.PARTNERS))  # fmt: skip
    text = match_summary(ledger, "en")
    assert "standings by final total (end ±1000):" in text
    assert "raw totals: " in text
    finals = ledger.entries[-1].total_final
    for name, final in zip(ledger.players, finals, strict=True):
        assert re.search(rf"{name} +{final}  {1000 - abs(final)} to go", text)


def test_no_hands_yet(tmp_path: Path) -> None:
    path = str(tmp_path / "m.yaml")
    done("match", "new", path, "-p", "东,南,西,北")
    assert ok("match", "summary", path) == "Gongzhu (拱猪) · classic · 0 hands\nno hands yet\n"
    assert ok("match", "summary", path, "--lang", "zh") == "拱猪 · classic · 已打 0 局\n尚无牌局\n"


def test_a_ledger_that_is_not_there_is_refused(tmp_path: Path) -> None:
    assert "no-such.yaml" in refused("match", "summary", str(tmp_path / "no-such.yaml"))


NAME = st.text(st.sampled_from("aZ9-东南西北猪羊😀é"), min_size=1, max_size=30)


@given(st.lists(NAME, min_size=4, max_size=4, unique=True), st.integers(1, 12),
       st.sampled_from(["en", "zh"]))  # fmt: skip
@settings(max_examples=60, deadline=None)
def test_any_names_any_match_fit(names: list[str], count: int, lang: str) -> None:
    try:
        ledger = played(names, count)
    except Exception:  # names the ledger refuses (the same after trimming, …) are not the point
        return
    assert widest(match_summary(ledger, lang)) <= WIDTH
