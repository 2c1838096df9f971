"""Reading recorded hands for a batch: JSON Lines, YAML streams, folders, standard input.

Streaming: records are read and handed on one at a time, so memory stays flat however many
hands a file holds.

- JSON Lines (``*.jsonl``): one hand object per line, the hand-file schema.
- YAML (``*.yaml``, ``*.yml``): one hand per document, documents separated by ``---``, read by
  the one guarded YAML reader (:mod:`gongzhu_score.io.yamlfile`), every plain scalar kept as text
  as in hand files.
- Folders: every ``*.jsonl``, ``*.yaml`` and ``*.yml`` below, in name order. ``-``: standard
  input, JSON Lines if it starts with ``{``, else YAML.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..errors import GongzhuError, InputError
from ..io.yamlfile import decode, load_documents
from ..terms import error

__all__ = ["EXTENSIONS", "BadRecord", "Record", "expand_inputs", "loads_line", "read_records"]

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
    error: GongzhuError | None = None
    mark: str = ":"
    """``:`` before a line number, ``#`` before a document number."""

    @property
    def source(self) -> str:
        return f"{self.file}{self.mark}{self.place}" if self.place else self.file


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A record that could not be scored, and the error that says why."""

    source: str
    error: GongzhuError

    @property
    def message(self) -> str:
        return str(self.error)


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
            raise error(InputError, "e.batch.no_input", path=path)
    return out


def not_json(e: Exception) -> InputError:
    return error(InputError, "e.batch.not_json", problem=str(e))


def jsonl_record(line: bytes, name: str, number: int) -> Record:
    """The record on line ``number`` of a JSON Lines file."""
    try:
        return Record(name, number, loads_line(line))
    except (ValueError, UnicodeDecodeError) as e:
        return Record(name, number, error=not_json(e))


def _jsonl(stream: IO[bytes], name: str) -> Iterator[Record]:
    for number, line in enumerate(stream, 1):
        if line.strip():
            yield jsonl_record(line, name, number)


def _yaml_documents(text: str, name: str) -> Iterator[Record]:
    for number, data, problem in load_documents(text):
        yield Record(name, number, data, problem, mark="#")


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
            try:
                text = decode(rest.read())
            except GongzhuError as e:
                yield Record("<stdin>", 0, error=e)
                return
            yield from _yaml_documents(text, "<stdin>")
        return
    if path.endswith(".jsonl") or path.endswith(".ndjson"):
        with open(path, "rb") as f:
            yield from _jsonl(f, path)
        return
    try:
        text = decode(Path(path).read_bytes())
    except GongzhuError as e:
        yield Record(path, 0, error=e)
        return
    yield from _yaml_documents(text, path)
