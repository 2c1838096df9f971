"""Batch scoring (issue 6): every input kind, bad records, --keep-going, the summary's numbers,
and the fast path and the parallel path agreeing with the full engine."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
from pathlib import Path

import pytest
from clitools import SAMPLES, refused, run
from hypothesis import given
from strategies import RandomHand, legal_hands

from gongzhu_score import VARIANTS, Method, Scorer
from gongzhu_score.batch import parallel as parallel_module
from gongzhu_score.core.engine import compiled_rules
from gongzhu_score.io.handfile import hand_from_data

MINUS_400 = {
    "players": [
        {"name": "东", "captured": "QS 6H 8H 10H JH 10C"},
        {"name": "南", "captured": "AH 2H 3H 4H 5H 7H 9H", "exposed": "AH"},
        {"name": "西", "captured": ["JD", "QH", "KH"]},
        {"name": "北", "captured": ""},
    ]
}
FULL_RED = {"players": {"东": "QS", "南": "全红", "西": "JD 10C", "北": []}}


def jsonl(path: Path, *hands: object) -> str:
    path.write_text(
        "".join(json.dumps(h, ensure_ascii=False) + "\n" for h in hands), encoding="utf-8"
    )
    return str(path)


def lines(out: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in out.splitlines()]


def finals(record: dict) -> list[int]:  # type: ignore[type-arg]
    return [p["final"] for p in record["players"]]


def test_jsonl_contract_one_object_per_hand_in_order(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400, FULL_RED)
    out = lines(run("batch", f, "--format", "jsonl").stdout)
    assert [o["source"] for o in out] == [f"{f}:1", f"{f}:2"]
    assert out[0]["players"] == [
        {"name": "东", "raw": -400, "final": -333},
        {"name": "南", "raw": -160, "final": -13},
        {"name": "西", "raw": -40, "final": 147},
        {"name": "北", "raw": 0, "final": 200},
    ]
    assert [p["raw"] for p in out[1]["players"]] == [-100, 200, 200, 0]


def test_jsonl_matches_score_json(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400)
    from_batch = lines(run("batch", f, "-f", "jsonl").stdout)[0]["players"]
    from_score = json.loads(
        run("score", str(SAMPLES / "seed_minus_400.yaml"), "-f", "json").stdout
    )["players"]
    assert from_batch == [{k: p[k] for k in ("name", "raw", "final")} for p in from_score]


def test_yaml_many_documents(tmp_path: Path) -> None:
    f = tmp_path / "club.yaml"
    f.write_text(
        (SAMPLES / "seed_minus_400.yaml").read_text(encoding="utf-8") + "---\n"
        + (SAMPLES / "seed_grand_slam.yaml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )  # fmt: skip
    out = lines(run("batch", str(f), "-f", "jsonl").stdout)
    assert [o["source"] for o in out] == [f"{f}#1", f"{f}#2"]
    assert [p["raw"] for p in out[1]["players"]] == [0, 0, 800, 0]


def test_a_folder_recursively_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    jsonl(tmp_path / "b" / "two.jsonl", FULL_RED)
    jsonl(tmp_path / "a.jsonl", MINUS_400)
    (tmp_path / "notes.txt").write_text("not a hand", encoding="utf-8")
    out = lines(run("batch", str(tmp_path), "-f", "jsonl").stdout)
    assert [Path(o["source"].rsplit(":", 1)[0]).name for o in out] == ["a.jsonl", "two.jsonl"]


def test_stdin_jsonl_and_yaml() -> None:
    text = json.dumps(MINUS_400, ensure_ascii=False) + "\n"
    out = lines(run("batch", "-", "-f", "jsonl", input=text).stdout)
    assert out[0]["source"] == "<stdin>:1"
    yaml_text = (SAMPLES / "seed_full_red.yaml").read_text(encoding="utf-8")
    out = lines(run("batch", "-", "-f", "jsonl", input=yaml_text).stdout)
    assert out[0]["source"] == "<stdin>#1"


def test_each_hand_uses_its_own_variant_unless_told(tmp_path: Path) -> None:
    online = json.loads(json.dumps({"variant": "online", "players": [
        {"name": "A", "captured": "10C 2H 3H"}, {"name": "B", "captured": "QS AH KH"},
        {"name": "C", "captured": "JD 4H 5H 6H 7H"}, {"name": "D", "captured": "8H 9H 10H JH QH"}]}))  # fmt: skip
    f = jsonl(tmp_path / "h.jsonl", online)
    assert lines(run("batch", f, "-f", "jsonl").stdout)[0]["players"][0]["raw"] == 50
    assert (
        lines(run("batch", f, "-f", "jsonl", "-v", "classic").stdout)[0]["players"][0]["raw"] == 0
    )


def test_summary_numbers(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400, FULL_RED, MINUS_400)
    data = json.loads(run("batch", f, "-f", "json").stdout)
    summary = {row["name"]: row for row in data["summary"]}
    assert summary["东"] == {
        "name": "东", "hands": 3, "raw": -900, "final": -333 - 233 - 333, "average": round((-333 - 233 - 333) / 3, 2),
        "pigs": 3, "sheep": 0, "transformers": 2, "full_reds": 0, "grand_slams": 0,
    }  # fmt: skip
    assert summary["南"]["full_reds"] == 1
    assert summary["西"]["sheep"] == 3 and summary["西"]["transformers"] == 1
    assert len(data["hands"]) == 3 and data["bad_records"] == []


def test_summary_only_csv_and_table(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400, FULL_RED)
    rows = list(csv.DictReader(io.StringIO(run("batch", f, "-f", "csv", "--summary-only").stdout)))
    assert [r["name"] for r in rows] == ["东", "南", "西", "北"]
    assert rows[0]["raw"] == "-500"
    table = run("batch", f, "--lang", "zh").stdout
    assert "汇总（2 局）" in table and "收猪" in table


def test_csv_hands(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400)
    rows = list(csv.DictReader(io.StringIO(run("batch", f, "-f", "csv").stdout)))
    assert rows[0] == {
        "source": f"{f}:1",
        "seat": "1",
        "name": "东",
        "raw": "-400",
        "final": "-333",
    }


def test_output_file(tmp_path: Path) -> None:
    f = jsonl(tmp_path / "h.jsonl", MINUS_400)
    out = tmp_path / "scores.jsonl"
    r = run("batch", f, "-f", "jsonl", "-o", str(out))
    assert r.exit_code == 0 and r.stdout == ""
    assert lines(out.read_text(encoding="utf-8"))[0]["players"][0]["raw"] == -400


BAD = [
    ("{not json\n", "not a JSON object"),
    (json.dumps({"players": [{"name": "东", "captured": "QX"}]}) + "\n", "unknown card 'QX'"),
    (json.dumps({"players": []}) + "\n", "a hand needs exactly four players, got 0"),
    (json.dumps({**MINUS_400, "playerz": 1}) + "\n", "unknown key 'playerz'"),
    (
        json.dumps(
            {
                "players": [
                    {"name": "A", "captured": "QS"},
                    {"name": "B", "captured": "QS"},
                    {"name": "C", "captured": "全红"},
                    {"name": "D", "captured": "JD 10C"},
                ]
            }
        )
        + "\n",
        "QS (Q♠) captured already by A",
    ),
    (
        json.dumps(
            {
                "players": [
                    {"name": "A", "captured": "QS"},
                    {"name": "B", "captured": ""},
                    {"name": "C", "captured": ""},
                    {"name": "D", "captured": ""},
                ]
            }
        )
        + "\n",
        "scoring cards nobody captured",
    ),
    ("[1, 2]\n", "a hand file holds a mapping with 'players', not list"),
]


@pytest.mark.parametrize(("line", "message"), BAD)
def test_a_bad_record_stops_the_batch_naming_file_and_line(
    tmp_path: Path, line: str, message: str
) -> None:
    good = json.dumps(MINUS_400, ensure_ascii=False) + "\n"
    f = tmp_path / "h.jsonl"
    f.write_text(good + line + good, encoding="utf-8")
    r = run("batch", str(f), "-f", "jsonl")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {f}:2: ") and message in r.stderr
    assert len(r.stdout.splitlines()) == 1  # the hand before it, and nothing after


def test_bad_yaml_documents(tmp_path: Path) -> None:
    f = tmp_path / "h.yaml"
    f.write_text("players: &p {a: QS}\n---\n" + (SAMPLES / "seed_full_red.yaml").read_text(encoding="utf-8")
                 + "---\nplayers: [unclosed\n", encoding="utf-8")  # fmt: skip
    r = run("batch", str(f), "-f", "jsonl", "--keep-going")
    assert r.exit_code == 1
    assert [o["source"] for o in lines(r.stdout)] == [f"{f}#2"]
    assert f"{f}#1: line 1, column 10: YAML anchors and aliases are not allowed here" in r.stderr
    assert f"{f}#3: line 12, column 1: invalid YAML" in r.stderr


def test_keep_going_scores_the_rest_and_lists_every_bad_record(tmp_path: Path) -> None:
    good = json.dumps(MINUS_400, ensure_ascii=False) + "\n"
    f = tmp_path / "h.jsonl"
    f.write_text(
        good + "{oops\n" + good + "\n" + json.dumps({"players": 3}) + "\n" + good, encoding="utf-8"
    )
    r = run("batch", str(f), "-f", "jsonl", "-k")
    assert r.exit_code == 1
    assert [o["source"] for o in lines(r.stdout)] == [f"{f}:1", f"{f}:3", f"{f}:6"]
    assert r.stderr.splitlines()[0] == "2 bad records:"
    assert f"  {f}:2: not a JSON object" in r.stderr
    assert f"  {f}:5: players must be a list" in r.stderr


def test_sides_the_teams_refuse_are_a_bad_record_of_a_file_as_of_standard_input(
    tmp_path: Path,
) -> None:
    """猪羊一家 with an exposure: the JSON Lines hot path once raised it with no source, ending
    the batch even with --keep-going; it is now the line's bad record, as from stdin."""
    plain = json.loads(json.dumps(MINUS_400))
    del plain["players"][1]["exposed"]  # (南's AH)
    good = json.dumps(plain, ensure_ascii=False) + "\n"
    text = good + json.dumps(MINUS_400, ensure_ascii=False) + "\n" + good
    f = tmp_path / "h.jsonl"
    f.write_text(text, encoding="utf-8")
    r = run("batch", str(f), "-f", "jsonl", "-k", "--teams", "pig-sheep")
    piped = run("batch", "-", "-f", "jsonl", "-k", "--teams", "pig-sheep", input=text)
    assert (r.exit_code, piped.exit_code) == (1, 1)
    assert [o["source"] for o in lines(r.stdout)] == [f"{f}:1", f"{f}:3"]
    assert r.stdout == piped.stdout.replace('"<stdin>:', f'"{f}:')
    assert f"  {f}:2: player 南: 猪羊一家 (teams pig-sheep) allows no exposure" in r.stderr
    assert r.stderr.replace(str(f), "<stdin>") == piped.stderr


