"""``serve`` on a tournament's folder (issue 36 part 4), in a real browser on a phone's screen:
the matches tab shows the tournament's standings as ``tournament show --format json`` gives
them, live as the tables add hands, and its last round's tables, each opened with a tap.
``GONGZHU_UPDATE_SCREENSHOTS=1`` also writes docs/web-tournament.png from this very page.

The browser suite (``pytest -m browser``), as tests/test_web_browser.py."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from clitools import ROOT
from phones import Phone, browser, cli, open_tab, phones
from serving import serving

pytestmark = pytest.mark.browser
__all__ = ["browser", "phones"]  # (the fixtures, from tests/phones.py)

PLAYERS = "甲,乙,丙,丁,戊,己,庚,辛"


def standings(path: Path) -> list[dict[str, object]]:
    data = json.loads(cli("tournament", "show", str(path), "--format", "json"))
    players: list[dict[str, object]] = data["players"]
    return players


def shows_standings(phone: Phone, path: Path) -> None:
    """Each row of the page's standings is that of ``tournament show --format json``."""
    from playwright.sync_api import expect

    for p in standings(path):
        row = phone(f"trow-{path.name}-{p['rank']}")
        expect(row.locator("th")).to_have_text(str(p["name"]), timeout=5000)
        expect(row.locator("td").nth(1)).to_have_text(str(p["total"]), timeout=5000)


def test_the_tournament_standings_and_its_tables_on_a_phone(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    cup = tmp_path / "cup.yaml"
    cli("tournament", "new", str(cup), "--players", PLAYERS, "--hands", "1")
    cli("tournament", "round", str(cup))
    cli("match", "add", str(tmp_path / "cup-r1-t1.yaml"),
        "-c", "甲=QS", "-c", "乙=JD", "-c", "丙=全红", "-c", "丁=10C")  # fmt: skip
    with serving(str(tmp_path), "--lang", "zh") as served:
        a = phones(served.url)
        open_tab(a, "matches")
        expect(a("tournament-cup.yaml")).to_be_visible()
        expect(a("tournament-cup.yaml")).to_contain_text("多桌比赛 cup：8 位玩家，1 轮")
        shows_standings(a, cup)
        expect(a("trow-cup.yaml-1")).to_contain_text("丙")  # 200, the best of table 1
        expect(a("tournament-status-cup.yaml")).to_contain_text("第 1 轮进行中")
        a.accessible("a tournament's standings")
        # table 2 plays at the terminal: the page follows within seconds
        cli("match", "add", str(tmp_path / "cup-r1-t2.yaml"),
            "-c", "戊=JD", "-c", "己=QS", "-c", "庚=10C", "-c", "辛=全红")  # fmt: skip
        expect(a("tournament-status-cup.yaml")).to_contain_text("第 1 轮结束", timeout=5000)
        shows_standings(a, cup)
        expect(a("trow-cup.yaml-2")).to_contain_text("辛")  # level with 丙: registration
        expect(a("trow-cup.yaml-2")).to_contain_text("报名顺序")
        if os.environ.get("GONGZHU_UPDATE_SCREENSHOTS") == "1":  # (docs/web.md shows it)
            expect(a("said")).to_be_hidden(timeout=6000)
            a.page.screenshot(path=str(ROOT / "docs" / "web-tournament.png"))
        a.tap("table-cup-r1-t2.yaml")  # a table opens as its match
        body = a.page.locator("body")
        expect(body).to_have_attribute("data-match", "cup-r1-t2.yaml", timeout=5000)
