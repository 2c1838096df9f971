"""The table's language (issue 11): under ``--lang zh`` or ``GONGZHU_LANG=zh`` every refusal is
said in Chinese, still as one ``error:`` line with exit code 2, and nothing is written; every
term of the tool is said in both languages with the same values."""

from __future__ import annotations

import errno
import json
import re
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused, run

import gongzhu_score.cli
import gongzhu_score.render
from gongzhu_score.terms import TERMS

MATCH = SAMPLES / "match"
CJK = re.compile(r"[\u4e00-\u9fff]")
FOUR = ["-c", "东=QS", "-c", "南=全红", "-c", "西=JD", "-c", "北="]


def chinese(message: str) -> bool:
    """Said in Chinese: its own words are Chinese (card names and flags aside)."""
    words = re.sub(r"'[^']*'|--[a-z-]+|\b[A-Z0-9]+[SHDC]?\b", "", message)
    return bool(CJK.search(words)) and not re.search(r"\b(expected|unknown|player|cannot)\b", words)


# Commands that refuse, each with a piece of its English message (to show the same refusal is
# made in both languages); a path ``{tmp}`` is a fresh folder, ``{played}`` a match of two hands.
REFUSALS = [
    (["score", "-c", "东=红A", "-c", "南=", "-c", "西=", "-c", "北="], "unknown card"),
    (["score", *FOUR], "scoring cards nobody captured"),
    (["score", *FOUR, "-c", "东=AH"], "given twice"),
    (["score", "-c", "东=QS", "-c", "南=", "-c", "西="], "exactly four players"),
    (["score", "-c", "东=QS", "-c", "南=QS", "-c", "西=", "-c", "北=全红 JD 10C"], "already by"),
    (["score"], "no hand given"),
    (["score", str(SAMPLES / "seed_minus_400.yaml"), "--table-format", "nope"], "tabulate"),
    (["explain", str(MATCH / "ledger.yaml")], "match ledger"),
    (["explain", str(MATCH / "ledger.yaml"), "9"], "no hand 9"),
    (["compare", str(SAMPLES / "seed_minus_400.yaml"), "-v", "classic"], "two or more"),
    (["match", "add", "{tmp}/none.yaml", str(MATCH / "hand1.yaml")], "no such ledger"),
    (["match", "new", "{tmp}/m.yaml", "-p", "东,南,西"], "four different names"),
    (["match", "set", "{played}", "--end-at", "1000"], "negative total"),
    (["match", "set", "{played}"], "nothing to set"),
    (["match", "rename", "{played}", "中", "东"], "no player named"),
    (["match", "remove", "{played}", "7", "--yes"], "no hand 7"),
    (["match", "restore", "{tmp}/fresh.yaml"], "no change to revert"),
    (["stats", "{empty}"], "no match ledgers"),
    (["batch", "{empty}"], "no hand files"),
    (["score", str(SAMPLES / "seed_minus_400.yaml"), "-f", "parquet"], "this command prints"),
]


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    played = str(tmp_path / "played.yaml")
    done("match", "new", played, "-p", "东,南,西,北")
    ok("match", "add", played, str(MATCH / "hand1.yaml"))
    ok("match", "add", played, str(MATCH / "hand2.yaml"))
    done("match", "new", str(tmp_path / "fresh.yaml"), "-p", "东,南,西,北")
    (tmp_path / "empty").mkdir()
    return {"tmp": str(tmp_path), "played": played, "empty": str(tmp_path / "empty")}


def _files(folder: str) -> dict[str, bytes]:
    """The files of a folder, but the lock files that a change takes beside a ledger."""
    return {
        p.name: p.read_bytes()
        for p in sorted(Path(folder).rglob("*"))
        if p.is_file() and p.suffix != ".lock"
    }


@pytest.mark.parametrize(("args", "english"), REFUSALS, ids=[e for _, e in REFUSALS])
def test_each_refusal_is_said_in_the_asked_language(
    args: list[str], english: str, places: dict[str, str]
) -> None:
    args = [a.format(**places) for a in args]
    before = _files(places["tmp"])
    assert english in refused(*args)
    assert english in refused(*args, "--lang", "en")
    in_chinese = refused(*args, "--lang", "zh")
    assert chinese(in_chinese), in_chinese
    assert _files(places["tmp"]) == before  # nothing written, whatever the language