def test_not_utf8_and_missing_inputs(tmp_path: Path) -> None:
    f = tmp_path / "h.yaml"
    f.write_bytes("players: 东".encode("gb18030"))
    r = run("batch", str(f), "-k")
    assert r.exit_code == 1 and "not UTF-8 text" in r.stderr
    assert (
        refused("batch", str(tmp_path / "nope.jsonl"))
        == f"{tmp_path / 'nope.jsonl'}: no such file or folder"
    )
    (tmp_path / "empty").mkdir()
    assert refused("batch", str(tmp_path / "empty")).startswith("no hand files")


# --- the bulk path's two ways in (canonical codes, the careful parser) and the parallel path agree


def _as_data(hand: RandomHand) -> dict:  # type: ignore[type-arg]
    return {
        "players": [
            {"name": n, "captured": " ".join(c.code for c in hand.captured[n]),
             **({"exposed": [c.code for c in hand.exposed[n]]} if hand.exposed.get(n) else {})}
            for n in hand.names
        ]
    }  # fmt: skip


@given(legal_hands())
def test_canonical_codes_score_as_the_careful_path(hand: RandomHand) -> None:
    data = _as_data(hand)
    if hand.first_exposed:
        data["players"][0]["first_exposed"] = []  # the careful path only; still equal
    rules = VARIANTS[hand.variant]
    for method in (Method.ZERO_SUM, Method.JJ, Method.NONE):
        scorer = Scorer(rules, normalize=method, scale=3)
        careful = compiled_rules(rules).score(hand_from_data(data).hand, scorer.normalization)
        fast = scorer.score_data(data)
        assert fast == careful
        assert fast.counts == careful.counts
        assert [p.lines for p in fast.players] == [p.lines for p in careful.players]


