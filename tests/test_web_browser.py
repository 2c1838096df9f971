"""The table's page in a real browser (issue 23, "Done when"): the system's Chromium, headless,
driven through Playwright on a phone's screen (390×844, touch), against a real
``gongzhu-score serve`` (tests/serving.py) on a ledger made with ``match new``:

- a whole short match tapped in, in Chinese, to its end (the rest button, exposures, 首明);
- an edit, a remove and an undo, each asked in the page's dialog first;
- a second phone seeing every change within a second, and a hand added with ``match add`` from
  the command line appearing on both;
- the page refused without the key;
- two phones confirming the same hand at once: one hand added, the loser told and shown it;
- a name with HTML in it shown as text.

After every step the numbers on the page (the totals, each hand's scores) are checked against
``match show LEDGER --format json``. ``GONGZHU_UPDATE_SCREENSHOTS=1`` also writes the pictures
docs/web-standings.png, docs/web-entry.png and docs/web-explain.png from these very pages.

They are the browser suite (``pytest -m browser``: Playwright, the test-browser extra, and
Chromium, which ``.ci/run`` installs): without them they are skipped, naming what to install,
and under ``CI=true`` they fail (tests/conftest.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from clitools import ROOT
from serving import CHROMIUM, command, serving

from gongzhu_score.web.words import page_words

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "locale": "zh-CN"}  # fmt: skip
LIVE_MS = 1500  # a change shows on every other phone within a second (and a half, for CI)
SCREENSHOTS = os.environ.get("GONGZHU_UPDATE_SCREENSHOTS") == "1"
NOW = {"GONGZHU_NOW": "2026-11-20T20:30:00+08:00"}  # the same pictures every run
ZH = page_words("zh")

pytestmark = pytest.mark.browser


# --- the browser, the server, the command line ----------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


class Phone:
    """One phone at the table: a browser context of its own, with the page open."""

    def __init__(self, browser: Browser, url: str) -> None:
        self.context = browser.new_context(**PHONE)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(url)

    def __call__(self, testid: str) -> Locator:
        return self.page.get_by_test_id(testid)

    def tap(self, *testids: str) -> None:
        for testid in testids:
            self(testid).tap()

    def texts(self) -> dict[str, str]:
        """Every element with a data-testid, and its text, at one moment."""
        return dict(self.page.evaluate(
            "() => Array.from(document.querySelectorAll('[data-testid]'),"
            " (e) => [e.dataset.testid, e.textContent])"
        ))  # fmt: skip


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[[str], Phone]]:
    opened: list[Phone] = []

    def open_phone(url: str) -> Phone:
        phone = Phone(browser, url)
        opened.append(phone)
        return phone

    yield open_phone
    errors = [e for phone in opened for e in phone.errors]
    for phone in opened:
        phone.context.close()
    assert not errors, errors  # no script error, no failed request, on any phone


def cli(*args: str) -> str:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def new_ledger(folder: Path, players: str = "东,南,西,北") -> Path:
    path = folder / "今晚.yaml"
    cli("match", "new", str(path), "--players", players)
    return path


def shown(ledger: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cli("match", "show", str(ledger), "--format", "json"))
    return data


def version(ledger: Path) -> str:
    return hashlib.sha256(ledger.read_bytes()).hexdigest()


# --- what the tests look at -------------------------------------------------------------------


def shows_now(phone: Phone, ledger: Path, timeout: float = 5000) -> None:
    """The phone shows the ledger as it is now on disk (within ``timeout`` ms)."""
    from playwright.sync_api import expect

    body = phone.page.locator("body")
    expect(body).to_have_attribute("data-version", version(ledger), timeout=timeout)


def agrees(phone: Phone, ledger: Path) -> dict[str, Any]:
    """The numbers on the page are those of ``match show LEDGER --format json``: every total,
    the distance to the end, and each hand's raw score and running raw total."""
    data = shown(ledger)
    shows_now(phone, ledger)
    texts = phone.texts()
    want: dict[str, str] = {}
    for seat, name in enumerate(data["players"]):
        want[f"name-{seat}"] = name
        want[f"total-raw-{seat}"] = str(data["totals"]["raw"][seat])
        want[f"total-final-{seat}"] = str(data["totals"]["final"][seat])
        want[f"to-go-{seat}"] = (
            ZH["standings.past_end"]
            if name in data["past_end"]
            else ZH["standings.to_go"].format(points=data["to_go"][seat])
        )
    for hand in data["hands"]:
        n = hand["hand"]
        want[f"hand-pig-{n}"] = " ".join(hand["pig"])
        for seat in range(4):
            want[f"hand-score-{n}-{seat}"] = str(hand["raw"][seat])
            want[f"hand-running-{n}-{seat}"] = str(hand["total_raw"][seat])
    assert {k: texts.get(k) for k in want} == want
    rows = sorted(k for k in texts if re.fullmatch(r"hand-row-\d+", k))
    assert len(rows) == len(data["hands"])
    wide = phone.page.evaluate("document.documentElement.scrollWidth")
    assert wide <= phone.page.viewport_size["width"]  # nothing runs off the phone's screen
    return data


