"""Issue 35, cause 6: a hand written by ``json.dumps`` (its ASCII escapes, 🐷 as the surrogate pair
``\\ud83d\\udc37``) reads the same as a YAML file, on standard input and as JSON Lines; half a
pair alone is refused, saying where."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gongzhu_score.errors import InputError
from gongzhu_score.io.yamlfile import MAX_DEPTH, holds_pair_escapes, load_documents, load_yaml

RECORD = {
    "players": [
        {"name": "🐷", "captured": "QS"},
        {"name": "𠮷", "captured": ""},
        {"name": "西", "captured": ""},
        {"name": "北", "captured": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH JD 10C"},
    ]
}
TEXT = json.dumps(RECORD)  # (ASCII: "\ud83d\udc37")


def cli(*args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gongzhu_score", *args], capture_output=True,
                          text=True, timeout=60, input=input, env={"GONGZHU_LANG": "en",
                          "PATH": "/usr/bin:/bin"})  # fmt: skip


def test_json_dumps_writes_surrogate_pairs() -> None:
    assert "\\ud83d\\udc37" in TEXT and "\\ud842\\udfb7" in TEXT


def test_a_json_written_hand_scores_the_same_as_yaml_stdin_and_json_lines(tmp_path: Path) -> None:
    (tmp_path / "h.yaml").write_text(TEXT, encoding="ascii")
    (tmp_path / "h.jsonl").write_text(TEXT + "\n", encoding="ascii")
    as_yaml = cli("score", str(tmp_path / "h.yaml"), "--format", "json")
    on_stdin = cli("score", "-", "--format", "json", input=TEXT)
    assert as_yaml.returncode == 0 and on_stdin.returncode == 0, (as_yaml, on_stdin)
    assert as_yaml.stdout == on_stdin.stdout
    scored = json.loads(as_yaml.stdout)
    assert [p["name"] for p in scored["players"]] == ["🐷", "𠮷", "西", "北"]
    batch = cli("batch", str(tmp_path / "h.yaml"), str(tmp_path / "h.jsonl"), "--format", "csv")
    assert batch.returncode == 0, batch
    rows = [line.split(",", 1)[1] for line in batch.stdout.splitlines()[1:]]
    assert rows[:4] == rows[4:] and rows[0] == "1,🐷,-100,-300", rows


def test_a_yaml_stream_on_standard_input_joins_the_pairs_too() -> None:
    r = cli("batch", "-", "--format", "csv", input="---\n" + TEXT + "\n---\n" + TEXT + "\n")
    assert r.returncode == 0, r
    assert r.stdout.splitlines()[1] == "<stdin>#1,1,🐷,-100,-300"
    assert r.stdout.splitlines()[5] == "<stdin>#2,1,🐷,-100,-300"


@pytest.mark.parametrize("how", ["pipe", "file"])
def test_a_long_stream_on_standard_input_with_a_pair_only_at_its_end(
    tmp_path: Path, how: str
) -> None:
    # Past the megabyte looked at first: a pipe is read by the careful reader, a file given with
    # ``<`` looked through first; both join the pair in the last document.
    plain = json.dumps({**RECORD, "players": [{**p, "name": f"P{i}"} for i, p in
                                              enumerate(RECORD["players"])]})  # fmt: skip
    text = ("---\n" + plain + "\n") * (1_100_000 // len(plain)) + "---\n" + TEXT + "\n"
    assert len(text) > 1 << 20
    path = tmp_path / "long.yaml"
    path.write_text(text, encoding="ascii")
    if how == "pipe":
        r = cli("batch", "-", "--format", "csv", input=text)
    else:
        with path.open("rb") as f:
            r = subprocess.run([sys.executable, "-m", "gongzhu_score", "batch", "-", "--format",
                                "csv"], stdin=f, capture_output=True, text=True, timeout=120,
                               env={"GONGZHU_LANG": "en", "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-4].split(",")[1:] == ["1", "🐷", "-100", "-300"]


@pytest.mark.parametrize("half", ["\\ud83d", "\\udc37", "\\ud83dx"])
def test_half_a_pair_alone_is_refused_where_it_is(tmp_path: Path, half: str) -> None:
    path = tmp_path / "h.yaml"
    path.write_text(TEXT.replace("\\ud83d\\udc37", half), encoding="ascii")
    r = cli("score", str(path))
    assert r.returncode == 2 and r.stdout == "" and "Traceback" not in r.stderr, r
    assert r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"error: {path}: line 1, column 23: invalid YAML: "), r.stderr
    assert r.stderr.endswith("half a surrogate pair (\\uD800-\\uDFFF) alone\n")


def test_escapes_outside_double_quotes_are_text_as_typed() -> None:
    text = "a: \\ud83d\\udc37\nb: '\\ud83d\\udc37'\nc: \"\\ud83d\\udc37\"\n"
    assert load_yaml(text, "t", keep_text=True) == {
        "a": "\\ud83d\\udc37",
        "b": "\\ud83d\\udc37",
        "c": "🐷",
    }


def test_the_pair_reader_keeps_every_guard() -> None:
    deep = "[" * (MAX_DEPTH + 1) + '"\\ud83d\\udc37"' + "]" * (MAX_DEPTH + 1)
    with pytest.raises(InputError, match="nested more than 8 levels deep"):
        load_yaml(deep, "t")
    with pytest.raises(InputError, match="given twice"):
        load_yaml('{"a": "\\ud83d\\udc37", "a": 1}', "t")
    with pytest.raises(InputError, match="anchors and aliases"):
        load_yaml('a: &x "\\ud83d\\udc37"\nb: *x\n', "t")


def test_a_stream_is_looked_at_a_megabyte_at_a_time_across_the_seams() -> None:
    for at in range((1 << 20) - 6, (1 << 20) + 1):
        data = b"x" * at + b'"\\ud83d\\udc37"'
        assert holds_pair_escapes(io.BytesIO(data)), at
    assert not holds_pair_escapes(io.BytesIO(b'"\\u00e9" ' * 200_000))


# What YAML reads as text as typed: not a control character (JSON leaves U+007F and C1 ones
# unescaped; YAML refuses them raw, as a name refuses them anyway), no non-character.
PRINTABLE = st.characters(
    blacklist_categories=("Cc", "Cs"), blacklist_characters="\ufeff\ufffe\uffff"
)


def jsonish(alphabet: st.SearchStrategy[str]) -> st.SearchStrategy[object]:
    text = st.text(alphabet)
    return st.recursive(
        text | st.integers(-(10**6), 10**6) | st.booleans(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
        max_leaves=12,
    )


YAML_KEY = 1024
"""The most characters YAML reads as a key written without "?" (as JSON writes every key): a
longer one is refused as invalid YAML (PyYAML follows YAML 1.1 there)."""


def keys(value: object) -> list[str]:
    """Every key of every mapping in ``value``."""
    if isinstance(value, list):
        return [k for item in value for k in keys(item)]
    if isinstance(value, dict):
        return [*value, *(k for item in value.values() for k in keys(item))]
    return []


def test_a_key_past_yaml_s_limit_is_refused() -> None:
    """A key over 1,024 characters (no name or field comes near it) is invalid YAML: a clear
    error naming the place, never a crash."""
    assert load_yaml('{"' + "x" * (YAML_KEY - 2) + '": 1}', "t") == {"x" * (YAML_KEY - 2): 1}
    with pytest.raises(InputError, match=r"^t: line 1, column \d+: invalid YAML"):
        load_yaml('{"' + "x" * YAML_KEY + '": 1}', "t")


def depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    return 1


@given(st.one_of(
    # (ASCII: the rest escaped; no lone surrogate, which JSON reads and this tool refuses
    # as half a pair: older Hypothesis draws them unless told)
    jsonish(st.characters(blacklist_categories=("Cs",))).map(lambda v: (v, json.dumps(v))),
    jsonish(PRINTABLE).map(lambda v: (v, json.dumps(v, ensure_ascii=False))),
))  # fmt: skip
def test_any_json_text_reads_the_same_as_yaml(case: tuple[object, str]) -> None:
    value, text = case
    if depth(value) > MAX_DEPTH:
        return  # (the depth guard's, tested above)
    if any(len(json.dumps(key, ensure_ascii=text.isascii())) > YAML_KEY for key in keys(value)):
        return  # (YAML's limit on a key's length: test_a_key_past_yaml_s_limit_is_refused)
    assert load_yaml(text, "t") == value
    [document] = load_documents(io.StringIO(text), keep_text=False, pairs=True)
    assert document == (1, value, None)


def test_yaml_is_read_through_pyyamls_public_loaders() -> None:
    """Issue 56: the loaders are PyYAML's safe ones with constructors of their own; no loader
    is put together from PyYAML's parts (its reader, scanner, parser, composer)."""
    import ast

    import yaml

    from gongzhu_score.io import yamlfile

    tree = ast.parse(Path(yamlfile.__file__).read_text(encoding="utf-8"))
    parts = [ast.unparse(n) for n in ast.walk(tree)
             if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("yaml.")]  # fmt: skip
    assert not parts, parts
    for kind in (yamlfile._Loader, yamlfile._TextLoader, yamlfile._PairLoader,
                 yamlfile._PairTextLoader):  # fmt: skip
        assert issubclass(kind, (yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
        assert set(vars(kind)) <= {"__module__", "__doc__", "__qualname__",
                                   "yaml_constructors", "yaml_implicit_resolvers"}, kind  # fmt: skip
