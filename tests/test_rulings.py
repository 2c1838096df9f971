"""The rulebook, docs/rulings.md: every section the project cites is one of its headings.

The code, the tests, the README, the docs and the rule-set files cite the rulebook as
``rulings §4.3`` (older comments: ``rulings §4.3``) or by a bare ``§4.3``. A section is a heading
``## 4. …``, a subsection a heading ``### 4.3 …`` under its section. The section numbers are the
ones the project has always cited, so an old citation stays true.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "docs" / "rulings.md"

SECTION = re.compile(r"^## (\d+)\. \S", re.M)
SUBSECTION = re.compile(r"^### (\d+)\.(\d+) \S", re.M)
# A numbered list item that looks like a subsection ("4.3." or "4.3 " at the start of a line):
# the rulebook numbers its subsections by headings only.
LIST_NUMBER = re.compile(r"^\s*\d+\.\d+(?:\.|\s)", re.M)
# "rulings §4.3", "rulings §4.3" and a bare "§4.3" all end in the § and the number; "§4–§5"
# cites both ends, "seed 001 §五" (a section of a seed's own text) is no number of ours.
CITATION = re.compile(r"§\s?(\d+(?:\.\d+)*)")

# The subsections the rulebook keeps for every numbered rule of its sections.
SUBSECTIONS = {4: 7, 5: 5, 6: 4, 7: 4}


def rulebook() -> str:
    return RULEBOOK.read_text(encoding="utf-8")


def headings(text: str) -> list[str]:
    """Every section and subsection number, in the order the headings come."""
    found = [(m.start(), m.group(1)) for m in SECTION.finditer(text)]
    found += [(m.start(), f"{m.group(1)}.{m.group(2)}") for m in SUBSECTION.finditer(text)]
    return [number for _, number in sorted(found)]


def cited_in(text: str) -> Iterator[tuple[str, int]]:
    """Each section number ``text`` cites, with its line number."""
    for number, line in enumerate(text.splitlines(), 1):
        for m in CITATION.finditer(line):
            yield m.group(1), number


def citing_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for folder in ("gongzhu_score", "tests"):
        files += sorted((ROOT / folder).rglob("*.py"))
    for folder in ("gongzhu_score", "sample_hands"):
        files += sorted((ROOT / folder).rglob("*.yaml"))
    return files


def test_the_rulebook_has_sections_1_to_11_and_their_subsections() -> None:
    text = rulebook()
    assert len(text) > 5000, f"{RULEBOOK} is only {len(text)} characters"
    numbers = headings(text)
    sections = [int(n) for n in numbers if "." not in n]
    assert set(range(1, 12)) <= set(sections), f"sections: {sections}"
    for section, count in SUBSECTIONS.items():
        wanted = [f"{section}.{k}" for k in range(1, count + 1)]
        missing = [n for n in wanted if n not in numbers]
        assert not missing, f"§{section} lacks its subsections {missing}"


def test_the_rulebook_numbers_each_heading_once_in_order() -> None:
    text = rulebook()
    numbers = headings(text)
    assert len(numbers) == len(set(numbers)), f"a number is used twice: {numbers}"
    section = 0
    last_sub = 0
    for number in numbers:
        if "." not in number:
            assert int(number) == section + 1, f"§{number} follows §{section}"
            section, last_sub = int(number), 0
            continue
        parent, sub = (int(part) for part in number.split("."))
        assert parent == section, f"§{number} is under §{section}"
        assert sub == last_sub + 1, f"§{number} follows §{parent}.{last_sub}"
        last_sub = sub
    stray = [m.group(0).strip() for m in LIST_NUMBER.finditer(text)]
    assert not stray, f"subsections are headings ('### 4.3 …'), not list items: {stray}"


def test_every_cited_section_is_in_the_rulebook() -> None:
    numbers = set(headings(rulebook()))
    missing: dict[str, list[str]] = {}
    count = 0
    for path in citing_files():
        where = path.relative_to(ROOT).as_posix()
        for number, line in cited_in(path.read_text(encoding="utf-8")):
            count += 1
            if number not in numbers:
                missing.setdefault(number, []).append(f"{where}:{line}")
    shown = "; ".join(f"§{n} at {', '.join(places)}" for n, places in sorted(missing.items()))
    assert not missing, f"cited but not a heading of docs/rulings.md: {shown}"
    assert count > 50  # the project does cite it: a pattern that found nothing would pass


def test_a_citation_is_read_in_every_spelling() -> None:
    def numbers(text: str) -> list[str]:
        return [n for n, _ in cited_in(text)]

    assert numbers("# rulings §4.3: 首明") == ["4.3"]
    assert numbers("see rulings §9 and rulings §10.") == ["9", "10"]
    assert numbers("the end (§8). Ties (§7.1, §7.3)") == ["8", "7.1", "7.3"]
    assert numbers("`Rules.raw` is §4–§5") == ["4", "5"]
    assert numbers("seed 001 §五 (声称)") == []
    # A number that is no heading is reported (built here, so this file cites nothing false).
    assert numbers("RULINGS " + "§" + "14.3") == ["14.3"]
    assert "14.3" not in headings(rulebook())
