"""The current match (issue 22, item 4): a match command given no ledger uses the one
GONGZHU_MATCH names, else the one last started or changed from this folder (remembered in the
user's state folder), and says which; an explicit ledger always wins; what cannot be told
apart from a ledger is refused, never guessed; `match list` lists one's matches, leaves out the
remembered ones that are gone and forgets them with --forget-gone (issue 34)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused, run
from hypothesis import given
from hypothesis import strategies as st

from gongzhu_score.cli.current import LEDGER_VARIABLE
from gongzhu_score.match import current
from gongzhu_score.match.current import (
    CURRENT_VARIABLE,
    MAX_REMEMBERED,
    Remembered,
    find_current,
    forget_gone,
    is_gone,
    ledger_omitted,
    read_state,
    remember,
    shown_path,
    state_folder,
)

MATCH = SAMPLES / "match"
FOUR = ["-c", "东=猪", "-c", "南=红桃A K Q", "-c", "西=", "--rest", "北"]


def hand(n: int) -> str:
    return str(MATCH / f"hand{n}.yaml")


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder to play in, the command's working folder."""
    folder = tmp_path / "evening"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def tonight(here: Path) -> Path:
    """A match started here, so the current match of this folder, with one hand."""
    done("match", "new", "tonight.yaml", "-p", "东,南,西,北")
    ok("match", "add", "tonight.yaml", hand(1))
    return here / "tonight.yaml"


def hands(ledger: Path | str) -> int:
    return len(json.loads(ok("match", "show", str(ledger), "-f", "json"))["hands"])


# --- the current match: remembered per folder, named by GONGZHU_MATCH, an explicit one wins ---


def test_a_match_started_here_is_the_current_one_and_it_is_said_which(tonight: Path) -> None:
    out, err = done("match", "add", *FOUR)
    assert err == "match: tonight.yaml\n"
    assert out.startswith("hand 2\n")
    assert hands(tonight) == 2
    out, err = done("match", "show", "--lang", "zh")
    assert err == "比赛：tonight.yaml\n"
    assert "老王" not in out and "东" in out


def test_every_match_command_with_a_ledger_takes_the_current_one(tonight: Path) -> None:
    for args in (["show"], ["show", "1"], ["explain", "1"], ["verify"], ["history"],
                 ["export"], ["export", "-f", "json"], ["show", "-f", "json"]):  # fmt: skip
        r = run("match", *args)
        assert r.exit_code == 0, (args, r.stderr)
        assert r.stderr.splitlines()[0] == "match: tonight.yaml", args
    done("match", "add", hand(2))  # a hand file alone: the hand, for the current match
    done("match", "edit", "2", hand(2))  # N and a hand file
    done("match", "rename", "北", "小北")
    done("match", "set", "--end-at", "-800")
    done("match", "remove", "2", "--yes")
    done("match", "undo")
    done("match", "restore")
    data = json.loads(ok("match", "show", str(tonight), "-f", "json"))
    assert (data["players"][3], data["end_at"], len(data["hands"])) == ("小北", -800, 1)


