"""Batch scoring: read recorded hands from files, score them, keep per-player totals.

Streaming: records are read, scored and handed on one at a time, so memory stays flat however
many hands a file holds (the summary, one entry per player name, aside).

- JSON Lines (``*.jsonl``): one hand object per line, the hand-file schema.
- YAML (``*.yaml``, ``*.yml``): one hand per document, documents separated by ``---``; read with
  libyaml's parser when PyYAML has it, every plain scalar kept as text as in hand files, and
  documents with anchors or aliases refused.
- Folders: every ``*.jsonl``, ``*.yaml`` and ``*.yml`` below, in name order. ``-``: standard
  input, JSON Lines if it starts with ``{``, else YAML.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import IO

import yaml

from .errors import GongzhuError, InputError
from .fastpath import FastScorer, Scored
from .normalize import Rounding, Teams, parse_teams
from .rules import Variant, find_variant

__all__ = ["BadRecord", "Batch", "Record", "Summary", "expand_inputs", "read_records"]

EXTENSIONS = (".jsonl", ".yaml", ".yml")


def _json_line(line: bytes) -> object:
    # Decoded here, not by json.loads: given bytes it first sniffs their encoding.
    return json.loads(line.decode("utf-8"))


def _loader() -> Callable[[bytes], object]:
    """orjson's loads when installed (three times as fast on a hand), else the standard one."""
    try:
        from orjson import loads
    except ImportError:  # pragma: no cover  (orjson is a dependency; batch works without it)
        return _json_line
    return loads


loads_line = _loader()


@dataclass(frozen=True, slots=True)
class Record:
    """One hand as read: where it came from, and its data (or why it could not be read).

    Its place is the file and the line (JSON Lines, ``file:12``) or the document (YAML,
    ``file#3``); 0 for a whole file.
    """

    file: str
    place: int
    data: object = None
    error: str | None = None
    mark: str = ":"
    """``:`` before a line number, ``#`` before a document number."""

    @property
    def source(self) -> str:
        return f"{self.file}{self.mark}{self.place}" if self.place else self.file


@dataclass(frozen=True, slots=True)
class BadRecord:
    source: str
    message: str


# --- reading -----------------------------------------------------------------------------------


def expand_inputs(paths: Iterable[str]) -> list[str]:
    """Files to read: the paths given, folders expanded (recursively, in name order)."""
    out: list[str] = []
    for path in paths:
        p = Path(path)
        if path == "-" or p.is_file():
            out.append(path)
        elif p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in EXTENSIONS)
            out += [str(f) for f in found]
        else:
            raise InputError(f"{path}: no such file or folder")
    return out


class _TextCLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's safe loader with every plain scalar kept as text (as hand files are read)."""


_TextCLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag == "tag:yaml.org,2002:null"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def jsonl_record(line: bytes, name: str, number: int) -> Record:
    """The record on line ``number`` of a JSON Lines file."""
    try:
        return Record(name, number, loads_line(line))
    except (ValueError, UnicodeDecodeError) as e:
        return Record(name, number, error=f"not a JSON object: {e}")


def _jsonl(stream: IO[bytes], name: str) -> Iterator[Record]:
    for number, line in enumerate(stream, 1):
        if line.strip():
            yield jsonl_record(line, name, number)


def _yaml_documents(text: str, name: str) -> Iterator[Record]:
    # A first pass over the events finds documents with anchors or aliases (refused, as in
    # hand files); the second builds the others with every scalar kept as text.
    refused: dict[int, str] = {}
    document = 0
    try:
        for event in yaml.parse(text, Loader=_TextCLoader):
            if isinstance(event, yaml.DocumentStartEvent):
                document += 1
            elif isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                refused.setdefault(document, "YAML anchors and aliases are not allowed here")
    except yaml.YAMLError:
        pass  # the second pass reports it, at the document where it happens
    loader = _TextCLoader(text)
    document = 1  # the document being read
    try:
        while loader.check_data():
            data = loader.get_data()
            if document in refused:
                yield Record(name, document, error=refused[document], mark="#")
            elif data is not None:
                yield Record(name, document, data, mark="#")
            document += 1
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark else ""
        problem = getattr(e, "problem", None) or str(e)
        yield Record(name, document, error=f"invalid YAML{where}: {problem}", mark="#")
    finally:
        loader.dispose()


