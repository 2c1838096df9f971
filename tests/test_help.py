"""Every language all the way (issues 22, 33): every command's and option's ``--help`` in the
language asked (``--lang``, else ``GONGZHU_LANG``, else the locale's; English the default), laid
out by Rich in display cells, one error prefix per language, Click's usage errors in the
language, and one card notation per language that reads back. (That every help text has its
translation in every catalog is tests/test_catalogs.py's.)"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from clitools import SAMPLES, golden, loaded_by, run
from hypothesis import given
from hypothesis import strategies as st
from wcwidth import wcswidth

from gongzhu_score.cli import app
from gongzhu_score.render.fit import columns
from gongzhu_score.render.help import said_in
from gongzhu_score.terms import LANGS

HAND = str(SAMPLES / "seed_minus_400.yaml")
LEDGER = str(SAMPLES / "match" / "ledger.yaml")
CJK = re.compile(r"[\u4e00-\u9fff]")
OTHERS = [lang for lang in LANGS if lang != "en"]


def tree() -> Iterator[tuple[str, Any, Any]]:
    """(path, command, context) for the root and every command under it."""

    def walk(command: Any, name: str, parent: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
        ctx = command.context_class(command, info_name=name, parent=parent,
                                    **command.context_settings)  # fmt: skip
        yield path, command, ctx
        for sub in command.list_commands(ctx) if hasattr(command, "list_commands") else []:
            yield from walk(command.get_command(ctx, sub), sub, ctx, f"{path} {sub}".strip())

    yield from walk(typer.main.get_command(app), "gongzhu-score", None, "")


LONG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


@pytest.mark.parametrize("lang", OTHERS)
def test_each_translated_text_names_the_options_its_english_does(lang: str) -> None:
    # An English text changed to tell of an option (or to stop telling of one) and the
    # translation left as it was: the two no longer say the same.
    differ = []
    for path, command, ctx in tree():
        texts = [command.help or "", *(p.help or "" for p in command.get_params(ctx))]
        for english in texts:
            said = said_in(english, lang)
            if set(LONG.findall(english)) != set(LONG.findall(said)):
                differ.append(f"gongzhu-score {path}: {english[:40]!r}: English names "
                              f"{sorted(set(LONG.findall(english)))}, {lang} "
                              f"{sorted(set(LONG.findall(said)))}")  # fmt: skip
    assert not differ, "\n".join(differ)


def examples(text: str) -> Iterator[str]:
    """The command lines of a help text's examples: continued lines joined, the remarks after
    them (``  （在终端上：…）``) and what a shell would do with them (``| …``, ``> …``) dropped."""
    joined = re.sub(r"\\\n\s*", "", text)
    for line in joined.splitlines():
        line = line.strip()
        if "gongzhu-score " not in line:
            continue
        line = line[line.index("gongzhu-score ") :]
        line = re.split(r"\s{2,}[（(]| \| | > ", line)[0]
        if not re.search(r"'[^']*gongzhu-score", line):  # (a command quoted within a sentence)
            yield line


@pytest.mark.parametrize("lang", LANGS)
def test_every_example_in_the_help_is_a_command_line_the_program_takes(lang: str) -> None:
    root = typer.main.get_command(app)
    bad = []
    count = 0
    for path, command, _ in tree():
        for line in examples(said_in(command.help or "", lang)):
            words = shlex.split(line)[1:]
            command, ctx = root, root.context_class(root, info_name="gongzhu-score")
            while words and hasattr(command, "get_command") and command.get_command(ctx, words[0]):
                name, words = words[0], words[1:]
                command = command.get_command(ctx, name)
                ctx = command.context_class(command, info_name=name, parent=ctx)
            try:
                command.make_context(ctx.info_name, words, parent=ctx.parent)
                count += 1
            except Exception as e:  # a Click usage error, in any Typer's copy of Click
                bad.append(f"gongzhu-score {path}: {line!r}: {e}")
    assert not bad, "\n".join(bad)
    assert count >= 40  # (the examples were found)


# --- the help pages -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [("zh_root", []), ("zh_score", ["score"]), ("zh_variants_show", ["variants", "show"]),
     ("zh_replay", ["replay"]), ("zh-Hant_score", ["score"]), ("zh-Hant_match_add", ["match", "add"])],
)  # fmt: skip
def test_a_chinese_help_page(name: str, args: list[str]) -> None:
    r = run(*args, "--help", "--lang", name.split("_")[0])
    assert r.exit_code == 0 and r.stderr == ""
    golden(f"help_{name}.txt", r.stdout)


def test_help_is_in_the_language_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    english = run("score", "--help").stdout
    chinese = run("score", "--help", "--lang", "zh").stdout
    assert english.startswith("Usage: gongzhu-score score [OPTIONS] [HAND.yaml]")
    assert chinese.startswith("用法：gongzhu-score score [选项] [牌局.yaml]")
    assert "选项：" in chinese and "参数：" in chinese and "Options:" not in chinese
    assert run("score", "--lang=zh", "--help").stdout == chinese
    assert run("--lang", "zh", "score", "--help").stdout == chinese  # before the command too
    monkeypatch.setenv("GONGZHU_LANG", "zh")
    assert run("score", "--help").stdout == chinese
    assert run("score", "--help", "--lang", "en").stdout == english
    for args in ([], ["match"], ["variants"], ["match", "add"]):
        assert run(*args, "--help").stdout.startswith("用法：gongzhu-score")


def test_a_group_takes_the_language_before_its_command(monkeypatch: pytest.MonkeyPatch) -> None:
    # `gongzhu-score --lang zh score …` is `gongzhu-score score … --lang zh`.
    assert run("--lang", "zh", "score", HAND).stdout == run("score", HAND, "--lang", "zh").stdout
    shown = run("--lang", "zh", "match", "show", LEDGER).stdout
    assert shown == run("match", "show", LEDGER, "--lang", "zh").stdout
    assert "原始分" in shown
    assert run("--lang=zh", "--help").stdout.startswith("用法：")


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_of_the_help_fits_the_width_and_loses_nothing(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tests' terminal is 100 columns wide, a Chinese character two of them. Folded to fit,
    # a page keeps every character it has when nothing needs folding; and there, each text is
    # on it whole.
    def page(path: str, width: int) -> str:
        monkeypatch.setenv("COLUMNS", str(width))
        monkeypatch.setenv("GONGZHU_LANG", lang)  # (match export has no --lang)
        r = run(*path.split(), "--help")
        assert r.exit_code == 0, r.stderr
        return r.stdout

    from rich.cells import cell_len

    for path, command, ctx in tree():
        narrow, wide = page(path, 100), page(path, 2000)
        long = [line for line in narrow.splitlines() if wcswidth(line) > 100]
        assert not long, (path, long)
        # Rich folds the page's texts: it measures each of its lines as the package does.
        unlike = [line for line in wide.splitlines() if cell_len(line) != columns(line)]
        assert not unlike, (path, unlike)
        assert sorted(re.sub(r"\s", "", narrow)) == sorted(re.sub(r"\s", "", wide)), path
        one = re.sub(r"[ \n]+", " ", wide)
        for param in command.get_params(ctx):
            if param.help:
                assert re.sub(r"[ \n]+", " ", said_in(param.help, lang)) in one, (path, param.name)


# --- errors: one prefix per language, Click's words in Chinese ----------------------------------

# Click's usage errors, with what the Chinese says.
USAGE_ERRORS = [
    (["score", "--bogus"], "没有这个选项：--bogus"),
    (["score", "--captur", "x"], "没有这个选项：--captur；是不是要写 --captured？"),
    (["score", HAND, "extra"], "多余的参数：extra"),
    (["scor"], "没有这个命令：'scor'；是不是要写 'score'？"),
    (["replay"], "缺少参数 '记录.yaml'"),
    (["score", "--scale", "x"], "'--scale' 的值无效：'x' 不是整数"),
    (["score", "--scale", "0"], "'--scale' 的值无效"),
    (["score", "--normalize", "foo"], "'--normalize' 的值无效：'foo' 不是 'none'、'zero-sum'、'jj' 之一"),
    (["score", "--partial=3"], "选项 '--partial' 不带值"),
    (["score", "-f", "bogus"], "--format：'bogus'：这个命令只输出 table、json、csv、yaml"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "said"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS])
def test_clicks_usage_errors_are_said_in_chinese(args: list[str], said: str) -> None:
    r = run(*args, "--lang", "zh")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr.startswith(f"错误：{said}"), r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert not re.search(r"\b(Invalid|Missing|such|Got|unexpected|Usage|Try)\b", r.stderr)
    english = run(*args)
    assert english.exit_code == 2 and english.stderr.startswith("error: ")
    assert not CJK.search(english.stderr.replace("'gongzhu-score", "").split("(see")[0][:12])


def test_the_help_hint_is_said_in_the_language() -> None:
    assert run("score", "--bogus", "--lang", "zh").stderr.endswith(
        "（见 'gongzhu-score score --help'）\n"
    )
    assert run("score", "--bogus").stderr.endswith(" (see 'gongzhu-score score --help')\n")


def test_one_error_prefix_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = ["score", "-c", "东=QX", "-c", "南=", "-c", "西=", "--rest", "北"]
    assert run(*bad).stderr.startswith("error: --captured 东: ")
    assert run(*bad, "--lang", "zh").stderr.startswith("错误：--captured 东：")
    monkeypatch.setenv("GONGZHU_LANG", "zh")
    assert run(*bad).stderr.startswith("错误：")
    assert run("score", "--bogus").stderr.startswith("错误：没有这个选项")
    assert run(*bad, "--lang", "en").stderr.startswith("error: ")


def test_a_change_made_whose_output_fails_says_so_in_chinese(tmp_path: Any) -> None:
    ledger = str(tmp_path / "m.yaml")
    run("match", "new", ledger, "-p", "东,南,西,北")
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "gongzhu_score", "match", "add", ledger,
                            str(SAMPLES / "match" / "hand1.yaml"), "--lang", "zh"],
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)  # fmt: skip
    assert r.returncode == 4
    assert r.stderr.startswith("错误：") and "修改已完成" in r.stderr, r.stderr


# --- start-up: what help needs is loaded only when it is shown ------------------------------------


def test_rich_is_loaded_only_to_show_help() -> None:
    assert "rich" not in loaded_by("score", HAND, "--lang", "zh")
    assert "rich" not in loaded_by("score", "--bogus", "--lang", "zh")  # (a usage error)
    assert "rich" in loaded_by("score", "--help", "--lang", "zh")


def test_a_language_before_the_command_builds_only_that_command() -> None:
    assert "gongzhu_score.cli.match" not in loaded_by("--lang", "zh", "score", HAND)
    assert "gongzhu_score.cli.match" not in loaded_by("--lang=zh", "score", "--help")
    for args in (["--lang", "zh", "score", HAND], ["--lang", "zh", "match", "show", LEDGER],
                 ["--lang=zh", "scor"], ["--lang", "zh"]):  # fmt: skip
        real = subprocess.run([sys.executable, "-m", "gongzhu_score", *args], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        whole = run(*args)
        assert (real.returncode, real.stdout, real.stderr) == (whole.exit_code, whole.stdout,
                                                               whole.stderr)  # fmt: skip


# --- one card notation and one list separator per language ----------------------------------------
#
# "One notation" means: Chinese output names every card in Chinese, a suit's word and the rank
# (黑桃Q, 红桃6 8 10: a run of one suit says the suit once), the three special cards among
# scoring cards by their names (猪 羊 变压器), and never a suit symbol (♠♥♦♣) nor a letter code
# (QS, 10C); its lists are joined with 、. English output writes every card as its symbol (Q♠,
# 10♣), never a Chinese suit word nor a letter code, and joins lists with ", ". (Command lines
# printed to be typed again keep the codes in English, and in Chinese the names: both read
# back; a rule set's title and source are its data, in its own words. An English error names a
# card as its code and its symbol, ``10C (10♣)``, as the contract's examples do.)

SYMBOL = re.compile(r"[♠♥♦♣]")
CODE = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[SHDC](?![A-Za-z0-9])")
SUIT_WORD = re.compile(r"黑桃|红桃|紅桃|方块|方塊|梅花")
RECORDS = sorted({*SAMPLES.glob("*record*.yaml"), *SAMPLES.glob("claim_*.yaml"),
                  *SAMPLES.parent.glob("docs/examples/*.yaml")})  # fmt: skip
HANDS = sorted(set(SAMPLES.glob("*.yaml")) - set(RECORDS))


def outputs(lang: str) -> Iterator[tuple[str, str]]:
    """(command, what it prints) for the samples: every hand scored, explained and compared,
    every record replayed, the match shown and explained hand by hand, every rule set shown."""
    commands = [["score", str(h)] for h in HANDS] + [["explain", str(h)] for h in HANDS]
    commands += [["compare", str(h)] for h in HANDS] + [["replay", str(r)] for r in RECORDS]
    commands += [["match", "show", LEDGER]] + [["match", "show", LEDGER, n] for n in "123"]
    commands += [["explain", LEDGER, n] for n in "123"]
    commands += [["variants", "show", name] for name in ("classic", "online", "dehong", "jj",
                                                       "two-deck")]  # fmt: skip
    for args in commands:
        r = run(*args, "--lang", lang)
        lines = [line for line in (r.stdout + r.stderr).splitlines()
                 if not re.match(r"(说明 title|出处 source|說明 title|出處 source|title|source)\b",
                                 line)]  # fmt: skip
        yield " ".join(args), "\n".join(lines)


@pytest.mark.parametrize("lang", OTHERS)
def test_chinese_output_writes_every_card_and_list_one_way(lang: str) -> None:
    mixed = []
    for command, text in outputs(lang):
        for what, pattern in (("a suit symbol", SYMBOL), ("a letter code", CODE),
                              ("an English list", re.compile(r"\S, \S"))):  # fmt: skip
            found = pattern.search(text)
            if found:
                line = text[text.rfind("\n", 0, found.start()) + 1 : text.find("\n", found.end())]
                mixed.append(f"{command}: {what}: {line}")
    assert not mixed, "\n".join(mixed)


def test_english_output_writes_every_card_and_list_one_way() -> None:
    mixed = []
    for command, text in outputs("en"):
        text = "\n".join(line for line in text.splitlines() if not line.startswith("error: "))
        for what, pattern in (("a Chinese suit word", SUIT_WORD), ("a letter code", CODE),
                              ("a Chinese list", re.compile("[、，]"))):  # fmt: skip
            found = pattern.search(text)
            if found:
                line = text[text.rfind("\n", 0, found.start()) + 1 : text.find("\n", found.end())]
                mixed.append(f"{command}: {what}: {line}")
    assert not mixed, "\n".join(mixed)


def test_a_suggestion_names_its_cards_in_the_language() -> None:
    def said(token: str, *lang: str) -> str:
        return run("score", "-c", f"东={token}", "-c", "南=", "-c", "西=", "--rest", "北",
                   *lang).stderr  # fmt: skip

    assert said("红A", "--lang", "zh").endswith("是不是要写 '红桃A'？\n")  # (it says the cards)
    assert said("红A").endswith("did you mean '红桃A' (A♥)?\n")
    assert "是不是要写 '红桃2-10'（红桃2 3 4 5 6 7 8 9 10）？" in said("红2-10", "--lang", "zh")
    assert "did you mean '红桃2-10' (2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥)?" in said("红2-10")


@given(st.lists(st.sampled_from([str(c) for c in range(2, 11)] + list("JQKA")), max_size=8),
       st.lists(st.sampled_from("SHDC"), max_size=8))  # fmt: skip
def test_every_card_list_printed_reads_back(ranks: list[str], suits: list[str]) -> None:
    from gongzhu_score.core.cards import parse_cards
    from gongzhu_score.terms import card_names

    cards = parse_cards(" ".join(r + s for r, s in zip(ranks, suits, strict=False)))
    for lang in LANGS:
        assert parse_cards(card_names(cards, lang)) == cards
