"""The ``score`` and ``variants`` commands, run for real through Typer's test runner."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
import yaml
from clitools import ROOT, golden, ok, refused, sample

MINUS_400 = [
    "--captured", "东=QS 6H 8H 10H JH 10C",
    "--captured", "南=AH 2H 3H 4H 5H 7H 9H",
    "--captured", "西=JD QH KH",
    "--captured", "北=",
    "--exposed", "南=AH",
]  # fmt: skip


def players(out: str) -> list[tuple[str, int, int | float]]:
    return [(p["name"], p["raw"], p["final"]) for p in json.loads(out)["players"]]


# --- the contract: JSON shape, flags, exit codes ---------------------------------------------


def test_json_contract_players_in_seat_order() -> None:
    data = json.loads(ok("score", sample("seed_minus_400.yaml"), "--format", "json"))
    assert [p["name"] for p in data["players"]] == ["东", "南", "西", "北"]
    for p in data["players"]:
        assert isinstance(p["name"], str)
        assert isinstance(p["raw"], int)
        assert isinstance(p["final"], int | float)
    assert data["players"][0]["raw"] == -400


def test_flags_score_like_the_file() -> None:
    from_flags = ok("score", *MINUS_400, "-f", "json")
    from_file = ok("score", sample("seed_minus_400.yaml"), "-f", "json")
    assert from_flags == from_file


def test_stdin_dash() -> None:
    text = (ROOT / "sample_hands" / "seed_minus_400.yaml").read_text(encoding="utf-8")
    assert players(ok("score", "-", "-f", "json", input=text))[0] == ("东", -400, -333)


def test_seed_normalization_sample_default_scale_and_jj() -> None:
    f = sample("seed_normalization.yaml")
    assert [p[2] for p in players(ok("score", f, "-f", "json"))] == [-80, -293, 80, 293]
    scaled = players(ok("score", f, "-f", "json", "--scale", "12"))
    assert [p[2] for p in scaled] == [-960, -3516, 960, 3516]
    jj = players(ok("score", f, "-f", "json", "--normalize", "jj"))
    assert [p[2] for p in jj] == [-240, -880, 240, 880]
    none = players(ok("score", f, "-f", "json", "--normalize", "none"))
    assert [p[2] for p in none] == [-120, -280, 0, 160]


def test_variant_flag_overrides_the_file() -> None:
    f = sample("online_zero_hearts.yaml")
    assert players(ok("score", f, "-f", "json"))[0][1] == 50
    assert players(ok("score", f, "-f", "json", "--variant", "classic"))[0][1] == 0
    data = json.loads(ok("score", f, "-f", "json", "-v", "jj"))
    assert data["variant"] == "jj"
    assert data["normalize"] == "jj"


def test_rounding_exact_shows_thirds() -> None:
    out = ok("score", sample("seed_normalization.yaml"), "--rounding", "exact")
    assert "-293⅓" in out and "293⅓" in out
    data = json.loads(
        ok("score", sample("seed_normalization.yaml"), "--rounding", "exact", "-f", "json")
    )
    assert data["players"][1]["final_exact"] == "-880/3"
    assert data["final_sum"] == 0


def test_partial_marks_the_result() -> None:
    out = ok("score", "--captured", "东=QS", "--captured", "南=", "--captured", "西=",
             "--captured", "北=", "--partial", "-f", "json")  # fmt: skip
    data = json.loads(out)
    assert data["partial"] is True
    assert len(data["missing"]) == 15
    table = ok("score", "-c", "东=QS", "-c", "南=", "-c", "西=", "-c", "北=", "--partial")
    assert "PARTIAL" in table


def test_rest_fills_in_the_fourth_player() -> None:
    out = ok("score", "-c", "东=pig", "-c", "南=♥AKQ", "-c", "西=", "--rest", "北", "-f", "json")
    # 北: J♦ +100, hearts 2–J −80, 10♣ ×2 → 40; R = −180
    assert players(out) == [("东", -100, -73), ("南", -120, -100), ("西", 0, 60), ("北", 40, 113)]


def test_rest_with_a_file(tmp_path: object) -> None:
    three = "players:\n  - {name: 东, captured: [QS]}\n  - {name: 南, captured: [JD]}\n" \
            "  - {name: 西, captured: [全红]}\n"  # fmt: skip
    out = ok("score", write(tmp_path, three), "--rest", "北", "-f", "json")
    assert players(out)[3][:2] == ("北", 50)


def test_first_exposed_flag() -> None:
    out = ok("score", *MINUS_400, "--first-exposed", "东=QS", "-f", "json")
    assert players(out)[0][1] == -1000  # (−100 hearts − 400 pig) × 2


def test_first_exposed_sample() -> None:
    assert players(ok("score", sample("first_exposed.yaml"), "-f", "json"))[1][1] == -410


def test_csv_output() -> None:
    rows = list(
        csv.DictReader(io.StringIO(ok("score", sample("seed_minus_400.yaml"), "-f", "csv")))
    )
    assert [r["name"] for r in rows] == ["东", "南", "西", "北"]
    assert rows[0]["raw"] == "-400"
    assert rows[0]["markers"] == "transformer_x2"


def test_yaml_output_round_trips() -> None:
    data = yaml.safe_load(ok("score", sample("seed_grand_slam.yaml"), "-f", "yaml"))
    assert data["players"][2]["raw"] == 800
    assert data["players"][2]["markers"] == ["full_red", "grand_slam", "transformer_x2"]


def test_table_format_any_tabulate_format() -> None:
    out = ok("score", sample("seed_minus_400.yaml"), "--table-format", "github")
    assert "|" in out and "| 东" in out


def test_help_teaches() -> None:
    out = ok("score", "--help")
    for word in ("--captured", "--exposed", "--rest", "--partial", "全红", "Examples"):
        assert word in out
    assert "score" in ok("--help")
    assert "variants" in ok()


def test_version() -> None:
    assert ok("--version").startswith("gongzhu-score ")


def test_python_dash_m_runs_the_same_command() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "gongzhu_score", "score", sample("seed_minus_400.yaml"), "-f", "json"],
        capture_output=True, text=True, check=False, encoding="utf-8",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert players(proc.stdout)[0] == ("东", -400, -333)
    bad = subprocess.run(
        [sys.executable, "-m", "gongzhu_score", "score", "-c", "东=QX"],
        capture_output=True, text=True, check=False, encoding="utf-8",
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("error: --captured 东: unknown card 'QX'")


def test_two_deck_sample_and_variant_flag() -> None:
    out = ok("score", sample("two_deck_seed_minus_3200.yaml"), "-f", "json")
    data = json.loads(out)
    assert data["variant"] == "two-deck"
    assert [p[1] for p in players(out)] == [-3200, -700, -660, -640]
    flags = ok("score", "-v", "two-deck", "-c", "东=QS QS 10C 10C", "-c", "南=JD JD",
               "-c", "西=全红", "-c", "北=", "-e", "南=QS QS AH", "-e", "西=10C AH 10C", "-f", "json")  # fmt: skip
    assert players(flags)[0][1] == -12800


def test_teams_from_the_file_and_the_flag() -> None:
    f = sample("seed_partners.yaml")
    data = json.loads(ok("score", f, "-f", "json"))
    assert data["teams"] == {
        "mode": "partners",
        "sides": [{"players": ["东", "西"], "raw": -200}, {"players": ["南", "北"], "raw": 50}],
        "difference": -250,
    }
    assert [p["side"] for p in data["players"]] == [0, 1, 0, 1]
    assert [p[2] for p in players(ok("score", f, "-f", "json", "--scale", "12"))] == [
        -1500,
        1500,
        -1500,
        1500,
    ]
    assert [p[2] for p in players(ok("score", f, "-f", "json", "--normalize", "jj"))] == [
        -250,
        250,
        -250,
        250,
    ]
    alone = json.loads(ok("score", f, "-f", "json", "--teams", "none"))
    assert alone["teams"] is None
    # individual zero-sum: (4r − R)/3 with R = −150
    assert [p["final"] for p in alone["players"]] == [-203, 117, 37, 50]


def test_pig_sheep_samples() -> None:
    two = players(ok("score", sample("pig_sheep.yaml"), "-f", "json"))
    assert [p[2] for p in two] == [60, -60, 60, -60]
    three = players(ok("score", sample("pig_sheep_one_against_three.yaml"), "-f", "json"))
    assert [p[2] for p in three] == [-77, 230, -77, -77]


def test_teams_csv_has_the_side() -> None:
    rows = list(csv.DictReader(io.StringIO(ok("score", sample("pig_sheep.yaml"), "-f", "csv"))))
    assert [r["side"] for r in rows] == ["0", "1", "0", "1"]


# --- golden files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("minus_400_table_en.txt", ["score", sample("seed_minus_400.yaml")]),
        ("minus_400_table_zh.txt", ["score", sample("seed_minus_400.yaml"), "--lang", "zh"]),
        ("minus_400.json", ["score", sample("seed_minus_400.yaml"), "-f", "json"]),
        ("normalization_x12_grid.txt",
         ["score", sample("seed_normalization.yaml"), "--scale", "12", "--table-format", "grid"]),
        ("grand_slam_exposed_zh.txt", ["score", sample("seed_grand_slam_all_exposed.yaml"), "--lang", "zh"]),
        ("lone_transformer.csv", ["score", sample("seed_lone_transformer.yaml"), "-f", "csv"]),
        ("first_exposed.yaml", ["score", sample("first_exposed.yaml"), "-f", "yaml"]),
        ("partners_table_zh.txt", ["score", sample("seed_partners.yaml"), "--lang", "zh"]),
        ("pig_sheep_one_against_three.txt", ["score", sample("pig_sheep_one_against_three.yaml")]),
        ("two_deck.txt", ["score", sample("two_deck_seed_minus_3200.yaml")]),
        ("variants_show_two_deck.txt", ["variants", "show", "two-deck"]),
        ("variants.txt", ["variants"]),
        ("variants_show_classic.txt", ["variants", "show", "classic"]),
        ("variants_show_dehong.json", ["variants", "show", "dehong", "-f", "json"]),
    ],
)  # fmt: skip
def test_golden_output(name: str, args: list[str]) -> None:
    golden(name, ok(*args))


# --- bad input: exit 2, one error line naming the place and the token -------------------------


def write(tmp_path: object, text: str | bytes, name: str = "hand.yaml") -> str:
    from pathlib import Path

    path = Path(str(tmp_path)) / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


FOUR = "players:\n  - {name: 东, captured: [QS, 10C]}\n  - {name: 南, captured: [JD]}\n" \
       "  - {name: 西, captured: [全红]}\n  - {name: 北, captured: []}\n"  # fmt: skip


def test_the_four_player_fixture_is_valid(tmp_path: object) -> None:
    assert players(ok("score", write(tmp_path, FOUR), "-f", "json"))[0][1] == -200


BAD_FLAGS = [
    (["-c", "东=1OC", "-c", "南=", "-c", "西=", "-c", "北="],
     "--captured 东: unknown card '1OC'; did you mean '10C'?"),
    (["-c", "东=QX", "-c", "南=", "-c", "西=", "-c", "北="],
     "--captured 东: unknown card 'QX' (a card is a rank and a suit: QS, Q♠, ♠Q, 黑桃Q; several of "
     "one suit: ♥A K Q, 红桃6 8 10 J, 红桃2-10, 6H-10H, hearts A K Q, H:AKQ; nicknames 猪 羊 变压器, "
     "猪羊, 全红, 满贯)"),
    (["-c", "东=猪圈", "-c", "南=", "-c", "西=", "-c", "北="],
     "--captured 东: '猪圈' is not a scoring card and not an alias of one; write its cards instead (K♠ A♠)"),
    (["-c", "东=QS 10C", "-c", "南=QS", "-c", "西=全红 JD", "-c", "北="],
     "player 南: QS (Q♠) captured already by 东"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "-e", "东=KS"],
     "player 东: cannot expose KS (K♠); only Q♠, J♦, 10♣, A♥ can be exposed (亮牌)"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "-e", "东=QS", "-e", "南=QS"],
     "player 南: QS (Q♠) exposed already by 东"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "--first-exposed", "东=QS",
      "-v", "jj"],
     "player 东: first_exposed Q♠: 首明 is not part of the jj rules; list the card under exposed instead"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=♥AKQ", "-c", "北="],
     "scoring cards nobody captured: 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥; add them to a player, "
     "give one player the rest (--rest NAME), or score a partial tally (--partial)"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红"],
     "a hand needs exactly four players, got 3 (东, 南, 西)"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "东=全红", "-c", "北="],
     "--captured 东= given twice; put all of 东's cards in one"),
    (["-c", "东 QS"], "--captured '东 QS': expected NAME=CARDS, e.g. --captured 东=\"QS 6H\" "
     "(an empty --captured 北= means no cards)"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "-e", "X=QS"],
     "--exposed X=: no player named 'X' in --captured"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "-v", "clasic"],
     "unknown variant 'clasic' (known: classic, dehong, jj, online, two-deck); did you mean 'classic'?"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=", "-c", "北=", "--rest", "X"],
     "--rest X: no player named 'X' (players: 东, 南, 西, 北) "
     "(a new seat for the rest needs exactly three listed players)"),
    ([], "no hand given: name a hand file (or - for stdin), or give --captured NAME=CARDS for "
     "each player; see 'gongzhu-score score --help'"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "--teams", "pig-sheep", "-e", "南=JD"],
     "player 南: 猪羊一家 (teams pig-sheep) allows no exposure (亮牌) or 首明"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "--teams", "pig-sheep", "-v", "jj"],
     "teams pig-sheep (猪羊一家) with normalization jj is not defined by the rules; use zero-sum"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "--teams", "partners", "--normalize", "none"],
     "teams partners with normalization none is not defined by the rules; use zero-sum or jj"),
    (["-c", "东=QS QS QS", "-c", "南=", "-c", "西=", "--rest", "北", "-v", "two-deck"],
     "player 东: QS (Q♠) captured a third time (already by 东 and 东; two decks hold two)"),
    (["-c", "东=QS 10C", "-c", "南=JD", "-c", "西=全红", "-c", "北=", "--table-format", "fancy"],
     "--table-format 'fancy': not a tabulate format; try simple, github, grid, plain, "
     "rounded_outline (all: "),
]  # fmt: skip


@pytest.mark.parametrize(("args", "message"), BAD_FLAGS)
def test_bad_flags(args: list[str], message: str) -> None:
    assert refused("score", *args).startswith(message)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--normalize", "zerosum"], "'zerosum' is not one of"),
        (["--scale", "0"], "--scale"),
        (["--format", "xml"], "'xml': this command prints table, json, csv, yaml"),
        (["--lang", "fr"], "'fr' is not one of"),
        (["--teams", "trios"], "'trios' is not one of"),
        (["--bogus"], "No such option: --bogus"),
    ],
)
def test_bad_option_values_are_usage_errors(args: list[str], fragment: str) -> None:
    message = refused("score", sample("seed_minus_400.yaml"), *args)
    assert fragment in message
    assert "see 'gongzhu-score score --help'" in message


BAD_FILES = [
    (FOUR.replace("captured: [JD]", "captued: [JD]"),
     "players[2]: unknown key 'captued' (allowed: name, captured, exposed, first_exposed, claimed); "
     "did you mean 'captured'?"),
    ("varient: classic\n" + FOUR,
     "unknown key 'varient' (allowed: variant, teams, players); did you mean 'variant'?"),
    (FOUR.replace("[QS, 10C]", "[QS, 10C, 10]"),
     "players[1] (东): captured: unknown card '10' (a rank with no suit; write e.g. 10H or 10S)"),
    (FOUR.replace("[QS, 10C]", "[QS, 10C, 红A]"),
     "players[1] (东): captured: unknown card '红A'; did you mean '红桃A' (A♥)?"),
    (FOUR.replace("name: 北", "name: ''"), "players[4]: name must be a non-empty name, not ''"),
    (FOUR.replace("name: 北", "name: 东"), "two players are named '东'; names must differ"),
    ("players:\n  - {name: 东, captured: [QS, 10C]\n", "line 3, column 1: invalid YAML"),
    ("a: &x [QS]\nplayers: *x\n", "line 1, column 4: YAML anchors and aliases are not allowed here"),
    ("players: " + "[" * 40 + "]" * 40 + "\n", "nested more than 8 levels deep"),
    ("players: {东: [QS], 东: [JD]}\n", "line 1: key '东' given twice"),
    ("- QS\n- JD\n", "a hand file holds a mapping with 'players', not list"),
    ("", "a hand file holds a mapping with 'players', not empty"),
    ("variant: classic\n", "missing 'players': list the four players in seat order"),
    ("players: 东 南 西 北\n", "players must be a list (or a mapping by name) of four players"),
    (FOUR + "---\n" + FOUR, "invalid YAML: expected a single document in the stream, but found another document"),
    ("players: !!python/object:os.system {}\n", "invalid YAML: could not determine a constructor"),
    (FOUR.replace("[QS, 10C]", "{a: 1}"), "players[1] (东): captured: expected a list of cards"),
    (FOUR.replace("{name: 北, captured: []}", "{name: 北, captured: [], exposed: [KS]}"),
     "player 北: cannot expose KS (K♠)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_bad_hand_files_name_the_file(tmp_path: object, text: str, message: str) -> None:
    path = write(tmp_path, text)
    got = refused("score", path)
    assert got.startswith(f"{path}: ")
    assert message in got


def test_missing_file() -> None:
    assert refused("score", "no/such/hand.yaml") == "no/such/hand.yaml: no such file"


def test_a_folder_is_not_a_hand_file(tmp_path: object) -> None:
    assert refused("score", str(tmp_path)).endswith("is a folder, not a hand file")


def test_file_over_a_megabyte_is_refused_unread(tmp_path: object) -> None:
    path = write(tmp_path, "# " + "x" * 1_000_001 + "\n" + FOUR)
    assert "larger than 1,000,000 bytes" in refused("score", path)


def test_file_that_is_not_utf8(tmp_path: object) -> None:
    path = write(tmp_path, FOUR.encode("gb18030"))
    assert "not UTF-8 text" in refused("score", path)


def test_utf8_bom_is_fine(tmp_path: object) -> None:
    path = write(tmp_path, b"\xef\xbb\xbf" + FOUR.encode("utf-8"))
    assert players(ok("score", path, "-f", "json"))[0][1] == -200


def test_file_and_flags_together(tmp_path: object) -> None:
    message = refused("score", write(tmp_path, FOUR), "-c", "东=QS")
    assert message.startswith("give the hand either as a file or with --captured")


def test_yaml_traps_names_like_no_and_on_stay_text(tmp_path: object) -> None:
    text = FOUR.replace("name: 东", "name: no").replace("name: 南", "name: on")
    out = ok("score", write(tmp_path, text), "-f", "json")
    assert [p[0] for p in players(out)] == ["no", "on", "西", "北"]


def test_mapping_form_of_players(tmp_path: object) -> None:
    text = "players:\n  东: {captured: [QS, 10C], exposed: [QS]}\n  南: [JD]\n  西: 全红\n  北:\n"
    assert players(ok("score", write(tmp_path, text), "-f", "json"))[0][1] == -400


def test_stdin_errors_say_stdin() -> None:
    assert refused("score", "-", input="players: [1]\n").startswith("<stdin>: players[1]")


def test_variants_show_unknown() -> None:
    assert refused("variants", "show", "jjj").startswith("unknown variant 'jjj'")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "name",
    ["seed_minus_400.yaml", "seed_grand_slam.yaml", "two_deck_seed_minus_3200.yaml",
     "seed_partners.yaml", "dehong.yaml", "first_exposed.yaml"],
)  # fmt: skip
def test_the_cards_a_table_prints_read_back_as_the_same_cards(name: str, lang: str) -> None:
    from gongzhu_score import parse_cards

    data = json.loads(ok("score", sample(name), "-f", "json"))
    decks = 2 if data["variant"] == "two-deck" else 1
    table = ok("score", sample(name), "--lang", lang, "--table-format", "tsv").splitlines()
    header = next(i for i, line in enumerate(table) if "\t" in line)
    rows = [line.split("\t") for line in table[header + 1 : header + 5]]
    headers = [cell.strip() for cell in table[header].split("\t")]
    column = headers.index("分牌" if lang == "zh" else "scoring cards")
    for row, player in zip(rows, data["players"], strict=True):
        printed = row[column].strip()
        assert sorted(c.code for c in parse_cards(printed, decks)) == sorted(
            player["scoring_cards"]
        ), printed
