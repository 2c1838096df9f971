"""Notes and time (issue 22, item 5): each hand of a match keeps when it was entered and an
optional note (`match add … --note TEXT`), shown by `match show LEDGER N` and exported; a note
is user text, checked like a name; the time comes from the command line's clock
(GONGZHU_NOW for a fixed one); ledgers written before stay readable, byte for byte."""

from __future__ import annotations

import json
import shlex
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from clitools import SAMPLES, done, ok, refused, run
from hypothesis import given
from hypothesis import strategies as st

from gongzhu_score import Hand
from gongzhu_score.errors import LedgerError
from gongzhu_score.match.ledger import MAX_NOTE, Ledger, check_note, entered_text, parse_time
from gongzhu_score.match.storage import _parse, read_ledger

MATCH = SAMPLES / "match"
NOW = "2026-11-30T21:05:00+08:00"
LATER = "2026-11-30T21:40:00+08:00"


def hand(n: int) -> str:
    return str(MATCH / f"hand{n}.yaml")


@pytest.fixture
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GONGZHU_NOW", NOW)
    path = tmp_path / "tonight.yaml"
    done("match", "new", str(path), "-p", "东,南,西,北")
    return path


def entries(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return json.loads(ok("match", "show", str(path), "-f", "json"))["hands"]  # type: ignore[no-any-return]


def test_a_hand_keeps_when_it_was_entered_and_its_note(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok("match", "add", str(ledger), hand(1), "--note", "  老王 dealt; 东 claims -200  ")
    monkeypatch.setenv("GONGZHU_NOW", LATER)
    ok("match", "add", str(ledger), hand(2))
    text = ledger.read_text(encoding="utf-8")
    assert (
        f'- hand: 1\n  entered: "{NOW}"\n  note: "老王 dealt; 东 claims -200"\n  captured: ' in text
    )  # (trimmed)
    assert f'- hand: 2\n  entered: "{LATER}"\n  captured: ' in text  # no note: no line
    assert [(h["entered"], h["note"]) for h in entries(ledger)] == [
        (NOW, "老王 dealt; 东 claims -200"),
        (LATER, None),
    ]
    shown = ok("match", "show", str(ledger), "1")
    assert shown.endswith(f"\nentered {NOW}\nnote: 老王 dealt; 东 claims -200\n")
    zh = ok("match", "show", str(ledger), "1", "--lang", "zh")
    assert zh.endswith(f"\n录入于 {NOW}\n备注：老王 dealt; 东 claims -200\n")
    assert ok("match", "show", str(ledger), "2").endswith(f"\nentered {LATER}\n")
    one = json.loads(ok("match", "show", str(ledger), "1", "-f", "json"))
    assert (one["entered"], one["note"]) == (NOW, "老王 dealt; 东 claims -200")
    assert done("match", "verify", str(ledger))[0] == ""  # the numbers agree


def test_export_has_the_time_and_the_note_of_each_hand(ledger: Path) -> None:
    ok("match", "add", str(ledger), hand(1), "--note", "=HYPERLINK(x)")
    ok("match", "add", str(ledger), hand(2))
    assert ok("match", "export", str(ledger), "--totals").splitlines() == [
        "hand,东,南,西,北,entered,note",
        f"1,-333,-13,147,200,{NOW},'=HYPERLINK(x)",  # a note is text: neutralised like a name
        f"2,333,-387,-13,67,{NOW},",
        "total,0,-400,134,267,,",
    ]
    rows = json.loads(ok("match", "export", str(ledger), "-f", "json", "--values", "raw"))
    assert rows[0] == {"hand": 1, "entered": NOW, "note": "=HYPERLINK(x)", "东": -400,
                       "南": -160, "西": -40, "北": 0}  # fmt: skip
    assert rows[1]["note"] is None


def test_edit_keeps_the_time_and_the_note_unless_a_new_note_is_given(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ok("match", "add", str(ledger), hand(1), "--note", "first")
    monkeypatch.setenv("GONGZHU_NOW", LATER)
    done("match", "edit", str(ledger), "1", hand(3))
    assert [(h["entered"], h["note"]) for h in entries(ledger)] == [(NOW, "first")]
    done("match", "edit", str(ledger), "1", hand(1), "--note", "fixed: 南 had the pig")
    assert entries(ledger)[0]["note"] == "fixed: 南 had the pig"
    done("match", "edit", str(ledger), "1", hand(1), "--note", "")
    assert entries(ledger)[0] == {**entries(ledger)[0], "entered": NOW, "note": None}
    assert "  note: " not in ledger.read_text(encoding="utf-8")


def test_undo_gives_the_note_back_and_restore_is_exact(ledger: Path) -> None:
    ok("match", "add", str(ledger), hand(1), "--note", "it's 东's deal")
    before = ledger.read_bytes()
    text = ok("match", "undo", str(ledger))
    command = next(line for line in text.splitlines() if line.startswith("To enter it again: "))
    words = shlex.split(command.removeprefix("To enter it again: "))
    assert words[-2:] == ["--note", "it's 东's deal"]
    ok("match", "restore", str(ledger))
    assert ledger.read_bytes() == before
    done("match", "edit", str(ledger), "1", hand(2), "--note", "changed")
    ok("match", "restore", str(ledger))
    assert ledger.read_bytes() == before
    ok(*words[1:])  # the command given back adds the hand again, its note too
    assert entries(ledger)[0]["note"] == "it's 东's deal"


@pytest.mark.parametrize(
    ("note", "said"),
    [
        ("red\x1b[31m", "note 'red\\x1b[31m' holds U+001B: a note is one line"),
        ("two\nlines", "note 'two\\nlines' holds U+000A"),
        ("\u202eevil", "holds U+202E"),
        ("x" * (MAX_NOTE + 1), f"a note is at most {MAX_NOTE} characters; this one has 201"),
    ],
)
def test_a_note_a_hand_cannot_keep_is_refused_naming_the_flag_and_nothing_changes(
    ledger: Path, note: str, said: str
) -> None:
    before = ledger.read_bytes()
    message = refused("match", "add", str(ledger), hand(1), "--note", note)
    assert message.startswith("--note: ") and said in message
    assert "\x1b" not in message and "\n" not in message
    assert ledger.read_bytes() == before
    # At the prompts it is refused before any card is asked.
    r = run("match", "add", str(ledger), "--interactive", "--note", note, input="猪\n")
    assert r.exit_code == 2 and "收的牌" not in r.stderr and " captured" not in r.stderr
    assert ledger.read_bytes() == before


def test_a_clock_that_is_no_time_is_refused_naming_it(
    ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = ledger.read_bytes()
    for bad in ("tonight", "2026-11-30T21:05:00", "2026-13-30T21:05:00+08:00"):
        monkeypatch.setenv("GONGZHU_NOW", bad)
        assert refused("match", "add", str(ledger), hand(1)) == (
            f"GONGZHU_NOW: expected a time in ISO 8601 with its UTC offset, e.g. "
            f"2026-11-30T21:05:00+08:00; found '{bad}'"
        )
    assert ledger.read_bytes() == before
    monkeypatch.delenv("GONGZHU_NOW")  # the real clock: now, with the local offset
    ok("match", "add", str(ledger), hand(1))
    entered = datetime.fromisoformat(entries(ledger)[0]["entered"])
    assert entered.utcoffset() is not None
    assert abs(entered - datetime.now(timezone.utc)) < timedelta(minutes=5)


# --- ledgers written before: readable, and the same bytes ---------------------------------------


def test_a_ledger_written_before_reads_and_rewrites_byte_for_byte(tmp_path: Path) -> None:
    raw = (MATCH / "ledger.yaml").read_bytes()
    assert b"entered" not in raw
    assert read_ledger(str(MATCH / "ledger.yaml")).to_text().encode("utf-8") == raw
    # Two hands of it, then one added today: the old blocks stay as they were.
    old = raw[: raw.index(b"- hand: 3")]
    path = tmp_path / "old.yaml"
    path.write_bytes(old)
    ok("match", "add", str(path), hand(3), "--note", "the last one")
    new = path.read_bytes()
    assert new.startswith(old)
    assert b'  note: "the last one"\n' in new[len(old) :]
    done("match", "rename", str(path), "北", "小北")  # rewritten whole: old hands keep no time
    entries_ = [e for e in read_ledger(str(path)).entries]
    assert [e.entered is None for e in entries_] == [True, True, False]


def test_a_hand_edited_time_or_note_is_refused_naming_the_place(tmp_path: Path) -> None:
    text = (MATCH / "ledger.yaml").read_text(encoding="utf-8")
    for line, said in [
        ('  entered: "yesterday"\n', "hands[1]: entered: expected a time in ISO 8601"),
        ("  entered: 2026-11-30\n", "hands[1]: entered: expected str"),
        ('  note: "\\u001b[2J"\n', "hands[1]: note '\\x1b[2J' holds U+001B"),
        ('  note: " padded "\n', "hands[1]: note ' padded ': a stored note is trimmed"),
        ('  note: ""\n', "hands[1]: note '': a stored note is trimmed and not empty"),
    ]:
        path = tmp_path / "edited.yaml"
        path.write_text(text.replace("- hand: 1\n", f"- hand: 1\n{line}"), encoding="utf-8")
        message = refused("match", "show", str(path))
        assert said in message, message


# --- the library -----------------------------------------------------------------------------------


def test_the_library_takes_the_time_as_an_argument() -> None:
    ledger = Ledger.new(["东", "南", "西", "北"])
    cards = Hand.from_captured({"东": "QS", "南": "全红", "西": "JD 10C", "北": ""})
    when = datetime(2026, 11, 30, 21, 5, 7, 123456, tzinfo=timezone(timedelta(hours=8)))
    added, _ = ledger.add(cards, entered=when, note="x")
    assert (added.entries[0].entered, added.entries[0].note) == ("2026-11-30T21:05:07+08:00", "x")
    assert ledger.add(cards)[0].entries[0].entered is None  # no clock given: no time kept
    with pytest.raises(LedgerError, match="with its UTC offset"):
        ledger.add(cards, entered=datetime(2026, 11, 30, 21, 5))
    assert parse_time("2026-11-30T21:05:07.500-03:30", "x").utcoffset() == timedelta(hours=-3.5)
    with pytest.raises(LedgerError, match="x: expected a time"):
        parse_time("2026-11-30T21:05:07.5-03:30", "x")  # (a form Python 3.10 does not read)
    with pytest.raises(LedgerError, match="x: expected a time"):
        parse_time("2026-11-30 21:05:07+08:00", "x")
    assert entered_text(when) == "2026-11-30T21:05:07+08:00"
    assert (check_note(None), check_note("  "), check_note(" a b ")) == (None, None, "a b")
    with pytest.raises(LedgerError, match="a note is text, not 5"):
        check_note(5)


NOTES = st.text(
    st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="\u061c"
                  "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"),
    max_size=MAX_NOTE,
).map(str.strip).filter(bool)  # fmt: skip


@given(NOTES)
def test_every_note_a_hand_keeps_reads_back_the_same(note: str) -> None:
    ledger = Ledger.new(["东", "南", "西", "北"])
    cards = Hand.from_captured({"东": "QS", "南": "全红", "西": "JD 10C", "北": ""})
    when = datetime(2026, 11, 30, 21, 5, tzinfo=timezone.utc)
    added, _ = ledger.add(cards, entered=when, note=note)
    text = added.to_text()
    for read in (_parse(text.encode("utf-8"), "m.yaml")[0], Ledger.from_data(yaml.safe_load(text))):
        assert read.entries[0].note == note
        assert read.entries[0].entered == "2026-11-30T21:05:00+00:00"
        assert read.to_text() == text