def test_each_folder_has_its_own_current_match(tonight: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    os.chdir(other)
    message = refused("match", "show")
    assert message.startswith("no ledger given, and no match was started or changed in this folder")
    assert "gongzhu-score match show LEDGER" in message and "GONGZHU_MATCH" in message
    done("match", "new", "second.yaml", "-p", "甲,乙,丙,丁")
    assert done("match", "show")[1] == "match: second.yaml\n"
    os.chdir(tonight.parent)
    assert done("match", "show")[1] == "match: tonight.yaml\n"
    # A ledger changed from here (named, in another folder) becomes this folder's current one.
    ok("match", "add", str(other / "second.yaml"), "-c", "甲=猪", "-c", "乙=", "-c", "丙=",
       "--rest", "丁")  # fmt: skip
    assert done("match", "show")[1] == f"match: {other / 'second.yaml'}\n"


def test_an_explicit_ledger_always_wins(
    tonight: Path, here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done("match", "new", "other.yaml", "-p", "东,南,西,北")  # now the current one here
    monkeypatch.setenv("GONGZHU_MATCH", "other.yaml")
    _, err = done("match", "add", str(tonight), hand(2))
    assert err == ""  # nothing to say: the ledger was named
    assert hands(tonight) == 2 and hands(here / "other.yaml") == 0
    assert done("match", "show", "tonight.yaml", "1")[1] == ""


def test_gongzhu_match_names_the_current_match(
    tonight: Path, here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    done("match", "new", "other.yaml", "-p", "东,南,西,北")  # the remembered one
    monkeypatch.setenv("GONGZHU_MATCH", str(tonight))
    _, err = done("match", "add", *FOUR)
    assert err == f"match: {tonight} (GONGZHU_MATCH)\n"
    assert hands(tonight) == 2 and hands(here / "other.yaml") == 0
    assert done("match", "show", "--lang", "zh")[1] == f"比赛：{tonight}（GONGZHU_MATCH）\n"
    monkeypatch.setenv("GONGZHU_MATCH", "gone.yaml")  # its error is the ledger's own
    r = run("match", "show")
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        "match: gone.yaml (GONGZHU_MATCH)",
        "error: gone.yaml: no such ledger; start one with 'gongzhu-score match new gone.yaml "
        "--players 东,南,西,北'",
    ]
    assert CURRENT_VARIABLE == LEDGER_VARIABLE == "GONGZHU_MATCH"


def test_a_remembered_match_that_is_gone_is_said_and_nothing_else_happens(tonight: Path) -> None:
    tonight.rename(tonight.with_name("moved.yaml"))
    message = refused("match", "add", *FOUR)
    assert message.startswith("the match last started or changed in this folder, tonight.yaml, "
                              "is gone (moved or deleted?)")  # fmt: skip
    assert "'gongzhu-score match list'" in message
    r = run("match", "show", "--lang", "zh")
    assert r.exit_code == 2 and "已不在了" in r.stderr and r.stderr.count("\n") == 1


# --- what a bare argument is: told apart by reading it, refused when it cannot be --------------


def test_a_hand_number_alone_is_a_hand_of_the_current_match(tonight: Path) -> None:
    out, err = done("match", "show", "1")
    assert err == "match: tonight.yaml\n" and out.startswith("hand 1 of 1\n")
    r = run("match", "show", "2")  # said which, then refused
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == "match: tonight.yaml"
    assert r.stderr.splitlines()[1].startswith("error: no hand 2")


def test_a_number_that_is_also_a_ledger_here_is_refused_never_guessed(tonight: Path) -> None:
    done("match", "new", "3", "-p", "东,南,西,北")  # a ledger named 3 (now the current one)
    before = {p.name: p.read_bytes() for p in tonight.parent.iterdir() if p.is_file()}
    for args in (["show", "3"], ["remove", "3", "--yes"], ["explain", "3"], ["edit", "3"]):
        r = run("match", *args)
        assert r.exit_code == 2, args
        assert r.stderr.splitlines()[-1] == (
            f"error: 3: a hand number, or the ledger file of that name here? Write ./3 for the "
            f"file, or name the ledger first: gongzhu-score match {args[0]} LEDGER 3"
        )
    assert {p.name: p.read_bytes() for p in tonight.parent.iterdir() if p.is_file()} == before
    assert done("match", "show", "./3")[1] == ""  # the file, named so it cannot be a number


def test_a_file_alone_is_the_ledger_when_it_is_one_else_the_hand(tonight: Path) -> None:
    # A ledger: the ledger (at no terminal and with no hand: the usual refusal).
    assert "no hand given" in refused("match", "add", "tonight.yaml")
    # A hand file, or - for standard input: the hand, for the current match.
    assert done("match", "add", hand(2))[1] == "match: tonight.yaml\n"
    text = (MATCH / "hand3.yaml").read_text(encoding="utf-8")
    assert done("match", "add", "-", input=text)[1] == "match: tonight.yaml\n"
    assert hands(tonight) == 3
    # A name that is no file: the ledger, as it always was (its error says so).
    assert refused("match", "add", "tonigth.yaml", *FOUR).startswith("tonigth.yaml: no such ledger")
    assert refused("match", "show", "tonigth.yaml").startswith("tonigth.yaml: no such ledger")


@pytest.mark.parametrize(
    ("first", "count", "after", "omitted"),
    [
        (None, 0, [], True),  # match undo
        ("x.yaml", 1, [], False),  # match undo x.yaml
        (None, 0, ["N"], True),  # match show
        ("3", 1, ["N"], True),  # match show 3
        ("x.yaml", 1, ["N"], False),  # match show x.yaml
        ("x.yaml", 2, ["N"], False),  # match show x.yaml 3
        ("2", 2, ["N", "HAND.yaml"], True),  # match edit 2 hand.yaml
        ("x.yaml", 2, ["N", "HAND.yaml"], False),  # match edit x.yaml 2
        ("北", 2, ["OLD", "NEW"], True),  # match rename 北 小北
        ("北", 3, ["OLD", "NEW"], False),  # match rename x.yaml 北 小北
        ("-", 1, ["HAND.yaml"], True),  # match add -
        ("missing.yaml", 1, ["HAND.yaml"], False),  # match add missing.yaml: the ledger
    ],
)
def test_the_rules_for_a_left_out_ledger(
    first: str | None, count: int, after: list[str], omitted: bool, here: Path
) -> None:
    assert ledger_omitted(first, count, after) is omitted


@given(st.integers(0, 4), st.lists(st.sampled_from(["N", "HAND.yaml", "OLD"]), max_size=3))
def test_every_argument_given_means_the_ledger_was_given(extra: int, after: list[str]) -> None:
    assert ledger_omitted("x", len(after) + 1 + extra, after) is False
    assert ledger_omitted(None, 0, after) is True


# --- remembering: the state file, and a state folder that cannot be used ----------------------


def test_the_state_file_is_small_json_in_the_xdg_state_folder(tonight: Path) -> None:
    folder = state_folder(os.environ)
    assert folder == Path(os.environ["XDG_STATE_HOME"], "gongzhu-score")
    data = json.loads((folder / "matches.json").read_text(encoding="utf-8"))
    assert data == {"format": 1, "folders": {str(tonight.parent): str(tonight)},
                    "matches": [str(tonight)]}  # fmt: skip
    assert state_folder({"HOME": "/home/x"}) == Path("/home/x/.local/state/gongzhu-score")
    assert state_folder({"XDG_STATE_HOME": "relative", "HOME": "/h"}) == Path(
        "/h/.local/state/gongzhu-score"
    )  # (a relative XDG_STATE_HOME is ignored, as the XDG rule says)
    assert state_folder({}) is None


def test_an_unwritable_state_folder_is_said_once_and_the_change_stands(
    here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = here / "not-a-folder"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))
    out, err = done("match", "new", "t.yaml", "-p", "东,南,西,北")
    lines = err.splitlines()
    assert lines[0].startswith(
        f"warning: cannot remember the current match in {blocked}/gongzhu-score ("
    )
    assert lines[0].endswith("); name the ledger in each command")
    assert "new match in t.yaml" in out + err  # the match is started all the same
    assert Path("t.yaml").is_file()
    _, err = done("match", "add", "t.yaml", *FOUR)
    assert err.count("warning:") == 1 and hands("t.yaml") == 1
    assert "no match was started or changed in this folder" in refused("match", "show")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("HOME")
    _, err = done("match", "undo", "t.yaml")
    assert err == ("warning: cannot remember the current match (neither XDG_STATE_HOME nor HOME "
                   "is set); name the ledger in each command\n")  # fmt: skip


def test_a_broken_state_file_is_ignored_with_a_notice_and_written_anew(tonight: Path) -> None:
    state = Path(os.environ["XDG_STATE_HOME"], "gongzhu-score", "matches.json")
    state.write_text('{"format": 1, "folders": "\x1b[31m"}', encoding="utf-8")
    r = run("match", "show")
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0] == (
        f"warning: the remembered matches ({state}) are not as this tool writes them; ignored "
        "(they are written anew at the next change)"
    )
    assert r.stderr.splitlines()[1].startswith("error: no ledger given")
    _, err = done("match", "add", "tonight.yaml", *FOUR)
    assert err.count("warning:") == 1
    assert done("match", "show")[1] == "match: tonight.yaml\n"  # remembered again
    for broken in (b"\xff\xfe", b"[]", b"{" * 100_000, b"x" * 2_000_000):
        state.write_bytes(broken)
        assert read_state(state.parent)[0] == Remembered()
        assert read_state(state.parent)[1] is not None


