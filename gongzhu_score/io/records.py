"""Reading a trick-by-trick record (the schema in docs/replay.md).

:func:`parse_record` checks the record's structure and raises :class:`InputError` for one that
cannot be read (an unknown player, a bad card, a trick of three plays); whether its plays follow
the rules, and whether a claim names what is left to play, is
:func:`gongzhu_score.play.replay.replay`'s question.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import Card
from ..core.hand import check_name, four_different
from ..core.variant import Variant
from ..errors import GongzhuError, InputError
from ..terms import error, place
from .fields import cards_field, parse_score, whole_number
from .variants import DEFAULT, find_variant

__all__ = ["KEYS", "InForce", "RecordedClaim", "TrickRecord", "claimed_scores", "parse_record"]


@dataclass(frozen=True, slots=True)
class InForce:
    """The rules that judge a record when something else says (rulings §10).

    That is the command line's rule set and teams, or a match's: with the hand's number in the
    match, its seat order and who may lead it. Each None means the record's own (its
    ``variant:``, ``teams:``, ``hand:``).
    """

    variant: Variant | None = None
    teams: str | None = None
    hand_number: int | None = None
    seats: tuple[str, ...] | None = None
    """The match's seat order (seat 1 first): the rotation counts seats in it."""
    leaders: tuple[str, ...] | None = None
    """Under ``first_lead: pig``, after a match's first hand: who took the pig in the hand
    before (two decks: the first of them, or either when the match does not know)."""


@dataclass(frozen=True, slots=True)
class RecordedClaim:
    """A claim of the remaining tricks (声称, rulings §11), as a record states it.

    The claimer shows their cards and says who takes each scoring card still to be played.
    """

    by: str
    takes: Mapping[str, tuple[Card, ...]] | None
    """The remaining scoring cards under their takers (each copy once); None for ``takes:
    all`` (every one of them to the claimer)."""
    line: tuple[Card, ...] | None = None
    """The cards the claimer will play, in order, if they said."""
    lead: str | None = None
    """Who leads next, when the record has no tricks before the claim (else: the last trick's
    winner)."""


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A trick-by-trick record as read. Its structure is checked, the rules of play not yet."""

    players: tuple[str, ...]
    variant: Variant
    exposed: Mapping[str, tuple[Card, ...]]
    first_exposed: Mapping[str, tuple[Card, ...]]
    hand_number: int | None
    """Which hand of the match this is (1: the first), if the record says: the first lead is
    checked under the variant's rule (首引, rulings §10) only then."""
    deal: Mapping[str, tuple[Card, ...]] | None
    tricks: tuple[tuple[str, tuple[tuple[Card, ...], ...]], ...]
    """(leader, plays in order) per trick."""
    captured: Mapping[str, tuple[Card, ...]] | None
    teams: str | None = None
    claim: RecordedClaim | None = None
    """The hand stopped early with a claim of the remaining tricks (needs the deal)."""
    seats: tuple[str, ...] | None = None
    """The match's seat order, when the record is a hand of a match (else its own)."""
    leaders: tuple[str, ...] | None = None
    """Who may lead the hand under the pig rule, when a match says (:class:`InForce`)."""

    @property
    def first_lead(self) -> str:
        """The first-lead rule in force (rulings §10): the variant's, for these teams."""
        teams = self.teams if self.teams in ("none", "partners", "pig-sheep") else "none"
        return self.variant.first_lead_for(teams)


KEYS = ("variant", "teams", "players", "exposed", "first_exposed", "first_hand", "hand", "deal",
        "tricks", "captured", "claimed", "claim")  # fmt: skip


def _by_player(
    value: object, players: Sequence[str], key: str, decks: int
) -> dict[str, tuple[Card, ...]]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise error(InputError, "error.record.by_player").within(key)
    out = {}
    for name, cards in value.items():
        if name not in players:
            raise error(InputError, "error.hand.unknown_player", name=repr(name),
                        players=", ".join(players)).within(key)  # fmt: skip
        out[name] = cards_field(cards, f"{key}: {name}", decks)
    return out


