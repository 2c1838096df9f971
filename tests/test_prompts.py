"""Entry that forgives (issue 22): the rest (其余) for any one seat at the prompts, a card typed
twice on one line said so, ``match edit`` at the prompts changing only the line picked, and a
hand read from a terminal's standard input said so. Typed answers go through Typer's runner
(``--interactive``); the last tests type them at a real pseudo-terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import SAMPLES, at_a_terminal, done, ok, run
from hypothesis import given
from hypothesis import strategies as st

from gongzhu_score import DECK, SCORING_CARDS, Card, parse_cards
from gongzhu_score.match.storage import read_ledger
from gongzhu_score.terminal.prompts import _notation

MATCH = SAMPLES / "match"
PLAYERS = "东,南,西,北"


@pytest.fixture
def ledger(tmp_path: Path) -> str:
    path = str(tmp_path / "match.yaml")
    done("match", "new", path, "--players", PLAYERS)
    return path


def raws(path: str) -> list[list[int]]:
    return [list(entry.raw) for entry in read_ledger(path).entries]


def flags_raws(*flags: str) -> list[int]:
    """The raws ``score`` gives the same hand from flags (``--rest`` on the command line)."""
    data = json.loads(ok("score", *flags, "-f", "json"))
    return [p["raw"] for p in data["players"]]


# --- the rest, for any one seat --------------------------------------------------------------


def test_the_rest_on_a_middle_seat_counts_the_seats_typed_after_it(ledger: str) -> None:
    # 南 takes the rest before 西 and 北 are typed; what 西 takes is not 南's
    r = run("match", "add", ledger, "-i", input="pig\nrest\n♥AKQ\n\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "scoring cards not placed yet (what is left goes to 南): 2♥ 3♥" in r.stderr
    assert "2. 南: rest (2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ J♦ 10♣)" in r.stderr
    entry = read_ledger(ledger).entries[0]
    assert [c.code for c in entry.hand.players[1].captured] == [
        *(f"{r}H" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J")),
        "JD",
        "10C",
    ]
    # the same hand as the command line's --rest gives it
    assert raws(ledger)[0] == flags_raws(
        "-c", "东=pig", "-c", "南=", "-c", "西=♥AKQ", "-c", "北=", "--rest", "南"
    )


def test_the_rest_on_the_first_seat_and_in_chinese(ledger: str) -> None:
    r = run("match", "add", ledger, "-i", "--lang", "zh", input="其余\n猪\n羊\n\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "尚未分配的分牌（剩下的归东）：猪 羊 变压器 红桃2" in r.stderr
    assert "1. 东：其余（变压器 红桃2 3 4 5 6 7 8 9 10 J Q K A）" in r.stderr
    assert raws(ledger)[0] == flags_raws(
        "-c", "东=", "-c", "南=猪", "-c", "西=羊", "-c", "北=", "--rest", "东"
    )


def test_the_prompts_in_traditional_chinese_read_what_they_print(ledger: str) -> None:
    # 其餘 for the rest, 無 for nothing, the cards in Traditional: each as zh-Hant prints it.
    typed = "其餘\n豬 紅桃2\n羊\n無\n\n\ny\n"
    r = run("match", "add", ledger, "-i", "--lang", "zh-Hant", input=typed)
    assert r.exit_code == 0, r.stderr
    assert "1. 东：其餘（變壓器 紅桃3 4 5 6 7 8 9 10 J Q K A）" in r.stderr
    assert raws(ledger)[0] == flags_raws(
        "-c", "东=", "-c", "南=猪 红桃2", "-c", "西=羊", "-c", "北=", "--rest", "东"
    )


def test_a_second_rest_is_refused_and_its_line_asked_again(ledger: str) -> None:
    r = run("match", "add", ledger, "-i", input="pig\nrest\nrest\n♥AKQ\n\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert (
        "error: 南 takes the rest already, and only one player can; enter this player's cards, "
        "or change 南's line first; try again" in r.stderr
    )
    assert r.stderr.count("西 captured") == 2 and r.stderr.count("北 captured") == 1
    assert read_ledger(ledger).entries[0].hand.players[2].captured == parse_cards("♥AKQ")


def test_the_rest_moves_when_its_line_is_changed_at_the_confirmation(ledger: str) -> None:
    # 南 took the rest; at the confirmation 南's line gets cards, then 北 takes the rest
    answers = "pig\nrest\n♥AKQ\n\n\n\n" + "2\nsheep\n4\nrest\ny\n"
    r = run("match", "add", ledger, "-i", input=answers)
    assert r.exit_code == 0, r.stderr
    hand = read_ledger(ledger).entries[0].hand
    assert hand.players[1].captured == parse_cards("JD")
    assert len(hand.players[3].captured) == 11  # ten hearts and the transformer


def test_a_second_rest_at_the_confirmation_is_refused_too(ledger: str) -> None:
    answers = "pig\nrest\n♥AKQ\n\n\n\n" + "4\nrest\n\ny\n"
    r = run("match", "add", ledger, "-i", input=answers)
    assert r.exit_code == 0, r.stderr
    assert "error: 南 takes the rest already" in r.stderr
    assert read_ledger(ledger).entries[0].hand.players[3].captured == ()


# --- a card typed twice on its own line -------------------------------------------------------


def test_a_card_typed_twice_on_one_line_is_said_so_not_given_to_its_own_player(ledger: str) -> None:
    r = run(
        "match", "add", ledger, "-i", "--lang", "zh", input="猪 红桃Q 红桃Q\n猪\n\n\n其余\n\n\ny\n"
    )
    assert r.exit_code == 0, r.stderr
    assert "红桃Q在东这一行写了 2 次，但一副牌只有一张；请重新输入东的牌" in r.stderr
    assert "已经是东的了" not in r.stderr
    r = run("match", "add", ledger, "-i", input="QH QH\nQH\n\n\nrest\n\n\ny\n")
    assert (
        "Q♥ is typed 2 times on 东's line, but a deck has one; enter 东's cards again" in r.stderr
    )


def test_a_card_typed_three_times_on_one_line_with_two_decks(tmp_path: Path) -> None:
    path = str(tmp_path / "two.yaml")
    done("match", "new", path, "--players", PLAYERS, "--variant", "two-deck")
    r = run("match", "add", path, "-i", input="羊 羊 羊\n羊 羊\n\n\nrest\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "J♦ is typed 3 times on 东's line, but two decks have two" in r.stderr


# --- match edit at the prompts: the hand as it is, only the line picked -----------------------


@pytest.fixture
def played(ledger: str) -> str:
    ok("match", "add", ledger, str(MATCH / "hand1.yaml"))
    ok("match", "add", ledger, str(MATCH / "hand2.yaml"))
    return ledger


def test_edit_shows_the_hand_in_the_table_s_notation_and_asks_only_the_line_picked(
    played: str,
) -> None:
    before = read_ledger(played)
    r = run("match", "edit", played, "1", "-i", "--lang", "zh", input="5\n-\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "1. 东：猪 变压器 红桃6 8 10 J" in r.stderr
    assert "2. 南：红桃2 3 4 5 7 9 A" in r.stderr
    assert "5. 亮牌：南=红桃A" in r.stderr
    assert "[2H" not in r.stderr and "收的牌" not in r.stderr  # no codes, no line walked again
    assert r.stderr.count("亮牌：姓名=牌") == 1  # the one line picked
    after = read_ledger(played)
    old, new = before.entries[0].hand, after.entries[0].hand
    assert [p.captured for p in new.players] == [p.captured for p in old.players]
    assert [p.exposed for p in new.players] == [(), (), (), ()]
    assert after.entries[1].hand == before.entries[1].hand
    assert raws(played)[0] == [-300, -80, 30, 0]  # A♥ no longer exposed
    assert "已替换第 1 局" in r.stdout


def test_edit_a_player_s_line_with_its_old_value_offered_in_the_table_s_notation(
    played: str,
) -> None:
    # 西's line becomes the sheep alone; Q♥ K♥ are then nobody's, and 北 takes the rest
    r = run("match", "edit", played, "1", "-i", input="3\nsheep\n4\nrest\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "西 captured (-: nothing; rest: every scoring card left) [Q♥ K♥ J♦]:" in r.stderr
    assert "scoring cards nobody took: Q♥ K♥" in r.stderr
    hand = read_ledger(played).entries[0].hand
    assert hand.players[2].captured == parse_cards("JD")
    assert hand.players[3].captured == parse_cards("QH KH")


def test_edit_enter_keeps_a_line_as_it_was(played: str) -> None:
    # line 1 picked, Enter keeps 东's cards (offered in the notation, read back the same)
    r = run("match", "edit", played, "1", "-i", input="1\n\n5\n-\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "东 captured (-: nothing; rest: every scoring card left) [Q♠ 6♥ 8♥ 10♥ J♥ 10♣]:" in (
        r.stderr
    )
    kept = read_ledger(played).entries[0].hand.players[0].captured
    assert sorted(c.code for c in kept) == sorted(["QS", "10C", "6H", "8H", "10H", "JH"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_edit_at_the_prompts_prints_the_new_totals_as_add_does(tmp_path: Path, lang: str) -> None:
    edited, added = str(tmp_path / "edited.yaml"), str(tmp_path / "added.yaml")
    for path in (edited, added):
        done("match", "new", path, "--players", PLAYERS)
    ok("match", "add", edited, str(MATCH / "hand1.yaml"))
    r = run("match", "edit", edited, "1", "-i", "--lang", lang, input="5\n-\ny\n")  # no 亮牌
    assert r.exit_code == 0, r.stderr
    replaced = "hand 1 replaced\n" if lang == "en" else "已替换第 1 局\n"
    after_edit = r.stdout.partition(replaced)[2]
    typed = "QS 6H 8H 10H JH 10C\nAH 2H 3H 4H 5H 7H 9H\nJD QH KH\n\n\n\ny\n"  # the same hand
    a = run("match", "add", added, "-i", "--lang", lang, input=typed)
    assert a.exit_code == 0, a.stderr
    after_add = a.stdout.partition("added as hand 1\n" if lang == "en" else "已添加为第 1 局\n")[2]
    assert after_edit == after_add and after_edit.count("\n") >= 2
    assert "-300" in after_edit and "-283" in after_edit  # the raw and final totals after it


@pytest.mark.parametrize("answers", ["n\n", "y\n", "\n", "5\n南=红桃A\ny\n", "1\n\ny\n"])
def test_edit_cancelled_or_confirmed_unchanged_leaves_the_ledger_byte_for_byte(
    played: str, answers: str
) -> None:
    before = Path(played).read_bytes()
    history = Path(played + ".history").read_bytes()
    r = run("match", "edit", played, "1", "-i", input=answers)
    assert r.exit_code == 1, r.stderr
    assert "nothing was changed" in r.stderr
    assert Path(played).read_bytes() == before
    assert Path(played + ".history").read_bytes() == history


# --- the notation a line is offered in reads back ---------------------------------------------


@given(st.lists(st.sampled_from(DECK), max_size=20), st.sampled_from(["en", "zh"]))
def test_a_line_offered_in_the_table_s_notation_reads_back_as_its_cards(
    cards: list[Card], lang: str
) -> None:
    text = _notation(cards, lang)
    assert sorted(parse_cards(text, decks=2), key=lambda c: c.sort_key) == sorted(
        cards, key=lambda c: c.sort_key
    ), text
    scoring = [c for c in cards if c in SCORING_CARDS]
    if lang == "zh" and scoring:
        assert not any(ch in text for ch in "♠♥♦♣")  # one notation: the table's


# --- at a real terminal ------------------------------------------------------------------------


def test_score_dash_at_a_terminal_says_it_is_reading_and_how_to_end(tmp_path: Path) -> None:
    hand = (SAMPLES / "seed_minus_400.yaml").read_bytes()
    done = at_a_terminal(["score", "-"], hand, tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    err = done.stderr.decode()
    assert err.splitlines()[0] == (
        "reading a hand from standard input: type or paste it, then press Ctrl-D at the start "
        "of a line (Ctrl-Z then Enter on Windows)"
    )
    assert "-400" in done.stdout.decode()
    zh = at_a_terminal(["score", "-", "--lang", "zh"], hand, tmp_path)
    assert zh.stderr.decode().startswith("正在从标准输入读取牌局")


def test_score_dash_from_a_pipe_says_nothing_of_it() -> None:
    r = run("score", "-", input=(SAMPLES / "seed_minus_400.yaml").read_text(encoding="utf-8"))
    assert r.exit_code == 0 and r.stderr == ""


def test_an_evening_at_a_terminal_the_rest_on_a_middle_seat_then_one_line_edited(
    tmp_path: Path,
) -> None:
    env = {"GONGZHU_LANG": "zh"}
    new = at_a_terminal(
        ["match", "new", "牌局.yaml", "-p", "老王,小李,阿芳,大刘"], b"", tmp_path, env
    )
    assert new.returncode == 0, new.stderr.decode()
    # 小李 takes the rest (a middle seat) before 阿芳 and 大刘 are typed; 阿芳 types 羊 twice
    typed = "猪 变压器\n其余\n羊 羊\n羊\n红桃K\n小李=红桃A\n\ny\n".encode()
    added = at_a_terminal(["match", "add", "牌局.yaml"], typed, tmp_path, env)
    assert added.returncode == 0, added.stderr.decode()
    err = added.stderr.decode()
    assert "羊在阿芳这一行写了 2 次" in err
    assert "2. 小李：其余（红桃2 3 4 5 6 7 8 9 10 J Q A）" in err
    path = str(tmp_path / "牌局.yaml")
    hand = [
        "-c",
        "老王=猪 变压器",
        "-c",
        "小李=",
        "-c",
        "阿芳=羊",
        "-c",
        "大刘=红桃K",
        "--rest",
        "小李",
    ]
    assert raws(path)[0] == flags_raws(*hand, "-e", "小李=红桃A")
    # the exposure of hand 1 is taken back; no other line is typed again
    edited = at_a_terminal(["match", "edit", "牌局.yaml", "1"], b"5\n-\ny\n", tmp_path, env)
    assert edited.returncode == 0, edited.stderr.decode()
    assert "5. 亮牌：小李=红桃A" in edited.stderr.decode()
    assert "收的牌" not in edited.stderr.decode()
    assert raws(path)[0] == flags_raws(*hand)