def test_remembering_keeps_the_newest_and_forgets_the_oldest(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    for i in range(MAX_REMEMBERED + 5):
        assert remember(folder, str(tmp_path / f"m{i}.yaml"), str(tmp_path / f"f{i}")) == []
    state, problem = read_state(folder)
    assert problem is None
    assert len(state.folders) == len(state.matches) == MAX_REMEMBERED
    assert state.matches[0] == str(tmp_path / f"m{MAX_REMEMBERED + 4}.yaml")
    assert str(tmp_path / "f0") not in state.folders
    # The same change again writes nothing: the file stays as it is.
    before = (folder / "matches.json").stat().st_mtime_ns
    remember(
        folder,
        str(tmp_path / f"m{MAX_REMEMBERED + 4}.yaml"),
        str(tmp_path / f"f{MAX_REMEMBERED + 4}"),
    )
    assert (folder / "matches.json").stat().st_mtime_ns == before


def test_find_current_for_the_library(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path)}
    with pytest.raises(current.LedgerError, match="no ledger given"):
        find_current(env, str(tmp_path))
    (tmp_path / "m.yaml").write_text("", encoding="utf-8")
    remember(state_folder(env), str(tmp_path / "m.yaml"), str(tmp_path))
    assert find_current(env, str(tmp_path))[0] == current.Current("m.yaml", "folder")
    assert find_current({**env, "GONGZHU_MATCH": "-odd.yaml"}, None)[0] == current.Current(
        "./-odd.yaml", "variable"
    )


