"""Issue 35, cause 8: a name must hold a visible character, and two names that look the same are
one name: NFC, and no invisible character that changes nothing (rulings §9). A refusal says
the form to write."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from clitools import ok, refused, run, sample
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score.core.hand import check_name, is_plain_name
from gongzhu_score.core.names import canonical_name, is_canonical_name
from gongzhu_score.errors import GongzhuError

INVISIBLE = ["\u200b", "\u2060", "\u3164", "\u2800", "\u115f", "\u200b\u2060", "\ufe0f", "\u00ad"]


def hand_text(names: tuple[str, str, str, str]) -> str:
    cards = ["QS", "", "", "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JD 10C"]
    return json.dumps(
        {"players": [{"name": n, "captured": c} for n, c in zip(names, cards, strict=True)]}
    )


@pytest.mark.parametrize("name", INVISIBLE, ids=[f"U+{ord(n[0]):04X}" for n in INVISIBLE])
def test_a_name_of_invisible_characters_is_refused_at_every_entry(
    name: str, tmp_path: Path
) -> None:
    ledger = tmp_path / "n.yaml"
    code = f"U+{ord(name[0]):04X}"
    for args in (
        ["match", "new", str(ledger), "-p", f"{name},B,C,D"],
        ["score", "-c", f"{name}=QS", "-c", "南=全红", "-c", "西=JD", "-c", "北=10C"],
    ):
        message = refused(*args)
        assert "has no visible character" in message and code in message, message
    assert not ledger.exists()
    ok("match", "new", str(ledger), "-p", "A,B,C,D")
    before = ledger.read_bytes()
    assert "has no visible character" in refused("match", "rename", str(ledger), "D", name)
    assert ledger.read_bytes() == before
    for suffix in (".yaml", ".jsonl"):  # the YAML reader and the quick JSON Lines paths
        path = tmp_path / f"h{suffix}"
        path.write_text(hand_text((name, "南", "西", "北")) + "\n", encoding="utf-8")
        assert "has no visible character" in refused("batch", str(path))
        assert "has no visible character" in refused("score", str(path))


def test_a_name_with_a_hidden_character_is_refused_with_the_name_to_write(tmp_path: Path) -> None:
    ledger = tmp_path / "m.yaml"
    message = refused("match", "new", str(ledger), "-p", "A\u200b,B,C,D")
    assert message == (
        "--players: player name 'A\\u200b' holds U+200B, which draws nothing, so it would look "
        "like another name: write it 'A'"
    )
    chinese = refused("match", "new", str(ledger), "-p", "张\u2060三,B,C,D", "--lang", "zh")
    assert "U+2060" in chinese and "'张三'" in chinese
    ok("match", "new", str(ledger), "-p", "A,B,C,D")  # the suggested name is taken
    # "A" and "A" + U+200B cannot be two players: the second is refused, not a fifth seat
    message = refused("score", "-c", "A=QS", "-c", "A\u200b=全红", "-c", "C=JD", "-c", "D=10C")
    assert "write it 'A'" in message


def test_a_decomposed_name_is_refused_with_its_composed_form() -> None:
    decomposed = "Rene\u0301"
    message = refused("score", "-c", f"{decomposed}=QS", "-c", "B=全红", "-c", "C=JD",
                      "-c", "D=10C")  # fmt: skip
    assert "write it composed" in message and repr("René") in message
    data = json.loads(ok("score", "-c", "René=QS", "-c", "B=全红", "-c", "C=JD", "-c", "D=10C",
                         "-f", "json"))  # fmt: skip
    assert data["players"][0]["name"] == "René"


ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
DRAWN = ["👨\u200d👩\u200d👧", "❤️", "❤️\u200d🔥", "1️⃣", ENGLAND, "می\u200cخواهم", "张 三"]


@pytest.mark.parametrize("name", DRAWN)
def test_joiners_and_selectors_that_change_the_drawing_are_kept(name: str) -> None:
    assert check_name(name) == name
    data = json.loads(ok("score", "-c", f"{name}=QS", "-c", "B=全红", "-c", "C=JD", "-c",
                         "D=10C", "-f", "json"))  # fmt: skip
    assert data["players"][0]["name"] == name


@pytest.mark.parametrize(
    ("name", "char", "fix"),
    [
        ("e\u200b\u0301", "U+200B", "\u00e9"),  # the removal brings e and its accent together
        ("\u1100\u200b\u1161", "U+200B", "\uac00"),  # Hangul jamo, then one syllable
        ("👨\u200d👩\u200b", "U+200B", "👨\u200d👩"),  # the one removed is named, not the kept
        ("中\u200d文", "U+200D", "中文"),  # a joiner between Chinese characters changes nothing
        ("A\ufe0f", "U+FE0F", "A"),  # an emoji selector after a letter
        ("中\U000e0067", "U+E0067", "中"),  # a tag character outside a flag
        ("A\ufff9", "U+FFF9", "A"),  # a format character
    ],
)
def test_the_form_to_write_is_one_that_is_taken(name: str, char: str, fix: str) -> None:
    with pytest.raises(GongzhuError) as refusal:
        check_name(name)
    assert f"holds {char}," in str(refusal.value) and f"write it {fix!r}" in str(refusal.value)
    assert check_name(fix) == fix


def test_the_library_refuses_the_same_way(tmp_path: Path) -> None:
    from gongzhu_score import Hand, score_hand

    hand = Hand.from_captured({"A\u200b": "QS", "B": "", "C": "", "D": ""}).with_rest("D")
    with pytest.raises(GongzhuError, match="write it 'A'"):
        score_hand(hand)
    assert run("score", sample("seed_minus_400.yaml")).exit_code == 0


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=8))
def test_a_name_is_taken_only_in_its_one_form(name: str) -> None:
    try:
        taken = check_name(name)
    except GongzhuError as e:
        assert not is_plain_name(name)
        fix = canonical_name(name)
        if "write it" in str(e):  # the form suggested is taken as it is
            assert fix and check_name(fix) == fix
        return
    assert taken == name and is_plain_name(name) and is_canonical_name(name)
    assert unicodedata.is_normalized("NFC", name) and canonical_name(name) == name
    assert name.strip() and any(not c.isspace() for c in name)


@given(st.text(max_size=8))
def test_the_one_form_is_one(name: str) -> None:
    once = canonical_name(name)
    assert canonical_name(once) == once
    assert is_canonical_name(once) or once != once.strip()
