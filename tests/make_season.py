"""The club's season the docs show: three Friday evenings of six players, written as match
ledgers into docs/examples/season/ (``python tests/make_season.py``; tests/test_ratings.py
checks that the files are what it writes).

Each evening's matches are named as the page names them (``2026-11-06.yaml``, then
``2026-11-06-2.yaml``, …). Most are a 盤 of four hands (``match new --hands 4``); one is played
to −1000; one is partner play; one a 盤 of one hand that ended level (a draw); the last one is
still in play. The hands are random, from a fixed seed, so the same files come out each time.
"""

from __future__ import annotations

import datetime
import random
import sys
from pathlib import Path

from season import DRAWN_SIDES, fixed_hand, random_hand

from gongzhu_score.core.normalize import Normalization
from gongzhu_score.match.ledger import Ledger

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "examples" / "season"
TABLE = datetime.timezone(datetime.timedelta(hours=8))

# (the evening, then each match: its players in seat order, its teams, its hands: None is a
# match played to −1000, 0 one still in play after two hands, "draw" a 盤 of one level hand)
EVENINGS: list[tuple[datetime.date, list[tuple[str, str, int | str | None]]]] = [
    (datetime.date(2026, 11, 6), [("老王,小李,阿芳,大刘", "none", 4),
                                  ("小陈,老王,阿梅,小李", "none", 4),
                                  ("阿芳,大刘,小陈,阿梅", "none", None)]),
    (datetime.date(2026, 11, 13), [("老王,阿芳,小李,大刘", "partners", 4),
                                   ("阿梅,小陈,老王,阿芳", "none", 4),
                                   ("小李,阿梅,大刘,小陈", "partners", "draw")]),
    (datetime.date(2026, 11, 20), [("大刘,老王,小陈,小李", "none", 4),
                                   ("阿芳,阿梅,老王,大刘", "none", 4),
                                   ("小李,小陈,阿芳,阿梅", "none", 0)]),
]  # fmt: skip


def season() -> dict[str, str]:
    """Each ledger's file name and text."""
    rng = random.Random(2026)
    files = {}
    for day, matches in EVENINGS:
        when = datetime.datetime.combine(day, datetime.time(19, 30), TABLE)
        for k, (names, teams, hands) in enumerate(matches, 1):
            players = tuple(names.split(","))
            last = 1 if hands == "draw" else (hands or None)
            ledger = Ledger.new(players, "classic", Normalization(teams=teams), None, last)
            count = 2 if hands == 0 else 1 if hands == "draw" else hands or 40
            for _ in range(count):
                if ledger.status().ended:
                    break
                when += datetime.timedelta(minutes=rng.choice((7, 9, 12)))
                hand = (fixed_hand(DRAWN_SIDES, players) if hands == "draw"  # type: ignore[arg-type]
                        else random_hand(rng, players))  # fmt: skip
                ledger = ledger.add(hand, entered=when)[0]
            name = f"{day.isoformat()}{'' if k == 1 else f'-{k}'}.yaml"
            files[name] = ledger.to_text()
            when += datetime.timedelta(minutes=15)
    return files


def main() -> None:
    folder = Path(sys.argv[1]) if sys.argv[1:] else FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in season().items():
        (folder / name).write_text(text, encoding="utf-8")
        print(f"wrote {folder / name}")


if __name__ == "__main__":
    main()
