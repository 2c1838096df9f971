"""A served folder's list of matches is bounded by its ledgers, not by its files (issue 55): hand
files, house rules and a tournament file beside the matches neither count against the bound nor
hide a match, and past the bound the newest matches are listed with how many are left out.
Against a real ``serve`` on loopback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from serving import command, serving

PLAYERS = "东,南,西,北"
HAND = "players:\n  东: QS\n  南: ''\n  西: ''\n  北: 满贯\n"


def cli(*args: str, cwd: Path | None = None) -> None:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60, cwd=cwd)
    assert done.returncode == 0, done.stderr


def test_thousands_of_other_yaml_files_hide_no_match(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    for i in range(5000):
        (folder / f"hand{i:04}.yaml").write_text(HAND, encoding="utf-8")
    (folder / "house.yaml").write_text("name: house\nextends: classic\n", encoding="utf-8")
    cli("tournament", "new", "cup.yaml", "--players", "a,b,c,d", cwd=folder)
    with serving(str(folder), "--lang", "en") as served:
        for i in range(1, 9):
            status, answer = served.post("/api/matches", {"players": PLAYERS, "name": f"m{i}"})
            assert status == 200, answer
            time.sleep(0.02)  # (each a later time than the one before)
        status, listed = served.get("/api/matches")
        assert status == 200
        names = [m["name"] for m in listed["matches"]]
        assert names == [f"m{i}.yaml" for i in range(8, 0, -1)]
        assert listed["left_out"] == 0
        assert listed["rules_files"] == ["house.yaml"]
        assert [t["file"] for t in listed["tournaments"]] == ["cup.yaml"]
        assert served.get("/api/state")[1]["ledger"] == "m8.yaml"


def test_past_the_bound_the_newest_matches_are_listed_and_the_rest_counted(
    tmp_path: Path,
) -> None:
    from gongzhu_score.web.site import MAX_MATCHES

    folder = tmp_path / "club"
    folder.mkdir()
    first = folder / "m0000.yaml"
    cli("match", "new", str(first), "--players", PLAYERS)
    count = MAX_MATCHES + 3
    now = time.time()
    for i in range(1, count):
        copy = folder / f"m{i:04}.yaml"
        shutil.copyfile(first, copy)
        os.utime(copy, (now - count + i, now - count + i))  # m0001 the oldest, then in order
    os.utime(first, (now - 2 * count, now - 2 * count))  # (the oldest of all)
    for i in range(2000):  # (other files beside them change nothing)
        (folder / f"hand{i:04}.yaml").write_text(HAND, encoding="utf-8")
    with serving(str(folder), "--lang", "en") as served:
        status, listed = served.get("/api/matches")
        assert status == 200
        names = [m["name"] for m in listed["matches"]]
        assert len(names) == MAX_MATCHES and listed["left_out"] == 3
        assert names == [f"m{i:04}.yaml" for i in range(count - 1, 2, -1)]  # the newest first
        assert listed["matches"][0]["current"]
        assert served.get("/api/state")[1]["ledger"] == f"m{count - 1:04}.yaml"
        assert served.get("/api/state", match="m0000.yaml")[0] == 200  # (left out, not gone)
        assert "{count}" in listed["words"]["matches.left_out"]
