"""The club across evenings on the phones (issue 58, "Done when"), in a real Chromium: the
players' tab of ``serve FOLDER`` over the sample season (docs/examples/season), at 320 px and
390 px, light and dark, in Chinese and English. Its numbers are those of ``stats --format json``
and ``stats --player NAME --format json``; axe-core finds no serious or critical violation;
the start form offers the folder's recent names, and a tap seats one."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from clitools import ROOT
from phones import SMALL, Phone, browser, cli, fits, open_tab, phones
from serving import serving

from gongzhu_score.web.words import page_words

pytestmark = pytest.mark.browser
__all__ = ["browser", "phones"]  # (the fixtures, from tests/phones.py)

SEASON = ROOT / "docs" / "examples" / "season"


def two(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


@pytest.mark.parametrize(
    ("lang", "screen", "scheme"),
    [("zh", SMALL, "light"), ("en", {}, "dark"), ("zh-Hant", SMALL, "dark"), ("zh", {}, "light")],
    ids=["zh-320-light", "en-390-dark", "zh-Hant-320-dark", "zh-390-light"],
)
def test_the_players_view_is_the_seasons_stats(
    tmp_path: Path, phones: Callable[..., Phone], lang: str, screen: dict[str, object],
    scheme: str,
) -> None:  # fmt: skip
    from playwright.sync_api import expect

    folder = tmp_path / "club"
    shutil.copytree(SEASON, folder)
    words = page_words(lang)
    data = json.loads(cli("stats", str(folder), "--format", "json"))
    with serving(str(folder), "--lang", lang) as served:
        a = phones(served.url, **screen, color_scheme=scheme)
        open_tab(a, "players")
        expect(a("tab-players")).to_have_text(words["tab.players"])
        expect(a("season-row-0")).to_be_visible()
        for k, p in enumerate(data["players"]):
            expect(a(f"season-name-{k}")).to_have_text(p["name"])
            rating = p["rating"]["ordinal"] if p["rating"] else None
            expect(a(f"season-rating-{k}")).to_have_text(two(rating))
            expect(a(f"season-matches-{k}")).to_have_text(str(p["matches"]))
            expect(a(f"season-won-{k}")).to_have_text(str(p["won"]))
            expect(a(f"season-lost-{k}")).to_have_text(str(p["lost"]))
            expect(a(f"season-average-{k}")).to_have_text(two(p["average"]))
        a.accessible(f"{lang}: the season")
        fits(a)

        # A player's page: the history as the command gives it, head to head, the chart.
        name = data["players"][1]["name"]
        mine = json.loads(cli("stats", str(folder), "--player", name, "--format", "json"))
        a.tap("season-name-1")
        expect(a("player-view")).to_be_visible()
        expect(a("player-name")).to_have_text(name)
        expect(a("player-rating")).to_contain_text(two(mine["rating"]["ordinal"]))
        for k, m in enumerate(mine["matches"]):
            expect(a(f"player-rank-{k}")).to_have_text(str(m["rank"]))
            expect(a(f"player-final-{k}")).to_have_text(str(m["final"]))
            expect(a(f"player-after-{k}")).to_have_text(two(m["rating_after"]["ordinal"]))
        for k, o in enumerate(mine["head_to_head"]):
            expect(a(f"h2h-{k}")).to_contain_text(o["name"])
            expect(a(f"h2h-ahead-{k}")).to_have_text(str(o["ahead"]))
            expect(a(f"h2h-behind-{k}")).to_have_text(str(o["behind"]))
        points = a("player-chart").locator("circle").count()
        assert points == len(mine["matches"])
        a.accessible(f"{lang}: a player's page")
        fits(a)
        a.tap("player-back")
        expect(a("season")).to_be_visible()

        # The start form offers the season's names, the most recent first; a tap seats one.
        open_tab(a, "matches")
        recent = [a(f"recent-name-{k}").inner_text() for k in range(4)]
        names = {p["name"] for p in data["players"]}
        assert set(recent) <= names
        for seat in range(4):
            a(f"new-player-{seat}").fill("")
        a.tap("recent-name-0", "recent-name-1")
        assert [a(f"new-player-{seat}").input_value() for seat in range(2)] == recent[:2]
        a.accessible(f"{lang}: the start form with recent names")
