"""What the table's page shows and does, as data.

That is the match's state, one hand, the running scores of a hand being tapped in, and the
changes (add, edit, remove, undo).

No HTTP here (:mod:`.app` is the door): each function takes the ledger's path and what the page
sent, calls the same library functions as the command line (:mod:`gongzhu_score.match.actions`,
the match's own scoring) and returns JSON-ready data. Every change carries the version of the
ledger the page last saw (:func:`~gongzhu_score.match.storage.read_version`), so that two phones
confirming the same hand at once add it once: the second is refused with the match as it now is.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from ..core.auto_play import AutoPlayed
from ..core.cards import DECK, SCORING_CARDS, Card, Suit, parse_cards
from ..errors import GongzhuError, InputError
from ..io.fields import HandSpec
from ..match.actions import (
    add_hand,
    edit_hand,
    read_hand,
    remove_hand,
    rename_player,
    undo_hand,
)
from ..match.entry import HandEntry
from ..match.history import Change
from ..match.ledger import Ledger, check_note
from ..match.storage import check_seen, read_as_seen, read_version
from ..render.explain import explanation
from ..render.formats import json_number
from ..render.hand import cards_text
from ..render.match import (
    auto_played_lines,
    change_text,
    deciding_series,
    explained_hand,
    hand_to_dict,
    match_status_text,
    match_to_dict,
    render_hand,
    rules_line,
    standing_lines,
)
from ..render.rule_words import rule_sentences, rules_in_a_line
from ..render.seats import SEAT_COLOURS
from ..render.variants import render_variant
from ..terms import Listed, card_name, error, printable, say, title
from .words import page_words

__all__ = [
    "RequestError",
    "add",
    "edit",
    "hand_view",
    "page_state",
    "preview",
    "remove",
    "rename",
    "undo",
]

Clock = Callable[[], datetime]

_ENTRY_KEYS = (
    "captured",
    "rest",
    "exposed",
    "first_exposed",
    "first_pig",
    "auto_played",
    "last_card",
    "note",
)


class RequestError(InputError):
    """A request the page would not send, refused before anything is read.

    A field of the wrong kind, or a name not in the match, say. Nothing is changed.
    """


# --- what the page shows ----------------------------------------------------------------------


def page_state(path: str, lang: str) -> dict[str, Any]:
    """The whole page: the match as ``match show --format json`` gives it, and more.

    It adds the version to send back with a change, the texts in ``lang`` and the cards to tap.
    """
    ledger, version = read_version(path)
    return _state(ledger, version, path, lang)


def _state(ledger: Ledger, version: str, path: str, lang: str) -> dict[str, Any]:
    variant = ledger.variant
    return {
        "version": version,
        "lang": lang,
        "ledger": os.path.basename(path),
        "match": match_to_dict(ledger),
        "status": match_status_text(ledger, ledger.status(), lang),
        "standing": standing_lines(ledger, lang) if ledger.entries else [],
        # Hand by hand, the four totals the end is decided on (for the page's chart).
        "deciding": [
            [json_number(t) for t in row] for row in zip(*deciding_series(ledger), strict=True)
        ],
        "decided_on": ledger.standing().decided_on,
        "end_at": ledger.end_at,
        "decks": variant.decks,
        "cards": [_card(c, variant.decks, c in variant.exposable, lang) for c in _SHOWN],
        "first_exposure": variant.first_exposure_allowed,
        "asks_auto_played": ledger.asks_auto_played(),
        "rules": f"{rules_line(ledger, lang)}\n\n{render_variant(variant, lang=lang)}",
        "rules_line": rules_in_a_line(ledger, lang),
        "rules_title": title(variant, lang) or variant.name,
        "rules_rows": rule_sentences(ledger, lang),
        "ranking": ranking(ledger),
        "colours": list(SEAT_COLOURS),
        "words": page_words(lang),
    }


def ranking(ledger: Ledger) -> list[dict[str, Any]]:
    """The players from first to last (rulings §8): the deciding total, how far to the end.

    ``other`` is the total that does not decide the end (finals alone, raws in team play).
    """
    standing = ledger.standing()
    last = ledger.entries[-1] if ledger.entries else None
    zeros = (0,) * len(ledger.players)
    other = (last.total_raw if ledger.team_play else last.total_final) if last else zeros
    return [
        {
            "seat": seat,
            "rank": rank,
            "name": ledger.players[seat],
            "total": json_number(standing.totals[seat]),
            "to_go": json_number(standing.to_go[seat]),
            "past": seat in standing.past,
            "other": json_number(other[seat]),
        }
        for rank, seat in enumerate(ledger.ranking(), 1)
    ]


# The order a table sorts its scoring cards in: the three special cards, then the hearts from
# the ace down.
_SHOWN: tuple[Card, ...] = (
    *(c for c in DECK if c in SCORING_CARDS and c.suit is not Suit.HEARTS),
    *sorted((c for c in DECK if c.suit is Suit.HEARTS), key=lambda c: -c.rank),
)


def _card(card: Card, decks: int, exposable: bool, lang: str) -> dict[str, Any]:
    return {
        "code": card.code,
        "symbol": card.symbol,
        "name": card_name(card, lang),
        "nickname": cards_text((card,), lang),
        "suit": card.suit.value,
        "copies": decks,
        "exposable": exposable,
    }


def hand_view(path: str, number: int, lang: str) -> dict[str, Any]:
    """Hand ``number`` as shown, explained and loaded for an edit.

    It is as ``match show LEDGER N`` gives it (data and text), explained step by step as
    ``explain LEDGER N`` does, and as an entry to load for an edit.
    """
    ledger, stored, result = read_hand(path, number)
    hand = stored.hand
    parts = explanation(result, lang, spoken=True)
    return {
        "hand": hand_to_dict(ledger, number),
        "detail": _detail(ledger, number, lang),
        "explanation": {
            "title": say("match.hand_view", lang, number=number, count=ledger.count),
            "heading": parts.heading,
            "lead": parts.lead,
            "partial": parts.partial,
            "players": [{"heading": h, "steps": list(steps)} for h, steps in parts.players],
            "finals_heading": parts.finals_heading,
            "finals": list(parts.finals),
            # 托管 (rulings §12.2): who was auto-played and the rule that moved the finals.
            "auto_played": auto_played_lines(ledger, stored, lang),
        },
        "text": render_hand(ledger, number, lang),
        "explain": explained_hand(ledger, number, result, lang),
        "entry": _as_entry(hand, stored.partial, stored.first_pig, stored.note, stored.auto_played),
    }


def _as_entry(
    hand: Any,
    partial: bool,
    first_pig: str | None,
    note: str | None,
    auto_played: AutoPlayed | None = None,
) -> dict[str, Any]:
    """A stored hand as the page enters it: a whole hand gives the rest to the player with
    the most scoring cards, so a card taken back from another goes to them, as at the table
    ("the rest to …"); a partial hand places each card."""
    rest = None if partial else max(hand.players, key=lambda p: len(p.captured)).name
    captured = {p.name: [c.code for c in p.captured] for p in hand.players}
    if rest is not None:
        captured[rest] = []
    return {
        "captured": captured,
        "rest": rest,
        "exposed": {p.name: [c.code for c in p.exposed] for p in hand.players},
        "first_exposed": {p.name: [c.code for c in p.first_exposed] for p in hand.players},
        "first_pig": first_pig,
        "auto_played": None if auto_played is None else auto_played.name,
        "last_card": auto_played is not None and auto_played.last_card,
        "note": note,
    }


def same_as_last(path: str, data: object) -> int | None:
    """The number of the match's last hand when it is the hand ``data`` would add, else None.

    After a refused add (409), this tells a second phone that its hand was just added.
    """
    try:
        ledger, _ = read_version(path)
        if not ledger.entries or not isinstance(data, dict):
            return None
        entry, _ = _entry(ledger, data.get("entry"))
        given = entry.hand()
    except GongzhuError:
        return None
    last = ledger.entries[-1].hand
    if _cards_of(last) == _cards_of(given):
        return ledger.count
    return None


def _cards_of(hand: Any) -> list[tuple[Any, ...]]:
    return [
        (p.name, sorted(c.code for c in p.captured), sorted(c.code for c in p.exposed),
         sorted(c.code for c in p.first_exposed))
        for p in hand.players
    ]  # fmt: skip


def _detail(ledger: Ledger, number: int, lang: str) -> list[dict[str, Any]]:
    """Hand ``number``'s table as the page lays it out: per player the cards as the language
    writes them, the raw and final scores, and the running deciding total (rulings §8)."""
    e = ledger.entries[number - 1]
    totals = e.total_final if ledger.team_play else e.total_raw
    auto = e.auto_played
    return [
        {
            "name": p.name,
            "captured": cards_text(p.captured, lang),
            "exposed": cards_text(p.exposed, lang),
            "first_exposed": cards_text(p.first_exposed, lang),
            "raw": raw,
            "final": json_number(final),
            "total": json_number(total),
            "auto_played": auto is not None and auto.name == p.name,
        }
        for p, raw, final, total in zip(e.hand.players, e.raw, e.final, totals, strict=True)
    ]


# --- a hand being entered ---------------------------------------------------------------------


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise error(RequestError, "error.web.field", field=key, value=printable(repr(value)))
    return value


def _player(ledger: Ledger, value: object, field: str) -> str:
    if not isinstance(value, str) or value not in ledger.players:
        raise error(RequestError, "error.web.player", field=field,
                    name=printable(repr(value)), players=Listed(ledger.players))  # fmt: skip
    return value


def _by_player(ledger: Ledger, data: Mapping[str, Any], key: str) -> dict[str, tuple[Card, ...]]:
    given = _field(data, key, dict) or {}
    cards: dict[str, tuple[Card, ...]] = {}
    for name, codes in given.items():
        _player(ledger, name, key)
        if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
            raise error(RequestError, "error.web.field", field=f"{key}.{name}",
                        value=printable(repr(codes)))  # fmt: skip
        try:
            cards[name] = parse_cards(codes, ledger.variant.decks)
        except GongzhuError as e:
            raise e.recast(RequestError).within(f"{key}.{name}") from None
    return cards


def _entry(ledger: Ledger, data: object) -> tuple[HandEntry, str | None]:
    """The entry the page sent (docs/web.md), checked field by field, and its note."""
    if not isinstance(data, dict):
        raise error(RequestError, "error.web.field", field="entry", value=printable(repr(data)))
    unknown = [k for k in data if k not in _ENTRY_KEYS]
    if unknown:
        raise error(RequestError, "error.web.key", key=printable(repr(unknown[0])),
                    allowed=", ".join(_ENTRY_KEYS))  # fmt: skip
    entry = HandEntry(ledger.players, ledger.variant.decks)
    captured = _by_player(ledger, data, "captured")
    for seat, name in enumerate(ledger.players):
        clash = entry.give(seat, captured.get(name, ()))
        if clash is not None:
            card, holder = clash
            raise error(RequestError, "error.web.twice", card=card.symbol, name=holder)
    rest = _field(data, "rest", str)
    if rest is not None:
        entry.give_rest(ledger.players.index(_player(ledger, rest, "rest")))
    entry.show(_by_player(ledger, data, "exposed"))
    entry.show(_by_player(ledger, data, "first_exposed"), first=True)
    first_pig = _field(data, "first_pig", str)
    entry.first_pig = None if first_pig is None else _player(ledger, first_pig, "first_pig")
    try:
        note = check_note(_field(data, "note", str))
    except GongzhuError as e:
        raise e.recast(RequestError).within("note") from None
    return entry, note


def _auto_played(ledger: Ledger, data: object) -> AutoPlayed | None:
    """Who the page says was auto-played (托管), checked as the match checks it."""
    if not isinstance(data, dict):
        return None
    if data.get("auto_played") is None:
        if data.get("last_card"):
            raise error(RequestError, "error.ledger.last_card_alone").within("last_card")
        return None
    name = _player(ledger, data["auto_played"], "auto_played")
    last_card = _field(data, "last_card", bool) or False
    try:
        return ledger.check_auto_played(AutoPlayed(name, last_card))
    except GongzhuError as e:
        raise e.recast(RequestError).within("auto_played") from None


def preview(path: str, data: object, lang: str) -> dict[str, Any]:
    """The hand tapped so far (``{"entry": ENTRY}``), scored by the match's rules.

    While cards are still unplaced, it is scored as a partial hand. It gives the running raw and
    final scores, what is still missing, what the rest comes to, whether it is complete and
    whether who took the first pig must be said. A hand the rules refuse (an exposure of a card
    that cannot be exposed, say) is no error here: ``problem`` says why it cannot be scored (the
    scores null), or, for a whole hand, what is still to say before it can be added (who took
    the first pig: the scores are there).
    """
    ledger, _ = read_version(path)
    entry, _ = _entry(ledger, _body(data).get("entry"))
    auto = _auto_played(ledger, _body(data).get("entry"))
    unplaced = entry.unplaced()
    complete = entry.rest is not None or not unplaced
    answer: dict[str, Any] = {
        "raw": None,
        "final": None,
        "unplaced": [c.code for c in unplaced],
        "rest_cards": [c.code for c in entry.taken_by_rest()],
        "complete": complete,
        "asks_first_pig": False,
        "problem": None,
    }
    try:
        hand = entry.hand()
        result = ledger.score(hand, partial=not complete)
    except GongzhuError as e:
        answer["problem"] = printable(e.text(lang))
        return answer
    answer["raw"] = list(result.raws)
    answer["final"] = [json_number(f) for f in ledger.auto_played_finals(result.finals, auto)]
    answer["asks_first_pig"] = ledger.asks_first_pig(hand)
    if complete:  # scored; still to say: who took the first pig, where that is asked
        try:
            ledger.first_pig_for(hand, entry.first_pig if answer["asks_first_pig"] else None)
        except GongzhuError as e:
            answer["problem"] = printable(e.text(lang))
    return answer


# --- the changes ------------------------------------------------------------------------------


def _version(path: str, data: object) -> tuple[dict[str, Any], str]:
    """A change's body and the version of the ledger it was made against, still the ledger's.

    The version is looked at first: a change made against an old version is refused as such
    (409, the match as it now is) whatever else it holds, so that of two phones sending the
    same change the second hears that the first came first, not that its change is wrong now.
    """
    body = _body(data)
    version = body.get("version")
    if not isinstance(version, str):
        raise error(RequestError, "error.web.field", field="version",
                    value=printable(repr(version)))  # fmt: skip
    check_seen(path, version)
    return body, version


def _body(data: object) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise error(RequestError, "error.web.field", field="body", value=printable(repr(data)))
    return data


def _done(
    path: str, kind: str, number: int, lang: str, values: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A change's answer: the state now, the hand changed (0: none), the change in words."""
    said = change_text(Change(0, "", kind, values or {"hand": number}), lang)
    return {"state": page_state(path, lang), "number": number, "said": said}


