"""Reading small YAML files people write: safely, strictly, with errors that say where.

Every file goes through :func:`read_text` (size cap, UTF-8) and :func:`load_yaml`: a safe loader
that also refuses aliases/anchors, deep nesting and duplicate keys. With ``keep_text`` every
plain scalar stays a string: YAML 1.1 would read a card ``10`` as a number and a player named
``no`` as a boolean, and the spelling the user typed would be lost.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

from .errors import GongzhuError, InputError

__all__ = ["load_yaml", "read_text"]

MAX_DEPTH = 8
"""A hand or a rules file nests four levels deep; deeper YAML is refused before it is built."""
_NULL = "tag:yaml.org,2002:null"


class _GuardedLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases, anchors, deep nesting and duplicate keys."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        mark = event.start_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}"
        if isinstance(event, yaml.AliasEvent):
            raise InputError(f"{where}: YAML aliases (*{event.anchor}) are not allowed here")
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise InputError(f"{where}: YAML anchors (&{anchor}) are not allowed here")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise InputError(f"{where}: nested more than {MAX_DEPTH} levels deep")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                line = key_node.start_mark.line + 1
                raise InputError(f"line {line}: key {key!r} given twice")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


class _TextLoader(_GuardedLoader):
    """The guarded loader with every plain scalar kept as text (only empty/~/null is None)."""


_TextLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag == _NULL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_yaml(text: str, source: str, *, keep_text: bool = False) -> object:
    """One YAML document from ``text``; every error is an :class:`InputError` naming ``source``."""
    try:
        loader = (_TextLoader if keep_text else _GuardedLoader)(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except GongzhuError as e:
        raise e.within(source) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = ", ".join(filter(None, (e.context, e.problem))) or "not valid YAML"
        raise InputError(f"{source}: {where}invalid YAML: {problem}") from None
    except yaml.YAMLError as e:
        raise InputError(f"{source}: invalid YAML: {e}") from None


def read_text(path: str, max_bytes: int, what: str) -> tuple[str, str]:
    """``(text, source)`` of a UTF-8 file, or of standard input when ``path`` is ``-``."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(max_bytes + 1)
        else:
            with Path(path).open("rb") as f:
                raw = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{source}: is a folder, not a {what}") from None
    except OSError as e:
        raise InputError(f"{source}: cannot read: {e.strerror}") from None
    if len(raw) > max_bytes:
        raise InputError(f"{source}: larger than {max_bytes:,} bytes; a {what} is far smaller")
    try:
        return raw.decode("utf-8-sig"), source
    except UnicodeDecodeError as e:
        raise InputError(
            f"{source}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}); "
            "save the file as UTF-8"
        ) from None