@given(st.lists(st.sampled_from(["a", "b", "-c", "..", "."]), min_size=1, max_size=5),
       st.lists(st.sampled_from(["a", "b", "-x"]), max_size=3))  # fmt: skip
def test_a_path_is_shown_from_the_folder_and_names_the_same_file(
    parts: list[str], folder: list[str]
) -> None:
    cwd = os.path.join("/tmp", *folder)
    target = os.path.abspath(os.path.join(cwd, *parts))
    shown = shown_path(target, cwd)
    assert not shown.startswith("-")
    assert os.path.abspath(os.path.join(cwd, shown)) == target


# --- match list ----------------------------------------------------------------------------------


def test_match_list_shows_ones_matches_with_date_players_hands_and_state(
    tonight: Path, tmp_path: Path
) -> None:
    ended = tmp_path / "ended.yaml"
    os.chdir(tmp_path)  # (started and played from another folder: not the current one here)
    done("match", "new", str(ended), "-p", "甲,乙,丙,丁")
    for _ in range(3):
        ok("match", "add", str(ended), "-c", "甲=", "-c", "乙=猪 变压器", "-c", "丙=",
           "--rest", "丁", "-e", "乙=QS 10C")  # fmt: skip
        if json.loads(ok("match", "show", str(ended), "-f", "json"))["ended"]:
            break
    os.chdir(tonight.parent)
    copied = (MATCH / "ledger.yaml").read_bytes()
    (tonight.parent / "copied.yaml").write_bytes(copied)  # a ledger here, not remembered
    (tonight.parent / "hand.yaml").write_bytes((MATCH / "hand1.yaml").read_bytes())  # no ledger
    os.utime(ended, (1_000_000_000, 1_000_000_000))
    os.utime(tonight, (1_000_000_100, 1_000_000_100))
    os.utime(tonight.parent / "copied.yaml", (1_000_000_050, 1_000_000_050))
    out, err = done("match", "list")
    lines = out.splitlines()
    assert err == ""
    rows = [line.split("  ") for line in lines[2:5]]
    assert [r[0].strip() for r in rows] == ["*", "", ""]  # the current one marked
    assert [next(c for c in r[1:] if c.strip()).strip() for r in rows] == [
        "tonight.yaml", "copied.yaml", str(ended)
    ]  # fmt: skip
    assert "东, 南, 西, 北" in lines[2] and lines[2].rstrip().endswith("in play")
    assert lines[4].rstrip().endswith("over: 乙 is the pig")
    assert lines[-1] == "* the current match here: what a match command given no ledger uses"
    data = json.loads(ok("match", "list", "-f", "json"))
    assert data["current"] == "tonight.yaml"
    first = data["matches"][0]
    assert first == {
        "ledger": "tonight.yaml", "path": str(tonight), "current": True, "remembered": True,
        "changed": first["changed"], "players": ["东", "南", "西", "北"], "hands": 1,
        "state": "in_play", "loser": None, "winner": None, "error": None,
    }  # fmt: skip
    assert first["changed"].startswith("2001-09-09T") and first["changed"][19] in "+-"
    assert [m["remembered"] for m in data["matches"]] == [True, False, True]
    assert data["matches"][2]["state"] == "over" and data["matches"][2]["loser"] == "乙"
    zh = ok("match", "list", "--lang", "zh")
    assert "东、南、西、北" in zh and "进行中" in zh and "已结束：乙 当猪" in zh
    assert "比赛记录" in zh.splitlines()[0]


