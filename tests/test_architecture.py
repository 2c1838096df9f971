"""The shape docs/architecture.md draws, checked: the layers import only downwards, with no
circle and nothing from io/ into play/; each rule's code has one home (a grep finds the bit
layouts, the hand-validity questions and the trick bookkeeping each in one module)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gongzhu_score"

# Bottom to top. A module may import from its own layer and those below it.
LAYERS = [
    {"errors", "words", "terms"},
    {"core"},
    {"io"},
    {"disputes"},
    {"play"},
    {"api"},
    {"match"},
    {"batch"},
    {"arrow"},
    {"render"},
    {"web"},
    {"terminal"},
    {"cli"},
    {"__init__", "__main__"},
]


def layer_of(part: str) -> int:
    return next(k for k, names in enumerate(LAYERS) if part in names)


def modules() -> dict[str, Path]:
    return {
        ".".join(p.relative_to(PACKAGE).with_suffix("").parts): p for p in PACKAGE.rglob("*.py")
    }


def imports(name: str, path: Path) -> set[str]:
    """The package's modules that ``name`` imports, at the top or inside a function."""
    package = name.split(".")[:-1]  # (a package's __init__ is named after the package)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
            elif node.module and node.module.startswith("gongzhu_score"):
                target = node.module.removeprefix("gongzhu_score").lstrip(".")
            else:
                continue
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("gongzhu_score."):
                    found.add(a.name.removeprefix("gongzhu_score."))
    known = modules()
    return {t for t in found if t in known and t != name}


def top(name: str) -> str:
    return name.split(".")[0] if name else "__init__"


GRAPH = {name: imports(name, path) for name, path in modules().items()}


def test_every_module_has_a_layer() -> None:
    for name in GRAPH:
        layer_of(top(name))  # (StopIteration if a new package has no place)


def test_no_import_runs_back_up_a_layer() -> None:
    upward = [
        f"{name} → {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if layer_of(top(target)) > layer_of(top(name))
    ]
    assert not upward, upward


def test_nothing_reads_from_play_in_io() -> None:
    assert not [(n, t) for n, ts in GRAPH.items() if top(n) == "io" for t in ts
                if top(t) == "play"]  # fmt: skip


def test_no_circle() -> None:
    # Packages' __init__ re-exports aside: a module that imports another that imports it back.
    edges = {n: {t for t in ts if not t.endswith("__init__")} for n, ts in GRAPH.items()}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in edges.get(node, ()):
            if state.get(nxt) == 1:
                pytest.fail(" → ".join([*path, node, nxt]))
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in edges:
        if node not in state:
            visit(node, [])


# --- each rule's code in one home ---------------------------------------------------------------


def homes(pattern: str) -> set[str]:
    found = set()
    for name, path in modules().items():
        if re.search(pattern, path.read_text(encoding="utf-8"), re.M):
            found.add(name)
    return found


@pytest.mark.parametrize(
    ("what", "pattern", "home"),
    [
        # the bit layouts: a card's bit, the heart block, an exposure key's fields
        (
            "the pig's, sheep's and transformer's bits",
            r"1 << (10|35|47)\b|= (10|35|47)$",
            "core.bits",
        ),
        ("the 13 hearts' mask", r"0x1FFF|0b1{13}\b", "core.bits"),
        ("an exposure key's fields", r"0o3333|0o4444|<< \(3 \*|>> \(3 \*", "core.bits"),
        ("the 16-bit scoring set", r"<< 13\)|<< 14\)|<< 15\)", "core.bits"),
        ("canonical code bytes", r'b"SHDC"|b"23456789', "core.bits"),
        # what makes a hand valid
        ("every scoring card taken", r"& SCORING\) == SCORING", "core.hand"),
        ("a copy too many", r"^def first_too_many|== decks:|== self.decks:", "core.hand"),
        ("four different names", r"^def four_different|len\(set\(names\)\) != 4", "core.hand"),
        ("a plain name", r"^def is_plain_name|unsafe_character\(name\) is None", "core.hand"),
        # who played what in each trick, who leads
        ("the order of play from a leader", r"% len\(players\)|\+ k\) % 4", "play.state"),
        ("the leader by rotation", r"hand_number - 1\) %|count % 4", "play.state"),
        ("a play step", r"^    def play\(self, cards", "play.state"),
        # a season's ratings (rulings §13): openskill's model, and the ranks it is given
        ("openskill's model", r"PlackettLuce", "match.ratings"),
        ("a shared rank", r"1 \+ sum\(", "match.order"),
    ],
)
def test_each_rule_in_one_module(what: str, pattern: str, home: str) -> None:
    assert homes(pattern) == {home}, what
