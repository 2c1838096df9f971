"""Two decks, the next leader (issue 21, rulings §8 and §10): under ``first_lead: pig`` a hand is
led by "上一局第一个得到猪牌的一方", the first of the two pig takers. A ledger entered by captured
cards cannot see who that was, so ``match add``/``edit`` ask it (``--first-pig``, the prompts,
or a trick record's own), store it as the entry's ``first_pig:`` line, and ``match show`` names
one next leader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused, run

from gongzhu_score.core.cards import parse_cards
from gongzhu_score.core.hand import Hand, PlayerHand
from gongzhu_score.errors import FirstPigError, GongzhuError, LedgerError
from gongzhu_score.io.fields import HandSpec
from gongzhu_score.io.yamlfile import load_yaml
from gongzhu_score.match.actions import add_hand, edit_hand
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import read_ledger

NAMES = "东,南,西,北"
# 东 and 南 each take a pig; 北 takes every heart (full red): nobody's match ends for hands.
TWO_TAKERS = ["-c", "东=猪", "-c", "南=猪 羊", "-c", "西=", "--rest", "北"]
ONE_TAKER = ["-c", "东=猪 猪", "-c", "南=羊", "-c", "西=", "--rest", "北"]  # 东 took both


def new_ledger(tmp_path: Path, *options: str, name: str = "match.yaml") -> str:
    path = str(tmp_path / name)
    done("match", "new", path, "--players", NAMES, *options)
    return path


@pytest.fixture
def two_decks(tmp_path: Path) -> str:
    return new_ledger(tmp_path, "--variant", "two-deck")


def show(path: str) -> dict:  # type: ignore[type-arg]
    return json.loads(ok("match", "show", path, "--format", "json"))


def hand_of(cards: dict[str, str]) -> Hand:
    return Hand(tuple(PlayerHand(n, parse_cards(c, 2)) for n, c in cards.items()))


TWO_TAKERS_HAND = {"东": "QS", "南": "QS JD", "西": "", "北": "全红 JD 10C 10C"}


# --- match add: refused without it, stored with it ------------------------------------------------


def test_two_takers_without_first_pig_are_refused_naming_both_and_the_flag(two_decks: str) -> None:
    before = Path(two_decks).read_bytes()
    said = refused("match", "add", two_decks, *TWO_TAKERS)
    assert said == (
        "东 and 南 each took a pig: who took the first leads the next hand (first_lead: pig), so "
        "say which; give --first-pig 东 (or --first-pig 南)"
    )
    said = refused("match", "add", two_decks, *TWO_TAKERS, "--lang", "zh")
    assert "东、南各收了一只猪" in said
    assert "请加上 --first-pig 东（或 --first-pig 南）" in said
    assert Path(two_decks).read_bytes() == before  # byte for byte
    assert show(two_decks)["hands"] == []


def test_first_pig_is_stored_read_back_and_leads_the_next_hand(two_decks: str) -> None:
    out = ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", " 南 ")  # trimmed
    assert "南 leads the next hand (took the first pig)" in out
    text = Path(two_decks).read_text(encoding="utf-8")
    assert '  first_exposed: {}\n  first_pig: "南"\n  partial: false\n' in text
    entry = read_ledger(two_decks).entries[0]
    assert (entry.first_pig, entry.pig_takers, entry.pig_leaders) == ("南", ("东", "南"), ("南",))
    data = show(two_decks)
    assert data["next_lead"] == ["南"]
    assert data["hands"][0]["pig"] == ["东", "南"]
    assert data["hands"][0]["first_pig"] == "南"
    shown = ok("match", "show", two_decks)
    assert "in play after 1 hand; 南 leads the next hand (took the first pig)" in shown
    assert "东 or 南" not in shown  # one leader, not both takers
    zh = ok("match", "show", two_decks, "--lang", "zh")
    assert "下一局由南先出（上一局第一个得到猪）" in zh
    one = json.loads(ok("match", "show", two_decks, "1", "--format", "json"))
    assert one["first_pig"] == "南"
    assert "\n南 took the first pig\n" in ok("match", "show", two_decks, "1")
    # the other taker leads when it is the other who was first
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "东")
    assert show(two_decks)["next_lead"] == ["东"]
    assert done("match", "verify", two_decks)[1] == f"{two_decks}: 2 hands, every number agrees\n"


def test_a_first_pig_who_took_no_pig_is_refused(two_decks: str) -> None:
    before = Path(two_decks).read_bytes()
    assert refused("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "西") == (
        "first pig '西': '西' took no pig in this hand (东 and 南 did)"
    )
    assert "'X' took no pig" in refused("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "X")
    zh = refused("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "西", "--lang", "zh")
    assert zh == "第一只猪 '西'：'西' 这一局没有收猪（收猪的是东、南）"
    assert Path(two_decks).read_bytes() == before


def test_one_player_taking_both_pigs_needs_no_first_pig(two_decks: str) -> None:
    ok("match", "add", two_decks, *ONE_TAKER)
    ok("match", "add", two_decks, *ONE_TAKER, "--first-pig", "东")  # implied: accepted
    assert refused("match", "add", two_decks, *ONE_TAKER, "--first-pig", "南") == (
        "first pig '南': '南' took no pig in this hand (东 did)"
    )
    assert "first_pig" not in Path(two_decks).read_text(encoding="utf-8")  # implied: not stored
    assert [e.first_pig for e in read_ledger(two_decks).entries] == [None, None]
    assert show(two_decks)["next_lead"] == ["东"]


def test_one_deck_first_pig_may_name_the_pigs_taker_only(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path)
    hand = ["-c", "东=猪", "-c", "南=羊", "-c", "西=", "--rest", "北"]
    ok("match", "add", ledger, *hand, "--first-pig", "东")
    assert "first_pig" not in Path(ledger).read_text(encoding="utf-8")
    assert refused("match", "add", ledger, *hand, "--first-pig", "北") == (
        "first pig '北': '北' took no pig in this hand (东 did)"
    )
    partial = ["-c", "东=羊", "-c", "南=", "-c", "西=", "-c", "北=", "--partial"]
    assert refused("match", "add", ledger, *partial, "--first-pig", "东") == (
        "first pig '东': nobody took a pig in this hand"
    )


def test_under_rotation_who_took_the_first_pig_is_not_asked(tmp_path: Path) -> None:
    rules = tmp_path / "two-rotation.yaml"
    rules.write_text("extends: two-deck\nname: two-rotation\nfirst_lead: rotation\n",
                     encoding="utf-8")  # fmt: skip
    ledger = new_ledger(tmp_path, "--rules", str(rules))
    ok("match", "add", ledger, *TWO_TAKERS)  # not asked: it decides nothing
    assert show(ledger)["next_lead"] == ["南"]  # seat 2, by rotation
    ok("match", "add", ledger, *TWO_TAKERS, "--first-pig", "东")  # said anyway: kept
    assert [e.first_pig for e in read_ledger(ledger).entries] == [None, "东"]
    assert show(ledger)["next_lead"] == ["西"]  # still the rotation
    assert "took no pig" in refused("match", "add", ledger, *TWO_TAKERS, "--first-pig", "西")


# --- edit, rename, undo, restore, verify ----------------------------------------------------------


def test_edit_with_first_pig(two_decks: str) -> None:
    ok("match", "add", two_decks, *ONE_TAKER)
    ok("match", "add", two_decks, *ONE_TAKER)
    before = Path(two_decks).read_bytes()
    said = refused("match", "edit", two_decks, "1", *TWO_TAKERS)
    assert said.endswith("give --first-pig 东 (or --first-pig 南)")
    assert Path(two_decks).read_bytes() == before
    done("match", "edit", two_decks, "1", *TWO_TAKERS, "--first-pig", "南")
    ledger = read_ledger(two_decks)
    assert [e.first_pig for e in ledger.entries] == ["南", None]
    assert show(two_decks)["next_lead"] == ["东"]  # the last hand leads, and there 东 took both
    done("match", "edit", two_decks, "2", *TWO_TAKERS, "--first-pig", "南")
    assert show(two_decks)["next_lead"] == ["南"]
    # replaced whole: an edit that needs it again says it again
    assert "--first-pig" in refused("match", "edit", two_decks, "2", *TWO_TAKERS)


def test_rename_renames_the_first_pig_too(two_decks: str) -> None:
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "南")
    done("match", "rename", two_decks, "南", "小南")
    assert '  first_pig: "小南"\n' in Path(two_decks).read_text(encoding="utf-8")
    assert show(two_decks)["next_lead"] == ["小南"]
    assert done("match", "verify", two_decks)[0] == ""


def test_undo_gives_the_command_with_first_pig_and_restore_brings_it_back(two_decks: str) -> None:
    ok("match", "add", two_decks, *ONE_TAKER)
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "南")
    after_add = Path(two_decks).read_bytes()
    undone = ok("match", "undo", two_decks)
    assert "--first-pig '南'" in undone  # (shlex quotes it)
    done("match", "restore", two_decks)
    assert Path(two_decks).read_bytes() == after_add
    done("match", "restore", two_decks)  # reverts the add itself
    assert b"first_pig" not in Path(two_decks).read_bytes()
    assert len(read_ledger(two_decks).entries) == 1
    assert done("match", "verify", two_decks)[1] == f"{two_decks}: 1 hand, every number agrees\n"


def test_verify_passes_and_the_text_is_written_the_same(two_decks: str) -> None:
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "东")
    ok("match", "add", two_decks, *ONE_TAKER)
    text = Path(two_decks).read_text(encoding="utf-8")
    assert read_ledger(two_decks).to_text() == text
    assert read_ledger(two_decks).verify() == []
    assert text.count("first_pig") == 1


def test_a_ledger_written_before_first_pig_reads_and_writes_the_same() -> None:
    sample = SAMPLES / "match" / "ledger.yaml"
    text = sample.read_text(encoding="utf-8")
    ledger = Ledger.from_data(load_yaml(text, str(sample)))
    assert ledger.to_text() == text
    assert all(e.first_pig is None for e in ledger.entries)


def test_two_takers_without_first_pig_in_a_stored_ledger_name_both(two_decks: str) -> None:
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "南")
    path = Path(two_decks)
    path.write_text(path.read_text(encoding="utf-8").replace('  first_pig: "南"\n', ""),
                    encoding="utf-8")  # fmt: skip
    assert show(two_decks)["next_lead"] == ["东", "南"]  # not known: both, as before
    assert "东 or 南 leads the next hand (took the pig)" in ok("match", "show", two_decks)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '  first_pig: "西"\n',
            "hands[1]: first pig '西': '西' took no pig in this hand (东 and 南 did)",
        ),
        ("  first_pig: 3\n", "hands[1]: first_pig: expected str, found 3"),
    ],
)
def test_a_stored_first_pig_is_checked(two_decks: str, line: str, message: str) -> None:
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "南")
    path = Path(two_decks)
    path.write_text(path.read_text(encoding="utf-8").replace('  first_pig: "南"\n', line),
                    encoding="utf-8")  # fmt: skip
    before = path.read_bytes()
    for command in (["show"], ["verify"], ["add", *ONE_TAKER]):
        assert refused("match", command[0], two_decks, *command[1:]) == f"{two_decks}: {message}"
    assert path.read_bytes() == before


# --- the library ----------------------------------------------------------------------------------


def test_ledger_add_and_edit_ask_first_pig_only_where_it_decides() -> None:
    ledger = Ledger.new(NAMES.split(","), "two-deck")
    hand = hand_of(TWO_TAKERS_HAND)
    assert ledger.asks_first_pig(hand)
    with pytest.raises(FirstPigError) as refusal:
        ledger.add(hand)
    assert refusal.value.takers == ("东", "南")
    assert refusal.value.within("f.yaml").takers == ("东", "南")
    added, _ = ledger.add(hand, first_pig="东")
    assert added.entries[-1].first_pig == "东" and added.next_lead() == ("东",)
    with pytest.raises(LedgerError, match="'北' took no pig"):
        added.edit(1, hand, first_pig="北")
    with pytest.raises(GongzhuError, match="a player name is text, not 3"):
        added.edit(1, hand, first_pig=3)  # type: ignore[arg-type]
    edited, _ = added.edit(1, hand, first_pig="南")
    assert edited.next_lead() == ("南",)
    both = hand_of({"东": "QS QS", "南": "JD", "西": "", "北": "全红 JD 10C 10C"})
    assert not ledger.asks_first_pig(both)
    assert ledger.first_pig_for(both, "东") is None  # implied: not stored
    assert ledger.add(both)[0].next_lead() == ("东",)


def test_add_hand_takes_a_spec_with_its_first_pig(two_decks: str) -> None:
    spec = HandSpec(hand_of(TWO_TAKERS_HAND), first_pig="南")  # as a trick record gives it
    added = add_hand(two_decks, spec)
    assert added.ledger.entries[-1].first_pig == "南"
    assert add_hand(two_decks, lambda ledger: spec, first_pig="南").ledger.next_lead() == ("南",)
    before = Path(two_decks).read_bytes()
    with pytest.raises(LedgerError) as differs:
        add_hand(two_decks, spec, first_pig="东", source="record.yaml")
    assert (
        str(differs.value) == "record.yaml: who took the first pig: the record says '南', not '东'"
    )
    assert Path(two_decks).read_bytes() == before
    without = HandSpec(hand_of(TWO_TAKERS_HAND))
    with pytest.raises(FirstPigError):
        add_hand(two_decks, without)
    assert add_hand(two_decks, without, first_pig="东").ledger.next_lead() == ("东",)
    edited = edit_hand(two_decks, 1, HandSpec(hand_of(TWO_TAKERS_HAND), first_pig="东"))
    assert edited.ledger.entries[0].first_pig == "东"


# --- the prompts ----------------------------------------------------------------------------------

# 东 pig; 南 pig and sheep; 西 nothing; 北 the rest; no exposures (two decks: no 首明)
CARDS = "猪\n猪 羊\n\nrest\n\n"


def test_prompts_ask_who_took_the_first_pig_and_check_the_answer(two_decks: str) -> None:
    r = run("match", "add", two_decks, "-i", input=CARDS + "西\n\n南\ny\n")
    assert r.exit_code == 0, r.stderr
    assert r.stderr.count("who took the first pig? (东 or 南):") == 3
    assert (
        "error: first pig '西': '西' took no pig in this hand (东 and 南 did); try again"
        in r.stderr
    )
    assert "error: 东 and 南 each took a pig" in r.stderr  # an empty answer is asked again too
    assert "6. first pig: 南" in r.stderr
    assert "[y/n/1-6]" in r.stderr
    assert read_ledger(two_decks).entries[0].first_pig == "南"
    assert "南 leads the next hand (took the first pig)" in r.stdout


def test_prompts_the_first_pig_line_can_be_changed_at_the_confirmation(two_decks: str) -> None:
    r = run("match", "add", two_decks, "-i", input=CARDS + "南\n6\n东\ny\n")
    assert r.exit_code == 0, r.stderr
    assert read_ledger(two_decks).entries[0].first_pig == "东"


def test_prompts_in_chinese(two_decks: str) -> None:
    r = run("match", "add", two_decks, "-i", "--lang", "zh", input=CARDS + "东\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "谁先得到第一只猪？（东、南）" in r.stderr
    assert "6. 第一只猪：东" in r.stderr
    assert read_ledger(two_decks).entries[0].first_pig == "东"


def test_prompts_do_not_ask_when_one_player_took_both_pigs(two_decks: str) -> None:
    r = run("match", "add", two_decks, "-i", input="猪 猪\n羊\n\nrest\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "first pig" not in r.stderr
    assert "[y/n/1-5]" in r.stderr


def test_prompts_do_not_ask_with_one_deck(tmp_path: Path) -> None:
    ledger = new_ledger(tmp_path)
    r = run("match", "add", ledger, "-i", input="猪\n羊\n\nrest\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "first pig" not in r.stderr


def test_prompts_ask_again_when_a_changed_line_makes_the_answer_wrong(two_decks: str) -> None:
    # 南 said first; then line 2 leaves 南's pig to 北, who takes the rest: asked again
    answers = CARDS + "南\n2\n羊\n北\ny\n"
    r = run("match", "add", two_decks, "-i", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "who took the first pig? (东 or 北):" in r.stderr  # 南, no longer one, not offered
    entry = read_ledger(two_decks).entries[0]
    assert (entry.pig_takers, entry.first_pig) == (("东", "北"), "北")


def test_prompts_start_from_first_pig_given_as_a_flag(two_decks: str) -> None:
    r = run("match", "add", two_decks, "-i", "--first-pig", "东", input=CARDS + "y\n")
    assert r.exit_code == 0, r.stderr
    assert "who took the first pig?" not in r.stderr
    assert "6. first pig: 东" in r.stderr
    assert read_ledger(two_decks).entries[0].first_pig == "东"


def test_prompts_edit_shows_the_first_pig_and_enter_keeps_it(two_decks: str) -> None:
    ok("match", "add", two_decks, *TWO_TAKERS, "--first-pig", "南")
    before = Path(two_decks).read_bytes()
    # the edit starts at the confirmation: line 6 is the first pig, Enter keeps it
    r = run("match", "edit", two_decks, "1", "-i", input="6\n\ny\n")
    assert r.exit_code == 1, r.stderr  # confirmed as it was: nothing changed
    assert "6. first pig: 南" in r.stderr
    assert "who took the first pig? (东 or 南) [南]:" in r.stderr
    assert Path(two_decks).read_bytes() == before
    r = run("match", "edit", two_decks, "1", "-i", input="6\n东\ny\n")
    assert r.exit_code == 0, r.stderr
    assert read_ledger(two_decks).entries[0].first_pig == "东"