def test_match_list_names_a_moved_or_unreadable_ledger_without_a_traceback(
    tonight: Path, tmp_path: Path
) -> None:
    moved = tmp_path / "moved.yaml"
    os.chdir(tmp_path)  # (started from another folder: not the current one here)
    done("match", "new", str(moved), "-p", "甲,乙,丙,丁")
    moved.rename(tmp_path / "elsewhere.yaml")
    broken = tmp_path / "broken.yaml"
    done("match", "new", str(broken), "-p", "甲,乙,丙,丁")
    broken.write_text(broken.read_text(encoding="utf-8").replace("format: 1", "format: 9"),
                      encoding="utf-8")  # fmt: skip
    os.chdir(tonight.parent)
    out = ok("match", "list")
    assert "Traceback" not in out
    lines = out.splitlines()
    assert lines[2].startswith("*   tonight.yaml")  # a ledger read comes first
    assert lines[3].rstrip().endswith(f"cannot be read: {broken}: format: expected 1, found 9")
    assert str(moved) not in out  # one that is gone is left out, and counted
    assert lines[-1] == ("1 remembered ledger is gone (moved or deleted) and not listed: "
                         "'gongzhu-score match list --forget-gone' forgets it")  # fmt: skip
    data = json.loads(ok("match", "list", "-f", "json"))
    listed = {m["path"]: m for m in data["matches"]}
    assert str(moved) not in listed and data["gone"] == [str(moved)]
    assert listed[str(broken)]["state"] == "unreadable" and "format" in listed[str(broken)]["error"]
    assert "另有 1 个记住的比赛记录已不在" in ok("match", "list", "--lang", "zh")


