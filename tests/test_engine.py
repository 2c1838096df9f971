"""One engine (issue 10): under any rule set, every way in gives the same numbers.

Random house rules (every knob of the rules-file schema, odd values included) and random hands:
the library's one-hand door (canonical codes, parsed cards), the bulk Scorer, the many-hands
door (numpy arrays), the Arrow table path, and every command (``score``, ``batch``, ``match
add``, ``explain``, ``compare``) agree on every hand.
"""

from __future__ import annotations

import json
import re
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from clitools import run
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import arrow, pa
from outcomes import METHODS, ROUNDING, TEAMS, as_data, outcome
from strategies import hands_for, rule_sets

import gongzhu_score.core.engine as engine
from gongzhu_score import DECK, GongzhuError, Hand, Scorer, Variant, score, score_hand
from gongzhu_score.core import masks
from gongzhu_score.core.options import ScoringOptions
from gongzhu_score.match.ledger import pig_takers
from gongzhu_score.render.formats import yaml_text


@settings(max_examples=300, derandomize=True, deadline=None)
@given(rule_sets(), st.data())
def test_every_library_path_agrees_under_random_rules(rules: Variant, data: st.DataObject) -> None:
    hand = data.draw(hands_for(rules))
    options = {
        "normalize": data.draw(METHODS),
        "scale": data.draw(st.integers(1, 12)),
        "rounding": data.draw(ROUNDING),
        "teams": data.draw(TEAMS),
    }
    shown = {"exposed": hand.exposed, "first_exposed": hand.first_exposed}
    codes = {n: " ".join(c.code for c in cards) for n, cards in hand.captured.items()}
    fast = outcome(lambda: score_hand(codes, **shown, variant=rules, **options))
    careful = outcome(
        lambda: score_hand(hand.captured, **shown, variant=rules, **options)  # Card objects
    )
    parsed = Hand.from_captured(hand.captured, **shown)  # type: ignore[arg-type]

    def norm():  # type: ignore[no-untyped-def]
        asked = ScoringOptions.parse(None, options["normalize"], options["scale"],
                                     options["rounding"], options["teams"])  # fmt: skip
        return asked.normalization(rules)

    through_score = outcome(lambda: score(parsed, rules, norm(), partial=False))
    bulk = outcome(lambda: Scorer(rules, **options).score_data(as_data(hand)))
    many = outcome(lambda: Scorer(rules, **options).score_many([as_data(hand)])[0])
    assert fast == careful == through_score == bulk == many
    # the many-hands door: it takes the hand, and gives the same, or leaves it to the one-hand
    # door (a raw beyond what its arrays hold)
    try:
        asked = norm()
    except GongzhuError:  # (options the rules do not define: refused by every door alike)
        asked = None
    names = masks.Names()
    seats, _ = masks.read_objects([as_data(hand)], names)
    exact = options["rounding"] == "exact"
    compiled = engine.compiled_rules(rules)
    taken = False
    if asked is not None:
        scores = masks.score_seats(seats, rules, compiled, asked, exact)
        taken = bool(scores.ok[0])
        if taken:
            part = masks.Part(compiled, asked, names.known, seats.names, scores, {})
            assert outcome(lambda: part.result(0)) == bulk
        else:
            assert bulk[0] == "refused" or max(map(abs, bulk[1])) > masks.COLUMN_LIMIT
    # the Arrow table path (the column path wherever it takes the hand) gives the same
    table = pa.Table.from_pylist([as_data(hand)])
    try:
        row = arrow.score_table(table, rules, **options).to_pylist()[0]["players"]
    except GongzhuError as e:
        assert bulk == ("refused", str(e).removeprefix("row:1: "))
    else:
        assert isinstance(bulk, tuple) and bulk[0] != "refused"
        # a hand the column path takes, under any rules (首明, teams, two decks)
        assert arrow.paths(table, rules, options["normalize"], teams=options["teams"]) == ["column"]
        assert taken  # (and the many-hands door, 首明 and all)
        assert [(p["name"], p["raw"], p["final"]) for p in row] == [
            (n, r, float(f) if exact else f) for n, r, f in zip(*bulk[:3], strict=True)
        ]


_CODES = [card.code for card in DECK]
_ODD = ["10", "1", "0C", "QSx", "♠Q", "qs", "全红", "ZZ", "10CC"]


@settings(max_examples=400, derandomize=True, deadline=None)
@given(
    st.lists(st.sampled_from(_CODES) | st.sampled_from(_ODD), max_size=60),
    st.sampled_from([" ", "  ", "\t"]),
    st.booleans(),
)
def test_the_arrays_read_codes_exactly(tokens: list[str], gap: str, as_list: bool) -> None:
    """A player's cards read into masks for the many-hands door: exactly the cards given (their
    bits or'ed, added up, counted), or declined (the one-hand door then reads the hand, or says
    what is wrong); canonical codes are never declined."""
    bits = {card.code: 1 << i for i, card in enumerate(DECK)}
    given: object = tokens if as_list else gap.join(tokens)
    read = masks._cards(given)
    if all(t in bits for t in tokens):
        ors, sums = 0, 0
        for t in tokens:
            ors, sums = ors | bits[t], sums + bits[t]
        assert read == (ors, sums, len(tokens))
    else:
        assert read is None


# --- every command, under random house rules -----------------------------------------------------

_EXPLAINED = re.compile(r"^(.+) \(seat (\d)\): raw (-?\d+), final (\S+)$", re.MULTILINE)


def _number(text: str) -> int | Fraction:
    """A final as explain prints it: ``-333``, or ``-333⅓`` with exact rounding."""
    thirds = {"⅓": Fraction(1, 3), "⅔": Fraction(2, 3)}
    if text[-1] in thirds:
        whole = int(text[:-1])
        return whole - thirds[text[-1]] if text.startswith("-") else whole + thirds[text[-1]]
    return int(text)


