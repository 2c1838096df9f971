"""tests/played.py's two sources of realistic hands: ``played_arrow`` (numpy, for the
benchmark's million) draws from the distribution of ``played_hands``, and its hands are played
hands: each deck's cards once, taken four at a time, scored without a bad row."""

from __future__ import annotations

from collections import Counter

from optional import arrow
from played import played_arrow, played_hands, played_table

from gongzhu_score import DECK

N = 10_000


def shares(rows: list[dict]) -> dict[str, float]:
    seen: Counter[str] = Counter()
    for row in rows:
        seen["two decks"] += row["variant"] == "two-deck"
        seen["partners"] += row["teams"] == "partners"
        for p in row["players"]:
            seen["empty captured (per player)"] += p["captured"] == ""
            seen["exposed cards"] += len((p["exposed"] or "").split())
            seen["首明"] += p["first_exposed"] is not None
    out = {key: count / len(rows) for key, count in seen.items()}
    out["empty captured (per player)"] /= 4
    return out


def test_played_arrow_draws_as_played_hands() -> None:
    slow = played_table(list(played_hands(N, seed=3)))
    fast = played_arrow(N, seed=4, chunk=3_000)
    assert fast.schema == slow.schema and fast.num_rows == N
    tolerance = {"two decks": 0.012, "partners": 0.015, "empty captured (per player)": 0.01,
                 "exposed cards": 0.06, "首明": 0.02}  # fmt: skip
    a, b = shares(slow.to_pylist()), shares(fast.to_pylist())
    for key, most in tolerance.items():
        assert abs(a[key] - b[key]) < most, (key, a[key], b[key])
    row_path = [Counter(arrow.paths(t))["row"] / N for t in (slow, fast)]
    assert abs(row_path[0] - row_path[1]) < 0.03


def test_played_arrow_hands_are_played_hands() -> None:
    table = played_arrow(3_000, seed=9, chunk=1_000)
    assert table.equals(played_arrow(3_000, seed=9, chunk=1_000))
    deck = Counter(card.code for card in DECK)
    for row in table.to_pylist():
        decks = 2 if row["variant"] == "two-deck" else 1
        taken = [p["captured"].split() for p in row["players"]]
        assert Counter(c for cards in taken for c in cards) == {c: decks for c in deck}
        assert all(len(cards) % 4 == 0 for cards in taken)
        assert len({p["name"] for p in row["players"]}) == 4
    assert arrow.score_table(table).num_rows == 3_000  # no bad row