def test_match_list_forget_gone_forgets_only_the_ledgers_gone(
    tonight: Path, tmp_path: Path
) -> None:
    away = tmp_path / "away"
    away.mkdir()
    os.chdir(away)  # (this folder's current match will be gone too)
    kept = tmp_path / "kept.yaml"
    done("match", "new", str(kept), "-p", "甲,乙,丙,丁")
    gone = [away / f"gone{i}.yaml" for i in range(3)]
    for ledger in gone:
        done("match", "new", str(ledger), "-p", "甲,乙,丙,丁")
    for ledger in gone:
        ledger.unlink()
    # Where it is the current match, the one gone is listed all the same: as missing.
    out = ok("match", "list")
    (line,) = [line for line in out.splitlines() if "gone2.yaml" in line]
    assert line.startswith("*   gone2.yaml")
    assert line.rstrip().endswith("missing (moved or deleted?)")
    assert out.splitlines()[-1].startswith("2 remembered ledgers are gone")
    os.chdir(tonight.parent)
    out = ok("match", "list")
    assert not any(ledger.name in out for ledger in gone) and str(kept) in out
    assert out.splitlines()[-1].startswith("3 remembered ledgers are gone (moved or deleted)")
    state = Path(os.environ["XDG_STATE_HOME"], "gongzhu-score", "matches.json")
    assert len(json.loads(state.read_text(encoding="utf-8"))["matches"]) == 5  # nothing forgotten
    out = ok("match", "list", "--forget-gone")
    assert out.splitlines()[-1] == "forgot 3 remembered ledgers that were gone"
    assert str(kept) in out and "tonight.yaml" in out
    data = json.loads(state.read_text(encoding="utf-8"))
    assert data["matches"] == [str(kept), str(tonight)]  # the newest first, as they were
    assert data["folders"] == {str(tonight.parent): str(tonight)}  # away's current one: gone
    # Nothing is gone now: said by no line, and forgetting again forgets nothing.
    assert ok("match", "list").splitlines()[-1].startswith("* the current match here")
    listed = json.loads(ok("match", "list", "--forget-gone", "-f", "json"))
    assert listed["gone"] == [] and listed["forgotten"] == []
    zh = ok("match", "list", "--forget-gone", "--lang", "zh")
    assert "已忘掉" not in zh
    done("match", "new", str(gone[0]), "-p", "甲,乙,丙,丁")
    gone[0].unlink()
    zh = ok("match", "list", "--forget-gone", "--lang", "zh")
    assert zh.splitlines()[-1] == "已忘掉 1 个已不在的记住的比赛记录"


def test_a_ledger_that_cannot_be_looked_at_for_now_is_not_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "state"
    locked, missing = tmp_path / "locked" / "m.yaml", tmp_path / "missing.yaml"
    locked.parent.mkdir()
    locked.write_text("", encoding="utf-8")
    for ledger in (locked, missing):
        remember(folder, str(ledger), str(tmp_path))
    stat = os.stat

    def denied(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(str(locked.parent)):
            raise PermissionError(13, "Permission denied", str(path))
        return stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(current.os, "stat", denied)
    assert not is_gone(str(locked)) and is_gone(str(missing))
    assert is_gone(str(tmp_path / "missing.yaml" / "below.yaml"))  # (a file where a folder was)
    taken: list[Path] = []
    real_lock = current._locked

    def watched(lock: Path) -> object:
        taken.append(lock)
        return real_lock(lock)

    monkeypatch.setattr(current, "_locked", watched)
    assert forget_gone(folder) == ((str(missing),), [])
    assert taken == [folder / "matches.json.lock"]  # written under the state's lock
    state, problem = read_state(folder)
    assert problem is None and state.matches == (str(locked),) and state.folders == {}
    assert forget_gone(folder) == ((), [])
    assert forget_gone(None) == ((), [])
    assert forget_gone(tmp_path / "no-state-yet") == ((), [])
    assert not (tmp_path / "no-state-yet").exists()


def test_match_list_with_no_matches_says_how_to_start_one(here: Path) -> None:
    assert ok("match", "list") == (
        "no matches yet: start one with gongzhu-score match new LEDGER --players 东,南,西,北\n"
    )
    assert json.loads(ok("match", "list", "-f", "json")) == {
        "current": None, "matches": [], "gone": [], "forgotten": []
    }  # fmt: skip
