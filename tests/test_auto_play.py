"""托管 in partner play (issue 36 part 2, rulings §12.2): a hand the system played for a
disconnected player. Tournament regime: scored as usual. Island regime: a losing side's loss
falls whole on the auto-played player, the partner 0. With only the last card left, or in
individual play, nothing changes. Every hand stays zero-sum."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from clitools import done, ok, refused, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import hands_for, rule_sets

from gongzhu_score.core.auto_play import AutoPlay, AutoPlayed, auto_played_finals, partner_of
from gongzhu_score.core.hand import Hand
from gongzhu_score.core.normalize import Normalization
from gongzhu_score.errors import GongzhuError, LedgerError
from gongzhu_score.io.yamlfile import load_yaml
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import read_ledger

PLAYERS = "东,南,西,北"
# 东 Q♠ -100, 南 J♦ +100, 西 全红 +200, 北 10♣ alone +50 (classic): 东+西 raw 100, 南+北 raw 150.
HAND = ["-c", "东=QS", "-c", "南=JD", "-c", "西=全红", "-c", "北=10C"]
CAPTURED = {"东": "QS", "南": "JD", "西": "全红", "北": "10C"}


def new(tmp_path: Path, *flags: str, name: str = "m.yaml") -> str:
    path = str(tmp_path / name)
    done("match", "new", path, "--players", PLAYERS, *flags)
    return path


def finals(path: str) -> list[list[object]]:
    data = json.loads(ok("match", "show", path, "--format", "json"))
    return [h["final"] for h in data["hands"]]


# --- the arithmetic, worked by hand -------------------------------------------------------------


def test_partner_of_pairs_seats_1_3_and_2_4() -> None:
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]


def test_island_puts_a_losing_sides_loss_on_the_auto_played_player() -> None:
    # side 东+西 lost 50 (−25 each): 东 (seat 0) bears −50, 西 0; 南+北 keep +25 each
    assert auto_played_finals((-25, 25, -25, 25), 0, AutoPlay.ISLAND) == (-50, 25, 0, 25)
    assert auto_played_finals((-25, 25, -25, 25), 2, AutoPlay.ISLAND) == (0, 25, -50, 25)
    # a half (rounding exact) moves whole too: 2S
    half = Fraction(-25, 2)
    assert auto_played_finals((half, -half, half, -half), 0, AutoPlay.ISLAND) == (
        -25,
        -half,
        0,
        -half,
    )


def test_a_side_that_won_or_drew_the_tournament_regime_and_the_last_card_change_nothing() -> None:
    assert auto_played_finals((-25, 25, -25, 25), 1, AutoPlay.ISLAND) is None  # 南+北 won
    assert auto_played_finals((0, 0, 0, 0), 0, AutoPlay.ISLAND) is None  # a draw is no loss
    assert auto_played_finals((-25, 25, -25, 25), 0, AutoPlay.TOURNAMENT) is None
    assert auto_played_finals((-25, 25, -25, 25), 0, AutoPlay.ISLAND, last_card=True) is None


def test_the_match_counts_it_under_island_and_not_under_tournament(tmp_path: Path) -> None:
    island = new(tmp_path, "--teams", "partners", "--auto-play", "island", name="i.yaml")
    tournament = new(tmp_path, "--teams", "partners", name="t.yaml")
    for path in (island, tournament):
        done("match", "add", path, *HAND, "--auto-played", "东")
    assert finals(island) == [[-50, 25, 0, 25]]
    assert finals(tournament) == [[-25, 25, -25, 25]]
    data = json.loads(ok("match", "show", island, "--format", "json"))
    assert data["auto_play"] == "island"
    assert data["totals"]["final"] == [-50, 25, 0, 25]
    assert data["hands"][0]["auto_played"] == "东" and "last_card" not in data["hands"][0]
    assert "auto_play" not in json.loads(ok("match", "show", tournament, "--format", "json"))


def test_jj_partners_moves_the_whole_side(tmp_path: Path) -> None:
    # jj: each partner gets the difference, −50 (rulings §7.2); island: 东 −100, 西 0
    path = new(tmp_path, "--teams", "partners", "--normalize", "jj", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "西")
    assert finals(path) == [[0, 50, -100, 50]]


def test_the_last_card_and_a_winning_side_are_scored_as_usual(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    out = ok("match", "add", path, *HAND, "--auto-played", "东", "--last-card")
    assert "东 was auto-played (托管) with only the last card left: scored as usual" in out
    out = ok("match", "add", path, *HAND, "--auto-played", "北")
    assert "island regime: 北's side did not lose, so both keep 25 (rulings §12.2)" in out
    assert finals(path) == [[-25, 25, -25, 25], [-25, 25, -25, 25]]
    text = Path(path).read_text(encoding="utf-8")
    assert '  auto_played: "东"\n  last_card: true\n' in text
    assert '  auto_played: "北"\n  partial: false\n' in text


def test_add_json_has_the_finals_the_match_counts(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    data = json.loads(ok("match", "add", path, *HAND, "--auto-played", "东", "-f", "json"))
    assert [p["final"] for p in data["players"]] == [-50, 25, 0, 25]
    assert data["final_sum"] == 0 and data["auto_played"] == "东"
    hand = json.loads(ok("match", "show", path, "1", "-f", "json"))
    assert [p["final"] for p in hand["players"]] == [-50, 25, 0, 25]
    assert hand["auto_played"] == "东"


def test_show_and_explain_name_the_rule(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "东")
    line = "island regime (島嶼, rulings §12.2): 东's side lost 50, so 东 bears it whole (东 -50, 西 0)"
    assert line in ok("match", "show", path, "1")
    assert line in ok("explain", path, "1")
    assert "岛屿（规则 §12.2）：东 一方输了 50，由托管者 东 承担全部损失（东 -50，西 0）" in ok(
        "explain", path, "1", "--lang", "zh"
    )


# --- refusals: nothing written -----------------------------------------------------------------


def test_individual_play_refuses_auto_played_and_the_ledger_is_unchanged(tmp_path: Path) -> None:
    path = new(tmp_path)
    done("match", "add", path, *HAND)
    before = Path(path).read_bytes()
    said = refused("match", "add", path, *HAND, "--auto-played", "东")
    assert "托管 (--auto-played) is recorded only in partner play" in said
    assert "teams none" in said
    assert Path(path).read_bytes() == before


def test_island_without_partners_is_refused_and_no_file_is_written(tmp_path: Path) -> None:
    path = tmp_path / "solo.yaml"
    said = refused("match", "new", str(path), "--players", PLAYERS, "--auto-play", "island")
    assert "the island regime (--auto-play island) is for partner play" in said
    assert not path.exists()
    assert "invalid value" in run("match", "new", str(path), "--players", PLAYERS,
                                  "--auto-play", "isle").stderr.lower()  # fmt: skip


def test_a_name_not_of_the_match_and_last_card_alone_are_refused(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND)
    before = Path(path).read_bytes()
    assert "'老王'" in refused("match", "add", path, *HAND, "--auto-played", "老王")
    said = refused("match", "add", path, *HAND, "--last-card")
    assert said.startswith("--last-card: ") and "--auto-played NAME" in said
    assert Path(path).read_bytes() == before


def test_setting_teams_away_from_partners_under_island_is_refused(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "东")
    before = Path(path).read_bytes()
    assert "island regime" in refused("match", "set", path, "--teams", "none")
    assert Path(path).read_bytes() == before


def test_a_stored_last_card_without_auto_played_is_refused(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND)
    text = Path(path).read_text(encoding="utf-8")
    Path(path).write_text(text.replace("  partial: false\n", "  last_card: true\n  partial: false\n"),
                          encoding="utf-8")  # fmt: skip
    said = refused("match", "show", path)
    assert "last_card" in said and "auto_played" in said


# --- the ledger: old ones byte-identical, new keys round-trip, verify, rename, set ---------------


OLD_LEDGER = """\
# gongzhu-score match ledger: one entry per hand, in order.
# Change it with `gongzhu-score match add/undo/edit/rename`; check it with `match verify`.
format: 1
players: ["东", "南", "西", "北"]
variant: "classic"
normalize: "zero-sum"
scale: 1
rounding: "nearest"
teams: "partners"
end_at: -1000
hands:
- hand: 1
  entered: "2026-12-01T20:00:00+08:00"
  captured: {"东": "QS", "南": "JD", "西": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "北": "10C"}
  exposed: {}
  first_exposed: {}
  partial: false
  raw: [-100, 100, 200, 50]
  final: [-25, 25, -25, 25]
  total_raw: [-100, 100, 200, 50]
  total_final: [-25, 25, -25, 25]
  marks: {"西": ["full_red"], "北": ["transformer_alone"]}
