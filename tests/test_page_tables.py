"""Issue 57 without a browser: a match's table (its title, the match it follows), 再来一盘 asked
twice, every competition rule from the start request, 托管 in a hand's explanation, the rules in
sentences and the words of the standings. The page itself is tests/test_web_tables.py."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from clitools import done, ok
from serving import serving

from gongzhu_score.io.variants import VARIANTS
from gongzhu_score.match.ledger import Ledger
from gongzhu_score.match.storage import read_ledger
from gongzhu_score.render.rule_words import rule_sentences, rules_in_a_line
from gongzhu_score.web.state import hand_view, page_state
from gongzhu_score.web.words import page_words

HAND = ["-c", "A=QS", "-c", "B=JD", "-c", "C=全红", "-c", "D=10C"]


def test_a_title_and_the_match_it_follows_are_kept_only_when_given(tmp_path: Path) -> None:
    plain = tmp_path / "plain.yaml"
    done("match", "new", str(plain), "--players", "A,B,C,D")
    text = plain.read_text(encoding="utf-8")
    assert "title:" not in text and "follows:" not in text  # (as every ledger before)
    one = tmp_path / "one.yaml"
    done("match", "new", str(one), "--players", "A,B,C,D", "--title", " 一号桌 ")
    two = tmp_path / "two.yaml"
    done("match", "new", str(two), "--like", str(one))
    assert (read_ledger(str(one)).title, read_ledger(str(one)).follows) == ("一号桌", None)
    assert (read_ledger(str(two)).title, read_ledger(str(two)).follows) == ("一号桌", "one.yaml")
    data = json.loads(ok("match", "show", str(two), "--format", "json"))
    assert (data["title"], data["follows"]) == ("一号桌", "one.yaml")
    # What is written reads back byte for byte, and a hand keeps them.
    ok("match", "add", str(two), *HAND)
    ledger = read_ledger(str(two))
    assert ledger.to_text() == two.read_text(encoding="utf-8")
    # A match started like one in another folder records no way back to it.
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    done("match", "new", str(elsewhere / "x.yaml"), "--like", str(one), "--title", "老王家")
    assert (read_ledger(str(elsewhere / "x.yaml")).follows, read_ledger(
        str(elsewhere / "x.yaml")).title) == (None, "老王家")  # fmt: skip


@pytest.mark.parametrize("title", ["", "a\nb", "\u202eabc", "x" * 41])
def test_a_title_that_is_not_one_short_line_is_refused(tmp_path: Path, title: str) -> None:
    from clitools import refused

    path = tmp_path / "m.yaml"
    said = refused("match", "new", str(path), "--players", "A,B,C,D", "--title", title)
    assert "is not a table's name" in said and not path.exists()


def _started(served: object, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    return served.post("/api/matches", body)  # type: ignore[attr-defined,no-any-return]


def test_again_asked_at_once_by_two_phones_starts_one_match(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    with serving(str(folder), env={"GONGZHU_NOW": "2026-12-06T20:00:00+08:00"}) as s:
        status, first = _started(s, {"players": ["A", "B", "C", "D"], "title": "一号桌"})
        assert status == 200 and first["state"]["match"]["title"] == "一号桌"
        answers: list[tuple[int, dict[str, object]]] = []
        phones = [threading.Thread(target=lambda: answers.append(
            _started(s, {"like": first["match"]}))) for _ in range(6)]  # fmt: skip
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        assert [a[0] for a in answers] == [200] * 6
        names = {a[1]["match"] for a in answers}
        assert len(names) == 1  # one match, whoever asked first
        assert sorted(a[1]["existing"] for a in answers) == [False] + [True] * 5
        ledgers = sorted(p.name for p in folder.glob("*.yaml"))
        assert len(ledgers) == 2
        (name,) = names
        assert read_ledger(str(folder / str(name))).follows == first["match"]
        status, listed = s.get("/api/matches")
        follows = {m["name"]: m.get("follows") for m in listed["matches"]}
        assert follows[name] == first["match"] and follows[first["match"]] is None
        assert listed["recent_names"] == ["A", "B", "C", "D"]
        assert listed["recent_titles"] == ["一号桌"]


def test_every_competition_rule_can_be_started_from_the_page(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    with serving(str(folder)) as s:
        body = {"players": ["A", "B", "C", "D"], "teams": "partners", "end_at": -800,
                "last_hand": 4, "auto_play": "island", "title": "决赛"}  # fmt: skip
        status, made = _started(s, body)
        assert status == 200, made
        data = json.loads(ok("match", "show", str(folder / made["match"]), "--format", "json"))
        assert (data["teams"], data["end_at"], data["last_hand"], data["auto_play"]) == (
            "partners", -800, 4, "island")  # fmt: skip
        assert data["title"] == "决赛"
        for wrong in ({"last_hand": True}, {"last_hand": 1.0}, {"last_hand": "4"}):
            status, answer = _started(s, {"players": ["E", "F", "G", "H"], **wrong})
            assert status == 400 and "last_hand" in answer["error"], answer
        status, answer = _started(s, {"players": ["E", "F", "G", "H"], "auto_play": "island"})
        assert status == 422 and "partner" in answer["error"]  # (island needs partner play)
        assert len(list(folder.glob("*.yaml"))) == 1


def _island(tmp_path: Path) -> Path:
    path = tmp_path / "i.yaml"
    done("match", "new", str(path), "--players", "A,B,C,D", "--teams", "partners",
         "--auto-play", "island", "--hands", "4")  # fmt: skip
    ok("match", "add", str(path), *HAND, "--auto-played", "A")
    return path


def test_a_hands_explanation_names_the_auto_played_player_as_explain_does(tmp_path: Path) -> None:
    path = _island(tmp_path)
    for lang in ("en", "zh", "zh-Hant"):
        view = hand_view(str(path), 1, lang)
        cli = ok("explain", str(path), "1", "--lang", lang)
        assert view["explain"] == cli  # the API's explain is the command's, 托管 lines and all
        lines = view["explanation"]["auto_played"]
        assert len(lines) == 2 and all(line in cli for line in lines)
        assert [p["auto_played"] for p in view["detail"]] == [True, False, False, False]
    # 东 lost: A bears the side's whole loss, C 0; the lines say it with those numbers.
    finals = json.loads(ok("match", "show", str(path), "--format", "json"))["hands"][0]["final"]
    assert finals[0] == 2 * finals[0] // 2 and finals[2] == 0
    assert str(finals[0]) in hand_view(str(path), 1, "en")["explanation"]["auto_played"][1]


_KEYS = re.compile(r"\b[a-z]+_[a-z_]+\b|L\(|\(classic\)|\(zero-sum\)|\bpartners\b|\bnone\b")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("teams", ["none", "partners", "pig-sheep"])
def test_the_rules_read_in_sentences_with_no_key_and_no_empty_line(
    variant: str, teams: str
) -> None:
    from gongzhu_score.core.normalize import Normalization

    rules = VARIANTS[variant]
    auto = "island" if teams == "partners" else None  # (zero-sum: every team mode is defined)
    ledger = Ledger.new(["甲", "乙", "丙", "丁"], rules, Normalization("zero-sum", teams=teams),
                        last_hand=4, auto_play=auto)  # fmt: skip
    for lang in ("zh", "zh-Hant", "en"):
        rows = rule_sentences(ledger, lang)
        for row in rows:
            assert row["value"].strip() and row["name"].strip(), row
            if lang != "en":
                assert not _KEYS.search(row["value"]), row
                assert not _KEYS.search(row["name"]), row
        line = rules_in_a_line(ledger, lang)
        if lang != "en":
            assert not _KEYS.search(line), line
    rows = {r["rule"]: r["value"] for r in rule_sentences(ledger, "en")}
    assert ("auto_play" in rows) == (teams == "partners")
    assert "hand 4" in rows["match_end"]
    assert "grand_slam" in rows and "Grand slam" in rows["grand_slam"]
    assert "none" not in rows["grand_slam"]  # (满贯 无 above a figure: never both)


def test_the_rules_figures_are_the_matchs_own_scores() -> None:
    ledger = Ledger.new(["甲", "乙", "丙", "丁"], "classic")
    rows = {r["rule"]: r["value"] for r in rule_sentences(ledger, "en")}
    assert "×2, exposed ×4, first-exposed (首明) ×8" in rows["transformer_multiplier"]
    assert "+50, exposed +100, first-exposed (首明) +200" in rows["transformer_alone"]
    assert "+800 with nothing exposed, +3200 with everything exposed" in rows["grand_slam"]
    assert "2♥–4♥ 0 each, 5♥–10♥ -10 each" in rows["heart_values"]
    dehong = {r["rule"]: r["value"] for r in rule_sentences(Ledger.new("ABCD", "dehong"), "en")}
    assert "2♥–10♥ -10 each" in dehong["heart_values"] and "-230 in all" in dehong["heart_values"]


def test_the_standings_never_tell_a_leader_he_is_behind() -> None:
    for lang in ("zh", "zh-Hant", "en"):
        words = page_words(lang)
        said = words["standings.to_go"].format(points=2090)
        assert "还差" not in said and "還差" not in said and "to go" not in said
        assert (
            "{low}" in words["standings.end_at_team"] and "{high}" in words["standings.end_at_team"]
        )


def test_a_sides_pig_line_names_each_partners_own_total(tmp_path: Path) -> None:
    path = tmp_path / "i.yaml"
    done("match", "new", str(path), "--players", "A,B,C,D", "--teams", "partners",
         "--auto-play", "island", "--hands", "2")  # fmt: skip
    ok("match", "add", str(path), "-c", "A=QS", "-c", "B=2H 10C", "-c", "C=4H-AH JD", "-c",
       "D=3H", "--auto-played", "A")  # fmt: skip
    ok("match", "add", str(path), "-c", "A=4H", "-c", "B=8H 10H JH QS JD 10C", "-c", "C=3H",
       "--rest", "D")  # fmt: skip
    status = page_state(str(path), "zh")["status"]
    assert "B+D 当猪（累计得分 B -20、D -20）" in status
    assert "A+C 获胜（累计得分 A -80、C 120）" in status
