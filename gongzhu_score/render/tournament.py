"""A tournament's standings and seating, as text for people and as JSON and CSV for scripts
(``tournament show``, ``tournament round``, ``tournament new``)."""

from __future__ import annotations

from typing import Any

from ..match.standings import Placed
from ..match.tournament import Table, Tournament
from ..match.tournaments import Standings
from ..terms import Listed, count_of, say
from .formats import csv_text, format_number, json_number, table

__all__ = [
    "round_text",
    "standings_csv",
    "standings_page",
    "standings_text",
    "standings_to_dict",
    "started_text",
]


def standings_to_dict(standings: Standings) -> dict[str, Any]:
    """``tournament show --format json`` (a contract): ``{players: [{name, total, rank,
    matches, decided_by}]}``, best first; ``decided_by`` null, ``last-match`` or
    ``registration``."""
    return {"players": [_placed(p) for p in standings.placed]}


def _placed(p: Placed) -> dict[str, Any]:
    return {
        "name": p.name,
        "total": json_number(p.total),
        "rank": p.rank,
        "matches": p.matches,
        "decided_by": p.decided_by,
    }


def standings_csv(standings: Standings) -> str:
    """A row per player, best first: the JSON's keys as the header (``decided_by`` empty
    where no tie-break was needed)."""
    keys = ["rank", "name", "total", "matches", "decided_by"]
    rows = [
        [d[k] if d[k] is not None else "" for k in keys] for d in map(_placed, standings.placed)
    ]
    return csv_text([keys, *rows])


def _decided(placed: Placed, lang: str) -> str:
    return "" if placed.decided_by is None else say(f"tournament.by.{placed.decided_by}", lang)


def _title(t: Tournament, lang: str) -> str:
    """``tournament cup: 8 players, 3 rounds · ties: …``."""
    tiebreak = say(f"tournament.tiebreak.{t.tiebreak.value}", lang)
    rounds = count_of("rounds", len(t.rounds), lang)
    return say("tournament.title", lang, name=t.name, count=len(t.players), rounds=rounds,
               tiebreak=tiebreak)  # fmt: skip


def _where(path: str, standings: Standings, lang: str) -> str:
    """Where the tournament is: no round yet, a round in play, or a round over."""
    t = standings.tournament
    if not t.rounds:
        return say("tournament.no_round", lang, file=path)
    if standings.in_play:
        return say("tournament.in_play", lang, round=len(t.rounds), count=len(standings.in_play),
                   tables=len(t.rounds[-1]))  # fmt: skip
    return say("tournament.round_over", lang, round=len(t.rounds), file=path)


def standings_text(
    path: str, standings: Standings, lang: str = "en", table_format: str = "simple"
) -> str:
    """The standings as a table, a line saying where the tournament is, and what each
    tie-break named means."""
    t = standings.tournament
    head = _title(t, lang)
    headers = [
        say(f"tournament.col.{k}", lang) for k in ("rank", "player", "total", "matches", "tiebreak")
    ]
    rows = [
        [p.rank, p.name, format_number(p.total), p.matches, _decided(p, lang)]
        for p in standings.placed
    ]
    lines = [
        head,
        "",
        table(rows, headers, table_format, colalign=("right", "left", "right", "right", "left")),
    ]
    lines.append(_where(path, standings, lang))
    if any(p.decided_by is not None for p in standings.placed):
        lines.append(say(f"tournament.ties.{t.tiebreak.value}", lang))
    return "\n".join(lines) + "\n"


def standings_page(file: str, standings: Standings, lang: str = "en") -> dict[str, Any]:
    """A tournament as the table's page shows it (``GET /api/matches``'s ``tournaments``): the
    standings as ``tournament show --format json`` has them, the words for the tie-breaks, and
    the last round's tables, each a match of the folder the page can open."""
    t = standings.tournament
    players = [{**_placed(p), "decided": _decided(p, lang)} for p in standings.placed]
    tables = []
    if t.rounds:
        for k, (table, ledger) in enumerate(
            zip(t.rounds[-1], standings.ledgers[-1], strict=True), 1
        ):
            status = ledger.status()
            tables.append(
                {
                    "table": k,
                    "ledger": table.ledger,
                    "players": list(table.players),
                    "hands": ledger.count,
                    "last_hand": ledger.last_hand,
                    "ended": status.ended,
                    "pig": status.loser,
                }
            )
    return {
        "file": file,
        "name": t.name,
        "title": _title(t, lang),
        "round": len(t.rounds),
        "status": _where(file, standings, lang),
        "headers": [
            say(f"tournament.col.{k}", lang) for k in ("rank", "player", "total", "tiebreak")
        ],
        "players": players,
        "tables": tables,
    }


def round_text(path: str, number: int, tables: tuple[Table, ...], lang: str = "en") -> str:
    """``tournament round``: the round seated, table by table, seat 1 (North) first; each
    table's ledger as a path beside ``path`` (the tournament file as it was given), so that
    the command it suggests works from where it was run."""
    import os

    def beside(ledger: str) -> str:
        return os.path.join(os.path.dirname(path), ledger)

    lines = [say("tournament.seated", lang, round=number)]
    for k, t in enumerate(tables, 1):
        lines.append(
            say("tournament.table", lang, table=k, file=beside(t.ledger), players=Listed(t.players))
        )
    lines.append(say("tournament.play_hint", lang, file=beside(tables[0].ledger)))
    return "\n".join(lines) + "\n"


def started_text(path: str, tournament: Tournament, lang: str = "en") -> str:
    """``tournament new``: who is registered, how tables play, how ties go."""
    from .match import end_text

    settings = tournament.settings
    return (
        say(
            "tournament.new",
            lang,
            file=path,
            name=tournament.name,
            count=len(tournament.players),
            variant=settings.variant.name,
            normalize=settings.normalization.describe(),
            end=end_text(settings, lang),
            tiebreak=say(f"tournament.tiebreak.{tournament.tiebreak.value}", lang),
        )
        + "\n"
    )
