"""An evening of two matches in one folder, done from phones only (issue 34, "Done when"):
``serve FOLDER`` on an empty folder; the first match started and named on a phone (320×640,
light), a second phone live (390×844, dark); hands tapped in with the 全红 and 满贯 shortcuts
to the end; the second match by 再来一盘 and the second phone led to it; a player renamed.

After every change every screen's numbers are those of ``match show --format json``
(tests/phones.py: ``agrees``), and axe-core finds no serious or critical violation on any
screen, light or dark. The manifest parses and its icons load; with the server stopped, the
service worker still shows the last standings, read-only, under a banner saying so.
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from phones import (
    SMALL,
    ZH,
    Phone,
    agrees,
    browser,
    confirm,
    everyone_sees,
    fits,
    open_confirm,
    phones,
    shown,
    shows_now,
)
from serving import serving

pytestmark = pytest.mark.browser
__all__ = ["browser", "phones"]  # (the fixtures, from tests/phones.py)

NOW = {"GONGZHU_NOW": "2026-11-20T20:30:00+08:00"}  # 再来一盘 names the match by this date


def every_screen_is_accessible(phone: Phone, name: str) -> None:
    """axe-core on each tab, a hand's detail and explanation open, and a dialog open."""
    for tab in ("standings", "entry", "hands", "rules", "matches"):
        phone.tap(f"tab-{tab}")
        if tab == "hands" and phone.page.get_by_test_id("hand-row-1").count():
            phone.tap("hand-row-1")
            phone("hand-detail").locator("summary").tap()
            phone("hand-explain").wait_for()
        phone.accessible(f"{name}: {tab}")
        fits(phone)
    phone.tap("tab-entry")
    if phone("undo").is_visible() and phone("undo").is_enabled():
        phone.tap("undo")
        phone("dialog").wait_for()
        phone.accessible(f"{name}: the undo dialog")
        phone.tap("dialog-no")
    phone.tap("tab-standings")


