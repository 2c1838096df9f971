"""Reading recorded hands for a batch: JSON Lines, YAML streams, folders, standard input.

Streaming: records are read and handed on one at a time, so memory stays flat however many hands
a file holds.

- JSON Lines (``*.jsonl``): one hand object per line, the hand-file schema.
- YAML (``*.yaml``, ``*.yml``): one hand per document, documents separated by ``---``, read by
  the one guarded YAML reader (:mod:`gongzhu_score.io.yamlfile`), every plain scalar kept as text
  as in hand files.
- Folders: every ``*.jsonl``, ``*.yaml`` and ``*.yml`` below, in name order. ``-``: standard
  input, JSON Lines if it starts with ``{``, else YAML.

A UTF-8 byte-order mark at the very start is passed over in every form, as in a hand file.
"""

from __future__ import annotations

import io
import itertools
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import GongzhuError, InputError
from ..io.files import files_below, open_regular, refuse_special
from ..io.yamlfile import holds_pair_escapes, load_documents
from ..terms import error

__all__ = [
    "EXTENSIONS",
    "MAX_RECORD_BYTES",
    "TOO_LONG",
    "BadRecord",
    "InputRecord",
    "NumberedLines",
    "Part",
    "expand_inputs",
    "found_inputs",
    "json_record",
    "key_count",
    "lines_of",
    "not_hands",
    "numbered_lines",
    "read_records",
]

EXTENSIONS = (".jsonl", ".yaml", ".yml", ".parquet")

TOO_LONG = bytes(bytearray(b"<a line over the size limit>"))
"""Stands for a line too long to read (a distinct object: compared with ``is``)."""


def _json_line(line: bytes) -> object:
    # Decoded here, not by json.loads: given bytes it first sniffs their encoding.
    return json.loads(line.decode("utf-8"))


def _loader() -> Callable[[bytes], object]:
    """orjson's ``loads`` when installed, else the standard one.

    orjson is three times as fast on a hand.
    """
    try:
        from orjson import loads
    except ImportError:  # pragma: no cover  (orjson is a dependency; batch works without it)
        return _json_line
    return loads


loads_line = _loader()
"""The one reader of a JSON Lines line (orjson's ``loads``): both doors' lines are read by it."""


def key_count(data: object) -> int:
    """How many keys a hand's mapping and its players' mappings hold.

    -1 for another shape: such a record is refused anyway, a player being a mapping.
    """
    if not isinstance(data, dict):
        return -1
    players = data.get("players")
    if not isinstance(players, list):
        return -1
    count = len(data)
    for player in players:
        if not isinstance(player, dict):
            return -1
        count += len(player)
    return count


LOOK_BYTES = 1 << 20
"""How much of a YAML stream piped to standard input is looked at first: one that ends within
it is read by libyaml unless it holds surrogate-pair escapes
(:func:`~gongzhu_score.io.yamlfile.holds_pair_escapes`); a longer pipe, which cannot be looked
through before it is read, by PyYAML's own reader, which reads both (about 4x slower). A file
given with ``<`` is looked through, then read from where it was."""
MAX_RECORD_BYTES = 1_000_000
"""One hand is a few hundred bytes; a line (or document) over a megabyte is refused unparsed,
as a hand file of that size is."""


def _once(pairs: list[tuple[str, object]]) -> dict[str, object]:
    data: dict[str, object] = {}
    for key, value in pairs:
        if key in data:
            raise error(InputError, "error.batch.twice", key=repr(key))
        data[key] = value
    return data


def strict_json(line: bytes) -> object:
    """A JSON line read pair by pair, refusing a key given twice."""
    return json.loads(line.decode("utf-8"), object_pairs_hook=_once)


def json_record(line: bytes) -> object:
    """One JSON Lines record, read as strictly as a hand file.

    A key given twice is refused (a JSON parser would keep the last). Raises
    :class:`InputError`, or ``ValueError`` for what is not JSON at all.

    Every key is followed by a colon, so when the line holds no more colons than the parsed hand
    has keys, no key was given twice, and the fast parse stands; otherwise (a colon in a name or
    a card string, a key twice) the line is read again, pair by pair.
    """
    if line is TOO_LONG or len(line) > MAX_RECORD_BYTES:
        raise error(InputError, "error.batch.long", size=f"{MAX_RECORD_BYTES:,}")
    data = loads_line(line)
    if line.count(b":") != key_count(data):
        data = strict_json(line)
    return data


_BLOCK = 1 << 19
"""Bytes read at a time: fewer than :data:`MAX_RECORD_BYTES`, so a line over it always starts
before its block, and a block's lines are told to be short from its first and last newlines."""

Part = bytes | list[bytes]
"""A block's whole lines: one text, the lines joined by newlines (none over the size limit), or
a list of them where the block held a line too long (given as :data:`TOO_LONG`)."""


