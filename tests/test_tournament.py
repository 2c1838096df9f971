"""A tournament across tables (issue 36 part 3, rulings §12.3–12.4): standings summed over the
tables, level totals broken by the last match both played then by registration (Swiss:
registration alone), each round seated by the standings, and every refusal writing nothing."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from clitools import done, ok, refused, run
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu_score.errors import GongzhuError
from gongzhu_score.match import tournaments
from gongzhu_score.match.standings import TableResult, Tiebreak, seat_tables, standings
from gongzhu_score.match.storage import read_ledger

PLAYERS = [f"P{i}" for i in range(1, 9)]

# One hand a match (--hands 1), classic rules, individual play: each letter is what a seat
# captured, and its raw score (the deciding total of a one-hand match, rulings §8).
CARDS = {
    "Q": ("QS", -100),  # the pig
    "J": ("JD", 100),  # the sheep
    "H": ("全红", 200),  # full red
    "T": ("10C", 50),  # the transformer alone
    "A": ("QS 10C", -200),  # the pig doubled
    "B": ("JD 全红", 300),  # the sheep and full red
    "Z": ("", 0),  # nothing
}

# Worked by hand. Round 1 is seated in registration order:
#   table 1 P1 P2 P3 P4: Q J H T -> P1 -100, P2 100, P3 200, P4 50
#   table 2 P5 P6 P7 P8: Q J H T -> P5 -100, P6 100, P7 200, P8 50
# Standings: P3 200, P7 200 (never met: registration, P3 first), P2 100, P6 100, P4 50, P8 50,
# P1 -100, P5 -100; so round 2 seats P3 P7 P2 P6 | P4 P8 P1 P5.
#   table 1 P3 P7 P2 P6: Q T H J -> P3 100, P7 250, P2 300, P6 200
#   table 2 P4 P8 P1 P5: H Q J T -> P4 250, P8 -50, P1 0, P5 -50
# Standings: P2 300; P4 250, P7 250 (never met: P4 first); P6 200; P3 100; P1 0; P5 -50,
# P8 -50 (last met in round 2: P5 50 against P8 -100, P5 first); round 3 seats
# P2 P4 P7 P6 | P3 P1 P5 P8.
#   table 1 P2 P4 P7 P6: J Q T H -> P2 400, P4 150, P7 300, P6 400
#   table 2 P3 P1 P5 P8: A B Z Z -> P3 -100, P1 300, P5 -50, P8 -50
ROUNDS = [
    [("P1", "P2", "P3", "P4"), ("P5", "P6", "P7", "P8")],
    [("P3", "P7", "P2", "P6"), ("P4", "P8", "P1", "P5")],
    [("P2", "P4", "P7", "P6"), ("P3", "P1", "P5", "P8")],
]
HANDS = [["QJHT", "QJHT"], ["QTHJ", "HQJT"], ["JQTH", "ABZZ"]]
# The final standings: P2 and P6 level on 400 met last in round 3, where P6 took 200 to P2's
# 100: P6 first although P2 registered earlier. P1 and P7 level on 300 never met: registration.
# P5 and P8 level on -50 drew 0-0 in round 3, the last match both played (that P5 did better in
# round 2 does not count): registration.
FINAL = [
    ("P6", 400, "last-match"),
    ("P2", 400, "last-match"),
    ("P1", 300, "registration"),
    ("P7", 300, "registration"),
    ("P4", 150, None),
    ("P5", -50, "registration"),
    ("P8", -50, "registration"),
    ("P3", -100, None),
]


def play_table(folder: Path, ledger: str, seats: tuple[str, ...], letters: str) -> None:
    flags = []
    for name, letter in zip(seats, letters, strict=True):
        flags += ["-c", f"{name}={CARDS[letter][0]}"]
    done("match", "add", str(folder / ledger), *flags)


def start(tmp_path: Path, *flags: str, name: str = "cup.yaml") -> str:
    path = str(tmp_path / name)
    done("tournament", "new", path, "--players", ",".join(PLAYERS), "--hands", "1", *flags)
    return path


def seat_round(path: str) -> list[tuple[str, tuple[str, ...]]]:
    """Seat the next round; its tables as the tournament file keeps them."""
    done("tournament", "round", path)
    t = tournaments.read_tournament(path)
    return [(table.ledger, table.players) for table in t.rounds[-1]]


def play_all(tmp_path: Path, *flags: str) -> str:
    path = start(tmp_path, *flags)
    for number, (seating, hands) in enumerate(zip(ROUNDS, HANDS, strict=True), 1):
        tables = seat_round(path)
        assert [players for _, players in tables] == seating, f"round {number}"
        for (ledger, players), letters in zip(tables, hands, strict=True):
            play_table(tmp_path, ledger, players, letters)
    return path


def test_three_rounds_of_eight_need_both_tie_breaks(tmp_path: Path) -> None:
    path = play_all(tmp_path)
    data = json.loads(ok("tournament", "show", path, "--format", "json"))
    assert data == {
        "players": [
            {"name": n, "total": t, "rank": r, "matches": 3, "decided_by": d}
            for r, (n, t, d) in enumerate(FINAL, 1)
        ]
    }
    # the hand-worked totals are the tables' deciding totals summed
    for name, total, _ in FINAL:
        assert total == sum(
            CARDS[letters[seats.index(name)]][1]
            for round_seats, round_hands in zip(ROUNDS, HANDS, strict=True)
            for seats, letters in zip(round_seats, round_hands, strict=True)
            if name in seats
        )
    text = ok("tournament", "show", path)
    assert "     1  P6            400          3  last match\n" in text
    assert "     3  P1            300          3  registration\n" in text
    assert "     5  P4            150          3\n" in text
    assert "round 3 over: seat the next with gongzhu-score tournament round" in text
    csv = ok("tournament", "show", path, "--format", "csv")
    assert csv.splitlines()[:3] == ["rank,name,total,matches,decided_by", "1,P6,400,3,last-match",
                                    "2,P2,400,3,last-match"]  # fmt: skip
    assert "\n5,P4,150,3,\n" in csv
    zh = ok("tournament", "show", path, "--lang", "zh")
    assert "最后一局" in zh and "报名顺序" in zh


def test_swiss_ranks_level_players_by_registration_alone(tmp_path: Path) -> None:
    path = play_all(tmp_path, "--tiebreak", "registration")
    data = json.loads(ok("tournament", "show", path, "--format", "json"))
    ranked = [(p["name"], p["total"], p["decided_by"]) for p in data["players"]]
    # the same seating every round (no level pair had a last match that disagreed with
    # registration before round 3); only P2 and P6 change places
    assert ranked[:2] == [("P2", 400, "registration"), ("P6", 400, "registration")]
    assert ranked[2:] == FINAL[2:]


def test_the_standings_and_seating_are_pure_functions() -> None:
    # three level players in a circle (A beat B, B beat C, C beat A): registration decides
    rounds = [[TableResult(("A", "B", "x1", "x2"), (10, 0, 0, -10))],
              [TableResult(("B", "C", "x1", "x2"), (10, 0, 0, -10))],
              [TableResult(("C", "A", "x1", "x2"), (10, 0, 0, -10))]]  # fmt: skip
    placed = standings(["C", "B", "A", "x1", "x2"], rounds, Tiebreak.LAST_MATCH)
    assert [(p.name, p.total, p.decided_by) for p in placed[:3]] == [
        ("C", 10, "registration"), ("B", 10, "registration"), ("A", 10, "registration")
    ]  # fmt: skip
    assert seat_tables([f"p{i}" for i in range(8)]) == [
        ("p0", "p1", "p2", "p3"), ("p4", "p5", "p6", "p7")
    ]  # fmt: skip
    with pytest.raises(ValueError, match="6 players"):
        seat_tables([f"p{i}" for i in range(6)])


def test_the_tables_are_matches_of_the_tournament(tmp_path: Path) -> None:
    path = start(tmp_path, "--teams", "partners", "--auto-play", "island")
    tables = seat_round(path)
    ledger = read_ledger(str(tmp_path / tables[0][0]))
    assert ledger.tournament == "cup" and ledger.players == ("P1", "P2", "P3", "P4")
    assert ledger.last_hand == 1 and ledger.normalization.teams.value == "partners"
    assert ledger.auto_play.value == "island"
    assert 'tournament: "cup"\n' in (tmp_path / tables[0][0]).read_text(encoding="utf-8")
    shown = json.loads(ok("match", "show", str(tmp_path / tables[0][0]), "--format", "json"))
    assert shown["tournament"] == "cup"
    assert "every number agrees" in done("match", "verify", str(tmp_path / tables[0][0]))[1]


# --- refusals: clear errors, nothing written ---------------------------------------------------


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.suffix != ".lock" and p.is_file()}  # fmt: skip


def test_a_count_not_a_multiple_of_four_and_a_name_twice_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "cup.yaml"
    said = refused("tournament", "new", str(path), "--players", "A,B,C,D,E")
    assert "5 players do not fill tables of 4" in said
    assert "B is registered twice" in refused("tournament", "new", str(path),
                                              "--players", "A,B,C,B")  # fmt: skip
    assert not path.exists()
    assert "--name" in refused("tournament", "new", str(tmp_path / "my cup.yaml"),
                               "--players", "A,B,C,D")  # fmt: skip
    done("tournament", "new", str(tmp_path / "my cup.yaml"), "--players", "A,B,C,D",
         "--name", "my-cup")  # fmt: skip


def test_a_tournament_is_never_overwritten(tmp_path: Path) -> None:
    path = start(tmp_path)
    before = files(tmp_path)
    said = refused("tournament", "new", path, "--players", "A,B,C,D")
    assert "a tournament file is never overwritten" in said
    assert files(tmp_path) == before


def test_a_round_in_play_is_not_followed_and_nothing_is_written(tmp_path: Path) -> None:
    path = start(tmp_path)
    tables = seat_round(path)
    play_table(tmp_path, tables[0][0], tables[0][1], "QJHT")  # table 2 still in play
    before = files(tmp_path)
    said = refused("tournament", "round", path)
    assert "round 1 is still in play" in said and tables[1][0] in said
    assert files(tmp_path) == before


def test_a_file_the_round_would_write_is_never_overwritten(tmp_path: Path) -> None:
    path = start(tmp_path)
    for ledger, players in seat_round(path):
        play_table(tmp_path, ledger, players, "QJHT")
    (tmp_path / "cup-r2-t2.yaml").write_text("mine\n", encoding="utf-8")
    before = files(tmp_path)
    assert "cup-r2-t2.yaml" in refused("tournament", "round", path)
    assert files(tmp_path) == before  # (not even table 1 of round 2)


def test_a_round_that_cannot_be_written_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = start(tmp_path)
    before = files(tmp_path)

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tournaments, "replace_file", full)
    with pytest.raises(GongzhuError, match="No space left"):
        tournaments.next_round(path)
    assert files(tmp_path) == before


def test_a_ledger_of_another_tournament_or_of_none_is_refused(tmp_path: Path) -> None:
    path = start(tmp_path)
    tables = seat_round(path)
    table = tmp_path / tables[1][0]
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace('tournament: "cup"', 'tournament: "spring"'), encoding="utf-8")
    said = refused("tournament", "show", path)
    assert "round 1, table 2 (cup-r1-t2.yaml)" in said
    assert "a table of tournament spring, not of cup" in said
    table.write_text(text.replace('tournament: "cup"\n', ""), encoding="utf-8")
    assert "a match of its own, not a table of tournament cup" in refused(
        "tournament", "verify", path
    )


def test_a_player_missing_from_a_table_is_refused(tmp_path: Path) -> None:
    path = start(tmp_path)
    tables = seat_round(path)
    table = tmp_path / tables[0][0]
    before = table.read_bytes()
    assert "a table of tournament cup" in refused("match", "rename", str(table), "P3", "P9")
    assert table.read_bytes() == before  # (a table keeps the registered names)
    table.write_text(table.read_text(encoding="utf-8").replace('"P3"', '"P9"'), encoding="utf-8")
    said = refused("tournament", "round", path)
    assert "round 1, table 1 (cup-r1-t1.yaml): P3 missing from this table's ledger" in said


def test_a_table_of_the_wrong_size_and_an_unseated_player_are_refused(tmp_path: Path) -> None:
    path = Path(start(tmp_path))
    seat_round(str(path))
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('["P1", "P2", "P3", "P4"]', '["P1", "P2", "P3"]'), encoding="utf-8"
    )
    said = refused("tournament", "show", str(path))
    assert "rounds[1].tables[1]: a table of 3 players: a table seats 4" in said
    path.write_text(text.replace('["P1", "P2", "P3", "P4"]', '["P1", "P2", "P3", "P5"]'),
                    encoding="utf-8")  # fmt: skip
    assert "round 1: P5 is at table 1 and at table 2" in refused("tournament", "show", str(path))
    path.write_text(text.replace('"players": ["P1", "P2", "P3", "P4"]', '"players": ["P1", "P2", "P3", "P4"], "x": 1'),
                    encoding="utf-8")  # fmt: skip
    assert "a table has exactly ledger (its file) and players" in refused(
        "tournament", "show", str(path)
    )
    path.write_text(text.replace("players: [", "playerz: ["), encoding="utf-8")
    assert "'playerz'" in refused("tournament", "show", str(path))


def test_verify_names_a_table_whose_numbers_were_changed_by_hand(tmp_path: Path) -> None:
    path = start(tmp_path)
    tables = seat_round(path)
    for ledger, players in tables:
        play_table(tmp_path, ledger, players, "QJHT")
    assert "8 players, 1 round, 2 tables, every number agrees" in done(
        "tournament", "verify", path)[1]  # fmt: skip
    table = tmp_path / tables[1][0]
    table.write_text(table.read_text(encoding="utf-8").replace("raw: [-100,", "raw: [-90,"),
                     encoding="utf-8")  # fmt: skip
    r = run("tournament", "verify", path)
    assert r.exit_code == 1
    assert "round 1, table 2 (cup-r1-t2.yaml)" in r.stdout


def test_help_is_in_every_language() -> None:
    assert "The standings: each player's total" in ok("tournament", "show", "--help")
    assert "排名：每位玩家的总分" in ok("tournament", "show", "--help", "--lang", "zh")
    assert "排名：每位玩家的總分" in ok("tournament", "show", "--help", "--lang", "zh-Hant")


def test_the_tournament_file_is_no_ledger_to_stats_or_the_page(tmp_path: Path) -> None:
    from gongzhu_score.match.stats import looks_like_a_ledger
    from gongzhu_score.web.site import Site

    path = start(tmp_path)
    for ledger, players in seat_round(path):
        play_table(tmp_path, ledger, players, "QJHT")
    assert not looks_like_a_ledger(path)
    assert sorted(Site.of(str(tmp_path)).names()) == ["cup-r1-t1.yaml", "cup-r1-t2.yaml"]
    data = json.loads(ok("stats", str(tmp_path), "--format", "json"))
    assert data["matches"] == 2


def test_the_page_lists_the_tournament_with_its_standings_and_tables(tmp_path: Path) -> None:
    from gongzhu_score.web.site import Site

    path = start(tmp_path)
    for ledger, players in seat_round(path):
        play_table(tmp_path, ledger, players, "QJHT")
    (shown,) = Site.of(str(tmp_path)).tournaments("en")
    want = json.loads(ok("tournament", "show", path, "--format", "json"))["players"]
    assert [{k: p[k] for k in want[0]} for p in shown["players"]] == want
    assert [p["decided"] for p in shown["players"][:2]] == ["registration", "registration"]
    assert [(t["ledger"], t["players"], t["hands"], t["ended"]) for t in shown["tables"]] == [
        ("cup-r1-t1.yaml", ["P1", "P2", "P3", "P4"], 1, True),
        ("cup-r1-t2.yaml", ["P5", "P6", "P7", "P8"], 1, True),
    ]
    assert shown["status"].startswith("round 1 over")
    # a tournament file broken by hand is said, not hidden, and the rest of the page still works
    Path(path).write_text(Path(path).read_text(encoding="utf-8").replace('"P8"]', '"P8", "P9"]', 1),
                          encoding="utf-8")  # fmt: skip
    (broken,) = Site.of(str(tmp_path)).tournaments("en")
    assert broken["file"] == "cup.yaml" and "9 players do not fill tables of 4" in broken["problem"]
    assert Site.of(str(tmp_path)).tournaments("en") and Site.of(path).tournaments("en") == []


def test_a_tournament_file_given_as_a_ledger_says_what_it_is(tmp_path: Path) -> None:
    path = start(tmp_path)
    said = refused("match", "show", path)
    assert "this is a tournament file, not a match ledger: gongzhu-score tournament show" in said


@st.composite
def tournaments_played(draw: st.DrawFn) -> tuple[list[str], list[list[TableResult]]]:
    """Random registered players (a multiple of four) over random rounds of random tables,
    the totals drawn from a few values so that level totals, draws and circles come up."""
    count = 4 * draw(st.integers(1, 4))
    players = [f"p{i}" for i in range(count)]
    rounds = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(players))
        rounds.append([
            TableResult(tuple(order[i : i + 4]),
                        tuple(draw(st.sampled_from([-100, 0, 50, 100])) for _ in range(4)))
            for i in range(0, count, 4)
        ])  # fmt: skip
    return players, rounds


@settings(max_examples=300, deadline=None)
@given(tournaments_played(), st.sampled_from(list(Tiebreak)))
def test_standings_rank_everyone_once_by_total_and_name_each_tie_break(
    played: tuple[list[str], list[list[TableResult]]], tiebreak: Tiebreak
) -> None:
    players, rounds = played
    placed = standings(players, rounds, tiebreak)
    totals = {n: sum(t.result_of(n) for r in rounds for t in r if n in t.players) for n in players}
    assert sorted(p.name for p in placed) == sorted(players)
    assert [p.rank for p in placed] == list(range(1, len(players) + 1))
    assert all(p.total == totals[p.name] for p in placed)
    assert all(a.total >= b.total for a, b in itertools.pairwise(placed))
    for p in placed:
        level = [q for q in placed if q.total == p.total]
        assert (p.decided_by is None) == (len(level) == 1)
        assert p.matches == sum(p.name in t.players for r in rounds for t in r)
    for a, b in itertools.pairwise(placed):
        if a.total != b.total:
            continue
        if tiebreak is Tiebreak.REGISTRATION:
            assert players.index(a.name) < players.index(b.name)
            assert a.decided_by == b.decided_by == "registration"
        elif len([q for q in placed if q.total == a.total]) == 2:
            # two level players: the better result in their last match, else registration
            met = [t for r in rounds for t in r if a.name in t.players and b.name in t.players]
            last = met[-1].result_of(a.name) - met[-1].result_of(b.name) if met else 0
            assert last > 0 or (last == 0 and players.index(a.name) < players.index(b.name))
            assert a.decided_by == ("last-match" if last else "registration")


def test_a_table_seated_but_not_begun_is_no_last_match() -> None:
    # B and A level on 100: B won round 1, A round 2, the last match both played; round 3
    # seats them together again, no hand played yet: A stays above B
    one = [TableResult(("B", "A", "C", "D"), (100, 0, 0, -100))]
    two = [TableResult(("B", "A", "C", "D"), (0, 100, -100, 0))]
    three = [TableResult(("B", "A", "C", "D"), (0, 0, 0, 0), played=False)]
    for rounds in ([one, two], [one, two, three]):
        placed = standings(["B", "A", "C", "D"], rounds)
        assert [(p.name, p.decided_by, p.matches) for p in placed] == [
            ("A", "last-match", 2), ("B", "last-match", 2),
            ("D", "last-match", 2), ("C", "last-match", 2),
        ]  # fmt: skip


def test_what_a_refused_round_leaves_behind_is_nothing(tmp_path: Path) -> None:
    path = start(tmp_path)
    for ledger, players in seat_round(path):
        play_table(tmp_path, ledger, players, "QJHT")
    (tmp_path / "cup-r2-t2.yaml.history").mkdir()  # table 2's history cannot be written
    before = files(tmp_path)
    refused("tournament", "round", path)
    assert {p.name for p in tmp_path.iterdir()} == set(before) | {"cup-r2-t2.yaml.history"} | {
        p.name for p in tmp_path.iterdir() if p.name.startswith("cup-r1")
    }
    assert not any(p.name.startswith("cup-r2") and p.is_file() for p in tmp_path.iterdir())
    # a link to nothing in a table's place is refused, nothing made through it
    (tmp_path / "cup-r2-t2.yaml.history").rmdir()
    outside = tmp_path.parent / f"{tmp_path.name}-outside.yaml"
    (tmp_path / "cup-r2-t1.yaml").symlink_to(outside)
    assert "cup-r2-t1.yaml" in refused("tournament", "round", path)
    assert not outside.exists()


def test_the_tournament_file_is_read_strictly(tmp_path: Path) -> None:
    path = Path(start(tmp_path))
    seat_round(str(path))
    text = path.read_text(encoding="utf-8")
    for old, new, said in [
        ("- round: 1", "- round: 1.0", "expected round 1, found 1.0"),
        ('"last_hand": 1}', '"last_hand": 1, "hands": []}', "table: unknown key 'hands'"),
        ('name: "cup"', 'name: " cup "', "the tournament's name ' cup '"),
        ('tiebreak: "last-match"\n', "", "tiebreak"),
        ('name: "cup"', "name: 5", "name"),
    ]:
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        assert said in refused("tournament", "show", str(path)), (old, new)
    path.write_text(text[: text.index("rounds:")] + "rounds: 0\n", encoding="utf-8")
    assert "rounds: expected a list" in refused("tournament", "show", str(path))
    path.write_text(text, encoding="utf-8")
    ledger = tmp_path / "cup-r1-t1.yaml"
    assert "this is a match ledger, not a tournament file" in refused(
        "tournament", "show", str(ledger)
    )


def test_a_long_tournament_file_reads_in_one_pass(tmp_path: Path) -> None:
    # a file past the YAML reader's million characters, as the tool lays it out
    many = [f"{'名' * 30}{i}" for i in range(400)]
    path = tmp_path / "big.yaml"
    done("tournament", "new", str(path), "--players", ",".join(many), "--hands", "1")
    t = tournaments.read_tournament(str(path))
    text = t.to_text()
    rounds = "".join(
        f"- round: {r}\n  tables:\n" + "".join(
            f'  - {{"ledger": "big-r{r}-t{k}.yaml", "players": {json.dumps(list(many[4 * (k - 1) : 4 * k]), ensure_ascii=False)}}}\n'
            for k in range(1, 101)
        )
        for r in range(1, 61)
    )  # fmt: skip
    path.write_text(text + rounds, encoding="utf-8")
    assert len(path.read_text(encoding="utf-8")) > 1_000_000
    assert len(tournaments.read_tournament(str(path)).rounds) == 60
