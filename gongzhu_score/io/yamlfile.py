"""The one way YAML is read here: safely, strictly, with errors that say where.

Hand files, rules files, batch files, hand-edited ledgers and the built-in variants all go
through :func:`load_yaml` (one document) or :func:`load_documents` (a stream). The loader is
PyYAML's safe loader (``CSafeLoader``, libyaml's, where PyYAML has it), with constructors of
its own: a key given twice is refused, and so is half a surrogate pair. Each document's events
are looked through first (PyYAML's ``parse``): anchors and aliases (no alias bombs), nesting
deeper than :data:`MAX_DEPTH` and a document over :data:`MAX_DOCUMENT_CHARS` are refused before
it is built; numbers too long to convert are refused as they are.

With ``keep_text`` every plain scalar stays a string: YAML 1.1 would read a card ``10`` as a
number and a player named ``no`` as a boolean, losing what the user typed. Files come in through
:func:`read_text` (a size cap, UTF-8 only).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import IO, Any

import yaml

from ..errors import GongzhuError, InputError
from ..terms import Said, error, place
from .files import read_regular, refuse_special

__all__ = [
    "MAX_DEPTH",
    "Document",
    "holds_pair_escapes",
    "load_documents",
    "load_yaml",
    "read_text",
]

MAX_DEPTH = 8
"""A hand, a rules file or a ledger nests four levels deep; deeper YAML is refused unbuilt."""
MAX_DOCUMENT_CHARS = 1_000_000
"""One hand is a few hundred characters: a document of a stream over a million is refused
before it is built (a whole file has its own cap, :func:`read_text`)."""
_NULL = "tag:yaml.org,2002:null"

_HALF_PAIR = "[dD][89a-fA-F][0-9a-fA-F]{2}"
_PAIR_ESCAPE = re.compile(r"\\u" + _HALF_PAIR)
_PAIR_ESCAPE_BYTES = re.compile(rb"\\u" + _HALF_PAIR.encode())
"""A ``\\u`` escape of half a surrogate pair, as ``json.dumps`` writes 🐷 (``\\ud83d\\udc37``):
libyaml refuses it, so text that holds one is read by PyYAML's own ``SafeLoader``, whose
scanner reads each half, and the text constructor joins them."""


def _at(mark: Any) -> Said:
    """Where in the text; said only when something there is refused."""
    return place("error.yaml.where", line=mark.line + 1, column=mark.column + 1)


# --- the loaders: PyYAML's safe ones, with constructors -------------------------------------------


def _mapping(loader: Any, node: Any) -> Iterator[dict[Any, Any]]:
    """A mapping, each key once."""
    seen: set[object] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        try:
            if key in seen:
                line = key_node.start_mark.line + 1
                raise error(InputError, "error.yaml.twice", line=line, key=repr(key))
            seen.add(key)
        except TypeError:  # a list or a mapping as a key
            line = key_node.start_mark.line + 1
            raise error(InputError, "error.yaml.key_plain", line=line, key=repr(key)) from None
    yield from yaml.SafeLoader.construct_yaml_map(loader, node)


def _joined_text(loader: Any, node: Any) -> str:
    """A text, each surrogate pair its escapes write (``\\ud83d\\udc37``) joined into the one
    character, as JSON reads them; half a pair alone is refused where it is."""
    value: str = loader.construct_scalar(node)
    if any("\ud800" <= c <= "\udfff" for c in value):  # (only escapes make them: UTF-8 text)
        try:
            return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            problem = "a quoted scalar holds half a surrogate pair (\\uD800-\\uDFFF) alone"
            raise yaml.MarkedYAMLError(None, None, problem, node.start_mark) from None
    return value


_CSafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # (PyYAML without libyaml)


class _Loader(_CSafeLoader):  # type: ignore[misc]
    """The safe loader (libyaml's), each key once."""


class _PairLoader(yaml.SafeLoader):
    """The safe loader in PyYAML's own Python, for text holding surrogate-pair escapes."""


class _TextLoader(_Loader):
    """The safe loader, every plain scalar kept as text (only empty, ``~`` and ``null`` are
    None)."""


class _PairTextLoader(_PairLoader):
    """:class:`_TextLoader` for text holding surrogate-pair escapes."""


for _made in (_Loader, _PairLoader, _TextLoader, _PairTextLoader):
    _made.add_constructor("tag:yaml.org,2002:map", _mapping)
_PairLoader.add_constructor("tag:yaml.org,2002:str", _joined_text)
_PairTextLoader.add_constructor("tag:yaml.org,2002:str", _joined_text)
_TextLoader.yaml_implicit_resolvers = _PairTextLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag == _NULL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


# Numbers as a person writes them: decimal digits (a sign, a point, an exponent), never YAML
# 1.1's other spellings: 1_000, 0x10, 0o17 or 017 (octal: 15), 1:30 (sexagesimal: 90). Those
# stay text, which every field that wants a number refuses, naming what it found; given a tag
# (!!int 1_000) they are refused where they stand.
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_DECIMAL = re.compile(r"^[-+]?[0-9]+$")
_DECIMAL_FLOAT = re.compile(
    r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


def _decimal_resolvers() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    resolvers: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for first, entries in yaml.SafeLoader.yaml_implicit_resolvers.items():
        kept = [(tag, rx) for tag, rx in entries if tag not in (_INT, _FLOAT)]
        if kept:
            resolvers[first] = kept
    for first in "-+0123456789":
        resolvers.setdefault(first, []).append((_INT, _DECIMAL))
    for first in "-+0123456789.":
        resolvers.setdefault(first, []).append((_FLOAT, _DECIMAL_FLOAT))
    return resolvers


def _decimal(kind: str, pattern: re.Pattern[str]) -> Any:
    """A constructor of ``kind`` numbers that takes only their decimal spelling (an int's
    leading 0 is no octal)."""
    plain = getattr(yaml.SafeLoader, f"construct_yaml_{kind}")

    def construct(loader: Any, node: Any) -> Any:
        value = loader.construct_scalar(node)
        if not isinstance(value, str) or not pattern.match(value):
            problem = f"{value!r} is no number written in decimal digits"
            raise yaml.MarkedYAMLError(None, None, problem, node.start_mark)
        return int(value) if kind == "int" else plain(loader, node)

    return construct


for _made in (_Loader, _PairLoader, _TextLoader, _PairTextLoader):
    _made.add_constructor(_INT, _decimal("int", _DECIMAL))
    _made.add_constructor(_FLOAT, _decimal("float", _DECIMAL_FLOAT))
_Loader.yaml_implicit_resolvers = _PairLoader.yaml_implicit_resolvers = _decimal_resolvers()


def _kind(keep_text: bool, pairs: bool) -> Any:
    if pairs:
        return _PairTextLoader if keep_text else _PairLoader
    return _TextLoader if keep_text else _Loader


# --- the guards: each document's events looked through before it is built ----------------------


def _documents(events: Iterator[Any]) -> Iterator[InputError | None]:
    """Each document of a stream of events, looked through before it is built: refused,
    raising, when it runs over :data:`MAX_DOCUMENT_CHARS` or nests deeper than
    :data:`MAX_DEPTH`; its first anchor or alias, which is never followed, is what is yielded
    for it (None: none)."""
    refused: InputError | None = None
    start = depth = 0
    for event in events:
        if isinstance(event, yaml.DocumentStartEvent):
            refused, start, depth = None, getattr(event.start_mark, "index", 0), 0
        elif isinstance(event, yaml.DocumentEndEvent):
            yield refused
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.NodeEvent):
            mark: Any = event.start_mark
            if isinstance(event, yaml.AliasEvent) or event.anchor is not None:
                refused = refused or error(InputError, "error.yaml.anchor", where=_at(mark))
                if isinstance(event, yaml.AliasEvent):
                    continue
            if mark.index - start > MAX_DOCUMENT_CHARS:
                raise error(InputError, "error.yaml.document", size=f"{MAX_DOCUMENT_CHARS:,}")
            if depth >= MAX_DEPTH:
                raise error(InputError, "error.yaml.deep", where=_at(mark), depth=MAX_DEPTH)
            depth += isinstance(event, yaml.CollectionStartEvent)


class _Twice:
    """A text stream read once, for two readers (the guard's parser, ahead, and the loader):
    what one reads first is kept for the other until it reads it too, so memory holds about a
    document."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.kept: tuple[list[str], list[str]] = ([], [])

    def readers(self) -> tuple[Any, Any]:
        return _Reader(self, 0), _Reader(self, 1)

    def read(self, which: int, size: int) -> str:
        kept = self.kept[which]
        if kept:
            return kept.pop(0)
        chunk = self.stream.read(size)
        self.kept[1 - which].append(chunk)
        return chunk


class _Reader:
    """One reader of a :class:`_Twice` stream, as PyYAML reads a stream (``read(size)``)."""

    def __init__(self, twice: _Twice, which: int) -> None:
        self.twice, self.which = twice, which

    def read(self, size: int = -1) -> str:
        return self.twice.read(self.which, size)


def _problem(e: Exception) -> InputError:
    """What was wrong, in YAML's own words, with the line and column if known."""
    if isinstance(e, UnicodeDecodeError):  # a stream decoded as it is read
        return error(InputError, "error.yaml.utf8")
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        where: object = ""
        if mark:
            line, column = mark.line + 1, mark.column + 1
            where = place("error.yaml.where_at", line=line, column=column)
        problem = ", ".join(filter(None, (e.context, e.problem))) or "not valid YAML"
        problem = " ".join(problem.split())  # one line
        return error(InputError, "error.yaml.invalid", where=where, problem=problem)
    if isinstance(e, yaml.YAMLError):
        return error(InputError, "error.yaml.invalid", where="", problem=" ".join(str(e).split()))
    # SafeConstructor's own failures: a 5,000-digit number, a 30th of February, …
    return error(InputError, "error.yaml.value", problem=str(e))


_READ_ERRORS = (yaml.YAMLError, ValueError, OverflowError, RecursionError)


def load_yaml(text: str, source: str, *, keep_text: bool = False) -> object:
    """One YAML document from ``text``. Every error is an :class:`InputError` naming
    ``source``."""
    kind = _kind(keep_text, _PAIR_ESCAPE.search(text) is not None)
    loader = None
    try:
        refused = next(_documents(yaml.parse(text, Loader=kind)), None)
        loader = kind(text)
        if refused is not None:
            loader.get_single_node()  # (one document, or that is what is said: never built)
            raise refused
        return loader.get_single_data()
    except GongzhuError as e:
        raise e.within(source) from None
    except _READ_ERRORS as e:
        raise _problem(e).within(source) from None
    finally:
        if loader is not None:
            loader.dispose()


def holds_pair_escapes(stream: IO[bytes]) -> bool:
    """Whether the UTF-8 bytes of ``stream``, read through, hold a surrogate-pair escape (for
    :func:`load_documents`'s ``pairs``). Memory stays flat: a megabyte at a time."""
    tail = b""
    while chunk := stream.read(1 << 20):
        if _PAIR_ESCAPE_BYTES.search(tail + chunk):
            return True
        tail = chunk[-5:]
    return False


Document = tuple[int, object, InputError | None]
"""A document of a stream: its number (from 1), its data, and why it was refused (or None)."""


def load_documents(
    text: str | IO[str], *, keep_text: bool = True, pairs: bool | None = None
) -> Iterator[Document]:
    """Each document of a YAML stream, guarded like :func:`load_yaml`.

    The stream is text, or a text file read as it goes, once (``pairs``: whether it holds
    surrogate-pair escapes, :func:`holds_pair_escapes`; a string is looked at).

    Empty documents are skipped; one over :data:`MAX_DOCUMENT_CHARS` is refused. A refused
    document is reported and the next one read; a document that breaks the YAML syntax ends the
    stream, since nothing after it can be trusted.
    """
    if pairs is None:
        pairs = isinstance(text, str) and _PAIR_ESCAPE.search(text) is not None
    kind = _kind(keep_text, pairs)
    looked, read = (text, text) if isinstance(text, str) else _Twice(text).readers()
    try:
        documents = _documents(yaml.parse(looked, Loader=kind))
        loader = kind(read)
    except _READ_ERRORS as e:
        yield 1, None, _problem(e)
        return
    number = 1
    try:
        for refused in documents:  # (each looked through before it is built)
            if refused is not None:
                if loader.check_node():
                    loader.get_node()  # (composed, never built)
                yield number, None, refused
            elif (data := loader.get_data()) is not None:
                yield number, data, None
            number += 1
    except InputError as e:
        yield number, None, e
    except _READ_ERRORS as e:
        yield number, None, _problem(e)
    finally:
        loader.dispose()


def read_text(path: str, max_bytes: int, what: str) -> tuple[str, str]:
    """``(text, source)`` of a UTF-8 file, or of standard input for ``-``."""
    source = "<stdin>" if path == "-" else path
    if not path:
        refuse_special(path)  # ("" is no name: the system would read the current folder)
    try:
        raw = sys.stdin.buffer.read(max_bytes + 1) if path == "-" else read_regular(path, max_bytes)
    except FileNotFoundError:
        raise error(InputError, "error.file.missing").within(source) from None
    except IsADirectoryError:
        raise error(InputError, "error.file.folder", what=place(f"what.{what}")).within(
            source
        ) from None
    except OSError as e:
        raise error(InputError, "error.file.unreadable", why=e.strerror).within(source) from None
    if len(raw) > max_bytes:
        raise error(InputError, "error.file.large", size=f"{max_bytes:,}",
                    what=place(f"what.{what}")).within(source)  # fmt: skip
    return decode(raw, source), source


def decode(raw: bytes, source: str | None = None) -> str:
    """UTF-8 text, a byte-order mark allowed, or an error saying where it is not.

    ``source``, if given, is named in the error.
    """
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        refused = error(InputError, "error.file.utf8", byte=f"{raw[e.start]:02x}", offset=e.start)
        raise (refused if source is None else refused.within(source)) from None
