"""Reading hands at the edge: YAML hand files and ``NAME=CARDS`` flags, strictly validated.

YAML goes through :mod:`gongzhu_score.yamlsafe` with every plain scalar kept as text: a card
written ``10`` or a player named ``no`` reaches the card parser as typed instead of as a number
or a boolean, so the error can quote it. Files over :data:`MAX_BYTES` are refused unread.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, parse_cards
from .claims import parse_score
from .errors import GongzhuError, HandError, InputError
from .hand import Hand, PlayerHand
from .yamlsafe import load_yaml, read_text

__all__ = ["HandSpec", "hand_from_data", "hand_from_flags", "read_hand_file", "read_hand_yaml"]

MAX_BYTES = 1_000_000
"""A hand file is a few hundred bytes; anything over a megabyte is refused unread."""

_TOP_KEYS = ("variant", "teams", "players")
_PLAYER_KEYS = ("name", "captured", "exposed", "first_exposed", "claimed")
_CARD_KEYS = ("captured", "exposed", "first_exposed")


@dataclass(frozen=True, slots=True)
class HandSpec:
    """A hand as read from a file or flags, with the variant the file asks for (if any)."""

    hand: Hand
    variant: str | None = None
    teams: str | None = None
    claims: Mapping[str, int] = field(default_factory=dict)
    """What players say they scored (``claimed:``), by name."""


def read_hand_yaml(text: str, source: str = "<hand>") -> HandSpec:
    """Parse the YAML text of one hand; errors are prefixed with ``source``."""
    data = load_yaml(text, source, keep_text=True)
    try:
        return hand_from_data(data)
    except GongzhuError as e:
        raise e.within(source) from None


def read_hand_file(path: str) -> HandSpec:
    """Read one hand from a YAML file, or from standard input when ``path`` is ``-``."""
    return read_hand_yaml(*read_text(path, MAX_BYTES, "hand file"))


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
    if "tricks" in data:
        return hand_from_record(data)
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
    return HandSpec(Hand(tuple(items)), variant, teams, _claims(players))


def hand_from_record(data: Mapping[str, Any]) -> HandSpec:
    """The hand a trick-by-trick record gives (see :mod:`gongzhu_score.replay`).

    A record that breaks the rules of play is refused here, naming what it breaks; ``replay``
    shows the whole story.
    """
    from .replay import parse_record, replay  # a record is rarer than a hand: load on demand

    record = parse_record(data)
    played = replay(record)
    if played.violations:
        shown = "; ".join(played.violations[:3])
        more = f" (and {len(played.violations) - 3} more)" if len(played.violations) > 3 else ""
        raise HandError(
            f"the record breaks the rules of play: {shown}{more}; see 'gongzhu-score replay'"
        )
    claimed = data.get("claimed") or {}
    if not isinstance(claimed, Mapping):
        raise InputError("claimed: expected a mapping of player to score")
    claims = {str(n): parse_score(v, f"claimed: {n}") for n, v in claimed.items()}
    return HandSpec(played.hand(), record.variant.name, record.teams, claims)


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
        cards_field(value.get(key), f"{where}: {key}") for key in _CARD_KEYS
    )
    return PlayerHand(name, captured, exposed, first_exposed)


def _claims(players: object) -> dict[str, int]:
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


def cards_field(value: object, where: str) -> tuple[Card, ...]:
    """A field holding cards (a list, or one string), its errors prefixed with ``where``."""
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
        seats[name] = cards_field(cards, f"--captured {name}")
    if rest is not None and rest not in seats and len(seats) == 3:
        seats[rest] = ()
    shown: dict[str, dict[str, tuple[Card, ...]]] = {"--exposed": {}, "--first-exposed": {}}
    for flag, values in (("--exposed", exposed), ("--first-exposed", first_exposed)):
        for value in values:
            name, cards = split_flag(flag, value)
            if name not in seats:
                raise InputError(f"{flag} {name}=: no player named {name!r} in --captured")
            shown[flag][name] = shown[flag].get(name, ()) + cards_field(cards, f"{flag} {name}")
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