def parse_record(data: object, in_force: InForce | None = None) -> TrickRecord:
    """Read a record's data: YAML with scalars kept as text, or JSON. Unreadable data is an
    InputError.

    ``in_force`` is what the command line or the match says, which wins over the record's keys;
    its cards are read with the decks of the rules in force.
    """
    given = in_force or InForce()
    if not isinstance(data, Mapping):
        raise error(InputError, "error.record.mapping")
    for key in data:
        if key not in KEYS:
            raise error(
                InputError, "error.record.unknown_key", key=repr(key), allowed=", ".join(KEYS)
            )
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(n, str) and n.strip() for n in players):
        raise error(InputError, "error.record.players")
    names = tuple(n.strip() for n in players)
    if len(names) != 4 or not four_different(*names):
        raise error(InputError, "error.record.four", names=", ".join(names))
    for name in names:
        try:
            check_name(name)
        except GongzhuError as e:
            raise e.recast(InputError).within("players") from None
    variant_name = data.get("variant") or DEFAULT
    if not isinstance(variant_name, str):
        raise error(InputError, "error.input.variant_name", value=repr(variant_name))
    variant = given.variant or find_variant(variant_name)
    first_hand = data.get("first_hand", False)
    if isinstance(first_hand, str):
        first_hand = first_hand.strip().lower() in ("true", "yes", "on")
    hand_number = _hand_number(data.get("hand"), bool(first_hand))
    if given.hand_number is not None:
        hand_number = given.hand_number
    deal = data.get("deal")
    tricks_data = data.get("tricks")
    claim_data = data.get("claim")
    if tricks_data is None and claim_data is not None:
        tricks_data = []  # a claim before the first trick
    if not isinstance(tricks_data, list) or not (tricks_data or claim_data is not None):
        raise error(InputError, "error.record.tricks")
    if len(tricks_data) > 13 * variant.decks:  # before any is read: the work stays bounded
        raise error(InputError, "error.record.too_many", count=len(tricks_data),
                    most=13 * variant.decks, decks=variant.decks)  # fmt: skip
    tricks = []
    for number, trick in enumerate(tricks_data, 1):
        where = place("where.trick", number=number)
        if not isinstance(trick, Mapping) or set(trick) - {"lead", "cards"}:
            raise error(InputError, "error.record.trick", value=repr(trick)).within(where)
        lead = trick.get("lead")
        if lead not in names:
            raise error(InputError, "error.record.lead", lead=repr(lead),
                        players=", ".join(names)).within(where)  # fmt: skip
        plays = trick.get("cards")
        if not isinstance(plays, list) or len(plays) != 4:
            raise error(InputError, "error.record.plays").within(where)
        parsed = tuple(
            cards_field(p, place("where.play", number=number, play=k), variant.decks)
            for k, p in enumerate(plays, 1)
        )
        if any(not 1 <= len(p) <= variant.decks for p in parsed):
            raise error(InputError, "error.record.play_size").within(where)
        tricks.append((str(lead), parsed))
    teams, captured = given.teams or data.get("teams"), data.get("captured")
    decks = variant.decks
    dealt = None if deal is None else _by_player(deal, names, "deal", decks)
    claim = None
    if claim_data is not None:
        try:
            claim = _claim(claim_data, names, decks, dealt, tricks)
        except GongzhuError as e:
            raise e.within("claim") from None
    return TrickRecord(
        names,
        variant,
        _by_player(data.get("exposed"), names, "exposed", decks),
        _by_player(data.get("first_exposed"), names, "first_exposed", decks),
        hand_number,
        dealt,
        tuple(tricks),
        None if captured is None else _by_player(captured, names, "captured", decks),
        teams if isinstance(teams, str) else None,
        claim,
        given.seats,
        given.leaders,
    )


CLAIM_KEYS = ("by", "takes", "line", "lead")
ALL = ("all", "全部", "都是")


def _claim(
    data: object,
    names: tuple[str, ...],
    decks: int,
    deal: Mapping[str, tuple[Card, ...]] | None,
    tricks: list[tuple[str, tuple[tuple[Card, ...], ...]]],
) -> RecordedClaim:
    """Read ``claim: {by, takes, line?, lead?}`` (声称).

    That is who claims, who takes each scoring card not yet played (``all``: the claimer), the
    claimer's stated line, and who leads if no trick was played. Whether it names exactly what
    is left to play is the replay's to say.
    """
    if not isinstance(data, Mapping):
        raise error(InputError, "error.claim.mapping")
    for key in data:
        if key not in CLAIM_KEYS:
            raise error(InputError, "error.record.unknown_key", key=repr(key),
                        allowed=", ".join(CLAIM_KEYS))  # fmt: skip
    if deal is None:
        raise error(InputError, "error.claim.deal")
    by = _player(data.get("by"), names, "by")
    lead = data.get("lead")
    if tricks and lead is not None:
        raise error(InputError, "error.claim.lead_after").within("lead")
    if not tricks:
        if lead is None:
            raise error(InputError, "error.claim.lead_needed").within("lead")
        lead = _player(lead, names, "lead")
    takes_data = data.get("takes")
    takes = None
    if not (isinstance(takes_data, str) and takes_data.strip().lower() in ALL):
        if not isinstance(takes_data, Mapping):
            raise error(InputError, "error.claim.takes").within("takes")
        takes = _by_player(takes_data, names, "takes", decks)
    line = None
    if data.get("line") is not None:
        line = cards_field(data.get("line"), "line", decks)
    return RecordedClaim(by, takes, line, lead)


def _player(value: object, names: tuple[str, ...], key: str) -> str:
    name = str(value).strip() if value is not None else ""
    if name not in names:
        raise error(InputError, "error.hand.unknown_player", name=repr(value),
                    players=", ".join(names)).within(key)  # fmt: skip
    return name


def _hand_number(value: object, first_hand: bool) -> int | None:
    """The hand's number in the match, for the first-lead rule.

    It is ``hand: N``, or 1 for ``first_hand: true``.
    """
    if value is None:
        return 1 if first_hand else None
    number = whole_number(value.strip()) if isinstance(value, str) else None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    if number is None:
        number = 0
    if number < 1 or number > 10**6 or (first_hand and number != 1):
        raise error(InputError, "error.record.hand", value=repr(value))
    return number


def claimed_scores(data: Mapping[str, Any]) -> dict[str, int]:
    """The record's ``claimed:`` scores, by name."""
    claimed = data.get("claimed") or {}
    if not isinstance(claimed, Mapping):
        raise error(InputError, "error.input.claims_mapping")
    return {str(n): parse_score(v, f"claimed: {n}") for n, v in claimed.items()}
