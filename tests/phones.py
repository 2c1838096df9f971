"""Phones at the table for the browser suite: the system's Chromium, headless, driven through
Playwright on a phone's screen (touch; 390×844 by default, 320×640 for the smallest; light or
dark), against a real ``gongzhu-score serve`` (tests/serving.py).

What a test looks at is here too: whether a phone shows the ledger as it is on disk, whether
every number on its screens is that of ``match show LEDGER --format json``, and what axe-core
(the accessibility checker, from the npm registry; ``GONGZHU_AXE`` names its ``axe.min.js``)
finds on a screen.
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
from serving import CHROMIUM, command

from gongzhu_score.web.words import page_words

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2, "locale": "zh-CN"}  # fmt: skip
SMALL = {**PHONE, "viewport": {"width": 320, "height": 640}}
LIVE_MS = 1500  # a change shows on every other phone within a second (and a half, for CI)
ZH = page_words("zh")
AXE = os.environ.get(
    "GONGZHU_AXE", str(Path.home() / ".cache/gongzhu-axe/node_modules/axe-core/axe.min.js")
)
"""axe-core's script, installed from the npm registry (``.ci/run``: ``npm install axe-core``)."""


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
    """One phone at the table: a browser context of its own, with the page open.

    ``options`` are Playwright's context options (the screen, ``color_scheme``); axe-core is
    injected past the page's Content-Security-Policy, which allows only the page's own scripts.
    """

    def __init__(self, browser: Browser, url: str, **options: Any) -> None:
        self.context = browser.new_context(**{**PHONE, "bypass_csp": True, **options})
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

    def accessible(self, screen: str) -> None:
        """axe-core finds no serious or critical violation on the screen as it is now."""
        if not self.page.evaluate("() => typeof window.axe !== 'undefined'"):
            self.page.add_script_tag(path=AXE)
        found = self.page.evaluate(
            "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
            ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
            ".map((v) => [v.id, v.help, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])"
        )
        assert not found, f"{screen}: {found}"


@pytest.fixture
def phones(browser: Browser) -> Iterator[Callable[..., Phone]]:
    opened: list[Phone] = []

    def open_phone(url: str, **options: Any) -> Phone:
        phone = Phone(browser, url, **options)
        opened.append(phone)
        return phone

    yield open_phone
    errors = [e for phone in opened for e in phone.errors]
    for phone in opened:
        phone.context.close()
    assert not errors, errors  # no script error, no failed request, on any phone


def open_tab(phone: Phone, name: str) -> None:
    """Tap the tab ``name`` once the page shows its match (``<body data-version>``), and see
    its panel open: a tap before the page's first state could be undone by it."""
    from playwright.sync_api import expect

    phone.page.wait_for_function("() => document.body.dataset.version !== undefined")
    phone.tap(f"tab-{name}")
    expect(phone(f"panel-{name}")).to_be_visible()


def cli(*args: str) -> str:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def new_ledger(folder: Path, players: str = "东,南,西,北", *more: str) -> Path:
    path = folder / "今晚.yaml"
    cli("match", "new", str(path), "--players", players, *more)
    return path


def shown(ledger: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cli("match", "show", str(ledger), "--format", "json"))
    return data


def version(ledger: Path) -> str:
    return hashlib.sha256(ledger.read_bytes()).hexdigest()


def shows_now(phone: Phone, ledger: Path, timeout: float = 5000) -> None:
    """The phone shows the ledger as it is now on disk (within ``timeout`` ms)."""
    from playwright.sync_api import expect

    body = phone.page.locator("body")
    expect(body).to_have_attribute("data-match", ledger.name, timeout=timeout)
    expect(body).to_have_attribute("data-version", version(ledger), timeout=timeout)


def ranked(data: dict[str, Any]) -> list[int]:
    """The seats from first to last as rulings §8 ranks them, from ``match show``'s JSON: its
    ``order`` (in partner play, sides on their sums); checked against the rule itself where
    the players rank one by one: the deciding total, the last hand's final, the earlier seat."""
    order = [data["players"].index(name) for name in data["order"]]
    if data["teams"] != "partners":
        totals = data["totals"]["final" if data["decided_on"] == "final" else "raw"]
        last = data["hands"][-1]["final"] if data["hands"] else [0] * 4
        assert order == sorted(range(4), key=lambda i: (-totals[i], -last[i], i))
    return order


def agrees(phone: Phone, ledger: Path, words: dict[str, str] = ZH) -> dict[str, Any]:
    """The numbers on the page are those of ``match show LEDGER --format json``: the standings
    in rank order (the deciding total, the other total, the distance to the end), and each
    hand's deciding score and running deciding total. Nothing runs off the phone's screen."""
    data = shown(ledger)
    shows_now(phone, ledger)
    texts = phone.texts()
    final = data["decided_on"] == "final"
    deciding, other = ("final", "raw") if final else ("raw", "final")
    want: dict[str, str] = {}
    for rank, seat in enumerate(ranked(data)):
        name = data["players"][seat]
        want[f"name-{rank}"] = name
        want[f"total-{rank}"] = str(data["totals"][deciding][seat])
        want[f"other-{rank}"] = str(data["totals"][other][seat])
        total, end = data["totals"][deciding][seat], data["end_at"]
        line = (f"+{-end}" if total >= 0 else str(end)) if final else str(end)
        word = words["standings.to_go_team" if final else "standings.to_go"]
        want[f"to-go-{rank}"] = (
            words["standings.past_end"]
            if name in data["past_end"]
            else word.format(points=data["to_go"][seat], line=line)
        )
    for hand in data["hands"]:
        n = hand["hand"]
        want[f"hand-pig-{n}"] = "+".join(hand["pig"])
        for seat in range(4):
            want[f"hand-score-{n}-{seat}"] = str(hand[deciding][seat])
            want[f"hand-running-{n}-{seat}"] = str(hand[f"total_{deciding}"][seat])
    got = {k: texts.get(k) for k in want}
    # (a hand's cell holds its score, then the running total under it)
    for key in list(got):
        if key.startswith("hand-score-") and got[key] is not None:
            running = texts.get(key.replace("hand-score-", "hand-running-"), "")
            got[key] = got[key].removesuffix(running)
    assert got == want
    rows = sorted(k for k in texts if re.fullmatch(r"hand-row-\d+", k))
    assert len(rows) == len(data["hands"])
    fits(phone)
    return data


def fits(phone: Phone) -> None:
    """Nothing runs off the phone's screen sideways."""
    wide = phone.page.evaluate("document.documentElement.scrollWidth")
    assert wide <= phone.page.viewport_size["width"]


def everyone_sees(ledger: Path, *phones: Phone) -> None:
    """Right after a change: every phone shows it within LIVE_MS, with the ledger's numbers."""
    for phone in phones:
        shows_now(phone, ledger, timeout=LIVE_MS)
    for phone in phones:
        agrees(phone, ledger)


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
    """Confirm the entry (the button in the dock, always in reach): the dialog opens saying
    what will be added; the running raw scores shown in the dock (the server's preview) are
    returned."""
    from playwright.sync_api import expect

    expect(phone("confirm")).to_be_enabled()
    assert phone("confirm").is_visible()
    box = phone("confirm").bounding_box()
    assert box is not None and box["y"] + box["height"] <= phone.page.viewport_size["height"]
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
