"""``match list``: one's matches, as a table or as JSON."""

from __future__ import annotations

from typing import Any

from ..match.current import Listing, Matches
from ..terms import count_of, join, printable, say
from .formats import Format, json_text, table

__all__ = ["listing_to_dict", "render_match_list"]


def _state(item: Listing) -> tuple[str, str | None, str | None]:
    """A match's state for scripts, with loser and winner when over.

    The states are ``in_play``, ``over``, ``missing`` and ``unreadable``.
    """
    if item.missing:
        return "missing", None, None
    if item.ledger is None:
        return "unreadable", None, None
    status = item.ledger.status()
    return ("over" if status.ended else "in_play"), status.loser, status.winner


def listing_to_dict(item: Listing) -> dict[str, Any]:
    """One match of ``match list --format json``."""
    state, loser, winner = _state(item)
    ledger = item.ledger
    return {
        "ledger": item.shown,
        "path": item.path,
        "current": item.current,
        "remembered": item.remembered,
        "changed": item.changed.isoformat(timespec="seconds") if item.changed else None,
        "players": list(ledger.players) if ledger is not None else None,
        "hands": ledger.count if ledger is not None else None,
        "state": state,
        "loser": loser,
        "winner": winner,
        "error": printable(item.problem.text("en")) if item.problem is not None else None,
    }


def _state_text(item: Listing, lang: str) -> str:
    state, loser, _ = _state(item)
    if state == "missing":
        return say("match.list_missing", lang)
    if state == "unreadable":
        assert item.problem is not None
        return say("match.list_unreadable", lang, error=item.problem)
    if state == "over" and loser is None:
        return say("match.list_draw", lang)
    if state == "over":
        return say("match.list_over", lang, loser=loser)
    return say("match.list_in_play", lang)


def render_match_list(
    matches: Matches, fmt: Format, lang: str = "en", table_format: str = "simple"
) -> str:
    """``match list``: a row per match, or all of it as JSON.

    Each row has its ledger (the current one marked ``*``), its last change, players, hands and
    state. A last line says how many remembered ledgers that are gone were left out (or just
    forgotten), and how to forget them.
    """
    if fmt is Format.json:
        current = matches.current.ledger if matches.current is not None else None
        data = {
            "current": current,
            "matches": [listing_to_dict(m) for m in matches.listings],
            "gone": list(matches.gone),
            "forgotten": list(matches.forgotten),
        }
        return json_text(data)
    if not matches.listings:
        return "\n".join([say("match.list_none", lang), *_gone_lines(matches, lang)]) + "\n"
    rows = []
    for item in matches.listings:
        ledger = item.ledger
        rows.append(
            [
                "*" if item.current else "",
                printable(item.shown),
                item.changed.isoformat(timespec="seconds") if item.changed else "",
                join(ledger.players, lang) if ledger is not None else "",
                ledger.count if ledger is not None else "",
                _state_text(item, lang),
            ]
        )
    keys = ("match.list_ledger", "match.list_changed", "match.list_players", "match.list_hands",
            "match.list_state")  # fmt: skip
    headers = ["", *(say(k, lang) for k in keys)]
    align = ("left", "left", "left", "left", "right", "left")
    lines = [table(rows, headers, table_format, colalign=align)]
    if any(item.current for item in matches.listings):
        assert matches.current is not None
        variable = matches.current.source == "variable"
        lines += [
            "",
            say("match.list_current_variable" if variable else "match.list_current", lang),
        ]
    gone = _gone_lines(matches, lang)
    if gone:
        lines += ["", *gone]
    return "\n".join(lines) + "\n"


def _gone_lines(matches: Matches, lang: str) -> list[str]:
    """The remembered ledgers forgotten, and those left out, being gone, with how to forget."""
    lines = []
    if matches.forgotten:
        lines.append(count_of("match.list_forgot", len(matches.forgotten), lang))
    if matches.gone:
        lines.append(count_of("match.list_gone", len(matches.gone), lang))
    return lines
