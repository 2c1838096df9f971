"""The club's season over HTTP (issue 58): ``GET /api/stats`` answers what ``stats FOLDER
--format json`` prints (run in the folder served, so that each match is named by its file's
name), or one player's (``player=NAME``), under the key like every request; the season's
players are the names ``GET /api/matches`` offers the start form (``recent_names``). A real
``serve`` process, requests from outside it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from serving import command, request, serving

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "docs" / "examples" / "season"


def stats_printed(folder: Path, *args: str) -> object:
    """What ``stats . --format json`` prints, run in ``folder``."""
    done = subprocess.run([*command(), "stats", ".", *args, "--format", "json"], cwd=folder,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_season_over_http_is_what_stats_prints(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    shutil.copytree(SEASON, folder)
    for k, name in enumerate(sorted(os.listdir(folder))):  # the newest change: the last name
        os.utime(folder / name, (1_800_000_000 + k, 1_800_000_000 + k))
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with serving(str(folder), "--lang", "zh") as s:
        status, season = s.get("/api/stats")
        assert status == 200
        assert season == stats_printed(folder)
        first = s.get("/api/stats", player="老王")[1]["matches"][0]
        assert first["file"] == "2026-11-06.yaml"  # (a match's name, as ?match=NAME names it)
        assert s.get("/api/stats", player="老王")[1] == stats_printed(folder, "--player", "老王")
        since = s.get("/api/stats", since="2026-11-13", until="2026-11-20")[1]
        assert since == stats_printed(folder, "--since", "2026-11-13", "--until", "2026-11-20")
        assert since["outside_dates"] == 3
        # refusals: a date that is no date is the request's (400), a player who is not there
        # the library's (422), each said in the page's language; the key as everywhere
        status, answer = s.get("/api/stats", since="13/11/2026")
        assert status == 400 and "YYYY-MM-DD" in answer["error"]
        status, answer = s.get("/api/stats", player="nobody", lang="en")
        assert status == 422 and answer["error"].startswith("no player 'nobody' in these matches")
        assert request(s.base, "/api/stats")[0] == 401
        assert request(s.base, "/api/stats", key="x" * 24)[0] == 403
        # the start form's names: every player of the folder, the last changed match's first
        status, listed = s.get("/api/matches")
        newest = json.loads(subprocess.run(
            [*command(), "match", "show", str(folder / "2026-11-20.yaml"), "--format", "json"],
            capture_output=True, text=True, timeout=60).stdout)["players"]  # fmt: skip
        assert listed["recent_names"][:4] == newest
        assert sorted(listed["recent_names"]) == sorted(p["name"] for p in season["players"])
    # nothing written: the ledgers as they were, no lock file beside them
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_refusal_names_the_folder_as_stats_dot_does_not_by_its_path(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    with serving(str(folder), "--lang", "en") as s:
        status, answer = s.get("/api/stats")  # (as 'stats .' says it: no path of the server's)
        assert (status, answer["error"]) == (422, "no match ledgers in .")
        assert s.get("/api/matches")[1]["recent_names"] == []
        (folder / "one.yaml").write_bytes((ROOT / "docs" / "examples" / "season" /
                                             "2026-11-06.yaml").read_bytes())  # fmt: skip
        status, answer = s.get("/api/stats", since="2030-01-01")
        assert status == 422 and answer["error"].startswith("no match in . ended from 2030-01-01")