class NumberedLines:
    """A stream's lines, numbered from ``first``, read a block at a time (:func:`numbered_lines`).

    Iterated, each line comes with its number, at C speed. ``parts`` hands out the same lines a
    block at a time instead (:data:`Part`), for a reader that takes many lines as one text. A
    caller takes one or the other, once.
    """

    def __init__(self, first: int, parts: Iterator[Part]) -> None:
        self.first, self.parts = first, parts

    def __iter__(self) -> Iterator[tuple[int, bytes]]:
        lines = itertools.chain.from_iterable(map(lines_of, self.parts))
        return zip(itertools.count(self.first), lines)


def lines_of(part: Part) -> list[bytes]:
    """A part's lines, in order."""
    return part.split(b"\n") if isinstance(part, bytes) else part


def numbered_lines(stream: IO[bytes], first: int = 1) -> NumberedLines:
    """The lines of ``stream``, numbered from ``first``.

    They come without their newline. It reads a block at a time, so memory stays bounded
    whatever one line holds: a line over :data:`MAX_RECORD_BYTES` is given as :data:`TOO_LONG`.
    """
    return NumberedLines(first, _blocks(stream, first == 1))


BOM = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark: allowed before the first line of JSON Lines, as before a hand file."""


def _blocks(stream: IO[bytes], start: bool) -> Iterator[Part]:
    """The stream's lines a block at a time (``start``: at the stream's start, where a
    byte-order mark may come first)."""
    read = getattr(stream, "read1", stream.read)  # what is there: a pipe is not waited on
    carry, skipping = b"", False
    while True:
        block = read(_BLOCK)
        if start:
            while block and len(block) < len(BOM) and BOM.startswith(block):
                more = read(len(BOM) - len(block))  # (a pipe may give the mark byte by byte)
                if not more:
                    break
                block += more
            block, start = block.removeprefix(BOM), False
            if not block:
                continue
        if not block:
            break
        last = block.rfind(b"\n")
        if last < 0:  # (no line ends here)
            if not skipping:
                carry += block
                if len(carry) > MAX_RECORD_BYTES:
                    carry, skipping = b"", True
            continue
        part: Part
        if skipping:  # (the end of a line too long to keep)
            lines = _marked(block[:last].split(b"\n"))
            lines[0], skipping, part = TOO_LONG, False, lines
        else:
            part = b"".join((carry, memoryview(block)[:last]))
            if _may_hold_long(part):
                part = _marked(part.split(b"\n"))
        carry = block[last + 1 :]
        if len(carry) > MAX_RECORD_BYTES:
            carry, skipping = b"", True
        yield part
    if skipping:
        yield [TOO_LONG]
    elif carry:
        yield carry


def _may_hold_long(text: bytes) -> bool:
    """Whether a line of ``text`` (lines joined by newlines) may be over the size limit, told from
    its first and last newlines alone: each line between them is shorter than the span."""
    if len(text) <= MAX_RECORD_BYTES:
        return False
    first, last = text.find(b"\n"), text.rfind(b"\n")
    return first < 0 or max(first, last - first - 1, len(text) - last - 1) > MAX_RECORD_BYTES


def _marked(lines: list[bytes]) -> list[bytes]:
    return [TOO_LONG if len(x) > MAX_RECORD_BYTES else x for x in lines]


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One hand as read: where it came from, and its data or error.

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
    """A record that could not be scored, and the error saying why."""

    source: str
    error: GongzhuError

    @property
    def message(self) -> str:
        return str(self.error)


def expand_inputs(paths: Iterable[str]) -> list[str]:
    """The files to read: the paths given, folders expanded recursively in name order.

    A folder that cannot be read is an error, never silently skipped; so is a path that is no
    file.
    """
    return [path for path, _ in found_inputs(paths)]


def found_inputs(
    paths: Iterable[str], passed: list[tuple[str, str]] | None = None
) -> list[tuple[str, bool]]:
    """:func:`expand_inputs`, each file marked if found in a folder; what the folders hold that
    is no file to read goes to ``passed`` (:func:`~gongzhu_score.io.files.files_below`)."""
    out: list[tuple[str, bool]] = []
    for path in paths:
        p = Path(path)
        if not path:
            refuse_special(path)  # "" is no name (the system would read the current folder)
        if path == "-" or p.is_file():
            out.append((path, False))
        elif p.is_dir():
            out += [(found, True) for found in files_below(path, EXTENSIONS, passed)]
        elif p.exists():
            refuse_special(path)
        else:
            raise error(InputError, "error.batch.no_input", path=path)
    return out


SNIFF_BYTES = 65_536
"""How much of a YAML file is read to tell a ledger or a rules file from a file of hands."""
_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)[ \t]*:(?=[ \t]|$)", re.MULTILINE)
_LEDGER_HEADER = "# gongzhu-score match ledger"
_TOURNAMENT_HEADER = "# gongzhu-score tournament"
_RULES_META = ("extends", "aliases")


def not_hands(path: str) -> str | None:
    """What a YAML file is, if not hands: ``ledger``, ``tournament``, ``rules``, or None.

    It is told by the keys at the start of its lines in its first 64 kB. A ledger has
    ``format:`` and ``hands:`` at the top level, or says so in its first line, as a tournament file
    does (or has ``format:``, ``tiebreak:`` and ``rounds:``); a rules file has
    ``extends:``, or only the rules schema's keys at the top level. None is a file of hands, or
    one no reader will take (its records say why).
    """
    if not path.lower().endswith((".yaml", ".yml")):
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES + 1)
    except OSError:
        return None  # (reading it says why, naming it)
    text = head[:SNIFF_BYTES].decode("utf-8", errors="replace").removeprefix("\ufeff")
    keys = set(_TOP_KEY.findall(text))
    cut = len(head) > SNIFF_BYTES
    if text.startswith(_LEDGER_HEADER) or ("format" in keys and ("hands" in keys or cut)):
        return "ledger"
    if text.startswith(_TOURNAMENT_HEADER) or {"format", "tiebreak", "rounds"} <= keys:
        return "tournament"
    if keys & {"players", "tricks"}:
        return None
    from ..core.variant import Variant

    if "extends" in keys or (keys and keys <= {*Variant.rule_names(), *_RULES_META}):
        return "rules"
    return None


def not_json(e: Exception) -> InputError:
    return error(InputError, "error.batch.not_json", problem=" ".join(str(e).split()))


def jsonl_record(line: bytes, name: str, number: int) -> InputRecord:
    """The record on line ``number`` of a JSON Lines file."""
    try:
        return InputRecord(name, number, json_record(line))
    except InputError as e:
        return InputRecord(name, number, error=e)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        return InputRecord(name, number, error=not_json(e))


def _jsonl(stream: IO[bytes], name: str) -> Iterator[InputRecord]:
    for number, line in numbered_lines(stream):
        if line and not line.isspace():
            yield jsonl_record(line, name, number)


def _yaml_documents(stream: IO[str], name: str, pairs: bool) -> Iterator[InputRecord]:
    for number, data, problem in load_documents(stream, pairs=pairs):
        yield InputRecord(name, number, data, problem, mark="#")


class _Joined(io.RawIOBase):
    """The bytes already read from a stream, then the rest, read as asked."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            size = min(len(buffer), len(self.head))
            buffer[:size], self.head = self.head[:size], self.head[size:]
            return size
        data = (
            self.rest.read1(len(buffer))
            if hasattr(self.rest, "read1")
            else self.rest.read(len(buffer))
        )
        buffer[: len(data)] = data
        return len(data)


