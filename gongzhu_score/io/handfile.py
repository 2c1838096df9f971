"""Reading hands at the edge: YAML hand files and JSON Lines, strictly validated.

YAML goes through :mod:`gongzhu_score.io.yamlfile` with every plain scalar kept as text. A card
written ``10`` or a player named ``no`` then reaches the card parser as typed, not as a number
or a boolean, so the error can quote it. Files over :data:`MAX_BYTES` are refused unread.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ..core.hand import Hand, PlayerHand
from ..errors import GongzhuError, InputError, LedgerNotHandError
from ..terms import error, place
from .fields import HandSpec, cards_field, parse_score
from .yamlfile import load_yaml, read_text

__all__ = ["TOO_HIGH", "TOP_KEYS", "HandSpec", "asked_variant", "hand_from_data",
           "read_hand_data", "read_hand_file", "read_hand_yaml"]  # fmt: skip

MAX_BYTES = 1_000_000
"""A hand file is a few hundred bytes; anything over a megabyte is refused unread."""

TOP_KEYS = ("variant", "teams", "players")
"""A hand's keys."""
TOO_HIGH = ("exposed", "first_exposed", "claimed", "captured")
"""A player's fields, refused at a hand's top level (written one level too high)."""
_PLAYER_KEYS = ("name", "captured", "exposed", "first_exposed", "claimed")
_CARD_KEYS = ("captured", "exposed", "first_exposed")


def read_hand_data(path: str) -> tuple[object, str]:
    """``(data, source)`` of a hand file, or of standard input for ``-``."""
    text, source = read_text(path, MAX_BYTES, "hand file")
    return load_yaml(text, source, keep_text=True), source


def asked_variant(data: object) -> str | None:
    """The variant a hand file or record names for itself, if any."""
    variant = data.get("variant") if isinstance(data, Mapping) else None
    return variant if isinstance(variant, str) else None


def read_hand_yaml(text: str, source: str = "<hand>", decks: int = 1) -> HandSpec:
    """Parse the YAML text of one hand. Errors start with ``source``."""
    data = load_yaml(text, source, keep_text=True)
    try:
        return hand_from_data(data, decks)
    except GongzhuError as e:
        raise e.within(source) from None


def read_hand_file(path: str, decks: int = 1) -> HandSpec:
    """Read one hand from a YAML file, or from standard input for ``-``."""
    text, source = read_text(path, MAX_BYTES, "hand file")
    return read_hand_yaml(text, source, decks)


def _check_keys(data: Mapping[Any, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = place("error.input.did_you_mean", word=repr(close[0])) if close else ""
            e = error(InputError, "error.input.unknown_key", key=repr(key),
                      allowed=", ".join(allowed), hint=hint)  # fmt: skip
            raise e.within(where) if where else e


def _text(value: object, where: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise error(InputError, "error.input.name", where=where, value=repr(value))
    return value.strip()


def hand_from_data(data: object, decks: int = 1) -> HandSpec:
    """Build a hand from loaded YAML or JSON data (docs/scoring.md's hand-file schema).

    ``decks`` says what the shorthands stand for (全红: every heart of every deck). A
    trick-by-trick record is replayed, so :func:`gongzhu_score.api.hand_or_record` reads it
    instead.
    """
    if not isinstance(data, Mapping):
        kind = "empty" if data is None else type(data).__name__
        raise error(InputError, "error.input.hand_mapping", kind=kind)
    if "format" in data and "hands" in data:
        raise error(LedgerNotHandError, "error.ledger.not_hand")
    for key in TOO_HIGH:
        if key in data:  # a player's field, written one level too high
            raise error(InputError, "error.input.top_field", key=key)
    _check_keys(data, TOP_KEYS, "")
    variant, teams = data.get("variant"), data.get("teams")
    if variant is not None and not isinstance(variant, str):
        raise error(InputError, "error.input.variant_name", value=repr(variant))
    if teams is not None and not isinstance(teams, str):
        raise error(InputError, "error.input.teams_name", value=repr(teams))
    if "players" not in data:
        raise error(InputError, "error.input.no_players")
    players = data["players"]
    if isinstance(players, Mapping):
        items = [_player_from_mapping_form(name, value, decks) for name, value in players.items()]
    elif isinstance(players, list):
        items = [_player_from_list_form(i, value, decks) for i, value in enumerate(players, 1)]
    else:
        raise error(InputError, "error.input.players_list")
    return HandSpec(Hand(tuple(items)), variant, teams, _claimed(players))


def _player_from_list_form(seat: int, value: object, decks: int) -> PlayerHand:
    where = f"players[{seat}]"
    if not isinstance(value, Mapping):
        raise error(InputError, "error.input.player_mapping", value=repr(value)).within(where)
    _check_keys(value, _PLAYER_KEYS, where)
    if "name" not in value:
        raise error(InputError, "error.input.no_name").within(where)
    name = _text(value["name"], place("where.name_of", where=where))
    return _player(name, value, f"{where} ({name})", decks)


def _player_from_mapping_form(key: object, value: object, decks: int) -> PlayerHand:
    name = _text(key, place("where.player_name"))
    where = f"players: {name}"
    if value is None or isinstance(value, str | list):
        value = {"captured": value}  # 东: [QS, 6H] is short for 东: {captured: [QS, 6H]}
    if not isinstance(value, Mapping):
        raise error(InputError, "error.input.player_value", value=repr(value)).within(where)
    _check_keys(value, _PLAYER_KEYS[1:], where)
    return _player(name, value, where, decks)


def _player(name: str, value: Mapping[str, Any], where: str, decks: int) -> PlayerHand:
    captured, exposed, first_exposed = (
        cards_field(value.get(key), f"{where}: {key}", decks) for key in _CARD_KEYS
    )
    return PlayerHand(name, captured, exposed, first_exposed)


def _claimed(players: object) -> dict[str, int]:
    """The ``claimed:`` scores of a hand file's players, by name."""
    items = (
        [(n, v) for n, v in players.items() if isinstance(v, Mapping)]
        if isinstance(players, Mapping)
        else [(v.get("name"), v) for v in players if isinstance(v, Mapping)]
        if isinstance(players, list)
        else []
    )
    return {
        str(name).strip(): parse_score(v["claimed"], f"players: {name}: claimed")
        for name, v in items
        if v.get("claimed") is not None
    }
