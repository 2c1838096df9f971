"""``gongzhu-score serve`` over real HTTP: a real uvicorn process, requests from outside it.

The page's own behaviour (tapping, live updates on screen) is tested in a real browser in
test_web_browser.py; here, what any client meets: the key, the contract's address line, the
answers as `match show --format json` gives them, the live feed, two confirmations at once, and
hostile requests (each refused with a 4xx, the ledger byte-for-byte unchanged).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from serving import Served, command, request, serving

PLAYERS = "东,南,西,北"
# A hand as the page sends it: 东 took the pig, exposed; 南 the ace and king of hearts; 西 the rest.
ENTRY = {"captured": {"东": ["QS"], "南": ["AH", "KH"]}, "rest": "西", "exposed": {"东": ["QS"]}}


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def shown(ledger: Path) -> dict[str, object]:
    return json.loads(cli("match", "show", str(ledger), "--format", "json").stdout)


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "tonight.yaml"
    cli("match", "new", str(path), "--players", PLAYERS)
    return path


@pytest.fixture
def served(ledger: Path) -> Served:
    with serving(str(ledger), "--lang", "zh") as s:
        yield s


def version(ledger: Path) -> str:
    return hashlib.sha256(ledger.read_bytes()).hexdigest()


# --- the contract: the address, the key ---------------------------------------------------


def test_serve_prints_the_address_with_the_key_and_the_page_needs_it(served: Served) -> None:
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?key=[A-Za-z0-9_-]{16,64}", served.url)
    status, page = request(served.base, "/", key=served.key)
    assert status == 200 and "<html" in page and served.key in page
    # A phone without the key (or an old bookmark) gets a page in its language saying what to do.
    status, answer = request(served.base, "/")
    assert status == 401 and "<html" in answer and "二维码" in answer and "error" not in answer
    status, answer = request(served.base, "/", key="x" * 24, lang="en")
    assert status == 403 and "Scan the QR code" in answer
    status, answer = request(served.base, "/", headers={"Accept-Language": "zh-TW,zh;q=0.8"})
    assert status == 401 and "二維碼" in answer
    status, answer = request(served.base, "/api/state")
    assert status == 401 and "密钥" in answer["error"]  # (scripts keep their JSON)
    for path in ("/api/state", "/api/events", "/static/app.js", "/favicon.ico", "/no/such"):
        assert request(served.base, path)[0] == 401, path
    for path in ("/api/hands", "/api/undo", "/api/preview"):
        assert request(served.base, path, {"version": "x"})[0] == 401, path
        assert request(served.base, path, {"version": "x"}, key="y" * 20)[0] == 403, path


def test_the_key_is_kept_beside_the_ledger_for_its_owner_only_and_new_key_shuts_old_out(
    ledger: Path,
) -> None:
    with serving(str(ledger)) as first:
        pass
    kept = ledger.with_name("tonight.yaml.key")
    assert kept.read_text().strip() == first.key
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    with serving(str(ledger)) as again:
        assert again.key == first.key  # the phones' bookmarks keep working
    with serving(str(ledger), "--new-key") as rotated:
        assert rotated.key != first.key
        assert request(rotated.base, "/api/state", key=first.key)[0] == 403
        assert request(rotated.base, "/api/state", key=rotated.key)[0] == 200


def test_serve_draws_the_address_as_a_qr_code(ledger: Path) -> None:
    from gongzhu_score.web.serving import qr_text

    url = "http://127.0.0.1:8000/?key=" + "k" * 24
    drawn = qr_text(url).splitlines()
    import segno

    # Two rows of modules a line (compact), a border of 2 around the symbol.
    assert len(drawn) == (segno.make(url, error="l").symbol_size(border=2)[1] + 1) // 2
    assert set("".join(drawn)) <= set("█▀▄ ")


# --- the answers ---------------------------------------------------------------------------


def test_state_is_match_show_json_and_a_hand_added_there_is_the_cli_s_hand(
    served: Served, ledger: Path
) -> None:
    status, state = served.get("/api/state")
    assert status == 200
    assert state["match"] == shown(ledger)
    assert state["version"] == version(ledger)
    assert [c["code"] for c in state["cards"]][:4] == ["QS", "JD", "10C", "AH"]
    assert len(state["cards"]) == 16 and state["decks"] == 1
    status, answer = served.post("/api/hands", {"version": state["version"], "entry": ENTRY})
    assert status == 200, answer
    assert answer["number"] == 1 and answer["said"] == "添加第 1 局"
    assert answer["state"]["match"] == shown(ledger)
    # The same hand typed on the command line scores the same.
    other = ledger.with_name("typed.yaml")
    cli("match", "new", str(other), "--players", PLAYERS)
    cli("match", "add", str(other), "-c", "东=QS", "-c", "南=AH KH", "-c", "北=", "--rest", "西",
        "-e", "东=QS")  # fmt: skip
    typed = shown(other)["hands"][0]
    assert {k: typed[k] for k in ("raw", "final", "marks")} == {
        k: answer["state"]["match"]["hands"][0][k] for k in ("raw", "final", "marks")
    }
    # The change is in the match's history, as the command line's are.
    history = cli("match", "history", str(ledger), "--lang", "en").stdout
    assert "added hand 1" in history


def test_preview_scores_the_hand_as_tapped(served: Served) -> None:
    status, answer = served.post("/api/preview", {"entry": {"captured": {"东": ["QS"]}}})
    assert status == 200
    assert answer["raw"] == [-100, 0, 0, 0] and not answer["complete"]
    assert "QS" not in answer["unplaced"] and len(answer["unplaced"]) == 15
    status, answer = served.post("/api/preview", {"entry": ENTRY})
    assert answer["raw"] == [-200, -90, -20, 0] and answer["complete"]
    assert {"JD", "10C", "2H"} <= set(answer["rest_cards"]) and len(answer["rest_cards"]) == 13
    both = {"captured": {"东": ["QS"], "南": ["QS"]}}
    status, answer = served.post("/api/preview", {"entry": both}, lang="en")
    assert status == 400 and "Q♠ is with 东 already" in answer["error"]


def test_a_hand_explained_is_explain_s_text(served: Served, ledger: Path) -> None:
    state = served.get("/api/state")[1]
    served.post("/api/hands", {"version": state["version"], "entry": ENTRY})
    status, hand = served.get("/api/hands/1")
    assert status == 200
    explained = cli("explain", str(ledger), "1", "--lang", "zh").stdout
    assert hand["explain"].strip() == explained.strip()
    assert hand["text"] == cli("match", "show", str(ledger), "1", "--lang", "zh").stdout
    assert hand["entry"]["captured"]["东"] == ["QS"]
    assert served.get("/api/hands/2")[0] == 422


def test_edit_remove_and_undo_are_the_library_s_changes_with_their_history(
    served: Served, ledger: Path
) -> None:
    v = served.get("/api/state")[1]["version"]
    for _ in range(3):
        status, answer = served.post("/api/hands", {"version": v, "entry": ENTRY})
        assert status == 200
        v = answer["state"]["version"]
    edited = {"captured": {"北": ["QS"], "南": ["AH", "KH"]}, "rest": "西"}
    status, answer = served.post("/api/hands/2/edit", {"version": v, "entry": edited})
    assert status == 200 and answer["said"] == "修改第 2 局"
    assert answer["state"]["match"]["hands"][1]["raw"] == [0, -90, -20, -100]
    status, answer = served.post("/api/hands/1/remove", {"version": answer["state"]["version"]})
    assert status == 200 and answer["state"]["match"] == shown(ledger)
    status, answer = served.post("/api/undo", {"version": answer["state"]["version"]})
    assert status == 200 and len(shown(ledger)["hands"]) == 1
    from gongzhu_score.match.storage import ledger_history

    kinds = [c.kind for c in ledger_history(str(ledger))]
    assert kinds == ["new", "add", "add", "add", "edit", "remove", "undo"]


# --- live, and two phones at once ------------------------------------------------------------


def _events(served: Served, seen: list[tuple[float, str]], stop: threading.Event) -> None:
    url = f"{served.base}/api/events?key={served.key}"
    with urllib.request.urlopen(url, timeout=30) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data:"):
                seen.append((time.monotonic(), json.loads(line[5:])["version"]))
            if stop.is_set():
                return


def test_a_hand_added_with_match_add_is_announced_within_a_second(
    served: Served, ledger: Path
) -> None:
    seen: list[tuple[float, str]] = []
    stop = threading.Event()
    listener = threading.Thread(target=_events, args=(served, seen, stop), daemon=True)
    listener.start()
    deadline = time.monotonic() + 10
    while not seen and time.monotonic() < deadline:
        time.sleep(0.05)
    assert seen and seen[0][1] == version(ledger)
    cli("match", "add", str(ledger), "-c", "东=QS", "-c", "南=", "-c", "北=", "--rest", "西")
    added = time.monotonic()
    while len(seen) < 2 and time.monotonic() < added + 5:
        time.sleep(0.02)
    stop.set()
    assert len(seen) >= 2, "no event after match add"
    assert seen[1][1] == version(ledger)
    assert seen[1][0] - added < 1.0


def test_two_phones_confirming_at_once_add_the_hand_once(served: Served, ledger: Path) -> None:
    v = served.get("/api/state")[1]["version"]
    answers: list[tuple[int, dict[str, object]]] = []
    go = threading.Barrier(2)

    def confirm() -> None:
        go.wait()
        answers.append(served.post("/api/hands", {"version": v, "entry": ENTRY}))

    phones = [threading.Thread(target=confirm) for _ in range(2)]
    for t in phones:
        t.start()
    for t in phones:
        t.join()
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200, 409]
    loser = next(a for s, a in answers if s == 409)
    assert "另一部手机" in str(loser["error"])
    assert loser["state"]["match"] == shown(ledger)  # the winner's hand, for the loser to see
    assert len(shown(ledger)["hands"]) == 1


# --- hostile requests: a 4xx, nothing changed ------------------------------------------------


def test_hostile_requests_are_refused_and_change_nothing(served: Served, ledger: Path) -> None:
    before = ledger.read_bytes()
    v = version(ledger)
    base, key = served.base, served.key
    cases = [
        (request(base, "/api/hands", raw=b"x" * (70 * 1024), key=key), 413),
        (request(base, "/api/hands", raw=b"{not json", key=key), 400),
        (request(base, "/api/hands", raw=b"\xff\xfe", key=key), 400),
        (request(base, "/api/hands", [1, 2], key=key), 400),
        (request(base, "/api/hands", {"entry": ENTRY}, key=key), 400),  # no version
        (
            request(
                base, "/api/hands", {"version": v, "entry": {"captured": {"<b>x</b>": []}}}, key=key
            ),
            400,
        ),
        (
            request(
                base, "/api/hands", {"version": v, "entry": {"captured": {"东": ["ZZ"]}}}, key=key
            ),
            400,
        ),
        (
            request(
                base, "/api/hands", {"version": v, "entry": {"captured": {"东": "QS"}}}, key=key
            ),
            400,
        ),
        (request(base, "/api/hands", {"version": v, "entry": {"rm": "-rf"}}, key=key), 400),
        (
            request(
                base, "/api/hands", {"version": v, "entry": {"captured": {"东": ["QS"]}}}, key=key
            ),
            422,
        ),  # fmt: skip (cards missing, nobody takes the rest)
        (request(base, "/api/hands", {"version": "0" * 64, "entry": ENTRY}, key=key), 409),
        (request(base, "/api/hands/1/remove", {"version": v}, key=key), 422),
        (request(base, "/api/undo", {"version": v}, key=key), 422),
        (request(base, "/api/hands/99999999999999999999/edit", {"version": v}, key=key), 422),
        (request(base, "/api/state", key=key, lang="fr"), 400),
        (request(base, "/api/state", method="DELETE", key=key), 405),
        (request(base, "/static/../tonight.yaml", key=key), 404),
        (request(base, "/static/%2e%2e%2ftonight.yaml", key=key), 404),
        (request(base, "/static/index.html", key=key), 404),
        (request(base, "/tonight.yaml.key", key=key), 404),
        (request(base, "/api/hands/1", key=key), 422),
        (request(base, "/api/hands/x", key=key), 404),
    ]
    for (status, answer), expected in cases:
        assert status == expected, answer
        assert isinstance(answer, dict) and answer["error"], answer
        assert "Traceback" not in json.dumps(answer)
    assert ledger.read_bytes() == before
    # A declared length too large is refused before the body is read.
    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=10) as s:
        s.sendall(f"POST /api/hands?key={key} HTTP/1.1\r\nHost: x\r\n"
                  "Content-Length: 999999999\r\n\r\n".encode())  # fmt: skip
        assert s.recv(100).startswith(b"HTTP/1.1 413")
    assert served.process.poll() is None  # still serving
    assert served.get("/api/state")[0] == 200


def test_a_match_that_is_over_refuses_a_hand(served: Served, ledger: Path) -> None:
    for _ in range(6):  # 东 takes the pig and every heart, exposed: far past -1000
        cli("match", "add", str(ledger), "-c", "东=QS AH KH QH JH", "-c", "南=", "-c", "北=",
            "--rest", "西", "-e", "东=QS AH", check=False)  # fmt: skip
    assert shown(ledger)["ended"]
    before = ledger.read_bytes()
    status, answer = served.post("/api/hands", {"version": version(ledger), "entry": ENTRY})
    assert status == 422 and "结束" in answer["error"]
    assert ledger.read_bytes() == before


def test_a_killed_server_loses_nothing(ledger: Path) -> None:
    with serving(str(ledger)) as s:
        v = s.get("/api/state")[1]["version"]
        for _ in range(3):
            v = s.post("/api/hands", {"version": v, "entry": ENTRY})[1]["state"]["version"]
        s.process.kill()
        s.process.wait()
    assert cli("match", "verify", str(ledger)).returncode == 0
    assert len(shown(ledger)["hands"]) == 3


# --- serve's own refusals ---------------------------------------------------------------------


def test_serve_refusals_exit_2_with_one_line(ledger: Path, tmp_path: Path) -> None:
    missing = cli("serve", str(tmp_path / "none.yaml"), "--port", "0", check=False)
    assert missing.returncode == 2 and missing.stderr.startswith("error:")
    assert not (tmp_path / "none.yaml.key").exists()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = cli("serve", str(ledger), "--port", port, "--lang", "zh", check=False)
    assert busy.returncode == 2 and "无法在 127.0.0.1:" in busy.stderr
    assert len(busy.stderr.splitlines()) == 1
    ledger.with_name("tonight.yaml.key").write_text("not a key\n")
    bad = cli("serve", str(ledger), "--port", "0", check=False)
    assert bad.returncode == 2 and "--new-key" in bad.stderr


def test_serve_without_the_web_extra_says_which_to_install(ledger: Path) -> None:
    code = (
        "import sys; sys.modules['starlette'] = None; "
        "from gongzhu_score.cli import main; "
        f"sys.argv = ['gongzhu-score', 'serve', {str(ledger)!r}]; main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert "pip install 'gongzhu-score[web]'" in done.stderr
    assert not ledger.with_name("tonight.yaml.key").exists()


def test_serve_without_a_ledger_serves_the_current_match(ledger: Path) -> None:
    env = {**os.environ, "GONGZHU_MATCH": str(ledger)}
    process = subprocess.Popen([*command(), "serve", "--port", "0", "--no-qr"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        base, key = url.split("/?key=")
        assert request(base, "/api/state", key=key)[1]["ledger"] == "tonight.yaml"
    finally:
        process.terminate()
        process.communicate(timeout=10)


def test_the_page_speaks_every_language_of_the_catalogs(served: Served, ledger: Path) -> None:
    state = served.get("/api/state")[1]
    served.post("/api/hands", {"version": state["version"], "entry": ENTRY})
    status, traditional = served.get("/api/state", lang="zh-Hant")
    assert status == 200 and traditional["words"]["entry.confirm"] == "確認"
    status, hand = served.get("/api/hands/1", lang="zh-Hant")
    assert hand["text"] == cli("match", "show", str(ledger), "1", "--lang", "zh-Hant").stdout
    status, answer = served.get("/api/state", lang="fr")
    assert status == 400 and "en、zh、zh-Hant" in answer["error"]  # (the page's own language)


# --- serve FOLDER: the evening's matches under one key ------------------------------------------


def test_a_folder_is_served_under_one_key_its_matches_named_by_file_name_only(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "notes.yaml").write_text("not: a ledger\n", encoding="utf-8")
    house = "name: wang\ntitle_zh: 老王家规则\nextends: classic\npig: -200\n"
    (folder / "house.yaml").write_text(house, encoding="utf-8")
    with serving(
        str(folder), "--lang", "zh", env={"GONGZHU_NOW": "2026-11-20T20:30:00+08:00"}
    ) as s:
        kept = tmp_path / "club.key"  # beside the folder, for its owner only
        assert kept.read_text().strip() == s.key
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        status, listed = s.get("/api/matches")
        assert status == 200 and listed["matches"] == [] and listed["can_start"]
        assert listed["rules_files"] == ["house.yaml"]  # (notes.yaml is no rules file)
        assert listed["rules_titles"] == {"house.yaml": "老王家规则"}
        assert s.get("/api/state")[0] == 400  # no match yet

        status, made = s.post("/api/matches", {"players": ["甲", "乙", "丙", "丁"], "name": "周五"})
        assert status == 200 and made["match"] == "周五.yaml"
        assert shown(folder / "周五.yaml")["players"] == ["甲", "乙", "丙", "丁"]
        status, again = s.post("/api/matches", {"like": "周五.yaml"})  # 再来一盘, named by the date
        assert status == 200 and again["match"] == "2026-11-20.yaml"
        status, listed = s.get("/api/matches")
        assert listed["matches"][0]["name"] == "2026-11-20.yaml"  # the current first
        assert listed["matches"][0]["current"] and not listed["matches"][1]["current"]
        assert s.get("/api/state")[1]["ledger"] == "2026-11-20.yaml"
        assert s.get("/api/state", match="周五.yaml")[1]["ledger"] == "周五.yaml"

        # Only a ledger of the folder, by its plain name; the changes refused change nothing.
        before = sorted(p.name for p in folder.iterdir())
        for name in (
            "../club.key",
            str(folder / "周五.yaml"),
            "notes.yaml",
            ".x.yaml",
            "none.yaml",
        ):
            status, answer = s.get("/api/state", match=name)
            assert status == 400 and "error" in answer, name
        refused = [
            {"players": ["a", "b", "c", "d"], "name": "周五"},  # taken: said so
            {"players": ["a", "b", "c", "d"], "name": "a\u0000b"},
            {"players": ["a", "b", "c", "d"], "name": "x\ny"},
            {"players": ["a", "b", "c", "d"], "name": "../out"},
            {"players": ["a", "b", "c", "d"], "variant": "classic", "rules": "notes.yaml"},
            {"players": ["a", "b", "c", "d"], "rules": "notes.yaml"},
            {"players": ["a", "b", "c"]},
            {"like": "../周五.yaml"},
            {"players": ["a", "b", "c", "d"], "end_at": "x"},
            {"players": ["a", "b", "c", "d"], "colour": "red"},
        ]
        for body in refused:
            status, answer = s.post("/api/matches", body)
            assert 400 <= status < 500 and "error" in answer, (body, status, answer)
        status, answer = s.post("/api/matches", refused[0])
        assert "已经有" in answer["error"] and "周五.yaml" in answer["error"]
        deep = b'{"entry":' + b"[" * 20000 + b"]" * 20000 + b"}"
        status, answer = request(s.base, "/api/preview", raw=deep, key=s.key, match="周五.yaml")
        assert status == 400, answer
        assert sorted(p.name for p in folder.iterdir()) == before

        # A rename, with the version seen, as match rename.
        state = s.get("/api/state", match="周五.yaml")[1]
        body = {"version": state["version"], "old": "甲", "new": "老甲"}
        status, answer = s.post("/api/rename", body, match="周五.yaml")
        assert status == 200 and answer["state"]["match"]["players"][0] == "老甲"
        stale = {**body, "old": "乙", "new": "老乙"}  # (sent with the version before the rename)
        assert s.post("/api/rename", stale, match="周五.yaml")[0] == 409


def test_serve_ledger_serves_that_match_alone(served: Served, ledger: Path) -> None:
    status, listed = served.get("/api/matches")
    assert status == 200 and not listed["can_start"]
    assert [m["name"] for m in listed["matches"]] == [ledger.name]
    status, answer = served.post("/api/matches", {"players": ["a", "b", "c", "d"]})
    assert status == 400 and "error" in answer
    assert sorted(p.name for p in ledger.parent.iterdir() if p.suffix == ".yaml") == [ledger.name]