def _utf8(stream: IO[bytes]) -> io.TextIOWrapper:
    """UTF-8 text from bytes, a byte-order mark allowed, decoded as read."""
    return io.TextIOWrapper(stream, encoding="utf-8-sig", newline="")


def read_records(
    path: str, stdin: IO[bytes] | None = None, name: str | None = None
) -> Iterator[InputRecord]:
    """The records of one input file (or ``-``), in order, read as a stream.

    Memory stays flat whatever the size. ``name`` is the file as the output shows it (default:
    ``path``).
    """
    if path == "-":
        try:
            yield from _standard_input(stdin if stdin is not None else sys.stdin.buffer, name)
        except OSError as e:  # (a descriptor open for writing only, say): a read refused
            refused = error(InputError, "error.file.unreadable", why=e.strerror or str(e))
            raise refused.within(name or "<stdin>") from None
        return
    if path.endswith(".jsonl") or path.endswith(".ndjson"):
        with open_regular(path) as f:
            yield from _jsonl(f, name or path)
        return
    with open_regular(path) as raw:
        pairs = holds_pair_escapes(raw)  # (read through once, then from the start)
        raw.seek(0)
        with _utf8(raw) as text_file:
            yield from _yaml_documents(text_file, name or path, pairs)


def _seekable(stream: IO[bytes]) -> bool:
    try:
        return stream.seekable() and stream.tell() >= 0
    except (OSError, ValueError):
        return False


def _standard_input(raw: IO[bytes], name: str | None) -> Iterator[InputRecord]:
    """Standard input's records: JSON Lines if it starts with ``{``, else YAML."""
    head = raw.read(1)
    if head == BOM[:1]:  # a byte-order mark first: what follows it decides
        head += raw.read(2)
        if head == BOM:
            head = raw.read(1)
    while head.isspace():
        head = raw.read(1)
    joined = io.BufferedReader(_Joined(head, raw))
    if head == b"{":
        yield from _jsonl(joined, name or "<stdin>")
        return
    if _seekable(raw):  # (a file given with ``<``: looked through, then read from where it was)
        at = raw.tell()
        pairs = holds_pair_escapes(io.BufferedReader(_Joined(head, raw)))
        raw.seek(at)
        stream = joined
    else:  # a pipe is read once: what is looked at is kept
        look = joined.read(LOOK_BYTES)
        pairs = bool(joined.peek(1)) or holds_pair_escapes(io.BytesIO(look))
        stream = io.BufferedReader(_Joined(look, joined))
    text = _utf8(stream)
    try:
        yield from _yaml_documents(text, name or "<stdin>", pairs)
    finally:
        text.detach()
