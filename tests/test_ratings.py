"""A season's ratings (issue 58, rulings §13): every finished match one game of openskill's
Plackett–Luce model, in the order the matches ended; level players and partners share a rank;
an unfinished match is no game. Checked against openskill called directly on the same games.
"""

from __future__ import annotations

import datetime
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import make_season as make_season_files
import pytest
from clitools import ROOT, done, ok, refused
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from pictures import docs_picture_is_current, svg_texts
from season import DRAWN_ALONE, DRAWN_SIDES, fixed_hand, make_season

from gongzhu_score.core.hand import Hand
from gongzhu_score.core.normalize import Normalization
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.order import match_order
from gongzhu_score.match.stats import read_stats
from gongzhu_score.match.storage import read_ledger
from gongzhu_score.render.seats import MORE_COLOURS, SEAT_COLOURS

UTC = datetime.timezone.utc
EAST = datetime.timezone(datetime.timedelta(hours=8))


def stats_json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("stats", *args, "--format", "json"))
    return data


def two(rating: Any) -> dict[str, float]:
    return {"mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2),
            "ordinal": round(rating.ordinal(), 2)}  # fmt: skip


def competition_ranks(keys: list[tuple[Any, ...]]) -> list[int]:
    """1 + how many are strictly better (a higher key): level keys share a rank."""
    return [1 + sum(other > mine for other in keys) for mine in keys]


def expected_games(folder: Path) -> list[tuple[str, list[list[str]], list[int]]]:
    """The season's games worked out here from the ledgers' stored numbers, not by the code
    under test: (file, teams of names, their ranks), in the order the matches ended."""
    games = []
    for path in sorted(folder.glob("*.yaml")):
        ledger = read_ledger(str(path))
        if not ledger.entries:
            continue
        # the end: the first hand after which a deciding total is at or past the end line, or
        # the 盤's last hand (rulings §8, §12.1)
        team = ledger.normalization.teams.value != "none"
        end = None
        for number, entry in enumerate(ledger.entries, 1):
            totals = entry.total_final if team else entry.total_raw
            past = any(abs(t) >= abs(ledger.end_at) for t in totals) if team else any(
                t <= ledger.end_at for t in totals)  # fmt: skip
            if past or number == ledger.last_hand:
                end = entry
                break
        when = datetime.datetime.fromisoformat(ledger.entries[-1].entered or "").timestamp()
        if end is None:
            games.append((when, path.name, [], []))
            continue
        totals = end.total_final if team else end.total_raw
        names = ledger.players
        if ledger.normalization.teams.value == "partners":
            sides = [[0, 2], [1, 3]]
            keys = [(sum(Fraction(totals[i]) for i in s), sum(Fraction(end.final[i]) for i in s))
                    for s in sides]  # fmt: skip
            teams = [[names[i] for i in s] for s in sides]
        else:
            keys = [(Fraction(totals[i]), Fraction(end.final[i])) for i in range(4)]
            teams = [[n] for n in names]
        games.append((when, path.name, teams, competition_ranks(keys)))
    games.sort(key=lambda g: (g[0], g[1]))
    return [(file, teams, ranks) for _, file, teams, ranks in games if teams]


def openskill_season(games: list[tuple[str, list[list[str]], list[int]]]) -> dict[str, Any]:
    model = PlackettLuce()
    now: dict[str, Any] = {}
    for _, teams, ranks in games:
        rated = model.rate([[now.get(n) or model.rating() for n in t] for t in teams], ranks=ranks)
        for names, ratings in zip(teams, rated, strict=True):
            now.update(zip(names, ratings, strict=True))
    return now


