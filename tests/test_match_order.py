"""One order of a match's players (issue 54, rulings §8): the winner is its first and the pig its
last, never the same player or side; a match where all are level is a draw; a tournament's tables
follow the tournament (rulings §10, §12.4); the seat words agree (rulings §1)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from clitools import done, ok, refused, run
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import hands_for, rule_sets

from gongzhu_score.core.auto_play import AutoPlay, AutoPlayed
from gongzhu_score.core.hand import Hand
from gongzhu_score.core.normalize import Normalization
from gongzhu_score.core.variant import Variant
from gongzhu_score.errors import GongzhuError, MatchOverError
from gongzhu_score.match.ledger import Ledger, pig_takers
from gongzhu_score.match.standings import TableResult, standings
from gongzhu_score.render.match import match_to_dict
from gongzhu_score.render.summary import match_summary

ROOT = Path(__file__).resolve().parent.parent


def new(tmp_path: Path, name: str, *flags: str, players: str = "A,B,C,D") -> str:
    path = str(tmp_path / name)
    done("match", "new", path, "--players", players, *flags)
    return path


def shown(path: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(ok("match", "show", path, "--format", "json"))
    return data


def summary_order(path: str) -> list[str]:
    text = ok("match", "summary", path)
    return re.findall(r"^  \d+\. (\S+)", text, re.MULTILINE)


# --- the reproductions of issue 54 ------------------------------------------------------------


def test_a_level_individual_match_is_a_draw_not_one_player_both_ends(tmp_path: Path) -> None:
    z = new(tmp_path, "z.yaml", "--hands", "1")
    out = ok("match", "add", z, "-c", "A=", "-c", "B=5H-AH QS JD 10C", "-c", "C=3H",
             "-c", "D=2H 4H", "-e", "B=QS", "--first-exposed", "C=JD")  # fmt: skip
    assert out.endswith("ended after hand 1 in a draw (平局): every player level on the raw total"
                        " and on the last hand, so no one is the pig and no one wins\n")  # fmt: skip
    assert "A is the pig" not in out and "A wins" not in out
    data = shown(z)
    assert (data["draw"], data["loser"], data["winner"]) == (True, None, None)
    assert (data["loser_side"], data["winner_side"]) == ([], [])
    added = json.loads(ok("match", "show", z, "--format", "json"))
    assert added["draw"] is True
    assert "平局" in ok("match", "summary", z, "--lang", "zh")
    assert "平局" in ok("match", "show", z, "--lang", "zh-Hant")
    # A hand after it: refused, saying it was a draw, the ledger unchanged.
    before = Path(z).read_bytes()
    said = refused("match", "add", z, "-c", "A=QS", "-c", "B=JD", "-c", "C=全红", "-c", "D=10C")
    assert "in a draw" in said and "None" not in said
    assert Path(z).read_bytes() == before


def test_stats_counts_a_draw_as_played_neither_lost_nor_won(tmp_path: Path) -> None:
    z = new(tmp_path, "z.yaml", "--hands", "1")
    ok("match", "add", z, "-c", "A=", "-c", "B=5H-AH QS JD 10C", "-c", "C=3H",
       "-c", "D=2H 4H", "-e", "B=QS", "--first-exposed", "C=JD")  # fmt: skip
    data = json.loads(ok("stats", str(tmp_path), "--format", "json"))
    for player in data["players"]:
        assert (player["matches"], player["lost"], player["won"]) == (1, 0, 0), player


def test_a_level_partners_match_is_a_draw(tmp_path: Path) -> None:
    d = new(tmp_path, "d.yaml", "--teams", "partners", "--hands", "1")
    out = ok("match", "add", d, "-c", "A=JD 5H-AH", "-c", "B=QS", "-c", "C=2H", "--rest", "D")
    assert "in a draw (平局): both sides level" in out
    assert "A+C" not in out.splitlines()[-1]
    data = shown(d)
    assert (data["draw"], data["loser"], data["winner"]) == (True, None, None)


def test_island_sides_are_ranked_on_their_sums_not_on_one_partner(tmp_path: Path) -> None:
    i = new(tmp_path, "i.yaml", "--teams", "partners", "--auto-play", "island", "--hands", "2")
    ok("match", "add", i, "-c", "A=QS", "-c", "B=2H 10C", "-c", "C=4H-AH JD", "-c", "D=3H",
       "--auto-played", "A")  # fmt: skip
    ok("match", "add", i, "-c", "A=4H", "-c", "B=8H 10H JH QS JD 10C", "-c", "C=3H", "--rest", "D")
    data = shown(i)
    assert data["totals"]["final"] == [-80, -20, 120, -20]  # type: ignore[index]
    # A+C: -80 + 120 = +40 wins; B+D: -40 is the pig.
    assert (data["winner"], data["loser"], data["draw"]) == ("A+C", "B+D", False)
    assert data["order"] == ["C", "A", "B", "D"]  # each side's own order within it
    assert summary_order(i) == ["C", "A", "B", "D"]


def test_of_level_players_the_later_seat_is_the_pig_as_the_standings_rank_them(
    tmp_path: Path,
) -> None:
    t = new(tmp_path, "t.yaml", "--hands", "1")
    out = ok("match", "add", t, "-c", "A=QS", "-c", "B=KH AH 5H", "-c", "C=JD 10C", "--rest", "D")
    assert out.endswith("ended after hand 1: D is the pig (当猪, raw total -100); "
                        "C wins (raw total 200)\n")  # fmt: skip
    assert summary_order(t) == ["C", "A", "B", "D"]
    assert shown(t)["order"] == ["C", "A", "B", "D"]
    standings = ok("match", "show", t).split("which decide the end (at or below -1000):\n")[1]
    assert [line.split()[0] for line in standings.splitlines()[:4]] == ["C", "A", "B", "D"]


def test_the_summary_lists_level_players_by_the_last_hand(tmp_path: Path) -> None:
    s = new(tmp_path, "s.yaml", "--hands", "2")
    ok("match", "add", s, "-c", "A=JD", "-c", "B=", "-c", "C=QS 2H 3H 4H", "-c", "D=5H-AH 10C")
    ok("match", "add", s, "-c", "A=", "-c", "B=JD", "-c", "C=QS 2H 3H 4H", "-c", "D=5H-AH 10C")
    text = ok("match", "summary", s)
    assert "B wins, raw total 100" in text
    assert summary_order(s) == ["B", "A", "C", "D"]  # A and B level on 100: B won the last hand


# --- the order itself -----------------------------------------------------------------------


def test_the_order_reads_totals_then_the_last_hand_then_the_seat() -> None:
    from gongzhu_score.match.order import match_order

    assert match_order((0, 0, 0, 0), (0, 0, 0, 0)).draw
    level = match_order((100, 100, -50, -150), (10, 20, 0, 0))
    assert (level.seats, level.winners, level.losers) == ((1, 0, 2, 3), (1,), (3,))
    seat = match_order((-100, 200, -100, -100), (0, 0, 0, 0))
    assert (seat.seats, seat.losers) == ((1, 0, 2, 3), (3,))  # the later seat last
    # Level totals but not level last hands: no draw.
    assert not match_order((0, 0, 0, 0), (0, 0, 1, -1)).draw
    sides = match_order((-80, -20, 120, -20), (0, 0, 0, 0), partners=True)
    assert (sides.seats, sides.winners, sides.losers) == ((2, 0, 1, 3), (0, 2), (1, 3))
    tied = match_order((-80, 80, 80, -80), (5, -5, -5, 5), partners=True)
    assert tied.draw and (tied.winners, tied.losers) == ((), ())
    fractions = match_order((Fraction(1, 3),) * 4, (Fraction(1, 3),) * 4)
    assert fractions.draw


def test_a_draw_at_a_tournament_table_is_a_win_for_no_one() -> None:
    # Round 1, partners under island: the sides are level (a draw), though B and C stand at 80
    # and A at -80. Round 2 brings A to 80; A, B and C are level, and A met B and C last at the
    # drawn table: a win for no one, so registration places them.
    def rounds(draw: bool) -> list[list[TableResult]]:
        return [
            [TableResult(tuple("ABCD"), (-80, 80, 80, -80), draw=draw),
             TableResult(tuple("EFGH"), (0, 0, 0, 0))],
            [TableResult(tuple("AEFG"), (160, -160, 0, 0)),
             TableResult(tuple("BCDH"), (0, 0, 0, 0))],
        ]  # fmt: skip

    drawn = standings("ABCDEFGH", rounds(True))
    assert [(p.name, p.decided_by) for p in drawn[:3]] == [
        ("A", "registration"), ("B", "registration"), ("C", "registration")]  # fmt: skip
    won = standings("ABCDEFGH", rounds(False))  # (the same totals read as a win for B and C)
    assert [(p.name, p.decided_by) for p in won[:3]] == [
        ("B", "registration"), ("C", "last-match"), ("A", "last-match")]  # fmt: skip


# --- a tournament's tables follow the tournament -----------------------------------------------


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    done("tournament", "new", str(tmp_path / "cup.yaml"), "--players", "甲,乙,丙,丁,戊,己,庚,辛",
         "--hands", "2")  # fmt: skip
    done("tournament", "round", str(tmp_path / "cup.yaml"))
    return tmp_path


SET_FLAGS = [["--teams", "partners"], ["--scale", "12"], ["--hands", "9"], ["--end-at", "-500"],
             ["--rounding", "exact"], ["--variant", "jj"], ["--normalize", "none"]]  # fmt: skip


@pytest.mark.parametrize("flags", SET_FLAGS)
def test_match_set_on_a_table_is_refused_naming_the_tournament_file(
    cup: Path, flags: list[str]
) -> None:
    table = cup / "cup-r1-t1.yaml"
    before = table.read_bytes()
    said = refused("match", "set", str(table), *flags)
    assert said.startswith(f"{table}: this match is a table of tournament cup ({cup / 'cup.yaml'})")
    assert table.read_bytes() == before
    assert "every number agrees" in run("tournament", "verify", str(cup / "cup.yaml")).stderr


def test_a_table_leads_by_rotation_as_a_formal_competition(cup: Path) -> None:
    table = str(cup / "cup-r1-t1.yaml")
    assert "甲 leads the first hand (rotation: seat 1)" in ok("match", "show", table)
    ok("match", "add", table, "-c", "甲=JD", "-c", "乙=QS", "-c", "丙=全红", "-c", "丁=10C")
    # Under classic's own rule 乙 (the pig's taker) would lead; at a table seat 2 does by turn.
    assert shown(table)["next_lead"] == ["乙"]
    ok("match", "add", table, "-c", "甲=JD", "-c", "乙=10C", "-c", "丙=全红", "-c", "丁=QS")
    assert shown(str(cup / "cup-r1-t2.yaml"))["next_lead"] == ["戊"]
    # A casual match of the same rules still follows the pig.
    casual = new(cup, "casual.yaml", "--hands", "2", players="甲,乙,丙,丁")
    ok("match", "add", casual, "-c", "甲=JD", "-c", "乙=10C", "-c", "丙=全红", "-c", "丁=QS")
    assert shown(casual)["next_lead"] == ["丁"]


def test_a_table_record_is_judged_by_the_rotation(cup: Path) -> None:
    ledger = Ledger.new(["甲", "乙", "丙", "丁"])
    table = Ledger(ledger.players, ledger.variant, ledger.normalization, ledger.end_at,
                   tournament="cup")  # fmt: skip
    assert (ledger.first_lead, table.first_lead) == ("pig", "rotation")
    assert table.rules.first_lead == "rotation" and table.rules.name == "classic"
    assert "rules" not in table.settings_data()  # written by name, as before


def test_verify_names_a_table_whose_settings_are_not_the_tournaments(cup: Path) -> None:
    table = cup / "cup-r1-t2.yaml"
    text = table.read_text(encoding="utf-8")
    table.write_text(text.replace('teams: "none"', 'teams: "partners"'), encoding="utf-8")
    r = run("tournament", "verify", str(cup / "cup.yaml"))
    assert r.exit_code == 1
    assert r.stdout == (f"{cup / 'cup.yaml'}: round 1, table 2 (cup-r1-t2.yaml): teams is partners"
                        " here, where the tournament plays none: a table is played under its"
                        " tournament's rules\n")  # fmt: skip


def test_a_tournament_file_naming_a_ledger_for_two_tables_is_refused(cup: Path) -> None:
    ok("match", "add", str(cup / "cup-r1-t1.yaml"), "-c", "甲=JD", "-c", "乙=QS", "-c", "丙=全红",
       "-c", "丁=10C")  # fmt: skip
    path = cup / "cup.yaml"
    text = path.read_text(encoding="utf-8")
    tables = re.findall(r"^  - .*$", text, re.MULTILINE)
    path.write_text(text + "- round: 2\n  tables:\n" + "\n".join(tables) + "\n", encoding="utf-8")
    for command in ("verify", "show"):
        said = refused("tournament", command, str(path))
        assert "rounds[2].tables[1]: ledger cup-r1-t1.yaml is already round 1, table 1" in said


def test_batch_passes_over_a_tournament_file_in_its_folder(cup: Path) -> None:
    (cup / "hands.jsonl").write_text(
        '{"players": [{"name": "A", "captured": "QS JD 10C"}, {"name": "B", "captured": "全红"},'
        ' {"name": "C", "captured": ""}, {"name": "D", "captured": ""}]}\n',
        encoding="utf-8",
    )
    r = run("batch", str(cup), "--format", "jsonl")
    assert r.exit_code == 0, r.stderr
    assert f"passed over {cup / 'cup.yaml'}: a tournament file, not recorded hands" in r.stderr
    assert len(r.stdout.splitlines()) == 1


# --- the seat words (rulings §1) ----------------------------------------------------------------

_EAST_FIRST = re.compile(r"[东東]\s*[,，、]?\s*南\s*[,，、]?\s*西\s*[,，、]?\s*北")
_COUNTER = re.compile(r"counter-clockwise|逆时针|逆時針")


def _texts() -> list[tuple[str, str]]:
    texts = [(str(p), p.read_text(encoding="utf-8")) for p in [ROOT / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]]  # fmt: skip
    texts += [(str(p), p.read_text(encoding="utf-8"))
              for p in sorted((ROOT / "gongzhu_score").rglob("*.po"))]  # fmt: skip
    texts += [(str(p), p.read_text(encoding="utf-8"))
              for p in sorted((ROOT / "gongzhu_score").rglob("*.py"))]  # fmt: skip
    for lang in ("en", "zh", "zh-Hant"):
        for args in (["match", "new"], ["score"], ["tournament", "new"]):
            texts.append((f"{args} --help {lang}", run(*args, "--help", "--lang", lang).stdout))
    return texts


def test_no_text_calls_east_south_west_north_counter_clockwise() -> None:
    for where, text in _texts():
        for sentence in re.split(r"(?<=[.。;；])\s|\n\s*\n", text):
            if _EAST_FIRST.search(sentence):
                assert not _COUNTER.search(sentence), (where, sentence)


def test_the_rulebook_gives_the_maps_direction_once() -> None:
    rulings = re.sub(r"\s+", " ", (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"))
    conventions = rulings.split("## 2.")[0]  # (the conventions and §1)
    assert "**Seat words.**" in conventions and "(北, 西, 南, 东)" in conventions
    assert "北, 西, 南, 东" in rulings.split("## 10.")[1].split("## 11.")[0]


# --- the property: over random matches and house rules ------------------------------------------


def _zero_rules() -> Variant:
    """A rule set where every card is worth 0: every match under it is a draw."""
    return Variant.from_data({"name": "level", "heart_values": dict.fromkeys(
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], 0), "pig": 0,
        "sheep": 0, "transformer_alone": 0, "full_red": 0})  # fmt: skip


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_winner_and_the_pig_are_never_one_and_a_draw_is_exactly_a_full_tie(
    data: st.DataObject,
) -> None:
    rules = data.draw(st.one_of(rule_sets(), rule_sets(), rule_sets(), st.just(_zero_rules())))
    teams = data.draw(st.sampled_from(["none", "none", "partners", "pig-sheep"]))
    methods = {
        "none": ["none", "zero-sum", "jj"],
        "partners": ["zero-sum", "jj"],
        "pig-sheep": ["zero-sum"],
    }[teams]  # (the combinations the rules define, §7.4)
    regime = data.draw(st.sampled_from(list(AutoPlay))) if teams == "partners" else None
    hands = data.draw(st.integers(1, 5))
    end = data.draw(st.sampled_from([-(10**9), -1000, -300, -1]))
    names = ["甲", "乙", "丙", "丁"]
    try:
        norm = Normalization(data.draw(st.sampled_from(methods)),
                             scale=data.draw(st.sampled_from([1, 1, 12])), teams=teams)  # fmt: skip
        ledger = Ledger.new(names, rules, norm, end, last_hand=hands, auto_play=regime)
    except GongzhuError:
        return
    for _ in range(hands):
        drawn = data.draw(hands_for(rules))
        captured = {names[k]: drawn.captured[n] for k, n in enumerate(drawn.names)}
        rename = dict(zip(drawn.names, names, strict=True))
        moved = data.draw(st.sampled_from([None, *names])) if teams == "partners" else None
        if teams == "pig-sheep":  # (猪羊一家 allows no exposure, rulings §7.3)
            drawn.exposed, drawn.first_exposed = {}, {}
        try:
            hand = Hand.from_captured(
                captured,
                exposed={rename[n]: c for n, c in drawn.exposed.items()},
                first_exposed={rename[n]: c for n, c in drawn.first_exposed.items()},
                decks=rules.decks,
            )
            takers = pig_takers(hand)
            ledger = ledger.add(hand, first_pig=takers[0] if len(takers) > 1 else None,
                                auto_played=AutoPlayed(moved) if moved else None)[0]  # fmt: skip
        except MatchOverError:
            break
        except GongzhuError as e:
            event(f"refused: {type(e).__name__}")
            continue
    status = ledger.status()
    if not status.ended:
        return
    assert status.ended_after is not None
    entry = ledger.entry(status.ended_after)
    totals = entry.total_final if ledger.team_play else entry.total_raw
    last = entry.final
    order = ledger.ranking()
    if teams == "partners":
        sides = [(0, 2), (1, 3)]
        keys = [(sum(totals[i] for i in s), sum(last[i] for i in s)) for s in sides]
        level = keys[0] == keys[1]
    else:
        level = len({(totals[i], last[i]) for i in range(4)}) == 1
    assert status.draw == level
    event(f"{teams}: {'draw' if level else 'decided'}")
    as_json = match_to_dict(ledger)
    listed = re.findall(r"^  \d+\. (\S+)", match_summary(ledger), re.MULTILINE)
    assert as_json["order"] == listed == [names[i] for i in order]
    assert as_json["draw"] == status.draw
    if status.draw:
        assert (status.loser, status.winner, status.loser_side, status.winner_side) == (
            None, None, (), ())  # fmt: skip
        return
    assert not set(status.loser_side) & set(status.winner_side)
    assert status.loser != status.winner
    k = len(status.winner_side)
    assert set(status.winner_side) == {names[i] for i in order[:k]}
    assert set(status.loser_side) == {names[i] for i in order[-k:]}
    if teams != "partners":  # the pig: lowest total, then worst last hand, then the later seat
        pig = min(range(4), key=lambda i: (totals[i], last[i], -i))
        assert status.loser == names[pig]
