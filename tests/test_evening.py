"""A whole evening at a Chinese table (issue 22's "Done when"): a match typed at the prompts of a
real pseudo-terminal, in Chinese, to its end, with the mistakes a table makes (a card given to
two players, a word that is no card, a near miss, the rest on a middle seat), one line of a hand
edited afterwards; every screen's totals are checked against the end line, computed here from
the same hands given as flags."""

from __future__ import annotations

import json
import re
from pathlib import Path

from clitools import at_a_terminal, run

NAMES = ["老王", "小李", "阿芳", "大刘"]
END = -1000
ENV = {"GONGZHU_LANG": "zh"}

# Each hand: what is typed at the prompts (mistakes included) and the same hand as flags.
EVENING = [
    (  # 小李 types the pig 老王 already has: refused, asked again
        ["猪 变压器 红桃6 8 10 J", "红桃2 3 4 5 7 9 A 猪", "红桃2 3 4 5 7 9 A", "羊 红桃Q K", "",
         "小李=红桃A", "", "y"],
        ["-c", "老王=猪 变压器 红桃6 8 10 J", "-c", "小李=红桃2 3 4 5 7 9 A", "-c", "阿芳=羊 红桃Q K",
         "-c", "大刘=", "-e", "小李=红桃A"],
    ),
    (  # the rest on a middle seat (小李), typed before the seats after it
        ["猪 变压器", "其余", "羊", "红桃K", "老王=猪", "", "y"],
        ["-c", "老王=猪 变压器", "-c", "小李=", "-c", "阿芳=羊", "-c", "大刘=红桃K", "--rest", "小李",
         "-e", "老王=猪"],
    ),
    (  # 猪圈 is no card (K♠ A♠): refused by name; 红2-10, a near miss: refused, suggested
        ["猪圈", "猪", "红2-10", "红桃2-10", "羊 变压器", "其余", "", "", "y"],
        ["-c", "老王=猪", "-c", "小李=红桃2-10", "-c", "阿芳=羊 变压器", "-c", "大刘=", "--rest", "大刘"],
    ),
    (  # 老王 goes past the end line
        ["猪 变压器 红桃A", "羊", "其余", "", "", "", "y"],
        ["-c", "老王=猪 变压器 红桃A", "-c", "小李=羊", "-c", "阿芳=", "-c", "大刘=", "--rest", "阿芳"],
    ),
]  # fmt: skip


def raws_of(flags: list[str]) -> list[int]:
    r = run("score", *flags, "--format", "json")
    assert r.exit_code == 0, r.stderr
    return [p["raw"] for p in json.loads(r.stdout)["players"]]


DECIDING = re.compile(r"原始分合计（决定终局：到 (-?\d+) 或以下即结束）：\n((?:  .*\n){4})")


def deciding_totals(screen: str) -> tuple[int, dict[str, tuple[int, str]]]:
    """The end line and, per player, the deciding total and what is said of it, as shown."""
    found = DECIDING.findall(screen)
    assert found, screen
    line, block = found[-1]
    rows = {}
    for row in block.splitlines():
        name, total, said = re.match(r"\s+(\S+)\s+(-?\d+)\s+(.*)", row).groups()  # type: ignore[union-attr]
        rows[name] = (int(total), said.strip())
    return int(line), rows


def test_a_chinese_evening_at_the_prompts_to_the_end_and_one_line_edited(tmp_path: Path) -> None:
    env = {**ENV, "XDG_STATE_HOME": str(tmp_path / "state")}
    new = at_a_terminal(["match", "new", "牌局.yaml", "-p", ",".join(NAMES)], b"", tmp_path, env)
    assert new.returncode == 0, new.stderr.decode()
    ledger = tmp_path / "牌局.yaml"
    totals = [0, 0, 0, 0]
    for number, (typed, flags) in enumerate(EVENING, 1):
        before = ledger.read_bytes()
        done = at_a_terminal(["match", "add"], ("\n".join(typed) + "\n").encode(), tmp_path, env)
        screen = done.stdout.decode() + done.stderr.decode()
        assert done.returncode == 0, screen
        assert ledger.read_bytes() != before
        assert "比赛：牌局.yaml" in done.stderr.decode()  # the current match, said
        totals = [t + r for t, r in zip(totals, raws_of(flags), strict=True)]
        line, shown = deciding_totals(screen)
        assert line == END
        for name, total in zip(NAMES, totals, strict=True):
            assert shown[name][0] == total, (number, name, screen)
            if total > END:
                assert shown[name][1] == f"还差 {total - END} 分", (number, name)
            else:
                assert shown[name][1] == "已过终局线", (number, name)
        if number == 1:  # the pig given twice: refused, the line asked again
            assert "猪已经是老王的了；请重新输入小李的牌" in screen
        if number == 3:  # a word that is no card refused by name; a near miss, the fix suggested
            assert "错误：'猪圈' 不是分牌" in screen and "（黑桃K A）" in screen
            assert "是不是要写 '红桃2-10'（红桃2 3 4 5 6 7 8 9 10）？" in screen
    assert totals[0] <= END < min(totals[1:])
    shown_end = run("match", "show", str(ledger), "--format", "json")
    data = json.loads(shown_end.stdout)
    assert data["ended"] and data["loser"] == "老王"
    assert data["totals"]["raw"] == totals
    # the match is over: a fifth hand is refused, the ledger as it was
    before = ledger.read_bytes()
    typed, _ = EVENING[0]
    late = at_a_terminal(["match", "add"], ("\n".join(typed) + "\n").encode(), tmp_path, env)
    assert late.returncode == 2
    assert late.stderr.decode().count("错误：") >= 1
    assert ledger.read_bytes() == before
    # hand 2's exposure taken back: only that line typed again, the new totals shown
    edited = at_a_terminal(["match", "edit", "2"], b"5\n-\ny\n", tmp_path, env)
    screen = edited.stdout.decode() + edited.stderr.decode()
    assert edited.returncode == 0, screen
    flags = EVENING[1][1][: EVENING[1][1].index("-e")]
    was, now = raws_of(EVENING[1][1]), raws_of(flags)
    totals = [t - w + n for t, w, n in zip(totals, was, now, strict=True)]
    _, shown = deciding_totals(screen)
    assert [shown[n][0] for n in NAMES] == totals
    data = json.loads(run("match", "show", str(ledger), "--format", "json").stdout)
    assert data["totals"]["raw"] == totals
    assert data["to_go"][1:] == [t - END for t in totals[1:]]
