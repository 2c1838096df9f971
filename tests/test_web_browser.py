"""The table's page in a real browser (issue 23, "Done when"): the system's Chromium, headless,
driven through Playwright on a phone's screen (tests/phones.py), against a real
``gongzhu-score serve`` (tests/serving.py) on a ledger made with ``match new``:

- a whole short match tapped in, in Chinese, to its end (the rest button, exposures, 首明);
- an edit (keeping "the rest to …"), a remove and an undo, each asked in the page's dialog
  first, showing the hand's scores;
- a second phone seeing every change within a second, and a hand added with ``match add`` from
  the command line appearing on both;
- the page refused without the key, with a page saying what to do;
- two phones confirming the same hand at once: one hand added, the other told it was just
  added and not offered to add it again; a different hand kept to send again;
- a name with HTML in it shown as text.

After every step the numbers on the page (the standings, each hand's scores) are checked against
``match show LEDGER --format json``. ``GONGZHU_UPDATE_SCREENSHOTS=1`` also writes the pictures
docs/web-standings.png, docs/web-entry.png and docs/web-explain.png from these very pages.
The evening of a folder's matches, light and dark, is tests/test_web_evening.py.

They are the browser suite (``pytest -m browser``: Playwright, the test-browser extra, and
Chromium, which ``.ci/run`` installs): without them they are skipped, naming what to install,
and under ``CI=true`` they fail (tests/conftest.py).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from clitools import ROOT
from phones import (
    PHONE,
    ZH,
    Phone,
    agrees,
    browser,
    cli,
    confirm,
    everyone_sees,
    new_ledger,
    open_confirm,
    open_tab,
    phones,
    shown,
    shows_now,
    tap_hand,
    version,
)
from serving import serving

from gongzhu_score.match.actions import read_hand
from gongzhu_score.render.explain import explanation

if TYPE_CHECKING:
    from playwright.sync_api import Browser

SCREENSHOTS = os.environ.get("GONGZHU_UPDATE_SCREENSHOTS") == "1"
NOW = {"GONGZHU_NOW": "2026-11-20T20:30:00+08:00"}  # the same pictures every run

pytestmark = pytest.mark.browser
__all__ = ["browser", "phones"]  # (the fixtures, from tests/phones.py)


def screenshot(phone: Phone, name: str) -> None:
    if SCREENSHOTS:
        from playwright.sync_api import expect

        expect(phone("said")).to_be_hidden(timeout=6000)  # (the passing message gone)
        phone.page.screenshot(path=str(ROOT / "docs" / f"web-{name}.png"))


# --- the tests ----------------------------------------------------------------------------------


def test_the_page_is_refused_without_the_key(tmp_path: Path, browser: Browser) -> None:
    from playwright.sync_api import expect

    ledger = new_ledger(tmp_path)
    with serving(str(ledger), "--lang", "zh") as served:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        answer = page.goto(served.base + "/")
        assert answer is not None and answer.status == 401
        expect(page.locator("h1")).to_have_text(ZH["key.title"])  # what to do, in Chinese
        expect(page.locator("main")).to_contain_text("二维码")
        answer = page.goto(served.base + "/?key=" + "x" * len(served.key))
        assert answer is not None and answer.status == 403
        expect(page.locator("main")).to_contain_text("密钥不对")
        assert page.get_by_test_id("standings").count() == 0  # no page, no names
        answer = page.goto(served.url + "&lang=en")  # (and the page in English, when asked)
        assert answer is not None and answer.status == 200
        expect(page.get_by_test_id("tab-entry")).to_have_text("Enter a hand")
        expect(page.get_by_test_id("standings-title")).to_contain_text("Raw totals")
        context.close()


def test_a_whole_match_tapped_in_on_a_phone_in_chinese(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = new_ledger(tmp_path)
    with serving(str(ledger), "--lang", "zh", env=NOW) as served:
        a, b = phones(served.url), phones(served.url)  # two phones at the table
        agrees(a, ledger)
        agrees(b, ledger)
        expect(a("tab-entry")).to_have_text("记一局")

        # Hand 1, tap by tap: the running raw scores come from the server as the cards go.
        a.tap("tab-entry", "pick-0", "card-QS-0")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        expect(a("preview-raw-0")).to_have_text("-100")
        a.tap("pick-1", "card-QS-0")  # 东 has it: not given twice, and the page says who has it
        expect(a("said")).to_contain_text("黑桃Q在东那里")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        a.tap("card-AH-0", "card-KH-0", "card-10H-0")
        expect(a("card-10H-0")).to_have_attribute("data-holder", "南")
        a.tap("card-10H-0")  # tapped again: taken back
        expect(a("card-10H-0")).to_have_attribute("data-holder", "")
        expect(a("missing")).to_contain_text("还差")
        expect(a("missing")).to_contain_text("J♦")
        expect(a("confirm")).to_be_disabled()  # cards still missing
        a.tap("pick-3", "rest")  # 北 takes the rest
        expect(a("rest-is")).to_have_text("剩下的归北")
        expect(a("card-10H-0")).to_have_attribute("data-rest", "1")
        expect(a("missing")).to_have_text(ZH["entry.all_in"])
        a.tap("expose-QS-0-0")  # 东 exposed the pig (亮牌): doubled
        expect(a("preview-raw-0")).to_have_text("-200")
        raws = confirm(a, "把这一局记为第 1 局？")
        everyone_sees(ledger, a, b)
        assert [str(r) for r in shown(ledger)["hands"][0]["raw"]] == raws

        # Hand 2: 南 took the pig, which they had shown as their first card (首明: ×4).
        tap_hand(a, {1: "QS JH", 2: "10H"}, rest=0, exposed=(("QS", 1),), first=("QS",))
        expect(a("first-QS-0")).to_have_attribute("aria-pressed", "true")
        raws = confirm(a, "把这一局记为第 2 局？")
        everyone_sees(ledger, a, b)
        assert [str(r) for r in shown(ledger)["hands"][1]["raw"]] == raws

        # Hand 3 takes 南 past the end line: the pig and the transformer, 10♣ and A♥ exposed.
        tap_hand(a, {1: "QS 10C AH", 2: "JD"}, rest=0, exposed=(("AH", 3), ("10C", 2)))
        a("note").fill("南当猪")
        a.page.evaluate("window.scrollTo(0, 0)")  # (the picture: the players and the cards)
        screenshot(a, "entry")
        raws = confirm(a, "把这一局记为第 3 局？")
        everyone_sees(ledger, a, b)
        data = shown(ledger)
        assert [str(r) for r in data["hands"][2]["raw"]] == raws
        assert data["ended"] and data["loser"] == "南"
        for phone in (a, b):
            expect(phone("player-3")).to_have_class(re.compile(r"\bpast\b"))  # last, past the end
            expect(phone("player-3")).to_have_attribute("data-seat", "1")
            expect(phone("status")).to_contain_text("南 当猪")
            expect(phone("end-line")).to_have_count(1)
            expect(phone("hand-note-3")).to_have_text("南当猪")
        screenshot(a, "standings")
        a.tap("tab-rules")  # the rules in force, in words: no rules-file key, no True
        expect(a("rules-line")).to_contain_text("一副牌规则")  # (the title, never a key)
        assert "classic" not in a("rules-line").inner_text()
        expect(a("rule-match_end")).to_have_text("终局线")
        rules = a("rules").inner_text()
        assert "-1000" in rules and "是" in rules
        assert not re.search(r"True|False|None|heart_values|[a-z]+_[a-z]+", rules), rules
        a.tap("tab-entry")  # the match is over: nothing to tap, and the way to the next
        expect(a("over")).to_be_visible()
        expect(a("entry-body")).to_be_hidden()
        expect(a("dock")).to_be_hidden()

        # Any hand, explained step by step: the engine's explanation, with rules as players
        # say them (no rules-file keys).
        a.tap("tab-hands", "hand-row-3")
        expect(a("hand-detail")).to_contain_text("第 3 局")
        a.page.locator("details").first.locator("summary").tap()
        _, _, result = read_hand(str(ledger), 3)
        parts = explanation(result, "zh", spoken=True)
        shown_text = a("hand-explain").inner_text()
        for heading, steps in parts.players:
            assert heading in shown_text
            for step in steps:
                assert step in shown_text, step
        for line in parts.finals:
            assert line in shown_text, line
        assert not re.search(r"heart_values|transformer_alone|normalize ", shown_text)
        screenshot(a, "explain")
        agrees(a, ledger)

        # The smallest phones (320 px): the page still fits, each card face a finger wide.
        small = phones(served.url)
        small.page.set_viewport_size({"width": 320, "height": 640})
        agrees(small, ledger)
        small.tap("tab-hands", "hand-row-3")
        expect(small("hand-detail")).to_contain_text("第 3 局")
        agrees(small, ledger)


def test_edit_remove_undo_and_the_command_line_live_on_both_phones(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = new_ledger(tmp_path, "东,<b>x</b>,西,北")
    with serving(str(ledger), "--lang", "zh") as served:
        a, b = phones(served.url), phones(served.url)
        b.tap("tab-hands")  # (the second phone looks at the hands: they change live there too)

        # Two hands from the command line, on the same ledger: both phones show them.
        cli("match", "add", str(ledger), "-c", "东=QS", "-c", "<b>x</b>=AH", "-c", "西=",
            "--rest", "北")  # fmt: skip
        everyone_sees(ledger, a, b)
        cli("match", "add", str(ledger), "-c", "东=", "-c", "<b>x</b>=JD", "-c", "西=QS KH",
            "--rest", "北")  # fmt: skip
        everyone_sees(ledger, a, b)

        # A name with HTML in it is text, wherever it is shown.
        for phone in (a, b):
            expect(phone.page.locator(".standings .name", has_text="<b>x</b>")).to_have_count(1)
            expect(phone("hands-table").locator("th").nth(2)).to_have_text("<b>x</b>")
            assert phone.page.locator("b", has_text="x").count() == 0
        expect(a("pick-1")).to_contain_text("<b>x</b>")

        # Hand 3 tapped in on the first phone.
        tap_hand(a, {2: "QS"}, rest=0)
        confirm(a, "把这一局记为第 3 局？")
        everyone_sees(ledger, a, b)

        # Edit hand 2: the pig was 东's, not 西's. The dialog shows the scores before and after.
        a.tap("tab-hands", "hand-row-2", "hand-edit")
        expect(a("editing-text")).to_have_text("正在修改第 2 局")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "西")
        expect(a("card-JD-0")).to_have_attribute("data-holder", "<b>x</b>")
        expect(a("card-AH-0")).to_have_attribute("data-rest", "1")  # "the rest to 北" kept
        a.tap("pick-2", "card-QS-0")  # taken back from 西: it goes with the rest, to 北
        expect(a("card-QS-0")).to_have_attribute("data-holder", "北")
        expect(a("card-QS-0")).to_have_attribute("data-rest", "1")
        expect(a("missing")).to_have_text(ZH["entry.all_in"])
        a.tap("pick-0", "card-QS-0")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        before = shown(ledger)["hands"][1]["raw"]
        open_confirm(a, "用这一局替换第 2 局？")
        expect(a("dialog-body").locator(".before b")).to_have_text([str(r) for r in before])
        a.tap("dialog-yes")
        everyone_sees(ledger, a, b)
        edited = json.loads(cli("match", "show", str(ledger), "2", "--format", "json"))
        assert edited["players"][0]["captured"] == ["QS"]
        assert edited["players"][2]["captured"] == ["KH"]

        # Remove hand 1, after the dialog shows it.
        a.tap("hand-row-1", "hand-remove")
        expect(a("dialog-title")).to_have_text(ZH["ask.remove"].format(number=1))
        hand1 = shown(ledger)["hands"][0]
        expect(a("dialog-body").locator("[data-testid^=detail-raw-]")).to_have_text(
            [str(r) for r in hand1["raw"]]
        )  # (what is removed is shown, scores and all)
        a.tap("dialog-yes")
        everyone_sees(ledger, a, b)
        assert len(shown(ledger)["hands"]) == 2

        # Undo the last hand: cancelled first (nothing changes), then done.
        seen = version(ledger)
        a.tap("tab-entry", "undo")
        expect(a("dialog-title")).to_have_text("撤销最后一局（第 2 局）？")
        last = shown(ledger)["hands"][1]
        expect(a("dialog-body").locator("[data-testid^=detail-final-]")).to_have_text(
            [str(f) for f in last["final"]]
        )
        a.tap("dialog-no")
        expect(a("dialog")).to_be_hidden()
        assert version(ledger) == seen
        a.tap("undo", "dialog-yes")
        everyone_sees(ledger, a, b)
        assert len(shown(ledger)["hands"]) == 1

        # And the command line again, after the page's changes.
        cli("match", "add", str(ledger), "-c", "东=", "-c", "<b>x</b>=", "-c", "西=QS",
            "--rest", "北")  # fmt: skip
        everyone_sees(ledger, a, b)

        # This phone's own undo while it enters a hand is no other phone's change: no 409.
        a.tap("tab-entry", "pick-0", "card-QS-0", "undo", "dialog-yes")
        everyone_sees(ledger, a, b)
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")  # the taps are kept
        a.tap("pick-1", "rest")
        confirm(a, "把这一局记为第 2 局？")
        everyone_sees(ledger, a, b)
        expect(a("notice")).to_be_hidden()
        assert shown(ledger)["hands"][1]["raw"][0] == -100


def test_two_phones_confirming_the_same_hand_at_once_add_it_once(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = new_ledger(tmp_path)
    with serving(str(ledger), "--lang", "zh") as served:
        a, b = phones(served.url), phones(served.url)
        for phone in (a, b):  # both enter the same hand, and both open the confirmation
            tap_hand(phone, {0: "QS AH"}, rest=1, exposed=(("AH", 2),))
            open_confirm(phone, "把这一局记为第 1 局？")
        clicks = [
            phone.page.evaluate_handle(
                "() => document.querySelector('[data-testid=dialog-yes]').click()"
            )
            for phone in (a, b)
        ]  # (both sent before either answer is back)
        assert len(clicks) == 2
        for phone in (a, b):
            shows_now(phone, ledger)
        assert len(shown(ledger)["hands"]) == 1  # exactly one hand added

        told = [phone for phone in (a, b) if phone("notice").is_visible()]
        assert len(told) == 1, "exactly one phone is told another got there first"
        loser = told[0]
        # The very same hand: said so, and not offered again (the entry is cleared).
        expect(loser("notice-text")).to_have_text(ZH["conflict.same"].format(number=1))
        hand1 = shown(ledger)["hands"][0]
        expect(loser("notice-hand").locator("[data-testid^=detail-raw-]")).to_have_text(
            [str(r) for r in hand1["raw"]]
        )
        expect(loser("notice-kept")).to_be_hidden()
        expect(loser("discard")).to_be_hidden()
        expect(loser("card-QS-0")).to_have_attribute("data-holder", "")
        expect(loser("confirm")).to_be_disabled()
        # (the browser logs the refused request: it was the expected answer, not a fault)
        assert [e for e in loser.errors if "409" in e], loser.errors
        loser.errors[:] = [e for e in loser.errors if "409" not in e]
        loser.tap("notice-close")
        for phone in (a, b):
            agrees(phone, ledger)

        # Another hand typed at the terminal meanwhile: this phone's own entry is kept.
        tap_hand(a, {0: "QS"}, rest=2)
        cli("match", "add", str(ledger), "-c", "东=", "-c", "南=QS", "-c", "西=", "--rest", "北")
        shows_now(a, ledger, timeout=1500)
        confirm(a, "把这一局记为第 3 局？")
        expect(a("notice-text")).to_have_text(ZH["conflict"])
        expect(a("notice-kept")).to_be_visible()
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        a.errors[:] = [e for e in a.errors if "409" not in e]
        a.tap("discard")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "")
        assert len(shown(ledger)["hands"]) == 2


def test_two_decks_show_each_copy_and_ask_who_took_the_first_pig(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = tmp_path / "两副牌.yaml"
    cli("match", "new", str(ledger), "--players", "东,南,西,北", "--variant", "two-deck")
    with serving(str(ledger), "--lang", "zh") as served:
        a = phones(served.url)
        open_tab(a, "entry")
        expect(a.page.locator(".face")).to_have_count(32)  # every scoring card twice
        expect(a("first-pig")).to_be_hidden()
        a.tap("pick-0", "card-QS-0", "card-QS-1", "card-QS-0")  # both pigs, then one back
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        expect(a("card-QS-1")).to_have_attribute("data-holder", "")
        a.tap("pick-1", "card-QS-1", "pick-2", "rest")
        expect(a("first-pig")).to_be_visible()  # two players took a pig: who took the first?
        expect(a("first-QS-0")).to_have_count(0)  # no 首明 under these rules
        expect(a("confirm")).to_be_disabled()
        a.tap("first-pig-1")
        confirm(a, "把这一局记为第 1 局？")
        data = agrees(a, ledger)
        assert data["hands"][0]["first_pig"] == "南"
        assert data["next_lead"] == ["南"]


def test_a_partners_match_under_island_asks_who_was_auto_played(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    plain = tmp_path / "平常.yaml"
    cli("match", "new", str(plain), "--players", "东,南,西,北", "--teams", "partners")
    with serving(str(plain), "--lang", "zh") as served:
        a = phones(served.url)
        open_tab(a, "entry")
        expect(a("auto-played")).to_be_hidden()  # the tournament regime: scored as usual
        a.context.close()  # (before its server stops: no reconnection left to fail)
    ledger = tmp_path / "岛屿.yaml"
    cli("match", "new", str(ledger), "--players", "东,南,西,北", "--teams", "partners",
        "--auto-play", "island")  # fmt: skip
    with serving(str(ledger), "--lang", "zh") as served:
        a = phones(served.url)
        open_tab(a, "entry")
        expect(a("auto-played")).to_be_visible()
        expect(a("auto-played")).to_contain_text("掉线后有人托管吗？")
        expect(a("last-card")).to_be_disabled()  # nobody auto-played yet
        a.tap("pick-0", "card-QS-0", "pick-1", "card-JD-0", "pick-3", "card-10C-0",
              "pick-2", "rest")  # fmt: skip
        a.tap("auto-played-0")  # 东, on the losing side 东+西
        expect(a("last-card")).to_be_enabled()
        confirm(a, "把这一局记为第 1 局？")
        data = agrees(a, ledger)
        assert data["hands"][0]["auto_played"] == "东"
        assert data["hands"][0]["final"] == [-50, 25, 0, 25]  # 东 bears the side's -50, 西 0
