"""Several tables, one evening, phones only (issue 57, "Done when"), in a real Chromium:

- two tables in one folder from four phones (320×640 and 390×844, light and dark), each phone
  reopening its page between hands (the address, a new tab): every phone stays on its table and
  no hand reaches the other table's ledger; a finished match's way on leads only to the match
  started from it; 再来一盘 from two phones at once starts one match;
- a partners 盤 of 4 hands under island 托管, started and played from a phone only: every
  number equals ``match show --format json``, the 托管 lines equal ``explain``'s, the dialog
  shows every exposure and who was auto-played, and exposed cards carry their mark;
- entry resumes by itself within 5 s of a server restart, the half-entered hand intact;
- names that share a first character stay apart on every button at 320 px; one status line
  after the end; a checkbox is one target with its words; toasts cover no control; the
  language and the theme are switched on the page and remembered.

axe-core finds no serious or critical violation on every screen (tests/phones.py).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from phones import (
    SMALL,
    ZH,
    Phone,
    agrees,
    browser,
    cli,
    confirm,
    fits,
    open_tab,
    phones,
    shown,
    shows_now,
)
from serving import serving

pytestmark = pytest.mark.browser
__all__ = ["browser", "phones"]  # (the fixtures, from tests/phones.py)

NOW = {"GONGZHU_NOW": "2026-12-06T20:30:00+08:00"}


def every_screen_is_accessible(phone: Phone, name: str) -> None:
    for tab in ("standings", "entry", "hands", "rules", "matches"):
        phone.tap(f"tab-{tab}")
        phone.accessible(f"{name}: {tab}")
        fits(phone)
    phone.tap("tab-standings")


def start_table(phone: Phone, title: str, names: list[str], *more: tuple[str, str]) -> str:
    """The start form, filled and sent: the table's name, the four players, then
    ``(testid, value)`` pairs (a select's value, or a box's text); the new match's file name,
    once the phone shows it."""
    from playwright.sync_api import expect

    before = phone.page.evaluate("() => document.body.dataset.match || ''")
    if phone.page.locator("body[data-version]").count():  # (a match shown: to the form)
        open_tab(phone, "matches")
    expect(phone("new-match")).to_be_visible()
    phone("new-title").fill(title)
    for seat, name in enumerate(names):
        phone(f"new-player-{seat}").fill(name)
    for testid, value in more:
        if phone(testid).evaluate("(e) => e.tagName") == "SELECT":
            phone(testid).select_option(value)
        else:
            phone(testid).fill(value)
    phone.tap("new-start")
    phone.page.wait_for_function(
        "(before) => (document.body.dataset.match || '') !== before", arg=before
    )
    return str(phone.page.evaluate("() => document.body.dataset.match"))


def reopen(phone: Phone, url: str) -> None:
    """The phone opens the page again as a person does: the address the laptop printed (no
    match in it), then in a new tab too; the old tab is closed."""
    phone.page.goto(url)
    phone.page.wait_for_function("() => document.body.dataset.version !== undefined")
    fresh = phone.context.new_page()
    fresh.on("pageerror", lambda e: phone.errors.append(f"page error: {e}"))
    fresh.goto(url)
    fresh.wait_for_function("() => document.body.dataset.version !== undefined")
    phone.page.close()
    phone.page = fresh


def hands_of(ledger: Path) -> list[list[object]]:
    return [h["raw"] for h in shown(ledger)["hands"]]


def test_two_tables_from_four_phones_stay_apart(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    from playwright.sync_api import expect

    folder = tmp_path / "club"
    folder.mkdir()
    with serving(str(folder), "--lang", "zh", env=NOW) as served:
        a1 = phones(served.url, **SMALL, color_scheme="light")
        one = folder / start_table(a1, "一号桌", ["王小明", "王小红", "张三", "李四"],
                                   ("new-hands", "2"))  # fmt: skip
        expect(a1("ledger")).to_have_text("一号桌")
        assert shown(one)["title"] == "一号桌" and shown(one)["last_hand"] == 2

        b1 = phones(served.url, color_scheme="dark")  # opens the current match: table 1
        shows_now(b1, one)
        two = folder / start_table(b1, "二号桌", ["甲", "乙", "丙", "丁"])
        expect(b1("ledger")).to_have_text("二号桌")
        assert two != one

        a2 = phones(served.url, **SMALL, color_scheme="dark")  # the current one now: table 2
        shows_now(a2, two)
        a2.tap("tab-matches")
        a2.tap(f"match-{one.name}")  # a2 sits at table 1
        shows_now(a2, one)
        b2 = phones(served.url, color_scheme="light")
        shows_now(b2, two)
        for phone in (a1, a2, b1, b2):
            phone.accessible("a table")
        # The matches tab groups the evening by table, and shows no file's name.
        a1.tap("tab-matches")
        expect(a1("matches")).to_contain_text("一号桌")
        expect(a1("matches")).to_contain_text("二号桌")
        assert ".yaml" not in a1("panel-matches").inner_text()

        # Hands at both tables, each phone reopening its page before it enters one.
        for ledger, phone, seat in [(one, a1, 0), (two, b2, 1), (one, a2, 2), (two, b1, 3)]:
            reopen(phone, served.url)
            shows_now(phone, ledger)  # back at its own table, not the folder's newest match
            phone.tap("tab-entry", f"pick-{seat}", "card-QS-0", f"pick-{(seat + 1) % 4}", "rest")
            confirm(phone, f"把这一局记为第 {len(hands_of(ledger)) + 1} 局？")
            shows_now(phone, ledger, timeout=3000)
            agrees(phone, ledger)
        assert len(hands_of(one)) == 2 and len(hands_of(two)) == 2
        assert [h["pig"] for h in shown(one)["hands"]] == [["王小明"], ["张三"]]
        assert [h["pig"] for h in shown(two)["hands"]] == [["乙"], ["丁"]]

        # Table 1 is over (a 盤 of 2). Table 2 starts its next match: no way on for table 1.
        b1.tap("tab-matches")
        start_table(b1, "二号桌", ["甲", "乙", "丙", "丁"])
        for phone in (a1, a2):
            shows_now(phone, one)
            phone.tap("tab-standings")
            expect(phone("ended")).to_be_visible()
            expect(phone("again")).to_be_visible()
            expect(phone("next-match")).to_be_hidden()
            # One status line after the end: the ended box holds only the ways on.
            assert phone("ended").inner_text().strip() == phone("again").inner_text().strip()

        # 再来一盘 from both table-1 phones at once: one match, both on it.
        a1.tap("again")
        a2.tap("again")
        a1("dialog-yes").wait_for()
        a2("dialog-yes").wait_for()
        # Both confirmed before either answer is back (the clicks are sent, not awaited).
        a1.page.evaluate("() => document.querySelector('[data-testid=dialog-yes]').click()")
        a2.page.evaluate("() => document.querySelector('[data-testid=dialog-yes]').click()")
        for phone in (a1, a2):
            expect(phone.page.locator("body")).not_to_have_attribute("data-match", one.name)
        next_one = folder / str(a1.page.locator("body").get_attribute("data-match"))
        assert a2.page.locator("body").get_attribute("data-match") == next_one.name
        assert shown(next_one)["follows"] == one.name and shown(next_one)["title"] == "一号桌"
        followers = [p for p in folder.glob("*.yaml") if shown(p).get("follows") == one.name]
        assert followers == [next_one]
        reopen(a1, served.url)
        shows_now(a1, next_one)


def test_a_partners_pan_of_four_under_island_from_a_phone_only(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    from playwright.sync_api import expect

    folder = tmp_path / "club"
    folder.mkdir()
    with serving(str(folder), "--lang", "zh", env=NOW) as served:
        a = phones(served.url, **SMALL)
        a("new-teams").select_option("partners")
        expect(a("new-auto-label")).to_be_visible()
        expect(a("seating-said")).to_contain_text("对家")
        ledger = folder / start_table(a, "决赛", ["东家", "南家", "西家", "北家"],
                                      ("new-teams", "partners"), ("new-end", "800"),
                                      ("new-hands", "4"), ("new-auto", "island"))  # fmt: skip
        data = shown(ledger)
        assert (data["teams"], data["end_at"], data["last_hand"], data["auto_play"]) == (
            "partners", -800, 4, "island")  # fmt: skip
        expect(a("end-at")).to_have_text(ZH["standings.end_at_team"].format(low=-800, high="+800"))
        a.tap("tab-rules")
        expect(a("rule-auto_play")).to_be_visible()
        expect(a("rules")).to_contain_text("岛屿制")
        assert "partners" not in a("panel-rules").inner_text()

        hands = [  # (cards by seat, the rest, exposures, who was 托管)
            ({0: "QS", 1: "JD"}, 2, [("QS", 0)], 0),
            ({1: "QS", 3: "10C"}, 0, [("AH", 2)], 1),
            ({2: "QS"}, 3, [], None),
            ({3: "QS", 0: "JD"}, 1, [("JD", 1)], 3),
        ]
        for number, (cards, rest, exposed, auto) in enumerate(hands, 1):
            a.tap("tab-entry")
            for seat, codes in cards.items():
                a.tap(f"pick-{seat}", *(f"card-{c}-0" for c in codes.split()))
            a.tap(f"pick-{rest}", "rest")
            for code, seat in exposed:
                a.tap(f"expose-{code}-0-{seat}")
                expect(a(f"mark-{code}-0")).to_have_text(ZH["face.exposed"])
            if auto is not None:
                a.tap(f"auto-played-{auto}")
            a.tap("confirm")
            expect(a("dialog")).to_be_visible()
            said = a("ask-more").inner_text()
            for code, seat in exposed:  # the last look shows every exposure, and by whom
                name, symbol = data["players"][seat], {"QS": "Q♠", "JD": "J♦", "AH": "A♥"}[code]
                assert ZH["ask.exposed_by"].format(card=symbol, name=name) in said
            if auto is None:
                assert ZH["ask.no_auto"] in said
            else:
                assert ZH["ask.auto"].format(name=data["players"][auto]) in said
            a.accessible(f"hand {number}: the dialog")
            a.tap("dialog-yes")
            shows_now(a, ledger, timeout=3000)
            agrees(a, ledger)
        data = shown(ledger)
        assert data["ended"] and data["ended_after"] == 4

        # Each hand with 托管: the hands table names it, its detail tags the player, its
        # explanation ends with explain's own lines.
        for number, (_, _, _, auto) in enumerate(hands, 1):
            if auto is None:
                continue
            a.tap("tab-hands")
            expect(a(f"hand-auto-{number}")).to_contain_text(data["players"][auto])
            a.tap(f"hand-row-{number}")
            expect(a(f"detail-auto-{auto}")).to_be_visible()
            a("hand-detail").locator("summary").tap()
            cli_text = cli("explain", str(ledger), str(number), "--lang", "zh")
            lines = a("hand-explain-auto").inner_text().strip().splitlines()
            assert lines and all(line in cli_text for line in lines if line.strip())
            a.accessible(f"hand {number}: its explanation")
            a.tap(f"hand-row-{number}")
        every_screen_is_accessible(a, "partners 盤 at 320")
        # The status line names each partner's own total.
        status = a("status").inner_text()
        loser = data["loser_side"]
        for name in loser:
            seat = data["players"].index(name)
            assert f"{name} {data['totals']['final'][seat]}" in status


def test_entry_resumes_by_itself_after_the_server_restarts(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = tmp_path / "m.yaml"
    cli("match", "new", str(ledger), "--players", "东,南,西,北")
    with serving(str(ledger), "--lang", "zh") as served:
        port = served.base.rsplit(":", 1)[1]
        a = phones(served.url)
        a.tap("tab-entry", "pick-0", "card-QS-0", "pick-1", "card-JD-0", "pick-2", "rest")
        expect(a("confirm")).to_be_enabled()
        raws = [a(f"preview-raw-{seat}").inner_text() for seat in range(4)]
        served.process.send_signal(signal.SIGINT)
        served.process.wait(timeout=20)
        a.tap("pick-3", "card-10C-0")  # a tap while the server is gone: said, kept
        expect(a("offline")).to_be_visible(timeout=5000)
        expect(a("confirm")).to_be_disabled()
    with serving(str(ledger), "--lang", "zh", "--port", port) as again:
        assert again.base.endswith(f":{port}")
        started = time.monotonic()
        expect(a("offline")).to_be_hidden(timeout=5000)
        expect(a("confirm")).to_be_enabled(timeout=5000)
        assert time.monotonic() - started < 5
        assert a("preview-raw-0").inner_text() == raws[0]  # (the hand as it was, 10♣ too)
        expect(a("card-10C-0")).to_have_attribute("data-holder", "北")
        confirm(a, "把这一局记为第 1 局？")
        shows_now(a, ledger, timeout=3000)
        assert [h["pig"] for h in shown(ledger)["hands"]] == [["东"]]
        gone = ("ERR_CONNECTION_REFUSED", "Failed to fetch", "ERR_INCOMPLETE_CHUNKED_ENCODING")
        a.errors[:] = [e for e in a.errors if not any(g in e for g in gone)]


def test_names_stay_apart_at_320_and_the_page_is_comfortable(
    tmp_path: Path, phones: Callable[..., Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = tmp_path / "m.yaml"
    names = ["王小明", "王小红", "欧阳娜娜", "Bartholomew"]
    cli("match", "new", str(ledger), "--players", ",".join(names), "--teams", "partners",
        "--auto-play", "island")  # fmt: skip
    with serving(str(ledger), "--lang", "zh") as served:
        a = phones(served.url, **SMALL)
        open_tab(a, "entry")
        a.tap("pick-0", "card-QS-0", "pick-1", "card-JD-0", "pick-2", "rest")
        # Every button that names a player shows the whole name, nothing cut off.
        buttons = a.page.evaluate(
            "() => Array.from(document.querySelectorAll('[data-testid^=pick-], [data-testid^=expose-],"
            " [data-testid^=auto-played-]')).filter((b) => b.offsetParent !== null)"
            ".map((b) => [b.dataset.testid, b.innerText.trim(), b.scrollWidth <= b.clientWidth + 1])"
        )
        for testid, text, whole in buttons:
            assert whole, (testid, text)
            if testid.startswith("pick-") or testid.endswith(("-0", "-1", "-2", "-3")):
                assert text in names or text in ("无", "没有") or text.endswith(names), (
                    testid,
                    text,
                )
        shown_names = {t for _, t, _ in buttons}
        assert {"王小明", "王小红"} <= shown_names
        holders = [a(f"card-{c}-0").locator(".who").inner_text() for c in ("QS", "JD")]
        assert holders == ["王小明", "王小红"]  # (a card face: the shortest start that differs)

        # The checkbox and its words are one target: a tap on the words ticks it.
        a.tap("auto-played-0")
        a.page.locator("label.last-card span").tap()
        expect(a("last-card")).to_be_checked()
        box = a("last-card").bounding_box()
        label = a.page.locator("label.last-card").bounding_box()
        assert (
            box
            and label
            and label["y"] <= box["y"]
            and box["y"] + box["height"] <= label["y"] + label["height"] + 1
        )

        # A toast covers no control.
        a.tap("pick-1", "card-QS-0")  # (not 王小红's: the page says whose it is)
        expect(a("said")).to_be_visible()
        said = a("said").bounding_box()
        controls = a.page.evaluate(
            "() => Array.from(document.querySelectorAll('button, input, select, summary'))"
            ".filter((e) => e.offsetParent !== null).map((e) => { const r = e.getBoundingClientRect();"
            " return [e.dataset.testid || e.textContent, r.x, r.y, r.width, r.height]; })"
        )
        assert said is not None
        for name, x, y, w, h in controls:
            apart = (x + w <= said["x"] or said["x"] + said["width"] <= x
                     or y + h <= said["y"] or said["y"] + said["height"] <= y)  # fmt: skip
            assert apart, name

        # The language and the theme, chosen on the page and kept on the phone.
        a.tap("tab-matches")
        a("lang").select_option("en")
        a.page.wait_for_function("() => document.documentElement.lang === 'en'")
        expect(a("tab-entry")).to_have_text("Enter a hand")
        a("theme").select_option("dark")
        expect(a.page.locator("html")).to_have_attribute("data-theme", "dark")
        a.page.goto(served.url)  # the printed address: no language in it
        a.page.wait_for_function("() => document.documentElement.lang === 'en'")
        expect(a.page.locator("html")).to_have_attribute("data-theme", "dark")
        expect(a("tab-entry")).to_have_text("Enter a hand")
        a.accessible("dark, in English, switched on the page")
        a.tap("tab-matches")
        a("lang").select_option("zh-Hant")
        a.page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
        expect(a("tab-entry")).to_have_text("記一局")
        a.accessible("繁體")