"""


def test_a_ledger_written_before_it_reads_and_writes_byte_identically(tmp_path: Path) -> None:
    path = tmp_path / "old.yaml"
    path.write_text(OLD_LEDGER, encoding="utf-8")
    ledger = read_ledger(str(path))
    assert ledger.auto_play is AutoPlay.TOURNAMENT and ledger.entries[0].auto_played is None
    assert ledger.to_text() == OLD_LEDGER
    assert (
        "auto_played"
        not in json.loads(ok("match", "show", str(path), "--format", "json"))["hands"][0]
    )
    assert "every number agrees" in done("match", "verify", str(path))[1]
    assert path.read_text(encoding="utf-8") == OLD_LEDGER


def test_auto_played_and_last_card_round_trip_and_verify(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "东")
    done("match", "add", path, *HAND, "--auto-played", "西", "--last-card")
    ledger = read_ledger(path)
    assert [e.auto_played for e in ledger.entries] == [AutoPlayed("东"), AutoPlayed("西", True)]
    assert ledger.to_text() == Path(path).read_text(encoding="utf-8")
    assert run("match", "verify", path).exit_code == 0
    # a final edited by hand so that it no longer follows the island rule: verify names it
    text = Path(path).read_text(encoding="utf-8")
    Path(path).write_text(text.replace("final: [-50, 25, 0, 25]", "final: [-25, 25, -25, 25]", 1),
                          encoding="utf-8")  # fmt: skip
    r = run("match", "verify", path)
    assert r.exit_code != 0 and "hand 1" in r.stdout + r.stderr


def test_rename_renames_the_auto_played_player(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "东")
    done("match", "rename", path, "东", "老王")
    assert read_ledger(path).entries[0].auto_played == AutoPlayed("老王")
    assert finals(path) == [[-50, 25, 0, 25]]


def test_set_auto_play_scores_every_hand_again_and_restore_takes_it_back(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "东")
    before = Path(path).read_bytes()
    out = ok("match", "set", path, "--auto-play", "tournament")
    assert "auto_play: island → tournament" in out
    assert finals(path) == [[-25, 25, -25, 25]]
    assert "auto_play:" not in Path(path).read_text(encoding="utf-8")
    done("match", "restore", path)
    assert Path(path).read_bytes() == before


def test_undo_prints_the_command_that_adds_it_again(tmp_path: Path) -> None:
    import shlex

    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    done("match", "add", path, *HAND, "--auto-played", "西", "--last-card")
    kept = read_ledger(path).entries[0]
    out = ok("match", "undo", path)
    command = next(line for line in out.splitlines() if "gongzhu-score match add" in line)
    words = shlex.split(command[command.index("gongzhu-score") :])
    assert words[-3:] == ["--auto-played", "西", "--last-card"]
    done(*words[1:])
    again = read_ledger(path).entries[0]
    assert (again.auto_played, again.final) == (kept.auto_played, kept.final)


def test_like_copies_the_regime(tmp_path: Path) -> None:
    first = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    second = str(tmp_path / "next.yaml")
    done("match", "new", second, "--like", first)
    assert read_ledger(second).auto_play is AutoPlay.ISLAND


# --- the prompts and the page ask it only where it changes a score -------------------------------


def test_the_prompts_ask_who_was_auto_played_under_island(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    r = run("match", "add", path, "-i", input="QS\nJD\n全红\n10C\n\n\n老王\n东\nn\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "who did the system play for after a disconnect (托管)?" in r.stderr
    assert "'老王'" in r.stderr  # asked again, the error shown
    assert "auto-played (托管): 东" in r.stderr
    assert read_ledger(path).entries[0].auto_played == AutoPlayed("东")
    assert finals(path) == [[-50, 25, 0, 25]]


def test_the_prompts_do_not_ask_it_under_tournament(tmp_path: Path) -> None:
    path = new(tmp_path, "--teams", "partners")
    r = run("match", "add", path, "-i", input="QS\nJD\n全红\n10C\n\n\ny\n")
    assert r.exit_code == 0, r.stderr
    assert "托管" not in r.stderr
    assert read_ledger(path).entries[0].auto_played is None


# --- zero-sum over the whole rule space (Hypothesis) --------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_island_keeps_each_side_and_the_hand_zero_sum_under_random_house_rules(
    data: st.DataObject,
) -> None:
    rules = data.draw(rule_sets())
    hand = data.draw(hands_for(rules))
    norm = Normalization(
        data.draw(st.sampled_from(["zero-sum", "jj"])),
        scale=data.draw(st.integers(1, 12)),
        rounding=data.draw(st.sampled_from(["nearest", "exact"])),
        teams="partners",
    )
    regime = data.draw(st.sampled_from(list(AutoPlay)))
    seat = data.draw(st.integers(0, 3))
    last_card = data.draw(st.booleans())
    try:
        ledger = Ledger.new(hand.names, rules, norm, -(10**9), auto_play=regime)
        cards = Hand.from_captured(hand.captured, exposed=hand.exposed,
                                   first_exposed=hand.first_exposed, decks=rules.decks)  # fmt: skip
        scored, result = ledger.add(cards, auto_played=AutoPlayed(hand.names[seat], last_card))
    except GongzhuError:
        return  # (a rule set that cannot score this hand: test_validation covers refusals)
    before, after = result.finals, scored.entries[-1].final
    partner = partner_of(seat)
    others = [s for s in range(4) if s not in (seat, partner)]
    assert sum(after) == sum(before)  # zero-sum stays zero-sum: nothing leaves the table
    assert before[seat] == before[partner]  # partners share a side's score
    assert [after[s] for s in others] == [before[s] for s in others]
    lost = before[seat] + before[partner] < 0
    if regime is AutoPlay.ISLAND and not last_card and lost:
        assert (after[seat], after[partner]) == (2 * before[seat], 0)
    else:
        assert after == before
    # what is written reads back the same, and verify finds nothing to say
    again = Ledger.from_data(load_yaml(scored.to_text(), "m.yaml"))
    assert again.entries[-1].final == after and again.entries[-1].auto_played == AutoPlayed(
        hand.names[seat], last_card
    )
    assert again.problems() == []


def test_library_refuses_auto_played_in_individual_play() -> None:
    ledger = Ledger.new(["东", "南", "西", "北"])
    with pytest.raises(LedgerError, match="partner play"):
        ledger.add(Hand.from_captured(CAPTURED), auto_played=AutoPlayed("东"))


def test_the_page_asks_it_under_island_previews_and_adds_the_finals_counted(tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from gongzhu_score.web import state

    island = new(tmp_path, "--teams", "partners", "--auto-play", "island", name="i.yaml")
    tournament = new(tmp_path, "--teams", "partners", name="t.yaml")
    assert state.page_state(island, "en")["asks_auto_played"] is True
    assert state.page_state(tournament, "en")["asks_auto_played"] is False
    entry = {"captured": {"东": ["QS"], "南": ["JD"], "西": [], "北": ["10C"]}, "rest": "西",
             "auto_played": "东"}  # fmt: skip
    assert state.preview(island, {"entry": entry}, "en")["final"] == [-50, 25, 0, 25]
    assert state.preview(tournament, {"entry": entry}, "en")["final"] == [-25, 25, -25, 25]
    page = state.page_state(island, "en")
    now = lambda: datetime(2026, 12, 3, 20, 0, tzinfo=timezone.utc)  # noqa: E731
    state.add(island, {"version": page["version"], "entry": entry}, "en", now)
    assert finals(island) == [[-50, 25, 0, 25]]
    shown = state.hand_view(island, 1, "en")
    assert (shown["entry"]["auto_played"], shown["entry"]["last_card"]) == ("东", False)
    assert "东 bears it whole" in shown["text"]
    # a name not of the match is refused, naming the field; nothing is written
    before = Path(island).read_bytes()
    page = state.page_state(island, "en")
    with pytest.raises(GongzhuError, match="auto_played"):
        state.add(island, {"version": page["version"], "entry": {**entry, "auto_played": "老王"}},
                  "en", now)  # fmt: skip
    assert Path(island).read_bytes() == before


def test_like_into_other_teams_keeps_the_teams_asked_for(tmp_path: Path) -> None:
    first = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    solo = str(tmp_path / "solo.yaml")
    done("match", "new", solo, "--like", first, "--teams", "none")  # (what is given here wins)
    assert read_ledger(solo).auto_play is AutoPlay.TOURNAMENT


def test_the_page_refuses_the_last_card_alone(tmp_path: Path) -> None:
    from gongzhu_score.web import state

    island = new(tmp_path, "--teams", "partners", "--auto-play", "island")
    entry = {"captured": {"东": ["QS"], "南": ["JD"], "西": [], "北": ["10C"]}, "rest": "西",
             "last_card": True}  # fmt: skip
    with pytest.raises(GongzhuError, match="last_card"):
        state.preview(island, {"entry": entry}, "en")
