"""What scoring gives, as the engine tests compare it: the options drawn, a hand as data, and a
result's numbers and derivation (or its refusal)."""

from __future__ import annotations

from hypothesis import strategies as st
from strategies import RandomHand

from gongzhu_score import GongzhuError

METHODS = st.sampled_from([None, "none", "zero-sum", "jj"])
TEAMS = st.sampled_from(["none", "none", "partners", "pig-sheep"])
ROUNDING = st.sampled_from(["nearest", "exact"])


def outcome(make: object) -> object:
    """What scoring gives: the numbers and the derivation, or the refusal's message."""
    try:
        r = make()  # type: ignore[operator]
    except GongzhuError as e:
        return ("refused", str(e))
    return (
        r.names,
        r.raws,
        r.finals,
        r.unrounded,
        [(p.lines, p.transformer, p.full_red, p.grand_slam, p.grand_slam_ratio) for p in r.players],
        [(e.card, e.level, e.by, e.kind) for e in r.exposures],
        r.counts,
    )


def as_data(hand: RandomHand) -> dict[str, object]:
    """The hand as a hand file or a JSON Lines line holds it."""
    return {
        "players": [
            {
                "name": n,
                "captured": " ".join(c.code for c in hand.captured[n]),
                **({"exposed": [c.code for c in hand.exposed[n]]} if hand.exposed.get(n) else {}),
                **(
                    {"first_exposed": [c.code for c in hand.first_exposed[n]]}
                    if hand.first_exposed.get(n)
                    else {}
                ),
            }
            for n in hand.names
        ]
    }