def test_an_evening_of_two_matches_from_phones_only(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    from playwright.sync_api import expect

    folder = tmp_path / "俱乐部"
    folder.mkdir()
    with serving(str(folder), "--lang", "zh", env=NOW) as served:
        # An empty folder: the page offers to start a match, and nothing else.
        a = phones(served.url, **SMALL, color_scheme="light")
        expect(a("panel-matches")).to_be_visible()
        expect(a("new-match")).to_be_visible()
        a.accessible("no match yet")
        for seat, name in enumerate(["老王", "小李", "阿张", "大刘"]):
            a(f"new-player-{seat}").fill(name)
        a("new-end").fill("300")  # (a distance: it ends at -300)
        a("new-title").fill("周五")
        a.tap("new-start")
        first = folder / "2026-11-20.yaml"
        expect(a.page.locator("body")).to_have_attribute("data-match", first.name)
        assert shown(first)["title"] == "周五"
        expect(a("ledger")).to_have_text("周五")  # (the table's name, never the file's)
        assert shown(first)["players"] == ["老王", "小李", "阿张", "大刘"]
        assert shown(first)["end_at"] == -300
        expect(a("panel-entry")).to_be_visible()

        # A second phone opens the same address: the current match, live.
        b = phones(served.url, color_scheme="dark")
        agrees(b, first)
        agrees(a, first)

        # Hand 1: 满贯 (every scoring card) to 大刘, by the shortcut.
        a.tap("pick-3", "grand-slam")
        expect(a("missing")).to_have_text(ZH["entry.all_in"])
        confirm(a, "把这一局记为第 1 局？")
        everyone_sees(first, a, b)

        # Hand 2: 全红 to 小李, the pig to 老王, exposed, the rest to 阿张.
        a.tap("tab-entry", "pick-1", "full-red")
        expect(a("card-AH-0")).to_have_attribute("data-holder", "小李")
        expect(a("card-2H-0")).to_have_attribute("data-holder", "小李")
        a.tap("pick-0", "card-QS-0", "expose-QS-0-0", "pick-2", "rest")
        a.accessible("entering a hand")
        confirm(a, "把这一局记为第 2 局？")
        everyone_sees(first, a, b)

        # Hand 3 on the dark phone ends the match: 老王 past −300.
        b.tap("tab-entry", "pick-0", "card-QS-0", "pick-2", "rest")
        b.accessible("entering a hand, dark")
        confirm(b, "把这一局记为第 3 局？")
        everyone_sees(first, a, b)
        data = shown(first)
        assert data["ended"] and data["loser"] == "老王"
        every_screen_is_accessible(a, "320 light")
        every_screen_is_accessible(b, "390 dark")

        # Over: read-only, and 再来一盘 starts the next with the same players and rules.
        for phone in (a, b):
            phone.tap("tab-entry")
            expect(phone("over")).to_be_visible()
            expect(phone("dock")).to_be_hidden()
            phone.tap("tab-standings")
            expect(phone("ended")).to_be_visible()
        a.tap("again")
        expect(a("dialog-title")).to_have_text(ZH["ask.again"])
        a.tap("dialog-yes")
        second = folder / "2026-11-20-2.yaml"
        expect(a.page.locator("body")).to_have_attribute("data-match", second.name)
        data = shown(second)
        assert data["players"] == ["老王", "小李", "阿张", "大刘"] and data["end_at"] == -300
        assert data["hands"] == [] and data["title"] == "周五" and data["follows"] == first.name
        agrees(a, second)

        # The second phone is shown the way to the next match, live, and follows it.
        expect(b("next-match")).to_be_visible(timeout=3000)
        expect(b("next-match")).to_have_text(ZH["matches.next"].format(name="周五"))
        b.tap("next-match")
        agrees(b, second)

        # A hand, then a rename, both seen on both phones.
        b.tap("tab-entry", "pick-1", "card-QS-0", "pick-3", "rest")
        confirm(b, "把这一局记为第 1 局？")
        everyone_sees(second, a, b)
        a.tap("tab-matches")
        expect(a(f"match-{first.name}")).to_contain_text("老王 当猪")
        a("rename-old").select_option("大刘")
        long = "刘哥Bartholomew_Featherstonehaugh_the_3rd"  # (no space to wrap at)
        a("rename-new").fill(long)
        a.tap("rename-go", "dialog-yes")
        everyone_sees(second, a, b)
        assert shown(second)["players"][3] == long
        assert shown(first)["players"][3] == "大刘"  # (the finished match is left as it was)
        every_screen_is_accessible(b, "390 dark, match 2")
        every_screen_is_accessible(a, "320 light, a long name")

        # The page is installable: its manifest parses, its icons load.
        manifest = a.page.evaluate(
            "async () => { const l = document.querySelector('link[rel=manifest]');"
            " const r = await fetch(l.href); return [r.headers.get('content-type'), await r.json()]; }"
        )
        kind, body = manifest
        assert kind.startswith("application/manifest+json")
        assert body["display"] == "standalone" and served.key in body["start_url"]
        sizes = {icon["sizes"] for icon in body["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in body["icons"]:
            status = a.page.evaluate("async (src) => (await fetch(src)).status", icon["src"])
            assert status == 200, icon

        # The service worker keeps the shell and the last standings.
        a.page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        a.page.reload()  # (now under the worker: the state it answers is kept as it goes)
        a.page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        shows_now(a, second)
        a.tap("tab-entry", "pick-0", "card-QS-0", "pick-2", "rest")  # a hand of this phone's own
        confirm(a, "把这一局记为第 2 局？")
        everyone_sees(second, a, b)
        last = agrees(a, second)
        served.process.send_signal(signal.SIGINT)
        served.process.wait(timeout=20)

        a.page.reload()  # the server is gone
        expect(a.page.locator("body")).to_have_attribute("data-kept", "1")
        assert len(last["hands"]) == 2  # (the hand this very phone added is in the kept copy)
        expect(a("offline")).to_be_visible()
        expect(a("offline")).to_have_text(ZH["offline.kept"])
        assert agrees(a, second) == last  # the last standings, every number
        a.tap("tab-entry")
        expect(a("over")).to_be_visible()  # read-only: nothing to enter, nothing to send
        expect(a("dock")).to_be_hidden()
        a.tap("tab-hands", "hand-row-1")
        expect(a("hand-detail")).to_contain_text("第 1 局")  # (its detail, as last seen)
        expect(a("hand-edit")).to_have_count(0)
        a.accessible("the kept copy")
        # (with the server gone the browser logs the requests it could not make, and the live
        # feeds cut short)
        gone = ("ERR_CONNECTION_REFUSED", "Failed to fetch", "ERR_INCOMPLETE_CHUNKED_ENCODING")
        for phone in (a, b):
            phone.errors[:] = [e for e in phone.errors if not any(g in e for g in gone)]


def test_the_dock_keeps_confirm_in_reach_on_the_smallest_phone(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    """At 320×640 the running scores and Confirm stay on screen wherever the entry is
    scrolled to; tap targets are at least 44 px high."""
    from phones import cli
    from playwright.sync_api import expect

    folder = tmp_path / "f"
    folder.mkdir()
    cli("match", "new", str(folder / "a.yaml"), "--players", "东,南,西,北")
    with serving(str(folder), "--lang", "zh") as served:
        a = phones(served.url, **SMALL)
        a.tap("tab-entry", "pick-0", "card-QS-0", "pick-1", "rest")
        for y in (0, 400, 10_000):
            a.page.evaluate(f"window.scrollTo(0, {y})")
            open_confirm(a, "把这一局记为第 1 局？")
            a.tap("dialog-no")
        small = a.page.evaluate(
            "() => Array.from(document.querySelectorAll('button, select, input, summary'))"
            ".filter((e) => e.offsetParent !== null)"
            ".map((e) => [e.dataset.testid || e.textContent, e.getBoundingClientRect().height])"
            ".filter(([, h]) => h < 44)"
        )
        assert not small, small
        faces = a.page.locator(".face").evaluate_all(
            "(fs) => fs.map((f) => f.getBoundingClientRect().width)"
        )
        assert len(faces) == 16 and min(faces) >= 44, faces
        expect(a("confirm")).to_be_enabled()

        # The hand being entered outlives a reload (or a tab the phone discarded).
        a.page.reload()
        a.tap("tab-entry")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        expect(a("card-AH-0")).to_have_attribute("data-rest", "1")
        expect(a("confirm")).to_be_enabled()


def test_the_standings_and_the_chart_are_shared_or_saved(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    """Where the browser has no share sheet (headless Chromium on Linux), the standings are saved
    as a text file and the chart as a PNG picture."""
    from phones import cli

    ledger = tmp_path / "a.yaml"
    cli("match", "new", str(ledger), "--players", "东,南,西,北")
    cli("match", "add", str(ledger), "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北")
    with serving(str(ledger), "--lang", "zh") as served:
        a = phones(served.url, accept_downloads=True)
        agrees(a, ledger)
        assert a.page.evaluate("() => typeof navigator.share") == "undefined"
        with a.page.expect_download() as got:
            a.tap("share-text")
        text = Path(got.value.path()).read_text("utf-8")
        assert got.value.suggested_filename == "a.txt"
        # (the match by its players, never its file's name: it has no title)
        assert "2. 南 0" in text and "4. 东 -100" in text and "东、南、西、北" in text
        assert "a.yaml" not in text
        with a.page.expect_download() as got:
            a.tap("share-chart")
        picture = Path(got.value.path()).read_bytes()
        assert got.value.suggested_filename == "a.png"
        assert picture.startswith(b"\x89PNG") and len(picture) > 2000
