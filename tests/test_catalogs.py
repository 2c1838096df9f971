"""Words in catalogs (issue 33): every text a person reads is in each language's catalog, with
the same values to fill in; the catalogs and docs/cli.md are what the program makes them; a
language is a catalog and no code (Traditional Chinese the proof), chosen by ``--lang``, by
``GONGZHU_LANG`` or by the locale."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from clitools import SAMPLES, run
from regenerate import catalogs, main, template

from gongzhu_score.terms import LANGS, choose_lang, say

CATALOGS = list(catalogs())
HAND = str(SAMPLES / "seed_minus_400.yaml")


def read(po: Path) -> Any:
    with po.open("rb") as file:
        return read_po(file)


def test_the_template_the_catalogs_and_the_reference_are_what_the_program_makes() -> None:
    assert main(check=True) == 0, "run python tests/regenerate.py (then translate what it adds)"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_every_text_has_its_translation_in_every_catalog(po: Path) -> None:
    catalog = read(po)
    missing = []
    for message in template():
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        if found is None or not found.string:
            missing.append(f"no translation: {message.context or ''} {message.id!r}")
        elif found.fuzzy:
            missing.append(f"fuzzy (its English changed): {message.context or ''} {message.id!r}")
    assert not missing, f"{po}:\n" + "\n".join(missing)


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_a_translation_fills_in_the_values_its_english_names(po: Path) -> None:
    # A translation names no value its English does not give; one that leaves a value out (the
    # code beside a card, where the language names the card itself) says so: "drops: code".
    wrong = []
    for message in read(po):
        if not message.id or not message.string or "{" not in message.id + message.string:
            continue
        english, said = fields(message.id), fields(message.string)
        dropped = {w for c in message.user_comments if c.startswith("drops:")
                   for w in c.removeprefix("drops:").split()}  # fmt: skip
        if said - english or english - said != dropped:
            wrong.append(f"{message.context}: English {sorted(english)}, translation "
                         f"{sorted(said)}, said to drop {sorted(dropped)}")  # fmt: skip
    assert not wrong, f"{po}:\n" + "\n".join(wrong)


def test_a_language_is_a_catalog() -> None:
    folders = sorted(p.parent.parent.name.replace("_", "-") for p in CATALOGS)
    assert ("en", *folders) == LANGS and "zh-Hant" in LANGS


def test_traditional_chinese_says_the_jj_texts_words() -> None:
    # The JJ rules (jj.cn) write 紅桃, 豬, 羊, 變壓器, 亮牌/賣牌, 全紅, 滿貫, 首引, 對家.
    words = {key: say(key, "zh-Hant") for key in ("suit.H", "nickname.QS", "nickname.JD",
             "nickname.10C", "exposed", "full_red", "grand_slam", "rule.first_lead")}  # fmt: skip
    assert words == {"suit.H": "紅桃", "nickname.QS": "豬", "nickname.JD": "羊",
                     "nickname.10C": "變壓器", "exposed": "亮牌", "full_red": "全紅",
                     "grand_slam": "滿貫", "rule.first_lead": "首引"}  # fmt: skip
    assert "對家" in say("teams.partners", "zh-Hant")


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_HK.UTF-8"}, "zh-Hant"),
        ({"LANG": "zh_Hant_TW.UTF-8"}, "zh-Hant"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh-Hant"),
        ({"LANGUAGE": "zh_TW:zh", "LANG": "en_US.UTF-8"}, "zh-Hant"),
        ({"GONGZHU_LANG": "zh", "LANG": "zh_TW.UTF-8"}, "zh"),
        ({"GONGZHU_LANG": "zh-Hant"}, "zh-Hant"),
        ({"GONGZHU_LANG": "fr", "LANG": "zh_TW"}, "zh-Hant"),
    ],
)
def test_the_language_is_the_one_asked_else_the_environments(
    environ: dict[str, str], lang: str
) -> None:
    assert choose_lang(None, environ) == lang
    assert choose_lang("en", environ) == "en"  # (--lang wins)


def test_a_taiwanese_locale_speaks_traditional_chinese_everywhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("GONGZHU_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    table = run("score", HAND).stdout
    assert "紅桃2 3 4 5 7 9 A" in table and "最後得分" in table
    assert run("score", "--help").stdout.startswith("用法：gongzhu-score score [選項]")
    said = run("score", "-c", "东=紅桃Z", "-c", "南=", "-c", "西=", "--rest", "北").stderr
    assert said.startswith("錯誤：")
    assert run("score", HAND, "--lang", "zh").stdout != table  # (--lang wins: Simplified)
    assert run("score", HAND, "--lang", "zh-Hant").stdout == table
