"""The table page's own words (gongzhu_score/web/words.py): both languages say every word, with
the same fields, and every word is one the page uses (app.js or index.html) — and every word the
page asks for is there, so no key is ever shown in its place."""

from __future__ import annotations

import re
from pathlib import Path

from gongzhu_score.web.words import WORDS, page_words

STATIC = Path(__file__).resolve().parent.parent / "gongzhu_score" / "web" / "static"


def page_code() -> str:
    """The page's files, and the server's, whose pages without the key and manifest use words."""
    files = [STATIC / name for name in ("app.js", "index.html")] + [STATIC.parent / "app.py"]
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def test_both_languages_have_the_same_words_with_the_same_fields() -> None:
    en, zh = page_words("en"), page_words("zh")
    assert en.keys() == zh.keys() == WORDS.keys()
    for key in WORDS:
        assert en[key].strip() and zh[key].strip(), key
        assert set(re.findall(r"\{(\w+)\}", en[key])) == set(re.findall(r"\{(\w+)\}", zh[key])), key
    # Chinese, as a Chinese table says it.
    assert zh["entry.confirm"] == "确认"
    assert zh["entry.undo"] == "撤销上一手"
    assert zh["entry.rest"].startswith("剩下的都给")
    assert (zh["card.QS"], zh["card.JD"], zh["card.10C"]) == ("猪", "羊", "变压器")


def test_every_word_is_used_by_the_page_and_every_word_it_asks_for_exists() -> None:
    code = page_code()
    unused = [key for key in WORDS if not re.search(rf"""["']{re.escape(key)}["']""", code)]
    assert not unused, unused
    asked = set(re.findall(r"""\bw\(\s*["']([\w.]+)["']""", code))
    asked |= set(re.findall(r"""data-w=["']([\w.]+)["']""", code))
    asked |= set(re.findall(r""":\s*"((?:card|suit)\.\w+)\"""", code))  # the tables of app.js
    assert asked, "the page asks for no words?"
    assert not asked - WORDS.keys(), sorted(asked - WORDS.keys())