def read_records(path: str, stdin: IO[bytes] | None = None) -> Iterator[Record]:
    """The records of one input file (or ``-``), in order."""
    if path == "-":
        raw = stdin if stdin is not None else sys.stdin.buffer
        head = raw.read(1)
        while head.isspace():
            head = raw.read(1)
        rest = io.BufferedReader(io.BytesIO(head + raw.read()))
        if head == b"{":
            yield from _jsonl(rest, "<stdin>")
        else:
            yield from _yaml_documents(rest.read().decode("utf-8-sig"), "<stdin>")
        return
    if path.endswith(".jsonl") or path.endswith(".ndjson"):
        with open(path, "rb") as f:
            yield from _jsonl(f, path)
        return
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        yield Record(path, 0, error=f"not UTF-8 text (offset {e.start})")
        return
    yield from _yaml_documents(text, path)


# --- scoring and the summary -------------------------------------------------------------------


@dataclass
class PlayerTotals:
    """One player's totals over the batch."""

    hands: int = 0
    raw: int = 0
    final: int | Fraction = 0
    pigs: int = 0
    sheep: int = 0
    transformers: int = 0
    full_reds: int = 0
    grand_slams: int = 0

    @property
    def average(self) -> Fraction:
        """The average final score per hand."""
        return Fraction(self.final) / self.hands if self.hands else Fraction(0)


@dataclass
class Summary:
    """Per player name, over every hand scored (the only state that grows with the input)."""

    players: dict[str, PlayerTotals] = field(default_factory=dict)
    hands: int = 0

    def add(self, scored: Scored) -> None:
        self.hands += 1
        for name, raw, final, stats in zip(
            scored.names, scored.raws, scored.finals, scored.stats, strict=True
        ):
            t = self.players.get(name)
            if t is None:
                t = self.players[name] = PlayerTotals()
            t.hands += 1
            t.raw += raw
            t.final += final
            t.pigs += stats[0]
            t.sheep += stats[1]
            t.transformers += stats[2]
            t.full_reds += stats[3]
            t.grand_slams += stats[4]

    def merge(self, other: Summary) -> None:
        """Add another part's totals (names new to this summary come after, in their order)."""
        self.hands += other.hands
        for name, theirs in other.players.items():
            mine = self.players.setdefault(name, PlayerTotals())
            for key in ("hands", "raw", "final", "pigs", "sheep", "transformers", "full_reds",
                        "grand_slams"):  # fmt: skip
                setattr(mine, key, getattr(mine, key) + getattr(theirs, key))