def test_the_environment_variable_sets_the_language_and_the_option_wins(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GONGZHU_LANG", "zh")
    args = ["score", *FOUR]
    assert refused(*args).startswith("无人收的分牌：")
    assert refused(*args, "--lang=en").startswith("scoring cards nobody captured")


def test_a_library_error_keeps_the_flag_that_fixes_it_in_both_languages() -> None:
    assert refused("score", *FOUR).endswith("or score a partial tally (--partial)")
    assert refused("score", *FOUR, "--lang", "zh").endswith("或按部分计分（--partial）")


def test_an_error_within_an_error_is_said_in_one_language(places: dict[str, str]) -> None:
    # A hand the new rules refuse: the ledger's message wraps the engine's, both in Chinese.
    message = refused("match", "set", places["played"], "--variant", "two-deck", "--lang", "zh")
    assert chinese(message), message


def test_verify_speaks_the_language(places: dict[str, str]) -> None:
    path = Path(places["played"])
    path.write_text(
        path.read_text(encoding="utf-8").replace("raw: [-400, -160, -40, 0]", "raw: [-300, -160, -40, 0]"),
        encoding="utf-8",
    )  # fmt: skip
    r = run("match", "verify", str(path), "--lang", "zh")
    assert r.exit_code == 1
    assert "第 1 局：东 的 raw：记录为 -300，重新计算为 -400" in r.stdout
    message = refused("match", "add", str(path), str(MATCH / "hand3.yaml"), "--lang", "zh")
    assert "文件被手动改过" in message


def test_click_usage_errors_are_said_in_chinese_and_point_at_help() -> None:
    message = refused("score", "--no-such-option", "--lang", "zh")
    assert message == "没有这个选项：--no-such-option（见 'gongzhu-score score --help'）"


def test_a_batch_lists_its_bad_records_in_the_language(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": [{"name": "东", "captured": "QX"}]}\n', encoding="utf-8")
    r = run("batch", str(bad), "--keep-going", "--lang", "zh")
    assert r.exit_code == 1
    assert "1 条错误记录：" in r.stderr
    assert "无法识别的牌 'QX'" in r.stderr


def test_a_write_the_system_refuses_is_bad_input_and_loses_nothing(
    places: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gongzhu_score.match.storage as storage

    played = places["played"]
    before = _files(places["tmp"])

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage.os, "replace", disk_full)
    message = refused("match", "add", played, str(MATCH / "hand3.yaml"))
    assert message == f"{played}: cannot write: No space left on device; the ledger is unchanged"
    assert _files(places["tmp"]) == before  # the ledger and its history, byte for byte
    monkeypatch.undo()
    ok("match", "add", played, str(MATCH / "hand3.yaml"))
    assert len(json.loads(ok("match", "show", played, "--format", "json"))["hands"]) == 3
    assert done("match", "verify", played)[0] == ""


def test_every_term_is_used() -> None:
    # A term is named in the code as a whole key, or as a key prefix the code completes
    # (f"explain.{key}") with a name the code spells out (w("title")); the joining words are
    # the table's own (terms.py says them), and a few keys are made of two parts.
    package = Path(gongzhu_score.cli.__file__).parent.parent
    tables = {"terms.py", "library.py", "output.py", "command_line.py", "words.py"}
    code = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py")
                     if p.name not in tables)  # fmt: skip
    prefixes = set(re.findall(r"""f["']([a-z_.]+)\{""", code))

    def named(text: str) -> bool:
        return re.search(rf"""["']{re.escape(text)}["']""", code) is not None

    def used(key: str) -> bool:
        return named(key) or any(key.startswith(p) and (named(key[len(p):]) or any(
            key[len(p):].startswith(q) for q in prefixes)) for p in prefixes)  # fmt: skip

    own = {"colon", "nobody", "language.locales", "card.same_suit"}  # (said by terms.py)
    own |= {f"notation.{suit}" for suit in "SHDC"}  # terms._Mark
    own |= {k for k in TERMS if k.endswith(".many")}  # terms.count_of
    own |= {f"violation.played_too_often.{decks}" for decks in (1, 2)}
    own |= {k for k in TERMS if k.startswith("rule.")}  # terms.rule_name(f"rule.{rule}")
    own |= {f"error.hand.{verb}_{how}" for verb in ("captured", "exposed")
            for how in ("twice", "already", "third")}  # fmt: skip
    unused = [k for k in TERMS if k not in own and not used(k)]
    assert not unused, unused
