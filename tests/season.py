"""A club's season made up for the tests and the benchmark: match ledgers in one folder, as the
tool writes them (its own ``Ledger`` and, on request, the history ``match add`` keeps), each
hand with the time it was entered.

The matches are individual and partner play, some drawn, some still in play; the files' names
are shuffled against the times their matches ended, so that the order of the files is not the
order of the games, and the times are written in different UTC offsets.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from pathlib import Path

from gongzhu_score import DECK, SCORING_CARDS, SPECIAL_CARDS
from gongzhu_score.core.hand import Hand
from gongzhu_score.core.normalize import Normalization
from gongzhu_score.match.history import Change, digest
from gongzhu_score.match.ledger import Ledger

CLUB = ("老王", "小李", "阿芳", "大刘", "小陈", "阿梅", "Ann", "Bob", "Cy", "Di")
START = datetime.datetime(2026, 9, 4, 19, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=8)))
OFFSETS = (datetime.timedelta(hours=8), datetime.timedelta(0), datetime.timedelta(hours=-5))

DRAWN_ALONE = {"captured": ["", "5H 6H 7H 8H 9H 10H JH QH KH AH QS JD 10C", "3H", "2H 4H"],
               "exposed": [None, "QS", None, None], "first_exposed": [None, None, "JD", None]}  # fmt: skip
"""A hand where all four raws are 0 (rulings §8: a draw when it is the last)."""
DRAWN_SIDES = {"captured": ["QS", "JD 5H 6H 7H 8H 9H 10H", "2H 3H 4H 10C", "JH QH KH AH"]}
"""A hand where both sides' raws add up alike (partner play: a draw when it is the last)."""


@dataclass(frozen=True)
class Made:
    """A ledger made: where, the match, and whether it was meant to end in a draw."""

    path: Path
    ledger: Ledger
    draw: bool


def random_hand(rng: random.Random, names: tuple[str, ...]) -> Hand:
    """A random one-deck hand of ``names``, every scoring card captured, a few exposures."""
    captured: dict[str, list[str]] = {n: [] for n in names}
    for card in DECK:
        if card in SCORING_CARDS or rng.random() < 0.3:
            captured[rng.choice(names)].append(card.code)
    exposed: dict[str, list[str]] = {}
    for card in SPECIAL_CARDS:
        if rng.random() < 0.15:
            exposed.setdefault(rng.choice(names), []).append(card.code)
    return Hand.from_captured({n: " ".join(c) for n, c in captured.items()}, exposed=exposed)


def fixed_hand(data: dict[str, list[str | None]], names: tuple[str, ...]) -> Hand:
    def by_name(key: str) -> dict[str, str]:
        return {n: c for n, c in zip(names, data.get(key, [None] * 4), strict=True) if c}

    return Hand.from_captured(dict(zip(names, data["captured"], strict=True)),  # type: ignore[arg-type]
                              exposed=by_name("exposed"), first_exposed=by_name("first_exposed"))  # fmt: skip


def make_season(
    folder: Path,
    count: int,
    seed: int = 58,
    hands: int | None = None,
    history: bool = False,
    club: tuple[str, ...] = CLUB,
    draws: bool = True,
) -> list[Made]:
    """``count`` matches of players drawn from ``club``, written into ``folder``.

    One match in 10 is still in play, one in 12 a draw (every third of those in partner play),
    one in 4 partner play; a finished match is a 盤 of ``hands`` hands (default: 2 to 6), the
    end line far away, except one in 5 played to −1000 (it may end sooner). With ``history``,
    each ledger has the history ``match new`` and ``match add`` would have written. The same
    ``seed`` makes the same files. Without ``draws``, no match is made a draw (each then has
    ``hands`` hands, unless the end line ends it sooner).
    """
    rng = random.Random(seed)
    numbers = list(range(count))
    rng.shuffle(numbers)  # (the files' names are not the order the matches ended)
    made = []
    when = START
    for k in range(count):
        names = tuple(rng.sample(club, 4))
        partners = rng.random() < 0.25
        draw = draws and k % 12 == 5
        in_play = not draw and k % 10 == 7
        length = hands or rng.randint(2, 6)
        to_the_end = not draw and not in_play and hands is None and rng.random() < 0.2
        norm = Normalization(teams="partners" if partners or (draw and k % 36 == 5) else "none")
        end_at = -1000 if to_the_end else -(10**7)
        last_hand = None if in_play or to_the_end else (1 if draw else length)
        ledger = Ledger.new(names, "classic", norm, end_at, last_hand)
        texts = [ledger.to_text()]
        for _ in range(length if not draw else 1):
            if ledger.status().ended:
                break
            when += datetime.timedelta(minutes=rng.choice((6, 9, 13)))
            entered = when.astimezone(datetime.timezone(rng.choice(OFFSETS)))
            if draw:
                data = DRAWN_SIDES if ledger.partners else DRAWN_ALONE
                hand = fixed_hand(data, names)  # type: ignore[arg-type]
            else:
                hand = random_hand(rng, names)
            ledger = ledger.add(hand, entered=entered)[0]
            texts.append(ledger.to_text())
        when += datetime.timedelta(minutes=rng.choice((20, 45, 70)))
        if k % 40 == 39:
            when += datetime.timedelta(days=7)
        path = folder / f"m{numbers[k]:04d}.yaml"
        path.write_text(texts[-1], encoding="utf-8")
        if history:
            _history(path, texts, when)
        made.append(Made(path, ledger, draw))
    return made


def _history(path: Path, texts: list[str], when: datetime.datetime) -> None:
    """The history ``match new`` and each ``match add`` record for these versions of a ledger."""
    lines = []
    time = when.isoformat(timespec="seconds")
    for number, text in enumerate(texts, 1):
        after = digest(text.encode("utf-8"))
        if number == 1:
            change = Change(1, time, "new", {}, after)
        else:
            before = texts[number - 2].encode("utf-8")
            change = Change(number, time, "add", {"hand": number - 1}, after,
                            kept_length=len(before), prior=digest(before))  # fmt: skip
        lines.append(change.to_line())
    Path(f"{path}.history").write_text("".join(lines), encoding="utf-8")
