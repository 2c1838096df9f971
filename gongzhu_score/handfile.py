"""Reading hands at the edge: YAML hand files and ``NAME=CARDS`` flags, strictly validated.

YAML is read with a safe loader that also refuses aliases/anchors, deep nesting, duplicate keys
and files over :data:`MAX_BYTES`, and that keeps every plain scalar as text: a card written
``10`` or a player named ``no`` reaches the card parser as typed instead of as a number or a
boolean, so the error can quote it.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .cards import Card, parse_cards
from .errors import GongzhuError, InputError
from .hand import Hand, PlayerHand

__all__ = ["HandSpec", "hand_from_data", "hand_from_flags", "read_hand_file", "read_hand_yaml"]

MAX_BYTES = 1_000_000
"""A hand file is a few hundred bytes; anything over a megabyte is refused unread."""
MAX_DEPTH = 8
"""A hand nests four levels deep; deeper YAML is refused before it is built."""

_TOP_KEYS = ("variant", "teams", "players")
_PLAYER_KEYS = ("name", "captured", "exposed", "first_exposed")
_NULL = "tag:yaml.org,2002:null"


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand as read from a file or flags, with the variant the file asks for (if any)."""

    hand: Hand
    variant: str | None = None
    teams: str | None = None


class _HandLoader(yaml.SafeLoader):
    """SafeLoader that keeps scalars as text and refuses aliases, anchors, depth and dup keys."""

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


# Plain scalars stay strings (only an empty value or ~/null is None): YAML 1.1 would read
# 10 as an int and no/on as booleans, and the user's spelling would be lost.
_HandLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag == _NULL]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_hand_yaml(text: str, source: str = "<hand>") -> HandSpec:
    """Parse the YAML text of one hand; errors are prefixed with ``source``."""
    try:
        loader = _HandLoader(text)
        try:
            data = loader.get_single_data()
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
    try:
        return hand_from_data(data)
    except GongzhuError as e:
        raise e.within(source) from None


def read_hand_file(path: str) -> HandSpec:
    """Read one hand from a YAML file, or from standard input when ``path`` is ``-``."""
    source = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
        else:
            with Path(path).open("rb") as f:
                raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{source}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{source}: is a folder, not a hand file") from None
    except OSError as e:
        raise InputError(f"{source}: cannot read: {e.strerror}") from None
    if len(raw) > MAX_BYTES:
        raise InputError(f"{source}: larger than {MAX_BYTES:,} bytes; a hand file is far smaller")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(
            f"{source}: not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}); "
            "save the file as UTF-8"
        ) from None
    return read_hand_yaml(text, source)


def _check_keys(data: Mapping[Any, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"{where}unknown key {key!r} (allowed: {', '.join(allowed)}){hint}")


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where} must be a non-empty name, not {value!r}")
    return value.strip()


def hand_from_data(data: object) -> HandSpec:
    """Build a hand from loaded YAML/JSON data (the hand file schema in README)."""
    if not isinstance(data, Mapping):
        kind = "empty" if data is None else type(data).__name__
        raise InputError(f"a hand file holds a mapping with 'players', not {kind}")
    _check_keys(data, _TOP_KEYS, "")
    variant, teams = data.get("variant"), data.get("teams")
    if variant is not None and not isinstance(variant, str):
        raise InputError(f"variant must be a name such as classic, not {variant!r}")
    if teams is not None and not isinstance(teams, str):
        raise InputError(f"teams must be none, partners or pig-sheep, not {teams!r}")
    if "players" not in data:
        raise InputError("missing 'players': list the four players in seat order")
    players = data["players"]
    if isinstance(players, Mapping):
        items = [_player_from_mapping_form(name, value) for name, value in players.items()]
    elif isinstance(players, list):
        items = [_player_from_list_form(i, value) for i, value in enumerate(players, 1)]
    else:
        raise InputError("players must be a list (or a mapping by name) of four players")
    return HandSpec(Hand(tuple(items)), variant, teams)


def _player_from_list_form(seat: int, value: object) -> PlayerHand:
    where = f"players[{seat}]"
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: expected a mapping with name and captured, not {value!r}")
    _check_keys(value, _PLAYER_KEYS, f"{where}: ")
    if "name" not in value:
        raise InputError(f"{where}: missing 'name'")
    name = _text(value["name"], f"{where}: name")
    return _player(name, value, f"{where} ({name})")


def _player_from_mapping_form(key: object, value: object) -> PlayerHand:
    name = _text(key, "players: a player's name")
    where = f"players: {name}"
    if value is None or isinstance(value, str | list):
        value = {"captured": value}  # 东: [QS, 6H] is short for 东: {captured: [QS, 6H]}
    if not isinstance(value, Mapping):
        raise InputError(f"{where}: expected the captured cards or a mapping, not {value!r}")
    _check_keys(value, _PLAYER_KEYS[1:], f"{where}: ")
    return _player(name, value, where)


def _player(name: str, value: Mapping[str, Any], where: str) -> PlayerHand:
    captured, exposed, first_exposed = (
        _cards(value.get(key), f"{where}: {key}") for key in _PLAYER_KEYS[1:]
    )
    return PlayerHand(name, captured, exposed, first_exposed)


def _cards(value: object, where: str) -> tuple[Card, ...]:
    if value is not None and not isinstance(value, str | list):
        raise InputError(f"{where}: expected a list of cards, not {value!r}")
    try:
        return parse_cards(value)
    except GongzhuError as e:
        raise e.within(where) from None


def split_flag(flag: str, value: str) -> tuple[str, str]:
    name, sep, cards = value.partition("=")
    if not sep or not name.strip():
        raise InputError(
            f'{flag} {value!r}: expected NAME=CARDS, e.g. {flag} 东="QS 6H" '
            f"(an empty {flag} 北= means no cards)"
        )
    return name.strip(), cards


def hand_from_flags(
    captured: Iterable[str],
    exposed: Iterable[str] = (),
    first_exposed: Iterable[str] = (),
    *,
    rest: str | None = None,
) -> Hand:
    """Build a hand from ``--captured NAME=CARDS`` (seat order) and the exposure flags.

    ``rest`` names the player who will take the scoring cards nobody else took
    (:meth:`Hand.with_rest`, once the variant is known); when three players are listed, it
    is the fourth seat, so that ``--exposed`` may name it.
    """
    seats: dict[str, tuple[Card, ...]] = {}
    for value in captured:
        name, cards = split_flag("--captured", value)
        if name in seats:
            raise InputError(f"--captured {name}= given twice; put all of {name}'s cards in one")
        seats[name] = _cards(cards, f"--captured {name}")
    if rest is not None and rest not in seats and len(seats) == 3:
        seats[rest] = ()
    shown: dict[str, dict[str, tuple[Card, ...]]] = {"--exposed": {}, "--first-exposed": {}}
    for flag, values in (("--exposed", exposed), ("--first-exposed", first_exposed)):
        for value in values:
            name, cards = split_flag(flag, value)
            if name not in seats:
                raise InputError(f"{flag} {name}=: no player named {name!r} in --captured")
            shown[flag][name] = shown[flag].get(name, ()) + _cards(cards, f"{flag} {name}")
    hand = Hand(
        tuple(
            PlayerHand(
                name,
                cards,
                shown["--exposed"].get(name, ()),
                shown["--first-exposed"].get(name, ()),
            )
            for name, cards in seats.items()
        )
    )
    return hand
