"""The engine's two doors agree: one hand (a ``Hand``, with its breakdown) and many hands (numpy
arrays of card masks and exposure keys), under random house rules, for hands valid and not."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from optional import pa
from outcomes import METHODS, ROUNDING, TEAMS, as_data, outcome
from strategies import hands_for, rule_sets, spoiled

from gongzhu_score import GongzhuError, Scorer, Variant, api
from gongzhu_score.api import hand_or_record
from gongzhu_score.core import doors
from gongzhu_score.core.engine import compiled_rules
from gongzhu_score.core.many import HandResults, Results
from gongzhu_score.core.normalize import Rounding
from gongzhu_score.core.options import ScoringOptions


@settings(max_examples=300, derandomize=True, deadline=None)
@given(rule_sets(), st.data())
def test_the_two_doors_give_the_same_numbers_or_the_same_error(
    rules: Variant, data: st.DataObject
) -> None:
    options = {"normalize": data.draw(METHODS), "scale": data.draw(st.integers(1, 12)),
               "rounding": data.draw(ROUNDING), "teams": data.draw(TEAMS)}  # fmt: skip
    try:
        norm = ScoringOptions.parse(None, *options.values()).normalization(rules)
    except GongzhuError:  # (options the rules do not define: refused before any hand)
        assume(False)
    count = data.draw(st.integers(1, 4))
    records = [data.draw(spoiled(as_data(data.draw(hands_for(rules))))) for _ in range(count)]
    engine = compiled_rules(rules)
    one = [outcome(lambda d=d: engine.score(hand_or_record(d, rules.decks).hand, norm))
           for d in records]  # fmt: skip
    from gongzhu_score.core import masks

    names = masks.Names()
    seats, _ = masks.read_objects(records, names)
    scores = masks.score_seats(seats, rules, engine, norm, norm.rounding is Rounding.EXACT)
    part = masks.Part(engine, norm, names.known, seats.names, scores, {})
    assert len(part) == count
    for h, (record, want) in enumerate(zip(records, one, strict=True)):
        if not scores.ok[h]:  # declined: the one-hand door refuses it (every code is plain), or
            # a raw is beyond what the arrays hold
            assert want[0] == "refused" or max(map(abs, want[1])) > masks.COLUMN_LIMIT, record
            continue
        got = outcome(lambda h=h: part.result(h))
        assert got == want
        # the arrays hold the very numbers of the result
        assert (scores.raws[h].tolist(), scores.finals[h].tolist()) == (
            list(want[1]),
            list(want[2]),
        )
        assert [names.known[c] for c in seats.names[4 * h : 4 * h + 4].tolist()] == list(want[0])
    # the library's bulk door: the results in order, or the first hand's error; by the one-hand
    # door (a few hands), and by the arrays (as many hands are)
    scorer = Scorer(rules, **options)
    first_bad = next((w for w in one if w[0] == "refused"), None)
    for few in (10**9, 1):
        with columns_from(few):
            try:
                results = scorer.score_many(records)
            except GongzhuError as e:
                assert first_bad == ("refused", str(e))
                continue
        assert first_bad is None
        assert isinstance(results, HandResults) and len(results) == count
        assert [outcome(lambda r=r: r) for r in results] == one
        assert results == [scorer.score_data(d) for d in records]
        columns = results.columns()
        assert columns["raw"] == [r for w in one for r in w[1]]
        assert columns["final"] == [f for w in one for f in w[2]]
        assert columns["name"] == [n for w in one for n in w[0]]


@contextmanager
def columns_from(few: int) -> Iterator[None]:
    """``Scorer.score_many`` scores by the arrays from ``few`` hands on."""
    saved = doors.MANY
    api.MANY = doors.MANY = few
    try:
        yield
    finally:
        api.MANY = doors.MANY = saved


def test_score_many_is_a_sequence_with_the_numbers_as_columns() -> None:
    hands = [{"players": [{"name": "A", "captured": "QS 10C"}, {"name": "B", "captured": "JD"},
                          {"name": "C", "captured": "全红"}, {"name": "D", "captured": ""}]},
             {"players": [{"name": "E", "captured": "QS JD 10C"}, {"name": "F", "captured": ""},
                          {"name": "G", "captured": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"},
                          {"name": "H"}]}]  # fmt: skip
    scorer = Scorer("classic", scale=12)
    results = scorer.score_many(hands)
    singles = [scorer.score_data(h) for h in hands]
    assert len(results) == 2 and list(results) == singles and results == singles
    assert results[-1] == singles[1] and results[0:1] == singles[:1]
    # E's pig and sheep cancel, doubled by 10♣: 0; G's full red +200. Zero-sum: G (4·200 − 200)/3
    # = 200, the others −200/3 → −67; each × 12.
    assert [r.finals for r in results] == [(-3600, 1200, 2796, -396), (-804, -804, 2400, -804)]
    assert results.index(singles[1]) == 1 and singles[0] in results
    columns = results.columns()
    assert columns["name"] == ["A", "B", "C", "D", "E", "F", "G", "H"]
    assert columns["hand"] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert columns["raw"] == [r for s in singles for r in s.raws]
    assert columns["final"] == [f for s in singles for f in s.finals]
    table = results.to_arrow()
    assert table.column("players").to_pylist()[0] == [
        {"name": "A", "raw": -200, "final": -3600}, {"name": "B", "raw": 100, "final": 1200},
        {"name": "C", "raw": 200, "final": 2796}, {"name": "D", "raw": 0, "final": -396},
    ]  # fmt: skip
    assert pa.types.is_int64(table.schema.field("players").type.value_type.field("final").type)
    exact = Scorer("classic", rounding="exact").score_many(hands).to_arrow()
    # exact: B's (4·100 − 100)/3 = 100, C's (4·200 − 100)/3 = 233⅓ as a float
    assert [p["final"] for p in exact.column("players").to_pylist()[0]] == [-300, 100, 700 / 3,
                                                                             -100 / 3]  # fmt: skip
    assert pa.types.is_float64(exact.schema.field("players").type.value_type.field("final").type)


class _Dict(dict):  # type: ignore[type-arg]
    """A mapping of another type than dict: the careful path reads it."""


def _odd_hands() -> list[object]:
    plain = {"players": [{"name": "A", "captured": "QS 10C"}, {"name": "B", "captured": "JD"},
                         {"name": "C", "captured": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"},
                         {"name": "D", "captured": ""}]}  # fmt: skip

    def changed(seat: int, **fields: object) -> dict[str, Any]:
        players = [dict(p) for p in plain["players"]]
        players[seat].update(fields)
        return {"players": players}

    return [
        plain,
        {**plain, "variant": "classic", "teams": None},
        {**plain, "claim": 1},
        _Dict(plain),
        {"players": tuple(plain["players"])},
        {"players": plain["players"][:3]},
        {"players": [*plain["players"], {"name": "E"}]},
        {1: "x", **plain},
        changed(0, captured=["QS", "10C"]),
        changed(0, captured=["QS 10C"]),
        changed(0, captured=[" QS", "10C"]),
        changed(0, captured=["QS", "", "10C"]),
        changed(0, captured=["QS", 10]),
        changed(0, captured="QS\t10C"),
        changed(0, captured="Q♠ 10C"),
        changed(0, captured="QS 10C\ud800"),
        changed(0, captured="QS  10C "),
        changed(0, captured=None),
        changed(1, exposed=None),
        changed(1, exposed="JD"),
        changed(1, exposed=["JD"]),
        changed(1, exposed="JD\tQS"),
        changed(1, exposed=["QS", "QS"]),
        changed(1, exposed=["2H"]),
        changed(1, first_exposed=["JD"]),
        changed(1, first_exposed="JD QS"),
        changed(1, name=" B"),
        changed(1, name="A"),
        changed(1, name=7),
        changed(1, nickname="Bee"),
        {"players": [*plain["players"][:3], {"name": "D", 2: "x"}]},
        [dict(p) for p in plain["players"]],
        None,
    ]


def test_odd_shapes_are_read_by_columns_as_the_one_hand_door_reads_them() -> None:
    scorer = Scorer("classic")
    for data in _odd_hands():
        want = outcome(lambda data=data: scorer.score_data(data))
        with columns_from(1):
            got = outcome(lambda data=data: scorer.score_many([data])[0])
        assert got == want, data


def test_many_hands_go_by_the_arrays_whatever_the_rules() -> None:
    from gongzhu_score.core import masks

    hand = _odd_hands()[0]
    hearts = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    twice = {"players": [{"name": "A", "captured": "QS QS 10C 10C"},
                         {"name": "B", "captured": "JD JD"},
                         {"name": "C", "captured": f"{hearts} {hearts}"}, {"name": "D"}]}  # fmt: skip
    for scorer in (Scorer("classic"), Scorer("classic", teams="partners"),
                   Scorer("classic", rounding="exact"), Scorer("two-deck")):  # fmt: skip
        if scorer.variant.decks == 2:
            hand = twice
        results = scorer.score_many([hand] * doors.MANY)
        assert {type(p) for p in results._parts} == {masks.Part}
        assert all(not p.careful for p in results._parts)  # (every hand by the arrays)
        assert list(results) == [scorer.score_data(hand)] * doors.MANY
        few = scorer.score_many([hand] * (doors.MANY - 1))
        assert {type(p) for p in few._parts} == {Results}


def test_a_few_hands_in_a_fresh_process_do_not_import_numpy() -> None:
    """Importing numpy costs more than the arrays save on a few hundred hands: they go the
    one-hand door, and numpy stays unimported."""
    code = (
        "import json, sys; from gongzhu_score import Scorer\n"
        f"hand = json.loads({json.dumps(json.dumps(_odd_hands()[0]))})\n"
        "results = Scorer().score_many([hand] * 1000)\n"
        "print(len(results), type(results._parts[0]).__name__, 'numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)  # fmt: skip
    assert done.stdout.split() == ["1000", "Results", "False"]


_LEAF = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats()
         | st.text(st.sampled_from(list("QSJD10CAH2345 \t:\ud800全红猪♠")), max_size=10)
         | st.sampled_from(["QS", "JD", "10C", "AH", "2H", "QS JD", "东", "", " "]))  # fmt: skip
_JUNK = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["name", "captured", "exposed", "first_exposed", "players", "claim"]), inner,
    max_size=4), max_leaves=20)  # fmt: skip
_PLAYER = st.fixed_dictionaries(
    {"name": st.sampled_from(["东", "南", "西", "北"]) | _JUNK},
    optional={"captured": _JUNK, "exposed": _JUNK, "first_exposed": _JUNK, "claim": _JUNK},
)
_HAND = _JUNK | st.fixed_dictionaries({"players": st.lists(_PLAYER, min_size=3, max_size=5)},
                                      optional={"variant": _JUNK, "teams": _JUNK})  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_HAND, st.sampled_from([{}, {"teams": "pig-sheep"}, {"rounding": "exact"}]))
def test_hand_shaped_junk_raises_only_the_projects_errors_by_either_door(
    hand: object, options: dict[str, str]
) -> None:
    scorer = Scorer("classic", **options)  # type: ignore[arg-type]
    want = outcome(lambda: scorer.score_data(hand))
    for few in (10**9, 1):
        with columns_from(few):
            assert outcome(lambda: scorer.score_many([hand])[0]) == want