@settings(max_examples=25, derandomize=True, deadline=None)
@given(rule_sets(), st.data())
def test_every_command_gives_the_library_numbers_under_random_rules(
    rules: Variant, data: st.DataObject
) -> None:
    hand = data.draw(hands_for(rules))
    scale = str(data.draw(st.integers(1, 12)))
    shown = {"exposed": hand.exposed, "first_exposed": hand.first_exposed}
    try:
        expected = score_hand(hand.captured, **shown, variant=rules, scale=int(scale))
    except GongzhuError:
        return  # (a rule set that cannot score this hand: test_validation covers refusals)
    want = [[p.name, p.raw, p.final] for p in expected.players]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        rules_file = root / "house.yaml"
        rules_file.write_text(yaml_text(rules.to_data()), encoding="utf-8")
        hand_file = root / "hand.yaml"
        hand_file.write_text(json.dumps(as_data(hand), ensure_ascii=False), encoding="utf-8")
        lines = root / "hands.jsonl"
        lines.write_text(json.dumps(as_data(hand), ensure_ascii=False) + "\n", encoding="utf-8")
        common = ["--rules", str(rules_file), "--scale", scale]

        def players(out: str) -> list[list[object]]:
            return [[p["name"], p["raw"], p["final"]] for p in json.loads(out)["players"]]

        r = run("score", str(hand_file), *common, "-f", "json")
        assert r.exit_code == 0, r.stderr
        assert players(r.stdout) == want

        r = run("batch", str(lines), *common, "-f", "jsonl")
        assert r.exit_code == 0, r.stderr
        assert players(r.stdout) == want

        ledger = str(root / "match.yaml")
        names = ",".join(hand.names)
        assert run("match", "new", ledger, "-p", names, *common).exit_code == 0
        takers = pig_takers(Hand.from_captured(hand.captured))  # type: ignore[arg-type]
        first = ["--first-pig", takers[0]] if len(takers) > 1 else []  # two decks: said
        r = run("match", "add", ledger, str(hand_file), *first, "-f", "json")
        assert r.exit_code == 0, r.stderr
        assert players(r.stdout) == want

        r = run("explain", str(hand_file), *common)
        assert r.exit_code == 0, r.stderr
        explained = [
            [n, int(raw), _number(final)] for n, _, raw, final in _EXPLAINED.findall(r.stdout)
        ]
        assert explained == want

        r = run("compare", str(hand_file), "-v", "classic", *common, "-f", "json")
        assert r.exit_code == 0, r.stderr
        compared = json.loads(r.stdout)["players"]
        assert [[p["name"], p["scores"]["house"]["raw"], p["scores"]["house"]["final"]]
                for p in compared] == want  # fmt: skip


# --- a rule set that cannot be scored is refused when it is read --------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"transformer_multiplier": 0}, "transformer_multiplier: a multiplier ≥ 1, not 0"),
        ({"exposure_levels": [1, 0]}, "exposure levels are multipliers ≥ 1, not 0"),
        (
            {"heart_values": dict.fromkeys(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                            "Q", "K", "A"), 0),
             "full_red": 0, "pig": 0, "sheep": 0, "grand_slam": 800},
            "grand_slam: fixed at 800, but the formula it scales gives 0",
        ),
        (
            {"transformer_table": [{"exposed": 0, "taken": 1, "times": 2},
                                   {"exposed": 1, "taken": 1, "times": 3}]},
            "×3 (1 exposed, 1 taken) is not a multiple of ×2",
        ),
        ({"match_end": 1000}, "match_end: the raw total that ends a match is below 0"),
    ],
)  # fmt: skip
def test_a_rules_file_that_cannot_be_scored_is_refused_when_read(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    from gongzhu_score import VARIANTS

    data = {**VARIANTS["classic"].to_data(), "name": "broken", **change}
    path = tmp_path / "broken.yaml"
    path.write_text(yaml_text(data), encoding="utf-8")
    r = run(
        "score", "-c", "a=QS 10C", "-c", "b=JD", "-c", "c=全红", "-c", "d=", "--rules", str(path)
    )
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith(f"error: {path}: ") and message in r.stderr, r.stderr
    r = run("batch", "-", "--rules", str(path), "-f", "jsonl", input='{"players": []}\n')
    assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_house_rules_may_extend_a_built_in_variant(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("extends: classic\nname: ours\nfull_red_pig_positive: true\n", encoding="utf-8")
    r = run("score", "-c", "a=QS 全红", "-c", "b=JD", "-c", "c=10C", "-c", "d=", "--rules", str(path),
            "-f", "json")  # fmt: skip
    assert json.loads(r.stdout)["players"][0]["raw"] == 300  # +200 full red, the pig +100


def test_the_pig_and_the_sheep_are_always_other_scoring_cards_for_the_transformer() -> None:
    # With a sheep worth 0 and 0-point hearts not counting, 10♣ + J♦ is still not "10♣ alone":
    # the rule exempts hearts worth 0 only (zero_hearts_are_scoring), never the sheep.
    from gongzhu_score import VARIANTS

    rules = Variant.from_data({**VARIANTS["classic"].to_data(), "name": "house", "sheep": 0,
                               "zero_hearts_are_scoring": False})  # fmt: skip
    hand = {"东": "10C JD", "南": "QS", "西": "全红", "北": ""}
    assert score_hand(hand, variant=rules).raws[0] == 0
    hand = {"东": "10C 2H", "南": "QS JD", "西": "H:345678910JQKA", "北": ""}
    assert score_hand(hand, variant=rules).raws[0] == 50  # a heart worth 0 does not count