def test_parallel_output_is_the_single_process_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    from benchmark import random_hand

    rng = random.Random(7)
    hands = []
    for _ in range(3000):
        h = random_hand(rng)
        hands.append({"players": [{"name": n, "captured": c, **({"exposed": h["exposed"][n]} if n in h["exposed"] else {})}
                                  for n, c in h["captured"].items()]})  # type: ignore[attr-defined]  # fmt: skip
    hands[1700] = {"variant": "two-deck", **hands[1700]}  # the full engine, mid-file: refused
    f = jsonl(tmp_path / "h.jsonl", *hands)
    single = run("batch", f, "-f", "jsonl", "-k")
    monkeypatch.setattr(parallel_module, "PARALLEL_FROM_BYTES", 0)
    split = run("batch", f, "-f", "jsonl", "-k")
    assert split.stdout == single.stdout
    assert split.stderr == single.stderr and split.exit_code == single.exit_code == 1
    assert len(split.stdout.splitlines()) == 2999
    table_single = run("batch", f, "-f", "csv", "--summary-only", "-k", "-v", "classic")
    monkeypatch.setattr(parallel_module, "PARALLEL_FROM_BYTES", 10**12)
    table_split = run("batch", f, "-f", "csv", "--summary-only", "-k", "-v", "classic")
    assert table_single.stdout == table_split.stdout


