"""Shell completion (issue 22): the values a table types are offered: variant names and
aliases, the players (the current match's, the ledger's named, or those given already), and
ledger files."""

from __future__ import annotations

from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok
from typer.testing import CliRunner

from gongzhu_score.cli import app

MATCH = SAMPLES / "match"


@pytest.fixture
def tonight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A match started in the working folder (so its current match), with one hand."""
    monkeypatch.chdir(tmp_path)
    done("match", "new", "tonight.yaml", "-p", "东,南,西,北")
    ok("match", "add", "tonight.yaml", str(MATCH / "hand1.yaml"))
    return tmp_path / "tonight.yaml"


def complete(words: str) -> list[str]:
    """What the shell is offered for the last word of ``words`` (bash)."""
    parts = words.split(" ")
    env = {"_GONGZHU_SCORE_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(parts) - 1)}  # fmt: skip
    r = run_completion(env)
    return r.splitlines()


def run_completion(env: dict[str, str]) -> str:
    result = CliRunner(env=env).invoke(app, [], prog_name="gongzhu-score")
    assert result.exit_code == 0, result.output
    return result.stdout


def test_completion_offers_variants_players_and_ledgers(tonight: Path) -> None:
    assert {"classic", "dehong", "德宏", "two-deck"} <= set(complete("gongzhu-score score -v "))
    assert complete("gongzhu-score compare -v j") == ["jj", "jj比赛"]
    assert complete("gongzhu-score variants show cl") == ["classic"]
    # Players: the current match's, or the ledger's named, or those already given.
    assert complete("gongzhu-score match add --rest ") == ["东", "南", "西", "北"]
    assert complete("gongzhu-score match add -c 东=猪 -c ") == ["南=", "西=", "北="]
    assert complete("gongzhu-score match add -c 东=猪 -e ") == ["东=", "南=", "西=", "北="]
    assert complete("gongzhu-score match rename ") == ["tonight.yaml"]  # the ledger, first
    assert complete(f"gongzhu-score match add {MATCH / 'ledger.yaml'} --first-pig 西") == ["西"]
    assert complete("gongzhu-score score -c 甲=QS -c 乙= --rest ") == ["甲", "乙"]
    # Ledgers: the files that are ledgers, and folders.
    (tonight.parent / "hand.yaml").write_bytes((MATCH / "hand1.yaml").read_bytes())
    (tonight.parent / "sub").mkdir()
    assert complete("gongzhu-score match show ") == ["sub/", "tonight.yaml"]
    assert complete(f"gongzhu-score match show {MATCH}/") == [f"{MATCH}/ledger.yaml"]
