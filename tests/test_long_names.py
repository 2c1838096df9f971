"""Issue 35, cause 9, at the terminal: a long name never breaks the layout of ``match show``
fitted to a terminal's width. In its table it is folded over lines within its column, every
character kept (a table's name is one you type back); the chart and the summary cut it."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import ok

from gongzhu_score import Hand
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.render.fit import columns, shortened, wrapped

LONG = "欧阳" * 20  # 40 characters, 80 columns: what `match new` takes


def played(tmp_path: Path, name: str) -> str:
    ledger = Ledger.new([name, "Bob", "Cy", "Di"])
    ledger = ledger.add(Hand.from_captured({name: "QS", "Bob": "JD", "Cy": "全红", "Di": "10C"}))[0]
    path = tmp_path / "long.yaml"
    path.write_text(ledger.to_text(), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("width", [60, 80, 120])
def test_match_show_keeps_within_the_terminal_and_every_character(
    tmp_path: Path, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    shown = ok("match", "show", played(tmp_path, LONG))
    lines = shown.splitlines()
    assert max(columns(line) for line in lines) <= width, [
        line for line in lines if columns(line) > width
    ]
    top = next(k for k, line in enumerate(lines) if line.split()[:1] == ["hand"] and "欧" in line)
    rule = next(k for k in range(top, len(lines)) if lines[k].startswith("-"))
    header = [lines[top].split()[1], *(line.strip() for line in lines[top + 1 : rule])]
    assert "".join(header).startswith(LONG)  # the folded header, read down, is the name whole


def test_without_a_terminal_the_table_is_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    shown = ok("match", "show", played(tmp_path, LONG))
    assert any(LONG in line and "Bob" in line for line in shown.splitlines())  # one header line


@pytest.mark.parametrize("char", ["x", "欧"])
def test_a_100000_character_name_is_folded_whole(char: str) -> None:
    # Wrapping walks a long word a line at a time (it was copied whole for every line; the
    # figures are in the closing note of issue 35, not timed here).
    name = char * 100_000
    lines = wrapped(name, 80, indent="")
    assert "".join(lines) == name and all(columns(line) <= 80 for line in lines)
    assert len(lines) == 100_000 * columns(char) // 80


def test_a_table_that_fits_in_blocks_is_not_folded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long-ish names and marks that fit once the players are split into blocks stay whole.
    monkeypatch.setenv("COLUMNS", "48")
    ledger = Ledger.new(["Alexandrina", "Bartholomew", "Christopher", "Dominique"])
    hand = {"Alexandrina": "QS", "Bartholomew": "全红", "Christopher": "JD", "Dominique": "10C"}
    ledger = ledger.add(Hand.from_captured(hand))[0]
    path = tmp_path / "names.yaml"
    path.write_text(ledger.to_text(), encoding="utf-8")
    shown = ok("match", "show", str(path))
    assert "        1  Bartholomew full red  Alexandrina" in shown.splitlines()


def test_an_emoji_sequence_is_measured_whole() -> None:
    family = "👨\u200d👩\u200d👧"
    assert wrapped(family, columns(family)) == [family]
    assert shortened(family, columns(family), middle=True) == family  # (not cut at its joiners)
