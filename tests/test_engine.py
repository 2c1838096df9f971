"""One engine (issue 10): under any rule set, every way in gives the same numbers.

Random house rules (every knob of the rules-file schema, odd values included) and random hands:
the library's fast path (canonical codes) and its careful path (parsed cards), the bulk
Scorer, the compiled engine and the same source run as plain Python, and every command
(``score``, ``batch``, ``match add``, ``explain``, ``compare``) agree on every hand.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import tempfile
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
from clitools import run
from hypothesis import given, settings
from hypothesis import strategies as st
from optional import arrow, pa
from outcomes import METHODS, ROUNDING, TEAMS, as_data, outcome
from strategies import RandomHand, hands_for, legal_hands, rule_sets

import gongzhu_score.core.engine as engine
from gongzhu_score import DECK, GongzhuError, Hand, Scorer, Variant, score, score_hand
from gongzhu_score.core.options import ScoringOptions
from gongzhu_score.match.ledger import pig_takers
from gongzhu_score.render.formats import yaml_text


def pure_engine() -> ModuleType:
    """The engine's source loaded as plain Python, beside the (maybe compiled) one in use."""
    return source_copy("engine")


@cache
def source_copy(name: str) -> ModuleType:
    """A core module's source loaded as plain Python under a name of its own, for the tests
    to compare with the module in use (the package itself never loads a second copy)."""
    path = Path(engine.__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"gongzhu_score.core.{name}_as_python", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


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
    plain = pure_engine()
    as_python = outcome(lambda: plain.CompiledRules(rules).score(parsed, norm()))
    assert fast == careful == through_score == bulk == many == as_python
    # the Arrow table path (the column path wherever it takes the hand) gives the same
    table = pa.Table.from_pylist([as_data(hand)])
    try:
        row = arrow.score_table(table, rules, **options).to_pylist()[0]["players"]
    except GongzhuError as e:
        assert bulk == ("refused", str(e).removeprefix("row:1: "))
    else:
        exact = options["rounding"] == "exact"
        assert isinstance(bulk, tuple) and bulk[0] != "refused"
        # a hand the column path takes, under any rules (首明, teams, two decks)
        assert arrow.paths(table, rules, options["normalize"], teams=options["teams"]) == ["column"]
        # and the engine's fast path, 首明 and all (the careful parser only for the odd hand)
        assert engine.Hands(engine.compiled_rules(rules)).add_data(as_data(hand))
        assert [(p["name"], p["raw"], p["final"]) for p in row] == [
            (n, r, float(f) if exact else f) for n, r, f in zip(*bulk[:3], strict=True)
        ]


_CODES = [card.code for card in DECK]
_ODD = ["10", "1", "0C", "QSx", "♠Q", "qs", "全红", "ZZ", "10CC"]


@settings(max_examples=400, derandomize=True, deadline=None)
@given(
    st.lists(st.sampled_from(_CODES) | st.sampled_from(_ODD), max_size=60),
    st.booleans(),
    st.sampled_from([" ", "  ", "\t"]),
    st.booleans(),
)
def test_the_fast_path_reads_codes_exactly_compiled_and_plain(
    tokens: list[str], one_deck: bool, gap: str, as_list: bool
) -> None:
    """A player's cards read into masks: the compiled scan of the text's bytes, plain Python's
    summed bits, the list reader. Each reads exactly the cards given, or declines (the careful
    path then reads the hand, or says what is wrong); plainly valid codes are never declined."""
    bits = {card.code: 1 << i for i, card in enumerate(DECK)}
    count = Counter(tokens)
    valid = all(t in bits for t in tokens) and max(count.values(), default=0) <= 2 - one_deck
    once = sum(bits[t] for t in count) if valid else 0
    twice = sum(bits[t] for t, k in count.items() if k == 2) if valid else 0
    given: object = tokens if as_list else gap.join(tokens)
    for module in (engine, pure_engine()):
        tally = module._Tally(one_deck)
        read = tally.read(given)
        if read:
            assert valid and (tally.once, tally.twice) == (once, twice), module.__name__
            assert (tally.all_once, tally.all_twice) == (once, twice)
        else:  # declined: only what is not plainly valid (a tab goes the careful path)
            assert not valid or (not as_list and gap == "\t" and len(tokens) > 1)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(legal_hands(), st.data())
def test_compiled_and_plain_python_agree_on_the_built_in_variants(
    hand: RandomHand, data: st.DataObject
) -> None:
    from gongzhu_score import find_variant

    rules = find_variant(hand.variant)
    asked = ScoringOptions.parse(None, data.draw(METHODS), data.draw(st.integers(1, 12)))
    norm = asked.normalization(rules)
    parsed = Hand.from_captured(
        hand.captured, exposed=hand.exposed, first_exposed=hand.first_exposed
    )  # type: ignore[arg-type]
    compiled = outcome(lambda: engine.compiled_rules(rules).score(parsed, norm))
    plain = outcome(lambda: pure_engine().CompiledRules(rules).score(parsed, norm))
    assert compiled == plain


def test_the_engine_examples_hold() -> None:
    import doctest

    for module in (pure_engine(), source_copy("hand")):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


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