def test_a_season_is_rated_as_openskill_rates_the_same_games_in_the_same_order(
    tmp_path: Path,
) -> None:
    made = make_season(tmp_path, 42, seed=7)
    kinds = {(m.ledger.partners, m.ledger.status().ended, m.draw) for m in made}
    # individual and partner play, some drawn, some still in play
    assert {(False, True, False), (True, True, False), (False, True, True), (True, True, True),
            (False, False, False)} <= kinds  # fmt: skip
    games = expected_games(tmp_path)
    assert len(games) >= 30
    want = openskill_season(games)
    data = stats_json(str(tmp_path))
    assert data["rated"] == len(games) and data["matches"] == 42
    got = {p["name"]: p["rating"] for p in data["players"]}
    assert got == {n: two(r) for n, r in want.items()}
    # listed by the ordinal, the highest first, then by name
    order = sorted(want, key=lambda n: (-round(want[n].ordinal(), 2), n))
    assert [p["name"] for p in data["players"]] == order
    # each player's rating after each of their matches, as openskill had it then
    for name in order[:3]:
        view = stats_json(str(tmp_path), "--player", name)
        theirs = [g for g in games if any(name in t for t in g[1])]
        assert [m["file"] for m in view["matches"]] == [str(tmp_path / g[0]) for g in theirs]
        after = [two(r[name]) for r in _after_each(games, name)]
        assert [m["rating_after"] for m in view["matches"]] == after
        assert view["rating"] == got[name] == after[-1]


def _after_each(games: list[tuple[str, list[list[str]], list[int]]], name: str) -> list[Any]:
    """openskill's ratings after each game ``name`` played (the game's own, copied)."""
    seen = []
    for k in range(len(games)):
        if any(name in t for t in games[k][1]):
            seen.append(openskill_season(games[: k + 1]))
    return seen


# --- the order of the games -------------------------------------------------------------------


def one_hand_match(path: Path, names: str, cards: list[str], when: datetime.datetime | None,
                   teams: str = "none") -> Ledger:  # fmt: skip
    """A 盤 of one hand (rulings §12.1), written as the tool writes it."""
    players = tuple(names.split(","))
    ledger = Ledger.new(players, "classic", Normalization(teams=teams), None, 1)
    hand = Hand.from_captured(dict(zip(players, cards, strict=True)))
    ledger = ledger.add(hand, entered=when)[0]
    path.write_text(ledger.to_text(), encoding="utf-8")
    return ledger


PIG_TO = {  # a full hand, raws (−100, +100, +50, +200) in the seats' order, and two turns of it
    0: ["QS", "JD", "10C", "2H-AH"],
    1: ["JD", "QS", "2H-AH", "10C"],
    2: ["2H-AH", "10C", "QS", "JD"],
}


def test_games_count_in_the_order_the_matches_ended_then_by_file_name(tmp_path: Path) -> None:
    at = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=EAST)
    # a.yaml ended last; b.yaml first; c.yaml at the same instant as b, written at UTC: after b
    # by its name; z.yaml says no time (a ledger kept before hands had one): before them all
    one_hand_match(tmp_path / "a.yaml", "A,B,C,D", PIG_TO[0], at + datetime.timedelta(hours=2))
    one_hand_match(tmp_path / "b.yaml", "A,B,C,D", PIG_TO[1], at)
    one_hand_match(tmp_path / "c.yaml", "A,B,C,D", PIG_TO[2], at.astimezone(UTC))
    one_hand_match(tmp_path / "z.yaml", "A,B,C,D", PIG_TO[1], None)
    stats = read_stats([str(tmp_path)])
    assert [Path(g.file).name for g in stats.games] == ["z.yaml", "b.yaml", "c.yaml", "a.yaml"]
    data = stats_json(str(tmp_path))
    games = expected_games_in(tmp_path, ["z.yaml", "b.yaml", "c.yaml", "a.yaml"])
    want = openskill_season(games)
    assert {p["name"]: p["rating"] for p in data["players"]} == {n: two(r) for n, r in want.items()}
    # the order counts: the files' order (a, b, c, z) would rate them otherwise
    other = openskill_season(expected_games_in(tmp_path, ["a.yaml", "b.yaml", "c.yaml", "z.yaml"]))
    assert {n: two(r) for n, r in other.items()} != {n: two(r) for n, r in want.items()}
    # --player lists them in that order too, each with its time
    view = stats_json(str(tmp_path), "--player", "A")
    assert [Path(m["file"]).name for m in view["matches"]] == ["z.yaml", "b.yaml", "c.yaml",
                                                                "a.yaml"]  # fmt: skip
    assert view["matches"][0]["ended"] is None
    assert view["matches"][2]["ended"] == "2026-11-20T13:00:00+00:00"