def everyone_sees(ledger: Path, *phones: Phone) -> None:
    """Right after a change: every phone shows it within LIVE_MS, with the ledger's numbers."""
    for phone in phones:
        shows_now(phone, ledger, timeout=LIVE_MS)
    for phone in phones:
        agrees(phone, ledger)


def screenshot(phone: Phone, name: str) -> None:
    if SCREENSHOTS:
        from playwright.sync_api import expect

        expect(phone("said")).to_be_hidden(timeout=6000)  # (the passing message gone)
        phone.page.screenshot(path=str(ROOT / "docs" / f"web-{name}.png"))


# --- entering a hand by tapping ---------------------------------------------------------------


def tap_hand(
    phone: Phone,
    cards: dict[int, str],
    rest: int,
    exposed: tuple[tuple[str, int], ...] = (),
    first: tuple[str, ...] = (),
) -> None:
    """Tap a hand in: each seat's cards (picked, then each card tapped), the rest to ``rest``,
    each exposure ``(card, seat)``, the exposures that were 首明."""
    phone.tap("tab-entry")
    for seat, codes in cards.items():
        phone.tap(f"pick-{seat}", *(f"card-{code}-0" for code in codes.split()))
    phone.tap(f"pick-{rest}", "rest")
    for code, seat in exposed:
        phone.tap(f"expose-{code}-0-{seat}")
    phone.tap(*(f"first-{code}-0" for code in first))


def open_confirm(phone: Phone, title: str) -> list[str]:
    """Confirm the entry: the dialog opens saying what will be added; the running raw scores
    shown on the players' buttons (the server's preview) are returned."""
    from playwright.sync_api import expect

    expect(phone("confirm")).to_be_enabled()
    raws = [phone(f"preview-raw-{seat}").inner_text() for seat in range(4)]
    phone.tap("confirm")
    expect(phone("dialog")).to_be_visible()
    expect(phone("dialog-title")).to_have_text(title)
    for raw in raws:
        expect(phone("dialog-body")).to_contain_text(raw)
    return raws


def confirm(phone: Phone, title: str) -> list[str]:
    raws = open_confirm(phone, title)
    phone.tap("dialog-yes")
    return raws


# --- the tests ----------------------------------------------------------------------------------