class Batch:
    """Scores records under fixed options; the variant comes from the options or each record."""

    def __init__(
        self,
        variant: Variant | None,
        method: str | None,
        scale: int,
        rounding: Rounding,
        teams: Teams | None,
        partial: bool = False,
    ) -> None:
        self.variant, self.method, self.scale, self.rounding = variant, method, scale, rounding
        self.teams, self.partial = teams, partial
        self._scorers: dict[tuple[str, str], FastScorer] = {}
        # the same, by the record's own (variant, teams) values: one look-up per record
        self._by_record: dict[tuple[str | None, str | None], FastScorer] = {}

    def scorer(self, data: object) -> FastScorer:
        """The scorer for a record: the options' variant, else the record's own."""
        asked = data.get("variant") if isinstance(data, dict) else None
        record_teams = data.get("teams") if isinstance(data, dict) else None
        quick = self._by_record.get((asked, record_teams))
        if quick is not None:
            return quick
        found = self._scorer(asked, record_teams)
        if isinstance(asked, str | None) and isinstance(record_teams, str | None):
            self._by_record[(asked, record_teams)] = found
        return found

    def _scorer(self, asked: object, record_teams: object) -> FastScorer:
        rules = self.variant or find_variant(asked if isinstance(asked, str) else "classic")
        own = record_teams if isinstance(record_teams, str) else None
        teams = parse_teams(self.teams or own or Teams.NONE)
        key = (rules.name if self.variant is None else "\0options", teams.value)
        scorer = self._scorers.get(key)
        if scorer is None:
            norm = rules.normalization(self.method, self.scale, self.rounding, teams)
            scorer = self._scorers[key] = FastScorer(rules, norm, self.partial)
        return scorer

    def score(self, record: Record) -> Scored:
        """Score one record; a bad one raises :class:`GongzhuError` naming its source."""
        if record.error is not None:
            raise InputError(f"{record.source}: {record.error}")
        try:
            return self.scorer(record.data).score(record.data)
        except GongzhuError as e:
            raise e.within(record.source) from None

    def run(
        self,
        records: Iterable[Record],
        emit: Callable[[Record, Scored], None],
        summary: Summary | None,
        keep_going: bool,
    ) -> list[BadRecord]:
        """Score every record in order; stop at the first bad one unless ``keep_going``."""
        bad: list[BadRecord] = []
        cached = self._by_record
        with _no_gc():
            self._loop(records, emit, summary, keep_going, bad, cached)
        return bad

    def _loop(
        self,
        records: Iterable[Record],
        emit: Callable[[Record, Scored], None],
        summary: Summary | None,
        keep_going: bool,
        bad: list[BadRecord],
        cached: dict[tuple[str | None, str | None], FastScorer],
    ) -> None:
        for record in records:
            # The common case inline (a cached scorer, a record that reads): one call fewer
            # per hand than self.score, which handles everything else.
            data = record.data
            scorer = None
            if record.error is None and type(data) is dict:
                scorer = cached.get((data.get("variant"), data.get("teams")))
            try:
                scored = scorer.score(data) if scorer is not None else self.score(record)
            except GongzhuError as e:
                if scorer is not None:
                    e = e.within(record.source)
                if not keep_going:
                    raise e from None
                bad.append(BadRecord(record.source, str(e)))
                continue
            emit(record, scored)
            if summary is not None:
                summary.add(scored)

    def run_jsonl(
        self,
        lines: Iterable[tuple[int, bytes]],
        file: str,
        emit: Callable[[Record, Scored], None],
        summary: Summary | None,
        keep_going: bool,
        emit_line: Callable[[int, Scored], None] | None = None,
    ) -> list[BadRecord]:
        """:meth:`run` for numbered JSON Lines, the hot path of a large batch.

        The same records, scores and errors as ``run(read_records(file))``. ``emit_line``, when
        given, writes a fast-path hand from its line number alone: no :class:`Record` is made
        for it at all.
        """
        bad: list[BadRecord] = []
        cached = self._by_record
        loads = loads_line
        with _no_gc():
            for number, line in lines:
                if line.isspace():
                    continue
                scored = None
                try:
                    data = loads(line)
                except (ValueError, UnicodeDecodeError) as e:
                    record = Record(file, number, error=f"not a JSON object: {e}")
                else:
                    if type(data) is dict:
                        scorer = cached.get((data.get("variant"), data.get("teams")))
                        if scorer is not None and scorer.fast:
                            scored = scorer.quick(data)
                            if scored is not None and emit_line is not None:
                                emit_line(number, scored)
                                if summary is not None:
                                    summary.add(scored)
                                continue
                    record = Record(file, number, data)
                if scored is None:
                    try:
                        scored = self.score(record)
                    except GongzhuError as e:
                        if not keep_going:
                            raise
                        bad.append(BadRecord(record.source, str(e)))
                        continue
                emit(record, scored)
                if summary is not None:
                    summary.add(scored)
        return bad


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """The cycle collector off while scoring: each hand makes short-lived objects and no
    cycles, and collecting every few hundred of them costs more than it frees."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def json_number(value: int | Fraction) -> int | float:
    return int(value) if isinstance(value, int) or value.denominator == 1 else float(value)