def expected_games_in(
    folder: Path, order: list[str]
) -> list[tuple[str, list[list[str]], list[int]]]:
    """Each one-hand individual match of ``folder``, in ``order``: (file, teams, ranks)."""
    games = []
    for name in order:
        ledger = read_ledger(str(folder / name))
        end = ledger.entries[-1]
        keys = [(end.total_raw[i], end.final[i]) for i in range(4)]
        games.append((name, [[p] for p in ledger.players], competition_ranks(keys)))
    return games


# --- shared ranks -----------------------------------------------------------------------------


def test_level_players_share_a_rank_and_a_draw_is_everyone_level(tmp_path: Path) -> None:
    when = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=EAST)
    # 东 and 西 level at 0 on the raw total and the last hand; 南 and 北 level at −100, 北 the
    # pig by the later seat (rulings §8), yet sharing 南's rank: a rating rewards no seat
    level = one_hand_match(tmp_path / "level.yaml", "东,南,西,北",
                           ["JD AH 5H-9H 10C", "QS", "2H 3H 4H", "10H JH QH KH"], when)  # fmt: skip
    assert level.entries[-1].total_raw == (0, -100, 0, -100)
    assert level.status().loser == "北" and level.status().winner == "东"
    assert level.order().ranks == (1, 3, 1, 3)
    data = stats_json(str(tmp_path / "level.yaml"))
    got = {p["name"]: p["rating"] for p in data["players"]}
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 3, 1, 3])
    assert got == {n: two(t[0]) for n, t in zip("东南西北", rated, strict=True)}
    assert got["东"] == got["西"] and got["南"] == got["北"] and got["东"] != got["南"]
    # (told apart by seat, as the pig is, they would not be level)
    apart = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 3, 2, 4])
    assert two(apart[1][0]) != got["南"]
    # a draw: everyone level on both, everyone rank 1
    drawn = Ledger.new(("甲", "乙", "丙", "丁"), "classic", None, None, 1)
    drawn = drawn.add(fixed_hand(DRAWN_ALONE, ("甲", "乙", "丙", "丁")), entered=when)[0]  # type: ignore[arg-type]
    (tmp_path / "drawn.yaml").write_text(drawn.to_text(), encoding="utf-8")
    assert drawn.status().draw and drawn.order().ranks == (1, 1, 1, 1)
    data = stats_json(str(tmp_path / "drawn.yaml"))
    same = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 1, 1])
    assert [p["rating"] for p in data["players"]] == [two(t[0]) for t in same]
    assert {p["rating"]["mu"] for p in data["players"]} == {25.0}  # (a draw moves no μ)
    # the order's own ranks, from totals and last hands alone
    assert match_order((100, 100, -50, -150), (10, 10, 0, 0)).ranks == (1, 1, 3, 4)
    assert match_order((100, 100, -50, -150), (10, 20, 0, 0)).ranks == (2, 1, 3, 4)
    assert match_order((0, 0, 0, 0), (0, 0, 0, 0)).ranks == (1, 1, 1, 1)
    thirds = match_order((Fraction(1, 3),) * 4, (Fraction(1, 3),) * 4)
    assert thirds.draw and thirds.ranks == (1, 1, 1, 1)


FOUR = st.lists(st.integers(-2, 2), min_size=4, max_size=4)  # (small: ties come often)


@given(FOUR, FOUR, st.booleans())
def test_the_ranks_are_the_orders_places_level_players_and_partners_sharing(
    totals: list[int], last: list[int], partners: bool
) -> None:
    order = match_order(totals, last, partners)
    ranks = order.ranks
    assert [ranks[i] for i in order.seats] == sorted(ranks)  # the order lists them by rank
    assert min(ranks) == 1 and all(r == 1 for r in ranks) == order.draw
    if not order.draw:
        assert all(ranks[i] == 1 for i in order.winners)
        assert all(ranks[i] == max(ranks) for i in order.losers)
    if partners:
        assert ranks[0] == ranks[2] and ranks[1] == ranks[3] and set(ranks) <= {1, 2}
        return
    for i in range(4):
        ahead = sum((totals[j], last[j]) > (totals[i], last[i]) for j in range(4))
        assert ranks[i] == 1 + ahead
        for j in range(4):
            assert (ranks[i] == ranks[j]) == ((totals[i], last[i]) == (totals[j], last[j]))