def test_the_page_is_refused_without_the_key(tmp_path: Path, browser: Browser) -> None:
    from playwright.sync_api import expect

    ledger = new_ledger(tmp_path)
    with serving(str(ledger), "--lang", "zh") as served:
        context = browser.new_context(**PHONE)
        page = context.new_page()
        answer = page.goto(served.base + "/")
        assert answer is not None and answer.status == 401
        answer = page.goto(served.base + "/?key=" + "x" * len(served.key))
        assert answer is not None and answer.status == 403
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
            expect(phone("player-1")).to_have_class(re.compile(r"\bpast\b"))
            expect(phone("status")).to_contain_text("南 当猪")
            expect(phone("end-line")).to_have_count(1)
            expect(phone("hand-note-3")).to_have_text("南当猪")
        screenshot(a, "standings")
        a.tap("tab-rules")  # the rules in force
        expect(a("rules")).to_contain_text("classic")
        expect(a("rules")).to_contain_text("终局线 -1000")
        a.tap("tab-entry")
        expect(a("over")).to_be_visible()
        expect(a("confirm")).to_be_disabled()

        # Any hand, explained step by step: the same explanation as `explain LEDGER N`.
        a.tap("tab-hands", "hand-row-3")
        expect(a("hand-text")).to_contain_text("第 3 局")
        a.page.locator("details").first.locator("summary").tap()
        explained = cli("explain", str(ledger), "3", "--lang", "zh")
        expect(a("hand-explain")).to_have_text(explained.strip())
        screenshot(a, "explain")
        agrees(a, ledger)

        # The smallest phones (360 px): the page still fits, each card face still a finger wide.
        small = phones(served.url)
        small.page.set_viewport_size({"width": 360, "height": 740})
        small.tap("tab-entry")
        agrees(small, ledger)
        widths = small.page.locator(".face").evaluate_all(
            "(faces) => faces.map((f) => f.getBoundingClientRect().width)"
        )
        assert len(widths) == 16 and min(widths) >= 40, widths


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
            expect(phone("name-1")).to_have_text("<b>x</b>")
            expect(phone("hands-table").locator("th").nth(2)).to_have_text("<b>x</b>")
            assert phone.page.locator("main b, header b, nav b").count() == 0
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
        a.tap("pick-2", "card-QS-0", "pick-0", "card-QS-0")
        expect(a("card-QS-0")).to_have_attribute("data-holder", "东")
        before = shown(ledger)["hands"][1]["raw"]
        open_confirm(a, "用这一局替换第 2 局？")
        expect(a("dialog-body").locator(".before")).to_have_text([str(r) for r in before])
        a.tap("dialog-yes")
        everyone_sees(ledger, a, b)
        edited = json.loads(cli("match", "show", str(ledger), "2", "--format", "json"))
        assert edited["players"][0]["captured"] == ["QS"]
        assert edited["players"][2]["captured"] == ["KH"]

        # Remove hand 1, after the dialog shows it.
        a.tap("hand-row-1", "hand-remove")
        expect(a("dialog-title")).to_have_text(ZH["ask.remove"].format(number=1))
        expect(a("dialog-body")).to_contain_text("第 1 局")
        a.tap("dialog-yes")
        everyone_sees(ledger, a, b)
        assert len(shown(ledger)["hands"]) == 2

        # Undo the last hand: cancelled first (nothing changes), then done.
        seen = version(ledger)
        a.tap("tab-entry", "undo")
        expect(a("dialog-title")).to_have_text("撤销最后一局（第 2 局）？")
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
        expect(loser("notice-text")).to_have_text(ZH["conflict"])
        winner_hand = cli("match", "show", str(ledger), "1", "--lang", "zh")
        expect(loser("notice-hand")).to_have_text(winner_hand.rstrip("\n"))
        expect(loser("notice-kept")).to_be_visible()
        expect(loser("card-QS-0")).to_have_attribute("data-holder", "东")  # the entry is kept
        # (the browser logs the refused request: it was the expected answer, not a fault)
        assert [e for e in loser.errors if "409" in e], loser.errors
        loser.errors[:] = [e for e in loser.errors if "409" not in e]
        loser.tap("discard")
        expect(loser("card-QS-0")).to_have_attribute("data-holder", "")
        expect(loser("notice")).to_be_hidden()
        for phone in (a, b):
            agrees(phone, ledger)


def test_two_decks_show_each_copy_and_ask_who_took_the_first_pig(
    tmp_path: Path, phones: Callable[[str], Phone]
) -> None:
    from playwright.sync_api import expect

    ledger = tmp_path / "两副牌.yaml"
    cli("match", "new", str(ledger), "--players", "东,南,西,北", "--variant", "two-deck")
    with serving(str(ledger), "--lang", "zh") as served:
        a = phones(served.url)
        a.tap("tab-entry")
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