def test_parallel_stops_at_the_first_bad_record_like_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = json.dumps(MINUS_400, ensure_ascii=False)
    f = tmp_path / "h.jsonl"
    f.write_text("\n".join([good] * 400 + ["{bad"] + [good] * 400) + "\n", encoding="utf-8")
    monkeypatch.setattr(parallel_module, "PARALLEL_FROM_BYTES", 0)
    r = run("batch", str(f), "-f", "jsonl")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: {f}:401: not a JSON object")
    assert len(r.stdout.splitlines()) == 400
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".gongzhu-part")]


def _die(*args: object) -> None:
    os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would


def test_a_worker_that_dies_fails_the_batch_and_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = json.dumps(MINUS_400, ensure_ascii=False)
    f = tmp_path / "h.jsonl"
    f.write_text("\n".join([good] * 2000) + "\n", encoding="utf-8")
    out = tmp_path / "scores.jsonl"
    monkeypatch.setattr(parallel_module, "PARALLEL_FROM_BYTES", 0)
    monkeypatch.setattr(parallel_module, "_work", _die)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the batch waited for a dead worker"))
    signal.alarm(60)
    try:
        r = run("batch", str(f), "-f", "jsonl", "-o", str(out))
    finally:
        signal.alarm(0)
    assert r.exit_code == 2
    assert re.match(rf"error: {re.escape(str(f))}: the process scoring lines \d+–2000 stopped before",
                    r.stderr)  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl"]  # no output, no parts


def test_progress_shows_on_a_terminal_after_a_moment(capsys: pytest.CaptureFixture[str]) -> None:
    from gongzhu_score.cli.batch import _Progress

    quiet = _Progress(enabled=False)
    for _ in range(5000):
        quiet.add(1)
    for lang, said in [("en", "scored 1,000 hands ("), ("zh", "已计分 1,000 局（每秒"),
                       ("zh-Hant", "已計分 1,000 局（每秒")]:  # fmt: skip
        shown = _Progress(enabled=True, lang=lang)
        shown.start -= 10  # as if it had been running for a while
        shown.last -= 10
        for _ in range(1000):
            shown.add(1)
        shown.done()
        err = capsys.readouterr().err
        assert f"\r  {said}" in err
        assert err.endswith("\r")  # the line is cleared when the batch ends
