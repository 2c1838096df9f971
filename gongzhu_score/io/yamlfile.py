"""The one way YAML is read here: safely, strictly, with errors that say where.

Hand files, rules files, batch files, hand-edited ledgers and the built-in variants all go
through :func:`load_yaml` (one document) or :func:`load_documents` (a stream). The loader is
safe (no tags that build objects) and also refuses anchors and aliases (no alias bombs), nesting
deeper than :data:`MAX_DEPTH`, duplicate keys and numbers too long to convert.

With ``keep_text`` every plain scalar stays a string: YAML 1.1 would read a card ``10`` as a
number and a player named ``no`` as a boolean, losing what the user typed. Files come in through
:func:`read_text` (a size cap, UTF-8 only). libyaml's parser is used when PyYAML has it; the
guards are the same either way.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import IO, Any

import yaml
from yaml.composer import Composer
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner, ScannerError

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


class _Guards(Composer):
    """Composing with guards: anchors and aliases noted, never followed; depth capped."""

    refused: InputError | None

    def _start_guards(self) -> None:
        Composer.__init__(self)
        self._depth = 0
        self._document_start = 0
        self.refused = None

    def compose_document(self) -> Any:
        self._document_start = self.peek_event().start_mark.index  # type: ignore[attr-defined]
        return super().compose_document()

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[attr-defined]
        mark = event.start_mark
        anchor = getattr(event, "anchor", None)
        if isinstance(event, yaml.AliasEvent) or anchor is not None:
            # The document is refused; the alias is not followed, so nothing is expanded.
            self.refused = self.refused or error(InputError, "error.yaml.anchor", where=_at(mark))
            if isinstance(event, yaml.AliasEvent):
                self.get_event()  # type: ignore[attr-defined]
                return yaml.ScalarNode(_NULL, "", mark, mark)
            event.anchor = None
        if mark.index - self._document_start > MAX_DOCUMENT_CHARS:
            raise error(InputError, "error.yaml.document", size=f"{MAX_DOCUMENT_CHARS:,}")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise error(InputError, "error.yaml.deep", where=_at(mark), depth=MAX_DEPTH)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[attr-defined]
            try:
                if key in seen:
                    line = key_node.start_mark.line + 1
                    raise error(InputError, "error.yaml.twice", line=line, key=repr(key))
                seen.add(key)
            except TypeError:  # a list or a mapping as a key
                line = key_node.start_mark.line + 1
                raise error(InputError, "error.yaml.key_plain", line=line, key=repr(key)) from None
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc,no-any-return]


# libyaml's parser (C) when PyYAML was built with it; ``yaml.CParser`` is not exported.
def _at(mark: Any) -> Said:
    """Where in the text; said only when something there is refused."""
    return place("error.yaml.where", line=mark.line + 1, column=mark.column + 1)


_CParser: Any = getattr(getattr(yaml, "cyaml", None), "CParser", None)

_HALF_PAIR = "[dD][89a-fA-F][0-9a-fA-F]{2}"
_PAIR_ESCAPE = re.compile(r"\\u" + _HALF_PAIR)
_PAIR_ESCAPE_BYTES = re.compile(rb"\\u" + _HALF_PAIR.encode())
"""A ``\\u`` escape of half a surrogate pair, as ``json.dumps`` writes 🐷 (``\\ud83d\\udc37``):
libyaml refuses it, so text that holds one is read by PyYAML's own scanner, which joins them."""


class _PairScanner(Scanner):
    """PyYAML's scanner, joining a double-quoted scalar's surrogate-pair escapes into the one
    character they write, as JSON reads them; half a pair alone is refused where it is."""

    def scan_flow_scalar(self, style: Any) -> Any:
        token = super().scan_flow_scalar(style)
        value = token.value
        if any("\ud800" <= c <= "\udfff" for c in value):  # (only escapes make them: UTF-8 text)
            try:
                token.value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            except UnicodeDecodeError:
                problem = "a quoted scalar holds half a surrogate pair (\\uD800-\\uDFFF) alone"
                raise ScannerError(None, None, problem, token.start_mark) from None
        return token


class _PairLoader(Reader, _PairScanner, Parser, _Guards, SafeConstructor, Resolver):
    """The guarded loader in PyYAML's own Python, for text holding surrogate-pair escapes."""

    def __init__(self, stream: str | IO[str]) -> None:
        Reader.__init__(self, stream)
        _PairScanner.__init__(self)
        Parser.__init__(self)
        self._start_guards()
        SafeConstructor.__init__(self)
        Resolver.__init__(self)


