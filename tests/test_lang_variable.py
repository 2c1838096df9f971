"""``GONGZHU_LANG``, the tool's own variable, read as people write a language (issue 55): every
spelling of the three languages speaks that language, anything else is refused in one line
naming the value and the choices (exit 2), and the locale's variables stay a quiet fallback.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from clitools import run
from hypothesis import given, settings
from hypothesis import strategies as st
from serving import command

HAND = ("score", "-c", "东=QS", "-c", "南=", "-c", "西=", "--rest", "北")
FIRST_LINE = {
    "en": "variant: classic (Classic one-deck rules)",
    "zh": "规则：classic (一副牌规则)",
    "zh-Hant": "規則：classic (一副牌規則)",
}
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

# What the issue asks to be read, written out here on its own (not by the code under test).
_REGION = r"(?:[a-z]{2}|[0-9]{3})"
_UTF8 = r"(?:\.utf[-_]?8)?"
_SPELLED = {
    "zh": re.compile(rf"zh(?:[-_](?:cn|sg|hans))?|zh[-_]hans[-_]{_REGION}"),
    "zh-Hant": re.compile(rf"zh[-_](?:hant|tw|hk|mo)|zh[-_]hant[-_]{_REGION}"),
    "en": re.compile(rf"en(?:[-_]{_REGION})?"),
}


def spoken(value: str) -> str | None:
    """The language the issue says ``value`` names, or None."""
    found = re.fullmatch(rf"(.*?){_UTF8}", value, re.IGNORECASE | re.ASCII | re.DOTALL)
    assert found is not None
    for lang, pattern in _SPELLED.items():
        if re.fullmatch(pattern.pattern, found.group(1), re.IGNORECASE | re.ASCII):
            return lang
    return None


def scored(value: str) -> tuple[int, str, str]:
    result = run(*HAND, env={"GONGZHU_LANG": value, **dict.fromkeys(LOCALE)})
    return result.exit_code, result.stdout, result.stderr


def _cased(text: str, flips: list[bool]) -> str:
    flips = (flips + [False] * len(text))[: len(text)]
    return "".join(c.upper() if f else c for c, f in zip(text, flips, strict=True))


@st.composite
def spellings(draw: st.DrawFn) -> str:
    """A spelling of one of the three languages, as a person may write it."""
    core = draw(st.sampled_from([
        "zh", "zh_cn", "zh_sg", "zh_hans", "zh_hant", "zh_tw", "zh_hk", "zh_mo", "en",
        "zh_hans_{r}", "zh_hant_{r}", "en_{r}",
    ]))  # fmt: skip
    region = draw(st.from_regex(r"[a-z]{2}|[0-9]{3}", fullmatch=True))
    text = core.format(r=region).replace("_", draw(st.sampled_from(["_", "-"])))
    text = _cased(text, draw(st.lists(st.booleans(), max_size=len(text))))
    suffix = draw(st.sampled_from(["", ".UTF-8", ".utf8", ".utf-8", ".Utf-8", ".UTF8"]))
    return text + suffix


_NEAR = ["fr", "zh_FR", "zh.GBK", "en_US.ISO-8859-1", "zh-", "zhx", "english", "zh_Hans_",
         "C", "POSIX", "zh_CN@pinyin", " zh", "zh ", "zh__CN", "de_DE.UTF-8", "ja",
         "zh_h\u212a"]  # fmt: skip
others = st.one_of(
    st.sampled_from(_NEAR),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
            min_size=1, max_size=12),
    spellings().map(lambda s: s + "x"),
    spellings().map(lambda s: "x" + s),
).filter(lambda v: spoken(v) is None)  # fmt: skip


@settings(max_examples=120, deadline=None)
@given(value=spellings())
def test_every_spelling_speaks_its_language(value: str) -> None:
    lang = spoken(value)
    assert lang is not None, value
    code, out, err = scored(value)
    assert code == 0, (value, err)
    assert out.splitlines()[0] == FIRST_LINE[lang], (value, out)


@settings(max_examples=150, deadline=None)
@given(value=others)
def test_anything_else_is_refused_in_one_line(value: str) -> None:
    code, out, err = scored(value)
    assert code == 2, (value, out)
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert err.startswith("error: GONGZHU_LANG=") and "is no language this tool speaks" in err
    assert "en, zh, zh-Hant" in err


def real(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in (*LOCALE, "GONGZHU_LANG")}
    return subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60,
                          env={**base, **env})  # fmt: skip


@pytest.mark.parametrize(
    ("value", "lang"),
    [("zh_CN", "zh"), ("zh-CN", "zh"), ("zh-Hans", "zh"), ("zh-TW", "zh-Hant"), ("ZH", "zh"),
     ("zh_HK.UTF-8", "zh-Hant"), ("en_US.utf8", "en")],
)  # fmt: skip
def test_the_issue_s_spellings_in_a_real_process(value: str, lang: str) -> None:
    done = real({"GONGZHU_LANG": value}, *HAND)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == FIRST_LINE[lang]


def test_an_unknown_value_is_refused_and_the_locale_stays_quiet() -> None:
    done = real({"GONGZHU_LANG": "fr"}, *HAND)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "error: GONGZHU_LANG='fr' is no language this tool speaks: set it to one of en, zh, "
        "zh-Hant (a locale of one is read too: zh_CN, zh-Hans, zh_TW, zh-Hant, en_US.UTF-8), "
        "or unset it\n"
    )
    said = real({"GONGZHU_LANG": "fr", "LANG": "zh_CN.UTF-8"}, *HAND)  # (said in the locale's)
    assert said.returncode == 2 and said.stderr.startswith("错误：GONGZHU_LANG='fr' ")
    assert real({"GONGZHU_LANG": "fr"}, *HAND, "--lang", "en").returncode == 0  # (--lang wins)
    assert real({"GONGZHU_LANG": ""}, *HAND).stdout.startswith(FIRST_LINE["en"])  # (unset)
    for locale, lang in (("zh_CN.UTF-8", "zh"), ("fr_FR.UTF-8", "en"), ("zh_TW", "zh-Hant")):
        quiet = real({"LANG": locale}, *HAND)
        assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
        assert quiet.stdout.splitlines()[0] == FIRST_LINE[lang]
