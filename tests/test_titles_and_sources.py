"""Small ones of issue 22: a rule set says where its rules come from in words a player knows
(the texts' names and the rulebook's sections, never seed numbers), and a house rule with no
title prints no empty brackets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clitools import ok, sample

from gongzhu_score import VARIANTS


def test_every_built_in_rule_set_names_its_text_and_the_rulebook() -> None:
    listed = json.loads(ok("variants", "--format", "json"))
    assert {v["name"] for v in listed} == set(VARIANTS)
    for v in listed:
        assert "seed" not in v["source"], v
        assert "rulings §" in v["source"], v
        assert any("\u4e00" <= c <= "\u9fff" for c in v["source"]), v  # the text's own name
    for lang in ("en", "zh"):
        assert "seed" not in ok("variants", "--lang", lang)
        assert "seed" not in ok("variants", "show", "two-deck", "--lang", lang)


@pytest.mark.parametrize(
    ("titles", "en", "zh"),
    [
        ("", "我们", "我们"),
        ("title: Ours\n", "我们 (Ours)", "我们 (Ours)"),  # one title only: shown in both
        ("title_zh: 我们的规则\n", "我们 (我们的规则)", "我们 (我们的规则)"),
        ("title: Ours\ntitle_zh: 我们的规则\n", "我们 (Ours)", "我们 (我们的规则)"),
    ],
)
def test_a_house_rule_without_a_title_prints_no_empty_brackets(
    tmp_path: Path, titles: str, en: str, zh: str
) -> None:
    rules = tmp_path / "ours.yaml"
    rules.write_text(f"extends: classic\nname: 我们\n{titles}", encoding="utf-8")
    hand = [sample("seed_minus_400.yaml"), "--rules", str(rules)]
    assert ok("score", *hand).splitlines()[0] == f"variant: {en}"
    assert ok("score", *hand, "--lang", "zh").splitlines()[0] == f"规则：{zh}"
    explained = ok("explain", *hand).splitlines()[0]
    assert explained == f"Rules: {en}"
    said = ok("explain", *hand, "--lang", "zh").splitlines()[0]
    assert said == "规则：" + zh.replace(" (", "（").replace(")", "）")
    for line in (explained, said):
        assert "()" not in line and "（）" not in line