# --- partner play -----------------------------------------------------------------------------


def test_partners_are_rated_as_the_two_sides_teams_of_two(tmp_path: Path) -> None:
    when = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=EAST)
    ledger = one_hand_match(tmp_path / "p.yaml", "东,南,西,北", PIG_TO[0], when, teams="partners")
    assert ledger.status().winner_side == ("南", "北")  # (+100 and 全红 +200, against −50)
    stats = read_stats([str(tmp_path / "p.yaml")])
    (game,) = stats.games
    assert game.teams == ((0, 2), (1, 3)) and game.ranks == (2, 1, 2, 1)
    model = PlackettLuce()
    (east, west), (south, north) = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1]
    )
    got = {p["name"]: p["rating"] for p in stats_json(str(tmp_path / "p.yaml"))["players"]}
    assert got == {"东": two(east), "西": two(west), "南": two(south), "北": two(north)}
    assert got["东"] == got["西"] and got["南"] == got["北"]
    # (four players of their own, the partners level, would be rated otherwise)
    alone = model.rate([[model.rating()] for _ in range(4)], ranks=[3, 1, 3, 1])
    assert two(alone[1][0]) != got["南"]
    # a draw between the sides: one rank for all
    drawn = Ledger.new(
        ("甲", "乙", "丙", "丁"), "classic", Normalization(teams="partners"), None, 1
    )
    drawn = drawn.add(fixed_hand(DRAWN_SIDES, ("甲", "乙", "丙", "丁")), entered=when)[0]  # type: ignore[arg-type]
    (tmp_path / "drawn.yaml").write_text(drawn.to_text(), encoding="utf-8")
    assert drawn.status().draw
    (game,) = read_stats([str(tmp_path / "drawn.yaml")]).games
    assert game.ranks == (1, 1, 1, 1) and game.teams == ((0, 2), (1, 3))
    # 猪羊一家's sides change hand by hand: its players are rated one by one
    pig_sheep = one_hand_match(tmp_path / "ps.yaml", "甲,乙,丙,丁", PIG_TO[0], when,
                               teams="pig-sheep")  # fmt: skip
    (game,) = read_stats([str(tmp_path / "ps.yaml")]).games
    assert game.teams == ((0,), (1,), (2,), (3,)) and game.ranks == pig_sheep.order().ranks


# --- what counts ------------------------------------------------------------------------------


def test_an_unfinished_match_counts_for_the_other_figures_not_for_ratings(tmp_path: Path) -> None:
    when = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=EAST)
    one_hand_match(tmp_path / "over.yaml", "A,B,C,D", PIG_TO[0], when)
    in_play = str(tmp_path / "in_play.yaml")
    done("match", "new", in_play, "-p", "A,B,C,E")
    done("match", "add", in_play, "-c", "A=QS", "-c", "B=JD", "-c", "C=10C", "--rest", "E")
    data = stats_json(str(tmp_path))
    rows = {p["name"]: p for p in data["players"]}
    assert (data["matches"], data["hands"], data["rated"]) == (2, 2, 1)
    assert (rows["A"]["matches"], rows["A"]["hands"]) == (2, 2)
    assert rows["E"]["matches"] == 1 and rows["E"]["rating"] is None
    assert rows["A"]["rating"] is not None
    assert [p["name"] for p in data["players"]][-1] == "E"  # (no rating: last)
    # A's rating is the one game's: the match in play moved nothing
    alone = {p["name"]: p["rating"] for p in stats_json(str(tmp_path / "over.yaml"))["players"]}
    assert all(rows[n]["rating"] == alone[n] for n in "ABCD")
    view = stats_json(str(tmp_path), "--player", "E")
    assert view == {"name": "E", "rating": None, "matches": [], "head_to_head": []}
    assert ok("stats", str(tmp_path), "--player", "E") == "E: no finished match yet, so no rating\n"


