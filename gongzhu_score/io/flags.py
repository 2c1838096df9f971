"""A hand given as ``NAME=CARDS`` pairs, as the command line's flags give it.

``--captured 东="QS 6H"`` (seat order), ``--exposed 南=AH``, ``--first-exposed 西=JD``, and the
scores players claim (``--claim 南=-200``). Each error names the flag and the player.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.cards import Card
from ..core.hand import Hand, PlayerHand, check_name
from ..errors import GongzhuError, InputError
from ..terms import error
from .fields import cards_field, parse_score

__all__ = ["hand_from_flags", "parse_claims", "split_flag"]


def split_flag(flag: str, value: str) -> tuple[str, str]:
    """``NAME=CARDS`` into its two parts, or an error showing the form."""
    name, sep, cards = value.partition("=")
    if not sep or not name.strip():
        raise error(InputError, "error.flag.name_cards", flag=flag, value=repr(value))
    _refuse_bytes(name.strip(), flag)
    return name.strip(), cards


def _refuse_bytes(name: str, flag: str) -> None:
    """Refuse a name holding bytes that are not UTF-8. The error names the flag and shows the
    bytes (``\\xff``).

    The command line reads such bytes as lone surrogates.
    """
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        try:
            check_name(name)
        except GongzhuError as e:
            raise e.recast(InputError).within(flag) from None


def parse_claims(values: Iterable[str]) -> dict[str, int]:
    """``--claim NAME=SCORE`` flags by name."""
    claims: dict[str, int] = {}
    for value in values:
        name, sep, number = value.partition("=")
        if not sep or not name.strip():
            raise error(InputError, "error.flag.claim", value=repr(value))
        _refuse_bytes(name.strip(), "--claim")
        claims[name.strip()] = parse_score(number, f"--claim {name.strip()}")
    return claims


def hand_from_flags(
    captured: Iterable[str],
    exposed: Iterable[str] = (),
    first_exposed: Iterable[str] = (),
    *,
    rest: str | None = None,
    decks: int = 1,
) -> Hand:
    """A hand from ``--captured NAME=CARDS`` (seat order) and the exposure flags.

    ``rest`` names the player who will take the scoring cards nobody else took
    (:meth:`Hand.with_rest`, once the variant is known); when three players are listed, it
    is the fourth seat, so that ``--exposed`` may name it.
    """
    seats: dict[str, tuple[Card, ...]] = {}
    for value in captured:
        name, cards = split_flag("--captured", value)
        if name in seats:
            raise error(InputError, "error.flag.captured_twice", name=name)
        seats[name] = cards_field(cards, f"--captured {name}", decks)
    if rest is not None and rest not in seats and len(seats) == 3:
        seats[rest] = ()
    shown: dict[str, dict[str, tuple[Card, ...]]] = {"--exposed": {}, "--first-exposed": {}}
    for flag, values in (("--exposed", exposed), ("--first-exposed", first_exposed)):
        for value in values:
            name, cards = split_flag(flag, value)
            if name not in seats:
                raise error(InputError, "error.flag.player", flag=flag, name=name,
                            quoted=repr(name))  # fmt: skip
            more = cards_field(cards, f"{flag} {name}", decks)
            shown[flag][name] = shown[flag].get(name, ()) + more
    exposed, first = shown["--exposed"], shown["--first-exposed"]
    return Hand(tuple(PlayerHand(name, cards, exposed.get(name, ()), first.get(name, ()))
                      for name, cards in seats.items()))  # fmt: skip
