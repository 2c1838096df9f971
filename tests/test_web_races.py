"""Phones racing on a real ``serve`` (issue 55): every change made against an old version is a
409 with the match as it now is, whatever else the request holds; each refusal under a race
names its real cause; what a phone is told names files relative to the folder served, never by
the server's paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from serving import Served, command, serving

PLAYERS = "甲,乙,丙,丁"
ENTRY = {"captured": {"甲": ["QS"], "乙": ["AH", "KH"]}, "rest": "丙"}


def cli(*args: str) -> None:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club = tmp_path / "club"
    club.mkdir()
    cli("match", "new", str(club / "race.yaml"), "--players", PLAYERS)
    return club


def at_once(n: int, send: Callable[[], tuple[int, Any]]) -> list[tuple[int, Any]]:
    """``send`` from ``n`` threads released together: each one's answer."""
    go = threading.Barrier(n)
    answers: list[tuple[int, Any]] = []

    def one() -> None:
        go.wait()
        answers.append(send())

    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(answers) == n
    return answers


def stale_refused(served: Served, answer: tuple[int, Any], folder: Path) -> None:
    status, body = answer
    assert status == 409, answer
    assert body["error"].startswith("race.yaml: the match changed since you looked at it")
    assert body["state"]["version"] == served.get("/api/state", match="race.yaml")[1]["version"]
    assert str(folder) not in json.dumps(body, ensure_ascii=False)


def test_the_second_of_two_identical_renames_is_a_409_with_the_state(folder: Path) -> None:
    with serving(str(folder), "--lang", "en") as served:
        seen = served.get("/api/state", match="race.yaml")[1]["version"]
        rename = {"version": seen, "old": "乙", "new": "老乙"}
        assert served.post("/api/rename", rename, match="race.yaml")[0] == 200
        stale_refused(served, served.post("/api/rename", rename, match="race.yaml"), folder)
        # and two phones at once: one renames, the other hears that it came second
        seen = served.get("/api/state", match="race.yaml")[1]["version"]
        again = {"version": seen, "old": "老乙", "new": "乙"}
        answers = at_once(2, lambda: served.post("/api/rename", again, match="race.yaml"))
        assert sorted(s for s, _ in answers) == [200, 409], answers
        stale_refused(served, next(a for a in answers if a[0] == 409), folder)
    assert "乙" in (folder / "race.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/rename", {"old": "nobody", "new": "x"}),
        ("/api/rename", {"old": "乙", "new": 7}),
        ("/api/hands", {"entry": "not an entry"}),
        ("/api/hands", {"entry": {**ENTRY, "note": "a\nb"}}),
        ("/api/hands", {"entry": {**ENTRY, "captured": {"nobody": ["QS"]}}}),
        ("/api/hands/9/edit", {"entry": ENTRY}),
        ("/api/hands/1/edit", {"entry": {"note": 5}}),
        ("/api/hands/9/remove", {}),
        ("/api/undo", {"anything": "else"}),
    ],
)
def test_a_change_against_an_old_version_is_a_409_whatever_else_it_holds(
    folder: Path, path: str, body: dict[str, Any]
) -> None:
    with serving(str(folder), "--lang", "en") as served:
        stale = served.get("/api/state", match="race.yaml")[1]["version"]
        added = served.post("/api/hands", {"version": stale, "entry": ENTRY}, match="race.yaml")
        assert added[0] == 200, added
        before = (folder / "race.yaml").read_bytes()
        stale_refused(served, served.post(path, {"version": stale, **body}, match="race.yaml"),
                      folder)  # fmt: skip
        assert (folder / "race.yaml").read_bytes() == before


def test_ten_phones_starting_one_name_hear_it_is_taken(folder: Path) -> None:
    with serving(str(folder), "--lang", "en") as served:
        answers = at_once(10, lambda: served.post("/api/matches",
                                                  {"players": PLAYERS, "name": "same0"}))  # fmt: skip
        assert sorted(s for s, _ in answers) == [200] + [400] * 9, answers
        for status, body in answers:
            if status == 400:
                assert body == {"error": "'same0.yaml' is a file of this folder already: give "
                                "the match another name"}  # fmt: skip
        listed = [m["name"] for m in served.get("/api/matches")[1]["matches"]]
        assert listed.count("same0.yaml") == 1


def test_phones_are_told_of_files_relative_to_the_folder(folder: Path) -> None:
    cli("match", "new", str(folder / "short.yaml"), "--players", PLAYERS, "--hands", "1")
    cli("match", "add", str(folder / "short.yaml"), "-c", "甲=QS", "-c", "乙=", "-c", "丙=",
        "--rest", "丁")  # fmt: skip
    with serving(str(folder), "--lang", "en") as served:
        seen = served.get("/api/state", match="short.yaml")[1]["version"]
        over = served.post("/api/hands", {"version": seen, "entry": ENTRY}, match="short.yaml")
        assert over[0] == 422 and over[1]["error"].startswith("short.yaml: the match ended"), over
        (folder / "short.yaml").write_text("format: 1\nplayers: [\n", encoding="utf-8")
        damaged = served.get("/api/state", match="short.yaml")
        assert damaged[0] == 422 and damaged[1]["error"].startswith("short.yaml: line "), damaged
        stale = served.post("/api/undo", {"version": seen}, match="short.yaml")
        assert stale[0] == 422 and stale[1]["error"].startswith("short.yaml: line "), stale
        listed = served.get("/api/matches")[1]["matches"]
        problem = next(m["problem"] for m in listed if m["name"] == "short.yaml")
        assert problem.startswith("short.yaml: line "), problem
        for answer in (over, damaged, stale, (200, listed)):
            text = json.dumps(answer, ensure_ascii=False)
            assert str(folder) not in text and os.path.realpath(folder) not in text, text


def test_a_ledger_served_through_a_link_is_told_by_its_name(tmp_path: Path, folder: Path) -> None:
    link = tmp_path / "tonight.yaml"
    link.symlink_to(folder / "race.yaml")
    with serving(str(link), "--lang", "en") as served:
        seen = served.get("/api/state")[1]["version"]
        served.post("/api/hands", {"version": seen, "entry": ENTRY})
        status, body = served.post("/api/undo", {"version": seen})
        assert status == 409, body
        assert str(tmp_path) not in json.dumps(body, ensure_ascii=False), body["error"]