if _CParser is not None:

    class _Loader(_Guards, _CParser, SafeConstructor, Resolver):  # type: ignore[misc]
        def __init__(self, stream: str | IO[str]) -> None:
            _CParser.__init__(self, stream)
            self._start_guards()
            SafeConstructor.__init__(self)
            Resolver.__init__(self)

else:  # pragma: no cover  (PyYAML without libyaml)
    _Loader = _PairLoader  # type: ignore[misc,assignment]


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
    plain = getattr(SafeConstructor, f"construct_yaml_{kind}")

    def construct(loader: Any, node: Any) -> Any:
        value = loader.construct_scalar(node)
        if not isinstance(value, str) or not pattern.match(value):
            problem = f"{value!r} is no number written in decimal digits"
            raise ConstructorError(None, None, problem, node.start_mark)
        return int(value) if kind == "int" else plain(loader, node)

    return construct


for _strict in (_Loader, _PairLoader):
    _strict.yaml_implicit_resolvers = _decimal_resolvers()
    _strict.add_constructor(_INT, _decimal("int", _DECIMAL))
    _strict.add_constructor(_FLOAT, _decimal("float", _DECIMAL_FLOAT))


class _TextLoader(_Loader):
    """The guarded loader, every plain scalar kept as text.

    Only empty, ``~`` and ``null`` are None.
    """


class _PairTextLoader(_PairLoader):
    """:class:`_TextLoader` for text holding surrogate-pair escapes."""


_TextLoader.yaml_implicit_resolvers = _PairTextLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag == _NULL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _loader(text: str | IO[str], keep_text: bool, pairs: bool | None) -> Any:
    """The loader for ``text``: libyaml's, unless it holds surrogate-pair escapes (``pairs``;
    looked for in a string when not said)."""
    if pairs is None:
        pairs = isinstance(text, str) and _PAIR_ESCAPE.search(text) is not None
    if pairs:
        return (_PairTextLoader if keep_text else _PairLoader)(text)
    return (_TextLoader if keep_text else _Loader)(text)


def holds_pair_escapes(stream: IO[bytes]) -> bool:
    """Whether the UTF-8 bytes of ``stream``, read through, hold a surrogate-pair escape (for
    :func:`load_documents`'s ``pairs``). Memory stays flat: a megabyte at a time."""
    tail = b""
    while chunk := stream.read(1 << 20):
        if _PAIR_ESCAPE_BYTES.search(tail + chunk):
            return True
        tail = chunk[-5:]
    return False


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
    try:
        loader = _loader(text, keep_text, None)  # reads (and checks) the text
    except _READ_ERRORS as e:  # a NUL or another character YAML does not allow
        raise _problem(e).within(source) from None
    try:
        data = loader.get_single_data()
        if loader.refused is not None:
            raise loader.refused
        return data
    except GongzhuError as e:
        raise e.within(source) from None
    except _READ_ERRORS as e:
        raise _problem(e).within(source) from None
    finally:
        loader.dispose()


Document = tuple[int, object, InputError | None]
"""A document of a stream: its number (from 1), its data, and why it was refused (or None)."""


def load_documents(
    text: str | IO[str], *, keep_text: bool = True, pairs: bool | None = None
) -> Iterator[Document]:
    """Each document of a YAML stream, guarded like :func:`load_yaml`.

    The stream is text, or a text file read as it goes (``pairs``: whether it holds
    surrogate-pair escapes, :func:`holds_pair_escapes`; a string is looked at).

    Empty documents are skipped; one over :data:`MAX_DOCUMENT_CHARS` is refused. A refused
    document is reported and the next one read; a document that breaks the YAML syntax ends the
    stream, since nothing after it can be trusted.
    """
    try:
        loader = _loader(text, keep_text, pairs)
    except _READ_ERRORS as e:
        yield 1, None, _problem(e)
        return
    number = 1
    try:
        while True:
            try:
                if not loader.check_data():
                    return
                data = loader.get_data()
            except InputError as e:
                yield number, None, e
                return
            except _READ_ERRORS as e:
                yield number, None, _problem(e)
                return
            if loader.refused is not None:
                yield number, None, loader.refused
                loader.refused = None
            elif data is not None:
                yield number, data, None
            number += 1
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
