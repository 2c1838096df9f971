"""``stats`` counts matches played (issue 22): a ledger with no hands is no match; a player
renamed in a match (recorded in its history) is one player, under the latest name."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from clitools import SAMPLES, done, ok, refused, run

from gongzhu_score.match.stats import read_stats, renamed
from gongzhu_score.match.storage import read_ledger

MATCH = SAMPLES / "match"


def _match(path: Path, players: str, hands: int) -> str:
    ledger = str(path)
    done("match", "new", ledger, "-p", players)
    a, b, c, d = players.split(",")
    for i in range(hands):  # hands of any players: the pig, the sheep, 10♣ and the rest turn about
        cards = ["QS", "JD", "10C", "2H"]
        cards = cards[i % 4 :] + cards[: i % 4]
        done("match", "add", ledger, "-c", f"{a}={cards[0]}", "-c", f"{b}={cards[1]}",
             "-c", f"{c}={cards[2]}", "-c", f"{d}={cards[3]}", "--rest", d)  # fmt: skip
    return ledger


def _by_name(*paths: str) -> dict[str, dict[str, object]]:
    data = json.loads(ok("stats", *paths, "-f", "json"))
    return {p["name"]: p for p in data["players"]}


def test_a_ledger_with_no_hands_is_no_match(tmp_path: Path) -> None:
    played = _match(tmp_path / "played.yaml", "东,南,西,北", 2)
    _match(tmp_path / "empty.yaml", "甲,乙,丙,丁", 0)
    data = json.loads(ok("stats", str(tmp_path), "-f", "json"))
    assert (data["matches"], data["hands"], data["without_hands"]) == (1, 2, 1)
    # no match has ended, so no one has a rating (rulings §13): by name
    assert [p["name"] for p in data["players"]] == sorted(["东", "南", "西", "北"])
    assert all(p["rating"] is None for p in data["players"])
    assert all(p["matches"] == 1 for p in data["players"])
    assert ok("stats", str(tmp_path)).startswith(
        "1 match, 2 hands (1 ledger with no hands yet, not counted)\n"
    )
    assert ok("stats", str(tmp_path), "--lang", "zh").startswith(
        "1 场比赛，2 局（1 个还没有牌局的比赛记录，不计入）\n"
    )
    assert ok("stats", played).startswith("1 match, 2 hands\n")  # nothing left out: no note
    message = refused("stats", str(tmp_path / "empty.yaml"))
    assert message == f"no match played in {tmp_path / 'empty.yaml'}: its ledgers have no hands yet"


def test_a_renamed_player_is_one_player_under_the_latest_name(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.yaml", "东,南,西,北", 3)
    second = _match(tmp_path / "b.yaml", "东,南,西,北", 1)
    done("match", "rename", second, "北", "小北")
    rows = _by_name(first, second)
    assert list(rows) == sorted(["东", "南", "西", "小北"])  # (none rated: by name)
    assert (rows["小北"]["matches"], rows["小北"]["hands"]) == (2, 4)
    # the numbers: 北's three hands in a.yaml and 小北's one in b.yaml, from the ledgers
    a, b = read_ledger(first), read_ledger(second)
    finals = [e.final[3] for e in a.entries] + [e.final[3] for e in b.entries]
    assert rows["小北"]["final"] == sum(finals)
    assert rows["小北"]["won"] == int("北" in a.status().winner_side)
    # each ledger alone: a.yaml records no rename, so 北 is 北 there
    assert "北" in _by_name(first)


def test_two_names_at_one_table_stay_two_players(tmp_path: Path) -> None:
    renamed_in = _match(tmp_path / "a.yaml", "东,南,西,北", 1)
    done("match", "rename", renamed_in, "北", "小北")
    both = _match(tmp_path / "b.yaml", "东,南,北,小北", 1)  # 北 and 小北 play together here
    rows = _by_name(renamed_in, both)
    assert (rows["北"]["matches"], rows["小北"]["matches"]) == (1, 2)


def test_renames_join_by_any_chain_under_the_latest_name(tmp_path: Path) -> None:
    assert renamed([]) == {}
    # in time order, whatever the order read and the offsets written
    said = renamed(
        [("2026-12-02T09:00:00+08:00", "b", "c"), ("2026-12-01T00:00:00+00:00", "a", "b")]
    )
    assert said == {"a": "c", "b": "c", "c": "c"}
    back = renamed(
        [("2026-12-01T00:00:00+00:00", "a", "b"), ("2026-12-01T00:00:01+00:00", "b", "a")]
    )
    assert back == {"a": "a", "b": "a"}
    # the same instant in two offsets: the one read first counts as the earlier
    same = renamed(
        [("2026-12-01T08:00:00+08:00", "a", "b"), ("2026-12-01T00:00:00+00:00", "b", "z")]
    )
    assert same == {"a": "z", "b": "z", "z": "z"}
    # a time no one could read goes first
    odd = renamed([("2026-12-01T00:00:00+00:00", "a", "b"), ("yesterday", "b", "q")])
    assert odd["a"] == "b"
    # a long chain is followed in linear time (halving): no recursion, no quadratic walk
    start = datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)
    chain = [((start + datetime.timedelta(seconds=i)).isoformat(), f"n{i}", f"n{i + 1}")
             for i in reversed(range(5000))]  # fmt: skip
    assert set(renamed(chain).values()) == {"n5000"}


def test_stats_through_three_ledgers_and_a_chain_of_renames(tmp_path: Path) -> None:
    one = _match(tmp_path / "1.yaml", "东,南,西,北", 1)
    two = _match(tmp_path / "2.yaml", "东,南,西,北", 1)
    done("match", "rename", two, "北", "老北")
    three = _match(tmp_path / "3.yaml", "东,南,西,老北", 1)
    done("match", "rename", three, "老北", "北哥")
    stats = read_stats([one, two, three])
    names = [p.name for p in stats.players]
    assert names == sorted(["东", "南", "西", "北哥"])  # (none rated: by name)
    assert [p.matches for p in stats.players] == [3, 3, 3, 3]


@pytest.mark.parametrize("damage", [b"not json\n"])
def test_a_damaged_history_is_said_not_passed_over(tmp_path: Path, damage: bytes) -> None:
    ledger = _match(tmp_path / "a.yaml", "东,南,西,北", 1)
    history = Path(ledger + ".history")
    history.write_bytes(damage + history.read_bytes())
    r = run("stats", ledger)
    assert r.exit_code == 2
    assert str(history) in r.stderr