def add(path: str, data: object, lang: str, now: Clock) -> dict[str, Any]:
    """Add the hand the page sent (``{"version": V, "entry": ENTRY}``), as ``match add`` does."""
    body, version = _version(path, data)
    entry_data = body.get("entry")

    def hand(ledger: Ledger) -> HandSpec:
        entry, _ = _entry(ledger, entry_data)
        return HandSpec(entry.hand(), auto_played=_auto_played(ledger, entry_data))

    note = _note_of(entry_data)
    first_pig = entry_data.get("first_pig") if isinstance(entry_data, dict) else None
    added = add_hand(path, hand, first_pig=first_pig if isinstance(first_pig, str) else None,
                     entered=now(), note=note, expect=version)  # fmt: skip
    return _done(path, "add", added.number, lang)


def _note_of(entry: object) -> str | None:
    if not isinstance(entry, dict):
        return None
    try:
        return check_note(_field(entry, "note", str))
    except GongzhuError as e:
        raise e.recast(RequestError).within("note") from None


def edit(path: str, number: int, data: object, lang: str) -> dict[str, Any]:
    """Replace hand ``number`` with the page's hand, as ``match edit`` does."""
    body, version = _version(path, data)
    entry_data = body.get("entry")

    def hand(ledger: Ledger) -> HandSpec:
        ledger.check_number(number)
        entry, _ = _entry(ledger, entry_data)
        return HandSpec(entry.hand(), auto_played=_auto_played(ledger, entry_data))

    first_pig = entry_data.get("first_pig") if isinstance(entry_data, dict) else None
    note = _note_of(entry_data)
    edit_hand(path, number, hand, first_pig=first_pig if isinstance(first_pig, str) else None,
              note=note if note is not None else "", expect=version)  # fmt: skip
    return _done(path, "edit", number, lang)


def remove(path: str, number: int, data: object, lang: str) -> dict[str, Any]:
    """Take out hand ``number``, as ``match remove`` does."""
    _, version = _version(path, data)
    taken = remove_hand(path, number, expect=version)
    return _done(path, "remove", taken.number, lang)


def rename(path: str, data: object, lang: str) -> dict[str, Any]:
    """Rename a player (``{"version", "old", "new"}``), as ``match rename`` does."""
    body, version = _version(path, data)
    seen = read_as_seen(path, version)  # (a player of the match as that phone saw it)
    old, new = body.get("old"), body.get("new")
    if not isinstance(new, str):
        raise error(RequestError, "error.web.field", field="new", value=printable(repr(new)))
    rename_player(path, _player(seen, old, "old"), new, expect=version)
    return _done(path, "rename", 0, lang, {"old": old, "new": new.strip()})


def undo(path: str, data: object, lang: str) -> dict[str, Any]:
    """Take out the last hand, as ``match undo`` does."""
    _, version = _version(path, data)
    taken = undo_hand(path, expect=version)
    return _done(path, "undo", taken.number, lang)