# --- the contract -----------------------------------------------------------------------------

OLD_KEYS = {"name", "matches", "hands", "lost", "won", "pigs", "sheep", "transformers",
            "full_reds", "grand_slams", "average", "final"}  # fmt: skip


def test_the_json_csv_and_table_of_a_season(tmp_path: Path) -> None:
    make_season(tmp_path, 30, seed=3)
    data = stats_json(str(tmp_path))
    assert {"matches", "hands", "players", "without_hands"} <= set(data)
    ordinals = []
    for p in data["players"]:
        assert set(p) == OLD_KEYS | {"rating"}
        rating = p["rating"]
        assert set(rating) == {"mu", "sigma", "ordinal"}
        assert all(isinstance(v, float) and round(v, 2) == v for v in rating.values())
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.011)
        ordinals.append((-rating["ordinal"], p["name"]))
    assert ordinals == sorted(ordinals)
    # CSV: the same rows, the rating's three numbers at the end
    lines = ok("stats", str(tmp_path), "--format", "csv").splitlines()
    assert lines[0].endswith(",average,rating_mu,rating_sigma,rating")
    first = data["players"][0]
    r = first["rating"]
    assert lines[1].startswith(f"{first['name']},") and lines[1].endswith(
        f",{r['mu']},{r['sigma']},{r['ordinal']}")  # fmt: skip
    # the table: the rating as one number, second, and what it means under the table
    table = ok("stats", str(tmp_path))
    assert table.splitlines()[2].split()[:2] == ["name", "rating"]
    assert table.splitlines()[4].split()[:2] == [first["name"], f"{r['ordinal']:.2f}"]
    assert "rating (rulings §13): the skill shown by " in table
    zh = ok("stats", str(tmp_path), "--lang", "zh")
    assert zh.splitlines()[2].split()[:2] == ["玩家", "等级分"]


def test_stats_only_reads(tmp_path: Path) -> None:
    make_season(tmp_path, 12, seed=5, history=True)
    name = read_stats([str(tmp_path)]).players[0].name
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    for args in ([], ["-f", "json"], ["-f", "csv"], ["--player", name],
                 ["--since", "2026-09-01"]):  # fmt: skip
        done("stats", str(tmp_path), *args)
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    assert after == before  # (no lock file, no history line, nothing touched)


# --- since and until --------------------------------------------------------------------------


def test_since_and_until_count_the_matches_whose_last_hand_falls_within(tmp_path: Path) -> None:
    days = [datetime.datetime(2026, 11, d, 21, 0, tzinfo=EAST) for d in (6, 13, 20)]
    for k, day in enumerate(days):
        one_hand_match(tmp_path / f"{k}.yaml", "A,B,C,D", PIG_TO[k], day)
    # a match played late on the 13th at a table at −05:00 is the 13th, whatever UTC says
    late = datetime.datetime(
        2026, 11, 13, 23, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))
    )
    one_hand_match(tmp_path / "late.yaml", "A,B,C,E", PIG_TO[1], late)
    everything = stats_json(str(tmp_path))
    assert (everything["matches"], everything["since"], everything["until"]) == (4, None, None)
    middle = stats_json(str(tmp_path), "--since", "2026-11-13", "--until", "2026-11-13")
    assert (middle["matches"], middle["rated"], middle["outside_dates"]) == (2, 2, 2)
    assert (middle["since"], middle["until"]) == ("2026-11-13", "2026-11-13")
    # the season starts again: the ratings are those of the two games alone
    want = openskill_season(expected_games_in(tmp_path, ["1.yaml", "late.yaml"]))
    assert {p["name"]: p["rating"] for p in middle["players"]} == {
        n: two(r) for n, r in want.items()
    }
    assert stats_json(str(tmp_path), "--since", "2026-11-14")["matches"] == 1
    assert stats_json(str(tmp_path), "--until", "2026-11-12")["matches"] == 1
    assert ok("stats", str(tmp_path), "--since", "2026-11-13").startswith(
        "3 matches, 3 hands from 2026-11-13 to … (1 match outside those dates, not counted)\n"
    )
    # a match whose hands say no time falls within no dates
    one_hand_match(tmp_path / "old.yaml", "A,B,C,D", PIG_TO[0], None)
    assert stats_json(str(tmp_path), "--since", "2000-01-01")["outside_dates"] == 1
    assert stats_json(str(tmp_path))["matches"] == 5
    # refusals: exit 2, one line naming the option and the token
    assert refused("stats", str(tmp_path), "--since", "13/11/2026") == (
        "--since '13/11/2026': write a date as YYYY-MM-DD, e.g. 2026-11-30"
    )
    assert refused("stats", str(tmp_path), "--until", "2026-11-31").startswith(
        "--until '2026-11-31'"
    )
    assert refused("stats", str(tmp_path), "--since", "2026-12-01", "--until", "2026-11-01") == (
        "--since 2026-12-01 is after --until 2026-11-01: no day lies between them"
    )
    assert refused("stats", str(tmp_path), "--since", "2027-01-01") == (
        f"no match in {tmp_path} ended from 2027-01-01 to … (the date its last hand was entered)"
    )
    assert refused("stats", str(tmp_path), "--since", "2027-01-01", "--lang", "zh").startswith(
        f"{tmp_path} 中"
    )


