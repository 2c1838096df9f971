"""The rule sets by name: built-in variants (``gongzhu_score/variants/*.yaml``) and house rules.

Each built-in variant is one file in that folder, named after it, so adding a variant is adding
a file. A file may say ``extends: classic`` and give only the rules in which it differs, and
``aliases: [德宏]`` for other names that find it. House rules (``--rules FILE``) are a file in
the same schema, read by :func:`load_rules` with the same checks; they may extend a built-in
variant too.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ..core.cards import path_of
from ..core.variant import Variant
from ..errors import RulesError
from ..terms import error, place
from .yamlfile import load_yaml, read_text

__all__ = ["DEFAULT", "VARIANTS", "choose_rules", "find_variant", "load_rules"]

DEFAULT = "classic"
"""The variant used when none is named."""
# Package data (importlib.resources would cost 5 ms of start-up).
_FOLDER = Path(__file__).resolve().parent.parent / "variants"
_META = ("extends", "aliases")
MAX_RULES_BYTES = 100_000


def _file_data(name: str) -> dict[str, Any]:
    path = _FOLDER / f"{name}.yaml"
    data = load_yaml(path.read_text(encoding="utf-8"), str(path))
    if not isinstance(data, dict):
        raise error(RulesError, "error.rules.mapping").within(str(path))
    return data


def _resolve(data: Mapping[str, Any], seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """A rules file's whole schema: its ``extends`` chain filled in, metadata removed."""
    parent = data.get("extends")
    own = {k: v for k, v in data.items() if k not in _META}
    if parent is None:
        return own
    if not isinstance(parent, str) or parent not in VARIANTS:
        raise error(
            RulesError, "error.rules.extends", parent=repr(parent), known=", ".join(VARIANTS)
        )
    if parent in seen:
        raise error(RulesError, "error.rules.circle", chain=" → ".join((*seen, parent)))
    base = _resolve(_file_data(parent), (*seen, parent))
    for label in ("name", "title", "title_zh", "source"):
        base.pop(label, None)  # a variant's name and titles are its own, never inherited
    return {**base, **own}


class _Builtins(Mapping[str, Variant]):
    """The built-in variants, each read from its file when first asked for."""

    def __init__(self) -> None:
        self._cache: dict[str, Variant] = {}
        self._names: tuple[str, ...] | None = None
        self._aliases: dict[str, str] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(sorted(p.stem for p in _FOLDER.glob("*.yaml")))
        return self._names

    def __getitem__(self, name: str) -> Variant:
        if name not in self.names:
            raise KeyError(name)
        if name not in self._cache:
            data = _file_data(name)
            try:
                variant = Variant.from_data(_resolve(data, (name,)))
            except RulesError as e:
                raise e.within(place("where.builtin", name=name)) from None
            if variant.name != name:
                raise error(RulesError, "error.rules.named", name=name, other=repr(variant.name))
            self._cache[name] = variant
        return self._cache[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def aliases(self) -> dict[str, str]:
        """Every other name a variant answers to (lower case), from the files."""
        if self._aliases is None:
            found: dict[str, str] = {}
            for name in self.names:
                for alias in _file_data(name).get("aliases") or ():
                    found[str(alias).strip().lower()] = name
            self._aliases = found
        return self._aliases


VARIANTS: Mapping[str, Variant] = _Builtins()
"""The built-in variants by name, read from the files shipped in ``gongzhu_score/variants``."""


_FOUND: dict[str, Variant] = {}


def find_variant(name: str | Variant) -> Variant:
    """Look a variant up by name or alias, ignoring case. A :class:`Variant` passes through."""
    if isinstance(name, Variant):
        return name
    found = _FOUND.get(name) if type(name) is str else None
    if found is None:
        found = _FOUND[name] = _find(name)
    return found


def _find(name: object) -> Variant:
    if not isinstance(name, str):
        raise error(RulesError, "error.rules.text", value=repr(name))
    key = name.strip().lower()
    if key in VARIANTS:
        return VARIANTS[key]
    builtins = VARIANTS
    assert isinstance(builtins, _Builtins)
    aliases = builtins.aliases()
    if key in aliases:
        return VARIANTS[aliases[key]]
    close = difflib.get_close_matches(key, [*VARIANTS, *aliases], n=1)
    hint = (
        place("error.input.did_you_mean", word=repr(aliases.get(close[0], close[0])))
        if close
        else ""
    )
    raise error(RulesError, "error.rules.unknown", name=repr(name), known=", ".join(VARIANTS),
                hint=hint)  # fmt: skip


def load_rules(path: str) -> Variant:
    """A house-rules variant from a YAML file (``--rules FILE``). Errors name the file and the
    rule."""
    path = path_of(path)  # (a library caller's Path is a path too)
    text, source = read_text(path, MAX_RULES_BYTES, "rules file")
    data = load_yaml(text, source)
    try:
        if not isinstance(data, Mapping):
            raise error(RulesError, "error.rules.mapping")
        if "aliases" in data:
            raise error(RulesError, "error.rules.aliases")
        return Variant.from_data(_resolve(data))
    except RulesError as e:
        raise e.within(source) from None


def choose_rules(
    variant: str | Variant | None = None, rules_file: str | None = None, asked: str | None = None
) -> Variant:
    """The rules to score by: house rules, a variant named, the hand's, or classic.

    ``asked`` is the variant the hand's own file asks for. A variant and a file both given is an
    error: which would win is no one's guess.
    """
    if rules_file is not None:
        if variant is not None:
            raise error(RulesError, "error.rules.variant_or_file")
        return load_rules(rules_file)
    if variant is not None:  # given, even empty: `--variant ""` is no name, not classic
        return find_variant(variant)
    return find_variant(asked if asked is not None else DEFAULT)