# --- one player's season ----------------------------------------------------------------------


def test_a_players_matches_and_head_to_head(tmp_path: Path) -> None:
    made = make_season(tmp_path, 36, seed=11)
    stats = read_stats([str(tmp_path)])
    name = stats.players[0].name
    view = stats_json(str(tmp_path), "--player", name)
    assert set(view) == {"name", "rating", "matches", "head_to_head"}
    assert view["name"] == name and view["rating"] == stats.ratings[name].data()
    finished = {str(m.path): m.ledger for m in made if m.ledger.status().ended}
    mine = [g for g in stats.games if name in g.players]
    assert len(view["matches"]) == len(mine) == sum(name in lg.players for lg in finished.values())
    faced: dict[str, list[int]] = {}
    for item in view["matches"]:
        assert set(item) == {"file", "ended", "players", "rank", "final", "rating_after"}
        ledger = finished[item["file"]]
        assert item["players"] == list(ledger.players)
        seat = ledger.players.index(name)
        end = ledger.entry(ledger.status().ended_after)
        assert item["final"] == end.total_final[seat]
        assert item["ended"] == ledger.entries[-1].entered
        assert item["rank"] == ledger.order().ranks[seat]
        assert set(item["rating_after"]) == {"mu", "sigma", "ordinal"}
        for other in ledger.players:
            if other != name:
                k = ledger.players.index(other)
                met = faced.setdefault(other, [0, 0, 0])
                met[0] += 1
                met[1] += ledger.order().ranks[seat] < ledger.order().ranks[k]
                met[2] += ledger.order().ranks[seat] > ledger.order().ranks[k]
    assert view["matches"][-1]["rating_after"] == view["rating"]
    want = sorted(({"name": o, "together": t, "ahead": a, "behind": b}
                   for o, (t, a, b) in faced.items()), key=lambda h: (-h["together"], h["name"]))  # fmt: skip
    assert view["head_to_head"] == want
    # the table says the same
    text = ok("stats", str(tmp_path), "--player", name)
    rating = view["rating"]
    assert text.startswith(f"{name}: rating {rating['ordinal']:.2f} (μ {rating['mu']:.2f}, "
                           f"σ {rating['sigma']:.2f}) after {len(mine)} finished matches\n")  # fmt: skip
    assert f"head to head: the finished matches {name} played with each player" in text
    # CSV: a row per match
    csv_lines = ok("stats", str(tmp_path), "--player", name, "-f", "csv").splitlines()
    assert csv_lines[0] == "file,ended,players,rank,final,rating_mu,rating_sigma,rating"
    assert len(csv_lines) == 1 + len(mine)


def test_a_player_is_found_by_their_one_written_form_and_by_an_old_name(tmp_path: Path) -> None:
    when = datetime.datetime(2026, 11, 20, 21, 0, tzinfo=EAST)
    first = tmp_path / "a.yaml"
    one_hand_match(first, "东,南,西,北", PIG_TO[0], when)
    second = str(tmp_path / "b.yaml")
    done("match", "new", second, "-p", "东,南,西,北", "--hands", "1")
    done("match", "add", second, "-c", "东=JD", "-c", "南=QS", "-c", "西=10C", "--rest", "北")
    done("match", "rename", second, "北", "小北")
    as_new = stats_json(str(tmp_path), "--player", "小北")
    assert as_new["name"] == "小北" and len(as_new["matches"]) == 2
    assert stats_json(str(tmp_path), "--player", "北") == as_new  # (the name before the rename)
    assert stats_json(str(tmp_path), "--player", " 小\u200b北 ") == as_new  # (rulings §9)
    message = refused("stats", str(tmp_path), "--player", "老王")
    assert message == "no player '老王' in these matches; the players are 东, 南, 小北, 西"
    assert refused("stats", str(tmp_path), "--player", "老王", "--lang", "zh").startswith(
        "这些比赛里没有玩家 '老王'"
    )


# --- the season's picture, and the docs' season ----------------------------------------------

SEASON = ROOT / "docs" / "examples" / "season"
# The command docs/table.md gives for the image it shows (run from the repository's root).
DOCS_COMMAND = ["stats", "docs/examples/season/", "--chart", "docs/season.svg"]


def test_the_docs_season_is_what_its_script_writes(tmp_path: Path) -> None:
    written = make_season_files.season()
    assert sorted(written) == sorted(p.name for p in SEASON.iterdir())
    for name, text in written.items():
        assert (SEASON / name).read_text(encoding="utf-8") == text, name
    assert f"`{'tests/make_season.py'}`" in (ROOT / "docs" / "table.md").read_text(encoding="utf-8")


@pytest.mark.chart
def test_a_chart_of_the_season_and_of_one_player(tmp_path: Path) -> None:
    out = tmp_path / "season.svg"
    said = ok(*DOCS_COMMAND[:3], str(out))
    assert said == f"ratings over 8 finished matches drawn in {out}\n"
    shown = svg_texts(out.read_bytes())
    data = stats_json(str(SEASON))
    for p in data["players"]:  # every rated player's line, labelled with the rating
        assert f"{p['name']}  {p['rating']['ordinal']:.2f}" in shown
    assert "Ratings over the season (μ − 3σ)" in shown
    assert "8 finished matches, in the order they ended: 2026-11-06 to 2026-11-20" in shown
    # one player's line alone, in Chinese
    one = tmp_path / "老王.svg"
    ok("stats", str(SEASON), "--player", "老王", "--chart", str(one), "--lang", "zh")
    shown = svg_texts(one.read_bytes())
    assert "老王  4.74" in shown and not any(t.startswith("小陈  ") for t in shown)
    assert "整个赛季的等级分（μ − 3σ）" in shown
    # the lines: one colour each, the first four the seats'
    svg = out.read_text(encoding="utf-8")
    for colour in (*SEAT_COLOURS, *MORE_COLOURS[:2]):
        assert f"stroke: {colour}" in svg, colour


@pytest.mark.chart
@pytest.mark.font
def test_a_png_of_the_season(tmp_path: Path) -> None:
    out = tmp_path / "season.png"
    ok("stats", str(SEASON), "--chart", str(out), "--lang", "zh")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_chart_of_another_kind_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "season.jpg"
    assert refused("stats", str(SEASON), "--chart", str(out)) == (
        f"--chart {out}: a chart is written as FILE.svg or FILE.png, not .jpg"
    )
    assert not out.exists()


def test_without_the_extra_the_chart_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "season.svg"
    assert refused("stats", str(SEASON), "--chart", str(out)) == (
        "this needs the optional libraries of the chart extra: pip install 'gongzhu-score[chart]'"
    )
    assert not out.exists()


@pytest.mark.chart
def test_docs_season_chart_is_what_its_command_makes_now(tmp_path: Path) -> None:
    # docs/table.md shows docs/season.svg and the command that makes it.
    docs_picture_is_current(DOCS_COMMAND, "docs/season.svg", tmp_path / "season.svg")
